//! The persistent index seen from the engine: which cache folder a vault uses,
//! opening it (refresh, deadline, fallback to memory) and its status.
//!
//! Every way the cache can fail ends in an engine that answers correctly: a
//! damaged or foreign cache is rebuilt (the cache crate says so in a warning),
//! whether the damage shows when it is opened or only when a search reads a
//! damaged block ([`Engine::take_index_warnings`] then has the warning); a
//! cache that cannot be written is bypassed for this run with the notes indexed in
//! memory (one warning). Only a deadline makes answers partial, and then
//! [`IndexInfo::partial`] says why.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use cairn_cache::{Cache, Changes, Listed, Progress, RefreshReport};
use cairn_config::Config;
use cairn_note::{Diagnostic, Note};
use rayon::prelude::*;

use crate::notes::NoteSource;
use crate::{Engine, EngineError, OpenOptions};

/// Where an engine's index lives.
#[derive(Debug, Clone, Default)]
pub enum IndexMode {
    /// Scan and index the whole vault in memory (tests, one-shots).
    #[default]
    Memory,
    /// The vault's persistent cache, refreshed incrementally.
    Persistent(PersistentOptions),
}

/// Options of the persistent index.
#[derive(Clone, Default)]
pub struct PersistentOptions {
    /// The cache folder (`--index-dir`); else `[index] dir`; else
    /// `$XDG_CACHE_HOME/cairn/<vault>` or `~/.cache/cairn/<vault>`.
    pub dir: Option<PathBuf>,
    /// Rebuild the index from scratch.
    pub rebuild: bool,
    /// Answer by then: from the last good index (partially) rather than wait for
    /// a refresh or a first build.
    pub deadline: Option<Instant>,
    /// Progress of a long refresh.
    pub progress: Option<Arc<dyn Progress>>,
    /// Read every file of the index and check it against its checksums first
    /// (`cairn index`); a damaged index is rebuilt.
    pub verify: bool,
}

impl std::fmt::Debug for PersistentOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PersistentOptions")
            .field("dir", &self.dir)
            .field("rebuild", &self.rebuild)
            .field("deadline", &self.deadline)
            .field("verify", &self.verify)
            .finish_non_exhaustive()
    }
}

/// Where an engine's notes came from and how complete they are.
#[derive(Debug, Clone, Default)]
pub struct IndexInfo {
    /// The cache folder in use; `None`: indexed in memory.
    pub cache_dir: Option<PathBuf>,
    /// The cache generation served.
    pub generation: Option<u64>,
    /// What the refresh of this run did (none when the index was current).
    pub refresh: Option<RefreshReport>,
    /// Why answers are partial, when they are (a deadline cut a refresh short).
    pub partial: Option<String>,
    /// The index still needs a refresh that this run did not finish.
    pub refresh_pending: bool,
    /// Things to tell the user, one line each (a rebuilt index, a fallback to memory).
    pub warnings: Vec<String>,
    /// How long each step of opening took, in microseconds (for profiling).
    pub timings: Vec<(&'static str, u64)>,
}

/// The vault's canonical root and its cache folder (`None`: no folder can be named).
fn locate(config: &Config, p: &PersistentOptions) -> (PathBuf, Option<PathBuf>) {
    let vault = config
        .vault
        .root
        .canonicalize()
        .unwrap_or_else(|_| config.vault.root.clone());
    let dir = p
        .dir
        .clone()
        .or_else(|| config.index_dir.clone())
        .or_else(|| cairn_cache::default_dir(&vault, |k| std::env::var(k).ok()));
    (vault, dir)
}

/// Opens the vault through its cache. `priority_roots`: what to read first when
/// a deadline leaves no time for a first build. `listed`: the vault as just
/// listed (a refresh); `None` lists it here (without a walk when the published
/// generation's record shows that no folder changed).
pub(crate) fn open(
    config: Config,
    opts: &OpenOptions,
    p: &PersistentOptions,
    priority_roots: &[String],
    listed: Option<Listed>,
) -> Result<Engine, EngineError> {
    let (vault, dir) = locate(&config, p);
    let Some(dir) = dir else {
        let listed = Arc::new(
            listed.unwrap_or_else(|| cairn_cache::list(&config.vault.root, &config.vault.limits)),
        );
        let why = "no folder for the index ($CAIRN_CACHE_DIR, $XDG_CACHE_HOME and $HOME are unset or not absolute; set [index] dir in cairn.toml or pass --index-dir)";
        return in_memory(
            config,
            opts,
            p,
            &listed,
            priority_roots,
            why.into(),
            Vec::new(),
        );
    };
    let cache = Cache::new(dir.clone(), &vault);
    let copts = cairn_cache::OpenOptions {
        rebuild: p.rebuild,
        deadline: p.deadline,
        progress: p.progress.clone(),
        verify: p.verify,
    };
    let t = Instant::now();
    let (listed, opened) = match listed {
        Some(listed) => {
            let opened = cache.open(&listed, &copts);
            (listed, opened)
        }
        None => cache.open_vault(&config.vault.root, &config.vault.limits, &copts),
    };
    let listed = Arc::new(listed);
    let timings = vec![("list and open the index", crate::micros(t))];
    let opened = match opened {
        Ok(o) => o,
        Err(e) => {
            return in_memory(
                config,
                opts,
                p,
                &listed,
                priority_roots,
                e.to_string(),
                Vec::new(),
            );
        }
    };
    let Some(snapshot) = opened.snapshot else {
        // Nothing published yet and the deadline came first.
        return in_memory(
            config,
            opts,
            p,
            &listed,
            priority_roots,
            String::new(),
            opened.warnings,
        );
    };
    let stored = match snapshot.diagnostics_from(&config.vault.root) {
        Ok(d) => d,
        Err(e) => {
            return in_memory(
                config,
                opts,
                p,
                &listed,
                priority_roots,
                e.to_string(),
                opened.warnings,
            );
        }
    };
    let mut diagnostics = listed.listing.diagnostics.clone();
    diagnostics.extend(stored);
    let dates = crate::note_dates::NoteDates::new(&config, &dir);
    let mut info = IndexInfo {
        cache_dir: Some(dir),
        generation: Some(snapshot.generation()),
        refresh: opened.report,
        partial: None,
        refresh_pending: false,
        warnings: opened.warnings,
        timings,
    };
    let mut hidden = HashSet::new();
    if let Some(pending) = &opened.pending {
        hidden.extend(pending.deleted.iter().copied());
        info.partial = Some(pending_reason(pending));
        info.refresh_pending = true;
    }
    let recovery = crate::notes::Recovery {
        cache,
        listed: listed.clone(),
    };
    let source = NoteSource::cached(
        snapshot,
        config.vault.root.clone(),
        hidden,
        Some(recovery),
        config.vault.retiring_statuses.clone(),
        dates,
    );
    Ok(Engine::assemble_engine(config, source, diagnostics, opts, info)?.built_from(listed))
}

fn pending_reason(c: &Changes) -> String {
    format!(
        "served from the last index, which lacks {} new, {} changed and {} deleted notes: the deadline came before the refresh finished",
        c.added.len(),
        c.modified.len(),
        c.deleted.len()
    )
}

/// Indexes the listed notes in memory: all of them, or with a deadline, those
/// under `priority_roots` (in that order) that can be read in time.
fn in_memory(
    config: Config,
    opts: &OpenOptions,
    p: &PersistentOptions,
    listed: &Arc<Listed>,
    priority_roots: &[String],
    failure: String,
    mut warnings: Vec<String>,
) -> Result<Engine, EngineError> {
    let files = &listed.listing.files;
    let mut info = IndexInfo::default();
    let (notes, mut diagnostics) = match p.deadline {
        None => read_all(files),
        Some(deadline) => {
            let (notes, diags, read, wanted) = read_until(files, priority_roots, deadline);
            if read < files.len() {
                info.partial = Some(format!(
                    "no index yet: built from {read} of the {wanted} notes in scope ({} in the vault) that could be read before the deadline, the developer's notes first",
                    files.len()
                ));
            }
            info.refresh_pending = failure.is_empty();
            (notes, diags)
        }
    };
    if !failure.is_empty() {
        warnings.push(format!("{failure}; indexing in memory this time"));
    }
    info.warnings = warnings;
    diagnostics.extend(listed.listing.diagnostics.iter().cloned());
    let source = NoteSource::memory(notes, config.vault.retiring_statuses.as_deref())?;
    Ok(
        Engine::assemble_engine(config, source, diagnostics, opts, info)?
            .built_from(listed.clone()),
    )
}

fn read_all(files: &[cairn_scan::FileEntry]) -> (Vec<Note>, Vec<Diagnostic>) {
    let scan = cairn_scan::read(files);
    (scan.notes, scan.diagnostics)
}

/// Reads files under `roots` (in root order, then path order) in batches until
/// half the time left before `deadline` is spent; returns the notes, their
/// diagnostics, how many files were read and how many were wanted.
fn read_until(
    files: &[cairn_scan::FileEntry],
    roots: &[String],
    deadline: Instant,
) -> (Vec<Note>, Vec<Diagnostic>, usize, usize) {
    let mut order: Vec<usize> = Vec::new();
    let mut seen = HashSet::new();
    if roots.is_empty() {
        order.extend(0..files.len());
    }
    for r in roots {
        for (i, f) in files.iter().enumerate() {
            if crate::in_root(&f.path, r) && seen.insert(i) {
                order.push(i);
            }
        }
    }
    let start = Instant::now();
    let budget = deadline.saturating_duration_since(start) / 2;
    let mut picked: Vec<cairn_scan::FileEntry> = Vec::new();
    let mut done = 0;
    let mut notes = Vec::new();
    let mut diags = Vec::new();
    for batch in order.chunks(64) {
        if start.elapsed() >= budget {
            break;
        }
        picked.clear();
        picked.extend(batch.iter().map(|&i| files[i].clone()));
        let results: Vec<_> = picked
            .par_iter()
            .map(|f| match std::fs::read(&f.abs) {
                Ok(b) => cairn_scan::parse_file(f, &b),
                Err(e) => (Vec::new(), vec![cairn_scan::unreadable(f, &e)]),
            })
            .collect();
        for (n, d) in results {
            notes.extend(n);
            diags.extend(d);
        }
        done += batch.len();
    }
    (notes, diags, done, order.len())
}

/// The cache's state for `cairn index --status` (writes nothing).
pub fn index_status(
    config: &Config,
    p: &PersistentOptions,
) -> Result<cairn_cache::Status, EngineError> {
    let (vault, dir) = locate(config, p);
    let dir = dir.ok_or(EngineError::NoIndexDir)?;
    let listed = cairn_cache::list(&config.vault.root, &config.vault.limits);
    Ok(Cache::new(dir, &vault).status(&listed))
}

/// For `cairn index --status`: the git history kept in the index folder for
/// each project repo path that is a repository's root, in configuration order,
/// then for the repository around `cwd` when it belongs to the project it routes
/// to without being one of them (as `cairn index` run there reads it). Reads
/// the cache files, and opens only that repository (and a repository whose
/// history is not cached, to find a linked worktree's main checkout).
#[must_use]
pub fn index_git_status(
    config: &Config,
    p: &PersistentOptions,
    cwd: Option<&Path>,
) -> Vec<GitHistoryStatus> {
    let Some(dir) = locate(config, p).1 else {
        return Vec::new();
    };
    let status = |project: &str, repo: &Path, canonical: &Path| {
        // A linked worktree without a history of its own shows its main
        // checkout's, as a wake-up and lint use.
        let (h, _) = crate::code_changed::cached_history(&dir, canonical, || {
            cairn_git::open(canonical)
                .ok()
                .and_then(|r| r.main_workdir().map(Path::to_path_buf))
        });
        GitHistoryStatus {
            project: project.to_owned(),
            repo: repo.to_path_buf(),
            commits: h.head().map(|_| h.len()),
            head: h.head().map(|id| id.chars().take(12).collect()),
        }
    };
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for project in &config.projects {
        for path in crate::code_changed::repo_roots(project) {
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            out.push(status(&project.id, path, &canonical));
            seen.push(canonical);
        }
    }
    // The repository `cairn index` run here reads too (a clone routed by its
    // remote, a linked worktree, a repository in a folder of repositories).
    if let Some((project, repo)) = cwd.and_then(|c| crate::code_changed::cwd_repository(config, c))
        && !seen.iter().any(|s| s == repo.workdir())
    {
        out.push(status(&project, repo.workdir(), repo.workdir()));
    }
    out
}

/// The git history kept for one project repository (see [`index_git_status`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GitHistoryStatus {
    /// The project's id.
    pub project: String,
    /// The repo path, as configured.
    pub repo: PathBuf,
    /// How many commits are kept; `None`: not read yet (`cairn index` reads it).
    pub commits: Option<usize>,
    /// The commit it was read up to (12 hex digits).
    pub head: Option<String>,
}

/// Checks every file of the published index against its checksum; returns the
/// damaged ones (empty: sound).
pub fn index_verify(config: &Config, p: &PersistentOptions) -> Result<Vec<String>, EngineError> {
    let (vault, dir) = locate(config, p);
    let dir = dir.ok_or(EngineError::NoIndexDir)?;
    Ok(Cache::new(dir, &vault).verify()?)
}
