//! Reading `cairn.toml` into a [`Config`]: TOML with serde (every error with its
//! line and dotted key), then validation (paths resolved and made absolute, note
//! roots inside the vault, ids unique, numbers positive).

use std::path::{Component, Path, PathBuf};

use crate::raw::{RawConfig, RawMemory};
use crate::{Config, ConfigError, Developer, Limits, MemoryConfig, Project, Ranking, Vault};

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
        let mut limits = raw_vault.limits;
        if let Some(t) = raw_vault.templates {
            check_note_root(&t).map_err(|_| {
                err(
                    "templates",
                    "vault.templates",
                    format!("templates folder `{t}` must be a folder inside the vault"),
                )
            })?;
            let t = t.trim_matches('/').to_owned();
            limits.templates = (!t.is_empty()).then_some(t);
        }
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
