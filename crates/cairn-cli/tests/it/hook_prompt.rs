//! `cairn hook prompt` through the real binary, with each client's prompt payload:
//! the envelope each client reads, a simulated session in which no note is given
//! twice, nothing at all when nothing qualifies, the session's record (note ids and
//! times only, private, reset on `clear`), no planted secret anywhere, and a
//! Claude-shaped session-start hook that Cursor runs staying silent when Cursor's
//! own cairn hook is wired.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::{DEMO_CANARIES, demo, test_cairn};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use cairn_hooks::{Client, SessionRecords};

fn config() -> String {
    demo().join("cairn.toml").display().to_string()
}

fn ledger() -> PathBuf {
    demo().join("repos/ledger").canonicalize().unwrap()
}

/// A `cairn` whose session records live in `cache` (its own per test).
fn cairn(cache: &Path) -> assert_cmd::Command {
    let mut c = test_cairn();
    c.env("CAIRN_CACHE_DIR", cache);
    c
}

fn prompt(cache: &Path, client: Client, session: &str, text: &str) -> Output {
    cairn(cache)
        .args(["hook", "prompt", "--client", client.as_str()])
        .args(["--config", &config(), "--deadline-ms", "20000"])
        .write_stdin(client.sample_prompt_payload(&ledger(), session, text))
        .output()
        .unwrap()
}

fn start(cache: &Path, session: &str, source: &str) -> String {
    let payload = Client::Claude
        .sample_payload(&ledger(), source)
        .replace("cairn-status-check", session);
    let out = cairn(cache)
        .args(["hook", "session-start", "--client", "claude"])
        .args(["--config", &config(), "--deadline-ms", "20000"])
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Client::Claude
        .read_envelope(&String::from_utf8(out.stdout).unwrap())
        .unwrap()
}

/// Exit 0, nothing on stderr, and the context of the envelope (`None`: stdout empty).
fn context_of(client: Client, out: &Output) -> Option<String> {
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{client}: {stderr}");
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_no_canary(&stdout);
    client
        .read_prompt_envelope(&stdout)
        .unwrap_or_else(|e| panic!("{client}: {e}: {stdout}"))
}

fn assert_no_canary(text: &str) {
    for c in DEMO_CANARIES.iter() {
        assert!(!text.contains(c), "leaked {c}");
    }
}

/// The note paths a rendered block cites, each at the end of its line.
fn cited(context: &str) -> Vec<String> {
    context
        .lines()
        .filter(|l| l.starts_with("- "))
        .filter_map(|l| {
            let l = l.trim_end().trim_end_matches([']', ')']);
            let at = l.rfind(['[', '(', ' '])?;
            Some(l[at + 1..].trim_start_matches("source: ").to_owned())
        })
        .filter(|p| p.ends_with(".md"))
        .collect()
}

#[test]
fn each_client_gets_its_envelope() {
    let cache = tempfile::tempdir().unwrap();
    let ask = "how do we retry a failed payout submission without paying twice";
    for (client, event) in [
        (Client::Claude, "UserPromptSubmit"),
        (Client::Codex, "UserPromptSubmit"),
        (Client::Gemini, "BeforeAgent"),
    ] {
        let out = prompt(cache.path(), client, &format!("envelope-{client}"), ask);
        let stdout = String::from_utf8(out.stdout.clone()).unwrap();
        let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            value["hookSpecificOutput"]["hookEventName"], event,
            "{stdout}"
        );
        assert_eq!(
            value.as_object().unwrap().len(),
            1,
            "only hookSpecificOutput: {stdout}"
        );
        assert!(stdout.ends_with('\n') && stdout.matches('\n').count() == 1);
        let ctx = context_of(client, &out).unwrap();
        assert!(ctx.contains("ADR-008 Retry payouts"), "{client}: {ctx}");
        assert!(ctx.chars().count() <= 1_200, "{client}: {}", ctx.len());
        assert!(cited(&ctx).len() <= 3, "{ctx}");
        if client == Client::Gemini {
            // Gemini CLI escapes `<` and `>`: a fence, no tags.
            assert!(ctx.starts_with("```cairn-memory kind=prompt\n"), "{ctx}");
            assert!(ctx.ends_with("\n```\n"), "{ctx}");
            assert!(
                !ctx.contains("<cairn-memory") && !ctx.contains("</"),
                "{ctx}"
            );
        } else {
            assert!(ctx.starts_with("<cairn-memory kind=\"prompt\">\n"), "{ctx}");
            assert!(ctx.ends_with("</cairn-memory>\n"), "{ctx}");
        }
    }
}

#[test]
fn a_session_never_gets_a_note_twice() {
    let cache = tempfile::tempdir().unwrap();
    let c = cache.path();
    let session = "simulated-session-1";
    let packet = start(c, session, "startup");
    let records = SessionRecords::in_cache(c);
    let at_start = records.given(session, std::time::SystemTime::now());
    assert!(
        at_start.len() >= 5,
        "the packet's notes are recorded: {at_start:?}"
    );
    let mut shown: BTreeSet<String> = BTreeSet::new();
    let mut added = 0;
    for ask in [
        "retry failed payout submissions with backoff and idempotency keys",
        "what happened with reconciliation drift after the DST change",
        "kafka consumer lag on the settlement projector, is a partition stuck",
    ] {
        let out = prompt(c, Client::Claude, session, ask);
        let Some(ctx) = context_of(Client::Claude, &out) else {
            continue;
        };
        for path in cited(&ctx) {
            assert!(
                !packet.contains(&format!("[{path}]")),
                "{path} was in the session-start packet"
            );
            assert!(shown.insert(path.clone()), "{path} given twice");
            added += 1;
        }
    }
    assert!(added >= 2, "the prompts added notes: {shown:?}");
    let recorded = records.given(session, std::time::SystemTime::now());
    assert_eq!(recorded.len(), at_start.len() + added, "{recorded:?}");
    // The same prompt again: what it gave is not given again (the next matches are,
    // if any pass the gate).
    let out = prompt(
        c,
        Client::Claude,
        session,
        "retry failed payout submissions with backoff and idempotency keys",
    );
    for path in context_of(Client::Claude, &out)
        .map(|c| cited(&c))
        .unwrap_or_default()
    {
        assert!(!packet.contains(&format!("[{path}]")), "{path} again");
        assert!(shown.insert(path.clone()), "{path} given twice");
    }
}

#[test]
fn nothing_at_all_when_nothing_qualifies() {
    let cache = tempfile::tempdir().unwrap();
    for client in [Client::Claude, Client::Codex, Client::Gemini] {
        for ask in [
            "what is the weather like in Lisbon this weekend",
            "",
            "   ",
            "please",
            "yes please continue",
            "ok thanks, go ahead",
        ] {
            let out = prompt(cache.path(), client, "quiet", ask);
            assert!(out.stdout.is_empty(), "{client} {ask:?}");
            assert!(out.stderr.is_empty(), "{client} {ask:?}");
            assert_eq!(out.status.code(), Some(0));
        }
    }
    // Garbage on stdin: nothing on stdout, one line on stderr.
    let out = cairn(cache.path())
        .args([
            "hook",
            "prompt",
            "--client",
            "claude",
            "--config",
            &config(),
        ])
        .write_stdin("not json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn secrets_never_appear_whatever_the_prompt() {
    let cache = tempfile::tempdir().unwrap();
    for ask in [
        "production database access credentials for the ledger postgres",
        "break-glass access procedure",
        "aws access key for the payout exporter",
        "slack token for the alerts webhook",
        "password for the staging database CANARY-PW",
        "partner contract terms with Northwind confidential",
    ] {
        for client in [Client::Claude, Client::Codex, Client::Gemini] {
            let out = prompt(cache.path(), client, "canary", ask);
            assert_eq!(out.status.code(), Some(0));
            assert_no_canary(&String::from_utf8_lossy(&out.stdout));
            assert_no_canary(&String::from_utf8_lossy(&out.stderr));
        }
    }
}

#[test]
fn clear_resets_the_record_and_it_holds_no_prompt_text() {
    let cache = tempfile::tempdir().unwrap();
    let c = cache.path();
    let session = "session-to-clear";
    start(c, session, "startup");
    let ask = "retry failed payout submissions zanzibarquokka backoff";
    let first = context_of(Client::Claude, &prompt(c, Client::Claude, session, ask)).unwrap();
    assert_eq!(
        context_of(Client::Claude, &prompt(c, Client::Claude, session, ask)),
        None
    );

    let records = SessionRecords::in_cache(c);
    let file = records.path(session);
    let bytes = std::fs::read_to_string(&file).unwrap();
    for word in ["zanzibarquokka", "retry failed", session] {
        assert!(!bytes.contains(word), "the record holds {word:?}: {bytes}");
    }
    let value: serde_json::Value = serde_json::from_str(&bytes).unwrap();
    assert_eq!(
        value.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["given", "version"]
    );
    assert!(
        value["given"]
            .as_object()
            .unwrap()
            .values()
            .all(serde_json::Value::is_u64)
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(records.dir()), 0o700);
    }

    // `/clear` drops the context: the record starts again from the new packet.
    start(c, session, "clear");
    let again = context_of(Client::Claude, &prompt(c, Client::Claude, session, ask)).unwrap();
    assert_eq!(cited(&again), cited(&first));
}

#[test]
fn failures_print_nothing_on_stdout_and_one_line_on_stderr() {
    let cache = tempfile::tempdir().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "prompt",
            "--client",
            "claude",
            "--config",
            "/nonexistent/cairn.toml",
        ],
        vec!["prompt", "--client", "cursor", "--config", "/x"],
        vec!["prompt", "--client", "codex", "--bogus"],
        vec!["prompt", "--client", "gemini", "--max-notes", "0"],
    ];
    for args in cases {
        let out = cairn(cache.path())
            .arg("hook")
            .args(&args)
            .write_stdin(Client::Claude.sample_prompt_payload(&ledger(), "f", "payout retry"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("cairn: hook: "), "{err}");
    }
}

#[test]
fn a_claude_hook_run_by_cursor_stays_silent_when_cursors_own_is_wired() {
    let home = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let cursor_payload = Client::Cursor.sample_payload(&ledger(), "startup");
    let run = || {
        cairn(cache.path())
            .env("HOME", home.path())
            .args([
                "hook",
                "session-start",
                "--client",
                "claude",
                "--config",
                &config(),
            ])
            .args(["--deadline-ms", "20000"])
            .write_stdin(cursor_payload.clone())
            .output()
            .unwrap()
    };
    // Cursor's own hook not wired: the Claude-shaped hook is the only one; it answers.
    let out = run();
    assert!(
        Client::Claude
            .read_envelope(&String::from_utf8_lossy(&out.stdout))
            .is_ok()
    );
    std::fs::create_dir_all(home.path().join(".cursor")).unwrap();
    std::fs::write(
        home.path().join(".cursor/hooks.json"),
        r#"{"version":1,"hooks":{"sessionStart":[{"command":"/usr/bin/cairn hook session-start --client cursor"}]}}"#,
    )
    .unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Claude Code's own payload still gets the packet.
    let out = cairn(cache.path())
        .env("HOME", home.path())
        .args([
            "hook",
            "session-start",
            "--client",
            "claude",
            "--config",
            &config(),
        ])
        .write_stdin(Client::Claude.sample_payload(&ledger(), "startup"))
        .output()
        .unwrap();
    assert!(
        Client::Claude
            .read_envelope(&String::from_utf8_lossy(&out.stdout))
            .is_ok()
    );
}
