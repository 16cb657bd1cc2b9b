//! The task a working tree gives: the branch name's words, the subjects of the
//! branch's own commits (each a part of the task), and the changed files, each
//! put on one line and redacted (they are untrusted text), cut to a bounded
//! size, and what was derived and from where, for the packet and `explain`;
//! and how its parts' words weigh in the query (filler such as `fix` or
//! `review comments` at a quarter). Reading git is `git_task.rs`'s; this knows
//! only the working tree it read.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use cairn_index::QueryTerms;

use crate::git_task::{GitTask, plural, safe};

/// A task derived from a working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedTask {
    /// The query: the branch's words, then the commit subjects (redacted).
    pub task: String,
    /// The changed files, absolute, most recently modified first.
    pub files: Vec<String>,
    /// What was derived and from where, for the packet's `query.derived`.
    pub summary: String,
    /// The details, for `explain`.
    pub lines: Vec<String>,
    /// The task's parts: the branch's words, then each commit's subject.
    pub parts: Vec<TaskPart>,
}

/// A part of a derived task that states a topic of its own. A branch and the
/// branch's commits are several small tasks, not one long one: a note that
/// covers one of them passes the relevance gate, as one covering the whole
/// task does (see [`cairn_index::QueryTerms::parts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskPart {
    /// Where it comes from.
    pub kind: PartKind,
    /// Its words (redacted, without markers, without a commit type).
    pub text: String,
}

/// Where a part of a derived task comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartKind {
    /// The branch name's words.
    Branch,
    /// One commit's subject.
    Commit,
}

impl PartKind {
    /// What a coverage of this part is a share of, in words.
    pub(crate) fn name(self) -> &'static str {
        match self {
            PartKind::Branch => "the branch name",
            PartKind::Commit => "a commit subject",
        }
    }

    /// The weight of its words in the query: the branch names the work, a
    /// commit one step of it.
    pub(crate) fn weight(self) -> f32 {
        match self {
            PartKind::Branch => 1.0,
            PartKind::Commit => 0.5,
        }
    }

    /// The fewest topical words (not filler) that let the part pass the gate on
    /// its own: a branch is named for its topic (`feature/billing`), while a
    /// one-word subject (`Fix typo`, `Update README`) says too little.
    pub(crate) fn min_words(self) -> usize {
        match self {
            PartKind::Branch => 1,
            PartKind::Commit => 2,
        }
    }

    /// The filler of a part of this kind, analysed once per process: a
    /// branch's [`DERIVED_FILLER`], a commit's [`COMMIT_FILLER`] too.
    fn filler(self) -> &'static BTreeSet<String> {
        static BRANCH: LazyLock<BTreeSet<String>> =
            LazyLock::new(|| cairn_index::analyze(DERIVED_FILLER).into_iter().collect());
        static COMMIT: LazyLock<BTreeSet<String>> = LazyLock::new(|| {
            BRANCH
                .iter()
                .cloned()
                .chain(cairn_index::analyze(COMMIT_FILLER))
                .collect()
        });
        match self {
            PartKind::Branch => &BRANCH,
            PartKind::Commit => &COMMIT,
        }
    }
}

/// Adds the words of a derived task's `parts` to `q` (each at its kind's
/// weight, filler at a quarter) and, as `q`'s parts, those with enough topical
/// words to pass a note on their own; returns the names of the parts kept.
pub(crate) fn add_parts(q: &mut QueryTerms, parts: &[TaskPart]) -> Vec<&'static str> {
    let mut names = Vec::new();
    for part in parts {
        let filler = part.kind.filler();
        let terms = add_derived_words(q, &part.text, part.kind.weight(), filler);
        let topical = terms.iter().filter(|t| !filler.contains(*t)).count();
        if topical >= part.kind.min_words()
            && !q.parts.contains(&terms)
            && q.parts.len() < MAX_PARTS
        {
            q.parts.push(terms);
            names.push(part.kind.name());
        }
    }
    names
}

/// The share of the notes holding a word from which it names what the vault
/// is about rather than a subject of work (`aws` in 55% of a vault of AWS
/// infrastructure's notes; `rds` in 15%, `dns` in 21%).
pub(crate) const DOMAIN_SHARE: f64 = 0.4;

/// What the branch of a derived task's `parts` and the task's `files` are both
/// about ([`cairn_score::subject()`]), the branch's filler aside; empty without
/// a branch part.
pub(crate) fn subject(parts: &[TaskPart], files: &[String]) -> cairn_score::Subject {
    parts
        .iter()
        .find(|p| p.kind == PartKind::Branch)
        .map(|p| cairn_score::subject(&p.text, files, PartKind::Branch.filler()))
        .unwrap_or_default()
}

/// Words of a derived task (a branch name, a commit subject) that say what kind
/// of change it is, not what it is about (`Add`, `Fix`, `Update`, `wip`). A
/// narrower list than [`crate::wakeup::TASK_FILLER`]: in a branch or a commit, `help`, `job`,
/// `plan` or `check` name a topic (`help output`, `cron job`, `health check`).
const DERIVED_FILLER: &str = "add adds added adding bump change changed fix fixed fixes get \
     implement improve make minor more new refactor remove removed rename renamed revert small \
     tidy tweak typo update updated use wip cleanup clean";

/// Words of a commit subject that say how the work went, not what it is about:
/// a review's round (`Address review comments`, GitHub's `Apply suggestions
/// from code review`), the tests, the formatter, a rebase. Filler in commits
/// only: a branch named `feature/comments` or `review-queue` names a topic.
const COMMIT_FILLER: &str = "address addressed apply applied suggestion suggestions review \
     reviews comment comments feedback nit nits lint format formatting fmt prettier rustfmt \
     clippy rebase merge merged conflict conflicts resolve resolved test tests code ci pr";

/// Most parts a derived task's query has (the branch and the newest commits;
/// older commits' words still count in ranking): each part can pass a note on
/// its own, so more would loosen the gate.
const MAX_PARTS: usize = 6;

/// Adds the words of a derived task's part to `q` at `weight` (filler at a
/// quarter of it); returns the part's terms.
fn add_derived_words(
    q: &mut QueryTerms,
    text: &str,
    weight: f32,
    filler: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut terms = BTreeSet::new();
    let text = cairn_policy::without_credentials(text);
    q.add_pairs(&text);
    for t in cairn_index::analyze(&text) {
        let w = if filler.contains(&t) {
            weight * 0.25
        } else {
            weight
        };
        *q.terms.entry(t.clone()).or_insert(0.0) += w;
        terms.insert(t);
    }
    terms
}

/// Whether `file` (relative to the working tree `workdir`) is a note of the
/// vault: a note edited in the working tree (a repository that keeps its notes
/// in `docs/`) is memory, not the code the task is about.
pub(crate) fn is_vault_note(workdir: &Path, file: &str, note_dirs: &[PathBuf]) -> bool {
    cairn_scan::is_note_file(file) && {
        let abs = workdir.join(file);
        note_dirs.iter().any(|d| abs.starts_with(d))
    }
}

/// The task a working tree gives, or why it gives none.
pub(crate) fn task_of(
    tree: &cairn_git::WorkingTree,
    why: &str,
    max_files: usize,
    note_dirs: &[PathBuf],
) -> GitTask {
    let is_note = |f: &String| is_vault_note(&tree.workdir, f, note_dirs);
    // Redacted whole, then cut: a branch or a subject of any length gives a
    // task of a bounded size (a long one would not fit the packet's budget).
    let safe_branch = tree.branch.as_deref().map(safe);
    let branch = safe_branch.as_deref().map(|b| clip(b, MAX_BRANCH_CHARS));
    let on_default = tree.branch.is_some() && tree.branch == tree.default_branch;
    let mut words = match safe_branch.as_deref() {
        Some(b) if !on_default => {
            cairn_git::branch_words(&cairn_policy::without_markers(b), &tree.author)
        }
        _ => Vec::new(),
    };
    words.truncate(MAX_BRANCH_WORDS);
    // What each subject is about: without a Conventional Commits type, in the
    // task as in its part (`fix: ok` says nothing of debugging); each once (a
    // `fixup!` commit repeats the subject it amends); none made only of filler
    // (`WIP`, `fix tests`, `Address review comments`: how the work went).
    let filler = PartKind::Commit.filler();
    let mut subjects: Vec<String> = Vec::new();
    let mut commit_count = 0;
    for s in &tree.commits {
        let topic = cairn_git::subject_topic(&cairn_policy::without_markers(&safe(s)));
        let topic = clip(&topic, MAX_SUBJECT_CHARS);
        if topic.is_empty() {
            continue;
        }
        commit_count += 1;
        let only_filler = cairn_index::analyze(&topic)
            .iter()
            .all(|t| filler.contains(t));
        if !only_filler && !subjects.contains(&topic) {
            subjects.push(topic);
        }
    }
    // The changed files, then those the branch's own commits changed (a
    // branch whose work is committed still names its files), each once, at
    // most as many as the changed files may be.
    let cap = tree.changed.len().max(max_files);
    let mut rel: Vec<&String> = tree
        .changed
        .iter()
        .filter(|f| safe(f) == **f && !is_note(f))
        .collect();
    let from_commits = tree
        .committed
        .iter()
        .filter(|f| safe(f) == **f && !tree.changed.contains(f) && !is_note(f))
        .take(cap.saturating_sub(rel.len()))
        .collect::<Vec<_>>();
    let committed_used = from_commits.len();
    rel.extend(from_commits);
    let files: Vec<String> = rel
        .iter()
        .map(|f| tree.workdir.join(f).display().to_string())
        .collect();
    let mut parts = Vec::new();
    if !words.is_empty() {
        parts.push(TaskPart {
            kind: PartKind::Branch,
            text: words.join(" "),
        });
    }
    parts.extend(subjects.iter().map(|s| TaskPart {
        kind: PartKind::Commit,
        text: s.clone(),
    }));
    let mut said: Vec<&str> = Vec::new();
    if !words.is_empty() {
        said.push(&parts[0].text);
    }
    said.extend(subjects.iter().map(String::as_str));
    let task = said.join("; ");
    let mut from = Vec::new();
    match &branch {
        Some(b) => from.push(match tree.in_progress {
            Some(op) => format!("branch {b} ({} in progress)", op.as_str()),
            None => format!("branch {b}"),
        }),
        None => from.push("detached HEAD".to_owned()),
    }
    let changed_used = files.len() - committed_used;
    if changed_used > 0 {
        let n = tree.changed_total;
        from.push(if n > changed_used {
            format!("{n} changed files ({changed_used} used)")
        } else {
            plural(n, "changed file")
        });
    }
    if commit_count > 0 {
        // The commits' files that are not changed files too ("other" beside
        // changed files: those counted already are not counted again).
        let commits = plural(commit_count, "commit");
        from.push(match committed_used {
            0 => commits,
            n if changed_used > 0 => format!("{commits} changing {}", plural(n, "other file")),
            n => format!("{commits} changing {}", plural(n, "file")),
        });
    }
    if task.is_empty() && files.is_empty() {
        return GitTask::Nothing(format!(
            "{}: nothing changed and no commit of its own",
            from.join(", ")
        ));
    }
    // A credential in a commit subject or a file name is left out of the task
    // (a subject without it, a file not at all): said by its marker, so that it
    // is seen, and counted with the packet's redactions.
    let left_out: Vec<String> = tree
        .commits
        .iter()
        .chain(&tree.changed)
        .chain(&tree.committed)
        .flat_map(|t| cairn_policy::redact(&cairn_policy::one_line(t)).kinds)
        .map(cairn_policy::CredentialKind::marker)
        .collect();
    let mut summary = format!("derived from git: {}", from.join(", "));
    if !left_out.is_empty() {
        summary.push_str(&format!("; left out: {}", left_out.join(", ")));
    }
    let mut lines = vec![
        format!("{summary} ({why})"),
        format!(
            "task: {}",
            match (task.is_empty(), &branch) {
                (false, _) => task.as_str(),
                (true, Some(_)) if on_default => {
                    "(none: the branch is the default branch, whose name is no task)"
                }
                (true, Some(_)) => "(none: the branch's name is generic or throwaway)",
                (true, None) => "(none)",
            }
        ),
    ];
    if let Some(d) = &tree.default_ref {
        lines.push(format!(
            "commits: the branch's own, not on the default branch ({})",
            safe(d)
        ));
    }
    if changed_used > 0 {
        lines.push(format!(
            "files (most recently modified first): {}",
            rel[..changed_used]
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if committed_used > 0 {
        lines.push(format!(
            "files of the branch's commits (newest first): {}",
            rel[changed_used..]
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    GitTask::Derived(DerivedTask {
        task,
        files,
        summary,
        lines,
        parts,
    })
}

/// Most words of a branch name used as the task's branch part.
const MAX_BRANCH_WORDS: usize = 12;
/// Most characters of a branch name shown (in `query.derived`, `explain`).
const MAX_BRANCH_CHARS: usize = 80;
/// Most characters of a commit subject used and shown.
const MAX_SUBJECT_CHARS: usize = 120;

/// `text` cut to at most `max` characters, at the last space before the cut if
/// there is one in its second half, with `…` where it was cut.
fn clip(text: &str, max: usize) -> String {
    let Some((at, _)) = text.char_indices().nth(max) else {
        return text.to_owned();
    };
    let head = &text[..at];
    let head = match head.rfind(' ') {
        Some(space) if space >= at / 2 => &head[..space],
        _ => head,
    };
    format!("{}…", head.trim_end())
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn derived_words_weigh_commit_verbs_as_filler_and_topics_in_full() {
        let filler = cairn_index::analyze(super::DERIVED_FILLER)
            .into_iter()
            .collect();
        let mut q = cairn_index::QueryTerms::default();
        // "help" and "check" are filler in a request ("please help me check"),
        // topics in a branch or a commit.
        let terms =
            super::add_derived_words(&mut q, "Add help output for health checks", 0.5, &filler);
        let w = |t: &str| q.terms.get(t).copied();
        assert_eq!(w("add"), Some(0.125));
        assert_eq!(w("help"), Some(0.5));
        assert_eq!(w("check"), Some(0.5));
        assert_eq!(w("output"), Some(0.5));
        assert_eq!(terms.len(), 5, "{terms:?}");
        // In a request, as before.
        let mut r = cairn_index::QueryTerms::default();
        crate::wakeup::add_task_words(&mut r, "please help me check the output");
        assert_eq!(r.terms.get("help").copied(), Some(0.25));
    }

    #[test]
    fn long_text_is_clipped_at_a_space() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("exactly ten", 11), "exactly ten");
        assert_eq!(clip("one two three four", 12), "one two…");
        assert_eq!(clip("abcdefghijklmnop", 5), "abcde…");
        assert_eq!(clip("ééééé", 3), "ééé…");
    }
}
