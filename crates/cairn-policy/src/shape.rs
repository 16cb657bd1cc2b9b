//! Tests far cheaper than a rule's regex that every match passes: what the
//! text has beside an anchor (a block scalar's indicator, a vendor key's token,
//! what follows the key on its line: [`Line`]). A rule runs only where they pass.

use memchr::memmem::Finder;

use crate::rule::{Check, Rule};

/// The verbs of a credential stated in a sentence (`prose!` in `rules/`), and
/// the words that may come between a key and its verb (`the password for the
/// db is`).
pub(crate) const VERBS: &[&str] = &[
    "is", "was", "ist", "es", "est", "has", "had", "changed", "reset", "set", "rotated", "updated",
];
pub(crate) const BEFORE_VERB: &[&str] = &["for", "of", "on"];

/// What every match of a rule has on the line of one of its anchors, after the
/// anchor: a test far cheaper than compiling the rule's regex, which the rule
/// needs to pass before its regex runs (`detect.rs`). Letters are compared in
/// lower case, after [`crate::detect`]'s case folding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Line {
    /// Nothing is known.
    Any,
    /// One of these (lower case) follows the anchor on its line: an
    /// assignment's separator, a code span's backtick, a sentence's verb.
    After(&'static [&'static str]),
    /// The anchor is in a table row: its line starts with `|` (after blanks)
    /// and has another `|` after it.
    TableRow,
    /// A key that ends in one of `ends` (lower case), followed on its line by
    /// what `then` says: a credential's key is a word or the end of one, and
    /// `pinned`, `passing` or `the pin of the map` is none.
    Key {
        ends: &'static [&'static str],
        then: Then,
    },
    /// The anchor (`://`) starts a URL's authority with a user and password:
    /// before a blank or the path, a `:` and then an `@`.
    UrlUserinfo,
}

impl Line {
    /// The words of its own this test compares with a text (lower case): the
    /// marks after an anchor, or the keys' ends.
    pub(crate) fn words(self) -> &'static [&'static str] {
        match self {
            Line::After(marks) => marks,
            Line::Key { ends, .. } => ends,
            Line::Any | Line::TableRow | Line::UrlUserinfo => &[],
        }
    }
}

/// What follows a key in a [`Line::Key`] test, as its rule's pattern has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Then {
    /// An assignment (`assignment!` in `rules/`): maybe markdown bold and a quote, blanks,
    /// then a separator (`=`, `:`, `：`, `＝`).
    Separator,
    /// A sentence (`prose!` in `rules/`): maybe markdown bold, then after a blank a verb
    /// ([`VERBS`]: `is`, `was`, `changed`, ...), directly or after `for`, `of` or `on`
    /// and one to four words.
    Verb,
    /// A code span (`code_span_after!` in `rules/`): after blanks, maybe `is` or `was`
    /// and blanks, a backtick.
    CodeSpan,
    /// A value that looks generated, right after the key or what it is for
    /// (`Check::Bare`): on the rest of the line, a run of eight characters or
    /// more between blanks and the punctuation that ends such a value.
    Generated,
}

/// A text as the [`Line`] tests read it: case folded, in ASCII lower case,
/// made on the first test that needs it.
pub(crate) struct Lowered<'t> {
    text: &'t str,
    folded: Option<String>,
    lower: Option<String>,
}

impl<'t> Lowered<'t> {
    pub(crate) fn new(text: &'t str, folded: Option<String>) -> Self {
        Lowered {
            text,
            folded,
            lower: None,
        }
    }

    fn get(&mut self) -> &str {
        let (text, folded) = (self.text, &self.folded);
        self.lower
            .get_or_insert_with(|| folded.as_deref().unwrap_or(text).to_ascii_lowercase())
    }
}

/// Whether `text` has what every match of `rule` has beside an anchor, a test
/// far cheaper than compiling the rule's regex (milliseconds for some): a
/// block-scalar rule flags a key line that ends in `|` or `>` (its regex is
/// slow to run on notes full of `key` and `token`, and to compile), a vendor
/// key rule a token right after its anchor ([`Rule::tails`]).
pub(crate) fn has_shape(rule: &Rule, text: &str) -> bool {
    if rule.check == Check::BlockScalar && !has_block_indicator(text) {
        return false;
    }
    rule.tails.is_empty() || has_tail(text, rule.tails)
}

/// Whether the `lowered` text holds one of `also` (lower case), the words every
/// match of a rule has besides its anchor ([`Rule::also`]; none: `true`).
pub(crate) fn has_also(also: &[&str], lowered: &mut Lowered<'_>) -> bool {
    also.is_empty() || {
        let hay = lowered.get();
        also.iter().any(|word| hay.contains(word))
    }
}

/// Whether one of `anchors` (folded, lower case: the rule's anchors, or the
/// ends of its keys for [`Line::Key`]) occurs in the `lowered` text with
/// what `line` asks for after it on its line.
pub(crate) fn has_line(line: Line, anchors: &[Finder<'static>], lowered: &mut Lowered<'_>) -> bool {
    if line == Line::Any {
        return true;
    }
    let hay = lowered.get();
    anchors.iter().any(|anchor| {
        // The line of the last occurrence (its bounds found once, not once per
        // occurrence: a long line full of an anchor would make this quadratic),
        // and the line on which an `After` or table test failed: a later
        // occurrence's rest of that line is a part of the rest it searched.
        let mut bounds: Option<(usize, usize)> = None;
        let mut failed_on: Option<usize> = None;
        occurrences(hay, anchor).any(|start| {
            let end = start + anchor.needle().len();
            let (line_start, line_end) = match bounds {
                Some((s, e)) if start >= s && end <= e => (s, e),
                _ => {
                    let s = hay[..start].rfind('\n').map_or(0, |at| at + 1);
                    let e = hay[end..].find('\n').map_or(hay.len(), |at| end + at);
                    bounds = Some((s, e));
                    (s, e)
                }
            };
            let after = &hay[end..line_end];
            let monotone = matches!(line, Line::After(_) | Line::TableRow);
            if monotone && failed_on == Some(line_start) {
                return false;
            }
            let found = match line {
                Line::Any => true,
                Line::After(marks) => marks.iter().any(|mark| after.contains(mark)),
                Line::Key { then, .. } => follows(then, after),
                Line::UrlUserinfo => {
                    // What follows `://` up to a blank or the path: a `:`, then an `@`.
                    let authority = after
                        .split([' ', '\t', '\r', '/', '?', '#'])
                        .next()
                        .unwrap_or("");
                    authority
                        .find(':')
                        .is_some_and(|colon| authority[colon..].contains('@'))
                }
                Line::TableRow => {
                    hay[line_start..start]
                        .trim_start_matches([' ', '\t'])
                        .starts_with('|')
                        && after.contains('|')
                }
            };
            if monotone && !found {
                failed_on = Some(line_start);
            }
            found
        })
    })
}

/// Where `word` starts in `hay`, every occurrence, overlapping ones too (so a
/// word that could overlap itself is never missed where one occurrence hides
/// the next, as `match_indices` would). A word is a prebuilt `memmem` finder:
/// `str::find` (two-way, no vector prefilter) was a tenth of a wake-up's
/// instructions, every shown note's text searched once per anchor of every
/// rule its anchors enable.
fn occurrences<'a>(hay: &'a str, word: &'a Finder<'static>) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        if word.needle().is_empty() {
            return None;
        }
        let at = from + word.find(hay.get(from..)?.as_bytes())?;
        // On to the next character: a word's first byte starts a character.
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
        Some(at)
    })
}

/// `s` without the markdown bold it may start with.
fn bold(s: &str) -> &str {
    s.strip_prefix("**")
        .or_else(|| s.strip_prefix("__"))
        .unwrap_or(s)
}

/// Whether `after`, the rest of a line after a key (folded, lower case), is
/// what `then` says follows a key; what the rule's pattern demands there, the
/// words it leaves open taken as anything.
fn follows(then: Then, after: &str) -> bool {
    let blank = |c: char| c == ' ' || c == '\t';
    match then {
        Then::Separator => {
            let rest = bold(after);
            let rest = rest.strip_prefix(['"', '\'', '`']).unwrap_or(rest);
            bold(rest)
                .trim_start_matches(blank)
                .starts_with(['=', ':', '：', '＝'])
        }
        Then::Verb => {
            let rest = bold(after);
            if !rest.starts_with(blank) {
                return false;
            }
            // The words after the key, each cut at blanks; a verb may end in `:`.
            let mut words = rest.split(blank).filter(|w| !w.is_empty());
            let verb = |w: &str| VERBS.contains(&w.strip_suffix(':').unwrap_or(w));
            match words.next() {
                Some(w) if verb(w) => true,
                // `for`, `of` or `on`, one to four words, the verb.
                Some(w) if BEFORE_VERB.contains(&w) => words.take(5).skip(1).any(verb),
                _ => false,
            }
        }
        Then::Generated => after
            .split(|c: char| c.is_whitespace() || "`*,;()[]<>\"'".contains(c))
            .any(|w| w.chars().count() >= 8),
        Then::CodeSpan => {
            if !after.starts_with(blank) {
                return false;
            }
            let rest = after.trim_start_matches(blank);
            let rest = rest
                .strip_prefix("is")
                .or_else(|| rest.strip_prefix("was"))
                .filter(|r| r.starts_with(blank))
                .map_or(rest, |r| r.trim_start_matches(blank));
            rest.starts_with('`')
        }
    }
}

/// Whether one of `tails`' anchors occurs in `text` (ignoring ASCII case)
/// followed, after any blanks, by at least its number of token bytes
/// (`[A-Za-z0-9_+/=.~-]` and any byte outside ASCII).
pub(crate) fn has_tail(text: &str, tails: &[(&str, usize)]) -> bool {
    let bytes = text.as_bytes();
    // Bytes outside ASCII count too: a `(?i)` class takes `K` (Kelvin sign) and
    // `ſ` (long s) for `k` and `s`, and a character counts for its bytes here,
    // never fewer than the regex counts.
    let token = |b: &u8| !b.is_ascii() || b.is_ascii_alphanumeric() || b"_+/=.~-".contains(b);
    tails.iter().any(|&(anchor, min)| {
        let anchor = anchor.as_bytes();
        (0..=bytes.len().saturating_sub(anchor.len() + min)).any(|at| {
            bytes
                .get(at..at + anchor.len())
                .is_some_and(|here| here.eq_ignore_ascii_case(anchor))
                && {
                    // Blanks between the anchor and the token (`Bearer abc…`).
                    let rest = &bytes[at + anchor.len()..];
                    let blanks = rest
                        .iter()
                        .take_while(|b| **b == b' ' || **b == b'\t')
                        .count();
                    rest[blanks..].len() >= min && rest[blanks..blanks + min].iter().all(token)
                }
        })
    })
}

/// Whether `text` has a `:` followed by blanks (spaces, tabs) and then `|` or
/// `>`: every match of a block-scalar rule (`key: |`) has one.
pub(crate) fn has_block_indicator(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(at, &b)| {
        b == b':'
            && bytes[at + 1..]
                .iter()
                .find(|&&c| c != b' ' && c != b'\t')
                .is_some_and(|&c| c == b'|' || c == b'>')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_overlap() {
        let at = |hay: &str, word: &str| {
            occurrences(hay, &Finder::new(word).into_owned()).collect::<Vec<_>>()
        };
        assert_eq!(at("aaaa", "aa"), [0, 1, 2]);
        assert_eq!(at("pass: pass", "pass"), [0, 6]);
        assert_eq!(at("éé", "é"), [0, 2]);
        assert!(at("abc", "").is_empty());
    }

    #[test]
    fn the_block_indicator_is_a_colon_then_blanks_then_a_bar_or_angle() {
        assert!(has_block_indicator("key: |\n  x"));
        assert!(has_block_indicator("key:\t \t>-"));
        assert!(has_block_indicator("a:|"));
        assert!(!has_block_indicator("key: value | other"));
        assert!(!has_block_indicator("key:\n|"));
        assert!(!has_block_indicator("no colon | here >"));
        assert!(!has_block_indicator("ends with a colon:"));
    }
}
