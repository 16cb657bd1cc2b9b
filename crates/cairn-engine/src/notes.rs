//! Where the engine's notes and their index come from: parsed in memory (tests,
//! `--vault` one-shots, fallback), or a persistent cache generation whose notes
//! are decoded one at a time, only when a profile's roots or a lookup reach them.
//!
//! A cached note's metadata has no body; the few notes that end up in a packet or
//! a snippet get theirs by re-reading their file ([`NoteSource::full`]). Cache
//! rows are files: a file holds one note, or one per entry of an entry file
//! (`decisions.md#slug`), so lookups go through the file part of a note's path.
//!
//! Ranking sees a secret note as its stub ([`cairn_cache::secret_stub`]: path and
//! kind, no text), whichever the source, so a cached engine and an in-memory one
//! rank alike; [`NoteSource::full`] reads the whole note from its file. Files are
//! read only where they resolve inside the vault.
//!
//! A cached index that fails while it is searched (a block that does not match
//! its checksum, an error or a panic inside tantivy) is replaced once, for the
//! rest of the engine's life, by a rebuilt generation (or, if the cache cannot be
//! written, an index built in memory); the search is then answered from it and
//! one warning is queued ([`NoteSource::take_warnings`]).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock, PoisonError};

use cairn_cache::{Cache, Listed, Snapshot, secret_stub};
use cairn_index::{Hit, IndexError, NoteIndex, QueryTerms, Ranker};
use cairn_note::{Note, Sensitivity};
use rayon::prelude::*;

/// The notes of an engine.
pub(crate) enum NoteSource {
    /// Parsed notes, bodies included, sorted by path.
    Memory {
        notes: Vec<Note>,
        /// What ranking sees of the secret notes (by index into `notes`).
        stubs: HashMap<usize, Note>,
        /// Paths (and secret entries' stub paths) → index into `notes`.
        by_path: HashMap<String, usize>,
        index: Box<NoteIndex>,
        /// The notes most linked to ([`cairn_note::most_linked`]).
        hubs: Vec<(String, u32)>,
    },
    /// A cache generation.
    Cached(Box<Cached>),
}

/// How a damaged cache generation is rebuilt while the engine runs.
pub(crate) struct Recovery {
    pub cache: Cache,
    pub listed: std::sync::Arc<Listed>,
}

/// The index that replaced a damaged one.
enum Replacement {
    Cache(Box<Snapshot>),
    Ram(Box<NoteIndex>),
}

impl Replacement {
    fn index(&self) -> &NoteIndex {
        match self {
            Self::Cache(s) => s.index(),
            Self::Ram(i) => i,
        }
    }
}

pub(crate) struct Cached {
    snap: Snapshot,
    vault: PathBuf,
    /// The vault's real (canonical) root: bodies are read only from under it.
    real_vault: PathBuf,
    /// Files of the generation deleted from the vault since (served partially).
    hidden: HashSet<usize>,
    /// Per file: its notes' metadata, decoded on first use.
    meta: Vec<OnceLock<Vec<Note>>>,
    /// Per file: its notes with bodies, read on first use.
    full: Vec<OnceLock<Vec<Note>>>,
    all: OnceLock<Vec<Note>>,
    /// `[vault] retiring_statuses`, applied to each note as it is decoded.
    retiring: Option<Vec<String>>,
    /// Undated notes dated by git, as each is decoded.
    dates: Option<crate::note_dates::NoteDates>,
    recovery: Option<Recovery>,
    replacement: OnceLock<Result<Replacement, String>>,
    warnings: Mutex<Vec<String>>,
}

impl NoteSource {
    /// In-memory notes (sorted here, their status decided by `retiring` when the
    /// configuration lists retiring words) and their index.
    pub(crate) fn memory(
        mut notes: Vec<Note>,
        retiring: Option<&[String]>,
    ) -> Result<Self, IndexError> {
        notes.sort_by(|a, b| a.path.cmp(&b.path));
        retire_by_config(&mut notes, retiring);
        // No credential's text is indexed: a search could confirm a guess.
        let index = Box::new(NoteIndex::build_in_ram(
            notes.iter().map(cairn_policy::index_view),
        )?);
        let mut by_path = HashMap::with_capacity(notes.len());
        let mut stubs = HashMap::new();
        for (i, n) in notes.iter().enumerate() {
            by_path.insert(n.path.clone(), i);
            if n.sensitivity == Sensitivity::Secret {
                let stub = secret_stub(n);
                by_path.entry(stub.path.clone()).or_insert(i);
                stubs.insert(i, stub);
            }
        }
        let refs: Vec<&Note> = notes
            .iter()
            .filter(|n| n.sensitivity != Sensitivity::Secret)
            .collect();
        let hubs = cairn_note::most_linked(&refs, HUBS_KEPT);
        Ok(Self::Memory {
            notes,
            stubs,
            by_path,
            index,
            hubs,
        })
    }

    /// A cache generation; `hidden` lists its files to leave out (deleted since);
    /// `recovery` rebuilds it if it turns out damaged; `retiring` decides statuses
    /// (see [`NoteSource::memory`]).
    pub(crate) fn cached(
        snap: Snapshot,
        vault: PathBuf,
        hidden: HashSet<usize>,
        recovery: Option<Recovery>,
        retiring: Option<Vec<String>>,
        dates: Option<crate::note_dates::NoteDates>,
    ) -> Self {
        let n = snap.len();
        let real_vault = vault.canonicalize().unwrap_or_else(|_| vault.clone());
        Self::Cached(Box::new(Cached {
            meta: (0..n).map(|_| OnceLock::new()).collect(),
            full: (0..n).map(|_| OnceLock::new()).collect(),
            snap,
            vault,
            real_vault,
            hidden,
            all: OnceLock::new(),
            retiring,
            dates,
            recovery,
            replacement: OnceLock::new(),
            warnings: Mutex::new(Vec::new()),
        }))
    }

    /// What dates the undated notes by git, when anything does (a cache
    /// generation with `[git] date_notes` on).
    pub(crate) fn note_dates(&self) -> Option<&crate::note_dates::NoteDates> {
        match self {
            Self::Memory { .. } => None,
            Self::Cached(c) => c.dates.as_ref(),
        }
    }

    /// The notes most linked to and how many notes link to each, most first:
    /// computed once per generation (or per in-memory open), never per query.
    pub(crate) fn hubs(&self) -> &[(String, u32)] {
        match self {
            Self::Memory { hubs, .. } => hubs,
            Self::Cached(c) => c.snap.hubs(),
        }
    }

    /// The best `limit` notes for `q` under `ranker` (see
    /// [`NoteIndex::search_with`]); a cached index that fails is replaced first.
    pub(crate) fn search_with(
        &self,
        q: &QueryTerms,
        ranker: &Ranker,
        folders: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<Hit>, IndexError> {
        self.search_knowing(
            q,
            ranker,
            folders,
            limit,
            &cairn_index::KnownPaths::default(),
        )
    }

    /// [`NoteSource::search_with`], the hits whose paths are `known` named
    /// without reading the index's document store.
    pub(crate) fn search_knowing(
        &self,
        q: &QueryTerms,
        ranker: &Ranker,
        folders: Option<&[String]>,
        limit: usize,
        known: &cairn_index::KnownPaths<'_>,
    ) -> Result<Vec<Hit>, IndexError> {
        match self {
            Self::Memory { index, .. } => index.search_knowing(q, ranker, folders, limit, known),
            Self::Cached(c) => c.with_index(|i| i.search_knowing(q, ranker, folders, limit, known)),
        }
    }

    /// How the search reads `q`: the terms no note holds, looked up as the
    /// vault writes them, and the joins of words said apart
    /// ([`NoteIndex::spellings`]).
    pub(crate) fn spellings(
        &self,
        q: &QueryTerms,
        ranker: &Ranker,
    ) -> Result<cairn_index::Spellings, IndexError> {
        match self {
            Self::Memory { index, .. } => index.spellings(q, ranker),
            Self::Cached(c) => c.with_index(|i| i.spellings(q, ranker)),
        }
    }

    /// The share of the notes whose title or body holds the analysed word
    /// `term` ([`NoteIndex::share_holding`]).
    pub(crate) fn share_holding(&self, term: &str) -> Result<f64, IndexError> {
        match self {
            Self::Memory { index, .. } => index.share_holding(term),
            Self::Cached(c) => c.with_index(|i| i.share_holding(term)),
        }
    }

    /// Warnings raised since the engine was opened (a damaged index replaced).
    pub(crate) fn take_warnings(&self) -> Vec<String> {
        match self {
            Self::Memory { .. } => Vec::new(),
            Self::Cached(c) => {
                std::mem::take(&mut *c.warnings.lock().unwrap_or_else(PoisonError::into_inner))
            }
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

    /// A note's metadata (cached notes: no body; secret notes: their stub), by
    /// its path (a secret entry also by its stub's).
    pub(crate) fn meta(&self, path: &str) -> Option<&Note> {
        match self {
            Self::Memory {
                notes,
                stubs,
                by_path,
                ..
            } => by_path
                .get(path)
                .map(|&i| stubs.get(&i).unwrap_or(&notes[i])),
            Self::Cached(c) => {
                let i = c.snap.find(file_of(path))?;
                let meta = c.meta_at(i);
                meta.iter()
                    .find(|n| n.path == path)
                    .or_else(|| c.secret_entry(i, meta, path))
            }
        }
    }

    /// A note with its body (a secret note whole, read from its file).
    pub(crate) fn full(&self, path: &str) -> Option<&Note> {
        match self {
            Self::Memory { notes, by_path, .. } => by_path.get(path).map(|&i| &notes[i]),
            Self::Cached(c) => {
                let full = c.full_at(c.snap.find(file_of(path))?);
                full.iter()
                    .find(|n| n.path == path)
                    .or_else(|| full.iter().find(|n| is_stub_of(n, path)))
            }
        }
    }

    /// Notes under any of `roots` (`""`: the whole vault), in path order (metadata).
    pub(crate) fn under_roots<'a: 'r, 'r>(
        &'a self,
        roots: &'r [String],
    ) -> Box<dyn Iterator<Item = &'a Note> + 'r> {
        match self {
            Self::Memory { notes, stubs, .. } => Box::new(
                notes
                    .iter()
                    .enumerate()
                    .filter(move |(_, n)| roots.iter().any(|r| crate::in_root(&n.path, r)))
                    .map(|(i, n)| stubs.get(&i).unwrap_or(n)),
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
            Self::Memory { notes, stubs, .. } => Box::new(
                notes
                    .iter()
                    .enumerate()
                    .map(|(i, n)| stubs.get(&i).unwrap_or(n)),
            ),
            Self::Cached(c) => {
                let all = 0..c.snap.len();
                c.decode_all(std::slice::from_ref(&all));
                Box::new(all.flat_map(move |i| c.meta_at(i).iter()))
            }
        }
    }

    /// The vault-relative paths of the files under folder `root`, in path order,
    /// without reading any note (a cached source lists its manifest).
    pub(crate) fn file_paths_under<'a>(&'a self, root: &str) -> Vec<&'a str> {
        match self {
            Self::Memory { notes, .. } => {
                let mut paths: Vec<&str> = notes
                    .iter()
                    .map(Note::file_path)
                    .filter(|p| crate::in_root(p, root))
                    .collect();
                paths.dedup();
                paths
            }
            Self::Cached(c) => c.snap.range_under(root).map(|i| c.snap.path(i)).collect(),
        }
    }

    /// Every note with its body (a cached source reads every file the first time).
    pub(crate) fn all_full(&self) -> &[Note] {
        match self {
            Self::Memory { notes, .. } => notes,
            Self::Cached(c) => c.all_full(),
        }
    }
}

/// The file part of a note path: `a/decisions.md#slug` → `a/decisions.md`.
fn file_of(path: &str) -> &str {
    path.split_once('#').map_or(path, |(file, _)| file)
}

/// Whether `path` is the stub path of the secret entry `n`.
fn is_stub_of(n: &Note, path: &str) -> bool {
    n.sensitivity == Sensitivity::Secret
        && n.entry_of
            .as_deref()
            .is_some_and(|f| cairn_cache::secret_entry_path(f, n.body_line) == path)
}

/// Below this many files, decoding in parallel costs more than it saves.
const PARALLEL_DECODE: usize = 256;
/// Most hub notes kept (as a cache generation keeps).
const HUBS_KEPT: usize = 256;

impl Cached {
    /// Runs `f` on the index; if it fails, replaces the index (once) and runs
    /// `f` on the replacement.
    fn with_index<T>(
        &self,
        f: impl Fn(&NoteIndex) -> Result<T, IndexError>,
    ) -> Result<T, IndexError> {
        if let Some(r) = self.replacement.get() {
            return match r {
                Ok(r) => f(r.index()),
                Err(why) => Err(IndexError::Panicked(why.clone())),
            };
        }
        let err = match f(self.snap.index()) {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        match self.replacement.get_or_init(|| self.replace(&err)) {
            Ok(r) => f(r.index()),
            Err(_) => Err(err),
        }
    }

    /// A sound index in place of this generation's, with the warning queued.
    fn replace(&self, err: &IndexError) -> Result<Replacement, String> {
        let why = err.to_string();
        let mut warnings = self.warnings.lock().unwrap_or_else(PoisonError::into_inner);
        let failure = match &self.recovery {
            Some(r) => match r.cache.replace_damaged(&self.snap, &why, &r.listed) {
                Ok((snap, warning)) => {
                    warnings.push(warning);
                    return Ok(Replacement::Cache(Box::new(snap)));
                }
                Err(e) => e.to_string(),
            },
            None => String::new(),
        };
        let index = NoteIndex::build_in_ram(self.all_full().iter().map(cairn_policy::index_view))
            .map_err(|e| e.to_string())?;
        let mut w = format!(
            "the index at {} is damaged ({why})",
            self.snap.dir().display()
        );
        if !failure.is_empty() {
            w.push_str(&format!("; it cannot be rebuilt ({failure})"));
        }
        w.push_str("; indexing in memory this time");
        warnings.push(w);
        Ok(Replacement::Ram(Box::new(index)))
    }

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
        self.meta[i].get_or_init(|| self.by_config(i, self.snap.notes(i).unwrap_or_default()))
    }

    /// `notes` of file `i` with their status decided by the configured retiring
    /// words, if any, and those undated dated by git ([`crate::note_dates`]).
    fn by_config(&self, i: usize, mut notes: Vec<Note>) -> Vec<Note> {
        retire_by_config(&mut notes, self.retiring.as_deref());
        if let Some(dates) = &self.dates {
            let info = self.snap.info(i);
            dates.date(&mut notes, self.snap.path(i), info.mtime_ns, info.size);
        }
        notes
    }

    /// The stub of the secret entry whose real path is `path` (its stub is named
    /// by its line: the entry file is parsed again to find it).
    fn secret_entry<'a>(&self, i: usize, meta: &'a [Note], path: &str) -> Option<&'a Note> {
        if !path.contains('#') || !meta.iter().any(|n| n.sensitivity == Sensitivity::Secret) {
            return None;
        }
        let file = self.snap.path(i);
        let bytes = cairn_scan::read_inside(&self.real_vault, &self.vault.join(file)).ok()?;
        let parsed = cairn_note::parse_file(file, &bytes).notes;
        let entry = parsed.iter().find(|n| n.path == path)?;
        let stub = cairn_cache::secret_entry_path(file, entry.body_line);
        meta.iter()
            .find(|n| n.sensitivity == Sensitivity::Secret && n.path == stub)
    }

    /// The file's notes with their bodies, read from the file. When the file
    /// changed since it was indexed (a race with an editor, or a partial packet
    /// served before a refresh), the file as it is now wins; when it is gone (or
    /// now leads outside the vault), the indexed metadata is served without
    /// bodies. A secret note comes whole from the file (the cache has its stub).
    fn full_at(&self, i: usize) -> &[Note] {
        let meta = self.meta_at(i);
        if meta.is_empty() {
            return &[];
        }
        self.full[i].get_or_init(|| self.by_config(i, self.read_full(i, meta)))
    }

    /// [`Cached::full_at`]'s reading of the file (before the configured statuses).
    fn read_full(&self, i: usize, meta: &[Note]) -> Vec<Note> {
        let path = self.snap.path(i);
        let abs = self.vault.join(path);
        let Ok(bytes) = cairn_scan::read_inside(&self.real_vault, &abs) else {
            return meta.to_vec();
        };
        let same = self.snap.content_matches(i, &bytes);
        // One note, not secret, its file's content the one indexed: the indexed
        // metadata stands, and only the body is wanted, so the front matter and
        // the markdown are not parsed again.
        if let [one] = meta
            && same
            && one.sensitivity != Sensitivity::Secret
            && let Some(body) = cairn_note::body_of(path, &bytes)
        {
            let mut whole = one.clone();
            whole.body = body;
            return vec![whole];
        }
        // Parsed as the scan parses a listed file (a vault-root README takes the
        // vault folder's name); the time is set below when it matters.
        let file = cairn_scan::FileEntry {
            path: path.to_owned(),
            abs: abs.clone(),
            size: bytes.len() as u64,
            mtime_ns: 0,
        };
        let (mut parsed, _) = cairn_scan::parse_file(&file, &bytes);
        if parsed.is_empty() {
            return meta.to_vec();
        }
        if same {
            // Same content: same notes; keep the indexed metadata (its mtime is
            // the one the ranking used) and add the bodies.
            meta.iter()
                .map(|m| {
                    if m.sensitivity == Sensitivity::Secret
                        && let Some(p) = parsed
                            .iter()
                            .position(|p| p.path == m.path || is_stub_of(p, &m.path))
                    {
                        let mut whole = parsed.swap_remove(p);
                        whole.mtime = m.mtime;
                        return whole;
                    }
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
                .and_then(|d| i64::try_from(d.as_secs()).ok());
            for n in &mut parsed {
                n.mtime = mtime;
            }
            parsed
        }
    }

    fn all_full(&self) -> &[Note] {
        self.all.get_or_init(|| {
            (0..self.snap.len())
                .flat_map(|i| self.full_at(i).iter().cloned())
                .collect()
        })
    }
}

/// Decides each note's status by `[vault] retiring_statuses`, when configured
/// (without it the parser's built-in words stand).
fn retire_by_config(notes: &mut [Note], retiring: Option<&[String]>) {
    if let Some(words) = retiring {
        for n in notes {
            n.retire_by(words);
        }
    }
}
