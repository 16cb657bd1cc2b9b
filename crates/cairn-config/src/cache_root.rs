//! Where cairn keeps what it can always rebuild (each vault's index, the git
//! caches, the hooks' session records, write-path usage): one folder for all of
//! them, from the environment.

use std::path::PathBuf;

/// cairn's cache folder, from the environment `env` gives: `$CAIRN_CACHE_DIR`,
/// else `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn` (`$HOME`), else
/// `%LOCALAPPDATA%\cairn`. An empty or relative value is skipped (a relative
/// folder would move with the working directory). `None` when nothing is set:
/// callers then need a folder named in `cairn.toml` or on the command line.
pub fn cache_root(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let absolute = |k: &str| {
        env(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    absolute("CAIRN_CACHE_DIR")
        .or_else(|| absolute("XDG_CACHE_HOME").map(|d| d.join("cairn")))
        .or_else(|| absolute("HOME").map(|h| h.join(".cache").join("cairn")))
        .or_else(|| absolute("LOCALAPPDATA").map(|d| d.join("cairn")))
}

#[cfg(test)]
mod tests {
    use super::cache_root;
    use std::path::PathBuf;

    fn check(pairs: &[(&str, &str)], expect: Option<&str>) {
        let env = |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_owned())
        };
        assert_eq!(cache_root(env), expect.map(PathBuf::from), "{pairs:?}");
    }

    #[test]
    fn the_first_absolute_folder_wins() {
        let all = [
            ("CAIRN_CACHE_DIR", "/c"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
            ("LOCALAPPDATA", "/l"),
        ];
        check(&all, Some("/c"));
        check(&all[1..], Some("/x/cairn"));
        check(&all[2..], Some("/h/.cache/cairn"));
        check(&all[3..], Some("/l/cairn"));
        check(&[], None);
        check(
            &[("CAIRN_CACHE_DIR", ""), ("HOME", "/h")],
            Some("/h/.cache/cairn"),
        );
        check(
            &[
                ("CAIRN_CACHE_DIR", "rel"),
                ("XDG_CACHE_HOME", "rel2"),
                ("HOME", "/h"),
            ],
            Some("/h/.cache/cairn"),
        );
    }
}
