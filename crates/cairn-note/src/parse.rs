//! Bytes of one file → a [`Note`] plus diagnostics. Never panics, never fails on
//! content: a file is only refused when it is binary or empty.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde_yaml_ng::Value as Yaml;

use crate::frontmatter::{Block, split_frontmatter};
use crate::markdown::{link_target, scan_body};
use crate::model::{
    Diagnostic, Freshness, MemoryType, Note, Priority, Sensitivity, Severity, Status,
};
use crate::sensitivity::{DoubtReason, SensitivityReading, read_block};

/// The outcome of parsing one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The note, unless the file was refused.
    pub note: Option<Note>,
    /// What was wrong, with lines where known.
    pub diagnostics: Vec<Diagnostic>,
}

/// Keys cairn interprets; everything else goes to `Note::extra`.
const KNOWN_KEYS: &[&str] = &[
    "title",
    "description",
    "memory_type",
    "project_id",
    "scope",
    "sensitivity",
    "freshness",
    "source_of_truth",
    "retrieval_priority",
    "pinned",
    "status",
    "supersedes",
    "superseded_by",
    "triggers",
    "related_files",
    "related_memory",
    "tags",
    "aliases",
    "created",
    "date",
    "updated",
    "review_after",
];

/// Parses the bytes of the file at vault-relative `path` as one note.
///
/// [`crate::parse_file`] is the same, plus the split of `decisions.md` /
/// `lessons.md` entry files into one note per entry.
pub fn parse_note(path: &str, bytes: &[u8]) -> Parsed {
    parse_with_meta(path, bytes).0
}

/// What the entry splitter needs beyond the note: the frontmatter's own tags (the
/// note's `tags` also hold the body's inline tags, which belong to single entries).
#[derive(Debug, Clone, Default)]
pub(crate) struct FileMeta {
    pub frontmatter_tags: Vec<String>,
}

pub(crate) fn parse_with_meta(path: &str, bytes: &[u8]) -> (Parsed, FileMeta) {
    let mut meta = FileMeta::default();
    let mut diags = Vec::new();
    let diag = |line: Option<usize>, severity, code: &str, message: String| Diagnostic {
        path: path.to_owned(),
        line,
        severity,
        code: code.to_owned(),
        message,
    };

    let head = &bytes[..bytes.len().min(8192)];
    if head.contains(&0) {
        diags.push(diag(
            None,
            Severity::Error,
            "binary-file",
            "looks binary (NUL bytes); skipped".into(),
        ));
        return (
            Parsed {
                note: None,
                diagnostics: diags,
            },
            meta,
        );
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            diags.push(diag(
                Some(line),
                Severity::Warning,
                "invalid-utf8",
                "not valid UTF-8; invalid bytes replaced with U+FFFD".into(),
            ));
            String::from_utf8_lossy(bytes)
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let text = if text.contains('\r') {
        text.replace("\r\n", "\n")
    } else {
        text.to_owned()
    };
    if text.trim().is_empty() {
        diags.push(diag(
            None,
            Severity::Warning,
            "empty-note",
            "empty note; skipped".into(),
        ));
        return (
            Parsed {
                note: None,
                diagnostics: diags,
            },
            meta,
        );
    }

    let split = split_frontmatter(&text);
    let (body, body_line) = (split.body, split.body_line);
    let block = split.front;
    // The block's YAML, when it is closed and parses (any shape).
    let parsed: Option<Result<Yaml, serde_yaml_ng::Error>> = block
        .filter(Block::is_closed)
        .map(|b| serde_yaml_ng::from_str::<Yaml>(b.raw));
    // Sensitivity first: whether values may be quoted in diagnostics depends on it.
    let reading = match &block {
        None => SensitivityReading {
            sensitivity: Sensitivity::default(),
            doubt: None,
        },
        Some(b) => read_block(b, parsed.as_ref().and_then(|r| r.as_ref().ok())),
    };
    let quiet = reading.sensitivity == Sensitivity::Secret;
    if let Some(doubt) = &reading.doubt {
        diags.push(diag(
            doubt.line,
            Severity::Error,
            DoubtReason::CODE,
            doubt.reason.message(),
        ));
    }
    let mut fields = BTreeMap::<String, Yaml>::new();
    match (&block, parsed) {
        (None, _) => {}
        (Some(_), None) => diags.push(diag(
            Some(1),
            Severity::Warning,
            "frontmatter-unclosed",
            "frontmatter starts with `---` but never ends; read the whole file as text".into(),
        )),
        (Some(_), Some(Ok(Yaml::Mapping(map)))) => {
            for (k, v) in map {
                let key = match k {
                    Yaml::String(s) => s,
                    other => yaml_scalar_text(&other).unwrap_or_default(),
                };
                fields.insert(key, v);
            }
        }
        (Some(_), Some(Ok(Yaml::Null))) => {}
        (Some(b), Some(Ok(_))) => diags.push(diag(
            Some(b.raw_line),
            Severity::Warning,
            "frontmatter-shape",
            "frontmatter is not a key: value mapping; ignored".into(),
        )),
        (Some(b), Some(Err(e))) => {
            let line = e.location().map(|l| l.line() + b.raw_line - 1);
            // The parser's message can quote the note's text: not for a secret note.
            let detail = if quiet {
                String::new()
            } else {
                let msg = e.to_string();
                format!(" ({})", msg.split(" at line").next().unwrap_or(&msg))
            };
            diags.push(diag(
                line,
                Severity::Warning,
                "frontmatter-yaml",
                format!("malformed frontmatter{detail}; ignored, body still read"),
            ));
        }
    }

    let id = note_id(path);
    let stem = id.rsplit('/').next().unwrap_or(&id).to_owned();
    let parts = scan_body(body, body_line);
    let mut f = Fields {
        map: &fields,
        path,
        block: block.as_ref(),
        quiet,
        diags: &mut diags,
    };

    // Agent-memory shape: name / description / metadata.type.
    let metadata_type = match fields.get("metadata") {
        Some(Yaml::Mapping(m)) => m.get("type").and_then(yaml_scalar_text),
        _ => None,
    };
    let title = f
        .string("title")
        .or_else(|| {
            parts
                .headings
                .iter()
                .find(|h| h.level == 1)
                .map(|h| h.text.clone())
        })
        .or_else(|| fields.get("name").and_then(yaml_scalar_text))
        .unwrap_or(stem);
    let memory_type = match f.raw_text("memory_type").or(metadata_type) {
        Some(t) => f.keyword("memory_type", &t, MemoryType::parse),
        None => None,
    };
    let sensitivity = reading.sensitivity;
    let freshness = f.enum_field("freshness", Freshness::parse);
    let retrieval_priority = f.enum_field("retrieval_priority", Priority::parse);
    let status = f.enum_field("status", Status::parse).unwrap_or_default();
    let frontmatter_tags: Vec<String> = f
        .list("tags")
        .into_iter()
        .map(|t| t.trim_start_matches('#').to_lowercase())
        .filter(|t| !t.is_empty())
        .collect();
    meta.frontmatter_tags = frontmatter_tags.clone();
    let mut tags: Vec<String> = frontmatter_tags.into_iter().chain(parts.tags).collect();
    tags.sort();
    tags.dedup();

    let note = Note {
        description: f.string("description"),
        memory_type,
        project_id: f.string("project_id"),
        scope: f.string("scope"),
        sensitivity,
        freshness,
        source_of_truth: f.boolean("source_of_truth"),
        retrieval_priority,
        pinned: f.boolean("pinned"),
        status,
        supersedes: f.links("supersedes"),
        superseded_by: f.links("superseded_by"),
        triggers: f.list("triggers"),
        related_files: f.list("related_files"),
        related_memory: f.links("related_memory"),
        aliases: f.list("aliases"),
        created: f.date("created").or_else(|| f.date("date")),
        updated: f.date("updated"),
        review_after: f.date("review_after"),
        extra: fields
            .iter()
            .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), yaml_to_json(v)))
            .collect(),
        tags,
        title,
        id,
        path: path.to_owned(),
        headings: parts.headings,
        wikilinks: parts.wikilinks,
        body: body.to_owned(),
        body_line,
        size: bytes.len() as u64,
        mtime: None,
        entry_of: None,
    };
    diags.sort();
    (
        Parsed {
            note: Some(note),
            diagnostics: diags,
        },
        meta,
    )
}

/// `dir/Note Name.md` → `dir/Note Name`.
pub fn note_id(path: &str) -> String {
    let p = path.replace('\\', "/");
    for ext in [".md", ".markdown", ".MD", ".Md"] {
        if let Some(stripped) = p.strip_suffix(ext) {
            return stripped.to_owned();
        }
    }
    p
}

/// Lenient typed access to frontmatter fields; type mistakes become diagnostics.
struct Fields<'a> {
    map: &'a BTreeMap<String, Yaml>,
    path: &'a str,
    /// The frontmatter block, for key lines.
    block: Option<&'a Block<'a>>,
    /// The note is secret: messages never quote a value.
    quiet: bool,
    diags: &'a mut Vec<Diagnostic>,
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

    /// ` `value`` to quote in a message, or nothing for a secret note.
    fn quote(&self, value: &str) -> String {
        if self.quiet {
            String::new()
        } else {
            format!(" `{value}`")
        }
    }

    fn raw_text(&mut self, key: &str) -> Option<String> {
        let v = self.map.get(key)?;
        match yaml_scalar_text(v) {
            Some(s) => Some(s),
            None if matches!(v, Yaml::Null) => None,
            None => {
                self.warn(key, "expected a single value; ignored".into());
                None
            }
        }
    }

    fn string(&mut self, key: &str) -> Option<String> {
        self.raw_text(key)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    }

    fn keyword<T>(&mut self, key: &str, text: &str, parse: fn(&str) -> Option<T>) -> Option<T> {
        let parsed = parse(text);
        if parsed.is_none() && !text.trim().is_empty() {
            let value = self.quote(text.trim());
            self.warn(key, format!("unknown value{value}; using the default"));
        }
        parsed
    }

    fn enum_field<T>(&mut self, key: &str, parse: fn(&str) -> Option<T>) -> Option<T> {
        let text = self.raw_text(key)?;
        self.keyword(key, &text, parse)
    }

    fn boolean(&mut self, key: &str) -> bool {
        match self.map.get(key) {
            None | Some(Yaml::Null) => false,
            Some(Yaml::Bool(b)) => *b,
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
    fn list(&mut self, key: &str) -> Vec<String> {
        let Some(v) = self.map.get(key) else {
            return Vec::new();
        };
        let items: Vec<String> = match v {
            Yaml::Null => Vec::new(),
            Yaml::Sequence(seq) => {
                let mut out = Vec::new();
                for item in seq {
                    match yaml_scalar_text(item) {
                        Some(s) => out.push(s),
                        None if matches!(item, Yaml::Null) => {}
                        // `- [[link]]` parses as a nested list: flatten it.
                        None => out.extend(flatten_links(item)),
                    }
                }
                out
            }
            other => match yaml_scalar_text(other) {
                Some(s) => s.split(',').map(str::to_owned).collect(),
                None => {
                    let flat = flatten_links(other);
                    if flat.is_empty() {
                        self.warn(key, "expected a list of words; ignored".into());
                    }
                    flat
                }
            },
        };
        items
            .into_iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    }

    fn links(&mut self, key: &str) -> Vec<String> {
        self.list(key)
            .iter()
            .map(|s| link_target(s))
            .filter(|s| !s.is_empty())
            .collect()
    }

    fn date(&mut self, key: &str) -> Option<NaiveDate> {
        let text = self.raw_text(key)?;
        let t = text.trim();
        if t.is_empty() {
            return None;
        }
        let parsed = parse_date(t);
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
}

/// `YYYY-MM-DD`, optionally followed by a time (`T13:56`, ` 10:00:00Z`, ...).
pub fn parse_date(t: &str) -> Option<NaiveDate> {
    let head = t.get(..10)?;
    let rest = &t[10..];
    if !rest.is_empty() && !rest.starts_with(['T', 't', ' ']) {
        return None;
    }
    NaiveDate::parse_from_str(head, "%Y-%m-%d").ok()
}

/// A YAML `[[link]]` written bare parses as nested one-element sequences.
fn flatten_links(v: &Yaml) -> Vec<String> {
    match v {
        Yaml::Sequence(seq) => seq.iter().flat_map(flatten_links).collect(),
        other => yaml_scalar_text(other).into_iter().collect(),
    }
}

fn yaml_scalar_text(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Bool(b) => Some(b.to_string()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Tagged(t) => yaml_scalar_text(&t.value),
        _ => None,
    }
}

fn yaml_to_json(v: &Yaml) -> serde_json::Value {
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
