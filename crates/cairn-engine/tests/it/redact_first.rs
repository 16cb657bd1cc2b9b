//! Credentials are redacted on a note's original text, before any output path
//! shapes it (summaries, snippets, clipping, flattening): each leak shape below is
//! planted in a vault and looked for in every answer — wakeup (every target and
//! format, in memory and from the persistent index), search, explain, list and get.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use cairn_engine::config::Config;
use cairn_engine::*;

/// One leak shape: the body's text (with the words the task looks for), and the
/// credential that must never be printed. Each was printed in summaries or
/// snippets while `get` redacted it: shaping changed what the redactor saw.
struct Leak {
    name: &'static str,
    body: &'static str,
    secret: &'static str,
}

const LEAKS: &[Leak] = &[
    Leak {
        name: "code-span",
        body: "The password `Tq9vXw2LmZpR` is rotated monthly for staging access.",
        secret: "Tq9vXw2LmZpR",
    },
    Leak {
        name: "api-key-code-span",
        body: "Use the api key `AbC1dEf2GhI3jKl4MnO5pQr6` for the vendor staging access.",
        secret: "AbC1dEf2GhI3jKl4MnO5pQr6",
    },
    Leak {
        name: "next-line",
        body: "password: Xk2pL9qWz7\nthen use staging access with the admin user.",
        secret: "Xk2pL9qWz7",
    },
    Leak {
        name: "emphasis",
        body: "For staging access the **password `Em4phQx9Zt2w`** is *rotated* monthly.",
        secret: "Em4phQx9Zt2w",
    },
    Leak {
        name: "link",
        body: "For staging access see [the password `Lnk7Rq2Wv9Xp`](https://wiki.example/x) today.",
        secret: "Lnk7Rq2Wv9Xp",
    },
    Leak {
        name: "list-item",
        body: "Staging access:\n\n- password: Li5tPq8Wz3Rt\n- then open the console",
        secret: "Li5tPq8Wz3Rt",
    },
    Leak {
        name: "line-separator",
        body: "password: Ls9qWz7Xk2pL\u{2028}then use staging access with the admin user.",
        secret: "Ls9qWz7Xk2pL",
    },
    Leak {
        name: "zero-width-split",
        body: "Staging access token gh\u{200B}p_Zw0AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 is pinned.",
        secret: "Zw0AbCdEfGhIjKlMnOpQrStUvWxYz",
    },
    Leak {
        name: "clip-boundary",
        body: "Staging access notes: a long sentence that goes on and on about the staging access setup, the load balancer, the firewall rules, the DNS names, the certificates and the on-call rotation, until the key AKIAQ3EXAMPLEKEY7ABC sits right where an excerpt is cut off.",
        secret: "AKIAQ3EXAM",
    },
];

const TASK: &str = "staging access password rotated admin console key";

/// What every leak note is about: each passes the packet's relevance gate.
const PACKET_TASK: &str = "staging access";

fn write_vault(dir: &Path) {
    for (i, leak) in LEAKS.iter().enumerate() {
        let text = format!(
            "---\ntitle: Staging access {i} {name}\nmemory_type: decision\n---\n{body}\n",
            name = leak.name,
            body = leak.body
        );
        std::fs::write(dir.join(format!("leak-{i}.md")), text).unwrap();
    }
}

fn engines(dir: &Path, cache: &Path) -> Vec<(&'static str, Engine)> {
    let memory = Engine::open(Config::for_vault(dir).unwrap(), &OpenOptions::default()).unwrap();
    let persistent = OpenOptions {
        index: IndexMode::Persistent(PersistentOptions {
            dir: Some(cache.to_path_buf()),
            ..PersistentOptions::default()
        }),
        ..OpenOptions::default()
    };
    let cached = Engine::open(Config::for_vault(dir).unwrap(), &persistent).unwrap();
    vec![("memory", memory), ("cached", cached)]
}

/// Every answer the engine gives about the vault, as text.
fn outputs(dir: &Path, e: &Engine) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for target in Target::ALL {
        for format in Format::ALL {
            let w = e
                .wakeup(&WakeupRequest {
                    cwd: dir.to_path_buf(),
                    project: None,
                    task: PACKET_TASK.into(),
                    files: Vec::new(),
                    profile: None,
                    target,
                    format,
                    budget: Some(20_000),
                    now: "2026-11-22T09:00:00Z".parse().unwrap(),
                    ranking: Ranking::Full,
                    source: cairn_engine::SessionSource::Startup,
                    limit: None,
                    caps: cairn_engine::OutputCaps::NONE,
                })
                .unwrap();
            out.push((format!("wakeup {target}/{format}"), w.rendered));
            out.push((
                format!("wakeup {target}/{format} packet"),
                serde_json::to_string(&w.packet).unwrap(),
            ));
        }
    }
    let search = e
        .search(&SearchRequest {
            query: TASK.into(),
            cwd: None,
            project: None,
            files: Vec::new(),
            scope: SearchScope::All,
            limit: 50,
            ranking: Ranking::Full,
            today: "2026-11-22".parse().unwrap(),
        })
        .unwrap();
    out.push(("search".into(), serde_json::to_string(&search).unwrap()));
    let explain = e
        .explain(&WakeupRequest {
            cwd: dir.to_path_buf(),
            project: None,
            task: TASK.into(),
            files: Vec::new(),
            profile: None,
            target: Target::Generic,
            format: Format::Prompt,
            budget: None,
            now: "2026-11-22T09:00:00Z".parse().unwrap(),
            ranking: Ranking::Full,
            source: cairn_engine::SessionSource::Startup,
            limit: None,
            caps: cairn_engine::OutputCaps::NONE,
        })
        .unwrap();
    out.push(("explain".into(), serde_json::to_string(&explain).unwrap()));
    let list = e
        .list(&ListRequest {
            cwd: None,
            project: None,
            scope: ListScope::Both,
            memory_type: None,
            limit: 100,
            offset: 0,
        })
        .unwrap();
    out.push(("list".into(), serde_json::to_string(&list).unwrap()));
    for i in 0..LEAKS.len() {
        let g = e.get(&format!("leak-{i}.md")).unwrap();
        out.push((format!("get leak-{i}"), serde_json::to_string(&g).unwrap()));
    }
    out
}

#[test]
fn the_redactor_finds_each_planted_credential_on_the_original_text() {
    // The premise of every case: `get` (the original text) hides it.
    for leak in LEAKS {
        let safe = cairn_engine::policy::SafeText::redact(leak.body);
        assert!(
            !safe.contains(leak.secret),
            "{}: not a credential the redactor knows: {safe}",
            leak.name
        );
    }
}

#[test]
fn no_output_path_shows_a_credential_that_shaping_would_hide_from_the_redactor() {
    let vault = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    write_vault(vault.path());
    for (mode, e) in engines(vault.path(), cache.path()) {
        let outputs = outputs(vault.path(), &e);
        for (what, text) in &outputs {
            for leak in LEAKS {
                assert!(
                    !text.contains(leak.secret),
                    "{mode} {what} leaks {} ({}):\n{text}",
                    leak.secret,
                    leak.name
                );
            }
        }
        // The summaries and snippets were shown, with the redaction kept.
        let packet: serde_json::Value = serde_json::from_str(
            &outputs
                .iter()
                .find(|(w, _)| w == "wakeup generic/json packet")
                .unwrap()
                .1,
        )
        .unwrap();
        let shown: Vec<&serde_json::Value> = packet
            .as_object()
            .unwrap()
            .values()
            .filter_map(|v| v.as_array())
            .flatten()
            .filter(|i| i["id"].as_str().is_some_and(|id| id.starts_with("leak-")))
            .collect();
        assert!(shown.len() >= 5, "{mode}: {packet}");
        // Summaries that reach the secret keep its redaction (a summary may also
        // stop before it, e.g. at "Staging access:").
        let redacted = shown
            .iter()
            .filter(|item| item["summary"].as_str().unwrap().contains("[redacted:"))
            .count();
        assert!(redacted >= 5, "{mode}: {packet}");
        let search: serde_json::Value =
            serde_json::from_str(&outputs.iter().find(|(w, _)| w == "search").unwrap().1).unwrap();
        let hits = search["hits"].as_array().unwrap();
        assert_eq!(hits.len(), LEAKS.len(), "{mode}: {search}");
        for hit in hits {
            let snippet = hit["snippet"].as_str().unwrap();
            let cut = hit["id"] == "leak-8"; // the marker itself may be cut off
            assert!(
                snippet.contains("[redacted:") || (cut && snippet.ends_with('…')),
                "{mode}: {hit}"
            );
        }
    }
}

#[test]
fn redactions_are_counted_once() {
    let vault = tempfile::tempdir().unwrap();
    std::fs::write(
        vault.path().join("one.md"),
        "---\ntitle: Staging access\nmemory_type: decision\n---\nThe password `Tq9vXw2LmZpR` is rotated monthly for staging access.\n",
    )
    .unwrap();
    let e = Engine::open(
        Config::for_vault(vault.path()).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    let w = e
        .wakeup(&WakeupRequest {
            cwd: vault.path().to_path_buf(),
            project: None,
            task: TASK.into(),
            files: Vec::new(),
            profile: None,
            target: Target::Generic,
            format: Format::Json,
            budget: None,
            now: "2026-11-22T09:00:00Z".parse().unwrap(),
            ranking: Ranking::Full,
            source: cairn_engine::SessionSource::Startup,
            limit: None,
            caps: cairn_engine::OutputCaps::NONE,
        })
        .unwrap();
    let shown = serde_json::to_string(&w.packet).unwrap();
    assert_eq!(shown.matches("[redacted:password]").count(), 1, "{shown}");
    assert_eq!(w.packet.policy.redactions_applied, 1);
    assert_eq!(w.packet.policy.redactions_by_kind["password"], 1);
    let s = e
        .search(&SearchRequest {
            query: TASK.into(),
            cwd: None,
            project: None,
            files: Vec::new(),
            scope: SearchScope::All,
            limit: 5,
            ranking: Ranking::Full,
            today: "2026-11-22".parse().unwrap(),
        })
        .unwrap();
    assert_eq!(s.redactions, 1, "{:?}", s.hits);
    let g = e.get("one.md").unwrap();
    assert_eq!(g.redactions, 1);
}
