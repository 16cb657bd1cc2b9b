//! `cairn memory` keeps cairn's trust promises through the real binary: secret
//! entries of a decisions/lessons file never show (show, diffs and their context
//! lines, MEMORY.md, search, wakeup), no write lowers a note's or an entry's
//! sensitivity without `--declassify`, a racing editor's save is never lost, a
//! full disk at the MEMORY.md step says what was written, planted symlinks at
//! MEMORY.md or the lock are refused, and names are NFC without invisible
//! characters. Faults are injected through the `fault-injection` feature that
//! the dev-dependency switches on for the test build.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;
use common::test_cairn;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

const NOW: &str = "2026-11-22T09:00:00Z";
/// Words only a secret note or entry holds.
const CANARY: &str = "CANARYSHARD";
const CANARY_TITLE: &str = "Vault unseal ceremony";
/// Words only a confidential entry's body holds.
const CONF_CANARY: &str = "CANARYDISCOUNT";

struct Vault {
    dir: tempfile::TempDir,
}

impl Vault {
    fn new() -> Vault {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("vault/00-Identity")).unwrap();
        std::fs::create_dir_all(root.join("vault/10-Projects/ledger/memory")).unwrap();
        std::fs::create_dir_all(root.join("repo/src")).unwrap();
        std::fs::create_dir_all(root.join("cache")).unwrap();
        std::fs::write(
            root.join("cairn.toml"),
            "[vault]\nroot = \"vault\"\n[developer]\nnote_roots = [\"00-Identity\"]\n[[projects]]\nid = \"ledger\"\nrepo_paths = [\"repo\"]\nnote_roots = [\"10-Projects/ledger\"]\n",
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

    fn read(&self, slug: &str) -> String {
        std::fs::read_to_string(self.note(slug)).unwrap()
    }

    /// `cairn memory ARGS` from inside the project's repository (scope project/ledger).
    fn memory(&self, args: &[&str]) -> Command {
        let mut c = test_cairn();
        c.current_dir(self.root().join("repo/src"))
            .env("CAIRN_CACHE_DIR", self.root().join("cache"))
            .env_remove("CAIRN_CONFIG")
            .env_remove("CAIRN_TEST_FAULT")
            .arg("memory")
            .args(args)
            .arg("--config")
            .arg(self.root().join("cairn.toml"));
        c
    }

    /// `cairn ARGS` (a read command) on this vault.
    fn cairn(&self, args: &[&str]) -> Command {
        let mut c = test_cairn();
        c.current_dir(self.root().join("repo/src"))
            .env_remove("CAIRN_CONFIG")
            .args(args)
            .arg("--config")
            .arg(self.root().join("cairn.toml"));
        c
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.memory(args).assert().success().get_output().clone();
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
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

fn stdout_and_stderr_of(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn stdout_and_stderr(mut c: Command) -> String {
    let out = c.output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A decisions log with a public, a secret and a confidential entry, written as a
/// person would (not through cairn).
/// Writes the secret note `unseal` and the decisions log into `v`; the note's text.
fn secret_and_log(v: &Vault) -> String {
    let secret =
        format!("---\ntitle: {CANARY_TITLE}\nsensitivity: secret\n---\nThe {CANARY} shards.\n");
    std::fs::write(v.note("unseal"), &secret).unwrap();
    std::fs::write(v.note("decisions"), decisions_log()).unwrap();
    secret
}

fn decisions_log() -> String {
    format!(
        "---\ntitle: Ledger decisions\n---\n# Ledger decisions\n\n\
### [2026-01-01] Use NATS for events\n\n**Category:** architecture\n\nSimpler to run than Kafka.\n\n---\n\
### [2026-01-02] {CANARY_TITLE}\n\n**Sensitivity:** secret\n\nThe {CANARY} shards live with three people.\n\n---\n\
### [2026-01-03] Vendor terms\n\n**Sensitivity:** confidential\n\nThe {CONF_CANARY} is forty percent.\n\n---\n"
    )
}

#[test]
fn secret_entries_never_show_on_any_output() {
    let v = Vault::new();
    std::fs::write(v.note("decisions"), decisions_log()).unwrap();
    v.memory(&["reindex"]).assert().success();

    let shown = v.ok(&["show", "decisions"]);
    assert!(
        shown.contains("### [2026-01-02] (secret entry withheld)\n"),
        "{shown}"
    );
    assert!(
        shown.contains("Vendor terms") && shown.contains("Simpler to run"),
        "{shown}"
    );
    let json = v.ok(&["show", "decisions", "--format", "json"]);
    // A dry run adds an entry right after the secret one: its context lines would show it.
    let dry = v.ok(&[
        "write",
        "decisions",
        "--append",
        "--title",
        "Use cents",
        "--body",
        "Integers only.",
        "--now",
        NOW,
        "--dry-run",
    ]);
    assert!(dry.contains("+### [2026-11-22] Use cents"), "{dry}");
    // And one that would change only the secret entry: its text is not in
    // what `show` shows, so `edit` does not find it (a found text would
    // confirm a guess of what the entry says).
    let out = v
        .memory(&[
            "edit",
            "decisions",
            "--old",
            "three people",
            "--new",
            "four people",
            "--dry-run",
        ])
        .assert()
        .code(3)
        .get_output()
        .clone();
    let inside = stdout_and_stderr_of(&out);
    assert!(inside.contains("does not occur"), "{inside}");
    let index = std::fs::read_to_string(v.scope_dir().join("MEMORY.md")).unwrap();
    let search = stdout_and_stderr(v.cairn(&["search", "unseal shards ceremony vendor", "--all"]));
    let wake = stdout_and_stderr(v.cairn(&[
        "wakeup",
        "--task",
        "vault unseal ceremony shards",
        "--now",
        NOW,
        "--format",
        "json",
    ]));
    for (what, out) in [
        ("show", &shown),
        ("show json", &json),
        ("dry-run diff", &dry),
        ("diff inside the entry", &inside),
        ("MEMORY.md", &index),
        ("search", &search),
        ("wakeup", &wake),
    ] {
        assert!(!out.contains(CANARY), "{what}: {out}");
        assert!(!out.contains(CANARY_TITLE), "{what}: {out}");
        assert!(!out.contains(CONF_CANARY), "{what}: {out}");
    }

    // --sensitivity on an entry append makes that entry secret (not ignored).
    v.ok(&[
        "write",
        "decisions",
        "--append",
        "--title",
        "Break-glass codes",
        "--sensitivity",
        "secret",
        "--body",
        "CANARYGLASS in the safe.",
        "--now",
        NOW,
    ]);
    assert!(
        v.read("decisions")
            .contains("### [2026-11-22] Break-glass codes\n\n**Sensitivity:** secret\n")
    );
    let shown = v.ok(&["show", "decisions"]);
    assert!(
        !shown.contains("CANARYGLASS") && !shown.contains("Break-glass"),
        "{shown}"
    );
    let search = stdout_and_stderr(v.cairn(&["search", "break-glass codes safe", "--all"]));
    assert!(
        !search.contains("CANARYGLASS") && !search.contains("Break-glass"),
        "{search}"
    );
}

#[test]
fn no_write_lowers_a_sensitivity_without_declassify() {
    let v = Vault::new();
    let secret = secret_and_log(&v);
    // An entry file whose entry, secret by doubt (`high` is no level),
    // lies past a plain note's head (30 lines): renamed into a plain note, that
    // line reads as prose there (a plain `secret` would still mark the note).
    let far = decisions_log()
        .replace(
            "### [2026-01-01]",
            &"### [2026-01-01] Filler\n\nPlain.\n\nMore.\n\n---\n".repeat(10),
        )
        .replace("**Sensitivity:** secret", "**Sensitivity:** high");
    std::fs::write(v.note("old-decisions"), &far).unwrap();
    std::fs::write(
        v.note("old-plain-decisions"),
        far.replace("**Sensitivity:** high", "**Sensitivity:** secret"),
    )
    .unwrap();
    // A note secret by doubt in its front matter.
    std::fs::write(
        v.note("unseal-doubt"),
        secret.replace("sensitivity: secret", "sensitivity: high"),
    )
    .unwrap();
    // (what, args, the level it would lower to)
    // A new front matter above the old one: the old block, now in the body's
    // head, still marks the note secret; 31 lines push it out of the head, where
    // a doubtful value reads as prose (a plain `secret` would still count).
    let filler_above = format!("---\nsensitivity: public\n---\n{}", "Line.\n".repeat(31));
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (
            "append with --sensitivity",
            vec![
                "write",
                "unseal",
                "--append",
                "--sensitivity",
                "public",
                "--body",
                "x",
            ],
            "from secret to public",
        ),
        (
            "force with --sensitivity",
            vec![
                "write",
                "unseal",
                "--force",
                "--sensitivity",
                "internal",
                "--body",
                "x",
            ],
            "from secret to internal",
        ),
        (
            "edit of the key",
            vec![
                "edit",
                "unseal",
                "--old",
                "sensitivity: secret",
                "--new",
                "sensitivity: public",
            ],
            // `edit` finds text only in what `show` shows (a secret note: none).
            "is secret or confidential",
        ),
        (
            "edit deleting the key",
            vec![
                "edit",
                "unseal",
                "--old",
                "sensitivity: secret\n",
                "--new",
                "",
            ],
            "is secret or confidential",
        ),
        (
            "insert of a frontmatter above",
            vec![
                "insert",
                "unseal-doubt",
                "--line",
                "0",
                "--text",
                &filler_above,
            ],
            "from secret to public",
        ),
        (
            "deleting an entry's sensitivity line",
            vec![
                "edit",
                "decisions",
                "--old",
                "**Sensitivity:** secret\n\n",
                "--new",
                "",
            ],
            // A withheld entry's lines are not in what `show` shows.
            "does not occur",
        ),
        (
            "lowering an entry's sensitivity line",
            vec![
                "edit",
                "decisions",
                "--old",
                "**Sensitivity:** confidential",
                "--new",
                "**Sensitivity:** public",
            ],
            "does not occur",
        ),
        (
            "renaming an entry file into a plain note",
            vec!["mv", "old-decisions", "ledger-notes"],
            // Its confidential entry, a plain mark, still raises the note.
            "an entry of 10-Projects/ledger/memory/old-decisions.md from secret to confidential",
        ),
    ];
    for (what, args, message) in cases {
        for dry in [true, false] {
            let before = v.files();
            let mut args = args.clone();
            if dry {
                args.push("--dry-run");
            }
            let out = v.memory(&args).assert().code(3).get_output().clone();
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(stderr.contains(message), "{what}: {stderr}");
            if message.contains(" from ") {
                assert!(stderr.contains("lower the sensitivity"), "{what}: {stderr}");
                assert!(stderr.contains("--declassify"), "{what}: {stderr}");
            }
            for canary in [CANARY, CANARY_TITLE, CONF_CANARY] {
                assert!(!stderr.contains(canary), "{what}: {stderr}");
            }
            assert!(out.stdout.is_empty(), "{what}");
            assert_eq!(v.files(), before, "{what}: the vault changed");
        }
    }
    // Without the filler, the old block in the head keeps the note secret; with
    // it, a plain `secret` past the head still does; a plain note renamed from
    // an entry file keeps its head's secret mark, or a plain one far down:
    // nothing is lowered, so no write is refused.
    for args in [
        vec![
            "insert",
            "unseal",
            "--line",
            "0",
            "--text",
            &filler_above,
            "--dry-run",
        ],
        vec!["mv", "old-plain-decisions", "ledger-plain", "--dry-run"],
        vec![
            "insert",
            "unseal",
            "--line",
            "0",
            "--text",
            "---\nsensitivity: public\n---",
            "--dry-run",
        ],
        vec!["mv", "decisions", "ledger-notes", "--dry-run"],
    ] {
        v.memory(&args).assert().success();
    }
    v.memory(&["show", "unseal"]).assert().code(4);

    // A --force body carrying frontmatter cannot replace the note's own.
    v.memory(&[
        "write",
        "unseal",
        "--force",
        "--body",
        "---\nsensitivity: public\n---\nNew text.",
    ])
    .assert()
    .success();
    v.memory(&["show", "unseal"]).assert().code(4);
    // Raising is always allowed; lowering on purpose takes --declassify.
    v.memory(&[
        "write",
        "decisions",
        "--append",
        "--title",
        "x",
        "--body",
        "y",
        "--sensitivity",
        "secret",
    ])
    .assert()
    .success();
    v.memory(&[
        "write",
        "unseal",
        "--force",
        "--sensitivity",
        "internal",
        "--body",
        "Rotated; nothing secret left.",
        "--declassify",
    ])
    .assert()
    .success();
    let shown = v.ok(&["show", "unseal"]);
    assert!(shown.contains("Rotated; nothing secret left."), "{shown}");
}

#[test]
fn a_racing_editors_save_is_never_lost() {
    let v = Vault::new();
    let editor = cairn_memory::EDITOR_LINE;
    v.ok(&["write", "log", "--body", "Start.", "--now", NOW]);
    let race = |n: &str, args: &[&str]| {
        let mut c = v.memory(args);
        c.env("CAIRN_TEST_FAULT", format!("edit-before-rename={n}"));
        c
    };
    // Append and insert plan again on the editor's text: both changes are kept.
    race(
        "1",
        &[
            "write",
            "log",
            "--append",
            "--body",
            "Appended.",
            "--now",
            NOW,
        ],
    )
    .assert()
    .success()
    .stderr(predicate::str::contains("planned again (1×)"));
    let text = v.read("log");
    assert_eq!(text.matches(editor).count(), 1, "{text}");
    assert!(text.contains("Appended."), "{text}");
    let last = v.read("log").lines().count().to_string();
    race(
        "3",
        &["insert", "log", "--line", &last, "--text", "Inserted."],
    )
    .assert()
    .success();
    let text = v.read("log");
    assert_eq!(text.matches(editor).count(), 4, "{text}");
    assert!(text.contains("Inserted."), "{text}");
    // A fourth change in a row: refused, the editor's saves kept.
    race(
        "4",
        &[
            "write",
            "log",
            "--append",
            "--body",
            "Given up.",
            "--now",
            NOW,
        ],
    )
    .assert()
    .code(3)
    .stderr(predicate::str::contains("changed by another program"));
    let text = v.read("log");
    assert_eq!(text.matches(editor).count(), 8, "{text}");
    assert!(!text.contains("Given up."), "{text}");

    // Replace, edit, purge and a compare-and-swap refuse at once: what the caller
    // saw is gone.
    let hash = || {
        let out = v
            .memory(&["show", "log", "--format", "json"])
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["hash"].as_str().unwrap().to_owned()
    };
    for args in [
        vec!["write", "log", "--force", "--body", "Replaced."],
        vec!["edit", "log", "--old", "Start.", "--new", "Begin."],
        vec![
            "write",
            "log",
            "--append",
            "--body",
            "CAS.",
            "--expect-hash",
        ],
        vec!["rm", "log", "--purge"],
    ] {
        let mut args: Vec<String> = args.into_iter().map(str::to_owned).collect();
        if args.last().is_some_and(|a| a == "--expect-hash") {
            args.push(hash());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let before = v.read("log").matches(editor).count();
        race("1", &args)
            .assert()
            .code(3)
            .stderr(predicate::str::contains(
                "10-Projects/ledger/memory/log.md was changed by another program",
            ));
        let text = v.read("log");
        assert_eq!(text.matches(editor).count(), before + 1, "{args:?}: {text}");
        assert!(!text.contains("Replaced.") && !text.contains("Begin.") && !text.contains("CAS."));
    }
    let leftovers = std::fs::read_dir(v.scope_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".cairn-tmp."))
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn a_full_disk_at_the_index_step_says_what_was_written() {
    let v = Vault::new();
    v.ok(&["write", "first", "--body", "One.", "--now", NOW]);
    let mut c = v.memory(&["write", "second", "--body", "Two.", "--now", NOW]);
    c.env("CAIRN_TEST_FAULT", "index-write-fails");
    c.assert()
        .code(1)
        .stderr(predicate::str::contains(
            "10-Projects/ledger/memory/second.md written, but 10-Projects/ledger/memory/MEMORY.md could not be updated",
        ))
        .stderr(predicate::str::contains("the index is stale; the next write"));
    assert!(v.read("second").contains("Two."));
    let index = std::fs::read_to_string(v.scope_dir().join("MEMORY.md")).unwrap();
    assert!(
        index.contains("first.md") && !index.contains("second.md"),
        "{index}"
    );
    // The next write repairs it.
    v.ok(&["write", "third", "--body", "Three.", "--now", NOW]);
    let index = std::fs::read_to_string(v.scope_dir().join("MEMORY.md")).unwrap();
    for n in ["first.md", "second.md", "third.md"] {
        assert!(index.contains(n), "{n}: {index}");
    }
}

#[cfg(unix)]
#[test]
fn symlinks_at_memory_md_or_the_lock_are_refused() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.txt");
    std::fs::write(&victim, "OUTSIDE-CANARY private text\n").unwrap();

    // MEMORY.md pointing outside: refused, never read into a diff, never written.
    let v = Vault::new();
    v.ok(&["write", "first", "--body", "One.", "--now", NOW]);
    std::fs::remove_file(v.scope_dir().join("MEMORY.md")).unwrap();
    symlink(&victim, v.scope_dir().join("MEMORY.md")).unwrap();
    for args in [
        vec!["write", "second", "--body", "Two.", "--dry-run"],
        vec!["write", "second", "--body", "Two."],
        vec!["reindex"],
    ] {
        let out = v.memory(&args).assert().code(3).get_output().clone();
        let all = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(all.contains("MEMORY.md is a symlink"), "{args:?}: {all}");
        assert!(!all.contains("OUTSIDE-CANARY"), "{args:?}: {all}");
    }
    assert!(!v.note("second").exists());
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "OUTSIDE-CANARY private text\n"
    );
    let lint = stdout_and_stderr(v.cairn(&["lint"]));
    assert!(!lint.contains("OUTSIDE-CANARY"), "{lint}");

    // A dangling lock symlink: refused, and no file appears where it points.
    let w = Vault::new();
    let target = outside.path().join("planted.lock");
    symlink(&target, w.scope_dir().join(".cairn-memory.lock")).unwrap();
    w.memory(&["write", "x", "--body", "x"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(".cairn-memory.lock is a symlink"));
    assert!(!target.exists(), "a file was created outside the vault");
    assert!(!w.note("x").exists());
    // A lock symlink to an existing file outside: refused as well, the file untouched.
    std::fs::remove_file(w.scope_dir().join(".cairn-memory.lock")).unwrap();
    symlink(&victim, w.scope_dir().join(".cairn-memory.lock")).unwrap();
    w.memory(&["write", "x", "--body", "x"]).assert().code(3);
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "OUTSIDE-CANARY private text\n"
    );
}

#[test]
fn names_are_nfc_and_invisible_characters_are_refused() {
    let v = Vault::new();
    let nfc = "caf\u{e9}";
    let nfd = "cafe\u{301}";
    v.ok(&["write", nfc, "--body", "Composed.", "--now", NOW]);
    v.ok(&[
        "write",
        nfd,
        "--append",
        "--body",
        "Decomposed.",
        "--now",
        NOW,
    ]);
    let notes: Vec<String> = std::fs::read_dir(v.scope_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "MEMORY.md")
        .collect();
    assert_eq!(notes, vec![format!("{nfc}.md")]);
    let text = v.read(nfc);
    assert!(
        text.contains("Composed.") && text.contains("Decomposed."),
        "{text}"
    );
    v.memory(&["write", nfd, "--body", "Again."])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("already exists"));
    // A note another tool saved under its NFD name is the same note.
    std::fs::write(v.note("re\u{301}sume\u{301}"), "# Résumé\n\nFrom macOS.\n").unwrap();
    let shown = v.ok(&["show", "r\u{e9}sum\u{e9}"]);
    assert!(shown.contains("From macOS."), "{shown}");

    for (name, why) in [
        ("pay\u{200B}outs", "zero-width"),
        ("pay\u{2060}outs", "zero-width"),
        ("\u{FEFF}payouts", "zero-width"),
        ("payouts\u{202E}dm", "bidirectional"),
        ("pay\u{2067}outs", "bidirectional"),
        ("pay\u{00A0}outs", "no-break space"),
        ("pay\u{202F}outs", "no-break space"),
        ("pay\u{2007}outs", "no-break space"),
    ] {
        let before = v.files();
        v.memory(&["write", name, "--body", "x"])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(why))
            .stderr(predicate::str::contains("\\u{"));
        assert_eq!(v.files(), before, "{name:?}");
    }
}

/// A slug that is (or holds) a credential is refused, with or without
/// `--allow-secrets`, and the refusal names its kind, never its value: a file
/// name is shown wherever the note is listed. Before, the note was created and
/// `memory list` printed the token (and wake-ups its title, `Ghp …`).
#[test]
fn a_slug_holding_a_credential_is_refused_without_echoing_it() {
    let v = Vault::new();
    let token = "ghp_XyZ9abcdefGHIJKLmnopQRSTuvwx01234567";
    for slug in [token.to_owned(), format!("notes-{token}")] {
        for extra in [&[][..], &["--allow-secrets"][..]] {
            let before = v.files();
            let mut c = v.memory(&["write", &slug, "--body", "Plain text.", "--now", NOW]);
            c.args(extra);
            let out = c.output().unwrap();
            assert_eq!(out.status.code(), Some(3), "{slug} {extra:?}");
            let text = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(text.contains("slug holds a credential"), "{text}");
            assert!(!text.contains(&token[4..20]), "{text}");
            assert_eq!(v.files(), before, "{slug}");
        }
    }
}

/// `memory edit --old` answers from the text `memory show` shows: a guess of a
/// secret or confidential note's words, or of a withheld entry's, gets the same
/// answer right or wrong (red team: a right guess of a secret note's text gave
/// exit 0, a wrong one "does not occur", so an agent could read it by guesses).
#[test]
fn edit_never_confirms_withheld_text() {
    let v = Vault::new();
    secret_and_log(&v);
    let answer = |slug: &str, old: &str| {
        let out = v
            .memory(&["edit", slug, "--old", old, "--new", "x", "--dry-run"])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // A secret note: refused whatever the guess.
    let right = answer("unseal", &format!("The {CANARY}"));
    let wrong = answer("unseal", "The nothing");
    assert_eq!(right, wrong);
    assert_eq!(right.0, Some(3), "{}", right.1);
    assert!(!right.1.contains(CANARY), "{}", right.1);
    // A secret entry's words: as if they did not occur.
    let right = answer("decisions", &format!("The {CANARY} shards"));
    let wrong = answer("decisions", "The nothing shards");
    assert_eq!(right, wrong);
    assert!(right.1.contains("does not occur"), "{}", right.1);
    // Text that is shown is edited as before.
    let out = answer("decisions", "Simpler to run than Kafka.");
    assert_eq!(out.0, Some(0), "{}", out.1);
}

/// A section after a log's entries that a banner marks (`## Notes` then
/// `CONFIDENTIAL — do not share`) was shown whole by `memory show`: the write
/// path looked only for keyed marks outside entries. The reader gives such a
/// section to the log's intro, with its level; the write path withholds it.
#[test]
fn a_banner_after_the_entries_withholds_the_log_in_memory_show() {
    let v = Vault::new();
    let log = format!(
        "---\ntitle: Ledger decisions\n---\n# Ledger decisions\n\n\
### [2026-01-01] Use NATS for events\n\n**Category:** architecture\n\nSimpler to run than Kafka.\n\n\
## Notes\n\nCONFIDENTIAL \u{2014} do not share\n\nThe {CONF_CANARY} is forty percent.\n"
    );
    std::fs::write(v.note("decisions"), log).unwrap();
    v.memory(&["reindex"]).assert().success();
    let shown = stdout_and_stderr(v.memory(&["show", "decisions"]));
    assert!(!shown.contains(CONF_CANARY), "{shown}");
    // A section of a table alone, whose Sensitivity column marks a row (review:
    // a section without prose lost its marks, and the table was shown).
    let log = format!(
        "---\ntitle: Ledger decisions\n---\n# Ledger decisions\n\n\
### [2026-01-01] Use NATS for events\n\nSimpler to run than Kafka.\n\n\
## Vendor pricing\n\n| Item | Sensitivity |\n|---|---|\n| {CONF_CANARY} | secret |\n"
    );
    std::fs::write(v.note("decisions"), log).unwrap();
    v.memory(&["reindex"]).assert().success();
    let shown = stdout_and_stderr(v.memory(&["show", "decisions"]));
    assert!(!shown.contains(CONF_CANARY), "{shown}");
}
