//! Routing: from where the developer is (working directory, files about to be
//! touched, the task in words) to *what* they are working on: a project, its
//! modules, and the active scenes.
//!
//! The working directory is canonicalised (symlinks resolved); a git worktree or
//! any subdirectory of a checkout routes like its main checkout; the longest
//! matching `repo_paths` entry wins. Every decision carries a sentence saying why,
//! which ends up in the packet's `provenance`.
//!
//! Routing reads the configuration and, to recognise worktrees, a `.git` file or
//! two; when no repo path matches, or the working directory's repository is
//! nested inside the matching repo path (a submodule, a clone in a folder of
//! repositories), the repository's remotes (through `cairn-git`, `remote.rs`):
//! a nested repository whose remote names another project routes to that one.
//! It knows nothing of notes.

mod remote;

use std::path::{Path, PathBuf};

use cairn_config::{Config, Project};
use serde::Serialize;

/// What routing was asked.
#[derive(Debug, Clone)]
pub struct RouteInput<'a> {
    /// The working directory (need not be canonical).
    pub cwd: &'a Path,
    /// `--project ID`: skip path matching.
    pub project: Option<&'a str>,
    /// Files the developer is about to touch, absolute or relative to `cwd`.
    pub files: &'a [String],
    /// The task, in words.
    pub task: &'a str,
}

impl<'a> RouteInput<'a> {
    /// Routing input with only a working directory.
    pub fn at(cwd: &'a Path) -> Self {
        Self {
            cwd,
            project: None,
            files: &[],
            task: "",
        }
    }
}

/// How the project was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteMethod {
    /// `--project` named it.
    Explicit,
    /// The working directory lies inside one of its `repo_paths`.
    RepoPath,
    /// The working directory is a git worktree whose main checkout lies inside one of its `repo_paths`.
    Worktree,
    /// The working directory's repository has a remote the project names (`remotes`),
    /// or that one of its repo paths has.
    Remote,
    /// Nothing matched.
    NoMatch,
    /// The configuration has no projects (zero-config vault).
    Unscoped,
}

/// The routing decision.
#[derive(Debug, Clone, Serialize)]
pub struct Route {
    /// Canonical working directory.
    pub cwd: PathBuf,
    /// The matched project's id.
    pub project_id: Option<String>,
    /// How it was matched.
    pub method: RouteMethod,
    /// The matched `repo_paths` entry.
    pub repo_path: Option<PathBuf>,
    /// The main checkout of a worktree, when the cwd is one.
    pub main_checkout: Option<PathBuf>,
    /// The repository root the cwd belongs to (the matched repo path, else the git top level).
    pub repo_root: Option<PathBuf>,
    /// `--files`, made relative to the repository root with `/` separators.
    pub files: Vec<String>,
    /// Ids of modules whose `path_prefixes` contain a file or the cwd.
    pub modules: Vec<String>,
    /// Ids of scenes whose keywords the task mentions.
    pub scenes: Vec<String>,
    /// One sentence per decision, for provenance.
    pub reasons: Vec<String>,
}

/// Routing failures: these are usage errors.
#[derive(Debug, thiserror::Error)]
pub enum RouteError {
    /// The working directory does not exist.
    // The reason is in the message, not a `source`: an error chain would print it
    // twice ("…: No such file or directory: No such file or directory").
    #[error("working directory {path} cannot be opened: {reason}")]
    Cwd {
        /// The directory given.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// `--project` names no configured project.
    #[error("no project `{id}` in the configuration (known: {known})")]
    UnknownProject {
        /// The id asked for.
        id: String,
        /// Comma-separated known ids.
        known: String,
    },
}

/// Routes `input` against `config`.
pub fn route(config: &Config, input: &RouteInput<'_>) -> Result<Route, RouteError> {
    let cwd = input.cwd.canonicalize().map_err(|reason| RouteError::Cwd {
        path: input.cwd.to_path_buf(),
        reason,
    })?;
    let git = GitCheckout::find(&cwd);
    let main_checkout = git.as_ref().and_then(|g| g.main_checkout.clone());
    let mut reasons = Vec::new();

    let (project, method, repo_path) = if let Some(id) = input.project {
        let p = config
            .project(id)
            .ok_or_else(|| RouteError::UnknownProject {
                id: id.to_owned(),
                known: config
                    .projects
                    .iter()
                    .map(|p| p.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        reasons.push(format!("project `{id}` chosen by --project"));
        let repo = longest_match(std::slice::from_ref(p), &cwd).map(|(_, r)| r);
        (Some(p), RouteMethod::Explicit, repo)
    } else if config.projects.is_empty() {
        reasons.push("no projects configured: the whole vault is one developer-wide scope".into());
        (None, RouteMethod::Unscoped, None)
    } else if let Some((p, repo)) = longest_match(&config.projects, &cwd) {
        if let Some((q, why)) = nearer_by_remote(config, &cwd, git.as_ref(), p, &repo) {
            reasons.push(format!(
                "cwd {} is in a repository of its own inside repo path {} of project `{}`, and is routed by that repository's remote: {why}",
                cwd.display(),
                repo.display(),
                p.id
            ));
            (Some(q), RouteMethod::Remote, None)
        } else {
            reasons.push(format!(
                "cwd {} is inside repo path {} of project `{}` (longest match)",
                cwd.display(),
                repo.display(),
                p.id
            ));
            (Some(p), RouteMethod::RepoPath, Some(repo))
        }
    } else if let Some((p, repo, equivalent)) = git.as_ref().and_then(|g| {
        let main = g.main_checkout.as_ref()?;
        let equivalent = main.join(cwd.strip_prefix(&g.top_level).ok()?);
        longest_match(&config.projects, &equivalent).map(|(p, r)| (p, r, equivalent))
    }) {
        reasons.push(format!(
            "cwd {} is a git worktree; as {} in the main checkout it is inside repo path {} of project `{}`",
            cwd.display(),
            equivalent.display(),
            repo.display(),
            p.id
        ));
        (Some(p), RouteMethod::Worktree, Some(repo))
    } else if let Some((p, why)) = remote::by_remote(&config.projects, &cwd) {
        reasons.push(why);
        (Some(p), RouteMethod::Remote, None)
    } else {
        reasons.push(format!(
            "no project matched: cwd {} is outside the repo paths of all {} configured projects",
            cwd.display(),
            config.projects.len()
        ));
        (None, RouteMethod::NoMatch, None)
    };

    // Repo root: where `--files` are relative to. For a worktree it is the worktree itself.
    let repo_root = match (method, &git, &repo_path) {
        (RouteMethod::Worktree, Some(g), Some(repo)) => {
            let main = g.main_checkout.as_deref().unwrap_or(&g.top_level);
            Some(
                g.top_level
                    .join(repo.strip_prefix(main).unwrap_or(Path::new(""))),
            )
        }
        _ => repo_path
            .clone()
            .or_else(|| git.as_ref().map(|g| g.top_level.clone())),
    };
    let given = || input.files.iter().filter(|f| !f.trim().is_empty());
    // A repo path that is a folder of repositories: the files are relative to
    // the repository cwd is in (as its notes' `related_files` and its history
    // are), not to the folder; modules' prefixes stay relative to the folder.
    let files = match (&git, &repo_root) {
        (Some(g), Some(root)) if g.top_level != *root && g.top_level.starts_with(root) => given()
            .map(|f| repo_relative(&cwd, Some(&g.top_level), f))
            .collect::<Vec<_>>(),
        _ => given()
            .map(|f| repo_relative(&cwd, repo_root.as_deref(), f))
            .collect::<Vec<_>>(),
    };
    let module_files = given()
        .map(|f| repo_relative(&cwd, repo_root.as_deref(), f))
        .collect::<Vec<_>>();
    let cwd_rel = repo_root
        .as_deref()
        .and_then(|r| cwd.strip_prefix(r).ok())
        .map(slash_path)
        .filter(|s| !s.is_empty());

    let mut modules = Vec::new();
    if let Some(p) = project {
        for m in &p.modules {
            let hit = m.path_prefixes.iter().find_map(|prefix| {
                let prefix = prefix.trim_matches('/');
                if prefix.is_empty() {
                    return None;
                }
                module_files
                    .iter()
                    .chain(cwd_rel.iter())
                    .find(|f| under_prefix(f, prefix))
                    .map(|f| (prefix.to_owned(), f.clone()))
            });
            if let Some((prefix, file)) = hit {
                reasons.push(format!(
                    "module `{}` selected: {file} is under {prefix}",
                    m.id
                ));
                modules.push(m.id.clone());
            }
        }
    }

    let task_words = words(input.task);
    let mut scenes = Vec::new();
    for s in &config.scenes {
        if let Some(k) = s.keywords.iter().find(|k| mentions(&task_words, k)) {
            reasons.push(format!(
                "scene `{}` active: the task mentions \"{k}\"",
                s.id
            ));
            scenes.push(s.id.clone());
        }
    }

    Ok(Route {
        cwd,
        project_id: project.map(|p| p.id.clone()),
        method,
        repo_path,
        main_checkout,
        repo_root,
        files,
        modules,
        scenes,
        reasons,
    })
}

/// Another project than `p` that the repository cwd is in names by its remote,
/// when that repository is nested inside `p`'s repo path `repo` (a submodule, a
/// clone inside a folder of repositories): the repository's own remote is the
/// nearer claim. Its root being `repo` itself, or no other project matching,
/// leaves `p`.
fn nearer_by_remote<'c>(
    config: &'c Config,
    cwd: &Path,
    git: Option<&GitCheckout>,
    p: &Project,
    repo: &Path,
) -> Option<(&'c Project, String)> {
    let top = &git?.top_level;
    if top == repo || !top.starts_with(repo) {
        return None;
    }
    remote::by_remote(&config.projects, cwd).filter(|(q, _)| q.id != p.id)
}

/// Why the repository at `cwd` is a clone of `project` by its remotes (the
/// project's `remotes`, or a remote of one of its repo paths' checkouts), if it is.
pub fn clone_of(project: &Project, cwd: &Path) -> Option<String> {
    remote::by_remote(std::slice::from_ref(project), cwd).map(|(_, why)| why)
}

/// The project with the longest `repo_paths` entry containing `path`; ties go to the
/// project listed first.
fn longest_match<'c>(projects: &'c [Project], path: &Path) -> Option<(&'c Project, PathBuf)> {
    let mut best: Option<(&Project, &PathBuf, usize)> = None;
    for p in projects {
        for repo in &p.repo_paths {
            if path.starts_with(repo) {
                let depth = repo.components().count();
                if best.is_none_or(|(_, _, d)| depth > d) {
                    best = Some((p, repo, depth));
                }
            }
        }
    }
    best.map(|(p, r, _)| (p, r.clone()))
}

/// A git checkout found by walking up from a directory.
#[derive(Debug, Clone)]
struct GitCheckout {
    /// The folder holding `.git`.
    top_level: PathBuf,
    /// For a linked worktree: the main checkout's folder.
    main_checkout: Option<PathBuf>,
}

impl GitCheckout {
    fn find(start: &Path) -> Option<Self> {
        let top_level = start
            .ancestors()
            .find(|d| d.join(".git").exists())?
            .to_path_buf();
        let dot_git = top_level.join(".git");
        let main_checkout = if dot_git.is_file() {
            // A linked worktree: `.git` says `gitdir: <main>/.git/worktrees/<name>`, and that
            // folder's `commondir` points at `<main>/.git`. Submodules have no `commondir`.
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
            let gitdir = top_level.join(gitdir);
            let common = std::fs::read_to_string(gitdir.join("commondir")).ok();
            common.and_then(|c| {
                let common = gitdir.join(c.trim()).canonicalize().ok()?;
                (common.file_name()? == ".git").then(|| common.parent().map(Path::to_path_buf))?
            })
        } else {
            None
        };
        Some(Self {
            top_level,
            main_checkout,
        })
    }
}

/// `file` relative to `root` with `/` separators; relative files are taken from `cwd`.
fn repo_relative(cwd: &Path, root: Option<&Path>, file: &str) -> String {
    let p = Path::new(file);
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        // Relative to the cwd, as a shell would; but a path that only exists relative
        // to the repository root (`src/x.rs` said from `src/`) is taken from there.
        let from_cwd = cwd.join(p);
        match root.map(|r| r.join(p)) {
            Some(from_root) if !from_cwd.exists() && from_root.exists() => from_root,
            _ => from_cwd,
        }
    };
    let abs = normalize(&abs);
    match root.and_then(|r| abs.strip_prefix(r).ok()) {
        Some(rel) => slash_path(rel),
        None => file.replace('\\', "/").trim_start_matches("./").to_owned(),
    }
}

/// Removes `.` and resolves `..` lexically (the file may not exist yet).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn slash_path(p: &Path) -> String {
    p.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn under_prefix(file: &str, prefix: &str) -> bool {
    file == prefix
        || file
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether the task words mention `keyword`: the same word, or one sharing a stem of
/// at least four letters ("debug" matches "debugging").
fn mentions(task_words: &[String], keyword: &str) -> bool {
    let kw = words(keyword);
    if kw.len() > 1 {
        return task_words.windows(kw.len()).any(|w| w == kw.as_slice());
    }
    let Some(k) = kw.first() else { return false };
    task_words.iter().any(|w| {
        w == k
            || (k.len() >= 4 && w.starts_with(k.as_str()))
            || (w.len() >= 4 && k.starts_with(w.as_str()) && k.len() - w.len() <= 3)
    })
}

#[cfg(test)]
mod tests;
