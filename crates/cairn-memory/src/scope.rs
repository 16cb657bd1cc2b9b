//! Scopes: `global`, `user`, `project/<id>` and `persona/<name>`, and the vault
//! folder each one maps to (from `[memory]` in `cairn.toml`).

use std::path::Path;

use cairn_config::Config;
use cairn_route::RouteInput;

use crate::error::MemoryError;
use crate::slug::Slug;

/// Whose memory a note is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Cross-project rules and conventions.
    Global,
    /// The developer: who they are and how they like to work.
    User,
    /// One configured project.
    Project(String),
    /// One persona an agent can run as.
    Persona(String),
}

impl Scope {
    /// Parses `global`, `user`, `project/<id>` (or `project:<id>`) and
    /// `persona/<name>`. Projects are checked against the configuration later.
    pub fn parse(text: &str) -> Result<Scope, MemoryError> {
        let t = text.trim();
        let usage = || {
            MemoryError::Usage(format!(
                "unknown scope `{t}`: use global, user, project/<id> or persona/<name>"
            ))
        };
        match t {
            "global" => return Ok(Scope::Global),
            "user" => return Ok(Scope::User),
            _ => {}
        }
        let (kind, name) = t.split_once(['/', ':']).ok_or_else(usage)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(usage());
        }
        match kind {
            "project" | "projects" => Ok(Scope::Project(name.to_owned())),
            "persona" | "personas" => {
                // A persona name becomes a folder name: the slug rules apply.
                let slug = Slug::parse(name, false)
                    .map_err(|e| MemoryError::Usage(format!("persona name: {e}")))?;
                Ok(Scope::Persona(slug.as_str().to_owned()))
            }
            _ => Err(usage()),
        }
    }

    /// The scope when none is given: the project the working directory routes
    /// to, else `user`.
    pub fn default_for(config: &Config, cwd: &Path) -> Scope {
        match cairn_route::route(config, &RouteInput::at(cwd)) {
            Ok(route) => route.project_id.map_or(Scope::User, Scope::Project),
            Err(_) => Scope::User,
        }
    }

    /// The vault-relative folder of this scope.
    pub fn folder(&self, config: &Config) -> Result<String, MemoryError> {
        let m = &config.memory;
        Ok(match self {
            Scope::Global => m.global.clone(),
            Scope::User => m.user.clone(),
            Scope::Persona(name) => format!("{}/{name}", m.personas.trim_end_matches('/')),
            Scope::Project(id) => {
                let project = config.project(id).ok_or_else(|| {
                    let known: Vec<&str> = config.projects.iter().map(|p| p.id.as_str()).collect();
                    MemoryError::Usage(format!(
                        "no project `{id}` in the configuration (known: {})",
                        if known.is_empty() {
                            "none".to_owned()
                        } else {
                            known.join(", ")
                        }
                    ))
                })?;
                m.project_dir(project).ok_or_else(|| {
                    MemoryError::Usage(format!(
                        "project `{id}` has no note_roots, so its memory has no folder; add note_roots or set [memory.projects] {id} = \"folder\""
                    ))
                })?
            }
        })
    }

    /// The `project_id` notes of this scope carry.
    pub fn project_id(&self) -> Option<&str> {
        match self {
            Scope::Project(id) => Some(id),
            _ => None,
        }
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Global => f.write_str("global"),
            Scope::User => f.write_str("user"),
            Scope::Project(id) => write!(f, "project/{id}"),
            Scope::Persona(name) => write!(f, "persona/{name}"),
        }
    }
}

/// Every scope the configuration defines, with persona scopes found on disk
/// (sub-folders of the personas folder), in display order.
pub fn all_scopes(config: &Config) -> Vec<Scope> {
    let mut out = vec![Scope::Global, Scope::User];
    out.extend(
        config
            .projects
            .iter()
            .filter(|p| config.memory.project_dir(p).is_some())
            .map(|p| Scope::Project(p.id.clone())),
    );
    let personas = config.vault.root.join(&config.memory.personas);
    if let Ok(rd) = std::fs::read_dir(&personas) {
        let mut names: Vec<String> = rd
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| Slug::parse(n, false).is_ok())
            .collect();
        names.sort();
        out.extend(names.into_iter().map(Scope::Persona));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display() {
        for t in ["global", "user", "project/ledger", "persona/anya"] {
            assert_eq!(Scope::parse(t).unwrap().to_string(), t);
        }
        assert_eq!(
            Scope::parse("projects:ledger").unwrap(),
            Scope::Project("ledger".into())
        );
        for bad in ["", "team", "project/", "persona/../x", "persona/a/b"] {
            assert!(Scope::parse(bad).is_err(), "{bad}");
        }
    }
}
