//! Containment: turning a scope folder and a slug into a real path that is
//! certainly inside the vault and the scope folder, following symlinks only where
//! they stay inside, so a planted symlink can never redirect a write (or leak a
//! read) outside.

use std::io::ErrorKind as IoKind;
use std::path::{Path, PathBuf};

use crate::error::MemoryError;
use crate::slug::Slug;

/// Resolves the vault-relative folder `rel` under the canonical `vault` root,
/// component by component: a symlinked component must resolve inside the vault,
/// anything that is not a folder is refused. Missing folders are created when
/// `create` is true; otherwise `Ok(None)` says the folder does not exist yet.
pub fn scope_root(vault: &Path, rel: &str, create: bool) -> Result<Option<PathBuf>, MemoryError> {
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
pub fn note_path(root: &Path, slug: &Slug, create: bool) -> Result<Option<PathBuf>, MemoryError> {
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
    let path = dir.join(format!("{leaf}.md"));
    match std::fs::symlink_metadata(&path) {
        Ok(md) if md.file_type().is_symlink() => {
            let real = match path.canonicalize() {
                Ok(r) => r,
                Err(_) => {
                    return Err(escape(slug.as_str(), root, "it is a dangling symlink"));
                }
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
