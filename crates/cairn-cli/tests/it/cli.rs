//! The real binary: help text, exit codes, one-line errors, the README commands,
//! config discovery, `init`, git worktrees, and policy through every command.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::test_cairn;

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use assert_cmd::Command;
use predicates::prelude::*;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn demo() -> PathBuf {
    repo().join("fixtures/demo")
}

/// The binary with a clean environment: no user config, a fixed HOME.
fn cairn(home: &Path) -> Command {
    let mut c = test_cairn();
    c.env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("RUST_BACKTRACE", "1");
    c
}

#[test]
fn every_command_has_help() {
    let home = tempfile::tempdir().unwrap();
    cairn(home.path())
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("wakeup"));
    for cmd in ["wakeup", "search", "get", "explain", "init"] {
        cairn(home.path())
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(predicate::str::contains("Usage: cairn"));
    }
    cairn(home.path()).arg("--version").assert().success();
}

#[test]
fn readme_demo_command_works() {
    let home = tempfile::tempdir().unwrap();
    let out = cairn(home.path())
        .current_dir(repo())
        .args([
            "wakeup",
            "--config",
            "fixtures/demo/cairn.toml",
            "--cwd",
            "fixtures/demo/repos/ledger",
            "--task",
            "add retry to payout settlement",
            "--target",
            "claude",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("<cairn-memory"), "{text}");
    assert!(text.contains("ADR-008 Retry payouts"), "{text}");
}

/// A packet whose task notes the budget left out says so: the task did match
/// (held-out trial: a 500-token packet said "No note matches the task" above
/// "9 more relevant notes left out"), while a task that matches nothing still
/// says that nothing does, at the same budget.
#[test]
fn a_budget_too_small_for_the_task_s_notes_is_not_a_task_matching_nothing() {
    let home = tempfile::tempdir().unwrap();
    let wakeup = |task: &str| {
        let out = cairn(home.path())
            .current_dir(repo())
            .args(["wakeup", "--config", "fixtures/demo/cairn.toml"])
            .args(["--cwd", "fixtures/demo/repos/ledger", "--target", "claude"])
            .args(["--budget", "500", "--task", task])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let cut = wakeup("add retry to payout settlement");
    assert!(!cut.contains("No note matches the task"), "{cut}");
    assert!(
        cut.contains("The notes that match the task did not fit"),
        "{cut}"
    );
    let unmatched = wakeup("plan the office holiday party menu");
    assert!(
        unmatched.contains("No note matches the task"),
        "{unmatched}"
    );
    assert!(!unmatched.contains("did not fit"), "{unmatched}");
}

#[test]
fn usage_and_config_errors_exit_2_with_one_line() {
    let home = tempfile::tempdir().unwrap();
    // No configuration anywhere.
    let a = cairn(home.path()).arg("wakeup").assert().code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no configuration found"), "{err}");

    // Invalid config: file, line and key named.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("v")).unwrap();
    let cfg = dir.path().join("cairn.toml");
    std::fs::write(
        &cfg,
        "[vault]\nroot = \"v\"\n[[projects]]\nid = \"x\"\nrepo_paths = 3\n",
    )
    .unwrap();
    let a = cairn(home.path())
        .args(["wakeup", "--config"])
        .arg(&cfg)
        .assert()
        .code(2);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cairn.toml:5") && err.contains("projects[0].repo_paths"),
        "{err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );

    // Missing file given with --config.
    cairn(home.path())
        .args(["wakeup", "--config", "/nonexistent/cairn.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("config file not found"));
    // Bad flag values.
    cairn(home.path())
        .args(["wakeup", "--vault", ".", "--now", "yesterday"])
        .assert()
        .code(2);
    cairn(home.path())
        .args(["wakeup", "--vault", ".", "--target", "vim"])
        .assert()
        .code(2);
    cairn(home.path())
        .args(["wakeup", "--config", "a", "--vault", "b"])
        .assert()
        .code(2);
    cairn(home.path())
        .args(["wakeup", "--config"])
        .arg(demo().join("cairn.toml"))
        .args(["--project", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("known: ledger, atlas, hearth"));
    // A working directory that does not exist: its reason said once.
    let a = cairn(home.path())
        .args(["wakeup", "--config"])
        .arg(demo().join("cairn.toml"))
        .args(["--cwd", "/nonexistent/cairn-cwd"])
        .assert()
        .failure();
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.contains("/nonexistent/cairn-cwd"), "{err}");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn config_is_discovered_from_env_and_xdg() {
    let home = tempfile::tempdir().unwrap();
    let cfg = demo().join("cairn.toml");
    cairn(home.path())
        .env("CAIRN_CONFIG", &cfg)
        .args(["search", "idempotency", "--all", "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Idempotency"));
    let xdg = home.path().join("xdg");
    std::fs::create_dir_all(xdg.join("cairn")).unwrap();
    let text = std::fs::read_to_string(&cfg).unwrap().replace(
        "root = \"vault\"",
        &format!("root = {:?}", demo().join("vault")),
    );
    std::fs::write(xdg.join("cairn/config.toml"), text).unwrap();
    cairn(home.path())
        .env("XDG_CONFIG_HOME", &xdg)
        .args(["get", "Ledger overview"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Ledger"));
}

#[test]
fn search_json_is_an_array_of_hits() {
    let home = tempfile::tempdir().unwrap();
    let a = cairn(home.path())
        .args(["search", "payout retry", "--config"])
        .arg(demo().join("cairn.toml"))
        .arg("--cwd")
        .arg(demo().join("repos/ledger"))
        .args(["--format", "json", "--limit", "3"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let hits = v.as_array().unwrap();
    assert_eq!(hits.len(), 3);
    for h in hits {
        for k in [
            "id",
            "path",
            "title",
            "score",
            "memory_type",
            "sensitivity",
            "snippet",
        ] {
            assert!(h.get(k).is_some(), "{k} missing in {h}");
        }
        assert_eq!(
            format!("{}.md", h["id"].as_str().unwrap()),
            h["path"].as_str().unwrap()
        );
    }
    let scores: Vec<f64> = hits.iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
}

#[test]
fn get_refuses_secrets_with_exit_4() {
    let home = tempfile::tempdir().unwrap();
    let a = cairn(home.path())
        .args([
            "get",
            "10-Projects/ledger/Production database access.md",
            "--config",
        ])
        .arg(demo().join("cairn.toml"))
        .assert()
        .code(4);
    let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
    assert!(err.contains("secret note"), "{err}");
    assert!(a.get_output().stdout.is_empty());
    // By its title, a guess: no such note.
    cairn(home.path())
        .args(["get", "Production database access", "--config"])
        .arg(demo().join("cairn.toml"))
        .assert()
        .code(1)
        .stderr("cairn: error: no note `Production database access` in the vault\n");
    cairn(home.path())
        .args(["get", "ADR-008", "--config"])
        .arg(demo().join("cairn.toml"))
        .assert()
        .success()
        .stdout(predicate::str::contains("capped exponential backoff"));
    cairn(home.path())
        .args(["get", "no such note", "--config"])
        .arg(demo().join("cairn.toml"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no note"));
}

#[test]
fn canaries_never_reach_stdout_or_stderr() {
    let home = tempfile::tempdir().unwrap();
    let cfg = demo().join("cairn.toml");
    let never = [
        "CANARY-SECRET",
        "CANARY-CONFIDENTIAL",
        "hunter2-CANARY-PW",
        "CANARY-URLPW",
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_Fak3Canary",
    ];
    let runs: Vec<Vec<String>> = vec![
        vec![
            "wakeup".into(),
            "--task".into(),
            "break-glass root credentials restore restic password".into(),
            "--format".into(),
            "json".into(),
            "--budget".into(),
            "9000".into(),
        ],
        vec![
            "wakeup".into(),
            "--task".into(),
            "production database access".into(),
            "--format".into(),
            "markdown".into(),
            "--budget".into(),
            "9000".into(),
            "--profile".into(),
            "developer".into(),
        ],
        vec![
            "explain".into(),
            "--task".into(),
            "vendor contract northwind restic credentials".into(),
            "--format".into(),
            "json".into(),
        ],
        vec![
            "search".into(),
            "credentials password token restic".into(),
            "--all".into(),
            "--format".into(),
            "json".into(),
            "--limit".into(),
            "50".into(),
        ],
        vec!["search".into(), "CANARY".into(), "--all".into()],
        vec![
            "get".into(),
            "Restore Postgres from restic".into(),
            "--format".into(),
            "json".into(),
        ],
        vec![
            "get".into(),
            "Vendor contract - Northwind Payments renewal".into(),
        ],
    ];
    for args in runs {
        for repo_dir in ["ledger", "hearth"] {
            let out = cairn(home.path())
                .args(&args)
                .arg("--config")
                .arg(&cfg)
                .current_dir(demo().join("repos").join(repo_dir))
                .output()
                .unwrap();
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            for c in never {
                assert!(!all.contains(c), "{args:?} in {repo_dir} leaks {c}:\n{all}");
            }
        }
    }
}

#[test]
fn init_then_wakeup_works_and_init_never_overwrites() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    cairn(home.path())
        .arg("init")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("created"));
    let cfg = dir.path().join("cairn.toml");
    std::fs::write(
        dir.path().join("vault/00-Identity/me.md"),
        "# Mine\nMy own words.",
    )
    .unwrap();
    cairn(home.path())
        .arg("init")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("kept"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("vault/00-Identity/me.md")).unwrap(),
        "# Mine\nMy own words."
    );
    cairn(home.path())
        .args(["wakeup", "--config"])
        .arg(&cfg)
        .arg("--cwd")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("Working style"));
}

#[test]
fn zero_config_vault_and_wakeup_is_deterministic() {
    let home = tempfile::tempdir().unwrap();
    let run = || {
        cairn(home.path())
            .args(["wakeup", "--vault"])
            .arg(demo().join("vault"))
            .args([
                "--task",
                "kafka consumer lag",
                "--now",
                "2026-11-22T09:00:00Z",
                "--format",
                "json",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let a = run();
    assert_eq!(a, run());
    let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(v["provenance"]["route"]["method"], "unscoped");
}

#[test]
fn git_worktree_routes_like_its_main_checkout() {
    let git = |dir: &Path, args: &[&str]| {
        StdCommand::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .output()
    };
    let tmp = tempfile::tempdir().unwrap();
    let main = tmp.path().join("ledger");
    std::fs::create_dir_all(main.join("src/settlement")).unwrap();
    std::fs::write(main.join("src/settlement/payout.rs"), "fn main() {}").unwrap();
    let Ok(o) = git(&main, &["init", "-q"]) else {
        eprintln!("git not installed; skipping");
        return;
    };
    assert!(o.status.success());
    git(&main, &["add", "."]).unwrap();
    assert!(
        git(&main, &["commit", "-qm", "init"])
            .unwrap()
            .status
            .success()
    );
    let wt = tmp.path().join("ledger-wt");
    let o = git(&main, &["worktree", "add", "-q", wt.to_str().unwrap()]).unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let cfg = tmp.path().join("cairn.toml");
    let text = std::fs::read_to_string(demo().join("cairn.toml"))
        .unwrap()
        .replace(
            "root = \"vault\"",
            &format!("root = {:?}", demo().join("vault")),
        )
        .replace(
            "repo_paths = [\"repos/ledger\"]",
            "repo_paths = [\"ledger\"]",
        );
    std::fs::write(&cfg, text).unwrap();
    let home = tempfile::tempdir().unwrap();
    let a = cairn(home.path())
        .args([
            "wakeup",
            "--format",
            "json",
            "--files",
            "src/settlement/payout.rs",
            "--config",
        ])
        .arg(&cfg)
        .arg("--cwd")
        .arg(wt.join("src"))
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(v["provenance"]["route"]["method"], "worktree");
    assert_eq!(v["identity"]["project"]["id"], "ledger");
    assert_eq!(v["query"]["modules"][0], "settlement");
}

#[test]
fn explain_lists_candidates_and_diagnostics() {
    let home = tempfile::tempdir().unwrap();
    let a = cairn(home.path())
        .args(["explain", "--task", "kafka outbox events", "--config"])
        .arg(demo().join("cairn.toml"))
        .arg("--cwd")
        .arg(demo().join("repos/ledger"))
        .assert()
        .success();
    let out = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    for needle in [
        "Routing (repo_path)",
        "Query terms:",
        "included: in decisions",
        "× recency",
        "Budget:",
    ] {
        assert!(out.contains(needle), "{needle} missing:\n{out}");
    }
    assert!(
        out.contains("superseded by"),
        "superseded notes explained:\n{out}"
    );
}

#[test]
fn closed_stdout_is_not_an_error() {
    let home = tempfile::tempdir().unwrap();
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("cairn"))
        .env("XDG_CACHE_HOME", common::XDG_CACHE)
        .args(["search", "the", "--all", "--limit", "100", "--vault"])
        .arg(demo().join("vault"))
        .env("HOME", home.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn get_lines_prints_that_range_of_the_note_and_refuses_an_empty_one() {
    let home = tempfile::tempdir().unwrap();
    let config = demo().join("cairn.toml");
    let get = |range: &str| {
        cairn(home.path())
            .args([
                "get",
                "--config",
                config.to_str().unwrap(),
                "Ledger overview",
            ])
            .args(["--lines", range])
            .output()
            .unwrap()
    };
    let whole = std::fs::read_to_string(demo().join("vault/10-Projects/ledger/Ledger overview.md"))
        .unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    let out = get("2..4");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", lines[1..4].join("\n"))
    );
    let out = get("..1");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", lines[0])
    );
    for bad in ["9999..", "5..2", "0..3", "x"] {
        let out = get(bad);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}");
    }
}

#[test]
fn search_json_carries_type_tags_and_date_and_a_query_may_start_with_a_dash() {
    let home = tempfile::tempdir().unwrap();
    let config = demo().join("cairn.toml");
    let out = cairn(home.path())
        .args([
            "search",
            "--config",
            config.to_str().unwrap(),
            "--format",
            "json",
        ])
        .args(["--", "-retry payout"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = hits.as_array().unwrap();
    assert!(!hits.is_empty());
    let with_tags = hits
        .iter()
        .find(|h| !h["tags"].as_array().unwrap().is_empty());
    let h = with_tags.expect("a hit with tags");
    assert!(h["memory_type"].is_string(), "{h}");
    assert!(h["date"].as_str().is_some_and(|d| d.len() == 10), "{h}");
}

/// `get` of a decision log's intro names its entries on stderr, in a sentence
/// that agrees with their number (it said "whose 1 entry are notes of their
/// own").
#[test]
fn get_of_a_log_intro_names_its_entries() {
    let home = tempfile::tempdir().unwrap();
    let vault = home.path().join("vault");
    std::fs::create_dir_all(&vault).unwrap();
    let one = "# Decisions\n\nIntro.\n\n### [2025-02-01] Use redis\n\nRedis.\n";
    let two = format!("{one}\n### [2025-02-02] Use kafka\n\nKafka.\n");
    for (text, said) in [
        (
            one.to_owned(),
            "whose 1 entry is a note of its own; name it: decisions.md#use-redis\n",
        ),
        (
            two,
            "whose 2 entries are notes of their own; name one: decisions.md#use-redis, decisions.md#use-kafka\n",
        ),
    ] {
        std::fs::write(vault.join("decisions.md"), text).unwrap();
        cairn(home.path())
            .args(["get", "decisions.md", "--vault"])
            .arg(&vault)
            .assert()
            .success()
            .stdout(predicate::str::contains("Intro."))
            .stderr(predicate::str::ends_with(said));
    }
}

/// A word no note holds, looked up as two words a note writes (`websocket` as
/// "web socket"): the snippet shows the passage with those words, not the
/// note's opening (before, it was cut for the word asked, which no note has).
#[test]
fn a_respelled_word_s_snippet_shows_the_words_notes_write() {
    let home = tempfile::tempdir().unwrap();
    let vault = home.path().join("v");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::write(
        vault.join("chat.md"),
        "---\ntitle: Chat service notes\n---\n# Chat service notes\n\nThe chat service runs on three nodes behind the balancer. Deploys happen on Tuesdays after the standup. Logs go to the central collector with a seven day retention.\n\nThe web socket client reconnects with exponential backoff and resumes from the last event id.\n\nMetrics are scraped every fifteen seconds.\n",
    )
    .unwrap();
    let a = cairn(home.path())
        .args(["search", "websocket", "--vault"])
        .arg(&vault)
        .args(["--format", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let snippet = v[0]["snippet"].as_str().unwrap();
    assert!(
        snippet.contains("web socket client reconnects"),
        "{snippet}"
    );
}

/// Two words a task says apart that a note writes as one (`roll back`, the
/// `rollback` runbook): search, the wake-up and explain find the note and say
/// what it was looked up as; the snippet shows the passage that writes it.
/// Before, a note that says "back" and "roll" apart, about something else,
/// came first and the runbook fell below the gate.
#[test]
fn two_words_said_apart_find_the_note_that_writes_them_as_one() {
    let home = tempfile::tempdir().unwrap();
    let vault = home.path().join("v");
    std::fs::create_dir_all(&vault).unwrap();
    for (name, text) in [
        (
            "rollback.md",
            "---\ntype: workflow\n---\n# Runbook for schema migrations\n\nMigrations run in the deploy job before the new pods start.\n\nA failed migration is undone with the rollback script in ops/, never by hand.\n",
        ),
        (
            "office.md",
            "---\ntype: incident\n---\n# The back office outage\n\nThe back office went down when a roll of certificates expired.\n",
        ),
    ] {
        std::fs::write(vault.join(name), text).unwrap();
    }
    let task = "roll back the failed migration";
    let a = cairn(home.path())
        .args(["search", task, "--vault"])
        .arg(&vault)
        .args(["--format", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(v[0]["path"], "rollback.md", "{v}");
    let snippet = v[0]["snippet"].as_str().unwrap();
    assert!(snippet.contains("rollback script"), "{snippet}");
    let a = cairn(home.path())
        .args(["wakeup", "--task", task, "--format", "json", "--vault"])
        .arg(&vault)
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let shown: Vec<&str> = v["provenance"]["derived_from"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["path"].as_str())
        .collect();
    assert!(shown.contains(&"rollback.md"), "{v}");
    cairn(home.path())
        .args(["explain", "--task", task, "--vault"])
        .arg(&vault)
        .assert()
        .success()
        .stdout(predicate::str::contains("roll back also as rollback"));
}
