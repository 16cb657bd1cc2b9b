//! Links between notes: `[[wikilinks]]` in bodies (code spans and blocks are not
//! links) and in properties (`related: "[[Payout retries]]"`), `related_memory`
//! / `supersedes` / `superseded_by` references, and supersession that is
//! missing a side.
//!
//! A link target resolves the way cairn resolves `get`: a vault-relative path (with
//! or without `.md`, `./` and `../` relative to the linking note), an id, a file
//! name, a title or an alias, case-insensitively; `name#part` is an entry of an
//! entry file, else `name` with its heading dropped. Links to attachments (`.png`,
//! `.pdf`, ...) are not checked.

use std::collections::HashMap;

use cairn_note::{Note, NoteNames, Sensitivity, Status, is_attachment, wikilink_lines};

use crate::{Ctx, Level};

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let notes = ctx.notes();
    let resolver = NoteNames::new(notes);
    let mut found = Vec::new();
    // Which notes each note's `supersedes` names (resolved uniquely).
    let mut superseded_by_someone: HashMap<usize, Vec<usize>> = HashMap::new();

    for (i, n) in notes.iter().enumerate() {
        // A confidential note's links and references are content too: its
        // diagnostics name the line, never the target.
        let withheld = n.sensitivity >= Sensitivity::Confidential;
        let level = n.sensitivity.as_str();
        let in_body = wikilink_lines(&n.body, n.body_line);
        // Links in properties (`related: "[[Payout retries]]"`) are the note's
        // links too; a `type: "[[Constraint]]"` cairn reads as the note's kind
        // is a class, not a note.
        let in_properties: Vec<(String, usize)> = n
            .wikilinks
            .iter()
            .filter(|l| !in_body.iter().any(|(t, _)| t == *l))
            .filter(|l| {
                !n.memory_type
                    .is_some_and(|t| t.as_str().eq_ignore_ascii_case(l))
            })
            .map(|l| (l.clone(), property_line(ctx, n, l).unwrap_or(1)))
            .collect();
        for (target, line) in in_body.into_iter().chain(in_properties) {
            if is_attachment(&target) || !resolver.resolve(&target, n).is_empty() {
                continue;
            }
            let message = if withheld {
                format!(
                    "a [[wikilink]] names no note in the vault (target withheld: the note is {level})"
                )
            } else {
                format!("[[{target}]] names no note in the vault")
            };
            found.push((
                Level::Warning,
                "broken-wikilink",
                n.file_path().to_owned(),
                Some(line),
                message,
                None,
            ));
        }
        for (key, targets) in [
            ("related_memory", &n.related_memory),
            ("supersedes", &n.supersedes),
            ("superseded_by", &n.superseded_by),
        ] {
            for target in targets {
                let hits = resolver.resolve(target, n);
                if key == "supersedes" && hits.len() == 1 && hits[0] != i {
                    superseded_by_someone.entry(hits[0]).or_default().push(i);
                }
                if !hits.is_empty() || is_attachment(target) {
                    continue;
                }
                let line = reference_line(ctx, n, key, target);
                let message = if withheld {
                    format!(
                        "`{key}` names no note in the vault (target withheld: the note is {level})"
                    )
                } else {
                    format!("`{key}`: `{target}` names no note in the vault")
                };
                found.push((
                    Level::Error,
                    "broken-reference",
                    n.file_path().to_owned(),
                    line,
                    message,
                    None,
                ));
            }
        }
    }

    for (i, n) in notes.iter().enumerate() {
        let successors = superseded_by_someone.get(&i);
        if n.status == Status::Superseded && n.superseded_by.is_empty() && successors.is_none() {
            found.push((
                Level::Warning,
                "superseded-without-successor",
                n.file_path().to_owned(),
                ctx.key_line(n, "status").or(Some(n.body_line)),
                "marked superseded, but no note names its replacement: add `superseded_by` (or `cairn memory supersede OLD --by NEW`)".to_owned(),
                None,
            ));
        }
        if n.status != Status::Active {
            continue;
        }
        if let Some(newer) = successors {
            let m = &notes[newer[0]];
            found.push((
                Level::Warning,
                "supersession-one-sided",
                n.file_path().to_owned(),
                ctx.key_line(n, "status").or(Some(n.body_line)),
                format!(
                    "`{}` supersedes this note, but it is still active, so both can reach a packet: set `status: superseded` (`cairn memory supersede`)",
                    m.path
                ),
                Some(m.file_path().to_owned()),
            ));
        } else if !n.superseded_by.is_empty()
            && n.superseded_by
                .iter()
                .any(|t| !resolver.resolve(t, n).is_empty())
        {
            found.push((
                Level::Warning,
                "supersession-one-sided",
                n.file_path().to_owned(),
                ctx.key_line(n, "superseded_by").or(Some(n.body_line)),
                "names a successor in `superseded_by` but is still active, so both can reach a packet: set `status: superseded`".to_owned(),
                None,
            ));
        }
    }

    for (level, code, path, line, message, related) in found {
        ctx.push(level, code, &path, line, message);
        if let Some(r) = related
            && let Some(last) = ctx.findings.last_mut()
        {
            last.related = Some(r);
        }
    }
}

/// The front-matter line that holds the link `[[target…]]` (the first).
fn property_line(ctx: &Ctx<'_>, n: &Note, target: &str) -> Option<usize> {
    if n.entry_of.is_some() {
        return None;
    }
    let text = cairn_note::normalize_line_breaks(ctx.text(n));
    let front = cairn_note::split_frontmatter(&text).front?;
    let needle = format!("[[{target}");
    front
        .raw
        .lines()
        .position(|l| l.contains(&needle))
        .map(|i| i + front.raw_line)
}

/// The line a reference is on: the frontmatter key, or for an entry the body line
/// that names the target.
fn reference_line(ctx: &Ctx<'_>, n: &Note, key: &str, target: &str) -> Option<usize> {
    if n.entry_of.is_some() {
        return n
            .body
            .lines()
            .position(|l| l.contains(target))
            .map(|i| n.body_line + i)
            .or(Some(n.body_line));
    }
    ctx.key_line(n, key)
}
