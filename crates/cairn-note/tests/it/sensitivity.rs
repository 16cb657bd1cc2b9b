//! Doubt means secret: a sensitivity that cannot be read with certainty makes the
//! note secret, with an error diagnostic naming the key's line and no value. Each
//! case is a front matter (or an entry) and what it must read as.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_note::{
    Diagnostic, Note, Sensitivity, Severity, parse_file, parse_note, read_sensitivity,
};

use Sensitivity::{Confidential, Internal, Public, Secret};

/// Planted in titles and values: never in a diagnostic of a secret note.
const CANARY: &str = "Qz9CANARY";

fn parse(text: &str) -> (Note, Vec<Diagnostic>) {
    let p = parse_note("n.md", text.as_bytes());
    (p.note.expect("note"), p.diagnostics)
}

/// `front` (the block's lines) → sensitivity, and the line of the doubt (file
/// lines: the block starts on line 2), `None` for a certain reading.
fn check(front: &str, expect: Sensitivity, doubt_line: Option<usize>) {
    let text = format!("---\n{front}\n---\n# {CANARY} heading\n\n{CANARY} body.\n");
    let (note, diags) = parse(&text);
    assert_eq!(
        note.sensitivity, expect,
        "sensitivity of {front:?}: {diags:?}"
    );
    let doubts: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.code == "sensitivity-doubt")
        .collect();
    match doubt_line {
        None => assert!(
            doubts.is_empty(),
            "no doubt expected in {front:?}: {doubts:?}"
        ),
        Some(line) => {
            assert_eq!(doubts.len(), 1, "one doubt in {front:?}: {diags:?}");
            assert_eq!(doubts[0].line, Some(line), "doubt line in {front:?}");
            assert_eq!(doubts[0].severity, Severity::Error);
        }
    }
    if expect == Secret {
        for d in &diags {
            assert!(!d.message.contains(CANARY), "{front:?} quoted: {d}");
        }
    }
    // The one rule, from the raw text, agrees with the parser (CRLF and BOM too).
    let r = read_sensitivity(&text);
    assert_eq!(
        (r.sensitivity, r.doubt.and_then(|d| d.line)),
        (expect, doubt_line)
    );
    let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
    let r = read_sensitivity(&crlf);
    assert_eq!(r.sensitivity, expect, "CRLF {front:?}");
    assert_eq!(parse(&crlf).0.sensitivity, expect, "CRLF {front:?}");
}

#[test]
fn doubt_means_secret() {
    let cases: &[(&str, Sensitivity, Option<usize>)] = &[
        // The cases that were served in full.
        ("title: a\ntitle: b\nsensitivity: secret", Secret, Some(4)),
        ("title: [Qz9CANARY\nsensitivity: secret", Secret, Some(3)),
        ("Sensitivity: SECRET", Secret, None),
        ("sensitivity: [secret]", Secret, Some(2)),
        ("sensitivity: top-secret", Secret, Some(2)),
        ("sensitivity: Qz9CANARY", Secret, Some(2)),
        (
            "sensitivity: public\nclassification: internal",
            Secret,
            Some(3),
        ),
        ("sensitivity: public\nsensitivity: public", Secret, Some(2)),
        (
            "title: x\nSENSITIVITY: public\nsensitivity: public",
            Public,
            None,
        ),
        (
            "title: x\nSENSITIVITY: public\nsensitivity: internal",
            Secret,
            Some(4),
        ),
        // Nesting, case, quoting, aliases.
        ("metadata: {sensitivity: secret}", Secret, None),
        ("metadata:\n  Sensitivity: public", Public, None),
        (
            "metadata:\n  sensitivity: top\ntitle: Qz9CANARY",
            Secret,
            Some(3),
        ),
        ("list:\n  - classification: nope", Secret, Some(3)),
        ("\"Sensitivity\": 'public'", Public, None),
        ("'sensitivity': \"confidential \"", Confidential, None),
        ("base: &b {sensitivity: secret}\nother: *b", Secret, None),
        (
            "sensitivity: public\nmeta: {sensitivity: public}",
            Public,
            None,
        ),
        ("Data-Classification: confidential", Confidential, None),
        // Values that are not one known word.
        ("sensitivity:", Secret, Some(2)),
        ("sensitivity: ~", Secret, Some(2)),
        ("sensitivity: ''", Secret, Some(2)),
        ("sensitivity: 3", Secret, Some(2)),
        ("sensitivity: false", Secret, Some(2)),
        ("sensitivity: {level: public}", Secret, Some(2)),
        ("sensitivity: !custom public", Secret, Some(2)),
        ("sensitivity: pub lic", Secret, Some(2)),
        ("sensitivity: internal-only", Secret, Some(2)),
        ("classification: tutorial", Secret, Some(2)),
        // A broken block: any sensitivity-like key makes it secret, whatever its value.
        (
            "title: [x\nmeta: {a: 1, sensitivity: public}",
            Secret,
            Some(3),
        ),
        ("\"SENSITIVITY\": public\ntitle: [x", Secret, Some(2)),
        ("title: [x\n  - sensitivity: internal", Secret, Some(3)),
        ("title: [x\n? sensitivity\n: public", Secret, Some(3)),
        ("title: [x\n\"sens\\x69tivity\": public", Secret, Some(3)),
        // A line YAML reads as part of a string but that looks like the key.
        ("description: |\n  sensitivity: public", Secret, Some(3)),
        // Certain readings.
        ("sensitivity: Internal", Internal, None),
        ("sensitivity: PUBLIC # comment", Public, None),
        ("sensitivity: private", Confidential, None),
        ("Confidentiality: Restricted", Confidential, None),
        ("sensitivity: secret\nclassification: SECRET", Secret, None),
        ("title: no sensitivity here", Internal, None),
        // Not sensitivity-like: left alone.
        (
            "visibility: hidden\nprivate: true\nsensitivity_notes: x",
            Internal,
            None,
        ),
        ("description: \"a, sensitivity: b\"", Internal, None),
        // Broken blocks without such a key keep the default (and get a YAML error).
        ("title: Foo: bar", Internal, None),
        ("# sensitivity: secret\ntitle: [x", Internal, None),
        ("description: my sensitivity: notes", Internal, None),
        // A broken block whose line holds a level's word may state a level no
        // one can read (a tag, a key such as `security`): doubt.
        ("title: [x\ntags: [secret, ops]", Secret, Some(3)),
        ("title: [x\nsecurity: confidential", Secret, Some(3)),
        ("title: [x\ntags:\n  - Secret", Secret, Some(4)),
        ("title: [x\nsecret: true", Secret, Some(3)),
        ("title: [Top-Secret plans", Secret, Some(2)),
        ("title: [x\ntags: [secrets-management]", Internal, None),
    ];
    for &(front, expect, line) in cases {
        check(front, expect, line);
    }
}

#[test]
fn a_broken_block_without_the_key_is_reported() {
    let (n, d) = parse("---\ntitle: [Foo\n---\nbody\n");
    assert_eq!(n.sensitivity, Internal);
    assert!(d.iter().any(|d| d.code == "frontmatter-yaml"), "{d:?}");
    // A value YAML cannot read unquoted is read as written, and reported.
    let (n, d) = parse("---\ntitle: Foo: bar\n---\nbody\n");
    assert_eq!(n.sensitivity, Internal);
    assert_eq!(n.title, "Foo: bar");
    assert!(d.iter().any(|d| d.code == "frontmatter-unquoted"), "{d:?}");
}

/// A block that parses only once its values are quoted (`title: Incident: x`)
/// has its fields read: a key stating a level raises the note as in a block
/// that parses, and a sensitivity key in it is still doubt (the block as
/// written does not parse), whatever it says.
#[test]
fn a_block_read_with_its_values_quoted_keeps_every_level_it_states() {
    for (front, expect) in [
        ("title: Incident: x\ntags: [secret]", Secret),
        ("title: Incident: x\nsecurity: confidential", Confidential),
        ("title: Incident: x\nconfidential: true", Confidential),
        ("title: Incident: x\ntags: [ops]", Internal),
    ] {
        check(front, expect, None);
        assert_eq!(
            read_sensitivity(&format!("---\n{front}\n---\nx\n")).sensitivity,
            expect
        );
    }
    check("title: Incident: x\nsensitivity: public", Secret, Some(3));
    check("sensitivity: public: yes", Secret, Some(2));
}

#[test]
fn unclosed_blocks_with_the_key_are_secret() {
    let (n, d) = parse("---\nsensitivity: public\n\nQz9CANARY body\n");
    assert_eq!(n.sensitivity, Secret);
    assert!(
        d.iter()
            .any(|d| d.code == "sensitivity-doubt" && d.line == Some(2))
    );
    let (n, _) = parse("---\ntitle: x\n\nbody\n");
    assert_eq!(n.sensitivity, Internal);
    // A tag or key stating a level in the lines meant as the block: doubt. The
    // text after its first blank line is the body, read as text.
    for (text, line) in [
        ("---\ntitle: x\ntags: [ops, secret]\n\nbody\n", 3),
        ("---\ntitle: x\ntags:\n  - Confidential\n\nbody\n", 4),
    ] {
        let (n, d) = parse(text);
        assert_eq!(n.sensitivity, Secret, "{text:?}");
        assert!(
            d.iter()
                .any(|d| d.code == "sensitivity-doubt" && d.line == Some(line)),
            "{text:?}: {d:?}"
        );
    }
    let (n, _) = parse("---\ntitle: x\n\nThe secret of good tests.\n");
    assert_eq!(n.sensitivity, Internal);
}

/// An entry file: its entries' sensitivity fields → each entry's sensitivity (the
/// file is `file` unless given), and the doubt lines.
fn check_entries(front: &str, fields: &[&str], expect: Sensitivity, doubt: Option<usize>) {
    let mut text = format!("---\n{front}\n---\n");
    let head = text.lines().count() + 1;
    text.push_str(&format!("### [2026-01-02] {CANARY} entry\n"));
    for f in fields {
        text.push_str(f);
        text.push('\n');
    }
    text.push_str(&format!("\n{CANARY} body.\n\n---\n"));
    let p = parse_file("decisions.md", text.as_bytes());
    let entry = p
        .notes
        .iter()
        .find(|n| n.entry_of.is_some())
        .expect("entry");
    assert_eq!(
        entry.sensitivity, expect,
        "{front:?} {fields:?}: {:?}",
        p.diagnostics
    );
    let doubts: Vec<Option<usize>> = p
        .diagnostics
        .iter()
        .filter(|d| d.code == "sensitivity-doubt")
        .map(|d| d.line)
        .collect();
    assert_eq!(
        doubts,
        doubt
            .map(|l| Some(head + l))
            .into_iter()
            .collect::<Vec<_>>(),
        "{fields:?}"
    );
    if expect == Secret {
        for d in &p.diagnostics {
            assert!(!d.message.contains(CANARY), "{d}");
        }
    }
}

#[test]
fn entry_fields_follow_the_rule_and_only_raise() {
    let cases: &[(&str, &[&str], Sensitivity, Option<usize>)] = &[
        ("title: log", &["**Sensitivity:** secret"], Secret, None),
        ("title: log", &["**Sensitivity:** SECRET"], Secret, None),
        (
            "title: log",
            &["**Sensitivity:** top-secret"],
            Secret,
            Some(1),
        ),
        (
            "title: log",
            &["**Sensitivity:** Qz9CANARY"],
            Secret,
            Some(1),
        ),
        ("title: log", &["**Sensitivity:**"], Secret, Some(1)),
        (
            "title: log",
            &["**Category:** x", "**Sensitivity:** public"],
            Internal,
            None,
        ),
        (
            "title: log",
            &["**Classification:** private"],
            Confidential,
            None,
        ),
        (
            "title: log",
            &[
                "**Sensitivity:** public",
                "**Classification:** confidential",
            ],
            Secret,
            Some(2),
        ),
        (
            "sensitivity: secret",
            &["**Sensitivity:** public"],
            Secret,
            None,
        ),
        ("sensitivity: confidential", &[], Confidential, None),
        (
            "sensitivity: confidential",
            &["**Status:** Qz9CANARY"],
            Confidential,
            None,
        ),
        (
            "sensitivity: secret",
            &["**Status:** Qz9CANARY"],
            Secret,
            None,
        ),
    ];
    for &(front, fields, expect, doubt) in cases {
        check_entries(front, fields, expect, doubt);
    }
}
