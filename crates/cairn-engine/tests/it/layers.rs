//! The hot layer's configurable parts, end to end through `Engine::wakeup`: whose
//! profile is the identity (`identity_roots`), and the latest session note on a
//! resumed or compacted session whatever its age.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::path::Path;

use cairn_engine::config::Config;
use cairn_engine::*;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A vault with the developer's own profile under `me/`, a colleague's under
/// `people/`, and one old session note of project `ledger`.
fn vault(developer: &str) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "me/ada.md",
        "---\nmemory_type: person\n---\n# Ada Varga\nThe developer: backend, Rust.\n",
    );
    write(
        &v,
        "people/bruno.md",
        "---\nmemory_type: person\n---\n# Bruno Diaz\nA colleague in the payments team.\n",
    );
    write(
        &v,
        "projects/ledger/overview.md",
        "---\nmemory_type: project\n---\n# Ledger\nPayments ledger service.\n",
    );
    write(
        &v,
        "projects/ledger/sessions/2026-01-05-batch-locks.md",
        "---\nmemory_type: session\ndate: 2026-01-05\n---\n# Session: batch locks\nLeft off after reproducing the lock timeout in the payout batch.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        &format!(
            "[vault]\nroot='vault'\n[developer]\n{developer}\n[[projects]]\nid='ledger'\nrepo_paths=['repo']\nnote_roots=['projects/ledger']\n"
        ),
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    (dir, engine)
}

fn request(dir: &Path, source: SessionSource) -> WakeupRequest {
    WakeupRequest {
        cwd: dir.join("repo"),
        project: None,
        task: String::new(),
        files: Vec::new(),
        profile: None,
        target: Target::Generic,
        format: Format::Json,
        budget: None,
        now: "2026-11-25T00:00:00Z".parse().unwrap(),
        ranking: Ranking::Full,
        source,
        limit: None,
        caps: OutputCaps::NONE,
    }
}

fn identity(engine: &Engine, dir: &Path) -> Vec<String> {
    let out = engine
        .wakeup(&request(dir, SessionSource::Startup))
        .unwrap();
    out.packet
        .identity
        .notes
        .iter()
        .map(|i| i.path.clone())
        .collect()
}

#[test]
fn identity_roots_say_whose_profile_it_is() {
    // No identity root configured and no developer root named "identity": every
    // person note is a candidate.
    let (dir, engine) = vault("note_roots=['me', 'people']");
    assert_eq!(
        identity(&engine, dir.path()),
        ["me/ada.md", "people/bruno.md"]
    );
    let (dir, engine) = vault("note_roots=['me', 'people']\nidentity_roots=['me']");
    assert_eq!(identity(&engine, dir.path()), ["me/ada.md"]);
}

#[test]
fn a_bad_identity_root_is_a_config_error_with_its_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("vault")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[developer]\nnote_roots=['me']\nidentity_roots=['../outside']\n",
    );
    let e = Config::load(&dir.path().join("cairn.toml"), None).unwrap_err();
    assert!(e.to_string().contains("developer.identity_roots[0]"), "{e}");
}

#[test]
fn an_old_session_shows_on_resume_and_compact_only() {
    let (dir, engine) = vault("note_roots=['me']");
    let session = "projects/ledger/sessions/2026-01-05-batch-locks.md";
    let shows = |source| {
        engine
            .wakeup(&request(dir.path(), source))
            .unwrap()
            .packet
            .active_context
            .iter()
            .any(|i| i.path == session)
    };
    // 324 days old: past `continuity_days` at a new session's start.
    assert!(!shows(SessionSource::Startup));
    assert!(shows(SessionSource::Resume));
    assert!(shows(SessionSource::Compact));
    // A new session whose task asks to carry on the last session's work is a
    // resumed one (held-out trial: "continue where I left off" matched no note
    // and an older session was not shown).
    let shows_for = |task: &str| {
        let mut req = request(dir.path(), SessionSource::Startup);
        req.task = task.to_owned();
        engine
            .wakeup(&req)
            .unwrap()
            .packet
            .active_context
            .iter()
            .any(|i| i.path == session)
    };
    assert!(shows_for("continue where I left off"));
    assert!(shows_for("Where were we?"));
    assert!(shows_for("pick up from the last session"));
    assert!(!shows_for("update the README badges"));
    assert!(!shows_for("continuous integration is slow"));
}

/// A task that only asks to carry on names no work: the packet is a resumed
/// session's without a task (held-out trial: "continue where I left off" gave
/// "No note matches the task" under the hot layer, and none of the recent
/// notes a session without a task gets), its query saying the task as asked,
/// unused. A task that names work beside it stays a task.
#[test]
fn a_task_that_only_asks_to_resume_is_read_as_none() {
    let (dir, engine) = vault("note_roots=['me']");
    let paths = |p: &cairn_assemble::Packet| -> Vec<String> {
        p.sections()
            .iter()
            .flat_map(|(_, items)| items.iter().map(|i| i.path.clone()))
            .collect()
    };
    let resumed = engine
        .wakeup(&request(dir.path(), SessionSource::Resume))
        .unwrap()
        .packet;
    for asked in [
        "continue where I left off",
        "Where were we?",
        "ok let's pick up from the last session",
    ] {
        let mut req = request(dir.path(), SessionSource::Startup);
        req.task = asked.to_owned();
        let packet = engine.wakeup(&req).unwrap().packet;
        assert_eq!(paths(&packet), paths(&resumed), "{asked}");
        assert_eq!(packet.query.task, asked);
        assert!(packet.query.task_unused, "{asked}");
        assert_eq!(
            packet.query.derived.as_deref(),
            Some("read as resuming the last session: the notes a session without a task gets")
        );
    }
    let mut req = request(dir.path(), SessionSource::Startup);
    req.task = "continue the batch locks work".to_owned();
    let packet = engine.wakeup(&req).unwrap().packet;
    assert!(!packet.query.task_unused);
    assert!(packet.query.derived.is_none());
}

/// The latest session's item says what comes next, not only what was done
/// (held-out trial: a session note's "Next:" list was cut from the packet,
/// which showed its "Did:" paragraph alone), the same words whatever the task.
#[test]
fn the_latest_session_says_what_comes_next() {
    let (dir, engine) = vault("note_roots=['me']");
    write(
        &dir.path().join("vault"),
        "projects/ledger/sessions/2026-11-24-webhooks.md",
        "---\nmemory_type: session\ndate: 2026-11-24\n---\n# Session: webhooks\n\nDid: moved the webhook handler to the idempotency table.\n\nNext:\n- Migration 0042: index on `created_at`, built CONCURRENTLY.\n- Fix the `TestWebhookRetry` flake.\n",
    );
    let engine = Engine::open(engine.config().clone(), &OpenOptions::default()).unwrap();
    for task in ["", "tune the rate limiter"] {
        let mut req = request(dir.path(), SessionSource::Startup);
        req.task = task.to_owned();
        let packet = engine.wakeup(&req).unwrap().packet;
        let session = packet
            .active_context
            .iter()
            .find(|i| i.path.ends_with("2026-11-24-webhooks.md"))
            .expect("the latest session is shown");
        assert_eq!(
            session.summary,
            "Did: moved the webhook handler to the idempotency table. Next: Migration 0042: index on created_at, built CONCURRENTLY. Fix the TestWebhookRetry flake.",
            "{task:?}"
        );
    }
}

#[test]
fn with_no_task_the_notes_most_linked_to_come_before_the_recent_ones() {
    let (dir, engine) = {
        let (dir, _) = vault("note_roots=['me', 'notes']");
        let v = dir.path().join("vault");
        write(
            &v,
            "notes/payments-map.md",
            "# Payments map\nWhere the payment notes are.\n",
        );
        for k in 0..3 {
            write(
                &v,
                &format!("notes/leaf-{k}.md"),
                &format!(
                    "---\nupdated: 2026-11-2{k}\n---\n# Leaf {k}\nPart of [[Payments map]].\n"
                ),
            );
        }
        let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
        let engine = Engine::open(config, &OpenOptions::default()).unwrap();
        (dir, engine)
    };
    // From outside the project: the developer profile, no task.
    let mut req = request(dir.path(), SessionSource::Startup);
    req.cwd = dir.path().to_path_buf();
    let out = engine.wakeup(&req).unwrap();
    let recommended = &out.packet.recommended_notes;
    let first = recommended.first().expect("no-task notes");
    assert_eq!(first.path, "notes/payments-map.md", "{recommended:?}");
    assert!(
        first.reasons.iter().any(|r| r == "linked from 3 notes"),
        "{:?}",
        first.reasons
    );
    assert!(recommended.iter().any(|i| i.path == "notes/leaf-2.md"));
}

/// The developer's own preferences are their working style however plainly
/// written (`cairn init`'s starter note has no pin, priority or freshness, and
/// was never in the section). Marked ones (pinned, high priority, evergreen)
/// come first within the cap; a project's preference, a workflow, or another
/// tool's `feedback` note outside the identity roots that says nothing more (a
/// lesson under `learnings/`) still needs the mark.
#[test]
fn the_developer_s_own_preferences_are_the_working_style() {
    let (dir, _) = vault("note_roots=['me', 'learnings']\nidentity_roots=['me']");
    let v = dir.path().join("vault");
    write(
        &v,
        "me/style.md",
        "---\nmemory_type: preference\n---\n# Working style\nSmall PRs, tests first.\n",
    );
    write(
        &v,
        "learnings/dokploy-webhook.md",
        "---\nmetadata:\n  type: feedback\n---\n# Dokploy deploys on push\nIt does not wait for CI.\n",
    );
    write(
        &v,
        "me/release.md",
        "---\nmemory_type: workflow\n---\n# Release checklist\nTag, then publish.\n",
    );
    write(
        &v,
        "projects/ledger/code-style.md",
        "---\nmemory_type: preference\n---\n# Ledger code style\nNo floats for money.\n",
    );
    let style = |dir: &Path| {
        let config = Config::load(&dir.join("cairn.toml"), None).unwrap();
        let engine = Engine::open(config, &OpenOptions::default()).unwrap();
        engine
            .wakeup(&request(dir, SessionSource::Startup))
            .unwrap()
            .packet
            .working_style
            .iter()
            .map(|i| i.path.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(style(dir.path()), ["me/style.md"]);
    // Typed by cairn's own key in any developer root, not by another tool's.
    write(
        &v,
        "learnings/typing.md",
        "---\nmemory_type: preference\n---\n# Typing\nPEP 604 unions.\n",
    );
    assert_eq!(style(dir.path()), ["learnings/typing.md", "me/style.md"]);
    std::fs::remove_file(v.join("learnings/typing.md")).unwrap();
    // Named as preferences (`cairn init`'s `30-Workflows/working-style.md`).
    write(
        &v,
        "learnings/working-style.md",
        "---\nmemory_type: preference\n---\n# Working style\nTerse replies.\n",
    );
    assert_eq!(
        style(dir.path()),
        ["learnings/working-style.md", "me/style.md"]
    );
    // Three marked ones fill the cap (3) before them.
    for k in 0..3 {
        write(
            &v,
            &format!("me/marked-{k}.md"),
            &format!(
                "---\nmemory_type: preference\nfreshness: evergreen\n---\n# Rule {k}\nAlways {k}.\n"
            ),
        );
    }
    assert_eq!(
        style(dir.path()),
        ["me/marked-0.md", "me/marked-1.md", "me/marked-2.md"]
    );
}

/// A vault without cairn's keys (an Obsidian vault: tags, properties, names)
/// still fills the hot layer: the profile note under an identity root (`#me`,
/// `type: person`, `About me.md`), the developer's preferences (`#preferences`,
/// `How I work with agents.md`), the project's overview (`Ledger overview.md`,
/// `#overview`). A tagged colleague elsewhere is no identity, a page that only
/// ends with "Preferences" is no working style, and a typed overview wins.
#[test]
fn an_untyped_vault_says_who_the_developer_is_how_they_work_and_the_overview() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "00-Identity/Maya.md",
        "---\ntags: [person, me]\n---\n# Maya\nBackend developer.\n",
    );
    write(
        &v,
        "00-Identity/Preferences.md",
        "# Preferences\n\n#preferences #me\n\nSmall PRs.\n",
    );
    write(
        &v,
        "00-Identity/How I work with agents.md",
        "# How I work with agents\n\nRead tests first.\n",
    );
    write(&v, "00-Identity/Tooling.md", "# Tooling\n\nNeovim.\n");
    write(
        &v,
        "People/Bruno.md",
        "---\ntags: [person]\n---\n# Bruno\nA colleague.\n",
    );
    write(
        &v,
        "Areas/Group Policy Preferences.md",
        "# Group Policy Preferences\n\nWindows GPP.\n",
    );
    write(
        &v,
        "Projects/ledger/Ledger overview.md",
        "# Ledger overview\n\nPayments ledger.\n",
    );
    write(
        &v,
        "Projects/ledger/Payout batches.md",
        "# Payout batches\n\nNightly.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[developer]\nnote_roots=['00-Identity', 'People', 'Areas']\n[[projects]]\nid='ledger'\nrepo_paths=['repo']\nnote_roots=['Projects/ledger']\n",
    );
    let hot = |dir: &Path| {
        let config = Config::load(&dir.join("cairn.toml"), None).unwrap();
        let engine = Engine::open(config, &OpenOptions::default()).unwrap();
        let p = engine
            .wakeup(&request(dir, SessionSource::Startup))
            .unwrap()
            .packet;
        (
            p.identity
                .notes
                .iter()
                .map(|i| i.path.clone())
                .collect::<Vec<_>>(),
            p.working_style
                .iter()
                .map(|i| i.path.clone())
                .collect::<Vec<_>>(),
            p.active_context
                .iter()
                .map(|i| i.path.clone())
                .collect::<Vec<_>>(),
        )
    };
    let (identity, style, context) = hot(dir.path());
    assert_eq!(identity, ["00-Identity/Maya.md"]);
    assert_eq!(
        style,
        [
            "00-Identity/How I work with agents.md",
            "00-Identity/Preferences.md"
        ]
    );
    assert_eq!(context, ["Projects/ledger/Ledger overview.md"]);
    // A note that declares another kind is not one (`type: command` on a page
    // named `Introduction and Overview`); a hub named after the project is,
    // in a developer root too.
    std::fs::remove_file(v.join("Projects/ledger/Ledger overview.md")).unwrap();
    write(
        &v,
        "Projects/ledger/Introduction and Overview.md",
        "---\ntype: command\n---\n# Introduction and Overview\nAzure CLI.\n",
    );
    assert_eq!(hot(dir.path()).2, Vec::<String>::new());
    write(
        &v,
        "Areas/ledger.md",
        "# Ledger hub\n\nEverything about the ledger.\n",
    );
    assert_eq!(hot(dir.path()).2, ["Areas/ledger.md"]);
    // A typed overview comes first; `type: person` names the profile too.
    write(
        &v,
        "Projects/ledger/Ledger.md",
        "---\nmemory_type: project\n---\n# Ledger\nThe service.\n",
    );
    write(
        &v,
        "00-Identity/Maya.md",
        "---\ntype: person\n---\n# Maya\nBackend developer.\n",
    );
    let (identity, _, context) = hot(dir.path());
    assert_eq!(identity, ["00-Identity/Maya.md"]);
    assert_eq!(context, ["Projects/ledger/Ledger.md"]);
}

/// A developer-root note without a memory type (a daily note) is a task-layer
/// candidate in a project session, and passes by the task's words like any
/// note; it was never one (only the profile's kinds were). A typed kind the
/// profile leaves out (a developer-root `reference`) still is not, and without
/// a task the untyped note is not listed.
#[test]
fn an_untyped_developer_note_is_a_task_candidate() {
    let (dir, _) = vault("note_roots=['me', 'Daily']");
    let v = dir.path().join("vault");
    write(
        &v,
        "Daily/2026-11-16.md",
        "# 2026-11-16\n\nStarted the payout batch lock timeout fix; retry the lock with jitter.\n",
    );
    write(
        &v,
        "me/lock-reference.md",
        "---\nmemory_type: reference\n---\n# Lock reference\n\nPayout batch lock timeout tables.\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let shown = |task: &str| {
        let mut req = request(dir.path(), SessionSource::Startup);
        req.task = task.to_owned();
        let p = engine.wakeup(&req).unwrap().packet;
        serde_json::to_value(&p).unwrap().to_string()
    };
    let with_task = shown("payout batch lock timeout");
    assert!(with_task.contains("Daily/2026-11-16.md"), "{with_task}");
    assert!(!with_task.contains("me/lock-reference.md"), "{with_task}");
    assert!(!shown("").contains("Daily/2026-11-16.md"));
    // A hub (a dashboard linking to many notes) holds most words of any task:
    // not a candidate.
    let links = (0..30).fold(String::new(), |mut s, k| {
        s.push_str(&format!("- [[note {k}]]\n"));
        s
    });
    write(
        &v,
        "Daily/top-of-mind.md",
        &format!("# Top of mind\n\nPayout batch lock timeout, and the rest.\n\n{links}"),
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let mut req = request(dir.path(), SessionSource::Startup);
    req.task = "payout batch lock timeout".to_owned();
    let p = serde_json::to_value(engine.wakeup(&req).unwrap().packet)
        .unwrap()
        .to_string();
    assert!(!p.contains("Daily/top-of-mind.md"), "{p}");
    assert!(p.contains("Daily/2026-11-16.md"), "{p}");
}

/// A client the configuration does not name still owns its notes when a hub
/// note declares it (`acme.md` tagged `#client` and `#acme`, as the configured
/// project's `ledger.md` is tagged `#client` and `#ledger`): the developer's
/// lesson tagged `#acme`, and the hub itself, stay out of a ledger session
/// whatever the task's words, and explain says whose they are. A lesson
/// tagged with both, or with the project's own tag, stays. The review's
/// vault showed a 2,400-word history of an unconfigured client in another
/// client's session.
#[test]
fn a_hub_note_declares_an_unconfigured_clients_notes() {
    let (dir, _) = vault("note_roots=['me', 'Home']");
    let v = dir.path().join("vault");
    write(
        &v,
        "Home/acme.md",
        "---\ntags: [client, acme]\n---\n# Acme\n\nPayout batch lock timeout history of the Acme client.\n",
    );
    write(
        &v,
        "Home/ledger.md",
        "---\ntags: [client, ledger]\n---\n# Ledger hub\n\nThe ledger client.\n",
    );
    write(
        &v,
        "Home/acme-lessons.md",
        "---\ntags: [acme]\n---\n# Acme payout lessons\n\nThe payout batch lock timeout at Acme: retry with jitter.\n",
    );
    write(
        &v,
        "Home/shared-lessons.md",
        "---\ntags: [acme, ledger]\n---\n# Shared payout lessons\n\nPayout batch lock timeout: retry with jitter.\n",
    );
    write(
        &v,
        "Home/general-lessons.md",
        "---\ntags: [locks]\n---\n# Lock lessons\n\nA payout batch lock timeout wants a retry with jitter.\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let mut req = request(dir.path(), SessionSource::Startup);
    req.task = "payout batch lock timeout".to_owned();
    let p = serde_json::to_value(engine.wakeup(&req).unwrap().packet)
        .unwrap()
        .to_string();
    assert!(!p.contains("Home/acme.md"), "{p}");
    assert!(!p.contains("Home/acme-lessons.md"), "{p}");
    assert!(p.contains("Home/shared-lessons.md"), "{p}");
    assert!(p.contains("Home/general-lessons.md"), "{p}");
    let why = engine.explain(&req).unwrap().to_text();
    assert!(
        why.contains("belongs to acme, a client or project its hub note declares (Home/acme.md)"),
        "{why}"
    );
}

/// A client's hub may live in its own folder beside the configured project's
/// (`Clients/Bramble Coffee/Bramble Coffee.md`, `type: client`, aliases
/// `Bramble`), outside every note folder of the configuration: it still says
/// whose the developer's notes are. An inbox note named `Bramble - …` and a
/// daily note tagged `#bramble` stay out of another client's session, in the
/// packet and in the prompt hook's notes; the project's own notes named after
/// it stay in. The freelancer trial's prompt hook gave three notes of
/// unconfigured Bramble for a Tidewater question.
#[test]
fn a_clients_folder_note_beside_the_project_declares_its_notes() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "Clients/Bramble Coffee/Bramble Coffee.md",
        "---\ntype: client\ntags: [client]\naliases: [Bramble]\n---\n# Bramble Coffee\n\nShopify store; webhook replay from the dead letter queue.\n",
    );
    write(
        &v,
        "Clients/Tidewater/Tidewater - replay runbook.md",
        "---\ndate: 2026-11-01\n---\n# Replay runbook\n\nReplay dead letter webhook deliveries with the replay script.\n",
    );
    write(
        &v,
        "Inbox/Bramble - replay webhooks.md",
        "---\ndate: 2026-11-20\n---\nBramble: replay dead letter webhook deliveries after the API bump.\n",
    );
    write(
        &v,
        "Daily/2026-11-28.md",
        "---\ndate: 2026-11-28\n---\n# 2026-11-28\n\n- Webhook storm, dead letter replay at 3/s. #bramble\n",
    );
    write(
        &v,
        "Inbox/Tidewater - replay note.md",
        "---\ndate: 2026-11-21\n---\nTidewater: replay dead letter webhook deliveries slowly.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[developer]\nnote_roots=['Inbox', 'Daily']\n[[projects]]\nid='tidewater'\nname='Tidewater Freight'\nrepo_paths=['repo']\nnote_roots=['Clients/Tidewater']\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let mut req = request(dir.path(), SessionSource::Startup);
    req.task = "replay dead letter webhook deliveries".to_owned();
    let p = serde_json::to_value(engine.wakeup(&req).unwrap().packet)
        .unwrap()
        .to_string();
    assert!(!p.contains("Bramble - replay webhooks.md"), "{p}");
    assert!(!p.contains("Daily/2026-11-28.md"), "{p}");
    assert!(p.contains("Tidewater - replay runbook.md"), "{p}");
    assert!(p.contains("Inbox/Tidewater - replay note.md"), "{p}");
    let why = engine.explain(&req).unwrap().to_text();
    assert!(
        why.contains(
            "belongs to bramble coffee, a client or project its hub note declares \
             (Clients/Bramble Coffee/Bramble Coffee.md)"
        ),
        "{why}"
    );
}

/// A freelancer's vault without cairn's keys and without an identity folder
/// (the trial's `Areas/Me`): the profile is the note named `About me`, not
/// every note tagged `#me` (the area's tag: a finances note, a setup note); the
/// overview is the client's hub named after the project's name (`Larkspur
/// Health.md`, `type: client`); the latest session is `Larkspur - session
/// 2026-11-25.md`, a session by its name and date. The trial's plain session
/// start had none of the three.
#[test]
fn a_vault_without_keys_gives_its_profile_overview_and_session_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "Areas/Me/About me.md",
        "---\ntags: [me, profile]\n---\n# About me\n\nI'm Maya, an independent developer.\n",
    );
    write(
        &v,
        "Areas/Me/Dev setup.md",
        "---\ntags: [me, tools]\n---\n# Dev setup\n\nNeovim and tmux.\n",
    );
    write(
        &v,
        "Clients/Larkspur Health/Larkspur Health.md",
        "---\ntype: client\ntags: [client, larkspur]\n---\n# Larkspur Health\n\nClinics; a Django app for appointments.\n",
    );
    write(
        &v,
        "Clients/Larkspur Health/Larkspur - session 2026-11-25.md",
        "---\ntags: [larkspur]\n---\n# Larkspur session\n\nWorked on the DST reminder fix.\n",
    );
    write(
        &v,
        "Clients/Larkspur Health/Session cookies.md",
        "---\ndate: 2026-11-27\n---\n# Session cookies\n\nSameSite=Lax.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[developer]\nnote_roots=['Areas']\n[[projects]]\nid='larkspur'\nname='Larkspur Health'\nrepo_paths=['repo']\nnote_roots=['Clients/Larkspur Health']\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let p = engine
        .wakeup(&request(dir.path(), SessionSource::Startup))
        .unwrap()
        .packet;
    let identity: Vec<&str> = p.identity.notes.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(identity, ["Areas/Me/About me.md"]);
    let context: Vec<&str> = p.active_context.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(
        context,
        [
            "Clients/Larkspur Health/Larkspur Health.md",
            "Clients/Larkspur Health/Larkspur - session 2026-11-25.md"
        ]
    );
}

/// A note root written with a doubled slash and a sibling folder named in
/// non-ASCII letters (the review: the folder list was cut at a byte that fell
/// inside `Ñ`, a panic in the session-start hook): the hub is read, its
/// client's notes stay out, nothing panics.
#[test]
fn sibling_folders_with_non_ascii_names_and_odd_roots() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "Clients/Ñandú Café/Ñandú Café.md",
        "---\ntype: client\naliases: [Ñandú]\n---\n# Ñandú Café\n\nCoffee webhooks.\n",
    );
    write(
        &v,
        "Clients/Tidewater/replay.md",
        "# Replay\n\nReplay webhook deliveries.\n",
    );
    write(
        &v,
        "Inbox/Ñandú - webhooks.md",
        "# Ñandú webhooks\n\nReplay webhook deliveries for them.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[developer]\nnote_roots=['Inbox']\n[[projects]]\nid='tidewater'\nrepo_paths=['repo']\nnote_roots=['Clients//Tidewater']\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let mut req = request(dir.path(), SessionSource::Startup);
    req.task = "replay webhook deliveries".to_owned();
    let p = serde_json::to_value(engine.wakeup(&req).unwrap().packet)
        .unwrap()
        .to_string();
    assert!(!p.contains("Inbox/Ñandú - webhooks.md"), "{p}");
}

/// A confidential hub beside the project's folder still declares its client
/// (the developer's note tagged with it stays out), but `explain` never names
/// the hub's path nor the client it names: only that a withheld hub declared
/// it (the review: the hidden note's path was printed).
#[test]
fn a_confidential_hub_declares_without_being_named() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(
        &v,
        "Clients/Nightingale/Nightingale.md",
        "---\ntype: client\nsensitivity: confidential\n---\n# Nightingale\n\nA hospital group.\n",
    );
    write(
        &v,
        "Clients/Tidewater/replay.md",
        "# Replay\n\nReplay webhook deliveries.\n",
    );
    write(
        &v,
        "Inbox/replay ideas.md",
        "---\ntags: [nightingale]\n---\n# Replay ideas\n\nReplay webhook deliveries in batches.\n",
    );
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    write(
        dir.path(),
        "cairn.toml",
        "[vault]\nroot='vault'\n[developer]\nnote_roots=['Inbox']\n[[projects]]\nid='tidewater'\nrepo_paths=['repo']\nnote_roots=['Clients/Tidewater']\n",
    );
    let config = Config::load(&dir.path().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let mut req = request(dir.path(), SessionSource::Startup);
    req.task = "replay webhook deliveries".to_owned();
    let p = serde_json::to_value(engine.wakeup(&req).unwrap().packet)
        .unwrap()
        .to_string();
    assert!(!p.contains("Inbox/replay ideas.md"), "{p}");
    let why = engine.explain(&req).unwrap().to_text();
    assert!(
        why.contains("belongs to another client or project, which a withheld hub note declares"),
        "{why}"
    );
    assert!(!why.contains("Clients/Nightingale"), "{why}");
}
