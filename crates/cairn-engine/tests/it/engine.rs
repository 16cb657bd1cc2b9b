//! The pipeline end to end on the demo vault (`fixtures/demo`): snapshots of every
//! target × format, determinism, budgets, routing, policy canaries, and vaults
//! full of bad input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cairn_engine::config::Config;
use cairn_engine::*;
use chrono::{DateTime, Utc};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn demo_dir() -> PathBuf {
    repo_root().join("fixtures/demo")
}

fn demo() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let config = Config::load(&demo_dir().join("cairn.toml"), None).unwrap();
        Engine::open(config, &OpenOptions::default()).unwrap()
    })
}

fn now() -> DateTime<Utc> {
    "2026-11-22T09:00:00Z".parse().unwrap()
}

fn request(repo: &str, task: &str, target: Target, format: Format) -> WakeupRequest {
    WakeupRequest {
        cwd: demo_dir().join("repos").join(repo),
        project: None,
        task: task.to_owned(),
        files: Vec::new(),
        profile: None,
        target,
        format,
        budget: None,
        now: now(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    }
}

/// The checkout's location, and what depends on its length (token counts, the
/// content hash over the query's cwd), are not part of a snapshot.
fn filters() -> Vec<(String, &'static str)> {
    vec![
        (regex_escape(&repo_root().display().to_string()), "[REPO]"),
        (r"Budget: \d+ of".to_owned(), "Budget: [N] of"),
        (r#""used_tokens": \d+"#.to_owned(), r#""used_tokens": [N]"#),
        (r"content [0-9a-f]{16}".to_owned(), "content [HASH]"),
        (
            r#""content_hash": "[0-9a-f]{16}""#.to_owned(),
            r#""content_hash": "[HASH]""#,
        ),
    ]
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            if "\\.+*?()|[]{}^$".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {{
        let filters = filters();
        let filters: Vec<(&str, &str)> = filters.iter().map(|(a, b)| (a.as_str(), *b)).collect();
        insta::with_settings!({ filters => filters, prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        });
    }};
}

const TASK: &str = "add retry to payout settlement";

#[test]
fn snapshots_every_target_and_format() {
    for target in [
        Target::Claude,
        Target::Codex,
        Target::Cursor,
        Target::Gemini,
        Target::Opencode,
        Target::Generic,
    ] {
        for format in [Format::Prompt, Format::Markdown, Format::Json] {
            let mut req = request("ledger", TASK, target, format);
            req.files = vec!["src/settlement/payout.rs".into()];
            // Room for everything: what budgets drop is tested apart, and must not
            // depend on how long the checkout's path is.
            req.budget = Some(20_000);
            let out = demo().wakeup(&req).unwrap();
            snapshot!(format!("wakeup_ledger_{target}_{format}"), out.rendered);
        }
    }
}

#[test]
fn snapshot_developer_profile_without_project() {
    let mut req = request("ledger", "", Target::Claude, Format::Prompt);
    req.cwd = demo_dir();
    let out = demo().wakeup(&req).unwrap();
    assert_eq!(out.packet.profile, "developer");
    assert!(out.packet.identity.project.is_none());
    assert_eq!(out.packet.provenance.route.method, "no_match");
    snapshot!("wakeup_no_project_claude_prompt", out.rendered);
}

#[test]
fn every_top_level_field_is_present() {
    let out = demo()
        .wakeup(&request("ledger", TASK, Target::Generic, Format::Json))
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&out.rendered).unwrap();
    for key in [
        "version",
        "generated_at",
        "target",
        "profile",
        "query",
        "identity",
        "working_style",
        "active_context",
        "priorities",
        "constraints",
        "decisions",
        "incidents",
        "recommended_notes",
        "provenance",
        "policy",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    for key in ["task", "cwd", "files", "modules", "scenes"] {
        assert!(v["query"].get(key).is_some(), "missing query.{key}");
    }
    for key in ["derived_from", "selection_basis"] {
        assert!(
            v["provenance"].get(key).is_some(),
            "missing provenance.{key}"
        );
    }
    for key in [
        "max_sensitivity_included",
        "redactions_applied",
        "suppressed_note_count",
        "policy_mode",
    ] {
        assert!(v["policy"].get(key).is_some(), "missing policy.{key}");
    }
    assert_eq!(v["version"], "wakeup.v1");
    assert_eq!(v["generated_at"], "2026-11-22T09:00:00Z");
    // Every item: source path, score, reasons, sensitivity; summaries are not titles.
    let p = &out.packet;
    assert!(p.item_count() > 5);
    for (_, items) in p.sections() {
        for it in items {
            assert!(it.path.ends_with(".md"));
            assert!(!it.reasons.is_empty(), "{}", it.path);
            assert!(
                !it.summary.is_empty() && it.summary != it.title,
                "{}: {}",
                it.path,
                it.summary
            );
        }
    }
}

#[test]
fn identical_inputs_give_identical_bytes() {
    for format in [Format::Prompt, Format::Markdown, Format::Json] {
        let a = demo()
            .wakeup(&request("ledger", TASK, Target::Claude, format))
            .unwrap()
            .rendered;
        let config = Config::load(&demo_dir().join("cairn.toml"), None).unwrap();
        let fresh = Engine::open(config, &OpenOptions::default()).unwrap();
        let b = fresh
            .wakeup(&request("ledger", TASK, Target::Claude, format))
            .unwrap()
            .rendered;
        assert_eq!(a, b, "{format}");
    }
}

#[test]
fn the_budget_is_never_exceeded() {
    for budget in [250, 400, 600, 900, 1500, 4000] {
        for format in [Format::Prompt, Format::Markdown, Format::Json] {
            for target in [Target::Claude, Target::Codex, Target::Opencode] {
                let mut req = request("ledger", TASK, target, format);
                req.budget = Some(budget);
                match demo().wakeup(&req) {
                    Ok(out) => {
                        let used = cairn_render::estimate_tokens(&out.rendered);
                        assert!(used <= budget, "{format}/{target} at {budget}: {used}");
                        assert_eq!(out.packet.budget.used_tokens, used, "reported = measured");
                        assert_eq!(out.packet.budget.limit_tokens, budget);
                    }
                    Err(EngineError::BudgetTooSmall { needed, .. }) => assert!(needed > budget),
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
    // A tight budget drops items and says so.
    let mut req = request("ledger", TASK, Target::Claude, Format::Prompt);
    req.budget = Some(450);
    let small = demo().wakeup(&req).unwrap();
    let big = demo()
        .wakeup(&request("ledger", TASK, Target::Claude, Format::Prompt))
        .unwrap();
    assert!(small.packet.item_count() < big.packet.item_count());
    assert!(
        small
            .packet
            .budget
            .left_out
            .iter()
            .any(|l| l.reason == "token budget")
    );
    let mut req = request("ledger", TASK, Target::Claude, Format::Json);
    req.budget = Some(10);
    assert!(matches!(
        demo().wakeup(&req),
        Err(EngineError::BudgetTooSmall { .. })
    ));
}

#[test]
fn the_task_decides_the_ranking() {
    let out = demo()
        .wakeup(&request("ledger", TASK, Target::Generic, Format::Json))
        .unwrap();
    let p = &out.packet;
    let top_decision = &p.decisions[0];
    assert!(
        top_decision.title.to_lowercase().contains("retr"),
        "top decision: {}",
        top_decision.title
    );
    // Superseded decisions never enter a section.
    for it in p.decisions.iter().chain(&p.recommended_notes) {
        let n = demo().note(&it.path).unwrap();
        assert!(!n.is_retired(), "{} is retired", it.path);
    }
    // A session note is there only as the project's latest (hot) or when it
    // matches the task.
    assert!(p.sections().iter().all(|(_, v)| {
        v.iter().all(|i| {
            i.memory_type.as_deref() != Some("session")
                || i.layer == "hot"
                || i.reasons.iter().any(|r| r.contains("covers"))
        })
    }));
    // The pinned identity note is always there.
    assert!(p.identity.notes.iter().any(|i| i.pinned));
    // No cross-project leakage: nothing from atlas or hearth.
    for (_, items) in p.sections() {
        for it in items {
            assert!(
                !it.path.contains("10-Projects/atlas") && !it.path.contains("10-Projects/hearth"),
                "{}",
                it.path
            );
        }
    }
}

#[test]
fn a_query_that_matches_nothing_gives_the_hot_layer_only() {
    let out = demo()
        .wakeup(&request(
            "ledger",
            "zzyzx quuxplorp frobnicate",
            Target::Generic,
            Format::Json,
        ))
        .unwrap();
    for (name, items) in out.packet.sections() {
        for it in items {
            assert_eq!(
                it.layer, "hot",
                "{name}: {} is not in the hot layer",
                it.path
            );
        }
    }
    assert!(out.packet.item_count() >= 1);
}

#[test]
fn routing_nested_no_match_and_explicit() {
    let mut req = request("ledger", TASK, Target::Generic, Format::Json);
    req.cwd = demo_dir().join("repos/ledger/src/settlement");
    let out = demo().wakeup(&req).unwrap();
    assert_eq!(
        out.packet.provenance.route.project_id.as_deref(),
        Some("ledger")
    );
    assert_eq!(out.packet.query.modules, vec!["settlement"]);

    req.cwd = std::env::temp_dir();
    let out = demo().wakeup(&req).unwrap();
    assert_eq!(out.packet.profile, "developer");
    assert!(out.packet.provenance.route.reasons[0].starts_with("no project matched"));

    req.project = Some("atlas".into());
    let out = demo().wakeup(&req).unwrap();
    assert_eq!(out.packet.identity.project.as_ref().unwrap().id, "atlas");
    req.project = Some("nope".into());
    let e = demo().wakeup(&req).unwrap_err();
    assert!(e.is_usage());
}

#[cfg(unix)]
#[test]
fn symlinked_cwd_routes_like_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("ledger-link");
    std::os::unix::fs::symlink(demo_dir().join("repos/ledger"), &link).unwrap();
    let mut req = request("ledger", TASK, Target::Generic, Format::Json);
    req.cwd = link;
    let out = demo().wakeup(&req).unwrap();
    assert_eq!(
        out.packet.provenance.route.project_id.as_deref(),
        Some("ledger")
    );
}

// ---------------------------------------------------------------------------
// Policy: planted canaries never leave cairn, through any command or format.

const NEVER: &[&str] = &[
    "CANARY-SECRET",
    "CANARY-CONFIDENTIAL",
    "hunter2-CANARY-PW",
    "CANARY-URLPW",
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_Fak3CanaryT0kenForCairnDemoOnly9x2Q7",
    "xoxb-1111111111111-2222222222222-FakeCanarySlackTok3nDemo",
];

/// Secret notes' titles must not appear either.
const SECRET_TITLES: &[&str] = &["Production database access", "Break-glass access"];

fn assert_clean(what: &str, text: &str) {
    for c in NEVER.iter().chain(SECRET_TITLES) {
        assert!(!text.contains(c), "{what} leaks {c:?}");
    }
}

const LEAKY_TASKS: &[(&str, &str)] = &[
    ("ledger", "production database access credentials psql"),
    (
        "ledger",
        "Northwind payments vendor contract renewal negotiation",
    ),
    ("ledger", "Dario one-on-one notes"),
    ("hearth", "break-glass access root credentials"),
    ("hearth", "restore postgres from restic backup password"),
    ("hearth", "aws access key slack token github"),
];

#[test]
fn canaries_never_leak_from_wakeup_search_explain() {
    let e = demo();
    for (repo, task) in LEAKY_TASKS {
        for target in [
            Target::Claude,
            Target::Codex,
            Target::Cursor,
            Target::Gemini,
            Target::Opencode,
            Target::Generic,
        ] {
            for format in [Format::Prompt, Format::Markdown, Format::Json] {
                for profile in ["project", "developer"] {
                    let mut req = request(repo, task, target, format);
                    req.profile = Some(profile.into());
                    req.budget = Some(8000);
                    let out = e.wakeup(&req).unwrap();
                    assert_clean(
                        &format!("wakeup {repo} {task} {target} {format} {profile}"),
                        &out.rendered,
                    );
                }
            }
        }
        let ex = e
            .explain(&request(repo, task, Target::Generic, Format::Prompt))
            .unwrap();
        assert_clean(
            &format!("explain {task}"),
            &serde_json::to_string(&ex).unwrap(),
        );
        for scope in [SearchScope::All, SearchScope::Routed] {
            let res = e
                .search(&SearchRequest {
                    query: (*task).to_owned(),
                    cwd: Some(demo_dir().join("repos").join(repo)),
                    project: None,
                    files: vec![],
                    scope,
                    limit: 100,
                    ranking: Ranking::Full,
                    today: now().date_naive(),
                })
                .unwrap();
            assert_clean(
                &format!("search {task}"),
                &serde_json::to_string(&res).unwrap(),
            );
        }
    }
}

#[test]
fn the_leaky_runbook_is_shown_redacted() {
    let mut req = request(
        "hearth",
        "restore postgres from restic backup",
        Target::Generic,
        Format::Json,
    );
    req.budget = Some(8000);
    let out = demo().wakeup(&req).unwrap();
    let s = &out.rendered;
    assert!(
        s.contains("Restore Postgres from restic"),
        "the runbook itself is shown"
    );
    assert_clean("wakeup", s);
    let g = demo()
        .get("10-Projects/hearth/Runbooks/Restore Postgres from restic.md")
        .unwrap();
    assert!(g.redactions >= 5, "{}", g.redactions);
    assert_clean("get", &g.content);
    assert!(g.content.contains("[redacted:"));
}

#[test]
fn get_refuses_secrets_and_withholds_confidential() {
    let e = demo();
    // By path: refused. By title or alias: no such note (a guess confirms nothing).
    match e.get("10-Projects/ledger/Production database access.md") {
        Err(EngineError::Secret { .. }) => {}
        other => panic!("{other:?}"),
    }
    for q in ["Production database access", "Break-glass access"] {
        match e.get(q) {
            Err(EngineError::NotFound { .. }) => {}
            other => panic!("{q}: {other:?}"),
        }
    }
    let g = e
        .get("10-Projects/ledger/Vendor contract - Northwind Payments renewal")
        .unwrap();
    assert!(g.withheld && g.content.is_empty());
    assert_clean("get confidential", &serde_json::to_string(&g).unwrap());
    assert!(matches!(
        e.get("no such note at all"),
        Err(EngineError::NotFound { .. })
    ));
}

#[test]
fn confidential_notes_are_withheld_when_strongly_relevant() {
    let mut req = request(
        "ledger",
        "Northwind payments vendor contract renewal",
        Target::Generic,
        Format::Json,
    );
    req.budget = Some(8000);
    let out = demo().wakeup(&req).unwrap();
    let withheld: Vec<_> = out
        .packet
        .sections()
        .iter()
        .flat_map(|(_, v)| v.iter())
        .filter(|i| i.withheld)
        .map(|i| i.title.clone())
        .collect();
    assert!(
        !withheld.is_empty(),
        "the contract note is mentioned, withheld"
    );
    assert_eq!(out.packet.policy.withheld_note_count, withheld.len());
    assert_clean("wakeup", &out.rendered);
}

/// A confidential note is found by what a packet shows of it (its title) and
/// the names it is asked for by (aliases, triggers), never by its content: a
/// search for words only its body holds must not confirm them. Before, `Brightline
/// Bank quote walk-away point` found the contract note (withheld, but found).
#[test]
fn a_confidential_note_is_never_found_by_its_content() {
    let e = demo();
    let search = |query: &str| {
        e.search(&SearchRequest {
            query: query.to_owned(),
            cwd: Some(demo_dir().join("repos").join("ledger")),
            project: None,
            files: vec![],
            scope: SearchScope::All,
            limit: 100,
            ranking: Ranking::Full,
            today: now().date_naive(),
        })
        .unwrap()
    };
    let contract = "Vendor contract - Northwind Payments renewal";
    for body_only in [
        "Brightline Bank quote walk-away point",
        "CANARY-CONFIDENTIAL-LEDGER-NW9",
        "Femke de Wit procurement",
        "acquiring agreement negotiation leverage",
    ] {
        let res = search(body_only);
        assert!(
            res.hits.iter().all(|h| h.title != contract),
            "{body_only}: {:?}",
            res.hits.iter().map(|h| &h.title).collect::<Vec<_>>()
        );
        // Nor counted as a match hidden by policy (a path word such as
        // `ledger` may still match a note's path, which is shown).
        if !body_only.contains("LEDGER") {
            assert_eq!(res.suppressed, 0, "{body_only}");
        }
    }
    // By its title: found, withheld.
    for name in ["Northwind Payments renewal", "vendor contract Northwind"] {
        let res = search(name);
        let hit = res.hits.iter().find(|h| h.title == contract);
        assert!(
            hit.is_some_and(|h| h.sensitivity == "confidential" && h.tags.is_empty()),
            "{name}"
        );
    }
}

#[test]
fn prompt_injection_cannot_close_the_block() {
    let mut req = request(
        "ledger",
        "partner support thread duplicate payout webhooks",
        Target::Claude,
        Format::Prompt,
    );
    req.budget = Some(8000);
    let out = demo().wakeup(&req).unwrap();
    assert!(
        out.rendered.contains("duplicate payout webhooks"),
        "{}",
        out.rendered
    );
    assert_eq!(out.rendered.matches("</cairn-memory>").count(), 1);
    assert!(!out.rendered.contains("</context>") && !out.rendered.contains("</memory>"));
}

// ---------------------------------------------------------------------------
// Bad input: the packet still builds.

#[test]
fn a_vault_full_of_bad_input_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    let w = |rel: &str, bytes: &[u8]| {
        let p = v.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    w(
        "good.md",
        b"---\ntitle: Retry policy\nmemory_type: decision\n---\nWe retry payouts three times.",
    );
    w(
        "malformed.md",
        b"---\ntitle: [oops\n---\nRetry body text survives.",
    );
    w("binary.md", b"\x00\x01\x02\x03retry");
    w("empty.md", b"");
    w("badutf8.md", b"retry \xff\xfe broken bytes");
    w("huge.md", &vec![b'a'; 2 * 1024 * 1024]);
    w(
        "unknown.md",
        b"---\nmemory_type: musing\nsensitivity: sorta\nstatus: vibing\n---\nretry",
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(v, v.join("loop")).unwrap();
    let config = Config::for_vault(v).unwrap();
    let e = Engine::open(config, &OpenOptions::default()).unwrap();
    let codes: Vec<&str> = e.diagnostics().iter().map(|d| d.code.as_str()).collect();
    for c in [
        "frontmatter-yaml",
        "binary-file",
        "empty-note",
        "invalid-utf8",
        "limit-file-size",
        "frontmatter-value",
    ] {
        assert!(codes.contains(&c), "{c} in {codes:?}");
    }
    let mut req = request("ledger", "retry", Target::Claude, Format::Prompt);
    req.cwd = v.to_path_buf();
    let out = e.wakeup(&req).unwrap();
    assert!(out.rendered.contains("Retry policy"), "{}", out.rendered);
    assert!(out.packet.provenance.scan_diagnostics >= 6);
    let ex = e.explain(&req).unwrap();
    assert!(ex.diagnostics.len() >= 6);
}

#[test]
fn the_hot_layer_is_the_same_prefix_for_every_task_in_a_project() {
    let tasks = [
        "add retry to payout settlement",
        "zzyzx quuxplorp frobnicate",
        "",
        "why did the kafka consumer lag last week",
    ];
    for target in [
        Target::Claude,
        Target::Codex,
        Target::Cursor,
        Target::Gemini,
    ] {
        let prefixes: Vec<String> = tasks
            .iter()
            .map(|t| {
                let out = demo()
                    .wakeup(&request("ledger", t, target, Format::Prompt))
                    .unwrap();
                let at = out.rendered.find("Project: ").unwrap();
                out.rendered[..at].to_owned()
            })
            .collect();
        assert!(prefixes[0].contains("Ledger overview"), "{}", prefixes[0]);
        for p in &prefixes[1..] {
            assert_eq!(p, &prefixes[0], "{target}");
        }
    }
    // An off-topic task says so, after the hot layer.
    let out = demo()
        .wakeup(&request(
            "ledger",
            "zzyzx quuxplorp frobnicate",
            Target::Claude,
            Format::Prompt,
        ))
        .unwrap();
    assert!(
        out.rendered.contains("No note matches the task"),
        "{}",
        out.rendered
    );
}

/// A hit whose body shares no word with the query (it matched by title) and has
/// no description shows the prose's lead, not whatever line comes first.
#[test]
fn a_snippet_without_matching_sentences_is_the_prose_lead() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("Settlement windows.md"),
        "# Settlement windows\n\n- see also the runbook\n- owner: payments\n\n\
         Files reach the bank before four in the afternoon. Late files wait a day.\n",
    )
    .unwrap();
    let config = Config::for_vault(tmp.path()).unwrap();
    let e = Engine::open(config, &OpenOptions::default()).unwrap();
    let res = e
        .search(&SearchRequest {
            query: "settlement windows".to_owned(),
            cwd: None,
            project: None,
            files: vec![],
            scope: SearchScope::All,
            limit: 10,
            ranking: Ranking::Full,
            today: now().date_naive(),
        })
        .unwrap();
    assert_eq!(
        res.hits[0].snippet, "Files reach the bank before four in the afternoon.",
        "{res:?}"
    );
}

/// A template whose size depends on `used_tokens` so that the count never
/// settles (here it flips between two values) still gets its packet: after four
/// renderings the last one is kept, as long as it is within the budget.
#[test]
fn a_used_tokens_count_that_never_settles_still_renders() {
    let tmp = tempfile::tempdir().unwrap();
    let vault = tmp.path().join("vault");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::write(
        vault.join("Payout retries.md"),
        "# Payout retries\n\nRetries back off.\n",
    )
    .unwrap();
    let profiles = tmp.path().join("profiles");
    std::fs::create_dir_all(profiles.join("templates/markdown")).unwrap();
    std::fs::write(
        profiles.join("templates/markdown/claude.j2"),
        "{{ packet.budget.used_tokens }}{% if packet.budget.used_tokens is even %} y{% endif %}",
    )
    .unwrap();
    let config = Config::for_vault(&vault).unwrap();
    let opts = OpenOptions {
        profiles_dir: Some(profiles),
        ..OpenOptions::default()
    };
    let e = Engine::open(config, &opts).unwrap();
    let mut req = request("ledger", "payout retries", Target::Claude, Format::Markdown);
    req.cwd = vault.clone();
    req.budget = Some(1_500);
    let out = e.wakeup(&req).expect("a packet, not a budget error");
    assert!(!out.rendered.trim().is_empty());
}
