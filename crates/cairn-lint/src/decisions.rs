//! Decisions that contradict a newer decision on the same subject, without either
//! being marked as superseding the other: the packet would present both as current.
//!
//! "Same subject" is defined conservatively, so that a report is worth reading:
//!
//! 1. both notes are active `decision`s (entries of a `decisions.md` count), neither
//!    secret, both dated (`updated`, else `created` or the entry's date), on
//!    different days, and in the same context (the same `project_id`, else the same
//!    configured project by note root, else both developer-wide);
//! 2. neither names the other in `supersedes` / `superseded_by`;
//! 3. their stances are opposite: one title is negative (it holds a negation or a
//!    dropping verb: *no, not, never, avoid, drop, remove, stop, ban, deprecate,
//!    reject, ...*) and the other affirmative (an adopting verb: *use, adopt,
//!    choose, keep, enable, require, prefer, ...*, and no negation);
//! 4. their subject terms (title words, stemmed, without stop words and stance
//!    words, plus their tags; terms carried by more than half of the context's
//!    decisions are too generic and dropped) share at least two terms, at least one
//!    of them from both titles, with a Jaccard overlap of at least one half.
//!
//! "Use floats for money amounts" (2023) and "Never use floats for money" (2025)
//! are reported; "Use Kafka for events" and "No Kafka in unit tests" are not (one
//! shared term). The older note is the one reported, with the newer as `related`.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use cairn_engine::in_root;
use cairn_note::{MemoryType, Note, Sensitivity, Status};
use chrono::NaiveDate;

use crate::{Ctx, Level};

/// Words that make a title negative.
pub const NEGATIVE: &[&str] = &[
    "no",
    "not",
    "never",
    "don't",
    "dont",
    "avoid",
    "avoids",
    "avoided",
    "avoiding",
    "drop",
    "drops",
    "dropped",
    "dropping",
    "remove",
    "removes",
    "removed",
    "removing",
    "disable",
    "disables",
    "disabled",
    "stop",
    "stops",
    "stopped",
    "forbid",
    "forbids",
    "forbidden",
    "ban",
    "bans",
    "banned",
    "deprecate",
    "deprecates",
    "deprecated",
    "abandon",
    "abandoned",
    "reject",
    "rejects",
    "rejected",
    "retire",
    "retired",
    "without",
    "against",
    "disallow",
    "disallowed",
    "eliminate",
    "eliminated",
    "sunset",
];

/// Words that make a title affirmative (when it holds no negative word).
pub const AFFIRMATIVE: &[&str] = &[
    "use",
    "uses",
    "using",
    "used",
    "adopt",
    "adopts",
    "adopted",
    "choose",
    "chooses",
    "chose",
    "chosen",
    "select",
    "selected",
    "pick",
    "picked",
    "enable",
    "enables",
    "enabled",
    "keep",
    "keeps",
    "kept",
    "allow",
    "allows",
    "allowed",
    "prefer",
    "prefers",
    "preferred",
    "require",
    "requires",
    "required",
    "mandate",
    "mandatory",
    "standardize",
    "standardise",
    "standardized",
    "switch",
    "migrate",
    "move",
    "introduce",
    "introduced",
    "add",
    "added",
    "always",
    "accept",
    "accepted",
    "approve",
    "approved",
    "start",
    "rely",
    "go",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stance {
    Negative,
    Affirmative,
    Neutral,
}

fn stance(title: &str) -> Stance {
    let words: Vec<String> = title
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    if words.iter().any(|w| NEGATIVE.contains(&w.as_str())) {
        Stance::Negative
    } else if words.iter().any(|w| AFFIRMATIVE.contains(&w.as_str())) {
        Stance::Affirmative
    } else {
        Stance::Neutral
    }
}

/// The stemmed forms of the stance words, removed from subject terms.
fn stance_stems() -> &'static BTreeSet<String> {
    static STEMS: OnceLock<BTreeSet<String>> = OnceLock::new();
    STEMS.get_or_init(|| {
        NEGATIVE
            .iter()
            .chain(AFFIRMATIVE)
            .flat_map(|w| cairn_index::analyze(w))
            .collect()
    })
}

/// A note's subject terms from its title (stemmed, no stop or stance words).
pub fn title_terms(title: &str) -> BTreeSet<String> {
    let stems = stance_stems();
    cairn_index::analyze(title)
        .into_iter()
        .filter(|t| !stems.contains(t) && t.chars().any(char::is_alphabetic))
        .collect()
}

struct Candidate<'a> {
    note: &'a Note,
    index: usize,
    date: NaiveDate,
    stance: Stance,
    title: BTreeSet<String>,
    terms: BTreeSet<String>,
}

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let notes = ctx.notes();
    let config = ctx.engine.config();
    let context = |n: &Note| -> String {
        if let Some(p) = &n.project_id {
            return p.clone();
        }
        config
            .projects
            .iter()
            .find(|p| p.note_roots.iter().any(|r| in_root(n.file_path(), r)))
            .map_or_else(String::new, |p| p.id.clone())
    };
    let mut groups: HashMap<String, Vec<Candidate<'_>>> = HashMap::new();
    for (index, n) in notes.iter().enumerate() {
        if n.memory_type != Some(MemoryType::Decision)
            || n.status != Status::Active
            || n.sensitivity == Sensitivity::Secret
        {
            continue;
        }
        let Some(date) = n.updated.or(n.created) else {
            continue;
        };
        let st = stance(&n.title);
        if st == Stance::Neutral {
            continue;
        }
        let title = title_terms(&n.title);
        let mut terms = title.clone();
        // A confidential note's tags are content: its shared words are its
        // title's, which the diagnostic may quote.
        if n.sensitivity < Sensitivity::Confidential {
            for t in &n.tags {
                terms.extend(cairn_index::analyze(t));
            }
        }
        groups.entry(context(n)).or_default().push(Candidate {
            note: n,
            index,
            date,
            stance: st,
            title,
            terms,
        });
    }

    let resolver = cairn_note::NoteNames::new(notes);
    let linked = |a: &Candidate<'_>, b: &Candidate<'_>| {
        let names = |x: &Candidate<'_>, y: &Candidate<'_>| {
            x.note
                .supersedes
                .iter()
                .chain(&x.note.superseded_by)
                .any(|t| resolver.resolve(t, x.note).contains(&y.index))
        };
        names(a, b) || names(b, a)
    };

    let mut keys: Vec<&String> = groups.keys().collect();
    keys.sort();
    let mut found = Vec::new();
    for key in keys {
        let group = &groups[key];
        // Terms most of the context's decisions carry say nothing about the subject.
        let mut df: HashMap<&str, usize> = HashMap::new();
        for c in group {
            for t in &c.terms {
                *df.entry(t.as_str()).or_default() += 1;
            }
        }
        let generic =
            |t: &str| group.len() >= 4 && df.get(t).copied().unwrap_or(0) * 2 > group.len();
        for a in group.iter().filter(|c| c.stance == Stance::Negative) {
            for b in group.iter().filter(|c| c.stance == Stance::Affirmative) {
                if a.date == b.date || linked(a, b) {
                    continue;
                }
                let ta: BTreeSet<&str> = a
                    .terms
                    .iter()
                    .map(String::as_str)
                    .filter(|t| !generic(t))
                    .collect();
                let tb: BTreeSet<&str> = b
                    .terms
                    .iter()
                    .map(String::as_str)
                    .filter(|t| !generic(t))
                    .collect();
                let shared: Vec<&str> = ta.intersection(&tb).copied().collect();
                let union = ta.union(&tb).count();
                let from_titles = shared
                    .iter()
                    .any(|t| a.title.contains(*t) && b.title.contains(*t));
                if shared.len() < 2 || !from_titles || shared.len() * 2 < union {
                    continue;
                }
                let (older, newer) = if a.date < b.date { (a, b) } else { (b, a) };
                found.push((older, newer, shared.join(", ")));
            }
        }
    }
    let mut out = Vec::new();
    for (older, newer, shared) in found {
        let n = older.note;
        let line = if n.entry_of.is_some() {
            Some(n.body_line)
        } else {
            ctx.key_line(n, "title")
                .or_else(|| n.headings.iter().find(|h| h.level == 1).map(|h| h.line))
                .or(Some(n.body_line))
        };
        let message = format!(
            "decision `{}` ({}) contradicts the newer `{}` ({}) on the same subject (shared: {shared}) and neither supersedes the other; if the newer one replaces it, mark it (`cairn memory supersede` or `status: superseded`)",
            n.path, older.date, newer.note.path, newer.date
        );
        out.push((
            n.file_path().to_owned(),
            line,
            message,
            newer.note.file_path().to_owned(),
        ));
    }
    for (path, line, message, related) in out {
        ctx.push(
            Level::Warning,
            "contradicting-decisions",
            &path,
            line,
            message,
        );
        if let Some(last) = ctx.findings.last_mut() {
            last.related = Some(related);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stances() {
        assert_eq!(stance("Use floats for money"), Stance::Affirmative);
        assert_eq!(stance("Never use floats for money"), Stance::Negative);
        assert_eq!(stance("Don't retry webhooks"), Stance::Negative);
        assert_eq!(stance("Kafka topic naming"), Stance::Neutral);
    }

    #[test]
    fn subject_terms_drop_stance_and_stop_words() {
        let t = title_terms("Never use floats for the money amounts");
        assert_eq!(
            t.into_iter().collect::<Vec<_>>(),
            vec!["amount", "float", "money"]
        );
    }
}
