//! Sensitivity marks a front-matter parser does not see: how a written key is
//! compared with the sensitivity-like keys (folded, then a near match), and the
//! one line reader that finds `sensitivity: secret` written any other way — in a
//! block that does not parse, in a note's head, in a Dataview field, in an entry
//! of a decisions/lessons file.
//!
//! **Keys.** A key is folded before it is compared: Unicode format characters
//! (category Cf: zero-width spaces and joiners, U+00AD, U+FEFF, bidi controls…)
//! and variation selectors are removed, full-width letters become ASCII, letters
//! are lowercased, combining marks dropped (`SENSİTİVİTY` → `sensitivity`), a few
//! Cyrillic and Greek look-alikes become their Latin letter, and `_`, `-`, `.` and
//! blanks are dropped. The folded key names a sensitivity when it is one of
//! [`SENSITIVITY_KEYS`], or, written as one word, within two edits (insert,
//! delete, replace, swap two neighbours) of one (`sensitivty`, `sensitivit`,
//! `clasification`) — except a few ordinary words that near (`clarification`,
//! `sensibility`).
//!
//! **Lines.** [`read_mark`] reads one line: after markdown decoration (`>`, list
//! markers, `#`, `|`, `**`/`__`/`*` around the key, quotes, `<!--`), a key that
//! names a sensitivity, then a separator and a value. With a *strong* separator
//! (`:`, `::`, `=`, `->`, a full-width or look-alike colon) the value is kept
//! whatever it is (an unknown value means secret). With a *weak* one (blanks only,
//! or a table's `|`) the line counts only when its value is at most three words of
//! which one is a level (`Sensitivity secret`, `| Sensitivity | secret |`), so
//! prose (`Sensitivity analysis shows…`) is not a mark. In a line holding `{`,
//! every member after `{` or `,` is read too (one-line JSON front matter
//! `{"title": "x", "sensitivity": "secret"}`); in a line holding `::`, a
//! bracketed Dataview field (`[sensitivity:: secret]`) too.
//!
//! **Where.** [`body_marks`] reads a body's head — its first [`HEAD_LINES`]
//! non-blank lines, outside fenced code, and in an entry file only up to its first
//! entry heading; a block at its start that was not taken for front matter (`%YAML`
//! directives, a `---` or `+++` up to its closing line) is read whole and not
//! counted — and, anywhere in it (same limits), the Dataview fields
//! (`sensitivity:: secret`), and any other mark whose value plainly names a level
//! that withholds the note (`**Sensitivity:** secret` on the 40th line: a secret
//! entry of a log cairn does not split into entries); a doubt past the head
//! (`Sensitivity: high`) is prose there. The caller takes the most restrictive of
//! the front matter's reading and every mark: a mark can raise a note's level,
//! never lower it. Past the head, inline code spans are blanked first (Dataview
//! reads no field in code), so a note that documents the syntax is not marked by it.

use std::borrow::Cow;

use crate::markdown::Fences;
use crate::model::Sensitivity;
use crate::plain_text::{code_spans_for_marks, latin_text, without_html_tags};
use crate::sensitivity::{DoubtReason, SENSITIVITY_KEYS, sensitivity_word};
use crate::table_marks::TableColumn;

/// How many non-blank lines of a body its head holds.
pub(crate) const HEAD_LINES: usize = 30;

/// Folded words within two edits of a key that are not one.
const NOT_KEYS: &[&str] = &[
    "clarification",
    "clarifications",
    "sensibility",
    "sensitively",
    "insensitively",
];

/// The key of a mark written without one: a banner (see `banners`).
pub(crate) const BANNER_KEY: &str = "banner";

/// One sensitivity mark found in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mark {
    /// The entry of [`SENSITIVITY_KEYS`] the line names; for a key that only
    /// states a level (`Status: confidential`), that key (`status`); for a
    /// banner, [`BANNER_KEY`].
    pub key: &'static str,
    /// The value, without decoration (for a weak separator: the level word found).
    pub value: String,
    /// Whether the separator was `::` (a Dataview inline field).
    pub dataview: bool,
}

impl Mark {
    /// The level this mark gives, or why it is doubt.
    pub(crate) fn level(&self) -> Result<Sensitivity, DoubtReason> {
        if self.value.trim().is_empty() {
            return Err(DoubtReason::Empty(self.key));
        }
        sensitivity_word(&self.value).ok_or(DoubtReason::UnknownValue(self.key))
    }
}

/// A mark and its 1-based file line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineMark {
    pub line: usize,
    pub mark: Mark,
}

/// Whether `c` is invisible: a Unicode format character (category Cf) or a
/// variation selector. Such characters never count in a key.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
}

pub(crate) fn is_combining(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// A Latin letter for a full-width form or a common Cyrillic/Greek look-alike,
/// in the case it looks (`Е` → `E`, `е` → `e`, `Η` → `H`, `η` → `n`).
pub(crate) fn latin(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
        // Mathematical letters (bold, italic, script, fraktur, double-struck,
        // sans-serif, monospace: `𝐂𝐎𝐍𝐅𝐈𝐃𝐄𝐍𝐓𝐈𝐀𝐋`), 52 to a style, capitals
        // first; and their digits, 10 to a style.
        '\u{1D400}'..='\u{1D6A3}' => {
            let k = (u32::from(c) - 0x1D400) % 52;
            let base = if k < 26 {
                u32::from(b'A')
            } else {
                u32::from(b'a') - 26
            };
            char::from_u32(base + k).unwrap_or(c)
        }
        '\u{1D7CE}'..='\u{1D7FF}' => {
            char::from_u32(u32::from(b'0') + (u32::from(c) - 0x1D7CE) % 10).unwrap_or(c)
        }
        // Letterlike symbols (`ℂ`, `ℝ`: the double-struck and script letters the
        // mathematical block leaves out).
        'ℂ' | 'ℭ' => 'C',
        'ℍ' | 'ℋ' | 'ℌ' => 'H',
        'ℕ' => 'N',
        'ℙ' => 'P',
        'ℚ' => 'Q',
        'ℝ' | 'ℛ' | 'ℜ' => 'R',
        'ℤ' | 'ℨ' => 'Z',
        'ℰ' => 'E',
        'ℱ' => 'F',
        'ℐ' | 'ℑ' => 'I',
        'ℒ' => 'L',
        'ℳ' => 'M',
        'ℬ' => 'B',
        'ℯ' => 'e',
        'ℊ' => 'g',
        'ℴ' => 'o',
        'ℎ' => 'h',
        // Small capitals (`ᴄᴏɴꜰɪᴅᴇɴᴛɪᴀʟ`) read as the capitals they show.
        'ᴀ' => 'A',
        'ʙ' => 'B',
        'ᴄ' => 'C',
        'ᴅ' => 'D',
        'ᴇ' => 'E',
        'ꜰ' => 'F',
        'ɢ' => 'G',
        'ʜ' => 'H',
        'ɪ' => 'I',
        'ᴊ' => 'J',
        'ᴋ' => 'K',
        'ʟ' => 'L',
        'ᴍ' => 'M',
        'ɴ' => 'N',
        'ᴏ' => 'O',
        'ᴘ' => 'P',
        'ʀ' => 'R',
        'ꜱ' => 'S',
        'ᴛ' => 'T',
        'ᴜ' => 'U',
        'ᴠ' => 'V',
        'ᴡ' => 'W',
        'ʏ' => 'Y',
        'ᴢ' => 'Z',
        'а' | 'α' => 'a',
        'А' | 'Α' => 'A',
        'Β' | 'В' => 'B',
        'с' | 'ϲ' => 'c',
        'С' | 'Ϲ' => 'C',
        'е' | 'ε' => 'e',
        'Е' | 'Ε' => 'E',
        'Η' | 'Н' | 'Һ' => 'H',
        'і' | 'ı' | 'ι' => 'i',
        'І' | 'Ι' | 'Ӏ' => 'I',
        'ӏ' => 'l',
        'ј' => 'j',
        'Ј' => 'J',
        'κ' | 'к' => 'k',
        'Κ' | 'К' => 'K',
        'ⅼ' => 'l',
        'Ⅼ' => 'L',
        'Μ' | 'М' => 'M',
        'Ν' => 'N',
        'η' | 'п' => 'n',
        'о' | 'ο' => 'o',
        'О' | 'Ο' => 'O',
        'р' | 'ρ' => 'p',
        'Р' | 'Ρ' => 'P',
        'ѕ' => 's',
        'Ѕ' => 'S',
        'т' | 'τ' => 't',
        'Т' | 'Τ' => 'T',
        'у' | 'υ' => 'y',
        'У' | 'Υ' => 'Y',
        'ν' => 'v',
        'Χ' | 'Х' => 'X',
        'Ζ' => 'Z',
        'һ' => 'h',
        'ԁ' => 'd',
        _ => c,
    }
}

/// `key` folded for comparison (see the module header); `None` when it is too long
/// to be a key.
pub(crate) fn fold(key: &str) -> Option<String> {
    let mut out = String::with_capacity(key.len());
    for c in key.chars() {
        if is_invisible(c) || is_combining(c) || matches!(c, '_' | '-' | '.') || c.is_whitespace() {
            continue;
        }
        for l in latin(c).to_lowercase() {
            if !is_combining(l) {
                out.push(latin(l));
            }
        }
        if out.len() > 64 {
            return None;
        }
    }
    Some(out)
}

/// Whether `a` and `b` are within `max` edits (optimal string alignment: insert,
/// delete, replace, swap two neighbours).
fn within(a: &[char], b: &[char], max: usize) -> bool {
    if a.len().abs_diff(b.len()) > max {
        return false;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, x) in d.iter_mut().take(w).enumerate() {
        *x = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        let mut row_min = i;
        for j in 1..w {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return false;
        }
    }
    d[a.len() * w + b.len()] <= max
}

/// The entry of [`SENSITIVITY_KEYS`] that `key` (as written) names, if any.
pub(crate) fn key_of(key: &str) -> Option<&'static str> {
    let folded = fold(key)?;
    if let Some(k) = SENSITIVITY_KEYS.iter().copied().find(|k| *k == folded) {
        return Some(k);
    }
    // Near matches: one word only, not an ordinary word that happens to near,
    // and not a key with letters added (`classification_id`,
    // `reclassification`, `classifications`, `insensitivity`: other words).
    if key.trim().chars().any(char::is_whitespace)
        || folded.len() < 8
        || NOT_KEYS.contains(&folded.as_str())
        || SENSITIVITY_KEYS.iter().any(|k| folded.contains(k))
    {
        return None;
    }
    let chars: Vec<char> = folded.chars().collect();
    SENSITIVITY_KEYS.iter().copied().find(|k| {
        let kc: Vec<char> = k.chars().collect();
        within(&chars, &kc, 2)
    })
}

/// Decoration that may stand before a key: blanks, quote and list markers,
/// headings, table pipes, emphasis, an HTML comment, a brace.
fn strip_lead(s: &str) -> &str {
    let mut s = s.trim_start();
    loop {
        let next = s
            .strip_prefix("<!--")
            // An Obsidian callout `[!warning]`, a footnote `[^1]:`, a task box
            // `[x]`, a markdown comment `[//]: # (`.
            .or_else(|| {
                ["[!", "[^"].iter().find_map(|open| {
                    let rest = s.strip_prefix(open)?;
                    let (_, after) = rest.split_once(']')?;
                    Some(
                        after
                            .strip_prefix(':')
                            .unwrap_or(after)
                            .trim_start_matches(['+', '-']),
                    )
                })
            })
            .or_else(|| {
                ["[ ]", "[x]", "[X]", "[//]: #"]
                    .iter()
                    .find_map(|p| s.strip_prefix(p))
            })
            // A symbol before the key (`🔒 Classification: SECRET`).
            .or_else(|| {
                let c = s.chars().next()?;
                (!c.is_ascii() && !c.is_alphanumeric()).then(|| &s[c.len_utf8()..])
            })
            .or_else(|| s.strip_prefix(['>', '-', '*', '+', '|', '#', '_', '{', '(', '[']))
            .or_else(|| {
                // An ordered-list marker: `1.` or `1)`.
                let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                (digits > 0)
                    .then(|| s[digits..].strip_prefix(['.', ')']))
                    .flatten()
                    .filter(|r| r.starts_with(char::is_whitespace))
            });
        match next {
            Some(rest) => s = rest.trim_start(),
            None => return s,
        }
    }
}

/// Characters trimmed around a key or a value.
pub(crate) fn is_decoration(c: char) -> bool {
    c.is_whitespace()
        || is_invisible(c)
        || matches!(c, '*' | '_' | '`' | '"' | '\'' | '|' | '~' | ']')
}

/// A value without its decoration and trailing punctuation; a `[[link]]` is its text.
fn clean_value(v: &str) -> String {
    let v = v.trim().strip_suffix("-->").unwrap_or(v);
    let v = v.trim_matches(|c: char| is_decoration(c) || matches!(c, ',' | ';' | '}' | ')' | ']'));
    let v = v.trim_end_matches(['.', '!']);
    let v = v
        .strip_prefix("[[")
        .map_or(v, |r| r.split([']', '|']).next().unwrap_or(r));
    v.trim_matches(|c: char| is_decoration(c)).to_owned()
}

/// A separator after a key: where it starts, how long it is, whether it is strong.
fn separator(s: &str) -> Option<(usize, usize, bool)> {
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i > 80 {
            return None;
        }
        let next = chars.peek().map(|&(_, n)| n);
        match c {
            ':' | '：' | '﹕' | '∶' | '꞉' | '˸' => return Some((i, c.len_utf8(), true)),
            '=' if next == Some('>') => return Some((i, 2, true)),
            '=' => return Some((i, 1, true)),
            '-' if next == Some('>') => return Some((i, 2, true)),
            '→' | '—' | '–' => return Some((i, c.len_utf8(), true)),
            '|' => return Some((i, 1, false)),
            _ => {}
        }
    }
    None
}

/// A key of a few words whose first or last word is a sensitivity key as such
/// (`Data sensitivity`, `Document classification`, `Sensitivity level for
/// this entry`); its value is then read as any mark's.
fn qualified_key(key: &str) -> Option<&'static str> {
    let words: Vec<&str> = key.split_whitespace().collect();
    if words.len() < 2 || words.len() > 5 {
        return None;
    }
    [words[0], words[words.len() - 1]]
        .into_iter()
        .filter_map(fold)
        .find_map(|w| SENSITIVITY_KEYS.iter().copied().find(|k| *k == w))
}

/// The most restrictive level word among at most three words, for a weak separator.
pub(crate) fn weak_value(v: &str) -> Option<String> {
    let words: Vec<&str> = v.split_whitespace().collect();
    if words.is_empty() || words.len() > 3 {
        return None;
    }
    words
        .iter()
        .filter_map(|w| sensitivity_word(&clean_value(w)))
        .max()
        .map(|s| s.as_str().to_owned())
}

/// A mark at the start of `s` (decoration already stripped).
fn keyed(s: &str) -> Option<Mark> {
    if let Some((at, len, strong)) = separator(s) {
        let key_text = s[..at].trim_matches(is_decoration);
        if !key_text.is_empty()
            && let Some(key) = key_of(key_text).or_else(|| qualified_key(key_text))
        {
            let rest = &s[at + len..];
            let dataview = rest.starts_with(':') && s[at..].starts_with(':');
            let rest = rest.strip_prefix([':', '：']).unwrap_or(rest);
            let value = if strong {
                Some(clean_value(rest))
            } else {
                weak_value(rest.trim_end().trim_end_matches('|'))
            };
            // A key of several words is prose unless its value is a level, of
            // a few words at most (`Data sensitivity: secret`, not
            // `sensitivity policy: secret notes sit next to the queries`).
            let value = value.filter(|v| {
                key_of(key_text).is_some() || {
                    let mut words = v
                        .split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty());
                    words.next().is_some_and(|w| sensitivity_word(w).is_some()) && words.count() < 4
                }
            });
            return value.map(|value| Mark {
                key,
                value,
                dataview,
            });
        }
    }
    if let Some(m) = stated(s) {
        return Some(m);
    }
    // Blanks only between key and value.
    let (word, rest) = s.split_once(char::is_whitespace)?;
    let key = key_of(word.trim_matches(is_decoration))?;
    Some(Mark {
        key,
        value: weak_value(rest)?,
        dataview: false,
    })
}

/// A key that is no sensitivity key but states a level (`Status:
/// confidential`, `**Security level:** secret`, `Privacy: Secret`: the front
/// matter's hint keys, see `hints`), when its value is plainly `confidential`
/// or `secret` (`top secret`, `strictly confidential`): a mark that can only
/// raise. Any other value is no mark (`Status: draft`, `Visibility: private`).
fn stated(s: &str) -> Option<Mark> {
    let (at, len, true) = separator(s)? else {
        return None;
    };
    // The value first: it is rarely a level word.
    if !crate::banners::worth_reading(&s[at + len..]) {
        return None;
    }
    let key = fold(s[..at].trim_matches(is_decoration))?;
    let key = crate::hints::LEVEL_KEYS
        .iter()
        .copied()
        .find(|k| *k == key)?;
    // The value up to a separator (`Status: Confidential — do not share`,
    // `Status: confidential (until launch)`).
    let rest = &s[at + len..];
    let rest = rest.split(['—', '–', '(', ',', ';']).next().unwrap_or(rest);
    let value = clean_value(rest).to_lowercase().replace('-', " ");
    let level = match value.split_whitespace().collect::<Vec<_>>()[..] {
        ["secret"] | ["top", "secret"] => Sensitivity::Secret,
        ["confidential"] | ["strictly" | "highly", "confidential"] => Sensitivity::Confidential,
        _ => return None,
    };
    Some(Mark {
        key,
        value: level.as_str().to_owned(),
        dataview: false,
    })
}

/// The sensitivity mark one line holds, if any (see the module header): a
/// keyed one, else a banner (`CONFIDENTIAL — do not share`, see `banners`).
pub(crate) fn read_mark(line: &str) -> Option<Mark> {
    with_plain_line(line, |clean, s| {
        if s.is_empty() {
            // A callout's type may be the banner (`> [!confidential]`).
            return crate::banners::banner(clean, s);
        }
        keyed_mark(clean, s).or_else(|| crate::banners::banner(clean, s))
    })
}

/// `f` of `line`'s plain text as a reader sees it (look-alikes, references,
/// HTML tags: `plain_text`) and of the same without its lead (`strip_lead`):
/// what every line reader of marks reads.
pub(crate) fn with_plain_line<T>(line: &str, f: impl FnOnce(&str, &str) -> T) -> T {
    let clean = without_html_tags(latin_text(line));
    f(&clean, strip_lead(&clean))
}

/// The mark with a sensitivity key one line holds, if any: what a front-matter
/// block's line scan reads (a banner there is a value's text, and a key that
/// only states a level, `security: secret`, the block's own hint: neither is a
/// key YAML missed).
pub(crate) fn read_keyed_mark(line: &str) -> Option<Mark> {
    with_plain_line(line, |clean, s| {
        (!s.is_empty())
            .then(|| keyed_mark(clean, s))
            .flatten()
            .filter(|m| SENSITIVITY_KEYS.contains(&m.key))
    })
}

/// A keyed mark in `clean` (the line's plain text), `s` being it without its lead.
fn keyed_mark(clean: &str, s: &str) -> Option<Mark> {
    if let Some(m) = keyed(s) {
        return Some(m);
    }
    // Several fields on one line (`**Owner:** Bob · **Sensitivity:** secret`),
    // or a lead-in before the key (`NOTE: sensitivity: secret`).
    if let Some(m) = s
        .split(['·', '•', ';', '|'])
        .skip(1)
        .chain(s.split_once([':', '：']).map(|(_, rest)| rest))
        .find_map(|seg| {
            // Only a plain level: a title `Sensitivity: a guide` is no mark.
            keyed(strip_lead(seg)).filter(|m| {
                m.value
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| sensitivity_word(w).is_some())
            })
        })
    {
        return Some(m);
    }
    if s.contains('{') || clean.trim_start().starts_with('{') {
        let mut members = s.split(['{', ',']).skip(1);
        if let Some(m) = members.find_map(|m| keyed(strip_lead(m))) {
            return Some(m);
        }
    }
    if s.contains("::") {
        // Bracketed Dataview fields: `[sensitivity:: secret]`, `(sensitivity:: x)`.
        for (i, c) in s.char_indices() {
            if matches!(c, '[' | '(') {
                let inner = &s[i + 1..];
                let inner = inner.split([']', ')']).next().unwrap_or(inner);
                if let Some(m) = keyed(inner.trim_start()).filter(|m| m.dataview) {
                    return Some(m);
                }
            }
        }
    }
    None
}

/// Where [`body_marks`] is with respect to a block at the body's start.
#[derive(Clone, Copy)]
enum Lead {
    /// Before the first non-blank line (or on directives `%…` before `---`).
    Before,
    /// Inside a block opened by `---` or `+++`, this many lines in.
    Inside(usize),
    /// Past it, or there was none.
    Done,
}

/// At most this many lines of a block at a body's start are read uncounted.
const MAX_LEAD_BLOCK: usize = 200;

/// The marks of a note's body (see the module header): its head's, and its
/// Dataview fields'. `first_line` is the body's 1-based file line; in an entry
/// file (`entry_file`) the body is read up to its first entry heading.
pub(crate) fn body_marks(body: &str, first_line: usize, entry_file: bool) -> Vec<LineMark> {
    let mut out = Vec::new();
    let fences = Fences::of(body);
    let mut seen = 0usize;
    let mut lead = Lead::Before;
    // The last non-blank line read: a key alone on it (`**Sensitivity:**`, a
    // definition list's term) takes its value from the next.
    let mut prev: Option<&str> = None;
    let mut table = TableColumn::default();
    for (i, line) in body.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if fences.is_code(i) {
            continue;
        }
        let before = prev.replace(line);
        if entry_file && crate::entries::entry_heading(t).is_some() {
            break;
        }
        // A block at the body's start that the splitter did not take for front
        // matter (` ---`, `%YAML 1.2` then `---`, a blank first line): its lines
        // are all read, and not counted.
        let uncounted = match lead {
            Lead::Before if t.starts_with('%') => true,
            Lead::Before if t.starts_with("---") || t.starts_with("+++") => {
                lead = Lead::Inside(0);
                true
            }
            Lead::Inside(n) if n < MAX_LEAD_BLOCK => {
                lead = if matches!(t, "---" | "..." | "+++") || t.starts_with("--- ") {
                    Lead::Done
                } else {
                    Lead::Inside(n + 1)
                };
                true
            }
            _ => {
                lead = Lead::Done;
                false
            }
        };
        if !uncounted {
            seen += 1;
        }
        let in_head = uncounted || seen <= HEAD_LINES;
        let rows = table.push(i, line);
        out.extend(
            rows.into_iter()
                .filter(|(_, m)| in_head || withholds(m))
                .map(|(at, mark)| LineMark {
                    line: first_line + at,
                    mark,
                }),
        );
        // Past the head only a line holding a level word (or a banner's word:
        // `classified`, `eyes only`) can hold a mark that counts.
        if !in_head && !t.contains("::") && !crate::banners::worth_reading(&latin_text(t)) {
            continue;
        }
        // Past the head a code span that holds a whole field documents the
        // syntax (Dataview reads no field in code); any other is read as text
        // (`**Sensitivity:** `secret``).
        let line = if in_head {
            Cow::Borrowed(line)
        } else {
            code_spans_for_marks(line)
        };
        // A mark without a value may take it from the line below its key.
        let read = match read_mark(&line) {
            Some(m) if !m.value.trim().is_empty() => Some(m),
            other => before.and_then(|b| value_below_key(b, &line)).or(other),
        };
        if let Some(mark) = read
            // Past the head, a value naming three levels or more describes them
            // (`sensitivity: internal 105, public 31, secret 5`); two may be a
            // correction (`~~internal~~ **secret**`), read as the higher.
            .filter(|m| {
                in_head || m.dataview || (levels_named(&m.value) <= 2 && plain_level(&m.value))
            })
            .and_then(|m| if uncounted { Some(m) } else { loose_mark(m) })
            .filter(|m| in_head || m.dataview || withholds(m))
        {
            out.push(LineMark {
                line: first_line + i,
                mark,
            });
        }
    }
    // A table at the end of the text.
    out.extend(table.finish().into_iter().map(|(at, mark)| LineMark {
        line: first_line + at,
        mark,
    }));
    let text: Vec<&str> = if out.iter().any(|m| m.mark.key == BANNER_KEY) {
        body.lines().collect()
    } else {
        Vec::new()
    };
    crate::level_lists::drop_level_descriptions(&mut out, &text, first_line, |i| fences.is_code(i));
    out
}

/// Whether `value` (past the head) plainly states a withholding level: one in
/// its first two words that ends there (`secret`, `TOP SECRET`, `secret, do not
/// share`, `Secret//NOFORN`), not one that starts a phrase (`secret keys rotate
/// monthly`, `secret sharing scheme`, `keys are kept secret in Vault`).
fn plain_level(value: &str) -> bool {
    let words: Vec<&str> = value.split_whitespace().collect();
    words.iter().take(2).enumerate().any(|(k, w)| {
        let w = w.trim_start_matches(|c: char| !c.is_alphanumeric());
        let run = w.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        sensitivity_word(run).is_some_and(|l| l >= Sensitivity::Confidential)
            && (run.len() < w.len()
                || words
                    .get(k + 1)
                    .is_none_or(|next| !next.starts_with(char::is_alphanumeric)))
    })
}

/// How many different levels the words of `value` name.
pub(crate) fn levels_named(value: &str) -> usize {
    let mut levels: Vec<Sensitivity> = value
        .split(|c: char| !c.is_alphanumeric())
        .filter_map(sensitivity_word)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    levels.len()
}

/// A mark written over two lines: `key` a key alone (`**Sensitivity:**`, a
/// definition list's term `Sensitivity`), `line` its value (`secret`, `- secret`,
/// `: secret`), at most three words of which one is a level.
fn value_below_key(key: &str, line: &str) -> Option<Mark> {
    let k = latin_text(key);
    let k = strip_lead(&k).trim_matches(|c: char| is_decoration(c) || matches!(c, ':' | '：'));
    let key = key_of(k)?;
    let v = latin_text(line);
    let v = strip_lead(v.trim_start().trim_start_matches([':', '：']));
    Some(Mark {
        key,
        value: weak_value(v.trim_end_matches('|'))?,
        dataview: false,
    })
}

/// Whether a loose mark past the head counts: only when it plainly names a
/// level that withholds the note (`**Sensitivity:** secret` under the 40th
/// line, a secret entry in a log cairn does not read as entries). A doubt
/// there (`Sensitivity: high`) is more often prose than a mark; in the head it
/// is secret.
fn withholds(m: &Mark) -> bool {
    m.level().is_ok_and(|s| s >= Sensitivity::Confidential)
}

/// A mark on a loose line of a body (not in a block: a line of its head, or a
/// Dataview field), read as such a line is meant: it is prose as often as a
/// mark. A value that is a level counts as that level; a value holding level
/// words counts as the highest of them (`Classification: TOP SECRET`,
/// `Secret//NOFORN`, `secret, do not share`); a value of one word that is not
/// a measure, under a `sensitivity` key, is doubt (`Sensitivity: top-secret`,
/// `Sensitivity: high`: secret). Anything else is prose and no mark:
/// `Classification: supervised`, `Sensitivity: 0.93`, `Sensitivity: true
/// positive rate, TP / (TP + FN)`.
fn loose_mark(mut m: Mark) -> Option<Mark> {
    if m.level().is_ok() {
        return Some(m);
    }
    let highest = m
        .value
        .split(|c: char| !c.is_alphanumeric())
        .filter_map(sensitivity_word)
        .max();
    if let Some(level) = highest {
        level.as_str().clone_into(&mut m.value);
        return Some(m);
    }
    let one_word = !m.value.trim().contains(char::is_whitespace);
    let measure = m
        .value
        .trim_start()
        .starts_with(|c: char| c.is_ascii_digit());
    (m.key.starts_with("sensitivity") && one_word && !measure).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_lines_count_levels_and_sensitivity_doubt_only() {
        let level = |body: &str| -> Vec<String> {
            body_marks(body, 1, false)
                .into_iter()
                .map(|m| m.mark.value)
                .collect()
        };
        let none: Vec<String> = Vec::new();
        for prose in [
            "# Model\n\nClassification: supervised learning\n",
            "Sensitivity: 0.93, specificity: 0.88\n",
            "Classification: Mammalia\n",
            "- **Sensitivity:** true positive rate, TP / (TP + FN)\n",
            "Sensitivity: see the table below\n",
            "classification:: supervised\n",
        ] {
            assert_eq!(level(prose), none, "{prose:?}");
        }
        for (mark, expect) in [
            ("Classification: confidential\n", "confidential"),
            ("Sensitivity: top-secret\n", "secret"),
            ("Sensitivity: high\n", "high"),
            ("Sensitivity: secret\n", "secret"),
            ("Classification: TOP SECRET\n", "secret"),
            ("Classification: Secret//NOFORN\n", "secret"),
            ("Sensitivity: secret, do not share\n", "secret"),
            // In a block the splitter did not take, every mark counts.
            (" ---\nclassification: supervised\n---\n", "supervised"),
            // A Dataview field holding a level counts wherever it is.
            ("classification:: restricted\n", "restricted"),
        ] {
            assert_eq!(level(mark), [expect], "{mark:?}");
        }
    }

    #[test]
    fn keys_fold_and_near() {
        for (key, hit) in [
            ("sensitivity", Some("sensitivity")),
            ("sensi\u{200b}tivity", Some("sensitivity")),
            ("sen\u{00ad}sitivity", Some("sensitivity")),
            ("SENSİTİVİTY", Some("sensitivity")),
            ("ｓｅｎｓｉｔｉｖｉｔｙ", Some("sensitivity")),
            ("sеnsitivity", Some("sensitivity")),
            ("sensitivty", Some("sensitivity")),
            ("sensitivit", Some("sensitivity")),
            ("sesnitivity", Some("sensitivity")),
            ("Clasification", Some("classification")),
            ("confidentiallity", Some("confidentiality")),
            ("Data Classification", Some("dataclassification")),
            ("sensitivity_level", Some("sensitivitylevel")),
            ("clarification", None),
            ("sensibility", None),
            ("sensitive", None),
            ("sensitivities", None),
            ("visibility", None),
            ("my sensitivity", None),
            ("a classification", None),
            ("sensitivity_notes", None),
            ("classification_id", None),
            ("reclassification", None),
            ("declassification", None),
            ("classifications", None),
            ("insensitivity", None),
            ("title", None),
        ] {
            assert_eq!(key_of(key), hit, "{key:?}");
        }
    }

    #[test]
    fn lines() {
        let secret = Some(("sensitivity", "secret"));
        for (line, expect) in [
            ("sensitivity: secret", secret),
            ("Sensitivity:: secret", secret),
            ("sensitivity = \"secret\"", secret),
            ("sensitivity：secret", secret),
            ("sensitivity -> secret", secret),
            ("sensitivity secret", secret),
            ("**Sensitivity:** secret", secret),
            ("- **Sensitivity:** secret", secret),
            ("__Sensitivity:__ secret", secret),
            ("*Sensitivity:* secret", secret),
            ("> **Sensitivity:** secret", secret),
            ("**Sensitivity**: secret", secret),
            ("| Sensitivity | secret |", secret),
            ("<!-- sensitivity: secret -->", secret),
            ("1. Sensitivity: secret", secret),
            ("{\"title\":\"x\",\"sensitivity\":\"secret\"}", secret),
            ("Status: draft [sensitivity:: secret]", secret),
            ("sensi\u{200b}tivity: secret", secret),
            (
                "Sensitivity: top secret",
                Some(("sensitivity", "top secret")),
            ),
            ("Sensitivity: high", Some(("sensitivity", "high"))),
            ("sensitivity:", Some(("sensitivity", ""))),
            ("Sensitivity is secret", secret),
            ("Sensitivity analysis shows a trend.", None),
            ("Sensitivity to light is not secret stuff", None),
            ("| Sensitivity | Meaning |", None),
            ("title: Sensitivity: a guide", None),
            ("Clarification: we meant the other one.", None),
            ("The sensitivity: high", None),
            ("---", None),
            ("", None),
        ] {
            let got = read_mark(line);
            assert_eq!(
                got.as_ref().map(|m| (m.key, m.value.as_str())),
                expect,
                "{line:?}"
            );
        }
    }

    #[test]
    fn past_the_head_only_a_withholding_level_counts() {
        let past = |line: &str| -> Vec<String> {
            let body = format!("# T\n\n{}{line}\n", "prose line\n".repeat(40));
            body_marks(&body, 1, false)
                .into_iter()
                .map(|m| m.mark.value)
                .collect()
        };
        for (line, expect) in [
            ("**Sensitivity:** secret", "secret"),
            ("- Classification: TOP SECRET", "secret"),
            ("| Sensitivity | confidential |", "confidential"),
            ("> *Sensitivity:* restricted", "restricted"),
            ("Sensitivity: secret, do not share", "secret"),
        ] {
            assert_eq!(past(line), [expect], "{line:?}");
        }
        for prose in [
            "Sensitivity: high",
            "Sensitivity: public",
            "Sensitivity: internal",
            "Sensitivity: 0.93 for secretory cells",
            "Classification: supervised",
            "Set `sensitivity: secret` in the front matter.",
            "The secret is kept elsewhere; sensitivity matters.",
        ] {
            assert_eq!(past(prose), Vec::<String>::new(), "{prose:?}");
        }
    }

    #[test]
    fn head_and_dataview() {
        let mut body = String::from("# T\n\n```\nsensitivity: secret\n```\n");
        for i in 0..40 {
            body.push_str(&format!("line {i}\n"));
        }
        body.push_str("Sensitivity: secret\nclassification:: confidential\n");
        body.push_str("Write (`sensitivity:: secret`) or ``a `sensitivity:: x` b``.\n");
        let marks = body_marks(&body, 5, false);
        assert_eq!(marks.len(), 2, "{marks:?}");
        assert_eq!(marks[0].mark.key, "sensitivity");
        assert_eq!(marks[0].line, 5 + 45);
        assert_eq!(marks[1].mark.key, "classification");
        assert_eq!(marks[1].line, 5 + 46);
        assert_eq!(
            code_spans_for_marks("a `b` c ``d`e`` f `sensitivity:: x` g `h"),
            "a b c d`e f   g `h"
        );
        // A block the splitter did not take, longer than the head, is read whole.
        let long = format!(
            " ---\n{}sensitivity: secret\n---\n# T\n",
            "key: value\n".repeat(40)
        );
        assert_eq!(body_marks(&long, 1, false).len(), 1);
        let long = format!(
            "%YAML 1.2\n---\n{}sensitivity: secret\n---\n",
            "k: v\n".repeat(40)
        );
        assert_eq!(body_marks(&long, 1, false).len(), 1);
        let entries = "intro\nsensitivity: public\n### [2026-01-01] E\nsensitivity: secret\n";
        assert_eq!(body_marks(entries, 1, true).len(), 1);
        assert_eq!(body_marks(entries, 1, false).len(), 2);
    }
}
