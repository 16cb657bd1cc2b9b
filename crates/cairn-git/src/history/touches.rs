//! What a [`History`] answers: the day a file was last touched, the commits
//! after a day that touched files or folders (a folder's lock files, manifests
//! and changelogs left out), and a folder's share of the work, from an index of
//! the commits that touched each path built on the first question.

use super::History;

/// A [`TouchIndex`] built on first use: derived data, so two histories with the
/// same commits are equal whether or not it is built.
#[derive(Debug, Clone, Default)]
pub(super) struct LazyIndex(std::sync::OnceLock<TouchIndex>);

impl PartialEq for LazyIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LazyIndex {}

/// Which commits touched each path: what [`touch_counts`] reads instead of every
/// commit's files, once per note. Held flat: path `p`'s commits are
/// `commits[starts[p]..starts[p + 1]]`.
#[derive(Debug, Clone, Default)]
struct TouchIndex {
    /// Path ids in the order of their paths.
    sorted: Vec<u32>,
    /// Per path id, where its commits start in `commits` (and, last, the end).
    starts: Vec<u32>,
    /// Per path id in turn, the indices of the commits that touched it,
    /// ascending (newest first, as the history's commits).
    commits: Vec<u32>,
}

impl TouchIndex {
    fn of(h: &History) -> Self {
        let paths = h.paths.len();
        // Counted first, then filled.
        let mut starts = vec![0u32; paths + 1];
        each_touch(h, |f, _| starts[f + 1] += 1);
        for i in 0..paths {
            starts[i + 1] += starts[i];
        }
        let mut next: Vec<u32> = starts[..paths].to_vec();
        let mut commits = vec![0u32; starts[paths] as usize];
        each_touch(h, |f, c| {
            commits[next[f] as usize] = c;
            next[f] += 1;
        });
        let mut sorted: Vec<u32> = (0..paths).filter_map(|i| u32::try_from(i).ok()).collect();
        // A table in order (as every one written since tables are kept so)
        // needs no sort.
        if !sorted
            .windows(2)
            .all(|w| h.paths.get(w[0] as usize) <= h.paths.get(w[1] as usize))
        {
            sorted.sort_by(|&a, &b| h.paths.get(a as usize).cmp(h.paths.get(b as usize)));
        }
        Self {
            sorted,
            starts,
            commits,
        }
    }

    /// The commits that touched path `id`, newest first.
    fn of_path(&self, id: u32) -> &[u32] {
        let ends = self.starts.get(1..).unwrap_or(&[]);
        self.commits
            .get(super::flat::span(ends, id as usize))
            .unwrap_or(&[])
    }
}

/// Calls `visit` with each (path id, commit index) a commit touched, in the
/// commits' order; a commit naming a path twice visits it once, and a path id
/// past the table not at all.
fn each_touch(h: &History, mut visit: impl FnMut(usize, u32)) {
    let mut last = vec![u32::MAX; h.paths.len()];
    for ci in 0..h.commits.len() {
        let c = u32::try_from(ci).unwrap_or(u32::MAX);
        for &f in h.commits.files(ci) {
            if let Some(seen) = last.get_mut(f as usize)
                && *seen != c
            {
                *seen = c;
                visit(f as usize, c);
            }
        }
    }
}

/// How many commits after a day touched one file or folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TouchCount {
    /// The file or folder asked about.
    pub path: String,
    /// Commits that touched it (a file under a folder counts for the folder).
    pub commits: usize,
    /// Whether `commits` is a lower bound: the day asked about is before the
    /// oldest commit the capped history holds.
    pub at_least: bool,
}

impl History {
    /// The latest day (UTC days since 1970) of the commits held that touched
    /// the file `path` (relative to the repository's root).
    #[must_use]
    pub fn last_touched(&self, path: &str) -> Option<i64> {
        let index = self.touched_by.0.get_or_init(|| TouchIndex::of(self));
        let at = index
            .sorted
            .binary_search_by(|&id| self.paths.get(id as usize).cmp(path))
            .ok()?;
        // The latest day, not the first commit held: commits of a merged
        // branch come after newer ones of the line they joined.
        index
            .of_path(index.sorted[at])
            .iter()
            .filter_map(|&c| self.commits.day(c as usize))
            .max()
    }

    /// The share (0..1) of the files the history's commits touched that lie
    /// under `folder` (repository-relative): how much of the repository's work
    /// a folder stands for. `None` for an empty history or an empty folder name.
    #[must_use]
    pub fn share_under(&self, folder: &str) -> Option<f64> {
        let t = folder.trim_start_matches("./").trim_matches('/');
        if t.is_empty() || self.paths.is_empty() {
            return None;
        }
        let index = self.touched_by.0.get_or_init(|| TouchIndex::of(self));
        let path_of = |id: u32| self.paths.get(id as usize);
        // The paths under `t/` sort together, from `t/` up to `t0` ('0' is
        // the character after '/').
        let (from, to) = (format!("{t}/"), format!("{t}0"));
        let start = index
            .sorted
            .partition_point(|&id| path_of(id) < from.as_str());
        let end = index
            .sorted
            .partition_point(|&id| path_of(id) < to.as_str());
        Some(end.saturating_sub(start) as f64 / self.paths.len() as f64)
    }

    /// For each of `targets` (repository-relative files or folders), the commits
    /// after `after_day` (days since 1970-01-01) that touched it, but those
    /// [`History::leave_out_commits`] named; targets no commit touched are left
    /// out. In the order of `targets`.
    #[must_use]
    pub fn touches(&self, targets: &[String], after_day: i64) -> Vec<TouchCount> {
        touch_counts(self, targets, after_day)
    }
}

/// See [`History::touches`].
#[must_use]
pub fn touch_counts(history: &History, targets: &[String], after_day: i64) -> Vec<TouchCount> {
    let index = history.touched_by.0.get_or_init(|| TouchIndex::of(history));
    // The commits after `after_day`: those before the first one on or before it.
    let recent = history
        .commits
        .days()
        .iter()
        .position(|&day| day <= after_day)
        .unwrap_or(history.commits.len());
    let recent = u32::try_from(recent).unwrap_or(u32::MAX);
    let mut out = Vec::new();
    for target in targets {
        let t = target.trim_start_matches("./").trim_matches('/');
        if t.is_empty() {
            continue;
        }
        // The path itself and every path under it (a folder), by binary search
        // over the sorted paths.
        let path_of = |id: u32| history.paths.get(id as usize);
        let start = index.sorted.partition_point(|&id| path_of(id) < t);
        let lists: Vec<&[u32]> = index.sorted[start..]
            .iter()
            .take_while(|&&id| path_of(id).starts_with(t))
            .filter(|&&id| {
                let p = path_of(id);
                // A folder's lock files, manifests and changelogs (`Cargo.lock`,
                // `package.json`, `CHANGELOG.md`) change with every dependency
                // bump and release, not with the code a note describes: they
                // count only when named themselves.
                p.len() == t.len() || (p[t.len()..].starts_with('/') && !is_bookkeeping_file(p))
            })
            .map(|&id| {
                let list = index.of_path(id);
                &list[..list.partition_point(|&c| c < recent)]
            })
            .filter(|l| !l.is_empty())
            .collect();
        let left_out = &history.left_out;
        let commits = match lists.as_slice() {
            [] => 0,
            [one] if left_out.is_empty() => one.len(),
            many => {
                let mut all: Vec<u32> = many
                    .iter()
                    .flat_map(|l| l.iter().copied())
                    .filter(|c| !left_out.contains(c))
                    .collect();
                all.sort_unstable();
                all.dedup();
                all.len()
            }
        };
        if commits > 0 {
            out.push(TouchCount {
                path: target.clone(),
                commits,
                at_least: history.cut.is_some_and(|cut| after_day < cut),
            });
        }
    }
    out
}

/// Lock files that package managers write: generated, so a commit that changes
/// only them changes no code a note describes.
const LOCK_FILES: &[&str] = &[
    "Cargo.lock",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "bun.lock",
    "deno.lock",
    "poetry.lock",
    "Pipfile.lock",
    "uv.lock",
    "pdm.lock",
    "Gemfile.lock",
    "composer.lock",
    "go.sum",
    "mix.lock",
    "pubspec.lock",
    "Podfile.lock",
    "Package.resolved",
    "flake.lock",
    "gradle.lockfile",
    "packages.lock.json",
    "conan.lock",
];

/// Manifests whose changes in a commit that touches no other file of a folder
/// are dependency bumps and version numbers (a release bumps every package's).
const BOOKKEEPING_FILES: &[&str] = &[
    "Cargo.toml",
    "package.json",
    "pyproject.toml",
    "go.mod",
    "composer.json",
    "Gemfile",
    "pubspec.yaml",
];

/// Names of changelogs (any case), as text: `CHANGELOG.md`, `changes.rst`,
/// `NEWS`, `HISTORY.txt` (never `history.rs`).
const CHANGELOG_NAMES: &[&str] = &[
    "changelog",
    "changes",
    "history",
    "news",
    "release-notes",
    "release_notes",
    "releasenotes",
];

/// Whether the file at `path` is a package manager's lock file, a manifest or a
/// changelog (by its name): what dependency bumps and releases change.
pub(super) fn is_bookkeeping_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    BOOKKEEPING_FILES.contains(&name) || is_lock_file_or_changelog(path)
}

/// Whether the file at `path` is a package manager's lock file or a
/// changelog (by its name): what every fix and bump also changes, never what
/// it is about.
pub(crate) fn is_lock_file_or_changelog(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if LOCK_FILES.contains(&name) {
        return true;
    }
    let (stem, ext) = name.split_once('.').unwrap_or((name, ""));
    CHANGELOG_NAMES.iter().any(|c| stem.eq_ignore_ascii_case(c))
        && ["", "md", "markdown", "mdx", "rst", "txt", "adoc"]
            .iter()
            .any(|e| ext.eq_ignore_ascii_case(e))
}
