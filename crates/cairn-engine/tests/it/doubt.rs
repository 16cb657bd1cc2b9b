//! Doubt means secret, as a property of the whole library: for generated front
//! matter (see `support/frontmatter_gen.rs`), the parser gives exactly the
//! sensitivity the documented rule says, and unless that is certainly public,
//! internal or confidential, no canary planted in the note reaches any answer of
//! the engine (wakeup in every target and format, search, get, explain, list).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/frontmatter_gen.rs"]
mod frontmatter_gen;

use std::path::Path;

use cairn_engine::config::Config;
use cairn_engine::*;
use cairn_note::parse_file;
use frontmatter_gen::front;
use proptest::prelude::*;

const CANARY: &str = "Qzcanary7";
const PATH: &str = "notes/generated.md";

fn engine(dir: &Path, text: &str) -> Engine {
    let mut notes = Vec::new();
    let mut diagnostics = Vec::new();
    for (path, t) in [
        (PATH, text),
        (
            "notes/control.md",
            "---\ntitle: Control ledger note\n---\nZebras and ledgers, visible to all.\n",
        ),
    ] {
        let p = parse_file(path, t.as_bytes());
        notes.extend(p.notes);
        diagnostics.extend(p.diagnostics);
    }
    Engine::from_notes(
        Config::for_vault(dir).unwrap(),
        notes,
        diagnostics,
        &OpenOptions::default(),
    )
    .unwrap()
}

/// Everything the engine answers about the vault, as text (`Debug`: every field,
/// shown or not).
fn every_answer(e: &Engine, dir: &Path) -> Vec<String> {
    let now = "2026-11-22T09:00:00Z".parse().unwrap();
    let mut out = Vec::new();
    // The task never names the canary: answers echo it.
    let task = "title described heading body alias zebras ledgers".to_owned();
    for t in ["", task.as_str()] {
        for target in [
            Target::Claude,
            Target::Codex,
            Target::Cursor,
            Target::Gemini,
            Target::Opencode,
            Target::Generic,
        ] {
            for format in Format::ALL {
                let req = WakeupRequest {
                    cwd: dir.to_path_buf(),
                    project: None,
                    task: t.to_owned(),
                    files: Vec::new(),
                    profile: None,
                    target,
                    format,
                    budget: Some(6000),
                    now,
                    ranking: Ranking::Full,
                    source: cairn_engine::SessionSource::Startup,
                    limit: None,
                    caps: cairn_engine::OutputCaps::NONE,
                };
                out.push(format!("{:?}", e.wakeup(&req)));
            }
        }
    }
    let req = WakeupRequest {
        cwd: dir.to_path_buf(),
        project: None,
        task: task.clone(),
        files: Vec::new(),
        profile: None,
        target: Target::Generic,
        format: Format::Json,
        budget: None,
        now,
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    };
    out.push(format!("{:?}", e.explain(&req)));
    for scope in [SearchScope::All, SearchScope::Routed] {
        out.push(format!(
            "{:?}",
            e.search(&SearchRequest {
                query: task.clone(),
                cwd: None,
                project: None,
                files: Vec::new(),
                scope,
                limit: 20,
                ranking: Ranking::Full,
                today: now.date_naive(),
            })
        ));
    }
    for q in [PATH, "notes/generated", "generated"] {
        out.push(format!("{:?}", e.get(q)));
    }
    out.push(format!(
        "{:?}",
        e.list(&ListRequest {
            cwd: None,
            project: None,
            scope: ListScope::Both,
            memory_type: None,
            limit: 100,
            offset: 0,
        })
    ));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn no_canary_leaves_a_note_whose_sensitivity_is_in_doubt(f in front()) {
        let text = f.note(CANARY);
        let expected = f.expected();
        let parsed = parse_file(PATH, text.as_bytes());
        let got = parsed.notes.first().map(|n| n.sensitivity);
        prop_assert_eq!(got, Some(expected), "{}\n{:?}", text, parsed.diagnostics);

        let dir = tempfile::tempdir().unwrap();
        let e = engine(dir.path(), &text);
        let answers = every_answer(&e, dir.path()).join("\n").to_lowercase();
        let canary = CANARY.to_lowercase();
        match expected {
            Sensitivity::Secret => prop_assert!(
                !answers.contains(&canary),
                "a secret note leaked:\n{}\n{}", text, answers
            ),
            // Only a title and a neutral line, ever: never the body.
            Sensitivity::Confidential => prop_assert!(
                !answers.contains(&format!("{canary} body")),
                "a confidential body leaked:\n{}", text
            ),
            // The canary is found when the note may be shown: the check can fail.
            _ => prop_assert!(answers.contains(&canary), "{}", text),
        }
    }
}
