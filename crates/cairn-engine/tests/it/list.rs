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

#[test]
fn recent_is_newest_first_by_front_matter_date_under_policy() {
    let e = engine();
    let q = req(ListScope::Both);
    let r = e.recent(&q, None).unwrap();
    assert_eq!(r.project_id.as_deref(), Some("ledger"));
    assert!(r.notes.len() >= 5, "{:?}", r.notes);
    assert_eq!(r.total, r.notes.len());
    // Newest first, ties by id; every note dated (no file times).
    let keys: Vec<(String, String)> = r
        .notes
        .iter()
        .map(|n| (n.date.clone().unwrap(), n.id.clone()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    assert_eq!(keys, sorted);
    // In scope only, and never a secret or confidential note.
    assert!(r.notes.iter().all(|n| {
        !n.path.starts_with("10-Projects/atlas/") && !n.path.starts_with("10-Projects/hearth/")
    }));
    assert_eq!(r.hidden, e.list(&q).unwrap().hidden);
    let json = serde_json::to_string(&r).unwrap();
    for canary in [
        "CANARY-",
        "Break-glass",
        "Production database access",
        "Vendor contract",
    ] {
        assert!(!json.contains(canary), "{canary}");
    }
    // `since` keeps the notes dated that day or later; paging keeps the order.
    let newest = r.notes[0].date.clone().unwrap();
    let since = chrono::NaiveDate::parse_from_str(&newest, "%Y-%m-%d").unwrap();
    let latest = e.recent(&q, Some(since)).unwrap();
    assert!(
        latest
            .notes
            .iter()
            .all(|n| n.date.as_deref() == Some(newest.as_str()))
    );
    assert!(latest.total >= 1 && latest.total < r.total);
    let mut paged = q.clone();
    paged.offset = 2;
    paged.limit = 2;
    assert_eq!(e.recent(&paged, None).unwrap().notes, r.notes[2..4]);
}

#[test]
fn vault_scope_lists_every_visible_note_of_the_vault() {
    let e = engine();
    let mut q = req(ListScope::Vault);
    q.cwd = None;
    let r = e.list(&q).unwrap();
    assert_eq!(r.roots, [""]);
    let paths: Vec<&str> = r.notes.iter().map(|n| n.path.as_str()).collect();
    for folder in [
        "00-Identity/",
        "10-Projects/atlas/",
        "10-Projects/hearth/",
        "90-Archive/",
    ] {
        assert!(paths.iter().any(|p| p.starts_with(folder)), "{folder}");
    }
    assert!(r.hidden >= 4, "{}", r.hidden);
    assert_eq!(r.total + r.hidden, e.note_count());
    let json = serde_json::to_string(&r).unwrap();
    for canary in [
        "CANARY-",
        "Break-glass",
        "Production database access",
        "Vendor contract",
    ] {
        assert!(!json.contains(canary), "{canary}");
    }
}
