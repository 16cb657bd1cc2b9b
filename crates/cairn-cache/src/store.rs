//! The cache folder on disk: immutable generation folders, the `CURRENT` pointer
//! that names the published one, the writer lock, atomic writes and clean-up.
//!
//! ```text
//! <cache dir>/
//!   CURRENT                 "gen-00000007-4242\n": the published generation
//!   lock                    held (flock) by the one process writing a generation
//!   vault.txt               which vault this folder indexes (for humans)
//!   gen-00000007-4242/      a generation, never modified once published:
//!     manifest.bin          files, hashes, note metadata (see `manifest`)
//!     index/                the tantivy index of exactly those notes
//! ```
//! Everything cairn creates here is private to the user: folders 0700, files
//! 0600 (Unix), set at creation, not after (tantivy's own files are narrowed
//! inside a generation folder that is 0700 from the start). Anything else found
//! under a name cairn owns (a folder where `CURRENT` or `lock` should be, a file
//! named like a generation) is removed by the next writer.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fs4::fs_std::FileExt;

/// The pointer file.
pub(crate) const CURRENT: &str = "CURRENT";
/// The lock file.
pub(crate) const LOCK: &str = "lock";
/// The manifest inside a generation.
pub(crate) const MANIFEST: &str = "manifest.bin";
/// The index folder inside a generation.
pub(crate) const INDEX: &str = "index";
const GEN_PREFIX: &str = "gen-";

/// Whether `name` is a generation folder name (and safe to join to the cache dir).
pub(crate) fn is_generation_name(name: &str) -> bool {
    name.strip_prefix(GEN_PREFIX).is_some_and(|rest| {
        !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit() || c == '-')
    })
}

/// The published generation's folder name, if any. A pointer that cannot be
/// read (not a file, unreadable, not UTF-8) or does not name a generation is
/// reported as `Err(InvalidData)`: a damaged cache.
pub(crate) fn read_current(dir: &Path) -> io::Result<Option<String>> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    match std::fs::read_to_string(dir.join(CURRENT)) {
        Ok(s) => {
            let name = s.trim();
            if is_generation_name(name) {
                Ok(Some(name.to_owned()))
            } else {
                Err(invalid("CURRENT does not name a generation".into()))
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(invalid(format!("CURRENT cannot be read: {e}"))),
    }
}

/// Points `CURRENT` at generation `name`, atomically (a folder in its place is
/// removed first: a rename cannot replace it).
pub(crate) fn publish(dir: &Path, name: &str) -> io::Result<()> {
    let current = dir.join(CURRENT);
    if std::fs::symlink_metadata(&current).is_ok_and(|m| m.is_dir()) {
        remove_any(&current)?;
    }
    write_atomic(&current, format!("{name}\n").as_bytes())
}

/// Creates `dir` and its missing parents, each private (0700 on Unix).
pub(crate) fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    let mut b = DirBuilder::new();
    b.recursive(true);
    private_dir(&mut b);
    b.create(dir)
}

/// Creates the folder `dir` (its parent exists), private (0700 on Unix).
pub(crate) fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut b = DirBuilder::new();
    private_dir(&mut b);
    b.create(dir)
}

#[cfg(unix)]
fn private_dir(b: &mut DirBuilder) {
    use std::os::unix::fs::DirBuilderExt;
    b.mode(0o700);
}

#[cfg(not(unix))]
fn private_dir(_b: &mut DirBuilder) {}

/// Options that create a file private to the user (0600 on Unix).
fn private_file() -> OpenOptions {
    let mut o = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o
}

/// Narrows every file in `dir` (tantivy creates its own with the default
/// permissions) to 0600 and `dir` itself to 0700.
pub(crate) fn make_private(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let md = entry.metadata()?;
            let mode = if md.is_dir() { 0o700 } else { 0o600 };
            if md.permissions().mode() & 0o777 != mode {
                std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode))?;
            }
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Removes whatever is at `path` (file, symlink or folder tree); a folder that
/// cannot be read is opened up to its owner first.
pub(crate) fn remove_any(path: &Path) -> io::Result<()> {
    let md = std::fs::symlink_metadata(path)?;
    if !md.is_dir() {
        return std::fs::remove_file(path);
    }
    if std::fs::remove_dir_all(path).is_ok() {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700));
        if let Ok(rd) = std::fs::read_dir(path) {
            for e in rd.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    let _ =
                        std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o700));
                }
            }
        }
    }
    std::fs::remove_dir_all(path)
}

/// A new, empty generation folder numbered `number`.
pub(crate) fn new_generation(dir: &Path, number: u64) -> io::Result<(String, PathBuf)> {
    for attempt in 0..100u32 {
        let name = format!("{GEN_PREFIX}{number:08}-{}{attempt:02}", std::process::id());
        let path = dir.join(&name);
        match create_private_dir(&path) {
            Ok(()) => return Ok((name, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free generation folder name",
    ))
}

/// Fills `to` (an empty folder) with the index files of `from`: hard links for
/// the immutable segment files, copies for tantivy's small rewritable files.
/// Lock files are not carried over.
pub(crate) fn link_index(from: &Path, to: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if !entry.file_type()?.is_file() {
            continue;
        }
        let name = entry.file_name();
        let name_s = name.to_string_lossy();
        if name_s.ends_with(".lock") {
            continue;
        }
        let src = entry.path();
        let dst = to.join(&name);
        let rewritable = name_s.ends_with(".json");
        if rewritable || std::fs::hard_link(&src, &dst).is_err() {
            copy_private(&src, &dst)?;
        }
    }
    sync_dir(to)
}

/// Copies `src` to a new private file `dst`.
fn copy_private(src: &Path, dst: &Path) -> io::Result<()> {
    let mut from = File::open(src)?;
    let mut to = private_file().write(true).create_new(true).open(dst)?;
    io::copy(&mut from, &mut to)?;
    to.sync_all()
}

/// Writes `bytes` to `path` atomically: private temp file beside it (`.<name>.tmp-…`,
/// a name [`collect_garbage`] removes when a writer dies), fsync, rename, fsync
/// of the folder.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    cairn_atomic_write::StagedFile::beside(path, ".tmp-", 0o600, bytes)?.replace()
}

/// Flushes a folder's entries to disk (a no-op where folders cannot be opened).
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    cairn_atomic_write::sync_dir(dir)
}

/// Removes every generation (folder, or anything else under such a name) and
/// stray temp file except `keep`. Errors are ignored: a folder still in use
/// elsewhere is retried by the next writer.
pub(crate) fn collect_garbage(dir: &Path, keep: &[&str]) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if keep.contains(&name.as_str()) {
            continue;
        }
        if is_generation_name(&name) || (name.starts_with('.') && name.contains(".tmp-")) {
            let _ = remove_any(&entry.path());
        }
    }
}

/// Bytes of the files under `dir`, recursively.
pub(crate) fn disk_usage(dir: &Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    rd.flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => disk_usage(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

/// The exclusive right to write a new generation, held until dropped (or the
/// process dies: the OS releases it, so a crashed writer never blocks the next).
#[derive(Debug)]
pub(crate) struct WriterLock {
    file: File,
}

impl WriterLock {
    /// Takes the lock, waiting for another writer; gives up at `deadline` (`Ok(None)`).
    pub(crate) fn acquire(dir: &Path, deadline: Option<Instant>) -> io::Result<Option<Self>> {
        let path = dir.join(LOCK);
        let open = || {
            private_file()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
        };
        let file = match open() {
            Ok(f) => f,
            // Something that is not a file where the lock should be: not ours to
            // keep (only cairn writes this folder).
            Err(e) if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) => {
                remove_any(&path).map_err(|_| e)?;
                open()?
            }
            Err(e) => return Err(e),
        };
        match deadline {
            None => {
                file.lock_exclusive()?;
                Ok(Some(Self { file }))
            }
            Some(deadline) => loop {
                if file.try_lock_exclusive()? {
                    return Ok(Some(Self { file }));
                }
                if Instant::now() >= deadline {
                    return Ok(None);
                }
                std::thread::sleep(Duration::from_millis(5));
            },
        }
    }

    /// Whether another process holds the lock right now (a writer is at work).
    pub(crate) fn is_held(dir: &Path) -> bool {
        let Ok(file) = OpenOptions::new().write(true).open(dir.join(LOCK)) else {
            return false;
        };
        match file.try_lock_exclusive() {
            Ok(true) => {
                let _ = FileExt::unlock(&file);
                false
            }
            _ => true,
        }
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        let _ = FileExt::unlock(&self.file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_names() {
        assert!(is_generation_name("gen-00000001-123400"));
        assert!(!is_generation_name("gen-"));
        assert!(!is_generation_name("gen-../x"));
        assert!(!is_generation_name("CURRENT"));
    }

    #[test]
    fn current_pointer_round_trip_and_garbage() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(read_current(d.path()).unwrap(), None);
        let (a, _) = new_generation(d.path(), 1).unwrap();
        let (b, _) = new_generation(d.path(), 2).unwrap();
        assert_ne!(a, b);
        publish(d.path(), &b).unwrap();
        assert_eq!(read_current(d.path()).unwrap(), Some(b.clone()));
        std::fs::write(d.path().join(".CURRENT.tmp-1"), "x").unwrap();
        collect_garbage(d.path(), &[&b]);
        assert!(!d.path().join(&a).exists());
        assert!(d.path().join(&b).exists());
        assert!(!d.path().join(".CURRENT.tmp-1").exists());
        std::fs::write(d.path().join(CURRENT), "../../etc\n").unwrap();
        assert!(read_current(d.path()).is_err());
    }

    #[test]
    fn odd_things_under_cairn_names_are_cleared() {
        let d = tempfile::tempdir().unwrap();
        // A file named like a generation, a folder where CURRENT and lock belong.
        std::fs::write(d.path().join("gen-00000001-1"), "x").unwrap();
        std::fs::create_dir_all(d.path().join(CURRENT).join("sub")).unwrap();
        std::fs::create_dir_all(d.path().join(LOCK).join("sub")).unwrap();
        std::fs::write(d.path().join("unrelated.txt"), "mine").unwrap();
        let e = read_current(d.path()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        collect_garbage(d.path(), &[]);
        assert!(!d.path().join("gen-00000001-1").exists());
        let lock = WriterLock::acquire(d.path(), None).unwrap();
        assert!(lock.is_some());
        let (name, _) = new_generation(d.path(), 2).unwrap();
        publish(d.path(), &name).unwrap();
        assert_eq!(read_current(d.path()).unwrap(), Some(name));
        assert!(d.path().join("unrelated.txt").exists());
    }

    #[cfg(unix)]
    #[test]
    fn everything_created_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let cache = d.path().join("a/b/cache");
        create_private_dir_all(&cache).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&d.path().join("a")), 0o700);
        assert_eq!(mode(&cache), 0o700);
        let (name, gen_dir) = new_generation(&cache, 1).unwrap();
        assert_eq!(mode(&gen_dir), 0o700);
        publish(&cache, &name).unwrap();
        assert_eq!(mode(&cache.join(CURRENT)), 0o600);
        drop(WriterLock::acquire(&cache, None).unwrap());
        assert_eq!(mode(&cache.join(LOCK)), 0o600);
        std::fs::write(gen_dir.join("loose"), "x").unwrap();
        std::fs::set_permissions(
            gen_dir.join("loose"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        make_private(&gen_dir).unwrap();
        assert_eq!(mode(&gen_dir.join("loose")), 0o600);
    }

    #[test]
    fn lock_excludes_and_is_released_on_drop() {
        let d = tempfile::tempdir().unwrap();
        let held = WriterLock::acquire(d.path(), None).unwrap().unwrap();
        // flock locks are per open file description: a second open conflicts.
        let soon = Instant::now() + Duration::from_millis(30);
        assert!(WriterLock::acquire(d.path(), Some(soon)).unwrap().is_none());
        assert!(WriterLock::is_held(d.path()));
        drop(held);
        assert!(!WriterLock::is_held(d.path()));
        assert!(
            WriterLock::acquire(d.path(), Some(Instant::now()))
                .unwrap()
                .is_some()
        );
    }
}
