//! The vocabulary of the write path: the operations [`crate::Store::apply`] runs,
//! their options, and what they return (outcomes, shown and listed notes), all
//! serialisable for `--format json` and MCP.

use cairn_note::{MemoryType, Sensitivity};
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::usage::Usage;

/// How `write` treats an existing note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    /// Create; refuse if the note exists.
    Create,
    /// Add a dated section (or, in an entry file, a dated entry).
    Append,
    /// Replace the body; frontmatter keys not given are kept.
    Force,
}

/// Frontmatter for `write` (each `None` keeps or omits the key).
#[derive(Debug, Clone, Default)]
pub struct NewNote {
    /// `title` (or, appending to an entry file, the entry's title).
    pub title: Option<String>,
    /// `memory_type`.
    pub memory_type: Option<MemoryType>,
    /// `description`.
    pub description: Option<String>,
    /// `sensitivity`.
    pub sensitivity: Option<Sensitivity>,
    /// `tags` (or the entry's tags).
    pub tags: Vec<String>,
    /// An entry's `**Category:**`.
    pub category: Option<String>,
}

/// One operation.
#[derive(Debug, Clone)]
pub enum Op {
    /// Create (or append to, or replace) a note.
    Write {
        /// Name.
        slug: String,
        /// Markdown body.
        body: String,
        /// What to do if it exists.
        mode: WriteMode,
        /// Frontmatter.
        meta: NewNote,
    },
    /// Replace the one occurrence of `old` with `new`.
    Edit {
        /// Name.
        slug: String,
        /// Text to find (must occur exactly once).
        old: String,
        /// Replacement.
        new: String,
    },
    /// Insert `text` after line `line` (0 = at the top).
    Insert {
        /// Name.
        slug: String,
        /// Line number.
        line: usize,
        /// Text.
        text: String,
    },
    /// Rename within the scope.
    Move {
        /// Name.
        slug: String,
        /// New name.
        to: String,
    },
    /// Move to the scope's archive folder, or delete with `purge`.
    Remove {
        /// Name.
        slug: String,
        /// Delete instead of archiving.
        purge: bool,
    },
    /// Set or clear `pinned`.
    Pin {
        /// Name.
        slug: String,
        /// New state.
        pinned: bool,
    },
    /// Mark `old` superseded by `by`, linking both ways.
    Supersede {
        /// The replaced note.
        old: String,
        /// The replacing note.
        by: String,
    },
    /// Regenerate `MEMORY.md` only.
    Reindex,
}

/// Options shared by every write.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// Compare-and-swap: the primary note's current content hash must be this.
    pub expect_hash: Option<String>,
    /// Compute and return the diffs; write nothing.
    pub dry_run: bool,
    /// Accept credentials in the new text; the note is then marked secret.
    pub allow_secrets: bool,
    /// Allow the write to lower a note's (or an entry's) effective sensitivity.
    /// Only the CLI's `--declassify` sets it; MCP never does.
    pub declassify: bool,
    /// "Now", for dates and usage statistics.
    pub now: DateTime<Utc>,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A new file.
    Created,
    /// Changed in place.
    Modified,
    /// Renamed (see `to`).
    Moved,
    /// Moved to the archive folder (see `to`).
    Archived,
    /// Deleted.
    Deleted,
    /// Nothing to do.
    Unchanged,
}

/// One file change of an [`Outcome`].
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// Vault-relative path.
    pub path: String,
    /// What happened.
    pub action: Action,
    /// Where it went (moves and archives).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Content hash before (none for a note that hides any of its text:
    /// secret, confidential, entries withheld or credentials redacted).
    pub hash_before: Option<String>,
    /// Content hash after (none likewise).
    pub hash_after: Option<String>,
    /// Unified diff (redacted; withheld for secret and confidential notes).
    pub diff: String,
}

/// The scope index after an operation.
#[derive(Debug, Clone, Serialize)]
pub struct IndexStatus {
    /// Vault-relative path of `MEMORY.md`.
    pub path: String,
    /// Entry lines.
    pub entries: usize,
    /// The line budget.
    pub budget: usize,
    /// Whether the file changed.
    pub changed: bool,
}

/// The result of [`Store::apply`](crate::Store::apply).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The scope.
    pub scope: String,
    /// Its vault-relative folder.
    pub folder: String,
    /// Nothing was written.
    pub dry_run: bool,
    /// Note changes, in order (the index is reported in `index`).
    pub changes: Vec<Change>,
    /// `MEMORY.md`.
    pub index: Option<IndexStatus>,
    /// Things worth saying that did not stop the operation.
    pub warnings: Vec<String>,
}

/// A note as `cairn memory show` returns it, after policy.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    /// Scope.
    pub scope: String,
    /// Name.
    pub slug: String,
    /// Vault-relative path.
    pub path: String,
    /// Content hash (for `--expect-hash`; sealed for a note that hides any of
    /// its text: keyed with its file's identity, it confirms no guess).
    pub hash: String,
    /// Title (redacted).
    pub title: String,
    /// Sensitivity.
    pub sensitivity: String,
    /// Confidential: content withheld.
    pub withheld: bool,
    /// The file (credentials redacted); empty when withheld.
    pub content: String,
    /// Credentials redacted.
    pub redactions: usize,
}

/// One note of `cairn memory list`, after policy.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    /// Name.
    pub slug: String,
    /// Vault-relative path.
    pub path: String,
    /// Title (`(secret)` for secret notes).
    pub title: String,
    /// Description (none for secret and confidential notes).
    pub description: Option<String>,
    /// Memory type.
    pub memory_type: Option<String>,
    /// Sensitivity.
    pub sensitivity: String,
    /// Status.
    pub status: String,
    /// Pinned.
    pub pinned: bool,
    /// `updated`, else `created`.
    pub date: Option<String>,
    /// Content hash (sealed as [`Shown::hash`] is).
    pub hash: String,
    /// Usage statistics from the sidecar.
    pub usage: Usage,
}
