//! Reads obey the vault's containment, through the real binary: a note that is
//! a symlink to a file outside the vault, or that sits in a symlinked folder
//! leading outside, is read by no command and named only by its path inside the
//! vault; symlinks that stay inside keep working.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

const CANARY: &str = "zqoutsidecanary";

#[allow(clippy::struct_field_names)] // The fixture's vault is `vault`.
struct Vault {
    _tmp: tempfile::TempDir,
    vault: PathBuf,
    outside: PathBuf,
    index: PathBuf,
}

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn vault() -> Vault {
    let tmp = tempfile::tempdir().unwrap();
    let vault = tmp.path().join("vault");
    let outside = tmp.path().join("outside");
    let leaked = format!("# Payout retry secrets\n\n{CANARY} payout retry idempotency\n");
    write(&outside.join("secret.md"), &leaked);
    write(&outside.join("dir/inner.md"), &leaked);
    write(
        &vault.join("notes/Payouts.md"),
        "# Payouts\n\nRetry payouts with idempotency keys.\n",
    );
    write(
        &vault.join("notes/Shared.md"),
        "# Shared runbook\n\nThe shared payout retry runbook.\n",
    );
    symlink(outside.join("secret.md"), vault.join("leak.md")).unwrap();
    symlink(outside.join("dir"), vault.join("leakdir")).unwrap();
    symlink(vault.join("notes/Shared.md"), vault.join("alias.md")).unwrap();
    symlink("notes", vault.join("inside-dir")).unwrap();
    Vault {
        index: tmp.path().join("index"),
        vault,
        outside,
        _tmp: tmp,
    }
}

fn cairn(v: &Vault, args: &[&str]) -> Output {
    common::test_cairn()
        .args(args)
        .arg("--vault")
        .arg(&v.vault)
        .arg("--index-dir")
        .arg(&v.index)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&[o.stdout.clone(), o.stderr.clone()].concat()).into_owned()
}

#[test]
fn no_command_reads_a_symlink_leading_out_of_the_vault() {
    let v = vault();
    let outside = v.outside.display().to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec!["index"],
        vec![
            "wakeup",
            "--task",
            "payout retry idempotency",
            "--format",
            "json",
        ],
        vec![
            "wakeup",
            "--task",
            "payout retry idempotency",
            "--format",
            "markdown",
        ],
        vec!["search", "payout retry idempotency secrets"],
        vec!["explain", "--task", "payout retry idempotency"],
        vec!["lint"],
        vec!["get", "leak.md"],
        vec!["get", "leakdir/inner.md"],
        vec!["get", "Payout retry secrets"],
    ];
    let mut explained = String::new();
    for args in &runs {
        let o = cairn(&v, args);
        let all = text(&o);
        assert!(!all.contains(CANARY), "{args:?}: {all}");
        assert!(!all.contains(&outside), "{args:?} names the target: {all}");
        assert_ne!(o.status.code(), Some(101), "{all}");
        if args[0] == "get" {
            assert_eq!(o.status.code(), Some(1), "{args:?}: {all}");
            assert!(all.contains("no note"), "{all}");
        }
        if args[0] == "explain" {
            explained = all;
        }
    }
    // The skipped links are named by their path inside the vault.
    assert!(explained.contains("leak.md"), "{explained}");
    assert!(explained.contains("leakdir"), "{explained}");
    assert!(explained.contains("outside the vault"), "{explained}");
    // Absolute paths outside the vault are not notes either.
    let o = cairn(
        &v,
        &["get", &v.outside.join("secret.md").display().to_string()],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(!text(&o).contains(CANARY));
}

#[test]
fn symlinks_that_stay_inside_keep_working() {
    let v = vault();
    let o = cairn(&v, &["get", "alias.md"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("shared payout retry runbook"));
    let o = cairn(&v, &["search", "runbook"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Shared runbook"), "{}", text(&o));
}
