//! Containment: turning a scope folder and a slug into a real path that is
//! certainly inside the vault and the scope folder, following symlinks only where
//! they stay inside, so a planted symlink can never redirect a write (or leak a
//! read) outside. The files cairn keeps beside the notes (`MEMORY.md`,
//! `.cairnignore`, the lock) must be plain files: a symlink there is refused.
//!
//! File names are compared in Unicode NFC: a note saved under its decomposed
//! (NFD) name by another tool is the same note as the NFC name cairn writes.
//!
//! Also the vault-relative path helpers every other module uses (`join`,
//! `rel_under`, `slug_of`) and [`read_note`], which resolves a slug here and reads it.

use std::io::ErrorKind as IoKind;
use std::path::{Path, PathBuf};

use unicode_normalization::UnicodeNormalization;

use crate::error::MemoryError;
use crate::slug::Slug;

/// Refuses `path` unless it is a regular file or does not exist (a symlink,
/// dangling or not, a folder or a device is refused). Never follows a symlink.
pub(crate) fn plain_file_or_absent(path: &Path) -> Result<(), MemoryError> {
    match std::fs::symlink_metadata(path) {
        Ok(md) if md.file_type().is_symlink() => Err(not_plain(path, "a symlink")),
        Ok(md) if !md.is_file() => Err(not_plain(path, "not a regular file")),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == IoKind::NotFound => Ok(()),
        Err(e) => Err(MemoryError::io(path)(e)),
    }
}

/// The refusal of a file cairn keeps beside the notes that is not a plain file.
pub(crate) fn not_plain(path: &Path, what: &str) -> MemoryError {
    MemoryError::Refused(format!(
        "{} is {what}; cairn never reads or writes its own files through one (remove it and retry)",
        path.display()
    ))
}

/// The text of one of cairn's own files beside the notes (`MEMORY.md`,
/// `.cairnignore`): `None` when absent; refused when it is not a plain file.
/// Opened without following symlinks.
pub(crate) fn read_plain(path: &Path) -> Result<Option<String>, MemoryError> {
    use std::io::Read as _;
    plain_file_or_absent(path)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let mut file = match options.open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == IoKind::NotFound => return Ok(None),
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) => {
            return Err(not_plain(path, "a symlink"));
        }
        Err(e) => return Err(MemoryError::io(path)(e)),
    };
    let mut text = String::new();
    match file.read_to_string(&mut text) {
        Ok(_) => Ok(Some(text)),
        // Not UTF-8: not what cairn wrote; treated as a different text.
        Err(e) if e.kind() == IoKind::InvalidData => Ok(Some(String::new())),
        Err(e) => Err(MemoryError::io(path)(e)),
    }
}

/// The name of an existing entry of `dir` that is `name` in another Unicode
/// normalisation (NFD for NFC), if `name` itself is absent.
fn normalisation_twin(dir: &Path, name: &str) -> Option<String> {
    let want: String = name.nfc().collect();
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != name && n.nfc().eq(want.chars()))
        .min()
}

/// Resolves the vault-relative folder `rel` under the canonical `vault` root,
/// component by component: a symlinked component must resolve inside the vault,
/// anything that is not a folder is refused. Missing folders are created when
/// `create` is true; otherwise `Ok(None)` says the folder does not exist yet.
pub(crate) fn scope_root(
    vault: &Path,
    rel: &str,
    create: bool,
) -> Result<Option<PathBuf>, MemoryError> {
    let mut here = vault.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        if part == "." || part == ".." {
            return Err(escape(rel, vault, "`..` in the scope folder"));
        }
        let next = here.join(part);
        match std::fs::symlink_metadata(&next) {
            Ok(md) if md.file_type().is_symlink() => {
                let real = next.canonicalize().map_err(MemoryError::io(&next))?;
                if !real.starts_with(vault) {
                    return Err(escape(
                        rel,
                        vault,
                        &format!("`{part}` is a symlink to {}", real.display()),
                    ));
                }
                if !real.is_dir() {
                    return Err(MemoryError::Refused(format!(
                        "{} is not a folder",
                        next.display()
                    )));
                }
                here = real;
            }
            Ok(md) if md.is_dir() => here = next,
            Ok(_) => {
                return Err(MemoryError::Refused(format!(
                    "{} is a file, not a folder",
                    next.display()
                )));
            }
            Err(e) if e.kind() == IoKind::NotFound => {
                if !create {
                    return Ok(None);
                }
                match std::fs::create_dir(&next) {
                    Ok(()) => {}
                    Err(e) if e.kind() == IoKind::AlreadyExists => {}
                    Err(e) => return Err(MemoryError::io(&next)(e)),
                }
                // Re-check what is there now (a racing writer may have made it).
                let md = std::fs::symlink_metadata(&next).map_err(MemoryError::io(&next))?;
                if !md.is_dir() {
                    return Err(escape(
                        rel,
                        vault,
                        &format!("`{part}` changed while creating it"),
                    ));
                }
                here = next;
            }
            Err(e) => return Err(MemoryError::io(&next)(e)),
        }
    }
    Ok(Some(here))
}

/// Where the note named `slug` lives under the canonical scope folder `root`.
/// Parent folders of a nested slug are checked like [`scope_root`] (and created
/// when `create`); an existing note that is a symlink resolves to its target,
/// which must be a file inside `root`.
pub(crate) fn note_path(
    root: &Path,
    slug: &Slug,
    create: bool,
) -> Result<Option<PathBuf>, MemoryError> {
    let segments: Vec<&str> = slug.segments().collect();
    let (leaf, parents) = segments
        .split_last()
        .ok_or_else(|| MemoryError::InvalidSlug {
            slug: slug.to_string(),
            reason: "it is empty".into(),
        })?;
    let dir = if parents.is_empty() {
        root.to_path_buf()
    } else {
        match scope_root(root, &parents.join("/"), create) {
            Ok(Some(d)) => d,
            Ok(None) => return Ok(None),
            Err(MemoryError::Escape { reason, .. }) => {
                return Err(escape(slug.as_str(), root, &reason));
            }
            Err(e) => return Err(e),
        }
    };
    let mut path = dir.join(format!("{leaf}.md"));
    if std::fs::symlink_metadata(&path).is_err()
        && let Some(twin) = normalisation_twin(&dir, &format!("{leaf}.md"))
    {
        path = dir.join(twin);
    }
    match std::fs::symlink_metadata(&path) {
        Ok(md) if md.file_type().is_symlink() => {
            let Ok(real) = path.canonicalize() else {
                return Err(escape(slug.as_str(), root, "it is a dangling symlink"));
            };
            if !real.starts_with(root) {
                return Err(escape(
                    slug.as_str(),
                    root,
                    &format!("it is a symlink to {}", real.display()),
                ));
            }
            if !real.is_file() {
                return Err(MemoryError::Refused(format!(
                    "{} is not a file",
                    path.display()
                )));
            }
            Ok(Some(real))
        }
        Ok(md) if md.is_dir() => Err(MemoryError::Refused(format!(
            "{} is a folder, not a note",
            path.display()
        ))),
        Ok(_) => Ok(Some(path)),
        Err(e) if e.kind() == IoKind::NotFound => Ok(Some(path)),
        Err(e) => Err(MemoryError::io(&path)(e)),
    }
}

/// A note read for an operation.
pub(crate) struct Current {
    /// The real file.
    pub abs: PathBuf,
    /// Vault-relative path.
    pub rel: String,
    /// Its text, `None` when it does not exist.
    pub text: Option<String>,
}

/// Resolves and reads `slug` under the scope folder `root` (vault-relative `rel`),
/// creating nested parents when `create`. A note that does not exist reads as
/// `text: None`; one that is not UTF-8 is refused.
pub(crate) fn read_note(
    root: &Path,
    rel: &str,
    slug: &Slug,
    create: bool,
) -> Result<Current, MemoryError> {
    let abs = if root.is_dir() {
        note_path(root, slug, create)?.unwrap_or_else(|| root.join(slug.file_name()))
    } else {
        root.join(slug.file_name())
    };
    let text = match std::fs::read(&abs) {
        Ok(b) => Some(String::from_utf8(b).map_err(|_| {
            MemoryError::Refused(format!(
                "{} is not UTF-8 text; cairn only edits text notes",
                join(rel, &slug.file_name())
            ))
        })?),
        Err(e) if e.kind() == IoKind::NotFound => None,
        Err(e) => return Err(MemoryError::io(&abs)(e)),
    };
    // The real file (an in-scope symlink is reported, and written, as its target).
    Ok(Current {
        rel: join(
            rel,
            &rel_under(root, &abs).unwrap_or_else(|| slug.file_name()),
        ),
        abs,
        text,
    })
}

/// `folder` + `/` + `file`.
pub(crate) fn join(folder: &str, file: &str) -> String {
    if folder.is_empty() {
        file.to_owned()
    } else {
        format!("{}/{file}", folder.trim_end_matches('/'))
    }
}

/// `path` relative to `root`, `/`-separated.
pub(crate) fn rel_under(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The slug of vault-relative note path `path` in scope folder `folder`.
pub(crate) fn slug_of(folder: &str, path: &str) -> String {
    let file = path
        .strip_prefix(folder)
        .map_or(path, |s| s.trim_start_matches('/'));
    file.strip_suffix(".md").unwrap_or(file).to_owned()
}

fn escape(path: &str, root: &Path, reason: &str) -> MemoryError {
    MemoryError::Escape {
        path: path.to_owned(),
        root: root.display().to_string(),
        reason: reason.to_owned(),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn symlinks_that_leave_are_refused_and_those_that_stay_are_followed() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(vault.join("a/real")).unwrap();
        symlink(outside.path(), vault.join("a/out")).unwrap();
        symlink(vault.join("a/real"), vault.join("a/in")).unwrap();

        let e = scope_root(&vault, "a/out/mem", true).unwrap_err();
        assert!(matches!(e, MemoryError::Escape { .. }), "{e}");
        assert!(
            std::fs::read_dir(outside.path()).unwrap().next().is_none(),
            "nothing created outside"
        );
        let inside = scope_root(&vault, "a/in/mem", true).unwrap().unwrap();
        assert!(inside.starts_with(vault.join("a/real")));
        assert_eq!(scope_root(&vault, "a/missing", false).unwrap(), None);

        let root = scope_root(&vault, "a/real", false).unwrap().unwrap();
        std::fs::write(outside.path().join("t.md"), "outside").unwrap();
        symlink(outside.path().join("t.md"), root.join("leak.md")).unwrap();
        symlink(root.join("nope.md"), root.join("dangling.md")).unwrap();
        std::fs::write(root.join("target.md"), "x").unwrap();
        symlink(root.join("target.md"), root.join("alias.md")).unwrap();
        let slug = |s: &str| Slug::parse(s, true).unwrap();
        assert!(matches!(
            note_path(&root, &slug("leak"), true),
            Err(MemoryError::Escape { .. })
        ));
        assert!(matches!(
            note_path(&root, &slug("dangling"), true),
            Err(MemoryError::Escape { .. })
        ));
        assert_eq!(
            note_path(&root, &slug("alias"), true).unwrap().unwrap(),
            root.join("target.md")
        );
        symlink(outside.path(), root.join("sub")).unwrap();
        assert!(matches!(
            note_path(&root, &slug("sub/x"), true),
            Err(MemoryError::Escape { .. })
        ));
    }
}
