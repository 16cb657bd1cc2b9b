//! `Engine::list` on the demo vault: scopes, routing, type filter, paging, and policy
//! (secret and confidential notes are counted, never listed).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use cairn_engine::config::Config;
use cairn_engine::*;

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/demo")
        .canonicalize()
        .unwrap()
}

fn engine() -> Engine {
    let config = Config::load(&demo_dir().join("cairn.toml"), None).unwrap();
    Engine::open(config, &OpenOptions::default()).unwrap()
}

fn req(scope: ListScope) -> ListRequest {
    ListRequest {
        cwd: Some(demo_dir().join("repos/ledger")),
        project: None,
        scope,
        memory_type: None,
        limit: 1000,
        offset: 0,
    }
}

#[test]
fn project_scope_lists_the_routed_projects_notes_without_sensitive_ones() {
    let e = engine();
    let r = e.list(&req(ListScope::Project)).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("ledger"));
    assert_eq!(r.roots, ["10-Projects/ledger", "20-Areas"]);
    let paths: Vec<&str> = r.notes.iter().map(|n| n.path.as_str()).collect();
    assert!(paths.contains(&"10-Projects/ledger/Ledger overview.md"));
    assert!(
        paths
            .iter()
            .all(|p| p.starts_with("10-Projects/ledger/") || p.starts_with("20-Areas/"))
    );
    assert!(
        !paths
            .iter()
            .any(|p| p.contains("Production database access"))
    );
    assert!(!paths.iter().any(|p| p.contains("Vendor contract")));
    assert!(!paths.iter().any(|p| p.contains("Dario Conti")));
    // One secret and one confidential ledger note, one confidential 20-Areas note.
    assert_eq!(r.hidden, 3);
    assert_eq!(r.total, r.notes.len());
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted, "sorted by path");
    let json = serde_json::to_string(&r).unwrap();
    for canary in ["CANARY-", "Break-glass", "Production database access"] {
        assert!(!json.contains(canary), "{canary}");
    }
}

#[test]
fn developer_scope_type_filter_and_paging() {
    let e = engine();
    let mut q = req(ListScope::Developer);
    q.memory_type = Some(MemoryType::Preference);
    let all = e.list(&q).unwrap();
    assert!(all.notes.len() >= 4, "{:?}", all.notes);
    assert!(
        all.notes
            .iter()
            .all(|n| n.memory_type.as_deref() == Some("preference"))
    );
    q.limit = 2;
    q.offset = 1;
    let page = e.list(&q).unwrap();
    assert_eq!(page.total, all.total);
    assert_eq!(page.notes, all.notes[1..3]);
}

#[test]
fn unknown_project_is_a_usage_error() {
    let e = engine();
    let mut q = req(ListScope::Both);
    q.cwd = None;
    q.project = Some("nope".into());
    let err = e.list(&q).unwrap_err();
    assert!(err.is_usage(), "{err}");
    q.project = Some("atlas".into());
    let r = e.list(&q).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("atlas"));
    assert!(
        r.notes
            .iter()
            .any(|n| n.path.starts_with("10-Projects/atlas/"))
    );
}
