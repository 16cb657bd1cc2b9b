//! `cairn memory` through the real binary: every refusal exits 3 and changes
//! nothing, concurrent writer processes lose no update, a writer killed between
//! its temporary file and the rename leaves the old note (never a torn one), and
//! what is written reads back through the pipeline.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;
use common::test_cairn;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use assert_cmd::Command;
use predicates::prelude::*;

const NOW: &str = "2026-11-22T09:00:00Z";
const TOKEN: &str = "ghp_Fak3CanaryT0kenForCairnDemoOnly9x2Q7";

struct Vault {
    dir: tempfile::TempDir,
}

impl Vault {
    fn new() -> Vault {
        Self::with_memory("")
    }

    fn with_memory(memory_table: &str) -> Vault {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("vault/00-Identity")).unwrap();
        std::fs::create_dir_all(root.join("vault/10-Projects/ledger")).unwrap();
        std::fs::create_dir_all(root.join("repo/src")).unwrap();
        std::fs::create_dir_all(root.join("cache")).unwrap();
        std::fs::write(
            root.join("cairn.toml"),
            format!(
                "[vault]\nroot = \"vault\"\n[developer]\nnote_roots = [\"00-Identity\"]\n[[projects]]\nid = \"ledger\"\nrepo_paths = [\"repo\"]\nnote_roots = [\"10-Projects/ledger\"]\n{memory_table}"
            ),
        )
        .unwrap();
        Vault { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn scope_dir(&self) -> PathBuf {
        self.root().join("vault/10-Projects/ledger/memory")
    }

    fn note(&self, slug: &str) -> PathBuf {
        self.scope_dir().join(format!("{slug}.md"))
    }

    /// `cairn memory ARGS` from inside the project's repository (default scope project/ledger).
    fn memory(&self, args: &[&str]) -> Command {
        let mut c = test_cairn();
        c.current_dir(self.root().join("repo/src"))
            .env("CAIRN_CACHE_DIR", self.root().join("cache"))
            .env_remove("CAIRN_CONFIG")
            .arg("memory")
            .args(args)
            .arg("--config")
            .arg(self.root().join("cairn.toml"));
        c
    }

    fn write(&self, slug: &str, body: &str) {
        self.memory(&["write", slug, "--body", body, "--now", NOW])
            .assert()
            .success();
    }

    /// Every file of the vault and its bytes (the scope lock file aside).
    fn files(&self) -> BTreeMap<String, Vec<u8>> {
        fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
            let Ok(rd) = std::fs::read_dir(dir) else {
                return;
            };
            for e in rd.flatten() {
                let p = e.path();
                let ft = std::fs::symlink_metadata(&p).unwrap().file_type();
                if ft.is_dir() {
                    walk(&p, base, out);
                } else if e.file_name() != ".cairn-memory.lock" {
                    let key = p.strip_prefix(base).unwrap().display().to_string();
                    out.insert(key, std::fs::read(&p).unwrap_or_default());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.root().join("vault"), self.root(), &mut out);
        out
    }
}

fn hash_of(v: &Vault, slug: &str) -> String {
    let out = v
        .memory(&["show", slug, "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    json["hash"].as_str().unwrap().to_owned()
}

#[test]
fn every_refusal_exits_3_and_changes_nothing() {
    let v = Vault::new();
    v.write(
        "retry-policy",
        "Retry payouts three times.\nThree is the cap.\n",
    );
    let wrong_hash = "0123456789abcdef";
    let big = "x".repeat(100 * 1024 + 1);
    let secret_body = format!("deploy token {TOKEN}");
    // (what, args, expected message)
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (
            "collision",
            vec!["write", "retry-policy", "--body", "new"],
            "already exists; pass --append",
        ),
        (
            "case collision",
            vec!["write", "Retry-Policy", "--body", "new"],
            "differs only by letter case",
        ),
        (
            "traversal",
            vec!["write", "../escape", "--body", "x"],
            "`..` segments are not allowed",
        ),
        (
            "nested traversal",
            vec!["write", "a/../../x", "--body", "x"],
            "not a valid memory name",
        ),
        (
            "absolute path",
            vec!["write", "/tmp/evil", "--body", "x"],
            "absolute path",
        ),
        (
            "windows drive",
            vec!["write", "C:evil", "--body", "x"],
            "absolute path",
        ),
        ("backslash", vec!["write", "a\\b", "--body", "x"], "`\\`"),
        (
            "control char",
            vec!["write", "bad\u{1b}name", "--body", "x"],
            "control character",
        ),
        (
            "windows invalid",
            vec!["write", "what?", "--body", "x"],
            "not allowed in file names on Windows",
        ),
        (
            "reserved name",
            vec!["write", "NUL", "--body", "x"],
            "reserved device name",
        ),
        (
            "url-encoded",
            vec!["write", "%2e%2e%2fx", "--body", "x"],
            "URL-encoded",
        ),
        (
            "hidden",
            vec!["write", ".hidden", "--body", "x"],
            "hidden files",
        ),
        (
            "the index",
            vec!["write", "MEMORY", "--body", "x"],
            "generated index",
        ),
        (
            "oversize",
            vec!["write", "huge", "--body", &big],
            "over the 102400-byte limit",
        ),
        (
            "oversize append",
            vec!["write", "retry-policy", "--append", "--body", &big],
            "over the 102400-byte limit",
        ),
        (
            "secret in body",
            vec!["write", "deploy", "--body", &secret_body],
            "github-token on line 1",
        ),
        (
            "secret in edit",
            vec![
                "edit",
                "retry-policy",
                "--old",
                "three",
                "--new",
                &secret_body,
            ],
            "--allow-secrets",
        ),
        (
            "secret in description",
            vec!["write", "d2", "--body", "x", "--description", &secret_body],
            "credential",
        ),
        (
            "hash mismatch",
            vec![
                "write",
                "retry-policy",
                "--force",
                "--body",
                "x",
                "--expect-hash",
                wrong_hash,
            ],
            "changed since you read it",
        ),
        (
            "hash on a missing note",
            vec!["write", "fresh", "--body", "x", "--expect-hash", wrong_hash],
            "content hash absent",
        ),
        (
            "hash mismatch on rm",
            vec!["rm", "retry-policy", "--expect-hash", wrong_hash],
            "changed since you read it",
        ),
        (
            "ambiguous edit",
            vec!["edit", "retry-policy", "--old", "hree", "--new", "x"],
            "occurs 2 times",
        ),
        (
            "no match",
            vec!["edit", "retry-policy", "--old", "seven", "--new", "x"],
            "does not occur",
        ),
        (
            "insert past the end",
            vec!["insert", "retry-policy", "--line", "99", "--text", "x"],
            "--line must be between 0 and",
        ),
        (
            "move onto a note",
            vec!["mv", "retry-policy", "retry-policy"],
            "already exists",
        ),
        (
            "self-supersede",
            vec!["supersede", "retry-policy", "--by", "retry-policy"],
            "cannot supersede itself",
        ),
        (
            "entry without title",
            vec!["write", "decisions", "--append", "--body", "x"],
            "pass --title",
        ),
        (
            "frontmatter breakage",
            vec![
                "edit",
                "retry-policy",
                "--old",
                "title: Retry policy",
                "--new",
                "title: [broken",
            ],
            "frontmatter unreadable",
        ),
    ];
    for (what, args, message) in cases {
        let before = v.files();
        let assert = v.memory(&args).assert().code(3);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(message), "{what}: {stderr}");
        assert!(
            !stderr.contains(TOKEN),
            "{what}: the refusal echoes the credential"
        );
        assert!(stderr.lines().count() == 1, "{what}: one line: {stderr}");
        assert_eq!(v.files(), before, "{what}: the vault changed");
    }
    // The refused names wrote nothing anywhere near the vault either.
    assert!(!v.root().join("vault/10-Projects/escape.md").exists());
    assert!(!v.root().join("escape.md").exists());
}

#[test]
fn compare_and_swap_append_force_and_dry_run() {
    let v = Vault::new();
    // Dry run on a scope that does not exist: a diff, and not even the folder is made.
    let before = v.files();
    v.memory(&[
        "write",
        "retry-policy",
        "--body",
        "Retry three times.",
        "--now",
        NOW,
        "--dry-run",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains(
        "--- /dev/null\n+++ b/10-Projects/ledger/memory/retry-policy.md",
    ))
    .stdout(predicate::str::contains("+Retry three times."))
    .stdout(predicate::str::contains(
        "+- [Retry policy](retry-policy.md) — Retry three times.",
    ))
    .stdout(predicate::str::contains("dry run: nothing written"));
    assert_eq!(v.files(), before);
    assert!(!v.scope_dir().exists());

    v.write("retry-policy", "Retry three times.");
    let h = hash_of(&v, "retry-policy");
    v.memory(&[
        "write",
        "retry-policy",
        "--append",
        "--body",
        "Now five.",
        "--now",
        "2026-11-23T09:00:00Z",
        "--expect-hash",
        &h,
    ])
    .assert()
    .success();
    let text = std::fs::read_to_string(v.note("retry-policy")).unwrap();
    assert!(text.contains("updated: 2026-11-23\n"), "{text}");
    assert!(
        text.ends_with("Retry three times.\n\n## 2026-11-23\n\nNow five.\n"),
        "{text}"
    );
    // The old hash is stale now.
    v.memory(&[
        "write",
        "retry-policy",
        "--force",
        "--body",
        "x",
        "--expect-hash",
        &h,
    ])
    .assert()
    .code(3);
    let h2 = hash_of(&v, "retry-policy");
    v.memory(&[
        "write",
        "retry-policy",
        "--force",
        "--body",
        "Replaced.",
        "--description",
        "New: with colon",
        "--now",
        NOW,
        "--expect-hash",
        &h2,
    ])
    .assert()
    .success();
    let text = std::fs::read_to_string(v.note("retry-policy")).unwrap();
    assert!(text.ends_with("---\nReplaced.\n"), "{text}");
    assert!(
        text.contains("created: 2026-11-22\n"),
        "--force keeps other keys: {text}"
    );
    assert!(text.contains("description: 'New: with colon'\n"), "{text}");
    let index = std::fs::read_to_string(v.scope_dir().join("MEMORY.md")).unwrap();
    assert!(
        index.contains("- [Retry policy](retry-policy.md) — New: with colon\n"),
        "{index}"
    );
}

#[test]
fn secrets_are_stored_only_when_allowed_and_never_shown() {
    let v = Vault::new();
    let body = format!("CI token: {TOKEN}");
    v.memory(&[
        "write",
        "ci-token",
        "--body",
        &body,
        "--allow-secrets",
        "--now",
        NOW,
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains(TOKEN).not());
    let text = std::fs::read_to_string(v.note("ci-token")).unwrap();
    assert!(text.contains("sensitivity: secret\n"), "{text}");
    v.memory(&["show", "ci-token"])
        .assert()
        .code(4)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(TOKEN).not());
    let index = std::fs::read_to_string(v.scope_dir().join("MEMORY.md")).unwrap();
    assert!(
        !index.contains("ci-token") && !index.contains("CI token"),
        "{index}"
    );
    // A dry run of a secret note's change shows no content.
    v.memory(&[
        "write",
        "ci-token",
        "--append",
        "--body",
        "rotated",
        "--dry-run",
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains("diff withheld"))
    .stdout(predicate::str::contains("rotated").not())
    .stdout(predicate::str::contains(TOKEN).not());
}

#[cfg(unix)]
#[test]
fn symlink_escapes_are_refused() {
    use std::os::unix::fs::symlink;
    let v = Vault::new();
    v.write("inside", "x");
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("victim.md");
    std::fs::write(&target, "outside the vault\n").unwrap();
    symlink(&target, v.note("leak")).unwrap();
    for args in [
        vec!["write", "leak", "--force", "--body", "pwned"],
        vec!["write", "leak", "--append", "--body", "pwned"],
        vec!["edit", "leak", "--old", "outside", "--new", "pwned"],
        vec!["show", "leak"],
        vec!["rm", "leak", "--purge"],
    ] {
        v.memory(&args)
            .assert()
            .code(3)
            .stderr(predicate::str::contains("resolves outside"));
    }
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "outside the vault\n"
    );
    assert!(
        v.note("leak")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // A scope folder that is a symlink out of the vault is refused too.
    let w = Vault::with_memory("[memory]\nuser = \"00-Identity/mem\"\n");
    symlink(outside.path(), w.root().join("vault/00-Identity/mem")).unwrap();
    w.memory(&["write", "x", "--scope", "user", "--body", "x"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("resolves outside"));
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
}

#[test]
fn concurrent_writer_processes_lose_no_update() {
    let v = Vault::new();
    v.write("log", "Start.");
    let bin = assert_cmd::cargo::cargo_bin("cairn");
    let writers = 8;
    let appends = 6;
    std::thread::scope(|s| {
        for w in 0..writers {
            let bin = &bin;
            let v = &v;
            s.spawn(move || {
                for a in 0..appends {
                    let status = StdCommand::new(bin)
                        .env("XDG_CACHE_HOME", common::XDG_CACHE)
                        .current_dir(v.root().join("repo"))
                        .env("CAIRN_CACHE_DIR", v.root().join("cache"))
                        .args(["memory", "write", "log", "--append", "--body"])
                        .arg(format!("marker-w{w}-a{a}"))
                        .arg("--config")
                        .arg(v.root().join("cairn.toml"))
                        .output()
                        .unwrap();
                    assert!(
                        status.status.success(),
                        "{}",
                        String::from_utf8_lossy(&status.stderr)
                    );
                }
            });
        }
    });
    let text = std::fs::read_to_string(v.note("log")).unwrap();
    for w in 0..writers {
        for a in 0..appends {
            let m = format!("marker-w{w}-a{a}\n");
            assert_eq!(text.matches(&m).count(), 1, "{m} lost or doubled");
        }
    }
    assert_eq!(text.matches("\n## ").count(), writers * appends);
    assert!(cairn_note_parses(&text));
    let leftovers: Vec<_> = std::fs::read_dir(v.scope_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".cairn-tmp."))
        .collect();
    assert!(leftovers.is_empty());
    // The usage sidecar counted every write, outside the vault.
    let usage = std::fs::read_to_string(v.root().join("cache/memory-usage.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&usage).unwrap();
    let vault_key = v
        .root()
        .join("vault")
        .canonicalize()
        .unwrap()
        .display()
        .to_string();
    assert_eq!(
        json["vaults"][&vault_key]["project/ledger:log"]["writes"],
        serde_json::json!(1 + writers * appends)
    );
}

fn cairn_note_parses(text: &str) -> bool {
    text.starts_with("---\n") && text[4..].contains("\n---\n")
}

#[test]
fn a_writer_killed_before_the_rename_leaves_the_old_note() {
    let v = Vault::new();
    v.write("policy", "The old text.");
    let old = std::fs::read(v.note("policy")).unwrap();
    let index_before = std::fs::read(v.scope_dir().join("MEMORY.md")).unwrap();

    for args in [
        vec!["write", "policy", "--force", "--body", "The new text."],
        vec!["write", "policy", "--append", "--body", "More."],
        vec!["write", "brand-new", "--body", "Never finished."],
    ] {
        let out = v
            .memory(&args)
            .env("CAIRN_TEST_ABORT_BEFORE_RENAME", "1")
            .output()
            .unwrap();
        assert!(!out.status.success(), "the hook aborts the writer");
        assert_eq!(
            std::fs::read(v.note("policy")).unwrap(),
            old,
            "torn or replaced"
        );
        assert!(!v.note("brand-new").exists());
        assert_eq!(
            std::fs::read(v.scope_dir().join("MEMORY.md")).unwrap(),
            index_before
        );
        // Its temporary file stays behind (each writer clears the one before it,
        // under the lock, before it writes its own).
        let temps: Vec<String> = std::fs::read_dir(v.scope_dir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".cairn-tmp."))
            .collect();
        assert_eq!(temps.len(), 1, "{temps:?}");
        assert!(temps[0].starts_with('.') && !temps[0].ends_with(".md"));
    }

    // No temporary file is ever taken for a note: not by memory list, search or lint.
    v.memory(&["list", "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::contains("cairn-tmp").not())
        .stdout(predicate::str::contains("Never finished").not());
    let mut search = test_cairn();
    search
        .args(["search", "finished", "--all", "--config"])
        .arg(v.root().join("cairn.toml"))
        .assert()
        .success()
        .stdout(predicate::str::contains("no matching notes"));
    let mut lint = test_cairn();
    lint.args(["lint", "--format", "json", "--config"])
        .arg(v.root().join("cairn.toml"))
        .assert()
        .success()
        .stdout(predicate::str::contains("cairn-tmp").not());

    // The next writer takes the lock, clears the leftovers and succeeds.
    v.memory(&["write", "policy", "--append", "--body", "Recovered."])
        .assert()
        .success()
        .stderr(predicate::str::contains("removed 1 temporary file(s)"));
    let temps = std::fs::read_dir(v.scope_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".cairn-tmp."))
        .count();
    assert_eq!(temps, 0);
}

#[cfg(unix)]
#[test]
fn writers_killed_at_random_points_leave_old_or_new_never_torn() {
    let v = Vault::new();
    let a = format!("{}\n", "alpha ".repeat(12_000));
    let b = format!("{}\n", "bravo ".repeat(12_000));
    v.memory(&["write", "big", "--body", &a, "--now", NOW])
        .assert()
        .success();
    let bin = assert_cmd::cargo::cargo_bin("cairn");
    let mut last_complete = std::fs::read(v.note("big")).unwrap();
    for i in 0..16u64 {
        let body = if i % 2 == 0 { &b } else { &a };
        let mut child = StdCommand::new(&bin)
            .env("XDG_CACHE_HOME", common::XDG_CACHE)
            .current_dir(v.root().join("repo"))
            .env("CAIRN_CACHE_DIR", v.root().join("cache"))
            .args([
                "memory", "write", "big", "--force", "--now", NOW, "--body", body, "--config",
            ])
            .arg(v.root().join("cairn.toml"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(i * 3));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read(v.note("big")).unwrap();
        let text = String::from_utf8(now.clone()).expect("valid UTF-8");
        let body_of = |t: &str| t.split("\n---\n").nth(1).map(str::to_owned);
        let got = body_of(&text).expect("frontmatter intact");
        assert!(
            got == a || got == b,
            "iteration {i}: torn note ({} bytes)",
            now.len()
        );
        last_complete = now;
    }
    assert!(!last_complete.is_empty());
}

#[test]
fn entry_files_pins_supersession_moves_and_archive() {
    let v = Vault::new();
    for (title, body) in [
        ("Use Kafka for events", "Debezium feeds it."),
        ("Never use floats for money", "Integers in cents."),
    ] {
        v.memory(&[
            "write",
            "decisions",
            "--append",
            "--title",
            title,
            "--category",
            "architecture",
            "--tags",
            "events",
            "--body",
            body,
            "--now",
            NOW,
        ])
        .assert()
        .success();
    }
    let text = std::fs::read_to_string(v.note("decisions")).unwrap();
    assert!(text.contains("### [2026-11-22] Use Kafka for events\n\n**Category:** architecture\n**Tags:** events\n\nDebezium feeds it.\n\n---\n"), "{text}");

    v.write("kafka-events", "We publish events through Kafka.");
    v.write("nats-events", "We publish events through NATS.");
    v.memory(&[
        "supersede",
        "kafka-events",
        "--by",
        "nats-events",
        "--now",
        NOW,
    ])
    .assert()
    .success();
    let old = std::fs::read_to_string(v.note("kafka-events")).unwrap();
    assert!(
        old.contains(
            "status: superseded\nsuperseded_by:\n- '[[10-Projects/ledger/memory/nats-events]]'\n"
        ),
        "{old}"
    );
    let new = std::fs::read_to_string(v.note("nats-events")).unwrap();
    assert!(
        new.contains("supersedes:\n- '[[10-Projects/ledger/memory/kafka-events]]'\n"),
        "{new}"
    );

    v.memory(&["pin", "nats-events"]).assert().success();
    v.memory(&["pin", "nats-events"])
        .assert()
        .success()
        .stdout(predicate::str::contains("unchanged"));
    assert!(
        std::fs::read_to_string(v.note("nats-events"))
            .unwrap()
            .contains("pinned: true\n")
    );

    // The packet shows the new decision only; the old one is listed as superseded.
    let mut wake = test_cairn();
    let out = wake
        .args([
            "wakeup",
            "--format",
            "json",
            "--task",
            "publish events",
            "--now",
            NOW,
            "--cwd",
        ])
        .arg(v.root().join("repo"))
        .arg("--config")
        .arg(v.root().join("cairn.toml"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let packet: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let shown = serde_json::to_string(&packet["recommended_notes"]).unwrap()
        + &serde_json::to_string(&packet["decisions"]).unwrap();
    assert!(shown.contains("nats-events.md"), "{shown}");
    assert!(!shown.contains("kafka-events.md"), "{shown}");
    assert!(
        serde_json::to_string(&packet["provenance"]["excluded"])
            .unwrap()
            .contains("kafka-events.md")
    );

    v.memory(&["unpin", "nats-events"]).assert().success();
    assert!(
        !std::fs::read_to_string(v.note("nats-events"))
            .unwrap()
            .contains("pinned")
    );
    v.memory(&["mv", "nats-events", "events-bus"])
        .assert()
        .success();
    assert!(v.note("events-bus").exists() && !v.note("nats-events").exists());
    v.memory(&["rm", "kafka-events", "--now", NOW])
        .assert()
        .success();
    v.write("kafka-events", "again");
    v.memory(&["rm", "kafka-events", "--now", NOW])
        .assert()
        .success();
    let archive = v.scope_dir().join(".archive");
    assert!(archive.join("kafka-events.md").exists());
    assert!(archive.join("kafka-events.20261122T090000Z.md").exists());
    v.memory(&["rm", "events-bus", "--purge"])
        .assert()
        .success();
    assert!(!v.note("events-bus").exists());
    let index = std::fs::read_to_string(v.scope_dir().join("MEMORY.md")).unwrap();
    assert_eq!(
        index,
        "# Memory index: project/ledger\n\n<!-- Generated by cairn from the notes in this folder; edit the notes, not this file. -->\n\n- [Decisions](decisions.md) — 2 dated entries; latest \\[2026-11-22\\] Never use floats for money\n"
    );
    // The archive and the index are not notes.
    let mut search = test_cairn();
    search
        .args(["search", "kafka", "--all", "--format", "json", "--config"])
        .arg(v.root().join("cairn.toml"))
        .assert()
        .success()
        .stdout(predicate::str::contains("MEMORY.md").not())
        .stdout(predicate::str::contains(".archive").not())
        .stdout(predicate::str::contains(
            "decisions.md#use-kafka-for-events",
        ));
}

#[test]
fn scopes_paths_and_listing() {
    let v = Vault::new();
    let path = |scope: &str| {
        let out = v
            .memory(&["path", "--scope", scope])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    assert!(
        path("global")
            .trim_end()
            .ends_with("vault/00-Identity/memory/global")
    );
    assert!(
        path("user")
            .trim_end()
            .ends_with("vault/00-Identity/memory/user")
    );
    assert!(
        path("persona/anya")
            .trim_end()
            .ends_with("vault/00-Identity/memory/personas/anya")
    );
    assert!(
        path("project/ledger")
            .trim_end()
            .ends_with("vault/10-Projects/ledger/memory")
    );
    v.memory(&["path", "--scope", "project/nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no project `nope`"));
    v.memory(&["path", "--scope", "team"]).assert().code(2);
    // Outside every project the default scope is user.
    let mut c = test_cairn();
    c.current_dir(v.root())
        .env("CAIRN_CACHE_DIR", v.root().join("cache"))
        .args([
            "memory",
            "write",
            "terse",
            "--type",
            "preference",
            "--body",
            "Keep replies short.",
            "--config",
        ])
        .arg(v.root().join("cairn.toml"))
        .assert()
        .success()
        .stdout(predicate::str::contains("00-Identity/memory/user/terse.md"));
    v.memory(&["show", "terse", "--scope", "user"])
        .assert()
        .success();
    v.memory(&["show", "terse", "--scope", "user"])
        .assert()
        .success();
    // The body can come from standard input.
    v.memory(&["write", "piped", "--scope", "user", "--body-file", "-"])
        .write_stdin("From a pipe.\n")
        .assert()
        .success();
    v.memory(&[
        "write", "piped", "--scope", "user", "--append", "--body", "-", "--now", NOW,
    ])
    .write_stdin("Also piped.")
    .assert()
    .success();
    let piped =
        std::fs::read_to_string(v.root().join("vault/00-Identity/memory/user/piped.md")).unwrap();
    assert!(
        piped.ends_with("From a pipe.\n\n## 2026-11-22\n\nAlso piped.\n"),
        "{piped}"
    );
    v.memory(&["write", "piped2", "--scope", "user"])
        .assert()
        .code(2);
    let out = v
        .memory(&["list", "--scope", "user", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let items: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(items[1]["slug"], "terse");
    assert_eq!(items[1]["memory_type"], "preference");
    assert_eq!(items[1]["usage"]["reads"], 2);
    assert_eq!(items[1]["usage"]["writes"], 1);
    v.memory(&["show", "tERSE-x", "--scope", "user"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no memory `tERSE-x`"));
    // Nothing about usage lives in the vault.
    assert!(!v.files().keys().any(|k| k.contains("usage")));
}

/// The hash of a note that hides any of its text (secret, or a credential
/// redacted) is sealed: not the plain hash of its bytes, which a red team
/// brute-forced to a four-digit door code in 0.04 s from `memory list`. It
/// still serves compare-and-swap, and changes when the file does. A note shown
/// whole keeps its plain hash.
#[test]
fn a_hidden_text_s_hash_confirms_no_guess() {
    let v = Vault::new();
    v.memory(&[
        "write",
        "door-code",
        "--sensitivity",
        "secret",
        "--allow-secrets",
        "--title",
        "Door code",
        "--body",
        "Office door code: 4817",
        "--now",
        NOW,
    ])
    .assert()
    .success();
    v.write("retry-policy", "Retry three times.");
    // A note of the user's own with a credential in it (the write path would
    // have made it secret).
    std::fs::write(
        v.note("wifi"),
        "---\ntitle: Guest wifi\n---\nThe guest wifi password: Xk9fakePw2\n",
    )
    .unwrap();
    let out = v
        .memory(&["list", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let listed: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let hash = |slug: &str| {
        listed
            .as_array()
            .or_else(|| listed["notes"].as_array())
            .unwrap()
            .iter()
            .find(|n| n["slug"] == slug)
            .unwrap()["hash"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let plain = |slug: &str| cairn_memory::content_hash(&std::fs::read(v.note(slug)).unwrap());
    assert_ne!(hash("door-code"), plain("door-code"));
    assert_ne!(hash("wifi"), plain("wifi"));
    assert_eq!(hash("retry-policy"), plain("retry-policy"));
    assert_eq!(hash_of(&v, "wifi"), hash("wifi"));
    // Compare-and-swap with the sealed hash; the old one is stale after.
    let h = hash("wifi");
    v.memory(&[
        "write",
        "wifi",
        "--append",
        "--body",
        "Rotated monthly.",
        "--now",
        NOW,
        "--expect-hash",
        &h,
    ])
    .assert()
    .success();
    v.memory(&[
        "write",
        "wifi",
        "--append",
        "--body",
        "Again.",
        "--now",
        NOW,
        "--expect-hash",
        &h,
    ])
    .assert()
    .code(3);
    // The refusal names the current hash: sealed too.
    let out = v
        .memory(&[
            "write",
            "door-code",
            "--force",
            "--allow-secrets",
            "--body",
            "x",
            "--expect-hash",
            "0000000000000000",
        ])
        .assert()
        .code(3)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(!err.contains(&plain("door-code")), "{err}");
    assert!(err.contains(&hash("door-code")), "{err}");
}
