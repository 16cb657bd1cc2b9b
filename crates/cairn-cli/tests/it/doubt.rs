//! Doubt means secret, through the real binary: notes whose sensitivity cannot be
//! read with certainty (a duplicate key or a syntax error beside `sensitivity:
//! secret`, `Sensitivity: SECRET`, `[secret]`, `top-secret`, keys that disagree, a
//! repeated key, an entry's unknown `**Sensitivity:**`) leave no trace in any
//! command's stdout or stderr, `get` refuses them by path (exit 4), and `lint`
//! reports each doubt as an error with its line; TOML and JSON front matter by
//! the same rule. Then a fixed-seed run of
//! generated front matter through every read command and format, and banners
//! spelled with digits for letters (`C0NFIDENTIAL`) through the same.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::test_cairn;

#[path = "../../../cairn-engine/tests/it/support/frontmatter_gen.rs"]
mod frontmatter_gen;

use std::path::Path;
use std::process::Output;

use cairn_note::Sensitivity;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};

/// (file, text, canary, line of the `sensitivity-doubt` error or `None` when the
/// note is certainly secret).
fn variants() -> Vec<(&'static str, String, &'static str, Option<usize>)> {
    let note = |c: &str, front: &str| {
        format!(
            "---\ntitle: {c} zebra ledger\n{front}\n---\n# {c} zebra ledger\n\nThe {c} body about zebras and ledgers.\n"
        )
    };
    vec![
        ("notes/dup.md", note("Qza1", "title: again\nsensitivity: secret"), "Qza1", Some(4)),
        ("notes/syntax.md", note("Qza2", "broken: [oops\nsensitivity: secret"), "Qza2", Some(4)),
        ("notes/case.md", note("Qza3", "pinned: true\nSensitivity: SECRET"), "Qza3", None),
        ("notes/list.md", note("Qza4", "pinned: true\nsensitivity: [secret]"), "Qza4", Some(4)),
        ("notes/unknown.md", note("Qza5", "pinned: true\nsensitivity: top-secret"), "Qza5", Some(4)),
        (
            "notes/disagree.md",
            note("Qza6", "pinned: true\nsensitivity: public\nclassification: internal"),
            "Qza6",
            Some(5),
        ),
        (
            "notes/repeated.md",
            note("Qza7", "sensitivity: public\nsensitivity: public"),
            "Qza7",
            Some(3),
        ),
        (
            "notes/nested.md",
            note("Qza8", "pinned: true\nmetadata: {Sensitivity: secret}"),
            "Qza8",
            None,
        ),
        // TOML and JSON front matter: the same rule.
        (
            "notes/toml-dup.md",
            "+++\ntitle = \"Qzt1 zebra ledger\"\ntitle = \"again\"\nsensitivity = \"secret\"\n+++\n# Qzt1 zebra ledger\n\nThe Qzt1 body about zebras and ledgers.\n".to_owned(),
            "Qzt1",
            Some(4),
        ),
        (
            "notes/toml-extra.md",
            "+++\ntitle = \"Qzt2 zebra ledger\"\n[extra]\nsensitivity = \"top-secret\"\n+++\n# Qzt2 zebra ledger\n\nThe Qzt2 body about zebras and ledgers.\n".to_owned(),
            "Qzt2",
            Some(4),
        ),
        (
            "notes/toml-case.md",
            "+++\ntitle = \"Qzt3 zebra ledger\"\nSensitivity = \"SECRET\"\n+++\n# Qzt3 zebra ledger\n\nThe Qzt3 body about zebras and ledgers.\n".to_owned(),
            "Qzt3",
            None,
        ),
        (
            "notes/json-list.md",
            "{\n  \"title\": \"Qzj1 zebra ledger\",\n  \"sensitivity\": [\"secret\"]\n}\n# Qzj1 zebra ledger\n\nThe Qzj1 body about zebras and ledgers.\n".to_owned(),
            "Qzj1",
            Some(3),
        ),
        // Red-team shapes (fail before): old-Mac line ends, a block behind a
        // blank line, an invisible character in the key, keys that state a
        // level plainly, a tag.
        (
            "notes/lone-cr.md",
            "---\rsensitivity: secret\r---\r# Qzr1 zebra ledger\r\rThe Qzr1 body about zebras and ledgers.\r".to_owned(),
            "Qzr1",
            None,
        ),
        (
            "notes/blank-first.md",
            "\n---\nsensitivity: secret\n---\n# Qzr2 zebra ledger\n\nThe Qzr2 body about zebras and ledgers.\n".to_owned(),
            "Qzr2",
            None,
        ),
        (
            "notes/zero-width.md",
            note("Qzr3", "pinned: true\nsensi\u{200B}tivity: secret"),
            "Qzr3",
            None,
        ),
        ("notes/security.md", note("Qzr4", "security: secret"), "Qzr4", None),
        ("notes/flag.md", note("Qzr5", "secret: true"), "Qzr5", None),
        ("notes/tag.md", note("Qzr6", "tags: [ops, secret]"), "Qzr6", None),
        // The same beside a syntax error (fail before: the block's keys were
        // dropped and the note shown), and beside a colon in a value (read with
        // the value quoted).
        ("notes/broken-tag.md", note("Qzr7", "broken: [oops\ntags: [ops, secret]"), "Qzr7", Some(4)),
        (
            "notes/broken-security.md",
            note("Qzr8", "broken: [oops\nsecurity: confidential"),
            "Qzr8",
            Some(4),
        ),
        ("notes/colon-tag.md", note("Qzr9", "summary: Incident: x\ntags: [secret]"), "Qzr9", None),
        (
            "decisions.md",
            "---\ntitle: Decision log\n---\n### [2026-01-02] Keep zebra ledgers\n\n**Category:** data\n\nVisible decision about zebras.\n\n---\n\n### [2026-01-03] Qza9 zebra ledger\n\n**Sensitivity:** top-secret\n\nThe Qza9 body about zebras and ledgers.\n\n---\n".to_owned(),
            "Qza9",
            Some(14),
        ),
    ]
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn run(vault: &Path, args: &[&str], stdin: Option<String>) -> Output {
    let mut c = test_cairn();
    c.env_remove("CAIRN_CONFIG")
        .args(args)
        .arg("--vault")
        .arg(vault)
        .current_dir(vault);
    if let Some(s) = stdin {
        c.write_stdin(s);
    }
    c.output().unwrap()
}

fn text_of(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every read command and format, over the vault: (what was run, stdout + stderr).
fn read_everything(vault: &Path, task: &str, paths: &[&str]) -> Vec<(String, String)> {
    let mut runs: Vec<Vec<String>> = Vec::new();
    let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    for format in ["prompt", "markdown", "json"] {
        for target in ["claude", "codex", "cursor", "gemini", "opencode", "generic"] {
            runs.push(s(&[
                "wakeup", "--format", format, "--target", target, "--task", task,
            ]));
        }
        runs.push(s(&["wakeup", "--format", format, "--budget", "9000"]));
    }
    for format in ["text", "json"] {
        runs.push(s(&[
            "search", task, "--all", "--limit", "50", "--format", format,
        ]));
        runs.push(s(&["explain", "--task", task, "--format", format]));
        runs.push(s(&[
            "lint",
            "--format",
            format,
            "--now",
            "2026-11-22T09:00:00Z",
        ]));
        runs.push(s(&[
            "memory", "list", "--scope", "user", "--format", format,
        ]));
    }
    for p in paths {
        runs.push(s(&["get", p]));
        runs.push(s(&["get", p, "--format", "json"]));
    }
    let mut out = Vec::new();
    for args in runs {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        out.push((args.join(" "), text_of(&run(vault, &a, None))));
    }
    let payload = format!(
        "{{\"cwd\":{},\"source\":\"startup\"}}",
        serde_json::to_string(&vault.display().to_string()).unwrap()
    );
    for client in ["claude", "codex", "gemini", "cursor"] {
        let a = [
            "hook",
            "session-start",
            "--client",
            client,
            "--deadline-ms",
            "20000",
        ];
        out.push((a.join(" "), text_of(&run(vault, &a, Some(payload.clone())))));
    }
    out
}

fn assert_absent(outputs: &[(String, String)], canaries: &[&str]) {
    for (cmd, text) in outputs {
        let lower = text.to_lowercase();
        for c in canaries {
            assert!(
                !lower.contains(&c.to_lowercase()),
                "`cairn {cmd}` leaks {c}:\n{text}"
            );
        }
    }
}

#[test]
fn doubtful_notes_leave_no_trace_and_lint_names_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path();
    let all = variants();
    for (path, text, _, _) in &all {
        write(vault, path, text);
    }
    // Controls: an ordinary note, and a broken block without a sensitivity key
    // (kept internal: an ordinary post is not hidden).
    write(
        vault,
        "notes/control.md",
        "---\ntitle: Control zebra ledger\n---\nControlmark zebras and ledgers.\n",
    );
    write(
        vault,
        "notes/post.md",
        "---\ntitle: [Foo bar\n---\n# Zebra ledger post\n\nPostmark zebras and ledgers.\n",
    );

    let paths: Vec<&str> = all
        .iter()
        .map(|v| v.0)
        .filter(|p| *p != "decisions.md")
        .collect();
    let outputs = read_everything(vault, "zebra ledger", &paths);
    let canaries: Vec<&str> = all.iter().map(|v| v.2).collect();
    assert_absent(&outputs, &canaries);

    // The controls are found, so the checks above can fail.
    let search = &outputs
        .iter()
        .find(|(c, _)| c.starts_with("search"))
        .unwrap()
        .1;
    assert!(
        search.contains("Controlmark") || search.contains("Control zebra"),
        "{search}"
    );
    assert!(search.contains("Zebra ledger post"), "{search}");

    // By path: refused as secret.
    for p in &paths {
        let o = run(vault, &["get", p], None);
        assert_eq!(o.status.code(), Some(4), "get {p}: {}", text_of(&o));
    }

    // Lint: each doubt is an error at its line; the post's broken block is an error too.
    let o = run(
        vault,
        &["lint", "--format", "json", "--now", "2026-11-22T09:00:00Z"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = report["findings"].as_array().unwrap();
    let has = |code: &str, path: &str, line: Option<usize>| {
        findings.iter().any(|f| {
            f["code"] == code
                && f["path"] == path
                && f["severity"] == "error"
                && line.is_none_or(|l| f["line"] == l)
        })
    };
    for (path, _, _, line) in &all {
        match line {
            Some(l) => assert!(
                has("sensitivity-doubt", path, Some(*l)),
                "{path}:{l} in {findings:#?}"
            ),
            None => assert!(!has("sensitivity-doubt", path, None), "{path}"),
        }
    }
    assert!(has("frontmatter-yaml", "notes/post.md", None));
    assert!(!has("sensitivity-doubt", "notes/post.md", None));
    let text = text_of(&run(
        vault,
        &["lint", "--now", "2026-11-22T09:00:00Z"],
        None,
    ));
    assert!(
        text.contains("notes/unknown.md:4") && text.contains("[sensitivity-doubt]"),
        "{text}"
    );
}

/// 24 generated notes (fixed seed) in the user's memory scope, each with its own
/// canary; every read command and format over them.
#[test]
fn generated_front_matter_leaks_through_no_command() {
    let mut runner = TestRunner::new_with_rng(
        PtConfig::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = frontmatter_gen::front();
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path();
    let mut secret = Vec::new();
    let mut visible = Vec::new();
    let mut paths = Vec::new();
    let mut slugs = Vec::new();
    for i in 0..24 {
        let f = strategy.new_tree(&mut runner).unwrap().current();
        let canary = format!("Qzgen{i:02}x");
        let path = format!("memory/user/gen-{i:02}.md");
        write(vault, &path, &f.note(&canary));
        match f.expected() {
            Sensitivity::Secret => secret.push(canary),
            Sensitivity::Public | Sensitivity::Internal => visible.push(canary),
            Sensitivity::Confidential => {}
        }
        paths.push(path);
        slugs.push(format!("gen-{i:02}"));
    }
    assert!(
        secret.len() >= 6 && visible.len() >= 3,
        "{secret:?} {visible:?}"
    );
    let path_refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut outputs = read_everything(
        vault,
        "title described heading body zebras ledgers",
        &path_refs,
    );
    for slug in &slugs {
        for format in ["text", "json"] {
            let a = [
                "memory", "show", slug, "--scope", "user", "--format", format,
            ];
            outputs.push((a.join(" "), text_of(&run(vault, &a, None))));
        }
    }
    let secret_refs: Vec<&str> = secret.iter().map(String::as_str).collect();
    assert_absent(&outputs, &secret_refs);
    // Visible notes do show up, so the check can fail.
    let all_text = outputs
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<String>()
        .to_lowercase();
    for c in &visible {
        assert!(all_text.contains(&c.to_lowercase()), "{c} never shown");
    }
}

/// Banners spelled with digits or symbols for letters (`C0NFIDENTIAL — do not
/// share`, `**TOP S3CRET**`, `This note is c0nfidential.`) and spaced out in
/// lowercase withhold their notes from every read command and format: before,
/// each of these notes was shown whole to the agent. A note whose digits spell
/// no mark is shown, so the check can fail.
#[test]
fn marks_spelled_with_digits_leak_through_no_command() {
    let marks = [
        "C0NFIDENTIAL \u{2014} do not share",
        "CONFIDENT1AL",
        "**TOP S3CRET**",
        "5ECRET - internal only",
        "This note is c0nfidential.",
        "c o n f i d e n t i a l",
        "C-O-N-F-I-D-E-N-T-I-A-L",
        "Do n0t share",
        // Found by a later red-team list: the words of newer stamps, and
        // letters spelled out with digits for some.
        "Do n0t f0rward",
        "ATT0RNEY-CLIENT PRIVILEGED",
        "C 0 N F I D E N T I A L",
        "S-3-C-R-E-T",
        "C.0.N.F.I.D.E.N.T.I.A.L.",
        "_C_O_N_F_I_D_E_N_T_I_A_L_",
    ];
    withheld_everywhere(
        "Qzleet",
        marks.len(),
        |i, canary| {
            format!(
                "---\ntitle: Zebra ledger plan {i}\n---\n{}\n\nThe {canary} body about zebras and ledgers.\n",
                marks[i]
            )
        },
        "---\ntitle: Zebra ledger hosts\n---\nThe S3 bucket and EC2 hosts, v1.2.3: Qzleetokx zebras and ledgers.\n",
    );
}

/// Stamps whose words are joined by a symbol or an entity rather than a space
/// or a hyphen (a third red-team list), and stamps cut from their warning by a
/// run of symbols (a fourth) or carrying a warning the reader did not know (a
/// fifth): each let its note into every answer.
#[test]
fn stamps_joined_by_symbols_leak_through_no_command() {
    let marks = [
        "PRIVATE &amp; CONFIDENTIAL",
        "Confidential&Proprietary",
        "Privileged + Confidential",
        "Attorney\u{2013}Client Privileged",
        // A fourth list: a run of symbols between the stamp and the warning.
        "CONFIDENTIAL \u{2022} DO NOT SHARE",
        "Confidential \u{2192} internal only",
        "Confidential \u{26a0}\u{fe0f} do not share",
        // A fifth: handling warnings the list did not hold.
        "Private \u{2014} don't copy",
        "Secret \u{2014} authorized personnel only",
    ];
    withheld_everywhere(
        "Qzjoined",
        marks.len(),
        |i, canary| {
            format!(
                "---\ntitle: Zebra ledger plan {i}\n---\n{}\n\nThe {canary} body about zebras and ledgers.\n",
                marks[i]
            )
        },
        "---\ntitle: Zebra ledger R&D\n---\nTerms &amp; conditions, Q&A, pages 10\u{2013}20: Qzjoinedokx zebras and ledgers.\n",
    );
}

/// Front matter that states a level outside the keys read before: tags under
/// `labels`, `categories` or Obsidian's `cssclasses`, and a title that is a
/// banner (a sixth red-team list: each let its note into every answer).
#[test]
fn levels_stated_by_labels_or_a_title_leak_through_no_command() {
    let fronts = [
        "title: \"CONFIDENTIAL \u{2014} Zebra ledger plan\"",
        "title: Zebra ledger plan 1\nlabels: [confidential]",
        "title: Zebra ledger plan 2\ncategories: [Secret]",
        "title: Zebra ledger plan 3\ncssclasses: [confidential, wide]",
    ];
    withheld_everywhere(
        "Qzlabel",
        fronts.len(),
        |i, canary| {
            format!(
                "---\n{}\n---\nThe {canary} body about zebras and ledgers.\n",
                fronts[i]
            )
        },
        "---\ntitle: Zebra ledger secrets rotation\nkeywords: [secret, vault]\ncategories: [ops]\n---\nQzlabelokx zebras and ledgers.\n",
    );
}

/// Writes one note per `notes` entry (`note(i, canary)` gives its text, the
/// canary `{stem}{i}x` in it) and a plain note holding `{stem}okx`, reads
/// everything, and asserts no canary is shown while the plain note is (so the
/// check can fail).
fn withheld_everywhere(
    stem: &str,
    count: usize,
    note: impl Fn(usize, &str) -> String,
    plain: &str,
) {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path();
    let mut canaries = Vec::new();
    let mut paths = Vec::new();
    for i in 0..count {
        let canary = format!("{stem}{i}x");
        let path = format!("notes/{}-{i}.md", stem.to_lowercase());
        write(vault, &path, &note(i, &canary));
        canaries.push(canary);
        paths.push(path);
    }
    write(vault, "notes/plain.md", plain);
    let path_refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    let outputs = read_everything(vault, "zebras ledgers body", &path_refs);
    let canary_refs: Vec<&str> = canaries.iter().map(String::as_str).collect();
    assert_absent(&outputs, &canary_refs);
    let okay = format!("{stem}okx").to_lowercase();
    assert!(
        outputs
            .iter()
            .any(|(_, t)| t.to_lowercase().contains(&okay)),
        "the plain note is never shown"
    );
}
