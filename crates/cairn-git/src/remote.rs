//! Remotes: a repository's remote URLs in a stable order, and the one
//! normalisation that lets any clone of a project be recognised
//! (`git@github.com:Org/Ledger.git` and `https://user:pw@GitHub.com/Org/Ledger`
//! are both `github.com/Org/Ledger`).

use std::path::Path;

use crate::GitError;

/// One remote of a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    /// Its name (`origin`).
    pub name: String,
    /// Its fetch URL as configured (may hold a user name or a password: untrusted).
    pub url: String,
    /// The URL normalised by [`normalize_remote`] (`host/org/repo`), when it has a host and path.
    pub normalized: Option<String>,
}

/// `url` as `host/path`: scheme, user and password, port and a trailing `.git`
/// or `/` removed, the host lowercased, `git@host:org/repo` read as
/// `host/org/repo`. The path keeps its case. `None` for a local path (no host)
/// or an empty one.
#[must_use]
pub fn normalize_remote(url: &str) -> Option<String> {
    let url = url.trim();
    let (rest, had_scheme) = match url.find("://") {
        Some(i) => (&url[i + 3..], true),
        None => (url, false),
    };
    if !had_scheme && (rest.starts_with('/') || rest.starts_with('.') || rest.starts_with('~')) {
        return None;
    }
    // Authority and path: `user:pw@host:port/path` with a scheme, `user@host:path` (scp) without.
    let (authority, path) = if had_scheme {
        rest.split_once('/').unwrap_or((rest, ""))
    } else if !rest.contains(':') {
        // `host/org/repo`, as a configuration writes it: the host has a dot.
        let (host, path) = rest.split_once('/')?;
        if !host.contains('.') {
            return None;
        }
        (host, path)
    } else {
        let colon = rest.find(':')?;
        // `C:\x` or `c:/x` is a Windows path, not `host:path`.
        if colon == 1 || rest[..colon].contains('/') {
            return None;
        }
        (&rest[..colon], &rest[colon + 1..])
    };
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port
            .split_once(']')
            .map_or(host_port, |(h, _)| h)
            .trim_start_matches('[')
    } else {
        host_port.split_once(':').map_or(host_port, |(h, _)| h)
    };
    let host = host.to_ascii_lowercase();
    let mut path = path.trim_matches('/');
    path = path
        .strip_suffix(".git")
        .unwrap_or(path)
        .trim_end_matches('/');
    if host.is_empty() || path.is_empty() {
        return None;
    }
    let path: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && *s != "~")
        .collect();
    if path.is_empty() {
        return None;
    }
    Some(format!("{host}/{}", path.join("/")))
}

/// The remotes of the repository containing `path`, `origin` first, then the
/// others in name order. A repository without remotes gives an empty list.
///
/// # Errors
/// [`GitError::NotARepository`] outside git, [`GitError::Open`] for a repository gix cannot open.
pub fn remotes_at(path: &Path) -> Result<Vec<Remote>, GitError> {
    let repo = crate::tree::discover(path)?;
    Ok(remotes(&repo))
}

/// The remotes of `repo`, `origin` first, then by name.
pub(crate) fn remotes(repo: &gix::Repository) -> Vec<Remote> {
    let mut names: Vec<String> = repo
        .remote_names()
        .into_iter()
        .map(|n| n.to_string())
        .collect();
    names.sort_by(|a, b| (a != "origin", a).cmp(&(b != "origin", b)));
    names
        .into_iter()
        .filter_map(|name| {
            let remote = repo.find_remote(name.as_str()).ok()?;
            let url = remote
                .url(gix::remote::Direction::Fetch)?
                .to_bstring()
                .to_string();
            Some(Remote {
                normalized: normalize_remote(&url),
                name,
                url,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::normalize_remote;

    #[track_caller]
    fn check(url: &str, expect: Option<&str>) {
        assert_eq!(normalize_remote(url).as_deref(), expect, "url {url:?}");
    }

    #[test]
    fn remote_urls_normalise_to_host_and_path() {
        let same = Some("github.com/org/ledger");
        check("https://github.com/org/ledger.git", same);
        check("https://github.com/org/ledger", same);
        check("https://github.com/org/ledger/", same);
        check("http://GitHub.COM/org/ledger.git", same);
        check("git@github.com:org/ledger.git", same);
        check("git@github.com:org/ledger", same);
        check("ssh://git@github.com/org/ledger.git", same);
        check("ssh://git@github.com:22/org/ledger.git", same);
        check("https://alice:s3cr3t@github.com/org/ledger.git", same);
        check("https://token@github.com/org/ledger", same);
        check("git://github.com/org/ledger.git", same);
        check("github.com/org/ledger", same);
        check("  https://github.com/org/ledger.git  ", same);
        check(
            "https://github.com/Org/Ledger",
            Some("github.com/Org/Ledger"),
        );
        check(
            "https://gitlab.example.com/group/sub/ledger.git",
            Some("gitlab.example.com/group/sub/ledger"),
        );
        check("ssh://[::1]:2222/org/ledger", Some("::1/org/ledger"));
        check("/srv/git/ledger.git", None);
        check("../ledger", None);
        check("file:///srv/git/ledger.git", None);
        check("C:\\repos\\ledger", None);
        check("https://github.com", None);
        check("", None);
    }
}
