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
//! - **A stamp in capitals**: a level phrase of [`crate::stamps::STAMPS`] written in capitals
//!   (`CONFIDENTIAL`, `TOP SECRET`, `TOP-SECRET`, `CLASSIFIED`, `UNDER NDA`,
//!   `PROPRIETARY AND CONFIDENTIAL`, `DO NOT SHARE`), maybe with a noun or two
//!   (`CONFIDENTIAL DRAFT`), alone, bracketed or before a separator (`—`, `:`,
//!   `/`, `(`…: `SECRET//NOFORN`, `CONFIDENTIAL: Q3 plan`); in a line all in
//!   capitals also after another word (`DRAFT — CONFIDENTIAL`). Not: a list
//!   item that is only the stamp (`- SECRET`, an enumeration's value), a field
//!   (`PRIVATE: true`, `CLASSIFIED: 1203 rows`, `SECRET: ${{ secrets.KEY }}`),
//!   `PRIVATE` without a handling warning (a `## PRIVATE` section of a build file).
//! - **A stamp in ordinary case**: any stamp before a handling warning
//!   (`Secret — do not share`, `Private: internal use only`); the unambiguous
//!   ones (`Confidential`, `Top Secret`, `Do not share`: `Case::Any`) also
//!   as a label, alone or before a separator (`Confidential: Q3 numbers`). It
//!   starts with a capital (`confidential.` ending a wrapped sentence is prose);
//!   `Secret`, `Private` or `Sensitive` alone name a Kubernetes kind or a section
//!   as often.
//! - **Spaced letters**, in any case (`S E C R E T`, `c o n f i d e n t i a l`),
//!   **a classification marking** at a line's start (`TS//SCI`, `(S//NF)`,
//!   `C//REL TO USA`), **a callout or admonition** of that kind (`>
//!   [!confidential]`, `!!! danger "Confidential"`).
//! - **A statement**: `This note is confidential`, `these notes are
//!   confidential`, `everything below is secret`, `this document is classified
//!   as confidential`, `keep this confidential`, `this note contains secrets` — a
//!   level that ends the statement (`This file is secret-free`, `this note is
//!   secret sauce`, `this page is private to the crate` are not marks).
//!
//! The stamps are read in German, French, Spanish, Portuguese, Italian and Dutch
//! too (`STRENG VERTRAULICH`, `Confidentiel`, `SECRETO`, `Vertrouwelijk`; the
//! words for secret only in capitals, as `SECRET`), and so are statements
//! (`Dieses Dokument ist vertraulich.`: `crate::foreign_statements`); handling
//! warnings in English only.
//!
//! Struck words are read both with and without them, the higher level
//! counting (`~~draft~~ CONFIDENTIAL`, and a struck stamp still counts).
//!
//! Code spans and table rows are never banners. Lines that head all four
//! levels describe them and mark nothing (`marks::body_marks` drops
//! them, see [`crate::level_lists`]). Level: `SECRET`, `TOP SECRET`, `CLASSIFIED`,
//! eyes-only and `TS`/`S` markings are secret; the rest confidential.

use crate::marks::{BANNER_KEY, Mark};
use crate::model::Sensitivity;
pub(crate) use crate::stamps::warned;
use crate::stamps::{Case, STAMP_NOUNS, WARNINGS, stamp_words};

/// A value after `STAMP:` that makes the line a field, not a banner
/// (`PRIVATE: true`, `RESTRICTED: none`).
const FIELD_VALUES: &[&str] = &[
    "true", "false", "yes", "no", "none", "null", "on", "off", "n/a",
];

/// What a statement may name: `this [whole] <noun> is …`.
const STATEMENT_NOUNS: &[&str] = &[
    "note",
    "notes",
    "document",
    "documents",
    "doc",
    "page",
    "file",
    "memo",
    "entry",
    "section",
    "message",
    "email",
    "content",
    "contents",
    "information",
];

/// Words between the verb and the level in a statement (`is to be treated as
/// strictly confidential`, `is classified as secret`).
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
    "for",
    "your",
    "a",
    "an",
];

/// Words that may follow a statement's level (`is confidential and must not…`).
const STATEMENT_ENDS: &[&str] = &[
    "and", "to", "within", "until", "unless", "but", "so", "please", "do", "don't", "not",
];

/// The banner `s` is, if any: `line` is the whole line after the plain-text pass,
/// `s` the same after its lead (`#`, `>`, list markers, emphasis, a callout's
/// `[!type]`…) was stripped.
pub(crate) fn banner(line: &str, s: &str) -> Option<Mark> {
    if !worth_reading(line) || line.trim_start().starts_with('|') {
        return None;
    }
    let s = without_code_spans(s);
    let read = |s: &str| {
        callout(line)
            .or_else(|| marking(s))
            .or_else(|| stamp(line, &crate::plain_text::spaced_letters(s)))
            .or_else(|| {
                en_dashes_as_hyphens(s)
                    .and_then(|j| stamp(line, &crate::plain_text::spaced_letters(&j)))
            })
            .or_else(|| statement(s))
            .or_else(|| crate::foreign_statements::statement(s))
    };
    // Struck words (`~~draft~~ CONFIDENTIAL`) are read without them too, and the
    // higher level counts: a struck stamp may still be the note's.
    let level = match without_struck(&s) {
        Some(unstruck) => read(&s).max(read(&unstruck)),
        None => read(&s),
    }?;
    Some(Mark {
        key: BANNER_KEY,
        value: level.as_str().to_owned(),
        dataview: false,
    })
}

/// A quick test that `line` (its plain text: look-alikes read) may hold a
/// banner or a mark that withholds (every level word that does, `secret`,
/// `confidential` and their synonyms, is a trigger): one pass over its bytes,
/// no allocation. Most lines hold none; past a note's head only a line that
/// does is read for a mark.
pub(crate) fn worth_reading(line: &str) -> bool {
    // A banner opens its line: the first 400 bytes are enough, however long
    // the paragraph written on it.
    let mut end = line.len().min(400);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let line = &line[..end];
    let b = line.as_bytes();
    // Spaced letters at the start (`S E C R E T`, `**S E C R E T**`,
    // `C-O-N-F-I-D-E-N-T-I-A-L`).
    let t = line
        .trim_start()
        .trim_start_matches(['*', '_', '#', '>', ' '])
        .as_bytes();
    if t.len() >= 9
        && (0..5).all(|k| {
            (t[2 * k].is_ascii_alphabetic() || crate::plain_text::looks_like_a_letter(t[2 * k]))
                && (k == 4 || matches!(t[2 * k + 1], b' ' | b'-' | b'.' | b'_'))
        })
    {
        return true;
    }
    // A classification marking (`TS//SCI`, `C//REL`), a Traffic Light
    // Protocol label (`TLP:RED`).
    if line.contains("S//") || line.contains("C//") || line.contains("TLP") {
        return true;
    }
    // One of the words every banner holds, in any case, at a word's start: each
    // word is looked at once, by its first letter.
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let at = |w: &[u8]| b.len() - i >= w.len() && b[i..i + w.len()].eq_ignore_ascii_case(w);
        let found = match b[i] | 0x20 {
            b's' => {
                at(b"secret")
                    || at(b"sensitive")
                    || at(b"segret")
                    || at(b"sigilos")
                    || at("secrète".as_bytes())
            }
            b'v' => at(b"vertraulich") || at(b"vertrouwelijk"),
            b'g' => at(b"geheim"),
            b'c' => at(b"confiden") || at(b"classified"),
            b'r' => at(b"restricted") || at(b"riservat"),
            b'p' => at(b"private") || at(b"privileged"),
            b'a' => at(b"attorney"),
            b'e' => at(b"eyes only"),
            b'd' => at(b"do not share") || at(b"do not distribute") || at(b"do not forward"),
            b'n' => at(b"not for distribution"),
            b'u' => at(b"under nda"),
            _ => false,
        };
        if found {
            return true;
        }
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
    }
    false
}

/// `s` with its code spans blanked: a stamp or a statement in code is shown, not
/// declared (`` `This note is confidential.` is the form we detect ``).
fn without_code_spans(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('`') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut in_code = false;
    for c in s.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `s` without its struck spans (`~~draft~~`), when it has any (an opening
/// `~~` without a closing one strikes nothing).
fn without_struck(s: &str) -> Option<String> {
    if !s.contains("~~") {
        return None;
    }
    let parts: Vec<&str> = s.split("~~").collect();
    if parts.len() < 3 {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    for (i, part) in parts.iter().enumerate() {
        if i % 2 == 1 && i + 1 < parts.len() {
            out.push(' ');
        } else {
            if i % 2 == 1 {
                out.push_str("~~");
            }
            out.push_str(part);
        }
    }
    Some(out)
}

/// An Obsidian callout or an `MkDocs` admonition whose type or title is a stamp:
/// `> [!confidential]`, `> [!top-secret] Vendor`, `!!! danger "Confidential"`.
fn callout(line: &str) -> Option<Sensitivity> {
    let t = line.trim_start().trim_start_matches(['>', ' ']);
    if let Some(rest) = t.strip_prefix("[!") {
        let (kind, _) = rest.split_once(']')?;
        return stamp_words(&words_of(kind)).map(|(l, _)| l);
    }
    let rest = t
        .strip_prefix("!!!")
        .or_else(|| t.strip_prefix("???+"))
        .or_else(|| t.strip_prefix("???"))?;
    let mut parts = rest.trim().splitn(2, char::is_whitespace);
    let kind = parts.next().unwrap_or("");
    let title = parts.next().unwrap_or("").trim().trim_matches('"');
    stamp_words(&words_of(kind))
        .or_else(|| stamp_words(&words_of(title)))
        .map(|(l, _)| l)
}

/// A classification marking at the start: `TS//SCI`, `(S//NF)`, `C//REL TO
/// USA`, or a Traffic Light Protocol label (`TLP:RED`, `**TLP: AMBER**`,
/// `TLP:AMBER+STRICT`): red is secret, amber confidential.
fn marking(s: &str) -> Option<Sensitivity> {
    let t = s.trim_start_matches(['(', '*', '_', '[']);
    if t.starts_with("TS//") || t.starts_with("S//") {
        Some(Sensitivity::Secret)
    } else if t.starts_with("C//") {
        Some(Sensitivity::Confidential)
    } else if let Some(rest) = t.strip_prefix("TLP") {
        let rest = rest.trim_start_matches([':', ' ', '-', '_']);
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == '+')
            .collect::<String>()
            .to_ascii_lowercase();
        match word.as_str() {
            "red" => Some(Sensitivity::Secret),
            "amber" | "amber+strict" => Some(Sensitivity::Confidential),
            _ => None,
        }
    } else {
        None
    }
}

/// Characters around a stamp that do not count: emphasis, quotes, brackets.
pub(crate) fn is_trim(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '*' | '_'
                | '~'
                | '='
                | '"'
                | '\''
                | '“'
                | '”'
                | '‘'
                | '’'
                | '«'
                | '»'
                | '['
                | '('
                | '{'
        )
}

/// `s` with each en dash between two letters as a hyphen, when it has one:
/// there it joins words as a hyphen does (`Attorney–Client Privileged`), where
/// a stamp is otherwise cut at it (`CONFIDENTIAL–do not share`). Both
/// readings are tried.
fn en_dashes_as_hyphens(s: &str) -> Option<String> {
    if !s.contains('–') {
        return None;
    }
    let chars: Vec<char> = s.chars().collect();
    let joins = |i: usize| {
        chars[i] == '–'
            && i > 0
            && chars[i - 1].is_alphabetic()
            && chars.get(i + 1).is_some_and(|c| c.is_alphabetic())
    };
    (0..chars.len()).any(joins).then(|| {
        (0..chars.len())
            .map(|i| if joins(i) { '-' } else { chars[i] })
            .collect()
    })
}

/// Whether `c` separates a stamp from what follows it.
fn is_separator(c: char) -> bool {
    matches!(
        c,
        '—' | '–'
            | ':'
            | '/'
            | '|'
            | '·'
            | ','
            | ';'
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '«'
            | '»'
            | '.'
            | '!'
            | '?'
    )
}

/// `s` cut at its separators (`-` counts only with a blank beside it), and at
/// any run of symbols standing between blanks (`CONFIDENTIAL • DO NOT SHARE`,
/// `Confidential → internal only`, `SECRET ~ handle with care`, `SECRET >>>
/// read this`; not `&` or `+`, which join words): the segments and, for each,
/// the separator after it (if any; a run's first character).
pub(crate) fn segments(s: &str) -> Vec<(&str, Option<char>)> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if let Some(end) = symbol_run(s, i) {
            out.push((&s[from..i], Some(c)));
            from = end;
            while chars.next_if(|&(j, _)| j < end).is_some() {}
            continue;
        }
        let sep = is_separator(c)
            || (c == '-' && (s[i + 1..].starts_with([' ', '-']) || s[..i].ends_with(' ')));
        if sep {
            out.push((&s[from..i], Some(c)));
            from = i + c.len_utf8();
        }
    }
    out.push((&s[from..], None));
    out
}

/// The end of the run of symbols starting at byte `at` of `s`, when it stands
/// between blanks (something follows it), holds no letter or digit, is not
/// one [`is_separator`] or the `-` rule already cut at, is not `&` or `+`
/// alone (they join words, see [`words_of`]) and holds no `=` (an assignment).
fn symbol_run(s: &str, at: usize) -> Option<usize> {
    if !s[..at].ends_with(char::is_whitespace) {
        return None;
    }
    let rest = &s[at..];
    let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let run = &rest[..len];
    let first = run.chars().next()?;
    let symbols = run.chars().all(|c| !c.is_alphanumeric());
    let cut_already = is_separator(first) || first == '-';
    let joins = matches!(run, "&" | "+");
    // An assignment (`RESTRICTED = "restricted"`, `SECRET := x`) is code.
    let assigns = run.contains('=');
    (symbols && !cut_already && !joins && !assigns && len < rest.len()).then_some(at + len)
}

/// The lowercase words of a stamp's text: split at blanks and hyphens
/// (`Top-Secret`, `Attorney‑Client`), without emphasis, quotes or symbols
/// (`CONFIDENTIAL 🔒`); an `&` or a `+` between two words, spaced or not, read
/// as `and` (`Private & Confidential`, `Confidential&Proprietary`,
/// `Privileged + Confidential`), anywhere else as nothing (`Confidential+`).
pub(crate) fn words_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut joined = false;
    for raw in text.split(|c: char| c.is_whitespace() || matches!(c, '-' | '\u{2010}' | '\u{2011}'))
    {
        for (i, piece) in raw.split(['&', '+']).enumerate() {
            joined |= i > 0 && !out.is_empty();
            let w = piece.trim_matches(|c: char| is_trim(c) || !c.is_alphanumeric());
            if w.is_empty() {
                continue;
            }
            if std::mem::take(&mut joined) {
                out.push("and".to_owned());
            }
            out.push(w.to_lowercase());
        }
    }
    out
}

/// Whether `text` (a line, lowercase or not) is a list item.
fn is_list_item(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches('>').trim_start();
    (t.starts_with(['-', '*', '+']) && t[1..].starts_with(' '))
        || t.split_once(['.', ')']).is_some_and(|(n, r)| {
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && r.starts_with(' ')
        })
}

/// A stamp (see the module header); `line` tells whether it is a list item.
fn stamp(line: &str, s: &str) -> Option<Sensitivity> {
    let s = s.trim_matches(|c: char| is_trim(c) || (!c.is_ascii() && !c.is_alphanumeric()));
    let segs = segments(s);
    let (head, sep) = segs[0];
    let tail: String = segs[1..]
        .iter()
        .map(|(t, _)| *t)
        .collect::<Vec<_>>()
        .join(" ")
        .trim_start_matches(|c: char| is_trim(c) || !c.is_alphanumeric())
        .to_lowercase()
        .replace('’', "'");
    let words = words_of(head);
    if words.is_empty() || words.len() > 6 {
        return None;
    }
    let capitals =
        |t: &str| t.chars().any(char::is_alphabetic) && !t.chars().any(char::is_lowercase);
    let Some((level, case)) = stamp_words(&words) else {
        // In a line written in capitals, a stamp after another word (`DRAFT —
        // CONFIDENTIAL`, `INTERNAL / CONFIDENTIAL`); in ordinary case, an
        // unambiguous stamp after a label or two (`Internal — Confidential`,
        // `Draft · Confidential`), each segment a few words opening with a
        // capital; unless the line lists levels (`PUBLIC / INTERNAL /
        // CONFIDENTIAL / SECRET`).
        let label = |t: &str| {
            let t = t.trim_matches(|c: char| is_trim(c) || !c.is_alphanumeric());
            t.starts_with(char::is_uppercase) && t.split_whitespace().count() <= 4
        };
        let upper = capitals(s);
        if !(upper || segs.len() <= 3 && segs.iter().all(|(t, _)| label(t))) || segs.len() > 4 {
            return None;
        }
        let found: Vec<Sensitivity> = segs[1..]
            .iter()
            .filter_map(|(t, _)| stamp_words(&words_of(t)))
            .filter(|&(_, case)| upper || case == Case::Any)
            .map(|(l, _)| l)
            .collect();
        let levels = segs
            .iter()
            .filter(|(t, _)| crate::sensitivity::sensitivity_word(t.trim()).is_some())
            .count();
        return found.into_iter().max().filter(|_| levels < 3);
    };
    let warned = WARNINGS.iter().any(|w| tail.starts_with(w));
    let alone = tail.trim().is_empty();
    // `STAMP: value` is a field when the value is one (`PRIVATE: true`,
    // `CLASSIFIED: 1203 rows`, `SECRET: ${{ secrets.KEY }}`).
    let field = sep == Some(':') && {
        // Past the emphasis that closes a bold label (`**Confidential:** Q3`)
        // and more colons (`CONFIDENTIAL ::: internal`).
        let after = s[head.len() + 1..]
            .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | ':'));
        let first = after.split_whitespace().next().unwrap_or("").to_lowercase();
        !after.starts_with(char::is_alphabetic)
            || FIELD_VALUES.contains(&first.trim_end_matches(['.', ',']))
    };
    let list_item = is_list_item(line);
    let counts = if capitals(head) {
        if case == Case::Warned {
            warned
        } else {
            !(field || list_item && alone)
        }
    } else {
        // Not in capitals: a label (`Confidential`, not the end of a wrapped
        // sentence `…its configuration was\n  confidential.`).
        let label = head
            .trim_start_matches(is_trim)
            .starts_with(char::is_uppercase);
        // In a list, a label is a glossary's term (`- **Confidential:** a
        // server-side app`) unless it carries a handling warning.
        label && (warned || (case == Case::Any && !field && !list_item))
    };
    counts.then_some(level)
}

/// The first answer `read` gives at a sentence's start among the first 16
/// words of `s` (lowercase, `’` as `'`), given the words and the start's index:
/// at a sentence's start or after a lead-in (`NOTE:`), not inside one (`…, so
/// this is private`, `this file contains secrets` after `;`). What a
/// statement, in English or another language, is read from.
pub(crate) fn at_sentence_starts(
    s: &str,
    read: impl Fn(&[&str], usize) -> Option<Sensitivity>,
) -> Option<Sensitivity> {
    let lower = s.to_lowercase().replace('’', "'");
    let words: Vec<&str> = lower.split_whitespace().take(16).collect();
    (0..words.len()).find_map(|i| {
        let starts = i == 0
            || words[i - 1]
                .trim_end_matches(['*', '_'])
                .ends_with(['.', '!', '?', ':']);
        if starts { read(&words, i) } else { None }
    })
}

/// A statement among the first words of `s`: `this [whole] [<noun>] is [fillers]
/// <level>`, `these notes are confidential`, `everything below is secret`, `keep
/// this confidential`, `this note contains secrets`.
fn statement(s: &str) -> Option<Sensitivity> {
    let noun = |w: Option<&&str>| w.is_some_and(|w| STATEMENT_NOUNS.contains(&bare(w)));
    at_sentence_starts(s, |words, i| {
        let mut k = i + usize::from(bare(words[i]) == "please");
        match words.get(k).map(|w| bare(w))? {
            "this" | "these" => {
                k += 1;
                if words
                    .get(k)
                    .is_some_and(|w| matches!(bare(w), "whole" | "entire"))
                {
                    k += 1;
                }
                // `this note's contents are…`
                if let Some(w) = words.get(k)
                    && let Some(stem) = bare(w).strip_suffix("'s")
                    && STATEMENT_NOUNS.contains(&stem)
                {
                    k += 1;
                    if words
                        .get(k)
                        .is_some_and(|w| matches!(bare(w), "contents" | "content"))
                    {
                        k += 1;
                    }
                } else if noun(words.get(k)) {
                    k += 1;
                }
            }
            "everything" => {
                k += 1;
                if words
                    .get(k)
                    .is_some_and(|w| matches!(bare(w), "below" | "here" | "above"))
                {
                    k += 1;
                }
            }
            // `keep this confidential`, `treat this note as confidential`.
            "keep" | "treat" => {
                if words.get(k + 1).map(|w| bare(w)) != Some("this") {
                    return None;
                }
                k += 2;
                if noun(words.get(k)) {
                    k += 1;
                }
                return level_after(&words[k..], true);
            }
            _ => return None,
        }
        match words.get(k).map(|w| bare(w)) {
            Some("is" | "are") => level_after(&words[k + 1..], false),
            Some("contains" | "contain") => {
                let next = words.get(k + 1).copied()?;
                let after = words.get(k + 2).map(|w| bare(w));
                let ends = bare(next).len() < next.len()
                    || after.is_none_or(|n| STATEMENT_ENDS.contains(&n));
                match bare(next) {
                    "secrets" if ends => Some(Sensitivity::Secret),
                    // `contains confidential information`, `… sensitive data`.
                    "confidential" | "sensitive"
                        if after.is_some_and(|n| {
                            matches!(n, "information" | "data" | "details" | "material")
                        }) =>
                    {
                        Some(Sensitivity::Confidential)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    })
}

/// A word without the punctuation around it (an apostrophe stays: `don't`).
fn bare(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// The level `words` state after a statement's verb: fillers, then a level
/// that ends the statement. `private` counts only qualified (`strictly
/// private`) or ending the sentence.
fn level_after(words: &[&str], kept: bool) -> Option<Sensitivity> {
    let mut i = 0;
    let mut qualified = false;
    while i < words.len() && STATEMENT_FILLERS.contains(&bare(words[i])) {
        qualified |= matches!(bare(words[i]), "strictly" | "highly");
        // `for your eyes only` is a level, not fillers.
        if bare(words[i]) == "for" && words.get(i + 1).is_some_and(|w| bare(w) == "your") {
            break;
        }
        i += 1;
    }
    let rest = &words[i..];
    let first = bare(rest.first()?);
    let (level, used) = match first {
        "secret" => (Sensitivity::Secret, 1),
        "top" if rest.get(1).is_some_and(|w| bare(w) == "secret") => (Sensitivity::Secret, 2),
        "classified" => match rest.get(1).map(|w| bare(w)) {
            Some("as" | "secret" | "confidential") => {
                return level_after(&rest[1..], kept).or(Some(Sensitivity::Secret));
            }
            _ => (Sensitivity::Secret, 1),
        },
        "confidential" => (Sensitivity::Confidential, 1),
        "private" => (Sensitivity::Confidential, 1),
        "for" if rest.len() >= 4 && bare(rest[1]) == "your" && bare(rest[2]) == "eyes" => {
            (Sensitivity::Secret, 4)
        }
        "eyes" if rest.get(1).is_some_and(|w| bare(w) == "only") => (Sensitivity::Secret, 2),
        _ => return None,
    };
    let last = rest[used - 1];
    let punctuated = bare(last).len() < last.trim_end_matches('\'').len();
    let next = rest.get(used).map(|w| bare(w));
    // The level ends the statement, or names what the note is (`a
    // confidential document`).
    let ends = punctuated
        || next.is_none_or(|n| {
            STATEMENT_ENDS.contains(&n) || STATEMENT_NOUNS.contains(&n) || STAMP_NOUNS.contains(&n)
        });
    let private_ok = qualified || kept || punctuated || next.is_none();
    (ends && (first != "private" || private_ok)).then_some(level)
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

    /// `&`, `+` and an en dash joining words read as prose where they join no
    /// stamp's words.
    #[test]
    fn joined_words_that_are_no_stamp_stay_prose() {
        for line in [
            "R&D notes",
            "Research & Development",
            "Q&A with the payments team",
            "pages 10–20",
            "C++ tips",
            "Tom & Jerry",
            "Secret & Lies, a film",
            "Client–server split",
            "Terms &amp; conditions",
            "Secret • sauce",
            "Private → public keys",
            "Sensitive ~ data",
            "The confidential → shared switch",
            "RESTRICTED == 3",
            "SECRET := load()",
            "PRIVATE:: true",
            "Draft — Secret",
            "Public — Internal — Confidential",
            "See the note — confidential means internal here",
            "Secret — a recipe",
        ] {
            check(line, None);
        }
    }

    /// Every word of a stamp, a handling warning, a level or a synonym is one
    /// `letters_for_digits` reads when spelled with digits for letters: a
    /// stamp added without its words there would be read in letters only.
    #[test]
    fn every_word_marks_are_made_of_is_read_with_digits_for_letters() {
        let phrases = crate::stamps::STAMPS
            .iter()
            .flat_map(|(words, _, _)| words.iter().copied())
            .chain(WARNINGS.iter().copied())
            .chain(crate::foreign_statements::LEVELS.iter().map(|(w, _)| *w))
            .chain(crate::sensitivity::SYNONYMS.iter().map(|(w, _)| *w));
        let mut missing: Vec<&str> = phrases
            // Words with letters beyond ASCII (`secrète`) are never spelled
            // with digits the reader reads.
            .flat_map(|p| p.split(|c: char| !c.is_alphabetic()))
            .filter(|w| w.is_ascii() && w.len() >= 2)
            .filter(|w| !crate::plain_text::MARK_WORDS.contains(w))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        assert!(missing.is_empty(), "not in MARK_WORDS: {missing:?}");
        // Each read as its word when written with digits: `d0`, `f0rward`.
        for word in crate::plain_text::MARK_WORDS {
            let spelled: String = word
                .chars()
                .map(|c| match c {
                    'o' => '0',
                    'e' => '3',
                    'a' => '4',
                    other => other,
                })
                .collect();
            if spelled.chars().filter(char::is_ascii_alphabetic).count() * 2 < spelled.len()
                || spelled == *word
            {
                continue;
            }
            assert_eq!(crate::plain_text::latin_text(&spelled), *word, "{spelled}");
        }
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
            ("ᴄᴏɴꜰɪᴅᴇɴᴛɪᴀʟ", Confidential),
            ("𝐂𝐎𝐍𝐅𝐈𝐃𝐄𝐍𝐓𝐈𝐀𝐋", Confidential),
            ("𝖳𝖮𝖯 𝖲𝖤𝖢𝖱𝖤𝖳", Secret),
            ("[CONFIDENTIAL]", Confidential),
            ("(CONFIDENTIAL)", Confidential),
            ("«CONFIDENTIAL»", Confidential),
            ("CONFIDENTIAL DRAFT", Confidential),
            ("CONFIDENTIAL 🔒", Confidential),
            ("🔒 CONFIDENTIAL 🔒", Confidential),
            ("DRAFT — CONFIDENTIAL", Confidential),
            ("INTERNAL / CONFIDENTIAL", Confidential),
            ("PROPRIETARY AND CONFIDENTIAL", Confidential),
            ("TOP-SECRET", Secret),
            ("SENSITIVE — internal only", Confidential),
            ("UNDER NDA", Confidential),
            ("STRENG VERTRAULICH", Confidential),
            ("GEHEIM", Secret),
            ("CONFIDENTIEL — ne pas diffuser", Confidential),
            ("SECRETO", Secret),
            ("Vertrouwelijk", Confidential),
            ("Strictement confidentiel", Confidential),
            ("PRIVATE — do not share", Confidential),
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
            ("Confidential: Q3 payout numbers", Confidential),
            ("Confidential — payout ledger vendor rates", Confidential),
            ("Confidential (internal)", Confidential),
            ("Strictly Confidential - Q3 plan", Confidential),
            ("Top Secret: payout ledger keys", Secret),
            ("# Confidential: payout ledger migration plan", Confidential),
            ("[Confidential] Q3 plan", Confidential),
            ("Confidential//Internal", Confidential),
            ("Confidential draft", Confidential),
            ("Confidential info — do not share", Confidential),
            ("> [!warning] Confidential info below", Confidential),
            ("Confidential 🤫", Confidential),
            ("**Confidential:** Q3 acquisition plan", Confidential),
            ("> **Confidential:** internal numbers", Confidential),
            ("**TOP SECRET:** launch codes", Secret),
            ("𝕊𝔼ℂℝ𝔼𝕋", Secret),
            ("Internal & Confidential", Confidential),
            ("Confidential and proprietary", Confidential),
            ("Top-Secret", Secret),
            ("Not for distribution", Confidential),
            ("Do not share", Confidential),
            ("Do not distribute.", Confidential),
            ("Under NDA — do not share", Confidential),
            ("Privileged & Confidential", Confidential),
            ("Attorney-client privileged", Confidential),
            // Joined otherwise (a third red-team list).
            ("Attorney–Client Privileged", Confidential),
            ("Attorney\u{2011}client privileged", Confidential),
            ("Confidential&Proprietary", Confidential),
            ("Privileged + Confidential", Confidential),
            ("PRIVATE &amp; CONFIDENTIAL", Confidential),
            ("Private &#38; Confidential", Confidential),
            ("CONFIDENTIAL–do not share", Confidential),
            ("Confidential+", Confidential),
            // A run of symbols between blanks cuts as a separator does (a
            // fourth red-team list).
            ("Confidential • Do not share", Confidential),
            ("CONFIDENTIAL • DO NOT SHARE", Confidential),
            ("Confidential → internal only", Confidential),
            ("CONFIDENTIAL ~ do not share", Confidential),
            ("Confidential ― do not share", Confidential),
            ("CONFIDENTIAL ⸺ do not share", Confidential),
            ("Confidential > do not share", Confidential),
            ("Confidential ✱ do not share", Confidential),
            ("CONFIDENTIAL >>> read carefully", Confidential),
            ("Confidential ⚠️ do not share", Confidential),
            ("TOP SECRET • launch plan", Secret),
            ("CONFIDENTIAL ::: internal", Confidential),
            // A sixth: a stamp after a label in ordinary case.
            ("*Internal — Confidential*", Confidential),
            ("Draft · Confidential", Confidential),
            ("Q3 plan — Strictly confidential", Confidential),
            // Warnings of a fifth list.
            ("Private — don't copy", Confidential),
            ("Secret — authorized personnel only", Secret),
            ("PRIVATE: staff only", Confidential),
            ("Sensitive — do not send outside the team", Confidential),
            ("Restricted — limited distribution", Confidential),
            ("Secret: do not post", Secret),
            ("PRIVATE — for internal distribution", Confidential),
            ("Strictly private — do not share", Confidential),
            ("Do not forward", Confidential),
            (
                "CONFIDENTIALITY NOTICE: this note is for the payments team only.",
                Confidential,
            ),
            ("> [!confidential]", Confidential),
            ("> [!top-secret] Vendor", Secret),
            ("!!! danger \"Confidential\"", Confidential),
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
            ("c o n f i d e n t i a l", Confidential),
            ("s e c r e t", Secret),
            ("C-O-N-F-I-D-E-N-T-I-A-L", Confidential),
            ("S.E.C.R.E.T.", Secret),
            ("s-e-c-r-e-t", Secret),
            ("**S E C R E T** — handle with care", Secret),
            ("TS//SCI", Secret),
            ("(S//NF) The relay's address", Secret),
            ("C//REL TO USA", Confidential),
            // The Traffic Light Protocol's labels (a red team's body line).
            ("TLP:RED", Secret),
            ("**TLP: RED** — partners only", Secret),
            ("TLP:AMBER+STRICT", Confidential),
            ("[TLP:AMBER]", Confidential),
            // Spelled out with digits or symbols for letters.
            ("C 0 N F I D E N T I A L", Confidential),
            ("S-3-C-R-E-T", Secret),
            ("C.0.N.F.I.D.E.N.T.I.A.L.", Confidential),
            ("**$ E C R E T** \u{2014} handle with care", Secret),
            ("S E C R E T !", Secret),
            ("_C_O_N_F_I_D_E_N_T_I_A_L_", Confidential),
            ("S_E_C_R_E_T", Secret),
            ("**S_3_C_R_E_T**", Secret),
        ] {
            check(line, Some(level));
        }
        check("TLP:GREEN", None);
        check("TLP:CLEAR", None);
        check("TLPs and their colours", None);
        // Single letters that spell no stamp (an enumeration of options).
        check("a b c d e f", None);
        check("A-B-C-D-E-F", None);
        check("U.S.A. only", None);
        check("1 2 3 4 5 6", None);
        check("A 1 B 2 C 3", None);
        check("1.2.3.4.5.6", None);
        check("v-1-2-3-4-5", None);
        check("a_b_c_d_e_f", None);
        check("_s_e_t_u_p_ the payout job", None);
    }

    /// Digits and symbols written for letters read as the letters (the
    /// plain-text pass): before, each of these let its note through.
    #[test]
    fn stamps_spelled_with_digits() {
        use Sensitivity::{Confidential, Secret};
        for (line, level) in [
            ("C0NFIDENTIAL \u{2014} do not share", Confidential),
            ("CONFIDENT1AL", Confidential),
            ("**TOP S3CRET**", Secret),
            ("S3CRET", Secret),
            ("$ECRET//NOFORN", Secret),
            ("This note is c0nfidential.", Confidential),
            ("Sensitivity: s3cret", Secret),
            ("STRENG V3RTRAULICH", Confidential),
            // Words of stamps the list of mark words once lacked.
            ("Do n0t f0rward", Confidential),
            ("PR1V1LEGED & CONFIDENTIAL", Confidential),
            ("STR1CTLY CONFIDENTIAL", Confidential),
            ("Private \u{2014} d0 n0t c1rculate", Confidential),
            ("ATT0RNEY-CLIENT PRIVILEGED", Confidential),
        ] {
            check(line, Some(level));
        }
        check("S3 bucket for the EC2 hosts", None);
        check("f0r the d0cs, d0 n0t f0rget", None);
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
            ("This is confidential, please don't share.", Confidential),
            ("These notes are confidential.", Confidential),
            ("This whole note is confidential.", Confidential),
            ("This entire document is confidential.", Confidential),
            ("Everything below is confidential.", Confidential),
            ("Keep this confidential.", Confidential),
            ("This document is classified as confidential.", Confidential),
            ("This note is strictly private.", Confidential),
            ("This note is for your eyes only.", Secret),
            ("This note contains secrets.", Secret),
            ("This is a confidential document.", Confidential),
            (
                "This document contains confidential information.",
                Confidential,
            ),
            ("This note contains sensitive information.", Confidential),
            ("Please treat this note as confidential.", Confidential),
            ("This note's contents are confidential.", Confidential),
            ("> **Note:** this page is confidential.", Confidential),
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
            "SECRET: ${{ secrets.PAYOUT_KEY }}",
            "PRIVATE: true",
            "CLASSIFIED: 1203 payout ledger rows",
            "RESTRICTED: 12",
            "## PRIVATE",
            "Confidential: no",
            "confidential: do not share them outside finance, per policy.",
            "`This note is confidential.` is the statement form we detect.",
            "CONFIDENTIAL CLIENT",
            "PUBLIC / INTERNAL / CONFIDENTIAL / SECRET",
            "Keep it secret.",
            "This doc contains secrets management tips",
            "Sensitive",
            "Do not share your screen during demos.",
            "Secret Santa 2025 — do not share the list",
            "Private beta — do not share the link",
            "Geheim",
            "- **Confidential:** a server-side app that can keep a client secret.",
            "Put the token in .env; this file contains secrets and is gitignored.",
            "Copy the API token and keep this secret.",
            "The field is set, so this is private.",
            "Not everything is secret, but the API keys are.",
            "secreto de prod",
            "Geheimnis hinzuzufügen.",
        ] {
            check(line, None);
        }
    }
}
