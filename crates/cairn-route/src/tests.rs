//! Routing cases: nested, symlinked, worktree, no match, longest prefix, explicit.

use super::*;
use cairn_config::Config;
use std::fs;

struct Fixture {
    dir: tempfile::TempDir,
    config: Config,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for d in [
        "vault",
        "code/mono/.git",
        "code/mono/services/pay/src/settle",
        "code/other",
    ] {
        fs::create_dir_all(root.join(d)).unwrap();
    }
    let text = r#"
[vault]
root = "vault"
[[projects]]
id = "mono"
repo_paths = ["code/mono"]
[[projects]]
id = "pay"
repo_paths = ["code/mono/services/pay"]
[[projects.modules]]
id = "settlement"
path_prefixes = ["src/settle"]
keywords = ["settlement"]
[[scenes]]
id = "debugging"
keywords = ["debug", "error"]
[[scenes]]
id = "release"
keywords = ["release notes"]
"#;
    let path = root.join("cairn.toml");
    fs::write(&path, text).unwrap();
    let config = Config::load(&path, None).unwrap();
    Fixture { dir, config }
}

fn at(cwd: &Path) -> RouteInput<'_> {
    RouteInput::at(cwd)
}

#[test]
fn nested_cwd_takes_the_longest_repo_path() {
    let f = fixture();
    let cwd = f.dir.path().join("code/mono/services/pay/src");
    let r = route(&f.config, &at(&cwd)).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("pay"));
    assert_eq!(r.method, RouteMethod::RepoPath);
    assert!(r.reasons[0].contains("longest match"), "{:?}", r.reasons);
    let r = route(&f.config, &at(&f.dir.path().join("code/mono/services"))).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("mono"));
}

#[test]
fn symlinked_cwd_routes_like_its_target() {
    let f = fixture();
    let link = f.dir.path().join("shortcut");
    std::os::unix::fs::symlink(f.dir.path().join("code/mono/services/pay"), &link).unwrap();
    let r = route(&f.config, &at(&link.join("src"))).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("pay"));
}

#[test]
fn worktree_routes_like_its_main_checkout() {
    let f = fixture();
    let root = f.dir.path();
    // What `git worktree add ../wt` leaves behind.
    let admin = root.join("code/mono/.git/worktrees/wt");
    fs::create_dir_all(&admin).unwrap();
    fs::write(admin.join("commondir"), "../..\n").unwrap();
    let wt = root.join("elsewhere/wt");
    fs::create_dir_all(wt.join("services/pay/src/settle")).unwrap();
    fs::write(wt.join(".git"), format!("gitdir: {}\n", admin.display())).unwrap();

    let r = route(&f.config, &at(&wt.join("services/pay/src"))).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("pay"));
    assert_eq!(r.method, RouteMethod::Worktree);
    assert_eq!(
        r.main_checkout,
        Some(root.join("code/mono").canonicalize().unwrap())
    );
    assert!(r.reasons[0].contains("worktree"), "{:?}", r.reasons);

    // Files are relative to the worktree, so modules still match.
    let files = vec!["settle/run.rs".to_owned()];
    let cwd = wt.join("services/pay/src");
    let input = RouteInput {
        files: &files,
        ..at(&cwd)
    };
    let r = route(&f.config, &input).unwrap();
    assert_eq!(r.files, vec!["src/settle/run.rs"]);
    assert_eq!(r.modules, vec!["settlement"]);
}

#[test]
fn no_match_is_not_an_error() {
    let f = fixture();
    let r = route(&f.config, &at(&f.dir.path().join("code/other"))).unwrap();
    assert_eq!(r.project_id, None);
    assert_eq!(r.method, RouteMethod::NoMatch);
    assert!(r.reasons[0].starts_with("no project matched"));
}

#[test]
fn explicit_project_overrides_and_unknown_is_an_error() {
    let f = fixture();
    let cwd = f.dir.path().join("code/other");
    let r = route(
        &f.config,
        &RouteInput {
            project: Some("pay"),
            ..at(&cwd)
        },
    )
    .unwrap();
    assert_eq!(
        (r.project_id.as_deref(), r.method),
        (Some("pay"), RouteMethod::Explicit)
    );
    let e = route(
        &f.config,
        &RouteInput {
            project: Some("zzz"),
            ..at(&cwd)
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("known: mono, pay"), "{e}");
    let e = route(&f.config, &at(&f.dir.path().join("missing"))).unwrap_err();
    assert!(matches!(e, RouteError::Cwd { .. }));
}

#[test]
fn modules_match_files_and_cwd_and_scenes_match_the_task() {
    let f = fixture();
    let repo = f.dir.path().join("code/mono/services/pay");
    let files = vec!["src/settle/batch.rs".to_owned(), "README.md".to_owned()];
    let task = "Debugging the release notes job";
    let input = RouteInput {
        files: &files,
        task,
        ..at(&repo)
    };
    let r = route(&f.config, &input).unwrap();
    assert_eq!(r.modules, vec!["settlement"]);
    assert_eq!(r.scenes, vec!["debugging", "release"]);
    assert_eq!(r.files, vec!["src/settle/batch.rs", "README.md"]);

    // From inside the module folder, relative and absolute files are repo-relative.
    let inner = repo.join("src/settle");
    let abs = inner.join("x.rs").display().to_string();
    let files = vec!["../lib.rs".to_owned(), abs];
    let r = route(
        &f.config,
        &RouteInput {
            files: &files,
            ..at(&inner)
        },
    )
    .unwrap();
    assert_eq!(r.files, vec!["src/lib.rs", "src/settle/x.rs"]);
    assert_eq!(
        r.modules,
        vec!["settlement"],
        "cwd inside the module selects it"
    );

    let input = RouteInput {
        task: "errorless",
        ..at(&repo)
    };
    assert_eq!(route(&f.config, &input).unwrap().scenes, vec!["debugging"]);
    let input = RouteInput {
        task: "notes about release",
        ..at(&repo)
    };
    assert!(route(&f.config, &input).unwrap().scenes.is_empty());
}

#[test]
fn zero_config_is_unscoped() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::for_vault(dir.path()).unwrap();
    let r = route(&config, &at(dir.path())).unwrap();
    assert_eq!(r.method, RouteMethod::Unscoped);
}

/// A repo path that is a folder of repositories: `--files` (and the derived
/// task's files) are relative to the repository cwd is in, as its notes'
/// `related_files` are; modules' prefixes still match relative to the folder.
/// Before, the files were `api/src/x.rs`, which no note's `src/x.rs` matched.
#[test]
fn files_in_a_folder_of_repositories_are_relative_to_their_repository() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for d in ["vault", "code/suite/api/.git", "code/suite/api/src"] {
        fs::create_dir_all(root.join(d)).unwrap();
    }
    let text = r#"
[vault]
root = "vault"
[[projects]]
id = "suite"
repo_paths = ["code/suite"]
[[projects.modules]]
id = "api"
path_prefixes = ["api/src"]
"#;
    let path = root.join("cairn.toml");
    fs::write(&path, text).unwrap();
    let config = Config::load(&path, None).unwrap();
    let cwd = root.join("code/suite/api");
    let files = vec!["src/x.rs".to_owned()];
    let r = route(
        &config,
        &RouteInput {
            files: &files,
            ..at(&cwd)
        },
    )
    .unwrap();
    assert_eq!(r.project_id.as_deref(), Some("suite"));
    assert_eq!(r.files, vec!["src/x.rs"]);
    assert_eq!(r.modules, vec!["api"]);
}
