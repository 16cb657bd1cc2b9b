//! Index: full-text BM25 over notes, built on tantivy.
//!
//! One document per note, keyed by its vault-relative path. Text fields (title,
//! headings, contents, tags, triggers, aliases, related files, path, dates in words)
//! share one English analyzer ([`analyzer()`]: word tokenizer aware of identifiers,
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
//! A published index is opened with its checksums ([`verify_dir`]): every byte tantivy
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
mod directory;
mod error;
mod explain;
mod live_stats;
mod rank;
mod schema;
mod spelling;
mod tokenize;
mod verify;
mod writer;

use std::collections::{BTreeMap, BTreeSet};

pub use analyzer::{analyze, analyzed_within, analyzer, stop_words};
pub use error::{IndexError, panic_is_contained};
pub use rank::{FieldWeights, PROXIMITY_DEPTH, Ranker};
pub use schema::{KnownPaths, TextField, path_key};
pub use spelling::{ABBREVIATIONS, Join, Spellings};
pub use tokenize::WordTokenizer;
pub use verify::{BLOCK as CHECKSUM_BLOCK, FileSums, checksum_dir, verify_dir};
pub use writer::NoteWriter;

use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::IndexRecordOption;
use tantivy::{Index, IndexReader, Term};

use crate::error::{contained, fault};
use crate::schema::Fields;

/// The analyzer's registered name.
pub const ANALYZER: &str = "cairn_en";
/// Bumped whenever the schema, the analyzer or what of a note is indexed changes
/// (5: no credential's text; 6: a confidential note by its names only, not its
/// content; 7: no two-letter prefix of a camelCase word as a word; 8: only `re`, `un`, `de`, `ex`, `co`; 9: no
/// `data:` URI's payload; 10: a `user:password` pair after a word for
/// credentials is no word of the index; 11: an environment variable's name, a
/// credential's name in capitals and a token cut short are words again; 12: a
/// password devices ship with, in such a pair, is no word either; 13: nor a
/// pair written with a slash, `root / toor`, `admin/admin`; 14: nor an AWS
/// secret key after the word `secret` in prose);
/// persisted indexes of another version are rebuilt.
pub const SCHEMA_VERSION: u32 = 15;

/// A query: weighted analysed terms.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueryTerms {
    /// term → weight; a term said twice weighs twice.
    pub terms: BTreeMap<String, f32>,
    /// Parts of the query that each state a whole topic (a task derived from a
    /// working tree: the branch's words, each commit's subject): a hit says how
    /// much of its best part it covers ([`Hit::part`]). Each part is a set of
    /// terms of `terms`, weighted as there; empty for a task in one piece.
    pub parts: Vec<BTreeSet<String>>,
    /// Words of letters the query says side by side (lowercase, as written),
    /// which a note may write as one word: `roll back` as `rollback`, `log in`
    /// as `login`, `data set` as `dataset`. The search also looks for the
    /// joined word when notes hold it ([`NoteIndex::spellings`]). Only text written
    /// as prose adds them ([`QueryTerms::add_pairs`]): a task, a branch's
    /// words, a commit's subject; not a file's path.
    pub pairs: BTreeSet<(String, String)>,
}

impl QueryTerms {
    /// Adds the terms of `text` with `weight` each.
    pub fn add_text(&mut self, text: &str, weight: f32) {
        for t in analyze(text) {
            *self.terms.entry(t).or_insert(0.0) += weight;
        }
    }

    /// Adds the pairs of words `text` says side by side ([`QueryTerms::pairs`]).
    pub fn add_pairs(&mut self, text: &str) {
        self.pairs.extend(spelling::pairs_of(text));
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
    /// The share of the query's weighted IDF mass (Σ `q_t` · idf(t) over every query
    /// term, found in the vault or not) that this note contains, 0..1. Unlike `bm25`
    /// it is comparable across queries: a note that shares one common word with a
    /// long task covers little of it, whatever the best hit scored.
    pub coverage: f32,
    /// With [`QueryTerms::parts`]: the part this note covers most of (the first
    /// of equals), and that share of the part's weighted IDF mass, 0..1.
    pub part: Option<(usize, f32)>,
}

/// The note index.
pub struct NoteIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    lengths: live_stats::LengthCache,
}

impl std::fmt::Debug for NoteIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoteIndex")
            .field("docs", &self.doc_count())
            .finish()
    }
}

impl NoteIndex {
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
        self.search_knowing(q, ranker, folders, limit, &KnownPaths::default())
    }

    /// [`NoteIndex::search_with`], the hits whose paths are `known` named
    /// without reading the document store (the same hits).
    pub fn search_knowing(
        &self,
        q: &QueryTerms,
        ranker: &Ranker,
        folders: Option<&[String]>,
        limit: usize,
        known: &KnownPaths<'_>,
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
                known,
            )
        })
    }

    /// How the search reads `q` ([`Spellings`]): the terms no note holds,
    /// looked up as the vault writes them (a compound as two words, an
    /// abbreviation spelled out: see [`ABBREVIATIONS`]), each with the words
    /// it is looked up as; and the words notes hold that join two words the
    /// query says side by side (`roll back` as `rollback`), which the search
    /// looks for too, as another way to write the pair ([`Join`]).
    pub fn spellings(&self, q: &QueryTerms, ranker: &Ranker) -> Result<Spellings, IndexError> {
        contained(|| {
            let searcher = self.reader.searcher();
            spelling::spellings(&searcher, &self.fields, ranker, q)
        })
    }

    /// The share of the notes whose title or body holds the analysed word
    /// `term` (0 in an empty index): a word most notes hold names what the
    /// vault is about, not one note's topic.
    pub fn share_holding(&self, term: &str) -> Result<f64, IndexError> {
        contained(|| {
            let searcher = self.reader.searcher();
            let docs = searcher.num_docs();
            if docs == 0 {
                return Ok(0.0);
            }
            let df = live_stats::contents_doc_freq(&searcher, &self.fields, term, u64::MAX)?;
            #[allow(clippy::cast_precision_loss)] // counts of notes
            Ok(df as f64 / docs as f64)
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
            explain::explain(
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
