//! The engine as the only way in: refreshing an open engine when the vault changed
//! (in memory and through the cache), the quick open, and the one deadline every
//! front end opens under.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::{Duration, Instant};

use cairn_engine::config::Config;
use cairn_engine::*;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn persistent(index: &Path) -> OpenOptions {
    OpenOptions {
        index: IndexMode::Persistent(PersistentOptions {
            dir: Some(index.to_path_buf()),
            ..PersistentOptions::default()
        }),
        ..OpenOptions::default()
    }
}

fn refreshes_only_on_change(opts: &OpenOptions, vault: &Path) -> Engine {
    write(vault, "a.md", "# Alpha\n\nfirst text\n");
    let e1 = Engine::open(Config::for_vault(vault).unwrap(), opts).unwrap();
    assert!(e1.refresh().unwrap().is_none(), "unchanged vault");
    assert!(e1.refresh().unwrap().is_none(), "still unchanged");

    write(vault, "b.md", "# Beta\n\nsecond\n");
    let e2 = e1.refresh().unwrap().expect("a note was added");
    assert_eq!(e2.note_count(), 2);
    assert!(e2.refresh().unwrap().is_none());

    // An edit that keeps the size still changes the modification time.
    std::thread::sleep(Duration::from_millis(20));
    write(vault, "a.md", "# Alpha\n\nfirst TEXT\n");
    let e3 = e2.refresh().unwrap().expect("a note was edited");
    assert!(e3.note("a.md").unwrap().body.contains("TEXT"));

    std::fs::remove_file(vault.join("b.md")).unwrap();
    let e4 = e3.refresh().unwrap().expect("a note was deleted");
    assert_eq!(e4.note_count(), 1);
    e4
}

#[test]
fn an_engine_in_memory_refreshes_only_when_the_vault_changed() {
    let dir = tempfile::tempdir().unwrap();
    let e = refreshes_only_on_change(&OpenOptions::default(), dir.path());
    assert!(e.index_info().cache_dir.is_none());
}

#[test]
fn an_engine_through_the_cache_refreshes_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir(&vault).unwrap();
    let opts = persistent(&dir.path().join("index"));
    let e = refreshes_only_on_change(&opts, &vault);
    assert!(e.index_info().cache_dir.is_some(), "{:?}", e.index_info());
    let r = e
        .index_info()
        .refresh
        .clone()
        .expect("an incremental refresh");
    assert_eq!(
        (r.added, r.modified, r.deleted, r.rebuilt),
        (0, 0, 1, false),
        "{r:?}"
    );
}

#[test]
fn an_engine_from_given_notes_or_a_quick_one_reopens_the_whole_vault() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "people/me.md", "# Me\n\nwho I am\n");
    write(dir.path(), "people/you.md", "# You\n\nwho you are\n");
    write(dir.path(), "work/x.md", "# X\n\nwork\n");
    let config = Config::for_vault(dir.path()).unwrap();
    let opts = OpenOptions::default();
    let quick = Engine::open_quick(config.clone(), &opts, &["people".to_owned()], 1).unwrap();
    assert_eq!(quick.note_count(), 1, "at most max_files, under the roots");
    assert!(quick.note("people/me.md").is_some());
    let whole = quick
        .refresh()
        .unwrap()
        .expect("a quick engine is reopened");
    assert_eq!(whole.note_count(), 3);

    let given = Engine::from_notes(config, Vec::new(), Vec::new(), &opts).unwrap();
    assert_eq!(given.refresh().unwrap().unwrap().note_count(), 3);
}

#[test]
fn opening_under_a_deadline_leaves_time_to_answer() {
    let t = Instant::now();
    let ms = Duration::from_millis;
    // A command: all but a fifth, at least 10 and at most 100 ms.
    for (within, open) in [
        (600, 500),
        (1_000, 900),
        (200, 160),
        (30, 20),
        (5, 0),
        (10_000, 9_900),
    ] {
        assert_eq!(
            OpenDeadline::for_command(t, ms(within)).open_by(),
            t + ms(open),
            "{within}"
        );
    }
    // The hook: half; the other half is the quick packet's.
    assert_eq!(OpenDeadline::for_hook(t, ms(600)).open_by(), t + ms(300));
}
