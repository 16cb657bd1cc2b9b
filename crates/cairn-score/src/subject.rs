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
//!
//! So does a note whose title says most of the branch's topical words, at
//! least two (`chore/remove-sbl-bridge-leftovers` and "Remove the Altinn 2 /
//! SBL Bridge integration": `sbl` and `bridge` of `sbl bridge leftovers`),
//! whatever the files: a branch named after what a title says is named after
//! that note's topic, while a word no note holds (`leftovers`) and the words
//! every note of the vault shares weighed it below the gate. `title_points`
//! asks, in order, whether a title names a changed file (`files.rs`),
//! says the subject, or says most of the branch.

use std::collections::BTreeSet;

use cairn_note::Note;

use crate::ScoreContext;
use crate::files::{Named, file_stem, generic, plain_title, probe, title_names, words_apart};

/// Folders that say where code sits in a repository, not what it is about
/// (`src`, `internal`, `packages`): a branch word that names one is no subject.
const LAYOUT_WORDS: &str = "src source sources lib libs pkg pkgs cmd internal app apps \
     package packages module modules crate crates include bin script scripts doc docs";

/// What the branch and the changed files of a derived task are both about
/// ([`subject()`]); empty for any other task.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subject {
    words: Vec<SubjectWord>,
    /// The branch's topical words, whatever the files name.
    branch: Vec<SubjectWord>,
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

    /// Keeps the branch's topical words whose analysed form `keep` accepts.
    pub fn retain_branch(&mut self, mut keep: impl FnMut(&str) -> bool) {
        self.branch.retain(|w| keep(&w.term));
    }

    /// Whether the branch has two topical words or more (a title can say most
    /// of them, see `title_holds_branch`).
    pub fn branch_has_words(&self) -> bool {
        self.branch.len() >= 2
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
    if branch.trim().is_empty() {
        return Subject::default();
    }
    let named: BTreeSet<String> = files.iter().flat_map(|f| path_terms(f)).collect();
    let mut branch_words: Vec<SubjectWord> = Vec::new();
    for word in branch.split_whitespace() {
        for term in cairn_index::analyze(&words_apart(word)) {
            let topical = !filler.contains(&term) && !generic(&term) && !LAYOUT.contains(&term);
            if topical && !branch_words.iter().any(|w| w.term == term) {
                branch_words.push(SubjectWord {
                    probe: probe(&term),
                    term,
                    word: word.to_lowercase(),
                });
            }
        }
    }
    let words = branch_words
        .iter()
        .filter(|w| named.contains(&w.term))
        .cloned()
        .collect();
    Subject {
        words,
        branch: branch_words,
    }
}

/// The words a path names, analysed: its folders' and its file's name's
/// (`src/rds_instance/main.tf`: src, rds, instance, main).
fn path_terms(path: &str) -> Vec<String> {
    let mut parts: Vec<&str> = path.split(['/', '\\']).collect();
    if let Some(last) = parts.last_mut() {
        *last = file_stem(last);
    }
    parts
        .into_iter()
        .flat_map(|p| cairn_index::analyze(&words_apart(p)))
        .collect()
}

/// The branch's topical words `title` says, as the branch writes them, when
/// it says most of them (two thirds, rounded up) and at least two.
fn title_holds_branch(title: &Title<'_>, subject: &Subject) -> Option<Vec<String>> {
    let words = &subject.branch;
    let need = (words.len() * 2).div_ceil(3).max(2);
    if words.len() < 2 || words.iter().filter(|w| title.may_say(w)).count() < need {
        return None;
    }
    let said: Vec<&SubjectWord> = words.iter().filter(|w| title.says(w)).collect();
    if said.len() < need {
        return None;
    }
    // A branch word analysed into two terms (`selfIdentified`) is named once.
    let mut held: Vec<String> = Vec::new();
    for w in said {
        if !held.contains(&w.word) {
            held.push(w.word.clone());
        }
    }
    Some(held)
}

/// A note's title as the subject's checks read it: lowercase for the probes,
/// and its analysed words, analysed once, when a probe says they may hold a
/// word.
struct Title<'n> {
    text: &'n str,
    lower: String,
    ascii: bool,
    words: std::cell::OnceCell<BTreeSet<String>>,
}

impl<'n> Title<'n> {
    fn of(n: &'n Note) -> Self {
        let (lower, ascii) = plain_title(&n.title);
        Self {
            text: &n.title,
            lower,
            ascii,
            words: std::cell::OnceCell::new(),
        }
    }

    /// Whether the title may say `w`: the test on letters as written holds
    /// for plain ASCII titles only (an accent the index folds away is not the
    /// letter of a probe).
    fn may_say(&self, w: &SubjectWord) -> bool {
        !self.ascii || self.lower.contains(w.probe.as_str())
    }

    /// Whether the title's analysed words hold `w`.
    fn says(&self, w: &SubjectWord) -> bool {
        self.words
            .get_or_init(|| cairn_index::analyze(self.text).into_iter().collect())
            .contains(&w.term)
    }
}

/// A title that writes a file's name ("Invoke adr-config to get
/// configuration"), says every word of it (`AdrSlug.ts`, "Use the ADR
/// slug as its unique ID"), or says what the branch and the changed files
/// both name ("RDS Database Management" for `fix/rds-storage-autoscaling`
/// changing `modules/rds_instance/main.tf`; not when the note's related files
/// are all elsewhere and none is named with that word), or says most of the branch's
/// words points at the note as a module does: the factor's name and its
/// reason. The caller asks only of a note the text search found (its title
/// holds the words, which are in the query), so the titles of the others are
/// never read.
pub(crate) fn title_points(n: &Note, ctx: &ScoreContext<'_>) -> Option<(&'static str, String)> {
    if let Some((f, how)) = title_names(n, ctx.file_names, (ctx.project_id, ctx.own_names)) {
        let why = match how {
            Named::Written => format!("its title writes the name of {}", f.file),
            Named::Sole => format!("its title is the name of {}", f.file),
            Named::Words => format!(
                "its title names {} ({})",
                f.file,
                f.terms.iter().cloned().collect::<Vec<_>>().join(" ")
            ),
        };
        return Some(("file_name", why));
    }
    // Not a confidential note's (as for related files: what points at it is
    // its content).
    if (ctx.subject.is_empty() && !ctx.subject.branch_has_words())
        || n.sensitivity >= cairn_note::Sensitivity::Confidential
    {
        return None;
    }
    let title = Title::of(n);
    // A note that names its code, none of it the work's nor named with the
    // word, is about other code: the word in its title is the word in another
    // sense ("Use the argmax crate to size exec batches", about `src/exec/`,
    // for `fix/size-filter-units` changing `src/filter/size.rs`: a held-out
    // trial), where a note about `src/billing/payout.rs` is about payouts
    // whichever payout file changed.
    let elsewhere = std::cell::OnceCell::new();
    let own_sense = |w: &SubjectWord| {
        elsewhere
            .get_or_init(|| code_elsewhere(n, ctx))
            .as_ref()
            .is_none_or(|named: &BTreeSet<String>| named.contains(&w.term))
    };
    if let Some(word) = title_says(&title, ctx.subject, own_sense) {
        return Some((
            "subject",
            format!("its title names {word}, what the branch and the changed files are about"),
        ));
    }
    title_holds_branch(&title, ctx.subject).map(|words| {
        (
            "subject",
            format!(
                "its title says {}, most of the branch's words",
                words.join(" ")
            ),
        )
    })
}

/// The words a note's related files are named with, when it names code and
/// none of it is the work's; `None` when nothing says the note is about other
/// code (it names none, or a changed file is one of its own).
fn code_elsewhere(n: &Note, ctx: &ScoreContext<'_>) -> Option<BTreeSet<String>> {
    if n.related_files.is_empty() || crate::files::file_match(n, ctx.files).is_some() {
        return None;
    }
    Some(n.related_files.iter().flat_map(|f| path_terms(f)).collect())
}

/// The first word of `subject` `title` says and `in_its_sense` accepts, as
/// the branch writes it.
fn title_says<'s>(
    title: &Title<'_>,
    subject: &'s Subject,
    in_its_sense: impl Fn(&SubjectWord) -> bool,
) -> Option<&'s str> {
    subject
        .words
        .iter()
        .filter(|w| title.may_say(w))
        .find(|w| title.says(w) && in_its_sense(w))
        .map(|w| w.word.as_str())
}
