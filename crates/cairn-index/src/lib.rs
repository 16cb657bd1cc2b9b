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
//! relevance, of policy or of packets: it returns `(path, score)` pairs.
//!
//! Results depend only on the notes indexed, never on the index's history: BM25
//! statistics count live documents only (tantivy's own keep counting deleted ones
//! until a merge, and estimate field lengths after one), and documents tied on
//! score are ordered by a stable hash of their path ([`path_key`]) and, at the
//! result limit, by their path, never by where they sit in the segments. So an
//! index updated note by note ranks exactly like one built from scratch.

mod rank;
mod tokenize;

use std::collections::BTreeMap;
use std::path::Path;

pub use rank::{FieldWeights, PROXIMITY_DEPTH, Ranker};
pub use tokenize::WordTokenizer;

use cairn_note::Note;
use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::{
    FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, Stemmer,
    StopWordFilter, TextAnalyzer, Token, TokenFilter, TokenStream, Tokenizer,
};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

/// The analyzer's registered name.
pub const ANALYZER: &str = "cairn_en";
/// Bumped whenever the schema or the analyzer changes; persisted indexes of another
/// version are rebuilt.
pub const SCHEMA_VERSION: u32 = 3;

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
}

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

/// The analyzer: split into words ([`WordTokenizer`]: camelCase parts, joined
/// hyphenated words, no contraction tails, ordinals as numbers), drop tokens over 40
/// bytes, lowercase, fold accents, drop English stop words ([`STOP_WORDS`]), stem.
pub fn analyzer() -> TextAnalyzer {
    let stop = StopWordFilter::remove(STOP_WORDS.iter().map(|w| (*w).to_owned()));
    TextAnalyzer::builder(WordTokenizer)
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(stop)
        .filter(MemoStemmer)
        .build()
}

/// English stop words: the Snowball project's list (snowballstem.org, BSD licence),
/// without its contractions, which the tokenizer already splits. Questions are full
/// of these ("what did she ...", "how does the ..."); dropping them keeps them out
/// of length normalisation and proximity (+0.015 MRR on LoCoMo, +0.017 nDCG@10 on
/// the devmem suite, +0.004 on SciFact against Lucene's 33-word list).
pub const STOP_WORDS: &[&str] = &[
    "i",
    "me",
    "my",
    "myself",
    "we",
    "our",
    "ours",
    "ourselves",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
    "he",
    "him",
    "his",
    "himself",
    "she",
    "her",
    "hers",
    "herself",
    "it",
    "its",
    "itself",
    "they",
    "them",
    "their",
    "theirs",
    "themselves",
    "what",
    "which",
    "who",
    "whom",
    "this",
    "that",
    "these",
    "those",
    "am",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "have",
    "has",
    "had",
    "having",
    "do",
    "does",
    "did",
    "doing",
    "would",
    "should",
    "could",
    "ought",
    "a",
    "an",
    "the",
    "and",
    "but",
    "if",
    "or",
    "because",
    "as",
    "until",
    "while",
    "of",
    "at",
    "by",
    "for",
    "with",
    "about",
    "against",
    "between",
    "into",
    "through",
    "during",
    "before",
    "after",
    "above",
    "below",
    "to",
    "from",
    "up",
    "down",
    "in",
    "out",
    "on",
    "off",
    "over",
    "under",
    "again",
    "further",
    "then",
    "once",
    "here",
    "there",
    "when",
    "where",
    "why",
    "how",
    "all",
    "any",
    "both",
    "each",
    "few",
    "more",
    "most",
    "other",
    "some",
    "such",
    "no",
    "nor",
    "not",
    "only",
    "own",
    "same",
    "so",
    "than",
    "too",
    "very",
];

/// Most distinct words one analyzer remembers the stem of.
const STEM_CACHE_WORDS: usize = 100_000;

/// tantivy's English Snowball stemmer with a memo of the stems already computed:
/// the same tokens, but a vault repeats its words so often that stemming each
/// occurrence was a third of the cost of building an index. Each analyzer
/// (one per indexing thread) has its own memo, so nothing is shared or locked.
#[derive(Clone, Copy, Debug, Default)]
struct MemoStemmer;

impl TokenFilter for MemoStemmer {
    type Tokenizer<T: Tokenizer> = MemoStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> MemoStemmerFilter<T> {
        MemoStemmerFilter {
            inner: tokenizer,
            memo: std::collections::HashMap::new(),
            stem_one: TextAnalyzer::builder(RawTokenizer::default())
                .filter(Stemmer::new(Language::English))
                .build(),
        }
    }
}

#[derive(Clone)]
struct MemoStemmerFilter<T> {
    inner: T,
    memo: std::collections::HashMap<String, String>,
    /// The stemmer itself, applied to one word at a time.
    stem_one: TextAnalyzer,
}

impl<T: Tokenizer> Tokenizer for MemoStemmerFilter<T> {
    type TokenStream<'a> = MemoStemmerStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        MemoStemmerStream {
            tail: self.inner.token_stream(text),
            memo: &mut self.memo,
            stem_one: &mut self.stem_one,
        }
    }
}

struct MemoStemmerStream<'a, S> {
    tail: S,
    memo: &'a mut std::collections::HashMap<String, String>,
    stem_one: &'a mut TextAnalyzer,
}

impl<S: TokenStream> TokenStream for MemoStemmerStream<'_, S> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let token = self.tail.token_mut();
        if let Some(stem) = self.memo.get(&token.text) {
            token.text.clear();
            token.text.push_str(stem);
            return true;
        }
        let mut stream = self.stem_one.token_stream(&token.text);
        let stem = if stream.advance() {
            stream.token().text.clone()
        } else {
            token.text.clone()
        };
        drop(stream);
        if self.memo.len() < STEM_CACHE_WORDS {
            self.memo
                .insert(std::mem::take(&mut token.text), stem.clone());
        }
        token.text = stem;
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// Analyses `text` into index terms, in order (duplicates kept).
pub fn analyze(text: &str) -> Vec<String> {
    thread_local! {
        // Building the analyzer (stop word set, stemmer) costs more than analysing a
        // sentence; snippets and triggers analyse many.
        static ANALYZER: std::cell::RefCell<TextAnalyzer> = std::cell::RefCell::new(analyzer());
    }
    ANALYZER.with(|a| {
        let mut a = a.borrow_mut();
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push(t.text.clone());
        }
        out
    })
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
        let mut idx = Self::wrap(index, fields)?;
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
        let (schema, fields) = schema();
        let directory = tantivy::directory::MmapDirectory::open(dir)?;
        let index = Index::open_or_create(directory, schema.clone())?;
        if index.schema() != schema {
            return Err(IndexError::SchemaMismatch);
        }
        Self::wrap(index, fields)
    }

    /// Opens the existing index in `dir` (memory-mapped). Fails when there is none,
    /// when its files are unreadable or when its schema is not this version's.
    pub fn open(dir: &Path) -> Result<Self, IndexError> {
        let (schema, fields) = schema();
        let directory = tantivy::directory::MmapDirectory::open(dir)?;
        let index = Index::open(directory)?;
        if index.schema() != schema {
            return Err(IndexError::SchemaMismatch);
        }
        Self::wrap(index, fields)
    }

    /// Opens the existing index in `dir` for searching only: nothing is ever written
    /// to `dir` (not even tantivy's reader lock file), so a published, immutable
    /// index can be read from a read-only folder and by any number of processes.
    pub fn open_read_only(dir: &Path) -> Result<Self, IndexError> {
        let (schema, fields) = schema();
        let directory = ReadOnlyDirectory(tantivy::directory::MmapDirectory::open(dir)?);
        let index = Index::open(directory)?;
        if index.schema() != schema {
            return Err(IndexError::SchemaMismatch);
        }
        Self::wrap(index, fields)
    }

    /// Creates an empty index in the existing, empty folder `dir`.
    pub fn create(dir: &Path) -> Result<Self, IndexError> {
        let (schema, fields) = schema();
        let index = Index::create_in_dir(dir, schema)?;
        Self::wrap(index, fields)
    }

    /// Reads every index file and checks its checksum; returns the damaged files'
    /// names (empty when the index is sound). Costs a full read of the index.
    pub fn verify(&self) -> Result<Vec<String>, IndexError> {
        let mut bad: Vec<String> = self
            .index
            .validate_checksum()?
            .into_iter()
            .map(|p| p.display().to_string())
            .collect();
        bad.sort();
        Ok(bad)
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
        let writer = self
            .index
            .writer_with_num_threads(threads, threads * per_thread)?;
        Ok(NoteWriter {
            writer,
            fields: self.fields,
        })
    }

    /// Makes committed changes visible to searches.
    pub fn reload(&mut self) -> Result<(), IndexError> {
        self.reader.reload()?;
        Ok(())
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
    /// Adds `note` (call [`NoteWriter::delete`] first to replace one).
    pub fn add(&mut self, note: &Note) -> Result<(), IndexError> {
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
        self.writer.add_document(doc)?;
        Ok(())
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
        self.writer.commit()?;
        self.writer.wait_merging_threads()?;
        Ok(())
    }
}

/// A memory-mapped directory that refuses every write. Its lock is a no-op: the
/// only lock a reader takes keeps a concurrent writer's garbage collection from
/// deleting files mid-open, and nothing writes to an index opened this way.
#[derive(Debug, Clone)]
struct ReadOnlyDirectory(tantivy::directory::MmapDirectory);

fn read_only_error() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::PermissionDenied,
        "index opened read-only",
    )
}

impl tantivy::Directory for ReadOnlyDirectory {
    fn get_file_handle(
        &self,
        path: &Path,
    ) -> Result<
        std::sync::Arc<dyn tantivy::directory::FileHandle>,
        tantivy::directory::error::OpenReadError,
    > {
        self.0.get_file_handle(path)
    }

    fn delete(&self, path: &Path) -> Result<(), tantivy::directory::error::DeleteError> {
        Err(tantivy::directory::error::DeleteError::IoError {
            io_error: std::sync::Arc::new(read_only_error()),
            filepath: path.to_path_buf(),
        })
    }

    fn exists(&self, path: &Path) -> Result<bool, tantivy::directory::error::OpenReadError> {
        self.0.exists(path)
    }

    fn open_write(
        &self,
        path: &Path,
    ) -> Result<tantivy::directory::WritePtr, tantivy::directory::error::OpenWriteError> {
        Err(tantivy::directory::error::OpenWriteError::IoError {
            io_error: std::sync::Arc::new(read_only_error()),
            filepath: path.to_path_buf(),
        })
    }

    fn atomic_read(
        &self,
        path: &Path,
    ) -> Result<Vec<u8>, tantivy::directory::error::OpenReadError> {
        self.0.atomic_read(path)
    }

    fn atomic_write(&self, _path: &Path, _data: &[u8]) -> std::io::Result<()> {
        Err(read_only_error())
    }

    fn sync_directory(&self) -> std::io::Result<()> {
        Ok(())
    }

    fn acquire_lock(
        &self,
        _lock: &tantivy::directory::Lock,
    ) -> Result<tantivy::directory::DirectoryLock, tantivy::directory::error::LockError> {
        Ok(tantivy::directory::DirectoryLock::from(Box::new(())))
    }

    fn watch(
        &self,
        _cb: tantivy::directory::WatchCallback,
    ) -> tantivy::Result<tantivy::directory::WatchHandle> {
        Ok(tantivy::directory::WatchHandle::empty())
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
    fn analyzer_stems_and_drops_stop_words() {
        assert_eq!(
            analyze("The Retrying of payouts, naïvely!"),
            vec!["retri", "payout", "naiv"]
        );
        assert_eq!(
            analyze("src/settlement/payout_job.rs"),
            vec!["src", "settlement", "payout", "payoutjob", "job", "rs"]
        );
    }

    #[test]
    fn memoised_stems_equal_plain_stems() {
        let stop = StopWordFilter::remove(STOP_WORDS.iter().map(|w| (*w).to_owned()));
        let mut plain = TextAnalyzer::builder(WordTokenizer)
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .filter(stop)
            .filter(Stemmer::new(Language::English))
            .build();
        let text = "Retrying retries retried: the runners running ran, généralement naïvely \
                    retrying again and again; Relational relations relate. retrying";
        let mut expected = Vec::new();
        let mut s = plain.token_stream(text);
        while let Some(t) = s.next() {
            expected.push(t.text.clone());
        }
        // Twice: the second pass is served from the memo.
        assert_eq!(analyze(text), expected);
        assert_eq!(analyze(text), expected);
    }

    #[test]
    fn ancestors_of_a_path() {
        assert_eq!(ancestors("a/b/c.md").collect::<Vec<_>>(), vec!["a", "a/b"]);
        assert_eq!(ancestors("c.md").count(), 0);
    }
}
