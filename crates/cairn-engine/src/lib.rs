//! The engine: one vault opened once, serving `wakeup`, `search`, `get` and
//! `explain` through the same pipeline.
//!
//! ```text
//! route ─▶ scan ─▶ index ─▶ score ─▶ policy ─▶ assemble ─▶ render
//! ```
//! Each arrow is a crate; this one only wires them and owns the decisions that span
//! stages (which notes are in scope for a profile, when a confidential note is
//! strongly relevant, fitting the rendered output to its token budget). The CLI,
//! the MCP server and the benchmark all call this crate and nothing below it, so
//! there is one ranking path and one policy path.

mod bodies;
mod code_changed;
mod derived_task;
mod explain;
mod explain_text;
mod fit;
mod git_task;
mod hot;
mod layers;
mod list;
mod lookup;
mod measure;
mod note_dates;
mod notes;
mod open;
mod owners;
mod persistent;
mod prompt_notes;
mod resume;
mod scope;
mod wakeup;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use cairn_assemble::Profile;
use cairn_config::Config;
use cairn_note::{Diagnostic, Note};
use cairn_render::Renderer;

use crate::notes::NoteSource;

pub use cairn_config as config;
pub use cairn_index::panic_is_contained;
pub use cairn_note::Severity;
pub use cairn_note::{MemoryType, Sensitivity, Status};
pub use cairn_policy::WITHHELD_NOTICE;
pub use cairn_render::{Format, Target};
pub use cairn_score::{Op as FactorOp, Ranking};
pub use code_changed::{ChangedCode, HistoryReport, UnreadHistory};
pub use derived_task::{DerivedTask, PartKind, TaskPart};
pub use explain::{CandidateReport, Explanation};
pub use fit::OutputCaps;
pub use git_task::GitTask;
pub use hot::SessionSource;
pub use list::{ListRequest, ListResult, ListScope, ListedNote};
pub use lookup::{GetResult, SearchHit, SearchRequest, SearchResult, SearchScope, SecretLookup};
pub use measure::{Scan, scan_vault};
pub use open::OpenDeadline;
pub use persistent::{
    GitHistoryStatus, IndexInfo, IndexMode, PersistentOptions, index_git_status, index_status,
    index_verify,
};
pub use prompt_notes::{PromptNotes, PromptNotesRequest};
pub use wakeup::{WakeupOutput, WakeupRequest};
pub use {cairn_cache as cache, cairn_cache::Progress, cairn_policy as policy};

pub use cairn_assemble::{BUILTIN_PROFILES, CodeChange};

/// Engine failures. Each says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A configuration problem (usage error).
    #[error(transparent)]
    Config(#[from] cairn_config::ConfigError),
    /// Routing failed (usage error).
    #[error(transparent)]
    Route(#[from] cairn_route::RouteError),
    /// The index failed.
    #[error(transparent)]
    Index(#[from] cairn_index::IndexError),
    /// A template failed.
    #[error(transparent)]
    Render(#[from] cairn_render::RenderError),
    /// A profile file is invalid (usage error).
    #[error(transparent)]
    Profile(#[from] cairn_assemble::ProfileError),
    /// No such profile (usage error).
    #[error("no profile `{name}` (available: {available})")]
    UnknownProfile {
        /// Asked for.
        name: String,
        /// Known names.
        available: String,
    },
    /// The budget cannot hold even an empty packet (usage error).
    #[error(
        "a budget of {budget} tokens is too small: the packet needs at least {needed} for {format}"
    )]
    BudgetTooSmall {
        /// Asked for.
        budget: usize,
        /// The empty packet's size.
        needed: usize,
        /// Format.
        format: String,
    },
    /// The rendered text exceeds a character or byte cap at every budget tried.
    #[error("the packet does not fit in {caps} at any token budget")]
    DoesNotFit {
        /// The cap, e.g. `9500 characters`.
        caps: String,
    },
    /// No note matches.
    #[error("no note `{query}` in the vault{hint}")]
    NotFound {
        /// What was asked.
        query: String,
        /// ", did you mean ..." or empty.
        hint: String,
    },
    /// Several notes match.
    #[error("`{query}` is ambiguous: {candidates}")]
    Ambiguous {
        /// What was asked.
        query: String,
        /// Comma-separated paths.
        candidates: String,
    },
    /// Policy refuses to show the note.
    #[error("refused: `{query}` is a secret note; cairn never shows secret notes")]
    Secret {
        /// What was asked.
        query: String,
    },
    /// Reading a file or folder failed.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file would be overwritten.
    #[error("{0} already exists; not overwritten")]
    Exists(PathBuf),
    /// A line range that holds no line of the note.
    #[error("{0}")]
    LineRange(String),
    /// The persistent index failed.
    #[error(transparent)]
    Cache(#[from] cairn_cache::CacheError),
    /// The quick open's thread pool could not be started.
    #[error("cannot start a thread pool: {0}")]
    ThreadPool(String),
    /// No folder can be named for the persistent index.
    #[error(
        "no folder for the index: $CAIRN_CACHE_DIR, $XDG_CACHE_HOME and $HOME are unset or not absolute; set [index] dir in cairn.toml or pass --index-dir"
    )]
    NoIndexDir,
}

impl EngineError {
    /// Whether this is the user's input or configuration (exit code 2) rather than a failure.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            EngineError::Config(_)
                | EngineError::Route(_)
                | EngineError::Profile(_)
                | EngineError::UnknownProfile { .. }
                | EngineError::BudgetTooSmall { .. }
                | EngineError::NoIndexDir
                | EngineError::LineRange(_)
        )
    }
}

/// How to open a vault.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// Folder of profile and template overrides (beside the built-ins).
    pub profiles_dir: Option<PathBuf>,
    /// Where the notes' index lives: in memory (the default) or in the persistent cache.
    pub index: IndexMode,
}

/// An opened vault: its notes, their index, profiles and templates.
pub struct Engine {
    config: Config,
    notes: NoteSource,
    diagnostics: Vec<Diagnostic>,
    profiles: BTreeMap<String, Profile>,
    renderer: Renderer,
    index_info: IndexInfo,
    /// How it was opened (a refresh reopens the same way).
    options: OpenOptions,
    /// The listing it was built from, for [`Engine::refresh`] (`None`: built from
    /// given notes, or a quick engine).
    listed: Mutex<Option<Arc<cairn_cache::Listed>>>,
    /// What git said about the task of the wake-up it was opened for.
    git_prepared: Mutex<Option<git_task::Prepared>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("vault", &self.config.vault.root)
            .field("notes", &self.notes.len())
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Builds an engine over already-parsed notes, indexed in memory.
    pub fn from_notes(
        config: Config,
        notes: Vec<Note>,
        diagnostics: Vec<Diagnostic>,
        opts: &OpenOptions,
    ) -> Result<Self, EngineError> {
        let source = NoteSource::memory(notes, config.vault.retiring_statuses.as_deref())?;
        Self::assemble_engine(config, source, diagnostics, opts, IndexInfo::default())
    }

    fn assemble_engine(
        config: Config,
        notes: NoteSource,
        mut diagnostics: Vec<Diagnostic>,
        opts: &OpenOptions,
        index_info: IndexInfo,
    ) -> Result<Self, EngineError> {
        diagnostics.sort();
        let dir = opts
            .profiles_dir
            .clone()
            .or_else(|| config.profiles_dir.clone());
        let (profiles, renderer) = load_profiles(dir.as_deref())?;
        Ok(Self {
            config,
            notes,
            diagnostics,
            profiles,
            renderer,
            index_info,
            options: opts.clone(),
            listed: Mutex::new(None),
            git_prepared: Mutex::new(None),
        })
    }

    /// Where the notes came from (memory or cache), what a refresh did, and
    /// whether answers are partial.
    pub fn index_info(&self) -> &IndexInfo {
        &self.index_info
    }

    /// What `CAIRN_TIMINGS` prints of a wake-up answered since `answer_started`
    /// (microseconds each): the open's steps (git's thread among them), then
    /// `answer`, then the answer's `phases` ([`WakeupOutput::timings`]).
    #[must_use]
    pub fn timings(
        &self,
        answer_started: std::time::Instant,
        phases: &[(&'static str, u64)],
    ) -> Vec<(&'static str, u64)> {
        let answer = micros(answer_started);
        (self.index_info.timings.iter().copied())
            .chain([("answer", answer)])
            .chain(phases.iter().copied())
            .collect()
    }

    /// Warnings the index raised after the engine was opened (a damaged cached
    /// index found by a search and replaced), each returned once.
    pub fn take_index_warnings(&self) -> Vec<String> {
        self.notes.take_warnings()
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Every parsed note with its body, sorted by path. On a cached engine the
    /// first call reads every note file: prefer [`Engine::note`] for a few notes.
    pub fn notes(&self) -> &[Note] {
        self.notes.all_full()
    }

    /// Number of notes.
    pub fn note_count(&self) -> usize {
        self.notes.len()
    }

    /// The note at a vault-relative path, with its body.
    pub fn note(&self, path: &str) -> Option<&Note> {
        self.notes.full(path)
    }

    /// A note's metadata (on a cached engine, without its body): what ranking uses.
    pub(crate) fn meta(&self, path: &str) -> Option<&Note> {
        self.notes.meta(path)
    }

    /// Scan diagnostics, sorted.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The scan diagnostics a user may be shown: none about a secret note, and
    /// paths and messages redacted (a message can quote a note's text: a YAML
    /// error, a value).
    pub fn shown_diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| !self.about_a_secret_note(d))
            .map(|d| Diagnostic {
                path: cairn_policy::SafeText::redact(&d.path).into_string(),
                message: cairn_policy::SafeText::redact(&d.message).into_string(),
                ..d.clone()
            })
            .collect()
    }

    /// How many scan diagnostics of `severity` or above are about secret notes
    /// (or notes whose sensitivity is in doubt): counted, never shown with the
    /// rest (see [`Engine::shown_diagnostics`]); `cairn lint` lists them.
    pub fn withheld_diagnostics(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity >= severity && self.about_a_secret_note(d))
            .count()
    }

    fn about_a_secret_note(&self, d: &Diagnostic) -> bool {
        self.meta(&d.path)
            .is_some_and(|n| n.sensitivity == cairn_note::Sensitivity::Secret)
    }

    /// Known profile names.
    pub fn profile_names(&self) -> Vec<String> {
        self.profiles.keys().cloned().collect()
    }

    fn profile(&self, name: &str) -> Result<&Profile, EngineError> {
        self.profiles
            .get(name)
            .ok_or_else(|| EngineError::UnknownProfile {
                name: name.to_owned(),
                available: self.profile_names().join(", "),
            })
    }

    /// Notes under any of `roots` (`""` is the whole vault), metadata only.
    fn under_roots<'a: 'r, 'r>(
        &'a self,
        roots: &'r [String],
    ) -> impl Iterator<Item = &'a Note> + 'r {
        self.notes.under_roots(roots)
    }
}

/// Whether vault-relative `path` lies under root folder `root`.
pub use cairn_note::in_root;

/// Built-in profiles and templates, then the overrides found in `dir`:
/// `dir/*.toml` profiles and `dir/templates/<format>/<target>.j2` templates (`related/`:
/// the prompt hook's block).
fn load_profiles(dir: Option<&Path>) -> Result<(BTreeMap<String, Profile>, Renderer), EngineError> {
    let mut profiles = BTreeMap::new();
    for (name, text) in BUILTIN_PROFILES {
        let p = Profile::parse(name, text)?;
        profiles.insert(p.name.clone(), p);
    }
    let mut templates = Vec::new();
    if let Some(dir) = dir {
        let io = |e| EngineError::Io {
            path: dir.to_path_buf(),
            source: e,
        };
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        {
            let text = std::fs::read_to_string(p).map_err(|e| EngineError::Io {
                path: p.clone(),
                source: e,
            })?;
            let profile = Profile::parse(&p.display().to_string(), &text)?;
            profiles.insert(profile.name.clone(), profile);
        }
        let tdir = dir.join("templates");
        for format in ["prompt", "markdown", "related"] {
            let Ok(rd) = std::fs::read_dir(tdir.join(format)) else {
                continue;
            };
            let mut files: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for f in files
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "j2"))
            {
                let text = std::fs::read_to_string(f).map_err(|e| EngineError::Io {
                    path: f.clone(),
                    source: e,
                })?;
                let name = format!(
                    "{format}/{}",
                    f.file_name().unwrap_or_default().to_string_lossy()
                );
                templates.push((name, text));
            }
        }
        if let Ok(text) = std::fs::read_to_string(tdir.join("_macros.j2")) {
            templates.push(("_macros.j2".to_owned(), text));
        }
    }
    Ok((profiles, Renderer::with_templates(templates)?))
}

/// Microseconds since `t`, for the timings `CAIRN_TIMINGS` prints.
pub fn micros(t: std::time::Instant) -> u64 {
    u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX)
}
