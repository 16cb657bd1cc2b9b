//! Which folders a session reads: a profile's roots, the routed project's own
//! note folders and everyone else's, and the modules the request selects; and
//! what routing reads of a wake-up request.

use cairn_assemble::Origin;
use cairn_route::{Route, RouteInput};

use crate::{Engine, WakeupRequest};

impl WakeupRequest {
    /// What routing reads of the request: its folder, project, files and task.
    pub(crate) fn route_input(&self) -> RouteInput<'_> {
        RouteInput {
            cwd: &self.cwd,
            project: self.project.as_deref(),
            files: &self.files,
            task: &self.task,
        }
    }
}

impl Engine {
    /// The configured note roots (the developer's and every project's) that are
    /// not folders of the vault, sorted: nothing is read from them.
    pub fn missing_note_roots(&self) -> Vec<&str> {
        let mut roots: Vec<&str> = self
            .config
            .note_roots()
            .map(String::as_str)
            .filter(|r| !r.is_empty() && !self.config.vault.root.join(r).is_dir())
            .collect();
        roots.sort_unstable();
        roots.dedup();
        roots
    }

    /// The note folders of `source` (the developer's, or the routed project's).
    pub(crate) fn roots(&self, source: Origin, project: Option<&str>) -> Vec<String> {
        match source {
            Origin::Developer => self.config.developer.note_roots.clone(),
            Origin::Project => project
                .and_then(|id| self.config.project(id))
                .map(|p| p.note_roots.clone())
                .unwrap_or_default(),
        }
    }

    /// The routed project's note folders, and every other configured one (the
    /// developer's, the other projects'), for the scorer's project factor.
    pub(crate) fn own_and_other_roots(&self, project: Option<&str>) -> (Vec<String>, Vec<String>) {
        let own = self.roots(Origin::Project, project);
        let mut other = self.config.developer.note_roots.clone();
        for p in &self.config.projects {
            if Some(p.id.as_str()) != project {
                other.extend(p.note_roots.iter().cloned());
            }
        }
        (own, other)
    }

    /// The selected modules' path prefixes and ids.
    pub(crate) fn module_info(&self, route: &Route) -> (Vec<String>, Vec<String>) {
        let project = route
            .project_id
            .as_deref()
            .and_then(|id| self.config.project(id));
        let mut prefixes = Vec::new();
        if let Some(p) = project {
            for m in p.modules.iter().filter(|m| route.modules.contains(&m.id)) {
                prefixes.extend(m.path_prefixes.iter().cloned());
            }
        }
        (prefixes, route.modules.clone())
    }
}
