//! An item's summary: the note's description, else the sentences that best
//! match the task (a sentence that points back comes with the one before it),
//! else its lead; one line, clipped at a word. Read from the policy's redacted
//! view only ([`ShownNote`]).

use std::collections::BTreeSet;

use cairn_note::prose;
use cairn_policy::{SafeText, ShownNote};

use crate::SUMMARY_CHARS;

/// The note's description when it says something: not empty, and not only
/// its title again.
pub(crate) fn telling_description<'n>(n: &'n ShownNote<'_>) -> Option<&'n SafeText<'n>> {
    n.description
        .as_ref()
        .filter(|d| !d.trim().is_empty() && !d.trim().eq_ignore_ascii_case(n.title.trim()))
}

/// The positions of the (at most) two of `sentences` that share the most
/// analysed terms with `terms`, the best first; of equal ones, the earlier.
/// None shares a term: none. The second shares at least half as many as the
/// best: a sentence that shares one word (`add`) with a task the best matches
/// by four is about something else (held-out trial: a daily note's line about
/// another project joined the one about the task's billing page).
pub fn best_sentences<S: AsRef<str>>(sentences: &[S], terms: &BTreeSet<String>) -> Vec<usize> {
    let mut ranked: Vec<(usize, usize)> = sentences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let said: BTreeSet<String> = cairn_index::analyze(s.as_ref()).into_iter().collect();
            (said.intersection(terms).count(), i)
        })
        .filter(|(hits, _)| *hits > 0)
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let best = ranked.first().map_or(0, |r| r.0);
    ranked
        .iter()
        .take(2)
        .filter(|(hits, _)| 2 * hits >= best)
        .map(|(_, i)| *i)
        .collect()
}

/// The note's description (unless it only repeats the title), else up to two of
/// its sentences that share the most terms
/// with the task (in document order), else its lead (the first sentences of its
/// first prose paragraph, or of the paragraph under a `Summary`-like heading); one
/// line, at most [`SUMMARY_CHARS`] characters, cut at a word. Prose is what
/// [`cairn_note::prose`] reads: never a heading, code, HTML, a table, a table of
/// contents, a badge or an embed. It reads the redacted view only.
pub fn summarize(n: &ShownNote<'_>, query_terms: &BTreeSet<String>) -> SafeText<'static> {
    if let Some(d) = telling_description(n) {
        // A description that links (`Templates are a [[Core plugins|core
        // plugin]]`, `see [the guide](x)`) reads as its text, as the body's
        // prose does; one without a link is kept as written (`Vec<u8>`).
        return d.reshape(|d| {
            let d = d.trim();
            let text = if d.contains("[[") || d.contains("](") {
                cairn_note::clean_inline(d)
            } else {
                d.to_owned()
            };
            clip_str(&one_line(&text), SUMMARY_CHARS)
        });
    }
    n.body.reshape(|body| {
        let p = prose(body);
        let keep =
            |s: &&String| s.chars().any(char::is_alphanumeric) && s.as_str() != n.title.as_str();
        // Each sentence once: a repeated line says nothing twice. A record's
        // status and date say nothing of what it decided (an ADR's `Amends [5.
        // Help comments]` matched a task about help better than its context).
        let mut seen = BTreeSet::new();
        let sentences: Vec<&String> = p
            .sentences
            .iter()
            .enumerate()
            .filter(|(i, _)| !p.record_fields.contains(i))
            .map(|(_, s)| s)
            .filter(keep)
            .filter(|s| seen.insert(s.as_str()))
            .collect();
        if sentences.is_empty() {
            // A note that is a table: its first row; else where it points (its
            // references); else its title.
            let text = cairn_note::table_summary(body)
                .or_else(|| {
                    let refs: Vec<&str> = p
                        .references
                        .iter()
                        .map(String::as_str)
                        .filter(|s| s.chars().any(char::is_alphanumeric))
                        .take(2)
                        .collect();
                    (!refs.is_empty()).then(|| refs.join("; "))
                })
                .unwrap_or_else(|| n.title.to_string());
            return clip_str(&cairn_policy::one_line(&text), SUMMARY_CHARS);
        }
        let mut picked: Vec<&String> = Vec::new();
        if !query_terms.is_empty() {
            let mut at = best_sentences(&sentences, query_terms);
            // A sentence that opens by pointing back ("This will be able to
            // connect ...") says little without the one before it: the best
            // comes with the sentence before it instead of the second best.
            // Not when the two do not fit a summary together, nor when the best
            // leads in to what follows it (it ends with a colon: the sentence
            // after it is what it needs). A second best that points back keeps
            // its place: the best before it mostly names what it points at
            // ("... an idempotency key needs to be sent. ... It has to be
            // unique per request").
            match at[..] {
                [best, ..]
                    if best > 0
                        && points_back(sentences[best])
                        && !sentences[best].trim_end().ends_with(':')
                        && sentences[best - 1].chars().count()
                            + sentences[best].chars().count()
                            < SUMMARY_CHARS =>
                {
                    at = vec![best - 1, best];
                }
                _ => {}
            }
            at.sort_unstable();
            at.dedup();
            picked = at.into_iter().map(|i| sentences[i]).collect();
        }
        if picked.is_empty() {
            let mut seen = BTreeSet::new();
            picked = p
                .lead_first()
                .filter(keep)
                .filter(|s| seen.insert(s.as_str()))
                .take(2)
                .collect();
        }
        // A lead-in to a list or a block ("Layout I keep in my head:") as the
        // last sentence says nothing without what follows it, which the
        // summary leaves out.
        if picked.len() > 1 && picked.last().is_some_and(|s| s.trim_end().ends_with(':')) {
            picked.pop();
        }
        let mut out = String::new();
        for s in picked {
            if !out.is_empty() {
                if out.chars().count() + s.chars().count() > SUMMARY_CHARS {
                    break;
                }
                // Two list items (no end mark) would read as one run-on sentence.
                if ends_sentence(&out) {
                    out.push(' ');
                } else {
                    out.push_str("; ");
                }
            }
            out.push_str(s);
        }
        clip_str(&one_line(&out), SUMMARY_CHARS)
    })
}

/// Whether sentence `s` opens with a word that stands for what came before it
/// (`This`, `These`, `They`, `Such`...), so that it reads out of context alone.
/// `This decision`, `This ADR`, `This background section` and the like name
/// the note itself; an `It` that
/// the sentence itself explains ("It is hard to say whether ...", "It would be
/// better to ...") points at nothing before it.
fn points_back(s: &str) -> bool {
    const BACK: &[&str] = &["that", "those", "they", "such"];
    const THE_NOTE: &[&str] = &[
        "adr",
        "decision",
        "document",
        "documentation",
        "doc",
        "note",
        "page",
        "guide",
        "record",
        "rfc",
        "proposal",
        "section",
        "chapter",
        "article",
        "post",
        "readme",
        "repository",
        "repo",
        "project",
        "file",
        "list",
        "table",
        "diagram",
        "template",
        "spec",
        "specification",
        "overview",
        "summary",
    ];
    const SAYS_HOW: &[&str] = &[
        "is", "was", "seems", "seemed", "appears", "would", "will", "may", "might", "can", "could",
    ];
    let words: Vec<String> = s
        .split_whitespace()
        .take(6)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match word(0) {
        // "This ADR", "This background info section": the note itself.
        "this" | "these" => !(1..=3).any(|i| THE_NOTE.contains(&word(i))),
        "it" => {
            !(SAYS_HOW.contains(&word(1))
                && words
                    .iter()
                    .skip(2)
                    .any(|w| w == "to" || w == "that" || w == "whether"))
        }
        w => BACK.contains(&w),
    }
}

/// Whether `s` ends as a sentence does (an end mark, a colon or semicolon, perhaps
/// inside a closing bracket or quote).
pub(crate) fn ends_sentence(s: &str) -> bool {
    s.trim_end()
        .trim_end_matches([')', ']', '"', '\'', '’', '”'])
        .ends_with(['.', '!', '?', '…', ':', ';'])
}

/// Untrusted text as one line (see [`cairn_policy::one_line`]), runs of spaces collapsed.
pub(crate) fn one_line(s: &str) -> String {
    cairn_policy::one_line(s)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Cuts safe text to at most `max` characters at a word boundary, adding `…`.
pub fn clip(s: &SafeText<'_>, max: usize) -> SafeText<'static> {
    s.reshape(|s| clip_str(s, max))
}

pub(crate) fn clip_str(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let cut: String = s.chars().take(max.saturating_sub(1)).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => &cut[..],
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', ' ']))
}
