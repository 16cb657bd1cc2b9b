//! A working tree as a task: the branch, the files changed and not yet committed
//! (staged, unstaged, untracked; most recently modified first), the subjects of
//! the branch's own commits (those not on the default branch) and the remotes.

use std::path::{Path, PathBuf};

use crate::GitError;
use crate::in_progress::Operation;
use crate::remote::{Remote, remotes};

/// How much of a working tree to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// At most this many changed files (the most recently modified).
    pub max_changed: usize,
    /// At most this many commit subjects (the newest).
    pub max_commits: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            max_changed: 20,
            max_commits: 5,
        }
    }
}

/// Where a reader keeps what it can reuse of a working tree's reading between
/// runs: three files, each valid while what it names is unchanged (see
/// [`Repository::working_tree_with`]). All are written atomically, without a
/// sync: a lost write is computed again, and a file cut short (its last line
/// gives the length of what comes before it) is not trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusCache {
    /// The staged files, valid for one `HEAD` commit and one index.
    pub staged: PathBuf,
    /// The untracked files, valid while the index, the ignore files and every
    /// folder the walk read are unchanged.
    pub untracked: PathBuf,
    /// The subjects of the branch's own commits, valid for one `HEAD` commit
    /// and one default-branch tip.
    pub commits: PathBuf,
}

impl StatusCache {
    /// The three files in `dir`, named after `stem` (one per repository).
    #[must_use]
    pub fn in_dir(dir: &Path, stem: &str) -> Self {
        Self {
            staged: dir.join(format!("git-staged-{stem}.txt")),
            untracked: dir.join(format!("git-untracked-{stem}.txt")),
            commits: dir.join(format!("git-commits-{stem}.txt")),
        }
    }
}

/// What a working tree says about the work in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkingTree {
    /// The working tree's root folder, canonical.
    pub workdir: PathBuf,
    /// For a linked worktree, the main checkout's root (canonical).
    pub main_workdir: Option<PathBuf>,
    /// The checked-out branch's short name, or the one a rebase that stopped
    /// or a bisect detached `HEAD` from ([`Self::in_progress`]); `None` when
    /// `HEAD` is otherwise detached, or unborn.
    pub branch: Option<String>,
    /// The operation in progress that detached `HEAD` from [`Self::branch`]
    /// (the branch's own commits are then those of its tip before the
    /// rebase), or a merge stopped at a conflict (its files in conflict come
    /// first among the changed files, and those it brought in cleanly are
    /// left out).
    pub in_progress: Option<Operation>,
    /// The default branch's short name (`origin/HEAD`'s target, else `main`,
    /// `master`, `init.defaultBranch`'s, `trunk` or `develop`).
    pub default_branch: Option<String>,
    /// The reference the branch's own commits were compared with: the default
    /// branch's local reference (`main`), else `origin`'s (`origin/main`).
    pub default_ref: Option<String>,
    /// Changed files relative to [`Self::workdir`] with `/` separators: most
    /// recently modified first (deleted files last), ties by path, at most
    /// [`ReadOptions::max_changed`].
    pub changed: Vec<String>,
    /// How many files changed in all (before the cap; those left out not counted).
    pub changed_total: usize,
    /// Subjects of the branch's commits not on the default branch, newest first,
    /// at most [`ReadOptions::max_commits`], merge commits left out. Empty on the
    /// default branch itself.
    pub commits: Vec<String>,
    /// The files those commits changed (each against its parent), newest
    /// commit first, each once, at most [`ReadOptions::max_changed`].
    pub committed: Vec<String>,
    /// The ids (hex) of the branch's own commits, newest first, merges left
    /// out, up to a thousand: all of them, where [`WorkingTree::commits`]
    /// holds the newest subjects.
    pub own_commit_ids: Vec<String>,
    /// Remotes, `origin` first, then by name.
    pub remotes: Vec<Remote>,
    /// The names the repository's author goes by ([`crate::author_names`] of
    /// git's author identity: `user.name`, `user.email`, or `GIT_AUTHOR_NAME`
    /// and `GIT_AUTHOR_EMAIL`); empty when none is set.
    pub author: Vec<String>,
}

/// The repository containing `path`.
pub(crate) fn discover(path: &Path) -> Result<gix::Repository, GitError> {
    gix::discover(path).map_err(|e| {
        if e.is_not_found() {
            GitError::NotARepository {
                path: path.to_path_buf(),
            }
        } else {
            GitError::Open {
                path: path.to_path_buf(),
                message: e.to_string(),
            }
        }
    })
}

/// A path gix gave, canonical: resolved, absolute (a relative one is relative to
/// the process's folder, where `open` gave gix `.`), else as it is absolute.
pub(crate) fn canonical(p: &Path) -> PathBuf {
    p.canonicalize()
        .unwrap_or_else(|_| match std::env::current_dir() {
            Ok(here) if p.is_relative() => here.join(p),
            _ => p.to_path_buf(),
        })
}

/// An opened repository with a working tree: where it is, before anything costly is read.
pub struct Repository {
    repo: gix::Repository,
    workdir: PathBuf,
    main_workdir: Option<PathBuf>,
}

impl std::fmt::Debug for Repository {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repository")
            .field("workdir", &self.workdir)
            .field("main_workdir", &self.main_workdir)
            .finish_non_exhaustive()
    }
}

/// Opens the repository containing `cwd` (its working tree, its main checkout):
/// a few file reads, no status, no history.
///
/// When `cwd` is the process's own current folder (a hook runs in the folder it
/// is about), gix is given `.`: the paths it then stats, one per tracked file for
/// the status, are relative, and the kernel resolves each from the current folder
/// instead of walking the whole absolute path again (a fifth of the status's time
/// on the reference repository of `benches/git_hook_compare.py`). What cairn
/// shows, compares or keys its caches by stays canonical and absolute
/// ([`Repository::workdir`]).
///
/// # Errors
/// [`GitError::NotARepository`] outside git, [`GitError::Open`] for a repository
/// gix cannot open, [`GitError::Bare`] for one without a working tree.
pub fn open(cwd: &Path) -> Result<Repository, GitError> {
    let here = std::env::current_dir().is_ok_and(|here| here == cwd);
    let relative = if here {
        match discover(Path::new(".")) {
            // Inside a git dir itself, gix takes `.` for a working tree whose git
            // dir would be `./.git`; by its absolute path the folder is known.
            Ok(r) if r.git_dir().is_dir() => Some(r),
            Err(GitError::NotARepository { .. }) => {
                return Err(GitError::NotARepository {
                    path: cwd.to_path_buf(),
                });
            }
            Ok(_) | Err(_) => None,
        }
    } else {
        None
    };
    let mut repo = match relative {
        Some(r) => r,
        None => discover(cwd)?,
    };
    read_the_index_as_git_does(&mut repo);
    let workdir = canonical(repo.workdir().ok_or_else(|| GitError::Bare {
        path: canonical(repo.git_dir()),
    })?);
    let main_workdir = main_workdir(&repo).filter(|m| *m != workdir);
    Ok(Repository {
        repo,
        workdir,
        main_workdir,
    })
}

/// Has gix read the index as git does: its trailing checksum is read (the
/// status caches are keyed by it) but not checked against the contents, which
/// git does only in `git fsck`. Hashing a 2,000-file index was a fifth of the
/// git thread's instructions. Set in memory only (`index.skipHash`; cairn never
/// writes the index); if gix refused it, the checksum is checked as before.
fn read_the_index_as_git_does(repo: &mut gix::Repository) {
    let mut config = repo.config_snapshot_mut();
    if config
        .set_value(&gix::config::tree::Index::SKIP_HASH, "true")
        .is_ok()
    {
        let _ = config.commit();
    }
}

impl Repository {
    /// The working tree's root folder, canonical.
    #[must_use]
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// For a linked worktree, the main checkout's root (canonical).
    #[must_use]
    pub fn main_workdir(&self) -> Option<&Path> {
        self.main_workdir.as_deref()
    }

    /// The remotes, `origin` first, then by name.
    #[must_use]
    pub fn remotes(&self) -> Vec<Remote> {
        remotes(&self.repo)
    }

    /// The gix repository, for the history reader.
    pub(crate) fn gix(&self) -> &gix::Repository {
        &self.repo
    }

    /// Reads the branch, the changed files, the branch's own commits and the remotes.
    ///
    /// # Errors
    /// [`GitError::Read`] when `HEAD`, the status or the history cannot be read.
    pub fn working_tree(&self, opts: ReadOptions) -> Result<WorkingTree, GitError> {
        self.working_tree_with(opts, None)
    }

    /// [`Repository::working_tree`], keeping two parts of the status in
    /// `cache`: the staged files (the diff of `HEAD`'s tree against the index),
    /// valid while `HEAD`'s tree and the index are those it names, and the
    /// untracked files (the directory walk), valid while the index, the ignore
    /// files and the stat data of every folder the walk read are those it
    /// names, as git's untracked cache. A wake-up after nothing was staged or
    /// created reads them instead. The tracked files are compared with the
    /// working tree each time.
    ///
    /// # Errors
    /// Those of [`Repository::working_tree`].
    pub fn working_tree_with(
        &self,
        opts: ReadOptions,
        cache: Option<&StatusCache>,
    ) -> Result<WorkingTree, GitError> {
        self.working_tree_leaving_out(opts, cache, &|_| false)
    }

    /// [`Repository::working_tree_with`], where the changed and committed files
    /// `leave_out` names (by their path relative to the working tree: notes kept
    /// in the repository, which are memory and not the work) are left out before
    /// the cap, so that they never take a place of the code's.
    ///
    /// # Errors
    /// Those of [`Repository::working_tree`].
    pub fn working_tree_leaving_out(
        &self,
        opts: ReadOptions,
        cache: Option<&StatusCache>,
        leave_out: &dyn Fn(&str) -> bool,
    ) -> Result<WorkingTree, GitError> {
        let repo = &self.repo;
        let mut branch = repo
            .head_name()
            .map_err(|e| GitError::read("HEAD", &e))?
            .map(|n| n.shorten().to_string());
        // A rebase that stopped, or a bisect, detached `HEAD` from the branch
        // whose work this still is.
        let detached = if branch.is_none() {
            crate::in_progress::detached_from(repo)
        } else {
            None
        };
        if let Some(d) = &detached {
            branch = Some(d.branch.clone());
        }
        let (changed, changed_total, merging) =
            changed_files(repo, &self.workdir, opts.max_changed, cache, leave_out)?;
        let replayed = detached.as_ref().and_then(|d| d.replayed.as_deref());
        let (default, own) = crate::branch::default_and_own_commits(
            repo,
            opts.max_commits,
            // A rebase's list of commits is not part of the cache's key.
            cache
                .filter(|_| replayed.is_none())
                .map(|c| c.commits.as_path()),
            detached.as_ref().map(|d| d.tip),
            replayed,
        )?;
        let mut committed: Vec<String> = Vec::new();
        for f in own.commits.iter().flat_map(|c| &c.files) {
            if committed.len() >= opts.max_changed {
                break;
            }
            if !leave_out(f) && !committed.contains(f) {
                committed.push(f.clone());
            }
        }
        // A changelog or a lock file changed beside code says nothing of what
        // the work is about (a fix's CHANGELOG.md line, a bump's Cargo.lock):
        // left out, unless nothing else changed (a held-out trial: their path
        // words took a note under the relevance gate).
        let mut changed = changed;
        for files in [&mut changed, &mut committed] {
            if files
                .iter()
                .any(|f| !crate::history::is_lock_file_or_changelog(f))
            {
                files.retain(|f| !crate::history::is_lock_file_or_changelog(f));
            }
        }
        let own_commit_ids = own.ids;
        let commits = own.commits.into_iter().map(|c| c.subject).collect();
        Ok(WorkingTree {
            workdir: self.workdir.clone(),
            main_workdir: self.main_workdir.clone(),
            branch,
            in_progress: detached
                .map(|d| d.operation)
                .or(merging.then_some(Operation::Merge)),
            default_branch: default.as_ref().map(|d| d.name.clone()),
            default_ref: default.map(|d| d.compared),
            changed,
            changed_total,
            commits,
            committed,
            own_commit_ids,
            remotes: remotes(repo),
            author: author_words(repo),
        })
    }
}

/// [`crate::author_names`] of the author `git commit` would record, resolved
/// as gix's `Repository::author` resolves it (`author.*`, then `user.*`, then
/// `GIT_AUTHOR_*`; name and email each on its own), from the configuration
/// alone: gix's also stamps the identity with the time now in the local time
/// zone, and that loads the time zone database (jiff walked every folder of
/// `/usr/share/zoneinfo` on each wake-up, inside the git thread); empty when
/// either is not set.
fn author_words(repo: &gix::Repository) -> Vec<String> {
    use gix::config::tree::{Author, User, gitoxide};
    let config = repo.config_snapshot();
    let name = [&Author::NAME, &User::NAME, &gitoxide::Author::NAME_FALLBACK]
        .into_iter()
        .find_map(|k| config.string(k));
    let email = [
        &Author::EMAIL,
        &User::EMAIL,
        &gitoxide::User::EMAIL_FALLBACK,
        &gitoxide::Author::EMAIL_FALLBACK,
    ]
    .into_iter()
    .find_map(|k| config.string(k));
    match (name, email) {
        (Some(name), Some(email)) => crate::author_names(&name.to_string(), &email.to_string()),
        _ => Vec::new(),
    }
}

impl Repository {
    /// The ids (hex) of the commits of `HEAD`'s branch not on the default
    /// branch (as [`WorkingTree::own_commit_ids`]), without reading the
    /// working tree: empty on the default branch, or when it cannot be told.
    /// With `cache`, its commits file is read and kept as
    /// [`Repository::working_tree_leaving_out`] does with the same
    /// `max_commits` (one entry: the same `max_commits` shares it).
    #[must_use]
    pub fn own_commit_ids(&self, max_commits: usize, cache: Option<&StatusCache>) -> Vec<String> {
        crate::branch::default_and_own_commits(
            &self.repo,
            max_commits,
            cache.map(|c| c.commits.as_path()),
            None,
            None,
        )
        .map(|(_, own)| own.ids)
        .unwrap_or_default()
    }
}

/// Reads the working tree containing `cwd` ([`open`], then [`Repository::working_tree`]).
///
/// # Errors
/// Those of [`open`] and [`Repository::working_tree`].
pub fn read_working_tree(cwd: &Path, opts: ReadOptions) -> Result<WorkingTree, GitError> {
    open(cwd)?.working_tree(opts)
}

/// The main checkout's root of a linked worktree: the folder holding the common git dir.
fn main_workdir(repo: &gix::Repository) -> Option<PathBuf> {
    let common = repo.common_dir();
    if common == repo.git_dir() {
        return None;
    }
    let common = common.canonicalize().ok()?;
    (common.file_name()? == ".git").then(|| common.parent().map(Path::to_path_buf))?
}

/// The changed files (staged, unstaged, untracked) of the working tree, most
/// recently modified first, ties by path, those `leave_out` names left out;
/// at most `max`, how many in all, and whether a merge is under way.
fn changed_files(
    repo: &gix::Repository,
    workdir: &Path,
    max: usize,
    cache: Option<&StatusCache>,
    leave_out: &dyn Fn(&str) -> bool,
) -> Result<(Vec<String>, usize, bool), GitError> {
    let mut index = own_index(repo)?;
    // The index against the working tree (unstaged), after a stat pass that
    // leaves gix only the entries it cannot call unchanged at once. gix's status
    // is asked directly (not through its iterator, which first looks for
    // submodules, reading `HEAD`'s commit and tree when `.gitmodules` is in
    // neither the working tree nor the index, and reads the index again) ...
    let folders = crate::preload::mark_unchanged(repo, &mut index).unwrap_or_default();
    let mut modified = Modified::default();
    repo.index_worktree_status(
        &index,
        None::<&gix::bstr::BStr>,
        &mut modified,
        gix::status::plumbing::index_as_worktree::traits::FastEq,
        MovedSubmodules {
            workdir,
            asked: &std::sync::atomic::AtomicUsize::new(0),
        },
        &mut gix::progress::Discard,
        &std::sync::atomic::AtomicBool::new(false),
        gix::status::index_worktree::Options::default(),
    )
    .map_err(|e| GitError::read("status", &e))?;
    // A merge stopped at a conflict: its files in conflict are the work, and
    // the files it brought in cleanly (and not changed since) are the merged
    // branch's (a held-out trial: 33 files of `main`'s crowded out the one in
    // conflict).
    let mut merge = crate::in_progress::merging(repo, &index, &modified.paths);
    let mut paths = modified.paths;
    // ... the untracked files ...
    paths.extend(crate::untracked::untracked_files(
        repo,
        workdir,
        &index,
        cache.map(|c| c.untracked.as_path()),
        &folders,
    )?);
    // ... and `HEAD`'s tree against the index (staged).
    let staged = staged_files(repo, &index, cache.map(|c| c.staged.as_path()))?;
    if let Some(m) = &mut merge {
        // A file the merged branch removed is staged as deleted: its work too.
        let deleted = staged
            .iter()
            .filter(|p| index.entry_by_path(p.as_str().into()).is_none());
        m.add_removed_by_them(repo, deleted);
    }
    paths.extend(staged);
    if let Some(m) = &merge {
        paths.extend(m.conflicted.iter().cloned());
    }
    let incoming = |p: &str| merge.as_ref().is_some_and(|m| m.incoming.contains(p));
    let mut dated: Vec<(Option<std::time::SystemTime>, String)> = paths
        .into_iter()
        .filter(|p| !p.is_empty() && !p.ends_with('/') && !leave_out(p) && !incoming(p))
        .map(|p| {
            let mtime = std::fs::symlink_metadata(workdir.join(&p))
                .and_then(|m| m.modified())
                .ok();
            (mtime, p)
        })
        .collect();
    // Files in conflict first; then newest first; files without a time
    // (deleted) last; ties by path.
    let conflicted = |p: &str| merge.as_ref().is_some_and(|m| m.conflicted.contains(p));
    dated.sort_by(|(ta, pa), (tb, pb)| {
        conflicted(pb)
            .cmp(&conflicted(pa))
            .then_with(|| tb.cmp(ta))
            .then_with(|| pa.cmp(pb))
    });
    let total = dated.len();
    Ok((
        dated.into_iter().take(max).map(|(_, p)| p).collect(),
        total,
        merge.is_some(),
    ))
}

/// The repository's index read for this status alone (an empty one when there
/// is no index file, known from the open's own error, as gix's `try_index`
/// knows it: no separate look first): the stat pass marks its entries in
/// place, where gix's shared snapshot would need a copy.
pub(crate) fn own_index(repo: &gix::Repository) -> Result<gix::index::File, GitError> {
    match repo.open_index() {
        Ok(index) => Ok(index),
        Err(e)
            if e.downcast_any_ref::<gix::index::file::init::OpenError>()
                .is_some_and(|o| o.source.kind() == std::io::ErrorKind::NotFound) =>
        {
            Ok(gix::index::File::from_state(
                gix::index::State::new(repo.object_hash()),
                repo.index_path(),
            ))
        }
        Err(e) => Err(GitError::read("the index", &e)),
    }
}

/// The paths of the tracked files gix's status finds changed in the working
/// tree, as its status iterator yields them: not those whose contents are
/// unchanged and only their stat data differs (`NeedsUpdate`, which the iterator
/// keeps as a change to the index, not an item).
#[derive(Default)]
struct Modified {
    paths: std::collections::BTreeSet<String>,
}

impl<'index> gix::status::plumbing::index_as_worktree_with_renames::VisitEntry<'index>
    for Modified
{
    type ContentChange = ();
    type SubmoduleStatus = ();

    fn visit_entry(
        &mut self,
        entry: gix::status::plumbing::index_as_worktree_with_renames::Entry<'index, (), ()>,
    ) {
        use gix::status::plumbing::index_as_worktree::EntryStatus;
        use gix::status::plumbing::index_as_worktree_with_renames::Entry;
        let path = match entry {
            Entry::Modification {
                status: EntryStatus::NeedsUpdate(_),
                ..
            } => return,
            Entry::Modification { rela_path, .. } => rela_path.to_string(),
            Entry::DirectoryContents { entry, .. } => entry.rela_path.to_string(),
            Entry::Rewrite { dirwalk_entry, .. } => dirwalk_entry.rela_path.to_string(),
        };
        self.paths.insert(path);
    }
}

/// Submodules as `git status --ignore-submodules=dirty` sees them: one whose
/// checked-out commit is not the one the index records for it ("new commits")
/// is changed; what changed inside it is its own repository's (read when cairn
/// runs there). A submodule that is not checked out (no repository in its
/// folder) or whose `HEAD` cannot be read is not changed, as for git. Each
/// submodule the status meets is opened (isolated: its own configuration only)
/// to read its `HEAD`: no `.gitmodules` (so `submodule.<name>.ignore` is not
/// honoured), no status inside it. An open costs about 0.2 ms: the first
/// [`MAX_SUBMODULES_ASKED`] submodules (in path order) are asked, the others
/// taken as unchanged, so that a repository of hundreds keeps a session start
/// fast.
#[derive(Clone, Copy)]
struct MovedSubmodules<'a> {
    /// The working tree's root, absolute.
    workdir: &'a Path,
    /// How many submodules were asked about so far.
    asked: &'a std::sync::atomic::AtomicUsize,
}

/// At most this many submodules are opened per status (see [`MovedSubmodules`]).
const MAX_SUBMODULES_ASKED: usize = 64;

impl gix::status::plumbing::index_as_worktree::traits::SubmoduleStatus for MovedSubmodules<'_> {
    type Output = ();

    fn status(
        &mut self,
        entry: &gix::index::Entry,
        rela_path: &gix::bstr::BStr,
    ) -> gix::Result<Option<()>> {
        if self
            .asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            >= MAX_SUBMODULES_ASKED
        {
            return Ok(None);
        }
        let Ok(rela) = gix::path::from_bstr(rela_path) else {
            return Ok(None);
        };
        let Ok(sub) = gix::open_opts(self.workdir.join(rela), gix::open::Options::isolated())
        else {
            return Ok(None);
        };
        let moved = sub.head_id().is_ok_and(|head| head.detach() != entry.id);
        Ok(moved.then_some(()))
    }
}

/// The files staged: those whose index entry differs from `HEAD`'s tree (all of
/// the index on an unborn branch). With `cache`, read from it when it was written
/// for the same `HEAD` commit and index (the index's checksum changes
/// with every write of it), else computed and written there (a cache that cannot
/// be written is computed again next time).
pub(crate) fn staged_files(
    repo: &gix::Repository,
    index: &gix::index::File,
    cache: Option<&Path>,
) -> Result<Vec<String>, GitError> {
    let (key, tree) = match (index.checksum(), cache) {
        (Some(sum), Some(_)) => {
            let (names, tree) = head_tree_named(repo)?;
            (names.map(|n| format!("{STAGED_MAGIC} {n} {sum}")), tree)
        }
        _ => (None, Tree::Is(tree_of_head(repo)?)),
    };
    if let (Some(file), Some(key)) = (cache, &key)
        && let Some(staged) = read_kept(file, key)
    {
        return Ok(staged);
    }
    let staged = staged_against(repo, index, tree)?;
    if let (Some(file), Some(key)) = (cache, key) {
        write_kept(file, "git-staged", key, &staged);
    }
    Ok(staged)
}

/// `HEAD`'s tree as a cache key names it, and the tree itself: by `HEAD`'s
/// commit, which names its tree for good (the commit is read only when the
/// files are computed), or `unborn`. `HEAD` is read once, so the tree compared
/// is the one the key names whatever moves `HEAD` meanwhile. No key with
/// replacement objects, which can rewrite the commit or any tree below it.
fn head_tree_named(repo: &gix::Repository) -> Result<(Option<String>, Tree), GitError> {
    let head = repo.head().map_err(|e| GitError::read("HEAD", &e))?;
    Ok(match head.id() {
        _ if crate::branch::has_replacements(repo) => (None, Tree::Is(tree_of_head(repo)?)),
        Some(commit) => (Some(format!("commit {commit}")), Tree::Of(commit.detach())),
        None if head.is_unborn() => (
            Some("unborn".to_owned()),
            Tree::Is(gix::ObjectId::empty_tree(repo.object_hash())),
        ),
        None => (None, Tree::Is(tree_of_head(repo)?)),
    })
}

/// `HEAD`'s tree (the empty tree on an unborn branch).
fn tree_of_head(repo: &gix::Repository) -> Result<gix::ObjectId, GitError> {
    repo.head_tree_id_or_empty()
        .map(gix::Id::detach)
        .map_err(|e| GitError::read("HEAD", &e))
}

/// The files whose index entry differs from `tree`.
fn staged_against(
    repo: &gix::Repository,
    index: &gix::index::File,
    tree: Tree,
) -> Result<Vec<String>, GitError> {
    let tree = match tree {
        Tree::Is(tree) => tree,
        Tree::Of(commit) => repo
            .find_object(commit)
            .and_then(gix::Object::peel_to_tree)
            .map(|t| t.id)
            .map_err(|e| GitError::read("HEAD's tree", &e))?,
    };
    let (unsparse, folders) = without_sparse_folders(repo, index);
    let mut staged = Vec::new();
    repo.tree_index_status(
        &tree,
        unsparse.as_ref().unwrap_or(index),
        None,
        gix::status::tree_index::TrackRenames::Disabled,
        |change, _, _| {
            let path = change.location().to_string();
            // The files of a folder outside a sparse index's cone are its folder
            // entry's (compared below), not missing ones.
            if !folders.iter().any(|(f, _)| path.starts_with(f.as_str())) {
                staged.push(path);
            }
            Ok(std::ops::ControlFlow::Continue(()))
        },
    )
    .map_err(|e| GitError::read("the staged files", &e))?;
    if !folders.is_empty() {
        let head = repo
            .find_tree(tree)
            .map_err(|e| GitError::read("HEAD's tree", &e))?;
        for (folder, id) in &folders {
            let name = folder.trim_end_matches('/');
            let in_head = head
                .lookup_entry_by_path(name)
                .map_err(|e| GitError::read("HEAD's tree", &e))?
                .map(|e| e.object_id());
            if in_head != Some(*id) {
                staged.push(name.to_owned());
            }
        }
        staged.sort();
    }
    Ok(staged)
}

/// The tree the staged files are compared with: known, or that of a commit.
enum Tree {
    Is(gix::ObjectId),
    Of(gix::ObjectId),
}

/// A sparse index (`index.sparse`: one entry for each folder outside a cone-mode
/// sparse checkout, with that folder's tree) as an index of files without those
/// folder entries, which gix can compare with a tree; and the folder entries, by
/// path (ending in `/`) and tree. `None` and nothing for an index of files.
fn without_sparse_folders(
    repo: &gix::Repository,
    index: &gix::index::File,
) -> (Option<gix::index::State>, Vec<(String, gix::ObjectId)>) {
    if !index.is_sparse() {
        return (None, Vec::new());
    }
    let mut files = gix::index::State::new(repo.object_hash());
    let mut folders = Vec::new();
    for e in index.entries() {
        let path = e.path(index);
        if e.mode.is_sparse() {
            let mut folder = path.to_string();
            if !folder.ends_with('/') {
                folder.push('/');
            }
            folders.push((folder, e.id));
        } else {
            files.dangerously_push_entry(e.stat, e.id, e.flags, e.mode, path);
        }
    }
    files.sort_entries();
    (Some(files), folders)
}

/// Writes a status cache file atomically, private (`0600`), best effort and not
/// synced (a wake-up writes it): a lost or failed write is computed again.
/// `text` (whole lines) is followed by a last line `end <bytes of text>`, which
/// [`read_cache_file`] requires: a file cut short (a crash after the rename,
/// before its data reached the disk) is not trusted.
pub(crate) fn write_cache_file(file: &Path, temp_prefix: &str, text: &str) {
    let whole = format!("{text}end {}\n", text.len());
    let _ =
        cairn_atomic_write::StagedFile::beside_unsynced(file, temp_prefix, 0o600, whole.as_bytes())
            .and_then(cairn_atomic_write::StagedFile::replace);
}

/// The text a cache file was written with ([`write_cache_file`]); `None` when
/// it cannot be read or does not end with its own length.
pub(crate) fn read_cache_file(file: &Path) -> Option<String> {
    let mut text = std::fs::read_to_string(file).ok()?;
    let body = text.strip_suffix('\n')?;
    let start = body.rfind('\n').map_or(0, |at| at + 1);
    let len: usize = body[start..].strip_prefix("end ")?.parse().ok()?;
    (len == start).then(|| {
        text.truncate(start);
        text
    })
}

/// The lines a cache file keeps under `key` ([`write_kept`]); `None` when it
/// keeps another key, or is damaged or cut short.
pub(crate) fn read_kept(file: &Path, key: &str) -> Option<Vec<String>> {
    let text = read_cache_file(file)?;
    let rest = text.strip_prefix(key)?.strip_prefix('\n')?;
    Some(rest.lines().map(str::to_owned).collect())
}

/// Keeps `lines` under `key` in a cache file, one a line: not when a line
/// could not be read back as itself (empty, or holding a line break or a
/// carriage return, which reading lines would split or drop).
pub(crate) fn write_kept(file: &Path, temp_prefix: &str, mut key: String, lines: &[String]) {
    if lines
        .iter()
        .any(|l| l.is_empty() || l.contains(['\n', '\r']))
    {
        return;
    }
    for l in lines {
        key.push('\n');
        key.push_str(l);
    }
    key.push('\n');
    write_cache_file(file, temp_prefix, &key);
}

/// First word of a staged-files cache file (its format's version).
const STAGED_MAGIC: &str = "cairn-git-staged-2";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use cairn_synth::git::Repo;

    /// The staged files are computed against the tree their cache key names,
    /// even when `HEAD` moves between the key and the computing (a reset or a
    /// commit by another tool while a wake-up runs): the answer kept under
    /// `commit A` is `A`'s, not that of wherever `HEAD` went.
    #[test]
    fn the_tree_compared_is_the_one_the_key_names() {
        let r = Repo::new();
        r.commit("2026-01-10T09:00:00Z", "A", &[("a.txt", "a\n")]);
        let a = r.git(&["rev-parse", "HEAD"]).trim().to_owned();
        r.commit("2026-01-11T09:00:00Z", "B", &[("c.txt", "c\n")]);
        let b = r.git(&["rev-parse", "HEAD"]).trim().to_owned();
        // The index holds B's files: against A, `c.txt` is staged.
        r.git(&["update-ref", "refs/heads/main", &a]);
        let repo = gix::open(r.path()).unwrap();
        let index = repo.index_or_empty().unwrap();
        let (names, tree) = head_tree_named(&repo).unwrap();
        assert_eq!(names, Some(format!("commit {a}")));
        // `HEAD` moves on to B before the files are computed.
        r.git(&["update-ref", "refs/heads/main", &b]);
        assert_eq!(staged_against(&repo, &index, tree).unwrap(), ["c.txt"]);
        let (names, tree) = head_tree_named(&repo).unwrap();
        assert_eq!(names, Some(format!("commit {b}")));
        assert!(staged_against(&repo, &index, tree).unwrap().is_empty());
    }

    /// A submodule whose checked-out commit moved is changed, until
    /// [`MAX_SUBMODULES_ASKED`] submodules have been asked about: the others are
    /// taken as unchanged.
    #[test]
    fn moved_submodules_are_asked_up_to_the_cap() {
        use gix::status::plumbing::index_as_worktree::traits::SubmoduleStatus;
        let inner = Repo::new();
        inner.commit("2026-01-01T00:00:00Z", "Inner", &[("a.rs", "a\n")]);
        let outer = Repo::new();
        outer.commit("2026-01-01T00:00:00Z", "Outer", &[("x.txt", "x\n")]);
        let sub = outer.add_submodule(&inner, "sub");
        outer.git(&["commit", "-q", "-m", "Add sub"]);
        std::fs::write(sub.join("b.rs"), "b\n").unwrap();
        cairn_synth::git::git_in(&sub, &["add", "-A"], "2026-02-01T09:00:00Z");
        cairn_synth::git::git_in(&sub, &["commit", "-q", "-m", "B"], "2026-02-01T09:00:00Z");
        let repo = gix::open(outer.path()).unwrap();
        let index = repo.index_or_empty().unwrap();
        let entry = index
            .entries()
            .iter()
            .find(|e| e.mode.is_submodule())
            .unwrap();
        let workdir = outer.path();
        let ask = |asked: usize| {
            MovedSubmodules {
                workdir: &workdir,
                asked: &std::sync::atomic::AtomicUsize::new(asked),
            }
            .status(entry, "sub".into())
            .unwrap()
        };
        assert_eq!(ask(0), Some(()));
        assert_eq!(ask(MAX_SUBMODULES_ASKED - 1), Some(()));
        assert_eq!(ask(MAX_SUBMODULES_ASKED), None);
    }
}
