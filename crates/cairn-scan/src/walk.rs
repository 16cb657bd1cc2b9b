//! What a walk of the vault depended on, so the next listing can skip the walk.
//!
//! A full [`list`](crate::list) runs the ignore-aware walk: it reads every folder
//! and matches every entry against the ignore rules. Its result can only change
//! when a folder gains, loses or renames an entry (which changes the folder's
//! mtime), when an ignore file changes, or when the limits do. A [`Walk`] records
//! exactly those: every folder entered with its mtime and ctime, every ignore file
//! that could apply (present or absent), the note files found, the walk's own
//! problems and the settings. [`relist`] checks the record with one `stat` per
//! folder and per ignore file; when nothing moved, it stats only the files found
//! last time (in parallel) and applies the same limits, which gives the listing
//! a full walk would give, for about half its cost.
//!
//! Folder mtimes are as coarse as file mtimes: a folder changed in the same clock
//! tick as the walk that recorded it could change again unseen. Such a record is
//! not [`settled`](Walk::is_settled) and is never trusted; the next full walk
//! (seconds later) records a settled one.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use cairn_config::Limits;
use cairn_note::Diagnostic;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{FileEntry, FileIdentity, Listing, file_identity};

/// Stamps this close (ns) to the walk that took them are not trusted.
pub const RACY_NS: i64 = 2_000_000_000;

/// The ignore files the walk reads in a folder (`.git/info/exclude` applies to
/// the repository whose top folder holds `.git`).
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".cairnignore", ".git/info/exclude"];

/// What a full walk of the vault depended on (see the module header).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Walk {
    /// The roots and limits the walk ran with.
    pub settings: String,
    /// When the walk started, ns since the epoch.
    pub started_ns: i64,
    /// Every folder entered, with its stamp.
    pub folders: Vec<(PathBuf, Stamp)>,
    /// Every ignore file that could apply, and every missing root, with its stamp
    /// (`None`: absent).
    pub watched: Vec<(PathBuf, Option<Stamp>)>,
    /// Note files found but left out of the listing (duplicates, over a limit),
    /// vault-relative: with the listing's files, every note file the walk found.
    pub skipped: Vec<String>,
    /// The walk's own problems (unreadable folders, loops, depth limit).
    pub problems: Vec<Diagnostic>,
}

/// A file's or folder's change stamp: mtime, ctime (ns) and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
    /// Status change time, ns since the epoch (permissions, links).
    pub ctime_ns: i64,
    /// Size in bytes.
    pub size: u64,
}

impl Stamp {
    /// The stamp of `path` (symlinks followed, as the walk follows them).
    pub fn of(path: &Path) -> std::io::Result<Self> {
        std::fs::metadata(path).map(|md| Self::from_metadata(&md))
    }

    fn from_metadata(md: &std::fs::Metadata) -> Self {
        let mtime_ns = md
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
        Self {
            mtime_ns,
            ctime_ns: ctime_ns(md),
            size: md.len(),
        }
    }

    /// Changed too close to `started_ns` for its mtime to prove the next change
    /// (a folder's entries and a file's content move its mtime). ctime is part of
    /// the stamp compared by [`relist`] but not of this check: a folder whose
    /// mtime was set back (`rsync -a`) and that changes again gets a new mtime
    /// from that change, unless it is set back again to the same instant within
    /// one clock tick.
    fn racy(&self, started_ns: i64) -> bool {
        self.mtime_ns >= started_ns.saturating_sub(RACY_NS)
    }
}

#[cfg(unix)]
fn ctime_ns(md: &std::fs::Metadata) -> i64 {
    use std::os::unix::fs::MetadataExt;
    md.ctime()
        .saturating_mul(1_000_000_000)
        .saturating_add(md.ctime_nsec())
}

#[cfg(not(unix))]
fn ctime_ns(_md: &std::fs::Metadata) -> i64 {
    0
}

impl Walk {
    /// Whether every stamp was taken long enough after its last change to be
    /// trusted (see the module header).
    pub fn is_settled(&self) -> bool {
        !self.settings.is_empty()
            && self.folders.iter().all(|(_, s)| !s.racy(self.started_ns))
            && self
                .watched
                .iter()
                .all(|(_, s)| s.is_none_or(|s| !s.racy(self.started_ns)))
    }

    /// Whether `other` records the same folders, files and problems (its time aside).
    pub fn same_stamps(&self, other: &Walk) -> bool {
        self.settings == other.settings
            && self.folders == other.folders
            && self.watched == other.watched
            && self.skipped == other.skipped
            && self.problems == other.problems
    }

    /// Makes this record one [`relist`] never trusts (a full walk is needed next
    /// time), keeping only what is safe to store.
    pub(crate) fn distrust(&mut self) {
        self.settings.clear();
        self.folders.clear();
        self.watched.clear();
    }

    /// Stamps the ignore files of `folders` and of every folder above `roots`, and
    /// the `missing` roots. Distrusts the record when a path cannot be stored (not
    /// UTF-8) or when a folder holds a `.git` file (a linked git worktree, whose
    /// `info/exclude` lives in the main repository's folder).
    pub(crate) fn stamp_watched(&mut self, roots: &[PathBuf], missing: &[PathBuf]) {
        let mut dirs: Vec<PathBuf> = self.folders.iter().map(|(d, _)| d.clone()).collect();
        for r in roots {
            // The walk reads the ignore files above the real folder, not above a
            // symlink to it.
            let real = r.canonicalize().unwrap_or_else(|_| r.clone());
            dirs.extend(real.ancestors().skip(1).map(Path::to_path_buf));
            if real != *r {
                dirs.extend(r.ancestors().skip(1).map(Path::to_path_buf));
            }
        }
        dirs.sort();
        dirs.dedup();
        let unstorable = dirs.iter().chain(missing).any(|d| d.to_str().is_none());
        let worktree = dirs
            .par_iter()
            .any(|d| std::fs::symlink_metadata(d.join(".git")).is_ok_and(|m| m.is_file()));
        if unstorable || worktree {
            self.distrust();
            return;
        }
        let mut candidates: Vec<PathBuf> = dirs
            .iter()
            .flat_map(|d| IGNORE_FILES.iter().map(move |f| d.join(f)))
            .collect();
        candidates.extend(missing.iter().cloned());
        self.watched = candidates
            .into_par_iter()
            .map(|p| {
                let s = Stamp::of(&p).ok();
                (p, s)
            })
            .collect();
    }
}

/// The settings a walk depends on, as text.
pub(crate) fn settings(vault: &Path, roots: &[String], limits: &Limits) -> String {
    format!("{} {roots:?} {limits:?}", vault.display())
}

/// The listing a full walk would give now, from `walk` (the record of the last
/// full walk) and `listed` (the vault-relative paths of the files that walk
/// listed), or `None` when the record cannot vouch for it (a folder or an ignore
/// file changed, the settings differ, the record is not settled, a file it found
/// cannot be read): then run [`list`](crate::list).
pub fn relist(
    vault: &Path,
    roots: &[String],
    limits: &Limits,
    walk: &Walk,
    listed: &[&str],
) -> Option<Listing> {
    if walk.settings != settings(vault, roots, limits) || !walk.is_settled() {
        return None;
    }
    let folders_same = walk
        .folders
        .par_iter()
        .all(|(d, s)| Stamp::of(d).ok().as_ref() == Some(s));
    let ignores_same = folders_same
        && walk
            .watched
            .par_iter()
            .all(|(p, s)| Stamp::of(p).ok() == *s);
    if !ignores_same {
        return None;
    }
    let real_vault = vault.canonicalize().ok()?;
    let found: Option<Vec<(FileEntry, Option<FileIdentity>)>> = listed
        .par_iter()
        .copied()
        .chain(walk.skipped.par_iter().map(String::as_str))
        .map(|rel| {
            let abs = vault.join(rel);
            // One stat for a plain file; a symlink must still lead inside the
            // vault (its target can change without a folder of the vault moving).
            let lmd = std::fs::symlink_metadata(&abs).ok()?;
            let md = if lmd.file_type().is_symlink() {
                if crate::leads_outside(&real_vault, &abs) {
                    return None;
                }
                std::fs::metadata(&abs).ok()?
            } else {
                lmd
            };
            let md = Some(md).filter(std::fs::Metadata::is_file)?;
            let file = FileEntry {
                path: rel.to_owned(),
                abs,
                size: md.len(),
                mtime_ns: mtime_ns(&md),
            };
            Some((file, file_identity(&md)))
        })
        .collect();
    let mut found = found?;
    found.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    Some(crate::finish(
        found,
        walk.problems.clone(),
        limits,
        walk.clone(),
    ))
}

/// A file's mtime, ns since the epoch (0 when unknown), as listings record it.
pub(crate) fn mtime_ns(md: &std::fs::Metadata) -> i128 {
    md.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos().cast_signed())
}
