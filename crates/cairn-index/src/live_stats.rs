//! Collection statistics over live documents only: average field lengths
//! (summed from the per-document norms) and document frequencies. tantivy's own
//! totals count deleted documents until a merge and estimate lengths after one;
//! these depend on the notes indexed, never on the index's history, so an index
//! updated note by note ranks exactly like one built from scratch.

use std::sync::Mutex;

use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, Searcher, TERMINATED, Term};

use crate::rank::Ranker;
use crate::schema::Fields;
use crate::{IndexError, TextField};

/// Average field lengths of the live documents, computed once per searcher
/// generation (a pass over every document's field norms: too slow to repeat for
/// every query of a large vault, and the same until the index changes).
#[derive(Debug, Default)]
pub(crate) struct LengthCache(Mutex<Option<(u64, [f32; TextField::COUNT])>>);

impl LengthCache {
    pub(crate) fn get(
        &self,
        searcher: &Searcher,
        fields: &Fields,
    ) -> Result<[f32; TextField::COUNT], IndexError> {
        let generation = searcher.generation().generation_id();
        // A poisoned lock only means another thread panicked mid-update of a plain
        // array; recomputing is always correct.
        let mut cached = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((g, avg)) = *cached
            && g == generation
        {
            return Ok(avg);
        }
        let avg = average_lengths(searcher, fields)?;
        *cached = Some((generation, avg));
        Ok(avg)
    }
}

/// Live documents only, and field lengths summed from the per-document norms
/// (tantivy's own totals count deleted documents until a merge and are estimated
/// after one): statistics depend on the notes, not on the history.
fn average_lengths(
    searcher: &Searcher,
    fields: &Fields,
) -> Result<[f32; TextField::COUNT], IndexError> {
    let total: u64 = searcher.num_docs();
    let mut avg_len = [1.0_f32; TextField::COUNT];
    for f in TextField::ALL {
        let mut tokens = 0u64;
        for s in searcher.segment_readers() {
            let norms = s.get_fieldnorms_reader(fields.text[f as usize])?;
            match s.alive_bitset() {
                None => {
                    for d in 0..s.max_doc() {
                        tokens += u64::from(norms.fieldnorm(d));
                    }
                }
                Some(alive) => {
                    for d in alive.iter_alive() {
                        tokens += u64::from(norms.fieldnorm(d));
                    }
                }
            }
        }
        if total > 0 && tokens > 0 {
            avg_len[f as usize] = tokens as f32 / total as f32;
        }
    }
    Ok(avg_len)
}

/// A term's document frequency over the whole index: the most of any weighted
/// field (the contents field holds nearly every word; the others add few
/// documents of their own).
pub(crate) fn doc_freq(
    searcher: &Searcher,
    fields: &Fields,
    r: &Ranker,
    text: &str,
) -> Result<u64, IndexError> {
    let mut df = 0u64;
    for f in TextField::ALL {
        if r.fields.get(f) > 0.0 {
            let t = Term::from_field_text(fields.text[f as usize], text);
            df = df.max(live_doc_freq(searcher, &t, u64::MAX)?);
        }
    }
    Ok(df)
}

/// Whether a live document holds `text` in a weighted field ([`doc_freq`]
/// above 0), stopping at the first one: the contents field first, as it holds
/// nearly every word.
pub(crate) fn holds(
    searcher: &Searcher,
    fields: &Fields,
    r: &Ranker,
    text: &str,
) -> Result<bool, IndexError> {
    let order = std::iter::once(TextField::Contents).chain(
        TextField::ALL
            .into_iter()
            .filter(|f| *f != TextField::Contents),
    );
    for f in order.filter(|f| r.fields.get(*f) > 0.0) {
        let term = Term::from_field_text(fields.text[f as usize], text);
        if live_doc_freq(searcher, &term, 1)? > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether a live document's contents (its title and body) hold `text`: one
/// field of [`holds`]'s, for a look-up that asks many words no note holds.
pub(crate) fn contents_hold(
    searcher: &Searcher,
    fields: &Fields,
    text: &str,
) -> Result<bool, IndexError> {
    Ok(contents_doc_freq(searcher, fields, text, 1)? > 0)
}

/// The live documents whose contents (title and body) hold the analysed word
/// `text`, counted until `at_most` are found.
pub(crate) fn contents_doc_freq(
    searcher: &Searcher,
    fields: &Fields,
    text: &str,
    at_most: u64,
) -> Result<u64, IndexError> {
    let term = Term::from_field_text(fields.text[TextField::Contents as usize], text);
    live_doc_freq(searcher, &term, at_most)
}

/// Documents containing `term`, deleted ones not counted (tantivy's own count
/// includes them until a merge), counted until `at_most` are found.
fn live_doc_freq(searcher: &Searcher, term: &Term, at_most: u64) -> Result<u64, IndexError> {
    let mut total = 0u64;
    for seg in searcher.segment_readers() {
        if total >= at_most {
            break;
        }
        let inverted = seg.inverted_index(term.field())?;
        match seg.alive_bitset() {
            None => total += u64::from(inverted.doc_freq(term)?),
            Some(alive) => {
                if let Some(mut p) = inverted.read_postings(term, IndexRecordOption::Basic)? {
                    let mut d = p.doc();
                    while d != TERMINATED && total < at_most {
                        if alive.is_alive(d) {
                            total += 1;
                        }
                        d = p.advance();
                    }
                }
            }
        }
    }
    Ok(total)
}
