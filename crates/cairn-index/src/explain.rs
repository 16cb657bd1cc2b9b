//! Which query terms match one note, per field, with their share of its
//! BM25F score: what `explain` prints. The same terms and weights as
//! [`crate::rank::search`] (respellings and joins included); proximity and the
//! best passage are not broken down.

use std::collections::HashMap;

use tantivy::postings::Postings;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, DocSet, Searcher, Term};

use crate::live_stats::LengthCache;
use crate::rank::{Ranker, Scope, field_norms, joined_share};
use crate::schema::Fields;
use crate::spelling;
use crate::{IndexError, QueryTerms, TermMatch, TextField};

/// Which query terms match document `addr`, per field, with their share of BM25F.
pub(crate) fn explain(
    searcher: &Searcher,
    fields: &Fields,
    lengths: &LengthCache,
    q: &QueryTerms,
    r: &Ranker,
    folders: Option<&[String]>,
    addr: DocAddress,
) -> Result<Vec<TermMatch>, IndexError> {
    let spelled = spelling::spellings(searcher, fields, r, q)?;
    let q = spelled.query(q);
    let scope = Scope::new(searcher, fields, lengths, folders)?;
    // A join is scored as a term weighted as its words are on average, its
    // IDF at most theirs, for the share of its words' mass the note lacks (as
    // `search` scores it): each word with its mass.
    let mut joined: Vec<(String, f32, f32)> = Vec::new();
    let mut pairs: HashMap<String, Vec<(String, f32)>> = HashMap::new();
    for j in &spelled.joins {
        let qw = j.weight(q);
        let mut most = 0.0_f32;
        let mut words = Vec::new();
        for w in &j.words {
            let idf = scope.idf(scope.doc_freq(searcher, fields, r, w)?.max(1.0));
            most = most.max(idf);
            words.push((w.clone(), q.terms.get(w).copied().unwrap_or(0.0) * idf));
        }
        pairs.insert(j.term.clone(), words);
        joined.push((j.term.clone(), qw, most));
    }
    let mut held: std::collections::HashSet<String> = std::collections::HashSet::new();
    let seg = searcher.segment_reader(addr.segment_ord);
    let norms = field_norms(seg, fields, r)?;
    let sat = |x: f32| (r.k1 + 1.0) * x / (r.k1 + x);
    let mut out = Vec::new();
    let asked = q
        .terms
        .iter()
        .map(|(t, &w)| (t, w, f32::INFINITY))
        .chain(joined.iter().map(|(t, w, most)| (t, *w, *most)));
    for (text, qw, most) in asked.filter(|(_, w, _)| *w > 0.0) {
        // Each weighted field's normalised frequency of the term in this note.
        let mut parts: Vec<(TextField, f32)> = Vec::new();
        for f in TextField::ALL {
            let w = r.fields.get(f);
            let Some(norm) = norms[f as usize].as_ref().filter(|_| w > 0.0) else {
                continue;
            };
            let term = Term::from_field_text(fields.text[f as usize], text);
            let inv = seg.inverted_index(fields.text[f as usize])?;
            let Some(mut p) = inv.read_postings(&term, IndexRecordOption::WithFreqs)? else {
                continue;
            };
            // `seek` only moves forward: postings that start after the note
            // do not hold it (as in `proximity`).
            if p.doc() > addr.doc_id || p.seek(addr.doc_id) != addr.doc_id {
                continue;
            }
            let len = norm.fieldnorm(addr.doc_id) as f32;
            let x = p.term_freq() as f32 / ((1.0 - r.b) + r.b * len / scope.avg_len[f as usize]);
            parts.push((f, x));
        }
        let mut weight = qw
            * scope
                .idf(scope.doc_freq(searcher, fields, r, text)?)
                .min(most);
        if let Some(words) = pairs.get(text) {
            if parts.is_empty() {
                continue;
            }
            let pair: f32 = words.iter().map(|(_, m)| m).sum();
            let lacking: f32 = words
                .iter()
                .filter(|(w, _)| !held.contains(w))
                .map(|(_, m)| m)
                .sum();
            // A word a join credited counts as held for the next one.
            held.extend(words.iter().map(|(w, _)| w.clone()));
            weight *= joined_share(lacking, pair);
            if weight <= 0.0 {
                continue;
            }
        } else if !parts.is_empty() {
            held.insert(text.clone());
        }
        let prose: f32 = parts
            .iter()
            .filter(|(f, _)| !f.is_curated())
            .map(|(f, x)| r.fields.get(*f) * x)
            .sum();
        for (f, x) in parts {
            let w = r.fields.get(f);
            let score = if f.is_curated() {
                weight * w * sat(x)
            } else {
                weight * sat(prose) * w * x / prose
            };
            out.push(TermMatch {
                term: text.clone(),
                field: f,
                score,
            });
        }
    }
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.term.cmp(&b.term))
    });
    Ok(out)
}
