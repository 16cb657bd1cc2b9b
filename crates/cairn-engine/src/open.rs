//! Opening a vault, the engine's only way in for every front end: in memory or
//! through the cache ([`Engine::open`]), for a wake-up under a deadline
//! ([`Engine::open_for_wakeup`] with an [`OpenDeadline`]), a small quick engine
//! when a full open would be late ([`Engine::open_quick`]), and bringing an open
//! engine up to date with the vault ([`Engine::refresh`]).
//!
//! An engine remembers how it was opened and the listing it was built from (paths,
//! sizes, modification times and the record of the walk), so a refresh lists the
//! vault once (without a walk when no folder changed) and reopens only when a note
//! changed, reading or re-indexing only what the cache says changed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use cairn_cache::Listed;
use cairn_config::Config;

use crate::git_task::GitProbe;
use crate::persistent::{self, IndexMode};
use crate::{Engine, EngineError, OpenOptions, WakeupRequest};

/// When opening the vault for an answer that is due by a deadline must be done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenDeadline {
    open_by: Instant,
}

impl OpenDeadline {
    /// For a command that answers within `within` of `started` (`wakeup
    /// --deadline-ms`): opening may take all of it but a reserve for ranking and
    /// rendering (a fifth of the time, at least 10 and at most 100 ms).
    pub fn for_command(started: Instant, within: Duration) -> Self {
        let reserve = (within / 5)
            .clamp(Duration::from_millis(10), Duration::from_millis(100))
            .min(within);
        Self {
            open_by: started + within.saturating_sub(reserve),
        }
    }

    /// For a hook that must have its answer within `within` of `started` (its
    /// deadline less the time it keeps for writing the answer): opening, and
    /// git's time box with it, may take half of it; the other half is for the
    /// answer made after them, or the quick packet that answers when the full
    /// one is late.
    pub fn for_hook(started: Instant, within: Duration) -> Self {
        Self {
            open_by: started + within / 2,
        }
    }

    /// The instant opening must be done by.
    pub fn open_by(&self) -> Instant {
        self.open_by
    }
}

impl Engine {
    /// Opens the vault: scans and indexes it in memory, or, with
    /// [`IndexMode::Persistent`], opens its cache (refreshing only what changed).
    pub fn open(config: Config, opts: &OpenOptions) -> Result<Self, EngineError> {
        match &opts.index {
            IndexMode::Memory => {
                let listed = cairn_cache::list(&config.vault.root, &config.vault.limits);
                Self::read_listed(config, opts, listed)
            }
            IndexMode::Persistent(p) => persistent::open(config, opts, p, &[], None),
        }
    }

    /// Opens the vault for a wake-up, by `deadline` when there is one: the one way
    /// every front end opens under a deadline. Like [`Engine::open`], but through
    /// the cache a refresh that is late leaves the last good generation (answers
    /// are then partial, and [`crate::IndexInfo::partial`] says why), and with no
    /// generation at all the notes `req` routes to are read first (the developer's
    /// roots, where identity lives, then the project's) until the deadline.
    /// `deadline` replaces [`crate::PersistentOptions::deadline`]; an in-memory
    /// open has none. When `req` has no task, git is read beside the open, by the
    /// deadline, for [`Engine::wakeup_with_git`].
    pub fn open_for_wakeup(
        config: Config,
        opts: &OpenOptions,
        req: &WakeupRequest,
        deadline: Option<OpenDeadline>,
    ) -> Result<Self, EngineError> {
        // Git is read on its own thread while the vault opens (`git_task.rs`).
        let cache_dir = crate::code_changed::cache_dir_for(&config, opts);
        let probe = GitProbe::start(&config, req, deadline.map(|d| d.open_by()), cache_dir);
        let engine = Self::open_for_wakeup_only(config, opts, req, deadline)?;
        Ok(match probe {
            Ok(probe) => engine.with_git(probe.finish()),
            Err(_) => engine,
        })
    }

    fn open_for_wakeup_only(
        config: Config,
        opts: &OpenOptions,
        req: &WakeupRequest,
        deadline: Option<OpenDeadline>,
    ) -> Result<Self, EngineError> {
        let IndexMode::Persistent(p) = &opts.index else {
            return Self::open(config, opts);
        };
        let mut p = p.clone();
        if let Some(d) = deadline {
            p.deadline = Some(d.open_by());
        }
        let opts = OpenOptions {
            profiles_dir: opts.profiles_dir.clone(),
            index: IndexMode::Persistent(p.clone()),
        };
        let mut roots = config.developer.note_roots.clone();
        if let Some(project) = cairn_route::route(&config, &req.route_input())
            .ok()
            .and_then(|r| r.project_id)
            .and_then(|id| config.project(&id).cloned())
        {
            roots.extend(project.note_roots);
        }
        persistent::open(config, &opts, &p, &roots, None)
    }

    /// A small engine, opened fast, for when the full open would be late: the notes
    /// under `roots` only (the first `max_files` in path order), read on a
    /// one-thread pool of its own (on the global pool its reads would queue behind
    /// those of a concurrent full open) and indexed in memory. It cannot be
    /// refreshed: [`Engine::refresh`] opens the whole vault.
    pub fn open_quick(
        config: Config,
        opts: &OpenOptions,
        roots: &[String],
        max_files: usize,
    ) -> Result<Self, EngineError> {
        let mut limits = config.vault.limits.clone();
        limits.max_files = limits.max_files.min(max_files);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "cairn-quick-open".into())
            .build()
            .map_err(|e| EngineError::ThreadPool(e.to_string()))?;
        let scan = pool.install(|| cairn_scan::scan(&config.vault.root, roots, &limits));
        Self::from_notes(config, scan.notes, scan.diagnostics, opts)
    }

    /// The engine for the vault as it is now, or `None` when nothing it was built
    /// from changed (no note file added, deleted, resized or touched). Lists the
    /// vault once, without a walk when the last walk's record shows that no folder
    /// changed; a changed vault is reopened from that listing the way this engine
    /// was opened (through the cache: only changed files are read). An engine
    /// built from given notes, a quick one or a partial one is always reopened,
    /// and so is one whose notes found the vault's git history never read when
    /// it has been read since (they are dated by it).
    /// The configuration is this engine's: a front end that watches the
    /// configuration file opens a new engine when it changes.
    pub fn refresh(&self) -> Result<Option<Engine>, EngineError> {
        let last = self
            .listed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let opts = self.reopen_options();
        let config = self.config.clone();
        let Some(last) = last.filter(|_| self.index_info.partial.is_none()) else {
            return Self::open(config, &opts).map(Some);
        };
        let paths: Vec<&str> = last.listing.files.iter().map(|f| f.path.as_str()).collect();
        let listed = cairn_cache::relist_from(
            &config.vault.root,
            &config.vault.limits,
            &last.listing.walk,
            &paths,
        );
        let dated_since = self
            .notes
            .note_dates()
            .is_some_and(crate::note_dates::NoteDates::read_since);
        if same_files(&last, &listed) && !dated_since {
            // Keep the newer record of the walk: the next call may skip the walk.
            *self
                .listed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::new(listed));
            return Ok(None);
        }
        match &opts.index {
            IndexMode::Memory => Self::read_listed(config, &opts, listed).map(Some),
            IndexMode::Persistent(p) => {
                persistent::open(config, &opts, p, &[], Some(listed)).map(Some)
            }
        }
    }

    /// How a refresh reopens this engine: as it was opened, without a rebuild, a
    /// deadline or a check of every index block (those were for the first open).
    fn reopen_options(&self) -> OpenOptions {
        let mut opts = self.options.clone();
        if let IndexMode::Persistent(p) = &mut opts.index {
            p.rebuild = false;
            p.deadline = None;
            p.verify = false;
        }
        opts
    }

    /// Reads every listed note and indexes it in memory.
    fn read_listed(
        config: Config,
        opts: &OpenOptions,
        listed: Listed,
    ) -> Result<Self, EngineError> {
        let scan = cairn_scan::read(&listed.listing.files);
        let mut diagnostics = scan.diagnostics;
        diagnostics.extend(listed.listing.diagnostics.iter().cloned());
        Ok(Self::from_notes(config, scan.notes, diagnostics, opts)?.built_from(Arc::new(listed)))
    }

    /// This engine, remembering that `listed` is what it was built from.
    pub(crate) fn built_from(mut self, listed: Arc<Listed>) -> Self {
        self.listed = std::sync::Mutex::new(Some(listed));
        self
    }
}

/// Whether two listings name the same files with the same sizes and times.
fn same_files(a: &Listed, b: &Listed) -> bool {
    let (a, b) = (&a.listing.files, &b.listing.files);
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.path == y.path && x.size == y.size && x.mtime_ns == y.mtime_ns)
}
