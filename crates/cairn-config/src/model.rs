//! The configuration model: the validated, absolute-path [`Config`] every other
//! crate reads, its parts, and the defaults.

use std::path::PathBuf;

use serde::Deserialize;

/// Default file-count limit. Far above spool's 5,000: large vaults are the point.
pub const DEFAULT_MAX_FILES: usize = 200_000;
/// Default per-file size limit (bytes). Larger notes are skipped with a diagnostic.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Default limit on the bytes read across one scan.
pub const DEFAULT_MAX_TOTAL_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// Default directory depth limit below a note root.
pub const DEFAULT_MAX_DEPTH: usize = 32;
/// Default recency half-life, in days.
pub const DEFAULT_HALF_LIFE_DAYS: f64 = 180.0;
/// Default size cap of one memory note written by `cairn memory` (bytes).
pub const DEFAULT_MAX_NOTE_BYTES: u64 = 100 * 1024;
/// Default line budget of a scope's `MEMORY.md` index.
pub const DEFAULT_INDEX_BUDGET_LINES: usize = 150;

/// A validated configuration with every path made absolute.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The file this configuration came from; `None` for a zero-config `--vault DIR`.
    pub source: Option<PathBuf>,
    /// The vault.
    pub vault: Vault,
    /// Developer-wide note roots (vault-relative folders).
    pub developer: Developer,
    /// Configured projects, in file order.
    pub projects: Vec<Project>,
    /// Scenes: named work contexts whose keywords join the query when the task mentions them.
    pub scenes: Vec<Scene>,
    /// Ranking knobs.
    pub ranking: Ranking,
    /// Where the persistent index lives, when set in the file (`[index] dir`).
    pub index_dir: Option<PathBuf>,
    /// A folder of profile and template overrides (`[profiles] dir`).
    pub profiles_dir: Option<PathBuf>,
    /// Where `cairn memory` keeps each scope (`[memory]`).
    pub memory: MemoryConfig,
    /// What cairn reads from git (`[git]`).
    pub git: GitConfig,
}

/// The `[git]` table: the task derived from the working tree when none is given,
/// and the notes whose code changed after them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GitConfig {
    /// When a wake-up without a task takes one from the working tree (`derive =
    /// false` is [`Derive::Never`]; `--derive` and `--no-derive` override it).
    pub derive: Derive,
    /// Subjects of the branch's own commits taken into the task (`commits`).
    pub commits: usize,
    /// Changed files taken as files (`changed_files`).
    pub changed_files: usize,
    /// How long git may take when no deadline is set, in milliseconds (`timeout_ms`).
    pub timeout_ms: u64,
    /// The multiplier of a note whose related files changed since it was written
    /// (`code_changed_deboost`, in (0, 1]; 1 turns it off).
    pub code_changed_deboost: f64,
    /// The first history pass reads at most this many commits (`history_commits`).
    pub history_commits: usize,
    /// ... and none older than this many days (`history_days`).
    pub history_days: u32,
    /// Whether a note without a date of its own, in a vault kept in git, is
    /// dated by the last commit of its file when the file is as git wrote it
    /// (`date_notes`): a clone gives every file the day it was made.
    pub date_notes: bool,
}

/// When a wake-up without a task takes one from the working tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    /// Never (`derive = false`, `--no-derive`).
    Never,
    /// When the repository belongs to the routed project (the default).
    WhenRouted,
    /// From any repository, with or without a routed project (`--derive`).
    Always,
}

impl Default for GitConfig {
    fn default() -> Self {
        Self {
            derive: Derive::WhenRouted,
            commits: 5,
            changed_files: 20,
            timeout_ms: 1000,
            code_changed_deboost: 0.9,
            history_commits: 20_000,
            history_days: 730,
            date_notes: true,
        }
    }
}

/// The `[vault]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct Vault {
    /// Absolute vault root.
    pub root: PathBuf,
    /// Scan limits.
    pub limits: Limits,
    /// `[vault] retiring_statuses`: the `status` words (lowercase) that retire a
    /// note. `None`: the built-in words (`superseded`, `replaced`, `deprecated`,
    /// `obsolete`, `archived`, `archive`, `withdrawn`, `retired`).
    pub retiring_statuses: Option<Vec<String>>,
}

/// What a scan of the vault reads: limits (exceeding one skips and reports, never
/// aborts) and the templates folder it leaves out.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Maximum number of note files read in one scan.
    pub max_files: usize,
    /// Notes larger than this are skipped.
    pub max_file_bytes: u64,
    /// Stop reading once this many bytes were read.
    pub max_total_bytes: u64,
    /// Maximum folder depth below a note root.
    pub max_depth: usize,
    /// The vault-relative folder of note templates (`[vault] templates`), left out
    /// of scans like every folder named `templates`, `Templates` or `_templates`.
    #[serde(skip)]
    pub templates: Option<String>,
    /// The configured note roots with a hidden folder on their way (`repo/.notes`),
    /// sorted: a walk of the whole vault skips hidden folders, so a listing walks
    /// these too (a folder named as a root is read, hidden or not).
    #[serde(skip)]
    pub hidden_roots: Vec<String>,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_files: DEFAULT_MAX_FILES,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            max_total_bytes: DEFAULT_MAX_TOTAL_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            templates: None,
            hidden_roots: Vec::new(),
        }
    }
}

/// The `[developer]` table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Developer {
    /// Vault-relative folders holding developer-wide notes. `""` is the whole vault.
    pub note_roots: Vec<String>,
    /// Vault-relative folders holding the developer's profile (`identity_roots`):
    /// their `person` notes are the packet's identity. `None`: the developer roots
    /// whose folder name contains "identity".
    pub identity_roots: Option<Vec<String>>,
}

/// One `[[projects]]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Project {
    /// Stable identifier, used by `--project` and by notes' `project_id`.
    pub id: String,
    /// Human-readable name.
    pub name: String,
    /// Absolute repository checkouts belonging to this project.
    pub repo_paths: Vec<PathBuf>,
    /// Remote URLs of the project's repository (`remotes`, e.g. `github.com/org/ledger`):
    /// any clone whose remote matches routes to the project.
    pub remotes: Vec<String>,
    /// Vault-relative folders holding this project's notes.
    pub note_roots: Vec<String>,
    /// Tags that mark a note as belonging to this project.
    pub default_tags: Vec<String>,
    /// Sub-areas of the repository.
    pub modules: Vec<Module>,
}

/// One `[[projects.modules]]` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Module {
    /// Identifier.
    pub id: String,
    /// Repository-relative path prefixes; a `--files` path under one selects the module.
    #[serde(default)]
    pub path_prefixes: Vec<String>,
    /// Words added to the query when the module is selected.
    #[serde(default)]
    pub keywords: Vec<String>,
}

/// One `[[scenes]]` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Scene {
    /// Identifier.
    pub id: String,
    /// The scene is active when the task mentions one of these words; they then join the query.
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Notes (vault-relative paths or titles) preferred in this scene.
    #[serde(default)]
    pub preferred_notes: Vec<String>,
}

/// The `[ranking]` table.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default)]
pub struct Ranking {
    /// Recency half-life in days: a note this old keeps 3/4 of its recency weight.
    pub half_life_days: f64,
}

impl Default for Ranking {
    fn default() -> Self {
        Self {
            half_life_days: DEFAULT_HALF_LIFE_DAYS,
        }
    }
}

/// The `[memory]` table: the vault folder of each memory scope, and the write limits.
///
/// Every folder is vault-relative. Defaults put `global`, `user` and personas under
/// `memory/` in the first developer note root, and each project's scope in a
/// `memory` folder of the project's first note root, so that what `cairn memory`
/// writes is scanned and ranked like any other note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryConfig {
    /// The `global` scope (cross-project rules).
    pub global: String,
    /// The `user` scope (the developer).
    pub user: String,
    /// Parent folder of the `persona/<name>` scopes.
    pub personas: String,
    /// Folder name, inside a project's first note root, of its `project/<id>` scope.
    pub project_folder: String,
    /// Per-project overrides of the `project/<id>` folder (vault-relative).
    pub projects: std::collections::BTreeMap<String, String>,
    /// Name of the folder, inside each scope, that `cairn memory rm` moves notes to.
    pub archive_folder: String,
    /// Largest note `cairn memory` writes, in bytes.
    pub max_note_bytes: u64,
    /// Lines a scope's `MEMORY.md` index may hold before `cairn lint` warns.
    pub index_budget_lines: usize,
    /// Whether slugs may name sub-folders (`topic/note`).
    pub nested: bool,
}

impl MemoryConfig {
    /// The defaults for these developer note roots.
    pub fn defaults_for(developer_roots: &[String]) -> Self {
        let base = developer_roots.first().map_or("", |r| r.trim_matches('/'));
        let under = |leaf: &str| {
            if base.is_empty() {
                format!("memory/{leaf}")
            } else {
                format!("{base}/memory/{leaf}")
            }
        };
        Self {
            global: under("global"),
            user: under("user"),
            personas: under("personas"),
            project_folder: "memory".to_owned(),
            projects: std::collections::BTreeMap::new(),
            archive_folder: ".archive".to_owned(),
            max_note_bytes: DEFAULT_MAX_NOTE_BYTES,
            index_budget_lines: DEFAULT_INDEX_BUDGET_LINES,
            nested: false,
        }
    }

    /// The vault-relative folder of `project`'s scope: the override, else
    /// `<first note root>/<project_folder>`; `None` when the project has no note root.
    pub fn project_dir(&self, project: &Project) -> Option<String> {
        if let Some(dir) = self.projects.get(&project.id) {
            return Some(dir.trim_matches('/').to_owned());
        }
        let root = project.note_roots.first()?.trim_matches('/');
        Some(if root.is_empty() {
            self.project_folder.clone()
        } else {
            format!("{root}/{}", self.project_folder)
        })
    }
}

impl Config {
    /// The project with this id.
    pub fn project(&self, id: &str) -> Option<&Project> {
        self.projects.iter().find(|p| p.id == id)
    }

    /// Every configured note root: the developer's, then each project's, in
    /// order (a root two of them name comes twice).
    pub fn note_roots(&self) -> impl Iterator<Item = &String> {
        self.developer
            .note_roots
            .iter()
            .chain(self.projects.iter().flat_map(|p| &p.note_roots))
    }
}
