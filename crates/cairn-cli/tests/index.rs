//! The persistent index through the real binary: several processes at once, a
//! writer killed mid-update (by a test hook and by SIGKILL), a truncated index
//! file, an unwritable cache folder, `cairn index --status/--rebuild`, and
//! nothing extra on stdout.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

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

#[test]
fn many_processes_at_once_agree_and_build_one_consistent_index() {
    let f = fixture(600);
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
