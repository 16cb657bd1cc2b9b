//! `cairn.toml`: where the vault is, which folders hold developer-wide notes, which
//! repositories belong to which project, and the knobs of ranking and caching.
//!
//! The file shape is the one spool-memory users already have (`[vault]`,
//! `[developer]`, `[[projects]]`, `[[projects.modules]]`, `[[scenes]]`), so a spool
//! config works unchanged: keys cairn does not use (`[output]`, `[embedding]`, ...)
//! are accepted and ignored.
//!
//! This crate only reads and validates. It knows nothing of notes, indexes or
//! packets. Every error names the file, the line (when the file has one) and the
//! key, on one line, so the CLI can print it as is.

use std::fmt;
use std::path::{Component, Path, PathBuf};

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
}

/// The `[vault]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct Vault {
    /// Absolute vault root.
    pub root: PathBuf,
    /// Scan limits.
    pub limits: Limits,
}

/// Scan limits: exceeding one skips and reports, never aborts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
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
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_files: DEFAULT_MAX_FILES,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            max_total_bytes: DEFAULT_MAX_TOTAL_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// The `[developer]` table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Developer {
    /// Vault-relative folders holding developer-wide notes. `""` is the whole vault.
    pub note_roots: Vec<String>,
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

/// Where a configuration was looked for, in order; used to explain "no config found".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    /// `--config FILE`.
    pub flag: Option<PathBuf>,
    /// `$CAIRN_CONFIG`.
    pub env: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME/cairn/config.toml`, else `~/.config/cairn/config.toml`.
    pub user: Option<PathBuf>,
}

impl Discovery {
    /// Builds the search list from the flag and the environment (`CAIRN_CONFIG`,
    /// `XDG_CONFIG_HOME`, `HOME`), read through `env` so tests can pin it.
    pub fn new(flag: Option<PathBuf>, env: impl Fn(&str) -> Option<String>) -> Self {
        let nonempty = |key: &str| env(key).filter(|v| !v.is_empty());
        let user = nonempty("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| nonempty("HOME").map(|h| PathBuf::from(h).join(".config")))
            .map(|dir| dir.join("cairn").join("config.toml"));
        Self {
            flag,
            env: nonempty("CAIRN_CONFIG").map(PathBuf::from),
            user,
        }
    }

    /// The file to load: the flag or the variable if given (they must exist), else the
    /// user file when it exists. `Ok(None)` means no configuration anywhere.
    pub fn locate(&self) -> Result<Option<PathBuf>, ConfigError> {
        if let Some(path) = &self.flag {
            return Ok(Some(path.clone()));
        }
        if let Some(path) = &self.env {
            if !path.is_file() {
                return Err(ConfigError::new(
                    path,
                    None,
                    Some("CAIRN_CONFIG"),
                    "the file named by $CAIRN_CONFIG does not exist",
                ));
            }
            return Ok(Some(path.clone()));
        }
        Ok(self.user.clone().filter(|p| p.is_file()))
    }
}

/// A configuration error: file, line, key and message, displayed on one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    /// The configuration file (or the folder given with `--vault`).
    pub path: PathBuf,
    /// 1-based line, when the error points into the file.
    pub line: Option<usize>,
    /// The dotted key the error is about (`projects[1].repo_paths`).
    pub key: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl ConfigError {
    fn new(
        path: &Path,
        line: Option<usize>,
        key: Option<&str>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            path: path.to_path_buf(),
            line,
            key: key.map(str::to_owned),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": key `{key}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

// ---------------------------------------------------------------------------
// Raw file shape (serde), then validation into `Config`.

#[derive(Debug, Deserialize)]
struct RawConfig {
    vault: Option<RawVault>,
    #[serde(default)]
    developer: RawDeveloper,
    #[serde(default)]
    projects: Vec<RawProject>,
    #[serde(default)]
    scenes: Vec<Scene>,
    #[serde(default)]
    ranking: Ranking,
    #[serde(default)]
    index: RawIndex,
    #[serde(default)]
    profiles: RawProfiles,
    #[serde(default)]
    memory: RawMemory,
}

#[derive(Debug, Default, Deserialize)]
struct RawMemory {
    global: Option<String>,
    user: Option<String>,
    personas: Option<String>,
    project_folder: Option<String>,
    #[serde(default)]
    projects: std::collections::BTreeMap<String, String>,
    archive_folder: Option<String>,
    max_note_bytes: Option<u64>,
    index_budget_lines: Option<usize>,
    nested: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct RawVault {
    root: Option<String>,
    #[serde(default)]
    limits: Limits,
}

#[derive(Debug, Default, Deserialize)]
struct RawDeveloper {
    #[serde(default)]
    note_roots: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct RawProject {
    id: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    repo_paths: Vec<String>,
    #[serde(default)]
    note_roots: Vec<String>,
    #[serde(default)]
    default_tags: Vec<String>,
    #[serde(default)]
    modules: Vec<Module>,
}

#[derive(Debug, Default, Deserialize)]
struct RawIndex {
    dir: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct RawProfiles {
    dir: Option<String>,
}

impl Config {
    /// The zero-config form: `dir` is one unscoped vault whose every note is developer-wide.
    pub fn for_vault(dir: &Path) -> Result<Self, ConfigError> {
        let root = dir.canonicalize().map_err(|e| {
            ConfigError::new(dir, None, None, format!("cannot open vault folder: {e}"))
        })?;
        if !root.is_dir() {
            return Err(ConfigError::new(
                dir,
                None,
                None,
                "the vault is not a folder",
            ));
        }
        Ok(Self {
            source: None,
            vault: Vault {
                root,
                limits: Limits::default(),
            },
            developer: Developer {
                note_roots: vec![String::new()],
            },
            projects: Vec::new(),
            scenes: Vec::new(),
            ranking: Ranking::default(),
            index_dir: None,
            profiles_dir: None,
            memory: MemoryConfig::defaults_for(&[String::new()]),
        })
    }

    /// Reads and validates a configuration file. `home` expands a leading `~/`.
    pub fn load(path: &Path, home: Option<&Path>) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            let what = if e.kind() == std::io::ErrorKind::NotFound {
                "config file not found".to_owned()
            } else {
                format!("cannot read config file: {e}")
            };
            ConfigError::new(path, None, None, what)
        })?;
        Self::parse(&text, path, home)
    }

    /// Parses configuration text as if it had been read from `path`.
    pub fn parse(text: &str, path: &Path, home: Option<&Path>) -> Result<Self, ConfigError> {
        let raw = parse_raw(text, path)?;
        let base = path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .unwrap_or(Path::new("."));
        let base = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
        let line_of = |needle: &str| find_line(text, needle);
        let err = |needle: &str, key: &str, msg: String| {
            ConfigError::new(path, line_of(needle), Some(key), msg)
        };

        let raw_vault = raw
            .vault
            .ok_or_else(|| ConfigError::new(path, None, Some("vault"), "missing [vault] table"))?;
        let root_text = raw_vault
            .root
            .ok_or_else(|| err("[vault]", "vault.root", "missing vault root".into()))?;
        let root = resolve(&base, &root_text, home);
        let root = match root.canonicalize() {
            Ok(p) if p.is_dir() => p,
            Ok(_) => {
                return Err(err(
                    "root",
                    "vault.root",
                    format!("`{root_text}` is not a folder"),
                ));
            }
            Err(e) => {
                return Err(err(
                    "root",
                    "vault.root",
                    format!("vault folder `{}` cannot be opened: {e}", root.display()),
                ));
            }
        };
        let limits = raw_vault.limits;
        if limits.max_files == 0 || limits.max_file_bytes == 0 || limits.max_total_bytes == 0 {
            return Err(err(
                "[vault.limits]",
                "vault.limits",
                "limits must be positive".into(),
            ));
        }

        for (i, r) in raw.developer.note_roots.iter().enumerate() {
            check_note_root(r).map_err(|m| err(r, &format!("developer.note_roots[{i}]"), m))?;
        }

        let mut projects = Vec::with_capacity(raw.projects.len());
        for (i, p) in raw.projects.into_iter().enumerate() {
            let key = |k: &str| format!("projects[{i}].{k}");
            if p.id.trim().is_empty() {
                return Err(err(
                    "[[projects]]",
                    &key("id"),
                    "project id is empty".into(),
                ));
            }
            if projects.iter().any(|q: &Project| q.id == p.id) {
                return Err(err(
                    &format!("\"{}\"", p.id),
                    &key("id"),
                    format!("duplicate project id `{}`", p.id),
                ));
            }
            for (j, r) in p.note_roots.iter().enumerate() {
                check_note_root(r).map_err(|m| err(r, &key(&format!("note_roots[{j}]")), m))?;
            }
            let repo_paths = p
                .repo_paths
                .iter()
                .map(|r| {
                    let abs = resolve(&base, r, home);
                    // A repo that is not checked out here is fine (one config, many machines).
                    abs.canonicalize().unwrap_or(abs)
                })
                .collect();
            projects.push(Project {
                name: p.name.unwrap_or_else(|| p.id.clone()),
                id: p.id,
                repo_paths,
                note_roots: p.note_roots,
                default_tags: p.default_tags,
                modules: p.modules,
            });
        }
        if raw.ranking.half_life_days.is_nan() || raw.ranking.half_life_days <= 0.0 {
            return Err(err(
                "half_life_days",
                "ranking.half_life_days",
                "must be a positive number of days".into(),
            ));
        }

        let memory = memory_config(raw.memory, &raw.developer.note_roots, &projects)
            .map_err(|(needle, key, msg)| err(&needle, &key, msg))?;

        Ok(Self {
            source: Some(path.canonicalize().unwrap_or_else(|_| path.to_path_buf())),
            vault: Vault { root, limits },
            developer: Developer {
                note_roots: raw.developer.note_roots,
            },
            projects,
            scenes: raw.scenes,
            ranking: raw.ranking,
            index_dir: raw.index.dir.map(|d| resolve(&base, &d, home)),
            profiles_dir: raw.profiles.dir.map(|d| resolve(&base, &d, home)),
            memory,
        })
    }

    /// The project with this id.
    pub fn project(&self, id: &str) -> Option<&Project> {
        self.projects.iter().find(|p| p.id == id)
    }
}

fn parse_raw(text: &str, path: &Path) -> Result<RawConfig, ConfigError> {
    let de = toml::Deserializer::parse(text).map_err(|e| toml_error(text, path, &e, None))?;
    serde_path_to_error::deserialize(de).map_err(|e| {
        let key = e.path().to_string();
        let key = (key != ".").then_some(key);
        toml_error(text, path, e.inner(), key)
    })
}

fn toml_error(text: &str, path: &Path, e: &toml::de::Error, key: Option<String>) -> ConfigError {
    let line = e
        .span()
        .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
    let message = e
        .message()
        .lines()
        .next()
        .unwrap_or("invalid TOML")
        .to_owned();
    ConfigError {
        path: path.to_path_buf(),
        line,
        key,
        message,
    }
}

/// First 1-based line containing `needle`, to point errors found after parsing.
fn find_line(text: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

/// Validates the `[memory]` table; errors are (text to find the line by, key, message).
fn memory_config(
    raw: RawMemory,
    developer_roots: &[String],
    projects: &[Project],
) -> Result<MemoryConfig, (String, String, String)> {
    let mut m = MemoryConfig::defaults_for(developer_roots);
    let folder = |value: Option<String>, key: &str, slot: &mut String| {
        if let Some(v) = value {
            check_note_root(&v).map_err(|msg| (v.clone(), format!("memory.{key}"), msg))?;
            if v.trim_matches('/').is_empty() {
                return Err((
                    key.to_owned(),
                    format!("memory.{key}"),
                    "must name a folder inside the vault, not the vault itself".to_owned(),
                ));
            }
            *slot = v.trim_matches('/').to_owned();
        }
        Ok(())
    };
    folder(raw.global, "global", &mut m.global)?;
    folder(raw.user, "user", &mut m.user)?;
    folder(raw.personas, "personas", &mut m.personas)?;
    folder(raw.project_folder, "project_folder", &mut m.project_folder)?;
    for (id, dir) in raw.projects {
        let key = format!("memory.projects.{id}");
        if !projects.iter().any(|p| p.id == id) {
            return Err((
                id.clone(),
                key,
                format!("no [[projects]] entry has id `{id}`"),
            ));
        }
        check_note_root(&dir).map_err(|msg| (dir.clone(), key.clone(), msg))?;
        m.projects.insert(id, dir.trim_matches('/').to_owned());
    }
    if let Some(a) = raw.archive_folder {
        let bad = a.is_empty()
            || a.contains(['/', '\\'])
            || a == "."
            || a == ".."
            || a.chars().any(char::is_control);
        if bad {
            return Err((
                "archive_folder".to_owned(),
                "memory.archive_folder".to_owned(),
                "must be one folder name (no `/`), e.g. \".archive\"".to_owned(),
            ));
        }
        m.archive_folder = a;
    }
    if let Some(n) = raw.max_note_bytes {
        if n == 0 {
            return Err((
                "max_note_bytes".to_owned(),
                "memory.max_note_bytes".to_owned(),
                "must be positive".to_owned(),
            ));
        }
        m.max_note_bytes = n;
    }
    if let Some(n) = raw.index_budget_lines {
        if n == 0 {
            return Err((
                "index_budget_lines".to_owned(),
                "memory.index_budget_lines".to_owned(),
                "must be positive".to_owned(),
            ));
        }
        m.index_budget_lines = n;
    }
    if let Some(n) = raw.nested {
        m.nested = n;
    }
    Ok(m)
}

/// Note roots are vault-relative: no absolute paths and no `..`.
fn check_note_root(root: &str) -> Result<(), String> {
    let p = Path::new(root);
    if p.is_absolute() || p.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(format!(
            "note root `{root}` must be a folder inside the vault"
        ));
    }
    Ok(())
}

/// Expands `~/` and makes `p` absolute against `base`.
pub fn resolve(base: &Path, p: &str, home: Option<&Path>) -> PathBuf {
    let expanded = match (p.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if p == "~" => home
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(p)),
        _ => PathBuf::from(p),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        base.join(expanded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn spool_config_loads_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("vault")).unwrap();
        let text = r#"
[vault]
root = "vault"
ledger_dir = ".spool"
[vault.limits]
max_files = 5000
[output]
default_format = "prompt"
max_chars = 12000
[developer]
note_roots = ["00-Identity"]
[[projects]]
id = "spool"
name = "Spool"
repo_paths = ["/src/spool"]
note_roots = ["10-Projects"]
default_tags = ["rust"]
[[projects.modules]]
id = "routing"
path_prefixes = ["src/engine"]
keywords = ["route"]
[[scenes]]
id = "planning"
keywords = ["design"]
preferred_notes = ["10-Projects/spool/Overview.md"]
[embedding]
enabled = false
"#;
        let path = write(dir.path(), "spool.toml", text);
        let c = Config::load(&path, None).unwrap();
        assert_eq!(c.vault.limits.max_files, 5000);
        assert_eq!(c.vault.limits.max_depth, DEFAULT_MAX_DEPTH);
        assert_eq!(c.projects[0].modules[0].keywords, vec!["route"]);
        assert_eq!(c.scenes[0].id, "planning");
        assert!(c.vault.root.is_absolute());
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("vault")).unwrap();
        let text = "[vault]\nroot = \"vault\"\n\n[[projects]]\nid = \"a\"\nrepo_paths = 7\n";
        let path = write(dir.path(), "c.toml", text);
        let e = Config::load(&path, None).unwrap_err();
        assert_eq!(e.line, Some(6), "{e}");
        assert_eq!(e.key.as_deref(), Some("projects[0].repo_paths"));
        let shown = e.to_string();
        assert!(
            shown.contains("c.toml:6: key `projects[0].repo_paths`"),
            "{shown}"
        );
        assert!(!shown.contains('\n'));
    }

    #[test]
    fn syntax_error_has_a_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "c.toml",
            "[vault]\nroot = \"v\"\nbroken = = 3\n",
        );
        let e = Config::load(&path, None).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
    }

    #[test]
    fn missing_vault_root_folder_is_an_error_on_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "c.toml", "# hi\n[vault]\nroot = \"nope\"\n");
        let e = Config::load(&path, None).unwrap_err();
        assert_eq!(
            (e.line, e.key.as_deref()),
            (Some(3), Some("vault.root")),
            "{e}"
        );
    }

    #[test]
    fn duplicate_and_escaping_entries_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let dup = "[vault]\nroot='v'\n[[projects]]\nid=\"a\"\n[[projects]]\nid=\"a\"\n";
        let e = Config::load(&write(dir.path(), "d.toml", dup), None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("projects[1].id"));
        let esc = "[vault]\nroot='v'\n[developer]\nnote_roots=['../x']\n";
        let e = Config::load(&write(dir.path(), "e.toml", esc), None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("developer.note_roots[0]"));
        assert_eq!(e.line, Some(4));
    }

    #[test]
    fn relative_paths_resolve_against_the_file_and_tilde_against_home() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("cfg/v")).unwrap();
        let text = "[vault]\nroot='v'\n[[projects]]\nid='p'\nrepo_paths=['../repo','~/code/x']\n";
        let path = write(&dir.path().join("cfg"), "c.toml", text);
        let c = Config::load(&path, Some(Path::new("/home/u"))).unwrap();
        let root = dir.path().join("cfg/v").canonicalize().unwrap();
        assert_eq!(c.vault.root, root);
        assert_eq!(c.projects[0].repo_paths[1], PathBuf::from("/home/u/code/x"));
        assert!(c.projects[0].repo_paths[0].ends_with("repo"));
        assert_eq!(c.projects[0].name, "p");
    }

    #[test]
    fn discovery_order_is_flag_env_user() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("xdg/cairn");
        std::fs::create_dir_all(&user).unwrap();
        std::fs::write(user.join("config.toml"), "").unwrap();
        let env_file = write(dir.path(), "env.toml", "");
        let xdg = dir.path().join("xdg").display().to_string();
        let envf = env_file.display().to_string();
        let env = |k: &str| match k {
            "XDG_CONFIG_HOME" => Some(xdg.clone()),
            "CAIRN_CONFIG" => Some(envf.clone()),
            _ => None,
        };
        let d = Discovery::new(Some("flag.toml".into()), env);
        assert_eq!(d.locate().unwrap(), Some(PathBuf::from("flag.toml")));
        let d = Discovery::new(None, env);
        assert_eq!(d.locate().unwrap(), Some(env_file.clone()));
        let d = Discovery::new(None, |k| (k == "XDG_CONFIG_HOME").then(|| xdg.clone()));
        assert_eq!(d.locate().unwrap(), Some(user.join("config.toml")));
        let d = Discovery::new(None, |k| (k == "HOME").then(|| "/nonexistent".to_owned()));
        assert_eq!(d.locate().unwrap(), None);
        let d = Discovery::new(None, |k| {
            (k == "CAIRN_CONFIG").then(|| "/nope.toml".to_owned())
        });
        assert_eq!(d.locate().unwrap_err().key.as_deref(), Some("CAIRN_CONFIG"));
    }

    #[test]
    fn zero_config_is_one_unscoped_vault() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config::for_vault(dir.path()).unwrap();
        assert_eq!(c.developer.note_roots, vec![String::new()]);
        assert!(c.projects.is_empty());
        assert!(Config::for_vault(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn memory_defaults_follow_the_note_roots() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let text = "[vault]\nroot='v'\n[developer]\nnote_roots=['00-Identity/', '30-Workflows']\n[[projects]]\nid='p'\nnote_roots=['10-Projects/p']\n[[projects]]\nid='bare'\n";
        let c = Config::load(&write(dir.path(), "c.toml", text), None).unwrap();
        let m = &c.memory;
        assert_eq!(m.global, "00-Identity/memory/global");
        assert_eq!(m.user, "00-Identity/memory/user");
        assert_eq!(m.personas, "00-Identity/memory/personas");
        assert_eq!(
            m.project_dir(&c.projects[0]).as_deref(),
            Some("10-Projects/p/memory")
        );
        assert_eq!(m.project_dir(&c.projects[1]), None);
        assert_eq!(m.max_note_bytes, DEFAULT_MAX_NOTE_BYTES);
        assert_eq!(m.index_budget_lines, DEFAULT_INDEX_BUDGET_LINES);
        assert_eq!(m.archive_folder, ".archive");
        assert!(!m.nested);
        let zero = Config::for_vault(dir.path()).unwrap();
        assert_eq!(zero.memory.global, "memory/global");
    }

    #[test]
    fn memory_table_overrides_and_validation() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let base = "[vault]\nroot='v'\n[[projects]]\nid='p'\nnote_roots=['P']\n";
        let ok = format!(
            "{base}[memory]\nglobal='M/g'\nuser='M/u/'\npersonas='M/personas'\nproject_folder='agent'\nmax_note_bytes=2048\nindex_budget_lines=20\nnested=true\narchive_folder='_old'\n[memory.projects]\np='Elsewhere/p'\n"
        );
        let c = Config::load(&write(dir.path(), "ok.toml", &ok), None).unwrap();
        assert_eq!(c.memory.global, "M/g");
        assert_eq!(c.memory.user, "M/u");
        assert_eq!(
            c.memory.project_dir(&c.projects[0]).as_deref(),
            Some("Elsewhere/p")
        );
        assert_eq!(
            (
                c.memory.max_note_bytes,
                c.memory.index_budget_lines,
                c.memory.nested
            ),
            (2048, 20, true)
        );
        assert_eq!(c.memory.archive_folder, "_old");

        let cases = [
            ("[memory]\nglobal='../out'\n", "memory.global", 7),
            ("[memory]\nuser='/abs'\n", "memory.user", 7),
            ("[memory]\nmax_note_bytes=0\n", "memory.max_note_bytes", 7),
            (
                "[memory]\nindex_budget_lines=0\n",
                "memory.index_budget_lines",
                7,
            ),
            (
                "[memory]\narchive_folder='a/b'\n",
                "memory.archive_folder",
                7,
            ),
            ("[memory]\nglobal=''\n", "memory.global", 7),
            ("[memory.projects]\nnope='X'\n", "memory.projects.nope", 7),
            ("[memory]\nnested='yes'\n", "memory.nested", 7),
        ];
        for (i, (tail, key, line)) in cases.iter().enumerate() {
            let path = write(
                dir.path(),
                &format!("bad{i}.toml"),
                &format!("{base}{tail}"),
            );
            let e = Config::load(&path, None).unwrap_err();
            assert_eq!(e.key.as_deref(), Some(*key), "{tail}: {e}");
            assert_eq!(e.line, Some(*line), "{tail}: {e}");
        }
    }
}
