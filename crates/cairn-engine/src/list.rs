//! `list` and `recent`: the notes under the routed project's or the developer's note
//! roots (or the whole vault), with title, type and path, by path or newest first,
//! under policy: secret and confidential notes are never listed (a list has no
//! relevance to justify naming them), only counted; ids, paths and titles come from
//! the policy's redacted view.

use std::path::PathBuf;

use cairn_note::{MemoryType, Note, Sensitivity, Status};
use cairn_route::RouteInput;
use chrono::NaiveDate;
use serde::Serialize;

use crate::{Engine, EngineError};

/// Which note roots a listing covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListScope {
    /// The routed project's note roots.
    Project,
    /// The developer-wide note roots.
    Developer,
    /// Both.
    Both,
    /// Every note of the vault, whatever the roots (MCP's resources).
    Vault,
}

/// A listing request.
#[derive(Debug, Clone)]
pub struct ListRequest {
    /// Where to route from; `None` skips routing (developer roots only, unless `project`).
    pub cwd: Option<PathBuf>,
    /// A project id instead of routing.
    pub project: Option<String>,
    /// Which roots.
    pub scope: ListScope,
    /// Only this memory type.
    pub memory_type: Option<MemoryType>,
    /// At most this many notes.
    pub limit: usize,
    /// Skip this many first.
    pub offset: usize,
}

/// One listed note.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedNote {
    /// Id (path without extension).
    pub id: String,
    /// Vault-relative path.
    pub path: String,
    /// Title (credentials redacted).
    pub title: String,
    /// Memory type.
    pub memory_type: Option<String>,
    /// `active`, `superseded` or `archived`.
    pub status: Status,
    /// Sensitivity (public or internal: others are not listed).
    pub sensitivity: String,
    /// Pinned.
    pub pinned: bool,
    /// `updated`, else `created` (for `list`, else the file's modification day).
    pub date: Option<String>,
}

/// A listing.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ListResult {
    /// The routed project, if any.
    pub project_id: Option<String>,
    /// The roots listed (`""` is the whole vault).
    pub roots: Vec<String>,
    /// Notes in scope that policy allows, before paging.
    pub total: usize,
    /// The page, sorted by path.
    pub notes: Vec<ListedNote>,
    /// Secret or confidential notes in scope, not listed.
    pub hidden: usize,
}

impl Engine {
    /// Lists the notes of a scope, by path.
    pub fn list(&self, req: &ListRequest) -> Result<ListResult, EngineError> {
        let (mut out, allowed) = self.in_scope(req)?;
        out.total = allowed.len();
        out.notes = allowed
            .into_iter()
            .skip(req.offset)
            .take(req.limit)
            .map(|n| listed(n, n.effective_date()))
            .collect();
        Ok(out)
    }

    /// The notes of a scope dated by their front matter (`updated`, else `created`)
    /// or, in a vault kept in git, by their file's last commit (never the file
    /// time), newest first, ties by id; only those dated `since` or
    /// later when given. `total` counts the dated notes that qualify, before paging.
    pub fn recent(
        &self,
        req: &ListRequest,
        since: Option<NaiveDate>,
    ) -> Result<ListResult, EngineError> {
        let (mut out, allowed) = self.in_scope(req)?;
        let mut dated: Vec<(NaiveDate, &Note)> = allowed
            .into_iter()
            .filter_map(|n| n.updated.or(n.created).or(n.committed).map(|d| (d, n)))
            .filter(|(d, _)| since.is_none_or(|s| *d >= s))
            .collect();
        dated.sort_by(|(da, a), (db, b)| db.cmp(da).then_with(|| a.id.cmp(&b.id)));
        out.total = dated.len();
        out.notes = dated
            .into_iter()
            .skip(req.offset)
            .take(req.limit)
            .map(|(d, n)| listed(n, Some(d)))
            .collect();
        Ok(out)
    }

    /// The scope's routing and roots, and the notes policy lets a list name (by
    /// path); secret and confidential ones are counted in `hidden`.
    fn in_scope(&self, req: &ListRequest) -> Result<(ListResult, Vec<&Note>), EngineError> {
        let project = match (&req.cwd, &req.project) {
            (Some(cwd), p) => {
                cairn_route::route(
                    &self.config,
                    &RouteInput {
                        cwd,
                        project: p.as_deref(),
                        files: &[],
                        task: "",
                    },
                )?
                .project_id
            }
            (None, Some(p)) => {
                self.config
                    .project(p)
                    .ok_or_else(|| cairn_route::RouteError::UnknownProject {
                        id: p.clone(),
                        known: self
                            .config
                            .projects
                            .iter()
                            .map(|p| p.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                    })?;
                Some(p.clone())
            }
            (None, None) => None,
        };
        let mut roots: Vec<String> = Vec::new();
        if req.scope == ListScope::Vault {
            roots.push(String::new());
        }
        if matches!(req.scope, ListScope::Developer | ListScope::Both) {
            roots.extend(self.config.developer.note_roots.iter().cloned());
        }
        if matches!(req.scope, ListScope::Project | ListScope::Both)
            && let Some(p) = project.as_deref().and_then(|id| self.config.project(id))
        {
            roots.extend(p.note_roots.iter().cloned());
        }
        roots.sort();
        roots.dedup();
        let mut out = ListResult {
            project_id: project,
            roots: roots.clone(),
            ..ListResult::default()
        };
        let mut allowed = Vec::new();
        for n in self.under_roots(&roots) {
            if req.memory_type.is_some() && n.memory_type != req.memory_type {
                continue;
            }
            if matches!(
                n.sensitivity,
                Sensitivity::Secret | Sensitivity::Confidential
            ) {
                out.hidden += 1;
                continue;
            }
            allowed.push(n);
        }
        Ok((out, allowed))
    }
}

/// A note as a list shows it: the policy's redacted head (id, path, title).
fn listed(n: &Note, date: Option<NaiveDate>) -> ListedNote {
    let shown = cairn_policy::ShownNote::head(n);
    ListedNote {
        id: shown.id.into_string(),
        path: shown.path.into_string(),
        title: shown.title.into_string(),
        memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
        status: n.status,
        sensitivity: n.sensitivity.as_str().to_owned(),
        pinned: n.pinned,
        date: date.map(|d| d.to_string()),
    }
}
