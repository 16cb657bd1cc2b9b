//! Real git repositories for tests: the `git` binary with a fixed identity and
//! commits at fixed dates, so every run builds the same history. Test support
//! only (the `cairn` binary never links this crate); every helper panics on a
//! failure, as a test wants.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::missing_panics_doc,
    clippy::must_use_candidate,
    clippy::new_without_default
)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A repository in a temporary folder.
#[derive(Debug)]
pub struct Repo {
    pub dir: tempfile::TempDir,
}

impl Repo {
    /// `git init -b main` in a new folder.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let r = Self { dir };
        r.git(&["init", "-q", "-b", "main"]);
        r
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    /// Runs git in the repository; panics on failure.
    pub fn git(&self, args: &[&str]) -> String {
        git_in(self.dir.path(), args, "2026-01-01T12:00:00Z")
    }

    /// Adds `inner` as a submodule at `at` (staged, not committed) and gives
    /// the submodule's folder.
    pub fn add_submodule(&self, inner: &Repo, at: &str) -> PathBuf {
        self.git(&[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            inner.path().to_str().unwrap(),
            at,
        ]);
        self.path().join(at)
    }

    /// Writes `path` (creating folders).
    pub fn write(&self, path: &str, text: &str) {
        let p = self.dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Writes the files and commits them at `date` (RFC 3339) with `subject`.
    pub fn commit(&self, date: &str, subject: &str, files: &[(&str, &str)]) {
        for (p, t) in files {
            self.write(p, t);
        }
        git_in(self.dir.path(), &["add", "-A"], date);
        git_in(
            self.dir.path(),
            &["commit", "-q", "--allow-empty", "-m", subject],
            date,
        );
    }

    /// Sets a file's modification time (seconds since the epoch).
    pub fn touch(&self, path: &str, secs: u64) {
        let f = std::fs::File::options()
            .write(true)
            .open(self.dir.path().join(path))
            .unwrap();
        f.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
            .unwrap();
    }
}

/// Runs git in `dir` with a fixed identity and both dates at `date`; panics on failure.
pub fn git_in(dir: &Path, args: &[&str], date: &str) -> String {
    let out = git_output_in(dir, args, date);
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`git_in`] for a command that may fail (a rebase that stops at a conflict):
/// its output, whatever its status.
pub fn git_output_in(dir: &Path, args: &[&str], date: &str) -> std::process::Output {
    Command::new("git")
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs")
}

impl Repo {
    /// Sets the modification time of every folder of the working tree (not
    /// inside a `.git`), every `.gitignore` and `.git` and `.git/info/exclude`
    /// to an hour ago:
    /// the untracked-files cache trusts only times older than its walk.
    pub fn age_folders(&self) {
        fn walk(dir: &Path, set: &dyn Fn(&Path)) {
            for e in std::fs::read_dir(dir).unwrap() {
                let e = e.unwrap();
                let p = e.path();
                let kind = e.file_type().unwrap();
                if kind.is_dir() && e.file_name() != ".git" {
                    walk(&p, set);
                } else if e.file_name() == ".gitignore" || e.file_name() == ".git" {
                    // A nested repository's `.git` too (the top one's times are
                    // those of its own folder's entry, also aged).
                    set(&p);
                }
            }
            set(dir);
        }
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3_600);
        let set = |p: &Path| {
            if let Ok(f) = std::fs::File::open(p) {
                f.set_modified(hour_ago).unwrap();
            }
        };
        walk(self.dir.path(), &set);
        set(&self.dir.path().join(".git/info/exclude"));
    }

    /// What `git status` lists (`-uall`: every untracked file), sorted; a nested
    /// repository without its trailing `/`, as gix names it.
    pub fn git_status_paths(&self) -> Vec<String> {
        // Without optional locks: a status that refreshed the index would change
        // its checksum, and so every cache keyed on it.
        let out = self.git(&[
            "--no-optional-locks",
            "status",
            "--porcelain=v1",
            "-uall",
            "-z",
            "--no-renames",
        ]);
        let mut paths: Vec<String> = out
            .split('\0')
            .filter(|e| e.len() > 3)
            .map(|e| e[3..].trim_end_matches('/').to_owned())
            .collect();
        paths.sort();
        paths
    }
}
