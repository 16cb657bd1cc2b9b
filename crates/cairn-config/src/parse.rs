//! Reading `cairn.toml` into a [`Config`]: TOML with serde (every error with its
//! line and dotted key), then validation (paths resolved and made absolute, note
//! roots inside the vault, ids unique, numbers positive).

use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use toml::Spanned;

use crate::raw::{RawConfig, RawGit, RawMemory};
use crate::{
    Config, ConfigError, Developer, GitConfig, Limits, MemoryConfig, Project, Ranking, Vault,
};

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
                retiring_statuses: None,
            },
            developer: Developer {
                note_roots: vec![String::new()],
                identity_roots: None,
            },
            projects: Vec::new(),
            scenes: Vec::new(),
            ranking: Ranking::default(),
            index_dir: None,
            profiles_dir: None,
            memory: MemoryConfig::defaults_for(&[String::new()]),
            git: GitConfig::default(),
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
        let base = path.parent().map_or(Path::new("."), |p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        });
        let base = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
        // The 1-based line a value starts on.
        let line_at = |span: std::ops::Range<usize>| {
            Some(text[..span.start.min(text.len())].matches('\n').count() + 1)
        };
        let err = |span: std::ops::Range<usize>, key: &str, msg: String| {
            ConfigError::new(path, line_at(span), Some(key), msg)
        };
        let at = |v: &Spanned<String>, key: &str, msg: String| err(v.span(), key, msg);

        let raw_vault = raw
            .vault
            .ok_or_else(|| ConfigError::new(path, None, Some("vault"), "missing [vault] table"))?;
        let vault_span = raw_vault.span();
        let raw_vault = raw_vault.into_inner();
        let root_spanned = raw_vault
            .root
            .ok_or_else(|| err(vault_span, "vault.root", "missing vault root".into()))?;
        let root_text = root_spanned.get_ref().clone();
        let root = resolve(&base, &root_text, home);
        let root = match root.canonicalize() {
            Ok(p) if p.is_dir() => p,
            Ok(_) => {
                return Err(at(
                    &root_spanned,
                    "vault.root",
                    format!("`{root_text}` is not a folder"),
                ));
            }
            Err(e) => {
                return Err(at(
                    &root_spanned,
                    "vault.root",
                    format!("vault folder `{}` cannot be opened: {e}", root.display()),
                ));
            }
        };
        let mut limits = match raw_vault.limits {
            None => Limits::default(),
            Some(l) => {
                let span = l.span();
                let l = l.into_inner();
                if l.max_files == 0 || l.max_file_bytes == 0 || l.max_total_bytes == 0 {
                    return Err(err(span, "vault.limits", "limits must be positive".into()));
                }
                l
            }
        };
        if let Some(t) = raw_vault.templates {
            check_note_root(t.get_ref()).map_err(|_| {
                at(
                    &t,
                    "vault.templates",
                    format!(
                        "templates folder `{}` must be a folder inside the vault",
                        t.get_ref()
                    ),
                )
            })?;
            let t = t.get_ref().trim_matches('/').to_owned();
            limits.templates = (!t.is_empty()).then_some(t);
        }
        let retiring_statuses = match raw_vault.retiring_statuses {
            None => None,
            Some(words) => {
                let mut list = Vec::with_capacity(words.len());
                for (i, w) in words.iter().enumerate() {
                    let word = w.get_ref().trim().to_lowercase();
                    if word.is_empty() || word == "active" {
                        return Err(at(
                            w,
                            &format!("vault.retiring_statuses[{i}]"),
                            format!(
                                "`{}` cannot retire a note: name a status word such as `superseded`",
                                w.get_ref()
                            ),
                        ));
                    }
                    list.push(word);
                }
                list.sort();
                list.dedup();
                Some(list)
            }
        };

        let roots = |list: &[Spanned<String>], key: &str| -> Result<Vec<String>, ConfigError> {
            list.iter()
                .enumerate()
                .map(|(i, r)| {
                    check_note_root(r.get_ref())
                        .map(|()| r.get_ref().clone())
                        .map_err(|m| at(r, &format!("{key}[{i}]"), m))
                })
                .collect()
        };
        let developer_roots = roots(&raw.developer.note_roots, "developer.note_roots")?;
        let identity_roots = raw
            .developer
            .identity_roots
            .as_deref()
            .map(|l| roots(l, "developer.identity_roots"))
            .transpose()?;

        let mut projects: Vec<Project> = Vec::with_capacity(raw.projects.len());
        for (i, p) in raw.projects.into_iter().enumerate() {
            let key = |k: &str| format!("projects[{i}].{k}");
            let id = p.id.get_ref().clone();
            if id.trim().is_empty() {
                return Err(at(&p.id, &key("id"), "project id is empty".into()));
            }
            if projects.iter().any(|q| q.id == id) {
                return Err(at(
                    &p.id,
                    &key("id"),
                    format!("duplicate project id `{id}`"),
                ));
            }
            let note_roots = roots(&p.note_roots, &key("note_roots"))?;
            let repo_paths = p
                .repo_paths
                .iter()
                .map(|r| {
                    let abs = resolve(&base, r, home);
                    // A repo that is not checked out here is fine (one config, many machines).
                    abs.canonicalize().unwrap_or(abs)
                })
                .collect();
            let mut remotes = Vec::with_capacity(p.remotes.len());
            for (j, r) in p.remotes.iter().enumerate() {
                if r.get_ref().trim().is_empty() {
                    return Err(at(r, &key(&format!("remotes[{j}]")), "empty remote".into()));
                }
                remotes.push(r.get_ref().trim().to_owned());
            }
            projects.push(Project {
                name: p.name.unwrap_or_else(|| id.clone()),
                id,
                repo_paths,
                remotes,
                note_roots,
                default_tags: p.default_tags,
                modules: p.modules,
            });
        }
        let ranking = match raw.ranking.half_life_days {
            None => Ranking::default(),
            Some(h) if h.get_ref().is_nan() || *h.get_ref() <= 0.0 => {
                return Err(err(
                    h.span(),
                    "ranking.half_life_days",
                    "must be a positive number of days".into(),
                ));
            }
            Some(h) => Ranking {
                half_life_days: h.into_inner(),
            },
        };

        // Note roots behind a hidden folder: walked besides the vault.
        limits.hidden_roots = developer_roots
            .iter()
            .chain(projects.iter().flat_map(|p| &p.note_roots))
            .filter(|r| {
                // By the platform's path components, as the walk tells a
                // hidden folder on the way (`repo\.notes` on Windows).
                std::path::Path::new(r.as_str()).components().any(|c| {
                    matches!(c, std::path::Component::Normal(part)
                        if part.to_string_lossy().starts_with('.'))
                })
            })
            .cloned()
            .collect();
        limits.hidden_roots.sort();
        limits.hidden_roots.dedup();

        let memory = memory_config(raw.memory, &developer_roots, &projects)
            .map_err(|(span, key, msg)| err(span, &key, msg))?;
        let git = git_config(raw.git).map_err(|(span, key, msg)| err(span, &key, msg))?;

        Ok(Self {
            source: Some(path.canonicalize().unwrap_or_else(|_| path.to_path_buf())),
            vault: Vault {
                root,
                limits,
                retiring_statuses,
            },
            developer: Developer {
                note_roots: developer_roots,
                identity_roots,
            },
            projects,
            scenes: raw.scenes,
            ranking,
            index_dir: raw.index.dir.map(|d| resolve(&base, &d, home)),
            profiles_dir: raw.profiles.dir.map(|d| resolve(&base, &d, home)),
            memory,
            git,
        })
    }
}

/// Validates the `[git]` table; errors are (where the value is, key, message).
fn git_config(raw: RawGit) -> Result<GitConfig, (Range<usize>, String, String)> {
    let mut g = GitConfig::default();
    if raw.derive == Some(false) {
        g.derive = crate::Derive::Never;
    }
    if let Some(n) = raw.commits {
        g.commits = n;
    }
    if let Some(n) = raw.changed_files {
        g.changed_files = n;
    }
    if let Some(n) = positive(raw.timeout_ms, "git.timeout_ms")? {
        g.timeout_ms = n;
    }
    if let Some(n) = positive(raw.history_commits, "git.history_commits")? {
        g.history_commits = n;
    }
    if let Some(n) = positive(raw.history_days, "git.history_days")? {
        g.history_days = n;
    }
    if let Some(b) = raw.date_notes {
        g.date_notes = b;
    }
    if let Some(d) = raw.code_changed_deboost {
        let v = *d.get_ref();
        if v.is_nan() || v <= 0.0 || v > 1.0 {
            return Err((
                d.span(),
                "git.code_changed_deboost".to_owned(),
                "must be a multiplier above 0 and at most 1 (1 turns it off)".to_owned(),
            ));
        }
        g.code_changed_deboost = v;
    }
    Ok(g)
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

/// Validates the `[memory]` table; errors are (where the value is, key, message).
fn memory_config(
    raw: RawMemory,
    developer_roots: &[String],
    projects: &[Project],
) -> Result<MemoryConfig, (Range<usize>, String, String)> {
    let mut m = MemoryConfig::defaults_for(developer_roots);
    let folder = |value: Option<Spanned<String>>, key: &str, slot: &mut String| {
        if let Some(v) = value {
            let text = v.get_ref();
            check_note_root(text).map_err(|msg| (v.span(), format!("memory.{key}"), msg))?;
            if text.trim_matches('/').is_empty() {
                return Err((
                    v.span(),
                    format!("memory.{key}"),
                    "must name a folder inside the vault, not the vault itself".to_owned(),
                ));
            }
            text.trim_matches('/').clone_into(slot);
        }
        Ok(())
    };
    folder(raw.global, "global", &mut m.global)?;
    folder(raw.user, "user", &mut m.user)?;
    folder(raw.personas, "personas", &mut m.personas)?;
    folder(raw.project_folder, "project_folder", &mut m.project_folder)?;
    for (id, dir) in raw.projects {
        let key = format!("memory.projects.{}", id.get_ref());
        if !projects.iter().any(|p| &p.id == id.get_ref()) {
            return Err((
                id.span(),
                key,
                format!("no [[projects]] entry has id `{}`", id.get_ref()),
            ));
        }
        check_note_root(dir.get_ref()).map_err(|msg| (dir.span(), key.clone(), msg))?;
        m.projects
            .insert(id.into_inner(), dir.get_ref().trim_matches('/').to_owned());
    }
    if let Some(a) = raw.archive_folder {
        let text = a.get_ref();
        let bad = text.is_empty()
            || text.contains(['/', '\\'])
            || text == "."
            || text == ".."
            || text.chars().any(char::is_control);
        if bad {
            return Err((
                a.span(),
                "memory.archive_folder".to_owned(),
                "must be one folder name (no `/`), e.g. \".archive\"".to_owned(),
            ));
        }
        m.archive_folder = a.into_inner();
    }
    if let Some(n) = positive(raw.max_note_bytes, "memory.max_note_bytes")? {
        m.max_note_bytes = n;
    }
    if let Some(n) = positive(raw.index_budget_lines, "memory.index_budget_lines")? {
        m.index_budget_lines = n;
    }
    if let Some(n) = raw.nested {
        m.nested = n;
    }
    Ok(m)
}

/// A count that must be positive: the value, or (where it is, `key`, why).
fn positive<T: Default + PartialEq>(
    value: Option<Spanned<T>>,
    key: &str,
) -> Result<Option<T>, (Range<usize>, String, String)> {
    match value {
        Some(n) if *n.get_ref() == T::default() => {
            Err((n.span(), key.to_owned(), "must be positive".to_owned()))
        }
        n => Ok(n.map(Spanned::into_inner)),
    }
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
        _ if p == "~" => home.map_or_else(|| PathBuf::from(p), Path::to_path_buf),
        _ => PathBuf::from(p),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        base.join(expanded)
    }
}
