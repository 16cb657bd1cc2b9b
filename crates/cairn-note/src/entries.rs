//! Entry files: a `decisions.md` or `lessons.md` kept as a log of dated entries
//! becomes one note per entry, so fifty decisions in one file are fifty rankable
//! decisions, each with its own date.
//!
//! The entry format (the workspace-memory convention):
//!
//! ```markdown
//! ### [2026-02-08] Chose xstate v5 for workflow state
//!
//! **Category:** architecture
//! **Tags:** workflow, xstate
//!
//! Actor model and strong TypeScript support.
//!
//! ---
//! ```
//!
//! Which files are split: those whose stem is `decisions` or `lessons` (any case,
//! optionally after a `-`/`_`/space-separated prefix such as `ledger-decisions`) and
//! that hold at least one entry heading: an ATX heading of level 2 to 4 whose text
//! starts with `[YYYY-MM-DD]`. Any other file is one note, whatever its headings.
//!
//! An entry runs from its heading to the next entry heading, a `---` separator, a
//! heading of the same or a higher level, or the end of the file. `**Key:** value`
//! lines (or Dataview's `Key:: value`) right under the heading are its fields:
//! `Category`, `Tags`, and optionally `Status`, `Supersedes`, `Superseded by`,
//! `Related`, `Related files` (the code the entry is about, as front matter's
//! `related_files`). An entry's sensitivity is
//! read from any of its lines by the one line reader (`marks`: `**Sensitivity:**
//! x`, `Sensitivity:: x`, `> *Sensitivity:* x`, a table row `| Sensitivity | x |`)
//! by the front matter's rule: a value that is not one known level, or two that
//! disagree, make the entry secret; it can only raise the file's level, never
//! lower it. Each entry note gets the id `<file id>#<slug of title>`
//! (and the path `<file path>#<slug>`), the memory type of the file (`decision` for
//! decisions, `incident` for lessons, unless the frontmatter says otherwise), the
//! heading's date as `created`, and the file's sensitivity, project, scope and
//! frontmatter tags. Text before the first entry stays a note of its own (at the
//! file's path) only when it holds prose; text between entries belongs to none.

use std::collections::{BTreeMap, HashSet};

use crate::markdown::{Fences, is_heading_marker, scan_body};
use crate::marks::{LineMark, read_mark};
use crate::model::{Diagnostic, MemoryType, Note, Sensitivity, Severity, Status, TriggerTerms};
use crate::parse::{Parsed, parse_date, parse_with_meta};
use crate::prose::prose_sentences;
use crate::sensitivity::{DoubtReason, Occurrence, Value as SensValue, resolve, sensitivity_key};
use crate::table_marks::TableColumn;

/// The outcome of [`parse_file`]: every note one file yields.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedFile {
    /// The notes: one for an ordinary file, one per entry for an entry file (plus
    /// the file's preamble when it holds prose). Empty when the file was refused.
    pub notes: Vec<Note>,
    /// Diagnostics of the file and its entries.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses one file into its notes: [`crate::parse_note`], then the split of an
/// entry file into one note per entry.
pub fn parse_file(path: &str, bytes: &[u8]) -> ParsedFile {
    let (Parsed { note, diagnostics }, meta) = parse_with_meta(path, bytes);
    let mut out = ParsedFile {
        notes: Vec::new(),
        diagnostics,
    };
    let Some(note) = note else {
        return out;
    };
    if entry_file_type(path).is_none() {
        out.notes.push(note);
        return out;
    }
    let (notes, diags) = split(note, &meta.frontmatter_tags);
    out.notes = notes;
    out.diagnostics.extend(diags);
    out.diagnostics.sort();
    out
}

/// The memory type an entry file's entries default to, when `path` names an entry
/// file (`decisions.md` → decision, `lessons.md` → incident); else `None`.
pub fn entry_file_type(path: &str) -> Option<MemoryType> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let stem = lower
        .strip_suffix(".md")
        .or_else(|| lower.strip_suffix(".markdown"))?;
    for (word, t) in [
        ("decisions", MemoryType::Decision),
        ("lessons", MemoryType::Incident),
    ] {
        if let Some(prefix) = stem.strip_suffix(word)
            && (prefix.is_empty() || prefix.ends_with(['-', '_', ' ', '.']))
        {
            return Some(t);
        }
    }
    None
}

/// An entry heading: its level, the date text in brackets and the title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryHeading {
    /// 2 to 4.
    pub level: u8,
    /// What stood between the brackets (a valid `YYYY-MM-DD` or not).
    pub date_text: String,
    /// The title after the date.
    pub title: String,
}

/// Parses `### [YYYY-MM-DD] Title` (levels 2 to 4), and the hand-written
/// `## YYYY-MM-DD — Title` / `## YYYY-MM-DD: Title` (an ISO date then a dash, a
/// colon or a blank). The bracketed date is not validated here.
pub fn entry_heading(line: &str) -> Option<EntryHeading> {
    let t = line.trim();
    if !is_heading_marker(t) {
        return None;
    }
    let level = t.chars().take_while(|&c| c == '#').count();
    if !(2..=4).contains(&level) {
        return None;
    }
    let rest = t[level..].trim_start();
    let (date_text, title) = if let Some(rest) = rest.strip_prefix('[') {
        let close = rest.find(']')?;
        (rest[..close].trim(), &rest[close + 1..])
    } else {
        // A bare ISO date: `2025-10-08`, then a separator.
        let date = rest.get(..10)?;
        let shape = date.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
        let after = &rest[10..];
        if !shape || !after.starts_with([' ', ':', '\u{2014}', '\u{2013}']) {
            return None;
        }
        let title = after.trim_start_matches([' ', ':', '-', '|', '\u{2014}', '\u{2013}']);
        (date, title)
    };
    // `[ ]`-style checkboxes and links are not dates: require a digit first.
    if !date_text.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let title = title.trim().trim_end_matches('#').trim_end();
    if title.is_empty() || title.starts_with('(') {
        return None;
    }
    Some(EntryHeading {
        level: u8::try_from(level).ok()?,
        date_text: date_text.to_owned(),
        title: title.to_owned(),
    })
}

/// One entry in the workspace-memory format, ready to append to an entry file:
/// heading, fields, body and the `---` separator.
pub fn format_entry(
    date: chrono::NaiveDate,
    title: &str,
    category: Option<&str>,
    tags: &[String],
    body: &str,
) -> String {
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = format!("### [{date}] {}\n\n", one_line(title));
    if let Some(c) = category.map(one_line).filter(|c| !c.is_empty()) {
        out.push_str(&format!("**Category:** {c}\n"));
    }
    let tags: Vec<String> = tags
        .iter()
        .map(|t| one_line(t))
        .filter(|t| !t.is_empty())
        .collect();
    if !tags.is_empty() {
        out.push_str(&format!("**Tags:** {}\n", tags.join(", ")));
    }
    if category.is_some() || !tags.is_empty() {
        out.push('\n');
    }
    let body = body.trim();
    if !body.is_empty() {
        out.push_str(body);
        out.push('\n');
    }
    out.push_str("\n---\n");
    out
}

/// `Use Kafka for events!` → `use-kafka-for-events` (ASCII letters and digits,
/// other letters kept lowercase, everything else a single `-`; at most 64 bytes).
pub fn slugify(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if out.len() + c.len_utf8() > 64 {
                break;
            }
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() {
        "entry".to_owned()
    } else {
        out
    }
}

struct RawEntry {
    heading: EntryHeading,
    /// Index of the heading line in the body's lines.
    start: usize,
    /// One past the entry's last line.
    end: usize,
}

/// Splits an entry file's note into its entries. Returns the note unchanged when
/// it holds no entry heading.
fn split(mut file: Note, frontmatter_tags: &[String]) -> (Vec<Note>, Vec<Diagnostic>) {
    let lines: Vec<&str> = file.body.split_inclusive('\n').collect();
    let mut entries: Vec<RawEntry> = Vec::new();
    let fences = Fences::of(&file.body);
    let mut preamble_end = lines.len();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if fences.is_code(i) {
            continue;
        }
        if let Some(h) = entry_heading(trimmed) {
            if let Some(open) = entries.last_mut().filter(|e| e.end == usize::MAX) {
                open.end = i;
            }
            if entries.is_empty() {
                preamble_end = i;
            }
            entries.push(RawEntry {
                heading: h,
                start: i,
                end: usize::MAX,
            });
            continue;
        }
        let Some(open) = entries.last_mut().filter(|e| e.end == usize::MAX) else {
            continue;
        };
        let is_separator = is_rule(trimmed);
        let closes = is_heading_marker(trimmed)
            && trimmed.chars().take_while(|&c| c == '#').count() <= usize::from(open.heading.level);
        if is_separator || closes {
            open.end = i;
        }
    }
    if let Some(open) = entries.last_mut().filter(|e| e.end == usize::MAX) {
        open.end = lines.len();
    }
    if entries.is_empty() {
        return (vec![file], Vec::new());
    }
    let spans = mark_spans(&entries, &lines, &fences);

    let mut diags = Vec::new();
    let mut notes = Vec::new();
    // Text after the first entry that no entry holds, not even for its marks: a
    // section above the entries' level (`## Notes` after `### [date]` entries).
    // It belongs to the file's own note, the intro, with its marks.
    let has_prose = |text: &str| {
        prose_sentences(text)
            .iter()
            .any(|s| s.chars().any(char::is_alphanumeric))
    };
    let preamble: String = lines[..preamble_end].concat();
    let runs = orphan_runs(&entries, &spans, preamble_end, lines.len());
    // Every run's marks count, prose or not (a table whose Sensitivity column
    // says `secret`), for the intro; the text of the runs with prose is the
    // intro's. The banners among them, and those below a rule that closed the
    // last entry (a footer: `---` then `CONFIDENTIAL`; that text's marks also
    // raise the last entry), are the file's too, as the preamble's are, when
    // they agree on one level: a stamp has no scope. Banners naming two levels
    // (a `## Classification` section) describe them: the intro's only, in doubt.
    let mut intro_marks = Vec::new();
    let mut banners = Vec::new();
    let is_banner = |m: &LineMark| m.mark.key == crate::marks::BANNER_KEY;
    for &(from, to) in &runs {
        let marks = entry_marks(&lines[from..to], file.body_line + from, |i| {
            fences.is_code(from + i)
        });
        banners.extend(marks.iter().filter(|m| is_banner(m)).cloned());
        intro_marks.extend(marks);
    }
    if let (Some(last), Some(span)) = (entries.last(), spans.last()) {
        let (from, to) = (last.end, span.end.min(lines.len()));
        let after_rule = lines.get(from).is_some_and(|l| is_rule(l.trim()));
        if after_rule && from < to {
            banners.extend(
                entry_marks(&lines[from..to], file.body_line + from, |i| {
                    fences.is_code(from + i)
                })
                .into_iter()
                .filter(|m| is_banner(m)),
            );
        }
    }
    // Their doubt (two levels) is said by the intro's reading, not here.
    let stamped = marks_reading(&banners, &file.path, &mut Vec::new());
    if stamped.doubt.is_none() {
        file.sensitivity = file.sensitivity.max(stamped.sensitivity);
    }
    let orphans: Vec<(usize, String)> = runs
        .into_iter()
        .map(|(from, to)| (from, lines[from..to].concat()))
        .filter(|(_, text)| has_prose(text))
        .collect();
    let mut intro = preamble.clone();
    for (_, text) in &orphans {
        if !intro.is_empty() && !intro.ends_with("\n\n") {
            intro.push('\n');
        }
        intro.push_str(text);
    }
    // A marked section makes an intro even without prose: its level is what
    // withholds the file's text from the write path's `memory show`.
    let intro_has_prose = has_prose(&intro) || !intro_marks.is_empty();
    let default_type = entry_file_type(&file.path);
    let mut used: HashSet<String> = HashSet::new();
    let mut levels: Vec<Sensitivity> = Vec::with_capacity(entries.len());
    for (k, e) in entries.iter().enumerate() {
        let line = file.body_line + e.start;
        let text: String = lines[e.start..e.end].concat();
        let text = text.trim_end().to_owned() + "\n";
        let mut slug = slugify(&e.heading.title);
        if !used.insert(slug.clone()) {
            let mut k = 2;
            while !used.insert(format!("{slug}-{k}")) {
                k += 1;
            }
            slug = format!("{slug}-{k}");
        }
        let fields = entry_fields(&lines[e.start + 1..e.end]);
        // Sensitivity marks, on any line of the entry and written any way the one
        // line reader knows (`**Sensitivity:** x`, `Sensitivity:: x`, a table row),
        // follow the front matter's rule (unknown → secret) and can only raise the
        // file's level.
        let marks = entry_marks(&lines[e.start + 1..spans[k].end], line + 1, |i| {
            fences.is_code(e.start + 1 + i)
        });
        let reading = marks_reading(&marks, &file.path, &mut diags);
        // An entry nested under another (a `###` dated heading inside a `##`
        // entry's section) is part of it: at least its level.
        let parent = spans[k].parent.and_then(|p| levels.get(p).copied());
        let sensitivity = file
            .sensitivity
            .max(reading.sensitivity)
            .max(parent.unwrap_or(Sensitivity::Public));
        levels.push(sensitivity);
        // A secret entry's diagnostics never quote its text.
        let quiet = sensitivity == Sensitivity::Secret;
        let created = parse_date(&e.heading.date_text).filter(|_| e.heading.date_text.len() == 10);
        if created.is_none() {
            diags.push(Diagnostic {
                path: file.path.clone(),
                line: Some(line),
                severity: Severity::Warning,
                code: "entry-date".into(),
                message: if quiet {
                    "the entry date is not YYYY-MM-DD; the entry has no date".into()
                } else {
                    format!(
                        "entry date `[{}]` is not YYYY-MM-DD; the entry has no date",
                        e.heading.date_text
                    )
                },
            });
        }
        let mut extra: BTreeMap<String, serde_json::Value> = BTreeMap::new();
        let mut tags: Vec<String> = frontmatter_tags.to_vec();
        let mut status = if file.is_retired() {
            file.status
        } else {
            Status::Active
        };
        // The entry's own word (unless the file is retired: a retired file retires
        // its entries), else the file's.
        let mut status_word = file.status_word.clone();
        let mut supersedes = Vec::new();
        let mut superseded_by = Vec::new();
        let mut related = Vec::new();
        let mut related_files = Vec::new();
        for (_, key, value) in &fields {
            let links = || {
                value
                    .split(',')
                    .map(entry_link)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
            };
            match key.as_str() {
                "tags" | "tag" => tags.extend(
                    value
                        .split([',', ' '])
                        .map(|t| t.trim().trim_start_matches('#').to_lowercase())
                        .filter(|t| !t.is_empty()),
                ),
                // As in front matter: a word that is not a retiring one (another
                // tool's lifecycle word, or one `[vault] retiring_statuses` lists)
                // is kept quietly and decided on by the engine's list.
                "status" if !file.is_retired() && !value.trim().is_empty() => {
                    status_word = Some(value.trim().to_lowercase());
                    status = Status::parse(value).unwrap_or_default();
                }
                "status" => {}
                k if sensitivity_key(k).is_some() => {}
                "supersedes" => supersedes.extend(links()),
                "superseded_by" => superseded_by.extend(links()),
                "related" | "related_memory" => related.extend(links()),
                "related_files" => related_files.extend(
                    value
                        .split(',')
                        // Read as a note's `related_files` are (the warnings are the
                        // front matter's: an entry's fields are prose).
                        .map(|f| {
                            crate::fields::related_file(&entry_link(f.trim().trim_matches('`'))).0
                        })
                        .filter(|f| {
                            !f.is_empty()
                                && !matches!(f.to_lowercase().as_str(), "none" | "-" | "n/a")
                        }),
                ),
                other => {
                    extra.insert(other.to_owned(), serde_json::Value::String(value.clone()));
                }
            }
        }
        let parts = scan_body(&text, line);
        tags.extend(parts.tags);
        tags.sort();
        tags.dedup();
        notes.push(Note {
            id: format!("{}#{slug}", file.id),
            path: format!("{}#{slug}", file.path),
            title: e.heading.title.clone(),
            description: None,
            memory_type: file.memory_type.or(default_type),
            project_id: file.project_id.clone(),
            scope: file.scope.clone(),
            sensitivity,
            freshness: file.freshness,
            source_of_truth: file.source_of_truth,
            retrieval_priority: file.retrieval_priority,
            pinned: false,
            status,
            status_word,
            supersedes,
            superseded_by,
            triggers: Vec::new(),
            trigger_terms: TriggerTerms::default(),
            related_files,
            related_memory: related,
            tags,
            aliases: Vec::new(),
            created,
            updated: None,
            review_after: None,
            extra,
            headings: parts.headings,
            wikilinks: parts.wikilinks,
            size: text.len() as u64,
            body: text,
            body_line: line,
            mtime: file.mtime,
            committed: None,
            entry_of: Some(file.path.clone()),
        });
    }
    if intro_has_prose {
        let mut head = file;
        // The orphans' marks raise the intro (unknown → secret), as an entry's
        // raise the entry.
        let reading = marks_reading(&intro_marks, &head.path, &mut diags);
        head.sensitivity = head.sensitivity.max(reading.sensitivity);
        head.size = intro.len() as u64;
        let mut parts = scan_body(&preamble, head.body_line);
        for (from, text) in &orphans {
            let more = scan_body(text, head.body_line + from);
            parts.headings.extend(more.headings);
            parts.wikilinks.extend(more.wikilinks);
            parts.tags.extend(more.tags);
        }
        head.headings = parts.headings;
        head.wikilinks = parts.wikilinks;
        let mut tags: Vec<String> = frontmatter_tags.to_vec();
        tags.extend(parts.tags);
        tags.sort();
        tags.dedup();
        head.tags = tags;
        head.body = intro;
        notes.insert(0, head);
    }
    (notes, diags)
}

/// Whether trimmed line `t` is a thematic break that closes an entry (`---`).
fn is_rule(t: &str) -> bool {
    matches!(t, "---" | "***" | "___")
}

/// The level `marks` give by the front matter's rule (two that disagree, or an
/// unknown value: secret), with a `sensitivity-doubt` error for `path` when in
/// doubt.
fn marks_reading(
    marks: &[LineMark],
    path: &str,
    diags: &mut Vec<Diagnostic>,
) -> crate::sensitivity::SensitivityReading {
    let occurrences: Vec<Occurrence<'_>> = marks
        .iter()
        .map(|m| Occurrence {
            key: m.mark.key,
            line: Some(m.line),
            value: SensValue::Word(&m.mark.value),
        })
        .collect();
    let reading = resolve(&occurrences);
    if let Some(doubt) = &reading.doubt {
        diags.push(Diagnostic {
            path: path.to_owned(),
            line: doubt.line,
            severity: Severity::Error,
            code: DoubtReason::CODE.into(),
            message: doubt.reason.message(),
        });
    }
    reading
}

/// The runs of lines (`from..to`, body lines) after the first entry that no
/// entry's text or marks reach (see [`MarkSpan`]): a section above the
/// entries' level, after them or between them (`## Notes`, `## 2024`).
fn orphan_runs(
    entries: &[RawEntry],
    spans: &[MarkSpan],
    preamble_end: usize,
    len: usize,
) -> Vec<(usize, usize)> {
    let mut covered = vec![false; len];
    for (e, span) in entries.iter().zip(spans) {
        for c in &mut covered[e.start..span.end.min(len)] {
            *c = true;
        }
    }
    let mut runs = Vec::new();
    let mut i = preamble_end;
    while i < len {
        if covered[i] {
            i += 1;
            continue;
        }
        let from = i;
        while i < len && !covered[i] {
            i += 1;
        }
        runs.push((from, i));
    }
    runs
}

/// Where an entry's sensitivity marks are read, beyond its own text.
struct MarkSpan {
    /// One past the last line whose marks count for the entry: up to the next
    /// entry heading, or a heading above the entry's level. Text after a rule
    /// (`---`) or under a heading of the entry's own level (`### Metadata`)
    /// belongs to no entry, yet a mark there was written for the entry above.
    end: usize,
    /// The entry whose section holds this one's heading: a lower level, and no
    /// heading at or above that level in between.
    parent: Option<usize>,
}

/// The [`MarkSpan`] of each of `entries`.
fn mark_spans(entries: &[RawEntry], lines: &[&str], fences: &Fences) -> Vec<MarkSpan> {
    let level_of = |i: usize| -> Option<usize> {
        let t = lines[i].trim();
        (!fences.is_code(i) && is_heading_marker(t))
            .then(|| t.chars().take_while(|&c| c == '#').count())
    };
    let entry_at: HashSet<usize> = entries.iter().map(|e| e.start).collect();
    entries
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let level = usize::from(e.heading.level);
            let end = (e.start + 1..lines.len())
                .find(|&i| entry_at.contains(&i) || level_of(i).is_some_and(|l| l < level))
                .unwrap_or(lines.len());
            let parent = (0..k).rev().find(|&p| {
                let pl = usize::from(entries[p].heading.level);
                pl < level
                    && (entries[p].start + 1..e.start).all(|i| level_of(i).is_none_or(|l| l > pl))
            });
            MarkSpan { end, parent }
        })
        .collect()
}

/// The sensitivity marks of an entry's lines (after its heading; `first_line` is
/// the file line of the first), outside fenced code (`is_code`, by the index of
/// a line in `lines`: the file's fences, read once for the whole body), without
/// banners that describe the levels.
fn entry_marks(
    lines: &[&str],
    first_line: usize,
    is_code: impl Fn(usize) -> bool,
) -> Vec<LineMark> {
    let mut out = Vec::new();
    let mut table = TableColumn::default();
    for (i, line) in lines.iter().enumerate() {
        if is_code(i) {
            continue;
        }
        out.extend(table.push(i, line).into_iter().map(|(at, mark)| LineMark {
            line: first_line + at,
            mark,
        }));
        if let Some(mark) = read_mark(line) {
            out.push(LineMark {
                line: first_line + i,
                mark,
            });
        }
    }
    out.extend(table.finish().into_iter().map(|(at, mark)| LineMark {
        line: first_line + at,
        mark,
    }));
    // Lines heading all four levels describe them (a `## Sensitivity levels`
    // section), as in a note's body.
    crate::level_lists::drop_level_descriptions(&mut out, lines, first_line, is_code);
    out
}

/// A link in an entry field: `[[decisions#use-kafka|alias]]` → `decisions#use-kafka`.
/// Unlike a frontmatter link, the `#` part is kept: it names an entry.
fn entry_link(text: &str) -> String {
    let t = text.trim();
    let t = t
        .strip_prefix("[[")
        .and_then(|t| t.strip_suffix("]]"))
        .unwrap_or(t);
    t.split('|').next().unwrap_or("").trim().to_owned()
}

/// The `**Key:** value` (or Dataview's `Key:: value`) lines right under an
/// entry heading (blank lines allowed between them): (line offset from the
/// first line after the heading, key in snake case, value).
fn entry_fields(lines: &[&str]) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some((key, value, _)) = field_line(t) else {
            break;
        };
        out.push((i, key, value.to_owned()));
    }
    out
}

/// A field line (trimmed): `**Key:** value`, `**Key**: value`, or Dataview's
/// `Key:: value` (`::` then a blank or the line's end: not `std::mem`). The key
/// in snake case, the value, and whether it was written as Dataview's.
pub(crate) fn field_line(t: &str) -> Option<(String, &str, bool)> {
    // A list item's field (`- Status:: superseded`) is the same field.
    let t = ["- ", "* ", "+ "]
        .iter()
        .find_map(|m| t.strip_prefix(m))
        .map_or(t, str::trim_start);
    let (parsed, dataview) = match t.strip_prefix("**") {
        // Bold (`**Tags:** x`, `**Tags**: x`), or a Dataview field typed after
        // a bold mark that was never closed (`**related_files:: x`).
        Some(rest) => match rest.split_once(":**").or_else(|| rest.split_once("**:")) {
            Some(kv) => (Some(kv), false),
            None => (rest.split_once(":: "), true),
        },
        None => (
            t.split_once(":: ")
                .or_else(|| t.strip_suffix("::").map(|k| (k, ""))),
            true,
        ),
    };
    let (key, value) = parsed.map(|(k, v)| (k.trim(), v.trim()))?;
    let ok = key.starts_with(char::is_alphanumeric)
        && key.len() <= 40
        && !(dataview && value.is_empty())
        && key
            .chars()
            // Logseq namespaces its own properties (`logseq.order-list-type::`).
            .all(|c| c.is_alphanumeric() || " -_".contains(c) || (dataview && c == '.'));
    ok.then(|| {
        let key = key
            .to_lowercase()
            .chars()
            .map(|c| if c == ' ' || c == '-' { '_' } else { c })
            .collect();
        (key, value, dataview)
    })
}

/// The files a body's own `related_files` field lines name, outside fenced
/// code (`related_files:: test.sh, test.c` as Dataview writes it, `**Related
/// files:** src/a.rs`), read as an entry's are (a held-out trial: a how-to
/// ending in such a line was tied to no file).
pub(crate) fn body_related_files(body: &str) -> Vec<String> {
    if !body.contains("elated") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut fences = crate::markdown::OpenFence::default();
    for line in body.lines() {
        let t = line.trim();
        if fences.in_code(t) {
            continue;
        }
        if let Some((key, value, _)) = field_line(t)
            && key == "related_files"
        {
            out.extend(
                value
                    .split(',')
                    .map(|f| crate::fields::related_file(&entry_link(f.trim().trim_matches('`'))).0)
                    .filter(|f| {
                        !f.is_empty() && !matches!(f.to_lowercase().as_str(), "none" | "-" | "n/a")
                    }),
            );
        }
    }
    out
}

/// Keys of a field line that are a note's metadata, never its prose: an entry's
/// fields (`Category`, `Tags`, `Related files`, ...) and sensitivity's keys.
/// `Status` and `Date` are a record's bookkeeping, read where they are
/// (`prose.rs`, `in_body.rs`).
const METADATA_KEYS: &[&str] = &[
    "category",
    "tags",
    "tag",
    "related",
    "related_memory",
    "related_files",
    "supersedes",
    "superseded_by",
];

/// Whether a line (trimmed) is a metadata field: any Dataview inline field,
/// a bold one whose key is metadata ([`METADATA_KEYS`], a sensitivity key), or
/// a plain `Tags: [[__Data_Engineering]]` line (a vault's own way to file a note
/// at its top: never what it says).
pub(crate) fn is_metadata_line(t: &str) -> bool {
    field_line(t).is_some_and(|(key, _, dataview)| {
        dataview || METADATA_KEYS.contains(&key.as_str()) || sensitivity_key(&key).is_some()
    }) || is_plain_tags_line(t)
}

/// `Tags: x` or `Tag: x` (any case) with a value: a plain field line of tags.
fn is_plain_tags_line(t: &str) -> bool {
    t.split_once(':').is_some_and(|(key, value)| {
        (key.eq_ignore_ascii_case("tags") || key.eq_ignore_ascii_case("tag"))
            && !value.trim().is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_lines_bold_dataview_and_a_bold_mark_left_open() {
        let check = |line: &str, expect: Option<(&str, &str, bool)>| {
            let got = field_line(line);
            let got = got.as_ref().map(|(k, v, d)| (k.as_str(), *v, *d));
            assert_eq!(got, expect, "{line:?}");
        };
        check("**Tags:** a, b", Some(("tags", "a, b", false)));
        check(
            "**Related files**: src/x.rs",
            Some(("related_files", "src/x.rs", false)),
        );
        check("Status:: superseded", Some(("status", "superseded", true)));
        // Held-out trial: shown as prose in a summary.
        check(
            "**related_files:: src/click/_termui_impl.py",
            Some(("related_files", "src/click/_termui_impl.py", true)),
        );
        check("**Bold** prose, not a field.", None);
        // Held-out trial (Logseq): a block's own property, shown in a summary.
        check(
            "logseq.order-list-type:: number",
            Some(("logseq.order_list_type", "number", true)),
        );
        assert!(is_metadata_line("logseq.order-list-type:: number"));
        check("e.g. this: not a field", None);
        assert!(is_metadata_line("**related_files:: src/a.rs"));
        assert_eq!(
            body_related_files(
                "Run the suite.\n\nrelated_files:: test.sh, `test.c`, Makefile\n\n```\nrelated_files:: no.rs\n```\n**Related files:** src/a.rs\n"
            ),
            ["test.sh", "test.c", "Makefile", "src/a.rs"]
        );
        // A real vault files every note with a plain first line so.
        assert!(is_metadata_line("Tags: [[__Data_Engineering]]"));
        assert!(is_metadata_line("tags: #python, #ray"));
        assert!(!is_metadata_line("Tags:"));
        assert!(!is_metadata_line("Tagging: a sentence about tags."));
    }

    #[test]
    fn entry_file_names() {
        assert_eq!(
            entry_file_type("a/decisions.md"),
            Some(MemoryType::Decision)
        );
        assert_eq!(entry_file_type("Lessons.MD"), Some(MemoryType::Incident));
        assert_eq!(
            entry_file_type("x/ledger-decisions.md"),
            Some(MemoryType::Decision)
        );
        assert_eq!(entry_file_type("x/baddecisions.md"), None);
        assert_eq!(entry_file_type("x/decisions.txt"), None);
        assert_eq!(entry_file_type("decisions/adr-1.md"), None);
    }

    #[test]
    fn headings() {
        let h = entry_heading("### [2026-02-08] Chose xstate ##").unwrap();
        assert_eq!(
            (h.level, h.date_text.as_str(), h.title.as_str()),
            (3, "2026-02-08", "Chose xstate")
        );
        assert!(entry_heading("# [2026-02-08] Too high").is_none());
        assert!(entry_heading("### [ ] todo").is_none());
        assert!(entry_heading("### [2026-02-08]").is_none());
        assert!(entry_heading("###[2026-02-08] x").is_none());
        assert_eq!(
            entry_heading("## [2026-13-45] Bad date").unwrap().date_text,
            "2026-13-45"
        );
        // Hand-written logs: a bare ISO date, then a dash, a colon or a blank
        // (a held-out trial's decisions.md stayed one note before).
        for line in [
            "## 2025-10-08 — One cache file per mode",
            "## 2025-10-08 – One cache file per mode",
            "### 2025-10-08: One cache file per mode",
            "## 2025-10-08 - One cache file per mode",
            "## 2025-10-08 One cache file per mode",
        ] {
            let h = entry_heading(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(
                (h.date_text.as_str(), h.title.as_str()),
                ("2025-10-08", "One cache file per mode"),
                "{line}"
            );
        }
        for line in [
            "## 2025 roadmap",
            "## 2025-10-08",
            "## 2025-10-08 —",
            "## 2025-10-0812 x",
            "## 20251008 x",
            "## Q3 2025-10-08 x",
        ] {
            assert!(entry_heading(line).is_none(), "{line}");
        }
    }

    #[test]
    fn slugs() {
        assert_eq!(slugify("Use Kafka for events!"), "use-kafka-for-events");
        assert_eq!(slugify("  ***  "), "entry");
        assert_eq!(slugify("Écrire — vite"), "écrire-vite");
        assert!(slugify(&"a".repeat(200)).len() <= 64);
    }
}
