//! Reading a note's sensitivity with certainty, or not at all: the one rule the
//! reader, the write path and lint share. Doubt means secret.
//!
//! A key is *sensitivity-like* when, folded (lowercased; without `_`, `-`, `.`,
//! blanks, invisible format characters and combining marks), it is one of
//! [`SENSITIVITY_KEYS`] (so `Sensitivity`, `SENSITIVITY`, `data-classification`,
//! `SENSİTİVİTY`), or, written as one word, within two edits of one
//! (`sensitivty`; see `marks`), at any nesting (`metadata: {sensitivity: …}`). Each
//! such key must hold one word that resolves to a level: the four levels
//! themselves (`public`, `internal`, `confidential`, `secret`, any ASCII case) or
//! a synonym of [`SYNONYMS`] (which only ever name `confidential`). The note's
//! sensitivity is that level when every sensitivity-like key resolves to the same
//! one. It is `secret`, with a [`Doubt`], when
//!
//! - a value is an unknown word (`top-secret`), empty, a list (`[secret]`), a
//!   mapping, a number or a boolean;
//! - two sensitivity-like keys resolve to different levels;
//! - the block does not parse (a duplicate key, a syntax error anywhere), or
//!   parses to something other than key: value pairs (`sensitivity = secret` is
//!   one YAML string), and a line-level scan finds a sensitivity-like key in it
//!   (any indentation, quoted, inside a flow mapping `{sensitivity: x}`; in TOML
//!   also a dotted key `extra.sensitivity = x`, a table header `[sensitivity]` or
//!   an inline table; and any line the one line reader of `marks` reads as a
//!   mark: `sensitivity = x`, `sensitivity：x`, `sensitivity secret`), whatever
//!   its value.
//!
//! The note's level is then raised by every mark of its body's head (its first
//! 30 non-blank lines, and Dataview fields `sensitivity:: x` anywhere), and by
//! every mark further down that plainly names `confidential` or `secret` (see
//! `marks`): a mark can raise the level, never lower it, and a mark in the head
//! whose value is not a known level makes the note secret. So a block that is not recognised
//! at all (a blank first line, ` ---`, `%YAML 1.2` before `---`, one-line JSON)
//! still marks its note.
//!
//! The rule is the same for YAML, TOML and JSON front matter: each is read into
//! one value tree (see `formats`), and each has its line-level scan.
//!
//! A block that does not parse and names no such key keeps the default
//! (`internal`): an ordinary post with `title: Foo: bar` is not hidden, only
//! reported. When it parses once such values are quoted (see `formats`), its
//! fields are read and its keys that state a level (`tags: [secret]`) raise it
//! as in a block that parses. When it does not, a line holding the word
//! `secret` or `confidential` is doubt (it may be such a key: `tags: [secret`).
//! Doubts never quote a value: they name the key and the line.

use serde_yaml_ng::Value as Yaml;

use crate::frontmatter::{Block, FrontmatterKind, Split};
use crate::marks::LineMark;
use crate::model::Sensitivity;

/// Sensitivity-like key names, as compared: lowercase ASCII without `_`, `-`, `.`
/// or spaces. Words with other common meanings in blog and docs front matter
/// (`visibility`, `access`, `private`, `level`) are deliberately not here.
pub const SENSITIVITY_KEYS: &[&str] = &[
    "sensitivity",
    "sensitivitylevel",
    "sensitivitylabel",
    "classification",
    "dataclassification",
    "securityclassification",
    "informationclassification",
    "confidentiality",
    "confidentialitylevel",
    // The same keys in other languages (their values, in the same language,
    // are synonyms below or doubt, so secret).
    "sensibilite",
    "sensibilité",
    "confidentialite",
    "confidentialité",
    "vertraulichkeit",
    "einstufung",
    "geheimhaltungsstufe",
    "confidencialidad",
    "clasificacion",
    "clasificación",
    "riservatezza",
    "機密区分",
    "機密性",
    "密级",
];

/// Documented synonyms (any ASCII case) and the level they stand for. None is
/// lower than `confidential`.
pub const SYNONYMS: &[(&str, Sensitivity)] = &[
    ("private", Sensitivity::Confidential),
    ("restricted", Sensitivity::Confidential),
    ("sensitive", Sensitivity::Confidential),
    ("geheim", Sensitivity::Secret),
    ("streng geheim", Sensitivity::Secret),
    ("vertraulich", Sensitivity::Confidential),
    ("secreto", Sensitivity::Secret),
    ("confidencial", Sensitivity::Confidential),
    ("confidentiel", Sensitivity::Confidential),
    ("segreto", Sensitivity::Secret),
    ("riservato", Sensitivity::Confidential),
    ("極秘", Sensitivity::Secret),
    ("秘密", Sensitivity::Secret),
    ("機密", Sensitivity::Secret),
    ("社外秘", Sensitivity::Confidential),
    ("绝密", Sensitivity::Secret),
    ("机密", Sensitivity::Secret),
];

/// What a sensitivity reading found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SensitivityReading {
    /// The level to apply: the declared one when certain, `secret` on doubt,
    /// `internal` when nothing was declared.
    pub sensitivity: Sensitivity,
    /// Why the level could not be read with certainty.
    pub doubt: Option<Doubt>,
    /// A line of the body that raised the level and that holds no
    /// sensitivity key (a banner, `Status: confidential`): cairn's reading of
    /// the author's words, which `cairn lint` names so that a line not meant
    /// as a mark can be reworded (a mark can only raise a level).
    pub raised_by: Option<Raise>,
}

/// A line that raised a note's level without a sensitivity key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Raise {
    /// 1-based file line.
    pub line: usize,
    /// The level it gave.
    pub level: Sensitivity,
    /// Whether it was a banner (`CONFIDENTIAL — do not share`); else a key
    /// that only states a level (`Status: confidential`).
    pub banner: bool,
}

/// Why a sensitivity is in doubt, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doubt {
    /// 1-based file line of the key concerned, when known.
    pub line: Option<usize>,
    /// What was wrong.
    pub reason: DoubtReason,
}

/// What made a sensitivity doubtful. Keys are named by their entry in
/// [`SENSITIVITY_KEYS`], never as written, and values are never carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DoubtReason {
    /// The value is not a known level or synonym.
    UnknownValue(&'static str),
    /// The value is empty.
    Empty(&'static str),
    /// The value is a list, a mapping, a number, a boolean or tagged.
    NotOneWord(&'static str),
    /// Sensitivity-like keys resolve to different levels.
    Disagree(&'static str),
    /// The block does not parse and holds this key.
    Unparsed(&'static str),
    /// A line reads as this key, but YAML reads it as part of another value (a
    /// multi-line string): what the author meant is unclear.
    Ambiguous(&'static str),
    /// The block does not parse and a line of it holds this level's word
    /// (`tags: [secret`, `security: confidential` beside a syntax error): it may
    /// be a key that states a level, which cannot be read.
    UnparsedLevelWord(&'static str),
}

impl DoubtReason {
    /// The stable diagnostic code of every doubt.
    pub const CODE: &'static str = "sensitivity-doubt";

    /// One sentence, naming the key and no value.
    pub fn message(&self) -> String {
        let known = "public, internal, confidential, secret";
        let what = match self {
            DoubtReason::UnknownValue(k) => {
                format!("`{k}` has a value that is not a known level ({known})")
            }
            DoubtReason::Empty(k) => format!("`{k}` is empty"),
            DoubtReason::NotOneWord(k) => {
                format!("`{k}` is not one word (a list, mapping, number or boolean)")
            }
            DoubtReason::Disagree(k) => {
                format!("`{k}` and another sensitivity-like key disagree")
            }
            DoubtReason::Unparsed(k) => {
                format!("the frontmatter does not parse as key: value pairs and names `{k}`")
            }
            DoubtReason::Ambiguous(k) => {
                format!("a line reads as `{k}` but YAML reads it as part of another value")
            }
            DoubtReason::UnparsedLevelWord(w) => {
                format!(
                    "the frontmatter does not parse and a line of it says `{w}` (a tag or key that states a level cannot be read)"
                )
            }
        };
        format!("{what}; treated as secret until fixed")
    }
}

/// One value of a sensitivity-like key, as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value<'a> {
    /// One word (a YAML string, or an entry field's text).
    Word(&'a str),
    /// Nothing (`sensitivity:`, `~`, `""`).
    Empty,
    /// Anything else.
    Other,
}

/// One occurrence of a sensitivity-like key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Occurrence<'a> {
    pub key: &'static str,
    pub line: Option<usize>,
    pub value: Value<'a>,
}

/// The entry of [`SENSITIVITY_KEYS`] that `key` names, if any: compared folded
/// (invisible characters, case, marks, look-alikes, `_`, `-`, `.` and blanks
/// aside), or, for a one-word key, within two edits (see `marks`).
pub fn sensitivity_key(key: &str) -> Option<&'static str> {
    crate::marks::key_of(key)
}

/// The level one word names: a level (any ASCII case) or a synonym; `None` for
/// anything else.
pub fn sensitivity_word(word: &str) -> Option<Sensitivity> {
    let w = word.trim();
    Sensitivity::ALL
        .iter()
        .copied()
        .find(|s| w.eq_ignore_ascii_case(s.as_str()))
        .or_else(|| {
            SYNONYMS
                .iter()
                .find(|(syn, _)| w.eq_ignore_ascii_case(syn))
                .map(|&(_, s)| s)
        })
}

/// The rule: the occurrences of sensitivity-like keys → one level, or secret with
/// a doubt. No occurrence → `internal`.
pub(crate) fn resolve(occurrences: &[Occurrence<'_>]) -> SensitivityReading {
    let doubt = |line, reason| SensitivityReading {
        sensitivity: Sensitivity::Secret,
        doubt: Some(Doubt { line, reason }),
        raised_by: None,
    };
    let mut found: Option<(Sensitivity, &'static str)> = None;
    for o in occurrences {
        let level = match o.value {
            Value::Word(w) if w.trim().is_empty() => {
                return doubt(o.line, DoubtReason::Empty(o.key));
            }
            Value::Word(w) => match sensitivity_word(w) {
                Some(s) => s,
                None => return doubt(o.line, DoubtReason::UnknownValue(o.key)),
            },
            Value::Empty => return doubt(o.line, DoubtReason::Empty(o.key)),
            Value::Other => return doubt(o.line, DoubtReason::NotOneWord(o.key)),
        };
        match found {
            Some((s, _)) if s != level => return doubt(o.line, DoubtReason::Disagree(o.key)),
            _ => found = Some((level, o.key)),
        }
    }
    SensitivityReading {
        sensitivity: found.map_or_else(Sensitivity::default, |(s, _)| s),
        doubt: None,
        raised_by: None,
    }
}

/// The sensitivity of a note's text, by the rule every part of cairn applies (the
/// reader's [`crate::parse_note`] included): its front matter's reading, raised by
/// every mark of its body's head (see `marks`). An entry of an entry file can only
/// raise it (see [`crate::parse_file`]).
pub fn read_sensitivity(text: &str) -> SensitivityReading {
    let text = crate::frontmatter::normalize_line_breaks(text);
    let split = crate::frontmatter::split_frontmatter(&text);
    let parsed = split
        .front
        .as_ref()
        .and_then(crate::formats::parse_block)
        .and_then(Result::ok);
    let mut reading = read_note(&split, parsed.as_ref(), false);
    // The body's `#secret` tags, as the parser reads them.
    let tags = crate::markdown::scan_body(split.body, split.body_line).tags;
    if let Some(level) = crate::hints::tags_level(&tags) {
        reading.sensitivity = reading.sensitivity.max(level);
    }
    reading
}

/// The sensitivity of a split note: its block's (`parsed` is the block's value
/// when it parsed), then the most restrictive of that and each mark of the body
/// (`entry_file`: read only up to the first entry heading). The first doubt is
/// kept: the block's, else the first mark's.
pub(crate) fn read_note(
    split: &Split<'_>,
    parsed: Option<&Yaml>,
    entry_file: bool,
) -> SensitivityReading {
    let mut reading = match &split.front {
        Some(block) => read_block(block, parsed),
        None => SensitivityReading {
            sensitivity: Sensitivity::default(),
            doubt: None,
            raised_by: None,
        },
    };
    let marks = crate::marks::body_marks(split.body, split.body_line, entry_file);
    let before = reading.sensitivity;
    raise(&mut reading, &marks);
    if reading.doubt.is_none() && reading.sensitivity > before {
        reading.raised_by = marks
            .iter()
            .find(|m| m.mark.level().ok() == Some(reading.sensitivity))
            .filter(|m| !SENSITIVITY_KEYS.contains(&m.mark.key))
            .map(|m| Raise {
                line: m.line,
                level: reading.sensitivity,
                banner: m.mark.key == crate::marks::BANNER_KEY,
            });
    }
    reading
}

/// Raises `reading` to every mark's level (an unknown value is doubt: secret).
pub(crate) fn raise(reading: &mut SensitivityReading, marks: &[LineMark]) {
    for m in marks {
        match m.mark.level() {
            Ok(level) => reading.sensitivity = reading.sensitivity.max(level),
            Err(reason) => {
                reading.sensitivity = Sensitivity::Secret;
                reading.doubt.get_or_insert(Doubt {
                    line: Some(m.line),
                    reason,
                });
            }
        }
    }
}

/// The sensitivity of a front-matter block. `parsed` is the block's YAML when it
/// parsed (any shape), `None` when it did not.
pub(crate) fn read_block(block: &Block<'_>, parsed: Option<&Yaml>) -> SensitivityReading {
    let lines = scan_lines(block.raw, block.raw_line, block.kind);
    // A block that parses to something other than key: value pairs (`sensitivity =
    // secret` is one YAML string) is read as one that does not parse.
    let mapping = |v: &&Yaml| matches!(v, Yaml::Mapping(_) | Yaml::Null);
    let Some(value) = parsed.filter(mapping).filter(|_| block.is_closed()) else {
        // Unparsed (or never closed): any sensitivity-like key is doubt.
        return match lines.first() {
            Some(&(line, key)) => SensitivityReading {
                sensitivity: Sensitivity::Secret,
                doubt: Some(Doubt {
                    line: Some(line),
                    reason: DoubtReason::Unparsed(key),
                }),
                raised_by: None,
            },
            // Without such a key, a block that parses once the values YAML cannot
            // read unquoted are quoted (`title: Incident: x`) has its fields
            // read (see `parse`): its keys that state a level (`tags: [secret]`)
            // raise it as they would in a block that parses.
            // Else a block that does not parse (or never closes) and holds a
            // level's word on a line (`tags: [secret`) may say a level no one
            // can read: doubt.
            None => match crate::formats::parse_yaml_quoting_values(block) {
                Some((map, _)) => SensitivityReading {
                    sensitivity: crate::hints::hinted_level(&Yaml::Mapping(map))
                        .unwrap_or_default()
                        .max(Sensitivity::default()),
                    doubt: None,
                    raised_by: None,
                },
                None => match level_word_line(block) {
                    Some((line, word)) => SensitivityReading {
                        sensitivity: Sensitivity::Secret,
                        doubt: Some(Doubt {
                            line: Some(line),
                            reason: DoubtReason::UnparsedLevelWord(word),
                        }),
                        raised_by: None,
                    },
                    None => SensitivityReading {
                        sensitivity: Sensitivity::default(),
                        doubt: None,
                        raised_by: None,
                    },
                },
            },
        };
    };
    let mut occurrences = Vec::new();
    walk(value, &mut occurrences);
    // A line that looks like such a key but that YAML read as part of another
    // value (a multi-line string) is doubt too.
    for &(line, key) in &lines {
        let scanned = lines.iter().filter(|(_, k)| *k == key).count();
        let parsed = occurrences.iter().filter(|o| o.key == key).count();
        if scanned > parsed {
            return SensitivityReading {
                sensitivity: Sensitivity::Secret,
                doubt: Some(Doubt {
                    line: Some(line),
                    reason: DoubtReason::Ambiguous(key),
                }),
                raised_by: None,
            };
        }
    }
    // Lines come from the scan: the n-th occurrence of a key name takes the n-th
    // line naming it, else the first line naming any such key.
    let mut seen: Vec<&'static str> = Vec::new();
    for o in &mut occurrences {
        let n = seen.iter().filter(|k| **k == o.key).count();
        seen.push(o.key);
        o.line = lines
            .iter()
            .filter(|(_, k)| *k == o.key)
            .nth(n)
            .or(lines.first())
            .map_or(block.raw_line, |&(l, _)| l)
            .into();
    }
    // In document order (a TOML table's keys come sorted by name).
    occurrences.sort_by_key(|o| o.line);
    let mut reading = resolve(&occurrences);
    // Keys that state a level plainly (`security: secret`) can only raise it.
    if let Some(level) = crate::hints::hinted_level(value) {
        reading.sensitivity = reading.sensitivity.max(level);
    }
    reading
}

/// The first line (1-based, in the file) of a block that holds the word `secret`
/// or `confidential` (any case, a whole word: `top-secret` holds it, `secrets`
/// does not), with the word; comment lines are skipped. Of a block never closed
/// (the whole file after its opener, read as text) only the lines before the
/// first blank one are read: those the author meant as the block.
fn level_word_line(block: &Block<'_>) -> Option<(usize, &'static str)> {
    let closed = block.is_closed();
    let lines = block
        .raw
        .lines()
        .take_while(|line| closed || !line.trim().is_empty());
    lines.enumerate().find_map(|(i, line)| {
        // A comment line states nothing (`# sensitivity: secret` was left out).
        if line.trim_start().starts_with('#') {
            return None;
        }
        line.split(|c: char| !c.is_alphanumeric())
            .find_map(|w| {
                ["secret", "confidential"]
                    .into_iter()
                    .find(|level| w.eq_ignore_ascii_case(level))
            })
            .map(|w| (block.raw_line + i, w))
    })
}

/// Every sensitivity-like key of a parsed YAML value, in document order.
fn walk<'a>(v: &'a Yaml, out: &mut Vec<Occurrence<'a>>) {
    match v {
        Yaml::Mapping(m) => {
            for (k, val) in m {
                if let Some(key) = yaml_key_text(k).and_then(sensitivity_key) {
                    out.push(Occurrence {
                        key,
                        line: None,
                        value: match val {
                            Yaml::String(s) => Value::Word(s),
                            Yaml::Null => Value::Empty,
                            _ => Value::Other,
                        },
                    });
                }
                walk(val, out);
            }
        }
        Yaml::Sequence(seq) => seq.iter().for_each(|x| walk(x, out)),
        Yaml::Tagged(t) => walk(&t.value, out),
        _ => {}
    }
}

/// The text of a YAML string, through any tags (`!x "a"`); `None` for anything else.
pub(crate) fn yaml_key_text(k: &Yaml) -> Option<&str> {
    match k {
        Yaml::String(s) => Some(s),
        Yaml::Tagged(t) => yaml_key_text(&t.value),
        _ => None,
    }
}

/// The lines of `raw` (whose first line is file line `first_line`) that name a
/// sensitivity-like key, as a line-level scan sees them without parsing: at any
/// indentation, after list markers (`- `) or an explicit-key marker (`? `),
/// quoted or bare, or after `{` / `,` in a flow mapping. JSON lines are read as
/// YAML lines (a JSON object is a YAML flow mapping); TOML lines by their own scan.
pub(crate) fn scan_lines(
    raw: &str,
    first_line: usize,
    kind: FrontmatterKind,
) -> Vec<(usize, &'static str)> {
    let scan: fn(&str) -> Option<&'static str> = match kind {
        FrontmatterKind::Toml => toml_line_key,
        FrontmatterKind::Yaml | FrontmatterKind::Json => line_key,
    };
    let mut out = Vec::new();
    for (i, line) in raw.lines().enumerate() {
        // A line the syntax's scan does not read may still be a mark written
        // another way (`sensitivity = secret` in YAML, `sensitivity: x` in TOML,
        // `sensitivity：x`); comment lines are not.
        let key = scan(line).or_else(|| {
            (!line.trim_start().starts_with('#'))
                .then(|| crate::marks::read_keyed_mark(line).map(|m| m.key))
                .flatten()
        });
        if let Some(key) = key {
            out.push((first_line + i, key));
        }
    }
    out
}

/// The first sensitivity-like key one TOML line names, if any: a key before `=`
/// (a dotted key names each of its parts), a key of an inline table (after `{` or
/// `,`), or a part of a table header (`[a.sensitivity]`, `[[sensitivity]]`).
fn toml_line_key(line: &str) -> Option<&'static str> {
    let t = line.trim();
    if t.starts_with('#') {
        return None;
    }
    if let Some(header) = t.strip_prefix('[')
        && !t.contains('=')
    {
        let header = header.trim_start_matches('[');
        let header = header.split(']').next().unwrap_or(header);
        return dotted_key(header);
    }
    let mut quote: Option<char> = None;
    let mut seg = 0;
    let mut chars = line.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | ',' | '[') => seg = i + 1,
            (None, '=') => {
                if let Some(k) = dotted_key(&line[seg..i]) {
                    return Some(k);
                }
            }
            (None, '#') => return None,
            _ => {}
        }
    }
    None
}

/// The first part of a (possibly dotted, possibly quoted) TOML key that is
/// sensitivity-like.
fn dotted_key(key: &str) -> Option<&'static str> {
    key.split('.').find_map(|part| {
        let p = part.trim();
        let p = p
            .strip_prefix('"')
            .and_then(|p| p.strip_suffix('"'))
            .or_else(|| p.strip_prefix('\'').and_then(|p| p.strip_suffix('\'')))
            .unwrap_or(p);
        sensitivity_key(p)
    })
}

/// The first sensitivity-like key one line names, if any.
fn line_key(line: &str) -> Option<&'static str> {
    let t = line.trim_start();
    if t.starts_with('#') {
        return None;
    }
    // Explicit key without a colon on its line: `? sensitivity`.
    if let Some(rest) = strip_markers(t).strip_prefix('?') {
        let cand = rest.split(':').next().unwrap_or(rest);
        if let Some(k) = candidate(cand) {
            return Some(k);
        }
    }
    // Colons outside quoted strings; the key text runs from the line's start or
    // the last flow delimiter (`{`, `[`, `,`) outside strings.
    let mut quote: Option<char> = None;
    let mut seg = 0;
    let mut prev: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => {
                // `''` inside a single-quoted string is an escaped quote.
                if q == '\'' && chars.peek().is_some_and(|&(_, n)| n == '\'') {
                    chars.next();
                } else {
                    quote = None;
                }
            }
            (Some(_), _) => {}
            (None, '"' | '\'')
                if prev.is_none_or(|p| p.is_whitespace() || matches!(p, '{' | '[' | ',' | ':')) =>
            {
                quote = Some(c);
            }
            (None, '{' | '[' | ',') => seg = i + 1,
            (None, ':') => {
                if let Some(k) = candidate(&line[seg..i]) {
                    return Some(k);
                }
            }
            (None, '#') if prev.is_some_and(char::is_whitespace) => return None,
            _ => {}
        }
        prev = Some(c);
    }
    None
}

/// List and explicit-key markers in front of a key: `- `, `- - `, `? `.
fn strip_markers(mut t: &str) -> &str {
    loop {
        let s = t.trim_start();
        match s
            .strip_prefix('-')
            .filter(|r| r.is_empty() || r.starts_with([' ', '\t']))
        {
            Some(rest) => t = rest,
            None => return s,
        }
    }
}

/// Whether key text (quotes, markers and blanks around it allowed) is a
/// sensitivity-like key.
fn candidate(text: &str) -> Option<&'static str> {
    let t = strip_markers(text);
    let t = t.strip_prefix('?').map_or(t, str::trim_start).trim_end();
    let quoted = t.len() >= 2
        && ((t.starts_with('"') && t.ends_with('"')) || (t.starts_with('\'') && t.ends_with('\'')));
    if !quoted {
        return sensitivity_key(t);
    }
    // Escapes (`"sens\x69tivity"`) are resolved as YAML would.
    match serde_yaml_ng::from_str::<String>(t) {
        Ok(s) => sensitivity_key(&s),
        Err(_) => sensitivity_key(&t[1..t.len() - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_scan() {
        for (line, hit) in [
            ("sensitivity: secret", true),
            ("  Sensitivity : x", true),
            ("\"SENSITIVITY\": x", true),
            ("'classification': x", true),
            ("metadata: {a: 1, sensitivity: x}", true),
            ("- sensitivity: x", true),
            ("? sensitivity", true),
            ("\"sens\\x69tivity\": x", true),
            ("data-classification: x", true),
            ("title: Foo: bar", false),
            ("title: \"a, sensitivity: b\"", false),
            ("title: 'it''s, sensitivity: b'", false),
            ("title: don't, sensitivity: b", true),
            ("a: 1 # sensitivity: x", false),
            ("description: my sensitivity: notes", false),
            ("# sensitivity: secret", false),
            ("sensitivity_notes: x", false),
            ("visibility: x", false),
        ] {
            assert_eq!(line_key(line).is_some(), hit, "{line:?}");
        }
    }

    #[test]
    fn toml_line_scan() {
        for (line, hit) in [
            ("sensitivity = \"secret\"", true),
            ("  Sensitivity = 'x'", true),
            ("\"SENSITIVITY\" = \"x\"", true),
            ("extra.sensitivity = \"x\"", true),
            ("[extra.sensitivity]", true),
            ("[[sensitivity]]", true),
            ("[extra]", false),
            ("extra = { a = 1, sensitivity = \"x\" }", true),
            ("title = \"a, sensitivity = b\"", false),
            ("a = 1 # sensitivity = x", false),
            ("# sensitivity = secret", false),
            ("sensitivity_notes = \"x\"", false),
        ] {
            assert_eq!(toml_line_key(line).is_some(), hit, "{line:?}");
        }
    }

    #[test]
    fn words() {
        assert_eq!(sensitivity_word("SECRET"), Some(Sensitivity::Secret));
        assert_eq!(sensitivity_word(" Internal "), Some(Sensitivity::Internal));
        assert_eq!(sensitivity_word("Private"), Some(Sensitivity::Confidential));
        assert_eq!(sensitivity_word("top-secret"), None);
        assert_eq!(sensitivity_word("in-ternal"), None);
    }
}
