//! Decisions and lessons kept as entry files (`decisions.md`, `lessons.md`): each
//! entry is ranked, packed, fetched and policed on its own.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::path::Path;

use cairn_engine::config::Config;
use cairn_engine::*;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A JSON wake-up from `cwd` for `task` at `now`.
fn request(cwd: &Path, task: &str, now: &str) -> WakeupRequest {
    WakeupRequest {
        cwd: cwd.to_path_buf(),
        project: None,
        task: task.into(),
        files: Vec::new(),
        profile: None,
        target: Target::Generic,
        format: Format::Json,
        budget: None,
        now: now.parse().unwrap(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    }
}

fn vault() -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    let mut decisions = String::from("---\nproject_id: ledger\n---\n# Ledger decisions\n\n");
    for i in 0..50 {
        decisions.push_str(&format!(
            "### [2025-{:02}-{:02}] Decision {i} on subsystem{i}\n\n**Category:** architecture\n**Tags:** area{i}\n\nWe settled subsystem{i} with approach{i}.\n\n---\n\n",
            1 + i % 12,
            1 + i % 28
        ));
    }
    write(&v, "10-Projects/ledger/decisions.md", &decisions);
    write(
        &v,
        "10-Projects/ledger/lessons.md",
        "---\nsensitivity: secret\n---\n### [2025-02-02] Root key rotation\n\nThe rotation key is CANARY-ENTRY-SECRET.\n",
    );
    write(
        &v,
        "10-Projects/ledger/overview.md",
        "---\nmemory_type: project\n---\n# Ledger\nPayments.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[[projects]]\nid='ledger'\nrepo_paths=['repo']\nnote_roots=['10-Projects/ledger']\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    (dir, engine)
}

#[test]
fn fifty_entries_are_fifty_rankable_decisions() {
    let (dir, engine) = vault();
    let entries: Vec<_> = engine
        .notes()
        .iter()
        .filter(|n| n.entry_of.as_deref() == Some("10-Projects/ledger/decisions.md"))
        .collect();
    assert_eq!(entries.len(), 50);

    let req = request(
        &dir.path().join("repo"),
        "change how subsystem17 works",
        "2026-01-01T00:00:00Z",
    );
    let out = engine.wakeup(&req).unwrap();
    let top = &out.packet.decisions[0];
    assert_eq!(
        top.path,
        "10-Projects/ledger/decisions.md#decision-17-on-subsystem17"
    );
    assert_eq!(top.title, "Decision 17 on subsystem17");
    assert_eq!(top.date.as_deref(), Some("2025-06-18"));
    assert!(!out.rendered.contains("CANARY-ENTRY-SECRET"));
    assert!(!out.rendered.contains("Root key rotation"));

    let hits = engine
        .search(&SearchRequest {
            query: "subsystem42 approach42".into(),
            cwd: None,
            project: None,
            files: Vec::new(),
            scope: SearchScope::All,
            limit: 3,
            ranking: Ranking::Full,
            today: "2026-01-01".parse().unwrap(),
        })
        .unwrap();
    assert_eq!(
        hits.hits[0].id,
        "10-Projects/ledger/decisions#decision-42-on-subsystem42"
    );
}

#[test]
fn get_fetches_one_entry_and_names_the_entries_of_a_file() {
    let (_dir, engine) = vault();
    let g = engine
        .get("10-Projects/ledger/decisions#decision-3-on-subsystem3")
        .unwrap();
    assert!(
        g.content
            .starts_with("### [2025-04-04] Decision 3 on subsystem3")
    );
    assert!(g.content.contains("approach3"));
    assert!(!g.content.contains("approach4"));
    assert_eq!(engine.get("Decision 3 on subsystem3").unwrap().id, g.id);

    let e = engine.get("10-Projects/ledger/decisions.md").unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("entry file"), "{msg}");
    // Entries are named as the packet shows them (path and anchor).
    assert!(
        msg.contains("10-Projects/ledger/decisions.md#decision-0-on-subsystem0"),
        "{msg}"
    );
    assert!(msg.contains("(50 entries)"), "{msg}");
    // The file by its name or the end of its path is the same entry file (the
    // name alone said "no note", and listed three entries; held-out trial).
    for short in ["decisions.md", "ledger/decisions.md", "LEDGER/decisions"] {
        let m = engine.get(short).unwrap_err().to_string();
        assert!(m.contains("it is an entry file"), "{short}: {m}");
        assert!(m.contains("(50 entries)"), "{short}: {m}");
    }
    // An entry by its file's name and its anchor, or any end of its path.
    for short in [
        "decisions.md#decision-3-on-subsystem3",
        "ledger/decisions#decision-3-on-subsystem3",
    ] {
        assert_eq!(engine.get(short).unwrap().id, g.id, "{short}");
    }
    // The end of a path starts at a folder or file name.
    assert!(engine.get("gers/decisions.md").is_err());

    // A secret entry file is refused, and its entries are never named.
    let e = engine.get("10-Projects/ledger/lessons.md").unwrap_err();
    assert!(matches!(e, EngineError::Secret { .. }), "{e}");
    assert!(!e.to_string().contains("rotation"));
    // Ranking and lookups see a secret entry as its stub (no title): its title
    // finds nothing, as for a missing note.
    assert!(matches!(
        engine.get("Root key rotation").unwrap_err(),
        EngineError::NotFound { .. }
    ));
}

/// An entry file that opens with an intro is two things: the intro, a note of
/// its own, and its entries. `get` of the file gave the whole file, its secret
/// and confidential entries with it (held-out trial); it gives the intro alone,
/// from memory and from the persistent index.
#[test]
fn get_of_an_entry_file_with_an_intro_gives_the_intro_alone() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "decisions.md",
        "---\ntitle: Log\n---\n# Log\n\nDecisions I made, newest last.\n\n## 2026-01-02 — Use A\n**Sensitivity:** secret\n\nBody a CANARY-SECRET-ENTRY.\n\n## 2026-02-03 — Use B\n**Sensitivity:** confidential\n\nBody b CANARY-CONFIDENTIAL-ENTRY.\n\n## 2026-03-03 — Use C\n\nBody c CANARY-PUBLIC-ENTRY.\n",
    );
    let in_memory = Engine::open(Config::for_vault(&v).unwrap(), &OpenOptions::default()).unwrap();
    let cached = || {
        let opts = OpenOptions {
            index: IndexMode::Persistent(PersistentOptions {
                dir: Some(dir.path().join("index")),
                ..PersistentOptions::default()
            }),
            ..OpenOptions::default()
        };
        Engine::open(Config::for_vault(&v).unwrap(), &opts).unwrap()
    };
    let (built, warm) = (cached(), cached());
    for (how, engine) in [("memory", &in_memory), ("built", &built), ("warm", &warm)] {
        for name in ["decisions.md", "decisions", "Log"] {
            let g = engine.get(name).unwrap();
            assert!(
                g.content.contains("Decisions I made"),
                "{how} {name}: {}",
                g.content
            );
            for canary in [
                "CANARY-SECRET-ENTRY",
                "CANARY-CONFIDENTIAL-ENTRY",
                "CANARY-PUBLIC-ENTRY",
            ] {
                assert!(!g.content.contains(canary), "{how} {name}: {}", g.content);
            }
            // It names the entries to get by name, the secret one left out.
            assert_eq!(
                g.entries,
                ["decisions.md#use-b", "decisions.md#use-c"],
                "{how} {name}"
            );
        }
        // An entry has no entries of its own.
        assert!(engine.get("decisions.md#use-c").unwrap().entries.is_empty());
        // The public entry is there by its own name.
        let c = engine.get("decisions.md#use-c").unwrap();
        assert!(
            c.content.contains("CANARY-PUBLIC-ENTRY"),
            "{how}: {}",
            c.content
        );
    }
}

/// A log's intro says how the log is kept, not what was decided: no task-less
/// packet lists it (a held-out trial found "Decisions I made, newest last." in
/// "Also relevant" as recently edited); a task it matches still finds it.
#[test]
fn a_log_intro_is_not_listed_without_a_task() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "decisions.md",
        "---\ntitle: Log\ncreated: 2026-11-20\n---\n# Log\n\nDecisions I made, newest last.\n\n## 2026-01-02 — Use the Postgres queue\n\nOne queue table, polled with SKIP LOCKED.\n",
    );
    write(
        &v,
        "notes/release.md",
        "---\ncreated: 2025-06-01\n---\n# Release checklist\n\nTag, build, publish.\n",
    );
    let engine = Engine::open(Config::for_vault(&v).unwrap(), &OpenOptions::default()).unwrap();
    let req = |task: &str| request(dir.path(), task, "2026-11-29T00:00:00Z");
    let paths = |task: &str| -> Vec<String> {
        let out = engine.wakeup(&req(task)).unwrap();
        out.packet
            .sections()
            .into_iter()
            .flat_map(|(_, items)| items.iter().map(|i| i.path.clone()))
            .collect()
    };
    let none = paths("");
    assert!(!none.iter().any(|p| p == "decisions.md"), "{none:?}");
    assert!(none.iter().any(|p| p == "notes/release.md"), "{none:?}");
    let asked = paths("how is the decisions log kept, newest last");
    assert!(asked.iter().any(|p| p == "decisions.md"), "{asked:?}");
}

/// A file named as a log that holds no entry is a note like any other: listed
/// without a task, and given whole, front matter and all (review: the intro
/// rules hid it and cut its front matter).
#[test]
fn a_log_named_file_without_entries_is_a_whole_note() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "notes/decisions.md",
        "---\ncreated: 2026-11-20\n---\n# How we decide\n\nWe write the options down first, then pick one in review.\n",
    );
    let engine = Engine::open(Config::for_vault(&v).unwrap(), &OpenOptions::default()).unwrap();
    let g = engine.get("notes/decisions.md").unwrap();
    assert!(
        g.content.starts_with("---\ncreated: 2026-11-20"),
        "{}",
        g.content
    );
    let req = request(dir.path(), "", "2026-11-29T00:00:00Z");
    let out = engine.wakeup(&req).unwrap();
    let paths: Vec<&str> = out
        .packet
        .sections()
        .into_iter()
        .flat_map(|(_, items)| items.iter().map(|i| i.path.as_str()))
        .collect();
    assert!(paths.contains(&"notes/decisions.md"), "{paths:?}");
}
