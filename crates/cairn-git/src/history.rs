//! Which commits touched which files: a history of the repository's `HEAD`
//! (commit id, committer's own day, files changed against the first parent; merges
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
//! c <id> <day> <path index>,... (newest first; day = days since 1970-01-01 in the
//!                               committer's own time zone, as the note's author dates it)
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::{GitError, Repository};

mod flat;
mod touches;

use flat::{Commits, Strings};
use touches::LazyIndex;
pub(crate) use touches::is_lock_file_or_changelog;
pub use touches::{TouchCount, touch_counts};

/// Version 3 dates commits by the committer's own day (2 and 1, by UTC's, are
/// foreign: read again by the next cold pass, since a fix committed at 21:00
/// in New York on a note's date counted as changed after it).
const MAGIC: &str = "cairn-git-history 3";

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

/// The commits of a repository's `HEAD` with the files each touched, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    head: Option<String>,
    /// When the cold pass stopped at a cap (older commits exist but were not
    /// read): the day of the oldest commit read. Counts after an earlier day
    /// are lower bounds.
    cut: Option<i64>,
    /// The path table: a commit's files are indices into it.
    paths: Strings,
    commits: Commits,
    /// Per path, the commits that touched it, built on the first question.
    touched_by: LazyIndex,
    /// Positions of commits [`History::touches`] does not count (the
    /// branch's own: the work at hand, not a change since a note).
    left_out: std::collections::HashSet<u32>,
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

    /// Leaves the commits `ids` (hex) out of what [`History::touches`] counts,
    /// until the history is updated: the branch's own commits, the work at
    /// hand rather than a change since a note (a held-out trial: committing
    /// the fix marked the note about its file "may be stale").
    pub fn leave_out_commits(&mut self, ids: &[String]) {
        self.left_out.clear();
        if ids.is_empty() {
            return;
        }
        let ids: std::collections::HashSet<&str> = ids.iter().map(String::as_str).collect();
        for i in 0..self.commits.len() {
            if ids.contains(self.commits.id(i))
                && let Ok(at) = u32::try_from(i)
            {
                self.left_out.insert(at);
                // The branch's own commits are the newest: once all are
                // found, the older ones need no look.
                if self.left_out.len() == ids.len() {
                    break;
                }
            }
        }
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
        if lines.next()? != MAGIC {
            return None;
        }
        // Held flat (see `flat`), with room for about as many commits and path
        // ids as a file of this size holds: grown once or twice at most.
        let mut h = Self {
            paths: Strings::with_capacity(text.len() / 256, text.len() / 8),
            commits: Commits::with_capacity(text.len() / 64, text.len() / 16),
            ..Self::default()
        };
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
                "p" => h.paths.push(rest)?,
                "c" => {
                    let (id, rest) = after_id(rest)?;
                    let (day, files) = at_space(rest).unwrap_or((rest, ""));
                    let paths = h.paths.len();
                    h.commits
                        .push_reading(id, day.parse().ok()?, |out| path_ids(files, paths, out))?;
                }
                _ => return None,
            }
        }
        ended.then_some(h)
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
        for p in self.paths.iter() {
            out.push_str("p ");
            out.push_str(p);
            out.push('\n');
        }
        for i in 0..self.commits.len() {
            let files: Vec<String> = self.commits.files(i).iter().map(u32::to_string).collect();
            let day = self.commits.day(i).unwrap_or_default();
            let _ = writeln!(out, "c {} {} {}", self.commits.id(i), day, files.join(","));
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
        self.update_beside(repo, limits, cold, under, History::default)
            .map(|(u, _)| u)
    }

    /// [`History::update_under`] with a second line kept aside (the history of
    /// the branch checked out before a far one: a release branch and `main`),
    /// which `aside` loads when it is needed. When `HEAD` is too far from this
    /// history's line (more than `max_new` commits either way) but within reach
    /// of the line set aside, the two swap and that one is brought up (no cold
    /// pass, no emptied history: switching back and forth between two far
    /// branches stays cheap). When `HEAD` is far from both, this line (unless
    /// empty) takes the aside's place, and the update goes on as
    /// [`History::update_under`]'s. Besides what the update did, the history to
    /// set aside now (to be kept where `aside` loads it from), when it changed.
    ///
    /// # Errors
    /// [`GitError::Read`] when a commit or a tree cannot be read.
    pub fn update_beside(
        &mut self,
        repo: &Repository,
        limits: &HistoryLimits,
        cold: bool,
        under: &str,
        aside: impl FnOnce() -> History,
    ) -> Result<(HistoryUpdate, Option<History>), GitError> {
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
            return Ok((HistoryUpdate::Unchanged, None));
        }
        let Ok(head) = repo.head_id() else {
            return Ok((HistoryUpdate::Unchanged, None));
        };
        let head = head.detach();
        if self.head_is(head) {
            return Ok((HistoryUpdate::Unchanged, None));
        }
        if self.head.is_some()
            && let Some(u) = self.follow(repo, head, limits.max_new, under)?
        {
            return Ok((u, None));
        }
        // This line (if any) is too far: the one set aside may not be. Swapped
        // in, this one takes its place (an empty one does not: the aside then
        // holds a copy of the line in use, which a later far move replaces).
        let mut other = aside();
        let keep = |h: History| (h.head.is_some()).then_some(h);
        if other.head_is(head) {
            std::mem::swap(self, &mut other);
            let u = HistoryUpdate::Moved {
                added: 0,
                dropped: 0,
            };
            return Ok((u, keep(other)));
        }
        if other.head.is_some()
            && let Some(u) = other.follow(repo, head, limits.max_new, under)?
        {
            std::mem::swap(self, &mut other);
            let u = match u {
                HistoryUpdate::Added(added) => HistoryUpdate::Moved { added, dropped: 0 },
                u => u,
            };
            return Ok((u, keep(other)));
        }
        // Far from both lines: this one, the newer, is kept aside.
        let set_aside = keep(std::mem::take(self));
        if set_aside.is_some() && !cold {
            // Too far to follow without the cold pass: emptied (its counts
            // would be another line's, or short), and its file rewritten so
            // that later runs do not walk that far again.
            return Ok((HistoryUpdate::Dropped, set_aside));
        }
        if !cold {
            return Ok((HistoryUpdate::Behind, None));
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
        self.cut = capped.then(|| all.last().map(|w| w.day)).flatten();
        self.prepend(repo, all, under)?;
        self.head = Some(head.to_string());
        Ok((HistoryUpdate::Rebuilt(n), set_aside))
    }

    /// Whether the history was read up to `head`.
    fn head_is(&self, head: gix::ObjectId) -> bool {
        self.head
            .as_deref()
            .and_then(|h| gix::ObjectId::from_hex(h.as_bytes()).ok())
            == Some(head)
    }

    /// Brings the history from its `HEAD` to `head` when at most `max` commits
    /// are new and at most `max` held are not `head`'s (none when `head` only
    /// moved ahead); `None`, the history untouched, when they are more (or its
    /// `HEAD` can no longer be read: collected after a reset, it is off the line).
    fn follow(
        &mut self,
        repo: &gix::Repository,
        head: gix::ObjectId,
        max: usize,
        under: &str,
    ) -> Result<Option<HistoryUpdate>, GitError> {
        let Some(old) = self
            .head
            .as_deref()
            .and_then(|h| gix::ObjectId::from_hex(h.as_bytes()).ok())
        else {
            return Ok(None);
        };
        let new = walk(repo, head, Some(old), max + 1)
            .ok()
            .filter(|n| n.len() <= max);
        let gone = new
            .as_ref()
            .and_then(|_| walk(repo, old, Some(head), max + 1).ok())
            .filter(|g| g.len() <= max);
        let (Some(new), Some(gone)) = (new, gone) else {
            return Ok(None);
        };
        let added = new.len();
        let dropped = self.drop_commits(&gone);
        self.prepend(repo, new, under)?;
        self.head = Some(head.to_string());
        Ok(Some(if gone.is_empty() {
            HistoryUpdate::Added(added)
        } else {
            HistoryUpdate::Moved { added, dropped }
        }))
    }

    /// Drops the commits held that are among `gone`; how many were.
    fn drop_commits(&mut self, gone: &[Walked]) -> usize {
        if gone.is_empty() {
            return 0;
        }
        let gone: std::collections::HashSet<String> =
            gone.iter().map(|w| w.id.to_string()).collect();
        let before = self.commits.len();
        self.commits = self.commits.retained(|id| !gone.contains(id));
        self.touched_by = LazyIndex::default();
        self.left_out.clear();
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
            .filter_map(|(i, p)| Some((p.to_owned(), u32::try_from(i).ok()?)))
            .collect();
        let mut commits = Commits::with_capacity(new.len(), new.len() * 4);
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
            self.commits.ids().collect()
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
                    self.paths
                        .push(&path)
                        .ok_or_else(|| GitError::read("history", &"too many paths"))?;
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
            commits
                .push(&w.id.to_string(), w.day, &files)
                .ok_or_else(|| GitError::read("history", &"too many path ids"))?;
        }
        self.commits = commits.then(&self.commits);
        self.sort_paths();
        self.touched_by = LazyIndex::default();
        self.left_out.clear();
        Ok(())
    }

    /// Puts the path table in the order of its paths, renumbering the commits'
    /// files: the order the index of touches searches in, which a table loaded
    /// so then needs no sort (a wake-up builds that index on its critical path).
    fn sort_paths(&mut self) {
        let n = self.paths.len();
        let mut order: Vec<u32> = (0..n).filter_map(|i| u32::try_from(i).ok()).collect();
        order.sort_by(|&a, &b| self.paths.get(a as usize).cmp(self.paths.get(b as usize)));
        if order.iter().enumerate().all(|(i, &o)| o as usize == i) {
            return;
        }
        let mut renumber = vec![0u32; n];
        let mut paths = Strings::with_capacity(n, self.paths.bytes());
        for (new, &old) in order.iter().enumerate() {
            renumber[old as usize] = u32::try_from(new).unwrap_or(u32::MAX);
            // Within the sizes the table already holds.
            let _ = paths.push(self.paths.get(old as usize));
        }
        self.paths = paths;
        self.commits = self.commits.renumbered(&renumber);
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

/// A commit line's id and the rest, cut at the space after the id: found with
/// `memchr` (through gix's `bstr`), as an id is 40 or 64 characters long.
fn after_id(s: &str) -> Option<(&str, &str)> {
    use gix::bstr::ByteSlice;
    let at = s.as_bytes().find_byte(b' ')?;
    Some((s.get(..at)?, s.get(at + 1..)?))
}

/// A commit line's path ids (`3,17,42`; empty parts skipped), each below
/// `paths`, added to `out`; `None` for anything else (`out` may then hold some).
/// Read byte by byte: a wake-up reads thousands of these lines while the index
/// opens.
fn path_ids(text: &str, paths: usize, out: &mut Vec<u32>) -> Option<()> {
    let from = out.len();
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
    out[from..]
        .iter()
        .all(|&i| (i as usize) < paths)
        .then_some(())
}

/// A commit found by a walk.
struct Walked {
    id: gix::ObjectId,
    /// The committer's day: days since 1970-01-01 in the committer's own time
    /// zone.
    day: i64,
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
        // The walk gives the time in UTC; the zone is the commit's own.
        let offset = info
            .object()
            .ok()
            .and_then(|c| c.time().ok())
            .map_or(0, |t| i64::from(t.offset));
        out.push(Walked {
            id: info.id,
            day: time.saturating_add(offset).div_euclid(86_400),
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
    use super::{History, lines, path_ids};

    /// Generated histories whose path table is in no order (as files written
    /// before the table was kept in order are) answer every question as the
    /// same history with its table put in order does, and as counting over the
    /// commits' lines directly does; both survive writing and reading.
    #[test]
    fn a_path_table_in_any_order_answers_the_same() {
        let names = [
            "src/a.rs",
            "src/a/b.rs",
            "src/a/Cargo.toml",
            "src/ab.rs",
            "src/a0.rs",
            "src",
            "tests/t.rs",
            "README.md",
            "src/a/c/d.rs",
        ];
        let mut state = 0x2545_f491_u64;
        let mut next = |n: usize| -> usize {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            usize::try_from((state >> 33) % u64::try_from(n).unwrap_or(1)).unwrap_or(0)
        };
        for case in 0..60 {
            // The table in a shuffled order.
            let mut order: Vec<&str> = names.to_vec();
            for i in (1..order.len()).rev() {
                order.swap(i, next(i + 1));
            }
            let mut text = format!("{}\nhead ff\n", super::MAGIC);
            for p in &order {
                text.push_str(&format!("p {p}\n"));
            }
            let commits = 1 + next(12);
            let mut lines_of: Vec<(i64, Vec<usize>)> = Vec::new();
            let mut day = 20_000;
            for c in 0..commits {
                day -= i64::try_from(next(3)).unwrap_or(0);
                // Some ids twice: a commit counts once.
                let files: Vec<usize> = (0..next(4)).map(|_| next(order.len())).collect();
                let ids: Vec<String> = files.iter().map(usize::to_string).collect();
                text.push_str(&format!("c {case:02}{c:02} {day} {}\n", ids.join(",")));
                lines_of.push((day, files));
            }
            text.push_str(&format!("end {commits}\n"));
            let h = History::parse(&text).expect("well formed");
            let mut sorted = h.clone();
            sorted.sort_paths();
            assert_eq!(History::parse(&sorted.to_text()), Some(sorted.clone()));
            assert_eq!(History::parse(&h.to_text()), Some(h.clone()));
            let mut targets: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
            targets.extend([
                "src/a/".to_owned(),
                "src/a/c".to_owned(),
                "nowhere".to_owned(),
            ]);
            for after in [19_990, 19_995, 19_999, 20_000] {
                let naive: Vec<(String, usize)> = targets
                    .iter()
                    .filter_map(|t| {
                        let t = t.trim_end_matches('/');
                        let n = lines_of
                            .iter()
                            .filter(|(d, _)| *d > after)
                            .filter(|(_, files)| {
                                files.iter().any(|&f| {
                                    let p = order[f];
                                    p == t
                                        || (p.starts_with(&format!("{t}/"))
                                            && !is_bookkeeping_file(p))
                                })
                            })
                            .count();
                        (n > 0).then(|| (t.to_owned(), n))
                    })
                    .collect();
                for history in [&h, &sorted] {
                    let got: Vec<(String, usize)> = history
                        .touches(&targets, after)
                        .into_iter()
                        .map(|c| (c.path.trim_end_matches('/').to_owned(), c.commits))
                        .collect();
                    assert_eq!(got, naive, "case {case}, after {after}");
                }
            }
            for name in names {
                let last = lines_of
                    .iter()
                    .filter(|(_, files)| files.iter().any(|&f| order[f] == name))
                    .map(|(d, _)| *d)
                    .max();
                assert_eq!(h.last_touched(name), last, "case {case}: {name}");
                assert_eq!(sorted.last_touched(name), last, "case {case}: {name}");
                assert_eq!(h.share_under(name), sorted.share_under(name));
            }
        }
    }

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
            let read = |paths: usize| {
                let mut out = vec![9];
                path_ids(text, paths, &mut out).map(|()| out[1..].to_vec())
            };
            assert_eq!(read(100), expect, "{text:?}");
            assert_eq!(read(100), as_before(text, 100), "{text:?}");
        }
        let mut out = Vec::new();
        assert_eq!(path_ids("4294967295", usize::MAX, &mut out), Some(()));
        assert_eq!(out, [u32::MAX]);
    }
}
