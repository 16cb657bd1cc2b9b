//! The one error type of git reading: which step failed and why, in words.

use std::path::PathBuf;

/// A git read that failed. Each names the step and carries gix's message.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// No repository contains the folder.
    #[error("{path} is not inside a git repository")]
    NotARepository {
        /// The folder asked about.
        path: PathBuf,
    },
    /// A repository was found but could not be opened (damaged, unsupported).
    #[error("cannot open the git repository at {path}: {message}")]
    Open {
        /// The folder asked about.
        path: PathBuf,
        /// gix's message.
        message: String,
    },
    /// A bare repository has no working tree to read.
    #[error("the git repository at {path} is bare: no working tree")]
    Bare {
        /// Its git folder.
        path: PathBuf,
    },
    /// Reading part of an opened repository failed.
    #[error("cannot read {what} of the git repository: {message}")]
    Read {
        /// What was being read (`HEAD`, `status`, `history`, ...).
        what: &'static str,
        /// gix's message.
        message: String,
    },
    /// The history cache file could not be written.
    #[error("cannot write the git history cache {path}: {source}")]
    CacheWrite {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl GitError {
    /// A read error of `what`, from any displayable cause.
    pub(crate) fn read(what: &'static str, e: &impl std::fmt::Display) -> Self {
        Self::Read {
            what,
            message: e.to_string(),
        }
    }
}
