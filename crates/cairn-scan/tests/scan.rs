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
        templates: None,
        hidden_roots: Vec::new(),
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
    // A note's old name kept as a symlink to it, sorting first.
    write(v, "keps/541-x/README.md", b"# KEP 541");
    std::os::unix::fs::symlink(v.join("keps/541-x/README.md"), v.join("keps/20190711-x.md"))
        .unwrap();
    let s = scan(v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    // One copy each, at the file's own path, not the symlink's.
    assert_eq!(paths, vec!["keps/541-x/README.md", "real/a.md"]);
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

/// A hidden folder named as a root is read, inside another root or alone (a
/// repository's `.notes/` beside its `docs/`: the in-repo trial's five notes,
/// its session log among them, were never read); a hidden folder no root names
/// stays unread.
#[test]
fn a_hidden_folder_named_as_a_root_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(v, "repo/README.md", b"# R");
    write(v, "repo/.notes/session-2026-11-24.md", b"# S");
    write(v, "repo/.cache/x.md", b"# X");
    write(v, ".me/about.md", b"# A");
    let roots = vec![
        "repo".to_owned(),
        "repo/.notes".to_owned(),
        ".me".to_owned(),
    ];
    let s = scan(v, &roots, &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            ".me/about.md",
            "repo/.notes/session-2026-11-24.md",
            "repo/README.md"
        ]
    );
}

/// The configured hidden roots (`Limits::hidden_roots`) are walked with a
/// listing of the whole vault, and with a listing of roots that hold them, but
/// not with one of other roots (the session-start hook's quick read of the
/// developer's folders: another project's `.notes` would take its places).
#[test]
fn hidden_roots_are_walked_under_the_roots_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(v, "repo/.notes/s.md", b"# S");
    write(v, "repo/README.md", b"# R");
    write(v, "me/a.md", b"# A");
    let limits = Limits {
        hidden_roots: vec!["repo/.notes".to_owned()],
        ..Limits::default()
    };
    let paths = |roots: &[&str]| -> Vec<String> {
        let roots: Vec<String> = roots.iter().map(|r| (*r).to_owned()).collect();
        scan(v, &roots, &limits)
            .notes
            .iter()
            .map(|n| n.path.clone())
            .collect()
    };
    assert_eq!(
        paths(&[""]),
        ["me/a.md", "repo/.notes/s.md", "repo/README.md"]
    );
    assert_eq!(paths(&["repo"]), ["repo/.notes/s.md", "repo/README.md"]);
    assert_eq!(paths(&["me"]), ["me/a.md"]);
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

/// Sets the mtime of `root` and of everything under it one hour back, so a walk
/// recorded afterwards is settled (nothing changed within the racy window).
fn age(root: &Path) {
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        if fs::symlink_metadata(&p).unwrap().file_type().is_symlink() {
            continue; // possibly broken; its folder's stamp is what counts
        }
        if p.is_dir() {
            for e in fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
        }
        fs::File::open(&p).unwrap().set_modified(then).unwrap();
    }
}

/// A vault at `<tmp>/vault` (its parent is the test's own folder) with notes in
/// folders, ignore files, a non-note file and a file over the size limit.
fn relist_vault() -> (tempfile::TempDir, std::path::PathBuf, Limits) {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    write(&v, "a/one.md", b"# One\none");
    write(&v, "a/two.md", b"# Two\ntwo");
    write(&v, "b/c/three.md", b"# Three");
    write(&v, "b/skip.md", b"ignored by .gitignore");
    write(&v, ".gitignore", b"b/skip.md\n");
    write(&v, "b/picture.png", b"\x89PNG");
    write(&v, "big.md", &[b'x'; 300]);
    let limits = Limits {
        max_file_bytes: 200,
        ..Limits::default()
    };
    age(dir.path());
    (dir, v, limits)
}

fn paths_of(l: &Listing) -> Vec<(String, u64)> {
    l.files.iter().map(|f| (f.path.clone(), f.size)).collect()
}

/// `relist` from the record of `before`: `None`, or the listing a walk gives now.
fn relisted(v: &Path, limits: &Limits, before: &Listing) -> Option<Listing> {
    let listed: Vec<&str> = before.files.iter().map(|f| f.path.as_str()).collect();
    let again = relist(v, &[String::new()], limits, &before.walk, &listed)?;
    let walked = list(v, &[String::new()], limits);
    assert_eq!(again.files, walked.files, "relist and walk disagree");
    assert_eq!(again.diagnostics, walked.diagnostics);
    Some(again)
}

#[test]
fn relist_gives_the_walks_listing_while_no_folder_changes() {
    let (_dir, v, limits) = relist_vault();
    let before = list(&v, &[String::new()], &limits);
    assert!(before.walk.is_settled());
    assert_eq!(
        paths_of(&before),
        vec![
            ("a/one.md".into(), 9),
            ("a/two.md".into(), 9),
            ("b/c/three.md".into(), 7)
        ]
    );
    assert!(relisted(&v, &limits, &before).is_some());

    // Content edits in place change no folder: relisted, with the new stats.
    fs::write(v.join("a/one.md"), b"# One\none, edited").unwrap();
    let again = relisted(&v, &limits, &before).expect("an edit does not need a walk");
    assert_eq!(again.files[0].size, 17);

    // A file over the size limit that shrinks is listed again.
    fs::write(v.join("big.md"), b"small now").unwrap();
    let again = relisted(&v, &limits, &before).expect("still no folder change");
    assert!(paths_of(&again).contains(&("big.md".into(), 9)));
}

#[test]
fn relist_refuses_when_a_folder_an_ignore_file_or_the_settings_change() {
    let (dir, v, limits) = relist_vault();
    let before = list(&v, &[String::new()], &limits);
    let fresh = || {
        age(dir.path());
        list(&v, &[String::new()], &limits)
    };

    write(&v, "b/c/four.md", b"new");
    assert!(relisted(&v, &limits, &before).is_none(), "a new note");
    let before = fresh();

    fs::remove_file(v.join("a/two.md")).unwrap();
    assert!(relisted(&v, &limits, &before).is_none(), "a deleted note");
    let before = fresh();

    fs::write(v.join(".gitignore"), b"b/skip.md\na/\n").unwrap();
    assert!(
        relisted(&v, &limits, &before).is_none(),
        "an ignore file edited in place"
    );
    let before = fresh();

    write(dir.path(), ".gitignore", b"vault/b/\n");
    assert!(
        relisted(&v, &limits, &before).is_none(),
        "an ignore file above the vault"
    );
    let before = fresh();

    let other = Limits {
        max_files: 1,
        ..limits.clone()
    };
    let listed: Vec<&str> = before.files.iter().map(|f| f.path.as_str()).collect();
    assert!(relist(&v, &[String::new()], &other, &before.walk, &listed).is_none());

    // A walk taken right after a change is not trusted.
    write(&v, "five.md", b"new");
    let racy = list(&v, &[String::new()], &limits);
    assert!(!racy.walk.is_settled());
    assert!(relisted(&v, &limits, &racy).is_none());
}

/// What a record must never vouch for: a later change that moves no folder stamp.
#[cfg(unix)]
#[test]
fn relist_refuses_what_no_folder_stamp_would_show() {
    use std::os::unix::ffi::OsStrExt;
    let roots = [String::new()];

    // A broken symlink to a note (and one to a folder) outside the vault: the
    // target appearing later changes no folder of the vault.
    let (dir, v, limits) = relist_vault();
    let outside = dir.path().join("outside");
    std::os::unix::fs::symlink(outside.join("x.md"), v.join("a/link.md")).unwrap();
    std::os::unix::fs::symlink(outside.join("d"), v.join("a/linkdir")).unwrap();
    age(dir.path());
    let before = list(&v, &roots, &limits);
    assert!(
        before.walk.settings.is_empty(),
        "{:?}",
        before.walk.problems
    );
    write(&outside, "x.md", b"# X");
    write(&outside, "d/y.md", b"# Y");
    assert!(relisted(&v, &limits, &before).is_none());
    // Now they resolve, outside the vault: not read, named by their own path.
    let now = list(&v, &roots, &limits);
    assert!(!paths_of(&now).iter().any(|(p, _)| p.starts_with("a/link")));
    let outside_codes: Vec<&str> = now
        .diagnostics
        .iter()
        .filter(|d| d.code == "outside-vault")
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!(outside_codes, ["a/link.md", "a/linkdir"]);

    // A linked git worktree: `.git` is a file and its ignore rules live elsewhere.
    let (dir, v, limits) = relist_vault();
    write(&v, ".git", b"gitdir: /elsewhere/.git/worktrees/v\n");
    age(dir.path());
    let before = list(&v, &roots, &limits);
    assert!(before.walk.settings.is_empty());
    assert!(relisted(&v, &limits, &before).is_none());

    // A folder whose name is not UTF-8: the record could not be stored, so it is
    // dropped (and whatever is left must serialise).
    let (dir, v, limits) = relist_vault();
    let odd = v.join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    fs::create_dir(&odd).unwrap();
    fs::write(odd.join("n.md"), b"# N").unwrap();
    age(dir.path());
    let before = list(&v, &roots, &limits);
    assert!(before.walk.settings.is_empty());
    assert!(before.walk.folders.is_empty() && before.walk.watched.is_empty());
    assert_eq!(before.files.len(), 4, "the note in it is still listed");
    assert!(relisted(&v, &limits, &before).is_none());
}

/// A note that is a symlink to a file outside the vault, or a folder symlink
/// leading outside, is not listed (nor read); a warning names it by its path
/// inside the vault. Links that stay inside are listed as before.
#[cfg(unix)]
#[test]
fn symlinks_leading_out_of_the_vault_are_not_read() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("vault");
    let outside = dir.path().join("outside");
    write(&outside, "canary.md", b"# Canary\nzqcanary");
    write(&outside, "folder/inner.md", b"# Inner\nzqcanary");
    write(&v, "real/a.md", b"# A\ninside");
    write(&v, "real/b.md", b"# B\ninside");
    symlink(outside.join("canary.md"), v.join("leak.md")).unwrap();
    symlink(outside.join("folder"), v.join("leakdir")).unwrap();
    symlink("../../outside/canary.md", v.join("real/relative.md")).unwrap();
    symlink(v.join("real/b.md"), v.join("alias.md")).unwrap();
    let s = scan(&v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    // A link inside is read once, at the file's own path.
    assert_eq!(paths, ["real/a.md", "real/b.md"], "inside links still work");
    assert!(s.notes.iter().all(|n| !n.body.contains("zqcanary")));
    let warned: Vec<_> = s
        .diagnostics
        .iter()
        .filter(|d| d.code == "outside-vault")
        .map(|d| (d.path.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(warned.len(), 3, "{warned:?}");
    for (p, m) in &warned {
        assert!(
            ["leak.md", "leakdir", "real/relative.md"].contains(p),
            "{p}"
        );
        assert!(!m.contains("outside/"), "the target is never named: {m}");
    }
}

/// A listed note that is a symlink keeps being checked: when what it resolves
/// through is re-pointed outside the vault (no folder of the vault moves),
/// `relist` refuses and the walk leaves it out.
#[cfg(unix)]
#[test]
fn relist_refuses_a_listed_link_that_now_leads_outside() {
    use std::os::unix::fs::symlink;
    let (dir, v, limits) = relist_vault();
    // via.md → <outside>/hop/skip.md, hop → the vault's b/ (b/skip.md itself is
    // ignored, so via.md is its only listing).
    let hop = dir.path().join("hop");
    symlink(v.join("b"), &hop).unwrap();
    symlink(hop.join("skip.md"), v.join("via.md")).unwrap();
    write(dir.path(), "elsewhere/skip.md", b"# Elsewhere\nzqcanary");
    age(dir.path());
    let before = list(&v, &[String::new()], &limits);
    assert!(paths_of(&before).iter().any(|(p, _)| p == "via.md"));
    assert!(relisted(&v, &limits, &before).is_some());
    fs::remove_file(&hop).unwrap();
    symlink(dir.path().join("elsewhere"), &hop).unwrap();
    assert!(relisted(&v, &limits, &before).is_none());
    let now = list(&v, &[String::new()], &limits);
    assert!(!paths_of(&now).iter().any(|(p, _)| p == "via.md"));
}

/// A Logseq graph's backups and file versions are copies of its pages, not
/// notes (held-out trial: each page was found three times, and `init` proposed
/// `logseq` as a project); a folder named so elsewhere is read.
#[test]
fn a_note_tool_s_copies_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("graph");
    write(&v, "pages/Tasks.md", b"- Tasks and their markers\n");
    write(
        &v,
        "logseq/bak/pages/Tasks/2023-05-01T10_11_12.345Z.Desktop.md",
        b"- Tasks and their markers\n",
    );
    write(&v, "logseq/version-files/base/pages/Tasks.md", b"- Tasks\n");
    write(&v, "logseq/custom.md", b"# Custom\n");
    write(&v, "notes/bak/old.md", b"# Old\n");
    let s = scan(&v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        ["logseq/custom.md", "notes/bak/old.md", "pages/Tasks.md"]
    );
    assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
}

/// Note templates are not memories: template folders are not walked, and say
/// nothing; a root index file without a title is named after the vault folder.
#[test]
fn template_folders_are_skipped_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("my-notes_vault");
    write(
        &v,
        "Templates/Daily.md",
        b"---\ndate: {{date}}\n---\n# {{title}}\n",
    );
    write(&v, "area/_templates/t.md", b"# T");
    write(&v, "_meta/Blueprints/b.md", b"# B");
    write(&v, "area/templates-guide.md", b"# Guide");
    // Template files kept among the notes (an ADR folder's, an RFC repository's).
    write(
        &v,
        "area/_template.md",
        b"---\ndate: YYYY-MM-DD\n---\n# ADR-NNN\n",
    );
    write(&v, "area/_template-adr.md", b"# ADR-NNN\n");
    write(&v, "0000-template.md", b"# Summary\n");
    write(
        &v,
        "decisions/adr-template.md",
        b"# {short title}\n\n## Context\n\n{Describe the context}\n",
    );
    write(&v, "area/RFC_Template.md", b"# RFC: {title}\n");
    write(&v, "area/make-a-template.md", b"# How I make a template\n");
    write(&v, "area/-template.md", b"# Odd name\n");
    write(&v, "README.md", b"Some text, no title.\n");
    let s = scan(&v, &[String::new()], &Limits::default());
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "README.md",
            "_meta/Blueprints/b.md",
            "area/-template.md",
            "area/make-a-template.md",
            "area/templates-guide.md"
        ]
    );
    assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
    assert_eq!(s.notes[0].title, "My notes vault");
    let limits = Limits {
        templates: Some("_meta/Blueprints".into()),
        ..Limits::default()
    };
    let s = scan(&v, &[String::new()], &limits);
    let paths: Vec<_> = s.notes.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "README.md",
            "area/-template.md",
            "area/make-a-template.md",
            "area/templates-guide.md"
        ]
    );
    // A root that is a templates folder is read: it was asked for.
    let s = scan(&v, &["Templates".to_owned()], &Limits::default());
    assert_eq!(s.notes.len(), 1);
}

/// MDX pages (Docusaurus, Nextra) are notes: their id drops `.mdx`, and their
/// summary has none of the module's `import`/`export` statements or an
/// admonition's fence (a held-out trial: 59 of Redux Toolkit's 69 docs were
/// `.mdx`, silently skipped).
#[test]
fn mdx_pages_are_notes() {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path();
    write(
        v,
        "docs/api/createSlice.MDX",
        b"---\nsidebar_position: 2\n---\nimport Tabs from '@theme/Tabs';\n\n# createSlice\n\n:::note\nA function that accepts an initial state and reducers.\n:::\n",
    );
    let s = scan(v, &[String::new()], &Limits::default());
    assert_eq!(s.notes.len(), 1, "{:?}", codes(&s));
    let n = &s.notes[0];
    assert_eq!(n.path, "docs/api/createSlice.MDX");
    assert_eq!(n.id, "docs/api/createSlice");
    assert_eq!(n.title, "createSlice");
    assert_eq!(
        cairn_note::prose_sentences(&n.body),
        ["A function that accepts an initial state and reducers."]
    );
}
