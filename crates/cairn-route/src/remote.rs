//! Routing by remote: any clone of a project routes to it. The working
//! directory's repository's remotes (`origin` first, then by name), normalised
//! (`git@github.com:org/ledger.git` is `github.com/org/ledger`), are compared
//! with each project's `remotes`, then with the remotes of each project's repo
//! paths that are checkouts here. Read through `cairn-git`; remote URLs are
//! untrusted and reach the routing sentence redacted.

use std::path::Path;

use cairn_config::Project;

/// The project a clone at `cwd` belongs to by its remotes, and the sentence saying why.
pub(crate) fn by_remote<'c>(projects: &'c [Project], cwd: &Path) -> Option<(&'c Project, String)> {
    let wanted = projects
        .iter()
        .any(|p| !p.remotes.is_empty() || !p.repo_paths.is_empty());
    if !wanted {
        return None;
    }
    let remotes = cairn_git::open(cwd).ok()?.remotes();
    let remotes: Vec<(String, String)> = remotes
        .into_iter()
        .filter_map(|r| Some((r.name, r.normalized?)))
        .collect();
    if remotes.is_empty() {
        return None;
    }
    // Configured remotes first, for every remote of the clone in order.
    for (name, url) in &remotes {
        if let Some(p) = projects.iter().find(|p| {
            p.remotes
                .iter()
                .any(|r| cairn_git::normalize_remote(r).is_some_and(|r| same_remote(&r, url)))
        }) {
            return Some((
                p,
                format!(
                    "cwd {} is a clone of project `{}`: its remote {} ({}) is one of the project's remotes",
                    cwd.display(),
                    p.id,
                    safe(name),
                    safe(url)
                ),
            ));
        }
    }
    // Then the remotes of the projects' own checkouts (each a repository root).
    let checkouts: Vec<(&Project, &Path, Vec<String>)> = projects
        .iter()
        .flat_map(|p| p.repo_paths.iter().map(move |r| (p, r.as_path())))
        .filter(|(_, r)| r.join(".git").exists())
        .filter_map(|(p, r)| {
            let repo = cairn_git::open(r).ok()?;
            (repo.workdir() == r).then(|| {
                let urls = repo.remotes().into_iter().filter_map(|x| x.normalized);
                (p, r, urls.collect())
            })
        })
        .collect();
    for (name, url) in &remotes {
        if let Some((p, path, _)) = checkouts
            .iter()
            .find(|(_, _, urls)| urls.iter().any(|u| same_remote(u, url)))
        {
            return Some((
                p,
                format!(
                    "cwd {} is a clone of project `{}`: its remote {} ({}) is also a remote of repo path {}",
                    cwd.display(),
                    p.id,
                    safe(name),
                    safe(url),
                    path.display()
                ),
            ));
        }
    }
    None
}

/// Whether two normalised remotes name one repository. Their paths are
/// compared without case: the forges (GitHub, GitLab, Bitbucket) treat
/// `Org/Ledger` and `org/ledger` as one repository, and a clone keeps whatever
/// case its URL was typed in.
fn same_remote(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// Untrusted text on one line, credentials redacted.
fn safe(text: &str) -> String {
    cairn_policy::redact(&cairn_policy::one_line(text))
        .text
        .into_owned()
}
