//! The implicit task: when a wake-up has no task, the working tree of its
//! directory gives one (the branch's words, the changed files, the subjects of the
//! branch's own commits), read by `cairn-git` on a thread of its own, beside the
//! index open, and time-boxed.
//!
//! Only a repository that belongs to the routed project is read (its root is one
//! of the project's repo paths or inside one, or routing matched it by remote),
//! or any repository with `--derive`. What the working tree read gives as a
//! task is `derived_task.rs`'s.

use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use cairn_config::{Config, Derive, Project};
use cairn_git::History;
use cairn_route::{RouteInput, RouteMethod};

use crate::derived_task::{DerivedTask, TaskPart, task_of};
use crate::explain::FilesFrom;
use crate::{Engine, EngineError, Explanation, WakeupOutput, WakeupRequest};

/// What git said about a wake-up's task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitTask {
    /// Nothing derived, and nothing to tell the packet (a task was given,
    /// derivation is off, no project routed, outside git, nothing changed):
    /// why, for `explain`.
    Nothing(String),
    /// A task derived from the working tree.
    Derived(DerivedTask),
    /// Git did not answer within this many milliseconds: the packet goes without.
    TimedOut(u64),
    /// The repository of the routed project could not be read (the reason is for
    /// `explain`; the packet only says that nothing was derived).
    Failed(String),
}

impl GitTask {
    /// The packet's `query.derived`: what was derived, or why nothing was when
    /// the reason matters to the reader (a timeout, an unreadable repository).
    #[must_use]
    pub fn echo(&self) -> Option<String> {
        match self {
            GitTask::Nothing(_) => None,
            GitTask::Derived(d) => Some(d.summary.clone()),
            GitTask::TimedOut(ms) => Some(format!(
                "no task derived: git did not answer within {ms} ms"
            )),
            GitTask::Failed(_) => {
                Some("no task derived: the git repository could not be read".to_owned())
            }
        }
    }

    /// The lines `explain` shows.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        match self {
            GitTask::Nothing(why) => vec![format!("no task derived from git: {why}")],
            GitTask::Derived(d) => d.lines.clone(),
            GitTask::TimedOut(ms) => vec![format!(
                "no task derived: git did not answer within {ms} ms (the packet went without it)"
            )],
            GitTask::Failed(why) => vec![format!("no task derived: {why}")],
        }
    }

    /// `req` with the derived task and files (files only when it had none), and
    /// the task's parts.
    fn request(&self, req: &WakeupRequest) -> Option<(WakeupRequest, &[TaskPart])> {
        let GitTask::Derived(d) = self else {
            return None;
        };
        let mut r = req.clone();
        r.task.clone_from(&d.task);
        if r.files.is_empty() {
            r.files.clone_from(&d.files);
        }
        Some((r, &d.parts))
    }
}

/// What a packet's `query` says beyond its request's own task and files.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Echo<'a> {
    /// Where the task came from (`query.derived`).
    pub(crate) derived: Option<&'a str>,
    /// A task and files derived from git that the packet was made without (no
    /// note matched them), the files as routing names them: its query says
    /// them all the same.
    pub(crate) unused: Option<(&'a str, &'a [String])>,
    /// The task as asked when it only asked to resume the last session and
    /// the packet was made without one (see [`crate::resume::resumption`]): its query says
    /// it, unused.
    pub(crate) resumed: Option<&'a str>,
}

/// What a packet says when the task derived from git found no note (after the
/// derivation's own summary).
pub(crate) const NOTHING_MATCHED: &str =
    "no note matched it, so the packet is the one a session without a task gets";

/// Whether `packet`, made for a derived task, found nothing for it: no note
/// shown but the hot layer, none left out for the budget, none listed as no
/// longer current.
fn found_nothing(packet: &cairn_assemble::Packet) -> bool {
    packet.budget.left_out_count == 0
        && packet.provenance.excluded.is_empty()
        && packet
            .sections()
            .iter()
            .all(|(_, items)| items.iter().all(|i| i.layer == "hot"))
}

/// What the git thread read: the task, and the history of the routed project's
/// repository (for the notes whose code changed).
#[derive(Debug, Clone)]
pub(crate) struct GitRead {
    pub(crate) task: GitTask,
    pub(crate) history: HistoryRead,
}

/// The routed project's repository history, as the git thread found it.
#[derive(Debug, Clone, Default)]
pub(crate) struct HistoryRead {
    /// The cached history, brought up to `HEAD` (`None`: none to use).
    pub(crate) cached: Option<Arc<History>>,
    /// When the history needs the first, whole pass (none cached yet, or
    /// `HEAD` moved too far from it): the folder `cairn index` reads it in
    /// (the working tree's own: a linked worktree has a history of its own).
    pub(crate) unread_in: Option<PathBuf>,
}

impl HistoryRead {
    /// What `explain` says of it, when the history was asked for.
    fn line(&self) -> Option<String> {
        match (&self.unread_in, &self.cached) {
            (Some(dir), _) => Some(format!(
                "history: not read for the checked-out `HEAD` (not yet, or `HEAD` moved \
                 far from the line read), so no note is marked \"code changed since\"; \
                 `cairn index` run in {} reads it (cairn's session-start hook, where it is \
                 installed, starts it in the background)",
                safe(&dir.display().to_string())
            )),
            (None, Some(h)) => Some(format!(
                "history: {} read (notes whose related files changed after their date are marked)",
                plural(h.len(), "commit")
            )),
            (None, None) => None,
        }
    }
}

/// How long a probe took, for `CAIRN_TIMINGS`: the git thread's own time
/// (when it answered in time) and how long the open then waited for it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ProbeTimes {
    pub(crate) read_us: Option<u64>,
    pub(crate) wait_us: u64,
}

/// Git work under way on its own thread.
#[derive(Debug)]
pub(crate) struct GitProbe {
    key: ProbeKey,
    rx: mpsc::Receiver<(GitRead, u64)>,
    by: Instant,
    started: Instant,
    derive_task: bool,
}

/// Which requests a finished probe answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProbeKey {
    cwd: PathBuf,
    project: Option<String>,
}

impl ProbeKey {
    fn of(req: &WakeupRequest) -> Self {
        Self {
            cwd: req.cwd.clone(),
            project: req.project.clone(),
        }
    }
}

/// A probe's answer, kept by the engine for the wake-up it was started for.
pub(crate) type Prepared = (ProbeKey, GitRead);

impl GitProbe {
    /// Starts reading git for `req`: its task when it has none and derivation is
    /// on, and the history of its project's repository when the code-changed
    /// deboost is on and `cache_dir` can hold it. Done by `open_by` or within
    /// `[git] timeout_ms`, whichever comes first.
    pub(crate) fn start(
        config: &Config,
        req: &WakeupRequest,
        open_by: Option<Instant>,
        cache_dir: Option<PathBuf>,
    ) -> Result<Self, GitTask> {
        let not_asked = not_asked(config, req);
        let derive_task = not_asked.is_none();
        // The history is read for the code-changed deboost only; the status's
        // caches live in the same folder whether or not it is on.
        let history = config.git.code_changed_deboost < 1.0 && cache_dir.is_some();
        if !derive_task && !history {
            return Err(GitTask::Nothing(not_asked.unwrap_or_default()));
        }
        let started = Instant::now();
        let timeout = Duration::from_millis(config.git.timeout_ms);
        let by = open_by.map_or(started + timeout, |o| o.min(started + timeout));
        let (tx, rx) = mpsc::channel();
        let config = config.clone();
        let cwd = req.cwd.clone();
        let project = req.project.clone();
        let spawned = std::thread::Builder::new()
            .name("cairn-git".into())
            .spawn(move || {
                #[cfg(feature = "fault-injection")]
                stall_if_asked();
                let asked = Asked {
                    project: project.as_deref(),
                    why_not: not_asked,
                    cache_dir: cache_dir.as_deref(),
                    history,
                };
                let t = Instant::now();
                let read = read(&config, &cwd, &asked);
                let _ = tx.send((read, crate::micros(t)));
            });
        if let Err(e) = spawned {
            return Err(GitTask::Failed(format!(
                "cannot start a thread for git: {e}"
            )));
        }
        Ok(Self {
            key: ProbeKey::of(req),
            rx,
            by,
            started,
            derive_task,
        })
    }

    /// The answer, waiting at most until the probe's time is up, and how long it took.
    pub(crate) fn finish(self) -> (Prepared, ProbeTimes) {
        let waiting = Instant::now();
        let wait = self.by.saturating_duration_since(waiting);
        let received = self.rx.recv_timeout(wait);
        let mut times = ProbeTimes {
            read_us: None,
            wait_us: crate::micros(waiting),
        };
        let read = match received {
            Ok((read, us)) => {
                times.read_us = Some(us);
                read
            }
            Err(e) => GitRead {
                task: match e {
                    _ if !self.derive_task => GitTask::Nothing("a task was given".to_owned()),
                    mpsc::RecvTimeoutError::Timeout => GitTask::TimedOut(
                        u64::try_from(self.by.duration_since(self.started).as_millis())
                            .unwrap_or(u64::MAX),
                    ),
                    mpsc::RecvTimeoutError::Disconnected => {
                        GitTask::Failed("reading git stopped unexpectedly".to_owned())
                    }
                },
                history: HistoryRead::default(),
            },
        };
        ((self.key, read), times)
    }
}

/// What the git thread is asked for.
struct Asked<'a> {
    /// `--project`.
    project: Option<&'a str>,
    /// Why no task is to be derived (`None`: derive one).
    why_not: Option<String>,
    /// The cache folder: the status's caches and the history's (`None`: no
    /// caches, no history).
    cache_dir: Option<&'a Path>,
    /// Whether the history is wanted (the code-changed deboost is on).
    history: bool,
}

/// Why `req` asks for no derivation, if it does not.
fn not_asked(config: &Config, req: &WakeupRequest) -> Option<String> {
    if !req.task.trim().is_empty() && !crate::resume::only_asks_to_resume(&req.task) {
        return Some("a task was given".to_owned());
    }
    (config.git.derive == Derive::Never)
        .then(|| "turned off (--no-derive or [git] derive = false)".to_owned())
}

/// A test build stalls the git thread when `CAIRN_FAULTS` names `stall-git`.
#[cfg(feature = "fault-injection")]
fn stall_if_asked() {
    if std::env::var("CAIRN_FAULTS").is_ok_and(|v| v.split(',').any(|f| f.trim() == "stall-git")) {
        loop {
            std::thread::sleep(Duration::from_secs(3_600));
        }
    }
}

impl Engine {
    /// Like [`Engine::wakeup`], but a request without a task takes the one its
    /// working tree gives (see [`GitTask`]), and the packet's `query.derived`
    /// says what was derived and from where, or that git timed out. The git read
    /// started by [`Engine::open_for_wakeup`] for the same directory is used when
    /// there is one; otherwise git is read now, within `[git] timeout_ms`.
    ///
    /// # Errors
    /// Those of [`Engine::wakeup`]; git's own problems are never errors.
    pub fn wakeup_with_git(&self, req: &WakeupRequest) -> Result<WakeupOutput, EngineError> {
        let asked = req;
        let read = crate::resume::resumption(req);
        let req = read.as_ref().unwrap_or(req);
        let git = self.git_read(req);
        let echo = match (read.is_some(), git.task.echo()) {
            (true, Some(e)) => Some(format!("{}; {e}", crate::resume::RESUMING)),
            (true, None) => Some(crate::resume::RESUMED.to_owned()),
            (false, e) => e,
        };
        let history = git.history.cached.as_deref();
        let said = Echo {
            derived: echo.as_deref(),
            unused: None,
            resumed: None,
        };
        let mut out = if let Some((derived, parts)) = git.task.request(req) {
            let out = self.wakeup_echo(&derived, said, history, parts)?;
            if found_nothing(&out.packet) {
                // A derived task is a guess: when no note matches it, the
                // session starts as one without a task does (its query still
                // says what was derived, and why it went unused).
                let said = echo.map(|e| format!("{e}; {NOTHING_MATCHED}"));
                // The derived packet's query says its task, and its files as
                // routing named them.
                let query = &out.packet.query;
                let echo = Echo {
                    derived: said.as_deref(),
                    unused: Some((&query.task, &query.files)),
                    resumed: None,
                };
                self.wakeup_echo(req, echo, history, &[])?
            } else {
                out
            }
        } else if read.is_some() {
            let echo = Echo {
                resumed: Some(&asked.task),
                ..said
            };
            self.wakeup_echo(req, echo, history, &[])?
        } else {
            self.wakeup_echo(req, said, history, &[])?
        };
        // Only when the index folder is kept (an index in memory this time has
        // none where a history could be written).
        // The project's history first; else the vault's, when dating an
        // undated note found it never read.
        let project = git.history.unread_in.map(|repo| (repo, false));
        let vault = || {
            self.notes
                .note_dates()
                .and_then(crate::note_dates::NoteDates::unread)
                .map(|repo| (repo.to_path_buf(), true))
        };
        out.history_unread = project
            .or_else(vault)
            .zip(self.index_info().cache_dir.clone())
            .map(|((repo, dates_notes), index_dir)| crate::UnreadHistory {
                repo,
                index_dir,
                dates_notes,
            });
        Ok(out)
    }

    /// Like [`Engine::explain`], for what [`Engine::wakeup_with_git`] would do:
    /// the explanation's `git` lines say what was derived, or why nothing was.
    ///
    /// # Errors
    /// Those of [`Engine::explain`].
    pub fn explain_with_git(&self, req: &WakeupRequest) -> Result<Explanation, EngineError> {
        let read = crate::resume::resumption(req);
        let resumed = read.is_some();
        let req = read.as_ref().unwrap_or(req);
        let git = self.git_read(req);
        let history = git.history.cached.as_deref();
        let mut nothing_matched = false;
        let mut ex = match git.task.request(req) {
            // As the wake-up does: a derived task no note matches gives way to
            // none (see [`Engine::wakeup_with_git`]).
            Some((derived, parts))
                if found_nothing(
                    &self
                        .wakeup_echo(&derived, Echo::default(), history, parts)?
                        .packet,
                ) =>
            {
                nothing_matched = true;
                self.explain_from(req, history, &[], FilesFrom::Request)?
            }
            Some((derived, parts)) => {
                // The derived files stand in for `--files` only when none were given.
                let files = if req.files.is_empty() && !derived.files.is_empty() {
                    FilesFrom::Git
                } else {
                    FilesFrom::Request
                };
                self.explain_from(&derived, history, parts, files)?
            }
            None => self.explain_from(req, history, &[], FilesFrom::Request)?,
        };
        ex.git = git.task.lines();
        if resumed {
            ex.git.insert(0, crate::resume::RESUMED.to_owned());
        }
        if nothing_matched {
            ex.git.push(
                "no note matched the derived task: the packet is the one a session without a task gets"
                    .to_owned(),
            );
        }
        ex.git.extend(git.history.line());
        Ok(ex)
    }

    /// What git says about `req`'s task.
    pub fn git_task(&self, req: &WakeupRequest) -> GitTask {
        self.git_read(req).task
    }

    /// What git says about `req`: the answer prepared while the engine opened,
    /// else read now (the history only through the cache, incrementally).
    fn git_read(&self, req: &WakeupRequest) -> GitRead {
        let key = ProbeKey::of(req);
        if let Some((k, read)) = self
            .git_prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            && *k == key
        {
            return read.clone();
        }
        let cache_dir = self.index_info().cache_dir.clone();
        match GitProbe::start(&self.config, req, None, cache_dir) {
            Ok(probe) => probe.finish().0.1,
            Err(task) => GitRead {
                task,
                history: HistoryRead::default(),
            },
        }
    }

    /// Keeps the answer of a git read started beside the open (and its times,
    /// with the index's, for `CAIRN_TIMINGS`).
    pub(crate) fn with_git(mut self, (prepared, times): (Prepared, ProbeTimes)) -> Self {
        if let Some(us) = times.read_us {
            self.index_info.timings.push(("git (own thread)", us));
        }
        self.index_info
            .timings
            .push(("wait for git", times.wait_us));
        *self
            .git_prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(prepared);
        self
    }
}

/// Reads what `asked` wants from the repository of `cwd`: the history when it
/// belongs to the routed project, the task when it does (or with
/// [`Derive::Always`]).
fn read(config: &Config, cwd: &Path, asked: &Asked<'_>) -> GitRead {
    let task = |task| GitRead {
        task,
        history: HistoryRead::default(),
    };
    let mut input = RouteInput::at(cwd);
    input.project = asked.project;
    let route = match cairn_route::route(config, &input) {
        Ok(r) => r,
        Err(e) => return task(GitTask::Nothing(format!("routing failed: {e}"))),
    };
    let not_asked = |or: GitTask| match &asked.why_not {
        Some(why) => GitTask::Nothing(why.clone()),
        None => or,
    };
    let project = route
        .project_id
        .as_deref()
        .and_then(|id| config.project(id));
    if project.is_none() && config.git.derive != Derive::Always {
        return task(not_asked(GitTask::Nothing(
            "no project routed (`--derive` reads git all the same)".to_owned(),
        )));
    }
    let repo = match cairn_git::open(&route.cwd) {
        Ok(r) => r,
        Err(cairn_git::GitError::NotARepository { .. }) => {
            return task(not_asked(GitTask::Nothing(
                "the directory is not in a git repository".to_owned(),
            )));
        }
        Err(e) => return task(not_asked(GitTask::Failed(safe(&e.to_string())))),
    };
    let belongs = project.and_then(|p| belongs(p, &repo, route.method));
    // The history (for the code-changed deboost) does not depend on the working
    // tree: it loads on a thread of its own, on a repository of its own (a gix
    // repository is not shared between threads), while the status is read.
    let workdir = repo.workdir().to_path_buf();
    std::thread::scope(|scope| {
        let loading = match (&belongs, asked.cache_dir.filter(|_| asked.history)) {
            (Some(_), Some(dir)) => {
                let load = move || {
                    cairn_git::open(&workdir)
                        .map(|r| history(config, &r, dir))
                        .unwrap_or_default()
                };
                match std::thread::Builder::new()
                    .name("cairn-git-history".to_owned())
                    .spawn_scoped(scope, load)
                {
                    Ok(handle) => HistoryLoad::Loading(handle),
                    // No thread to be had: load it here.
                    Err(_) => HistoryLoad::Done(
                        cairn_git::open(repo.workdir())
                            .map(|r| history(config, &r, dir))
                            .unwrap_or_default(),
                    ),
                }
            }
            _ => HistoryLoad::Done(HistoryRead::default()),
        };
        read_tree(config, &repo, asked, belongs.as_ref(), project, loading)
    })
}

/// The history being loaded beside the status, or loaded.
enum HistoryLoad<'scope> {
    Loading(std::thread::ScopedJoinHandle<'scope, HistoryRead>),
    Done(HistoryRead),
}

impl HistoryLoad<'_> {
    fn wait(self) -> HistoryRead {
        match self {
            // A panic on the history thread is a history we go without.
            HistoryLoad::Loading(h) => h.join().unwrap_or_default(),
            HistoryLoad::Done(h) => h,
        }
    }
}

/// The rest of [`read`]: the task from the working tree when it is asked for and
/// the repository belongs (or `--derive`), with the history `loading` gives.
fn read_tree(
    config: &Config,
    repo: &cairn_git::Repository,
    asked: &Asked<'_>,
    belongs: Option<&String>,
    project: Option<&Project>,
    loading: HistoryLoad<'_>,
) -> GitRead {
    let not_asked = |or: GitTask| match &asked.why_not {
        Some(why) => GitTask::Nothing(why.clone()),
        None => or,
    };
    let why = match (belongs, project) {
        _ if config.git.derive == Derive::Always => "--derive".to_owned(),
        (Some(why), _) => why.clone(),
        (None, Some(p)) => {
            return GitRead {
                task: not_asked(GitTask::Nothing(format!(
                    "the repository at {} does not belong to project `{}`",
                    repo.workdir().display(),
                    p.id
                ))),
                history: loading.wait(),
            };
        }
        (None, None) => {
            return GitRead {
                task: not_asked(GitTask::Nothing("no project routed".to_owned())),
                history: loading.wait(),
            };
        }
    };
    let status_cache = asked
        .cache_dir
        .map(|dir| crate::code_changed::status_cache(dir, repo.workdir()));
    if let Some(why) = &asked.why_not {
        // No task to derive (`--task`, `--no-derive`), but the branch's own
        // commits are still the work at hand: no note's code changed since it
        // by them (a held-out trial: a `--task` session on a fix branch marked
        // the fixed file's note as maybe stale).
        let mut history = loading.wait();
        if let Some(h) = history.cached.as_mut().and_then(Arc::get_mut) {
            h.leave_out_commits(&repo.own_commit_ids(config.git.commits, status_cache.as_ref()));
        }
        return GitRead {
            task: GitTask::Nothing(why.clone()),
            history,
        };
    }
    let note_dirs = note_dirs(config);
    let workdir = repo.workdir().to_path_buf();
    let tree = repo.working_tree_leaving_out(
        cairn_git::ReadOptions {
            max_changed: config.git.changed_files,
            max_commits: config.git.commits,
        },
        status_cache.as_ref(),
        &|f| crate::derived_task::is_vault_note(&workdir, f, &note_dirs),
    );
    let mut history = loading.wait();
    let task = match tree {
        Ok(t) => {
            // The branch's own commits are the work at hand: no note's code
            // changed since it by them.
            if let Some(h) = history.cached.as_mut().and_then(Arc::get_mut) {
                h.leave_out_commits(&t.own_commit_ids);
            }
            task_of(&t, &why, config.git.changed_files, &note_dirs)
        }
        Err(e) => GitTask::Failed(safe(&e.to_string())),
    };
    GitRead { task, history }
}

/// The repository's history from the cache, brought up to date when only a few
/// commits are new (never the cold pass: that is `cairn index`'s; when it is
/// needed, the answer says where). A linked worktree without a history of its
/// own starts from its main checkout's (one object store; `cairn index` reads
/// the main checkout's) and keeps its own from then on, its `HEAD`'s line.
fn history(config: &Config, repo: &cairn_git::Repository, dir: &Path) -> HistoryRead {
    let (mut h, file) = crate::code_changed::cached_history(dir, repo.workdir(), || {
        repo.main_workdir().map(Path::to_path_buf)
    });
    // A history that cannot be brought to `HEAD` is not used: its commits may
    // not be `HEAD`'s.
    let limits = crate::code_changed::limits(config);
    let Ok(update) = crate::code_changed::update_history(&mut h, &file, repo, &limits, false, "")
    else {
        return HistoryRead::default();
    };
    if update.changed() {
        // A cache that cannot be written is read again next time: no failure.
        // Not synced: a wake-up does not wait for the disk.
        let _ = h.save_unsynced(&file);
    }
    let unread = matches!(
        update,
        cairn_git::HistoryUpdate::Behind | cairn_git::HistoryUpdate::Dropped
    );
    HistoryRead {
        cached: (!h.is_empty()).then(|| Arc::new(h)),
        unread_in: unread.then(|| repo.workdir().to_path_buf()),
    }
}

/// Why `repo` belongs to `project`, if it does: its root (or its main
/// checkout's) is a repo path or inside one, or routing matched its remote, or
/// (`--project`) its remote is one of the project's.
pub(crate) fn belongs(
    project: &Project,
    repo: &cairn_git::Repository,
    method: RouteMethod,
) -> Option<String> {
    let roots = std::iter::once(repo.workdir()).chain(repo.main_workdir());
    for root in roots {
        if let Some(path) = project.repo_paths.iter().find(|p| root.starts_with(p)) {
            return Some(format!(
                "the repository at {} is in project `{}`'s repo path {}",
                root.display(),
                project.id,
                path.display()
            ));
        }
    }
    match method {
        RouteMethod::Remote => Some(format!(
            "the repository's remote routed to project `{}`",
            project.id
        )),
        // `--project` names it: the repository is its clone when its remote
        // is one of the project's.
        RouteMethod::Explicit => cairn_route::clone_of(project, repo.workdir()),
        _ => None,
    }
}

/// `n` and `what`, plural unless `n` is 1: "1 commit", "3 commits".
pub(crate) fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Untrusted text on one line, credentials redacted.
pub(crate) fn safe(text: &str) -> String {
    let flat = cairn_policy::one_line(text);
    cairn_policy::redact(&flat).text.into_owned()
}

/// The folders of the vault's notes (every configured note root), absolute.
fn note_dirs(config: &cairn_config::Config) -> Vec<std::path::PathBuf> {
    config
        .note_roots()
        .map(|r| {
            // As the repository's working folder is: canonical (a vault reached
            // through a symlink names the same folders).
            let dir = config.vault.root.join(r);
            dir.canonicalize().unwrap_or(dir)
        })
        .collect()
}
