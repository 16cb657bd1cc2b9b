//! Whose a note is, beyond the configuration: the clients and projects a vault's
//! hub notes declare.
//!
//! A developer who works for many clients often configures only the projects
//! they open sessions in, while the vault keeps a hub note for every client:
//! `clinica-zen.md` tagged `#cliente` and `#clinica-zen`, as the configured
//! `simarro.md` is tagged `#cliente` and `#simarro`. A note whose file name is one
//! of its own tags, and which another tag says is a client's or a project's (in
//! one of a few languages), is such a hub; its name then says whose a note is, as
//! a configured project's id does (`cairn_score`'s `named_for_another`): a lesson
//! tagged `#clinica-zen` among the developer's notes is that client's, not the
//! routed project's. Names of the routed project (its id, name, tags and folders)
//! are never another's, and neither is a hub inside the routed project's folders.

use std::collections::BTreeMap;

use cairn_config::Project;
use cairn_note::Note;

/// Tags that say a note is about a client or a project: `#client`, `#project`,
/// singular and plural, in English, Spanish, Portuguese, French, German, Italian
/// and Dutch.
const KIND_TAGS: &[&str] = &[
    "client",
    "clients",
    "customer",
    "customers",
    "project",
    "projects",
    "cliente",
    "clientes",
    "proyecto",
    "proyectos",
    "projeto",
    "projetos",
    "projet",
    "projets",
    "kunde",
    "kunden",
    "projekt",
    "projekte",
    "clienti",
    "progetto",
    "progetti",
    "klant",
    "klanten",
];

/// Who notes may belong to, for one routed project.
#[derive(Debug, Default)]
pub(crate) struct Owners {
    /// Every configured project's id, then each client or project a hub note
    /// declares (sorted): the ids a note may be another's by.
    pub ids: Vec<String>,
    /// The declared ones: name → its hub's path.
    pub declared: BTreeMap<String, String>,
    /// The routed project's own names besides its id (its name as one word,
    /// its default tags, its folders' and checkouts' names), lowercased.
    pub own_names: Vec<String>,
}

impl Owners {
    /// The owners of a session of `project` (`None`: none but the configured
    /// ones), whose hubs are among `notes`; `project_roots` are the routed
    /// project's note folders.
    pub(crate) fn find<'n>(
        projects: &[Project],
        project: Option<&Project>,
        project_roots: &[String],
        notes: impl IntoIterator<Item = &'n Note>,
    ) -> Self {
        let mut ids: Vec<String> = projects.iter().map(|p| p.id.clone()).collect();
        let Some(project) = project else {
            return Self {
                ids,
                ..Self::default()
            };
        };
        let own_names = own_names(project);
        let mut declared = BTreeMap::new();
        for n in notes {
            let Some(name) = hub_name(n) else { continue };
            if ids.iter().any(|id| id.eq_ignore_ascii_case(&name))
                || own_names.contains(&name)
                || project_roots
                    .iter()
                    .any(|r| cairn_note::in_root(&n.path, r))
            {
                continue;
            }
            // The first hub by path names it (the notes come in any order).
            declared
                .entry(name)
                .and_modify(|p: &mut String| {
                    if n.path < *p {
                        p.clone_from(&n.path);
                    }
                })
                .or_insert_with(|| n.path.clone());
        }
        ids.extend(declared.keys().cloned());
        Self {
            ids,
            declared,
            own_names,
        }
    }
}

/// The client or project `n` is the hub of: its file name, lowercased, when one
/// of its tags is that name and another is a [`KIND_TAGS`] word.
fn hub_name(n: &Note) -> Option<String> {
    if n.tags.len() < 2 || n.project_id.is_some() {
        return None;
    }
    let stem = n.stem();
    let named = n.tags.iter().any(|t| t.eq_ignore_ascii_case(stem));
    let kind = n
        .tags
        .iter()
        .any(|t| KIND_TAGS.iter().any(|k| t.eq_ignore_ascii_case(k)));
    (named && kind && !KIND_TAGS.iter().any(|k| stem.eq_ignore_ascii_case(k)))
        .then(|| stem.to_lowercase())
}

/// The routed project's names besides its id, lowercased: its name with spaces
/// as hyphens and without them, its default tags, the last folder of each note
/// root and each checkout, and its modules' ids.
fn own_names(p: &Project) -> Vec<String> {
    let mut names = vec![p.id.to_lowercase()];
    let name = p.name.trim().to_lowercase();
    names.push(name.split_whitespace().collect::<Vec<_>>().join("-"));
    names.push(name.split_whitespace().collect());
    names.extend(
        p.default_tags
            .iter()
            .map(|t| t.trim_start_matches('#').to_lowercase()),
    );
    let last = |s: &str| {
        s.trim_end_matches(['/', '\\'])
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or_default()
            .to_lowercase()
    };
    names.extend(p.note_roots.iter().map(|r| last(r)));
    names.extend(p.repo_paths.iter().map(|r| last(&r.to_string_lossy())));
    names.extend(p.modules.iter().map(|m| m.id.to_lowercase()));
    names.retain(|n| !n.is_empty());
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(path: &str, tags: &str) -> Note {
        let text = format!("---\ntitle: T\ntags: [{tags}]\n---\n# T\n\nbody\n");
        cairn_note::parse_note(path, text.as_bytes()).note.unwrap()
    }

    fn project(id: &str, name: &str, roots: &[&str]) -> Project {
        Project {
            id: id.into(),
            name: name.into(),
            repo_paths: Vec::new(),
            remotes: Vec::new(),
            note_roots: roots.iter().map(|r| (*r).to_owned()).collect(),
            default_tags: Vec::new(),
            modules: Vec::new(),
        }
    }

    #[test]
    fn hubs_declare_clients_and_projects_named_by_their_own_tag() {
        let check = |path: &str, tags: &str, expect: Option<&str>| {
            assert_eq!(
                hub_name(&note(path, tags)).as_deref(),
                expect,
                "{path} {tags}"
            );
        };
        check(
            "home/clinica-zen.md",
            "cliente, clinica-zen",
            Some("clinica-zen"),
        );
        check("home/Acme.md", "Project, acme, hub", Some("acme"));
        check("home/iet.md", "client, IET", Some("iet"));
        // A topic hub, a kind tag alone, a name tag alone: none.
        check("home/rust.md", "hub, rust", None);
        check("home/aula.md", "proyecto, aprendizaje", None);
        check("home/tucrmia.md", "hub, tucrmia, crm", None);
        check("home/projects.md", "projects, project", None);
    }

    #[test]
    fn the_routed_projects_own_names_and_folders_are_never_anothers() {
        let projects = vec![
            project(
                "facturaia",
                "TuFacturaIA",
                &["knowledge/projects/agentesia"],
            ),
            project("simarro", "Simarro", &["knowledge/projects/simarro"]),
        ];
        let notes = [
            note("home/facturaia.md", "cliente, facturaia"),
            note("home/simarro.md", "cliente, simarro"),
            note("home/clinica-zen.md", "cliente, clinica-zen"),
            note("home/agentesia.md", "cliente, agentesia"),
            note("home/tufacturaia.md", "proyecto, tufacturaia"),
            note("knowledge/projects/simarro/kommo.md", "cliente, kommo"),
        ];
        let owners = Owners::find(
            &projects,
            Some(&projects[1]),
            &projects[1].note_roots,
            notes.iter(),
        );
        assert_eq!(
            owners.ids,
            [
                "facturaia",
                "simarro",
                "agentesia",
                "clinica-zen",
                "tufacturaia"
            ]
        );
        assert_eq!(owners.declared["clinica-zen"], "home/clinica-zen.md");
        // In a session of facturaia: its folder's name and its name are its own.
        let owners = Owners::find(
            &projects,
            Some(&projects[0]),
            &projects[0].note_roots,
            notes.iter(),
        );
        assert_eq!(owners.ids, ["facturaia", "simarro", "clinica-zen", "kommo"]);
    }
}
