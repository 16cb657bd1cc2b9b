//! What can go wrong on the write path, grouped by what the caller should do
//! about it ([`ErrorKind`]): every refusal says why and what to pass instead.

use std::path::PathBuf;

/// How a [`MemoryError`] should be reported (the CLI maps these to exit codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The write was refused to protect the vault; nothing changed (exit 3).
    Refused,
    /// The note or scope does not exist (exit 1).
    NotFound,
    /// The request itself is wrong: unknown scope or project, bad arguments (exit 2).
    Usage,
    /// Policy forbids showing the note (exit 4).
    Policy,
    /// The file system failed (exit 1).
    Io,
}

/// A write-path failure. Nothing is half-written when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// The slug cannot name a note file.
    #[error("refused: `{slug}` is not a valid memory name: {reason}")]
    InvalidSlug {
        /// As given.
        slug: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The note exists and the write would overwrite it.
    #[error(
        "refused: {path} already exists; pass --append to add a dated section, --force to replace it, or choose another name"
    )]
    Exists {
        /// Vault-relative path.
        path: String,
    },
    /// Another file differs from the name only by case (clashes on macOS and Windows).
    #[error("refused: {path} would clash with {existing}, which differs only by letter case")]
    CaseCollision {
        /// The path asked for.
        path: String,
        /// The file already there.
        existing: String,
    },
    /// `--expect-hash` did not match the note's current content.
    #[error(
        "refused: {path} changed since you read it (content hash {actual}, expected {expected}); re-read it with `cairn memory show` and retry"
    )]
    HashMismatch {
        /// Vault-relative path.
        path: String,
        /// What the caller expected.
        expected: String,
        /// What the file hashes to now (`absent` when it does not exist).
        actual: String,
    },
    /// A path resolves outside the scope folder or the vault (symlink, `..`).
    #[error("refused: {path} resolves outside {root} ({reason}); cairn never writes there")]
    Escape {
        /// The path asked for.
        path: String,
        /// The folder it must stay in.
        root: String,
        /// How it escapes.
        reason: String,
    },
    /// The note would exceed the size cap.
    #[error(
        "refused: {path} would be {bytes} bytes, over the {limit}-byte limit ([memory] max_note_bytes); split it into several notes"
    )]
    TooLarge {
        /// Vault-relative path.
        path: String,
        /// Size after the write.
        bytes: u64,
        /// The cap.
        limit: u64,
    },
    /// The new text holds credentials.
    #[error(
        "refused: the text holds {count} credential(s) ({kinds}); remove them, or pass --allow-secrets to store the note as `sensitivity: secret` (never shown by cairn)"
    )]
    Credentials {
        /// How many.
        count: usize,
        /// Their kinds and lines, e.g. `github-token on line 3` (never the values).
        kinds: String,
    },
    /// A slug (a note's file name) holds a credential: refused whatever the
    /// flags, since a file name is shown wherever the note is listed.
    #[error(
        "refused: the slug holds a credential ({kind}); a note's name is shown wherever it is listed: choose a name that describes the note"
    )]
    CredentialSlug {
        /// The credential's kind (never its value).
        kind: String,
    },
    /// `edit --old` matched no text.
    #[error("refused: the text to replace does not occur in {path}; nothing changed")]
    NoMatch {
        /// Vault-relative path.
        path: String,
    },
    /// `edit --old` matched several places.
    #[error(
        "refused: the text to replace occurs {count} times in {path} (lines {lines}); give more context so it matches once"
    )]
    AmbiguousMatch {
        /// Vault-relative path.
        path: String,
        /// How many matches.
        count: usize,
        /// Their 1-based lines, comma-separated.
        lines: String,
    },
    /// `insert --line` is past the end of the note.
    #[error("refused: {path} has {lines} lines; --line must be between 0 and {lines}")]
    LineOutOfRange {
        /// Vault-relative path.
        path: String,
        /// Line count.
        lines: usize,
    },
    /// The change would leave the frontmatter unreadable, or it is unreadable already.
    #[error("refused: {path}: {reason}")]
    Frontmatter {
        /// Vault-relative path.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The note changed on disk (another program saved it) between the plan and
    /// the rename; nothing was written.
    #[error(
        "refused: {path} was changed by another program while cairn was writing it; nothing was overwritten: re-read it (`cairn memory show`) and retry"
    )]
    Changed {
        /// Vault-relative path (absolute while it comes from the file layer).
        path: String,
    },
    /// The write would lower the effective sensitivity of a note or an entry.
    #[error(
        "refused: the write would lower the sensitivity of {what} from {from} to {to}; nothing changed (only `cairn memory ... --declassify` lowers it, on purpose)"
    )]
    Declassify {
        /// Vault-relative path.
        path: String,
        /// `path`, or `an entry of <path>` (never the entry's title).
        what: String,
        /// The level before.
        from: String,
        /// The level the write would leave.
        to: String,
    },
    /// The note was written but `MEMORY.md` could not be (disk full, ...).
    #[error(
        "{done}, but {index} could not be updated ({error}): the index is stale; the next write (or `cairn memory reindex`) repairs it"
    )]
    IndexStale {
        /// What was done to the notes (`<path> written`, ...).
        done: String,
        /// The index, vault-relative.
        index: String,
        /// Why it failed.
        error: String,
    },
    /// A request the store refuses for another stated reason.
    #[error("refused: {0}")]
    Refused(String),
    /// No note by that name in the scope.
    #[error("no memory `{slug}` in scope {scope} ({folder}){hint}")]
    NotFound {
        /// The scope.
        scope: String,
        /// As asked.
        slug: String,
        /// Vault-relative scope folder.
        folder: String,
        /// ", did you mean ..." or empty.
        hint: String,
    },
    /// A scope string that names no scope.
    #[error("{0}")]
    Usage(String),
    /// The note is secret: cairn never shows it.
    #[error("refused: {path} is a secret note; cairn never shows secret notes")]
    Secret {
        /// Vault-relative path.
        path: String,
    },
    /// The file system failed.
    #[error("{path}: {error}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error (shown in the message, so not chained again).
        error: std::io::Error,
    },
}

impl MemoryError {
    /// How to report this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            MemoryError::NotFound { .. } => ErrorKind::NotFound,
            MemoryError::Usage(_) => ErrorKind::Usage,
            MemoryError::Secret { .. } => ErrorKind::Policy,
            MemoryError::Io { .. } | MemoryError::IndexStale { .. } => ErrorKind::Io,
            _ => ErrorKind::Refused,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> MemoryError {
        let path = path.into();
        move |error| MemoryError::Io { path, error }
    }
}
