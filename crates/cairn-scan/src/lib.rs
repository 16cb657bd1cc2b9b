//! Scan: find the note files of a vault and parse them, in parallel, under limits.
//!
//! Two steps, so a persistent index can skip the second for unchanged files:
//! [`list`] walks the note roots (respecting `.gitignore`, `.cairnignore` and hidden
//! files the way an editor does, following symlinks but never around a loop) and
//! returns every note file with its size and mtime, sorted by path; [`read`] reads
//! and parses a set of listed files in parallel. Limits (file count, file size,
//! total bytes, depth) skip and report; nothing here ever aborts a scan.
//!
//! Reads obey the vault's containment: a symlink (to a note or to a folder) that
//! leads outside the vault is not followed; a warning names it by its path inside
//! the vault, never by its target. Symlinks that stay inside work as files do.
//!
//! Note templates are not memories: folders named `templates`, `Templates` or
//! `_templates` (below a note root), and the folder `[vault] templates` names,
//! are not walked, and template files kept among notes (`_template.md`,
//! `_template-adr.md`, `template.md`, `adr-template.md`, an RFC repository's
//! `0000-template.md`) are not read, without a diagnostic.
//!
//! Nor are a note tool's copies of its notes: Logseq's `logseq/bak` and
//! `logseq/version-files`.
//!
//! Parallel results are always sorted by path before they are returned.

mod walk;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use cairn_config::Limits;
pub use cairn_note::{Diagnostic, Note, Severity};
use rayon::prelude::*;
pub use walk::{RACY_NS, Stamp, Walk, relist};

/// A note file found by [`list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// Vault-relative path, `/`-separated.
    pub path: String,
    /// Absolute path.
    pub abs: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: i128,
}

/// The outcome of [`list`].
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Note files within the limits, sorted by path.
    pub files: Vec<FileEntry>,
    /// Walk problems and limit skips, sorted.
    pub diagnostics: Vec<Diagnostic>,
    /// What the walk depended on, for [`relist`].
    pub walk: Walk,
}

/// The outcome of [`scan`] (or [`read`]).
#[derive(Debug, Clone, Default)]
pub struct Scan {
    /// Parsed notes, sorted by path.
    pub notes: Vec<Note>,
    /// Every diagnostic, sorted.
    pub diagnostics: Vec<Diagnostic>,
}

/// Lists and reads every note under `roots` (vault-relative folders; `""` is the vault).
pub fn scan(vault: &Path, roots: &[String], limits: &Limits) -> Scan {
    let listing = list(vault, roots, limits);
    let mut scan = read(&listing.files);
    scan.diagnostics.extend(listing.diagnostics);
    scan.diagnostics.sort();
    scan
}

/// Whether `name` is a markdown note file name.
pub fn is_note_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown") || lower.ends_with(".mdx")
}

/// Folder names that hold note templates, never memories.
const TEMPLATE_FOLDERS: &[&str] = &["templates", "_templates"];

/// Whether a file named `name` is a note template kept among the notes: its stem
/// is `template` or `0000-template`, starts with `_template`, or is one word
/// and `template` (`adr-template`, `rfc_template`: what MADR names its
/// decisions' template), any case. Not `make-a-template`, a note about one.
pub fn is_template_file(name: &str) -> bool {
    let stem = name
        .rsplit_once('.')
        .map_or(name, |(s, _)| s)
        .to_ascii_lowercase();
    let kind_template = stem
        .strip_suffix("template")
        .and_then(|kind| kind.strip_suffix(['-', '_']))
        .is_some_and(|kind| !kind.is_empty() && kind.chars().all(char::is_alphanumeric));
    stem == "template" || stem == "0000-template" || stem.starts_with("_template") || kind_template
}

/// Whether the folder at vault-relative `rel` holds note templates: it is named
/// `templates` or `_templates` (any case), or it is `configured`.
pub fn is_templates_folder(rel: &str, configured: Option<&str>) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    TEMPLATE_FOLDERS
        .iter()
        .any(|t| name.eq_ignore_ascii_case(t))
        || configured.is_some_and(|c| c == rel)
}

/// Whether the folder at vault-relative `rel` holds a note tool's own copies
/// of the notes, never memories of their own: Logseq's backups and file
/// versions (`logseq/bak`, `logseq/version-files` in a graph), each a copy
/// of a page that would otherwise be read twice or more.
pub fn is_copies_folder(rel: &str) -> bool {
    let mut parts = rel.rsplit('/');
    let (Some(name), Some(parent)) = (parts.next(), parts.next()) else {
        return false;
    };
    parent == "logseq" && (name == "bak" || name == "version-files")
}

/// Walks `roots` in parallel and returns the note files within `limits`.
pub fn list(vault: &Path, roots: &[String], limits: &Limits) -> Listing {
    let started_ns = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    let mut walk = Walk {
        settings: walk::settings(vault, roots, limits),
        started_ns,
        ..Walk::default()
    };
    let mut problems = Vec::new();
    let mut root_dirs: Vec<PathBuf> = Vec::new();
    let mut missing: Vec<PathBuf> = Vec::new();
    // Where the vault really is: a symlink is followed only if it resolves under it.
    let real_vault = vault.canonicalize().unwrap_or_else(|_| vault.to_path_buf());
    let real_vault = real_vault.as_path();
    // The configured roots a walk of these roots would skip (hidden) are walked
    // too: those under one of them (`""` holds every one).
    let under_a_root = |h: &&String| {
        roots
            .iter()
            .any(|r| r.is_empty() || cairn_note::in_root(h, r))
    };
    let mut sorted_roots: Vec<&String> = roots
        .iter()
        .chain(limits.hidden_roots.iter().filter(under_a_root))
        .collect();
    sorted_roots.sort();
    sorted_roots.dedup();
    for r in sorted_roots {
        let dir = vault.join(r);
        if !dir.is_dir() {
            // A hidden root the walk added (not asked) is the configuration's:
            // its reader says it is missing, once (lint said it twice).
            if !roots.contains(r) {
                missing.push(dir);
                continue;
            }
            problems.push(diag(
                r,
                None,
                Severity::Warning,
                "missing-root",
                "note root is not a folder in the vault; nothing read from it".into(),
            ));
            missing.push(dir);
            continue;
        }
        // A root inside another root adds nothing, unless the outer walk skips
        // it: a hidden folder on the way (`shipyard/.notes` inside `shipyard`:
        // a folder named as a root is read, hidden or not).
        if root_dirs
            .iter()
            .any(|d| dir.starts_with(d) && !hidden_between(d, &dir))
        {
            continue;
        }
        root_dirs.retain(|d| !d.starts_with(&dir) || hidden_between(&dir, d));
        root_dirs.push(dir);
    }
    if root_dirs.is_empty() {
        walk.stamp_watched(&[], &missing);
        return finish(Vec::new(), problems, limits, walk);
    }

    let mut builder = ignore::WalkBuilder::new(&root_dirs[0]);
    for d in &root_dirs[1..] {
        builder.add(d);
    }
    builder
        .hidden(true)
        .parents(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .ignore(true)
        .follow_links(true)
        .add_custom_ignore_filename(".cairnignore")
        .threads(std::thread::available_parallelism().map_or(2, |n| n.get().min(8)));

    let found: Mutex<Vec<(FileEntry, Option<FileIdentity>)>> = Mutex::new(Vec::new());
    let walk_problems: Mutex<Vec<Diagnostic>> = Mutex::new(Vec::new());
    let folders: Mutex<Vec<(PathBuf, Stamp)>> = Mutex::new(Vec::new());
    // Set when the walk met something whose later change no folder stamp would
    // show: a folder it could not stamp, an entry it could not read or follow (a
    // broken symlink may start to resolve), a note name that is not a file.
    let unstamped = AtomicBool::new(false);
    let max_depth = limits.max_depth;
    let templates = limits.templates.as_deref();
    builder.build_parallel().run(|| {
        let found = &found;
        let problems = &walk_problems;
        let folders = &folders;
        let unstamped = &unstamped;
        Box::new(move |entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    let (path, msg) = walk_error(vault, &err);
                    push(
                        problems,
                        diag(&path, None, Severity::Warning, "walk-error", msg),
                    );
                    unstamped.store(true, Ordering::Relaxed);
                    return ignore::WalkState::Continue;
                }
            };
            let rel = rel_path(vault, entry.path());
            let depth = rel.matches('/').count();
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if entry.path_is_symlink() && leads_outside(real_vault, entry.path()) {
                // Its target may change without any folder of the vault moving:
                // the next listing walks again.
                unstamped.store(true, Ordering::Relaxed);
                if is_dir || is_note_file(&entry.file_name().to_string_lossy()) {
                    push(
                        problems,
                        diag(
                            &rel,
                            None,
                            Severity::Warning,
                            "outside-vault",
                            "symlink leading outside the vault; not read".into(),
                        ),
                    );
                }
                return if is_dir {
                    ignore::WalkState::Skip
                } else {
                    ignore::WalkState::Continue
                };
            }
            if is_dir {
                if entry.depth() > 0
                    && (is_templates_folder(&rel, templates) || is_copies_folder(&rel))
                {
                    return ignore::WalkState::Skip;
                }
                if depth >= max_depth && entry.depth() > 0 {
                    push(
                        problems,
                        diag(
                            &rel,
                            None,
                            Severity::Warning,
                            "limit-depth",
                            format!("folder deeper than max_depth ({max_depth}); not read"),
                        ),
                    );
                    return ignore::WalkState::Skip;
                }
                match Stamp::of(entry.path()) {
                    Ok(s) => push(folders, (entry.path().to_path_buf(), s)),
                    Err(_) => unstamped.store(true, Ordering::Relaxed),
                }
                return ignore::WalkState::Continue;
            }
            let name = entry.file_name().to_string_lossy();
            if !is_note_file(&name) || is_template_file(&name) {
                return ignore::WalkState::Continue;
            }
            match entry.metadata() {
                Ok(md) if md.is_file() => {
                    let file = FileEntry {
                        path: rel,
                        abs: entry.path().to_path_buf(),
                        size: md.len(),
                        mtime_ns: walk::mtime_ns(&md),
                    };
                    push(found, (file, file_identity(&md)));
                }
                Ok(_) => unstamped.store(true, Ordering::Relaxed),
                Err(err) => {
                    unstamped.store(true, Ordering::Relaxed);
                    push(
                        problems,
                        diag(
                            &rel,
                            None,
                            Severity::Warning,
                            "unreadable",
                            format!("cannot stat: {err}"),
                        ),
                    );
                }
            }
            ignore::WalkState::Continue
        })
    });

    let mut found = found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    problems.extend(
        walk_problems
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    found.sort_by(|a, b| a.0.path.cmp(&b.0.path));
    let mut folders = folders
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    folders.sort_by(|a, b| a.0.cmp(&b.0));
    walk.folders = folders;
    walk.stamp_watched(&root_dirs, &missing);
    if unstamped.into_inner() {
        walk.distrust();
    }
    finish(found, problems, limits, walk)
}

/// Whether a folder on the way from `outer` down to `inner` (inside it) is
/// hidden (its name starts with `.`): a walk from `outer` never reaches `inner`.
fn hidden_between(outer: &Path, inner: &Path) -> bool {
    inner.strip_prefix(outer).is_ok_and(|rest| {
        rest.components()
            .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    })
}

/// The listing of the note files `found` by a walk (sorted by path), with the
/// walk's `problems`: a file reached twice through symlinks is kept once, and the
/// limits skip files (recorded in `walk.skipped`).
fn finish(
    found: Vec<(FileEntry, Option<FileIdentity>)>,
    mut problems: Vec<Diagnostic>,
    limits: &Limits,
    mut walk: Walk,
) -> Listing {
    problems.sort();
    walk.problems.clone_from(&problems);
    walk.skipped.clear();
    let mut diagnostics = problems;
    // The same file reached twice (a symlink to a note, a symlinked folder
    // inside the vault): keep the file's own path, with no symlink on the way
    // (a held-out trial: a KEP's old name, a symlink sorting first, took the
    // note's place), else the first.
    let mut kept: rustc_hash::FxHashMap<FileIdentity, usize> = rustc_hash::FxHashMap::default();
    kept.reserve(found.len());
    for (i, (file, identity)) in found.iter().enumerate() {
        let Some(id) = identity else { continue };
        match kept.entry(*id) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i);
            }
            std::collections::hash_map::Entry::Occupied(mut o) => {
                if !is_own_path(&found[*o.get()].0) && is_own_path(file) {
                    o.insert(i);
                }
            }
        }
    }
    let mut files = Vec::with_capacity(found.len());
    let mut total: u64 = 0;
    let mut over_count = 0usize;
    let mut over_total = 0usize;
    for (i, (file, identity)) in found.into_iter().enumerate() {
        if let Some(id) = identity
            && kept.get(&id) != Some(&i)
        {
            diagnostics.push(diag(
                &file.path,
                None,
                Severity::Info,
                "duplicate-file",
                "same file as another path (symlink); read once".into(),
            ));
            walk.skipped.push(file.path);
            continue;
        }
        if file.size > limits.max_file_bytes {
            diagnostics.push(diag(
                &file.path,
                None,
                Severity::Warning,
                "limit-file-size",
                format!(
                    "{} bytes is over max_file_bytes ({}); skipped",
                    file.size, limits.max_file_bytes
                ),
            ));
            walk.skipped.push(file.path);
            continue;
        }
        if files.len() >= limits.max_files {
            over_count += 1;
            walk.skipped.push(file.path);
            continue;
        }
        if total + file.size > limits.max_total_bytes {
            over_total += 1;
            walk.skipped.push(file.path);
            continue;
        }
        total += file.size;
        files.push(file);
    }
    if over_count > 0 {
        diagnostics.push(diag("", None, Severity::Warning, "limit-files", format!("{over_count} note files over max_files ({}) skipped (the first in path order were kept)", limits.max_files)));
    }
    if over_total > 0 {
        diagnostics.push(diag(
            "",
            None,
            Severity::Warning,
            "limit-total-bytes",
            format!(
                "{over_total} note files skipped: max_total_bytes ({}) reached",
                limits.max_total_bytes
            ),
        ));
    }
    diagnostics.sort();
    Listing {
        files,
        diagnostics,
        walk,
    }
}

/// Reads and parses `files` in parallel; the result is sorted by path. An entry
/// file (`decisions.md`, `lessons.md`) yields one note per entry (see
/// [`cairn_note::parse_file`]).
pub fn read(files: &[FileEntry]) -> Scan {
    let results: Vec<(Vec<Note>, Vec<Diagnostic>)> = files
        .par_iter()
        .map(|f| match std::fs::read(&f.abs) {
            Ok(bytes) => parse_file(f, &bytes),
            Err(err) => (Vec::new(), vec![unreadable(f, &err)]),
        })
        .collect();
    let mut scan = Scan::default();
    for (notes, diags) in results {
        scan.notes.extend(notes);
        scan.diagnostics.extend(diags);
    }
    scan.notes.sort_by(|a, b| a.path.cmp(&b.path));
    scan.diagnostics.sort();
    scan
}

/// Parses the bytes of one listed file, as [`read`] does for each: its notes (one,
/// or one per entry of a `decisions.md`/`lessons.md` entry file; none when the
/// file is skipped), each with its `mtime` taken from the listing, and the
/// parser's diagnostics.
///
/// A `README.md`, `index.md` or `_index.md` at the vault's top with neither a
/// front-matter title nor an H1 is titled by the vault folder's name (the parser
/// knows paths inside the vault only).
pub fn parse_file(file: &FileEntry, bytes: &[u8]) -> (Vec<Note>, Vec<Diagnostic>) {
    let parsed = cairn_note::parse_file(&file.path, bytes);
    let mtime = i64::try_from(file.mtime_ns / 1_000_000_000).ok();
    let notes = parsed
        .notes
        .into_iter()
        .map(|mut n| {
            n.mtime = mtime;
            if !n.path.contains('/')
                && n.entry_of.is_none()
                && cairn_note::is_index_file(&n.path)
                && n.title == n.stem()
                && let Some(vault) = file.abs.parent().and_then(Path::file_name)
            {
                let name = cairn_note::humanize(&vault.to_string_lossy());
                if !name.is_empty() {
                    n.title = name;
                }
            }
            n
        })
        .collect();
    (notes, parsed.diagnostics)
}

/// Whether `file`'s path is its own: with every symlink resolved, it still
/// ends with its vault-relative path (no symlink on the way below the vault).
fn is_own_path(file: &FileEntry) -> bool {
    file.abs
        .canonicalize()
        .is_ok_and(|real| real.ends_with(Path::new(&file.path)))
}

/// Whether `path`, with every symlink resolved, lies outside the vault whose
/// real (canonical) root is `real_vault` (a path that does not resolve leads
/// nowhere: it is reported as unreadable elsewhere).
pub fn leads_outside(real_vault: &Path, path: &Path) -> bool {
    path.canonicalize()
        .is_ok_and(|real| !real.starts_with(real_vault))
}

/// Reads the file at `abs` if it lies inside the vault whose real (canonical)
/// root is `real_vault`, every symlink resolved; a file reached through a
/// symlink that leads outside is refused (`PermissionDenied`), never read.
pub fn read_inside(real_vault: &Path, abs: &Path) -> std::io::Result<Vec<u8>> {
    let real = abs.canonicalize()?;
    if !real.starts_with(real_vault) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the path leads outside the vault",
        ));
    }
    std::fs::read(real)
}

/// The diagnostic [`read`] reports for a listed file it cannot read.
pub fn unreadable(file: &FileEntry, err: &std::io::Error) -> Diagnostic {
    diag(
        &file.path,
        None,
        Severity::Error,
        "unreadable",
        format!("cannot read: {err}; skipped"),
    )
}

fn push<T>(m: &Mutex<Vec<T>>, item: T) {
    m.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(item);
}

fn diag(
    path: &str,
    line: Option<usize>,
    severity: Severity,
    code: &str,
    message: String,
) -> Diagnostic {
    Diagnostic {
        path: path.to_owned(),
        line,
        severity,
        code: code.to_owned(),
        message,
    }
}

/// Vault-relative, `/`-separated.
pub fn rel_path(vault: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(vault).unwrap_or(p);
    // Fast path (every path on Unix): already `/`-separated UTF-8 without `.` parts.
    if std::path::MAIN_SEPARATOR == '/'
        && let Some(s) = rel.to_str()
        && !s.starts_with('/')
        && !s.ends_with('/')
        && !s.contains("//")
        && !s.split('/').any(|c| c == ".")
    {
        return s.to_owned();
    }
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn walk_error(vault: &Path, err: &ignore::Error) -> (String, String) {
    let mut path = String::new();
    let mut e = err;
    loop {
        match e {
            ignore::Error::WithPath { path: p, err } => {
                path = rel_path(vault, p);
                e = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                e = err;
            }
            ignore::Error::Loop { child, .. } => {
                return (rel_path(vault, child), "symlink loop; not followed".into());
            }
            other => return (path, format!("{other}; skipped")),
        }
    }
}

/// (device, inode): the same file reached by two paths.
pub(crate) type FileIdentity = (u64, u64);

#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)] // `None` where files have no inode (below).
pub(crate) fn file_identity(md: &std::fs::Metadata) -> Option<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    Some((md.dev(), md.ino()))
}

#[cfg(not(unix))]
fn file_identity(_md: &std::fs::Metadata) -> Option<FileIdentity> {
    None
}
