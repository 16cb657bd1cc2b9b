//! Text relevance over tantivy's postings: BM25F across the prose fields plus
//! per-field BM25 on the curated fields, then term proximity and the best passage
//! for the best candidates.
//!
//! ```text
//! x_f(t, d)   = tf_f(t, d) / ((1 − b) + b · len_f(d) / avglen_f)
//! sat(x)      = (k1 + 1) · x / (k1 + x)
//! bm25f(d)    = Σ_terms q_t · idf(t) · ( sat(Σ_prose w_f · x_f) + Σ_curated w_f · sat(x_f) )
//! idf(t)      = ln(1 + (N − df + 0.5) / (df + 0.5))     df: most of any weighted field
//! K_d         = k1 · ((1 − b) + b · len(d) / avglen)    (contents field)
//! prox(d)     = Σ_terms min(1, idf(t)) · (k1 + 1) · acc_t / (K_d + acc_t)
//! acc_t       = Σ over neighbouring occurrences (t at p, u ≠ t at p′) of q_u · idf(u) / (p − p′)²
//! passage(d)  = max over windows of `window` positions of Σ_terms q_t · idf(t) · (k1 + 1) · c_t / (K_d + c_t)
//! text(d)     = bm25f(d) + proximity · prox(d) + passage · passage(d)
//! ```
//! - Prose fields (headings, contents, path, dates) are combined BM25F-style: a
//!   term's weighted frequencies are added *before* saturating, so a heading that
//!   repeats words of the body does not count them twice over.
//! - Curated fields (title, tags, triggers, aliases, related files) are chosen by
//!   the author to say what the note is about: a match there is evidence of its
//!   own, so each is saturated and added separately (the title is also part of the
//!   contents field). Folding them into BM25F too compresses the scores of all good
//!   matches so much that recency and priority boosts decide between them.
//! - With the contents field alone at weight 1 and no proximity, this is textbook
//!   BM25 (k1 1.2, b 0.75): the `--ranking bm25` baseline.
//! - Proximity (BM25TP: Büttcher, Clarke and Lushman, SIGIR 2006) rewards query
//!   words that occur near each other; the best passage (Callan, SIGIR 1994)
//!   rewards a note whose matches concentrate in one place, which whole-note BM25
//!   cannot see in a long note such as a conversation. Both read term positions of
//!   the contents field, for the best [`PROXIMITY_DEPTH`] candidates only, and use
//!   the note's BM25 length normalisation `K_d`, so they add no bias towards long
//!   notes.

use std::collections::HashMap;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::Postings;
use tantivy::schema::IndexRecordOption;
use tantivy::schema::Value;
use tantivy::{
    DocAddress, DocId, DocSet, Searcher, SegmentReader, TERMINATED, TantivyDocument, Term,
};

use crate::live_stats::{LengthCache, doc_freq};
use crate::schema::{Fields, KEY_HASH, KnownPaths};
use crate::spelling;
use crate::{Hit, IndexError, QueryTerms, TextField};

/// How many of the best BM25F candidates get a proximity score.
pub const PROXIMITY_DEPTH: usize = 200;

/// Per-field weights for BM25F: one occurrence in a field counts this many times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldWeights(pub [f32; TextField::COUNT]);

impl FieldWeights {
    /// Only the flat contents field: textbook BM25, for `--ranking bm25` baselines.
    pub const FLAT: FieldWeights = {
        let mut w = [0.0; TextField::COUNT];
        w[TextField::Contents as usize] = 1.0;
        FieldWeights(w)
    };

    /// The weight of one field.
    pub fn get(&self, f: TextField) -> f32 {
        self.0[f as usize]
    }
}

impl Default for FieldWeights {
    /// The contents field (title, description and body) is the base; a word in a
    /// heading adds a third; the curated fields (title, tags, triggers, aliases, file
    /// paths) add about half a match each; the note's path a little; a date the query names ("on 8 May, 2023") is
    /// strong evidence and counts double.
    fn default() -> Self {
        let mut w = [0.0; TextField::COUNT];
        for (f, v) in [
            (TextField::Title, 0.5),
            (TextField::Headings, 0.35),
            (TextField::Contents, 1.0),
            (TextField::Tags, 0.5),
            (TextField::Triggers, 0.6),
            (TextField::Aliases, 0.6),
            (TextField::RelatedFiles, 0.4),
            (TextField::Path, 0.3),
            (TextField::Dates, 2.0),
        ] {
            w[f as usize] = v;
        }
        FieldWeights(w)
    }
}

/// How text relevance is computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranker {
    /// BM25F field weights.
    pub fields: FieldWeights,
    /// Term-frequency saturation.
    pub k1: f32,
    /// Length normalisation (0: none, 1: full).
    pub b: f32,
    /// Weight of the proximity score; 0 turns it off.
    pub proximity: f32,
    /// Weight of the best passage's score; 0 turns it off.
    pub passage: f32,
    /// Passage length in token positions.
    pub window: u32,
}

impl Ranker {
    /// Textbook BM25 on the contents field (k1 1.2, b 0.75), no proximity: the baseline.
    pub const PLAIN: Ranker = Ranker {
        fields: FieldWeights::FLAT,
        k1: 1.2,
        b: 0.75,
        proximity: 0.0,
        passage: 0.0,
        window: 50,
    };

    /// BM25F with the given field weights, standard k1 and b, no proximity.
    pub fn with_fields(fields: FieldWeights) -> Self {
        Ranker {
            fields,
            ..Ranker::PLAIN
        }
    }
}

impl Default for Ranker {
    /// The full ranking: BM25F over every field plus proximity.
    fn default() -> Self {
        Ranker {
            fields: FieldWeights::default(),
            k1: 1.2,
            b: 0.75,
            proximity: 0.5,
            passage: 0.5,
            window: 50,
        }
    }
}

/// One query term's statistics.
struct TermStat {
    text: String,
    /// Query weight × idf.
    weight: f32,
    idf: f32,
}

/// A ranked query's terms and the average field lengths they were scored with.
struct Stats {
    terms: Vec<TermStat>,
    avg_len: [f32; TextField::COUNT],
}

/// The documents a query ranks, and the statistics it ranks them with. Statistics
/// (document count, average field lengths, document frequencies) are the whole
/// index's, as in Lucene and tantivy, whatever folder the query is restricted to: a
/// larger collection estimates a word's rarity better than one folder does (on
/// `LoCoMo`, ranking each conversation with its own statistics loses 0.02 MRR).
pub(crate) struct Scope {
    /// Per segment: which documents are in scope (`None`: every alive document).
    allowed: Vec<Option<Vec<bool>>>,
    /// Documents in the index.
    docs: f32,
    /// Average length per field.
    pub(crate) avg_len: [f32; TextField::COUNT],
}

impl Scope {
    pub(crate) fn new(
        searcher: &Searcher,
        fields: &Fields,
        lengths: &LengthCache,
        folders: Option<&[String]>,
    ) -> Result<Self, IndexError> {
        let segs = searcher.segment_readers();
        let mut allowed = Vec::with_capacity(segs.len());
        for seg in segs {
            allowed.push(allowed_docs(seg, fields, folders)?);
        }
        Ok(Scope {
            allowed,
            docs: searcher.num_docs() as f32,
            avg_len: lengths.get(searcher, fields)?,
        })
    }

    /// A term's document frequency ([`doc_freq`]).
    #[allow(clippy::unused_self)] // Every segment counts today; the scope is where that is decided.
    pub(crate) fn doc_freq(
        &self,
        searcher: &Searcher,
        fields: &Fields,
        r: &Ranker,
        text: &str,
    ) -> Result<f32, IndexError> {
        Ok(doc_freq(searcher, fields, r, text)? as f32)
    }

    pub(crate) fn idf(&self, df: f32) -> f32 {
        (1.0 + ((self.docs - df).max(0.0) + 0.5) / (df + 0.5)).ln()
    }
}

fn in_scope(seg: &SegmentReader, allowed: Option<&[bool]>, d: DocId) -> bool {
    !seg.is_deleted(d) && allowed.is_none_or(|a| a.get(d as usize).copied().unwrap_or(false))
}

/// Per segment and document: the prose pseudo-frequency and curated-field score of
/// the term being accumulated, and the documents touched by it.
struct Accumulators {
    tf: Vec<Vec<f32>>,
    kw: Vec<Vec<f32>>,
    touched: Vec<Vec<DocId>>,
}

/// What a search reads of one segment for every term: per weighted field, its
/// field norms and its inverted index (each looked up once, not once per term).
struct SegmentFields {
    norms: [Option<FieldNormReader>; TextField::COUNT],
    inverted: [Option<std::sync::Arc<tantivy::InvertedIndexReader>>; TextField::COUNT],
}

impl SegmentFields {
    fn of(seg: &SegmentReader, fields: &Fields, r: &Ranker) -> Result<Self, IndexError> {
        let mut inverted: [Option<std::sync::Arc<tantivy::InvertedIndexReader>>; TextField::COUNT] =
            Default::default();
        for f in TextField::ALL {
            if r.fields.get(f) > 0.0 {
                inverted[f as usize] = Some(seg.inverted_index(fields.text[f as usize])?);
            }
        }
        Ok(Self {
            norms: field_norms(seg, fields, r)?,
            inverted,
        })
    }
}

/// What [`accumulate_term`] found of a term.
struct Accumulated {
    /// In-scope documents that contain it.
    found: usize,
    /// Its document frequency as [`Scope::doc_freq`] counts it (live documents,
    /// in scope or not, the most of any weighted field), from the same postings.
    df: u64,
}

/// Adds term `text`'s BM25F pseudo-frequency `tf~` over the prose fields of every
/// in-scope document to `tf`, and its saturated curated-field scores to `kw` (per
/// segment), listing each document once in `touched`.
fn accumulate_term(
    searcher: &Searcher,
    fields: &Fields,
    scope: &Scope,
    r: &Ranker,
    readers: &[SegmentFields],
    text: &str,
    acc: &mut Accumulators,
) -> Result<Accumulated, IndexError> {
    let Accumulators { tf, kw, touched } = acc;
    let mut found = 0;
    // Per field, the live documents containing the term, over every segment.
    let mut live = [0u64; TextField::COUNT];
    for (seg_ord, seg) in searcher.segment_readers().iter().enumerate() {
        let allowed = scope.allowed[seg_ord].as_deref();
        let read = &readers[seg_ord];
        for f in TextField::ALL {
            let w = r.fields.get(f);
            let (Some(norm), Some(inv)) = (
                read.norms[f as usize].as_ref(),
                read.inverted[f as usize].as_ref(),
            ) else {
                continue;
            };
            let term = Term::from_field_text(fields.text[f as usize], text);
            let Some(mut p) = inv.read_postings(&term, IndexRecordOption::WithFreqs)? else {
                continue;
            };
            let avg = scope.avg_len[f as usize];
            let curated = f.is_curated();
            let tf = &mut tf[seg_ord];
            let kw = &mut kw[seg_ord];
            let mut d = p.doc();
            while d != TERMINATED {
                if !seg.is_deleted(d) {
                    live[f as usize] += 1;
                }
                if in_scope(seg, allowed, d) {
                    let len = norm.fieldnorm(d) as f32;
                    let denom = (1.0 - r.b) + r.b * len / avg;
                    if tf[d as usize] == 0.0 && kw[d as usize] == 0.0 {
                        touched[seg_ord].push(d);
                    }
                    let x = p.term_freq() as f32 / denom;
                    if curated {
                        kw[d as usize] += w * (r.k1 + 1.0) * x / (r.k1 + x);
                    } else {
                        tf[d as usize] += w * x;
                    }
                }
                d = p.advance();
            }
        }
        found += touched[seg_ord].len();
    }
    Ok(Accumulated {
        found,
        df: live.into_iter().max().unwrap_or(0),
    })
}

/// Documents of a segment under any of `folders` (`None`: no restriction).
fn allowed_docs(
    seg: &SegmentReader,
    fields: &Fields,
    folders: Option<&[String]>,
) -> Result<Option<Vec<bool>>, IndexError> {
    let Some(folders) = folders else {
        return Ok(None);
    };
    if folders.iter().any(|f| f.trim_matches('/').is_empty()) {
        return Ok(None);
    }
    let mut allowed = vec![false; seg.max_doc() as usize];
    let inv = seg.inverted_index(fields.folders)?;
    for f in folders {
        let t = Term::from_field_text(fields.folders, f.trim_matches('/'));
        if let Some(mut p) = inv.read_postings(&t, IndexRecordOption::Basic)? {
            let mut d = p.doc();
            while d != TERMINATED {
                allowed[d as usize] = true;
                d = p.advance();
            }
        }
    }
    Ok(Some(allowed))
}

/// The share of a join's score a note gets: that of its pair's mass (`pair`)
/// the note does not hold as words apart (`lacking`).
pub(crate) fn joined_share(lacking: f32, pair: f32) -> f32 {
    if pair > 0.0 {
        (lacking / pair).min(1.0)
    } else {
        0.0
    }
}

/// A word of a [`spelling::Join`], as the search meets it: its share of the
/// query's mass and, per segment and document, whether the document holds it
/// (or a join credited it already).
struct Half {
    mass: f32,
    idf: f32,
    held: Vec<Vec<bool>>,
}

/// A scored document before its path is known.
#[derive(Debug, Clone, Copy)]
struct Cand {
    /// [`crate::path_key`] of the note: orders ties independently of segments.
    key: u64,
    seg: u32,
    doc: DocId,
    bm25: f32,
    proximity: f32,
    passage: f32,
    /// Share of the query's IDF mass the document matches.
    coverage: f32,
    /// The part it covers most of, and that share.
    part: Option<(usize, f32)>,
}

impl Cand {
    fn total(&self, r: &Ranker) -> f32 {
        self.bm25 + r.proximity * self.proximity + r.passage * self.passage
    }
}

/// The best `limit` documents for `q`, best first; ties broken by path; the
/// paths of those whose key is `known` taken from there, the others read.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search(
    searcher: &Searcher,
    fields: &Fields,
    lengths: &LengthCache,
    q: &QueryTerms,
    r: &Ranker,
    folders: Option<&[String]>,
    limit: usize,
    known: &KnownPaths<'_>,
) -> Result<Vec<Hit>, IndexError> {
    let spelled = spelling::spellings(searcher, fields, r, q)?;
    let q = spelled.query(q);
    let joins = &spelled.joins;
    let scope = Scope::new(searcher, fields, lengths, folders)?;
    let segs = searcher.segment_readers();
    let mut readers = Vec::with_capacity(segs.len());
    for seg in segs {
        readers.push(SegmentFields::of(seg, fields, r)?);
    }
    let zeros: Vec<Vec<f32>> = segs
        .iter()
        .map(|s| vec![0.0; s.max_doc() as usize])
        .collect();
    let mut score = zeros.clone();
    // Per document: the query's IDF mass it matches (for `Hit::coverage`), and
    // the same per part of the query, with each part's own mass.
    let mut matched = zeros.clone();
    let mut mass = 0.0_f32;
    let mut part_matched = vec![zeros.clone(); q.parts.len()];
    let mut part_mass = vec![0.0_f32; q.parts.len()];
    let mut acc = Accumulators {
        tf: zeros.clone(),
        kw: zeros,
        touched: vec![Vec::new(); segs.len()],
    };
    let mut scored: Vec<Vec<DocId>> = vec![Vec::new(); segs.len()];
    let mut terms = Vec::new();
    // The words of a join (`roll` and `back` for `rollback`): each one's share
    // of the query's mass, and the documents that hold it.
    let mut halves: HashMap<&str, Half> = joins
        .iter()
        .flat_map(|j| j.words.iter())
        .map(|w| {
            let held = segs
                .iter()
                .map(|s| vec![false; s.max_doc() as usize])
                .collect();
            (
                w.as_str(),
                Half {
                    mass: 0.0,
                    idf: 0.0,
                    held,
                },
            )
        })
        .collect();
    for (text, &qw) in &q.terms {
        if qw <= 0.0 {
            continue;
        }
        let Accumulated { found, df } =
            accumulate_term(searcher, fields, &scope, r, &readers, text, &mut acc)?;
        let Accumulators { tf, kw, touched } = &mut acc;
        let df = df as f32;
        let idf = scope.idf(df);
        let weight = qw * idf;
        // A word no note contains weighs in the coverage like the rarest word
        // that one note contains: it is part of what was asked, but not more
        // telling than a word a note shares (in a small vault, a missing
        // everyday word would otherwise outweigh every word that matched).
        mass += qw * scope.idf(df.max(1.0));
        let in_parts: Vec<usize> = (0..q.parts.len())
            .filter(|&p| q.parts[p].contains(text))
            .collect();
        for &p in &in_parts {
            part_mass[p] += qw * scope.idf(df.max(1.0));
        }
        let mut half = halves.get_mut(text.as_str());
        if let Some(h) = half.as_deref_mut() {
            h.idf = scope.idf(df.max(1.0));
            h.mass = qw * h.idf;
        }
        for seg_ord in 0..segs.len() {
            for &d in &touched[seg_ord] {
                if let Some(h) = half.as_deref_mut() {
                    h.held[seg_ord][d as usize] = true;
                }
                matched[seg_ord][d as usize] += weight;
                for &p in &in_parts {
                    part_matched[p][seg_ord][d as usize] += weight;
                }
                let x = std::mem::take(&mut tf[seg_ord][d as usize]);
                let k = std::mem::take(&mut kw[seg_ord][d as usize]);
                if score[seg_ord][d as usize] == 0.0 {
                    scored[seg_ord].push(d);
                }
                score[seg_ord][d as usize] += weight * ((r.k1 + 1.0) * x / (r.k1 + x) + k);
            }
            touched[seg_ord].clear();
        }
        if found > 0 {
            terms.push(TermStat {
                text: text.clone(),
                weight,
                idf,
            });
        }
    }
    // Each join after every word: a document that holds the joined word scores
    // it as a term (weighted as its words are on average) and is credited with
    // the mass of the words it does not hold, in the query and in its parts.
    // A word a join credited counts as held for the next join (`roll back` and
    // `roll out` share `roll`: a note writing `rollback` and `rollout` is
    // credited with it once). Joins take part in proximity and passages as
    // terms: without them a note writing `rollback` near `migration` lost
    // to one writing "rolling back" (a hyphenated `roll-back`, indexed as all
    // three, gets both there; measured, the suites prefer this).
    for j in joins {
        let qw = j.weight(q);
        let Accumulated { found, df } =
            accumulate_term(searcher, fields, &scope, r, &readers, &j.term, &mut acc)?;
        let Accumulators { tf, kw, touched } = &mut acc;
        let words: Vec<(&str, Vec<usize>)> = j
            .words
            .iter()
            .filter(|w: &&String| halves.contains_key(String::as_str(w)))
            .map(|w| {
                (
                    w.as_str(),
                    (0..q.parts.len())
                        .filter(|&p| q.parts[p].contains(w))
                        .collect(),
                )
            })
            .collect();
        let most = words
            .iter()
            .map(|(w, _)| halves.get(w).map_or(0.0, |h| h.idf))
            .fold(0.0_f32, f32::max);
        let idf = scope.idf(df as f32).min(most);
        let weight = qw * idf;
        let pair: f32 = words
            .iter()
            .map(|(w, _)| halves.get(w).map_or(0.0, |h| h.mass))
            .sum();
        for seg_ord in 0..segs.len() {
            for &d in &touched[seg_ord] {
                let x = std::mem::take(&mut tf[seg_ord][d as usize]);
                let k = std::mem::take(&mut kw[seg_ord][d as usize]);
                let mut lacking = 0.0;
                for (w, in_parts) in &words {
                    let Some(h) = halves.get_mut(w) else {
                        continue;
                    };
                    if !h.held[seg_ord][d as usize] {
                        h.held[seg_ord][d as usize] = true;
                        lacking += h.mass;
                        matched[seg_ord][d as usize] += h.mass;
                        for &p in in_parts {
                            part_matched[p][seg_ord][d as usize] += h.mass;
                        }
                    }
                }
                // Scored for the share of the pair the note does not write
                // apart: nothing for one that holds both words (as a
                // hyphenated `angiotensin-converting` is indexed).
                let add =
                    joined_share(lacking, pair) * weight * ((r.k1 + 1.0) * x / (r.k1 + x) + k);
                if add > 0.0 {
                    if score[seg_ord][d as usize] == 0.0 {
                        scored[seg_ord].push(d);
                    }
                    score[seg_ord][d as usize] += add;
                }
            }
            touched[seg_ord].clear();
        }
        if found > 0 {
            terms.push(TermStat {
                text: j.term.clone(),
                weight,
                idf,
            });
        }
    }
    let st = Stats {
        terms,
        avg_len: scope.avg_len,
    };
    let mut cands: Vec<Cand> = Vec::new();
    // Whether each segment has the key column (a candidate's key is 0 without it).
    let mut keyed = vec![false; segs.len()];
    for (seg_ord, docs) in scored.iter().enumerate() {
        let keys = segs[seg_ord]
            .fast_fields()
            .u64(KEY_HASH)
            .ok()
            .map(|c| c.first_or_default_col(0));
        keyed[seg_ord] = keys.is_some();
        for &d in docs {
            let bm25 = score[seg_ord][d as usize];
            if bm25 > 0.0 {
                let share = |m: f32, of: f32| if of > 0.0 { (m / of).min(1.0) } else { 0.0 };
                let coverage = share(matched[seg_ord][d as usize], mass);
                let mut part: Option<(usize, f32)> = None;
                for (p, m) in part_matched.iter().enumerate() {
                    let c = share(m[seg_ord][d as usize], part_mass[p]);
                    if part.is_none_or(|(_, best)| c > best) {
                        part = Some((p, c));
                    }
                }
                cands.push(Cand {
                    key: keys.as_ref().map_or(0, |k| k.get_val(d)),
                    seg: u32::try_from(seg_ord).unwrap_or(u32::MAX),
                    doc: d,
                    bm25,
                    proximity: 0.0,
                    passage: 0.0,
                    coverage,
                    part,
                });
            }
        }
    }
    cands.sort_by(|a, b| b.bm25.total_cmp(&a.bm25).then(a.key.cmp(&b.key)));

    if (r.proximity > 0.0 || r.passage > 0.0) && st.terms.len() > 1 {
        let depth = PROXIMITY_DEPTH.min(cands.len());
        proximity(searcher, fields, &st, r, &mut cands[..depth])?;
        cands.sort_by(|a, b| b.total(r).total_cmp(&a.total(r)).then(a.key.cmp(&b.key)));
    }

    // Resolve paths for the top `limit` and everything tied with the last of them,
    // so ties break by path whatever the segment layout.
    let limit = limit.max(1);
    let mut end = cands.len().min(limit);
    if end > 0 {
        let last = cands[end - 1].total(r);
        while end < cands.len() && cands[end].total(r).total_cmp(&last).is_eq() {
            end += 1;
        }
    }
    let mut hits = Vec::with_capacity(end);
    for c in &cands[..end] {
        let seg_keyed = usize::try_from(c.seg).is_ok_and(|s| keyed.get(s) == Some(&true));
        let path = if let Some(path) = known.get(c.key).filter(|_| seg_keyed) {
            Some(path.to_owned())
        } else {
            let doc: TantivyDocument = searcher.doc(DocAddress::new(c.seg, c.doc))?;
            doc.get_first(fields.key)
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        };
        if let Some(path) = path {
            hits.push(Hit {
                path,
                bm25: c.total(r),
                proximity: c.total(r) - c.bm25,
                coverage: c.coverage,
                part: c.part,
            });
        }
    }
    hits.sort_by(|a, b| b.bm25.total_cmp(&a.bm25).then_with(|| a.path.cmp(&b.path)));
    hits.truncate(limit);
    Ok(hits)
}

pub(crate) fn field_norms(
    seg: &SegmentReader,
    fields: &Fields,
    r: &Ranker,
) -> Result<[Option<FieldNormReader>; TextField::COUNT], IndexError> {
    let mut out: [Option<FieldNormReader>; TextField::COUNT] = Default::default();
    for f in TextField::ALL {
        if r.fields.get(f) > 0.0 || f == TextField::Contents {
            out[f as usize] = Some(seg.get_fieldnorms_reader(fields.text[f as usize])?);
        }
    }
    Ok(out)
}

/// Adds the proximity score of each candidate (contents field).
fn proximity(
    searcher: &Searcher,
    fields: &Fields,
    st: &Stats,
    r: &Ranker,
    cands: &mut [Cand],
) -> Result<(), IndexError> {
    let field = fields.text[TextField::Contents as usize];
    let avg = st.avg_len[TextField::Contents as usize];
    // Candidates by segment, in doc order, so postings only move forward.
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by_key(|&i| (cands[i].seg, cands[i].doc));
    let mut by_seg: HashMap<u32, Vec<usize>> = HashMap::new();
    for i in order {
        by_seg.entry(cands[i].seg).or_default().push(i);
    }
    let mut positions: Vec<u32> = Vec::new();
    let mut occ: Vec<(u32, usize)> = Vec::new();
    for (seg_ord, idxs) in by_seg {
        let seg = searcher.segment_reader(seg_ord);
        let inv = seg.inverted_index(field)?;
        let norm = seg.get_fieldnorms_reader(field)?;
        let mut postings = Vec::with_capacity(st.terms.len());
        for t in &st.terms {
            let term = Term::from_field_text(field, &t.text);
            postings.push(inv.read_postings(&term, IndexRecordOption::WithFreqsAndPositions)?);
        }
        for i in idxs {
            let doc = cands[i].doc;
            occ.clear();
            for (ti, p) in postings.iter_mut().enumerate() {
                let Some(p) = p else { continue };
                if p.doc() <= doc && p.seek(doc) == doc {
                    positions.clear();
                    p.positions(&mut positions);
                    occ.extend(positions.iter().map(|&pos| (pos, ti)));
                }
            }
            if occ.len() < 2 {
                continue;
            }
            occ.sort_unstable();
            let len = norm.fieldnorm(doc) as f32;
            let kd = r.k1 * ((1.0 - r.b) + r.b * len / avg);
            cands[i].passage = best_passage(&occ, st, r, kd);
            let mut acc = vec![0.0_f32; st.terms.len()];
            for w in occ.windows(2) {
                let ((pa, ta), (pb, tb)) = (w[0], w[1]);
                if ta == tb || pb == pa {
                    continue;
                }
                let d = (pb - pa) as f32;
                acc[ta] += st.terms[tb].weight / (d * d);
                acc[tb] += st.terms[ta].weight / (d * d);
            }
            cands[i].proximity = st
                .terms
                .iter()
                .zip(&acc)
                .filter(|(_, a)| **a > 0.0)
                .map(|(t, a)| t.idf.min(1.0) * (r.k1 + 1.0) * a / (kd + a))
                .sum();
        }
    }
    Ok(())
}

/// The score of the best window of `r.window` positions: BM25 of the window as a
/// document of fixed length.
fn best_passage(occ: &[(u32, usize)], st: &Stats, r: &Ranker, kd: f32) -> f32 {
    let mut counts = vec![0u32; st.terms.len()];
    let mut best = 0.0_f32;
    let mut end = 0;
    for start in 0..occ.len() {
        while end < occ.len() && occ[end].0 < occ[start].0 + r.window {
            counts[occ[end].1] += 1;
            end += 1;
        }
        let s: f32 = st
            .terms
            .iter()
            .zip(&counts)
            .filter(|(_, c)| **c > 0)
            .map(|(t, &c)| t.weight * (r.k1 + 1.0) * c as f32 / (kd + c as f32))
            .sum();
        best = best.max(s);
        counts[occ[start].1] -= 1;
    }
    best
}
