//! Links between notes: `[[wikilinks]]` in bodies (code spans and blocks are not
//! links), `related_memory` / `supersedes` / `superseded_by` references, and
//! supersession that is missing a side.
//!
//! A link target resolves the way cairn resolves `get`: a vault-relative path (with
//! or without `.md`, `./` and `../` relative to the linking note), an id, a file
//! name, a title or an alias, case-insensitively; `name#part` is an entry of an
//! entry file, else `name` with its heading dropped. Links to attachments (`.png`,
//! `.pdf`, ...) are not checked.

use std::collections::{HashMap, HashSet};

use cairn_note::{Note, Sensitivity, Status, note_id, wikilink_lines};

use crate::{Ctx, Level};

/// Every name a note answers to, lowercase → note indexes.
pub(crate) struct Resolver {
    keys: HashMap<String, Vec<usize>>,
}

impl Resolver {
    pub fn new(notes: &[Note]) -> Resolver {
        let mut keys: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, n) in notes.iter().enumerate() {
            let mut names = vec![
                n.path.clone(),
                n.id.clone(),
                n.stem().to_owned(),
                n.title.clone(),
            ];
            names.extend(n.aliases.iter().cloned());
            if let Some(file) = &n.entry_of {
                let fid = note_id(file);
                names.push(file.clone());
                names.push(fid.rsplit('/').next().unwrap_or(&fid).to_owned());
                names.push(fid);
            }
            let mut seen = HashSet::new();
            for name in names {
                let k = name.trim().to_lowercase();
                if !k.is_empty() && seen.insert(k.clone()) {
                    keys.entry(k).or_default().push(i);
                }
            }
        }
        Resolver { keys }
    }

    /// The notes `target`, written in note `from`, names (empty when none).
    pub fn resolve(&self, target: &str, from: &Note) -> Vec<usize> {
        for candidate in candidates(target, from) {
            if let Some(found) = self.keys.get(&candidate) {
                return found.clone();
            }
        }
        Vec::new()
    }
}

/// Whether `target` names an attachment rather than a note.
fn is_attachment(target: &str) -> bool {
    let last = target.rsplit('/').next().unwrap_or(target);
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && !ext.chars().all(|c| c.is_ascii_digit())
                && !ext.eq_ignore_ascii_case("md")
                && !ext.eq_ignore_ascii_case("markdown")
        }
        None => false,
    }
}

/// The lowercase keys to try for `target`, most specific first.
fn candidates(target: &str, from: &Note) -> Vec<String> {
    let t = target.trim().replace('\\', "/").replace("%20", " ");
    let t = t.trim_start_matches("./");
    let mut out = Vec::new();
    let mut push = |s: &str| {
        let s = s.trim().trim_start_matches('/').to_lowercase();
        for variant in [
            s.clone(),
            s.strip_suffix(".md").unwrap_or(&s).to_owned(),
            s.strip_suffix(".markdown").unwrap_or(&s).to_owned(),
        ] {
            if !variant.is_empty() && !out.contains(&variant) {
                out.push(variant);
            }
        }
    };
    let relative = relative_to(from.file_path(), t);
    for base in [Some(t.to_owned()), relative].into_iter().flatten() {
        push(&base);
        if let Some((head, _)) = base.split_once('#') {
            push(head);
        }
    }
    out
}

/// `target` joined to the folder of `file` with `..` resolved, when it is a relative path.
fn relative_to(file: &str, target: &str) -> Option<String> {
    if !target.contains('/') {
        return None;
    }
    let mut parts: Vec<&str> = file.split('/').collect();
    parts.pop();
    for seg in target.split('/') {
        match seg {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let notes = ctx.notes();
    let resolver = Resolver::new(notes);
    let mut found = Vec::new();
    // Which notes each note's `supersedes` names (resolved uniquely).
    let mut superseded_by_someone: HashMap<usize, Vec<usize>> = HashMap::new();

    for (i, n) in notes.iter().enumerate() {
        let secret = n.sensitivity == Sensitivity::Secret;
        for (target, line) in wikilink_lines(&n.body, n.body_line) {
            if is_attachment(&target) || !resolver.resolve(&target, n).is_empty() {
                continue;
            }
            let message = if secret {
                "a [[wikilink]] names no note in the vault (target withheld: the note is secret)"
                    .to_owned()
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
                let message = if secret {
                    format!(
                        "`{key}` names no note in the vault (target withheld: the note is secret)"
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachments_and_relative_paths() {
        assert!(is_attachment("diagram.png"));
        assert!(is_attachment("a/b/spec.pdf"));
        assert!(!is_attachment("v1.2 notes"));
        assert!(!is_attachment("ADR-3.1"));
        assert!(!is_attachment("note.md"));
        assert_eq!(relative_to("a/b/c.md", "../x/y"), Some("a/x/y".into()));
        assert_eq!(relative_to("c.md", "../x"), None);
    }
}
