//! The cache's invariants, each with the failure that would break it: incremental
//! refreshes equal fresh builds (adds, edits, renames, deletes, touches, racy
//! edits), concurrent writers, a crash's leftovers, damaged and foreign
//! generations, an unwritable folder, deadlines, and readers that never write.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use cairn_cache::{Cache, CacheError, Listed, OpenOptions, Snapshot};
use cairn_config::Limits;
use cairn_index::{FieldWeights, QueryTerms};

struct Vault {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    cache_dir: PathBuf,
}

fn vault(notes: usize) -> Vault {
    let tmp = tempfile::tempdir().unwrap();
    let spec = cairn_synth::Spec {
        notes,
        seed: 7,
        projects: 3,
    };
    let s = cairn_synth::generate(&tmp.path().join("v"), &spec).unwrap();
    let cache_dir = tmp.path().join("cache");
    Vault {
        root: s.vault,
        cache_dir,
        _tmp: tmp,
    }
}

fn listed(root: &Path) -> Listed {
    cairn_cache::list(root, &Limits::default())
}

fn cache(v: &Vault) -> Cache {
    Cache::new(v.cache_dir.clone(), &v.root)
}

fn open(c: &Cache, root: &Path) -> cairn_cache::Opened {
    c.open(&listed(root), &OpenOptions::default()).unwrap()
}

/// Everything observable about a snapshot: each file's path, info and decoded
/// note, the diagnostics, and the hits of a few queries (paths and scores).
fn fingerprint(s: &Snapshot) -> String {
    let mut out = String::new();
    for i in 0..s.len() {
        let info = s.info(i);
        let note = s.notes(i).unwrap();
        out.push_str(&format!(
            "{} {} {:?} {:?}\n",
            s.path(i),
            info.size,
            info.hash,
            note
        ));
    }
    out.push_str(&format!("{:?}\n", s.diagnostics().unwrap()));
    out.push_str(&format!("hubs {:?}\n", s.hubs()));
    for q in [
        "payout retry idempotency",
        "tile layer zoom",
        "backup restore snapshot",
        "flaky test",
        "edited marker phrase",
    ] {
        let mut terms = QueryTerms::default();
        terms.add_text(q, 1.0);
        for w in [FieldWeights::default(), FieldWeights::FLAT] {
            let hits = s.index().search(&terms, &w, None, 50).unwrap();
            for h in hits {
                out.push_str(&format!("{q}: {} {:.6}\n", h.path, h.bm25));
            }
        }
    }
    out
}

fn fresh(root: &Path) -> (tempfile::TempDir, Snapshot) {
    let d = tempfile::tempdir().unwrap();
    let c = Cache::new(d.path().join("c"), root);
    let o = open(&c, root);
    (d, o.snapshot.unwrap())
}

fn md_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn set_mtime(p: &Path, t: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(p)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// Sets the mtime of `root` and everything under it one hour back: nothing in
/// the vault is racy for the walks and listings that follow.
fn age(root: &Path) {
    let then = SystemTime::now() - Duration::from_secs(3600);
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
        }
        std::fs::File::open(&p).unwrap().set_modified(then).unwrap();
    }
}

#[test]
fn first_open_builds_then_serves_without_writing() {
    let v = vault(120);
    // Old files: the second open has nothing racy to settle, however slow the machine.
    age(&v.root);
    let c = cache(&v);
    let o = open(&c, &v.root);
    let report = o.report.expect("a first build");
    assert!(report.rebuilt);
    assert_eq!(report.added, 120);
    let s = o.snapshot.unwrap();
    assert_eq!(s.note_count(), 120);
    // Secret notes are not in the index.
    assert_eq!(s.index().doc_count(), s.document_count());
    assert!(s.document_count() < 120);

    // A second open changes nothing on disk: readers never write.
    let before = tree(&v.cache_dir);
    let o2 = open(&c, &v.root);
    assert!(o2.report.is_none());
    assert_eq!(o2.snapshot.unwrap().generation(), s.generation());
    assert_eq!(tree(&v.cache_dir), before);
}

#[test]
fn an_unchanged_folder_tree_is_listed_without_a_walk() {
    let v = vault(120);
    age(&v.root);
    let c = cache(&v);
    let limits = Limits::default();
    let opts = OpenOptions::default();
    let (l, o) = c.open_vault(&v.root, &limits, &opts);
    assert!(!l.relisted, "nothing to relist from yet");
    assert!(o.unwrap().report.unwrap().rebuilt);

    // Nothing changed: no walk, nothing written, the same generation.
    let before = tree(&v.cache_dir);
    let (l, o) = c.open_vault(&v.root, &limits, &opts);
    assert!(l.relisted);
    let o = o.unwrap();
    assert!(o.report.is_none());
    assert_eq!(tree(&v.cache_dir), before);

    // An edit in place moves no folder: still no walk, and the edit is indexed.
    let files = md_files(&v.root);
    let mut t = std::fs::read_to_string(&files[3]).unwrap();
    t.push_str("\nAn edited marker phrase.\n");
    std::fs::write(&files[3], t).unwrap();
    let (l, o) = c.open_vault(&v.root, &limits, &opts);
    assert!(l.relisted);
    let o = o.unwrap();
    assert_eq!(o.report.as_ref().unwrap().modified, 1);
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&o.snapshot.unwrap()), fingerprint(&f));

    // A new note changes its folder: walked, and found.
    let new = files[7].with_file_name("a new note.md");
    std::fs::write(&new, "# A new note\nAn edited marker phrase.\n").unwrap();
    let (l, o) = c.open_vault(&v.root, &limits, &opts);
    assert!(!l.relisted);
    let o = o.unwrap();
    assert_eq!(o.report.as_ref().unwrap().added, 1);
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&o.snapshot.unwrap()), fingerprint(&f));

    // That walk saw a folder change in its racy window, so it cannot be trusted:
    // once the change is old, the next walk's record is stored, and used.
    age(&v.root);
    let (l, o) = c.open_vault(&v.root, &limits, &opts);
    assert!(!l.relisted);
    assert!(o.unwrap().report.is_some(), "the settled walk is stored");
    let (l, o) = c.open_vault(&v.root, &limits, &opts);
    assert!(l.relisted);
    assert!(o.unwrap().report.is_none());
}

/// Every file under `dir` with its size and mtime.
fn tree(dir: &Path) -> Vec<(PathBuf, u64, SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let md = e.metadata().unwrap();
            if md.is_dir() {
                stack.push(e.path());
            }
            out.push((e.path(), md.len(), md.modified().unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_generation_keeps_the_notes_most_linked_to() {
    let v = vault(300);
    let dir = v.root.join("20-Areas/linked");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("Map of payments.md"),
        "# Map of payments\n[[leaf 0]]\n",
    )
    .unwrap();
    for k in 0..4 {
        std::fs::write(
            dir.join(format!("leaf {k}.md")),
            format!("# Leaf {k}\nSee [[Map of payments]] and [[leaf 0]].\n"),
        )
        .unwrap();
    }
    let (_d, s) = fresh(&v.root);
    let notes: Vec<cairn_note::Note> = (0..s.len()).flat_map(|i| s.notes(i).unwrap()).collect();
    let visible: Vec<&cairn_note::Note> = notes
        .iter()
        .filter(|n| n.sensitivity != cairn_note::Sensitivity::Secret)
        .collect();
    let expect = cairn_note::most_linked(&visible, 256);
    assert_eq!(
        expect,
        [
            ("20-Areas/linked/Map of payments.md".to_owned(), 4),
            ("20-Areas/linked/leaf 0.md".to_owned(), 4),
        ]
    );
    assert_eq!(s.hubs(), expect.as_slice());
}

#[test]
fn every_kind_of_change_gives_what_a_fresh_build_gives() {
    let v = vault(300);
    let c = cache(&v);
    open(&c, &v.root);
    let files = md_files(&v.root);

    // Edit 5, delete 4, rename 3 (one into a new folder), add 6, touch 2.
    for p in &files[0..5] {
        let mut t = std::fs::read_to_string(p).unwrap();
        t.push_str("\nAn edited marker phrase.\n");
        std::fs::write(p, t).unwrap();
    }
    for p in &files[5..9] {
        std::fs::remove_file(p).unwrap();
    }
    for (k, p) in files[9..12].iter().enumerate() {
        let to = if k == 0 {
            let d = v.root.join("Moved here");
            std::fs::create_dir_all(&d).unwrap();
            d.join("moved note.md")
        } else {
            p.with_file_name(format!("renamed {k}.md"))
        };
        std::fs::rename(p, to).unwrap();
    }
    for k in 0..6 {
        let p = v.root.join(format!("20-Areas/new/new note {k}.md"));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(
            &p,
            format!("---\ntitle: New {k}\nmemory_type: pattern\ntags: [fresh]\n---\nAn edited marker phrase, note {k}.\n"),
        )
        .unwrap();
    }
    let later = SystemTime::now() + Duration::from_secs(5);
    for p in &files[12..14] {
        set_mtime(p, later);
    }

    let o = open(&c, &v.root);
    let r = o.report.expect("a refresh");
    assert!(!r.rebuilt);
    assert_eq!((r.modified, r.deleted, r.touched), (5, 7, 2), "{r:?}");
    assert_eq!((r.added, r.renamed), (9, 3), "{r:?}");
    let s = o.snapshot.unwrap();
    assert_eq!(s.index().doc_count(), s.document_count());
    let (_d, f) = fresh(&v.root);
    assert_eq!(s.note_count(), f.note_count());
    assert_eq!(fingerprint(&s), fingerprint(&f));

    // And once more after a second round on top of the first.
    for p in md_files(&v.root).iter().step_by(37) {
        std::fs::remove_file(p).unwrap();
    }
    let s = open(&c, &v.root).snapshot.unwrap();
    let (_d2, f) = fresh(&v.root);
    assert_eq!(fingerprint(&s), fingerprint(&f));
}

#[test]
fn a_racy_edit_with_the_same_size_and_mtime_is_caught_by_content() {
    let v = vault(40);
    let c = cache(&v);
    let p = md_files(&v.root)[3].clone();
    let mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
    open(&c, &v.root);
    // Same length, same mtime: only the content hash can tell.
    let text = std::fs::read_to_string(&p).unwrap();
    let changed = text.replacen("the", "THE", 1);
    assert_eq!(changed.len(), text.len());
    assert_ne!(changed, text);
    std::fs::write(&p, &changed).unwrap();
    set_mtime(&p, mtime);
    let o = open(&c, &v.root);
    assert_eq!(o.report.map(|r| r.modified), Some(1));
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&o.snapshot.unwrap()), fingerprint(&f));
}

#[test]
fn concurrent_writers_never_duplicate_documents() {
    let v = vault(200);
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let root = v.root.clone();
            let c = cache(&v);
            std::thread::spawn(move || {
                let s = c
                    .open(&listed(&root), &OpenOptions::default())
                    .unwrap()
                    .snapshot
                    .unwrap();
                (
                    s.generation(),
                    s.index().doc_count(),
                    fingerprint(&s),
                    s.document_count(),
                )
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    for r in &results {
        assert_eq!(r.1, r.3, "one document per indexed note");
        assert_eq!(r.2, results[0].2);
    }
    // One build, shared by all: every thread served generation 1.
    assert!(
        results.iter().all(|r| r.0 == 1),
        "{:?}",
        results.iter().map(|r| r.0).collect::<Vec<_>>()
    );
}

#[test]
fn leftovers_of_a_crashed_writer_are_ignored_then_cleaned() {
    let v = vault(60);
    // Old files: a slow machine's second open has nothing racy to settle.
    age(&v.root);
    let c = cache(&v);
    let g1 = open(&c, &v.root).snapshot.unwrap();
    // What a writer killed mid-update leaves: a half-written generation folder
    // (some index files, no manifest) and a temp file of the pointer.
    let junk = v.cache_dir.join("gen-00000002-999900");
    std::fs::create_dir_all(junk.join("index")).unwrap();
    std::fs::write(junk.join("index/partial.idx"), b"half").unwrap();
    std::fs::write(v.cache_dir.join(".CURRENT.tmp-999"), b"gen-00000002-999900").unwrap();

    // Readers still get the published generation.
    let s = open(&c, &v.root).snapshot.unwrap();
    assert_eq!(s.generation(), g1.generation());

    // The next writer removes the leftovers.
    std::fs::write(v.root.join("00-Identity/extra.md"), "# Extra\nnew").unwrap();
    let s = open(&c, &v.root).snapshot.unwrap();
    assert_eq!(s.generation(), 2);
    assert!(!junk.exists());
    assert!(!v.cache_dir.join(".CURRENT.tmp-999").exists());
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&s), fingerprint(&f));
}

fn current_gen_dir(c: &Cache) -> PathBuf {
    c.current().unwrap().unwrap().dir().to_path_buf()
}

#[test]
fn a_truncated_index_file_is_detected_and_rebuilt() {
    let v = vault(80);
    let c = cache(&v);
    open(&c, &v.root);
    let idx = current_gen_dir(&c).join("index");
    let mut victims: Vec<PathBuf> = std::fs::read_dir(&idx)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "idx" || x == "term"))
        .collect();
    victims.sort();
    let victim = &victims[0];
    let len = std::fs::metadata(victim).unwrap().len();
    std::fs::File::options()
        .write(true)
        .open(victim)
        .unwrap()
        .set_len(len / 2)
        .unwrap();

    assert!(matches!(c.current(), Err(CacheError::Damaged { .. })));
    let o = open(&c, &v.root);
    assert!(
        o.warnings
            .iter()
            .any(|w| w.contains("damaged") && w.contains("rebuilding")),
        "{:?}",
        o.warnings
    );
    assert!(o.report.unwrap().rebuilt);
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&o.snapshot.unwrap()), fingerprint(&f));
}

#[test]
fn a_damaged_or_foreign_manifest_is_rebuilt_with_a_warning() {
    for (what, damage) in [
        ("damaged", 0usize),  // flip a byte in the middle
        ("built by", 1usize), // another manifest format: foreign
    ] {
        let v = vault(50);
        let c = cache(&v);
        open(&c, &v.root);
        let m = current_gen_dir(&c).join("manifest.bin");
        let mut b = std::fs::read(&m).unwrap();
        if damage == 0 {
            let mid = b.len() / 2;
            b[mid] ^= 0x55;
        } else {
            b[8] = b[8].wrapping_add(1);
        }
        std::fs::write(&m, b).unwrap();
        let o = open(&c, &v.root);
        assert!(
            o.warnings.iter().any(|w| w.contains(what)),
            "{what}: {:?}",
            o.warnings
        );
        let (_d, f) = fresh(&v.root);
        assert_eq!(fingerprint(&o.snapshot.unwrap()), fingerprint(&f));
    }
}

#[test]
fn a_garbage_pointer_is_damage_not_a_path() {
    let v = vault(20);
    let c = cache(&v);
    open(&c, &v.root);
    std::fs::write(v.cache_dir.join("CURRENT"), "../../../etc\n").unwrap();
    assert!(matches!(c.current(), Err(CacheError::Damaged { .. })));
    let o = open(&c, &v.root);
    assert!(!o.warnings.is_empty());
    assert_eq!(o.snapshot.unwrap().note_count(), 20);
}

#[test]
fn another_vault_in_the_same_folder_is_foreign() {
    let a = vault(30);
    let b = vault(10);
    let ca = Cache::new(a.cache_dir.clone(), &a.root);
    open(&ca, &a.root);
    let cb = Cache::new(a.cache_dir.clone(), &b.root);
    assert!(matches!(cb.current(), Err(CacheError::Foreign { .. })));
    let o = open(&cb, &b.root);
    assert!(
        o.warnings.iter().any(|w| w.contains("another vault")),
        "{:?}",
        o.warnings
    );
    assert_eq!(o.snapshot.unwrap().note_count(), 10);
}

#[test]
fn an_unwritable_folder_is_an_error_the_caller_can_fall_back_on() {
    let v = vault(10);
    // A regular file where the cache folder's parent should be: nothing can be
    // created below it, whoever runs the test (root included).
    let blocker = v.cache_dir.with_file_name("blocker");
    std::fs::write(&blocker, b"").unwrap();
    let c = Cache::new(blocker.join("cache"), &v.root);
    match c.open(&listed(&v.root), &OpenOptions::default()) {
        Err(CacheError::Unwritable { .. }) => {}
        other => panic!("expected Unwritable, got {other:?}"),
    }
}

#[test]
fn a_missed_deadline_serves_the_last_generation_and_says_what_it_lacks() {
    let v = vault(100);
    let c = cache(&v);
    let g1 = open(&c, &v.root).snapshot.unwrap();
    let files = md_files(&v.root);
    std::fs::remove_file(&files[0]).unwrap();
    for k in 0..400 {
        std::fs::write(
            v.root.join(format!("00-Identity/n{k}.md")),
            format!("# N{k}\nbody {k}"),
        )
        .unwrap();
    }
    let o = c
        .open(
            &listed(&v.root),
            &OpenOptions {
                deadline: Some(Instant::now()),
                ..OpenOptions::default()
            },
        )
        .unwrap();
    let pending = o.pending.expect("the refresh cannot finish in no time");
    assert_eq!(pending.added.len(), 400);
    assert_eq!(pending.deleted.len(), 1);
    assert_eq!(o.snapshot.unwrap().generation(), g1.generation());
}

#[test]
fn no_generation_and_no_time_leaves_nothing_to_serve() {
    let v = vault(300);
    let c = cache(&v);
    let o = c
        .open(
            &listed(&v.root),
            &OpenOptions {
                deadline: Some(Instant::now()),
                ..OpenOptions::default()
            },
        )
        .unwrap();
    assert!(o.snapshot.is_none());
    assert_eq!(o.pending.unwrap().added.len(), 300);
}

#[test]
fn status_reports_pending_changes_without_writing() {
    let v = vault(40);
    let c = cache(&v);
    let st = c.status(&listed(&v.root));
    assert_eq!(st.generation, None);
    assert_eq!(st.pending, (40, 0, 0));
    open(&c, &v.root);
    let files = md_files(&v.root);
    std::fs::remove_file(&files[0]).unwrap();
    std::fs::write(&files[1], "# changed\n").unwrap();
    let before = tree(&v.cache_dir);
    let st = c.status(&listed(&v.root));
    assert_eq!(st.generation, Some(1));
    assert_eq!(st.notes, 40);
    assert_eq!(st.pending, (0, 1, 1));
    assert!(st.disk_bytes > 0);
    assert!(st.problem.is_none());
    assert_eq!(tree(&v.cache_dir), before);
    assert!(c.verify().unwrap().is_empty());
}

#[cfg(unix)]
#[test]
fn a_folder_name_that_is_not_utf8_keeps_the_cache_usable() {
    // The record of the walk holds folder paths; one that cannot be encoded used
    // to write an empty header: every open then found the cache damaged, rebuilt
    // it and left another full copy behind.
    use std::os::unix::ffi::OsStrExt;
    let v = vault(30);
    let odd = v.root.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir(&odd).unwrap();
    std::fs::write(odd.join("menu.md"), "# Menu\nespresso tonic").unwrap();
    age(&v.root);
    let c = cache(&v);
    let o = open(&c, &v.root);
    assert!(o.warnings.is_empty(), "{:?}", o.warnings);
    assert_eq!(o.snapshot.unwrap().note_count(), 31);
    for _ in 0..3 {
        let o = open(&c, &v.root);
        assert!(o.warnings.is_empty(), "{:?}", o.warnings);
        assert!(o.report.is_none(), "nothing changed: {:?}", o.report);
    }
    let generations = std::fs::read_dir(&v.cache_dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("gen-")
        })
        .count();
    assert_eq!(generations, 1);
}

/// The index files of the published generation, by name.
fn index_files(c: &Cache) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(current_gen_dir(c).join("index"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.to_string_lossy().ends_with(".lock"))
        .collect();
    files.sort();
    files
}

fn flip_middle(p: &Path) {
    let mut b = std::fs::read(p).unwrap();
    let mid = b.len() / 2;
    b[mid] ^= 0x04;
    std::fs::write(p, b).unwrap();
}

#[test]
fn every_flipped_byte_is_caught_by_a_full_verify_and_the_small_files_at_open() {
    let v = vault(120);
    let c = cache(&v);
    open(&c, &v.root);
    let (_d, f) = fresh(&v.root);
    let expected = fingerprint(&f);
    // Each kind of file (segment names change with every rebuild).
    let kind = |p: &Path| {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".json") {
            name
        } else {
            p.extension().unwrap().to_string_lossy().into_owned()
        }
    };
    let mut kinds: Vec<String> = index_files(&c).iter().map(|p| kind(p)).collect();
    kinds.sort();
    kinds.dedup();
    assert!(kinds.len() >= 8, "{kinds:?}");
    for k in kinds {
        let victim = index_files(&c)
            .into_iter()
            .find(|p| kind(p) == k && std::fs::metadata(p).unwrap().len() > 0)
            .unwrap();
        let name = victim.file_name().unwrap().to_string_lossy().into_owned();
        flip_middle(&victim);
        let small = [".json", ".fast", ".fieldnorm"]
            .iter()
            .any(|x| name.ends_with(x));
        // Small files are checked whole at open; others when read (tantivy reads
        // some whole at open too), always by a full verify.
        match c.current() {
            Err(CacheError::Damaged { .. }) => {}
            Ok(Some(s)) => {
                assert!(!small, "{name} is checked when the index is opened");
                let bad = s.verify();
                assert_eq!(bad.len(), 1, "{name}: {bad:?}");
                assert!(bad[0].starts_with(&name), "{bad:?}");
            }
            other => panic!("{name}: {other:?}"),
        }
        let o = c
            .open(
                &listed(&v.root),
                &OpenOptions {
                    verify: true,
                    ..OpenOptions::default()
                },
            )
            .unwrap();
        assert_eq!(o.warnings.len(), 1, "{name}: {:?}", o.warnings);
        assert!(o.warnings[0].contains("damaged"), "{:?}", o.warnings);
        assert!(o.report.unwrap().rebuilt, "{name}");
        assert_eq!(fingerprint(&o.snapshot.unwrap()), expected, "{name}");
        assert!(c.current().unwrap().unwrap().verify().is_empty());
    }
}

#[test]
fn a_damaged_generation_is_never_built_on() {
    let v = vault(150);
    let c = cache(&v);
    open(&c, &v.root);
    // A block that opening does not read: only a full read finds it.
    let victim = index_files(&c)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "pos"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    flip_middle(&victim);
    assert!(c.current().unwrap().is_some());
    cairn_synth::edit(&v.root, 3, 9).unwrap();
    let o = open(&c, &v.root);
    assert!(
        o.warnings.iter().any(|w| w.contains("damaged")),
        "{:?}",
        o.warnings
    );
    assert!(o.report.unwrap().rebuilt);
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&o.snapshot.unwrap()), fingerprint(&f));
}

#[test]
fn a_generation_found_damaged_while_reading_is_replaced() {
    let v = vault(40);
    let c = cache(&v);
    let s = open(&c, &v.root).snapshot.unwrap();
    let l = listed(&v.root);
    let (new, warning) = c
        .replace_damaged(&s, "a block failed its checksum", &l)
        .unwrap();
    assert!(
        warning.contains("damaged") && warning.contains("rebuilding"),
        "{warning}"
    );
    assert_ne!(new.name(), s.name());
    let (_d, f) = fresh(&v.root);
    assert_eq!(fingerprint(&new), fingerprint(&f));
    // Another process already replaced it: that generation is used as it is.
    let (again, _) = c.replace_damaged(&s, "same", &l).unwrap();
    assert_eq!(again.name(), new.name());
}

#[test]
fn a_secret_note_leaves_its_stub_and_no_document() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("v");
    std::fs::create_dir_all(root.join("k")).unwrap();
    std::fs::write(
        root.join("k/key.md"),
        "---\ntitle: Key zqcanarytitle\nsensitivity: secret\nfreshness: zqcanarystatus\npinned: true\n---\nzqcanarybody payout\n",
    )
    .unwrap();
    std::fs::write(root.join("k/open.md"), "# Open\n\npayout retry\n").unwrap();
    let c = Cache::new(tmp.path().join("cache"), &root);
    let s = open(&c, &root).snapshot.unwrap();
    assert_eq!(s.note_count(), 2);
    assert_eq!(s.index().doc_count(), 1);
    let i = s.find("k/key.md").unwrap();
    let stub = &s.notes(i).unwrap()[0];
    assert_eq!(stub.sensitivity, cairn_note::Sensitivity::Secret);
    assert!(stub.title.is_empty() && stub.pinned);
    assert_eq!(s.info(i).docs, 0);
    let mut terms = QueryTerms::default();
    terms.add_text("zqcanarybody payout", 1.0);
    let hits = s
        .index()
        .search(&terms, &FieldWeights::default(), None, 10)
        .unwrap();
    assert_eq!(
        hits.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
        ["k/open.md"]
    );
    // The parse warning quoting the note is withheld in the cache, read again
    // from the file for whoever asks.
    let stored = s.diagnostics().unwrap();
    let d = stored.iter().find(|d| d.path == "k/key.md").unwrap();
    assert_eq!(d.message, cairn_cache::WITHHELD_DIAGNOSTIC);
    let real = s.diagnostics_from(&root).unwrap();
    let d = real.iter().find(|d| d.path == "k/key.md").unwrap();
    // (The reader no longer quotes the value it could not read.)
    assert_eq!(d.code, "frontmatter-value", "{d:?}");
    assert!(!d.message.contains("zqcanarystatus"), "{d:?}");
}
