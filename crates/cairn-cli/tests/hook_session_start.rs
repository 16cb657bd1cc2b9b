//! `cairn hook session-start` through the real binary, with the payloads each client
//! really sends: the envelope each client reads, its size caps, exit 0 on every kind of
//! breakage, byte-identical output, and no planted secret in any of it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::test_cairn;

use std::path::{Path, PathBuf};
use std::process::Output;

use cairn_hooks::{Client, NOTICE_PREFIX};

const CANARIES: &[&str] = &[
    "CANARY-SECRET-LEDGER-PG4",
    "CANARY-SECRET-HEARTH-7Q2",
    "CANARY-CONFIDENTIAL-LEDGER-NW9",
    "CANARY-CONFIDENTIAL-PEOPLE-3KD",
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "CANARY-PW",
    "ghp_Fak3CanaryT0kenForCairnDemoOnly9x2Q7",
    "CANARY-URLPW",
    "FakeCanarySlackTok3nDemo",
    "Production database access",
    "Break-glass access",
];

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo")
}

fn run(client: Client, args: &[&str], stdin: &[u8]) -> Output {
    test_cairn()
        .args(["hook", "session-start", "--client", client.as_str()])
        .args(args)
        .args(["--deadline-ms", "20000"])
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap()
}

/// Exit 0, exactly one JSON envelope on stdout, the context it carries.
fn context_of(client: Client, out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        stdout.ends_with('\n') && stdout.matches('\n').count() == 1,
        "one line: {stdout}"
    );
    client
        .read_envelope(&stdout)
        .unwrap_or_else(|e| panic!("{client}: {e}: {stdout}"))
}

fn assert_no_canary(text: &str) {
    for c in CANARIES {
        assert!(!text.contains(c), "leaked {c}");
    }
}

#[test]
fn every_client_gets_its_envelope_with_the_routed_packet() {
    let config = demo().join("cairn.toml");
    let ledger = demo().join("repos/ledger").canonicalize().unwrap();
    for client in Client::ALL {
        for source in ["startup", "resume", "clear", "compact"] {
            let payload = client.sample_payload(&ledger, source);
            let out = run(
                client,
                &["--config", config.to_str().unwrap()],
                payload.as_bytes(),
            );
            let ctx = context_of(client, &out);
            assert!(ctx.starts_with("<cairn-memory"), "{client} {source}: {ctx}");
            assert!(
                ctx.trim_end().ends_with("</cairn-memory>"),
                "{client}: not whole"
            );
            assert!(
                ctx.contains("Ledger (ledger)"),
                "{client} {source}: not routed: {ctx}"
            );
            assert!(
                ctx.contains("Maren Lindqvist"),
                "{client}: identity missing"
            );
            assert_no_canary(&String::from_utf8_lossy(&out.stdout));
            assert_no_canary(&String::from_utf8_lossy(&out.stderr));
            assert!(
                out.stderr.is_empty(),
                "{client}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn the_template_is_the_clients_own() {
    let config = demo().join("cairn.toml");
    let atlas = demo().join("repos/atlas").canonicalize().unwrap();
    let claude = context_of(
        Client::Claude,
        &run(
            Client::Claude,
            &["--config", config.to_str().unwrap()],
            Client::Claude.sample_payload(&atlas, "startup").as_bytes(),
        ),
    );
    let codex = context_of(
        Client::Codex,
        &run(
            Client::Codex,
            &["--config", config.to_str().unwrap()],
            Client::Codex.sample_payload(&atlas, "startup").as_bytes(),
        ),
    );
    // Codex's template lists sources at the end; Claude's puts one on every line.
    assert!(codex.contains("Sources: "), "{codex}");
    assert!(!claude.contains("Sources: "), "{claude}");
    assert_ne!(claude, codex);
}

#[test]
fn output_is_byte_identical_for_unchanged_inputs() {
    let config = demo().join("cairn.toml");
    let hearth = demo().join("repos/hearth").canonicalize().unwrap();
    for client in Client::ALL {
        let a = run(
            client,
            &["--config", config.to_str().unwrap()],
            client.sample_payload(&hearth, "startup").as_bytes(),
        );
        // Another session, resumed after compaction: same packet, same bytes.
        let other = client
            .sample_payload(&hearth, "compact")
            .replace("cairn-status-check", "another-session-id");
        let b = run(
            client,
            &["--config", config.to_str().unwrap()],
            other.as_bytes(),
        );
        assert_eq!(a.stdout, b.stdout, "{client}");
        context_of(client, &a);
    }
}

/// A vault far larger than any cap: 400 notes with long bodies and descriptions.
fn big_vault() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let words = [
        "retry",
        "payout",
        "ledger",
        "settlement",
        "idempotency",
        "migration",
        "kafka",
        "cutoff",
        "journal",
        "reconciliation",
        "latency",
        "backoff",
    ];
    for i in 0..400 {
        let kind = [
            "decision",
            "constraint",
            "incident",
            "pattern",
            "preference",
            "project",
        ][i % 6];
        let topic: Vec<&str> = (0..8)
            .map(|k| words[(i * 7 + k * 5) % words.len()])
            .collect();
        let body = format!(
            "---\ntitle: Note {i:03} about {t}\nmemory_type: {kind}\ndescription: {d}\npinned: {p}\n---\n# Note {i:03}\n\n{b}\n",
            t = topic[..3].join(" "),
            d = format!("A long description of {} ", topic.join(" ")).repeat(3),
            p = i % 50 == 0,
            b = format!("Body text on {}. ", topic.join(", ")).repeat(20),
        );
        std::fs::write(dir.path().join(format!("note-{i:03}.md")), body).unwrap();
    }
    dir
}

#[test]
fn caps_hold_by_dropping_whole_items_even_with_a_huge_budget() {
    let vault = big_vault();
    let v = vault.path().to_str().unwrap();
    for client in Client::ALL {
        let payload = client.sample_payload(vault.path(), "startup");
        let out = run(
            client,
            &["--vault", v, "--budget", "50000"],
            payload.as_bytes(),
        );
        let ctx = context_of(client, &out); // read_envelope enforces the caps
        let limits = client.limits();
        assert!(ctx.chars().count() <= limits.max_chars);
        assert!(
            ctx.chars().count() > limits.max_chars / 2,
            "{client}: budget wasted: {}",
            ctx.len()
        );
        assert!(
            ctx.trim_end().ends_with("</cairn-memory>"),
            "{client}: cut mid-way"
        );
        // Every item line is whole: it ends with its source path.
        for line in ctx.lines().filter(|l| l.starts_with("- Note")) {
            if client == Client::Codex {
                assert!(line.len() > 20, "{line}");
            } else {
                assert!(
                    line.ends_with(".md]") || line.ends_with(".md)"),
                    "{client}: cut item: {line}"
                );
            }
        }
        if client == Client::Codex {
            // read_envelope also checked cairn's token estimate against 2,400.
            assert!(ctx.len() <= 9_600);
        }
    }
}

#[test]
fn every_breakage_is_a_notice_and_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("cairn.toml");
    std::fs::write(&broken, "[vault]\nroot = [1, 2\n").unwrap();
    let bad_root = dir.path().join("badroot.toml");
    std::fs::write(&bad_root, "[vault]\nroot = \"does-not-exist\"\n").unwrap();
    let cases: Vec<(&str, Vec<String>, &[u8])> = vec![
        (
            "broken toml",
            vec!["--config".into(), broken.display().to_string()],
            b"{}",
        ),
        (
            "missing config",
            vec!["--config".into(), "/nonexistent/cairn.toml".into()],
            b"{}",
        ),
        (
            "vault root missing",
            vec!["--config".into(), bad_root.display().to_string()],
            b"{}",
        ),
        (
            "missing vault dir",
            vec!["--vault".into(), "/nonexistent/vault".into()],
            b"{}",
        ),
        (
            "unknown profile",
            vec![
                "--vault".into(),
                dir.path().display().to_string(),
                "--profile".into(),
                "nope".into(),
            ],
            b"{}",
        ),
        (
            "bad --now",
            vec![
                "--vault".into(),
                dir.path().display().to_string(),
                "--now".into(),
                "yesterday".into(),
            ],
            b"{}",
        ),
    ];
    for client in Client::ALL {
        for (name, args, stdin) in &cases {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(client, &args, stdin);
            let ctx = context_of(client, &out);
            assert!(ctx.starts_with(NOTICE_PREFIX), "{client} {name}: {ctx}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.starts_with("cairn: hook: "), "{client} {name}: {err}");
        }
    }
}

#[test]
fn garbage_stdin_still_gets_a_packet() {
    let vault = demo().join("vault");
    for stdin in [
        &b"not json at all"[..],
        b"[1,2,3]",
        b"{\"cwd\": 12}",
        b"\xff\xfe\x00",
        b"",
    ] {
        for client in Client::ALL {
            let out = run(client, &["--vault", vault.to_str().unwrap()], stdin);
            let ctx = context_of(client, &out);
            assert!(ctx.starts_with("<cairn-memory"), "{client}: {ctx}");
            assert_no_canary(&ctx);
        }
    }
}

#[test]
fn a_tiny_deadline_still_answers_with_a_valid_envelope() {
    // Whichever path answers (full, quick or notice), the client gets its envelope.
    let vault = big_vault();
    for client in Client::ALL {
        let out = test_cairn()
            .args([
                "hook",
                "session-start",
                "--client",
                client.as_str(),
                "--deadline-ms",
                "50",
            ])
            .args(["--vault", vault.path().to_str().unwrap()])
            .write_stdin(client.sample_payload(vault.path(), "startup"))
            .output()
            .unwrap();
        context_of(client, &out);
    }
}
