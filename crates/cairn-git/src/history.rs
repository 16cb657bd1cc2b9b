//! Which commits touched which files: a history of the repository's `HEAD`
//! (commit id, committer day, files changed against the first parent; merges
//! skipped), kept in a cache file and brought up to date incrementally from the
//! last `HEAD` it saw. The first, cold pass is capped (commits and days) and only
//! runs when the caller allows it (`cairn index`, never a session-start hook).
//!
//! The file is text, one record a line, written atomically:
//!
//! ```text
//! cairn-git-history 1
//! head <id>
//! cut <day>                     (when the cold pass stopped at a cap: the oldest day read)
//! p <path>                      (the path table, in first-seen order)
//! c <id> <day> <path index>,... (newest first; day = UTC days since 1970-01-01)
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::{GitError, Repository};

mod touches;

use touches::LazyIndex;
pub use touches::{TouchCount, touch_counts};

const MAGIC: &str = "cairn-git-history 2";

/// The format before the closing count: still read (it is rewritten as the
/// current one on the next update), without the check a count allows.
const MAGIC_V1: &str = "cairn-git-history 1";

/// How much history to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryLimits {
    /// The cold pass reads at most this many commits.
    pub max_commits: usize,
    /// ... and none committed more than this many days before `HEAD`'s.
    pub max_days: u32,
    /// An incremental update without the cold pass allowed reads at most this
    /// many new (or left) commits; more empty it ([`HistoryUpdate::Dropped`]).
    pub max_new: usize,
}

impl Default for HistoryLimits {
    fn default() -> Self {
        Self {
            max_commits: 20_000,
            max_days: 730,
            max_new: 500,
        }
    }
}

/// What an update did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryUpdate {
    /// `HEAD` had not moved (or has no commit).
    Unchanged,
    /// This many new commits were added to the cached history.
    Added(usize),
    /// The history was read from scratch: this many commits.
    Rebuilt(usize),
    /// `HEAD` moved off the line the history was read on (another branch, a
    /// reset, a rebase): this many commits of the old line were dropped and this
    /// many of the new one added.
    Moved {
        /// Commits of the new line added.
        added: usize,
        /// Commits no longer reachable from `HEAD`, dropped.
        dropped: usize,
    },
    /// There is no history yet and the cold pass was not allowed: nothing changed.
    Behind,
    /// `HEAD` is further from the history than allowed without the cold pass
    /// (more than `max_new` commits either way, or the old `HEAD` is gone): the
    /// history was emptied (its counts would be another line's, or short) and
    /// should be written so, until the next cold pass reads it again.
    Dropped,
}

impl HistoryUpdate {
    /// Whether the history changed (and its cache file should be written).
    #[must_use]
    pub fn changed(self) -> bool {
        match self {
            Self::Unchanged | Self::Behind => false,
            Self::Added(n) => n > 0,
            Self::Rebuilt(_) | Self::Moved { .. } | Self::Dropped => true,
        }
    }
}

/// One commit of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Commit {
    id: String,
    day: i64,
    files: Vec<u32>,
}

/// The commits of a repository's `HEAD` with the files each touched, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    head: Option<String>,
    /// When the cold pass stopped at a cap (older commits exist but were not
    /// read): the day of the oldest commit read. Counts after an earlier day
    /// are lower bounds.
    cut: Option<i64>,
    paths: Vec<String>,
    commits: Vec<Commit>,
    /// Per path, the commits that touched it, built on the first question.
    touched_by: LazyIndex,
}

impl History {
    /// The `HEAD` the history was read up to.
    #[must_use]
    pub fn head(&self) -> Option<&str> {
        self.head.as_deref()
    }

    /// When the first pass stopped at a cap: the day (UTC days since 1970) of
    /// the oldest commit read; older ones exist.
    #[must_use]
    pub fn cut(&self) -> Option<i64> {
        self.cut
    }

    /// Number of commits held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.commits.len()
    }

    /// Whether no commit is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.commits.is_empty()
    }

    /// Reads a cache file; a missing, foreign or damaged one is an empty history
    /// (the next allowed cold pass reads it again).
    #[must_use]
    pub fn load(path: &Path) -> Self {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| Self::parse(&t))
            .unwrap_or_default()
    }

    fn parse(text: &str) -> Option<Self> {
        let mut lines = lines(text);
        let counted = match lines.next()? {
            MAGIC => true,
            MAGIC_V1 => false,
            _ => return None,
        };
        let mut h = Self::default();
        // The last line counts the commits: a file cut short (a write lost to a
        // crash before it reached the disk) is damaged, not a shorter history.
        let mut ended = false;
        for line in lines {
            if ended {
                return None;
            }
            let (kind, rest) = at_space(line)?;
            match kind {
                "end" => {
                    ended = rest.parse::<usize>().ok()? == h.commits.len();
                    if !ended {
                        return None;
                    }
                }
                "head" => h.head = Some(rest.to_owned()),
                "cut" => h.cut = Some(rest.parse().ok()?),
                "p" => h.paths.push(rest.to_owned()),
                "c" => {
                    let (id, rest) = at_space(rest)?;
                    let (day, files) = at_space(rest).unwrap_or((rest, ""));
                    h.commits.push(Commit {
                        id: id.to_owned(),
                        day: day.parse().ok()?,
                        files: path_ids(files, h.paths.len())?,
                    });
                }
                _ => return None,
            }
        }
        (ended || !counted).then_some(h)
    }

    fn to_text(&self) -> String {
        let mut out = String::from(MAGIC);
        out.push('\n');
        if let Some(head) = &self.head {
            out.push_str("head ");
            out.push_str(head);
            out.push('\n');
        }
        if let Some(cut) = self.cut {
            let _ = writeln!(out, "cut {cut}");
        }
        for p in &self.paths {
            out.push_str("p ");
            out.push_str(p);
            out.push('\n');
        }
        for c in &self.commits {
            let files: Vec<String> = c.files.iter().map(u32::to_string).collect();
            let _ = writeln!(out, "c {} {} {}", c.id, c.day, files.join(","));
        }
        let _ = writeln!(out, "end {}", self.commits.len());
        out
    }

    /// Writes the cache file atomically (private to the user) and durably.
    ///
    /// # Errors
    /// [`GitError::CacheWrite`] when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), GitError> {
        cairn_atomic_write::write_atomic(path, "git-history", 0o600, self.to_text().as_bytes())
            .map_err(|source| GitError::CacheWrite {
                path: path.to_path_buf(),
                source,
            })
    }

    /// [`History::save`] without waiting for the disk, for a wake-up that added
    /// a few commits: readers see the old file or the new one. After a crash of
    /// the machine the file may be the old one (the next update adds the commits
    /// again) or cut short, which its closing count of commits shows: it then
    /// reads as damaged and the next cold pass (`cairn index`) rebuilds it.
    ///
    /// # Errors
    /// [`GitError::CacheWrite`] when the file cannot be written.
    pub fn save_unsynced(&self, path: &Path) -> Result<(), GitError> {
        cairn_atomic_write::StagedFile::beside_unsynced(
            path,
            "git-history",
            0o600,
            self.to_text().as_bytes(),
        )
        .and_then(cairn_atomic_write::StagedFile::replace)
        .map_err(|source| GitError::CacheWrite {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Brings the history up to `repo`'s `HEAD`: the commits since the last
    /// `HEAD` it saw, or, with `cold` allowed, the whole history within `limits`
    /// when there is none yet (or too much is new).
    ///
    /// # Errors
    /// [`GitError::Read`] when a commit or a tree cannot be read.
    pub fn update(
        &mut self,
        repo: &Repository,
        limits: &HistoryLimits,
        cold: bool,
    ) -> Result<HistoryUpdate, GitError> {
        self.update_under(repo, limits, cold, "")
    }

    /// [`History::update`], keeping of each commit only the files under the
    /// folder `under` (repository-relative, `/`-separated; `""`: all) and only
    /// the commits that touched one: the history of a folder (a vault kept in a
    /// larger repository), a fraction of the repository's to load. A history
    /// must always be updated with the same folder.
    ///
    /// # Errors
    /// [`GitError::Read`] when a commit or a tree cannot be read.
    pub fn update_under(
        &mut self,
        repo: &Repository,
        limits: &HistoryLimits,
        cold: bool,
        under: &str,
    ) -> Result<HistoryUpdate, GitError> {
        let repo = repo.gix();
        // The commit the references name (no object read): when it is the one the
        // history was read up to, `HEAD` has not moved. Peeling (below) reads
        // `HEAD`'s object, to see through a tag; a commit's id is never a tag's,
        // so an equal id needs no peeling.
        if let Ok(named) = repo.head()
            && let Some(id) = named.id()
            && let Some(known) = &self.head
            && gix::ObjectId::from_hex(known.as_bytes()).is_ok_and(|k| k == id.detach())
        {
            return Ok(HistoryUpdate::Unchanged);
        }
        let Ok(head) = repo.head_id() else {
            return Ok(HistoryUpdate::Unchanged);
        };
        let head = head.detach();
        let head_hex = head.to_string();
        if self.head.as_deref() == Some(head_hex.as_str()) {
            return Ok(HistoryUpdate::Unchanged);
        }
        let known: Option<gix::ObjectId> = self
            .head
            .as_deref()
            .and_then(|h| gix::ObjectId::from_hex(h.as_bytes()).ok());
        if let Some(old) = known {
            // The commits of `HEAD` the history lacks, and those it holds that are
            // not `HEAD`'s (none when `HEAD` only moved ahead). An old `HEAD`
            // that can no longer be read (collected after a reset) is off the line.
            let max = limits.max_new;
            let new = walk(repo, head, Some(old), max + 1)
                .ok()
                .filter(|n| n.len() <= max);
            let gone = new
                .as_ref()
                .and_then(|_| walk(repo, old, Some(head), max + 1).ok())
                .filter(|g| g.len() <= max);
            if let (Some(new), Some(gone)) = (new, gone) {
                let added = new.len();
                let dropped = self.drop_commits(&gone);
                self.prepend(repo, new, under)?;
                self.head = Some(head_hex);
                return Ok(if gone.is_empty() {
                    HistoryUpdate::Added(added)
                } else {
                    HistoryUpdate::Moved { added, dropped }
                });
            }
            if !cold {
                // Too far to follow without the cold pass: emptied (its counts
                // would be another line's, or short), and its file rewritten so
                // that later runs do not walk that far again.
                *self = Self::default();
                return Ok(HistoryUpdate::Dropped);
            }
        }
        if !cold {
            return Ok(HistoryUpdate::Behind);
        }
        let head_time = repo
            .find_commit(head)
            .ok()
            .and_then(|c| c.time().ok())
            .map_or(0, |t| t.seconds);
        let cutoff = head_time.saturating_sub(i64::from(limits.max_days) * 86_400);
        let (all, capped) = walk_capped(repo, head, limits.max_commits, cutoff)?;
        *self = Self::default();
        let n = all.len();
        self.cut = capped
            .then(|| all.last().map(|w| w.time.div_euclid(86_400)))
            .flatten();
        self.prepend(repo, all, under)?;
        self.head = Some(head_hex);
        Ok(HistoryUpdate::Rebuilt(n))
    }

    /// Drops the commits held that are among `gone`; how many were.
    fn drop_commits(&mut self, gone: &[Walked]) -> usize {
        if gone.is_empty() {
            return 0;
        }
        let gone: std::collections::HashSet<String> =
            gone.iter().map(|w| w.id.to_string()).collect();
        let before = self.commits.len();
        self.commits.retain(|c| !gone.contains(&c.id));
        self.touched_by = LazyIndex::default();
        before - self.commits.len()
    }

    /// Puts `new` (newest first) before the commits held, with the files each
    /// touched; a commit already held is not added again.
    fn prepend(
        &mut self,
        repo: &gix::Repository,
        new: Vec<Walked>,
        under: &str,
    ) -> Result<(), GitError> {
        let prefix = if under.is_empty() {
            String::new()
        } else {
            format!("{}/", under.trim_end_matches('/'))
        };
        let mut index: HashMap<String, u32> = self
            .paths
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((p.clone(), u32::try_from(i).ok()?)))
            .collect();
        let mut commits = Vec::with_capacity(new.len() + self.commits.len());
        // A shallow clone's oldest commits: their parents are not here.
        let shallow: Vec<gix::ObjectId> = repo
            .shallow_commits()
            .ok()
            .flatten()
            .map(|c| c.iter().copied().collect())
            .unwrap_or_default();
        let held: std::collections::HashSet<&str> = if new.is_empty() {
            std::collections::HashSet::new()
        } else {
            self.commits.iter().map(|c| c.id.as_str()).collect()
        };
        let new: Vec<Walked> = new
            .into_iter()
            .filter(|w| !held.contains(w.id.to_string().as_str()))
            .collect();
        drop(held);
        for w in new {
            let mut files = Vec::new();
            let touched = if shallow.contains(&w.id) {
                // What it changed cannot be known without its parent: nothing is
                // counted (counting every file, as for a root commit, would say
                // that every note's code moved on).
                Vec::new()
            } else {
                touched(repo, &w)?
            };
            for path in touched {
                if !path.starts_with(prefix.as_str()) {
                    continue;
                }
                let i = if let Some(&i) = index.get(&path) {
                    i
                } else {
                    let i = u32::try_from(self.paths.len())
                        .map_err(|e| GitError::read("history", &e))?;
                    self.paths.push(path.clone());
                    index.insert(path, i);
                    i
                };
                files.push(i);
            }
            files.sort_unstable();
            files.dedup();
            if files.is_empty() && !prefix.is_empty() {
                continue;
            }
            commits.push(Commit {
                id: w.id.to_string(),
                day: w.time.div_euclid(86_400),
                files,
            });
        }
        commits.append(&mut self.commits);
        self.commits = commits;
        self.touched_by = LazyIndex::default();
        Ok(())
    }
}

/// `text`'s lines as [`str::lines`] gives them, found with `memchr` (through
/// gix's `bstr`): a history cache has thousands.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    use gix::bstr::ByteSlice;
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(at) = rest.as_bytes().find_byte(b'\n') else {
            // The last line, without an end: kept whole.
            return Some(std::mem::take(&mut rest));
        };
        let line = rest.get(..at)?;
        rest = rest.get(at + 1..)?;
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// `s` cut at its first space, without it. A byte loop: the parts of a history
/// line are a few characters long, shorter than a searcher takes to set up.
fn at_space(s: &str) -> Option<(&str, &str)> {
    let at = s.bytes().position(|b| b == b' ')?;
    Some((&s[..at], &s[at + 1..]))
}

/// A commit line's path ids (`3,17,42`; empty parts skipped), each below
/// `paths`; `None` for anything else. Read byte by byte: a wake-up reads
/// thousands of these lines while the index opens.
fn path_ids(text: &str, paths: usize) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(text.len() / 3 + 1);
    let mut id: Option<u32> = None;
    for &b in text.as_bytes() {
        match b {
            b'0'..=b'9' => {
                let digit = u32::from(b - b'0');
                id = Some(id.unwrap_or(0).checked_mul(10)?.checked_add(digit)?);
            }
            b',' => out.extend(id.take()),
            _ => return None,
        }
    }
    out.extend(id);
    out.iter().all(|&i| (i as usize) < paths).then_some(out)
}

/// A commit found by a walk.
struct Walked {
    id: gix::ObjectId,
    time: i64,
    parent: Option<gix::ObjectId>,
}

/// Commits from `head` (not reachable from `hidden`), newest first, merges
/// skipped, at most `max`.
fn walk(
    repo: &gix::Repository,
    head: gix::ObjectId,
    hidden: Option<gix::ObjectId>,
    max: usize,
) -> Result<Vec<Walked>, GitError> {
    walk_until(repo, head, hidden, max, None).map(|(w, _)| w)
}

/// Commits from `head`, newest first, merges skipped, at most `max`, none
/// committed before `cutoff` (seconds); and whether a cap stopped the walk
/// before the first commit.
fn walk_capped(
    repo: &gix::Repository,
    head: gix::ObjectId,
    max: usize,
    cutoff: i64,
) -> Result<(Vec<Walked>, bool), GitError> {
    walk_until(repo, head, None, max, Some(cutoff))
}

fn walk_until(
    repo: &gix::Repository,
    head: gix::ObjectId,
    hidden: Option<gix::ObjectId>,
    max: usize,
    cutoff: Option<i64>,
) -> Result<(Vec<Walked>, bool), GitError> {
    let mut platform = repo
        .rev_walk([head])
        .sorting(gix::revision::walk::Sorting::ByCommitTime(
            gix::traverse::commit::simple::CommitTimeOrder::NewestFirst,
        ));
    if let Some(h) = hidden {
        platform = platform.with_hidden([h]);
    }
    let walk = platform.all().map_err(|e| GitError::read("history", &e))?;
    let mut out = Vec::new();
    for info in walk {
        let info = info.map_err(|e| GitError::read("history", &e))?;
        let time = info.commit_time.unwrap_or_else(|| {
            info.object()
                .ok()
                .and_then(|c| c.time().ok())
                .map_or(0, |t| t.seconds)
        });
        if cutoff.is_some_and(|c| time < c) {
            return Ok((out, true));
        }
        let parents: Vec<gix::ObjectId> = info.parent_ids.iter().copied().collect();
        if parents.len() > 1 {
            continue;
        }
        out.push(Walked {
            id: info.id,
            time,
            parent: parents.first().copied(),
        });
        if out.len() >= max {
            return Ok((out, true));
        }
    }
    Ok((out, false))
}

/// The files `w` changed against its parent (every file of a root commit).
fn touched(repo: &gix::Repository, w: &Walked) -> Result<Vec<String>, GitError> {
    files_changed(repo, w.id, w.parent)
}

/// The files commit `id` changed against `parent` (every file when it has none),
/// repository-relative with `/` separators, in tree order.
pub(crate) fn files_changed(
    repo: &gix::Repository,
    id: gix::ObjectId,
    parent: Option<gix::ObjectId>,
) -> Result<Vec<String>, GitError> {
    let tree_of = |id: gix::ObjectId| {
        repo.find_commit(id)
            .and_then(|c| c.tree())
            .map_err(|e| GitError::read("a commit's tree", &e))
    };
    let new = tree_of(id)?;
    let old = match parent {
        Some(p) => tree_of(p)?,
        None => repo.empty_tree(),
    };
    let changes = repo
        .diff_tree_to_tree(&old, &new, gix::diff::Options::default())
        .map_err(|e| GitError::read("a commit's changes", &e))?;
    Ok(changes
        .into_iter()
        .filter(|c| !c.entry_mode().is_tree())
        .map(|c| c.location().to_string())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::touches::is_bookkeeping_file;
    use super::{lines, path_ids};

    /// Lock files, manifests and changelogs by name; changelogs in any case and
    /// as text only (`history.rs` is code).
    #[test]
    fn bookkeeping_files_by_name() {
        for yes in [
            "web/package-lock.json",
            "crates/a/Cargo.toml",
            "CHANGELOG.md",
            "pkg/changelog.md",
            "HISTORY.rst",
            "NEWS",
            "docs/Release-Notes.txt",
        ] {
            assert!(is_bookkeeping_file(yes), "{yes}");
        }
        for no in [
            "src/history.rs",
            "src/changes.py",
            "news/feed.go",
            "crates/a/src/lib.rs",
            "Cargo.toml.orig",
            "changelog.json",
        ] {
            assert!(!is_bookkeeping_file(no), "{no}");
        }
    }

    #[test]
    fn lines_are_str_lines() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\n\nb\n\n",
            "\r\n",
            "a\rb\n",
            "a\r",
            "a\nb\r",
            "é\nü\r\n",
        ] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    /// The byte-by-byte reading agrees with splitting on commas and parsing each
    /// part, on well-formed and damaged lines alike.
    #[test]
    fn path_ids_read_as_split_and_parse_would() {
        let as_before = |text: &str, paths: usize| -> Option<Vec<u32>> {
            let ids = text
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::parse::<u32>)
                .collect::<Result<Vec<_>, _>>()
                .ok()?;
            ids.iter().all(|&i| (i as usize) < paths).then_some(ids)
        };
        for (text, expect) in [
            ("", Some(vec![])),
            ("0", Some(vec![0])),
            ("3,17,42", Some(vec![3, 17, 42])),
            ("3,,17,", Some(vec![3, 17])),
            (",", Some(vec![])),
            ("99", Some(vec![99])),
            ("100", None),
            ("3,x", None),
            ("3 4", None),
            ("-1", None),
            ("4294967296", None),
            ("99999999999999999999", None),
        ] {
            assert_eq!(path_ids(text, 100), expect, "{text:?}");
            assert_eq!(path_ids(text, 100), as_before(text, 100), "{text:?}");
        }
        assert_eq!(path_ids("4294967295", usize::MAX), Some(vec![u32::MAX]));
    }
}
