//! Notes dated by git: in a vault kept in a git repository, a note that says no
//! date of its own (`updated`, `created`) is dated by the last commit of its
//! file, when the file is as git wrote it, instead of by the file's time (a
//! clone, a checkout or a pull gives every file the day it ran, so every undated
//! note read "edited today" and took the freshest recency). A file edited since
//! keeps its own time. The history is the one `cairn index` keeps of the
//! vault's folder of its repository (only the commits that touched it) in the
//! cache folder; a wake-up only brings it up to date when a few commits are new
//! (never the cold pass). `[git] date_notes = false`
//! turns it off.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cairn_config::Config;
use cairn_git::{CommittedDays, History, HistoryLimits};
use cairn_note::Note;

/// The committed days of the vault's files, read on first need.
pub(crate) struct NoteDates {
    vault: PathBuf,
    cache_dir: PathBuf,
    limits: HistoryLimits,
    days: OnceLock<Option<CommittedDays>>,
    /// When its history was never read (no `cairn index` yet, or emptied by a
    /// move of `HEAD` too far to follow): the working tree of the vault's
    /// repository (a hook starts `cairn index` there in the background), the
    /// history's cache file, and that file's size and time then (`None`: none).
    unread: OnceLock<Unread>,
}

/// See [`NoteDates::unread`].
struct Unread {
    workdir: PathBuf,
    file: PathBuf,
    stamp: Option<(u64, std::time::SystemTime)>,
}

/// A file's size and modification time, `None` when it cannot be read.
fn stamp(file: &Path) -> Option<(u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(file).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

impl NoteDates {
    /// For a vault opened with a cache folder; `None` when `[git] date_notes`
    /// is off.
    pub(crate) fn new(config: &Config, cache_dir: &Path) -> Option<Self> {
        config.git.date_notes.then(|| Self {
            vault: config.vault.root.clone(),
            cache_dir: cache_dir.to_path_buf(),
            limits: limits(config),
            days: OnceLock::new(),
            unread: OnceLock::new(),
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
        let committed = day.saturating_mul(86_400);
        // Said as the last commit's day only when a commit read touched the
        // file (a capped history's oldest day only bounds it: ranked by it,
        // never shown as it).
        let committed_day = days
            .is_last_commit(path)
            .then(|| chrono::DateTime::from_timestamp(committed, 0).map(|d| d.date_naive()))
            .flatten();
        // Only notes dated by that very file time: a note read again from a
        // file edited since it was indexed carries the new time.
        let indexed = mtime_ns.div_euclid(1_000_000_000);
        for n in notes {
            if n.updated.is_none()
                && n.created.is_none()
                && n.mtime == Some(indexed)
                && committed < indexed
            {
                n.mtime = Some(committed);
                n.committed = committed_day;
            }
        }
    }

    /// The working tree of the vault's repository when dating a note found its
    /// history never read.
    pub(crate) fn unread(&self) -> Option<&Path> {
        self.unread.get().map(|u| u.workdir.as_path())
    }

    /// Whether the history found never read has been written since (by a
    /// background `cairn index`): an engine that lives on (the MCP server's)
    /// opens again to date its notes. A history file that stays as it was (an
    /// emptied or damaged one) asks for no reopening.
    pub(crate) fn read_since(&self) -> bool {
        self.unread
            .get()
            .is_some_and(|u| stamp(&u.file).is_some_and(|now| Some(now) != u.stamp))
    }

    /// Notes that the history of the vault's repository is not read (see
    /// [`NoteDates::unread`]).
    fn mark_unread(&self, repo: &cairn_git::Repository, file: PathBuf) {
        let _ = self.unread.set(Unread {
            workdir: repo.workdir().to_path_buf(),
            stamp: stamp(&file),
            file,
        });
    }

    fn read(&self) -> Option<CommittedDays> {
        let VaultHistory {
            vault,
            repo,
            under,
            file,
            kept,
            ..
        } = VaultHistory::open(&self.vault, &self.cache_dir)?;
        // Kept from the last run for the same commit, index and history: the
        // history is not loaded, the index not read (a vault that is a folder
        // of a large repository paid for reading its index at every wake-up).
        if let Some(head) = repo.head_commit()
            && let Some(key) = repo.days_key(&head, &file, &under)
            && let Some(days) = CommittedDays::read_kept(&kept, &key)
        {
            return Some(days);
        }
        let mut history = History::load(&file);
        // Never the cold pass (`cairn index`'s); the line set aside is swapped
        // in when `HEAD` is back near it.
        let update = crate::code_changed::update_history(
            &mut history,
            &file,
            &repo,
            &self.limits,
            false,
            &under,
        )
        .ok()?;
        if update.changed() {
            // Not synced, and a failed write is read again next time.
            let _ = history.save_unsynced(&file);
        }
        let Some(head) = history.head() else {
            // No history, or emptied (`HEAD` moved too far to follow without
            // the cold pass): no days, and a background `cairn index` is asked for.
            self.mark_unread(&repo, file);
            return None;
        };
        // Before the index is read (see `days_key`).
        let key = repo.days_key(head, &file, &under);
        let status = crate::code_changed::status_cache(&self.cache_dir, repo.workdir());
        let days = repo
            .committed_days(&history, &vault, Some(&status.staged))
            .ok()?;
        if let Some(key) = key {
            days.keep(&kept, key);
        }
        Some(days)
    }
}

/// The repository a vault is kept in and where the history of its folder is
/// cached.
struct VaultHistory {
    /// The vault's root, canonical.
    vault: PathBuf,
    repo: cairn_git::Repository,
    /// The vault's folder in the working tree (`""`: its root).
    under: String,
    /// The history's cache file.
    file: PathBuf,
    /// Where the days computed from that history are kept.
    kept: PathBuf,
    /// The history file of the first kind, cut at `history_days`, that `file`
    /// replaces (read again whole by the next `cairn index`, which removes it).
    replaced: PathBuf,
}

impl VaultHistory {
    /// For the vault at `root` with its cache in `cache_dir`; `None` outside git.
    fn open(root: &Path, cache_dir: &Path) -> Option<Self> {
        let vault = root.canonicalize().ok()?;
        let repo = cairn_git::open(&vault).ok()?;
        let under = repo.folder_of(&vault)?;
        // One key for the folder of the repository: only the commits that
        // touched the vault's files are kept (a vault kept in a large
        // repository loads a fraction of its history).
        let mut key = repo.workdir().as_os_str().as_encoded_bytes().to_vec();
        key.push(0);
        key.extend_from_slice(under.as_bytes());
        let key = cairn_note::ContentHash::of(&key).short_hex();
        // `-2`: read without a limit of days.
        let file = cache_dir.join(format!("git-vault-history-2-{key}.txt"));
        let kept = cache_dir.join(format!("git-vault-days-2-{key}.txt"));
        let replaced = cache_dir.join(format!("git-vault-history-{key}.txt"));
        Some(Self {
            vault,
            repo,
            under,
            file,
            kept,
            replaced,
        })
    }
}

/// The limits of the vault's history: `[git] history_commits`, and no limit of
/// days. A note's day is its file's last commit however old (a note left alone
/// for three years is three years old, not `history_days`). The walk reads up
/// to `history_commits` commits of the whole repository and keeps those that
/// touched the vault's folder: 2,351 commits of a vault of 1,873 notes in
/// 0.28 s, the 16,863 of ruff's repository (a vault in its `docs/`) in 7 s, in
/// `cairn index` only. Past the cap, a note's day is the oldest one read (an
/// upper bound, never shown as its last commit).
fn limits(config: &Config) -> HistoryLimits {
    HistoryLimits {
        max_days: u32::MAX,
        ..crate::code_changed::limits(config)
    }
}

/// `cairn index`: brings the history of the vault's files up to date in
/// `cache_dir` (the first time, the capped cold pass; with `fresh`, read again
/// whole), when `[git] date_notes` is on and the vault is kept in a repository.
/// The repository's root and what was done, in words.
pub(crate) fn index_vault_history(
    config: &Config,
    cache_dir: &Path,
    fresh: bool,
) -> Option<(PathBuf, String)> {
    if !config.git.date_notes {
        return None;
    }
    let VaultHistory {
        repo,
        under,
        file,
        replaced,
        ..
    } = VaultHistory::open(&config.vault.root, cache_dir)?;
    // Gone already, or to be removed by the next run.
    let _ = std::fs::remove_file(replaced);
    let mut history = if fresh {
        // Read again from scratch: not the line set aside either.
        let _ = std::fs::remove_file(crate::code_changed::aside_file(&file));
        History::default()
    } else {
        History::load(&file)
    };
    let limits = limits(config);
    let outcome = match crate::code_changed::update_history(
        &mut history,
        &file,
        &repo,
        &limits,
        true,
        &under,
    ) {
        Ok(cairn_git::HistoryUpdate::Unchanged) => {
            format!(
                "up to date ({} touching its notes)",
                crate::code_changed::commits(history.len())
            )
        }
        Ok(u) => match history.save(&file) {
            Ok(()) => match u {
                cairn_git::HistoryUpdate::Rebuilt(n) => {
                    format!(
                        "read: {}, {} touching its notes",
                        crate::code_changed::commits(n),
                        history.len()
                    )
                }
                _ => format!(
                    "updated ({} touching its notes)",
                    crate::code_changed::commits(history.len())
                ),
            },
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    };
    Some((repo.workdir().to_path_buf(), outcome))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A history file that is there but empty (emptied by a move of `HEAD` too
    /// far to follow, or damaged) asked a long-lived engine to open again at
    /// every call (review): only one written since asks.
    #[test]
    fn an_unread_history_asks_for_reopening_only_once_written_since() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("git-vault-history-2-x.txt");
        let dates = NoteDates {
            vault: dir.path().into(),
            cache_dir: dir.path().into(),
            limits: HistoryLimits::default(),
            days: OnceLock::new(),
            unread: OnceLock::new(),
        };
        assert!(!dates.read_since());
        std::fs::write(&file, "emptied\n").unwrap();
        let _ = dates.unread.set(Unread {
            workdir: dir.path().into(),
            file: file.clone(),
            stamp: stamp(&file),
        });
        assert!(!dates.read_since());
        std::fs::write(&file, "read, at last\n").unwrap();
        assert!(dates.read_since());
    }
}
