//! Parser behaviour on well-formed, odd and malformed notes, plus a property test
//! that arbitrary bytes never panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_note::*;
use proptest::prelude::*;

fn parse(text: &str) -> (Note, Vec<Diagnostic>) {
    let p = parse_note("dir/My Note.md", text.as_bytes());
    (p.note.expect("note"), p.diagnostics)
}

#[test]
fn full_frontmatter() {
    let text = "---\ntitle: Use Kafka\ndescription: Events go through Kafka.\nmemory_type: ADR\nproject_id: ledger\nsensitivity: Confidential\nfreshness: stale\nsource_of_truth: true\nretrieval_priority: high\npinned: yes\nstatus: superseded\nsuperseded_by: \"[[ADR-9 Use NATS]]\"\nsupersedes:\n  - [[ADR-1]]\ntriggers: [kafka, event bus]\nrelated_files: src/events.rs, src/bus.rs\ntags: [Events, '#infra']\naliases: [bus]\ndate: 2024-01-02\nupdated: 2024-03-04T10:00:00Z\nreview_after: 2025-01-01\nowner: alice\nnested: {a: 1}\n---\n# Heading One\nBody with [[Link]] and #Tag.\n";
    let (n, d) = parse(text);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(n.id, "dir/My Note");
    assert_eq!(n.title, "Use Kafka");
    assert_eq!(n.memory_type, Some(MemoryType::Decision));
    assert_eq!(n.sensitivity, Sensitivity::Confidential);
    assert_eq!(n.freshness, Some(Freshness::Stale));
    assert!(n.source_of_truth && n.pinned);
    assert_eq!(n.retrieval_priority, Some(Priority::High));
    assert_eq!(n.status, Status::Superseded);
    assert_eq!(n.superseded_by, vec!["ADR-9 Use NATS"]);
    assert_eq!(n.supersedes, vec!["ADR-1"]);
    assert_eq!(n.triggers, vec!["kafka", "event bus"]);
    assert_eq!(n.related_files, vec!["src/events.rs", "src/bus.rs"]);
    assert_eq!(n.tags, vec!["events", "infra", "tag"]);
    assert_eq!(n.created.unwrap().to_string(), "2024-01-02");
    assert_eq!(n.updated.unwrap().to_string(), "2024-03-04");
    assert_eq!(n.extra["owner"], serde_json::json!("alice"));
    assert_eq!(n.extra["nested"], serde_json::json!({"a": 1}));
    assert_eq!(n.headings[0].line, 25);
    assert_eq!(n.body_line, 25);
    assert_eq!(n.wikilinks, vec!["Link"]);
}

#[test]
fn title_fallbacks() {
    assert_eq!(parse("# From H1\ntext").0.title, "From H1");
    assert_eq!(parse("just text").0.title, "My Note");
    let agent = "---\nname: prefer-terse\ndescription: Keep replies short\nmetadata:\n  type: feedback\n---\nbody\n";
    let (n, d) = parse(agent);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(n.title, "prefer-terse");
    assert_eq!(n.memory_type, Some(MemoryType::Preference));
    assert_eq!(n.description.as_deref(), Some("Keep replies short"));
}

#[test]
fn unknown_values_become_diagnostics_and_defaults() {
    let (n, d) = parse(
        "---\nmemory_type: musing\nfreshness: eternal\npinned: maybe\nupdated: last week\ntags: 3\n---\nx",
    );
    assert_eq!(n.memory_type, None);
    assert_eq!(n.freshness, None);
    assert_eq!(n.sensitivity, Sensitivity::Internal);
    assert!(!n.pinned);
    assert_eq!(n.updated, None);
    assert_eq!(n.tags, vec!["3"]);
    let msgs: Vec<_> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(d.len(), 4, "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("unknown value `musing`")));
    assert!(msgs.iter().any(|m| m.contains("unknown value `eternal`")));
    assert!(msgs.iter().any(|m| m.contains("`last week` is not a date")));
}

/// A secret note's diagnostics name keys and lines, never its values.
#[test]
fn a_secret_notes_diagnostics_quote_no_value() {
    let (n, d) = parse(
        "---\nsensitivity: secret\nmemory_type: CANARY-1\nupdated: CANARY-2\nfreshness: CANARY-3\n---\nx",
    );
    assert_eq!(n.sensitivity, Sensitivity::Secret);
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(d.iter().all(|d| !d.message.contains("CANARY")), "{d:?}");
    // A doubtful one, whose YAML error would quote the duplicated key's text.
    let (n, d) = parse("---\nsensitivity: top\nCANARY-4: a\nCANARY-4: b\n---\nx");
    assert_eq!(n.sensitivity, Sensitivity::Secret);
    assert!(d.iter().any(|d| d.code == "frontmatter-yaml"), "{d:?}");
    assert!(d.iter().all(|d| !d.message.contains("CANARY")), "{d:?}");
}

/// Hand-written front matter often holds a colon in a title (`title: Incident:
/// cookie path`), which YAML cannot read unquoted: the note keeps its fields
/// (type, project, date, related files), with a warning per value, instead of
/// losing every key.
#[test]
fn values_yaml_cannot_read_unquoted_are_read_as_written() {
    let (n, d) = parse(
        "---\ntitle: Incident: cookie path\nmemory_type: incident\nproject_id: flask\nupdated: 2026-06-20\nrelated_files: [src/sessions.py]\nowner: @alice\n---\nbody\n",
    );
    assert_eq!(n.title, "Incident: cookie path");
    assert_eq!(n.memory_type, Some(MemoryType::Incident));
    assert_eq!(n.project_id.as_deref(), Some("flask"));
    assert_eq!(
        n.updated.map(|d| d.to_string()).as_deref(),
        Some("2026-06-20")
    );
    assert_eq!(n.related_files, ["src/sessions.py"]);
    let found: Vec<_> = d
        .iter()
        .map(|d| (d.code.as_str(), d.line, d.severity))
        .collect();
    assert_eq!(
        found,
        [
            ("frontmatter-unquoted", Some(2), Severity::Warning),
            ("frontmatter-unquoted", Some(7), Severity::Warning)
        ]
    );
}

#[test]
fn malformed_frontmatter_keeps_the_body() {
    let (n, d) = parse("---\ntitle: [unclosed\nfoo: : bar\n---\n# Real\nbody text\n");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "frontmatter-yaml");
    assert!(d[0].line.is_some());
    assert_eq!(n.title, "Real");
    assert!(n.body.contains("body text"));

    let (n, d) = parse("---\ntitle: never closed\nbody\n");
    assert_eq!(d[0].code, "frontmatter-unclosed");
    assert!(n.body.contains("never closed"));

    let (_, d) = parse("---\n- a\n- b\n---\nx");
    assert_eq!(d[0].code, "frontmatter-shape");
}

#[test]
fn binary_empty_and_invalid_utf8() {
    let p = parse_note("a.md", b"\x00\x01\x02PNG");
    assert!(p.note.is_none());
    assert_eq!(p.diagnostics[0].code, "binary-file");
    let p = parse_note("a.md", b"  \n\n");
    assert!(p.note.is_none());
    assert_eq!(p.diagnostics[0].code, "empty-note");
    let p = parse_note("a.md", b"line one\nbad \xff byte\n");
    assert_eq!(p.diagnostics[0].code, "invalid-utf8");
    assert_eq!(p.diagnostics[0].line, Some(2));
    assert!(p.note.unwrap().body.contains('\u{fffd}'));
}

#[test]
fn crlf_and_bom() {
    let (n, d) = parse("\u{feff}---\r\ntitle: T\r\n---\r\nbody\r\n");
    assert!(d.is_empty());
    assert_eq!(n.title, "T");
    assert_eq!(n.body, "body\n");
}

#[test]
fn effective_date_order() {
    let (mut n, _) = parse("---\ncreated: 2024-01-01\n---\nx");
    assert_eq!(n.effective_date().unwrap().to_string(), "2024-01-01");
    n.created = None;
    n.mtime = Some(86_400);
    assert_eq!(n.effective_date().unwrap().to_string(), "1970-01-02");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sentences_keep_every_character_and_end_at_an_end_mark(
        text in "[a-zA-Z0-9 .!?()\\[\\]]{0,200}",
    ) {
        let sentences = cairn_note::split_sentences(&text);
        let squeezed = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        prop_assert_eq!(squeezed(&sentences.join(" ")), squeezed(&text));
        for s in &sentences[..sentences.len().saturating_sub(1)] {
            let mark = s.trim_end_matches([')', ']']);
            prop_assert!(
                mark.ends_with(['.', '!', '?']) && s.len() - mark.len() <= 1,
                "{:?} in {:?}", s, sentences
            );
        }
    }

    #[test]
    fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = parse_note("x.md", &bytes);
    }

    #[test]
    fn never_panics_on_frontmatter_like_text(
        front in "[ -~\n]{0,200}",
        body in "[ -~\n\\[\\]#`]{0,300}",
    ) {
        let text = format!("---\n{front}\n---\n{body}");
        let p = parse_note("x.md", text.as_bytes());
        if let Some(n) = p.note {
            prop_assert!(!n.title.is_empty());
        }
    }

    #[test]
    fn never_panics_on_markdown_shapes(lines in proptest::collection::vec(
        prop_oneof![
            Just("```".to_owned()), Just("~~~~".to_owned()), Just("# h".to_owned()),
            Just("[[a|b]]".to_owned()), Just("#tag".to_owned()), Just("---".to_owned()),
            Just("- item".to_owned()), "\\PC{0,20}",
        ], 0..30)) {
        let text = lines.join("\n");
        let _ = parse_note("x.md", text.as_bytes());
        let _ = prose_sentences(&text);
    }
}

/// Every markdown file under `dir`, with its path relative to `dir`.
fn markdown_files(dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, std::fs::read(&path).unwrap()));
        }
    }
}

/// `body_of` gives the body the whole parse gives, for every note of the
/// repository's fixtures that is one note to a file, and declines entry files.
#[test]
fn the_body_alone_is_the_body_of_the_whole_parse_on_every_fixture() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut files = Vec::new();
    markdown_files(&fixtures, &mut files);
    assert!(files.len() > 200, "{}", files.len());
    let mut compared = 0;
    for (name, bytes) in &files {
        let parsed = parse_file(name, bytes);
        match body_of(name, bytes) {
            Some(body) => {
                assert_eq!(parsed.notes.len(), 1, "{name}");
                assert_eq!(body, parsed.notes[0].body, "{name}");
                compared += 1;
            }
            None => assert!(
                entry_file_type(name).is_some() || parsed.notes.is_empty(),
                "{name}"
            ),
        }
    }
    assert!(compared > 200, "{compared}");
}

proptest! {
    /// The same on generated notes: front matter or none (YAML, TOML, an
    /// unclosed block), a byte order mark, Windows line ends, any text after.
    #[test]
    fn the_body_alone_is_the_body_of_the_whole_parse(
        front in prop_oneof![
            Just(String::new()),
            Just("---\ntitle: A\ntags: [x]\n---\n".to_owned()),
            Just("+++\ntitle = \"A\"\n+++\n".to_owned()),
            Just("---\ntitle: A\n".to_owned()),
            Just("---\n---\n".to_owned()),
        ],
        bom in any::<bool>(),
        crlf in any::<bool>(),
        body in "(\\PC|\n){0,80}",
    ) {
        let mut text = format!("{}{front}{body}", if bom { "\u{feff}" } else { "" });
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let parsed = parse_file("notes/a.md", text.as_bytes());
        match body_of("notes/a.md", text.as_bytes()) {
            Some(b) => {
                prop_assert_eq!(parsed.notes.len(), 1);
                prop_assert_eq!(&b, &parsed.notes[0].body);
            }
            None => prop_assert!(parsed.notes.is_empty()),
        }
    }
}
