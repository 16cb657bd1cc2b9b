//! Whose a note is, beyond the configuration: the clients and projects a vault's
//! hub notes declare.
//!
//! A developer who works for many clients often configures only the projects
//! they open sessions in, while the vault keeps a hub note for every client:
//! `Bramble Coffee.md` with `type: client`, or `clinica-zen.md` tagged `#cliente`
//! and `#clinica-zen`. Such a hub says its client's names (its file name, title
//! and aliases), and those names then say whose a note is, as a configured
//! project's id does (`cairn_score`'s `named_for_another`): a lesson tagged
//! `#bramble`, or an inbox note `Bramble - check webhooks.md`, among the
//! developer's notes is that client's, not the routed project's. Hubs are read
//! among the session's notes and, beside a configured project's folder
//! (`Clients/Larkspur Health`), in its sibling folders (`Clients/Bramble
//! Coffee/Bramble Coffee.md`, a folder note). Names of the routed project (its
//! id, name, tags and folders) are never another's, and neither is a hub inside
//! the routed project's folders.

use std::collections::BTreeMap;

use cairn_config::Project;
use cairn_note::Note;

use crate::Engine;

/// Words that say a note is about a client or a project, as its `type` or a tag:
/// singular and plural, in English, Spanish, Portuguese, French, German,
/// Italian and Dutch.
const KIND_WORDS: &[&str] = &[
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
    /// declares (sorted).
    pub ids: Vec<String>,
    /// Every name a note may be another's by, lowercased, with its owner's id
    /// (`bramble` → `bramble coffee`; a configured project's id, and its name
    /// when it has two words or more, too).
    pub names: BTreeMap<String, String>,
    /// The declared ones: id → its hub's path, or `None` when the hub may not
    /// be named (a confidential hub: `explain` says a hub declared it, not which).
    pub declared: BTreeMap<String, Option<String>>,
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
        // A configured project's name counts when it is distinctive: two words
        // or more (`Tidewater Freight`; not `API`, `Website`, whose tag many a
        // general note has).
        let configured_names = |p: &Project| -> Vec<String> {
            let multi = p.name.split_whitespace().count() > 1;
            variants(&p.id)
                .chain(variants(&p.name).filter(|_| multi))
                .collect()
        };
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        for p in projects.iter().filter(|p| p.id != project.id) {
            for name in configured_names(p) {
                if !own_names.contains(&name) {
                    names.entry(name).or_insert_with(|| p.id.clone());
                }
            }
        }
        let configured = |name: &str| {
            projects
                .iter()
                .any(|p| p.id.eq_ignore_ascii_case(name) || variants(&p.name).any(|v| v == name))
        };
        let mut declared: BTreeMap<String, (&Note, Vec<String>)> = BTreeMap::new();
        for n in notes {
            let Some(hub_names) = hub_names(n) else {
                continue;
            };
            // A hub that any of whose names is the routed project's, or a
            // configured one's, is theirs (`Ledger Rewrite.md` with `aliases:
            // [Ledger]` in a ledger session).
            if hub_names
                .iter()
                .any(|h| configured(h) || own_names.contains(h))
                || project_roots
                    .iter()
                    .any(|r| cairn_note::in_root(&n.path, r))
            {
                continue;
            }
            let id = n.stem().to_lowercase();
            // The first hub by path names it (the notes come in any order).
            if declared.get(&id).is_some_and(|(hub, _)| hub.path <= n.path) {
                continue;
            }
            declared.insert(id, (n, hub_names));
        }
        for (id, (_, hub_names)) in &declared {
            for name in hub_names {
                names.entry(name.clone()).or_insert_with(|| id.clone());
            }
        }
        ids.extend(declared.keys().cloned());
        Self {
            ids,
            names,
            declared: declared
                .into_iter()
                .map(|(id, (hub, _))| {
                    let nameable = hub.sensitivity <= cairn_note::Sensitivity::Internal;
                    (id, nameable.then(|| hub.path.clone()))
                })
                .collect(),
            own_names,
        }
    }
}

impl Engine {
    /// The owners of a session of `project` ([`Owners::find`]) whose notes are
    /// `scopes` and whose note folders are `project_roots`: the hubs among those
    /// notes and the [`Engine::sibling_hubs`].
    pub(crate) fn owners(
        &self,
        project: Option<&str>,
        project_roots: &[String],
        scopes: &[&[&Note]],
    ) -> Owners {
        Owners::find(
            &self.config.projects,
            project.and_then(|id| self.config.project(id)),
            project_roots,
            scopes
                .iter()
                .flat_map(|s| s.iter().copied())
                .chain(self.sibling_hubs()),
        )
    }

    /// The folder notes of the folders beside each configured project's note
    /// folders (`Clients/Bramble Coffee/Bramble Coffee.md` beside
    /// `Clients/Larkspur Health`), read from the file list and then one note
    /// each: the hubs of clients or projects the configuration does not name
    /// ([`Owners::find`] keeps those that say they are one).
    pub(crate) fn sibling_hubs(&self) -> Vec<&Note> {
        let roots: Vec<&str> = self
            .config
            .projects
            .iter()
            .flat_map(|p| p.note_roots.iter())
            .map(|r| r.trim_matches('/'))
            .collect();
        let mut parents: Vec<&str> = roots
            .iter()
            .filter_map(|r| {
                r.rsplit_once('/')
                    .map(|(parent, _)| parent.trim_end_matches('/'))
            })
            .filter(|p| !p.is_empty())
            .collect();
        parents.sort_unstable();
        parents.dedup();
        let mut hubs = Vec::new();
        for parent in parents {
            for path in self.notes.file_paths_under(parent) {
                let Some(rest) = path.strip_prefix(parent).and_then(|r| r.strip_prefix('/')) else {
                    continue;
                };
                let Some((folder, file)) = rest.split_once('/') else {
                    continue;
                };
                let stem = file.strip_suffix(".md").unwrap_or(file);
                let sibling = format!("{parent}/{folder}");
                if stem.eq_ignore_ascii_case(folder) && !roots.contains(&sibling.as_str()) {
                    hubs.extend(self.notes.meta(path));
                }
            }
        }
        hubs
    }
}

/// The names of the client or project `n` is the hub of (its file name and
/// aliases, lowercased, each also with hyphens for spaces; not its title, which
/// may be its first heading, `# Contacts`), when it says it is one: a `type`
/// property that is a [`KIND_WORDS`] word, or a tag that is one and another tag
/// that is one of its names.
fn hub_names(n: &Note) -> Option<Vec<String>> {
    if n.project_id.is_some() || n.entry_of.is_some() {
        return None;
    }
    let kind = |s: &str| KIND_WORDS.iter().any(|k| k.eq_ignore_ascii_case(s.trim()));
    let typed = crate::hot::type_property(n).is_some_and(|t| kind(&t));
    let kind_tagged = n.tags.iter().any(|t| kind(t));
    let stem = n.stem();
    if !(typed || kind_tagged) || kind(stem) {
        return None;
    }
    let mut names: Vec<String> = variants(stem)
        .chain(n.aliases.iter().flat_map(|a| variants(a)))
        .filter(|v| !kind(v))
        .collect();
    names.sort();
    names.dedup();
    let name_tagged = n
        .tags
        .iter()
        .any(|t| names.iter().any(|v| v.eq_ignore_ascii_case(t)));
    (typed || name_tagged).then_some(names)
}

/// `s` lowercased and trimmed, and with hyphens for its spaces when it has any
/// (a tag cannot hold a space: `Bramble Coffee` → `bramble-coffee`).
fn variants(s: &str) -> impl Iterator<Item = String> {
    let lower = s.trim().to_lowercase();
    let hyphened = lower
        .contains(char::is_whitespace)
        .then(|| lower.split_whitespace().collect::<Vec<_>>().join("-"));
    std::iter::once(lower)
        .chain(hyphened)
        .filter(|v| !v.is_empty())
}

/// The names a project's own hub note may have, lowercased: its id, its name
/// (with hyphens or nothing for its spaces too) and the last folder of each of
/// its note roots not in `shared` (a folder note; not `20-Areas`, which the
/// developer's notes share).
pub(crate) fn project_names(p: &Project, shared: &[String]) -> Vec<String> {
    let mut names = vec![p.id.to_lowercase()];
    names.extend(variants(&p.name));
    names.push(p.name.to_lowercase().split_whitespace().collect());
    names.extend(
        p.note_roots
            .iter()
            .filter(|r| !shared.contains(r))
            .map(|r| last_folder(r)),
    );
    names.retain(|n| !n.is_empty());
    names.sort();
    names.dedup();
    names
}

/// The routed project's names besides its id, lowercased: [`project_names`],
/// its default tags, the last folder of each checkout, and its modules' ids.
fn own_names(p: &Project) -> Vec<String> {
    let mut names = project_names(p, &[]);
    names.extend(
        p.default_tags
            .iter()
            .map(|t| t.trim_start_matches('#').to_lowercase()),
    );
    names.extend(
        p.repo_paths
            .iter()
            .map(|r| last_folder(&r.to_string_lossy())),
    );
    names.extend(p.modules.iter().map(|m| m.id.to_lowercase()));
    names.retain(|n| !n.is_empty());
    names.sort();
    names.dedup();
    names
}

/// The last folder of a path, lowercased (`Clients/Larkspur Health` →
/// `larkspur health`).
fn last_folder(s: &str) -> String {
    s.trim_end_matches(['/', '\\'])
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .to_lowercase()
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
    fn hubs_declare_clients_and_projects_named_by_their_own_tag_or_type() {
        let check = |path: &str, front: &str, expect: Option<&[&str]>| {
            let stem = path.rsplit('/').next().unwrap().trim_end_matches(".md");
            let text = format!("---\n{front}\n---\n# {stem}\n\nbody\n");
            let n = cairn_note::parse_note(path, text.as_bytes()).note.unwrap();
            let got = hub_names(&n);
            let want = expect.map(|e| e.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
            assert_eq!(got, want, "{path} {front}");
        };
        check(
            "home/clinica-zen.md",
            "tags: [cliente, clinica-zen]",
            Some(&["clinica-zen"]),
        );
        check(
            "home/Acme.md",
            "tags: [Project, acme, hub]",
            Some(&["acme"]),
        );
        check(
            "Clients/Bramble Coffee/Bramble Coffee.md",
            "title: Bramble Coffee\ntype: client\naliases: [Bramble]",
            Some(&["bramble", "bramble coffee", "bramble-coffee"]),
        );
        // A tag naming it by an alias.
        check(
            "home/Larkspur Health.md",
            "tags: [client, larkspur]\naliases: [Larkspur]",
            Some(&["larkspur", "larkspur health", "larkspur-health"]),
        );
        // A topic hub, a kind tag alone, a name tag alone, another type: none.
        check("home/rust.md", "tags: [hub, rust]", None);
        check("home/aula.md", "tags: [proyecto, aprendizaje]", None);
        check("home/tucrmia.md", "tags: [hub, tucrmia, crm]", None);
        check("home/projects.md", "tags: [projects, project]", None);
        check("home/Kafka.md", "type: tool\ntags: [kafka]", None);
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
        // `tufacturaia.md` is the configured facturaia's, by its name; a
        // one-word name is no owner's name (`API`, `Website` would hide notes).
        assert_eq!(
            owners.ids,
            ["facturaia", "simarro", "agentesia", "clinica-zen"]
        );
        assert_eq!(
            owners.declared["clinica-zen"].as_deref(),
            Some("home/clinica-zen.md")
        );
        assert!(!owners.names.contains_key("tufacturaia"));
        assert_eq!(owners.names["clinica-zen"], "clinica-zen");
        assert_eq!(owners.names["facturaia"], "facturaia");
        // In a session of facturaia: its folder's name and its name are its own.
        let owners = Owners::find(
            &projects,
            Some(&projects[0]),
            &projects[0].note_roots,
            notes.iter(),
        );
        assert_eq!(owners.ids, ["facturaia", "simarro", "clinica-zen", "kommo"]);
    }

    /// From the review: a hub any of whose names is the routed project's is the
    /// project's own (`Ledger Rewrite.md`, `aliases: [Ledger]`); a confidential
    /// hub declares its client, but its path is never given (explain says a
    /// withheld hub declared it).
    #[test]
    fn an_own_alias_keeps_a_hub_and_a_confidential_hub_is_not_named() {
        let projects = vec![project("ledger", "Ledger", &["Projects/ledger"])];
        let parse = |path: &str, front: &str| {
            let text = format!("---\n{front}\n---\n# X\n\nbody\n");
            cairn_note::parse_note(path, text.as_bytes()).note.unwrap()
        };
        let notes = [
            parse("Home/Ledger Rewrite.md", "type: project\naliases: [Ledger]"),
            parse(
                "Home/Nightingale.md",
                "type: client\nsensitivity: confidential",
            ),
        ];
        let owners = Owners::find(
            &projects,
            Some(&projects[0]),
            &projects[0].note_roots,
            notes.iter(),
        );
        assert_eq!(owners.ids, ["ledger", "nightingale"]);
        assert_eq!(owners.declared["nightingale"], None);
        assert_eq!(owners.names["nightingale"], "nightingale");
    }
}
