//! Notes dated by git: in a vault kept in a git repository, a note that says no
//! date of its own (`updated`, `created`) is dated by the last commit of its
//! file, when the file is as git wrote it, instead of by the file's time (a
//! clone, a checkout or a pull gives every file the day it ran, so every undated
//! note read "edited today" and took the freshest recency). A file edited since
//! keeps its own time. The history is the one `cairn index` keeps for the
//! vault's repository in the cache folder; a wake-up only brings it up to date
//! when a few commits are new (never the cold pass). `[git] date_notes = false`
//! turns it off.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cairn_config::Config;
use cairn_git::{CommittedDays, HistoryLimits};
use cairn_note::Note;

/// The committed days of the vault's files, read on first need.
pub(crate) struct NoteDates {
    vault: PathBuf,
    cache_dir: PathBuf,
    limits: HistoryLimits,
    days: OnceLock<Option<CommittedDays>>,
}

impl NoteDates {
    /// For a vault opened with a cache folder; `None` when `[git] date_notes`
    /// is off.
    pub(crate) fn new(config: &Config, cache_dir: &Path) -> Option<Self> {
        config.git.date_notes.then(|| Self {
            vault: config.vault.root.clone(),
            cache_dir: cache_dir.to_path_buf(),
            limits: crate::code_changed::limits(config),
            days: OnceLock::new(),
        })
    }

    /// Dates the notes of the file at `path` (vault-relative) of this `size`
    /// and modification time that say no date of their own, by the day of the
    /// file's last commit when git says the file is as it wrote it and that
    /// day is earlier than the file's.
    pub(crate) fn date(&self, notes: &mut [Note], path: &str, mtime_ns: i64, size: u64) {
        if notes
            .iter()
            .all(|n| n.updated.is_some() || n.created.is_some())
        {
            return;
        }
        let Some(days) = self.days.get_or_init(|| self.read()) else {
            return;
        };
        let Some(day) = days.day_of(path, mtime_ns, size) else {
            return;
        };
        let committed = day * 86_400;
        for n in notes {
            if n.updated.is_none() && n.created.is_none() && n.mtime.is_none_or(|m| committed < m) {
                n.mtime = Some(committed);
            }
        }
    }

    fn read(&self) -> Option<CommittedDays> {
        let vault = self.vault.canonicalize().ok()?;
        let repo = cairn_git::open(&vault).ok()?;
        let (mut history, file) =
            crate::code_changed::cached_history(&self.cache_dir, repo.workdir(), || {
                repo.main_workdir().map(Path::to_path_buf)
            });
        let update = history.update(&repo, &self.limits, false).ok()?;
        if update.changed() {
            // Not synced, and a failed write is read again next time.
            let _ = history.save_unsynced(&file);
        }
        if history.is_empty() {
            return None;
        }
        repo.committed_days(&history, &vault).ok()
    }
}

/// The repository the vault is kept in, when `[git] date_notes` is on: its
/// history is what dates the undated notes (`cairn index` reads it).
pub(crate) fn vault_repository(config: &Config) -> Option<cairn_git::Repository> {
    if !config.git.date_notes {
        return None;
    }
    cairn_git::open(&config.vault.root.canonicalize().ok()?).ok()
}
