//! The engine over its persistent index answers exactly what the in-memory engine
//! answers (same bytes, every command, every target and format), before and after
//! the vault changes; falls back to memory when the cache cannot be written; and
//! says so when a deadline makes an answer partial.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use cairn_engine::config::Config;
use cairn_engine::*;
use chrono::{DateTime, Utc};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn now() -> DateTime<Utc> {
    "2026-11-22T09:00:00Z".parse().unwrap()
}

/// A copy of the demo fixture (config, vault, repos) that a test may change.
fn demo_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("demo");
    copy_dir(&repo_root().join("fixtures/demo"), &dst);
    (tmp, dst)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

fn config(demo: &Path) -> Config {
    Config::load(&demo.join("cairn.toml"), None).unwrap()
}

fn persistent(dir: &Path) -> OpenOptions {
    OpenOptions {
        profiles_dir: None,
        index: IndexMode::Persistent(PersistentOptions {
            dir: Some(dir.to_path_buf()),
            ..PersistentOptions::default()
        }),
    }
}

fn request(demo: &Path, repo: &str, task: &str, target: Target, format: Format) -> WakeupRequest {
    WakeupRequest {
        files: vec!["src/settlement/payout.rs".into()],
        ..request_at(demo.join("repos").join(repo), task, target, format)
    }
}

/// A wake-up request from `cwd` for `task`, without files.
fn request_at(cwd: PathBuf, task: &str, target: Target, format: Format) -> WakeupRequest {
    WakeupRequest {
        cwd,
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

const TASKS: &[(&str, &str)] = &[
    ("ledger", "add retry to payout settlement"),
    ("ledger", "production database access credentials psql"),
    ("atlas", "flaky playwright snapshot test"),
    ("hearth", "restore postgres from restic backup"),
    ("hearth", ""),
];

/// Everything an engine answers about the demo vault, as one string.
fn transcript(e: &Engine, demo: &Path) -> String {
    let mut out = String::new();
    for (repo, task) in TASKS {
        for target in [
            Target::Claude,
            Target::Codex,
            Target::Cursor,
            Target::Gemini,
            Target::Opencode,
            Target::Generic,
        ] {
            for format in [Format::Prompt, Format::Markdown, Format::Json] {
                let out_ = e
                    .wakeup(&request(demo, repo, task, target, format))
                    .unwrap();
                out.push_str(&out_.rendered);
            }
            // Budgets that bind: a cached note dropped by fitting is never read,
            // and the packet is the one the notes in memory give.
            for budget in [350, 700] {
                let mut r = request(demo, repo, task, target, Format::Prompt);
                r.budget = Some(budget);
                match e.wakeup(&r) {
                    Ok(o) => out.push_str(&o.rendered),
                    Err(err) => out.push_str(&err.to_string()),
                }
            }
        }
        let ex = e
            .explain(&request(demo, repo, task, Target::Generic, Format::Prompt))
            .unwrap();
        out.push_str(&serde_json::to_string(&ex).unwrap());
        for scope in [SearchScope::All, SearchScope::Routed] {
            let res = e
                .search(&SearchRequest {
                    query: (*task).to_owned(),
                    cwd: Some(demo.join("repos").join(repo)),
                    project: None,
                    files: vec![],
                    scope,
                    limit: 20,
                    ranking: Ranking::Full,
                    today: now().date_naive(),
                })
                .unwrap();
            out.push_str(&serde_json::to_string(&res).unwrap());
        }
    }
    for q in [
        "Ledger overview",
        "No floating point for money",
        "Production database access",
    ] {
        match e.get(q) {
            Ok(g) => out.push_str(&serde_json::to_string(&g).unwrap()),
            Err(err) => out.push_str(&err.to_string()),
        }
    }
    out.push_str(&format!("{:?}", e.diagnostics()));
    out
}

fn memory_transcript(demo: &Path) -> String {
    let e = Engine::open(config(demo), &OpenOptions::default()).unwrap();
    transcript(&e, demo)
}

#[test]
fn cached_answers_are_the_in_memory_answers_cold_and_warm() {
    let (tmp, demo) = demo_copy();
    let idx = tmp.path().join("index");
    let expected = memory_transcript(&demo);

    let cold = Engine::open(config(&demo), &persistent(&idx)).unwrap();
    let info = cold.index_info();
    assert_eq!(info.cache_dir.as_deref(), Some(idx.as_path()));
    assert!(info.refresh.as_ref().is_some_and(|r| r.rebuilt));
    assert!(info.warnings.is_empty(), "{:?}", info.warnings);
    assert_eq!(transcript(&cold, &demo), expected);

    let warm = Engine::open(config(&demo), &persistent(&idx)).unwrap();
    // Nothing changed. (Files written within the timestamp granularity of the cold
    // build's listing are "racy" and re-verified by content hash once they settle,
    // which may publish a metadata-only generation: allowed, but no note changes.)
    if let Some(r) = &warm.index_info().refresh {
        assert_eq!(
            (r.added, r.modified, r.deleted, r.renamed),
            (0, 0, 0, 0),
            "{r:?}"
        );
    }
    assert!(warm.index_info().partial.is_none());
    assert_eq!(transcript(&warm, &demo), expected);
    assert_eq!(warm.notes().len(), cold.note_count());
}

#[test]
fn answers_after_adds_edits_renames_and_deletes_match_a_fresh_build() {
    let (tmp, demo) = demo_copy();
    let idx = tmp.path().join("index");
    let v = demo.join("vault");
    let ledger = v.join("10-Projects/ledger");
    // An entry file: one note per entry, all from one cached file.
    let entries = ledger.join("decisions.md");
    std::fs::write(
        &entries,
        "# Decisions\n\n### [2026-01-10] Ledger events go over NATS\n**Category:** architecture\n**Tags:** events, nats\n\nThe settlement service publishes ledger events on NATS JetStream.\n\n---\n\n### [2026-02-02] Payout reports are CSV\n**Category:** interfaces\n\nFinance imports payout reports as CSV, never XLSX.\n",
    )
    .unwrap();
    let first = Engine::open(config(&demo), &persistent(&idx)).unwrap();
    assert_eq!(
        entry_paths(&first, "NATS JetStream ledger events payout reports CSV"),
        entry_paths(
            &Engine::open(config(&demo), &OpenOptions::default()).unwrap(),
            "NATS JetStream ledger events payout reports CSV"
        )
    );
    assert_eq!(
        entry_paths(&first, "NATS JetStream ledger events payout reports CSV").len(),
        2
    );
    drop(first);

    // Edit the entry file: one entry more.
    let mut t = std::fs::read_to_string(&entries).unwrap();
    t.push_str("\n---\n\n### [2026-03-03] Payout events carry the idempotency key\n\nConsumers deduplicate payout events by idempotency key.\n");
    std::fs::write(&entries, t).unwrap();
    // Edit: a decision gains words that match a task.
    let adr = ledger.join("Decisions/ADR-008 Retry payouts with capped exponential backoff.md");
    let mut t = std::fs::read_to_string(&adr).unwrap();
    t.push_str("\nRestic backups of the payout ledger are restored weekly.\n");
    std::fs::write(&adr, t).unwrap();
    // Rename and move.
    std::fs::rename(
        ledger.join("Constraints/Payout cutoff window.md"),
        ledger.join("Payout cutoff (renamed).md"),
    )
    .unwrap();
    // Delete.
    std::fs::remove_file(ledger.join("Notes on sqlx offline mode.md")).unwrap();
    // Add, with a pin so it must show.
    std::fs::write(
        ledger.join("Decisions/ADR-099 Settlement retries are idempotent.md"),
        "---\ntitle: ADR-099 Settlement retries are idempotent\nmemory_type: decision\nproject_id: ledger\npinned: true\n---\nEvery payout retry reuses the idempotency key of the first attempt.\n",
    )
    .unwrap();

    let e = Engine::open(config(&demo), &persistent(&idx)).unwrap();
    let r = e.index_info().refresh.clone().expect("a refresh");
    assert_eq!(
        (r.added, r.modified, r.deleted, r.renamed),
        (2, 2, 2, 1),
        "{r:?}"
    );
    assert_eq!(transcript(&e, &demo), memory_transcript(&demo));
    let q = "NATS JetStream ledger events payout reports CSV idempotency key consumers";
    let cached = entry_paths(&e, q);
    assert_eq!(cached.len(), 3, "{cached:?}");
    assert_eq!(
        cached,
        entry_paths(
            &Engine::open(config(&demo), &OpenOptions::default()).unwrap(),
            q
        )
    );
    // Every entry's body is served from the file (snippets, get).
    let g = e.get(&cached[0]).unwrap();
    assert!(!g.content.is_empty(), "{g:?}");

    // Delete the entry file: all of its entries leave the index.
    std::fs::remove_file(&entries).unwrap();
    let e = Engine::open(config(&demo), &persistent(&idx)).unwrap();
    assert!(entry_paths(&e, q).is_empty());
    assert_eq!(transcript(&e, &demo), memory_transcript(&demo));
}

/// Search hits that are entries of the ledger's `decisions.md`, in rank order.
fn entry_paths(e: &Engine, query: &str) -> Vec<String> {
    e.search(&SearchRequest {
        query: query.to_owned(),
        cwd: None,
        project: None,
        files: vec![],
        scope: SearchScope::All,
        limit: 50,
        ranking: Ranking::Full,
        today: now().date_naive(),
    })
    .unwrap()
    .hits
    .into_iter()
    .filter(|h| h.path.starts_with("10-Projects/ledger/decisions.md#"))
    .map(|h| h.path)
    .collect()
}

#[test]
fn an_unwritable_cache_falls_back_to_memory_with_one_warning() {
    let (tmp, demo) = demo_copy();
    let blocker = tmp.path().join("blocker");
    std::fs::write(&blocker, b"").unwrap();
    let e = Engine::open(config(&demo), &persistent(&blocker.join("index"))).unwrap();
    let info = e.index_info();
    assert_eq!(info.cache_dir, None);
    assert_eq!(info.warnings.len(), 1, "{:?}", info.warnings);
    assert!(
        info.warnings[0].contains("in memory"),
        "{:?}",
        info.warnings
    );
    assert!(info.partial.is_none());
    assert_eq!(transcript(&e, &demo), memory_transcript(&demo));
}

#[test]
fn a_missed_deadline_is_a_partial_packet_that_says_why_and_hides_deleted_notes() {
    let (tmp, demo) = demo_copy();
    let idx = tmp.path().join("index");
    Engine::open(config(&demo), &persistent(&idx)).unwrap();
    // Delete a note the packet shows; add enough notes that no refresh fits in no time.
    let gone =
        "10-Projects/ledger/Decisions/ADR-008 Retry payouts with capped exponential backoff.md";
    std::fs::remove_file(demo.join("vault").join(gone)).unwrap();
    for k in 0..300 {
        std::fs::write(
            demo.join(format!("vault/10-Projects/ledger/bulk {k}.md")),
            format!("# Bulk {k}\npayout retry notes {k}\n"),
        )
        .unwrap();
    }
    let mut opts = persistent(&idx);
    if let IndexMode::Persistent(p) = &mut opts.index {
        p.deadline = Some(Instant::now());
    }
    let req = request(
        &demo,
        "ledger",
        "add retry to payout settlement",
        Target::Generic,
        Format::Json,
    );
    let e = Engine::open_for_wakeup(config(&demo), &opts, &req, None).unwrap();
    let info = e.index_info();
    assert!(info.refresh_pending);
    let why = info.partial.clone().expect("partial");
    assert!(
        why.contains("300 new") && why.contains("1 deleted"),
        "{why}"
    );
    let out = e.wakeup(&req).unwrap();
    assert!(out.packet.provenance.partial);
    assert_eq!(
        out.packet.provenance.partial_reason.as_deref(),
        Some(why.as_str())
    );
    assert!(!out.rendered.contains(gone), "a deleted note was served");
    assert!(out.rendered.contains("\"partial_reason\""));
}

#[test]
fn no_index_and_no_time_still_answers_and_says_it_is_partial() {
    let (tmp, demo) = demo_copy();
    let idx = tmp.path().join("index");
    let mut opts = persistent(&idx);
    if let IndexMode::Persistent(p) = &mut opts.index {
        p.deadline = Some(Instant::now());
    }
    let req = request(
        &demo,
        "ledger",
        "add retry to payout settlement",
        Target::Generic,
        Format::Json,
    );
    let e = Engine::open_for_wakeup(config(&demo), &opts, &req, None).unwrap();
    assert!(e.index_info().refresh_pending);
    assert!(
        e.index_info()
            .partial
            .as_deref()
            .is_some_and(|p| p.contains("no index yet"))
    );
    let out = e.wakeup(&req).unwrap();
    assert!(out.packet.provenance.partial);
    let v: serde_json::Value = serde_json::from_str(&out.rendered).unwrap();
    assert_eq!(v["version"], "wakeup.v1");
}

/// Flips a byte in every 16 KiB block of `file` but the last (which holds the
/// footer tantivy reads when it opens the index); returns how many.
fn damage_all_but_the_footer(file: &Path) -> usize {
    let mut b = std::fs::read(file).unwrap();
    let blocks = b.len().div_ceil(cairn_index::CHECKSUM_BLOCK);
    for k in 0..blocks.saturating_sub(1) {
        b[k * cairn_index::CHECKSUM_BLOCK + 7] ^= 0x08;
    }
    std::fs::write(file, b).unwrap();
    blocks.saturating_sub(1)
}

#[test]
fn an_index_damaged_under_a_search_is_replaced_once_and_answers_stay_right() {
    let tmp = tempfile::tempdir().unwrap();
    let s = cairn_synth::generate(
        &tmp.path().join("v"),
        &cairn_synth::Spec {
            notes: 400,
            seed: 5,
            projects: 3,
        },
    )
    .unwrap();
    let cfg = || Config::load(&s.config, None).unwrap();
    let req = WakeupRequest {
        cwd: tmp.path().join("v/repos/ledger"),
        project: None,
        task: "fix payout retry idempotency".into(),
        files: vec![],
        profile: None,
        target: Target::Generic,
        format: Format::Json,
        budget: None,
        now: now(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    };
    let expected = Engine::open(cfg(), &OpenOptions::default())
        .unwrap()
        .wakeup(&req)
        .unwrap()
        .rendered;
    let idx = tmp.path().join("index");
    drop(Engine::open(cfg(), &persistent(&idx)).unwrap());
    let gen_dir = idx.join(std::fs::read_to_string(idx.join("CURRENT")).unwrap().trim());
    let mut damaged = 0;
    for e in std::fs::read_dir(gen_dir.join("index")).unwrap().flatten() {
        if e.path()
            .extension()
            .is_some_and(|x| x == "idx" || x == "pos")
        {
            damaged += damage_all_but_the_footer(&e.path());
        }
    }
    assert!(
        damaged > 0,
        "the postings fit in one block: use a larger vault"
    );

    let e = Engine::open(cfg(), &persistent(&idx)).unwrap();
    let mut warnings = e.index_info().warnings.clone();
    assert_eq!(e.wakeup(&req).unwrap().rendered, expected);
    warnings.extend(e.take_index_warnings());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("damaged"), "{warnings:?}");
    // Replaced once: later searches use the replacement, silently.
    assert_eq!(e.wakeup(&req).unwrap().rendered, expected);
    assert!(e.take_index_warnings().is_empty());
    // And the cache was rebuilt: the next engine finds nothing wrong.
    let next = Engine::open(cfg(), &persistent(&idx)).unwrap();
    assert!(next.index_info().warnings.is_empty());
    assert_eq!(next.wakeup(&req).unwrap().rendered, expected);
    assert!(next.take_index_warnings().is_empty());
}

/// A vault-root README without a title is named after the vault folder, also
/// when it changed after it was indexed and is read afresh for its body (a
/// partial open that served the last generation).
#[test]
fn a_root_readme_read_afresh_keeps_the_vault_folder_s_name() {
    let tmp = tempfile::tempdir().unwrap();
    let vault = tmp.path().join("team-notes");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::write(vault.join("README.md"), "Payout ledger notes.\n").unwrap();
    let idx = tmp.path().join("index");
    let cfg = || Config::for_vault(&vault).unwrap();
    let first = Engine::open(cfg(), &persistent(&idx)).unwrap();
    assert_eq!(first.note("README.md").unwrap().title, "Team notes");
    drop(first);
    std::fs::write(vault.join("README.md"), "Payout ledger notes, changed.\n").unwrap();
    for k in 0..300 {
        std::fs::write(vault.join(format!("bulk {k}.md")), format!("# Bulk {k}\n")).unwrap();
    }
    let mut opts = persistent(&idx);
    if let IndexMode::Persistent(p) = &mut opts.index {
        p.deadline = Some(Instant::now());
    }
    let e = Engine::open(cfg(), &opts).unwrap();
    assert!(
        e.index_info().partial.is_some(),
        "the last generation is served"
    );
    let readme = e.note("README.md").unwrap();
    assert!(
        readme.body.contains("changed"),
        "read afresh: {}",
        readme.body
    );
    assert_eq!(readme.title, "Team notes");
}

/// Cached notes have no body until one is shown, and a note that fitting drops
/// whatever its body says is never read (`sure_drops`, tested in `fit.rs`): the
/// answers must still be the ones the notes in memory give.
#[test]
fn cached_answers_at_binding_budgets_are_the_in_memory_answers() {
    // With descriptions, a summary is known before a body is read; without
    // them every summary comes from a body, so a body missing where a note is
    // shown would show.
    for descriptions in [true, false] {
        cached_and_in_memory_agree_at_binding_budgets(descriptions);
    }
}

fn cached_and_in_memory_agree_at_binding_budgets(descriptions: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let spec = cairn_synth::Spec {
        notes: 400,
        seed: 11,
        projects: 3,
    };
    let s = cairn_synth::generate(&tmp.path().join("v"), &spec).unwrap();
    if !descriptions {
        strip_descriptions(&tmp.path().join("v/vault"));
    }
    let cfg = || Config::load(&s.config, None).unwrap();
    let memory = Engine::open(cfg(), &OpenOptions::default()).unwrap();
    // The first open builds the index from notes read whole; the second reads
    // the cache, whose notes have no bodies until one is shown.
    drop(Engine::open(cfg(), &persistent(&tmp.path().join("index"))).unwrap());
    let cached = Engine::open(cfg(), &persistent(&tmp.path().join("index"))).unwrap();
    let mut compared = 0;
    let mut dropped = 0;
    // A credential pasted into the task is a marker in the packet, of another
    // length: what fitting drops must be judged on the redacted packet.
    let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    let tasks: Vec<(String, String, Vec<Option<usize>>)> = cairn_synth::tasks(&spec)
        .into_iter()
        .flat_map(|(repo, task)| {
            let pasted = format!("{task} with {jwt} {jwt} {jwt}");
            [
                (
                    repo.clone(),
                    task,
                    vec![None, Some(400), Some(900), Some(1600)],
                ),
                (repo, pasted, (3..=25).map(|b| Some(b * 100)).collect()),
            ]
        })
        .collect();
    for (repo, task, budgets) in tasks {
        for target in [Target::Claude, Target::Generic] {
            for format in [Format::Prompt, Format::Json] {
                for &budget in &budgets {
                    let req = WakeupRequest {
                        budget,
                        ..request_at(tmp.path().join("v").join(&repo), &task, target, format)
                    };
                    let a = memory.wakeup(&req).map(|o| (o.rendered, o.packet));
                    let b = cached.wakeup(&req).map(|o| (o.rendered, o.packet));
                    match (a, b) {
                        (Ok((ra, pa)), Ok((rb, _))) => {
                            assert_eq!(ra, rb, "{repo} {task:?} {target:?} {format:?} {budget:?}");
                            dropped += pa
                                .budget
                                .left_out
                                .iter()
                                .filter(|l| l.reason == "token budget")
                                .count();
                        }
                        (Err(ea), Err(eb)) => assert_eq!(ea.to_string(), eb.to_string()),
                        (a, b) => panic!("{a:?} vs {b:?}"),
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 300, "{compared}");
    assert!(dropped > 20, "budgets bound: {dropped} items dropped");
}

/// Removes the `description:` line of every note under `dir`.
fn strip_descriptions(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            strip_descriptions(&path);
        } else if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).unwrap();
            let kept: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with("description:"))
                .collect();
            std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        }
    }
}

#[test]
fn a_note_whose_path_looks_like_a_credential_gets_its_body_from_the_cache_too() {
    // The packet names the note by its redacted path; the cached engine must
    // still find which note that is to read its body.
    let tmp = tempfile::tempdir().unwrap();
    let vault = tmp.path().join("vault");
    let token = format!("ghp_{}", "a1B2c3D4e5".repeat(4).get(..36).unwrap());
    let name = format!("deploy notes {token}.md");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::write(
        vault.join(&name),
        "# Deploy notes\n\nDrain the node before the deploy, then warm the cache with the smoke queries.\n",
    )
    .unwrap();
    std::fs::write(
        vault.join("other.md"),
        "# Other\n\nNothing about releases here.\n",
    )
    .unwrap();
    let cfg = || Config::for_vault(&vault).unwrap();
    let req = request_at(
        tmp.path().to_path_buf(),
        "drain the node before the deploy",
        Target::Generic,
        Format::Prompt,
    );
    let memory = Engine::open(cfg(), &OpenOptions::default())
        .unwrap()
        .wakeup(&req)
        .unwrap()
        .rendered;
    assert!(memory.contains("Drain the node"), "{memory}");
    assert!(!memory.contains(&token), "{memory}");
    let index = tmp.path().join("index");
    drop(Engine::open(cfg(), &persistent(&index)).unwrap());
    let cached = Engine::open(cfg(), &persistent(&index))
        .unwrap()
        .wakeup(&req)
        .unwrap()
        .rendered;
    assert_eq!(cached, memory);
}

/// No credential's text is indexed, in RAM or on disk: a search, an explain or
/// a wake-up for a guessed credential (whole, without its vendor prefix, or a
/// piece of it) finds nothing, while the note's other words still find it.
/// Before, the credential was redacted where shown but its words were indexed,
/// so a search answered yes or no to a guess.
#[test]
fn a_search_never_confirms_a_guessed_credential() {
    let vault = tempfile::tempdir().unwrap();
    let token = "ghp_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7";
    std::fs::write(
        vault.path().join("runner.md"),
        format!(
            "---\ntitle: CI runner notes\n---\nThe staging password is Xk9fakePw2Qz!.\n\n\
             Q: What is the deploy password?\nA: Tr0ub4dorFake9\n\nPush with {token} when the bot is down.\n"
        ),
    )
    .unwrap();
    let cache = tempfile::tempdir().unwrap();
    let config = Config::for_vault(vault.path()).unwrap();
    for opts in [OpenOptions::default(), persistent(cache.path())] {
        let e = Engine::open(config.clone(), &opts).unwrap();
        let search = |q: &str| {
            e.search(&SearchRequest {
                query: q.into(),
                cwd: None,
                project: None,
                files: Vec::new(),
                scope: SearchScope::All,
                limit: 10,
                ranking: Ranking::Full,
                today: "2026-11-22".parse().unwrap(),
            })
            .unwrap()
            .hits
        };
        assert_eq!(search("runner staging").len(), 1, "the note is indexed");
        for guess in [
            "Xk9fakePw2Qz",
            "Xk9fake",
            "Tr0ub4dorFake9",
            token,
            &token[4..],
            "5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7",
        ] {
            assert!(search(guess).is_empty(), "{guess} found by search");
            let x = e.explain(&request_at(
                vault.path().to_path_buf(),
                guess,
                Target::Generic,
                Format::Json,
            ));
            let x = serde_json::to_string(&x.unwrap()).unwrap();
            assert!(!x.contains("covers 100%"), "{guess}: {x}");
        }
    }
}
