//! Notes whose code moved on: a project note's `related_files` (files or folders)
//! that commits touched after the note's date (`updated`, else `created`, by UTC
//! day; undated notes are skipped). Such a note keeps its place but takes a mild
//! multiplier (`[git] code_changed_deboost`), says so in its reasons and carries a
//! `code_changed` field in the packet. The history comes from `cairn-git`'s cache
//! in the vault's cache folder: brought up to date incrementally by a wake-up, read
//! whole (capped) only by `cairn index`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use cairn_assemble::{CodeChange, Origin, Packet};
use cairn_config::Config;
use cairn_git::History;
use cairn_note::Note;
use cairn_score::{Factor, Op, Scored};
use chrono::NaiveDate;

use crate::Engine;

/// The notes whose related files changed, by path.
pub(crate) type CodeChanged = HashMap<String, Vec<CodeChange>>;

/// The repository around `cwd` and the project it belongs to, when routing
/// gives one (by repo path, worktree or remote) and the repository belongs to
/// it. A linked worktree is its own: its history follows its `HEAD`'s line
/// (started from its main checkout's), so a worktree whose `HEAD` moved far
/// from it is read again there (see [`Engine::index_git_history`]).
pub(crate) fn cwd_repository(
    config: &Config,
    cwd: &Path,
) -> Option<(String, cairn_git::Repository)> {
    let route = cairn_route::route(config, &cairn_route::RouteInput::at(cwd)).ok()?;
    let project = config.project(route.project_id.as_deref()?)?;
    let repo = cairn_git::open(&route.cwd).ok()?;
    crate::git_task::belongs(project, &repo, route.method)?;
    Some((project.id.clone(), repo))
}

/// `project`'s repo paths that hold a repository (a `.git` folder or file):
/// those whose history `cairn index` keeps.
pub(crate) fn repo_roots(project: &cairn_config::Project) -> impl Iterator<Item = &PathBuf> {
    project
        .repo_paths
        .iter()
        .filter(|p| p.join(".git").exists())
}

/// The cache file of the history of the repository at `workdir`.
pub(crate) fn history_file(cache_dir: &Path, workdir: &Path) -> PathBuf {
    let key = cairn_note::ContentHash::of(workdir.as_os_str().as_encoded_bytes()).short_hex();
    cache_dir.join(format!("git-history-{key}.txt"))
}

/// Brings `h`, the history cached in `file`, up to `repo`'s `HEAD` as
/// [`History::update_beside`] does, with the line set aside kept beside it
/// (`git-history-….aside`, not synced: a lost one is read again by a cold
/// pass): switching between two branches far apart (`main` and an old release
/// branch) swaps the two rather than emptying the history until the next
/// `cairn index`. Writing `h` is the caller's.
pub(crate) fn update_history(
    h: &mut History,
    file: &Path,
    repo: &cairn_git::Repository,
    limits: &cairn_git::HistoryLimits,
    cold: bool,
    under: &str,
) -> Result<cairn_git::HistoryUpdate, cairn_git::GitError> {
    let aside_file = aside_file(file);
    let (update, set_aside) =
        h.update_beside(repo, limits, cold, under, || History::load(&aside_file))?;
    if let Some(old) = set_aside {
        // A cache that cannot be written is no failure: the line is read again.
        let _ = old.save_unsynced(&aside_file);
    }
    Ok(update)
}

/// The file the line set aside beside the history cached in `file` is kept in.
pub(crate) fn aside_file(file: &Path) -> PathBuf {
    file.with_extension("aside")
}

/// The history cached in `cache_dir` for the repository at `workdir`, and its
/// file; when none is (a linked worktree not read yet), the history of the main
/// checkout `main` names, which a worktree starts from (one object store) and
/// keeps its own from then on. `main` is asked only then.
pub(crate) fn cached_history(
    cache_dir: &Path,
    workdir: &Path,
    main: impl FnOnce() -> Option<PathBuf>,
) -> (History, PathBuf) {
    let file = history_file(cache_dir, workdir);
    let h = History::load(&file);
    if h.head().is_none()
        && let Some(main) = main()
    {
        return (History::load(&history_file(cache_dir, &main)), file);
    }
    (h, file)
}

/// A repository whose history a wake-up found not read for its `HEAD` (so
/// that no note could be marked "code changed since"), and where `cairn index`
/// keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadHistory {
    /// The working tree `cairn index` reads it in (a linked worktree's own).
    pub repo: PathBuf,
    /// The index folder the history is kept in (the one the wake-up used).
    pub index_dir: PathBuf,
    /// The vault's own repository, whose history dates the notes that say no
    /// date of their own (the engine's `note_dates`), rather than a project's.
    pub dates_notes: bool,
}

/// How long a background read that was asked for is waited for before it is
/// asked again (it may have failed, or still be under way).
const READ_ASKED_FOR: std::time::Duration = std::time::Duration::from_secs(600);

impl UnreadHistory {
    /// What reading it gives, in words ("notes whose code changed since are
    /// marked").
    #[must_use]
    pub fn gives(&self) -> &'static str {
        if self.dates_notes {
            "the notes that say no date of their own are dated by their last commit"
        } else {
            "notes whose code changed since are marked"
        }
    }

    /// Whether a background `cairn index` should be started for it now: no
    /// other was asked for in the last ten minutes (a stamp file beside the
    /// history's, written here). `false` when the stamp cannot be written, so
    /// that a read that can never be kept is not started at every session.
    #[must_use]
    pub fn claim_background_read(&self, now: std::time::SystemTime) -> bool {
        let stamp = history_file(&self.index_dir, &self.repo).with_extension("asked");
        let recent = std::fs::metadata(&stamp)
            .and_then(|m| m.modified())
            .is_ok_and(|t| {
                now.duration_since(t)
                    .map_or(true, |age| age < READ_ASKED_FOR)
            });
        !recent && touch_private(&stamp).is_ok()
    }
}

/// Creates `path` empty, or empties it and moves its time on, private to the
/// user (0600 on Unix) as every cache file is.
fn touch_private(path: &Path) -> std::io::Result<()> {
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        o.mode(0o600);
        let file = o.open(path)?;
        // A stamp an older version made with the default mode.
        if file.metadata()?.permissions().mode() & 0o777 != 0o600 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
        Ok(())
    }
    #[cfg(not(unix))]
    o.open(path).map(drop)
}

/// The cache files of the staged and the untracked files of the repository at
/// `workdir` (see `cairn_git::Repository::working_tree_with`).
pub(crate) fn status_cache(cache_dir: &Path, workdir: &Path) -> cairn_git::StatusCache {
    let key = cairn_note::ContentHash::of(workdir.as_os_str().as_encoded_bytes()).short_hex();
    cairn_git::StatusCache::in_dir(cache_dir, &key)
}

/// The cache folder an open with `opts` uses (as `persistent.rs` names it), known
/// before the open; `None` for an in-memory index.
pub(crate) fn cache_dir_for(config: &Config, opts: &crate::OpenOptions) -> Option<PathBuf> {
    let crate::IndexMode::Persistent(p) = &opts.index else {
        return None;
    };
    p.dir
        .clone()
        .or_else(|| config.index_dir.clone())
        .or_else(|| {
            let vault = config
                .vault
                .root
                .canonicalize()
                .unwrap_or_else(|_| config.vault.root.clone());
            cairn_cache::default_dir(&vault, |k| std::env::var(k).ok())
        })
}

/// The history limits of the configuration.
pub(crate) fn limits(config: &Config) -> cairn_git::HistoryLimits {
    cairn_git::HistoryLimits {
        max_commits: config.git.history_commits,
        max_days: config.git.history_days,
        ..cairn_git::HistoryLimits::default()
    }
}

/// Brings the history of `repo` up to date in `dir`, the cold pass allowed; what
/// happened, in words. A linked worktree without a history of its own starts
/// from its main checkout's, as a wake-up does (only what its line has that
/// the main checkout's lacks is walked, unless it is too far from it).
fn read_history(
    repo: &cairn_git::Repository,
    dir: &Path,
    limits: &cairn_git::HistoryLimits,
    fresh: bool,
) -> String {
    let (mut h, file) = if fresh {
        let file = history_file(dir, repo.workdir());
        // Read again from scratch: not the line set aside either.
        let _ = std::fs::remove_file(aside_file(&file));
        (History::default(), file)
    } else {
        cached_history(dir, repo.workdir(), || {
            repo.main_workdir().map(Path::to_path_buf)
        })
    };
    match update_history(&mut h, &file, repo, limits, true, "") {
        Ok(cairn_git::HistoryUpdate::Unchanged) => {
            format!("history up to date ({})", commits(h.len()))
        }
        Ok(u) => match h.save(&file) {
            Ok(()) => match u {
                cairn_git::HistoryUpdate::Rebuilt(n) => format!("history read: {}", commits(n)),
                _ => format!("history updated ({})", commits(h.len())),
            },
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    }
}

/// `n commits`, or `1 commit`.
pub(crate) fn commits(n: usize) -> String {
    crate::git_task::plural(n, "commit")
}

/// Days since 1970-01-01 of `d`.
fn epoch_day(d: NaiveDate) -> i64 {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
    (d - epoch).num_days()
}

/// For each folder holding one of `files` (repository-relative), the share of
/// the repository's files under it, by `history` (see
/// [`cairn_score::ScoreContext::folder_shares`]); none without a history.
pub(crate) fn folder_shares(
    files: &[String],
    history: Option<&History>,
) -> std::collections::BTreeMap<String, f64> {
    let mut out = std::collections::BTreeMap::new();
    let Some(h) = history.filter(|h| !h.is_empty()) else {
        return out;
    };
    for f in files {
        let f = f.trim_start_matches("./").trim_matches('/');
        for (i, _) in f.match_indices('/') {
            let folder = &f[..i];
            if !out.contains_key(folder)
                && let Some(share) = h.share_under(folder)
            {
                out.insert(folder.to_owned(), share);
            }
        }
    }
    out
}

/// Whether `path` is a folder holding so much of the repository
/// ([`cairn_score::BROAD_FOLDER`] of the files its history touched) that its
/// commits say nothing of one note: `crates/` in a workspace whose code is all
/// there changes in most commits. Such a folder gives no "code changed" count.
fn too_broad(history: &History, path: &str) -> bool {
    history
        .share_under(path)
        .is_some_and(|s| s >= cairn_score::BROAD_FOLDER)
}

/// What changed since its date, per project note of `notes` whose related files
/// commits touched after it (by path). Independent of the notes' scores: a
/// wake-up counts while its task search runs.
pub(crate) fn changes(
    notes: &[&Note],
    origin: &rustc_hash::FxHashMap<&str, Origin>,
    history: &History,
) -> CodeChanged {
    let mut out = CodeChanged::new();
    for n in notes {
        if n.related_files.is_empty() || origin.get(n.path.as_str()) != Some(&Origin::Project) {
            continue;
        }
        let Some(since) = n.updated.or(n.created) else {
            continue;
        };
        let mut counts = history.touches(&n.related_files, epoch_day(since));
        counts.retain(|c| !too_broad(history, &c.path));
        if counts.is_empty() {
            continue;
        }
        let changes = counts
            .into_iter()
            .map(|c| CodeChange {
                path: c.path,
                commits: c.commits,
                at_least: c.at_least,
                since: since.to_string(),
            })
            .collect();
        out.insert(n.path.clone(), changes);
    }
    out
}

/// Applies the deboost to every note in `scored` that `changed` names, says why
/// in its factors, and re-sorts.
pub(crate) fn apply(scored: &mut [Scored], changed: &CodeChanged, deboost: f64) {
    if changed.is_empty() {
        return;
    }
    for s in scored.iter_mut() {
        let Some(changes) = changed.get(&s.path) else {
            continue;
        };
        let detail = changes
            .iter()
            .map(CodeChange::reason)
            .collect::<Vec<_>>()
            .join("; ");
        if deboost < 1.0 {
            s.score *= deboost;
        }
        s.factors.push(Factor {
            name: "code_changed",
            op: Op::Multiply,
            value: deboost,
            detail: cairn_score::Detail::Text(detail),
        });
    }
    scored.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.path.cmp(&b.path))
    });
}

/// Gives the packet's items their `code_changed` field, and a reason where their
/// reasons do not say it yet (hot-layer items).
pub(crate) fn annotate(packet: &mut Packet, changed: &CodeChanged) {
    if changed.is_empty() {
        return;
    }
    for (_, items) in packet.sections_mut() {
        // A withheld (confidential) item shows its title alone: its related
        // files and its date are its content too.
        for it in items.iter_mut().filter(|it| !it.withheld) {
            let Some(c) = changed.get(&it.path) else {
                continue;
            };
            it.code_changed.clone_from(c);
            for c in c {
                let reason = c.reason();
                if !it.reasons.iter().any(|r| r.contains(&reason)) {
                    it.reasons.push(reason);
                }
            }
        }
    }
}

/// What `cairn index` did to one repository's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryReport {
    /// The project; empty for the repository the vault is kept in.
    pub project: String,
    /// The repository root.
    pub repo: PathBuf,
    /// What the update did, in words.
    pub outcome: String,
}

impl Engine {
    /// `cairn index`: brings the git history of every project's repository (each
    /// repo path that is a repository root) up to date in the cache folder,
    /// reading it whole (within `[git] history_commits` and `history_days`) the
    /// first time; and, when `cwd` is in a repository that belongs to the project
    /// it routes to without being one of its repo paths (a repository inside a
    /// repo path that is a folder of repositories, a clone routed by its remote),
    /// that repository's too. With `fresh` (`cairn index --rebuild`) each is
    /// read again whole, whatever is cached (limits raised since are then
    /// used). A missing or broken repository is reported, never an error.
    pub fn index_git_history(&self, cwd: Option<&Path>, fresh: bool) -> Vec<HistoryReport> {
        let Some(dir) = self.index_info().cache_dir.clone() else {
            return Vec::new();
        };
        let limits = limits(&self.config);
        let mut out = Vec::new();
        // The vault's own repository, whose history dates its undated notes
        // (`crate::note_dates`).
        if let Some((repo, outcome)) =
            crate::note_dates::index_vault_history(&self.config, &dir, fresh)
        {
            out.push(HistoryReport {
                project: String::new(),
                repo,
                outcome: cairn_policy::redact(&outcome).text.into_owned(),
            });
        }
        if self.config.git.code_changed_deboost >= 1.0 {
            return out;
        }
        for p in &self.config.projects {
            for path in repo_roots(p) {
                let outcome = match cairn_git::open(path) {
                    Ok(repo) if repo.workdir() == path => read_history(&repo, &dir, &limits, fresh),
                    Ok(_) => continue,
                    Err(e) => e.to_string(),
                };
                out.push(HistoryReport {
                    project: p.id.clone(),
                    repo: path.clone(),
                    outcome: cairn_policy::redact(&outcome).text.into_owned(),
                });
            }
        }
        if let Some((project, repo)) = cwd.and_then(|c| cwd_repository(&self.config, c))
            && !out
                .iter()
                .any(|r| !r.project.is_empty() && r.repo == repo.workdir())
        {
            let outcome = read_history(&repo, &dir, &limits, fresh);
            out.push(HistoryReport {
                project,
                repo: repo.workdir().to_path_buf(),
                outcome: cairn_policy::redact(&outcome).text.into_owned(),
            });
        }
        out
    }

    /// For `cairn lint`: every project note (under a project's note roots) whose
    /// related files changed after its date, by the history of each project
    /// repository that `cairn index` (or a wake-up) has cached, brought up to
    /// date when only a few commits are new. When `cwd` is in a repository that
    /// belongs to a project (a linked worktree, a clone routed by its remote, a
    /// repository in a folder of repositories), that repository's history
    /// counts for the project, in place of its own checkout's among the repo
    /// paths (a worktree's `HEAD` is not its main checkout's). Sorted by note
    /// path. Also the project repositories whose history is not read yet (no
    /// cache: `cairn index` reads it), as (project, repo path).
    pub fn notes_with_changed_code(&self, cwd: Option<&Path>) -> ChangedCode {
        let mut out = ChangedCode::default();
        let Some(dir) = self.index_info().cache_dir.clone() else {
            return out;
        };
        let limits = limits(&self.config);
        let here = cwd.and_then(|c| cwd_repository(&self.config, c));
        let ChangedCode { notes, unread } = &mut out;
        for p in &self.config.projects {
            let here = here.as_ref().filter(|(id, _)| *id == p.id).map(|(_, r)| r);
            // (the path to name it by, the repository)
            let roots: Vec<(PathBuf, cairn_git::Repository)> = repo_roots(p)
                .filter_map(|path| {
                    let repo = cairn_git::open(path).ok()?;
                    (repo.workdir() == path).then(|| (path.clone(), repo))
                })
                // The repository here stands for the root that is its checkout
                // (a worktree's main checkout) or holds it (a repository nested
                // in a repo path that is itself one): a wake-up there reads
                // that repository alone.
                .filter(|(_, repo)| {
                    here.is_none_or(|h| {
                        !h.workdir().starts_with(repo.workdir())
                            && h.main_workdir() != Some(repo.workdir())
                    })
                })
                .collect();
            let repos = roots
                .iter()
                .map(|(path, repo)| (path.as_path(), repo))
                .chain(here.map(|h| (h.workdir(), h)));
            let histories: Vec<History> = repos
                .filter_map(|(path, repo)| {
                    let (mut h, file) = cached_history(&dir, repo.workdir(), || {
                        repo.main_workdir().map(Path::to_path_buf)
                    });
                    // Not brought to `HEAD`: its commits may not be `HEAD`'s.
                    if update_history(&mut h, &file, repo, &limits, false, "")
                        .ok()?
                        .changed()
                    {
                        let _ = h.save(&file);
                    }
                    // The branch's own commits are the work at hand, as a
                    // wake-up on the branch reads them.
                    h.leave_out_commits(&repo.own_commit_ids(
                        self.config.git.commits,
                        Some(&status_cache(&dir, repo.workdir())),
                    ));
                    // With the deboost off, `cairn index` never reads the
                    // history: nothing to ask for.
                    if h.is_empty()
                        && h.head().is_none()
                        && self.config.git.code_changed_deboost < 1.0
                    {
                        unread.push((p.id.clone(), path.to_path_buf()));
                    }
                    (!h.is_empty()).then_some(h)
                })
                .collect();
            if histories.is_empty() {
                continue;
            }
            for n in self.under_roots(&p.note_roots) {
                if n.related_files.is_empty() || notes.iter().any(|(q, _)| *q == n.path) {
                    continue;
                }
                let Some(since) = n.updated.or(n.created) else {
                    continue;
                };
                let changes: Vec<CodeChange> = histories
                    .iter()
                    .flat_map(|h| {
                        let mut counts = h.touches(&n.related_files, epoch_day(since));
                        counts.retain(|c| !too_broad(h, &c.path));
                        counts
                    })
                    .map(|c| CodeChange {
                        path: c.path,
                        commits: c.commits,
                        at_least: c.at_least,
                        since: since.to_string(),
                    })
                    .collect();
                // Several checkouts of one repository say the same: once.
                let mut once: Vec<CodeChange> = Vec::with_capacity(changes.len());
                for c in changes {
                    if !once.contains(&c) {
                        once.push(c);
                    }
                }
                if !once.is_empty() {
                    notes.push((n.path.clone(), once));
                }
            }
        }
        notes.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

/// What [`Engine::notes_with_changed_code`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangedCode {
    /// Each note whose related files changed since its date, by path.
    pub notes: Vec<(String, Vec<CodeChange>)>,
    /// Project repositories whose history no command has read yet (project id,
    /// repo path): their notes cannot be checked until `cairn index` runs.
    pub unread: Vec<(String, PathBuf)>,
}

#[cfg(test)]
mod tests {
    use super::UnreadHistory;
    use std::time::{Duration, SystemTime};

    /// A background read is asked for once in ten minutes per repository, and
    /// never where its stamp cannot be written (review: a read that could never
    /// be kept was started at every session).
    #[test]
    fn a_background_read_is_claimed_once_in_ten_minutes() {
        let dir = tempfile::tempdir().unwrap();
        let unread = |repo: &str| UnreadHistory {
            repo: repo.into(),
            index_dir: dir.path().to_path_buf(),
            dates_notes: false,
        };
        let now = SystemTime::now();
        assert!(unread("/r/a").claim_background_read(now));
        assert!(!unread("/r/a").claim_background_read(now + Duration::from_secs(60)));
        assert!(unread("/r/b").claim_background_read(now));
        assert!(unread("/r/a").claim_background_read(now + Duration::from_secs(601)));
        let nowhere = UnreadHistory {
            repo: "/r/a".into(),
            index_dir: dir.path().join("missing/folder"),
            dates_notes: false,
        };
        assert!(!nowhere.claim_background_read(now));
    }
}
