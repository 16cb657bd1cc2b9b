//! The stat pass in front of the status, as git's own preload of the index:
//! every tracked file whose stat data matches its index entry is marked up to
//! date (`UPTODATE`, a flag that lives in memory only), and gix's status then
//! looks only at the others.
//!
//! A file system monitor's marks (`FSMONITOR_VALID`) are dropped from the copy:
//! git trusts them only after asking the monitor what changed, which cairn does
//! not do. An entry is marked exactly when gix's status would find it unchanged
//! from its stat data alone (`gix_status::index_as_worktree`): not skipped by its flags, not
//! a conflict, not added with intent, not a submodule; its path plain (no `.`,
//! `..`, empty or absolute part: gix's status rejects such a path, and only a
//! damaged index holds one); every folder on the way a real folder (gix only
//! refuses symbolic links there: stricter is safe); neither a folder nor another
//! kind of file than its entry says; the stat
//! data matching under the repository's `core.checkStat` and `core.trustCTime`;
//! not an empty blob with a size; and not "racy" (changed in the same second as
//! the index was written, where only the contents can tell). Everything else is
//! left to gix, which reads contents, filters and submodules as git does, so the
//! answer is the status's whatever this pass decides. The pass does what gix
//! does per entry without its general machinery (path stacks, pathspecs,
//! attributes), and stats each file by its path relative to the process's folder
//! when the repository was opened there (`tree::open`). On four cores or more
//! the stats of a large index run on a few threads, as git's own preload does
//! (`stat_threads`); the rest of the pass on one.

use std::collections::HashMap;
use std::path::Path;

use gix::index::entry::{Flags, Stat};

/// The stat data of the real folders (not links) the stat pass looked at, by
/// index path: what a folder's `stat` gives too, read once.
pub(crate) type FolderStats = HashMap<Vec<u8>, std::fs::Metadata>;

/// Marks the entries of `index` (read for this status, not gix's shared
/// snapshot) that the stat data shows unchanged up to date, and gives the stat
/// data of the folders it looked at; leaves the index as it is and returns
/// `None` when the repository has no working tree or its stat or file-system
/// options cannot be read (the status then compares every entry).
pub(crate) fn mark_unchanged(
    repo: &gix::Repository,
    index: &mut gix::index::File,
) -> Option<FolderStats> {
    mark_unchanged_on(repo, index, stat_threads)
}

/// [`mark_unchanged`], statting `n` files on `threads(n)` threads.
fn mark_unchanged_on(
    repo: &gix::Repository,
    index: &mut gix::index::File,
    threads: fn(usize) -> usize,
) -> Option<FolderStats> {
    let (Ok(caps), Ok(options), Some(root)) = (
        repo.filesystem_options(),
        repo.stat_options(),
        repo.workdir(),
    ) else {
        return None;
    };
    let written = index.timestamp();
    let mut folders = Folders::default();
    let mut joined = Joined::new(root);
    let (entries, paths) = index.entries_mut_and_pathbacking();
    // The entries to stat, in index order: the folder checks share what they
    // saw from one file to the next, so they run here, on one thread.
    let mut todo: Vec<usize> = Vec::new();
    for (at, entry) in entries.iter_mut().enumerate() {
        // A file system monitor's mark says "unchanged when the monitor was last
        // asked"; git asks it again before trusting the mark, cairn does not ask
        // it, so the mark is dropped and the stat data decides (gix's status
        // would skip a marked entry).
        entry.flags.remove(Flags::FSMONITOR_VALID);
        if entry
            .flags
            .intersects(Flags::SKIP_WORKTREE | Flags::ASSUME_VALID | Flags::INTENT_TO_ADD)
            || entry.stage_raw() != 0
            || entry.mode.is_submodule()
        {
            continue;
        }
        let bytes: &[u8] = entry.path_in(paths);
        if plain(bytes) && folders.no_link_on_the_way(&mut joined, bytes) {
            todo.push(at);
        }
    }
    // One `lstat` per file, the pass's whole cost: on several threads where
    // there are cores to spare (`stat_threads`), as git's own preload does
    // (`core.preloadIndex`), each with its own path buffer.
    let shared: &[gix::index::Entry] = entries;
    let unchanged = |entry: &gix::index::Entry, joined: &mut Joined| {
        let Some(Ok(meta)) = joined.with(
            entry.path_in(paths),
            gix::index::fs::Metadata::from_path_no_follow,
        ) else {
            return false;
        };
        if meta.is_dir()
            || entry
                .mode
                .change_to_match_fs(&meta, caps.symlink, caps.executable_bit)
                .is_some()
        {
            return false;
        }
        let Ok(now) = Stat::from_fs(&meta) else {
            return false;
        };
        now.matches(&entry.stat, options)
            && (!entry.id.is_empty_blob() || entry.stat.size == 0)
            && !now.is_racy(written, options)
    };
    let up_to_date_of = |chunk: &[usize], joined: &mut Joined| -> Vec<usize> {
        chunk
            .iter()
            .copied()
            .filter(|&at| unchanged(&shared[at], joined))
            .collect()
    };
    let threads = threads(todo.len());
    let up_to_date: Vec<usize> = if threads <= 1 {
        up_to_date_of(&todo, &mut joined)
    } else {
        let per_thread = todo.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let running: Vec<_> = todo
                .chunks(per_thread)
                .map(|chunk| {
                    let up_to_date_of = &up_to_date_of;
                    scope.spawn(move || up_to_date_of(chunk, &mut Joined::new(root)))
                })
                .collect();
            // A thread that panicked marks nothing: its entries are left to
            // the status, which compares them itself.
            running
                .into_iter()
                .flat_map(|t| t.join().unwrap_or_default())
                .collect()
        })
    };
    for at in up_to_date {
        entries[at].flags.insert(Flags::UPTODATE);
    }
    Some(folders.into_stats())
}

/// Files one stat thread takes at least: below, a thread costs more than it
/// saves (git's `THREAD_COST`).
const FILES_PER_STAT_THREAD: usize = 500;

/// Most threads of the stat pass (git's preload takes up to 20).
const MAX_STAT_THREADS: usize = 8;

/// How many threads stat `files` files: one per [`FILES_PER_STAT_THREAD`],
/// at most half the cores (the vault is listed on all of them at the same
/// time) and [`MAX_STAT_THREADS`]. On two cores, one: a second thread there
/// only shared them with the listing, and the hook was no faster (measured on
/// the reference and on an 11,000-file repository).
fn stat_threads(files: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    (files / FILES_PER_STAT_THREAD).clamp(1, (cores / 2).clamp(1, MAX_STAT_THREADS))
}

/// Whether an index path is plain: `/`-separated parts, none empty, `.` or `..`
/// (so also not absolute).
fn plain(path: &[u8]) -> bool {
    !path.is_empty()
        && path
            .split(|&b| b == b'/')
            .all(|part| !part.is_empty() && part != b"." && part != b"..")
}

/// `root` joined with index paths, in one buffer reused from path to path (the
/// pass joins one per tracked file).
struct Joined {
    /// `root` and a separator, then the last path (unix, where an index path's
    /// bytes are what the kernel takes).
    #[cfg(unix)]
    buf: Vec<u8>,
    #[cfg(unix)]
    root_len: usize,
    #[cfg(not(unix))]
    root: std::path::PathBuf,
}

impl Joined {
    fn new(root: &Path) -> Self {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let mut buf = root.as_os_str().as_bytes().to_vec();
            if !buf.is_empty() && !buf.ends_with(b"/") {
                buf.push(b'/');
            }
            let root_len = buf.len();
            Self { buf, root_len }
        }
        #[cfg(not(unix))]
        Self {
            root: root.to_path_buf(),
        }
    }

    /// `f` of `root` joined with the index path `rela`; `None` when `rela` is
    /// not a path on this system (never on unix).
    #[allow(clippy::unnecessary_wraps)]
    fn with<R>(&mut self, rela: &[u8], f: impl FnOnce(&Path) -> R) -> Option<R> {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            self.buf.truncate(self.root_len);
            self.buf.extend_from_slice(rela);
            Some(f(Path::new(std::ffi::OsStr::from_bytes(&self.buf))))
        }
        #[cfg(not(unix))]
        {
            let rela = gix::path::from_bstr(gix::bstr::BStr::new(rela)).ok()?;
            Some(f(&self.root.join(rela)))
        }
    }
}

/// The folders already looked at, each once: whether it is a real folder (not a
/// symbolic link, as gix's status requires of every folder on a file's way).
/// Folders are index paths (`/`-separated bytes).
#[derive(Default)]
struct Folders {
    /// Each folder looked at: its stat data when it is a real folder.
    seen: HashMap<Vec<u8>, Option<std::fs::Metadata>>,
    /// The last file's folder, when it was all real folders (the index is
    /// sorted by path: most files share their folder with the one before).
    last: Option<Vec<u8>>,
}

impl Folders {
    /// The stat data of the real folders looked at.
    fn into_stats(self) -> FolderStats {
        self.seen
            .into_iter()
            .filter_map(|(folder, meta)| Some((folder, meta?)))
            .collect()
    }

    /// Whether every folder between the root `joined` joins to and the file at
    /// the index path `rela` is a real folder.
    fn no_link_on_the_way(&mut self, joined: &mut Joined, rela: &[u8]) -> bool {
        let Some(end) = rela.iter().rposition(|&b| b == b'/') else {
            return true;
        };
        let parent = &rela[..end];
        if self.last.as_deref() == Some(parent) {
            return true;
        }
        let ends = parent
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'/')
            .map(|(i, _)| i)
            .chain([parent.len()]);
        for at in ends {
            let folder = &parent[..at];
            let real = if let Some(seen) = self.seen.get(folder) {
                seen.is_some()
            } else {
                let meta = joined
                    .with(folder, |p| {
                        std::fs::symlink_metadata(p)
                            .ok()
                            .filter(std::fs::Metadata::is_dir)
                    })
                    .flatten();
                let real = meta.is_some();
                self.seen.insert(folder.to_vec(), meta);
                real
            };
            if !real {
                return false;
            }
        }
        self.last = Some(parent.to_vec());
        true
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use cairn_synth::git::Repo;

    fn marked(repo: &gix::Repository, index: &gix::index::File) -> Vec<String> {
        let mut m = index.clone();
        assert!(mark_unchanged(repo, &mut m).is_some());
        m.entries()
            .iter()
            .filter(|e| e.flags.contains(Flags::UPTODATE))
            .map(|e| e.path(&m).to_string())
            .collect()
    }

    /// The stat pass on several threads marks what it marks on one: files an
    /// hour old, but those changed since the index was refreshed, wherever
    /// they fall among the threads' shares.
    #[test]
    fn several_threads_mark_what_one_does() {
        let r = Repo::new();
        let files: Vec<(String, String)> = (0..1_200)
            .map(|i| (format!("src/m{:02}/f{i:04}.rs", i / 100), format!("{i}\n")))
            .collect();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect();
        r.commit("2026-01-10T09:00:00Z", "Files", &refs);
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3_600);
        for (f, _) in &files {
            std::fs::File::open(r.dir.path().join(f))
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        r.git(&["update-index", "-q", "--really-refresh"]);
        let changed = [0, 399, 400, 801, 1_199];
        for i in changed {
            r.write(&files[i].0, "changed\n");
        }
        let repo = gix::open(r.path()).unwrap();
        let index = repo.index_or_empty().unwrap().as_ref().clone();
        let on = |threads: fn(usize) -> usize| {
            let mut m = index.clone();
            assert!(mark_unchanged_on(&repo, &mut m, threads).is_some());
            m.entries()
                .iter()
                .filter(|e| e.flags.contains(Flags::UPTODATE))
                .map(|e| e.path(&m).to_string())
                .collect::<Vec<_>>()
        };
        let one = on(|_| 1);
        let want: Vec<String> = files
            .iter()
            .enumerate()
            .filter(|(i, _)| !changed.contains(i))
            .map(|(_, (p, _))| p.clone())
            .collect();
        assert_eq!(one, want);
        assert_eq!(on(|_| 3), one);
        assert_eq!(on(|_| 7), one);
        assert_eq!(stat_threads(10), 1);
        assert!(stat_threads(100_000) <= MAX_STAT_THREADS);
    }

    /// Files an hour old with the index refreshed after are marked; a changed one
    /// is not; an entry whose time is not older than the index's is "racy" and is
    /// not marked even when its stat data matches (only contents can tell).
    #[test]
    fn unchanged_files_are_marked_and_racy_or_changed_ones_are_not() {
        let r = Repo::new();
        r.commit(
            "2026-01-10T09:00:00Z",
            "Files",
            &[("a.rs", "a\n"), ("src/b.rs", "b\n"), ("src/c.rs", "c\n")],
        );
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3_600);
        for f in ["a.rs", "src/b.rs", "src/c.rs"] {
            std::fs::File::open(r.dir.path().join(f))
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        r.git(&["update-index", "-q", "--really-refresh"]);
        r.write("src/c.rs", "changed\n");
        let repo = gix::open(r.path()).unwrap();
        let mut index = repo.index_or_empty().unwrap().as_ref().clone();
        assert_eq!(marked(&repo, &index), ["a.rs", "src/b.rs"]);
        for bad in [
            "",
            "/a.rs",
            "../a.rs",
            "src/../a.rs",
            "./a.rs",
            "src//b.rs",
            "src/.",
        ] {
            assert!(!plain(bad.as_bytes()), "{bad}");
        }
        assert!(plain(b"src/b.rs") && plain(b".github/x.yml") && plain(b"a..b"));

        // The index "written" in the same second as `a.rs` was last changed.
        let a = gix::index::fs::Metadata::from_path_no_follow(&r.dir.path().join("a.rs")).unwrap();
        let a_time = Stat::from_fs(&a).unwrap().mtime;
        let second = std::time::UNIX_EPOCH + std::time::Duration::from_secs(u64::from(a_time.secs));
        index.set_timestamp(second.into());
        assert_eq!(marked(&repo, &index), Vec::<String>::new());
    }
}
