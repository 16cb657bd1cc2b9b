//! The persistent, incremental index: one cache folder per vault holding a tantivy
//! index and a manifest of the notes it was built from, so a command on an
//! unchanged vault costs a directory listing, not a re-read of every note.
//!
//! ```text
//! list the vault (size, mtime per file; no walk when no folder changed)
//!   ──diff against the manifest──▶ changes
//!   none    ─▶ open the published generation (lock-free, read-only, mmap)
//!   some    ─▶ take the writer lock ─▶ copy the index (hard links) ─▶ re-read and
//!              re-index only the changed files ─▶ write the manifest ─▶ publish
//! ```
//!
//! Invariants (each has a test in `tests/`):
//! - **Published generations are immutable.** A generation folder is written
//!   completely and fsynced before `CURRENT` is switched to it by an atomic
//!   rename; nothing modifies it afterwards. A reader sees the old or the new
//!   generation, never a mix, and never writes to the cache.
//! - **One writer at a time.** Writers hold an OS file lock (`lock`, released by
//!   the OS if the process dies) and re-read `CURRENT` once they have it, so
//!   concurrent commands never index the same change twice or duplicate documents.
//! - **Crash safety.** A writer killed at any point leaves at most an unpublished
//!   folder; the previous generation keeps serving and the next writer deletes
//!   the leftovers and redoes the work.
//! - **Never wrong results.** The manifest is checksummed and carries the cairn
//!   version, the index schema version, the vault and a checksum of every 16 KiB
//!   block of every index file; the index's small files are checked when it is
//!   opened, every other block before tantivy reads it, everything before a new
//!   generation is built on it and on [`OpenOptions::verify`]; the index's document
//!   count must equal the manifest's. Anything else is a damaged or foreign
//!   cache, rebuilt with a warning. Files whose mtime is too close to the listing
//!   that indexed them are verified by content hash (see the `diff` module).
//! - **No secret text.** A secret note leaves its path, content hash, size and
//!   mtime and its [`secret_stub`] (kind, status, pinned) in the manifest, nothing
//!   in the index; its file's diagnostics keep their codes and lines, their
//!   messages are read again from the file when needed. Every folder is created
//!   0700 and every file 0600 (Unix).
//! - **Same answers as a fresh build.** The manifest holds every parsed field but
//!   note bodies, and `cairn-index` ranks independently of the index's history.
//!
//! A cache folder that cannot be written (read-only, full, permissions) is an
//! [`CacheError::Unwritable`] / [`CacheError::Write`] error: callers fall back to
//! an in-memory index for that run.

mod diff;
mod location;
mod manifest;
mod record;
mod refresh;
mod snapshot;
mod store;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use diff::{Changes, Listed, RACY_NS, diff, list, relist, relist_from};
pub use location::{default_dir, vault_key};
pub use manifest::EntryInfo;
pub use record::{secret_entry_path, secret_stub};
pub use refresh::RefreshReport;
pub use snapshot::Snapshot;

/// Cache failures.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// The cache folder cannot be created or written (read-only, full, permissions).
    #[error("cannot write the index folder {path}: {source}")]
    Unwritable {
        /// The cache folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Writing a new generation failed part-way (nothing was published).
    #[error("cannot write the index in {path}: {why}")]
    Write {
        /// The generation folder.
        path: PathBuf,
        /// What failed.
        why: String,
    },
    /// A published generation is damaged (truncated, overwritten, inconsistent).
    #[error("the index at {path} is damaged ({why})")]
    Damaged {
        /// The damaged file or folder.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A published generation was written by another version of cairn or for another vault.
    #[error("the index at {path} was built by {why}")]
    Foreign {
        /// The cache folder.
        path: PathBuf,
        /// Versions found.
        why: String,
    },
    /// Reading the cache failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Another process is writing the index and did not finish in time.
    #[error("another cairn process is updating the index at {0}")]
    Busy(PathBuf),
}

/// The message a secret file's diagnostics carry in the cache (a parser message
/// may quote the note). [`Snapshot::diagnostics_from`] reads the real ones again.
pub const WITHHELD_DIAGNOSTIC: &str = "message withheld from the index cache (secret note)";

/// Progress of a long refresh, for a progress bar. Called from the refreshing thread.
pub trait Progress: Send + Sync {
    /// A phase starts with `total` steps (0: unknown).
    fn begin(&self, total: u64, phase: &str);
    /// `n` more steps are done.
    fn advance(&self, n: u64);
    /// The refresh is done.
    fn end(&self);
}

/// The hash the manifest stores for a file's content: [`cairn_note::ContentHash`].
pub fn content_hash(bytes: &[u8]) -> [u8; 16] {
    cairn_note::ContentHash::of(bytes).to_bytes()
}

/// The cache folder of one vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
    vault: String,
}

/// How to open the cache.
#[derive(Clone, Default)]
pub struct OpenOptions {
    /// Rebuild from scratch even if the published generation is current.
    pub rebuild: bool,
    /// Return by then with what is available instead of waiting for a refresh.
    pub deadline: Option<Instant>,
    /// Reports a refresh's progress.
    pub progress: Option<Arc<dyn Progress>>,
    /// Read every file of the published index and check it against its
    /// checksums before serving it (a full read; `cairn index` does it).
    pub verify: bool,
}

impl std::fmt::Debug for OpenOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenOptions")
            .field("rebuild", &self.rebuild)
            .field("deadline", &self.deadline)
            .field("verify", &self.verify)
            .finish_non_exhaustive()
    }
}

/// The cache, opened against a listing of the vault.
#[derive(Debug)]
pub struct Opened {
    /// The generation to serve. Current unless `pending` is set; `None` only when
    /// no generation exists yet and the deadline did not allow building one.
    pub snapshot: Option<Snapshot>,
    /// What the refresh did, when one ran to completion.
    pub report: Option<RefreshReport>,
    /// Changes not yet in `snapshot` (the deadline passed first): the snapshot
    /// is the last good generation, out of date by these files.
    pub pending: Option<Changes>,
    /// Things the user should know (a damaged or foreign index was rebuilt).
    pub warnings: Vec<String>,
}

/// The state of a vault's cache, for `cairn index --status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The cache folder.
    pub dir: PathBuf,
    /// The published generation, if any.
    pub generation: Option<u64>,
    /// Notes in the index.
    pub notes: u64,
    /// Files known (notes and files that did not parse).
    pub files: u64,
    /// Bytes on disk of the published generation.
    pub disk_bytes: u64,
    /// When it was written, ns since the epoch.
    pub refreshed_at_ns: Option<i64>,
    /// Changes since: files added, modified, deleted.
    pub pending: (usize, usize, usize),
    /// Why the published generation cannot be used, if it cannot.
    pub problem: Option<String>,
    /// Whether a writer holds the lock right now.
    pub writer_active: bool,
}

impl Cache {
    /// The cache at `dir` for the vault at `vault` (absolute, ideally canonical).
    pub fn new(dir: PathBuf, vault: &Path) -> Self {
        Self {
            dir,
            vault: vault.display().to_string(),
        }
    }

    /// The cache folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The vault it indexes.
    pub fn vault(&self) -> &str {
        &self.vault
    }

    /// Opens the published generation, without locking or writing. `Ok(None)` when
    /// none was published yet; a damaged or foreign one is an error.
    pub fn current(&self) -> Result<Option<Snapshot>, CacheError> {
        // A writer may delete a generation two steps old while we open it: retry.
        let mut last = None;
        for _ in 0..3 {
            let name = match store::read_current(&self.dir) {
                Ok(Some(n)) => n,
                Ok(None) => return Ok(None),
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(CacheError::Damaged {
                        path: self.dir.join(store::CURRENT),
                        why: e.to_string(),
                    });
                }
                Err(e) => {
                    return Err(CacheError::Io {
                        path: self.dir.join(store::CURRENT),
                        source: e,
                    });
                }
            };
            match Snapshot::open(&self.dir, &name, &self.vault) {
                Ok(s) => return Ok(Some(s)),
                Err(e) => {
                    let moved_on = store::read_current(&self.dir).ok().flatten() != Some(name);
                    if !moved_on {
                        return Err(e);
                    }
                    last = Some(e);
                }
            }
        }
        Err(last.unwrap_or_else(|| CacheError::Busy(self.dir.clone())))
    }

    /// Brings the cache up to date with `listed` (blocking on another writer) and
    /// returns the current generation.
    pub fn refresh(
        &self,
        listed: &Listed,
        opts: &OpenOptions,
    ) -> Result<(Snapshot, Option<RefreshReport>, Vec<String>), CacheError> {
        let r = refresh::refresh(self, listed, opts.rebuild, opts.progress.as_ref(), None)?;
        Ok((r.snapshot, r.report, r.warnings))
    }

    /// Replaces a generation found damaged while it was being read (a block that
    /// failed its checksum, an error or a panic inside tantivy): builds a new one
    /// from `listed`, unless another process already published a sound one
    /// since. Returns it with the warning to show.
    pub fn replace_damaged(
        &self,
        damaged: &Snapshot,
        why: &str,
        listed: &Listed,
    ) -> Result<(Snapshot, String), CacheError> {
        let warning = format!(
            "the index at {} is damaged ({why}); rebuilding it",
            damaged.dir().display()
        );
        if let Ok(Some(s)) = self.current()
            && s.name() != damaged.name()
            && s.verify().is_empty()
            && diff(&s, listed).is_empty()
        {
            return Ok((s, warning));
        }
        let r = refresh::refresh(self, listed, true, None, None)?;
        Ok((r.snapshot, warning))
    }

    /// Opens the cache for `listed`: the published generation when it is current,
    /// else a refreshed one. With a deadline, a refresh that does not finish in
    /// time leaves the last good generation (and the changes it lacks) instead
    /// (with no generation yet, it gives up at half the time left: see `pending`);
    /// the refresh is abandoned with the process (safe: nothing half-written is
    /// ever published) and a later command completes it.
    pub fn open(&self, listed: &Listed, opts: &OpenOptions) -> Result<Opened, CacheError> {
        self.open_with(self.current(), listed, opts)
    }

    /// Lists the vault at `vault` and opens the cache for that listing, as
    /// [`list`] then [`Cache::open`] would, but without walking the vault when the
    /// published generation's record of its walk shows that no folder changed
    /// ([`diff::relist`]). The listing comes back with the outcome, so a caller
    /// can fall back to indexing it in memory.
    pub fn open_vault(
        &self,
        vault: &Path,
        limits: &cairn_config::Limits,
        opts: &OpenOptions,
    ) -> (Listed, Result<Opened, CacheError>) {
        let current = self.current();
        let listed = match &current {
            Ok(Some(snap)) if !opts.rebuild => diff::relist(vault, limits, snap),
            _ => list(vault, limits),
        };
        let opened = self.open_with(current, &listed, opts);
        (listed, opened)
    }

    fn open_with(
        &self,
        current: Result<Option<Snapshot>, CacheError>,
        listed: &Listed,
        opts: &OpenOptions,
    ) -> Result<Opened, CacheError> {
        store::create_private_dir_all(&self.dir).map_err(|source| CacheError::Unwritable {
            path: self.dir.clone(),
            source,
        })?;
        let mut warnings = Vec::new();
        let mut current = match current {
            Ok(s) => s,
            Err(e @ (CacheError::Damaged { .. } | CacheError::Foreign { .. })) => {
                warnings.push(format!("{e}; rebuilding it"));
                None
            }
            Err(e) => return Err(e),
        };
        if opts.verify
            && !opts.rebuild
            && let Some(snap) = &current
        {
            let bad = snap.verify();
            if !bad.is_empty() {
                warnings.push(refresh::damaged_warning(snap, &bad));
                current = None;
            }
        }
        // A generation found damaged is not read again: rebuilt from the notes.
        let rebuild = opts.rebuild || (current.is_none() && !warnings.is_empty());
        if !rebuild && let Some(snap) = &current {
            let changes = diff(snap, listed);
            if changes.is_empty() && changes.settled == 0 {
                return Ok(Opened {
                    snapshot: current,
                    report: None,
                    pending: None,
                    warnings,
                });
            }
        }
        let Some(deadline) = opts.deadline else {
            let r = refresh::refresh(self, listed, rebuild, opts.progress.as_ref(), None)?;
            warnings.extend(r.warnings);
            warnings.dedup();
            return Ok(Opened {
                snapshot: Some(r.snapshot),
                report: r.report,
                pending: None,
                warnings,
            });
        };

        // Refresh on a thread; serve the last good generation if it is late.
        let (tx, rx) = mpsc::channel();
        let cache = self.clone();
        let listed_owned = listed.clone();
        let progress = opts.progress.clone();
        let spawned = std::thread::Builder::new()
            .name("cairn-refresh".into())
            .spawn(move || {
                let r = refresh::refresh(
                    &cache,
                    &listed_owned,
                    rebuild,
                    progress.as_ref(),
                    Some(deadline + Duration::from_secs(600)),
                );
                let _ = tx.send(r);
            });
        // With nothing published yet, wait half the time only: the caller needs
        // the rest to read the notes that matter most itself.
        let mut wait = deadline.saturating_duration_since(Instant::now());
        if current.is_none() || rebuild {
            wait /= 2;
        }
        let outcome = match spawned {
            Ok(_) => rx.recv_timeout(wait).ok(),
            Err(_) => None,
        };
        match outcome {
            Some(Ok(r)) => {
                warnings.extend(r.warnings);
                warnings.dedup();
                Ok(Opened {
                    snapshot: Some(r.snapshot),
                    report: r.report,
                    pending: None,
                    warnings,
                })
            }
            Some(Err(e)) => Err(e),
            None => {
                let pending = match &current {
                    Some(s) if !rebuild => diff(s, listed),
                    _ => Changes::all_added(listed),
                };
                let snapshot = if rebuild { None } else { current };
                Ok(Opened {
                    snapshot,
                    report: None,
                    pending: Some(pending),
                    warnings,
                })
            }
        }
    }

    /// The state of the cache against `listed`, without writing anything.
    pub fn status(&self, listed: &Listed) -> Status {
        let mut st = Status {
            dir: self.dir.clone(),
            generation: None,
            notes: 0,
            files: 0,
            disk_bytes: 0,
            refreshed_at_ns: None,
            pending: (listed.listing.files.len(), 0, 0),
            problem: None,
            writer_active: store::WriterLock::is_held(&self.dir),
        };
        match self.current() {
            Ok(Some(s)) => {
                let c = diff(&s, listed);
                st.generation = Some(s.generation());
                st.notes = s.note_count();
                st.files = s.len() as u64;
                st.disk_bytes = s.disk_bytes();
                st.refreshed_at_ns = Some(s.refreshed_at_ns());
                st.pending = (c.added.len(), c.modified.len(), c.deleted.len());
            }
            Ok(None) => {}
            Err(e) => st.problem = Some(e.to_string()),
        }
        st
    }

    /// Reads every index file of the published generation and checks it
    /// against its checksums; returns the damaged files (empty: sound).
    pub fn verify(&self) -> Result<Vec<String>, CacheError> {
        match self.current()? {
            None => Ok(Vec::new()),
            Some(s) => Ok(s.verify()),
        }
    }
}
