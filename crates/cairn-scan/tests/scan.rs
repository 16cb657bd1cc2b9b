//! The scanner on vaults with every kind of bad input: limits, binary, unreadable,
//! symlink loops, ignored and hidden files. The scan always completes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;

use cairn_config::Limits;
use cairn_scan::*;

fn write(root: &Path, rel: &str, body: &[u8]) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, body).unwrap();
}

fn codes(s: &Scan) -> Vec<(String, String)> {
    s.diagnostics
        .iter()
        .map(|d| (d.path.clone(), d.code.clone()))
        .collect()
}

#[test]
fn reads_notes_sorted_and_reports_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(v, "b/two.md", b"# Two\ntext");
    write(v, "a/one.markdown", b"one");
    write(v, "a/bin.md", b"\x00\x00binary");
    write(v, "a/empty.md", b"");
    write(v, "a/bad.md", b"---\ntitle: [x\n---\nstill here");
    write(v, "a/notes.txt", b"not a note");
    write(v, ".obsidian/workspace.md", b"hidden");
    write(v, "ignored/x.md", b"ignored");
    write(v, ".gitignore", b"ignored/\n");
    write(v, "c/.cairnignore", b"private.md\n");
    write(v, "c/private.md", b"private");
    write(v, "c/public.md", b"public");
    let s = scan(v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        vec!["a/bad.md", "a/one.markdown", "b/two.md", "c/public.md"]
    );
    let c = codes(&s);
    assert!(
        c.contains(&("a/bin.md".into(), "binary-file".into())),
        "{c:?}"
    );
    assert!(c.contains(&("a/empty.md".into(), "empty-note".into())));
    assert!(c.contains(&("a/bad.md".into(), "frontmatter-yaml".into())));
    assert!(s.notes.iter().all(|n| n.mtime.is_some()));
}

#[test]
fn limits_skip_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    for i in 0..5 {
        write(v, &format!("n{i}.md"), b"0123456789");
    }
    write(v, "big.md", &vec![b'x'; 500]);
    write(v, "d1/d2/d3/deep.md", b"deep");
    let limits = Limits {
        max_files: 3,
        max_file_bytes: 100,
        max_total_bytes: 1000,
        max_depth: 2,
    };
    let s = scan(v, &[String::new()], &limits);
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, vec!["n0.md", "n1.md", "n2.md"]);
    let c: Vec<_> = codes(&s).into_iter().map(|(_, c)| c).collect();
    for code in ["limit-file-size", "limit-files", "limit-depth"] {
        assert!(c.contains(&code.to_owned()), "{code} in {c:?}");
    }
    let limits = Limits {
        max_total_bytes: 25,
        ..Limits::default()
    };
    let s = scan(v, &[String::new()], &limits);
    assert_eq!(
        s.notes.len(),
        3,
        "deep.md (4 B), n0, n1 fit; big.md and n2 do not"
    );
    assert!(codes(&s).iter().any(|(_, c)| c == "limit-total-bytes"));
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(v, "real/a.md", b"a");
    std::os::unix::fs::symlink(v.join("real"), v.join("real/loop")).unwrap();
    std::os::unix::fs::symlink(v.join("real"), v.join("alias")).unwrap();
    let s = scan(v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, vec!["alias/a.md"], "one copy, first path");
    let c: Vec<_> = codes(&s).into_iter().map(|(_, c)| c).collect();
    assert!(c.contains(&"walk-error".to_owned()), "{c:?}");
}

#[cfg(unix)]
#[test]
fn unreadable_file_is_skipped() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(v, "ok.md", b"ok");
    write(v, "locked.md", b"secret");
    fs::set_permissions(v.join("locked.md"), fs::Permissions::from_mode(0o000)).unwrap();
    let s = scan(v, &[String::new()], &Limits::default());
    if fs::read(v.join("locked.md")).is_ok() {
        return; // running as root: permissions do not apply
    }
    assert_eq!(s.notes.len(), 1);
    assert!(codes(&s).contains(&("locked.md".into(), "unreadable".into())));
}

#[test]
fn roots_overlap_and_missing_roots() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(v, "p/x.md", b"x");
    write(v, "p/sub/y.md", b"y");
    write(v, "q/z.md", b"z");
    let roots = vec!["p".to_owned(), "p/sub".to_owned(), "missing".to_owned()];
    let s = scan(v, &roots, &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(paths, vec!["p/sub/y.md", "p/x.md"]);
    assert!(codes(&s).contains(&("missing".into(), "missing-root".into())));
}

#[test]
fn entry_files_yield_one_note_per_entry_and_temp_files_none() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(
        v,
        "p/decisions.md",
        b"# Decisions\n\n### [2025-01-02] Use Kafka\n\nBecause.\n\n---\n\n### [2025-03-04] Use sqlx\n\nTyped.\n",
    );
    // What an interrupted `cairn memory` write leaves behind is never a note.
    write(v, "p/.decisions.md.cairn-tmp.123.0", b"# torn");
    write(v, "p/other.md", b"# Other\n");
    let s = scan(v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "p/decisions.md#use-kafka",
            "p/decisions.md#use-sqlx",
            "p/other.md"
        ]
    );
    assert!(s.notes.iter().all(|n| n.mtime.is_some()));
    assert_eq!(s.notes[1].created.unwrap().to_string(), "2025-03-04");
}
