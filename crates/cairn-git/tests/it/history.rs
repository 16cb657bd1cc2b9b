//! The history cache on real repositories with commits at fixed dates: which
//! commits touched which files and folders after a day, the cold pass and its
//! caps, incremental updates, merges skipped, and the cache file.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use cairn_git::{History, HistoryLimits, HistoryUpdate, open};
use common::Repo;

/// UTC days since 1970-01-01 of a `YYYY-MM-DD` date.
fn day(date: &str) -> i64 {
    let (y, rest) = date.split_once('-').unwrap();
    let (m, d) = rest.split_once('-').unwrap();
    let (y, m, d): (i64, i64, i64) = (y.parse().unwrap(), m.parse().unwrap(), d.parse().unwrap());
    // Days from civil (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn ledger() -> Repo {
    let r = Repo::new();
    r.commit(
        "2026-01-10T09:00:00Z",
        "Initial",
        &[
            ("src/ledger/posting.rs", "1\n"),
            ("src/payout/batch.rs", "1\n"),
            ("README.md", "1\n"),
        ],
    );
    r.commit(
        "2026-01-25T23:30:00Z",
        "Posting fix",
        &[("src/ledger/posting.rs", "2\n")],
    );
    r.commit(
        "2026-02-03T08:00:00+05:00",
        "Batch and posting",
        &[
            ("src/ledger/posting.rs", "3\n"),
            ("src/payout/batch.rs", "2\n"),
        ],
    );
    r.commit("2026-02-10T09:00:00Z", "Docs", &[("README.md", "2\n")]);
    r
}

#[track_caller]
fn check(h: &History, targets: &[&str], after: &str, expect: &[(&str, usize)]) {
    let targets: Vec<String> = targets.iter().map(|t| (*t).to_owned()).collect();
    let got: Vec<(String, usize)> = h
        .touches(&targets, day(after))
        .into_iter()
        .map(|c| (c.path, c.commits))
        .collect();
    let expect: Vec<(String, usize)> = expect.iter().map(|(p, n)| ((*p).to_owned(), *n)).collect();
    assert_eq!(got, expect, "{targets:?} after {after}");
}

#[test]
fn commits_after_a_day_are_counted_per_file_and_folder() {
    let r = ledger();
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    let limits = HistoryLimits::default();
    assert_eq!(
        h.update(&repo, &limits, false).unwrap(),
        HistoryUpdate::Behind
    );
    assert!(h.is_empty());
    assert_eq!(
        h.update(&repo, &limits, true).unwrap(),
        HistoryUpdate::Rebuilt(4)
    );
    check(
        &h,
        &["src/ledger/posting.rs"],
        "2026-01-20",
        &[("src/ledger/posting.rs", 2)],
    );
    // The committer's own day counts: 2026-02-03T08:00+05:00 is the 3rd.
    check(
        &h,
        &["src/ledger/posting.rs"],
        "2026-02-02",
        &[("src/ledger/posting.rs", 1)],
    );
    check(&h, &["src/ledger/posting.rs"], "2026-02-03", &[]);
    // 2026-01-25T23:30Z is still the 25th: not after it.
    check(
        &h,
        &["src/ledger/posting.rs"],
        "2026-01-25",
        &[("src/ledger/posting.rs", 1)],
    );
    check(
        &h,
        &["src/", "README.md", "nope.rs"],
        "2026-01-01",
        &[("src/", 3), ("README.md", 2)],
    );
    check(&h, &["src/payout"], "2026-01-10", &[("src/payout", 1)]);
    check(&h, &["src/pay"], "2026-01-01", &[]);
    // A folder's lock file counts only when named itself: a dependency bump
    // changes no code a note describes.
    r.commit(
        "2026-02-12T09:00:00Z",
        "Bump dependencies",
        &[("src/Cargo.lock", "2\n"), ("web/package-lock.json", "2\n")],
    );
    let mut h = h.clone();
    h.update(&repo, &limits, false).unwrap();
    check(&h, &["src/", "web"], "2026-02-11", &[]);
    check(
        &h,
        &["src/Cargo.lock"],
        "2026-02-11",
        &[("src/Cargo.lock", 1)],
    );
    // So do its manifests and changelog: a release bumps every package's
    // version and writes its changelog; a commit that also changes code
    // counts by that code.
    r.commit(
        "2026-02-13T09:00:00Z",
        "Release 1.4.0",
        &[
            ("src/Cargo.toml", "version = \"1.4.0\"\n"),
            ("src/CHANGELOG.md", "## 1.4.0\n"),
            ("web/package.json", "{\"version\": \"1.4.0\"}\n"),
        ],
    );
    r.commit(
        "2026-02-14T09:00:00Z",
        "Add a posting feature",
        &[
            ("src/Cargo.toml", "version = \"1.4.0\"\n[features]\n"),
            ("src/ledger/posting.rs", "fn post() { 2 }\n"),
        ],
    );
    h.update(&repo, &limits, false).unwrap();
    check(&h, &["src/", "web"], "2026-02-11", &[("src/", 1)]);
    check(
        &h,
        &["web/package.json", "src/CHANGELOG.md"],
        "2026-02-11",
        &[("web/package.json", 1), ("src/CHANGELOG.md", 1)],
    );
    assert_eq!(
        h.update(&repo, &limits, false).unwrap(),
        HistoryUpdate::Unchanged
    );
}

/// How much of the repository a folder holds: the share of the files the
/// history touched that lie under it (a folder name, not a prefix of a name).
/// A commit is dated by the committer's own day, as the note's author dates
/// the note: a fix committed at 21:21 in New York on the note's date (already
/// the next day in UTC) is no change since the note (a held-out trial).
#[test]
fn a_commit_counts_on_the_committer_s_own_day() {
    let r = ledger();
    r.commit(
        "2026-03-05T21:21:00-04:00",
        "Evening fix",
        &[("src/payout/batch.rs", "3\n")],
    );
    r.commit(
        "2026-03-07T01:30:00+09:00",
        "Morning fix in Tokyo",
        &[("src/ledger/posting.rs", "4\n")],
    );
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    h.update(&repo, &HistoryLimits::default(), true).unwrap();
    check(&h, &["src/payout/batch.rs"], "2026-03-05", &[]);
    check(
        &h,
        &["src/payout/batch.rs"],
        "2026-03-04",
        &[("src/payout/batch.rs", 1)],
    );
    // 2026-03-06 16:30 UTC is the 7th in Tokyo.
    check(
        &h,
        &["src/ledger/posting.rs"],
        "2026-03-06",
        &[("src/ledger/posting.rs", 1)],
    );
    check(&h, &["src/ledger/posting.rs"], "2026-03-07", &[]);
}

#[test]
fn a_folder_s_share_of_the_files() {
    let r = ledger();
    r.commit(
        "2026-02-11T09:00:00Z",
        "More",
        &[
            (
                "src/ledgerx.rs",
                "1
",
            ),
            (
                "src/ledger/entry.rs",
                "1
",
            ),
        ],
    );
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    assert_eq!(h.share_under("src"), None);
    h.update(&repo, &HistoryLimits::default(), true).unwrap();
    // 5 files: README.md, src/ledger/{posting,entry}.rs, src/ledgerx.rs, src/payout/batch.rs.
    assert_eq!(h.share_under("src"), Some(0.8));
    assert_eq!(h.share_under("./src/"), Some(0.8));
    assert_eq!(h.share_under("src/ledger"), Some(0.4));
    assert_eq!(h.share_under("src/payout/batch.rs"), Some(0.0));
    assert_eq!(h.share_under("docs"), Some(0.0));
    assert_eq!(h.share_under("/"), None);
}

#[test]
fn new_commits_are_added_incrementally_and_the_cache_file_round_trips() {
    let r = ledger();
    let repo = open(&r.path()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("h.txt");
    let limits = HistoryLimits {
        max_new: 2,
        ..HistoryLimits::default()
    };
    let mut h = History::default();
    h.update(&repo, &limits, true).unwrap();
    h.save(&file).unwrap();
    assert_eq!(History::load(&file), h);

    r.commit(
        "2026-03-01T09:00:00Z",
        "Batch again",
        &[("src/payout/batch.rs", "3\n")],
    );
    let repo = open(&r.path()).unwrap();
    let mut h = History::load(&file);
    assert_eq!(
        h.update(&repo, &limits, false).unwrap(),
        HistoryUpdate::Added(1)
    );
    assert_eq!(h.len(), 5);
    // A wake-up's save (not synced) round-trips the same way.
    h.save_unsynced(&file).unwrap();
    assert_eq!(History::load(&file), h);
    check(
        &h,
        &["src/payout/batch.rs"],
        "2026-01-20",
        &[("src/payout/batch.rs", 2)],
    );

    // Too many new commits without the cold pass: emptied (its counts would be
    // short), to be written so, so that later runs do not walk that far again.
    for i in 0..3 {
        r.commit(
            &format!("2026-03-0{}T09:00:00Z", i + 2),
            "More",
            &[("x.txt", &format!("{i}\n"))],
        );
    }
    let repo = open(&r.path()).unwrap();
    let u = h.update(&repo, &limits, false).unwrap();
    assert_eq!(u, HistoryUpdate::Dropped);
    assert!(u.changed());
    assert!(h.is_empty() && h.head().is_none());
    // Saved empty, the next run without the cold pass does no walk at all.
    h.save(&file).unwrap();
    let mut again = History::load(&file);
    assert_eq!(
        again.update(&repo, &limits, false).unwrap(),
        HistoryUpdate::Behind
    );
    assert_eq!(
        h.update(&repo, &limits, true).unwrap(),
        HistoryUpdate::Rebuilt(8)
    );

    // A damaged or foreign file is an empty history.
    std::fs::write(&file, "cairn-git-history 3\nc abc notaday 0\nend 1\n").unwrap();
    assert!(History::load(&file).is_empty());
    // So is one cut short at a line break (its count of commits is missing or
    // wrong).
    h.save(&file).unwrap();
    let whole = std::fs::read_to_string(&file).unwrap();
    assert_eq!(History::load(&file), h);
    let lines: Vec<&str> = whole.lines().collect();
    for cut in 1..lines.len() {
        std::fs::write(&file, lines[..cut].join("\n") + "\n").unwrap();
        assert!(History::load(&file).is_empty(), "cut after {cut} lines");
    }
    let last_commit = lines.iter().rposition(|l| l.starts_with("c ")).unwrap();
    let mut dropped = lines.clone();
    dropped.remove(last_commit);
    std::fs::write(&file, dropped.join("\n") + "\n").unwrap();
    assert!(History::load(&file).is_empty(), "a commit line lost");
    // The older formats dated commits by UTC's day: read again.
    for old in ["cairn-git-history 2", "cairn-git-history 1"] {
        std::fs::write(&file, whole.replace("cairn-git-history 3", old)).unwrap();
        assert!(History::load(&file).is_empty(), "{old}");
    }
    std::fs::write(&file, "something else").unwrap();
    assert!(History::load(&file).is_empty());
    assert!(History::load(&dir.path().join("missing")).is_empty());
}

#[test]
fn the_cold_pass_is_capped_and_merges_are_skipped() {
    let r = ledger();
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.commit("2026-02-11T09:00:00Z", "Topic", &[("src/topic.rs", "1\n")]);
    r.git(&["checkout", "-q", "main"]);
    r.commit("2026-02-12T09:00:00Z", "Main", &[("src/main.rs", "1\n")]);
    common::git_in(
        &r.path(),
        &["merge", "-q", "--no-ff", "-m", "Merge topic", "topic"],
        "2026-02-13T09:00:00Z",
    );
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    // Every commit but the merge.
    assert_eq!(
        h.update(&repo, &HistoryLimits::default(), true).unwrap(),
        HistoryUpdate::Rebuilt(6)
    );
    check(&h, &["src/topic.rs"], "2026-01-01", &[("src/topic.rs", 1)]);
    let mut capped = History::default();
    let by_count = HistoryLimits {
        max_commits: 2,
        ..HistoryLimits::default()
    };
    assert_eq!(
        capped.update(&repo, &by_count, true).unwrap(),
        HistoryUpdate::Rebuilt(2)
    );
    // Ten days before HEAD's commit (2026-02-13 09:00 UTC): the commits from
    // 2026-02-03 09:00 UTC on (Docs, Topic, Main; the merge is skipped).
    let by_days = HistoryLimits {
        max_days: 10,
        ..HistoryLimits::default()
    };
    let mut recent = History::default();
    assert_eq!(
        recent.update(&repo, &by_days, true).unwrap(),
        HistoryUpdate::Rebuilt(3)
    );
}

/// A clone of `r` made by `git clone` with `args`, from its path as a URL (so
/// that filters and depths apply as they would over a network).
fn clone_of(r: &Repo, args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", r.path().display());
    let mut cmd = std::process::Command::new("git");
    cmd.args(["-c", "uploadpack.allowFilter=true", "clone", "-q"])
        .args(args)
        .arg(&url)
        .arg(dir.path().join("c"));
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// A shallow clone has the commits it was given: the history reads those, and
/// the oldest one, whose parent is not there, counts as touching nothing (its
/// changes cannot be known); the working tree reads.
#[test]
fn a_shallow_clone_reads_the_commits_it_has() {
    let r = ledger();
    r.git(&["config", "uploadpack.allowFilter", "true"]);
    let c = clone_of(&r, &["--depth", "2"]);
    let repo = open(&c.path().join("c")).unwrap();
    let mut h = History::default();
    let u = h.update(&repo, &HistoryLimits::default(), true).unwrap();
    assert_eq!(u, HistoryUpdate::Rebuilt(2));
    // "Docs" (README.md) is read; "Batch and posting", the shallow boundary, is not.
    check(&h, &["README.md"], "2026-01-01", &[("README.md", 1)]);
    check(&h, &["src/ledger/posting.rs", "src"], "2026-01-01", &[]);
    assert!(repo.working_tree(cairn_git::ReadOptions::default()).is_ok());
}

/// A partial clone without trees or blobs (`--filter=tree:0`) has commits only:
/// reading which files they touched is an error naming the missing object
/// (never a panic, never a fetch), and the history is left empty.
#[test]
fn a_clone_without_trees_is_an_error_not_a_fetch() {
    let r = ledger();
    r.git(&["config", "uploadpack.allowFilter", "true"]);
    let c = clone_of(&r, &["--filter=tree:0", "--no-checkout"]);
    let repo = open(&c.path().join("c")).unwrap();
    let mut h = History::default();
    let got = h.update(&repo, &HistoryLimits::default(), true);
    let Err(e) = got else {
        panic!("read without trees: {got:?}");
    };
    assert!(e.to_string().contains("could not be found"), "{e}");
    assert!(h.is_empty(), "nothing is kept from a failed read");
}

/// A fresh cold pass of `repo` at its `HEAD`.
fn fresh(repo: &cairn_git::Repository) -> History {
    let mut h = History::default();
    h.update(repo, &HistoryLimits::default(), true).unwrap();
    h
}

/// What a history says: its `HEAD`, its size and its counts per file and day
/// (the path table's order aside).
#[track_caller]
fn assert_same(a: &History, b: &History, what: &str) {
    let files: Vec<String> = [
        "README.md",
        "src/ledger/posting.rs",
        "src/payout/batch.rs",
        "src/a.rs",
        "src/b.rs",
        "src",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!((a.head(), a.len()), (b.head(), b.len()), "{what}");
    for d in ["2025-01-01", "2026-01-20", "2026-02-05", "2026-02-25"] {
        assert_eq!(
            a.touches(&files, day(d)),
            b.touches(&files, day(d)),
            "{what}, after {d}"
        );
    }
}

/// `HEAD` moving off the line the history was read on (another branch, a
/// deleted branch, a reset) drops the commits that are no longer `HEAD`'s: the
/// incremental history counts what a fresh one counts. Before, a commit of a
/// branch checked out once kept counting on every other branch.
#[test]
fn a_head_that_moves_off_its_line_drops_the_commits_it_left() {
    let r = ledger();
    let limits = HistoryLimits::default();
    let mut h = fresh(&open(&r.path()).unwrap());
    let posting = |h: &History| {
        h.touches(&["src/ledger/posting.rs".to_owned()], day("2026-01-01"))
            .first()
            .map_or(0, |c| c.commits)
    };
    assert_eq!(posting(&h), 3);

    // A topic branch with a commit touching the file.
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.commit(
        "2026-02-20T09:00:00Z",
        "Topic posting",
        &[("src/ledger/posting.rs", "topic\n")],
    );
    assert_eq!(
        h.update(&open(&r.path()).unwrap(), &limits, false).unwrap(),
        HistoryUpdate::Added(1)
    );
    assert_eq!(posting(&h), 4);

    // Back on main, the branch deleted: its commit no longer counts.
    r.git(&["checkout", "-q", "main"]);
    r.git(&["branch", "-q", "-D", "topic"]);
    let repo = open(&r.path()).unwrap();
    let u = h.update(&repo, &limits, false).unwrap();
    assert_eq!(
        u,
        HistoryUpdate::Moved {
            added: 0,
            dropped: 1
        }
    );
    assert!(u.changed());
    assert_eq!(posting(&h), 3);
    assert_same(&h, &fresh(&repo), "back on main");

    // A commit on main, then reset away: gone again, and never held twice.
    r.commit(
        "2026-02-21T09:00:00Z",
        "Posting again",
        &[("src/ledger/posting.rs", "again\n")],
    );
    let repo = open(&r.path()).unwrap();
    assert_eq!(
        h.update(&repo, &limits, false).unwrap(),
        HistoryUpdate::Added(1)
    );
    r.git(&["reset", "-q", "--hard", "HEAD~1"]);
    let repo = open(&r.path()).unwrap();
    assert_eq!(
        h.update(&repo, &limits, false).unwrap(),
        HistoryUpdate::Moved {
            added: 0,
            dropped: 1
        }
    );
    assert_same(&h, &fresh(&repo), "after the reset");

    // Two diverged branches: each switch gives that branch's history.
    r.git(&["checkout", "-q", "-b", "a"]);
    r.commit("2026-03-01T09:00:00Z", "A", &[("src/a.rs", "1\n")]);
    r.git(&["checkout", "-q", "main"]);
    r.git(&["checkout", "-q", "-b", "b"]);
    r.commit("2026-03-02T09:00:00Z", "B", &[("src/b.rs", "1\n")]);
    for branch in ["a", "b", "a", "main", "b"] {
        r.git(&["checkout", "-q", branch]);
        let repo = open(&r.path()).unwrap();
        h.update(&repo, &limits, false).unwrap();
        assert_same(&h, &fresh(&repo), branch);
    }

    // Moved off by more than a wake-up may read: emptied (its commits are not
    // HEAD's), not left as it was; the cold pass reads it again.
    let small = HistoryLimits {
        max_new: 1,
        ..HistoryLimits::default()
    };
    r.git(&["checkout", "-q", "a"]);
    r.commit("2026-03-03T09:00:00Z", "A2", &[("src/a.rs", "2\n")]);
    let repo = open(&r.path()).unwrap();
    h.update(&repo, &limits, false).unwrap();
    r.git(&["checkout", "-q", "b"]);
    let repo = open(&r.path()).unwrap();
    assert_eq!(
        h.update(&repo, &small, false).unwrap(),
        HistoryUpdate::Dropped
    );
    assert!(h.is_empty(), "a history of another line is not kept");
    assert!(matches!(
        h.update(&repo, &small, true).unwrap(),
        HistoryUpdate::Rebuilt(_)
    ));
    assert_same(&h, &fresh(&repo), "rebuilt");
}

/// Two lines too far apart to follow without the cold pass (`main` and an old
/// release branch): the one left is kept aside, and switching back swaps it in
/// and brings it up, rather than emptying the history until the next `cairn
/// index` (a held-out trial: a checkout 500 commits away left every later
/// session without "code changed since" marks).
#[test]
fn a_line_far_from_the_other_is_kept_aside_and_swapped_back() {
    let r = ledger();
    let small = HistoryLimits {
        max_new: 1,
        ..HistoryLimits::default()
    };
    r.git(&["checkout", "-q", "-b", "release"]);
    r.commit("2026-03-01T09:00:00Z", "R1", &[("src/r.rs", "1\n")]);
    r.commit("2026-03-02T09:00:00Z", "R2", &[("src/r.rs", "2\n")]);
    r.git(&["checkout", "-q", "main"]);
    r.commit("2026-03-03T09:00:00Z", "M1", &[("src/m.rs", "1\n")]);
    r.commit("2026-03-04T09:00:00Z", "M2", &[("src/m.rs", "2\n")]);
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    let none = || -> History { panic!("the aside is not asked for when not needed") };
    h.update_beside(&repo, &small, true, "", History::default)
        .unwrap();
    let on_main = h.clone();
    assert_eq!(
        h.update_beside(&repo, &small, false, "", none).unwrap(),
        (HistoryUpdate::Unchanged, None)
    );

    // Far from main's line, nothing aside: emptied, main's line set aside.
    r.git(&["checkout", "-q", "release"]);
    let repo = open(&r.path()).unwrap();
    let (u, aside) = h
        .update_beside(&repo, &small, false, "", History::default)
        .unwrap();
    assert_eq!(u, HistoryUpdate::Dropped);
    assert!(h.is_empty());
    let aside = aside.expect("main's line is set aside");
    assert_eq!(aside, on_main);
    // The cold pass reads the release line; main's stays aside.
    let (u, again) = h
        .update_beside(&repo, &small, true, "", || aside.clone())
        .unwrap();
    assert!(matches!(u, HistoryUpdate::Rebuilt(_)), "{u:?}");
    assert_eq!(again, None, "an empty line does not replace the aside");
    assert_same(&h, &fresh(&repo), "release");
    let on_release = h.clone();

    // Back on main, one commit further: swapped in and brought up, the release
    // line set aside in its place; no cold pass.
    r.git(&["checkout", "-q", "main"]);
    r.commit("2026-03-05T09:00:00Z", "M3", &[("src/m.rs", "3\n")]);
    let repo = open(&r.path()).unwrap();
    let (u, set) = h
        .update_beside(&repo, &small, false, "", || aside.clone())
        .unwrap();
    assert_eq!(
        u,
        HistoryUpdate::Moved {
            added: 1,
            dropped: 0
        }
    );
    assert_same(&h, &fresh(&repo), "main again");
    assert_eq!(set, Some(on_release.clone()));

    // And back to release, where the aside is: swapped as it is.
    r.git(&["checkout", "-q", "release"]);
    let repo = open(&r.path()).unwrap();
    let (u, set) = h
        .update_beside(&repo, &small, false, "", || on_release.clone())
        .unwrap();
    assert_eq!(
        u,
        HistoryUpdate::Moved {
            added: 0,
            dropped: 0
        }
    );
    assert_eq!(h, on_release);
    assert!(set.is_some_and(|m| m.head() != on_release.head()));

    // An empty history (after a drop) swaps the aside in without setting
    // itself aside.
    let mut empty = History::default();
    let (u, set) = empty
        .update_beside(&repo, &small, false, "", || on_release.clone())
        .unwrap();
    assert_eq!(
        (u, set),
        (
            HistoryUpdate::Moved {
                added: 0,
                dropped: 0
            },
            None
        )
    );
    assert_eq!(empty, on_release);
}

/// A history the cold pass cut at a cap says so: counts after a day before its
/// oldest commit are lower bounds (`at_least`), later ones exact; the cut
/// survives the cache file.
#[test]
fn a_capped_history_gives_lower_bounds_before_its_oldest_commit() {
    let r = ledger();
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    let limits = HistoryLimits {
        max_commits: 2,
        ..HistoryLimits::default()
    };
    h.update(&repo, &limits, true).unwrap();
    // Held: Docs (02-10) and Batch and posting (02-03).
    let got = h.touches(&["src/ledger/posting.rs".to_owned()], day("2026-01-20"));
    assert_eq!((got[0].commits, got[0].at_least), (1, true));
    let got = h.touches(&["src/ledger/posting.rs".to_owned()], day("2026-02-03"));
    assert!(got.is_empty());
    let got = h.touches(&["README.md".to_owned()], day("2026-02-05"));
    assert_eq!((got[0].commits, got[0].at_least), (1, false));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("h.txt");
    h.save(&file).unwrap();
    assert_eq!(History::load(&file), h);
    // The whole history is exact from any day.
    let whole = fresh(&repo);
    let got = whole.touches(&["src/ledger/posting.rs".to_owned()], day("2025-01-01"));
    assert_eq!((got[0].commits, got[0].at_least), (3, false));
}
