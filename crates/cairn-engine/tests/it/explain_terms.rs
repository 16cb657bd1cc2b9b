//! `explain` lists the query's terms lower-cased and stemmed, where a
//! case-sensitive rule no longer sees a credential: the task's and the files'
//! credentials are dropped before the text is cut into terms. And it says why
//! each note left out is out.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use cairn_engine::config::Config;
use cairn_engine::*;

/// (task, files, what must not appear, in any case, in any form of the answer).
const CASES: &[(&str, &str, &str)] = &[
    ("payout retries", "src/AKIAIOSFODNN7EXAMPLE.rs", "iosfodnn7"),
    (
        "payout retries",
        "src/keyAKIAQQZPT49ZHKKEN659_prod.rs",
        "qqzpt49zh",
    ),
    ("payout AKIAFD02IS5D9IK40VST retries", "", "fd02is5d9"),
    (
        "payout retries with ghp_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7",
        "",
        "5pyzq0klm3",
    ),
    ("payout password=Xk9fakePw2Qz retries", "", "xk9fakepw2"),
];

/// The engine of the vault in `dir`, its notes read into memory.
fn engine(dir: &Path) -> Engine {
    Engine::open(Config::for_vault(dir).unwrap(), &OpenOptions::default()).unwrap()
}

/// A request from `dir` for `task`, with `files`, in `format`, at a pinned time.
fn request(dir: &Path, task: &str, files: &[&str], format: Format) -> WakeupRequest {
    WakeupRequest {
        cwd: dir.to_path_buf(),
        project: None,
        task: task.into(),
        files: files.iter().map(|f| (*f).to_owned()).collect(),
        profile: None,
        target: Target::Generic,
        format,
        budget: None,
        now: "2026-11-22T09:00:00Z".parse().unwrap(),
        ranking: Ranking::Full,
        source: SessionSource::Startup,
        limit: None,
        caps: OutputCaps::NONE,
    }
}

#[test]
fn explain_never_lists_a_credential_as_a_query_term() {
    let vault = tempfile::tempdir().unwrap();
    std::fs::write(
        vault.path().join("payout.md"),
        "---\ntitle: Payout retries\n---\nPayout retries back off.\n",
    )
    .unwrap();
    let e = engine(vault.path());
    for (task, files, secret) in CASES {
        let files: Vec<&str> = files.split_whitespace().collect();
        let x = e
            .explain(&request(vault.path(), task, &files, Format::Prompt))
            .unwrap();
        for out in [x.to_text(), serde_json::to_string(&x).unwrap()] {
            assert!(
                !out.to_ascii_lowercase().contains(secret),
                "{task:?} {files:?}: {out}"
            );
        }
        // The other words still count.
        assert!(x.query_terms.iter().any(|(t, _)| t == "payout"), "{task:?}");
    }
}

/// `explain` counts every hidden note in scope, the packet only those it would
/// have considered (a confidential note past the gate, a pinned secret one: a
/// secret note's words are not indexed): the text says which of the two the
/// packet's number is, and the JSON carries both.
#[test]
fn explain_says_which_hidden_notes_the_packet_counts() {
    let vault = tempfile::tempdir().unwrap();
    let note = |name: &str, head: &str, body: &str| {
        std::fs::write(
            vault.path().join(name),
            format!("---\n{head}\n---\n{body}\n"),
        )
        .unwrap();
    };
    note(
        "payout-limits.md",
        "title: Payout retry limits\nsensitivity: confidential",
        "Payout retries stop after five tries.",
    );
    note(
        "payout-keys.md",
        "title: Payout retries signing keys\nsensitivity: secret\npinned: true",
        "Payout retries sign with the vault key.",
    );
    note(
        "garden.md",
        "title: Garden plans\nsensitivity: confidential",
        "Tomatoes by the fence.",
    );
    std::fs::write(
        vault.path().join("payout.md"),
        "---\ntitle: Payout retries\n---\nPayout retries back off.\n",
    )
    .unwrap();
    let e = engine(vault.path());
    let req = request(vault.path(), "payout retries", &[], Format::Json);
    let packet = e.wakeup(&req).unwrap().packet;
    let x = e.explain(&req).unwrap();
    // The confidential note on the task is withheld (named), not hidden; the
    // unrelated one and the secret one are hidden; the packet counts the pinned
    // secret one only.
    assert_eq!(x.suppressed_by_policy, 2);
    assert_eq!(x.suppressed_relevant, 1);
    assert_eq!(packet.policy.suppressed_note_count, 1);
    assert!(
        x.to_text()
            .contains("2 hidden by policy (the packet counts 1 of them"),
        "{}",
        x.to_text()
    );
}

/// A note that passes the gate on the task's words and that `--files` point at
/// is said to do both: before, explain named only the files (a held-out trial
/// found a note covering 84% of the task labelled "--files point at it").
#[test]
fn explain_names_both_ways_a_note_entered_the_task_layer() {
    let vault = tempfile::tempdir().unwrap();
    std::fs::write(
        vault.path().join("time.md"),
        "---\ntitle: Time filter gaps\nrelated_files: [src/filter/time.rs]\n---\nTime filter gaps resolve to the later instant.\n",
    )
    .unwrap();
    let e = engine(vault.path());
    let req = |task: &str| request(vault.path(), task, &["src/filter/time.rs"], Format::Prompt);
    let both = e.explain(&req("time filter gaps")).unwrap().to_text();
    assert!(
        both.contains("passed the gate, covers 100% of the query, and --files point at it"),
        "{both}"
    );
    let files = e.explain(&req("bank holidays")).unwrap().to_text();
    assert!(
        files.contains("(task layer: --files point at it)"),
        "{files}"
    );
}

/// A note that a module the files select points at (by its tag) is said to
/// enter that way, not as one whose related files are among the files (a
/// held-out trial found a decision tagged with the module labelled "--files
/// point at it").
#[test]
fn explain_says_when_a_module_the_files_select_points_at_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    std::fs::write(
        vault.join("schema.md"),
        "---\ntitle: JSON schema is append-only\ntags: [export]\nrelated_files: [src/export/json.rs]\n---\nFields are only ever added.\n",
    )
    .unwrap();
    let toml = "[vault]\nroot = \"vault\"\n[[projects]]\nid = \"bench\"\nname = \"Bench\"\nrepo_paths = [\"repo\"]\nnote_roots = [\"\"]\n[[projects.modules]]\nid = \"export\"\npath_prefixes = [\"src/export\"]\n";
    let config = Config::parse(toml, &dir.path().join("cairn.toml"), None).unwrap();
    let e = Engine::open(config, &OpenOptions::default()).unwrap();
    let mut req = request(
        &dir.path().join("repo"),
        "bank holidays",
        &["src/export/markup.rs"],
        Format::Prompt,
    );
    req.project = Some("bench".into());
    let text = e.explain(&req).unwrap().to_text();
    assert!(
        text.contains(
            "(task layer: --files select its module: tagged with the selected module export)"
        ),
        "{text}"
    );
}

/// With no task, explain gives the packet's reasons: a note listed as the
/// most linked to says so (it said "recently edited"), and one past the list's
/// cap is not said to fail a relevance gate no task has (held-out trial).
#[test]
fn explain_with_no_task_says_how_the_packet_listed_each_note() {
    let vault = tempfile::tempdir().unwrap();
    for n in ["a", "b", "c", "d", "e"] {
        std::fs::write(
            vault.path().join(format!("{n}.md")),
            format!(
                "---\ncreated: 2025-01-01\n---\n# Note {n}\n\nSee [[Plain target]] for more.\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(
        vault.path().join("plain.md"),
        "---\ncreated: 2024-01-01\n---\n# Plain target\n\nA target note body here.\n",
    )
    .unwrap();
    let e = engine(vault.path());
    let text = e
        .explain(&request(vault.path(), "", &[], Format::Json))
        .unwrap()
        .to_text();
    assert!(
        text.contains(
            "Plain target [note] included: in recommended_notes (no task: linked from 5 notes)"
        ),
        "{text}"
    );
    assert!(!text.contains("relevance gate"), "{text}");
    assert!(
        text.contains("left out: no task: not in the packet's short list of the most recently edited and most linked notes"),
        "{text}"
    );
}

/// With no task every note ranks alike, and a hub note the packet shows may
/// rank past the candidates an explanation lists: it is listed all the same,
/// as included (a held-out trial: explain left out the two hubs the packet
/// showed).
#[test]
fn explain_lists_every_note_the_packet_shows() {
    let vault = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        std::fs::write(vault.path().join(name), text).unwrap();
    };
    write(
        "zz-hub.md",
        "---\ncreated: 2020-01-01\n---\n# Hub\n\nThe map of the vault.\n",
    );
    for i in 0..50 {
        let link = if i < 5 { " See [[zz-hub]]." } else { "" };
        write(
            &format!("n{i:02}.md"),
            &format!(
                "---\ncreated: 2026-01-{:02}\n---\n# Note {i}\n\nSome text.{link}\n",
                1 + i % 28
            ),
        );
    }
    let e = engine(vault.path());
    let req = request(vault.path(), "", &[], Format::Json);
    let packet = e.wakeup(&req).unwrap().packet;
    let shown: Vec<&str> = packet
        .provenance
        .derived_from
        .iter()
        .map(|d| d.path.as_str())
        .collect();
    assert!(shown.contains(&"zz-hub.md"), "{shown:?}");
    let x = e.explain(&req).unwrap();
    for path in &shown {
        let c = x.candidates.iter().find(|c| c.path == *path);
        assert_eq!(c.map(|c| c.decision.as_str()), Some("included"), "{path}");
    }
}

/// More notes pass the gate than the sections hold and the packet lists by
/// name (20): explain said "no section of this profile takes it" of every one
/// past the list, though a section did and was full. Each left-out note that
/// passed the gate now says why it is out: named in the list, or one of those
/// past it.
#[test]
fn a_note_past_the_left_out_list_is_left_out_by_caps_not_by_sections() {
    let vault = tempfile::tempdir().unwrap();
    for i in 0..40 {
        std::fs::write(
            vault.path().join(format!("payout-{i:02}.md")),
            format!(
                "---\ntitle: Payout lock timeouts {i}\ntype: reference\n---\n\
                 Payout batch lock timeouts, case {i}: retry the payout batch.\n"
            ),
        )
        .unwrap();
    }
    let e = engine(vault.path());
    let ex = e
        .explain(&request(
            vault.path(),
            "payout batch lock timeouts",
            &[],
            Format::Json,
        ))
        .unwrap();
    let out: Vec<&CandidateReport> = ex
        .candidates
        .iter()
        .filter(|c| c.decision == "left out")
        .collect();
    assert!(out.len() > 20, "{} left out", out.len());
    for c in &out {
        assert!(
            !c.why.contains("no section of this profile takes it"),
            "{}: {}",
            c.path,
            c.why
        );
    }
    assert!(
        out.iter()
            .any(|c| c.why.contains("or the token budget spent: one of")
                && c.why.contains("not listed by name")),
        "{:?}",
        out.iter().map(|c| &c.why).collect::<Vec<_>>()
    );
}
