//! Entry files: `decisions.md` / `lessons.md` written as dated entries become one
//! note per entry, with ids, dates, fields and lines; everything else stays whole.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use cairn_note::*;
use proptest::prelude::*;

fn fifty_decisions() -> String {
    let mut s = String::from(
        "---\nproject_id: ledger\nsensitivity: internal\ntags: [ledger]\n---\n# Decisions\n\n",
    );
    for i in 0..50 {
        s.push_str(&format_entry(
            chrono::NaiveDate::from_ymd_opt(2025, 1 + (i % 12), 1 + i % 28).unwrap(),
            &format!("Decision number {i} about topic{i}"),
            Some("architecture"),
            &[format!("t{i}"), "shared".into()],
            &format!("We chose option {i} because of reason {i}."),
        ));
        s.push('\n');
    }
    s
}

#[test]
fn fifty_entries_make_fifty_dated_decisions() {
    let text = fifty_decisions();
    let p = parse_file("ws/decisions.md", text.as_bytes());
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    assert_eq!(p.notes.len(), 50, "the heading-only preamble is not a note");
    let ids: std::collections::BTreeSet<_> = p.notes.iter().map(|n| n.id.clone()).collect();
    assert_eq!(ids.len(), 50);
    let n7 = &p.notes[7];
    assert_eq!(n7.id, "ws/decisions#decision-number-7-about-topic7");
    assert_eq!(n7.path, "ws/decisions.md#decision-number-7-about-topic7");
    assert_eq!(n7.file_path(), "ws/decisions.md");
    assert_eq!(n7.entry_of.as_deref(), Some("ws/decisions.md"));
    assert_eq!(n7.title, "Decision number 7 about topic7");
    assert_eq!(n7.memory_type, Some(MemoryType::Decision));
    assert_eq!(n7.created.unwrap().to_string(), "2025-08-08");
    assert_eq!(n7.project_id.as_deref(), Some("ledger"));
    assert_eq!(n7.tags, vec!["ledger", "shared", "t7"]);
    assert_eq!(n7.extra["category"], serde_json::json!("architecture"));
    assert!(n7.body.starts_with("### [2025-08-08] Decision number 7"));
    assert!(n7.body.contains("option 7"));
    assert!(
        !n7.body.contains("option 8"),
        "an entry stops at its separator"
    );
    assert!(!n7.body.contains("---"));
    // Line numbers point into the file.
    let line = text
        .lines()
        .position(|l| l.contains("Decision number 7 "))
        .unwrap()
        + 1;
    assert_eq!(n7.body_line, line);
    assert_eq!(n7.headings[0].line, line);
}

#[test]
fn lessons_fields_preamble_and_edge_cases() {
    let text = "\
---
sensitivity: internal
---
# Lessons

Hard-won lessons from the ledger service, newest last.

## [2024-02-03] pnpm strict isolation breaks require.resolve

**Category:** debugging
**Tags:** pnpm, #NestJS
**Status:** superseded
**Superseded by:** [[lessons#use-createrequire]]
**Sensitivity:** confidential
**Owner:** maren

Call it from the consuming package. See [[Runbook]].

```md
### [2024-01-01] not an entry inside a fence
```

## Unrelated heading closes the entry

text belonging to no entry

### [2024-13-40] Bad date still an entry

body #tagged

### [2024-05-01] Same title
one
### [2024-05-02] Same title
two
";
    let p = parse_file("lessons.md", text.as_bytes());
    let titles: Vec<_> = p
        .notes
        .iter()
        .map(|n| (n.id.as_str(), n.title.as_str()))
        .collect();
    assert_eq!(
        titles,
        vec![
            ("lessons", "Lessons"),
            (
                "lessons#pnpm-strict-isolation-breaks-require-resolve",
                "pnpm strict isolation breaks require.resolve"
            ),
            ("lessons#bad-date-still-an-entry", "Bad date still an entry"),
            ("lessons#same-title", "Same title"),
            ("lessons#same-title-2", "Same title"),
        ]
    );
    let head = &p.notes[0];
    assert!(head.entry_of.is_none());
    assert!(head.body.contains("Hard-won lessons"));
    assert!(!head.body.contains("pnpm"));

    let l = &p.notes[1];
    assert_eq!(l.memory_type, Some(MemoryType::Incident));
    assert_eq!(l.status, Status::Superseded);
    assert_eq!(l.superseded_by, vec!["lessons#use-createrequire"]);
    assert_eq!(
        l.sensitivity,
        Sensitivity::Confidential,
        "fields may raise sensitivity"
    );
    assert_eq!(l.tags, vec!["nestjs", "pnpm"]);
    assert_eq!(l.extra["owner"], serde_json::json!("maren"));
    assert_eq!(l.extra["category"], serde_json::json!("debugging"));
    assert_eq!(l.wikilinks, vec!["lessons", "Runbook"]);
    assert!(l.body.contains("not an entry inside a fence"));
    assert!(!l.body.contains("Unrelated heading"));

    let bad = &p.notes[2];
    assert_eq!(bad.created, None);
    assert_eq!(bad.tags, vec!["tagged"]);
    let d: Vec<_> = p
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.line))
        .collect();
    let bad_line = text.lines().position(|l| l.contains("2024-13-40")).unwrap() + 1;
    assert_eq!(d, vec![("entry-date", Some(bad_line))]);
    assert_eq!(
        p.notes[3].body.trim_end(),
        "### [2024-05-01] Same title\none"
    );
}

#[test]
fn a_lower_sensitivity_field_never_lowers_the_file() {
    let text =
        "---\nsensitivity: secret\n---\n### [2024-01-01] X\n**Sensitivity:** public\n\nbody\n";
    let p = parse_file("decisions.md", text.as_bytes());
    assert_eq!(p.notes.len(), 1);
    assert_eq!(p.notes[0].sensitivity, Sensitivity::Secret);
}

#[test]
fn other_files_are_never_split() {
    let text = "# Changelog\n\n### [2024-01-01] Added a thing\n\ntext\n";
    let p = parse_file("notes/changelog.md", text.as_bytes());
    assert_eq!(p.notes.len(), 1);
    assert_eq!(p.notes[0].id, "notes/changelog");
    // An entry file without entries is one note too.
    let p = parse_file("decisions.md", b"# Decisions\n\nNone yet.\n");
    assert_eq!(p.notes.len(), 1);
    assert_eq!(p.notes[0].path, "decisions.md");
    assert!(p.notes[0].entry_of.is_none());
}

#[test]
fn format_entry_round_trips() {
    let date = chrono::NaiveDate::from_ymd_opt(2026, 11, 22).unwrap();
    let e = format_entry(
        date,
        "Use\nNATS",
        Some("infra"),
        &["a".into(), "b c".into()],
        "Body.\n",
    );
    assert_eq!(
        e,
        "### [2026-11-22] Use NATS\n\n**Category:** infra\n**Tags:** a, b c\n\nBody.\n\n---\n"
    );
    let p = parse_file("decisions.md", e.as_bytes());
    assert_eq!(p.notes.len(), 1);
    assert_eq!(p.notes[0].title, "Use NATS");
    assert_eq!(p.notes[0].created, Some(date));
}

#[test]
fn value_diagnostics_point_at_the_key_line() {
    let p = parse_note(
        "a.md",
        b"---\ntitle: x\nsensitivity: top-secret\n---\nbody\n",
    );
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].line, Some(3));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn entry_files_never_panic_and_ids_are_unique(lines in proptest::collection::vec(
        prop_oneof![
            Just("### [2024-01-01] Same".to_owned()), Just("## [2024-02-30] Bad".to_owned()),
            Just("---".to_owned()), Just("```".to_owned()), Just("**Tags:** a, b".to_owned()),
            Just("**Status:** nope".to_owned()), Just("# Top".to_owned()), Just("## Sub".to_owned()),
            "\\PC{0,20}",
        ], 0..40)) {
        let text = lines.join("\n");
        let p = parse_file("decisions.md", text.as_bytes());
        let mut ids: Vec<_> = p.notes.iter().map(|n| n.id.clone()).collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        prop_assert_eq!(ids.len(), n);
        for note in &p.notes {
            prop_assert!(note.body_line >= 1);
        }
    }
}

/// An entry's `Status` word that cairn does not know (another tool's lifecycle
/// word, or a word `[vault] retiring_statuses` lists) is kept, quietly, as a
/// front matter `status` is: the configured list decides what it means.
#[test]
fn an_entry_status_word_is_kept_quietly() {
    let text = "\
# Decisions

## [2026-01-05] Keep the ledger in Postgres

**Status:** rejected

We looked at it and said no.

## [2026-01-06] Batch payouts hourly

**Status:** Superseded

Replaced by streaming.
";
    let p = parse_file("decisions.md", text.as_bytes());
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let rejected = &p.notes[0];
    assert_eq!(rejected.status_word.as_deref(), Some("rejected"));
    assert_eq!(
        rejected.status,
        Status::Active,
        "not a built-in retiring word"
    );
    let mut by_config = rejected.clone();
    by_config.retire_by(&["rejected".to_owned()]);
    assert_eq!(by_config.status, Status::Archived);
    assert_eq!(p.notes[1].status, Status::Superseded);
    assert_eq!(p.notes[1].status_word.as_deref(), Some("superseded"));
}

/// Fields written as Dataview's inline fields (`Key:: value`) are fields too,
/// and an entry's `Related files` (either way) are its related files, as front
/// matter's `related_files`: before, they were neither, and the line was the
/// entry's first sentence. A `::` inside a word (`std::mem`) is no field.
#[test]
fn dataview_fields_and_related_files_in_entries() {
    let text = "# Decisions\n\n\
        ## 2025-10-08 — One cache file per mode\n\n\
        Status:: accepted\n\
        related_files:: `src/cache.rs`, src/mode/\n\
        Tags:: cache, modes\n\n\
        Each mode writes its own cache file.\n\n\
        ### [2025-10-09] Keep std::mem::take\n\n\
        **Related files:** src/take.rs, src\\mem\\swap.rs, src/mem/*.rs\n\
        std::mem::take avoids a clone.\n";
    let p = parse_file("decisions.md", text.as_bytes());
    assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
    let a = &p.notes[0];
    assert_eq!(a.related_files, ["src/cache.rs", "src/mode/"]);
    assert_eq!(a.tags, ["cache", "modes"]);
    assert_eq!(a.status_word.as_deref(), Some("accepted"));
    assert!(!a.extra.contains_key("related_files"));
    let b = &p.notes[1];
    // Read as the front matter's are: `/`-separated, a glob its folder (review).
    assert_eq!(
        b.related_files,
        ["src/take.rs", "src/mem/swap.rs", "src/mem/"]
    );
    assert!(!b.extra.contains_key("std"), "{:?}", b.extra);
    // A list item's field is the field; `none` and a wikilink's brackets are
    // no file; `files` is no alias; a key ends in `::` alone is no field.
    let text = "# Decisions\n\n## 2025-10-10 — Keep one queue\n\n\
        - Status:: superseded\n\
        related_files:: none, [[src/queue.rs]]\n\
        Files:: 3 changed, none deleted\n\n\
        One queue is simpler.\n";
    let p = parse_file("decisions.md", text.as_bytes());
    let c = &p.notes[0];
    assert_eq!(c.status_word.as_deref(), Some("superseded"));
    assert_eq!(c.related_files, ["src/queue.rs"]);
    assert!(!c.extra.contains_key("__status"), "{:?}", c.extra);
}
