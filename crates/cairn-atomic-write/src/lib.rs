//! Crash-safe file writes, the one way every cairn writer (the write path, the
//! cache, `init`, hook installation) replaces or creates a file: the bytes go to
//! a hidden temporary file beside the target, which is synced, then renamed over
//! the target (or hard-linked into place when nothing may be overwritten), then
//! the folder is synced. A reader, or a crash, sees the old file or the new one,
//! never a torn one.
//!
//! The two steps are apart ([`StagedFile::beside`], then [`StagedFile::replace`]
//! or [`StagedFile::create_new`]) so a caller can check something between them
//! (the write path re-reads the target there to refuse a racing editor's save).
//! A staged file that is dropped unpersisted is removed; one left by a killed
//! process carries the caller's marker in its name, so the caller can find and
//! remove it later.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// A temporary file beside its target, written and synced, not yet in place.
#[derive(Debug)]
pub struct StagedFile {
    tmp: NamedTempFile,
    target: PathBuf,
    /// Whether the file and, once renamed, its folder are synced.
    synced: bool,
}

impl StagedFile {
    /// Writes `bytes` to a new temporary file named `.<target's name><marker><random>`
    /// in `target`'s folder and syncs it. On Unix the file is created with `mode`
    /// (less the process's umask): `0o600` for a private file, `0o666` for what
    /// `File::create` would make.
    pub fn beside(target: &Path, marker: &str, mode: u32, bytes: &[u8]) -> io::Result<StagedFile> {
        Self::stage(target, marker, mode, bytes, true)
    }

    /// Like [`StagedFile::beside`], but nothing is synced, neither the file nor,
    /// after [`StagedFile::replace`], its folder: a reader still sees the old file or
    /// the new one, never a torn one, but a crash of the machine may lose the write.
    /// For records that are cheap to lose (a hook's per-session record).
    pub fn beside_unsynced(
        target: &Path,
        marker: &str,
        mode: u32,
        bytes: &[u8],
    ) -> io::Result<StagedFile> {
        Self::stage(target, marker, mode, bytes, false)
    }

    fn stage(
        target: &Path,
        marker: &str,
        mode: u32,
        bytes: &[u8],
        synced: bool,
    ) -> io::Result<StagedFile> {
        let dir = folder_of(target);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}{marker}");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(mode));
        }
        #[cfg(not(unix))]
        let _ = mode;
        let mut tmp = builder.tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        if synced {
            tmp.as_file().sync_all()?;
        }
        Ok(StagedFile {
            tmp,
            target: target.to_path_buf(),
            synced,
        })
    }

    /// Gives the staged file the permissions of the target as it is now; returns
    /// whether there was a target to copy them from.
    pub fn keep_target_permissions(&self) -> io::Result<bool> {
        match std::fs::metadata(&self.target) {
            Ok(md) => {
                self.tmp.as_file().set_permissions(md.permissions())?;
                Ok(true)
            }
            Err(_) => Ok(false),
        }
    }

    /// Sets the staged file's permissions.
    pub fn set_permissions(&self, permissions: std::fs::Permissions) -> io::Result<()> {
        self.tmp.as_file().set_permissions(permissions)
    }

    /// The temporary file's path.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Renames the staged file over the target, whatever it holds, then syncs the
    /// folder (unless it was staged unsynced).
    pub fn replace(self) -> io::Result<()> {
        let target = self.target;
        self.tmp.persist(&target).map_err(|e| e.error)?;
        if self.synced {
            sync_dir(folder_of(&target))
        } else {
            Ok(())
        }
    }

    /// Puts the staged file in place only if the target does not exist (else
    /// `AlreadyExists`, nothing overwritten), then syncs the folder. Uses a hard
    /// link, which cannot overwrite; where the file system has none, it checks,
    /// then renames (a caller that must exclude other writers holds a lock).
    pub fn create_new(self) -> io::Result<()> {
        let target = self.target;
        let synced = self.synced;
        match self.tmp.persist_noclobber(&target) {
            Ok(_) => {}
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => return Err(e.error),
            Err(e) if std::fs::symlink_metadata(&target).is_err() => {
                e.file.persist(&target).map_err(|e| e.error)?;
            }
            Err(e) => return Err(e.error),
        }
        if synced {
            sync_dir(folder_of(&target))
        } else {
            Ok(())
        }
    }
}

/// Writes `bytes` to `path` atomically (see the crate's documentation), the new
/// file created with `mode` unless `path` exists, whose permissions are kept.
pub fn write_atomic(path: &Path, marker: &str, mode: u32, bytes: &[u8]) -> io::Result<()> {
    let staged = StagedFile::beside(path, marker, mode, bytes)?;
    staged.keep_target_permissions()?;
    staged.replace()
}

/// Makes a rename or a new file in `dir` durable (a no-op where folders cannot
/// be opened).
pub fn sync_dir(dir: &Path) -> io::Result<()> {
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

/// The folder a path lives in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_overwrites_and_create_new_never_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("note.md");
        StagedFile::beside(&path, ".t.", 0o600, b"one")
            .unwrap()
            .create_new()
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let again = StagedFile::beside(&path, ".t.", 0o600, b"two").unwrap();
        let tmp = again.path().to_path_buf();
        assert!(
            tmp.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".note.md.t.")
        );
        let e = again.create_new().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        assert!(!tmp.exists(), "the refused temporary file is removed");
        write_atomic(&path, ".t.", 0o600, b"three").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_the_targets_or_the_mode_given() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        write_atomic(&path, ".t.", 0o600, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, ".t.", 0o600, b"y").unwrap();
        assert_eq!(mode(&path), 0o640);
    }
}
