//! Ranking cases on what a derived task's branch and changed files are both
//! about, and the titles that say it.

use super::*;

fn filler() -> BTreeSet<String> {
    cairn_index::analyze("fix update add").into_iter().collect()
}

/// The subject is the branch's topical words that a changed file's folders or
/// name also say (`rds_instance`, `app-govuk-rds`, `InvoiceNumber`), without
/// filler, a repository's layout (`src`, `docs`), what a file is (`test`,
/// `config`) or a number; nothing without files or a branch.
#[test]
fn the_subject_is_what_the_branch_and_the_files_both_name() {
    let check = |branch: &str, files: &[&str], want: &[&str]| {
        let files: Vec<String> = files.iter().map(|f| (*f).to_owned()).collect();
        let s = subject(branch, &files, &filler());
        assert_eq!(s.words().collect::<Vec<_>>(), want, "{branch} {files:?}");
        assert_eq!(s.is_empty(), want.is_empty());
    };
    check(
        "rds storage autoscaling",
        &[
            "terraform/projects/app-govuk-rds/README.md",
            "terraform/modules/aws/rds_instance/main.tf",
        ],
        &["rds"],
    );
    check(
        "invoice numbering",
        &["app/billing/InvoiceNumber.ts"],
        &["invoice", "numbering"],
    );
    check("payout lock", &["src/payouts/lock.rs"], &["payout", "lock"]);
    check("update payout", &["src/update/payout.rs"], &["payout"]);
    check(
        "docs src cleanup",
        &["src/docs/cleanup-notes.md"],
        &["cleanup"],
    );
    check("test config", &["tests/config/test_config.rs"], &[]);
    check("v2 migration", &["db/v2/0002.sql"], &[]);
    check(
        "payout batch lock timeouts",
        &["src/mod00/file0011.rs"],
        &[],
    );
    check("rds", &[], &[]);
    check("", &["src/rds.rs"], &[]);
}

/// A note the text search found whose title says a word of the subject is
/// pointed at (anchored, a signal, a reason naming the word); a title without
/// it, a note the search did not find and a confidential note are not, and
/// without a subject nothing is.
#[test]
fn a_title_that_names_the_subject_points_at_its_note() {
    let titled =
        |path: &str, title: &str, extra: &str| note(path, &format!("title: {title}{extra}"));
    let notes = vec![
        titled("guide.md", "RDS Database Management", ""),
        titled(
            "adr.md",
            "18. Use RDS instead of provisioned EC2 databases",
            "",
        ),
        titled(
            "buckets.md",
            "Deploying Google Terraform storage buckets",
            "",
        ),
        titled("unfound.md", "RDS snapshots", ""),
        titled(
            "conf.md",
            "RDS root credentials",
            "\nsensitivity: confidential",
        ),
    ];
    let hits = [
        hit("guide.md", 2.0),
        hit("adr.md", 1.5),
        hit("buckets.md", 3.0),
        hit("conf.md", 1.0),
    ];
    let mut c = Ctx::new("rds storage autoscaling");
    c.files = vec!["terraform/modules/aws/rds_instance/main.tf".into()];
    c.subject = subject("rds storage autoscaling", &c.files, &filler());
    let s = score(&notes, &hits, &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    for p in ["guide.md", "adr.md"] {
        let n = get(p);
        assert!(n.anchored && (n.signals - 0.3).abs() < 1e-9, "{p}");
        assert!(
            n.reasons().iter().any(
                |r| r == "its title names rds, what the branch and the changed files are about"
            ),
            "{:?}",
            n.reasons()
        );
    }
    for p in ["buckets.md", "unfound.md", "conf.md"] {
        assert!(!get(p).anchored && get(p).signals.abs() < 1e-9, "{p}");
    }
    // The same files without a branch: no subject, nothing pointed at.
    c.subject = Subject::default();
    let s = score(&notes, &hits, &c.ctx());
    assert!(s.iter().all(|n| !n.anchored));
}
