//! The day each file of a working tree was last committed, for the files that
//! are as git wrote them: what dates a note that says no date of its own in a
//! vault kept in git, whose clone gave every file the day of the clone.
//!
//! A file counts when the index records it (stage 0) with the size and
//! modification time it has now, as git's own status tells an unchanged file;
//! its day is the newest commit of the history that touched it, or, when the
//! history was capped and none did, the oldest day read (it is older still). A
//! file edited since, or staged since `HEAD` (edited and added, or new), has no
//! day here.

use std::collections::HashMap;
use std::path::Path;

use crate::{GitError, History, Repository};

/// The files of one folder of a working tree with the day each was last
/// committed (see the module's header).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommittedDays {
    /// By path relative to the folder: the index's modification time (seconds,
    /// nanoseconds: 0 when git did not record them), its size (32 bits, as git
    /// keeps it), the day, and whether a commit read touched the file on that
    /// day (else the day is the capped history's oldest, and the last commit
    /// older still).
    files: HashMap<String, (u32, u32, u32, i64, bool)>,
}

impl CommittedDays {
    /// The day (UTC days since 1970) the file `path` (relative to the folder)
    /// was last committed, when its size and modification time (nanoseconds
    /// since 1970) are those git recorded.
    #[must_use]
    pub fn day_of(&self, path: &str, mtime_ns: i64, size: u64) -> Option<i64> {
        let &(secs, nsecs, git_size, day, _) = self.files.get(path)?;
        let same_secs = mtime_ns.div_euclid(1_000_000_000) == i64::from(secs);
        let nanos = u32::try_from(mtime_ns.rem_euclid(1_000_000_000)).ok()?;
        // Git keeps the low 32 bits of a size.
        #[allow(clippy::cast_possible_truncation)]
        let same_size = size as u32 == git_size;
        (same_secs && (nsecs == 0 || nsecs == nanos) && same_size).then_some(day)
    }

    /// Whether the day of `path` is that of a commit that touched it (not the
    /// oldest day of a capped history: its last commit is older still).
    #[must_use]
    pub fn is_last_commit(&self, path: &str) -> bool {
        self.files.get(path).is_some_and(|f| f.4)
    }

    /// How many files have a day.
    #[must_use]
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file has one.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The days kept in `file` under `key` ([`Repository::days_key`]); `None`
    /// when it keeps another key, or is damaged.
    #[must_use]
    pub fn read_kept(file: &Path, key: &str) -> Option<Self> {
        let lines = crate::tree::read_kept(file, key)?;
        let mut files = HashMap::with_capacity(lines.len());
        for line in lines {
            let mut parts = line.splitn(6, ' ');
            let mut num = || parts.next()?.parse::<i64>().ok();
            let (day, secs, nsecs, size, exact) = (num()?, num()?, num()?, num()?, num()?);
            let path = parts.next()?;
            // A day git could write (years 0 to 9999), as the history's are.
            if !(-719_528..=2_932_896).contains(&day) {
                return None;
            }
            files.insert(
                path.to_owned(),
                (
                    u32::try_from(secs).ok()?,
                    u32::try_from(nsecs).ok()?,
                    u32::try_from(size).ok()?,
                    day,
                    exact == 1,
                ),
            );
        }
        Some(Self { files })
    }

    /// Keeps these days in `file` under `key`, for [`CommittedDays::read_kept`]
    /// (a file that cannot be written is computed again next time).
    pub fn keep(&self, file: &Path, key: String) {
        let mut lines: Vec<String> = self
            .files
            .iter()
            .map(|(path, (secs, nsecs, size, day, exact))| {
                format!("{day} {secs} {nsecs} {size} {} {path}", u8::from(*exact))
            })
            .collect();
        lines.sort_unstable();
        crate::tree::write_kept(file, "git-days", key, &lines);
    }
}

/// First word of a kept days file's key (its format's version).
const DAYS_MAGIC: &str = "cairn-git-days-2";

impl Repository {
    /// The commit `HEAD` names now (no object read), in hex; `None` on an
    /// unborn branch or when it cannot be read.
    #[must_use]
    pub fn head_commit(&self) -> Option<String> {
        let head = self.gix().head().ok()?;
        head.id().map(|id| id.to_string())
    }

    /// The key under which the days [`Repository::committed_days`] computes
    /// for the folder `under` from a history of the commit `head` kept in
    /// `history_file` are kept: that commit, the index file's size, time and
    /// the checksum it ends with (read, not computed: two writes in one tick of
    /// a coarse clock differ by it) and the history file's size and time (each
    /// rewritten whole when it changes, as git and cairn write them). Taken
    /// before the index is read: an index written meanwhile leaves a key that
    /// no later run matches. `None` when a file cannot be read.
    #[must_use]
    pub fn days_key(&self, head: &str, history_file: &Path, under: &str) -> Option<String> {
        let stamp = |path: &Path| -> Option<String> {
            let meta = std::fs::metadata(path).ok()?;
            let time = meta
                .modified()
                .ok()?
                .duration_since(std::time::UNIX_EPOCH)
                .ok()?
                .as_nanos();
            Some(format!("{} {time}", meta.len()))
        };
        let index_path = self.gix().index_path();
        let index = stamp(&index_path)?;
        let checksum = {
            use std::io::{Read as _, Seek as _};
            let len = self.gix().object_hash().len_in_bytes();
            let mut file = std::fs::File::open(&index_path).ok()?;
            file.seek(std::io::SeekFrom::End(-i64::try_from(len).ok()?))
                .ok()?;
            let mut sum = vec![0; len];
            file.read_exact(&mut sum).ok()?;
            gix::ObjectId::try_from(sum.as_slice()).ok()?.to_string()
        };
        let history = stamp(history_file)?;
        if under.contains(['\n', '\r']) {
            return None;
        }
        Some(format!(
            "{DAYS_MAGIC} {head} index {index} {checksum} history {history} under {under}"
        ))
    }

    /// The path of `folder` in the working tree, `/`-separated (`""`: its
    /// root); `None` when it is not in it.
    #[must_use]
    pub fn folder_of(&self, folder: &Path) -> Option<String> {
        let rel = folder.strip_prefix(self.workdir()).ok()?;
        Some(
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
        )
    }

    /// The files under `folder` (a folder of the working tree) with the day
    /// `history` (of this repository's `HEAD`) says each was last committed;
    /// `staged_cache` is where the staged files are kept between runs (see
    /// [`crate::StatusCache::staged`]).
    ///
    /// # Errors
    /// [`GitError::Read`] when the index cannot be read.
    pub fn committed_days(
        &self,
        history: &History,
        folder: &Path,
        staged_cache: Option<&Path>,
    ) -> Result<CommittedDays, GitError> {
        let Some(mut prefix) = self.folder_of(folder) else {
            return Ok(CommittedDays::default());
        };
        if !prefix.is_empty() {
            prefix.push('/');
        }
        let index = crate::tree::own_index(self.gix())?;
        // A file staged since `HEAD` (edited and added, or new) is not as its
        // last commit left it: its day is its own time's.
        let staged: std::collections::HashSet<String> =
            crate::tree::staged_files(self.gix(), &index, staged_cache)?
                .into_iter()
                .collect();
        let mut files = HashMap::new();
        for entry in index.entries() {
            if entry.stage_raw() != 0 || entry.mode.is_submodule() || entry.mode.is_sparse() {
                continue;
            }
            let Ok(path) = std::str::from_utf8(entry.path(&index)) else {
                continue;
            };
            let Some(inside) = path.strip_prefix(prefix.as_str()) else {
                continue;
            };
            if staged.contains(path) {
                continue;
            }
            let touched = history.last_touched(path);
            let Some(day) = touched.or_else(|| history.cut()) else {
                continue;
            };
            let s = &entry.stat;
            files.insert(
                inside.to_owned(),
                (s.mtime.secs, s.mtime.nsecs, s.size, day, touched.is_some()),
            );
        }
        Ok(CommittedDays { files })
    }
}
