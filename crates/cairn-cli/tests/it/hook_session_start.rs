//! `cairn hook session-start` through the real binary, with the payloads each client
//! really sends: the envelope each client reads, its size caps, exit 0 on every kind of
//! breakage, byte-identical output, and no planted secret in any of it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::{DEMO_CANARIES, demo, test_cairn};

use std::process::Output;

use cairn_hooks::{Client, NOTICE_LINE, NOTICE_PREFIX};

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

/// The packet's block opens: a tag, or for Gemini CLI (which escapes `<` and `>`) a fence.
fn opens_block(client: Client, ctx: &str) -> bool {
    if client == Client::Gemini {
        ctx.starts_with("```cairn-memory ")
    } else {
        ctx.starts_with("<cairn-memory")
    }
}

/// The packet's block is whole: it ends with its closing tag or fence.
fn closes_block(client: Client, ctx: &str) -> bool {
    if client == Client::Gemini {
        ctx.trim_end().ends_with("\n```") && !ctx.contains("</cairn-memory>")
    } else {
        ctx.trim_end().ends_with("</cairn-memory>")
    }
}

fn assert_no_canary(text: &str) {
    for c in DEMO_CANARIES.iter() {
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
            assert!(opens_block(client, &ctx), "{client} {source}: {ctx}");
            assert!(closes_block(client, &ctx), "{client}: not whole");
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
fn a_resumed_or_compacted_session_gets_the_latest_session_note_whatever_its_age() {
    let config = demo().join("cairn.toml");
    let ledger = demo().join("repos/ledger").canonicalize().unwrap();
    // 73 days after the ledger's latest session note: past `continuity_days`.
    let later = [
        "--config",
        config.to_str().unwrap(),
        "--now",
        "2027-01-30T09:00:00Z",
    ];
    // Cursor's sessionStart payload says nothing of resuming.
    for client in [Client::Claude, Client::Codex, Client::Gemini] {
        let shown = |source: &str| {
            let payload = client.sample_payload(&ledger, source);
            context_of(client, &run(client, &later, payload.as_bytes()))
                .contains("payout retry spike")
        };
        assert!(!shown("startup"), "{client}: an old session at startup");
        assert!(shown("resume"), "{client}: resume lost the last session");
        assert!(shown("compact"), "{client}: compact lost the last session");
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
    // Time pinned, within `continuity_days` of hearth's latest session note
    // (2026-11-15): on the machine's clock the test failed from 2026-11-30 on,
    // when that note was shown after compaction only, whatever its age.
    let args = [
        "--config",
        config.to_str().unwrap(),
        "--now",
        "2026-11-25T09:00:00Z",
    ];
    for client in Client::ALL {
        let a = run(
            client,
            &args,
            client.sample_payload(&hearth, "startup").as_bytes(),
        );
        // Another session, resumed after compaction: same packet, same bytes.
        let other = client
            .sample_payload(&hearth, "compact")
            .replace("cairn-status-check", "another-session-id");
        let b = run(client, &args, other.as_bytes());
        assert_eq!(a.stdout, b.stdout, "{client}");
        context_of(client, &a);
    }
}

/// `CAIRN_TIMINGS=1` gives the hook's phases on stderr, one line, as
/// `cairn wakeup` gives its own, and changes nothing on stdout.
#[test]
fn timings_go_to_stderr_and_leave_the_answer_alone() {
    let config = demo().join("cairn.toml");
    let hearth = demo().join("repos/hearth").canonicalize().unwrap();
    let payload = Client::Claude.sample_payload(&hearth, "startup");
    let hook = |timings: bool| {
        let mut c = test_cairn();
        if timings {
            c.env("CAIRN_TIMINGS", "1");
        } else {
            c.env_remove("CAIRN_TIMINGS");
        }
        c.args(["hook", "session-start", "--client", "claude", "--config"])
            .arg(&config)
            .args(["--now", "2026-11-25T09:00:00Z", "--deadline-ms", "20000"])
            .write_stdin(payload.clone())
            .output()
            .unwrap()
    };
    let (with, without) = (hook(true), hook(false));
    assert_eq!(with.stdout, without.stdout);
    let stderr = String::from_utf8_lossy(&with.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("cairn: timings: "))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    for phase in [
        "hook ",
        ", answer ",
        ", select ",
        ", assemble ",
        ", render ",
    ] {
        assert!(lines[0].contains(phase), "{phase}: {}", lines[0]);
    }
    assert!(
        !String::from_utf8_lossy(&without.stderr).contains("timings"),
        "{}",
        String::from_utf8_lossy(&without.stderr)
    );
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
    std::fs::write(
        dir.path().join("about-me.md"),
        "---\nmemory_type: person\nscope: user\n---\n# About Ines Okafor\nBackend developer; prefers small reviewed changes.\n",
    )
    .unwrap();
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
        assert!(closes_block(client, &ctx), "{client}: cut mid-way");
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
        // The profile and the pins are in, whatever the cap (Codex's 2,400
        // tokens included): the budget drops task-layer items first.
        assert!(ctx.contains("About Ines Okafor"), "{client}: profile lost");
        for pin in ["Note 000", "Note 050", "Note 100"] {
            assert!(ctx.contains(pin), "{client}: pin {pin} lost");
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
            let err = String::from_utf8_lossy(&out.stderr);
            assert_notice(client, &out, &[]);
            assert!(err.starts_with("cairn: hook: "), "{client} {name}: {err}");
        }
    }
    // The reason names what is wrong; only the user sees it.
    let out = run(
        Client::Gemini,
        &["--config", "/nonexistent/cairn.toml"],
        b"{}",
    );
    assert_notice(Client::Gemini, &out, &["/nonexistent/cairn.toml"]);
}

/// A notice: exit 0, one envelope whose context is exactly the neutral line (no
/// path, no error text), and the reason (holding each of `says`) for the user: in
/// the `systemMessage` where the client shows one, and on stderr.
fn assert_notice(client: Client, out: &Output, says: &[&str]) {
    let ctx = context_of(client, out);
    assert_eq!(ctx, NOTICE_LINE, "{client}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let message = client.read_system_message(&stdout);
    assert_eq!(
        message.is_some(),
        client.shows_system_message(),
        "{client}: {stdout}"
    );
    if let Some(m) = &message {
        assert!(
            m.starts_with(NOTICE_PREFIX) && m.len() > NOTICE_LINE.len(),
            "{m}"
        );
    }
    for s in says {
        assert!(stderr.contains(s), "{client}: {s} not on stderr: {stderr}");
        if let Some(m) = &message {
            assert!(m.contains(s), "{client}: {s} not in {m}");
        }
    }
}

#[test]
fn wrong_arguments_still_answer_in_the_clients_envelope() {
    // (arguments after `hook`, whose envelope, what the reason names)
    let mut cases: Vec<(Vec<&str>, Client, &str)> = vec![
        (
            vec!["session-start", "--client", "nope"],
            Client::Claude,
            "nope",
        ),
        (vec!["session-start"], Client::Claude, "--client"),
        (vec![], Client::Claude, "session-start"),
    ];
    for c in Client::ALL {
        let name = c.as_str();
        cases.extend([
            (
                vec!["session-start", "--client", name, "--bogus"],
                c,
                "--bogus",
            ),
            (
                vec!["session-start", "--client", name, "--deadline-ms", "0"],
                c,
                "deadline-ms",
            ),
            (
                vec!["session-start", "--client", name, "--budget", "0"],
                c,
                "budget",
            ),
            (
                vec!["session-start", "--client", name, "--budget"],
                c,
                "budget",
            ),
            (
                vec!["nonsense-event", "--client", name],
                c,
                "nonsense-event",
            ),
        ]);
    }
    let payload = Client::Claude.sample_payload(&demo(), "startup");
    for (args, client, says) in &cases {
        let out = test_cairn()
            .arg("hook")
            .args(args)
            .write_stdin(payload.clone())
            .output()
            .unwrap();
        assert_notice(*client, &out, &[says]);
    }
    // Help is still help.
    let out = test_cairn()
        .args(["hook", "session-start", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--deadline-ms"));
}

#[test]
fn failure_text_is_redacted_and_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    // The error names the missing vault root, or the missing configuration file.
    let named = dir.path().join("named.toml");
    std::fs::write(
        &named,
        format!("[vault]\nroot = \"/nonexistent/{token}\"\n"),
    )
    .unwrap();
    let missing = dir.path().join(token).join("cairn.toml");
    for config in [&named, &missing] {
        for client in Client::ALL {
            let out = run(client, &["--config", config.to_str().unwrap()], b"{}");
            assert_notice(client, &out, &[]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stdout.contains("ghp_0123"), "{client}: {stdout}");
            assert!(!stderr.contains("ghp_0123"), "{client}: {stderr}");
            if let Some(m) = client.read_system_message(&stdout) {
                assert!(!m.contains('\n'), "{m}");
                assert!(m.contains("[redacted:"), "{client}: {m}");
            }
        }
    }
}

#[test]
fn a_stalled_full_build_answers_with_the_quick_packet() {
    // No index, and the full build never finishes (an injected fault, compiled in
    // for tests only): the quick packet answers, whatever the client. The deadline
    // is generous: the quick build needs tens of milliseconds, and the deadline only
    // bounds how long this test waits; it is not what is tested.
    let config = demo().join("cairn.toml");
    let ledger = demo().join("repos/ledger").canonicalize().unwrap();
    let threads: Vec<_> = Client::ALL
        .into_iter()
        .map(|client| {
            let config = config.clone();
            let ledger = ledger.clone();
            std::thread::spawn(move || {
                let index = tempfile::tempdir().unwrap();
                let out = test_cairn()
                    .env("CAIRN_FAULTS", "stall-full-build")
                    .args(["hook", "session-start", "--client", client.as_str()])
                    .args(["--config", config.to_str().unwrap()])
                    .args(["--index-dir", index.path().to_str().unwrap()])
                    .args(["--deadline-ms", "10000"])
                    .write_stdin(client.sample_payload(&ledger, "startup"))
                    .output()
                    .unwrap();
                (client, out)
            })
        })
        .collect();
    for t in threads {
        let (client, out) = t.join().unwrap();
        let ctx = context_of(client, &out);
        assert!(
            ctx.starts_with("(cairn: the full memory packet was not ready within 10000 ms"),
            "{client}: {ctx}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for part in ["Maren Lindqvist", "Never force-push shared branches"] {
            assert!(ctx.contains(part), "{client}: {part} missing: {ctx}");
        }
        assert!(closes_block(client, &ctx), "{client}");
        assert_no_canary(&String::from_utf8_lossy(&out.stdout));
        assert_no_canary(&String::from_utf8_lossy(&out.stderr));
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
            assert!(opens_block(client, &ctx), "{client}: {ctx}");
            assert_no_canary(&ctx);
        }
    }
}

#[test]
fn unreadable_stdin_still_gets_a_packet() {
    // A directory as stdin: every read fails.
    let vault = demo().join("vault");
    for client in Client::ALL {
        let stdin = std::fs::File::open(demo()).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
            .env("XDG_CACHE_HOME", common::XDG_CACHE)
            .args(["hook", "session-start", "--client", client.as_str()])
            .args(["--vault", vault.to_str().unwrap(), "--deadline-ms", "20000"])
            .stdin(std::process::Stdio::from(stdin))
            .output()
            .unwrap();
        let ctx = context_of(client, &out);
        assert!(opens_block(client, &ctx), "{client}: {ctx}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("cannot read the hook input"),
            "{client}: {err}"
        );
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
