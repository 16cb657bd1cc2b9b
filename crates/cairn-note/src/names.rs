//! Which note a name names: a `[[wikilink]]`, `related_memory`, `supersedes` or
//! `superseded_by` target resolved the way cairn resolves `get`: a vault-relative
//! path (with or without `.md`, `./` and `../` relative to the linking note), an
//! id, a file name, a title or an alias, case-insensitively; `name#part` is an
//! entry of an entry file, else `name` with its heading dropped. Attachments
//! (`.png`, `.pdf`, ...) name no note.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::model::Note;
use crate::parse::note_id;

/// Every name a note answers to, lowercase → note indexes.
#[derive(Debug, Default)]
pub struct NoteNames {
    keys: FxHashMap<String, Vec<usize>>,
    /// The ends of notes' paths of two folders' depth or more, lowercase,
    /// without the extension (`obsidian publish/security` of
    /// `ar/Obsidian Publish/Security.md`).
    path_ends: FxHashMap<String, Vec<usize>>,
}

impl NoteNames {
    /// Indexes every name of `notes` (positions in iteration order).
    pub fn new<'a>(notes: impl IntoIterator<Item = &'a Note>) -> NoteNames {
        let mut keys: FxHashMap<String, Vec<usize>> = FxHashMap::default();
        let mut path_ends: FxHashMap<String, Vec<usize>> = FxHashMap::default();
        for (i, n) in notes.into_iter().enumerate() {
            for k in names_of(n) {
                keys.entry(k).or_default().push(i);
            }
            if n.entry_of.is_none() {
                let path = n.path.to_lowercase();
                let path = path.rsplit_once('.').map_or(path.as_str(), |(p, _)| p);
                // Every end after a `/` that still holds one: `b/c` of `a/b/c`.
                for (at, _) in path.match_indices('/') {
                    let end = &path[at + 1..];
                    if end.contains('/') {
                        path_ends.entry(end.to_owned()).or_default().push(i);
                    }
                }
            }
        }
        NoteNames { keys, path_ends }
    }

    /// The indexes of the notes `target`, written in note `from`, names (empty
    /// when none; more than one when the name is ambiguous). A path that names
    /// no note from the vault's root names the notes whose paths end with it,
    /// as Obsidian resolves it (`[[Obsidian Publish/Security]]` written in a
    /// translation kept under `ar/`).
    pub fn resolve(&self, target: &str, from: &Note) -> Vec<usize> {
        let candidates = candidates(target, from);
        for candidate in &candidates {
            if let Some(found) = self.keys.get(candidate) {
                return found.clone();
            }
        }
        for candidate in &candidates {
            if let Some(found) = self.path_ends.get(candidate) {
                return found.clone();
            }
        }
        Vec::new()
    }

    /// The one note `target`, written in note `from`, names: `None` when it names
    /// none or several.
    pub fn resolve_one(&self, target: &str, from: &Note) -> Option<usize> {
        match self.resolve(target, from).as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// The notes most linked to, with how many notes link to them, most first (then
/// by path): hubs, index and map-of-content notes. A link is a `[[wikilink]]` in
/// the body or a `related_memory` value that names exactly one other note; each
/// linking note counts once. Notes fewer than two notes link to are left out, and
/// at most `top` are kept.
pub fn most_linked(notes: &[&Note], top: usize) -> Vec<(String, u32)> {
    let names = NoteNames::new(notes.iter().copied());
    let mut linked_from: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); notes.len()];
    for (i, n) in notes.iter().enumerate() {
        // A confidential or secret note's links are its content: they give
        // no other note credit (a hub's count would confirm what it links to).
        if n.sensitivity >= crate::Sensitivity::Confidential {
            continue;
        }
        for target in n.wikilinks.iter().chain(&n.related_memory) {
            if is_attachment(target) {
                continue;
            }
            if let Some(j) = names.resolve_one(target, n)
                && j != i
            {
                linked_from[j].insert(i);
            }
        }
    }
    let mut out: Vec<(String, u32)> = linked_from
        .iter()
        .enumerate()
        .filter(|(_, from)| from.len() >= 2)
        .map(|(j, from)| {
            (
                notes[j].path.clone(),
                u32::try_from(from.len()).unwrap_or(u32::MAX),
            )
        })
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.truncate(top);
    out
}

/// For each `(target, from)` query, the one note among `notes` that `target`,
/// written in note `from`, names (`None`: none, or several at the most specific
/// key that matches). One pass over `notes` for all queries, comparing names
/// case-insensitively without allocating: for the rare lookups (a retired note's
/// successors) where indexing every name of thousands of notes would cost more.
pub fn find_named<'a>(
    notes: impl IntoIterator<Item = &'a Note>,
    queries: &[(&str, &Note)],
) -> Vec<Option<&'a Note>> {
    let keys: Vec<Vec<String>> = queries
        .iter()
        .map(|(t, from)| candidates(t, from))
        .collect();
    // Per query: the best (most specific) key rank seen, and the notes at it.
    // Each key, with the queries that try it and at which rank: one hash lookup
    // per name of a note, whatever the number of queries.
    let mut wanted: FxHashMap<&str, Vec<(usize, usize)>> = FxHashMap::default();
    for (q, keys) in keys.iter().enumerate() {
        for (rank, k) in keys.iter().enumerate() {
            wanted.entry(k.as_str()).or_default().push((q, rank));
        }
    }
    // An ASCII name lowercases to as many bytes: one whose length no key has
    // cannot answer, and is not lowercased (most names of most notes).
    let lengths: FxHashSet<usize> = wanted.keys().map(|k| k.len()).collect();
    let mut best: Vec<Option<(usize, Vec<&'a Note>)>> = vec![None; queries.len()];
    let mut lower = String::new();
    let mut ranks: Vec<(usize, usize)> = Vec::new();
    for n in notes {
        ranks.clear();
        let mut answer = |name: &str| {
            if let Some(hits) = wanted.get(name) {
                ranks.extend_from_slice(hits);
            }
        };
        if n.entry_of.is_some() {
            for k in names_of(n) {
                answer(&k);
            }
        } else {
            for name in [n.path.as_str(), n.id.as_str(), n.stem(), n.title.as_str()]
                .into_iter()
                .chain(n.aliases.iter().map(String::as_str))
            {
                let name = name.trim();
                if name.is_ascii() && !lengths.contains(&name.len()) {
                    continue;
                }
                lower.clear();
                lower.extend(name.chars().flat_map(char::to_lowercase));
                answer(&lower);
            }
        }
        if ranks.is_empty() {
            continue;
        }
        // A note answers a query at the best (lowest) rank of the keys it answers to.
        ranks.sort_unstable();
        ranks.dedup_by_key(|(q, _)| *q);
        for &(q, rank) in &ranks {
            match &mut best[q] {
                Some((r, found)) if *r == rank => found.push(n),
                Some((r, _)) if *r < rank => {}
                slot => *slot = Some((rank, vec![n])),
            }
        }
    }
    best.into_iter()
        .map(|b| match b {
            Some((_, found)) if found.len() == 1 => found.first().copied(),
            _ => None,
        })
        .collect()
}

fn names_of(n: &Note) -> Vec<String> {
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
    let mut seen = FxHashSet::default();
    names
        .into_iter()
        .map(|name| name.trim().to_lowercase())
        .filter(|k| !k.is_empty() && seen.insert(k.clone()))
        .collect()
}

/// Whether `target` names an attachment rather than a note.
pub fn is_attachment(target: &str) -> bool {
    let last = target.rsplit('/').next().unwrap_or(target);
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && !ext.chars().all(|c| c.is_ascii_digit())
                && !ext.eq_ignore_ascii_case("md")
                && !ext.eq_ignore_ascii_case("markdown")
                && !ext.eq_ignore_ascii_case("mdx")
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
            s.strip_suffix(".mdx").unwrap_or(&s).to_owned(),
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

    #[test]
    fn a_note_answers_to_its_path_id_stem_title_and_aliases() {
        let note = |path: &str, text: &str| crate::parse_note(path, text.as_bytes()).note.unwrap();
        let notes = vec![
            note(
                "a/adr-9.md",
                "---\ntitle: ADR-9 Cluster\naliases: [nine]\n---\nbody\n",
            ),
            note("b/adr-9.md", "# Other nine\n"),
            note("a/x.md", "x\n"),
        ];
        let names = NoteNames::new(&notes);
        let from = &notes[2];
        assert_eq!(names.resolve_one("a/adr-9", from), Some(0));
        assert_eq!(
            names.resolve_one("[[ADR-9 cluster]]".trim_matches(['[', ']']), from),
            Some(0)
        );
        assert_eq!(names.resolve_one("NINE", from), Some(0));
        assert_eq!(names.resolve_one("../a/adr-9.md", from), Some(0));
        assert_eq!(names.resolve("adr-9", from), vec![0, 1]);
        assert_eq!(names.resolve_one("adr-9", from), None);
        assert_eq!(names.resolve_one("missing", from), None);
        let found = find_named(
            &notes,
            &[
                ("nine", from),
                ("adr-9", from),
                ("missing", from),
                ("A/ADR-9.md", from),
            ],
        );
        let paths: Vec<Option<&str>> = found.iter().map(|n| n.map(|n| n.path.as_str())).collect();
        assert_eq!(paths, [Some("a/adr-9.md"), None, None, Some("a/adr-9.md")]);
    }

    /// A path from a folder below the root, as a translation's links are
    /// (`[[Obsidian Publish/Security]]` in a page under `ar/`), names the
    /// notes whose paths end with it at a folder's start.
    #[test]
    fn a_path_names_the_notes_whose_paths_end_with_it() {
        let note = |path: &str| crate::parse_note(path, b"x\n").note.unwrap();
        let notes = vec![
            note("ar/Obsidian Publish/Security.md"),
            note("de/Obsidian Publish/Sicherheit.md"),
            note("ar/Index.md"),
        ];
        let names = NoteNames::new(&notes);
        let from = &notes[2];
        assert_eq!(
            names.resolve_one("Obsidian Publish/Security", from),
            Some(0)
        );
        assert_eq!(
            names.resolve_one("obsidian publish/sicherheit.md", from),
            Some(1)
        );
        assert_eq!(names.resolve_one("Publish/Security", from), None);
        assert_eq!(names.resolve_one("Other/Security", from), None);
    }

    #[test]
    fn find_named_answers_as_the_name_index_does_for_any_case_and_script() {
        let note = |path: &str, text: &str| crate::parse_note(path, text.as_bytes()).note.unwrap();
        let notes = vec![
            note("adr/été.md", "# ÉTÉ Plan\n"),
            // `İ` lowercases to three bytes: its name is longer lowercased.
            note("places/ist.md", "# İstanbul Office\n"),
            note("Ops/Runbook.md", "---\naliases: [RB]\n---\n# Runbook\n"),
            note("x.md", "x\n"),
        ];
        let names = NoteNames::new(&notes);
        let from = &notes[3];
        let targets = [
            "été plan",
            "ÉTÉ PLAN",
            "İstanbul office",
            "i\u{307}stanbul office",
            "ops/runbook",
            "OPS/RUNBOOK.MD",
            "rb",
            "runbook",
            "Runbook ",
            "istanbul office",
            "missing",
        ];
        let queries: Vec<(&str, &Note)> = targets.iter().map(|t| (*t, from)).collect();
        let found = find_named(&notes, &queries);
        for (t, f) in targets.iter().zip(found) {
            let want = names.resolve_one(t, from).map(|i| notes[i].path.as_str());
            assert_eq!(f.map(|n| n.path.as_str()), want, "{t}");
        }
        assert!(names.resolve_one("ÉTÉ PLAN", from).is_some());
        assert!(names.resolve_one("OPS/RUNBOOK.MD", from).is_some());
    }

    #[test]
    fn hubs_are_the_notes_most_linked_to() {
        let note = |path: &str, text: &str| crate::parse_note(path, text.as_bytes()).note.unwrap();
        let notes = [
            note("index.md", "# Index\n[[a]] [[b]] [[a]]\n"),
            note("a.md", "# A\nsee [[b]] and [[index]] and [[a]]\n"),
            note(
                "b.md",
                "---\nrelated_memory: ['[[a]]']\n---\n# B\n![[chart.png]] [[index]]\n",
            ),
            note("c.md", "# C\n[[b]] [[nowhere]]\n"),
        ];
        let refs: Vec<&Note> = notes.iter().collect();
        // b: index, a, c. a: index, b (its self-link and the repeat do not count).
        // index: a, b.
        assert_eq!(
            most_linked(&refs, 10),
            [
                ("b.md".to_owned(), 3),
                ("a.md".to_owned(), 2),
                ("index.md".to_owned(), 2)
            ]
        );
        assert_eq!(most_linked(&refs, 1).len(), 1);
        // A confidential note's links count for nobody (red team: a link in
        // its body raised another note's "linked from" count).
        let notes = [
            note("c1.md", "---\nsensitivity: confidential\n---\n[[a]]\n"),
            note("p1.md", "[[a]]\n"),
            note("p2.md", "[[a]]\n"),
            note("a.md", "# A\n"),
        ];
        let refs: Vec<&Note> = notes.iter().collect();
        assert_eq!(most_linked(&refs, 10), [("a.md".to_owned(), 2)]);
    }
}
