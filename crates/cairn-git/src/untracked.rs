//! The untracked files of a working tree, and a cache of them in the manner of
//! git's own untracked cache: a directory walk reads every folder that is not
//! ignored, while the cache only looks at each folder's stat data.
//!
//! The cache file is valid while all of these are as it names them:
//! - the index (its checksum: which files are tracked, and the ignore files
//!   read from it);
//! - the walk's options and the global ignore files (`info/exclude`,
//!   `core.excludesFile` or the XDG default), by path and stat data;
//! - every folder the walk read, and every folder it saw and did not read
//!   unless an ignore rule matched it (a nested repository), by stat data: a
//!   file added, removed or renamed in a folder changes the folder's times;
//! - every `.gitignore` in a folder the walk read, by stat data: an ignore
//!   file edited in place does not change its folder's times;
//! - every `.git` in a recorded folder (and the git dir a `.git` file names), by
//!   stat data: whether a folder is a nested repository, which the walk does not
//!   read into, is decided inside it.
//!
//! A cache is only written when every modification time it records is more
//! than [`RACY_MARGIN`] older than the walk (a folder changed during the walk,
//! or within the file system's time resolution of it, could otherwise keep its
//! time and lose the change), and when each folder and its `.gitignore` have
//! the stat data they had just before the walk read them (a tool that restores
//! a folder's time after changing it, as `tar` or `rsync -a` do, still changes
//! its change time). Anything unreadable, or any path that is not UTF-8 or holds
//! a line break or a carriage return, means no cache: the walk runs each time.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::GitError;

/// How much older than the walk every recorded time must be for the cache to be written.
const RACY_MARGIN: Duration = Duration::from_secs(2);

/// First word of an untracked-files cache file (its format's version).
const MAGIC: &str = "cairn-git-untracked-1";

/// The untracked files of `repo`'s working tree (as `git status -uall` lists
/// them, without `.git` folders of nested repositories' contents), read from
/// `cache` when it is still valid, else walked and written there. `known`:
/// folders whose stat data the stat pass just read (real folders, so what
/// `stat` gives too): the cache's check takes them from there.
pub(crate) fn untracked_files(
    repo: &gix::Repository,
    workdir: &Path,
    index: &gix::index::File,
    cache: Option<&Path>,
    known: &crate::preload::FolderStats,
) -> Result<Vec<String>, GitError> {
    let options = repo
        .dirwalk_options()
        .map_err(|e| GitError::read("the directory walk's options", &e))?
        .emit_untracked(gix::dir::walk::EmissionMode::Matching);
    let key = cache.and_then(|_| Key::of(repo, index, &options));
    if let (Some(file), Some(key)) = (cache, &key)
        && let Some(files) = read_cache(file, &key.line, workdir, known)
    {
        return Ok(files);
    }
    let started = SystemTime::now();
    let mut seen = Recorder::new(workdir);
    let interrupt = std::sync::atomic::AtomicBool::new(false);
    repo.dirwalk(
        index,
        std::iter::empty::<&str>(),
        &interrupt,
        options,
        &mut seen,
    )
    .map_err(|e| GitError::read("the untracked files", &e))?;
    let mut files = seen.untracked;
    files.sort();
    files.dedup();
    if let (Some(file), Some(key)) = (cache, key)
        && seen.representable
        && let Some(text) = cache_text(&key, workdir, &seen.folders, &files, started)
    {
        crate::tree::write_cache_file(file, "git-untracked", &text);
    }
    Ok(files)
}

/// What the walk emitted and which folders it looked at.
struct Recorder<'a> {
    workdir: &'a Path,
    /// The untracked entries, as status shows them.
    untracked: Vec<String>,
    /// The folders read, and those seen and not read unless an ignore rule
    /// matched them (`""` is the root), each with the stat data of the folder
    /// and of its `.gitignore` just before the walk read it.
    folders: BTreeMap<String, (Option<Stamp>, Option<Stamp>)>,
    /// `false` once a path was seen that the cache file cannot hold.
    representable: bool,
}

impl<'a> Recorder<'a> {
    fn new(workdir: &'a Path) -> Self {
        Self {
            workdir,
            untracked: Vec::new(),
            folders: BTreeMap::new(),
            representable: true,
        }
    }

    /// `rela` as text (noting when the cache file could not hold it).
    fn path(&mut self, rela: &gix::bstr::BStr) -> String {
        match std::str::from_utf8(rela) {
            Ok(s) if !s.contains(['\n', '\r']) => s.to_owned(),
            _ => {
                self.representable = false;
                rela.to_string()
            }
        }
    }
}

impl gix::dir::walk::Delegate for Recorder<'_> {
    fn emit(
        &mut self,
        entry: gix::dir::EntryRef<'_>,
        _collapsed_directory_status: Option<gix::dir::entry::Status>,
    ) -> gix::dir::walk::Action {
        // As status: never entries of an untrackable kind (sockets, pipes).
        if entry.disk_kind != Some(gix::dir::entry::Kind::Untrackable) {
            let path = self.path(&entry.rela_path);
            self.untracked.push(path);
        }
        std::ops::ControlFlow::Continue(())
    }

    fn can_recurse(
        &mut self,
        entry: gix::dir::EntryRef<'_>,
        for_deletion: Option<gix::dir::walk::ForDeletionMode>,
        worktree_root_is_repository: bool,
    ) -> bool {
        let recurse = entry.status.can_recurse(
            entry.disk_kind,
            entry.pathspec_match,
            for_deletion,
            worktree_root_is_repository,
        );
        if recurse || !matches!(entry.status, gix::dir::entry::Status::Ignored(_)) {
            let path = self.path(&entry.rela_path);
            let dir = folder(self.workdir, &path);
            let before = (stamp(&dir), stamp(&dir.join(".gitignore")));
            self.folders.entry(path).or_insert(before);
        }
        recurse
    }
}

/// The cache's first line, and the stat data of the global ignore files it names.
struct Key {
    line: String,
    globals: Vec<Stamp>,
}

impl Key {
    /// The format, the index, the walk's options and the global ignore files.
    /// `None` when the index has no checksum (never written, or
    /// `index.skipHash`), or an ignore file cannot be stamped or named on a line.
    fn of(
        repo: &gix::Repository,
        index: &gix::index::File,
        options: &gix::dirwalk::Options,
    ) -> Option<Self> {
        let sum = index.checksum()?;
        // gix's reading of `$pattern` lines in ignore files (precious files).
        let precious = repo
            .config_snapshot()
            .boolean("gitoxide.parsePrecious")
            .unwrap_or(false);
        let mut line = format!("{MAGIC} {sum} {options:?} precious={precious}");
        // Named by their canonical paths: a repository opened relative to the
        // current folder (see `tree::open`) keys the same cache.
        let mut paths = vec![
            crate::tree::canonical(repo.git_dir())
                .join("info")
                .join("exclude"),
            crate::tree::canonical(repo.common_dir())
                .join("info")
                .join("exclude"),
        ];
        if let Ok(Some(p)) = repo.config_snapshot().trusted_path("core.excludesFile") {
            paths.push(p);
        }
        if let Some(x) = std::env::var_os("XDG_CONFIG_HOME") {
            paths.push(Path::new(&x).join("git").join("ignore"));
        }
        // The home folder as gix finds it (`$HOME`, else the system's record).
        if let Some(h) = gix::path::env::home_dir() {
            paths.push(h.join(".config").join("git").join("ignore"));
        }
        paths.dedup();
        let mut globals = Vec::with_capacity(paths.len());
        for p in paths {
            let name = p.to_str().filter(|n| !n.contains('\n'))?;
            let s = stamp(&p)?;
            line.push_str(&format!(" | {} {name}", s.text()));
            globals.push(s);
        }
        Some(Self { line, globals })
    }
}

/// A file's or folder's stat data, as far as the cache compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stamp {
    Absent,
    #[cfg_attr(not(unix), allow(dead_code))]
    Present {
        ino: u64,
        size: u64,
        mtime: (i64, i64),
        ctime: (i64, i64),
    },
}

impl Stamp {
    fn text(&self) -> String {
        match self {
            Stamp::Absent => "-".to_owned(),
            Stamp::Present {
                ino,
                size,
                mtime,
                ctime,
            } => format!(
                "{ino}:{size}:{}.{}:{}.{}",
                mtime.0, mtime.1, ctime.0, ctime.1
            ),
        }
    }

    /// Whether its modification time is older than `than`. (Its change time is
    /// compared on reading, not here: every change that can alter a walk's
    /// answer also sets the modification time to the current time.)
    fn older_than(&self, than: SystemTime) -> bool {
        let Ok(than) = than.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let Ok(than) = i64::try_from(than.as_secs()) else {
            return false;
        };
        match self {
            Stamp::Absent => true,
            Stamp::Present { mtime, .. } => mtime.0 < than,
        }
    }
}

/// `path`'s stat data (following a symbolic link); `None` where it cannot be
/// read or on a system without inode numbers and change times.
fn stamp(path: &Path) -> Option<Stamp> {
    match std::fs::metadata(path) {
        Ok(m) => present(&m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Stamp::Absent),
        Err(_) => None,
    }
}

#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)]
fn present(m: &std::fs::Metadata) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    Some(Stamp::Present {
        ino: m.ino(),
        size: m.size(),
        mtime: (m.mtime(), m.mtime_nsec()),
        ctime: (m.ctime(), m.ctime_nsec()),
    })
}

#[cfg(not(unix))]
fn present(_: &std::fs::Metadata) -> Option<Stamp> {
    None
}

/// The folder `rela` of `workdir` (`""` is the root).
fn folder(workdir: &Path, rela: &str) -> std::path::PathBuf {
    if rela.is_empty() {
        workdir.to_path_buf()
    } else {
        workdir.join(rela)
    }
}

/// The cache file's text for a walk that started at `started`, or `None` when a
/// recorded time is too recent to be trusted, a folder or its `.gitignore`
/// changed while the walk ran, or something cannot be read.
fn cache_text(
    key: &Key,
    workdir: &Path,
    folders: &BTreeMap<String, (Option<Stamp>, Option<Stamp>)>,
    files: &[String],
    started: SystemTime,
) -> Option<String> {
    let trusted = started.checked_sub(RACY_MARGIN)?;
    if !key.globals.iter().all(|g| g.older_than(trusted)) {
        return None;
    }
    let mut text = format!("{}\n", key.line);
    for (rela, before) in folders {
        let dir = folder(workdir, rela);
        let s = stamp(&dir)?;
        // An ignore file that appears changes its folder's times; one edited in
        // place changes only its own.
        let g = stamp(&dir.join(".gitignore"))?;
        if *before != (Some(s.clone()), Some(g.clone())) || !s.older_than(trusted) {
            return None;
        }
        text.push_str(&format!("d {} {rela}\n", s.text()));
        if g != Stamp::Absent {
            if !g.older_than(trusted) {
                return None;
            }
            text.push_str(&format!("g {} {rela}\n", g.text()));
        }
        // A `.git` that appears changes the folder's times; one that is filled
        // in, emptied or whose git dir goes away does not.
        if !rela.is_empty() {
            let r = dot_git(&dir)?;
            if !r.iter().all(|s| s.older_than(trusted)) {
                return None;
            }
            if !r.is_empty() {
                text.push_str(&format!("r {} {rela}\n", stamps_text(&r)));
            }
        }
    }
    for f in files {
        text.push_str(&format!("u {f}\n"));
    }
    Some(text)
}

/// The stat data of `dir/.git` and, for a `.git` file, of the git dir it names
/// (what decides whether `dir` is a nested repository); empty when there is none.
fn dot_git(dir: &Path) -> Option<Vec<Stamp>> {
    let p = dir.join(".git");
    let s = stamp(&p)?;
    if s == Stamp::Absent {
        return Some(Vec::new());
    }
    let mut stamps = vec![s];
    if p.is_file() {
        let content = std::fs::read_to_string(&p).ok()?;
        let target = content.strip_prefix("gitdir: ")?.trim_end();
        stamps.push(stamp(&dir.join(target))?);
    }
    Some(stamps)
}

/// Stamps as one word of a cache line.
fn stamps_text(stamps: &[Stamp]) -> String {
    stamps.iter().map(Stamp::text).collect::<Vec<_>>().join("/")
}

/// The untracked files `file` holds, when its key is `key` and every folder
/// and ignore file it names still has the stat data it recorded.
fn read_cache(
    file: &Path,
    key: &str,
    workdir: &Path,
    known: &crate::preload::FolderStats,
) -> Option<Vec<String>> {
    let text = crate::tree::read_cache_file(file)?;
    // Lines end with `\n` only (a path never holds `\r`: such a walk is not cached).
    let mut lines = text.strip_suffix('\n')?.split('\n');
    if lines.next()? != key {
        return None;
    }
    let mut files = Vec::new();
    for line in lines {
        let (kind, rest) = line.split_once(' ')?;
        match kind {
            "u" => files.push(rest.to_owned()),
            "r" => {
                let (recorded, rela) = rest.split_once(' ')?;
                if stamps_text(&dot_git(&folder(workdir, rela))?) != recorded {
                    return None;
                }
            }
            "d" | "g" => {
                let (recorded, rela) = rest.split_once(' ').unwrap_or((rest, ""));
                let dir = folder(workdir, rela);
                let now = if kind == "g" {
                    stamp(&dir.join(".gitignore"))?
                } else if let Some(meta) = known.get(rela.as_bytes()) {
                    present(meta)?
                } else {
                    stamp(&dir)?
                };
                if now.text() != recorded {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(files)
}
