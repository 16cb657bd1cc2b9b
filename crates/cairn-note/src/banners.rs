//! Sensitivity marks written without a key: the banners people put on a note
//! the way they would stamp a paper (`CONFIDENTIAL — do not share`, `**TOP
//! SECRET**`, `S E C R E T`, `TS//SCI`, `Confidential: not for distribution`,
//! `This note is classified secret.`). The mark reader (`marks::read_mark`)
//! tries a line here when it holds no keyed mark; the line has been through the
//! same plain-text pass (look-alikes, references, HTML tags) and lead stripping
//! (`#`, `>`, emphasis, callouts, list markers).
//!
//! A banner is one of:
//!
//! - **A stamp in capitals**: a level phrase written in capitals
//!   (`CONFIDENTIAL`, `STRICTLY CONFIDENTIAL`, `SECRET`, `TOP SECRET`,
//!   `CLASSIFIED`, `RESTRICTED`, `PRIVATE`, `EYES ONLY`, `DO NOT SHARE`), maybe
//!   with a noun (`CONFIDENTIAL INFORMATION`), alone or before a separator
//!   (`—`, `:`, `/`, `(`…) and anything (`SECRET//NOFORN`, `CONFIDENTIAL: Q3
//!   plan`). A list item that is only the stamp (`- SECRET`) is an enumeration's
//!   value, not a banner.
//! - **A stamp in any case with a handling warning**: `Confidential — do not
//!   share`, `Secret (not for distribution)`, `Private: internal use only`.
//!   Written alone and not in capitals only the unambiguous phrases count, as a
//!   label (`Confidential`, `Strictly confidential`, `Top Secret`, `Eyes only`;
//!   not `confidential.` ending a wrapped sentence): a heading `Secret` or
//!   `Private` names a Kubernetes kind or a section as often.
//! - **Spaced letters**: `S E C R E T`, `C O N F I D E N T I A L`.
//! - **A classification marking**: `TS//SCI`, `S//NF`, `C//REL TO USA` at the
//!   start of a line, bare or in parentheses.
//! - **A statement**: `This note is confidential`, `this document is classified
//!   secret`, `This page is to be treated as strictly confidential` — a level that
//!   ends the statement (`This file is secret-free`, `this note is secret sauce`
//!   are not marks).
//!
//! A table row is never a banner (its cells are read by the table's column).
//! Level: `SECRET`, `TOP SECRET`, `CLASSIFIED`, eyes-only and `TS`/`S`
//! markings are secret; the rest confidential.

use crate::marks::Mark;
use crate::model::Sensitivity;

/// Stamps: the words (lowercase) and the level they give.
const STAMPS: &[(&[&str], Sensitivity)] = &[
    (&["top", "secret"], Sensitivity::Secret),
    (&["secret"], Sensitivity::Secret),
    (&["classified"], Sensitivity::Secret),
    (&["eyes", "only"], Sensitivity::Secret),
    (&["for", "your", "eyes", "only"], Sensitivity::Secret),
    (&["confidential"], Sensitivity::Confidential),
    (&["strictly", "confidential"], Sensitivity::Confidential),
    (&["highly", "confidential"], Sensitivity::Confidential),
    (&["company", "confidential"], Sensitivity::Confidential),
    (
        &["personal", "and", "confidential"],
        Sensitivity::Confidential,
    ),
    (
        &["private", "and", "confidential"],
        Sensitivity::Confidential,
    ),
    (&["private", "&", "confidential"], Sensitivity::Confidential),
    (&["restricted"], Sensitivity::Confidential),
    (&["private"], Sensitivity::Confidential),
    (&["do", "not", "share"], Sensitivity::Confidential),
    (&["do", "not", "distribute"], Sensitivity::Confidential),
    (&["not", "for", "distribution"], Sensitivity::Confidential),
];

/// Stamps that count alone when not written in capitals.
const PLAIN_STAMPS: &[&[&str]] = &[
    &["top", "secret"],
    &["eyes", "only"],
    &["for", "your", "eyes", "only"],
    &["confidential"],
    &["strictly", "confidential"],
    &["highly", "confidential"],
    &["company", "confidential"],
    &["personal", "and", "confidential"],
    &["private", "and", "confidential"],
    &["private", "&", "confidential"],
];

/// A noun that may follow a stamp (`CONFIDENTIAL INFORMATION`).
const STAMP_NOUNS: &[&str] = &[
    "information",
    "document",
    "documents",
    "note",
    "notes",
    "material",
    "data",
    "memo",
    "only",
];

/// Handling warnings after a stamp (lowercase, at the start of what follows it).
const WARNINGS: &[&str] = &[
    "do not share",
    "do not distribute",
    "do not forward",
    "do not disclose",
    "do not circulate",
    "do not copy",
    "do not publish",
    "do not repost",
    "do not reproduce",
    "don't share",
    "don't distribute",
    "don't forward",
    "never share",
    "not for distribution",
    "not for sharing",
    "not for publication",
    "not for release",
    "not for circulation",
    "not for external",
    "not for public",
    "not to be shared",
    "not to be distributed",
    "no sharing",
    "no distribution",
    "internal only",
    "internal use only",
    "for internal use only",
    "eyes only",
    "for your eyes only",
    "need to know",
    "need-to-know",
];

/// What a statement may name: `this <noun> is …`.
const STATEMENT_NOUNS: &[&str] = &[
    "note", "document", "doc", "page", "file", "memo", "entry", "section", "message", "email",
];

/// Words between `is` and the level in a statement (`is to be treated as
/// strictly confidential`).
const STATEMENT_FILLERS: &[&str] = &[
    "strictly",
    "highly",
    "very",
    "marked",
    "considered",
    "labelled",
    "labeled",
    "kept",
    "treated",
    "as",
    "to",
    "be",
];

/// Words that may follow a statement's level (`is confidential and must not…`).
const STATEMENT_ENDS: &[&str] = &[
    "and", "to", "within", "until", "unless", "but", "so", "please", "do", "don't", "not",
];

/// The banner `s` is, if any: `line` is the whole line after the plain-text pass,
/// `s` the same after its lead (`#`, `>`, list markers, emphasis…) was stripped.
pub(crate) fn banner(line: &str, s: &str) -> Option<Mark> {
    if !worth_reading(s) || line.trim_start().starts_with('|') {
        return None;
    }
    let level = marking(s)
        .or_else(|| stamp(line, &spaced_letters(s)))
        .or_else(|| statement(s))?;
    Some(Mark {
        key: "classification",
        value: level.as_str().to_owned(),
        dataview: false,
    })
}

/// A quick test that `s` may hold a banner: most lines hold no level word at all.
fn worth_reading(s: &str) -> bool {
    if s.len() > 400 {
        return false;
    }
    if s.contains("//") || s.as_bytes().get(1) == Some(&b' ') {
        return true;
    }
    let lower = s.to_ascii_lowercase();
    [
        "secret",
        "confiden",
        "classified",
        "restricted",
        "private",
        "eyes only",
        "do not",
        "not for",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// A classification marking at the start: `TS//SCI`, `(S//NF)`, `C//REL TO USA`.
fn marking(s: &str) -> Option<Sensitivity> {
    let t = s.trim_start_matches(['(', '*', '_']);
    if t.starts_with("TS//") || t.starts_with("S//") {
        Some(Sensitivity::Secret)
    } else if t.starts_with("C//") {
        Some(Sensitivity::Confidential)
    } else {
        None
    }
}

/// `s` with a run of five or more single letters at its start written as one
/// word (`S E C R E T` → `SECRET`).
fn spaced_letters(s: &str) -> String {
    let plain: String = s
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '~'))
        .collect();
    let words: Vec<&str> = plain.trim().split(' ').collect();
    let run = words
        .iter()
        .take_while(|w| w.chars().count() == 1 && w.chars().all(char::is_alphabetic))
        .count();
    if run < 5 {
        return s.to_owned();
    }
    let mut out: String = words[..run].concat();
    for w in &words[run..] {
        out.push(' ');
        out.push_str(w);
    }
    out
}

/// Characters around a stamp that do not count: emphasis, quotes, marks.
fn is_trim(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '*' | '_' | '~' | '=' | '"' | '\'' | '“' | '”' | '‘' | '’'
        )
}

/// Where a stamp ends and what follows it begins: the first separator.
fn split_stamp(s: &str) -> (&str, &str) {
    let mut at = s.len();
    for (i, c) in s.char_indices() {
        let sep = matches!(
            c,
            '—' | '–' | ':' | '/' | '|' | '·' | ',' | ';' | '(' | '[' | '.' | '!' | '?'
        ) || (c == '-' && (s[i + 1..].starts_with([' ', '-']) || s[..i].ends_with(' ')));
        if sep {
            at = i;
            break;
        }
    }
    (&s[..at], &s[at..])
}

/// A stamp (see the module header); `line` tells whether it is a list item.
fn stamp(line: &str, s: &str) -> Option<Sensitivity> {
    let (head, tail) = split_stamp(s.trim_matches(is_trim));
    let words: Vec<&str> = head
        .split_whitespace()
        .map(|w| w.trim_matches(is_trim))
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 6 {
        return None;
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    // The stamp, then at most one noun.
    let find = |phrase: &[String]| {
        STAMPS
            .iter()
            .find(|(w, _)| w.len() == phrase.len() && w.iter().zip(phrase).all(|(a, b)| a == b))
    };
    let (words_of, level) = find(&lower).or_else(|| match lower.split_last() {
        Some((noun, phrase)) if !phrase.is_empty() && STAMP_NOUNS.contains(&noun.as_str()) => {
            find(phrase)
        }
        _ => None,
    })?;
    let tail = tail
        .trim_start_matches(|c: char| is_trim(c) || !c.is_alphanumeric())
        .to_lowercase()
        .replace('’', "'");
    let warned = WARNINGS.iter().any(|w| tail.starts_with(w));
    let capitals = head.chars().any(char::is_alphabetic) && !head.chars().any(char::is_lowercase);
    let list_item = {
        let t = line.trim_start().trim_start_matches('>').trim_start();
        t.starts_with(['-', '*', '+']) && t[1..].starts_with(' ')
            || t.split_once(['.', ')']).is_some_and(|(n, r)| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && r.starts_with(' ')
            })
    };
    let alone = tail.trim().is_empty();
    let counts = if capitals {
        !(list_item && alone)
    } else {
        // Alone, a label (`Confidential`), not the end of a wrapped sentence
        // (`…because its configuration was\n  confidential.`).
        let label = words[0].starts_with(char::is_uppercase);
        warned || (alone && label && !list_item && PLAIN_STAMPS.contains(words_of))
    };
    counts.then_some(*level)
}

/// A statement `this <noun> is [fillers] <level>` among the first words of `s`.
fn statement(s: &str) -> Option<Sensitivity> {
    let lower = s.to_lowercase().replace('’', "'");
    let words: Vec<&str> = lower.split_whitespace().take(16).collect();
    let start = words.windows(3).position(|w| {
        w[0].trim_start_matches(|c: char| !c.is_alphanumeric()) == "this"
            && STATEMENT_NOUNS.contains(&w[1])
            && matches!(w[2], "is" | "are")
    })?;
    let mut rest = words[start + 3..]
        .iter()
        .copied()
        .skip_while(|w| STATEMENT_FILLERS.contains(w))
        .peekable();
    let first = rest.next()?;
    let (word, next) = match first {
        // `classified secret`: the level named after it; `classified.` alone.
        "classified" => match rest.peek() {
            Some(w) if level_word(w.trim_end_matches(|c: char| !c.is_alphanumeric())).is_some() => {
                (rest.next()?, rest.next())
            }
            _ => (first, rest.next()),
        },
        "top" => (rest.next()?, rest.next()),
        _ => (first, rest.next()),
    };
    let bare = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let level = level_word(bare)?;
    // The level ends the statement: punctuation after it, nothing more, or a
    // word that goes on to another clause.
    let ends = bare.len() < word.len()
        || next
            .is_none_or(|n| STATEMENT_ENDS.contains(&n) || !n.starts_with(char::is_alphanumeric));
    ends.then_some(level)
}

/// The level a statement's word names.
fn level_word(w: &str) -> Option<Sensitivity> {
    match w {
        "secret" | "classified" => Some(Sensitivity::Secret),
        "confidential" => Some(Sensitivity::Confidential),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `line` read as `read_mark` reads it: the level of its banner, if any.
    fn check(line: &str, expect: Option<Sensitivity>) {
        let got = crate::marks::read_mark(line)
            .map(|m| crate::sensitivity::sensitivity_word(&m.value).expect("a level"));
        assert_eq!(got, expect, "{line:?}");
    }

    #[test]
    fn stamps_in_capitals() {
        use Sensitivity::{Confidential, Secret};
        for (line, level) in [
            ("CONFIDENTIAL", Confidential),
            ("CONFIDENTIAL — do not share", Confidential),
            ("**TOP SECRET**", Secret),
            ("# SECRET", Secret),
            ("> [!warning] CONFIDENTIAL", Confidential),
            ("SECRET//NOFORN", Secret),
            ("STRICTLY CONFIDENTIAL: Q3 plan", Confidential),
            ("CONFIDENTIAL INFORMATION", Confidential),
            ("PRIVATE & CONFIDENTIAL", Confidential),
            ("🔒 RESTRICTED", Confidential),
            ("EYES ONLY", Secret),
            ("DO NOT SHARE", Confidential),
            ("- SECRET: the staging keys", Secret),
            ("<b>CLASSIFIED</b>", Secret),
            ("ＳＥＣＲＥＴ", Secret),
            ("SΕCRET", Secret),
        ] {
            check(line, Some(level));
        }
    }

    #[test]
    fn stamps_in_any_case_with_a_warning_or_unambiguous() {
        use Sensitivity::{Confidential, Secret};
        for (line, level) in [
            ("Confidential — do not share", Confidential),
            ("Secret (not for distribution)", Secret),
            ("Private: internal use only", Confidential),
            ("Secret, don’t share", Secret),
            ("Confidential", Confidential),
            ("*Strictly confidential*", Confidential),
            ("Top Secret", Secret),
            ("For your eyes only.", Secret),
            ("## Private and Confidential", Confidential),
        ] {
            check(line, Some(level));
        }
    }

    #[test]
    fn spaced_letters_and_markings() {
        use Sensitivity::{Confidential, Secret};
        for (line, level) in [
            ("S E C R E T", Secret),
            ("C O N F I D E N T I A L", Confidential),
            ("**S E C R E T** — handle with care", Secret),
            ("TS//SCI", Secret),
            ("(S//NF) The relay's address", Secret),
            ("C//REL TO USA", Confidential),
        ] {
            check(line, Some(level));
        }
    }

    #[test]
    fn statements() {
        use Sensitivity::{Confidential, Secret};
        for (line, level) in [
            ("This note is classified secret.", Secret),
            ("This note is confidential", Confidential),
            ("this document is classified", Secret),
            (
                "NOTE: this page is to be treated as strictly confidential.",
                Confidential,
            ),
            (
                "This file is confidential and must not leave the team.",
                Confidential,
            ),
            ("This memo is marked secret", Secret),
            ("This entry is top secret!", Secret),
        ] {
            check(line, Some(level));
        }
    }

    #[test]
    fn prose_and_names_are_no_banners() {
        for line in [
            "Secret",
            "## Secret",
            "- Secret",
            "- SECRET",
            "1. CONFIDENTIAL",
            "### Secret Rotation",
            "Private",
            "## PRIVATE API",
            "RESTRICTED MODE",
            "Secret: do not commit it to git",
            "Restricted mode",
            "| SECRET | the level above confidential |",
            "`SECRET`",
            "secret management systems like AWS Secrets Manager",
            "This file is secret-free",
            "This note is secret sauce for speed",
            "This page is private to the crate",
            "RESTRICTED = \"restricted\"  # PII, financial",
            "Is this document confidential? Ask the owner.",
            "Keep the client secret confidential — do not share it.",
            "A B C D",
            "  confidential.",
            "top secret",
            "S/MIME keys",
            "https://example.com//path",
        ] {
            check(line, None);
        }
    }
}
