//! What a derived task is about, where the branch and the changed files agree:
//! the branch name's topical words that also name a folder or a file the work
//! changed (`fix/rds-storage-autoscaling` changing
//! `terraform/modules/aws/rds_instance/main.tf`: `rds`), and which notes'
//! titles say one ("RDS Database Management").
//!
//! Two sources naming the same thing is the strongest evidence a working tree
//! gives of what the session is about, and a title is what a note says it is
//! about. Such a note passes the relevance gate as one a changed file names
//! does, however little of the rest of the task it covers: the rest (how the
//! work goes, `storage autoscaling`) may be in no note at all.

use std::collections::BTreeSet;

use cairn_note::Note;

use crate::files::{file_stem, generic, plain_title, probe, words_apart};

/// Folders that say where code sits in a repository, not what it is about
/// (`src`, `internal`, `packages`): a branch word that names one is no subject.
const LAYOUT_WORDS: &str = "src source sources lib libs pkg pkgs cmd internal app apps \
     package packages module modules crate crates include bin script scripts doc docs";

/// What the branch and the changed files of a derived task are both about
/// ([`subject()`]); empty for any other task.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subject {
    words: Vec<SubjectWord>,
}

/// A word of a [`Subject`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct SubjectWord {
    /// As the index analyses it.
    term: String,
    /// As the branch name writes it, lowercase (for reasons).
    word: String,
    /// What a plain title holding it contains ([`probe`]).
    probe: String,
}

impl Subject {
    /// Whether no word is both the branch's and the files'.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Keeps the words whose analysed form `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.words.retain(|w| keep(&w.term));
    }

    /// Its words as the branch name writes them, in the branch's order.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.words.iter().map(|w| w.word.as_str())
    }
}

/// The words of `branch` (a branch name's words, apart) that are not `filler`
/// (`fix`, `update`: analysed words) and that name a folder or a file of
/// `files` (their names' words, `rds_instance` being `rds` and `instance`),
/// but not a folder of a repository's layout (`src`, `packages`), a word that
/// says what a file is (`test`, `config`) or a number.
pub fn subject(branch: &str, files: &[String], filler: &BTreeSet<String>) -> Subject {
    static LAYOUT: std::sync::LazyLock<BTreeSet<String>> =
        std::sync::LazyLock::new(|| cairn_index::analyze(LAYOUT_WORDS).into_iter().collect());
    if branch.trim().is_empty() || files.is_empty() {
        return Subject::default();
    }
    let named: BTreeSet<String> = files
        .iter()
        .flat_map(|f| {
            let mut parts: Vec<&str> = f.split(['/', '\\']).collect();
            if let Some(last) = parts.last_mut() {
                *last = file_stem(last);
            }
            parts
                .into_iter()
                .flat_map(|p| cairn_index::analyze(&words_apart(p)))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut words: Vec<SubjectWord> = Vec::new();
    for word in branch.split_whitespace() {
        for term in cairn_index::analyze(&words_apart(word)) {
            let topical = !filler.contains(&term) && !generic(&term) && !LAYOUT.contains(&term);
            if topical && named.contains(&term) && !words.iter().any(|w| w.term == term) {
                words.push(SubjectWord {
                    probe: probe(&term),
                    term,
                    word: word.to_lowercase(),
                });
            }
        }
    }
    Subject { words }
}

/// The first word of `subject` the note's title says, as the branch writes
/// it; `None` for a confidential note (as for related files: what points at
/// it is its content).
pub(crate) fn title_says<'s>(n: &Note, subject: &'s Subject) -> Option<&'s str> {
    if subject.is_empty() || n.sensitivity >= cairn_note::Sensitivity::Confidential {
        return None;
    }
    let (lower, ascii) = plain_title(&n.title);
    // The test on letters as written holds for plain ASCII titles only (an
    // accent the index folds away is not the letter of a probe).
    let mut maybe = subject
        .words
        .iter()
        .filter(|w| !ascii || lower.contains(w.probe.as_str()))
        .peekable();
    maybe.peek()?;
    let title: BTreeSet<String> = cairn_index::analyze(&n.title).into_iter().collect();
    maybe
        .find(|w| title.contains(&w.term))
        .map(|w| w.word.as_str())
}
