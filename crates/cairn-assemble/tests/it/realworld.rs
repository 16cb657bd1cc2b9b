//! `fixtures/realworld`: one small note per shape real collections use (TOML and
//! JSON front matter, a KEP folder, Obsidian properties, a TIL note, an RFC field
//! list, index files). Each row says what the reader must make of the file: its
//! title, how its packet summary starts, its tags and its links. 100% right.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;

use cairn_assemble::summarize;
use cairn_note::parse_note;
use cairn_policy::ShownNote;

struct Expect {
    path: &'static str,
    title: &'static str,
    summary_starts: &'static str,
    tags: &'static [&'static str],
    links: &'static [&'static str],
}

const ROWS: &[Expect] = &[
    Expect {
        path: "blog/content/posts/2026-03-02-faster-builds.md",
        title: "Faster incremental builds in 0.9",
        summary_starts: "How the 0.9 release cut incremental build times in half.",
        tags: &["performance", "release"],
        links: &[],
    },
    Expect {
        path: "blog/content/posts/hugo-json.md",
        title: "Hugo page with JSON front matter",
        summary_starts: "JSON front matter is rare, but Hugo accepts it.",
        tags: &["hugo", "json"],
        links: &[],
    },
    Expect {
        path: "kep/keps/sig-node/4242-pod-pause/README.md",
        title: "KEP-4242: Pod Pause and Resume",
        summary_starts: "This KEP lets a user pause every container of a pod",
        tags: &[],
        links: &[],
    },
    Expect {
        path: "obsidian/Projects/Garden planner.md",
        title: "Garden planner",
        summary_starts: "A small app to plan which vegetables go in which bed",
        tags: &["2024-review", "garden", "project"],
        links: &["In progress", "Seed inventory"],
    },
    Expect {
        path: "obsidian/Projects/Seed inventory.md",
        title: "Seed inventory",
        summary_starts: "Which seeds are in the box, with their sowing windows.",
        tags: &["inventory", "seeds"],
        links: &[],
    },
    Expect {
        path: "til/git/undo-the-last-commit.md",
        title: "Undo The Last Commit",
        // The sentence that introduces the code block ("… reset softly:") is not
        // a summary when other prose exists.
        summary_starts: "The changes stay staged, ready to be committed again.",
        tags: &[],
        links: &[],
    },
    Expect {
        path: "rfcs/0042-scoped-threads.md",
        title: "0042-scoped-threads",
        summary_starts: "Add scoped threads that may borrow from their parent's stack, with *mut T",
        tags: &[],
        links: &[],
    },
    Expect {
        path: "docs/guide/index.md",
        title: "Guide",
        summary_starts: "The guide explains progress reporting and the --verbose flag",
        tags: &[],
        links: &[],
    },
    Expect {
        path: "docs/_index.md",
        title: "Docs",
        summary_starts: "Welcome to the documentation.",
        tags: &[],
        links: &[],
    },
];

#[test]
fn every_shape_reads_as_its_author_meant() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/realworld");
    let mut wrong = Vec::new();
    for e in ROWS {
        let bytes = std::fs::read(root.join(e.path)).unwrap();
        let n = parse_note(e.path, &bytes).note.expect("a note");
        let summary = summarize(&ShownNote::of(&n), &BTreeSet::new()).into_string();
        let mut links: Vec<&str> = n.wikilinks.iter().map(String::as_str).collect();
        links.extend(n.related_memory.iter().map(String::as_str));
        links.sort_unstable();
        links.dedup();
        if n.title != e.title
            || !summary.starts_with(e.summary_starts)
            || n.tags != e.tags
            || links != e.links
        {
            wrong.push(format!(
                "{}: title {:?}, summary {:?}, tags {:?}, links {:?}",
                e.path, n.title, summary, n.tags, links
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_note_file_of_the_fixture_has_a_row_but_templates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/realworld");
    let mut found = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                let rel = p
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel != "README.md" && !rel.contains("Templates/") {
                    found.push(rel);
                }
            }
        }
    }
    found.sort();
    let mut rows: Vec<&str> = ROWS.iter().map(|e| e.path).collect();
    rows.sort_unstable();
    assert_eq!(found, rows);
}
