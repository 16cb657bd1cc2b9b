//! The branch an operation in progress detached `HEAD` from. A rebase that
//! stopped (a conflict, an `edit`) and a bisect leave `HEAD` on a bare commit,
//! yet the work is still the branch's: git's own status and prompt name it
//! ("You are currently rebasing branch 'fix/x'"). gix says which operation is
//! in progress ([`gix::Repository::state`]); the branch is in the one-line
//! state file that operation wrote in the working tree's git folder, which gix
//! does not read: `rebase-merge/head-name` or `rebase-apply/head-name` (a full
//! reference name) with the branch's tip before the rebase in `orig-head`, or
//! `BISECT_START` (the short name of the branch the bisect started from).
//!
//! The files are untrusted: at most [`MAX_STATE_FILE`] bytes are read, and a
//! name is used only when it is a valid branch reference and a tip only when
//! it names a commit of the repository.

use std::io::Read;
use std::path::Path;

/// The most bytes read of a state file (a reference name and an id are far shorter).
const MAX_STATE_FILE: u64 = 1024;

/// An operation that left `HEAD` detached from a branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// A rebase (`git rebase`, interactive or not) stopped partway.
    Rebase,
    /// A bisect (`git bisect`) under way.
    Bisect,
    /// A merge stopped at a conflict (`HEAD` stays on the branch).
    Merge,
}

impl Operation {
    /// How it is said: `rebase`, `bisect`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rebase => "rebase",
            Self::Bisect => "bisect",
            Self::Merge => "merge",
        }
    }
}

/// The branch `HEAD` was detached from by an operation in progress, and the
/// commit the branch's own commits are read from: the branch's tip before a
/// rebase (its commits not yet replayed are still the branch's), the branch's
/// tip for a bisect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Detached {
    pub(crate) branch: String,
    pub(crate) tip: gix::ObjectId,
    pub(crate) operation: Operation,
    /// For a rebase of git's merge backend, the commits it replays (those it
    /// did and those it has yet to, by id or a prefix of one): a commit of the
    /// branch that git found upstream already (cherry-picked) is not among
    /// them, nor one dropped from the list, and is not the branch's work any
    /// more. `None` when not known (the apply backend, a bisect, an unreadable
    /// list).
    pub(crate) replayed: Option<Vec<String>>,
}

/// The branch an operation in progress detached `HEAD` from; `None` when no
/// rebase or bisect is under way, or when its state files name no branch of
/// this repository (a rebase of a detached `HEAD`, a bisect started on one).
pub(crate) fn detached_from(repo: &gix::Repository) -> Option<Detached> {
    use gix::state::InProgress;
    let git_dir = repo.git_dir();
    match repo.state()? {
        InProgress::Rebase | InProgress::RebaseInteractive | InProgress::ApplyMailboxRebase => {
            ["rebase-merge", "rebase-apply"].iter().find_map(|folder| {
                let dir = git_dir.join(folder);
                let full = read_line(&dir.join("head-name"))?;
                let branch = branch_of(&full)?;
                let tip = gix::ObjectId::from_hex(read_line(&dir.join("orig-head"))?.as_bytes())
                    .ok()
                    .filter(|id| is_commit(repo, *id))?;
                Some(Detached {
                    branch,
                    tip,
                    operation: Operation::Rebase,
                    replayed: replayed(&dir),
                })
            })
        }
        InProgress::Bisect => {
            let short = read_line(&git_dir.join("BISECT_START"))?;
            let branch = branch_of(&format!("refs/heads/{short}"))?;
            let tip = repo
                .try_find_reference(format!("refs/heads/{branch}").as_str())
                .ok()
                .flatten()?
                .peel_to_id()
                .ok()?
                .detach();
            Some(Detached {
                branch,
                tip,
                operation: Operation::Bisect,
                replayed: None,
            })
        }
        _ => None,
    }
}

/// What a merge that stopped at a conflict says of the changed files: the
/// files in conflict (the developer's work now) and the files the merge
/// brought in cleanly (staged as the merged branch has them: its work, not the
/// developer's). `None` when no merge is under way.
#[derive(Debug, Default)]
pub(crate) struct Merging {
    pub(crate) conflicted: std::collections::BTreeSet<String>,
    pub(crate) incoming: std::collections::BTreeSet<String>,
    /// The tree of the merged commit, when `MERGE_HEAD` names one.
    theirs: Option<gix::ObjectId>,
}

impl Merging {
    /// Counts as incoming those of `deleted` (files staged as deleted) that
    /// the merged commit has not either: the merge brought in their removal.
    pub(crate) fn add_removed_by_them<'p>(
        &mut self,
        repo: &gix::Repository,
        deleted: impl IntoIterator<Item = &'p String>,
    ) {
        let Some(tree) = self
            .theirs
            .and_then(|id| repo.find_object(id).ok()?.peel_to_tree().ok())
        else {
            return;
        };
        for path in deleted {
            if !self.conflicted.contains(path)
                && tree.lookup_entry_by_path(path).ok().flatten().is_none()
            {
                self.incoming.insert(path.clone());
            }
        }
    }
}

/// The [`Merging`] of `repo` whose index is `index`; `None` outside a merge.
/// The merged commit is read from `MERGE_HEAD` (untrusted: used only when it
/// names a commit of the repository); without it, nothing is incoming. A file
/// in `unstaged` (changed in the working tree since) is the developer's.
pub(crate) fn merging(
    repo: &gix::Repository,
    index: &gix::index::File,
    unstaged: &std::collections::BTreeSet<String>,
) -> Option<Merging> {
    use gix::index::entry::Stage;
    if !matches!(repo.state()?, gix::state::InProgress::Merge) {
        return None;
    }
    let mut out = Merging::default();
    for e in index.entries() {
        if e.stage() != Stage::Unconflicted {
            out.conflicted.insert(e.path(index).to_string());
        }
    }
    let theirs = read_line(&repo.git_dir().join("MERGE_HEAD"))
        .and_then(|hex| gix::ObjectId::from_hex(hex.as_bytes()).ok())
        .filter(|id| is_commit(repo, *id))
        .and_then(|id| repo.find_object(id).ok()?.peel_to_tree().ok());
    out.theirs = theirs.as_ref().map(|t| t.id);
    if let Some(tree) = theirs {
        for e in index.entries() {
            let path = e.path(index).to_string();
            if e.stage() != Stage::Unconflicted
                || out.conflicted.contains(&path)
                || unstaged.contains(&path)
            {
                continue;
            }
            let same = tree
                .lookup_entry_by_path(&path)
                .ok()
                .flatten()
                .is_some_and(|t| t.object_id() == e.id);
            if same {
                out.incoming.insert(path);
            }
        }
    }
    Some(out)
}

/// The most bytes read of a rebase's list of commands (a line per commit).
const MAX_TODO_FILE: u64 = 1 << 20;

/// The commits a rebase of the merge backend replays, from its lists of
/// commands done (`done`) and to do (`git-rebase-todo`): the id (or the
/// prefix of one, as a user may write it) after each command that replays a
/// commit (`pick`, `reword`, `edit`, `squash`, `fixup`, their one-letter
/// forms, after their options). `None` for another folder (the apply
/// backend keeps patches), a list that is not a regular file or cut short by
/// the size cap, or no commit named at all.
fn replayed(dir: &Path) -> Option<Vec<String>> {
    if !dir.ends_with("rebase-merge") {
        return None;
    }
    let mut ids = Vec::new();
    for name in ["done", "git-rebase-todo"] {
        let path = dir.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_file() || meta.len() > MAX_TODO_FILE {
            return None;
        }
        let text = read_small(&path, MAX_TODO_FILE)?;
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let replays = matches!(
                words.next(),
                Some("pick" | "p" | "reword" | "r" | "edit" | "e" | "squash" | "s" | "fixup" | "f")
            );
            if !replays {
                continue;
            }
            if let Some(id) = words.find(|w| !w.starts_with('-'))
                && id.len() >= 4
                && id.bytes().all(|b| b.is_ascii_hexdigit())
            {
                ids.push(id.to_ascii_lowercase());
            }
        }
    }
    (!ids.is_empty()).then_some(ids)
}

/// The first line of a small state file, trimmed; `None` when it is missing,
/// not a regular file, unreadable, not UTF-8 or empty.
fn read_line(path: &Path) -> Option<String> {
    let text = read_small(path, MAX_STATE_FILE)?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_owned())
}

/// At most `max` bytes of the state file at `path`; `None` when it is missing,
/// not a regular file, unreadable or not UTF-8.
fn read_small(path: &Path, max: u64) -> Option<String> {
    // A regular file only: opening a FIFO planted there would wait forever.
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .ok()?
        .take(max)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The short name of a full branch reference name (`refs/heads/fix/x` →
/// `fix/x`); `None` for anything else (`detached HEAD`, an invalid name).
fn branch_of(full: &str) -> Option<String> {
    let name = gix::refs::FullName::try_from(full).ok()?;
    let short = full.strip_prefix("refs/heads/")?;
    (!short.is_empty() && name.as_bstr() == full).then(|| short.to_owned())
}

/// Whether `id` names a commit of the repository.
fn is_commit(repo: &gix::Repository, id: gix::ObjectId) -> bool {
    repo.find_object(id)
        .is_ok_and(|o| o.kind == gix::object::Kind::Commit)
}

#[cfg(test)]
mod tests {
    use super::{branch_of, replayed};

    #[test]
    fn a_rebase_list_names_the_commits_it_replays() {
        let dir = tempfile::tempdir().unwrap();
        let merge = dir.path().join("rebase-merge");
        std::fs::create_dir(&merge).unwrap();
        std::fs::write(
            merge.join("done"),
            "pick 1a2b3c4d5e6f Change a\nexec make test\nlabel onto\n",
        )
        .unwrap();
        std::fs::write(
            merge.join("git-rebase-todo"),
            "# a comment\nfixup -C ABCDEF12 Squash me\nr 99aa Reword\n\
             drop 5555aaaa Dropped\nmerge -C 7777bbbb topic\npick zz-not-hex x\n",
        )
        .unwrap();
        assert_eq!(
            replayed(&merge),
            Some(vec![
                "1a2b3c4d5e6f".into(),
                "abcdef12".into(),
                "99aa".into()
            ])
        );
        // The apply backend keeps patches, not a list.
        let apply = dir.path().join("rebase-apply");
        std::fs::create_dir(&apply).unwrap();
        assert_eq!(replayed(&apply), None);
        // A list naming no commit says nothing.
        std::fs::write(merge.join("done"), "exec true\n").unwrap();
        std::fs::write(merge.join("git-rebase-todo"), "").unwrap();
        assert_eq!(replayed(&merge), None);
    }

    #[test]
    fn only_valid_branch_references_name_a_branch() {
        assert_eq!(
            branch_of("refs/heads/fix/lock-timeouts").as_deref(),
            Some("fix/lock-timeouts")
        );
        for not in [
            "detached HEAD",
            "refs/heads/",
            "refs/tags/v1.0",
            "refs/heads/a..b",
            "refs/heads/x y",
            "refs/heads/x\u{7}",
            "HEAD",
        ] {
            assert_eq!(branch_of(not), None, "{not:?}");
        }
    }
}
