//! Where the configuration file is: `--config`, then `$CAIRN_CONFIG`, then the
//! user's XDG config file.

use std::path::PathBuf;

use crate::ConfigError;

/// Where a configuration was looked for, in order; used to explain "no config found".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// `--config FILE`.
    pub flag: Option<PathBuf>,
    /// `$CAIRN_CONFIG`.
    pub env: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME/cairn/config.toml`, else `~/.config/cairn/config.toml`.
    pub user: Option<PathBuf>,
}

impl Discovery {
    /// Builds the search list from the flag and the environment (`CAIRN_CONFIG`,
    /// `XDG_CONFIG_HOME`, `HOME`), read through `env` so tests can pin it.
    pub fn new(flag: Option<PathBuf>, env: impl Fn(&str) -> Option<String>) -> Self {
        let nonempty = |key: &str| env(key).filter(|v| !v.is_empty());
        let user = nonempty("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| nonempty("HOME").map(|h| PathBuf::from(h).join(".config")))
            .map(|dir| dir.join("cairn").join("config.toml"));
        Self {
            flag,
            env: nonempty("CAIRN_CONFIG").map(PathBuf::from),
            user,
        }
    }

    /// The file to load: the flag or the variable if given (they must exist), else the
    /// user file when it exists. `Ok(None)` means no configuration anywhere.
    pub fn locate(&self) -> Result<Option<PathBuf>, ConfigError> {
        if let Some(path) = &self.flag {
            return Ok(Some(path.clone()));
        }
        if let Some(path) = &self.env {
            if !path.is_file() {
                return Err(ConfigError::new(
                    path,
                    None,
                    Some("CAIRN_CONFIG"),
                    "the file named by $CAIRN_CONFIG does not exist",
                ));
            }
            return Ok(Some(path.clone()));
        }
        Ok(self.user.clone().filter(|p| p.is_file()))
    }
}
