//! The working tree read from real repositories: branch, changed files (staged,
//! unstaged, untracked) in modification order, the branch's own commits,
//! worktrees, submodules and folders outside git.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use cairn_git::{GitError, ReadOptions, read_working_tree};
use common::Repo;
use std::path::Path;

fn ledger() -> Repo {
    let r = Repo::new();
    r.commit(
        "2026-01-10T09:00:00Z",
        "Initial ledger",
        &[
            ("src/ledger/posting.rs", "fn post() {}\n"),
            ("src/payout/batch.rs", "fn batch() {}\n"),
            ("README.md", "# ledger\n"),
        ],
    );
    r.commit(
        "2026-01-12T09:00:00Z",
        "Document the ledger",
        &[("docs/ledger.md", "ledger\n")],
    );
    r
}

/// [`ledger`] on the branch `fix/payout-batch-lock-timeouts`, one commit ahead of `main`.
fn ledger_on_a_branch() -> Repo {
    let r = ledger();
    r.git(&["checkout", "-q", "-b", "fix/payout-batch-lock-timeouts"]);
    r.commit(
        "2026-02-01T09:00:00Z",
        "Take the batch lock with a timeout",
        &[("src/payout/batch.rs", "fn batch() { lock() }\n")],
    );
    r
}

/// The working tree at `dir`, from a repository opened afresh (as each wake-up
/// opens one), with `cache`.
fn read_with(
    dir: &Path,
    cache: Option<&cairn_git::StatusCache>,
    opts: ReadOptions,
) -> cairn_git::WorkingTree {
    cairn_git::open(dir)
        .unwrap()
        .working_tree_with(opts, cache)
        .unwrap()
}

#[test]
fn branch_changed_files_and_own_commits() {
    let r = ledger_on_a_branch();
    r.commit(
        "2026-02-02T09:00:00Z",
        "Retry payouts after a lock timeout\n\nLonger body.",
        &[("src/payout/retry.rs", "fn retry() {}\n")],
    );
    // Unstaged, staged and untracked changes at distinct times.
    r.write("src/ledger/posting.rs", "fn post() { changed() }\n");
    r.touch("src/ledger/posting.rs", 1_800_000_000);
    r.write("src/payout/lock.rs", "fn lock() {}\n");
    r.git(&["add", "src/payout/lock.rs"]);
    r.touch("src/payout/lock.rs", 1_800_000_100);
    r.write("notes/todo.txt", "later\n");
    r.touch("notes/todo.txt", 1_700_000_000);

    let t = read_working_tree(&r.path().join("src"), ReadOptions::default()).unwrap();
    assert_eq!(t.workdir, r.path());
    assert_eq!(t.main_workdir, None);
    assert_eq!(t.branch.as_deref(), Some("fix/payout-batch-lock-timeouts"));
    assert_eq!(t.default_branch.as_deref(), Some("main"));
    assert_eq!(t.default_ref.as_deref(), Some("main"));
    assert_eq!(
        t.changed,
        [
            "src/payout/lock.rs",
            "src/ledger/posting.rs",
            "notes/todo.txt"
        ]
    );
    assert_eq!(t.changed_total, 3);
    assert_eq!(
        t.commits,
        [
            "Retry payouts after a lock timeout",
            "Take the batch lock with a timeout"
        ]
    );

    let capped = read_working_tree(
        &r.path(),
        ReadOptions {
            max_changed: 1,
            max_commits: 1,
        },
    )
    .unwrap();
    assert_eq!(capped.changed, ["src/payout/lock.rs"]);
    assert_eq!(capped.changed_total, 3);
    assert_eq!(capped.commits, ["Retry payouts after a lock timeout"]);
}

/// A changelog or a lock file changed beside code is no part of the task (a
/// held-out trial: `CHANGELOG.md`'s path words took a note under the gate);
/// alone, it is the work.
#[test]
fn a_changelog_or_a_lock_file_beside_code_is_left_out() {
    let r = ledger_on_a_branch();
    r.commit(
        "2026-02-02T09:00:00Z",
        "Retry payouts",
        &[
            ("src/payout/retry.rs", "fn retry() {}\n"),
            ("CHANGELOG.md", "- retry\n"),
        ],
    );
    r.write("src/ledger/posting.rs", "fn post() { changed() }\n");
    r.write("Cargo.lock", "# lock\n");
    r.write("docs/CHANGES.rst", "x\n");
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.changed, ["src/ledger/posting.rs"]);
    assert_eq!(t.committed, ["src/payout/retry.rs", "src/payout/batch.rs"]);
    // Only the changelog changed: writing it is the work.
    let r = ledger();
    r.write("CHANGELOG.md", "- 1.2\n");
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.changed, ["CHANGELOG.md"]);
}

/// A detached `HEAD` (a checked-out commit or tag) has no branch name, and its
/// own commits and changed files are read as on a branch.
#[test]
fn a_detached_head_has_no_branch_and_its_own_commits() {
    let r = ledger_on_a_branch();
    r.git(&["checkout", "-q", "--detach"]);
    r.write("src/payout/lock.rs", "fn lock() {}\n");
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.branch, None);
    assert_eq!(t.default_branch.as_deref(), Some("main"));
    assert_eq!(t.commits, ["Take the batch lock with a timeout"]);
    assert_eq!(t.changed, ["src/payout/lock.rs"]);
}

/// [`ledger_on_a_branch`] with a second commit of its own, and `main` moved on
/// with a commit that conflicts with the branch's first.
fn ledger_on_a_branch_behind_main() -> Repo {
    let r = ledger_on_a_branch();
    r.commit(
        "2026-02-02T09:00:00Z",
        "Retry payouts after a lock timeout",
        &[("src/payout/retry.rs", "fn retry() {}\n")],
    );
    r.git(&["checkout", "-q", "main"]);
    r.commit(
        "2026-02-03T09:00:00Z",
        "Batch payouts by currency",
        &[("src/payout/batch.rs", "fn batch(currency: &str) {}\n")],
    );
    r.git(&["checkout", "-q", "fix/payout-batch-lock-timeouts"]);
    r
}

/// A rebase that stopped at a conflict leaves `HEAD` detached, yet the work is
/// the branch's: its name (from the rebase's state) and its own commits (from
/// its tip before the rebase, the first not yet replayed); with either of
/// git's rebase backends (held-out trial: a branch stopped mid-rebase gave a
/// task of no words, "detached HEAD", and none of its commits).
#[test]
fn a_rebase_that_stopped_is_the_branch_s_work() {
    for backend in ["--merge", "--apply"] {
        let r = ledger_on_a_branch_behind_main();
        cairn_synth::git::git_output_in(
            &r.path(),
            &["rebase", backend, "main"],
            "2026-03-01T09:00:00Z",
        );
        assert!(
            r.git(&["status"]).contains("rebas"),
            "{backend}: no rebase under way"
        );
        let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
        assert_eq!(
            t.branch.as_deref(),
            Some("fix/payout-batch-lock-timeouts"),
            "{backend}"
        );
        assert_eq!(
            t.in_progress,
            Some(cairn_git::Operation::Rebase),
            "{backend}"
        );
        assert_eq!(
            t.commits,
            [
                "Retry payouts after a lock timeout",
                "Take the batch lock with a timeout"
            ],
            "{backend}"
        );
        assert!(
            t.changed.contains(&"src/payout/batch.rs".to_owned()),
            "{backend}: {:?}",
            t.changed
        );
    }
}

/// A rebase skips a commit of the branch that is upstream already (picked
/// into `main`): it is no longer the branch's work, so neither its subject nor
/// its id is the branch's own while the rebase stops at the next (a held-out
/// trial: the task held the subject of a fix `main` had taken).
#[test]
fn a_rebase_leaves_out_the_commits_git_found_upstream() {
    let r = Repo::new();
    r.commit(
        "2026-01-10T09:00:00Z",
        "Initial",
        &[("src/a.rs", "1\n"), ("src/b.rs", "1\n")],
    );
    r.git(&["checkout", "-q", "-b", "fix/two-things"]);
    r.commit("2026-01-11T09:00:00Z", "Change a", &[("src/a.rs", "2\n")]);
    r.commit("2026-01-12T09:00:00Z", "Change b", &[("src/b.rs", "2\n")]);
    r.git(&["checkout", "-q", "main"]);
    r.git(&["cherry-pick", "fix/two-things~1"]);
    r.commit(
        "2026-01-13T09:00:00Z",
        "Main changes b",
        &[("src/b.rs", "3\n")],
    );
    r.git(&["checkout", "-q", "fix/two-things"]);
    let before = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(before.commits, ["Change b", "Change a"]);
    cairn_synth::git::git_output_in(
        &r.path(),
        &["rebase", "--merge", "main"],
        "2026-01-14T09:00:00Z",
    );
    assert!(r.git(&["status"]).contains("rebas"), "no rebase under way");
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.branch.as_deref(), Some("fix/two-things"));
    assert_eq!(t.commits, ["Change b"]);
    assert_eq!(t.own_commit_ids.len(), 1);
}

/// A bisect detaches `HEAD` from the branch it started on: that branch is named.
#[test]
fn a_bisect_names_the_branch_it_started_from() {
    let r = ledger_on_a_branch_behind_main();
    r.git(&["bisect", "start"]);
    r.git(&["bisect", "bad"]);
    r.git(&["bisect", "good", "main~1"]);
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.branch.as_deref(), Some("fix/payout-batch-lock-timeouts"));
    assert_eq!(t.in_progress, Some(cairn_git::Operation::Bisect));
    assert_eq!(
        t.commits,
        [
            "Retry payouts after a lock timeout",
            "Take the batch lock with a timeout"
        ]
    );
}

/// A rebase of a detached `HEAD` names no branch, nor does a state file that
/// names no valid branch or an id that names no commit: `HEAD` is read as it is.
#[test]
fn a_rebase_s_state_naming_no_branch_names_none() {
    let r = ledger_on_a_branch_behind_main();
    r.git(&["checkout", "-q", "--detach"]);
    cairn_synth::git::git_output_in(
        &r.path(),
        &["rebase", "--merge", "main"],
        "2026-03-01T09:00:00Z",
    );
    let state = r.path().join(".git/rebase-merge");
    assert!(state.is_dir());
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.branch, None);
    assert_eq!(t.in_progress, None);
    let orig = std::fs::read_to_string(state.join("orig-head")).unwrap();
    for (head_name, orig_head) in [
        ("refs/heads/a..b\n", orig.as_str()),
        ("refs/tags/v1\n", orig.as_str()),
        ("\u{0}\u{1}binary", orig.as_str()),
        (
            "refs/heads/fix/payout-batch-lock-timeouts\n",
            "0123456789abcdef0123456789abcdef01234567\n",
        ),
    ] {
        std::fs::write(state.join("head-name"), head_name).unwrap();
        std::fs::write(state.join("orig-head"), orig_head).unwrap();
        let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
        assert_eq!(t.branch, None, "{head_name:?} {orig_head:?}");
        // `HEAD` is `main`'s tip: the rebase stopped at its first commit.
        assert!(t.commits.is_empty(), "{head_name:?}: {:?}", t.commits);
    }
}

#[test]
fn same_times_sort_by_path_and_deleted_files_come_last() {
    let r = ledger();
    r.write("b.txt", "b\n");
    r.write("a.txt", "a\n");
    r.touch("a.txt", 1_800_000_000);
    r.touch("b.txt", 1_800_000_000);
    std::fs::remove_file(r.path().join("README.md")).unwrap();
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.changed, ["a.txt", "b.txt", "README.md"]);
}

#[test]
fn on_the_default_branch_no_commit_is_the_branch_s_own() {
    let r = ledger();
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.branch.as_deref(), Some("main"));
    assert!(t.commits.is_empty());
    assert!(t.changed.is_empty());
}

/// A mainline named neither `main` nor `master` (and no `origin/HEAD`): the
/// branch `init.defaultBranch` names, else `trunk`, else `develop`. Before,
/// such a repository had no default branch, so a branch had no commits of its
/// own.
#[test]
fn a_mainline_of_another_name_is_the_default_branch() {
    let r = ledger();
    r.git(&["branch", "-q", "-m", "main", "trunk"]);
    r.git(&["checkout", "-q", "-b", "topic"]);
    r.commit("2026-03-02T09:00:00Z", "Topic work", &[("t.txt", "t\n")]);
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch.as_deref(), Some("trunk"));
    assert_eq!(t.commits, ["Topic work"]);
    assert_eq!(t.committed, ["t.txt"]);
    r.git(&["branch", "-q", "-m", "trunk", "mainline"]);
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch, None);
    assert!(t.commits.is_empty());
    r.git(&["config", "init.defaultBranch", "mainline"]);
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch.as_deref(), Some("mainline"));
    assert_eq!(t.commits, ["Topic work"]);
}

#[test]
fn origin_head_names_the_default_branch() {
    let upstream = ledger();
    upstream.git(&["branch", "-q", "trunk"]);
    let clone = tempfile::tempdir().unwrap();
    common::git_in(
        clone.path(),
        &[
            "clone",
            "-q",
            "-b",
            "trunk",
            upstream.path().to_str().unwrap(),
            "c",
        ],
        "2026-03-01T00:00:00Z",
    );
    let dir = clone.path().join("c");
    common::git_in(
        &dir,
        &["remote", "set-head", "origin", "trunk"],
        "2026-03-01T00:00:00Z",
    );
    common::git_in(
        &dir,
        &["checkout", "-q", "-b", "topic"],
        "2026-03-01T00:00:00Z",
    );
    common::git_in(
        &dir,
        &["commit", "-q", "--allow-empty", "-m", "Topic work"],
        "2026-03-02T00:00:00Z",
    );
    let t = read_working_tree(&dir, ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch.as_deref(), Some("trunk"));
    // Compared with the remote's branch, and said so.
    // Compared with every mainline reference: `origin/main` too.
    assert_eq!(
        t.default_ref.as_deref(),
        Some("origin/trunk, trunk and origin/main")
    );
    assert_eq!(t.commits, ["Topic work"]);
    assert_eq!(t.remotes.len(), 1);
    assert_eq!(t.remotes[0].name, "origin");
    assert_eq!(t.remotes[0].normalized, None, "a local path has no host");
    // An `origin/HEAD` that holds a commit itself (not a branch's name) is
    // named as it is, not `HEAD`.
    let trunk = common::git_in(&dir, &["rev-parse", "origin/trunk"], "2026-03-02T00:00:00Z");
    common::git_in(
        &dir,
        &[
            "update-ref",
            "--no-deref",
            "refs/remotes/origin/HEAD",
            trunk.trim(),
        ],
        "2026-03-02T00:00:00Z",
    );
    let t = read_working_tree(&dir, ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch.as_deref(), Some("origin/HEAD"));
    assert_eq!(
        t.default_ref.as_deref(),
        Some("origin/HEAD, origin/main, trunk and origin/trunk")
    );
    assert_eq!(t.commits, ["Topic work"]);
}

#[test]
fn remotes_come_origin_first_then_by_name() {
    let r = ledger();
    r.git(&["remote", "add", "upstream", "git@github.com:Org/Ledger.git"]);
    r.git(&[
        "remote",
        "add",
        "backup",
        "https://u:pw@gitlab.com/org/ledger",
    ]);
    r.git(&[
        "remote",
        "add",
        "origin",
        "https://github.com/me/ledger.git",
    ]);
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    let got: Vec<(&str, Option<&str>)> = t
        .remotes
        .iter()
        .map(|r| (r.name.as_str(), r.normalized.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("origin", Some("github.com/me/ledger")),
            ("backup", Some("gitlab.com/org/ledger")),
            ("upstream", Some("github.com/Org/Ledger")),
        ]
    );
}

#[test]
fn a_linked_worktree_knows_its_main_checkout() {
    let r = ledger();
    let wt_parent = tempfile::tempdir().unwrap();
    let wt = wt_parent.path().join("wt");
    r.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "feature/settlement-report",
        wt.to_str().unwrap(),
    ]);
    common::git_in(
        &wt,
        &[
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "Settlement report skeleton",
        ],
        "2026-03-01T00:00:00Z",
    );
    std::fs::write(wt.join("src/report.rs"), "fn report() {}\n").unwrap();
    let t = read_working_tree(&wt, ReadOptions::default()).unwrap();
    assert_eq!(t.workdir, wt.canonicalize().unwrap());
    assert_eq!(t.main_workdir, Some(r.path()));
    assert_eq!(t.branch.as_deref(), Some("feature/settlement-report"));
    assert_eq!(t.commits, ["Settlement report skeleton"]);
    assert_eq!(t.changed, ["src/report.rs"]);
}

#[test]
fn a_submodule_is_read_as_its_own_repository() {
    let inner = ledger();
    let outer = Repo::new();
    outer.commit("2026-01-01T00:00:00Z", "Outer", &[("x.txt", "x\n")]);
    let sub = outer.add_submodule(&inner, "vendor/ledger");
    std::fs::write(sub.join("new.rs"), "fn x() {}\n").unwrap();
    let t = read_working_tree(&sub, ReadOptions::default()).unwrap();
    assert_eq!(t.workdir, sub.canonicalize().unwrap());
    assert_eq!(t.changed, ["new.rs"]);
    // The outer repository does not list the submodule's inner changes.
    let o = read_working_tree(&outer.path(), ReadOptions::default()).unwrap();
    assert!(
        !o.changed.iter().any(|c| c.contains("new.rs")),
        "{:?}",
        o.changed
    );

    // With the submodule committed in the outer repository, uncommitted work
    // inside it does not make it changed (as `git status
    // --ignore-submodules=dirty`)...
    outer.git(&["commit", "-q", "-m", "Add the ledger"]);
    let o = read_working_tree(&outer.path(), ReadOptions::default()).unwrap();
    assert_eq!(o.changed, Vec::<String>::new());
    // ... but a new commit checked out in it does: the outer repository's
    // index records another commit for it ("new commits"), and `git status`
    // lists it so.
    cairn_synth::git::git_in(&sub, &["add", "-A"], "2026-02-01T09:00:00Z");
    cairn_synth::git::git_in(&sub, &["commit", "-q", "-m", "New"], "2026-02-01T09:00:00Z");
    let o = read_working_tree(&outer.path(), ReadOptions::default()).unwrap();
    assert_eq!(o.changed, ["vendor/ledger"]);
    assert_eq!(outer.git_status_paths(), ["vendor/ledger"]);
}

#[test]
fn outside_git_is_not_a_repository_and_a_broken_one_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = read_working_tree(dir.path(), ReadOptions::default()).unwrap_err();
    assert!(matches!(err, GitError::NotARepository { .. }), "{err}");

    std::fs::create_dir_all(dir.path().join("b/.git")).unwrap();
    std::fs::write(dir.path().join("b/.git/HEAD"), "garbage").unwrap();
    let err = read_working_tree(&dir.path().join("b"), ReadOptions::default());
    assert!(err.is_err());
}

#[test]
fn an_unborn_branch_has_a_name_and_no_commits() {
    let r = Repo::new();
    r.write("a.txt", "a\n");
    let t = read_working_tree(&r.path(), ReadOptions::default()).unwrap();
    assert_eq!(t.branch.as_deref(), Some("main"));
    assert!(t.commits.is_empty());
    assert_eq!(t.changed, ["a.txt"]);
}

/// The staged files kept in a cache file answer exactly what a fresh status
/// answers: after staging more, after a commit, and over a damaged cache file.
#[test]
fn the_staged_files_cache_answers_what_a_fresh_status_answers() {
    let r = ledger();
    let cache_dir = tempfile::tempdir().unwrap();
    let status_cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "t");
    let cache = status_cache.staged.clone();
    let read = |cache: Option<&cairn_git::StatusCache>| {
        let mut changed = read_with(&r.path(), cache, ReadOptions::default()).changed;
        changed.sort();
        changed
    };
    let check = |expect: &[&str]| {
        assert_eq!(read(Some(&status_cache)), expect, "written");
        assert!(cache.exists());
        assert_eq!(read(Some(&status_cache)), expect, "read back");
        assert_eq!(read(None), expect, "without a cache");
    };
    check(&[]);
    r.write("src/payout/lock.rs", "fn lock() {}\n");
    r.git(&["add", "src/payout/lock.rs"]);
    check(&["src/payout/lock.rs"]);
    r.write("src/ledger/posting.rs", "fn post() { staged() }\n");
    r.git(&["add", "src/ledger/posting.rs"]);
    check(&["src/ledger/posting.rs", "src/payout/lock.rs"]);
    r.commit("2026-02-01T09:00:00Z", "Lock payouts", &[]);
    check(&[]);
    std::fs::write(&cache, "cairn-git-staged-2 garbage\nsrc/not/there.rs\n").unwrap();
    check(&[]);
    // A replacement object rewrites `HEAD`'s commit, and with it the tree the
    // index is compared with: the commit's id no longer says which tree it is.
    let head = r.git(&["rev-parse", "HEAD"]).trim().to_owned();
    let parent = r.git(&["rev-parse", "HEAD~1"]).trim().to_owned();
    r.git(&["replace", &head, &parent]);
    let truth = r.git(&["diff", "--cached", "--name-only"]);
    let mut truth: Vec<&str> = truth.lines().collect();
    truth.sort_unstable();
    assert!(!truth.is_empty(), "git sees the replaced tree");
    check(&truth);
    // Replacements can rewrite any tree below `HEAD` too: nothing is kept, so
    // a line planted in the file never comes back.
    plant(&cache, "planted/by/the/test.rs");
    assert_eq!(read(Some(&status_cache)), truth, "not trusted");
}

/// Adds `line` to a git cache file as if it had been written with it (its last
/// line, `end <bytes before it>`, says how long the text is).
fn plant(file: &Path, line: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let body = text.strip_suffix('\n').unwrap();
    let start = body.rfind('\n').map_or(0, |at| at + 1);
    assert!(body[start..].starts_with("end "), "{text}");
    let planted = format!("{}{line}\n", &text[..start]);
    std::fs::write(file, format!("{planted}end {}\n", planted.len())).unwrap();
}

/// A cache file cut short (a crash after its rename, before its data reached
/// the disk: cache files are not synced) is not trusted, wherever it was cut:
/// a planted line never comes back from a cut file.
#[test]
fn a_cache_file_cut_short_is_not_trusted() {
    let r = ledger_on_a_branch();
    r.write("src/payout/lock.rs", "fn lock() {}\n");
    r.git(&["add", "src/payout/lock.rs"]);
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "t");
    let read = |cache: Option<&cairn_git::StatusCache>| {
        let t = read_with(&r.path(), cache, ReadOptions::default());
        (t.changed, t.commits)
    };
    let truth = read(None);
    assert_eq!(read(Some(&cache)), truth);
    // A staged file's line is a path; a commit's is `s <subject>`.
    for (file, line) in [
        (&cache.staged, "planted by the test"),
        (&cache.commits, "s planted by the test"),
    ] {
        plant(file, line);
        let whole = std::fs::read(file).unwrap();
        for cut in 0..whole.len() {
            std::fs::write(file, &whole[..cut]).unwrap();
            assert_eq!(read(Some(&cache)), truth, "{} cut at {cut}", file.display());
        }
        // Whole, the planted line is trusted: the file is what was read.
        std::fs::write(file, &whole).unwrap();
        assert_ne!(
            read(Some(&cache)),
            truth,
            "{}: trusted whole",
            file.display()
        );
        std::fs::remove_file(file).unwrap();
        assert_eq!(read(Some(&cache)), truth);
    }
}

/// The branch's own commits kept in a cache file answer what a walk answers:
/// after a commit on the branch, after the default branch moves, for another
/// cap, over a damaged file; a subject planted in the file shows when it was
/// trusted. A shallow repository is walked each time.
#[test]
fn the_commit_subjects_cache_answers_what_a_walk_answers() {
    let r = ledger_on_a_branch();
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "t");
    let read_in = |dir: &Path, cache: Option<&cairn_git::StatusCache>, max: usize| {
        let opts = ReadOptions {
            max_changed: 20,
            max_commits: max,
        };
        read_with(dir, cache, opts).commits
    };
    let read = |cache: Option<&cairn_git::StatusCache>, max: usize| read_in(&r.path(), cache, max);
    let planted = "Planted by the test";
    // Written, read back, trusted (the planted line comes back), and what a walk says.
    let settle = |what: &str, expect: &[&str]| {
        assert_eq!(read(Some(&cache), 5), expect, "{what}: walked");
        assert_eq!(read(Some(&cache), 5), expect, "{what}: from the cache");
        assert_eq!(read(None, 5), expect, "{what}: without a cache");
        plant(&cache.commits, &format!("s {planted}"));
        assert_eq!(
            read(Some(&cache), 5).last().map(String::as_str),
            Some(planted),
            "{what}: trusted"
        );
    };
    settle("one commit", &["Take the batch lock with a timeout"]);
    r.commit(
        "2026-02-02T09:00:00Z",
        "Retry payouts after a lock timeout",
        &[("src/payout/retry.rs", "fn retry() {}\n")],
    );
    let two = [
        "Retry payouts after a lock timeout",
        "Take the batch lock with a timeout",
    ];
    assert_eq!(read(Some(&cache), 5), two, "a commit on the branch");
    settle("two commits", &two);
    assert_eq!(read(Some(&cache), 1), two[..1], "another cap");
    settle("two commits again", &two);
    // The default branch moves on to the branch's first commit.
    r.git(&["branch", "-q", "-f", "main", "HEAD~1"]);
    assert_eq!(read(Some(&cache), 5), two[..1], "the default branch moved");
    settle("after the move", &two[..1]);
    // On the default branch itself, nothing.
    r.git(&["checkout", "-q", "main"]);
    assert!(read(Some(&cache), 5).is_empty(), "on main");
    r.git(&["checkout", "-q", "fix/payout-batch-lock-timeouts"]);
    std::fs::write(
        &cache.commits,
        "cairn-git-commits-2 garbage\nNot a subject\n",
    )
    .unwrap();
    assert_eq!(read(Some(&cache), 5), two[..1], "a damaged file");

    // A shallow clone: its history grows when deepened, so it is walked each time.
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", r.path().display());
    common::git_in(
        clone.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &url,
            "c",
        ],
        "2026-03-01T09:00:00Z",
    );
    let shallow = clone.path().join("c");
    for args in [
        &["remote", "set-head", "origin", "main"][..],
        &["checkout", "-q", "fix/payout-batch-lock-timeouts"],
    ] {
        common::git_in(&shallow, args, "2026-03-01T09:00:00Z");
    }
    let cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "shallow");
    let first = read_in(&shallow, Some(&cache), 5);
    assert_eq!(first, ["Retry payouts after a lock timeout"]);
    assert_eq!(first, read_in(&shallow, None, 5));
    assert!(!cache.commits.exists(), "no cache for a shallow repository");
}

/// The kept commits are keyed by what the references alone name; an answer is
/// kept only when peeling names the same branch and tip. Here `origin/HEAD`
/// names a commit that is not in the repository (yet): the default branch is
/// then `main`, and nothing is kept, so when the commit arrives the answer
/// follows `origin/HEAD`, as a walk does.
#[test]
fn a_default_branch_whose_commit_is_missing_is_not_kept() {
    let r = ledger_on_a_branch();
    // A commit made elsewhere: its id names an object this repository lacks.
    let other = Repo::new();
    other.commit("2026-01-01T09:00:00Z", "Elsewhere", &[("x.txt", "x\n")]);
    let id = other.git(&["rev-parse", "HEAD"]).trim().to_owned();
    let git_dir = r.dir.path().join(".git");
    std::fs::create_dir_all(git_dir.join("refs/remotes/origin")).unwrap();
    std::fs::write(git_dir.join("refs/remotes/origin/main"), format!("{id}\n")).unwrap();
    std::fs::write(
        git_dir.join("refs/remotes/origin/HEAD"),
        "ref: refs/remotes/origin/main\n",
    )
    .unwrap();
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "t");
    let read = |cache: Option<&cairn_git::StatusCache>| {
        let t = read_with(&r.path(), cache, ReadOptions::default());
        (t.default_branch, t.default_ref, t.commits)
    };
    let before = read(Some(&cache));
    assert_eq!(before, read(None));
    assert_eq!(
        before,
        (
            Some("main".to_owned()),
            Some("main".to_owned()),
            vec!["Take the batch lock with a timeout".to_owned()]
        )
    );
    assert!(!cache.commits.exists(), "nothing kept");
    // The commit arrives (its object copied in): `origin/HEAD` now resolves.
    let (dir, file) = id.split_at(2);
    let from = other.dir.path().join(".git/objects").join(dir).join(file);
    std::fs::create_dir_all(git_dir.join("objects").join(dir)).unwrap();
    std::fs::copy(&from, git_dir.join("objects").join(dir).join(file)).unwrap();
    let after = read(Some(&cache));
    assert_eq!(after, read(None));
    // Counted from `origin/HEAD`'s branch now, and from the local `main` too
    // (its twin): the branch's own commits are still the one only it has.
    assert_eq!(after.1.as_deref(), Some("origin/main and main"));
    assert_eq!(after.2, before.2);
}

/// The untracked files kept in a cache file answer what git answers after every
/// kind of change that can alter them; a change the walk never looks at (in a
/// folder an ignore rule matches) leaves the cache in use. A line planted in the
/// cache shows when it answered: present means the cache was trusted.
#[test]
fn the_untracked_files_cache_answers_what_git_answers() {
    let r = ledger();
    r.commit(
        "2026-01-13T09:00:00Z",
        "Ignore logs and builds",
        &[(".gitignore", "*.log\nbuild/\n")],
    );
    r.write("notes/todo.md", "todo\n");
    r.write("logs/a.log", "log\n");
    r.write("build/out.bin", "bin\n");
    std::fs::create_dir_all(r.dir.path().join("empty")).unwrap();
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "t");
    let read = |cache: Option<&cairn_git::StatusCache>| read_all(&r, cache);
    let planted = "planted-by-the-test.txt";
    // Ages the folders, writes the cache afresh and plants a line in it.
    let settle = |what: &str| {
        r.age_folders();
        let truth = r.git_status_paths();
        assert_eq!(read(Some(&cache)), truth, "{what}: walked");
        assert!(cache.untracked.exists(), "{what}: the cache is written");
        assert_eq!(read(Some(&cache)), truth, "{what}: from the cache");
        assert_eq!(read(None), truth, "{what}: without a cache");
        plant(&cache.untracked, &format!("u {planted}"));
        assert!(
            read(Some(&cache)).contains(&planted.to_owned()),
            "{what}: trusted"
        );
    };
    // After `change`, the cache is not trusted and the answer is git's.
    let changed = |what: &str, change: &dyn Fn()| {
        settle(what);
        change();
        let truth = r.git_status_paths();
        assert_eq!(read(Some(&cache)), truth, "{what}: after the change");
        assert_eq!(read(None), truth, "{what}: without a cache");
    };
    // Git lists no empty folder and no ignored file.
    assert_eq!(r.git_status_paths(), ["notes/todo.md"]);
    changed("a file in a tracked folder", &|| {
        r.write("src/ledger/fresh.rs", "fn fresh() {}\n");
    });
    changed("a file beside ignored files only", &|| {
        r.write("logs/readme.txt", "about the logs\n");
    });
    changed("a file in an empty folder", &|| {
        r.write("empty/x.txt", "x\n");
    });
    changed("a new nested folder", &|| {
        r.write("notes/deep/er/file.md", "deep\n");
    });
    changed("an untracked file removed", &|| {
        std::fs::remove_file(r.dir.path().join("notes/todo.md")).unwrap();
    });
    changed("a .gitignore edited in place", &|| {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(r.dir.path().join(".gitignore"))
            .unwrap();
        std::io::Write::write_all(&mut f, b"notes/\n").unwrap();
    });
    changed("a .gitignore in a folder", &|| {
        r.write("logs/.gitignore", "readme.txt\n");
    });
    changed("info/exclude", &|| {
        std::fs::write(r.dir.path().join(".git/info/exclude"), "*.txt\n").unwrap();
    });
    changed("an untracked file added to the index", &|| {
        r.git(&["add", "src/ledger/fresh.rs"]);
    });
    changed("a nested repository", &|| {
        r.write("vendor/lib/code.rs", "fn code() {}\n");
        r.git(&["init", "-q", "vendor/lib"]);
    });
    // The walk does not read a nested repository, but its folder is watched.
    changed("a nested repository no longer one", &|| {
        std::fs::remove_dir_all(r.dir.path().join("vendor/lib/.git")).unwrap();
    });
    // A folder an ignore rule matches is never read: changing it keeps the cache.
    settle("an ignored folder changed");
    std::fs::remove_file(r.dir.path().join("build/out.bin")).unwrap();
    r.write("build/new.bin", "bin\n");
    assert!(read(Some(&cache)).contains(&planted.to_owned()));
    // A damaged cache file is walked past.
    std::fs::write(
        &cache.untracked,
        "cairn-git-untracked-1 garbage\nu nowhere.rs\n",
    )
    .unwrap();
    assert_eq!(read(Some(&cache)), r.git_status_paths());
}

/// A folder changed within moments of the walk is not trusted: no cache is written.
#[test]
fn a_cache_of_untracked_files_is_not_written_for_recent_folders() {
    let r = ledger();
    r.write("notes/todo.md", "todo\n");
    let cache_dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(cache_dir.path(), "t");
    let repo = cairn_git::open(&r.path()).unwrap();
    let t = repo
        .working_tree_with(ReadOptions::default(), Some(&cache))
        .unwrap();
    assert_eq!(t.changed, ["notes/todo.md"]);
    assert!(!cache.untracked.exists(), "the folders were just written");
    assert!(
        cache.staged.exists(),
        "the staged files do not depend on times"
    );
}

/// Every changed file, sorted (a fresh repository each time, as each wake-up opens one).
fn read_all(r: &Repo, cache: Option<&cairn_git::StatusCache>) -> Vec<String> {
    let opts = ReadOptions {
        max_changed: 1_000,
        max_commits: 5,
    };
    let mut changed = read_with(&r.path(), cache, opts).changed;
    changed.sort();
    changed
}

/// Ages the folders, lets the cache be written, and checks it is read back.
fn settle_cache(r: &Repo, cache: &cairn_git::StatusCache) {
    r.age_folders();
    let truth = r.git_status_paths();
    assert_eq!(read_all(r, Some(cache)), truth, "walked");
    assert!(cache.untracked.exists(), "the cache is written");
    assert_eq!(read_all(r, Some(cache)), truth, "from the cache");
}

/// An empty `.git` folder filled in by `git init`: the folder keeps its times,
/// its files stop being untracked.
#[test]
fn an_empty_git_folder_filled_in_makes_a_nested_repository() {
    let r = ledger();
    let dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(dir.path(), "t");
    r.write("vendor/lib/code.rs", "fn code() {}\n");
    std::fs::create_dir_all(r.dir.path().join("vendor/lib/.git")).unwrap();
    settle_cache(&r, &cache);
    assert_eq!(r.git_status_paths(), ["vendor/lib/code.rs"]);
    r.git(&["init", "-q", "vendor/lib"]); // fills the existing .git
    let truth = r.git_status_paths();
    assert_eq!(truth, ["vendor/lib"]);
    assert_eq!(read_all(&r, None), truth, "without a cache");
    assert_eq!(read_all(&r, Some(&cache)), truth, "from the cache");
}

/// A nested repository whose `.git` stops being one (HEAD removed, or the git dir
/// a `.git` file points to deleted): its files become untracked.
#[test]
fn a_nested_repository_whose_git_dir_goes_away_is_walked() {
    let r = ledger();
    let dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(dir.path(), "t");
    let elsewhere = tempfile::tempdir().unwrap();
    let sep = elsewhere.path().join("lib.git");
    r.write("vendor/lib/code.rs", "fn code() {}\n");
    r.git(&[
        "init",
        "-q",
        "--separate-git-dir",
        sep.to_str().unwrap(),
        "vendor/lib",
    ]);
    set_mtime_hour_ago(&sep);
    settle_cache(&r, &cache);
    assert_eq!(r.git_status_paths(), ["vendor/lib"]);
    std::fs::remove_dir_all(&sep).unwrap(); // e.g. `git worktree prune` elsewhere
    let truth = r.git_status_paths();
    assert_eq!(truth, ["vendor/lib/code.rs"]);
    assert_eq!(read_all(&r, None), truth, "without a cache");
    assert_eq!(read_all(&r, Some(&cache)), truth, "from the cache");
}

/// A file name ending in a carriage return would lose it on reading: no cache.
#[test]
fn a_name_ending_in_a_carriage_return_is_never_cached() {
    let r = ledger();
    let dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(dir.path(), "t");
    r.write("notes/odd\r", "x\n");
    r.age_folders();
    let truth = r.git_status_paths();
    assert_eq!(truth, ["notes/odd\r"]);
    assert_eq!(read_all(&r, Some(&cache)), truth, "walked");
    assert!(
        !cache.untracked.exists(),
        "a name the cache file cannot hold"
    );
    assert_eq!(read_all(&r, Some(&cache)), truth, "walked again");
}

/// `gitoxide.parsePrecious` changes how gix reads `$` lines of ignore files:
/// it is part of the key.
#[test]
fn gix_s_precious_files_setting_is_in_the_key() {
    let r = ledger();
    let dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(dir.path(), "t");
    r.commit(
        "2026-01-13T09:00:00Z",
        "precious",
        &[(".gitignore", "$*.key\n")],
    );
    r.write("a.key", "k\n");
    r.git(&["config", "gitoxide.parsePrecious", "true"]);
    r.age_folders();
    assert_eq!(
        read_all(&r, Some(&cache)),
        Vec::<String>::new(),
        "precious: ignored"
    );
    assert!(cache.untracked.exists());
    r.git(&["config", "--unset", "gitoxide.parsePrecious"]);
    let truth = r.git_status_paths();
    assert_eq!(truth, ["a.key"]);
    assert_eq!(read_all(&r, None), truth, "without a cache");
    assert_eq!(read_all(&r, Some(&cache)), truth, "from the cache");
}

fn set_mtime_hour_ago(p: &Path) {
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3_600);
    std::fs::File::open(p)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
}

/// A folder changed during the walk, after it was read, by a tool that then
/// restores its modification time (tar, rsync -a, cp -a, unzip): only its change
/// time is new. Stamped before the walk reads it and after, it is not trusted.
/// A FIFO as a later folder's `.gitignore` makes the interleaving deterministic.
#[test]
fn a_folder_changed_during_the_walk_with_its_time_restored_is_not_cached() {
    let r = ledger();
    let dir = tempfile::tempdir().unwrap();
    let cache = cairn_git::StatusCache::in_dir(dir.path(), "t");
    let root = r.dir.path().to_path_buf();
    // A folder name read before `zz` in the root's directory order.
    std::fs::create_dir(root.join("zz")).unwrap();
    let name = (0..100)
        .map(|i| format!("d{i}"))
        .find(|n| {
            std::fs::create_dir(root.join(n)).unwrap();
            let order: Vec<String> = std::fs::read_dir(&root)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            let before = order.iter().position(|x| x == n) < order.iter().position(|x| x == "zz");
            if !before {
                std::fs::remove_dir(root.join(n)).unwrap();
            }
            before
        })
        .unwrap();
    r.write(&format!("{name}/keep.txt"), "k\n");
    r.write("zz/file.txt", "z\n");
    r.age_folders();
    let fifo = root.join("zz/.gitignore");
    for cmd in [&["mkfifo"][..], &["touch", "-d", "1 hour ago"][..]] {
        let ok = std::process::Command::new(cmd[0])
            .args(&cmd[1..])
            .arg(&fifo)
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
    set_mtime_hour_ago(&root.join("zz"));
    // The walk opens zz/.gitignore after `name` was read: change `name` then.
    let changed = root.join(&name);
    let fifo2 = fifo.clone();
    std::thread::spawn(move || {
        let w = std::fs::OpenOptions::new()
            .write(true)
            .open(&fifo2)
            .unwrap();
        std::fs::write(changed.join("new.txt"), "new\n").unwrap();
        set_mtime_hour_ago(&changed);
        drop(w);
        // Then serve every later reader of the FIFO an empty file.
        loop {
            drop(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(&fifo2)
                    .unwrap(),
            );
        }
    });
    let walked = read_all(&r, Some(&cache));
    assert!(
        !walked.contains(&format!("{name}/new.txt")),
        "the walk read the folder before"
    );
    assert!(
        !cache.untracked.exists(),
        "a folder changed while the walk ran is not trusted"
    );
    let truth = r.git_status_paths();
    assert!(truth.contains(&format!("{name}/new.txt")));
    assert_eq!(read_all(&r, None), truth, "without a cache");
    assert_eq!(read_all(&r, Some(&cache)), truth, "from the cache");
}

/// Every tracked file an hour old, then the index refreshed: no entry is
/// "racy", so the stat pass before the status can tell the unchanged ones.
fn age_tracked_files(r: &Repo) {
    for f in r
        .git(&["ls-files", "-z"])
        .split('\0')
        .filter(|f| !f.is_empty())
    {
        let p = r.dir.path().join(f);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_file()) {
            set_mtime_hour_ago(&p);
        }
    }
    r.git(&["update-index", "-q", "--really-refresh"]);
}

/// The changed files as cairn reads them, checked against `git status`; read
/// first, so that cairn never sees an index git refreshed.
fn as_git_says(r: &Repo, what: &str) -> Vec<String> {
    let ours = read_all(r, None);
    assert_eq!(ours, r.git_status_paths(), "{what}");
    ours
}

#[cfg(unix)]
fn make_executable(p: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The status answers what git answers for every kind of change to a tracked
/// file, with the stat pass in front of it (`preload.rs`) marking the files the
/// stat data shows unchanged: rewritten, touched only, made executable, deleted,
/// turned into a folder or a link, reached through a folder that became a link,
/// added with intent, marked skip-worktree or assume-unchanged.
#[test]
fn tracked_files_changed_in_every_way_are_what_git_calls_changed() {
    let r = ledger();
    r.commit(
        "2026-01-14T09:00:00Z",
        "More files",
        &[
            ("src/ledger/entry.rs", "aaaa\n"),
            ("src/ledger/keep.rs", "keep\n"),
            ("tools/run.sh", "echo run\n"),
            ("src/payout/old.rs", "old\n"),
            ("src/payout/dir.rs", "dir\n"),
            ("src/payout/link.rs", "link\n"),
            ("moved/a.rs", "a\n"),
            ("sparse/s.rs", "s\n"),
            ("assumed/u.rs", "u\n"),
        ],
    );
    age_tracked_files(&r);
    let root = r.dir.path();
    let check = |what: &str| as_git_says(&r, what);
    check("nothing changed");
    assert!(read_all(&r, None).is_empty());
    r.write("src/ledger/entry.rs", "bbbb\n");
    check("rewritten, same size");
    std::fs::File::open(root.join("src/ledger/keep.rs"))
        .unwrap()
        .set_modified(std::time::SystemTime::now())
        .unwrap();
    check("touched only: git compares the contents and finds them the same");
    #[cfg(unix)]
    {
        make_executable(&root.join("tools/run.sh"));
        check("made executable");
    }
    std::fs::remove_file(root.join("src/payout/old.rs")).unwrap();
    check("deleted");
    std::fs::remove_file(root.join("src/payout/dir.rs")).unwrap();
    std::fs::create_dir(root.join("src/payout/dir.rs")).unwrap();
    r.write("src/payout/dir.rs/inner.rs", "inner\n");
    check("turned into a folder");
    #[cfg(unix)]
    {
        std::fs::remove_file(root.join("src/payout/link.rs")).unwrap();
        std::os::unix::fs::symlink("keep.rs", root.join("src/payout/link.rs")).unwrap();
        check("turned into a link");
        // The files keep their stat data behind the link: only the folder on
        // the way tells them apart.
        std::fs::rename(root.join("moved"), root.join("moved2")).unwrap();
        std::os::unix::fs::symlink("moved2", root.join("moved")).unwrap();
        check("reached through a folder that became a link");
    }
    r.write("src/ledger/new.rs", "new\n");
    r.git(&["add", "-N", "src/ledger/new.rs"]);
    check("added with intent");
    r.git(&["update-index", "--skip-worktree", "sparse/s.rs"]);
    r.write("sparse/s.rs", "changed\n");
    check("skip-worktree");
    r.git(&["update-index", "--assume-unchanged", "assumed/u.rs"]);
    r.write("assumed/u.rs", "changed\n");
    check("assume-unchanged");
}

/// A file written in the same second as the index is "racy": its stat data
/// cannot vouch for it, and the status compares its contents, as git does
/// (here with `core.checkStat = minimal` and `core.trustCTime = false`, where
/// only the time and the size are compared: a rewrite of the same size with the
/// time put back looks unchanged to them).
#[test]
fn a_racy_file_is_compared_by_its_contents() {
    let r = ledger();
    r.git(&["config", "core.trustCTime", "false"]);
    r.git(&["config", "core.checkStat", "minimal"]);
    r.write("src/ledger/racy.rs", "aaaa\n");
    r.git(&["add", "src/ledger/racy.rs"]);
    let p = r.dir.path().join("src/ledger/racy.rs");
    let written = std::fs::metadata(&p).unwrap().modified().unwrap();
    // The index written in that same second, whatever the clock did meanwhile.
    std::fs::File::options()
        .write(true)
        .open(r.dir.path().join(".git/index"))
        .unwrap()
        .set_modified(written)
        .unwrap();
    r.write("src/ledger/racy.rs", "bbbb\n");
    std::fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(written)
        .unwrap();
    assert_eq!(as_git_says(&r, "racy"), ["src/ledger/racy.rs"]);
}

/// With `core.fileMode = false` a file made executable is not changed, and a
/// merge conflict is: the stat pass leaves both to gix, which answers as git does.
#[test]
fn file_mode_off_and_a_merge_conflict_are_what_git_says() {
    let r = ledger();
    r.commit(
        "2026-01-14T09:00:00Z",
        "Scripts",
        &[
            ("tools/run.sh", "echo run\n"),
            ("src/ledger/rate.rs", "1\n"),
        ],
    );
    age_tracked_files(&r);
    let root = r.dir.path();
    let check = |what: &str| as_git_says(&r, what);
    r.git(&["config", "core.fileMode", "false"]);
    #[cfg(unix)]
    {
        make_executable(&root.join("tools/run.sh"));
        assert!(check("made executable, file modes ignored").is_empty());
    }
    // Two branches change the same line; the merge stops on the conflict.
    r.git(&["checkout", "-q", "-b", "other"]);
    r.commit(
        "2026-01-15T09:00:00Z",
        "Two",
        &[("src/ledger/rate.rs", "2\n")],
    );
    r.git(&["checkout", "-q", "-"]);
    r.commit(
        "2026-01-16T09:00:00Z",
        "Three",
        &[("src/ledger/rate.rs", "3\n")],
    );
    age_tracked_files(&r);
    let merged = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@example.com",
            "merge",
            "-q",
            "other",
        ])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(!merged.status.success(), "the merge conflicts");
    assert!(check("a merge conflict").contains(&"src/ledger/rate.rs".to_owned()));
}

/// An index whose trailing checksum no longer matches its contents is read, as
/// git reads it: git checks that checksum only in `git fsck`. Here one tracked
/// file's recorded change time is altered in place, so git compares that file
/// by its contents and finds it unchanged; a file changed for real is found.
#[test]
fn an_index_whose_checksum_does_not_match_is_read_as_git_reads_it() {
    let r = ledger();
    age_tracked_files(&r);
    r.write("src/payout/batch.rs", "fn batch() { changed() }\n");
    let index = r.path().join(".git/index");
    let mut bytes = std::fs::read(&index).unwrap();
    // The 12-byte header, then the first entry, which starts with its ctime.
    bytes[12..16].copy_from_slice(&1_000_000_000u32.to_be_bytes());
    std::fs::write(&index, &bytes).unwrap();
    let fsck = std::process::Command::new("git")
        .args(["fsck", "--no-dangling"])
        .current_dir(r.path())
        .output()
        .unwrap();
    assert!(!fsck.status.success(), "git fsck should call the index bad");
    let changed = as_git_says(&r, "an index with a stale checksum");
    assert_eq!(changed, ["src/payout/batch.rs"]);
}

/// A split index (`git update-index --split-index`: most entries in a shared
/// index file, the changes in `.git/index`): the changed files are git's, before
/// and after a file changes, and after the split index records a new entry.
#[test]
fn a_split_index_is_read_as_git_reads_it() {
    let r = ledger();
    r.git(&["update-index", "--split-index"]);
    age_tracked_files(&r);
    assert!(
        std::fs::read_dir(r.path().join(".git")).unwrap().any(|e| e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with("sharedindex.")),
        "git wrote a shared index"
    );
    assert!(as_git_says(&r, "nothing changed").is_empty());
    r.write("src/payout/batch.rs", "fn batch() { changed() }\n");
    assert_eq!(as_git_says(&r, "one file changed"), ["src/payout/batch.rs"]);
    r.write("src/ledger/fee.rs", "fn fee() {}\n");
    r.git(&["add", "src/ledger/fee.rs"]);
    r.write("src/ledger/fee.rs", "fn fee() { 1 }\n");
    assert_eq!(
        as_git_says(&r, "staged, then changed again"),
        ["src/ledger/fee.rs", "src/payout/batch.rs"]
    );
}

/// With `core.symlinks = false` a committed link is checked out as a plain file
/// holding its target: unchanged, it is not a change; rewritten, it is.
#[cfg(unix)]
#[test]
fn a_link_checked_out_as_a_file_is_what_git_says() {
    let r = ledger();
    std::os::unix::fs::symlink("posting.rs", r.path().join("src/ledger/current.rs")).unwrap();
    r.git(&["add", "src/ledger/current.rs"]);
    r.git(&[
        "-c",
        "user.name=T",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-q",
        "-m",
        "Link",
    ]);
    r.git(&["config", "core.symlinks", "false"]);
    std::fs::remove_file(r.path().join("src/ledger/current.rs")).unwrap();
    r.git(&["checkout", "--", "src/ledger/current.rs"]);
    let meta = std::fs::symlink_metadata(r.path().join("src/ledger/current.rs")).unwrap();
    assert!(meta.is_file(), "checked out as a plain file");
    age_tracked_files(&r);
    assert!(as_git_says(&r, "the link as a file, unchanged").is_empty());
    r.write("src/ledger/current.rs", "batch.rs");
    assert_eq!(
        as_git_says(&r, "the link's file rewritten"),
        ["src/ledger/current.rs"]
    );
}

/// A sparse checkout in cone mode, with and without a sparse index (whose
/// entries include whole folders outside the cone): the files outside it are
/// not on disk and are not changes; a change inside it is.
#[test]
fn a_sparse_checkout_is_what_git_says() {
    for sparse_index in [false, true] {
        let r = ledger();
        let mut init = vec!["sparse-checkout", "init", "--cone"];
        if sparse_index {
            init.push("--sparse-index");
        }
        r.git(&init);
        r.git(&["sparse-checkout", "set", "src/ledger"]);
        assert!(
            !r.path().join("src/payout/batch.rs").exists(),
            "outside the cone"
        );
        age_tracked_files(&r);
        let what = if sparse_index {
            "sparse index"
        } else {
            "sparse checkout"
        };
        assert!(as_git_says(&r, what).is_empty(), "{what}");
        if sparse_index {
            let listed = r.git(&["ls-files", "--sparse"]);
            assert!(listed.lines().any(|l| l == "src/payout/"), "{listed}");
        }
        r.write("src/ledger/posting.rs", "fn post() { changed() }\n");
        assert_eq!(as_git_says(&r, what), ["src/ledger/posting.rs"], "{what}");
        r.write("src/ledger/fee.rs", "fn fee() {}\n");
        r.git(&["add", "src/ledger/fee.rs"]);
        assert_eq!(
            as_git_says(&r, what),
            ["src/ledger/fee.rs", "src/ledger/posting.rs"],
            "{what}: staged in the cone"
        );
    }
}

/// A repository with a file system monitor (`core.fsmonitor`): git marks the
/// entries the monitor vouched for (`FSMONITOR_VALID`) and asks the monitor what
/// changed since before trusting them. cairn does not ask it, so it trusts no
/// such mark: a file changed after the last git command is found, as git finds
/// it without the monitor. (The monitor here is a hook that has seen nothing.)
#[cfg(unix)]
#[test]
fn file_system_monitor_marks_are_not_trusted() {
    use std::os::unix::fs::PermissionsExt;
    let r = ledger();
    let hook = r.path().join(".git/fsmonitor-hook");
    std::fs::write(&hook, "#!/bin/sh\nprintf 'token-1\\0'\n").unwrap();
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    r.git(&["config", "core.fsmonitor", hook.to_str().unwrap()]);
    age_tracked_files(&r);
    r.git(&["update-index", "--fsmonitor"]);
    r.git(&["status", "--short"]);
    let marked = r.git(&["ls-files", "-f"]);
    assert!(
        marked.lines().any(|l| l == "h src/payout/batch.rs"),
        "git marked the entries as the monitor's: {marked}"
    );
    r.write("src/payout/batch.rs", "fn batch() { changed() }\n");
    let p = r.path().join("src/payout/batch.rs");
    set_mtime_hour_ago(&p);
    assert!(
        r.git(&["status", "--short"]).is_empty(),
        "the monitor has seen nothing: git trusts it"
    );
    assert_eq!(read_all(&r, None), ["src/payout/batch.rs"]);
    let without = std::process::Command::new("git")
        .args(["-c", "core.fsmonitor=false", "status", "--porcelain"])
        .current_dir(r.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&without.stdout).trim(),
        "M src/payout/batch.rs"
    );
}

/// An index in version 4 (paths prefix-compressed, `feature.manyFiles` writes
/// it) is read as git reads it.
#[test]
fn an_index_in_version_4_is_read_as_git_reads_it() {
    let r = ledger();
    r.git(&["update-index", "--index-version", "4"]);
    age_tracked_files(&r);
    assert!(as_git_says(&r, "nothing changed").is_empty());
    r.write("src/ledger/posting.rs", "fn post() { changed() }\n");
    r.write("src/ledger/new.rs", "fn new() {}\n");
    assert_eq!(
        as_git_says(&r, "a change and a new file"),
        ["src/ledger/new.rs", "src/ledger/posting.rs"]
    );
}

/// A repository whose objects are named by SHA-256, which gix does not read yet,
/// is refused with an error naming it (a diagnostic for the hook), never a panic.
#[test]
fn a_sha256_repository_is_refused_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let init = std::process::Command::new("git")
        .args(["init", "-q", "--object-format=sha256", "-b", "main"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(init.status.success());
    std::fs::write(dir.path().join("a.rs"), "fn a() {}\n").unwrap();
    let e = read_working_tree(dir.path(), ReadOptions::default()).unwrap_err();
    assert!(matches!(e, GitError::Open { .. }), "{e:?}");
    assert!(
        e.to_string().contains("cannot open the git repository"),
        "{e}"
    );
}

/// A clone of `upstream` without `origin/HEAD` (its `setup` commands run in
/// it), then `upstream`'s new commit `news` fetched, and a branch `branch`
/// made from `from` with one commit of its own, `own`: a branch whose default
/// branch the references alone must tell.
fn clone_behind(
    upstream: &Repo,
    setup: &[&[&str]],
    news: &str,
    branch: &str,
    from: &str,
    own: &str,
) -> (tempfile::TempDir, std::path::PathBuf) {
    let clone = tempfile::tempdir().unwrap();
    let at = "2026-03-01T00:00:00Z";
    common::git_in(
        clone.path(),
        &["clone", "-q", upstream.path().to_str().unwrap(), "c"],
        at,
    );
    let dir = clone.path().join("c");
    common::git_in(&dir, &["remote", "set-head", "origin", "-d"], at);
    for args in setup {
        common::git_in(&dir, args, at);
    }
    upstream.commit("2026-03-02T09:00:00Z", news, &[("news.txt", "x\n")]);
    common::git_in(&dir, &["fetch", "-q"], at);
    common::git_in(&dir, &["checkout", "-q", "-b", branch, from], at);
    common::git_in(
        &dir,
        &["commit", "-q", "--allow-empty", "-m", own],
        "2026-03-03T00:00:00Z",
    );
    (clone, dir)
}

/// A local `main` left behind while `origin/main` moved on (no `origin/HEAD`):
/// the commits only `origin/main` has are not the branch's own. Before, every
/// one of them was, and their subjects made the derived task.
#[test]
fn a_stale_local_main_hides_nothing_origin_main_has() {
    let upstream = ledger();
    let (_clone, dir) = clone_behind(
        &upstream,
        &[],
        "Upstream work on refunds",
        "topic",
        "origin/main",
        "Topic work",
    );
    let t = read_working_tree(&dir, ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch.as_deref(), Some("main"));
    assert_eq!(t.default_ref.as_deref(), Some("main and origin/main"));
    assert_eq!(t.commits, ["Topic work"]);
}

/// A stray local `main` where `origin`'s mainline is `master` (no
/// `origin/HEAD`): `main` is the default by name, but `master`'s commits are
/// not the branch's own either (a held-out trial's case: before, the commits
/// `master` had since the stray `main` made the derived task).
#[test]
fn a_stray_main_hides_nothing_master_has() {
    let upstream = ledger();
    upstream.git(&["branch", "-q", "-m", "main", "master"]);
    let (_clone, dir) = clone_behind(
        &upstream,
        &[&["branch", "-q", "main", "master"]],
        "Bump globset",
        "fix/dst",
        "origin/master",
        "Resolve DST gaps",
    );
    let t = read_working_tree(&dir, ReadOptions::default()).unwrap();
    assert_eq!(t.default_branch.as_deref(), Some("main"));
    assert_eq!(
        t.default_ref.as_deref(),
        Some("main, master and origin/master")
    );
    assert_eq!(t.commits, ["Resolve DST gaps"]);
}

/// The author's words (left out of a branch's words: `asmith/fix-x`) come from
/// the identity `git commit` would record: `author.*` over `user.*`, name and
/// email each on its own. Read from the
/// configuration alone (gix's identity also reads the clock in the local time
/// zone, which loaded the time zone database at every wake-up).
#[test]
fn the_author_is_read_from_the_configuration() {
    let r = ledger_on_a_branch();
    let author = || {
        read_working_tree(&r.path(), ReadOptions::default())
            .unwrap()
            .author
    };
    r.git(&["config", "user.name", "Alice Smith"]);
    r.git(&["config", "user.email", "asmith@example.com"]);
    assert_eq!(author(), ["alice", "alicesmith", "asmith", "smith"]);
    r.git(&["config", "author.name", "Bo Chen"]);
    assert_eq!(author(), ["asmith", "bo", "bochen", "chen"]);
}
