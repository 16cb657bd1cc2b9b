//! Writing a new generation: under the writer lock, re-read only the files that
//! changed, apply them to a copy of the index (hard links: cheap), write the
//! manifest, then publish with one atomic rename of `CURRENT`.
//!
//! A crash anywhere before that rename leaves an unpublished folder that the next
//! writer deletes; readers keep using the previous generation meanwhile.
//!
//! The previous generation is read completely and checked against its checksums
//! before anything is built on it (its segment files are hard-linked into the new
//! one): a damaged one is rebuilt from the notes instead. The new generation's
//! files are checksummed (block by block) into its manifest, and made private
//! (0600, in a 0700 folder) before it is published. A secret note leaves only its
//! stub in the manifest and nothing in the index; the messages of its file's
//! parse diagnostics are withheld.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use cairn_index::NoteIndex;
use cairn_note::{Diagnostic, Note, Sensitivity};
use cairn_scan::FileEntry;
use rayon::prelude::*;

use crate::diff::{Changes, Listed, clamp_ns, now_ns};
use crate::manifest::{EntryInfo, Header, ManifestBuilder};
use crate::snapshot::Snapshot;
use crate::store::{self, INDEX, MANIFEST, WriterLock};
use crate::{Cache, CacheError, Progress, content_hash, record};

/// Files read and parsed per batch (bounds memory during a cold build).
const BATCH: usize = 512;

/// Test hook (feature `fault-injection` only, never in a release build):
/// `CAIRN_TEST_ABORT_AFTER_BATCHES=N` aborts the process after N batches of a
/// refresh, before anything is published (simulates a crash mid-update).
#[cfg(feature = "fault-injection")]
fn abort_after_batches() -> Option<usize> {
    std::env::var("CAIRN_TEST_ABORT_AFTER_BATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
}

#[cfg(not(feature = "fault-injection"))]
fn abort_after_batches() -> Option<usize> {
    None
}

/// How a refresh went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshReport {
    /// The generation published.
    pub generation: u64,
    /// Built from scratch (no usable previous generation, or asked to).
    pub rebuilt: bool,
    /// Files new to the index.
    pub added: usize,
    /// Files whose content changed.
    pub modified: usize,
    /// Files gone from the vault.
    pub deleted: usize,
    /// Of the added files, those whose content is a deleted file's (moved or renamed).
    pub renamed: usize,
    /// Files whose mtime changed but not their content (metadata refreshed only).
    pub touched: usize,
    /// Bytes read from the vault.
    pub bytes_read: u64,
    /// Wall time, milliseconds.
    pub millis: u64,
}

/// A file read for indexing.
struct ReadFile {
    listing: usize,
    hash: [u8; 16],
    size: u64,
    notes: Vec<Note>,
    diagnostics: Vec<Diagnostic>,
}

fn read_one(i: usize, f: &FileEntry) -> ReadFile {
    match std::fs::read(&f.abs) {
        Ok(bytes) => {
            let (notes, diagnostics) = cairn_scan::parse_file(f, &bytes);
            ReadFile {
                listing: i,
                hash: content_hash(&bytes),
                size: bytes.len() as u64,
                notes,
                diagnostics,
            }
        }
        // Recorded with its diagnostic like a file that is not a note: it is
        // read again when it changes (or on a rebuild).
        Err(err) => ReadFile {
            listing: i,
            hash: [0; 16],
            size: 0,
            notes: Vec::new(),
            diagnostics: vec![cairn_scan::unreadable(f, &err)],
        },
    }
}

/// What [`refresh`] hands back.
pub(crate) struct Refreshed {
    pub snapshot: Snapshot,
    pub report: Option<RefreshReport>,
    pub warnings: Vec<String>,
}

/// Brings the cache up to date with `listed`. `lock_deadline`: give up waiting for
/// another writer then ([`CacheError::Busy`]).
pub(crate) fn refresh(
    cache: &Cache,
    listed: &Listed,
    rebuild: bool,
    progress: Option<&Arc<dyn Progress>>,
    lock_deadline: Option<Instant>,
) -> Result<Refreshed, CacheError> {
    let started = Instant::now();
    let dir = cache.dir();
    let unwritable = |source: std::io::Error| CacheError::Unwritable {
        path: dir.to_path_buf(),
        source,
    };
    store::create_private_dir_all(dir).map_err(unwritable)?;
    let _lock = WriterLock::acquire(dir, lock_deadline)
        .map_err(unwritable)?
        .ok_or_else(|| CacheError::Busy(dir.to_path_buf()))?;
    let vault_txt = dir.join("vault.txt");
    if !vault_txt.is_file() {
        let _ = store::remove_any(&vault_txt);
        store::write_atomic(&vault_txt, format!("{}\n", cache.vault()).as_bytes())
            .map_err(unwritable)?;
    }

    // Another process may have published while we waited: start from the newest.
    // A rebuild reads nothing of what is there (it may be anything).
    let mut warnings = Vec::new();
    let published = store::read_current(dir).ok().flatten();
    let base = if rebuild {
        None
    } else {
        match cache.current() {
            Ok(s) => s,
            Err(e @ (CacheError::Damaged { .. } | CacheError::Foreign { .. })) => {
                warnings.push(format!("{e}; rebuilding it"));
                None
            }
            Err(e) => return Err(e),
        }
    };
    let mut changes = match &base {
        Some(b) => crate::diff::diff(b, listed),
        None => Changes::all_added(listed),
    };
    if changes.is_empty()
        && changes.settled == 0
        && let Some(b) = base
    {
        store::collect_garbage(dir, &[b.name()]);
        return Ok(Refreshed {
            snapshot: b,
            report: None,
            warnings,
        });
    }
    // The new generation shares the previous one's segment files: check every
    // byte of them first.
    let base = match base {
        Some(b) => {
            let bad = b.verify();
            if bad.is_empty() {
                Some(b)
            } else {
                warnings.push(damaged_warning(&b, &bad));
                changes = Changes::all_added(listed);
                None
            }
        }
        None => None,
    };
    let keep_previous = published.clone();
    let result = write_generation(cache, listed, base, &changes, progress, started);
    match result {
        Ok(mut r) => {
            r.warnings.splice(0..0, warnings);
            let mut keep = vec![r.snapshot.name().to_owned()];
            keep.extend(keep_previous);
            let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
            store::collect_garbage(dir, &keep);
            Ok(r)
        }
        Err(e) => Err(e),
    }
}

/// The warning for a generation whose index files fail their checksums.
pub(crate) fn damaged_warning(snap: &Snapshot, bad: &[String]) -> String {
    let more = if bad.len() > 1 {
        format!(" and {} more", bad.len() - 1)
    } else {
        String::new()
    };
    format!(
        "the index at {} is damaged ({}{more}); rebuilding it",
        snap.dir().display(),
        bad.first().map_or("", String::as_str)
    )
}

fn write_generation(
    cache: &Cache,
    listed: &Listed,
    base: Option<Snapshot>,
    changes: &Changes,
    progress: Option<&Arc<dyn Progress>>,
    started: Instant,
) -> Result<Refreshed, CacheError> {
    let dir = cache.dir();
    let number = base.as_ref().map_or(1, |b| b.generation() + 1);
    let (name, gen_dir) =
        store::new_generation(dir, number).map_err(|e| CacheError::Unwritable {
            path: dir.to_path_buf(),
            source: e,
        })?;
    let out = build(
        cache,
        listed,
        base.as_ref(),
        changes,
        progress,
        &gen_dir,
        number,
        started,
    )
    .and_then(|report| {
        store::publish(dir, &name).map_err(|e| CacheError::Unwritable {
            path: dir.to_path_buf(),
            source: e,
        })?;
        Ok(report)
    });
    match out {
        Ok(report) => {
            let snapshot = Snapshot::open(dir, &name, cache.vault())?;
            Ok(Refreshed {
                snapshot,
                report: Some(report),
                warnings: Vec::new(),
            })
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&gen_dir);
            Err(e)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn build(
    cache: &Cache,
    listed: &Listed,
    base: Option<&Snapshot>,
    changes: &Changes,
    progress: Option<&Arc<dyn Progress>>,
    gen_dir: &std::path::Path,
    number: u64,
    started: Instant,
) -> Result<RefreshReport, CacheError> {
    let files = &listed.listing.files;
    let write_err = |what: &str, e: String| CacheError::Write {
        path: gen_dir.to_path_buf(),
        why: format!("{what}: {e}"),
    };
    let index_dir = gen_dir.join(INDEX);
    store::create_private_dir(&index_dir).map_err(|e| write_err("index folder", e.to_string()))?;
    let mut index = match base {
        Some(b) => {
            store::link_index(&b.dir().join(INDEX), &index_dir)
                .map_err(|e| write_err("copying the index", e.to_string()))?;
            NoteIndex::open(&index_dir)
                .map_err(|e| write_err("opening the index copy", e.to_string()))?
        }
        None => NoteIndex::create(&index_dir)
            .map_err(|e| write_err("creating the index", e.to_string()))?,
    };

    // Which files to read: new ones and changed ones.
    let mut to_read: Vec<usize> = changes.added.clone();
    to_read.extend(changes.modified.iter().map(|&(i, _)| i));
    to_read.sort_unstable();
    let old_of: HashMap<usize, usize> = changes.modified.iter().copied().collect();
    let deleted_hashes: HashSet<[u8; 16]> = match base {
        Some(b) => changes.deleted.iter().map(|&j| b.info(j).hash).collect(),
        None => HashSet::new(),
    };

    let needs_writer = !to_read.is_empty() || !changes.deleted.is_empty();
    let mut writer = if needs_writer {
        Some(
            index
                .writer_for(to_read.len())
                .map_err(|e| write_err("index writer", e.to_string()))?,
        )
    } else {
        None
    };
    if let (Some(w), Some(b)) = (writer.as_mut(), base) {
        for &j in &changes.deleted {
            w.delete_file(b.path(j));
        }
    }

    let mut manifest = ManifestBuilder::default();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut report = RefreshReport {
        generation: number,
        rebuilt: base.is_none(),
        added: 0,
        modified: 0,
        deleted: changes.deleted.len(),
        renamed: 0,
        touched: 0,
        bytes_read: 0,
        millis: 0,
    };
    let replaced: HashSet<usize> = old_of.values().copied().collect();

    if let Some(p) = progress {
        p.begin(to_read.len() as u64, "indexing notes");
    }
    let abort_after = abort_after_batches();
    for (batch_no, batch) in to_read.chunks(BATCH).enumerate() {
        if abort_after == Some(batch_no) {
            std::process::abort();
        }
        let read: Vec<ReadFile> = batch.par_iter().map(|&i| read_one(i, &files[i])).collect();
        for r in read {
            let f = &files[r.listing];
            report.bytes_read += r.size;
            let old = old_of.get(&r.listing).copied();
            let content_same = match (old, base) {
                (Some(j), Some(b)) => {
                    b.info(j).hash == r.hash && b.info(j).notes as usize == r.notes.len()
                }
                _ => false,
            };
            match old {
                Some(_) if content_same => report.touched += 1,
                Some(_) => report.modified += 1,
                None => {
                    report.added += 1;
                    if deleted_hashes.contains(&r.hash) {
                        report.renamed += 1;
                    }
                }
            }
            if !content_same && let Some(w) = writer.as_mut() {
                w.delete_file(&f.path);
                // No credential's text is indexed: a search could confirm a guess.
                for n in &r.notes {
                    w.add(&cairn_policy::index_view(n))
                        .map_err(|e| write_err("indexing", e.to_string()))?;
                }
            }
            let secret = r
                .notes
                .iter()
                .filter(|n| n.sensitivity == Sensitivity::Secret)
                .count();
            let info = EntryInfo {
                size: f.size,
                mtime_ns: clamp_ns(f.mtime_ns),
                hash: r.hash,
                notes: u32::try_from(r.notes.len()).unwrap_or(u32::MAX),
                docs: u32::try_from(r.notes.len() - secret).unwrap_or(u32::MAX),
            };
            let rec = record::encode(&r.notes);
            manifest.push(f.path.clone(), info, rec);
            if secret > 0 {
                // A message may quote the note ("unknown value `…`"): withheld.
                diagnostics.extend(r.diagnostics.into_iter().map(|mut d| {
                    crate::WITHHELD_DIAGNOSTIC.clone_into(&mut d.message);
                    d
                }));
            } else {
                diagnostics.extend(r.diagnostics);
            }
        }
        if let Some(p) = progress {
            p.advance(batch.len() as u64);
        }
    }
    if let Some(w) = writer {
        if let Some(p) = progress {
            p.begin(0, "committing the index");
        }
        w.commit()
            .map_err(|e| write_err("committing the index", e.to_string()))?;
    }
    index
        .reload()
        .map_err(|e| write_err("reloading the index", e.to_string()))?;
    drop(index);
    store::make_private(&index_dir).map_err(|e| write_err("permissions", e.to_string()))?;
    // Files hard-linked from the previous generation (checked above) keep
    // their checksums; the others are read once.
    let known = base.map_or(&[][..], Snapshot::index_sums);
    let index_files = cairn_index::checksum_dir(&index_dir, known)
        .map_err(|e| write_err("checksumming the index", e.to_string()))?;

    // Unchanged files keep their rows and records.
    if let Some(b) = base {
        let deleted: HashSet<usize> = changes.deleted.iter().copied().collect();
        for j in 0..b.len() {
            if deleted.contains(&j) || replaced.contains(&j) {
                continue;
            }
            manifest.push(b.path(j), b.info(j), b.manifest().record(j));
        }
        let changed_paths: HashSet<&str> = changes
            .deleted
            .iter()
            .chain(replaced.iter())
            .map(|&j| b.path(j))
            .collect();
        let old = b.diagnostics()?;
        diagnostics.extend(
            old.into_iter()
                .filter(|d| !changed_paths.contains(d.path.as_str())),
        );
    }
    diagnostics.sort();
    let header = Header {
        cairn_version: env!("CARGO_PKG_VERSION").to_owned(),
        schema_version: cairn_index::SCHEMA_VERSION,
        parser_version: cairn_note::PARSER_VERSION,
        vault: cache.vault().to_owned(),
        generation: number,
        refreshed_at_ns: now_ns(),
        scanned_at_ns: listed.started_ns,
        entries: 0,
        notes: 0,
        documents: 0,
        paths_len: 0,
        diagnostics_len: 0,
        records_len: 0,
        index_files,
        walk: listed.listing.walk.clone(),
        hubs: Vec::new(),
    };
    let bytes = manifest
        .finish(header, &diagnostics)
        .map_err(|e| write_err("encoding the manifest", e.to_string()))?;
    store::write_atomic(&gen_dir.join(MANIFEST), &bytes)
        .map_err(|e| write_err("writing the manifest", e.to_string()))?;
    store::sync_dir(gen_dir).map_err(|e| write_err("syncing", e.to_string()))?;
    if let Some(p) = progress {
        p.end();
    }
    report.millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(report)
}
