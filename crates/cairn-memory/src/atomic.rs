//! Crash-safe file operations: a note is replaced by writing a hidden temporary
//! file beside it, syncing it, renaming it over the note and syncing the folder,
//! so a reader (or a crash) only ever sees the old file or the new one. Plus the
//! per-scope lock that serialises writers across processes.
//!
//! Temporary files are named `.<file>.cairn-tmp.<random>`: hidden and not ending
//! in `.md`, so the scanner never takes one for a note. One left by a killed
//! writer is removed by the next writer of the scope, under the lock (while the
//! lock is held no other writer can be between its temp write and its rename).
//!
//! A replacement can be conditional ([`Replace::Matching`]): right before the
//! rename the note is read again and must still hold the bytes the change was
//! planned from, so an external editor's save that lands between cairn's plan
//! and its rename is never silently overwritten (the caller re-plans or refuses).
//!
//! The lock file is opened without following symlinks: a planted (or dangling)
//! symlink is refused and never creates or locks a file elsewhere.
//!
//! Test hooks (abort before the rename, a racing editor) live in [`crate::fault`],
//! compiled only with the `fault-injection` feature.

use std::fs::{File, OpenOptions};
use std::io::ErrorKind as IoKind;
use std::path::Path;

use cairn_atomic_write::StagedFile;
use fs4::fs_std::FileExt;

use crate::error::MemoryError;
use crate::fault;

/// The marker in every temporary file name.
pub const TEMP_MARKER: &str = ".cairn-tmp.";
/// The lock file in each scope folder.
pub const LOCK_FILE: &str = ".cairn-memory.lock";

/// How [`write_file`] treats an existing file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replace<'a> {
    /// The file must not exist: fail with `AlreadyExists` rather than overwrite.
    Never,
    /// Replace it atomically, whatever it holds.
    Atomically,
    /// Replace it atomically only if, right before the rename, it still holds
    /// these bytes; else [`MemoryError::Changed`] and nothing is written.
    Matching(&'a [u8]),
}

/// Writes `bytes` to `path` through a synced temporary file and a rename (or a
/// hard link for [`Replace::Never`], which cannot overwrite), then syncs the folder
/// ([`cairn_atomic_write::StagedFile`]). An existing file's permissions are kept.
pub(crate) fn write_file(
    path: &Path,
    bytes: &[u8],
    replace: Replace<'_>,
) -> Result<(), MemoryError> {
    // Ok(false): the file changed since the plan; nothing was renamed.
    let result = (|| -> std::io::Result<bool> {
        // 0o666 less the umask: what a note created by any editor gets.
        let staged = StagedFile::beside(path, TEMP_MARKER, 0o666, bytes)?;
        staged.keep_target_permissions()?;
        fault::before_rename();
        match replace {
            Replace::Atomically => staged.replace().map(|()| true),
            Replace::Matching(expected) => {
                fault::racing_editor(path);
                if !holds(path, expected)? {
                    return Ok(false);
                }
                staged.replace().map(|()| true)
            }
            Replace::Never => staged.create_new().map(|()| true),
        }
    })();
    match result {
        Ok(true) => Ok(()),
        Ok(false) => Err(MemoryError::Changed {
            path: path.display().to_string(),
        }),
        Err(e) => Err(MemoryError::io(path)(e)),
    }
}

/// Whether the file at `path` holds exactly `expected` (a missing file does not).
fn holds(path: &Path, expected: &[u8]) -> std::io::Result<bool> {
    match std::fs::read(path) {
        Ok(now) => Ok(now == expected),
        Err(e) if e.kind() == IoKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Moves `from` to `to` without ever replacing an existing `to`, then syncs both folders.
pub(crate) fn move_file(from: &Path, to: &Path) -> Result<(), MemoryError> {
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

/// Removes `path`, if it still holds `expected`, and syncs its folder.
pub(crate) fn remove_file(path: &Path, expected: &[u8]) -> Result<(), MemoryError> {
    fault::racing_editor(path);
    if !holds(path, expected).map_err(MemoryError::io(path))? {
        return Err(MemoryError::Changed {
            path: path.display().to_string(),
        });
    }
    std::fs::remove_file(path).map_err(MemoryError::io(path))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// Makes a rename or a new file in `dir` durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), MemoryError> {
    cairn_atomic_write::sync_dir(dir).map_err(MemoryError::io(dir))
}

/// Whether `name` is one of this module's temporary files.
pub fn is_temp_file(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMP_MARKER)
}

/// Removes temporary files left in `dir` by killed writers. Only call it while
/// holding the scope lock. Returns how many were removed.
pub(crate) fn remove_stale_temps(dir: &Path) -> usize {
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
pub(crate) struct ScopeLock {
    _file: File,
}

impl ScopeLock {
    /// Blocks until the lock of the scope folder `dir` is ours. A lock file that
    /// is a symlink (dangling or not) or anything but a file is refused.
    pub(crate) fn acquire(dir: &Path) -> Result<ScopeLock, MemoryError> {
        let path = dir.join(LOCK_FILE);
        crate::contain::plain_file_or_absent(&path)?;
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // Between the check above and here a symlink could still appear:
            // O_NOFOLLOW makes the open fail rather than follow it.
            options.custom_flags(libc::O_NOFOLLOW);
        }
        let file = options.open(&path).map_err(|e| {
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                crate::contain::not_plain(&path, "a symlink")
            } else {
                MemoryError::io(&path)(e)
            }
        })?;
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Err(crate::contain::not_plain(&path, "not a regular file"));
        }
        FileExt::lock_exclusive(&file).map_err(MemoryError::io(&path))?;
        Ok(ScopeLock { _file: file })
    }
}
