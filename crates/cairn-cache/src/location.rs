//! Where a vault's cache folder lives: `<cairn's cache folder>/<vault-key>`
//! ([`cairn_config::cache_root`]: `$CAIRN_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn`, else `%LOCALAPPDATA%\cairn`),
//! unless the user names a folder (`[index] dir`, `--index-dir`).

use std::path::{Path, PathBuf};

/// The default cache folder for the vault at `vault` (absolute), in cairn's
/// cache folder as the environment `env` names it; `None` when it names none.
pub fn default_dir(vault: &Path, env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    Some(cairn_config::cache_root(env)?.join(vault_key(vault)))
}

/// A folder name for a vault: its folder name (letters, digits, `-`, `_`; at most
/// 32) and 16 hex digits of the content hash of its full path, so two vaults never
/// share a folder and the name still says which vault it is.
pub fn vault_key(vault: &Path) -> String {
    let name: String = vault
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(32)
        .collect();
    let short = cairn_note::ContentHash::of(vault.to_string_lossy().as_bytes()).short_hex();
    if name.is_empty() {
        short
    } else {
        format!("{name}-{short}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn cairn_s_cache_folder_then_the_vault_key() {
        let v = Path::new("/home/me/My Notes");
        let key = vault_key(v);
        assert!(key.starts_with("My_Notes-"), "{key}");
        assert_eq!(key.len(), "My_Notes-".len() + 16);
        assert_eq!(
            default_dir(v, env(&[("XDG_CACHE_HOME", "/xdg"), ("HOME", "/h")])),
            Some(PathBuf::from("/xdg/cairn").join(&key))
        );
        // A relative XDG_CACHE_HOME is invalid per the spec: ignored.
        assert_eq!(
            default_dir(v, env(&[("XDG_CACHE_HOME", "rel"), ("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/cairn").join(&key))
        );
        // $CAIRN_CACHE_DIR moves the index with the rest of cairn's cache.
        assert_eq!(
            default_dir(
                v,
                env(&[("CAIRN_CACHE_DIR", "/c"), ("XDG_CACHE_HOME", "/xdg")])
            ),
            Some(PathBuf::from("/c").join(&key))
        );
        assert_eq!(default_dir(v, env(&[])), None);
        assert_ne!(
            vault_key(Path::new("/a/notes")),
            vault_key(Path::new("/b/notes"))
        );
    }
}
