//! `cairn eval` through the real binary: the JSON report's shape (snapshot), the
//! table, exit codes, and bad suite input reported on stdout and counted on stderr.

#![allow(clippy::unwrap_used)] // test helpers, like the tests, fail loudly

use crate::common;
use common::test_cairn;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn devmem() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/devmem")
}

fn cairn() -> Command {
    test_cairn()
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn small_suite() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "notes/retry.md",
        "---\ntitle: Retry with backoff\n---\nRetry failed calls with capped exponential backoff and jitter.",
    );
    write(
        d,
        "notes/vacuum.md",
        "---\ntitle: Vacuum\n---\nPostgres autovacuum settings for large tables.",
    );
    write(
        d,
        "notes/cache.md",
        "---\ntitle: Cache\n---\nCache invalidation on deploy; retry the warmup.",
    );
    write(
        d,
        "queries.jsonl",
        r#"{"id": "q1", "query": "how do we back off between retries", "expected": ["retry"], "grades": {"retry": 2, "cache": 1}, "question_type": "paraphrase"}
{"id": "q2", "query": "autovacuum on big tables", "expected": ["vacuum"], "question_type": "lexical"}
{"id": "q3", "query": "broken
{"id": "q4", "query": "deploy", "expected": ["missing-note"]}
"#,
    );
    dir
}

#[test]
fn json_report_shape_is_stable() {
    let dir = small_suite();
    let out = cairn()
        .args(["eval", "--format", "json", "--now", "2026-11-22T09:00:00Z"])
        .arg(dir.path())
        .assert()
        .success()
        .stderr(predicate::str::contains("2 of 4 queries skipped"))
        .get_output()
        .stdout
        .clone();
    let mut v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    // Wall-clock figures and the temporary path vary from run to run.
    for (_, t) in v["timing"].as_object_mut().unwrap().iter_mut() {
        *t = serde_json::json!(0.0);
    }
    v["suite"] = serde_json::json!("[SUITE]");
    insta::assert_snapshot!(
        "eval_small_suite_json",
        serde_json::to_string_pretty(&v).unwrap()
    );
}

#[test]
fn table_lists_overall_and_each_type() {
    cairn()
        .args(["eval", "--now", "2026-11-22T09:00:00Z"])
        .arg(devmem())
        .assert()
        .success()
        .stdout(
            predicate::str::contains("151 notes, 89 of 89 queries evaluated, ranking full")
                .and(predicate::str::contains("overall"))
                .and(predicate::str::contains("symptom"))
                .and(predicate::str::contains("nDCG@10"))
                .and(predicate::str::contains("packet tasks: 80 of 80 evaluated"))
                .and(predicate::str::contains("superseded-trap"))
                .and(predicate::str::contains("mn-hits"))
                .and(predicate::str::contains("section recall: active_context"))
                .and(predicate::str::contains("issues").not()),
        );
}

#[test]
fn json_report_has_the_packet_figures_and_bad_packet_tasks_are_counted() {
    let dir = small_suite();
    let d = dir.path();
    let mut q = std::fs::read_to_string(d.join("queries.jsonl")).unwrap();
    q.push_str(
        r#"{"id": "p1", "kind": "packet", "task": "retry backoff", "expected": ["retry"], "must_not": ["vacuum"], "question_type": "task"}
{"id": "p2", "kind": "packet", "expected": ["retry"], "source": "tomorrow"}
"#,
    );
    std::fs::write(d.join("queries.jsonl"), q).unwrap();
    let out = cairn()
        .args(["eval", "--format", "json", "--now", "2026-11-22T09:00:00Z"])
        .arg(d)
        .assert()
        .success()
        .stderr(
            predicate::str::contains("2 of 4 queries skipped")
                .and(predicate::str::contains("1 of 2 packet tasks skipped")),
        )
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["queries_total"], 4);
    let p = &v["packets"];
    assert_eq!(p["tasks_total"], 2);
    assert_eq!(p["tasks_evaluated"], 1);
    assert_eq!(p["per_task"][0]["id"], "p1");
    for key in [
        "recall",
        "precision",
        "must_not_hits",
        "must_not_tasks",
        "pinned_present",
        "by_section",
        "mean_notes",
        "mean_task_notes",
    ] {
        assert!(p["overall"].get(key).is_some(), "overall.{key}");
    }
    assert!(p["by_type"]["task"].is_object());
    assert!(
        v["issues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["query_id"] == "p2"),
        "{}",
        v["issues"]
    );
}

#[test]
fn bm25_ranking_and_custom_cutoffs() {
    let out = cairn()
        .args([
            "eval",
            "--ranking",
            "bm25",
            "--k",
            "3,1",
            "--format",
            "json",
        ])
        .args(["--now", "2026-11-22T09:00:00Z"])
        .arg(devmem())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["ranking"], "bm25");
    assert_eq!(v["ks"], serde_json::json!([1, 3]));
    assert!(v["overall"]["hit"]["3"].as_f64().unwrap() > 0.5);
}

#[test]
fn usage_errors_exit_2() {
    cairn()
        .args(["eval", "/definitely/not/here"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a folder"));
    cairn()
        .args(["eval", "--k", "0"])
        .arg(devmem())
        .assert()
        .code(2);
    let empty = tempfile::tempdir().unwrap();
    cairn()
        .arg("eval")
        .arg(empty.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("queries.jsonl"));
}
