//! The day each file of a working tree was last committed, for the files as
//! git wrote them: a fresh clone's files (all written the day of the clone), a
//! file edited since, one only touched, one staged and never committed, an
//! untracked one, and a folder of the working tree.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::MetadataExt;

use crate::common::{Repo, git_in};
use cairn_git::{History, HistoryLimits, open};

fn stat(path: &std::path::Path) -> (i64, u64) {
    let m = std::fs::metadata(path).unwrap();
    (m.mtime() * 1_000_000_000 + m.mtime_nsec(), m.size())
}

#[test]
fn a_clones_files_take_the_day_of_their_last_commit_until_edited() {
    let origin = Repo::new();
    origin.commit(
        "2025-03-01T09:00:00Z",
        "Initial",
        &[
            ("notes/a.md", "# A\n"),
            ("notes/b.md", "# B\n"),
            ("notes/c.md", "# C\n"),
            ("notes/d.md", "# D\n"),
            ("notes/g.md", "# G\n"),
            ("README.md", "r\n"),
        ],
    );
    origin.commit(
        "2025-06-15T23:30:00Z",
        "B again",
        &[("notes/b.md", "# B\n\nMore.\n")],
    );
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    git_in(
        dir.path(),
        &[
            "clone",
            "-q",
            origin.path().to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
        "2026-11-29T10:00:00Z",
    );
    let clone = clone.canonicalize().unwrap();
    let repo = open(&clone).unwrap();
    let mut h = History::default();
    h.update(&repo, &HistoryLimits::default(), true).unwrap();
    assert_eq!(h.last_touched("notes/b.md"), Some(20_254)); // 2025-06-15
    assert_eq!(h.last_touched("notes/a.md"), Some(20_148)); // 2025-03-01
    assert_eq!(h.last_touched("notes"), None);

    // Edited (content and time), touched (time only), staged and never
    // committed, and a new file nobody added.
    std::fs::write(clone.join("notes/c.md"), "# C\n\nEdited.\n").unwrap();
    let d = std::fs::File::options()
        .append(true)
        .open(clone.join("notes/d.md"))
        .unwrap();
    d.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5))
        .unwrap();
    std::fs::write(clone.join("notes/e.md"), "# E\n").unwrap();
    git_in(&clone, &["add", "notes/e.md"], "2026-11-29T10:00:00Z");
    std::fs::write(clone.join("notes/f.md"), "# F\n").unwrap();
    // Edited and added, never committed: the index has its new stat.
    std::fs::write(clone.join("notes/g.md"), "# G\n\nStaged.\n").unwrap();
    git_in(&clone, &["add", "notes/g.md"], "2026-11-29T10:00:00Z");

    let days = repo.committed_days(&h, &clone.join("notes"), None).unwrap();
    let day = |name: &str| {
        let (mtime, size) = stat(&clone.join("notes").join(name));
        days.day_of(name, mtime, size)
    };
    assert_eq!(day("a.md"), Some(20_148));
    assert_eq!(day("b.md"), Some(20_254));
    assert_eq!(day("c.md"), None, "edited since");
    assert_eq!(day("d.md"), None, "touched since");
    assert_eq!(day("e.md"), None, "staged, never committed");
    assert_eq!(day("f.md"), None, "untracked");
    assert_eq!(day("g.md"), None, "edited and staged, never committed");
    // A capped history (its oldest day the cut): a file no commit it holds
    // touched is older, but one staged and never committed has no day.
    let mut capped = History::default();
    let one = HistoryLimits {
        max_commits: 1,
        ..HistoryLimits::default()
    };
    capped.update(&repo, &one, true).unwrap();
    let days = repo
        .committed_days(&capped, &clone.join("notes"), None)
        .unwrap();
    let day = |name: &str| {
        let (mtime, size) = stat(&clone.join("notes").join(name));
        days.day_of(name, mtime, size)
    };
    assert_eq!(day("a.md"), Some(20_254), "before the cut: the cut day");
    assert_eq!(day("e.md"), None, "staged, never committed");
    // Paths are the folder's own; a folder outside the working tree has none.
    assert_eq!(
        days.day_of("notes/a.md", stat(&clone.join("notes/a.md")).0, 4),
        None
    );
    let (mtime, size) = stat(&clone.join("README.md"));
    let whole = repo.committed_days(&h, &clone, None).unwrap();
    assert_eq!(whole.day_of("README.md", mtime, size), Some(20_148));
    let elsewhere = repo.committed_days(&h, dir.path(), None).unwrap();
    assert!(elsewhere.is_empty());
}

/// The history of a folder keeps only the commits that touched it, and of each
/// only the files in it: a vault kept in a larger repository loads a fraction.
#[test]
fn a_folders_history_holds_only_its_commits_and_files() {
    let r = Repo::new();
    r.commit(
        "2025-03-01T09:00:00Z",
        "Initial",
        &[("notes/a.md", "# A\n"), ("src/lib.rs", "1\n")],
    );
    r.commit("2025-04-01T09:00:00Z", "Code", &[("src/lib.rs", "2\n")]);
    r.commit(
        "2025-05-01T09:00:00Z",
        "Both",
        &[("notes/a.md", "# A\n\nMore.\n"), ("src/lib.rs", "3\n")],
    );
    r.commit("2025-06-01T09:00:00Z", "Code", &[("src/lib.rs", "4\n")]);
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    h.update_under(&repo, &HistoryLimits::default(), true, "notes")
        .unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(h.last_touched("notes/a.md"), Some(20_209)); // 2025-05-01
    assert_eq!(h.last_touched("src/lib.rs"), None);
    // Brought up to date with the same folder: a code commit adds nothing.
    r.commit("2025-07-01T09:00:00Z", "Code", &[("src/lib.rs", "5\n")]);
    h.update_under(&repo, &HistoryLimits::default(), false, "notes")
        .unwrap();
    assert_eq!(h.len(), 2);
    assert!(h.head().is_some());
    let mut whole = History::default();
    whole
        .update(&repo, &HistoryLimits::default(), true)
        .unwrap();
    assert_eq!(whole.len(), 5);
    assert_eq!(whole.last_touched("src/lib.rs"), Some(20_270)); // 2025-07-01
}

/// The latest day of the commits that touched a file, not the first one held:
/// an update after a merge puts the merged branch's older commits before newer
/// ones of the line they joined.
#[test]
fn a_file_last_touched_on_the_main_line_keeps_that_day_after_a_merge() {
    let r = Repo::new();
    r.commit(
        "2025-03-01T09:00:00Z",
        "Initial",
        &[("notes/x.md", "1\n"), ("y", "1\n")],
    );
    r.git(&["checkout", "-q", "-b", "side"]);
    r.commit("2025-03-02T09:00:00Z", "Side", &[("notes/x.md", "side\n")]);
    r.git(&["checkout", "-q", "-"]);
    r.commit("2025-03-05T09:00:00Z", "Main", &[("y", "2\n")]);
    let repo = open(&r.path()).unwrap();
    let mut h = History::default();
    h.update(&repo, &HistoryLimits::default(), true).unwrap();
    r.commit(
        "2025-03-06T09:00:00Z",
        "Main again",
        &[("notes/x.md", "main\n")],
    );
    h.update(&repo, &HistoryLimits::default(), false).unwrap();
    assert_eq!(h.last_touched("notes/x.md"), Some(20_153)); // 2025-03-06
    crate::common::git_in(
        &r.path(),
        &["merge", "-q", "-X", "ours", "--no-edit", "side"],
        "2025-03-07T09:00:00Z",
    );
    h.update(&repo, &HistoryLimits::default(), false).unwrap();
    assert_eq!(h.last_touched("notes/x.md"), Some(20_153));
}

/// The days are kept between runs under a key of the history's commit, the
/// index file and the history file: read back whole under the same key, and a
/// staged file, a new commit or a history written again makes another key.
#[test]
fn kept_days_are_read_back_only_under_their_key() {
    let origin = Repo::new();
    origin.commit(
        "2025-03-01T09:00:00Z",
        "Initial",
        &[("notes/a.md", "# A\n"), ("notes/b c.md", "# B\n")],
    );
    let repo = open(&origin.path().canonicalize().unwrap()).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let history_file = cache.path().join("history.txt");
    let kept = cache.path().join("days.txt");
    let mut h = History::default();
    h.update(&repo, &HistoryLimits::default(), true).unwrap();
    h.save(&history_file).unwrap();
    let head = repo.head_commit().unwrap();
    assert_eq!(h.head(), Some(head.as_str()));
    let key = repo.days_key(&head, &history_file, "notes").unwrap();
    let notes = repo.workdir().join("notes");
    let days = repo.committed_days(&h, &notes, None).unwrap();
    assert_eq!(days.len(), 2);
    days.keep(&kept, key.clone());
    // Read back whole, a path with a space included.
    assert_eq!(cairn_git::CommittedDays::read_kept(&kept, &key), Some(days));
    // The same key is the same state.
    assert_eq!(
        repo.days_key(&head, &history_file, "notes").as_deref(),
        Some(key.as_str())
    );
    // Another folder, a file staged (the index written again), a history
    // written again, another commit: another key, nothing read back.
    assert_ne!(repo.days_key(&head, &history_file, "docs").unwrap(), key);
    std::fs::write(notes.join("a.md"), "# A\n\nEdited.\n").unwrap();
    git_in(
        &origin.path(),
        &["add", "notes/a.md"],
        "2025-03-02T09:00:00Z",
    );
    let staged = repo.days_key(&head, &history_file, "notes").unwrap();
    assert_ne!(staged, key);
    assert_eq!(cairn_git::CommittedDays::read_kept(&kept, &staged), None);
    // The history written again (emptied: another size, whatever the clock).
    History::default().save(&history_file).unwrap();
    let rewritten = repo.days_key(&head, &history_file, "notes").unwrap();
    assert_ne!(rewritten, staged);
    assert_eq!(cairn_git::CommittedDays::read_kept(&kept, &rewritten), None);
    git_in(
        &origin.path(),
        &["commit", "-q", "-m", "A again"],
        "2025-03-02T09:00:00Z",
    );
    let moved = repo.head_commit().unwrap();
    assert_ne!(moved, head);
    let moved_key = repo.days_key(&moved, &history_file, "notes").unwrap();
    assert_ne!(moved_key, rewritten);
    assert_eq!(cairn_git::CommittedDays::read_kept(&kept, &moved_key), None);
    // A damaged file is read as nothing kept.
    std::fs::write(&kept, format!("{key}\n20148 1 2 3 1\n")).unwrap();
    assert_eq!(cairn_git::CommittedDays::read_kept(&kept, &key), None);
}

/// Past a capped history's oldest commit, a file takes that commit's day (its
/// last commit is older still: an upper bound), never said to be its last
/// commit's.
#[test]
fn a_file_older_than_a_capped_history_takes_its_cut_as_a_bound() {
    let origin = Repo::new();
    origin.commit(
        "2024-01-10T09:00:00Z",
        "Old",
        &[("notes/old.md", "# Old\n")],
    );
    origin.commit(
        "2025-03-01T09:00:00Z",
        "New",
        &[("notes/new.md", "# New\n")],
    );
    let root = origin.path().canonicalize().unwrap();
    let repo = open(&root).unwrap();
    let mut h = History::default();
    let limits = HistoryLimits {
        max_commits: 1,
        ..HistoryLimits::default()
    };
    h.update(&repo, &limits, true).unwrap();
    let days = repo.committed_days(&h, &root.join("notes"), None).unwrap();
    let day = |name: &str| {
        let (mtime, size) = stat(&root.join("notes").join(name));
        days.day_of(name, mtime, size)
    };
    assert_eq!(day("new.md"), Some(20_148)); // 2025-03-01
    assert!(days.is_last_commit("new.md"));
    assert_eq!(day("old.md"), h.cut());
    assert!(!days.is_last_commit("old.md"));
}
