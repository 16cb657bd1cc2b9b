//! `cairn lint` through the real binary: exit codes for CI, the text and JSON
//! shapes, and the policy on the demo vault (no canary, no credential value).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;
use common::test_cairn;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn demo_config() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/demo/cairn.toml")
        .canonicalize()
        .unwrap()
}

fn lint(config: &Path, extra: &[&str]) -> Command {
    let mut c = test_cairn();
    c.env_remove("CAIRN_CONFIG")
        .args(["lint", "--now", "2026-11-22T09:00:00Z", "--config"])
        .arg(config)
        .args(extra);
    c
}

/// Strings that must never appear in any output of cairn on the demo vault.
const NEVER: &[&str] = &[
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
];

#[test]
fn demo_vault_findings_exit_1_and_leak_nothing() {
    for format in ["text", "json"] {
        let out = lint(&demo_config(), &["--format", format])
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        for s in NEVER {
            assert!(
                !stdout.contains(s) && !stderr.contains(s),
                "{format}: {s} leaked"
            );
        }
        // The demo's planted problems, at their lines.
        for expected in [
            "10-Projects/ledger/Ledger overview.md",
            "Ledger glossary",
            "Restore Postgres from restic.md",
            "Kafka topic inventory.md",
            "Tegola tile server setup.md",
            "ADR-007 Publish events via Debezium CDC.md",
        ] {
            assert!(
                stdout.contains(expected),
                "{format}: {expected} missing\n{stdout}"
            );
        }
        // A `[[...]]` inside inline code is not a link.
        assert!(!stdout.contains("providers.layers"), "{stdout}");
    }
    lint(&demo_config(), &[])
        .assert()
        .stdout(predicate::str::contains(
            "error: 10-Projects/hearth/Runbooks/Restore Postgres from restic.md:49: a credential (aws-access-key)",
        ))
        .stdout(predicate::str::contains(
            "warning: 10-Projects/ledger/Ledger overview.md:50: [[Ledger glossary]] names no note in the vault [broken-wikilink]",
        ))
        .stdout(predicate::str::contains("7 errors, 4 warnings, 61 notes in 61 files checked"));
}

#[test]
fn warnings_pass_unless_denied_and_a_clean_vault_passes() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    std::fs::create_dir_all(&v).unwrap();
    std::fs::write(
        v.join("a.md"),
        "---\ntitle: A\nreview_after: 2020-01-01\n---\nSee [[b]].\n",
    )
    .unwrap();
    std::fs::write(v.join("b.md"), "# B\n\ntext\n").unwrap();
    let mut c = test_cairn();
    c.args(["lint", "--now", "2026-01-01T00:00:00Z", "--vault"])
        .arg(&v)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "warning: a.md:3: review was due on 2020-01-01",
        ));
    let mut c = test_cairn();
    c.args([
        "lint",
        "--deny-warnings",
        "--now",
        "2026-01-01T00:00:00Z",
        "--vault",
    ])
    .arg(&v)
    .assert()
    .code(1);
    std::fs::write(v.join("a.md"), "---\ntitle: A\n---\nSee [[b]].\n").unwrap();
    let mut c = test_cairn();
    let out = c
        .args(["lint", "--format", "json", "--deny-warnings", "--vault"])
        .arg(&v)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["version"], "lint.v1");
    assert_eq!(json["findings"], serde_json::json!([]));
    assert_eq!(json["summary"]["notes"], 2);
}
