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

/// A note the text search found whose title says most of the branch's topical
/// words (two thirds, at least two) is pointed at whatever the changed files
/// name (held-out trial Altinn/altinn-authentication:
/// `chore/remove-sbl-bridge-leftovers` and "ADR-0004: Remove the Altinn 2 /
/// SBL Bridge integration", which a word no note holds, `leftovers`, and words
/// most notes hold, `sbl` and `bridge`, kept below the relevance gate). A
/// title saying one of them, a branch of one topical word, a confidential note
/// and a note the search did not find are not.
#[test]
fn a_title_that_says_most_of_the_branch_points_at_its_note() {
    let titled =
        |path: &str, title: &str, extra: &str| note(path, &format!("title: {title}{extra}"));
    let notes = vec![
        titled(
            "adr4.md",
            "ADR-0004: Remove the Altinn 2 / SBL Bridge integration",
            "",
        ),
        titled("sessions.md", "Flow: Sessions and the SBL cookies", ""),
        titled("unfound.md", "SBL bridge timeouts", ""),
        titled(
            "conf.md",
            "SBL bridge service account",
            "\nsensitivity: confidential",
        ),
    ];
    let hits = [
        hit("adr4.md", 2.0),
        hit("sessions.md", 2.5),
        hit("conf.md", 1.0),
    ];
    let branch = "remove sbl bridge leftovers";
    let mut c = Ctx::new(branch);
    c.files = vec!["src/Authentication/Services/AuthenticationCore.cs".into()];
    c.subject = subject(
        branch,
        &c.files,
        &cairn_index::analyze("remove").into_iter().collect(),
    );
    assert!(c.subject.is_empty(), "no file names sbl or bridge");
    let s = score(&notes, &hits, &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    let adr = get("adr4.md");
    assert!(adr.anchored && (adr.signals - 0.3).abs() < 1e-9);
    assert!(
        adr.reasons()
            .iter()
            .any(|r| r == "its title says sbl bridge, most of the branch's words"),
        "{:?}",
        adr.reasons()
    );
    for p in ["sessions.md", "unfound.md", "conf.md"] {
        assert!(!get(p).anchored, "{p}");
    }
    // One topical word: a title saying it is not pointed at by this rule.
    let mut c = Ctx::new("sbl");
    c.subject = subject("sbl", &[], &filler());
    let s = score(&notes, &hits, &c.ctx());
    assert!(s.iter().all(|n| !n.anchored));
    // Four topical words: three are needed.
    let mut c = Ctx::new("sbl bridge cookie cleanup");
    c.subject = subject("sbl bridge cookie cleanup", &[], &filler());
    let s = score(&notes, &hits, &c.ctx());
    assert!(s.iter().all(|n| !n.anchored));
}
