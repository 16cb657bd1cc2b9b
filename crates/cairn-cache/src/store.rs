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

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
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

/// The published generation's folder name, if any. An unreadable or malformed
/// pointer is reported as `Err(InvalidData)`.
pub(crate) fn read_current(dir: &Path) -> io::Result<Option<String>> {
    match std::fs::read_to_string(dir.join(CURRENT)) {
        Ok(s) => {
            let name = s.trim();
            if is_generation_name(name) {
                Ok(Some(name.to_owned()))
            } else {
                Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "CURRENT does not name a generation",
                ))
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Points `CURRENT` at generation `name`, atomically.
pub(crate) fn publish(dir: &Path, name: &str) -> io::Result<()> {
    write_atomic(&dir.join(CURRENT), format!("{name}\n").as_bytes())
}

/// A new, empty generation folder numbered `number`.
pub(crate) fn new_generation(dir: &Path, number: u64) -> io::Result<(String, PathBuf)> {
    for attempt in 0..100u32 {
        let name = format!("{GEN_PREFIX}{number:08}-{}{attempt:02}", std::process::id());
        let path = dir.join(&name);
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok((name, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
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
            std::fs::copy(&src, &dst)?;
        }
    }
    sync_dir(to)
}

/// Writes `bytes` to `path` atomically: temp file beside it, fsync, rename, fsync
/// of the folder.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Unique per process and per call: two threads may write the same file.
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{file_name}.tmp-{}-{seq}", std::process::id()));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Flushes a folder's entries to disk (a no-op where folders cannot be opened).
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Removes every generation folder and stray temp file except `keep`. Errors are
/// ignored: a folder still in use elsewhere is retried by the next writer.
pub(crate) fn collect_garbage(dir: &Path, keep: &[&str]) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if keep.contains(&name.as_str()) {
            continue;
        }
        if is_generation_name(&name) {
            let _ = std::fs::remove_dir_all(entry.path());
        } else if name.starts_with('.') && name.contains(".tmp-") {
            let _ = std::fs::remove_file(entry.path());
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
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK))?;
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
