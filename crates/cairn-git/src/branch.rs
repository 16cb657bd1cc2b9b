//! The default branch (`origin/HEAD`'s, else `main`, `master`, ...) and the
//! branch's own commits (those not on it): their subjects and the files each
//! changed, kept in a cache file while `HEAD` and the default branch's tip stay.

use std::path::Path;

use crate::GitError;
use crate::tree::{read_kept, write_kept};

/// The default branch and every mainline reference with their tips. The
/// default is `origin/HEAD`'s target, else `main`, else `master`, else
/// `init.defaultBranch`'s, else `trunk`, else `develop` (each local, else
/// `origin`'s), the first whose reference resolves. The references compared
/// with are the default's and every other of those names that resolves,
/// locally and on `origin` (and the local branch of `origin/HEAD`'s): a commit
/// any mainline has is not a branch's own, so a local `main` left behind while
/// `origin/main` moved on, or a stray `main` where `master` is the mainline,
/// passes off no merged work as the branch's. The name is the default's
/// (`main`); the references are the ones read (`main and origin/main`).
/// With `peel`, a tip is what the reference names peeled to its end (a tag to
/// its commit: an object read); without, the object id the references alone
/// name, and a reference resolves when its chain ends in an id.
pub(crate) fn default_branch(
    repo: &gix::Repository,
    peel: bool,
) -> Option<(DefaultBranch, Vec<gix::ObjectId>)> {
    let resolve = |r: &mut gix::Reference<'_>| {
        if peel {
            r.peel_to_id().map(gix::Id::detach).ok()
        } else {
            r.follow_to_object().map(gix::Id::detach).ok()
        }
    };
    let find = |full: &str| {
        repo.try_find_reference(full)
            .ok()
            .flatten()
            .and_then(|mut r| resolve(&mut r))
    };
    // `origin/HEAD`'s branch: (name, reference shown, tip).
    let mut default: Option<(String, String, gix::ObjectId)> = None;
    if let Ok(Some(mut r)) = repo.try_find_reference("refs/remotes/origin/HEAD") {
        // The name first: resolving follows the symbolic reference.
        // A symbolic `origin/HEAD` names the remote's branch (`origin/trunk`:
        // `trunk`); one that holds a commit itself names none.
        let (name, shown) = match r.target() {
            gix::refs::TargetRef::Symbolic(n) => {
                let n = n.shorten().to_string();
                (
                    n.strip_prefix("origin/").map_or(n.clone(), str::to_owned),
                    n,
                )
            }
            gix::refs::TargetRef::Object(_) => ("origin/HEAD".to_owned(), "origin/HEAD".to_owned()),
        };
        if let Some(id) = resolve(&mut r) {
            default = Some((name, shown, id));
        }
    }
    // The local branch of `origin/HEAD`'s, then `main`, `master`, the branch
    // `init.defaultBranch` names, `trunk` and `develop`, each local and
    // `origin`'s: a repository whose mainline has another name still has
    // branches of their own.
    let configured = repo
        .config_snapshot()
        .string("init.defaultBranch")
        .map(|n| n.to_string())
        .filter(|n| !n.is_empty() && !n.contains(['/', ' ']));
    let mut names: Vec<String> = Vec::new();
    if let Some((_, shown, _)) = &default
        && let Some(b) = shown.strip_prefix("origin/")
    {
        names.push(b.to_owned());
    }
    names.extend(
        ["main", "master"]
            .into_iter()
            .map(str::to_owned)
            .chain(configured)
            .chain(["trunk", "develop"].into_iter().map(str::to_owned)),
    );
    let mut found: Vec<(String, String, gix::ObjectId)> = Vec::new();
    for name in names {
        for (full, shown) in [
            (format!("refs/heads/{name}"), name.clone()),
            (
                format!("refs/remotes/origin/{name}"),
                format!("origin/{name}"),
            ),
        ] {
            if !found.iter().any(|f| f.1 == shown)
                && let Some(id) = find(&full)
            {
                found.push((name.clone(), shown, id));
            }
        }
    }
    let (name, first, tip) = default.or_else(|| found.first().cloned())?;
    let mut shown = vec![first];
    let mut tips = vec![tip];
    for (_, s, id) in found {
        if !shown.contains(&s) {
            shown.push(s);
        }
        if !tips.contains(&id) {
            tips.push(id);
        }
    }
    let compared = match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => shown.concat(),
    };
    Some((DefaultBranch { name, compared }, tips))
}

/// The default branch: its name, and the reference the branch's own commits
/// were compared with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DefaultBranch {
    /// The branch's short name (`main`), as a checked-out branch is named.
    pub(crate) name: String,
    /// The reference read (`main`, `origin/main`, `origin/HEAD`).
    pub(crate) compared: String,
}

/// Whether a commit's id alone says what its parents are as gix reads them:
/// not in a shallow repository (deepening it gives commits parents they did
/// not have) nor with replacement objects. Only then may the branch's commits
/// be kept under commit ids.
fn ids_say_it_all(repo: &gix::Repository) -> bool {
    !repo.is_shallow().unwrap_or(true) && !has_replacements(repo)
}

/// Whether the repository has replacement objects (`refs/replace/`), which
/// rewrite an object as it is read: an id then no longer says what is read.
pub(crate) fn has_replacements(repo: &gix::Repository) -> bool {
    repo.objects.store_ref().replacements().next().is_some()
}

/// The default branch's name ([`default_branch`]) and the subjects of the
/// branch's own commits ([`own_commits`]), kept in the file `cache` when one
/// is given. Commits never change, so the answer for one `HEAD` commit, one
/// default-branch tip and one cap stays the answer until one of them moves (a
/// commit, a checkout, a fetch that moves the default branch). The key is read
/// from the references alone; the answer is kept only when peeling (which
/// reads objects) gives the same commits and branch, as it does for branches
/// that name commits. A kept answer costs no object read: on the reference
/// repository of `benches/git_hook_compare.py` the walk read about a
/// millisecond's worth of commits from the pack, and peeling two more.
///
/// `tip` stands for `HEAD` when an operation in progress detached it from the
/// branch (the branch's tip before a rebase); `replayed`, when given, are the
/// only commits of the branch still its own (a rebase's list: see
/// `in_progress::Detached::replayed`), by id or prefix.
pub(crate) fn default_and_own_commits(
    repo: &gix::Repository,
    max: usize,
    cache: Option<&Path>,
    tip: Option<gix::ObjectId>,
    replayed: Option<&[String]>,
) -> Result<(Option<DefaultBranch>, OwnCommits), GitError> {
    let head = tip.or_else(|| repo.head().ok().and_then(|h| h.id()).map(gix::Id::detach));
    let cache = cache.filter(|_| ids_say_it_all(repo));
    // The default branch, and the branch this one was made from.
    let compared_with = |repo: &gix::Repository, peel: bool| {
        default_branch(repo, peel).map(|(mut name, mut tips)| {
            if let Some((shown, id)) = other_upstream(repo, peel)
                && !tips.contains(&id)
            {
                name.compared = format!("{} and {shown}", name.compared);
                tips.push(id);
            }
            (name, tips)
        })
    };
    let kept = match (cache, head) {
        (Some(_), Some(head)) => compared_with(repo, false).map(|(name, tips)| {
            let ids: Vec<String> = tips.iter().map(ToString::to_string).collect();
            let key = format!(
                "{COMMITS_MAGIC} {head} {} {max} {} {}",
                ids.join(","),
                name.name,
                name.compared.replace(' ', "_")
            );
            (key, head, name, tips)
        }),
        _ => None,
    };
    if let (Some(file), Some((key, _, name, _))) = (cache, &kept)
        && let Some(commits) = read_kept(file, key).and_then(|l| OwnCommits::from_lines(&l))
    {
        return Ok((Some(name.clone()), commits));
    }
    let default = compared_with(repo, true);
    let peeled_head = tip.or_else(|| repo.head_id().ok().map(gix::Id::detach));
    let commits = match (&default, peeled_head) {
        (Some((_, tips)), Some(head)) => own_commits(repo, head, tips, max, replayed)?,
        _ => OwnCommits::default(),
    };
    if let (Some(file), Some((key, head, name, tips))) = (cache, kept)
        && peeled_head == Some(head)
        && default.as_ref() == Some(&(name, tips))
    {
        write_kept(file, "git-commits", key, &commits.to_lines());
    }
    Ok((default.map(|(name, _)| name), commits))
}

/// The branch `HEAD`'s branch was made from, when its upstream is another
/// branch than its own name on a remote (`git switch -c backport/x
/// origin/release/1.2` tracks `origin/release/1.2`): its name as shown and its
/// tip. Its commits are no more the branch's own than the default branch's
/// are (a held-out trial: a backport branch's task held the release branch's
/// last five commits). A branch that tracks its own name (`git push -u`) has
/// none: its pushed commits are still its own.
fn other_upstream(repo: &gix::Repository, peel: bool) -> Option<(String, gix::ObjectId)> {
    let head = repo.head_name().ok().flatten()?;
    let short = head.shorten().to_string();
    let upstream = repo
        .branch_remote_tracking_ref_name(head.as_ref(), gix::remote::Direction::Fetch)
        .and_then(Result::ok)
        .or_else(|| {
            // A local upstream (`branch.<name>.remote = .`): the branch itself.
            let remote = repo.branch_remote_name(short.as_str(), gix::remote::Direction::Fetch)?;
            (remote.as_bstr() == ".")
                .then(|| repo.branch_remote_ref_name(head.as_ref(), gix::remote::Direction::Fetch))
                .flatten()
                .and_then(Result::ok)
        })?;
    let shown = upstream.as_ref().shorten().to_string();
    let own_name = shown.ends_with(&format!("/{short}")) || shown == short;
    if own_name {
        return None;
    }
    let mut r = repo.try_find_reference(upstream.as_ref()).ok().flatten()?;
    let id = if peel {
        r.peel_to_id().ok()?.detach()
    } else {
        r.follow_to_object().ok()?.detach()
    };
    Some((shown, id))
}

/// One of the branch's own commits: its subject and the files it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OwnCommit {
    pub(crate) subject: String,
    pub(crate) files: Vec<String>,
}

impl OwnCommit {
    /// The cache file's lines: `s <subject>`, then `f <path>` per file.
    fn to_lines(commits: &[OwnCommit]) -> Vec<String> {
        let mut out = Vec::new();
        for c in commits {
            out.push(format!("s {}", c.subject));
            out.extend(c.files.iter().map(|f| format!("f {f}")));
        }
        out
    }

    /// Reads [`OwnCommit::to_lines`]; `None` for anything else.
    fn from_lines(lines: &[String]) -> Option<Vec<OwnCommit>> {
        let mut out: Vec<OwnCommit> = Vec::new();
        for l in lines {
            if let Some(subject) = l.strip_prefix("s ") {
                out.push(OwnCommit {
                    subject: subject.to_owned(),
                    files: Vec::new(),
                });
            } else {
                out.last_mut()?.files.push(l.strip_prefix("f ")?.to_owned());
            }
        }
        Some(out)
    }
}

/// The commits reachable from `head` and from none of the default branch's
/// `tips` (subjects and the files each changed), newest first, merges left out
/// (`Merge branch 'main' into ...` says nothing of the task).
fn own_commits(
    repo: &gix::Repository,
    head: gix::ObjectId,
    tips: &[gix::ObjectId],
    max: usize,
    replayed: Option<&[String]>,
) -> Result<OwnCommits, GitError> {
    if tips.contains(&head) {
        return Ok(OwnCommits::default());
    }
    let walk = repo
        .rev_walk([head])
        .with_hidden(tips.iter().copied())
        .sorting(gix::revision::walk::Sorting::ByCommitTime(
            gix::traverse::commit::simple::CommitTimeOrder::NewestFirst,
        ))
        .all()
        .map_err(|e| GitError::read("history", &e))?;
    let mut out = Vec::new();
    let mut ids = Vec::new();
    for info in walk {
        let info = info.map_err(|e| GitError::read("history", &e))?;
        if info.parent_ids.len() > 1 {
            continue;
        }
        let id = info.id.to_string();
        // A rebase under way replays only these: another commit of the branch
        // is upstream already (or dropped), no longer its work.
        if replayed.is_some_and(|r| !r.iter().any(|p| id.starts_with(p.as_str()))) {
            continue;
        }
        ids.push(id);
        if out.len() >= max {
            // Past the subjects the task takes, only which commits are the
            // branch's own (no message read, no diff).
            if ids.len() >= MAX_OWN_IDS {
                break;
            }
            continue;
        }
        let commit = info.object().map_err(|e| GitError::read("a commit", &e))?;
        let subject = commit
            .message_raw_sloppy()
            .to_string()
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned();
        if !subject.is_empty() {
            // A root commit's files (all of them) say nothing of a task, and a
            // shallow boundary's parent is not there to compare with: none.
            let files = match info.parent_ids.first() {
                Some(&parent) => {
                    crate::history::files_changed(repo, info.id, Some(parent)).unwrap_or_default()
                }
                None => Vec::new(),
            };
            out.push(OwnCommit { subject, files });
        }
    }
    Ok(OwnCommits { commits: out, ids })
}

/// How many of the branch's own commits are known by id (a longer-lived
/// branch's older commits count as changes since a note).
const MAX_OWN_IDS: usize = 1_000;

/// The branch's own commits: the newest with their subjects and files, and the
/// ids of all of them (up to [`MAX_OWN_IDS`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OwnCommits {
    pub(crate) commits: Vec<OwnCommit>,
    pub(crate) ids: Vec<String>,
}

impl OwnCommits {
    /// The cache file's lines: [`OwnCommit::to_lines`], then `i <id>` per commit.
    fn to_lines(&self) -> Vec<String> {
        let mut out = OwnCommit::to_lines(&self.commits);
        out.extend(self.ids.iter().map(|id| format!("i {id}")));
        out
    }

    /// Reads [`OwnCommits::to_lines`] (an `i` line anywhere); `None` for
    /// anything else.
    fn from_lines(lines: &[String]) -> Option<OwnCommits> {
        let (ids, commits): (Vec<&String>, Vec<&String>) =
            lines.iter().partition(|l| l.starts_with("i "));
        let commits: Vec<String> = commits.into_iter().cloned().collect();
        Some(OwnCommits {
            commits: OwnCommit::from_lines(&commits)?,
            ids: ids
                .iter()
                .filter_map(|l| l.strip_prefix("i "))
                .map(str::to_owned)
                .collect(),
        })
    }
}

/// First word of a commit-subjects cache file (its format's version).
const COMMITS_MAGIC: &str = "cairn-git-commits-4";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::OwnCommit;

    /// The branch's commits round-trip through the cache file's lines; a file
    /// line before any subject, or any other line, is no answer.
    #[test]
    fn own_commits_round_trip_through_their_lines() {
        let commits = vec![
            OwnCommit {
                subject: "Shorter lock timeout".into(),
                files: vec!["src/a.rs".into(), "src/b c.rs".into()],
            },
            OwnCommit {
                subject: "Docs".into(),
                files: vec![],
            },
        ];
        let lines = OwnCommit::to_lines(&commits);
        assert_eq!(OwnCommit::from_lines(&lines), Some(commits));
        assert_eq!(OwnCommit::from_lines(&["f src/a.rs".into()]), None);
        assert_eq!(OwnCommit::from_lines(&["s x".into(), "y".into()]), None);
        assert_eq!(OwnCommit::from_lines(&[]), Some(vec![]));
    }
}
