//! What changed between a generation and the vault as listed now.
//!
//! A file is unchanged when its size and mtime are the ones indexed. Mtime alone
//! cannot prove that for a file written in the same clock tick as the listing
//! that indexed it (file systems stamp with a coarse clock): such "racy" files,
//! modified within [`RACY_NS`] of the generation's listing, are re-read and
//! compared by content hash, the way git treats racily clean index entries.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use cairn_config::Limits;
use cairn_scan::{Listing, Walk};
use rayon::prelude::*;

use crate::snapshot::Snapshot;

/// Files modified this close (ns) to a generation's listing are verified by
/// content (the same window that makes a walk's folder stamps untrusted).
pub use cairn_scan::RACY_NS;

/// A listing of the vault and when it started.
#[derive(Debug, Clone, Default)]
pub struct Listed {
    /// The note files (sorted by path) and the walk's diagnostics.
    pub listing: Listing,
    /// When the listing started, ns since the epoch.
    pub started_ns: i64,
    /// Listed without a walk: the files the last walk found were stat-ed.
    pub relisted: bool,
}

/// Lists every note file of the vault at `vault` within `limits`, timestamped.
pub fn list(vault: &Path, limits: &Limits) -> Listed {
    let started_ns = now_ns();
    let listing = cairn_scan::list(vault, &[String::new()], limits);
    Listed {
        listing,
        started_ns,
        relisted: false,
    }
}

/// Lists the vault like [`list`], without walking it when `snap`'s record of the
/// last walk shows that no folder and no ignore file changed since: then only
/// the files that walk found are stat-ed ([`cairn_scan::relist`]).
pub fn relist(vault: &Path, limits: &Limits, snap: &Snapshot) -> Listed {
    let paths: Vec<&str> = (0..snap.len()).map(|i| snap.path(i)).collect();
    relist_from(vault, limits, snap.walk(), &paths)
}

/// Lists the vault like [`list`], without walking it when `walk` (the record of
/// the walk that found `paths`) shows that no folder and no ignore file changed
/// since: then only `paths` are stat-ed ([`cairn_scan::relist`]).
pub fn relist_from(vault: &Path, limits: &Limits, walk: &Walk, paths: &[&str]) -> Listed {
    let started_ns = now_ns();
    match cairn_scan::relist(vault, &[String::new()], limits, walk, paths) {
        Some(listing) => Listed {
            listing,
            started_ns,
            relisted: true,
        },
        None => list(vault, limits),
    }
}

/// Now, ns since the epoch.
pub(crate) fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// What differs between a generation and a listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Listed files the generation does not know (indices into the listing).
    pub added: Vec<usize>,
    /// Files whose size, mtime or content differ: (listing index, generation index).
    pub modified: Vec<(usize, usize)>,
    /// Files of the generation that are no longer listed (generation indices).
    pub deleted: Vec<usize>,
    /// Racy files verified unchanged by content that a new generation would settle.
    pub settled: usize,
}

impl Changes {
    /// Nothing to index.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.modified.is_empty() && self.deleted.is_empty()
    }

    /// Everything in `listed` is new (no generation yet).
    pub(crate) fn all_added(listed: &Listed) -> Self {
        Self {
            added: (0..listed.listing.files.len()).collect(),
            ..Self::default()
        }
    }
}

/// Compares `snap` with `listed`. Racy files are re-read and hashed (in parallel).
pub fn diff(snap: &Snapshot, listed: &Listed) -> Changes {
    let files = &listed.listing.files;
    let mut out = Changes::default();
    let mut suspects: Vec<(usize, usize)> = Vec::new();
    let racy_from = snap.scanned_at_ns().saturating_sub(RACY_NS);
    let (mut i, mut j) = (0, 0);
    let n = snap.len();
    while i < files.len() || j < n {
        let ord = match (files.get(i), j < n) {
            (Some(f), true) => f.path.as_str().cmp(snap.path(j)),
            (Some(_), false) => std::cmp::Ordering::Less,
            (None, _) => std::cmp::Ordering::Greater,
        };
        match ord {
            std::cmp::Ordering::Less => {
                out.added.push(i);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.deleted.push(j);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                let f = &files[i];
                let info = snap.info(j);
                let mtime = clamp_ns(f.mtime_ns);
                if f.size != info.size || mtime != info.mtime_ns {
                    out.modified.push((i, j));
                } else if mtime >= racy_from {
                    suspects.push((i, j));
                }
                i += 1;
                j += 1;
            }
        }
    }
    // A new record of the walk that can be trusted where the stored one cannot
    // (it was taken too soon after a folder changed, or a folder changed since):
    // worth a new generation, or every command would walk the vault again.
    let walk = &listed.listing.walk;
    if walk.is_settled() && !walk.same_stamps(snap.walk()) {
        out.settled += 1;
    }
    if !suspects.is_empty() {
        let settle_before = listed.started_ns.saturating_sub(RACY_NS);
        let verdicts: Vec<(bool, bool)> = suspects
            .par_iter()
            .map(|&(i, j)| {
                let f = &files[i];
                let same = std::fs::read(&f.abs).is_ok_and(|b| snap.content_matches(j, &b));
                (same, clamp_ns(f.mtime_ns) < settle_before)
            })
            .collect();
        for (&(i, j), (same, settles)) in suspects.iter().zip(verdicts) {
            if !same {
                out.modified.push((i, j));
            } else if settles {
                out.settled += 1;
            }
        }
        out.modified.sort_unstable();
    }
    out
}

/// A listing mtime (i128 ns) as the manifest stores it.
pub(crate) fn clamp_ns(ns: i128) -> i64 {
    i64::try_from(ns).unwrap_or(if ns < 0 { i64::MIN } else { i64::MAX })
}
