//! The persistent index through the real binary: several processes at once, a
//! writer killed mid-update (by a test hook and by SIGKILL), a truncated index
//! file, an unwritable cache folder, `cairn index --status/--rebuild`, and
//! nothing extra on stdout.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;

struct Fixture {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    config: PathBuf,
    index: PathBuf,
}

fn fixture(notes: usize) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("v");
    let s = cairn_synth::generate(
        &dir,
        &cairn_synth::Spec {
            notes,
            seed: 3,
            projects: 3,
        },
    )
    .unwrap();
    Fixture {
        index: tmp.path().join("index"),
        config: s.config,
        dir,
        _tmp: tmp,
    }
}

/// `cairn ARGS --config <fixture> --index-dir <index>`.
fn cairn_in(f: &Fixture, index: &Path, args: &[&str]) -> Command {
    let mut c = Command::cargo_bin("cairn").unwrap();
    c.env("XDG_CACHE_HOME", common::XDG_CACHE);
    c.args(args)
        .arg("--config")
        .arg(&f.config)
        .arg("--index-dir")
        .arg(index)
        .env_remove("CAIRN_TIMINGS")
        .env_remove("CAIRN_TEST_ABORT_AFTER_BATCHES");
    c
}

fn cairn(f: &Fixture, args: &[&str]) -> Command {
    cairn_in(f, &f.index, args)
}

fn wakeup_in(f: &Fixture, index: &Path, extra: &[&str]) -> Command {
    let cwd = f.dir.join("repos/ledger");
    let mut args = vec![
        "wakeup",
        "--format",
        "json",
        "--now",
        "2026-11-22T09:00:00Z",
        "--task",
        "fix payout retry idempotency",
        "--cwd",
        cwd.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    cairn_in(f, index, &args)
}

fn wakeup(f: &Fixture) -> Command {
    wakeup_in(f, &f.index, &[])
}

fn run(mut c: Command) -> Output {
    c.stdin(Stdio::null()).output().unwrap()
}

fn ok(c: Command) -> Output {
    let o = run(c);
    assert!(
        o.status.success(),
        "exit {:?}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn status(f: &Fixture) -> serde_json::Value {
    let c = cairn(f, &["index", "--status", "--format", "json"]);
    serde_json::from_slice(&run(c).stdout).unwrap()
}

/// The packet of a fresh build in a new index folder.
fn fresh_packet(f: &Fixture) -> Vec<u8> {
    let other = tempfile::tempdir().unwrap();
    ok(wakeup_in(f, &other.path().join("fresh"), &[])).stdout
}

fn note_count(dir: &Path) -> u64 {
    let mut n = 0;
    let mut stack = vec![dir.join("vault")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if e.path().extension().is_some_and(|x| x == "md") {
                n += 1;
            }
        }
    }
    n
}

/// Sets the mtime of `root` and of everything under it an hour back: a process
/// that starts seconds after the vault was written (a loaded machine) finds
/// nothing racy to settle in a new generation.
fn age(root: &Path) {
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap().flatten() {
                stack.push(e.path());
            }
        }
        std::fs::File::open(&p).unwrap().set_modified(then).unwrap();
    }
}

#[test]
fn many_processes_at_once_agree_and_build_one_consistent_index() {
    let f = fixture(600);
    age(&f.dir);
    let children: Vec<_> = (0..6)
        .map(|_| {
            wakeup(&f)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .stdin(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for o in &outs {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(o.stdout, outs[0].stdout, "processes disagree");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("damaged") && !err.contains("in memory"),
            "{err}"
        );
    }
    let st = status(&f);
    assert_eq!(st["notes"], note_count(&f.dir));
    assert_eq!(st["files"], note_count(&f.dir));
    assert_eq!(st["pending_added"], 0);
    assert_eq!(st["generation"], 1, "one build, shared: {st}");
    assert_eq!(outs[0].stdout, fresh_packet(&f));
}

#[test]
fn a_writer_aborted_mid_update_leaves_the_previous_index_serving() {
    let f = fixture(1500);
    ok(wakeup(&f));
    let before = status(&f);
    // Change many notes, then crash the refresh after its first batch.
    let edited = cairn_synth::edit(&f.dir.join("vault"), 700, 11).unwrap();
    let mut c = cairn(&f, &["index"]);
    c.env("CAIRN_TEST_ABORT_AFTER_BATCHES", "1");
    let o = run(c);
    assert!(
        !o.status.success(),
        "the hook should have aborted the writer"
    );
    let after = status(&f);
    assert_eq!(after["generation"], before["generation"]);
    assert_eq!(after["pending_modified"], edited.len());
    assert!(after["problem"].is_null(), "{after}");

    // The next command repairs it; the answer is a fresh build's.
    let o = ok(wakeup(&f));
    assert_eq!(o.stdout, fresh_packet(&f));
    let st = status(&f);
    assert_eq!(st["pending_modified"], 0);
    assert_eq!(st["notes"], note_count(&f.dir));
}

#[cfg(unix)]
#[test]
fn a_rebuild_killed_with_sigkill_is_repaired_by_the_next_run() {
    let f = fixture(3000);
    ok(wakeup(&f));
    let good = status(&f);
    let mut c = cairn(&f, &["index", "--rebuild"]);
    let mut child = c
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once it is at work (a new generation folder exists), or give up waiting.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let gens = std::fs::read_dir(&f.index)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("gen-"))
            .count();
        if gens > 1 || std::time::Instant::now() > deadline {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let exit = child.wait().unwrap();
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            exit.signal(),
            Some(9),
            "the rebuild ended before it could be killed"
        );
    }
    let st = status(&f);
    assert!(st["problem"].is_null(), "{st}");
    assert_eq!(st["notes"], good["notes"]);
    assert_eq!(ok(wakeup(&f)).stdout, fresh_packet(&f));
}

#[test]
fn a_truncated_index_file_is_rebuilt_with_a_warning_and_right_answers() {
    let f = fixture(300);
    ok(wakeup(&f));
    let current = std::fs::read_to_string(f.index.join("CURRENT")).unwrap();
    let idx = f.index.join(current.trim()).join("index");
    let victim = std::fs::read_dir(&idx)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "idx"))
        .unwrap();
    std::fs::File::options()
        .write(true)
        .open(&victim)
        .unwrap()
        .set_len(10)
        .unwrap();
    let o = run(cairn(&f, &["index", "--status"]));
    assert!(!o.status.success(), "status must report the damage");
    let o = ok(wakeup(&f));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("damaged") && err.contains("rebuilding"),
        "{err}"
    );
    assert_eq!(o.stdout, fresh_packet(&f));
}

#[test]
fn an_unwritable_cache_folder_falls_back_to_memory_and_says_so_once() {
    let f = fixture(100);
    let blocker = f.index.with_file_name("blocker");
    std::fs::write(&blocker, b"").unwrap();
    let o = ok(wakeup_in(&f, &blocker.join("index"), &[]));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("in memory").count(), 1, "{err}");
    assert_eq!(o.stdout, fresh_packet(&f));
}

#[test]
fn index_command_reports_builds_refreshes_and_status() {
    let f = fixture(200);
    let o = ok(cairn(&f, &["index", "--status"]));
    assert!(String::from_utf8_lossy(&o.stdout).contains("not built yet"));

    let c = cairn(&f, &["index", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&ok(c).stdout).unwrap();
    assert_eq!(v["rebuilt"], true);
    assert_eq!(v["notes"], 200);

    cairn_synth::edit(&f.dir.join("vault"), 3, 5).unwrap();
    let st = status(&f);
    assert_eq!(st["pending_modified"], 3);
    assert!(st["disk_bytes"].as_u64().unwrap() > 0);
    assert!(st["last_refresh"].as_str().unwrap().ends_with('Z'));

    let c = cairn(&f, &["index", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&ok(c).stdout).unwrap();
    assert_eq!(
        (v["modified"].as_u64(), v["rebuilt"].as_bool()),
        (Some(3), Some(false))
    );

    let c = cairn(&f, &["index", "--rebuild", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&ok(c).stdout).unwrap();
    assert_eq!(v["rebuilt"], true);

    let o = ok(cairn(&f, &["index", "--status", "--verify"]));
    assert!(String::from_utf8_lossy(&o.stdout).contains("every index file matches"));
}

#[test]
fn stdout_carries_only_the_packet() {
    let f = fixture(150);
    // Cold (build), then warm: stdout is the same packet, parseable, nothing else.
    let cold = ok(wakeup(&f));
    let warm = ok(wakeup(&f));
    assert_eq!(cold.stdout, warm.stdout);
    let v: serde_json::Value = serde_json::from_slice(&cold.stdout).unwrap();
    assert_eq!(v["version"], "wakeup.v1");
    assert!(
        warm.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&warm.stderr)
    );
}

#[test]
fn a_deadline_answers_partially_and_finishes_in_the_background() {
    let f = fixture(2500);
    let o = ok(wakeup_in(&f, &f.index, &["--deadline-ms", "1"]));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["provenance"]["partial"], true);
    assert!(v["provenance"]["partial_reason"].as_str().is_some());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("partial answer") && err.contains("background"),
        "{err}"
    );
    // The background refresh finishes the index: wait for it (no wall-clock
    // assertion, only a generous bound so a broken refresh fails the test).
    let until = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let st = status(&f);
        if st["pending_added"] == 0 && st["writer_active"] == false && st["generation"].is_u64() {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "background refresh never finished: {st}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = ok(wakeup(&f));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["provenance"]["partial"], false);
    assert_eq!(o.stdout, fresh_packet(&f));
}

/// The generation folder `CURRENT` names.
fn current_gen(index: &Path) -> PathBuf {
    let current = std::fs::read_to_string(index.join("CURRENT")).unwrap();
    index.join(current.trim())
}

/// Flips the byte at `at` of `file`.
fn flip(file: &Path, at: usize) {
    let mut bytes = std::fs::read(file).unwrap();
    bytes[at] ^= 0x20;
    std::fs::write(file, bytes).unwrap();
}

/// The files of the current generation's index whose names end with `ext`,
/// largest first.
fn index_files(index: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(current_gen(index).join("index"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(ext))
        .collect();
    files.sort_by_key(|p| std::cmp::Reverse(std::fs::metadata(p).unwrap().len()));
    files
}

/// What no command may print: a panic, a backtrace, the hook's internal-error line.
fn assert_no_crash(o: &Output) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(101), "{err}");
    for bad in ["panicked", "internal error", "backtrace", "RUST_BACKTRACE"] {
        assert!(!err.contains(bad), "{bad}: {err}");
    }
}

/// The commands a damaged index is tried with: wakeup, search, get, then a
/// full-read `cairn index`.
fn damage_probe(f: &Fixture, index: &Path, note: &str) -> Vec<(&'static str, Command)> {
    vec![
        ("wakeup", wakeup_in(f, index, &[])),
        (
            "search",
            cairn_in(f, index, &["search", "payout retry idempotency", "--all"]),
        ),
        ("get", cairn_in(f, index, &["get", note])),
        ("index", cairn_in(f, index, &["index", "--quiet"])),
    ]
}

/// A note of the fixture's vault, by path.
fn some_note(f: &Fixture) -> String {
    let mut stack = vec![f.dir.join("vault")];
    let mut found = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if e.path().extension().is_some_and(|x| x == "md") {
                found.push(e.path());
            }
        }
    }
    found.sort();
    let p = &found[found.len() / 2];
    p.strip_prefix(f.dir.join("vault"))
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn one_flipped_byte_in_any_index_file_is_found_once_and_never_changes_an_answer() {
    let f = fixture(300);
    let note = some_note(&f);
    let fresh_dir = f.index.with_file_name("fresh");
    let fresh: Vec<Vec<u8>> = damage_probe(&f, &fresh_dir, &note)
        .into_iter()
        .map(|(_, c)| ok(c).stdout)
        .collect();
    let kinds = [
        ".fast",
        ".fieldnorm",
        ".idx",
        ".pos",
        ".term",
        ".store",
        "meta.json",
        "manifest.bin",
    ];
    for kind in kinds {
        let index = f.index.with_file_name(format!("flipped{kind}"));
        ok(cairn_in(&f, &index, &["index"]));
        let victim = if kind == "manifest.bin" {
            current_gen(&index).join("manifest.bin")
        } else {
            index_files(&index, kind).remove(0)
        };
        let len = usize::try_from(std::fs::metadata(&victim).unwrap().len()).unwrap();
        flip(&victim, len / 2);
        let mut warnings = 0;
        for ((name, c), expected) in damage_probe(&f, &index, &note).into_iter().zip(&fresh) {
            let o = run(c);
            assert_no_crash(&o);
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{kind}, {name}: {err}");
            if name != "index" {
                assert_eq!(&o.stdout, expected, "{kind}, {name}: {err}");
            }
            warnings += err.matches("damaged").count();
            assert_eq!(
                err.matches("damaged").count(),
                err.matches("rebuilding").count(),
                "{err}"
            );
        }
        assert_eq!(warnings, 1, "{kind}: the damage is reported exactly once");
        let o = ok(cairn_in(&f, &index, &["index", "--status", "--verify"]));
        assert!(String::from_utf8_lossy(&o.stdout).contains("every index file matches"));
    }
}

#[test]
fn damage_found_while_searching_is_rebuilt_with_one_warning_and_right_answers() {
    let f = fixture(400);
    let expected = fresh_packet(&f);
    ok(cairn(&f, &["index"]));
    // Every block of every postings file but the last (which holds the footer
    // read at open): the search itself reads damaged bytes.
    for file in index_files(&f.index, ".idx") {
        let bytes = std::fs::read(&file).unwrap();
        let blocks = bytes.len().div_ceil(16 * 1024);
        for b in 0..blocks.saturating_sub(1) {
            flip(&file, b * 16 * 1024 + 100);
        }
    }
    let o = run(wakeup(&f));
    assert_no_crash(&o);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("damaged").count(), 1, "{err}");
    assert_eq!(o.stdout, expected);
    // Rebuilt: the next run is clean.
    let o = ok(wakeup(&f));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.stdout, expected);
}

#[test]
fn a_panic_inside_the_index_becomes_a_rebuild_with_one_warning() {
    let f = fixture(150);
    let expected = fresh_packet(&f);
    ok(cairn(&f, &["index"]));
    for args in [
        vec![
            "wakeup",
            "--format",
            "json",
            "--now",
            "2026-11-22T09:00:00Z",
        ],
        vec!["search", "payout retry", "--all"],
    ] {
        let mut plain = cairn(&f, &args);
        plain.env_remove("CAIRN_FAULT");
        let want = ok(plain).stdout;
        let mut c = cairn(&f, &args);
        c.env("CAIRN_FAULT", "index-search")
            .env("RUST_BACKTRACE", "1");
        let o = run(c);
        assert_no_crash(&o);
        assert!(o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.matches("damaged").count(), 1, "{err}");
        assert!(err.contains("injected fault"), "{err}");
        assert_eq!(o.stdout, want, "{args:?}");
    }
    assert_eq!(ok(wakeup(&f)).stdout, expected);
}

/// Each thing the cache folder may hold instead of what cairn wrote there.
#[test]
fn anything_in_the_cache_folder_is_recovered_from() {
    type Mess = fn(&Path);
    let f = fixture(120);
    let expected = fresh_packet(&f);
    let scenarios: [(&str, Mess); 6] = [
        ("CURRENT is a folder", |i| {
            std::fs::remove_file(i.join("CURRENT")).unwrap();
            std::fs::create_dir_all(i.join("CURRENT/x")).unwrap();
        }),
        ("CURRENT points nowhere", |i| {
            std::fs::write(i.join("CURRENT"), "gen-00000042-1\n").unwrap();
        }),
        ("CURRENT points at a file", |i| {
            std::fs::write(i.join("gen-00000042-1"), "not a folder").unwrap();
            std::fs::write(i.join("CURRENT"), "gen-00000042-1\n").unwrap();
        }),
        ("the generation folder is a file", |i| {
            let g = current_gen(i);
            std::fs::remove_dir_all(&g).unwrap();
            std::fs::write(&g, "garbage").unwrap();
        }),
        ("lock is a folder, garbage beside", |i| {
            std::fs::remove_file(i.join("lock")).unwrap();
            std::fs::create_dir_all(i.join("lock/x")).unwrap();
            std::fs::write(i.join("junk.bin"), [0u8, 159, 146, 150]).unwrap();
            std::fs::create_dir_all(i.join("gen-00000007-9/index")).unwrap();
        }),
        ("the manifest is a folder, the index empty", |i| {
            let g = current_gen(i);
            std::fs::remove_file(g.join("manifest.bin")).unwrap();
            std::fs::create_dir(g.join("manifest.bin")).unwrap();
            std::fs::remove_dir_all(g.join("index")).unwrap();
            std::fs::create_dir(g.join("index")).unwrap();
        }),
    ];
    for (what, mess) in scenarios {
        for rebuild in [false, true] {
            let index = f.index.with_file_name(format!("mess-{rebuild}"));
            let _ = std::fs::remove_dir_all(&index);
            ok(cairn_in(&f, &index, &["index"]));
            mess(&index);
            if rebuild {
                let o = run(cairn_in(&f, &index, &["index", "--rebuild"]));
                assert_no_crash(&o);
                assert!(
                    o.status.success(),
                    "{what}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                let o = ok(wakeup_in(&f, &index, &[]));
                assert!(
                    o.stderr.is_empty(),
                    "{what}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                assert_eq!(o.stdout, expected, "{what}");
            } else {
                let o = run(wakeup_in(&f, &index, &[]));
                assert_no_crash(&o);
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(o.status.success(), "{what}: {err}");
                assert!(!err.contains("in memory"), "{what}: {err}");
                assert_eq!(o.stdout, expected, "{what}");
                let o = ok(wakeup_in(&f, &index, &[]));
                assert!(
                    o.stderr.is_empty(),
                    "{what}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
            }
        }
    }
}

/// Files and folders under the cache folder, recursively.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            }
            out.push(e.path());
        }
    }
    out
}

/// A vault whose secret notes hold canaries (`zqcanary…`) in every field cairn
/// reads, and a parse warning that quotes one.
fn secret_vault(root: &Path) {
    let write = |rel: &str, text: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "keys/Vault key.md",
        "---\ntitle: Vault zqcanarytitle\nsensitivity: secret\ndescription: zqcanarydesc\n\
         tags: [zqcanarytag]\ntriggers: [zqcanarytrigger]\naliases: [zqcanaryalias]\n\
         related_files: [src/zqcanaryfile.rs]\nproject_id: zqcanaryproject\npinned: true\n\
         custom: zqcanarycustom\ncreated: zqcanarydate\nstatus: zqcanarystatus\n---\n\
         # Heading zqcanaryheading\n\nThe key is zqcanarybody, see [[zqcanarylink]] #zqcanaryinline\n",
    );
    write(
        "decisions.md",
        "# Decisions\n\n### [2024-03-01] Rotate zqcanaryentrytitle\n**Sensitivity:** secret\n\n\
         Because zqcanaryentrybody.\n\n---\n\n### [2024-04-02] Keep Postgres\n\nStill the store.\n",
    );
    write(
        "notes/Payouts.md",
        "# Payouts\n\nRetry payouts with idempotency keys.\n",
    );
}

#[test]
fn the_cache_holds_no_word_of_a_secret_note_and_is_private() {
    let tmp = tempfile::tempdir().unwrap();
    let vault = tmp.path().join("vault");
    secret_vault(&vault);
    let index = tmp.path().join("cache");
    let cairn_v = |args: &[&str]| {
        let mut c = Command::cargo_bin("cairn").unwrap();
        c.args(args)
            .arg("--vault")
            .arg(&vault)
            .arg("--index-dir")
            .arg(&index)
            .env("XDG_CACHE_HOME", common::XDG_CACHE);
        c
    };
    ok(cairn_v(&["index"]));
    // An incremental refresh writes a second generation.
    std::fs::write(vault.join("notes/More.md"), "# More\n\nzz\n").unwrap();
    ok(cairn_v(&["index"]));
    let files = tree(&index);
    assert!(files.iter().any(|p| p.ends_with("manifest.bin")));
    for p in &files {
        if p.is_dir() {
            continue;
        }
        let bytes = std::fs::read(p).unwrap().to_ascii_lowercase();
        let at = bytes.windows(8).position(|w| w == b"zqcanary");
        assert!(at.is_none(), "{} holds a secret note's text", p.display());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for p in files.iter().chain([&index]) {
            let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            let want = if p.is_dir() { 0o700 } else { 0o600 };
            assert_eq!(mode, want, "{}", p.display());
        }
    }
    // The engine still knows the secret notes are there, and refuses them.
    for q in ["keys/Vault key.md", "keys/Vault key"] {
        let o = run(cairn_v(&["get", q]));
        assert_eq!(o.status.code(), Some(4), "{q}");
    }
    for args in [
        vec!["search", "vault key rotate payouts"],
        vec![
            "wakeup",
            "--task",
            "rotate the vault key",
            "--format",
            "json",
        ],
        vec!["explain", "--task", "rotate the vault key"],
    ] {
        let o = ok(cairn_v(&args));
        let all = String::from_utf8_lossy(&[o.stdout, o.stderr].concat()).to_lowercase();
        assert!(!all.contains("zqcanary"), "{args:?}: {all}");
    }
}
