//! Where the engine's notes and their index come from: parsed in memory (tests,
//! `--vault` one-shots, fallback), or a persistent cache generation whose notes
//! are decoded one at a time, only when a profile's roots or a lookup reach them.
//!
//! A cached note's metadata has no body; the few notes that end up in a packet or
//! a snippet get theirs by re-reading their file ([`NoteSource::full`]). Cache
//! rows are files: a file holds one note, or one per entry of an entry file
//! (`decisions.md#slug`), so lookups go through the file part of a note's path.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::OnceLock;

use cairn_cache::Snapshot;
use cairn_index::NoteIndex;
use cairn_note::Note;
use rayon::prelude::*;

/// The notes of an engine.
pub(crate) enum NoteSource {
    /// Parsed notes, bodies included, sorted by path.
    Memory {
        notes: Vec<Note>,
        by_path: HashMap<String, usize>,
        index: Box<NoteIndex>,
    },
    /// A cache generation.
    Cached(Box<Cached>),
}

pub(crate) struct Cached {
    snap: Snapshot,
    vault: PathBuf,
    /// Files of the generation deleted from the vault since (served partially).
    hidden: HashSet<usize>,
    /// Per file: its notes' metadata, decoded on first use.
    meta: Vec<OnceLock<Vec<Note>>>,
    /// Per file: its notes with bodies, read on first use.
    full: Vec<OnceLock<Vec<Note>>>,
    all: OnceLock<Vec<Note>>,
}

impl NoteSource {
    /// In-memory notes (sorted here) and their index.
    pub(crate) fn memory(mut notes: Vec<Note>) -> Result<Self, cairn_index::IndexError> {
        notes.sort_by(|a, b| a.path.cmp(&b.path));
        let index = Box::new(NoteIndex::build_in_ram(&notes)?);
        let by_path = notes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.path.clone(), i))
            .collect();
        Ok(Self::Memory {
            notes,
            by_path,
            index,
        })
    }

    /// A cache generation; `hidden` lists its files to leave out (deleted since).
    pub(crate) fn cached(snap: Snapshot, vault: PathBuf, hidden: HashSet<usize>) -> Self {
        let n = snap.len();
        Self::Cached(Box::new(Cached {
            meta: (0..n).map(|_| OnceLock::new()).collect(),
            full: (0..n).map(|_| OnceLock::new()).collect(),
            snap,
            vault,
            hidden,
            all: OnceLock::new(),
        }))
    }

    /// The index.
    pub(crate) fn index(&self) -> &NoteIndex {
        match self {
            Self::Memory { index, .. } => index,
            Self::Cached(c) => c.snap.index(),
        }
    }

    /// Whether notes come without bodies until [`NoteSource::full`] is asked.
    pub(crate) fn lazy_bodies(&self) -> bool {
        matches!(self, Self::Cached(_))
    }

    /// Number of notes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Memory { notes, .. } => notes.len(),
            Self::Cached(c) => (0..c.snap.len())
                .filter(|i| !c.hidden.contains(i))
                .map(|i| c.snap.info(i).notes as usize)
                .sum(),
        }
    }

    /// A note's metadata (cached notes: no body).
    pub(crate) fn meta(&self, path: &str) -> Option<&Note> {
        match self {
            Self::Memory { notes, by_path, .. } => by_path.get(path).map(|&i| &notes[i]),
            Self::Cached(c) => c
                .snap
                .find(file_of(path))
                .and_then(|i| c.meta_at(i).iter().find(|n| n.path == path)),
        }
    }

    /// A note with its body.
    pub(crate) fn full(&self, path: &str) -> Option<&Note> {
        match self {
            Self::Memory { .. } => self.meta(path),
            Self::Cached(c) => c
                .snap
                .find(file_of(path))
                .and_then(|i| c.full_at(i).iter().find(|n| n.path == path)),
        }
    }

    /// Notes under any of `roots` (`""`: the whole vault), in path order (metadata).
    pub(crate) fn under_roots<'a: 'r, 'r>(
        &'a self,
        roots: &'r [String],
    ) -> Box<dyn Iterator<Item = &'a Note> + 'r> {
        match self {
            Self::Memory { notes, .. } => Box::new(
                notes
                    .iter()
                    .filter(move |n| roots.iter().any(|r| crate::in_root(&n.path, r))),
            ),
            Self::Cached(c) => {
                // Files are sorted by path: each root is a range. Merge the ranges
                // so a note under two roots comes once, in path order.
                let mut ranges: Vec<std::ops::Range<usize>> =
                    roots.iter().map(|r| c.snap.range_under(r)).collect();
                ranges.sort_by_key(|r| r.start);
                let mut merged: Vec<std::ops::Range<usize>> = Vec::new();
                for r in ranges {
                    match merged.last_mut() {
                        Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                        _ => merged.push(r),
                    }
                }
                c.decode_all(&merged);
                Box::new(
                    merged
                        .into_iter()
                        .flatten()
                        .flat_map(move |i| c.meta_at(i).iter()),
                )
            }
        }
    }

    /// Every note's metadata, in path order.
    pub(crate) fn iter_meta(&self) -> Box<dyn Iterator<Item = &Note> + '_> {
        match self {
            Self::Memory { notes, .. } => Box::new(notes.iter()),
            Self::Cached(c) => {
                let all = 0..c.snap.len();
                c.decode_all(std::slice::from_ref(&all));
                Box::new(all.flat_map(move |i| c.meta_at(i).iter()))
            }
        }
    }

    /// Every note with its body (a cached source reads every file the first time).
    pub(crate) fn all_full(&self) -> &[Note] {
        match self {
            Self::Memory { notes, .. } => notes,
            Self::Cached(c) => c.all.get_or_init(|| {
                (0..c.snap.len())
                    .flat_map(|i| c.full_at(i).iter().cloned())
                    .collect()
            }),
        }
    }
}

/// The file part of a note path: `a/decisions.md#slug` → `a/decisions.md`.
fn file_of(path: &str) -> &str {
    path.split_once('#').map_or(path, |(file, _)| file)
}

/// Below this many files, decoding in parallel costs more than it saves.
const PARALLEL_DECODE: usize = 256;

impl Cached {
    /// Decodes the notes of every file in `ranges` that is not decoded yet, in
    /// parallel: a profile's roots reach thousands of files on a large vault.
    fn decode_all(&self, ranges: &[std::ops::Range<usize>]) {
        let files: usize = ranges.iter().map(ExactSizeIterator::len).sum();
        if files < PARALLEL_DECODE {
            return;
        }
        ranges.par_iter().for_each(|r| {
            r.clone().into_par_iter().for_each(|i| {
                self.meta_at(i);
            });
        });
    }

    fn meta_at(&self, i: usize) -> &[Note] {
        if self.hidden.contains(&i) || i >= self.meta.len() {
            return &[];
        }
        self.meta[i].get_or_init(|| self.snap.notes(i).unwrap_or_default())
    }

    /// The file's notes with their bodies, read from the file. When the file
    /// changed since it was indexed (a race with an editor, or a partial packet
    /// served before a refresh), the file as it is now wins; when it is gone, the
    /// indexed metadata is served without bodies.
    fn full_at(&self, i: usize) -> &[Note] {
        let meta = self.meta_at(i);
        if meta.is_empty() {
            return &[];
        }
        self.full[i].get_or_init(|| {
            let path = self.snap.path(i);
            let abs = self.vault.join(path);
            let Ok(bytes) = std::fs::read(&abs) else {
                return meta.to_vec();
            };
            let mut parsed = cairn_note::parse_file(path, &bytes).notes;
            if parsed.is_empty() {
                return meta.to_vec();
            }
            if self.snap.content_matches(i, &bytes) {
                // Same content: same notes; keep the indexed metadata (its mtime is
                // the one the ranking used) and add the bodies.
                meta.iter()
                    .map(|m| {
                        let mut m = m.clone();
                        if let Some(p) = parsed.iter_mut().find(|p| p.path == m.path) {
                            m.body = std::mem::take(&mut p.body);
                        }
                        m
                    })
                    .collect()
            } else {
                let mtime = std::fs::metadata(&abs)
                    .ok()
                    .and_then(|m| m.modified().ok())
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_secs() as i64);
                for n in &mut parsed {
                    n.mtime = mtime;
                }
                parsed
            }
        })
    }
}
