//! Bytes of one file → a [`Note`] plus diagnostics. Never panics, never fails on
//! content: a file is only refused when it is binary or empty.
//!
//! Front matter in YAML, TOML or JSON maps to the same fields (see the README's
//! "What cairn reads"): besides cairn's own keys, `summary` stands for
//! `description`, `lastmod`/`modified` for `updated`, `alias` for `aliases`, and
//! tags are read from `tags` (or `tag`), Zola's `[taxonomies] tags` and `[extra]
//! tags`. Links in any property count as links of the note.

use serde_yaml_ng::Value as Yaml;

use crate::fields::{Fields, Map, property_links, yaml_scalar_text, yaml_to_json};
use crate::formats::{parse_block, parse_yaml_quoting_values};
use crate::frontmatter::{FrontmatterKind, normalize_line_breaks, split_frontmatter};
use crate::markdown::scan_body;
use crate::model::{
    Diagnostic, Freshness, MemoryType, Note, Priority, Sensitivity, Severity, Status, TriggerTerms,
};
use crate::sensitivity::{DoubtReason, read_note};
use crate::title::fallback_title;

pub use crate::fields::parse_date;

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
    "superseded-by",
    "replaced_by",
    "replaced-by",
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

/// Keys whose values are links already (`Note::supersedes`, ...): not counted
/// again as property links.
const LINK_KEYS: &[&str] = &[
    "supersedes",
    "superseded_by",
    "superseded-by",
    "replaced_by",
    "replaced-by",
    "related_memory",
];

/// Parses the bytes of the file at vault-relative `path` as one note.
///
/// [`crate::parse_file`] is the same, plus the split of `decisions.md` /
/// `lessons.md` entry files into one note per entry.
pub fn parse_note(path: &str, bytes: &[u8]) -> Parsed {
    parse_with_meta(path, bytes).0
}

/// Whether a file is not text: a NUL byte in its first 8 KiB.
fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8192)].contains(&0)
}

/// The text a note is read from: without a byte order mark, every line break `\n`
/// (`\r\n`, a lone `\r`, U+2028, U+2029, U+0085).
fn normalized(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    normalize_line_breaks(text).into_owned()
}

/// The body [`crate::parse_file`] gives the one note of the file at `path`
/// (the text after its front matter), without parsing the rest: for a note
/// whose metadata is known (cached for the same content) and whose body is
/// needed. `None` where the parse would do more than that or nothing: an
/// entry file (`decisions.md`: a note per entry), a file that is not plain
/// UTF-8 text, an empty one.
pub fn body_of(path: &str, bytes: &[u8]) -> Option<String> {
    if crate::entries::entry_file_type(path).is_some() || looks_binary(bytes) {
        return None;
    }
    let text = normalized(std::str::from_utf8(bytes).ok()?);
    if text.trim().is_empty() {
        return None;
    }
    Some(split_frontmatter(&text).body.to_owned())
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

    if looks_binary(bytes) {
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
    let text = normalized(&text);
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
    // The block's value tree, when it is closed and parses (any shape).
    let parsed = block.as_ref().and_then(parse_block);
    // Sensitivity first: whether values may be quoted in diagnostics depends on it.
    // The body's head can raise it (an entry file's up to its first entry).
    let entry_file = crate::entries::entry_file_type(path).is_some();
    let reading = read_note(
        &split,
        parsed.as_ref().and_then(|r| r.as_ref().ok()),
        entry_file,
    );
    // A diagnostic never quotes a value of a note whose content is not shown
    // (confidential or secret): an agent reads diagnostics (explain, MCP).
    let quiet = reading.sensitivity >= Sensitivity::Confidential;
    if let Some(doubt) = &reading.doubt {
        diags.push(diag(
            doubt.line,
            Severity::Error,
            DoubtReason::CODE,
            doubt.reason.message(),
        ));
    }
    // A level read from words without a sensitivity key: said, so that a line
    // not meant as a mark can be reworded (a mark can only raise a level).
    if let Some(r) = &reading.raised_by {
        let what = if r.banner {
            "a banner (a level stamped without a key)"
        } else {
            "a key that states a level"
        };
        diags.push(diag(
            Some(r.line),
            Severity::Info,
            "sensitivity-mark",
            format!(
                "this line reads as {what} and makes the note {}; if it is not meant as a mark, reword it (a mark can only raise a level)",
                r.level.as_str()
            ),
        ));
    }
    let mut fields = Map::new();
    match (&block, parsed) {
        (None, _) => {}
        (Some(b), None) => diags.push(diag(
            Some(1),
            Severity::Warning,
            "frontmatter-unclosed",
            format!(
                "frontmatter starts with `{}` but never ends; read the whole file as text",
                b.opener.trim_end()
            ),
        )),
        (Some(_), Some(Ok(Yaml::Mapping(map)))) => read_fields(map, &mut fields),
        (Some(_), Some(Ok(Yaml::Null))) => {}
        (Some(b), Some(Ok(_))) => diags.push(diag(
            Some(b.raw_line),
            Severity::Warning,
            "frontmatter-shape",
            "frontmatter is not a key: value mapping; ignored".into(),
        )),
        (Some(b), Some(Err(e))) => {
            if let Some((map, quoted)) = parse_yaml_quoting_values(b) {
                // Values written unquoted that YAML cannot read (`title: Incident:
                // cookie path`): the fields are read with them quoted, and each is
                // reported. The sensitivity was read from the block as written.
                read_fields(map, &mut fields);
                for (line, key) in quoted {
                    diags.push(diag(
                        Some(line),
                        Severity::Warning,
                        "frontmatter-unquoted",
                        format!(
                            "`{key}`'s value is not valid YAML unquoted (it holds `: ` or starts with `@`, `` ` `` or `%`); read as the text written: quote it to fix (`{key}: \"...\"`)"
                        ),
                    ));
                }
            } else {
                // The parser's message can quote the note's text: not for a secret note.
                let detail = if quiet {
                    String::new()
                } else {
                    format!(" ({})", e.message)
                };
                let what = match b.kind {
                    FrontmatterKind::Yaml => "malformed frontmatter".to_owned(),
                    other => format!("malformed {} frontmatter", other.name()),
                };
                diags.push(diag(
                    e.line,
                    Severity::Warning,
                    b.kind.error_code(),
                    format!("{what}{detail}; ignored, body still read"),
                ));
            }
        }
    }

    // Without front matter, the properties a page opens with (Logseq's).
    if block.is_none() {
        crate::page_properties::read(body, &mut fields);
    }

    let id = note_id(path);
    let stem = id.rsplit('/').next().unwrap_or(&id).to_owned();
    let parts = scan_body(body, body_line);
    // A `#secret` tag in the text raises the note as one in the front matter does.
    let tagged = crate::hints::tags_level(&parts.tags);
    let quiet = quiet || tagged.is_some_and(|l| l >= Sensitivity::Confidential);
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
    let title = f.string("title").unwrap_or_else(|| {
        let name = f.quiet_text("name");
        fallback_title(path, &stem, &parts.headings, name)
    });
    // Another tool's `type` (an Obsidian property: `type: constraint`) or
    // `metadata.type` (`learning`, `insight`) is read when it is one of cairn's
    // types, quietly otherwise (`type: article`): only `memory_type` is cairn's key.
    // A `type` property names a kind of knowledge only: `type: person` marks
    // a contact, not the developer's profile; `project` and `session` mark a
    // vault's own structure, not an overview or a session log (each has a
    // place of its own in the packet).
    let memory_type = match f.raw_text("memory_type") {
        Some(t) => f.keyword("memory_type", &t, MemoryType::parse),
        None => f
            .quiet_text("type")
            .and_then(|t| MemoryType::parse(t.trim_start_matches("[[").trim_end_matches("]]")))
            .filter(|t| {
                !matches!(
                    t,
                    MemoryType::Person | MemoryType::Project | MemoryType::Session
                )
            })
            .or_else(|| metadata_type.as_deref().and_then(MemoryType::parse)),
    };
    let sensitivity = reading
        .sensitivity
        .max(tagged.unwrap_or(Sensitivity::Public));
    let freshness = f.enum_field("freshness", Freshness::parse);
    let retrieval_priority = f.enum_field("retrieval_priority", Priority::parse);
    // Other tools' lifecycle words (`implementable`, `draft`, `published`) are
    // theirs: the note stays in force, quietly. Only a retiring word retires it.
    // A decision record without front matter keeps its status and date in its
    // body (`## Status`, `- Status: superseded by ...`, `Date: 2016-02-13`).
    let in_body = crate::in_body::read(body);
    let status_word = f
        .raw_text("status")
        .map(|t| t.trim().to_lowercase())
        .filter(|t| !t.is_empty())
        .or_else(|| in_body.status_word.clone());
    let status = status_word
        .as_deref()
        .and_then(Status::parse)
        .unwrap_or_default();
    let mut frontmatter_tags: Vec<String> = f.tags("tags", true);
    for key in ["tag", "taxonomies.tags", "extra.tags"] {
        for t in f.tags(key, false) {
            // `tags` absent at the top read `[extra] tags` already.
            if !frontmatter_tags.contains(&t) {
                frontmatter_tags.push(t);
            }
        }
    }
    meta.frontmatter_tags.clone_from(&frontmatter_tags);
    let mut tags: Vec<String> = frontmatter_tags.into_iter().chain(parts.tags).collect();
    tags.sort();
    tags.dedup();
    let mut aliases = f.list("aliases");
    aliases.extend(f.list("alias"));
    aliases.dedup();
    // Links in properties, then in the body.
    let mut wikilinks: Vec<String> = Vec::new();
    for (key, value) in &fields {
        if !LINK_KEYS.contains(&key.as_str()) {
            property_links(value, &mut wikilinks);
        }
    }
    for link in parts.wikilinks {
        if !wikilinks.contains(&link) {
            wikilinks.push(link);
        }
    }
    wikilinks.retain(|l| !l.is_empty());
    let mut seen = std::collections::HashSet::new();
    wikilinks.retain(|l| seen.insert(l.clone()));

    let note = Note {
        description: f.string("description").or_else(|| f.quiet_text("summary")),
        memory_type,
        project_id: f.string("project_id"),
        scope: f.string("scope"),
        sensitivity,
        freshness,
        source_of_truth: f.boolean("source_of_truth"),
        retrieval_priority,
        pinned: f.boolean("pinned"),
        status,
        status_word,
        supersedes: {
            let mut links = f.links("supersedes");
            if links.is_empty() {
                links = in_body.supersedes;
            }
            links
        },
        superseded_by: {
            let mut by = f.links("superseded_by");
            for key in ["superseded-by", "replaced_by", "replaced-by"] {
                by.extend(f.links(key));
            }
            if by.is_empty() {
                by = in_body.superseded_by;
            }
            by
        },
        triggers: f.list("triggers"),
        trigger_terms: TriggerTerms::default(),
        related_files: {
            // A body's own field line (`related_files:: src/a.rs`, as Dataview
            // writes it; `**Related files:** x`) adds to the front matter's.
            let mut files = f.related_files();
            if crate::entries::entry_file_type(path).is_none() {
                for file in crate::entries::body_related_files(body) {
                    if !files.contains(&file) {
                        files.push(file);
                    }
                }
            }
            files
        },
        related_memory: f.links("related_memory"),
        aliases,
        created: f
            .date("created")
            .or_else(|| f.date("date"))
            .or(in_body.date),
        updated: f
            .date("updated")
            .or_else(|| f.quiet_date("lastmod"))
            .or_else(|| f.quiet_date("modified")),
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
        wikilinks,
        body: body.to_owned(),
        body_line,
        size: bytes.len() as u64,
        mtime: None,
        committed: None,
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

/// A block's top-level keys and values into the note's field map (a key that is
/// not a string is read as its text).
fn read_fields(map: serde_yaml_ng::Mapping, fields: &mut Map) {
    for (k, v) in map {
        let key = match k {
            Yaml::String(s) => s,
            other => yaml_scalar_text(&other).unwrap_or_default(),
        };
        fields.insert(key, v);
    }
}

/// `dir/Note Name.md` → `dir/Note Name` (`.markdown` and MDX's `.mdx` too, any
/// case).
pub fn note_id(path: &str) -> String {
    let mut p = path.replace('\\', "/");
    for ext in [".md", ".markdown", ".mdx"] {
        if p.len() > ext.len()
            && p.is_char_boundary(p.len() - ext.len())
            && p[p.len() - ext.len()..].eq_ignore_ascii_case(ext)
        {
            p.truncate(p.len() - ext.len());
            return p;
        }
    }
    p
}
