//! Routing by remote through real clones: a project's `remotes`, then the remotes
//! of its own checkouts; `origin` first, then the other remotes in name order; a
//! repo path match still wins.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use cairn_config::Config;
use cairn_route::{RouteInput, RouteMethod, route};

fn git(dir: &Path, args: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    cairn_synth::git::git_in(dir, args, "2026-01-01T12:00:00Z");
}

/// A repository at `dir` with these (name, url) remotes.
fn clone_with(dir: &Path, remotes: &[(&str, &str)]) -> PathBuf {
    git(dir, &["init", "-q"]);
    for (name, url) in remotes {
        git(dir, &["remote", "add", name, url]);
    }
    dir.canonicalize().unwrap()
}

fn config(root: &Path, projects: &str) -> Config {
    std::fs::create_dir_all(root.join("vault")).unwrap();
    let path = root.join("cairn.toml");
    std::fs::write(&path, format!("[vault]\nroot = \"vault\"\n{projects}")).unwrap();
    Config::load(&path, None).unwrap()
}

#[track_caller]
fn check(config: &Config, cwd: &Path, project: Option<&str>, method: RouteMethod, says: &str) {
    let r = route(config, &RouteInput::at(cwd)).unwrap();
    assert_eq!(r.project_id.as_deref(), project, "{:?}", r.reasons);
    assert_eq!(r.method, method, "{:?}", r.reasons);
    assert!(
        r.reasons.iter().any(|x| x.contains(says)),
        "{:?}",
        r.reasons
    );
}

#[test]
fn a_clone_routes_to_the_project_naming_its_remote() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let c = config(
        &root,
        r#"
[[projects]]
id = "fork"
repo_paths = ["/nonexistent/fork"]
remotes = ["https://github.com/me/ledger"]
[[projects]]
id = "ledger"
repo_paths = ["/nonexistent/ledger"]
remotes = ["github.com/org/ledger"]
"#,
    );
    let plain = clone_with(
        &root.join("a"),
        &[("origin", "git@github.com:org/ledger.git")],
    );
    check(
        &c,
        &plain,
        Some("ledger"),
        RouteMethod::Remote,
        "its remote origin (github.com/org/ledger) is one of the project's remotes",
    );
    // A subfolder of the clone routes the same way.
    std::fs::create_dir_all(plain.join("src")).unwrap();
    check(
        &c,
        &plain.join("src"),
        Some("ledger"),
        RouteMethod::Remote,
        "origin",
    );

    // origin first, whatever the others' names.
    let fork = clone_with(
        &root.join("b"),
        &[
            ("aaa", "https://github.com/org/ledger.git"),
            ("origin", "ssh://git@GitHub.com/me/ledger.git"),
        ],
    );
    check(
        &c,
        &fork,
        Some("fork"),
        RouteMethod::Remote,
        "remote origin (github.com/me/ledger)",
    );

    // Without origin: name order.
    let named = clone_with(
        &root.join("c"),
        &[
            ("zeta", "https://github.com/me/ledger"),
            ("alpha", "https://user:hunter2@github.com/org/ledger.git"),
        ],
    );
    check(
        &c,
        &named,
        Some("ledger"),
        RouteMethod::Remote,
        "remote alpha (github.com/org/ledger)",
    );
    let r = route(&c, &RouteInput::at(&named)).unwrap();
    assert!(
        !r.reasons.iter().any(|x| x.contains("hunter2")),
        "{:?}",
        r.reasons
    );

    // The forges take a repository's path without case: so does routing (the
    // reason shows the clone's own spelling).
    let cased = clone_with(
        &root.join("f"),
        &[("origin", "https://github.com/Org/Ledger.git")],
    );
    check(
        &c,
        &cased,
        Some("ledger"),
        RouteMethod::Remote,
        "its remote origin (github.com/Org/Ledger)",
    );

    let stranger = clone_with(
        &root.join("d"),
        &[("origin", "https://example.org/x/y.git")],
    );
    check(
        &c,
        &stranger,
        None,
        RouteMethod::NoMatch,
        "no project matched",
    );
    let none = clone_with(&root.join("e"), &[]);
    check(&c, &none, None, RouteMethod::NoMatch, "no project matched");
}

#[test]
fn a_clone_routes_to_the_project_whose_checkout_has_the_same_remote() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let checkout = clone_with(
        &root.join("work/ledger"),
        &[("origin", "https://gitlab.com/org/ledger.git")],
    );
    let c = config(
        &root,
        &format!(
            "[[projects]]\nid = \"ledger\"\nrepo_paths = [\"{}\"]\n",
            checkout.display()
        ),
    );
    // The checkout itself routes by path.
    check(
        &c,
        &checkout,
        Some("ledger"),
        RouteMethod::RepoPath,
        "longest match",
    );
    let other = clone_with(
        &root.join("elsewhere"),
        &[("origin", "git@gitlab.com:org/ledger")],
    );
    check(
        &c,
        &other,
        Some("ledger"),
        RouteMethod::Remote,
        &format!("is also a remote of repo path {}", checkout.display()),
    );
}

#[test]
fn a_repo_path_inside_another_repository_lends_it_no_remote() {
    // A repo path that is a plain folder inside a clone (as the demo's repo paths
    // sit inside cairn's own checkout) must not make every clone of the outer
    // repository route to it.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let outer = clone_with(
        &root.join("outer"),
        &[("origin", "https://github.com/org/outer")],
    );
    std::fs::create_dir_all(outer.join("fixtures/p")).unwrap();
    let c = config(
        &root,
        &format!(
            "[[projects]]\nid = \"p\"\nrepo_paths = [\"{}\"]\n",
            outer.join("fixtures/p").display()
        ),
    );
    let clone = clone_with(
        &root.join("clone"),
        &[("origin", "git@github.com:org/outer.git")],
    );
    check(&c, &clone, None, RouteMethod::NoMatch, "no project matched");
}
