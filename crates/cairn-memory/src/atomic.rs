//! Crash-safe file operations: a note is replaced by writing a hidden temporary
//! file beside it, syncing it, renaming it over the note and syncing the folder,
//! so a reader (or a crash) only ever sees the old file or the new one. Plus the
//! per-scope lock that serialises writers across processes.
//!
//! Temporary files are named `.<file>.cairn-tmp.<pid>.<n>`: hidden and not ending
//! in `.md`, so the scanner never takes one for a note. One left by a killed
//! writer is removed by the next writer of the scope, under the lock (while the
//! lock is held no other writer can be between its temp write and its rename).
//!
//! Test hook: with `CAIRN_TEST_ABORT_BEFORE_RENAME=1` in the environment, the
//! process aborts right after the temporary file is written and synced, before
//! the rename: the crash test uses it to prove a killed writer leaves no torn note.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind as IoKind, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use fs4::fs_std::FileExt;

use crate::error::MemoryError;

/// The marker in every temporary file name.
pub const TEMP_MARKER: &str = ".cairn-tmp.";
/// The lock file in each scope folder.
pub const LOCK_FILE: &str = ".cairn-memory.lock";
/// The environment variable of the crash-test hook.
pub const ABORT_HOOK: &str = "CAIRN_TEST_ABORT_BEFORE_RENAME";

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// How [`write_file`] treats an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// The file must not exist: fail with `AlreadyExists` rather than overwrite.
    Never,
    /// Replace it atomically.
    Atomically,
}

/// Writes `bytes` to `path` through a synced temporary file and a rename (or a
/// hard link for [`Replace::Never`], which cannot overwrite), then syncs the folder.
/// An existing file's permissions are kept.
pub fn write_file(path: &Path, bytes: &[u8], replace: Replace) -> Result<(), MemoryError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}{TEMP_MARKER}{}.{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(md) = std::fs::metadata(path) {
            f.set_permissions(md.permissions())?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        if std::env::var_os(ABORT_HOOK).is_some_and(|v| v == "1") {
            std::process::abort();
        }
        match replace {
            Replace::Atomically => std::fs::rename(&tmp, path),
            Replace::Never => match std::fs::hard_link(&tmp, path) {
                Ok(()) => std::fs::remove_file(&tmp),
                Err(e) if e.kind() == IoKind::AlreadyExists => Err(e),
                // No hard links on this file system: check, then rename (the scope
                // lock keeps other cairn writers out between the two).
                Err(_) if !path.exists() => std::fs::rename(&tmp, path),
                Err(e) => Err(e),
            },
        }
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(MemoryError::io(path)(e));
    }
    sync_dir(dir)
}

/// Moves `from` to `to` without ever replacing an existing `to`, then syncs both folders.
pub fn move_file(from: &Path, to: &Path) -> Result<(), MemoryError> {
    match std::fs::hard_link(from, to) {
        Ok(()) => std::fs::remove_file(from).map_err(MemoryError::io(from))?,
        Err(e) if e.kind() == IoKind::AlreadyExists => return Err(MemoryError::io(to)(e)),
        Err(_) => {
            if to.exists() {
                return Err(MemoryError::io(to)(std::io::Error::from(
                    IoKind::AlreadyExists,
                )));
            }
            std::fs::rename(from, to).map_err(MemoryError::io(to))?;
        }
    }
    if let Some(d) = to.parent() {
        sync_dir(d)?;
    }
    match from.parent() {
        Some(d) if Some(d) != to.parent() => sync_dir(d),
        _ => Ok(()),
    }
}

/// Removes `path` and syncs its folder.
pub fn remove_file(path: &Path) -> Result<(), MemoryError> {
    std::fs::remove_file(path).map_err(MemoryError::io(path))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// Makes a rename or a new file in `dir` durable.
pub fn sync_dir(dir: &Path) -> Result<(), MemoryError> {
    #[cfg(unix)]
    {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(MemoryError::io(dir))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Whether `name` is one of this module's temporary files.
pub fn is_temp_file(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMP_MARKER)
}

/// Removes temporary files left in `dir` by killed writers. Only call it while
/// holding the scope lock. Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    rd.filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| is_temp_file(&e.file_name().to_string_lossy()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// An exclusive lock on a scope folder, held until dropped. Serialises every
/// `cairn memory` writer of the scope, across processes (an advisory `flock`).
#[derive(Debug)]
pub struct ScopeLock {
    _file: File,
}

impl ScopeLock {
    /// Blocks until the lock of the scope folder `dir` is ours.
    pub fn acquire(dir: &Path) -> Result<ScopeLock, MemoryError> {
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(MemoryError::io(&path))?;
        FileExt::lock_exclusive(&file).map_err(MemoryError::io(&path))?;
        Ok(ScopeLock { _file: file })
    }
}
