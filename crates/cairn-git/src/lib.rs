//! Git reading for cairn, and nothing else: what a working tree says about the
//! task at hand (its branch, its changed files, the branch's own commits, its
//! remotes) and which commits touched which files (the history cache).
//!
//! Everything is read through gix; no `.git` file is parsed here by hand,
//! except the one-line state files a rebase or a bisect leaves, which gix does
//! not read (`in_progress`). The
//! crate knows nothing of notes, ranking or rendering: the engine calls it and
//! decides what the answers mean. Every failure is a typed [`GitError`]; a caller
//! treats a missing or broken repository as a diagnostic, never as a failure of
//! its own. Nothing here prints.

mod branch;
mod committed;
mod error;
mod history;
mod in_progress;
mod preload;
mod remote;
mod tree;
mod untracked;
mod words;

pub use committed::CommittedDays;
pub use error::GitError;
pub use history::{History, HistoryLimits, HistoryUpdate, TouchCount, touch_counts};
pub use in_progress::Operation;
pub use remote::{Remote, normalize_remote, remotes_at};
pub use tree::{ReadOptions, Repository, StatusCache, WorkingTree, open, read_working_tree};
pub use words::{author_names, branch_words, subject_topic};
