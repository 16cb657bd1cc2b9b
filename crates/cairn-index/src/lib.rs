//! Index: full-text BM25 over notes, built on tantivy.
//!
//! One document per note, keyed by its vault-relative path. Text fields (title,
//! headings, contents, tags, triggers, aliases, related files, path, dates in words)
//! share one English analyzer ([`analyzer`]: word tokenizer aware of identifiers,
//! lowercase, ASCII folding, Snowball stop words, Snowball stemmer), so a query
//! matches "retrying" against "retries" and `RollupPlanner` against "rollup planner".
//! A query is a weighted bag of analysed terms; tantivy stores the postings and
//! `rank.rs` scores them (BM25F, proximity, best passage); a folder filter restricts
//! the ranking to note roots.
//!
//! The index can live in RAM (one-shot commands, tests) or in a directory (the
//! persistent cache keeps one per vault). It knows nothing of boosts beyond text
//! relevance, of policy or of packets: it returns `(path, score)` pairs. A secret
//! note is never indexed: no word of it is in the index, in RAM or on disk.
//!
//! A published index is opened with its checksums ([`verify`]): every byte tantivy
//! reads is checked first, so a damaged file is an error, never a wrong answer;
//! and every call into tantivy runs under `catch_unwind`, so a panic inside it is
//! an [`IndexError::Panicked`], never a crash ([`panic_is_contained`] lets a
//! binary's panic hook stay quiet about it).
//!
//! Results depend only on the notes indexed, never on the index's history: BM25
//! statistics count live documents only (tantivy's own keep counting deleted ones
//! until a merge, and estimate field lengths after one), and documents tied on
//! score are ordered by a stable hash of their path ([`path_key`]) and, at the
//! result limit, by their path, never by where they sit in the segments. So an
//! index updated note by note ranks exactly like one built from scratch.

mod analyzer;
mod rank;
mod tokenize;
mod verify;

use std::collections::BTreeMap;
use std::path::Path;

pub use analyzer::{STOP_WORDS, analyze, analyzer};
pub use rank::{FieldWeights, PROXIMITY_DEPTH, Ranker};
pub use tokenize::WordTokenizer;
pub use verify::{BLOCK as CHECKSUM_BLOCK, FileSums, checksum_dir, verify_dir};

use cairn_note::{Note, Sensitivity};
use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::{
    FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

/// The analyzer's registered name.
pub const ANALYZER: &str = "cairn_en";
/// Bumped whenever the schema or the analyzer changes; persisted indexes of another
/// version are rebuilt.
pub const SCHEMA_VERSION: u32 = 4;

/// The fast field holding [`path_key`] of each note (the stable tie-breaker).
const KEY_HASH: &str = "key_hash";

/// Index failures (I/O, corruption, tantivy errors).
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// Anything tantivy reports.
    #[error("index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// Opening a directory failed.
    #[error("index directory: {0}")]
    Directory(#[from] tantivy::directory::error::OpenDirectoryError),
    /// Reading index files failed.
    #[error("index files: {0}")]
    Io(#[from] std::io::Error),
    /// The stored schema is not this version's.
    #[error("index schema does not match this version of cairn")]
    SchemaMismatch,
    /// tantivy panicked (damaged data it did not expect); the index must not be used again.
    #[error("index: internal failure ({0})")]
    Panicked(String),
}

thread_local! {
    /// How many calls into tantivy under `catch_unwind` this thread is in.
    static CONTAINED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Whether the current thread is inside a call into tantivy whose panics are
/// caught and returned as [`IndexError::Panicked`]: a binary's panic hook can
/// stay silent then (the caller reports the failure and recovers).
pub fn panic_is_contained() -> bool {
    CONTAINED.with(std::cell::Cell::get) > 0
}

/// Runs `f`, turning a panic into [`IndexError::Panicked`].
fn contained<T>(f: impl FnOnce() -> Result<T, IndexError>) -> Result<T, IndexError> {
    CONTAINED.with(|c| c.set(c.get() + 1));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(c.get().saturating_sub(1)));
    match out {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned());
            Err(IndexError::Panicked(msg))
        }
    }
}

/// Test-only fault injection (`--features fault-injection`, switched on for the
/// workspace's tests, never in a release build): with `CAIRN_FAULT=<point>` in the
/// environment, the first call at `point` in the process panics.
#[cfg(feature = "fault-injection")]
fn fault(point: &str) {
    static FIRED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if std::env::var("CAIRN_FAULT").is_ok_and(|v| v == point)
        && !FIRED.swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        panic!("injected fault at {point}");
    }
}

#[cfg(not(feature = "fault-injection"))]
fn fault(_point: &str) {}

/// The searchable fields, in the order of [`FieldWeights`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TextField {
    /// Title (and aliases' first word of context).
    Title,
    /// ATX headings.
    Headings,
    /// Title plus body: the "flat" BM25 field.
    Contents,
    /// Tags.
    Tags,
    /// Trigger phrases.
    Triggers,
    /// Aliases.
    Aliases,
    /// Related file paths.
    RelatedFiles,
    /// The note's own path.
    Path,
    /// The note's dates (`created`/`date`, `updated`) in words: "27 June 2023".
    Dates,
}

impl TextField {
    /// How many fields there are.
    pub const COUNT: usize = 9;

    /// Every field.
    pub const ALL: [TextField; TextField::COUNT] = [
        TextField::Title,
        TextField::Headings,
        TextField::Contents,
        TextField::Tags,
        TextField::Triggers,
        TextField::Aliases,
        TextField::RelatedFiles,
        TextField::Path,
        TextField::Dates,
    ];

    /// Fields the author curates (title, tags, triggers, aliases, related files): a
    /// match there is evidence of its own, scored apart from the prose fields.
    pub fn is_curated(self) -> bool {
        matches!(
            self,
            TextField::Title
                | TextField::Tags
                | TextField::Triggers
                | TextField::Aliases
                | TextField::RelatedFiles
        )
    }

    /// The schema name.
    pub fn name(self) -> &'static str {
        match self {
            TextField::Title => "title",
            TextField::Headings => "headings",
            TextField::Contents => "contents",
            TextField::Tags => "tags",
            TextField::Triggers => "triggers",
            TextField::Aliases => "aliases",
            TextField::RelatedFiles => "related_files",
            TextField::Path => "path_text",
            TextField::Dates => "dates",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    key: Field,
    key_hash: Field,
    /// The file a note comes from (its path, or the entry file holding it).
    file: Field,
    folders: Field,
    text: [Field; TextField::COUNT],
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let key = b.add_text_field("path", STRING | STORED);
    let key_hash = b.add_u64_field(KEY_HASH, FAST);
    let file = b.add_text_field("file", STRING);
    let folders = b.add_text_field("folders", STRING);
    // Positions feed the proximity and best-passage scores (`rank.rs`).
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(ANALYZER)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let opts = TextOptions::default().set_indexing_options(indexing);
    let text = TextField::ALL.map(|f| b.add_text_field(f.name(), opts.clone()));
    (
        b.build(),
        Fields {
            key,
            key_hash,
            file,
            folders,
            text,
        },
    )
}

/// A stable 64-bit hash of a note path (FNV-1a): the tie-breaker between hits with
/// equal scores at the result limit, identical in every index holding the note.
pub fn path_key(path: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A query: weighted analysed terms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryTerms {
    /// term → weight; a term said twice weighs twice.
    pub terms: BTreeMap<String, f32>,
}

impl QueryTerms {
    /// Adds the terms of `text` with `weight` each.
    pub fn add_text(&mut self, text: &str, weight: f32) {
        for t in analyze(text) {
            *self.terms.entry(t).or_insert(0.0) += weight;
        }
    }

    /// No terms at all.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
}

/// A BM25 hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Vault-relative path of the note.
    pub path: String,
    /// Text relevance: BM25F plus the weighted proximity score.
    pub bm25: f32,
    /// The proximity share of `bm25` (0 when proximity is off).
    pub proximity: f32,
    /// The share of the query's weighted IDF mass (Σ q_t · idf(t) over every query
    /// term, found in the vault or not) that this note contains, 0..1. Unlike `bm25`
    /// it is comparable across queries: a note that shares one common word with a
    /// long task covers little of it, whatever the best hit scored.
    pub coverage: f32,
}

/// The note index.
pub struct NoteIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    lengths: rank::LengthCache,
}

impl std::fmt::Debug for NoteIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoteIndex")
            .field("docs", &self.doc_count())
            .finish()
    }
}

impl NoteIndex {
    /// Builds an index of `notes` in RAM.
    pub fn build_in_ram(notes: &[Note]) -> Result<Self, IndexError> {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        let mut idx = contained(|| Self::wrap(index, fields))?;
        let mut w = idx.writer()?;
        for n in notes {
            w.add(n)?;
        }
        w.commit()?;
        idx.reload()?;
        Ok(idx)
    }

    /// Opens the index in `dir`, or creates an empty one there.
    pub fn open_or_create(dir: &Path) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let directory = tantivy::directory::MmapDirectory::open(dir)?;
            let index = Index::open_or_create(directory, schema.clone())?;
            if index.schema() != schema {
                return Err(IndexError::SchemaMismatch);
            }
            Self::wrap(index, fields)
        })
    }

    /// Opens the existing index in `dir` (memory-mapped) to write to it. Fails when
    /// there is none, when its files are unreadable or when its schema is not this
    /// version's.
    pub fn open(dir: &Path) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let directory = tantivy::directory::MmapDirectory::open(dir)?;
            let index = Index::open(directory)?;
            if index.schema() != schema {
                return Err(IndexError::SchemaMismatch);
            }
            Self::wrap(index, fields)
        })
    }

    /// Opens the published index in `dir` for searching only, checked against
    /// `sums` (taken with [`checksum_dir`] when it was published): the small files
    /// read on every search (meta, fast fields, field norms) are checked now,
    /// every other block the first time a search reads it, so a damaged index is
    /// an error, never a wrong answer. Nothing is ever written to `dir` (not even
    /// tantivy's reader lock file), so it can be read from a read-only folder and
    /// by any number of processes.
    pub fn open_verified(dir: &Path, sums: &[FileSums]) -> Result<Self, IndexError> {
        Self::open_read_only_with(dir, Some(sums))
    }

    /// Opens the existing index in `dir` for searching only, unchecked (see
    /// [`NoteIndex::open_verified`]).
    pub fn open_read_only(dir: &Path) -> Result<Self, IndexError> {
        Self::open_read_only_with(dir, None)
    }

    fn open_read_only_with(dir: &Path, sums: Option<&[FileSums]>) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let directory = verify::ReadOnlyDirectory::open(dir, sums)?;
            let index = Index::open(directory)?;
            if index.schema() != schema {
                return Err(IndexError::SchemaMismatch);
            }
            Self::wrap(index, fields)
        })
    }

    /// Creates an empty index in the existing, empty folder `dir`.
    pub fn create(dir: &Path) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let index = Index::create_in_dir(dir, schema)?;
            Self::wrap(index, fields)
        })
    }

    fn wrap(index: Index, fields: Fields) -> Result<Self, IndexError> {
        index.tokenizers().register(ANALYZER, analyzer());
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Self {
            index,
            reader,
            fields,
            lengths: rank::LengthCache::default(),
        })
    }

    /// A writer to add, replace and delete notes. One at a time per index (tantivy locks).
    pub fn writer(&mut self) -> Result<NoteWriter, IndexError> {
        self.writer_for(usize::MAX)
    }

    /// A writer sized for about `notes` notes: a few notes (an incremental refresh)
    /// get one indexing thread and tantivy's smallest memory budget, whose set-up
    /// costs less than a large one's; a build gets a thread per core (up to 4).
    pub fn writer_for(&mut self, notes: usize) -> Result<NoteWriter, IndexError> {
        let (threads, per_thread) = if notes < 1_000 {
            (1, 15_000_000)
        } else {
            let t = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4));
            (t, 40_000_000)
        };
        let writer = contained(|| {
            Ok(self
                .index
                .writer_with_num_threads(threads, threads * per_thread)?)
        })?;
        Ok(NoteWriter {
            writer,
            fields: self.fields,
        })
    }

    /// Makes committed changes visible to searches.
    pub fn reload(&mut self) -> Result<(), IndexError> {
        contained(|| Ok(self.reader.reload()?))
    }

    /// Number of notes in the index.
    pub fn doc_count(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// The best `limit` notes for `q` with BM25F over `weights` (no proximity), best
    /// first; ties broken by path. `folders` restricts to notes under these
    /// vault-relative folders (`""` means all).
    pub fn search(
        &self,
        q: &QueryTerms,
        weights: &FieldWeights,
        folders: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<Hit>, IndexError> {
        self.search_with(q, &Ranker::with_fields(*weights), folders, limit)
    }

    /// The best `limit` notes for `q` under `ranker`, best first; ties broken by path.
    /// `folders` restricts to notes under these vault-relative folders (`""` means all).
    pub fn search_with(
        &self,
        q: &QueryTerms,
        ranker: &Ranker,
        folders: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<Hit>, IndexError> {
        contained(|| {
            fault("index-search");
            let searcher = self.reader.searcher();
            rank::search(
                &searcher,
                &self.fields,
                &self.lengths,
                q,
                ranker,
                folders,
                limit,
            )
        })
    }

    /// Which query terms match the note at `path`, per field, with their BM25 share.
    pub fn explain(
        &self,
        q: &QueryTerms,
        weights: &FieldWeights,
        path: &str,
    ) -> Result<Vec<TermMatch>, IndexError> {
        self.explain_with(q, &Ranker::with_fields(*weights), None, path)
    }

    /// Which query terms match the note at `path`, per field, with their BM25F share
    /// under `ranker` with the statistics of `folders` (proximity not included).
    pub fn explain_with(
        &self,
        q: &QueryTerms,
        ranker: &Ranker,
        folders: Option<&[String]>,
        path: &str,
    ) -> Result<Vec<TermMatch>, IndexError> {
        contained(|| {
            let searcher = self.reader.searcher();
            let key = Term::from_field_text(self.fields.key, path);
            let top = searcher.search(
                &TermQuery::new(key, IndexRecordOption::Basic),
                &TopDocs::with_limit(1).order_by_score(),
            )?;
            let Some((_, addr)) = top.first() else {
                return Ok(Vec::new());
            };
            rank::explain(
                &searcher,
                &self.fields,
                &self.lengths,
                q,
                ranker,
                folders,
                *addr,
            )
        })
    }
}

/// One query term matching one field of a note.
#[derive(Debug, Clone, PartialEq)]
pub struct TermMatch {
    /// The analysed term.
    pub term: String,
    /// Where it matched.
    pub field: TextField,
    /// Its weighted BM25 contribution.
    pub score: f32,
}

/// Adds, replaces and deletes notes; changes become visible after `commit` and `reload`.
pub struct NoteWriter {
    writer: IndexWriter,
    fields: Fields,
}

impl std::fmt::Debug for NoteWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NoteWriter")
    }
}

impl NoteWriter {
    /// Adds `note` (call [`NoteWriter::delete`] first to replace one). A secret
    /// note is not added: no word of it enters the index (returns `false`).
    pub fn add(&mut self, note: &Note) -> Result<bool, IndexError> {
        if note.sensitivity == Sensitivity::Secret {
            return Ok(false);
        }
        let f = &self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.key, &note.path);
        doc.add_u64(f.key_hash, path_key(&note.path));
        doc.add_text(f.file, note.file_path());
        for folder in ancestors(&note.path) {
            doc.add_text(f.folders, folder);
        }
        let text = |field: TextField| f.text[field as usize];
        doc.add_text(text(TextField::Title), &note.title);
        for h in &note.headings {
            doc.add_text(text(TextField::Headings), &h.text);
        }
        let mut contents = String::with_capacity(note.title.len() + note.body.len() + 64);
        contents.push_str(&note.title);
        contents.push('\n');
        if let Some(d) = &note.description {
            contents.push_str(d);
            contents.push('\n');
        }
        contents.push_str(&note.body);
        doc.add_text(text(TextField::Contents), &contents);
        for t in &note.tags {
            doc.add_text(text(TextField::Tags), t);
        }
        for t in &note.triggers {
            doc.add_text(text(TextField::Triggers), t);
        }
        for a in &note.aliases {
            doc.add_text(text(TextField::Aliases), a);
        }
        for r in &note.related_files {
            doc.add_text(text(TextField::RelatedFiles), r);
        }
        doc.add_text(text(TextField::Path), &note.id);
        let mut dates: Vec<_> = [note.created, note.updated].into_iter().flatten().collect();
        dates.dedup();
        for d in dates {
            doc.add_text(text(TextField::Dates), d.format("%-d %B %Y").to_string());
        }
        contained(|| Ok(self.writer.add_document(doc)?))?;
        Ok(true)
    }

    /// Deletes the note at `path`.
    pub fn delete(&mut self, path: &str) {
        self.writer
            .delete_term(Term::from_field_text(self.fields.key, path));
    }

    /// Deletes every note read from the file at `path`: the note itself, or every
    /// entry of an entry file.
    pub fn delete_file(&mut self, path: &str) {
        self.writer
            .delete_term(Term::from_field_text(self.fields.file, path));
    }

    /// Deletes every note.
    pub fn delete_all(&mut self) -> Result<(), IndexError> {
        self.writer.delete_all_documents()?;
        Ok(())
    }

    /// Commits the changes.
    pub fn commit(mut self) -> Result<(), IndexError> {
        contained(move || {
            self.writer.commit()?;
            self.writer.wait_merging_threads()?;
            Ok(())
        })
    }
}

/// `a/b/c.md` → `a`, `a/b`.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/').map(move |(i, _)| &path[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_of_a_path() {
        assert_eq!(ancestors("a/b/c.md").collect::<Vec<_>>(), vec!["a", "a/b"]);
        assert_eq!(ancestors("c.md").count(), 0);
    }
}
