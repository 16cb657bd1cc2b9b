//! The store as a library: what each operation writes, byte for byte where it
//! matters (frontmatter kept, escaped, minimal diffs), dry runs that touch
//! nothing, nested names, and notes that read back through the parser.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use std::collections::BTreeMap;
use std::path::Path;

use cairn_config::Config;
use cairn_memory::*;
use cairn_note::{MemoryType, Sensitivity, Status, parse_file, parse_note};

fn now() -> chrono::DateTime<chrono::Utc> {
    "2026-11-22T09:00:00Z".parse().unwrap()
}

fn opts() -> WriteOptions {
    WriteOptions {
        expect_hash: None,
        dry_run: false,
        allow_secrets: false,
        declassify: false,
        now: now(),
    }
}

fn store(memory: &str) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("v/I")).unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        format!("[vault]\nroot='v'\n[developer]\nnote_roots=['I']\n{memory}"),
    )
    .unwrap();
    let config = Config::load(&dir.path().join("c.toml"), None).unwrap();
    (dir, Store::new(config))
}

fn write(slug: &str, body: &str, meta: NewNote) -> Op {
    Op::Write {
        slug: slug.into(),
        body: body.into(),
        mode: WriteMode::Create,
        meta,
    }
}

fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.insert(
                    e.path().display().to_string(),
                    std::fs::read(e.path()).unwrap(),
                );
            }
        }
    }
    out
}

#[test]
fn new_notes_have_escaped_frontmatter_that_reads_back() {
    let (dir, s) = store("");
    let meta = NewNote {
        title: Some("Yes: a title with # and 'quotes' and \"more\"".into()),
        memory_type: Some(MemoryType::Preference),
        description: Some("no".into()),
        sensitivity: Some(Sensitivity::Public),
        tags: vec!["a, #b".into(), "c".into()],
        category: None,
    };
    let out = s
        .apply(
            &Scope::User,
            &write("style", "Keep it short.", meta),
            &opts(),
        )
        .unwrap();
    assert_eq!(out.changes[0].action, Action::Created);
    let path = dir.path().join("v/I/memory/user/style.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let n = parse_note("style.md", text.as_bytes()).note.unwrap();
    assert_eq!(n.title, "Yes: a title with # and 'quotes' and \"more\"");
    assert_eq!(n.description.as_deref(), Some("no"), "`no` stays a string");
    assert_eq!(n.memory_type, Some(MemoryType::Preference));
    assert_eq!(n.sensitivity, Sensitivity::Public);
    assert_eq!(n.scope.as_deref(), Some("user"));
    assert_eq!(n.tags, vec!["a", "b", "c"]);
    assert_eq!(n.created.unwrap().to_string(), "2026-11-22");
    assert!(n.body.ends_with("Keep it short.\n"));
    assert_eq!(
        out.changes[0].hash_after.as_deref(),
        Some(content_hash(text.as_bytes()).as_str())
    );
}

#[test]
fn edits_keep_the_users_frontmatter_and_change_only_their_keys() {
    let (dir, s) = store("");
    let folder = dir.path().join("v/I/memory/user");
    std::fs::create_dir_all(&folder).unwrap();
    let original = "---\n# hand-written, keep this comment\ntitle: Mine\nowner: {team: core}   # unknown key\ntags: [x]\nupdated: 2020-01-01\n---\nLine one.\nLine two.\n";
    std::fs::write(folder.join("mine.md"), original).unwrap();
    let edit = Op::Edit {
        slug: "mine".into(),
        old: "Line two.".into(),
        new: "Line 2.".into(),
    };
    s.apply(&Scope::User, &edit, &opts()).unwrap();
    s.apply(
        &Scope::User,
        &Op::Pin {
            slug: "mine".into(),
            pinned: true,
        },
        &opts(),
    )
    .unwrap();
    s.apply(
        &Scope::User,
        &Op::Insert {
            slug: "mine".into(),
            line: 8,
            text: "Inserted after the frontmatter.".into(),
        },
        &opts(),
    )
    .unwrap();
    let text = std::fs::read_to_string(folder.join("mine.md")).unwrap();
    assert_eq!(
        text,
        "---\n# hand-written, keep this comment\ntitle: Mine\nowner: {team: core}   # unknown key\ntags: [x]\nupdated: 2026-11-22\npinned: true\n---\nInserted after the frontmatter.\nLine one.\nLine 2.\n"
    );
    s.apply(
        &Scope::User,
        &Op::Pin {
            slug: "mine".into(),
            pinned: false,
        },
        &opts(),
    )
    .unwrap();
    let text = std::fs::read_to_string(folder.join("mine.md")).unwrap();
    assert!(!text.contains("pinned"));
    assert!(text.contains("owner: {team: core}   # unknown key\n"));
}

#[test]
fn crlf_notes_stay_crlf() {
    let (dir, s) = store("");
    let folder = dir.path().join("v/I/memory/user");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("w.md"),
        "---\r\ntitle: W\r\n---\r\nalpha\r\nbeta\r\n",
    )
    .unwrap();
    let edit = Op::Edit {
        slug: "w".into(),
        old: "alpha\nbeta".into(),
        new: "alpha\ngamma".into(),
    };
    s.apply(&Scope::User, &edit, &opts()).unwrap();
    let text = std::fs::read_to_string(folder.join("w.md")).unwrap();
    assert_eq!(
        text,
        "---\r\ntitle: W\r\nupdated: 2026-11-22\r\n---\r\nalpha\r\ngamma\r\n"
    );
}

#[test]
fn dry_runs_touch_nothing_for_every_operation() {
    let (dir, s) = store("");
    s.apply(
        &Scope::User,
        &write("a", "A body.", NewNote::default()),
        &opts(),
    )
    .unwrap();
    s.apply(
        &Scope::User,
        &write("b", "B body.", NewNote::default()),
        &opts(),
    )
    .unwrap();
    let before = snapshot(&dir.path().join("v"));
    let dry = WriteOptions {
        dry_run: true,
        ..opts()
    };
    let ops = vec![
        write("c", "C body.", NewNote::default()),
        Op::Write {
            slug: "a".into(),
            body: "more".into(),
            mode: WriteMode::Append,
            meta: NewNote::default(),
        },
        Op::Write {
            slug: "a".into(),
            body: "new".into(),
            mode: WriteMode::Force,
            meta: NewNote::default(),
        },
        Op::Edit {
            slug: "a".into(),
            old: "A body".into(),
            new: "A text".into(),
        },
        Op::Insert {
            slug: "a".into(),
            line: 0,
            text: "top".into(),
        },
        Op::Move {
            slug: "a".into(),
            to: "z".into(),
        },
        Op::Remove {
            slug: "a".into(),
            purge: false,
        },
        Op::Remove {
            slug: "a".into(),
            purge: true,
        },
        Op::Pin {
            slug: "a".into(),
            pinned: true,
        },
        Op::Supersede {
            old: "a".into(),
            by: "b".into(),
        },
    ];
    for op in &ops {
        let out = s.apply(&Scope::User, op, &dry).unwrap();
        assert!(out.dry_run);
        assert!(
            out.changes.iter().any(|c| !c.diff.is_empty()),
            "{op:?}: no diff"
        );
        assert_eq!(snapshot(&dir.path().join("v")), before, "{op:?} wrote");
    }
    // A dry run in a scope that does not exist yet creates no folder.
    s.apply(&Scope::Global, &write("g", "G.", NewNote::default()), &dry)
        .unwrap();
    assert!(!dir.path().join("v/I/memory/global").exists());
}

#[test]
fn nested_names_when_allowed() {
    let (dir, s) = store("[memory]\nnested = true\n");
    s.apply(
        &Scope::User,
        &write("topic/sub/note", "Deep.", NewNote::default()),
        &opts(),
    )
    .unwrap();
    let root = dir.path().join("v/I/memory/user");
    assert!(root.join("topic/sub/note.md").is_file());
    let index = std::fs::read_to_string(root.join("MEMORY.md")).unwrap();
    assert!(
        index.contains("- [Note](topic/sub/note.md) — Deep.\n"),
        "{index}"
    );
    s.apply(
        &Scope::User,
        &Op::Remove {
            slug: "topic/sub/note".into(),
            purge: false,
        },
        &opts(),
    )
    .unwrap();
    assert!(root.join(".archive/topic/sub/note.md").is_file());
    let (_d2, flat) = store("");
    let e = flat
        .apply(
            &Scope::User,
            &write("topic/x", "x", NewNote::default()),
            &opts(),
        )
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Refused);
}

#[test]
fn appends_to_entry_files_become_ranked_entries() {
    let (dir, s) = store("");
    for (i, title) in ["Use sqlx", "Never use floats for money"]
        .iter()
        .enumerate()
    {
        let o = WriteOptions {
            now: format!("2026-0{}-01T00:00:00Z", i + 1).parse().unwrap(),
            ..opts()
        };
        let op = Op::Write {
            slug: "decisions".into(),
            body: format!("Because {i}."),
            mode: WriteMode::Append,
            meta: NewNote {
                title: Some((*title).into()),
                category: Some("architecture".into()),
                tags: vec!["db".into()],
                ..NewNote::default()
            },
        };
        s.apply(&Scope::User, &op, &o).unwrap();
    }
    let bytes = std::fs::read(dir.path().join("v/I/memory/user/decisions.md")).unwrap();
    let parsed = parse_file("I/memory/user/decisions.md", &bytes);
    let entries: Vec<_> = parsed
        .notes
        .iter()
        .map(|n| {
            (
                n.id.as_str(),
                n.created.map(|d| d.to_string()),
                n.memory_type,
            )
        })
        .collect();
    assert_eq!(
        entries,
        vec![
            (
                "I/memory/user/decisions#use-sqlx",
                Some("2026-01-01".into()),
                Some(MemoryType::Decision)
            ),
            (
                "I/memory/user/decisions#never-use-floats-for-money",
                Some("2026-02-01".into()),
                Some(MemoryType::Decision)
            ),
        ]
    );
    assert!(
        parsed
            .notes
            .iter()
            .all(|n| n.tags.contains(&"db".to_owned()))
    );
}

#[test]
fn supersede_links_both_ways_and_is_idempotent() {
    let (dir, s) = store("");
    s.apply(
        &Scope::User,
        &write("old", "Old.", NewNote::default()),
        &opts(),
    )
    .unwrap();
    s.apply(
        &Scope::User,
        &write("new", "New.", NewNote::default()),
        &opts(),
    )
    .unwrap();
    let sup = Op::Supersede {
        old: "old".into(),
        by: "new".into(),
    };
    let first = s.apply(&Scope::User, &sup, &opts()).unwrap();
    assert_eq!(first.changes.len(), 2);
    let again = s.apply(&Scope::User, &sup, &opts()).unwrap();
    assert!(
        again.changes.iter().all(|c| c.action == Action::Unchanged),
        "{again:?}"
    );
    let root = dir.path().join("v/I/memory/user");
    let old = parse_note("old.md", &std::fs::read(root.join("old.md")).unwrap())
        .note
        .unwrap();
    let new = parse_note("new.md", &std::fs::read(root.join("new.md")).unwrap())
        .note
        .unwrap();
    assert_eq!(old.status, Status::Superseded);
    assert_eq!(old.superseded_by, vec!["I/memory/user/new"]);
    assert_eq!(new.supersedes, vec!["I/memory/user/old"]);
    let index = std::fs::read_to_string(root.join("MEMORY.md")).unwrap();
    assert!(
        index.contains("- [Old](old.md) — (superseded) Old.\n"),
        "{index}"
    );
}

#[test]
fn listing_and_showing_obey_the_policy() {
    let (_dir, s) = store("");
    let secret = NewNote {
        sensitivity: Some(Sensitivity::Secret),
        title: Some("Root password".into()),
        ..NewNote::default()
    };
    let conf = NewNote {
        sensitivity: Some(Sensitivity::Confidential),
        description: Some("terms".into()),
        ..NewNote::default()
    };
    s.apply(&Scope::User, &write("root-pw", "hunter2", secret), &opts())
        .unwrap();
    s.apply(
        &Scope::User,
        &write("contract", "The terms.", conf),
        &opts(),
    )
    .unwrap();
    let list = s.list(&Scope::User).unwrap();
    let titles: Vec<_> = list
        .iter()
        .map(|l| (l.slug.as_str(), l.title.as_str(), l.description.clone()))
        .collect();
    assert_eq!(
        titles,
        vec![
            ("contract", "Contract", None),
            ("root-pw", "(secret)", None)
        ]
    );
    let mut w = Vec::new();
    let e = s.show(&Scope::User, "root-pw", now(), &mut w).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Policy);
    let shown = s.show(&Scope::User, "contract", now(), &mut w).unwrap();
    assert!(shown.withheld && shown.content.is_empty());
}

#[test]
fn operations_on_a_missing_scope_create_nothing() {
    let (dir, s) = store("");
    let before = snapshot(&dir.path().join("v"));
    for op in [
        Op::Edit {
            slug: "x".into(),
            old: "a".into(),
            new: "b".into(),
        },
        Op::Pin {
            slug: "x".into(),
            pinned: true,
        },
        Op::Remove {
            slug: "x".into(),
            purge: false,
        },
        Op::Move {
            slug: "x".into(),
            to: "y".into(),
        },
    ] {
        let e = s.apply(&Scope::Global, &op, &opts()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotFound, "{op:?}: {e}");
    }
    assert!(!dir.path().join("v/I/memory").exists());
    assert_eq!(snapshot(&dir.path().join("v")), before);
}

#[test]
fn an_archived_entry_file_stays_an_entry_file() {
    let (dir, s) = store("");
    let secret_log = |i: usize| Op::Write {
        slug: "decisions".into(),
        body: format!("Shard {i} lives in the safe."),
        mode: WriteMode::Append,
        meta: NewNote {
            title: Some(format!("Unseal {i}")),
            sensitivity: Some(Sensitivity::Secret),
            ..NewNote::default()
        },
    };
    let rm = Op::Remove {
        slug: "decisions".into(),
        purge: false,
    };
    for i in 0..2 {
        s.apply(&Scope::User, &secret_log(i), &opts()).unwrap();
        // Archiving never lowers an entry's level, even when the name is taken.
        s.apply(&Scope::User, &rm, &opts()).unwrap();
    }
    let archive = dir.path().join("v/I/memory/user/.archive");
    let mut names: Vec<String> = std::fs::read_dir(&archive)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, vec!["20261122T090000Z.decisions.md", "decisions.md"]);
    for n in names {
        let bytes = std::fs::read(archive.join(&n)).unwrap();
        let notes = parse_file(&format!("I/memory/user/.archive/{n}"), &bytes).notes;
        assert!(
            notes.iter().all(|e| e.sensitivity == Sensitivity::Secret),
            "{n}"
        );
    }
}

#[test]
fn show_hides_what_the_rendered_note_shows() {
    // Written by hand (the write path refuses credentials): an escaped
    // underscore and a wrapped sentence, which render as a token and as
    // `the password … is <value>`.
    let (_dir, s) = store("");
    let (_, abs) = s.folder(&Scope::User).unwrap();
    std::fs::create_dir_all(&abs).unwrap();
    std::fs::write(
        abs.join("ci.md"),
        "---\ntitle: CI\n---\nCI uses ghp\\_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7 today.\n\n\
         The password for payout settlement retry is\nPwDeZ6dqmVe5!9\n",
    )
    .unwrap();
    let mut w = Vec::new();
    let shown = s.show(&Scope::User, "ci", now(), &mut w).unwrap();
    for secret in ["5pyzQ0kLm3Nx8RtVw2", "PwDeZ6dqmVe5!9"] {
        assert!(!shown.content.contains(secret), "{}", shown.content);
    }
    assert_eq!(shown.redactions, 2, "{}", shown.content);
}

/// The write path refuses a credential as a reader would see it: escaped
/// (`ghp\_…`), entity-encoded, or a password on the line after its sentence.
/// Before, only the text as written was checked, so these were stored.
#[test]
fn writes_refuse_credentials_as_the_rendered_text_shows_them() {
    for body in [
        "CI uses ghp\\_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7 today.",
        "CI uses gh&#112;_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7 today.",
        "The password for payout settlement retry is\nPwDeZ6dqmVe5!9\n",
    ] {
        let (dir, s) = store("");
        let got = s.apply(
            &Scope::User,
            &write("ci", body, NewNote::default()),
            &opts(),
        );
        assert!(
            matches!(got, Err(MemoryError::Credentials { .. })),
            "{body:?}: {got:?}"
        );
        let notes: Vec<String> = snapshot(dir.path())
            .into_keys()
            .filter(|k| k.ends_with(".md"))
            .collect();
        assert!(notes.is_empty(), "{body:?}: {notes:?}");
    }
}
