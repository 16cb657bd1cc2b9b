//! The one configuration error: file, line, key and message, on one line.

use std::fmt;
use std::path::{Path, PathBuf};

/// A configuration error: file, line, key and message, displayed on one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    /// The configuration file (or the folder given with `--vault`).
    pub path: PathBuf,
    /// 1-based line, when the error points into the file.
    pub line: Option<usize>,
    /// The dotted key the error is about (`projects[1].repo_paths`).
    pub key: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl ConfigError {
    pub(crate) fn new(
        path: &Path,
        line: Option<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            path: path.to_path_buf(),
            line,
            key: key.map(str::to_owned),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": key `{key}`")?;
        }
        write!(f, ": {}", self.message)
    }
}
