//! A lookup cannot confirm that a secret note exists by guessing its name: every
//! answer about a vault with a secret note is compared with the answer about the
//! same vault without it. By its path or id (what a user sees on disk) the CLI's
//! lookup refuses it; an agent's lookup answers as for a missing note however it is
//! named.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use cairn_engine::config::Config;
use cairn_engine::*;

const PUBLIC: &[(&str, &str)] = &[
    (
        "notes/plans-overview.md",
        "---\ntitle: Plans overview\n---\nWhat we plan.\n",
    ),
    (
        "notes/shared-title.md",
        "---\ntitle: Launch Plans\n---\nThe public launch plans.\n",
    ),
    (
        "log/decisions.md",
        "# Decisions\n\n### [2025-01-02] Use tabs\n\nTabs it is.\n",
    ),
];

const SECRET: &[(&str, &str)] = &[
    (
        "notes/quarterly-plans.md",
        "---\ntitle: Quarterly Plans Zephyr\naliases: [zephyr-plan]\nsensitivity: secret\n---\nThe plan.\n",
    ),
    (
        "notes/launch.md",
        "---\ntitle: Launch Plans\nsensitivity: secret\n---\nThe secret launch plans.\n",
    ),
    (
        "log/decisions.md",
        "# Decisions\n\n### [2025-01-02] Use tabs\n\nTabs it is.\n\n---\n\n### [2025-02-03] Hidden merger codename\n**Sensitivity:** secret\n\nThe merger is called Bluebird.\n",
    ),
    (
        "vault/all-secret-decisions.md",
        "---\nsensitivity: secret\n---\n### [2025-01-02] Rotate the root key\n\nDone.\n",
    ),
];

fn vault(dir: &Path, with_secrets: bool) -> Engine {
    let files = PUBLIC.iter().chain(if with_secrets { SECRET } else { &[] });
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    Engine::open(Config::for_vault(dir).unwrap(), &OpenOptions::default()).unwrap()
}

/// The answer as a user or an agent sees it. (`SECRET` is written after `PUBLIC`:
/// its `log/decisions.md` adds a secret entry to the public one.)
fn answer(e: &Engine, q: &str, mode: SecretLookup) -> String {
    match e.get_with(q, mode) {
        Ok(g) => format!("ok {} {}", g.path, g.content),
        Err(err) => format!("err {err}"),
    }
}

#[test]
fn guessing_a_name_answers_as_for_a_missing_note() {
    let with = tempfile::tempdir().unwrap();
    let without = tempfile::tempdir().unwrap();
    let a = vault(with.path(), true);
    let b = vault(without.path(), false);
    // Each names a secret note (or a secret entry) other than by its path or id.
    let guesses = [
        "Quarterly Plans Zephyr",
        "quarterly plans zephyr",
        "[[Quarterly Plans Zephyr]]",
        "zephyr-plan",
        "quarterly-plans",
        "Quarterly Plans",
        "Quarterly",
        "zephyr",
        "Launch Plans",
        "launch",
        "Hidden merger codename",
        "log/decisions.md#hidden-merger-codename",
        "log/decisions#hidden-merger-codename",
        "Rotate the root key",
        "plans",
        "no such note",
    ];
    for mode in [SecretLookup::RefuseByPath, SecretLookup::AsMissing] {
        for q in guesses {
            let got = answer(&a, q, mode);
            assert_eq!(got, answer(&b, q, mode), "{q:?} ({mode:?})");
            for word in [
                "Zephyr",
                "zephyr",
                "quarterly",
                "merger",
                "Bluebird",
                "notes/launch",
                "secret launch",
                "root key",
            ] {
                assert!(
                    !got.contains(word) || q.to_lowercase().contains(&word.to_lowercase()),
                    "{q:?} ({mode:?}) names the secret note: {got}"
                );
            }
        }
    }
}

#[test]
fn by_path_or_id_the_cli_refuses_and_an_agent_finds_nothing() {
    let with = tempfile::tempdir().unwrap();
    let without = tempfile::tempdir().unwrap();
    let a = vault(with.path(), true);
    let b = vault(without.path(), false);
    let abs = with
        .path()
        .canonicalize()
        .unwrap()
        .join("notes/quarterly-plans.md");
    let abs = abs.to_str().unwrap();
    for q in [
        "notes/quarterly-plans.md",
        "notes/quarterly-plans",
        "./notes/quarterly-plans.md",
        abs,
        "vault/all-secret-decisions.md",
    ] {
        let refused = a.get(q).unwrap_err();
        assert!(
            matches!(refused, EngineError::Secret { .. }),
            "{q}: {refused}"
        );
        assert!(!refused.to_string().contains("Zephyr"), "{refused}");
        let agent = answer(&a, q, SecretLookup::AsMissing);
        assert!(agent.starts_with("err no note"), "{q}: {agent}");
        if q != abs {
            assert_eq!(agent, answer(&b, q, SecretLookup::AsMissing), "{q}");
        }
    }
}

#[test]
fn ambiguity_and_suggestions_never_list_a_secret_note() {
    let with = tempfile::tempdir().unwrap();
    let a = vault(with.path(), true);
    // "Launch Plans" is the title of a public and a secret note: the public one.
    let g = a.get("Launch Plans").unwrap();
    assert_eq!(g.path, "notes/shared-title.md");
    // The entry file names its public entries only, and does not count the others.
    let e = a.get("log/decisions.md").unwrap_err().to_string();
    assert!(e.contains("use-tabs") && !e.contains("merger"), "{e}");
    assert!(!e.contains("not shown"), "{e}");
    // Suggestions.
    let e = a.get("plan").unwrap_err().to_string();
    assert!(!e.contains("quarterly") && !e.contains("launch.md"), "{e}");
}
