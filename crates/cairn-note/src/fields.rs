//! Lenient typed access to front-matter values, whatever the block's syntax (all
//! arrive as one YAML value tree): type mistakes become diagnostics and defaults,
//! never errors.
//!
//! Properties as Obsidian writes them are read as meant: a bare `[[link]]` (which
//! YAML reads as a list in a list) is its link text, tags may be a list or one
//! string (comma or space separated, `#` dropped), and template placeholders
//! (`{{date}}`, `{{title}}`, Templater's `<% … %>`) are values not filled in yet:
//! absent, without a warning.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde_yaml_ng::Value as Yaml;

use crate::frontmatter::Block;
use crate::markdown::{link_target, wikilinks};
use crate::model::{Diagnostic, Severity};

/// Front-matter fields by key.
pub(crate) type Map = BTreeMap<String, Yaml>;

/// Lenient typed access to frontmatter fields; type mistakes become diagnostics.
pub(crate) struct Fields<'a> {
    pub map: &'a Map,
    pub path: &'a str,
    /// The frontmatter block, for key lines.
    pub block: Option<&'a Block<'a>>,
    /// The note is confidential or secret: messages never quote a value.
    pub quiet: bool,
    pub diags: &'a mut Vec<Diagnostic>,
}

impl Fields<'_> {
    fn warn(&mut self, key: &str, message: String) {
        self.diags.push(Diagnostic {
            path: self.path.to_owned(),
            line: self.block.and_then(|b| b.key_line(key)),
            severity: Severity::Warning,
            code: "frontmatter-value".into(),
            message: format!("`{key}`: {message}"),
        });
    }

    /// The value in backticks, after a space, to quote in a message; nothing for a
    /// confidential or secret note.
    fn quote(&self, value: &str) -> String {
        if self.quiet {
            String::new()
        } else {
            format!(" `{value}`")
        }
    }

    /// The value at a dotted path (`taxonomies.tags`), if any; for a plain key
    /// absent at the top, the one in the table where a site generator keeps a
    /// page's own keys: Zola's `[extra]` (the only place it accepts them), Hugo's
    /// `params`.
    fn get(&self, key: &str) -> Option<&Yaml> {
        self.at(key).or_else(|| {
            if key.contains('.') {
                return None;
            }
            ["extra", "params"]
                .iter()
                .find_map(|table| match self.map.get(*table)? {
                    Yaml::Mapping(m) => m.get(key),
                    _ => None,
                })
        })
    }

    /// The value at a dotted path, as written.
    fn at(&self, key: &str) -> Option<&Yaml> {
        let mut parts = key.split('.');
        let mut v = self.map.get(parts.next()?)?;
        for p in parts {
            v = match v {
                Yaml::Mapping(m) => m.get(p)?,
                _ => return None,
            };
        }
        Some(v)
    }

    pub(crate) fn raw_text(&mut self, key: &str) -> Option<String> {
        let v = self.get(key)?;
        if is_placeholder(v) {
            return None;
        }
        match scalar_or_link(v) {
            Some(s) => Some(s),
            None if matches!(v, Yaml::Null) => None,
            None => {
                self.warn(key, "expected a single value; ignored".into());
                None
            }
        }
    }

    /// A single value read without a warning when it is of the wrong type: for
    /// keys other tools use too (`summary`, `lastmod`), which cairn reads only when
    /// they fit.
    pub(crate) fn quiet_text(&self, key: &str) -> Option<String> {
        let v = self.get(key)?;
        if is_placeholder(v) {
            return None;
        }
        scalar_or_link(v)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    }

    pub(crate) fn string(&mut self, key: &str) -> Option<String> {
        self.raw_text(key)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    }

    pub(crate) fn keyword<T>(
        &mut self,
        key: &str,
        text: &str,
        parse: fn(&str) -> Option<T>,
    ) -> Option<T> {
        let parsed = parse(text);
        if parsed.is_none() && !text.trim().is_empty() && !is_placeholder_text(text) {
            let value = self.quote(text.trim());
            self.warn(key, format!("unknown value{value}; using the default"));
        }
        parsed
    }

    pub(crate) fn enum_field<T>(&mut self, key: &str, parse: fn(&str) -> Option<T>) -> Option<T> {
        let text = self.raw_text(key)?;
        self.keyword(key, &text, parse)
    }

    pub(crate) fn boolean(&mut self, key: &str) -> bool {
        match self.get(key) {
            None | Some(Yaml::Null) => false,
            Some(Yaml::Bool(b)) => *b,
            Some(v) if is_placeholder(v) => false,
            Some(v) => match yaml_scalar_text(v).map(|s| s.to_lowercase()).as_deref() {
                Some("true" | "yes" | "on" | "1") => true,
                Some("false" | "no" | "off" | "0" | "") => false,
                _ => {
                    self.warn(key, "expected true or false; using false".into());
                    false
                }
            },
        }
    }

    /// A list, or one string (split on commas).
    pub(crate) fn list(&mut self, key: &str) -> Vec<String> {
        self.items(key, &[','], true)
    }

    /// `related_files`, each read by [`related_file`]; a value that can match
    /// no repository path is kept, and a warning says what to write.
    pub(crate) fn related_files(&mut self) -> Vec<String> {
        let files = self.list("related_files");
        files
            .into_iter()
            .map(|raw| {
                let (file, warning) = related_file(&raw);
                if let Some(says) = warning {
                    let q = self.quote(&raw);
                    self.warn(
                        "related_files",
                        format!("{q} {says}").trim_start().to_owned(),
                    );
                }
                file
            })
            .collect()
    }

    /// Tags: a list, or one string split on commas and blanks; `#` dropped,
    /// lowercase.
    pub(crate) fn tags(&mut self, key: &str, warn: bool) -> Vec<String> {
        self.items(key, &[',', ' ', '\t'], warn)
            .into_iter()
            .map(|t| t.trim_start_matches('#').to_lowercase())
            .filter(|t| !t.is_empty())
            .collect()
    }

    fn items(&mut self, key: &str, separators: &[char], warn: bool) -> Vec<String> {
        let Some(v) = self.get(key) else {
            return Vec::new();
        };
        let items: Vec<String> = match v {
            Yaml::Null => Vec::new(),
            v if is_placeholder(v) => Vec::new(),
            Yaml::Sequence(seq) => {
                let mut out = Vec::new();
                for item in seq {
                    match yaml_scalar_text(item) {
                        Some(s) if is_placeholder_text(&s) => {}
                        Some(s) => out.push(s),
                        None if matches!(item, Yaml::Null) || is_placeholder(item) => {}
                        // `- [[link]]` parses as a nested list: flatten it.
                        None => out.extend(flatten_links(item)),
                    }
                }
                out
            }
            other => {
                if let Some(s) = yaml_scalar_text(other) {
                    s.split(separators).map(str::to_owned).collect()
                } else {
                    let flat = flatten_links(other);
                    if flat.is_empty() && warn {
                        self.warn(key, "expected a list of words; ignored".into());
                    }
                    flat
                }
            }
        };
        items
            .into_iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    }

    pub(crate) fn links(&mut self, key: &str) -> Vec<String> {
        self.list(key)
            .iter()
            .map(|s| link_target(s))
            .filter(|s| !s.is_empty())
            .collect()
    }

    pub(crate) fn date(&mut self, key: &str) -> Option<NaiveDate> {
        let text = self.raw_text(key)?;
        let t = text.trim();
        if t.is_empty() || is_placeholder_text(t) {
            return None;
        }
        let parsed = parse_date(t).or_else(|| epoch_date(t));
        if parsed.is_none() {
            let value = if self.quiet {
                "the value".to_owned()
            } else {
                format!("`{t}`")
            };
            self.warn(key, format!("{value} is not a date (YYYY-MM-DD); ignored"));
        }
        parsed
    }

    /// A date under a key other tools use too (`lastmod`): read when it is one,
    /// never a warning.
    pub(crate) fn quiet_date(&self, key: &str) -> Option<NaiveDate> {
        self.quiet_text(key)
            .and_then(|t| parse_date(&t).or_else(|| epoch_date(&t)))
    }
}

/// A front-matter date written as a Unix time: 13 digits of milliseconds
/// (Dendron's `created: 1595952505038`) or 10 of seconds, the day it falls on
/// in UTC. Only in front matter, where a number under a date key is a time;
/// never in prose.
fn epoch_date(t: &str) -> Option<NaiveDate> {
    if !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: i64 = match t.len() {
        10 => t.parse().ok()?,
        13 => t.parse::<i64>().ok()? / 1000,
        _ => return None,
    };
    chrono::DateTime::from_timestamp(secs, 0).map(|d| d.date_naive())
}

/// `YYYY-MM-DD`, optionally followed by a time (`T13:56`, ` 10:00:00Z`, ...); a
/// bare year (`2015`) or year and month (`2015-07`) read as their first day.
pub fn parse_date(t: &str) -> Option<NaiveDate> {
    let t = t.trim();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if t.len() == 4 && digits(t) {
        return NaiveDate::from_ymd_opt(t.parse().ok()?, 1, 1);
    }
    if t.len() == 7
        && let (Some(y), Some("-"), Some(m)) = (t.get(..4), t.get(4..5), t.get(5..))
        && digits(y)
        && digits(m)
    {
        return NaiveDate::from_ymd_opt(y.parse().ok()?, m.parse().ok()?, 1);
    }
    let head = t.get(..10)?;
    let rest = &t[10..];
    if !rest.is_empty() && !rest.starts_with(['T', 't', ' ']) {
        return None;
    }
    NaiveDate::parse_from_str(head, "%Y-%m-%d").ok()
}

/// Whether a value is a template placeholder not filled in yet: a string holding
/// `{{…}}` or `<%…%>`, or what YAML makes of an unquoted `{{date}}` (a mapping
/// whose only key is a mapping, without a value).
pub(crate) fn is_placeholder(v: &Yaml) -> bool {
    match v {
        Yaml::String(s) => is_placeholder_text(s),
        Yaml::Mapping(m) if m.len() == 1 => m
            .iter()
            .next()
            .is_some_and(|(k, v)| matches!(v, Yaml::Null) && matches!(k, Yaml::Mapping(_))),
        Yaml::Tagged(t) => is_placeholder(&t.value),
        _ => false,
    }
}

/// Whether text holds a template placeholder (`{{date}}`, `<% tp.file.title %>`).
pub(crate) fn is_placeholder_text(s: &str) -> bool {
    let has = |open: &str, close: &str| {
        s.find(open)
            .is_some_and(|at| s[at + open.len()..].contains(close))
    };
    // A date format written where the date goes (`YYYY-MM-DD`, `DD/MM/YYYY`).
    let format_pattern = s.len() >= 4
        && s.contains("YYYY")
        && s.chars()
            .all(|c| matches!(c, 'Y' | 'M' | 'D' | '-' | '/' | '.' | ' '));
    has("{{", "}}") || has("<%", "%>") || format_pattern
}

/// A YAML `[[link]]` written bare parses as nested one-element sequences.
fn flatten_links(v: &Yaml) -> Vec<String> {
    match v {
        Yaml::Sequence(seq) => seq.iter().flat_map(flatten_links).collect(),
        other => yaml_scalar_text(other).into_iter().collect(),
    }
}

/// One related file as written: a path from the repository's root,
/// `/`-separated (a Windows `src\\x.rs` is `src/x.rs`; a leading `./` or `/`
/// is the root). A glob pattern (`*`, `?`: brackets are literal, as in
/// `app/[id]/page.tsx`) stands for the folder before its first wildcard
/// (`tiles/functions/*.sql` is `tiles/functions/`: all its files, a little more
/// than the pattern). With what is wrong when it can match no repository path:
/// a pattern with no folder before its wildcard (`**/*.rs`), a path from a home
/// folder or a drive (`~/`, `C:/`), the root itself (`.`, `./`, `/`).
pub(crate) fn related_file(raw: &str) -> (String, Option<&'static str>) {
    let f = raw.replace('\\', "/");
    let f = f.trim_start_matches("./");
    let bytes = f.as_bytes();
    let from_elsewhere = f.starts_with('~')
        || (bytes.len() > 2 && bytes[0].is_ascii_alphabetic() && &bytes[1..3] == b":/");
    let folder = f
        .find(['*', '?'])
        .map(|at| f[..at].rfind('/').map_or("", |end| &f[..=end]));
    if matches!(f.trim_matches('/'), "" | ".") {
        return (
            f.to_owned(),
            Some(
                "names the repository's root, which stands for no file in particular \
                 and matches none: name the files or folders the note is about (`src/platform/`)",
            ),
        );
    }
    match folder {
        Some(folder) if !folder.trim_matches('/').is_empty() => (folder.to_owned(), None),
        Some(_) => (
            f.to_owned(),
            Some(
                "is a glob pattern with no folder before its wildcard, which matches no \
                 file: name a file, or a folder for all its files (`src/platform/`)",
            ),
        ),
        None if from_elsewhere => (
            f.to_owned(),
            Some(
                "is not a path from the repository's root, which related files are \
                 (`src/evaluator.rs`)",
            ),
        ),
        None => (f.to_owned(), None),
    }
}

/// A scalar's text, or the text of a bare `[[link]]` (a one-element list in a
/// one-element list: `status: [[Published]]` → `Published`).
fn scalar_or_link(v: &Yaml) -> Option<String> {
    yaml_scalar_text(v).or_else(|| bare_link(v))
}

/// The text of a bare `[[link]]` value.
fn bare_link(v: &Yaml) -> Option<String> {
    match v {
        Yaml::Sequence(outer) if outer.len() == 1 => match &outer[0] {
            Yaml::Sequence(inner) if inner.len() == 1 => yaml_scalar_text(&inner[0]),
            _ => None,
        },
        _ => None,
    }
}

/// Every link a front-matter value holds: bare `[[links]]` and `"[[links]]"` in
/// strings, at any depth, in order.
pub(crate) fn property_links(v: &Yaml, out: &mut Vec<String>) {
    if let Some(text) = bare_link(v) {
        out.push(link_target(&text));
        return;
    }
    match v {
        Yaml::String(s) => out.extend(wikilinks(s)),
        Yaml::Sequence(seq) => seq.iter().for_each(|x| property_links(x, out)),
        Yaml::Mapping(m) => m.values().for_each(|x| property_links(x, out)),
        Yaml::Tagged(t) => property_links(&t.value, out),
        _ => {}
    }
}

pub(crate) fn yaml_scalar_text(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Bool(b) => Some(b.to_string()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Tagged(t) => yaml_scalar_text(&t.value),
        _ => None,
    }
}

pub(crate) fn yaml_to_json(v: &Yaml) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Yaml::Null => J::Null,
        Yaml::Bool(b) => J::Bool(*b),
        Yaml::Number(n) => {
            if let Some(i) = n.as_i64() {
                J::from(i)
            } else if let Some(u) = n.as_u64() {
                J::from(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map_or(J::Null, J::Number)
            }
        }
        Yaml::String(s) => J::String(s.clone()),
        Yaml::Sequence(seq) => J::Array(seq.iter().map(yaml_to_json).collect()),
        Yaml::Mapping(m) => J::Object(
            m.iter()
                .map(|(k, v)| (yaml_scalar_text(k).unwrap_or_default(), yaml_to_json(v)))
                .collect(),
        ),
        Yaml::Tagged(t) => yaml_to_json(&t.value),
    }
}
