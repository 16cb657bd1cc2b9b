//! Packet-level checks on the devmem suite (`fixtures/devmem`): for every one of its
//! 89 session-start tasks, the wake-up packet keeps the pinned notes in scope, never
//! lists a superseded or archived note, never leaks another project's notes, and no
//! output of any command (packet, renderings, search, explain, get) carries a secret
//! canary; confidential canaries never reach a packet.

#![allow(clippy::unwrap_used)] // test helpers, like the tests, fail loudly

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cairn_engine::config::Config;
use cairn_engine::*;
use cairn_eval::{SuiteQuery, parse_queries};

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/devmem")
        .canonicalize()
        .unwrap()
}

fn engine() -> &'static Engine {
    static E: OnceLock<Engine> = OnceLock::new();
    E.get_or_init(|| {
        let config = Config::load(&suite().join("cairn.toml"), None).unwrap();
        Engine::open(config, &OpenOptions::default()).unwrap()
    })
}

fn queries() -> Vec<SuiteQuery> {
    let text = std::fs::read_to_string(suite().join("queries.jsonl")).unwrap();
    let parsed = parse_queries("queries.jsonl", &text);
    assert!(parsed.issues.is_empty(), "{:?}", parsed.issues);
    assert_eq!(parsed.queries.len(), 89);
    parsed.queries
}

fn request(q: &SuiteQuery, target: Target, format: Format) -> WakeupRequest {
    WakeupRequest {
        cwd: q.cwd.as_ref().map_or_else(suite, |c| suite().join(c)),
        project: None,
        task: q.query.clone(),
        files: q.files.clone(),
        profile: None,
        target,
        format,
        budget: None,
        now: "2026-11-22T09:00:00Z".parse().unwrap(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    }
}

fn under(path: &str, roots: &[String]) -> bool {
    roots.iter().any(|r| in_root(path, r))
}

/// The pinned notes a packet of this profile must show: the profile's primary
/// scope, plus the secondary scope's pinned notes of the types it takes (see
/// the built-in project and developer profiles).
fn pinned_in_scope(profile: &str, project: Option<&str>) -> Vec<String> {
    let e = engine();
    let dev = e.config().developer.note_roots.clone();
    let proj = project
        .and_then(|p| e.config().project(p))
        .map(|p| p.note_roots.clone())
        .unwrap_or_default();
    let (primary, secondary, types): (&[String], &[String], &[&str]) = match profile {
        "project" => (&proj, &dev, &["person", "preference", "workflow"]),
        _ => (&dev, &proj, &["preference", "constraint", "workflow"]),
    };
    e.notes()
        .iter()
        .filter(|n| n.pinned && !n.is_retired())
        .filter(|n| {
            under(&n.path, primary)
                || (under(&n.path, secondary)
                    && n.memory_type.is_some_and(|t| types.contains(&t.as_str())))
        })
        .map(|n| n.path.clone())
        .collect()
}

#[test]
fn every_packet_keeps_pins_and_drops_retired_and_foreign_notes() {
    let e = engine();
    let project_roots: Vec<(String, Vec<String>)> = e
        .config()
        .projects
        .iter()
        .map(|p| (p.id.clone(), p.note_roots.clone()))
        .collect();
    let mut pinned_checked = 0;
    for q in queries() {
        let out = e
            .wakeup(&request(&q, Target::Generic, Format::Json))
            .unwrap();
        let p = &out.packet;
        let project = p.identity.project.as_ref().map(|i| i.id.as_str());
        if q.cwd.is_some() {
            assert!(project.is_some(), "{}: cwd routes to a project", q.id);
        }
        let items: Vec<_> = p
            .sections()
            .into_iter()
            .flat_map(|(_, items)| items.iter())
            .collect();
        let paths: Vec<&str> = items.iter().map(|i| i.path.as_str()).collect();
        for it in &items {
            let n = e.note(&it.path).unwrap();
            assert!(!n.is_retired(), "{}: {} is retired", q.id, it.path);
            if let Some(owner) = n.project_id.as_deref() {
                assert_eq!(Some(owner), project, "{}: {} leaks", q.id, it.path);
            }
            for (id, roots) in &project_roots {
                if Some(id.as_str()) != project {
                    assert!(!under(&it.path, roots), "{}: {} leaks", q.id, it.path);
                }
            }
        }
        for d in &p.decisions {
            let n = e.note(&d.path).unwrap();
            assert!(
                n.superseded_by.is_empty(),
                "{}: {} superseded",
                q.id,
                d.path
            );
        }
        for pinned in pinned_in_scope(&p.profile, project) {
            assert!(
                paths.contains(&pinned.as_str()),
                "{}: pinned {pinned} missing",
                q.id
            );
            pinned_checked += 1;
        }
    }
    // The check above is not vacuous: 85 project tasks × their pins, 4 developer tasks.
    assert!(pinned_checked > 200, "{pinned_checked}");
}

const SECRET: &str = "CANARY-SECRET-";
const CONFIDENTIAL: &str = "CANARY-CONFIDENTIAL-";

#[test]
fn canaries_never_reach_a_packet() {
    let e = engine();
    // The canaries are really in the vault, so the checks below can fail.
    let secret_notes = e.notes().iter().filter(|n| n.body.contains(SECRET)).count();
    assert_eq!(secret_notes, 5);
    let confidential_notes = e
        .notes()
        .iter()
        .filter(|n| n.body.contains(CONFIDENTIAL))
        .count();
    assert_eq!(confidential_notes, 5);
    let targets = [
        Target::Claude,
        Target::Codex,
        Target::Cursor,
        Target::Gemini,
        Target::Opencode,
        Target::Generic,
    ];
    for (i, q) in queries().iter().enumerate() {
        // Every format for every task; the targets in turn (they only shape the text).
        let target = targets[i % targets.len()];
        for format in [Format::Json, Format::Prompt, Format::Markdown] {
            let out = e.wakeup(&request(q, target, format)).unwrap();
            assert!(!out.rendered.contains(SECRET), "{} {format} {target}", q.id);
            assert!(!out.rendered.contains(CONFIDENTIAL), "{} {format}", q.id);
        }
    }
}

#[test]
fn secret_canaries_never_reach_search_explain_or_get() {
    let e = engine();
    for q in queries() {
        let ex = e
            .explain(&request(&q, Target::Generic, Format::Prompt))
            .unwrap();
        let ex = serde_json::to_string(&ex).unwrap();
        assert!(!ex.contains(SECRET), "{} explain", q.id);
        let res = e
            .search(&SearchRequest {
                query: q.query.clone(),
                cwd: q.cwd.as_ref().map(|c| suite().join(c)),
                project: None,
                files: q.files.clone(),
                scope: SearchScope::All,
                limit: 50,
                ranking: Ranking::Full,
                today: "2026-11-22".parse().unwrap(),
            })
            .unwrap();
        let text = serde_json::to_string(&res.hits).unwrap();
        assert!(!text.contains(SECRET), "{} search", q.id);
        assert!(
            res.hits.iter().all(|h| h.sensitivity != "secret"),
            "{} search lists a secret note",
            q.id
        );
    }
    let secrets: Vec<_> = e
        .notes()
        .iter()
        .filter(|n| n.body.contains(SECRET))
        .collect();
    assert_eq!(secrets.len(), 5);
    for n in secrets {
        assert!(matches!(e.get(&n.path), Err(EngineError::Secret { .. })));
    }
}
