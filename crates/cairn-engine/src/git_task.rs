//! The implicit task: when a wake-up has no task, the working tree of its
//! directory gives one (the branch's words, the changed files, the subjects of the
//! branch's own commits), read by `cairn-git` on a thread of its own, beside the
//! index open, and time-boxed.
//!
//! Only a repository that belongs to the routed project is read (its root is one
//! of the project's repo paths or inside one, or routing matched it by remote),
//! or any repository with `--derive`. Branch names, commit subjects and file
//! names are untrusted text: each is put on one line and redacted before it
//! becomes a query, an echo or an explanation.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cairn_config::{Config, Derive, Project};
use cairn_route::{RouteInput, RouteMethod};

use crate::{Engine, EngineError, Explanation, WakeupOutput, WakeupRequest};

/// What git said about a wake-up's task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitTask {
    /// Nothing derived, and nothing to tell the packet (a task was given,
    /// derivation is off, no project routed, outside git, nothing changed):
    /// why, for `explain`.
    Nothing(String),
    /// A task derived from the working tree.
    Derived(Derived),
    /// Git did not answer within this many milliseconds: the packet goes without.
    TimedOut(u64),
    /// The repository of the routed project could not be read (the reason is for
    /// `explain`; the packet only says that nothing was derived).
    Failed(String),
}

/// A task derived from a working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    /// The query: the branch's words, then the commit subjects (redacted).
    pub task: String,
    /// The changed files, absolute, most recently modified first.
    pub files: Vec<String>,
    /// What was derived and from where, for the packet's `query.derived`.
    pub summary: String,
    /// The details, for `explain`.
    pub lines: Vec<String>,
}

impl GitTask {
    /// The packet's `query.derived`: what was derived, or why nothing was when
    /// the reason matters to the reader (a timeout, an unreadable repository).
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

    /// `req` with the derived task and files (files only when it had none).
    fn request(&self, req: &WakeupRequest) -> Option<WakeupRequest> {
        let GitTask::Derived(d) = self else {
            return None;
        };
        let mut r = req.clone();
        r.task.clone_from(&d.task);
        if r.files.is_empty() {
            r.files.clone_from(&d.files);
        }
        Some(r)
    }
}

/// Git work under way on its own thread.
#[derive(Debug)]
pub(crate) struct GitProbe {
    key: ProbeKey,
    rx: mpsc::Receiver<GitTask>,
    by: Instant,
    started: Instant,
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
pub(crate) type Prepared = (ProbeKey, GitTask);

impl GitProbe {
    /// Starts reading git for `req` when it has no task and derivation is on:
    /// done by `open_by` or within `[git] timeout_ms`, whichever comes first.
    pub(crate) fn start(
        config: &Config,
        req: &WakeupRequest,
        open_by: Option<Instant>,
    ) -> Result<Self, GitTask> {
        if let Some(why) = not_asked(config, req) {
            return Err(GitTask::Nothing(why));
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
                let _ = tx.send(derive(&config, &cwd, project.as_deref()));
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
        })
    }

    /// The answer, waiting at most until the probe's time is up.
    pub(crate) fn finish(self) -> Prepared {
        let wait = self.by.saturating_duration_since(Instant::now());
        let task = match self.rx.recv_timeout(wait) {
            Ok(task) => task,
            Err(mpsc::RecvTimeoutError::Timeout) => GitTask::TimedOut(
                u64::try_from(self.by.duration_since(self.started).as_millis()).unwrap_or(u64::MAX),
            ),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                GitTask::Failed("reading git stopped unexpectedly".to_owned())
            }
        };
        (self.key, task)
    }
}

/// Why `req` asks for no derivation, if it does not.
fn not_asked(config: &Config, req: &WakeupRequest) -> Option<String> {
    if !req.task.trim().is_empty() {
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
    pub fn wakeup_with_git(&self, req: &WakeupRequest) -> Result<WakeupOutput, EngineError> {
        let git = self.git_task(req);
        let echo = git.echo();
        match git.request(req) {
            Some(derived) => self.wakeup_echo(&derived, echo.as_deref()),
            None => self.wakeup_echo(req, echo.as_deref()),
        }
    }

    /// Like [`Engine::explain`], for what [`Engine::wakeup_with_git`] would do:
    /// the explanation's `git` lines say what was derived, or why nothing was.
    pub fn explain_with_git(&self, req: &WakeupRequest) -> Result<Explanation, EngineError> {
        let git = self.git_task(req);
        let mut ex = match git.request(req) {
            Some(derived) => self.explain(&derived)?,
            None => self.explain(req)?,
        };
        ex.git = git.lines();
        Ok(ex)
    }

    /// What git says about `req`'s task: the answer prepared while the engine
    /// opened, else read now.
    pub fn git_task(&self, req: &WakeupRequest) -> GitTask {
        let key = ProbeKey::of(req);
        if let Some((k, task)) = self
            .git_prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            && *k == key
        {
            return task.clone();
        }
        match GitProbe::start(&self.config, req, None) {
            Ok(probe) => probe.finish().1,
            Err(task) => task,
        }
    }

    /// Keeps the answer of a git read started beside the open.
    pub(crate) fn with_git(self, prepared: Prepared) -> Self {
        *self
            .git_prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(prepared);
        self
    }
}

/// Reads the working tree of `cwd` when its repository belongs to the routed
/// project (or with [`Derive::Always`]) and turns it into a task.
fn derive(config: &Config, cwd: &Path, project: Option<&str>) -> GitTask {
    let mut input = RouteInput::at(cwd);
    input.project = project;
    let route = match cairn_route::route(config, &input) {
        Ok(r) => r,
        Err(e) => return GitTask::Nothing(format!("routing failed: {e}")),
    };
    let project = route
        .project_id
        .as_deref()
        .and_then(|id| config.project(id));
    if project.is_none() && config.git.derive != Derive::Always {
        return GitTask::Nothing(
            "no project routed (`--derive` reads git all the same)".to_owned(),
        );
    }
    let repo = match cairn_git::open(&route.cwd) {
        Ok(r) => r,
        Err(cairn_git::GitError::NotARepository { .. }) => {
            return GitTask::Nothing("the directory is not in a git repository".to_owned());
        }
        Err(e) => return GitTask::Failed(safe(&e.to_string())),
    };
    let why = match (project, config.git.derive) {
        (_, Derive::Always) => "--derive".to_owned(),
        (Some(p), _) => match belongs(p, &repo, route.method) {
            Some(why) => why,
            None => {
                return GitTask::Nothing(format!(
                    "the repository at {} does not belong to project `{}`",
                    repo.workdir().display(),
                    p.id
                ));
            }
        },
        (None, _) => return GitTask::Nothing("no project routed".to_owned()),
    };
    let tree = match repo.working_tree(cairn_git::ReadOptions {
        max_changed: config.git.changed_files,
        max_commits: config.git.commits,
    }) {
        Ok(t) => t,
        Err(e) => return GitTask::Failed(safe(&e.to_string())),
    };
    task_of(&tree, &why)
}

/// Why `repo` belongs to `project`, if it does: its root (or its main
/// checkout's) is a repo path or inside one, or routing matched its remote.
fn belongs(project: &Project, repo: &cairn_git::Repository, method: RouteMethod) -> Option<String> {
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
    (method == RouteMethod::Remote)
        .then(|| format!("the repository's remote routed to project `{}`", project.id))
}

/// The task a working tree gives, or why it gives none.
fn task_of(tree: &cairn_git::WorkingTree, why: &str) -> GitTask {
    let branch = tree.branch.as_deref().map(safe);
    let on_default = tree.branch.is_some() && tree.branch == tree.default_branch;
    let words = match &branch {
        Some(b) if !on_default => cairn_git::branch_words(&without_markers(b)),
        _ => Vec::new(),
    };
    let subjects: Vec<String> = tree
        .commits
        .iter()
        .map(|s| without_markers(&safe(s)))
        .filter(|s| !s.is_empty())
        .collect();
    let files: Vec<String> = tree
        .changed
        .iter()
        .filter(|f| safe(f) == **f)
        .map(|f| tree.workdir.join(f).display().to_string())
        .collect();
    let mut parts = Vec::new();
    if !words.is_empty() {
        parts.push(words.join(" "));
    }
    parts.extend(subjects.iter().cloned());
    let task = parts.join("; ");
    let mut from = Vec::new();
    match &branch {
        Some(b) => from.push(format!("branch {b}")),
        None => from.push("detached HEAD".to_owned()),
    }
    if !files.is_empty() {
        let n = tree.changed_total;
        from.push(if n > files.len() {
            format!("{n} changed files ({} used)", files.len())
        } else {
            plural(n, "changed file")
        });
    }
    if !subjects.is_empty() {
        from.push(plural(subjects.len(), "commit"));
    }
    if task.is_empty() && files.is_empty() {
        return GitTask::Nothing(format!(
            "{}: nothing changed and no commit of its own",
            from.join(", ")
        ));
    }
    let summary = format!("derived from git: {}", from.join(", "));
    let mut lines = vec![
        format!("{summary} ({why})"),
        format!("task: {}", if task.is_empty() { "(none)" } else { &task }),
    ];
    if let Some(d) = &tree.default_branch {
        lines.push(format!(
            "commits: the branch's own, not on the default branch {}",
            safe(d)
        ));
    }
    if !files.is_empty() {
        lines.push(format!(
            "files (most recently modified first): {}",
            tree.changed
                .iter()
                .filter(|f| safe(f) == **f)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    GitTask::Derived(Derived {
        task,
        files,
        summary,
        lines,
    })
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Untrusted text on one line, credentials redacted.
fn safe(text: &str) -> String {
    let flat = cairn_policy::one_line(text);
    cairn_policy::redact(&flat).text.into_owned()
}

/// `text` without its redaction markers (`[redacted:kind]`): no word of a
/// credential, and no marker, becomes a query word.
fn without_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(cairn_policy::REDACTION_PREFIX) {
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = rest[at..].split_once(']').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::without_markers;

    #[test]
    fn markers_leave_no_word() {
        assert_eq!(
            without_markers("fix/[redacted:github-token]-retry"),
            "fix/ -retry"
        );
        assert_eq!(without_markers("plain words"), "plain words");
        assert_eq!(without_markers("[redacted:x"), "");
    }
}
