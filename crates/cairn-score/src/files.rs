//! Which of a note's related files and modules the task's files point at: the
//! same path, a folder holding it, or the file's name alone; and which notes'
//! titles name a task's file by its words (`AdrSlug.ts`, "Use the ADR slug as
//! its unique ID").

use std::collections::{BTreeMap, BTreeSet};

use cairn_note::Note;

use crate::ScoreContext;

pub(crate) fn norm_path(mut p: &str) -> &str {
    // `strip_prefix` compares bytes; `trim_start_matches` with a string
    // pattern sets up a substring search at every call (thousands per wake-up).
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.trim_matches('/')
}

fn path_covers(a: &str, b: &str) -> bool {
    covers_normed(norm_path(a), norm_path(b))
}

/// [`path_covers`] of paths [`norm_path`] gave.
fn covers_normed(a: &str, b: &str) -> bool {
    !a.is_empty()
        && !b.is_empty()
        && (a == b
            || b.strip_prefix(a).is_some_and(|r| r.starts_with('/'))
            || a.strip_prefix(b).is_some_and(|r| r.starts_with('/')))
}

/// Whether a related file written by its name alone (`batch.rs`) names `file`
/// (`src/payout/batch.rs`). Only a bare name: a path with a folder is a path
/// from the repository's root (a note's `src/lib.rs` is not every crate's
/// `crates/x/src/lib.rs`, and a note's `crates/x/Cargo.toml` not the root
/// `Cargo.toml`). Both paths as [`norm_path`] gives them.
fn names_file(related: &str, file: &str) -> bool {
    !related.is_empty()
        && !related.contains('/')
        && file
            .strip_suffix(related)
            .is_some_and(|head| head.ends_with('/'))
}

/// Whether a related file is `file` itself or names it by its file name
/// ([`names_file`]), not a folder holding it. Both paths as [`norm_path`]
/// gives them.
pub(crate) fn is_the_file(related: &str, file: &str) -> bool {
    related == file || names_file(related, file)
}

/// A related file equal to, or a folder containing, a `--files` path, or
/// naming it by its file name ([`names_file`]): the nearest one (the same
/// path, else the file's name, else the deepest folder holding it), the first
/// of equals.
pub(crate) fn file_match(n: &Note, files: &[String]) -> Option<(String, String)> {
    // A confidential note's related files are its content: they point at it
    // for nobody (a `--files` guess would confirm them).
    if n.sensitivity >= cairn_note::Sensitivity::Confidential || n.related_files.is_empty() {
        return None;
    }
    let mut best: Option<((bool, bool, usize), &String, &String)> = None;
    for f in files {
        let nf = norm_path(f);
        for r in &n.related_files {
            let nr = norm_path(r);
            let named = names_file(nr, nf);
            if !named && !covers_normed(nr, nf) {
                continue;
            }
            let key = (nr == nf, named, nr.len());
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, f, r));
            }
        }
    }
    best.map(|(_, f, r)| (f.clone(), r.clone()))
}

/// More notes than this naming one file in their related files make it a
/// busy file ([`busy_files`]).
pub const BUSY_FILE_NOTES: usize = 5;

/// The files of `files` that more than [`BUSY_FILE_NOTES`] of `notes` name in
/// their related files (the file itself, or its name: not a folder holding
/// it, which [`crate::BROAD_FOLDER`] weighs), with how many. Confidential
/// notes are not counted: their related files point at nothing.
#[must_use]
pub fn busy_files<'n>(
    notes: impl IntoIterator<Item = &'n Note>,
    files: &[String],
) -> BTreeMap<String, usize> {
    if files.is_empty() {
        return BTreeMap::new();
    }
    let mut named = vec![0_usize; files.len()];
    let normed: Vec<&str> = files.iter().map(|f| norm_path(f)).collect();
    for n in notes {
        if n.related_files.is_empty() || n.sensitivity >= cairn_note::Sensitivity::Confidential {
            continue;
        }
        for (count, nf) in named.iter_mut().zip(&normed) {
            if n.related_files
                .iter()
                .any(|r| is_the_file(norm_path(r), nf))
            {
                *count += 1;
            }
        }
    }
    files
        .iter()
        .zip(named)
        .filter(|&(_, count)| count > BUSY_FILE_NOTES)
        .map(|(f, count)| (f.clone(), count))
        .collect()
}

pub(crate) fn module_match(n: &Note, ctx: &ScoreContext<'_>) -> Option<String> {
    // As for files: a confidential note's tags and related files select nothing.
    if n.sensitivity >= cairn_note::Sensitivity::Confidential {
        return None;
    }
    if let Some(m) = ctx
        .modules
        .iter()
        .find(|m| n.tags.iter().any(|t| t == &m.to_lowercase()))
    {
        return Some(format!("tagged with the selected module {m}"));
    }
    ctx.module_prefixes.iter().find_map(|p| {
        n.related_files
            .iter()
            .find(|r| path_covers(p, r))
            .map(|r| format!("related file {r} is in the selected module ({p})"))
    })
}

/// Words of a file's name that say nothing of its topic: what it is (a test, a
/// helper, the module's entry) rather than what it is about.
const GENERIC_NAME_WORDS: &str = "test tests spec specs stories story util utils helper helpers \
     index main mod lib init common base types type config constants fixture fixtures mock \
     mocks impl";

/// Fewest topical words a file's name needs to point at a note by its title:
/// one (`sessions.py`, `client.go`) names too many things.
const MIN_NAME_WORDS: usize = 2;

/// A task's file and its name as the index analyses its words, without
/// generic ones ([`name_terms`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileName {
    /// The file, as the task gave it.
    pub file: String,
    /// The words of its name.
    pub terms: BTreeSet<String>,
    /// The start of each word, lowercase: what a plain title that holds the
    /// word contains once its hyphens and underscores are taken out (the index
    /// joins `e-mail` into `email`), a test that spares analysing the titles
    /// that cannot name the file. The stemmer changes a word's ending only,
    /// and at most the last two letters of a word's start (`dying` is `die`),
    /// so a stem of four letters or more gives all but its last two, a shorter
    /// one its first letter.
    probes: Vec<String>,
    /// The name as written (up to its first dot), lowercase, without hyphens
    /// and underscores, when it joins two words or more (`adr-config`,
    /// `AdrSlug`, `test_helper`: generic words count here) and has
    /// [`MIN_WRITTEN_LEN`] letters and digits or more, [`MIN_WRITTEN_LETTERS`]
    /// of them letters: a title that writes it as a word of its own ("Invoke
    /// adr-config to get configuration") names the file, whatever its words.
    written: Option<String>,
    /// The name's one topical word, when it has one only, of
    /// [`MIN_SOLE_LETTERS`] letters or more (`Picture.tsx`: pictur): a title
    /// that says that word and nothing else but the project's names
    /// ("Pictures in DCR") names the file.
    sole: Option<String>,
}

/// How a note's title names a task file ([`title_names`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// It writes the file's name (`adr-config`).
    Written,
    /// It says every topical word of the name (`AdrSlug.ts`: "the ADR slug").
    Words,
    /// It says the name's one word and nothing else but the project's names
    /// (`Picture.tsx`: "Pictures in DCR").
    Sole,
}

/// Fewest letters of a name's one topical word for a title that is that word
/// to name the file ([`FileName::sole`]): `db.rs` or `io.go` name nothing.
const MIN_SOLE_LETTERS: usize = 4;

/// Fewest letters and digits of a name as written ([`FileName::written`]) for a
/// title that writes it to name the file: shorter joins (`e-mail`, `set_up`)
/// are words of their own.
const MIN_WRITTEN_LEN: usize = 6;

/// Fewest letters of a name as written ([`FileName::written`]): digits and
/// dashes alone are a date or a version.
const MIN_WRITTEN_LETTERS: usize = 3;

/// The files of `files` whose names have two topical words or more
/// ([`name_terms`]), or join two words or more as written (`adr-config`: six
/// letters and digits or more without its hyphens and underscores, three of
/// them letters), each with them, in order.
pub fn file_names(files: &[String]) -> Vec<FileName> {
    files
        .iter()
        .filter_map(|f| {
            let (topical, words) = name_words(f);
            let sole = match topical.iter().collect::<Vec<_>>().as_slice() {
                [t] if t.chars().filter(|c| c.is_alphabetic()).count() >= MIN_SOLE_LETTERS => {
                    Some((*t).clone())
                }
                _ => None,
            };
            let terms = if topical.len() >= MIN_NAME_WORDS {
                topical
            } else {
                BTreeSet::new()
            };
            let written = (words >= 2).then(|| written_name(f)).flatten();
            (!terms.is_empty() || written.is_some() || sole.is_some()).then(|| FileName {
                file: f.clone(),
                probes: terms.iter().chain(sole.iter()).map(|t| probe(t)).collect(),
                terms,
                written,
                sole,
            })
        })
        .collect()
}

/// A file's name up to its first dot, lowercase, without hyphens and
/// underscores ([`FileName::written`]); `None` when shorter than
/// [`MIN_WRITTEN_LEN`], when it holds other characters than letters and
/// digits, or fewer than [`MIN_WRITTEN_LETTERS`] letters (a date such as
/// `2024-01-15` or a version such as `v1-2-3` is no name a title writes).
fn written_name(file: &str) -> Option<String> {
    let stem = file_stem(file);
    let written: String = stem
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    let letters = written.chars().filter(|c| c.is_alphabetic()).count();
    (written.chars().count() >= MIN_WRITTEN_LEN
        && letters >= MIN_WRITTEN_LETTERS
        && written.chars().all(char::is_alphanumeric))
    .then_some(written)
}

/// A file's name up to its first dot.
pub(crate) fn file_stem(file: &str) -> &str {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    name.split('.').next().unwrap_or_default()
}

/// The words of a file's name up to its first dot, split where the name
/// joins them (`AdrSlug.test.ts` and `adr_slug.py` are adr, slug), as the
/// index analyses them, without the words that say what a file is rather than
/// what it is about (test, helper, index, config, ...) or a version; `None`
/// under two words.
pub fn name_terms(file: &str) -> Option<BTreeSet<String>> {
    let (terms, _) = name_words(file);
    (terms.len() >= MIN_NAME_WORDS).then_some(terms)
}

/// The topical words of a file's name ([`name_terms`], however few), and how
/// many words the name joins, generic ones included.
fn name_words(file: &str) -> (BTreeSet<String>, usize) {
    let words = words_apart(file_stem(file));
    let count = words.split_whitespace().count();
    let terms: BTreeSet<String> = cairn_index::analyze(&words)
        .into_iter()
        .filter(|t| !generic(t))
        .collect();
    (terms, count)
}

/// Whether an analysed word says what a file is rather than what it is about
/// ([`GENERIC_NAME_WORDS`]), or is a number or a version.
pub(crate) fn generic(term: &str) -> bool {
    static GENERIC: std::sync::LazyLock<BTreeSet<String>> = std::sync::LazyLock::new(|| {
        cairn_index::analyze(GENERIC_NAME_WORDS)
            .into_iter()
            .collect()
    });
    GENERIC.contains(term) || is_version(term)
}

/// A name's words apart, by spaces: a capital after a small letter or a digit
/// starts one, as does the last capital of a run followed by a small letter
/// (`HTTPServer`); every other character than a letter or a digit parts two.
pub(crate) fn words_apart(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut words = String::with_capacity(name.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1);
        let starts = c.is_uppercase()
            && before.is_some_and(|b| {
                b.is_lowercase()
                    || b.is_ascii_digit()
                    || (b.is_uppercase() && after.is_some_and(|a| a.is_lowercase()))
            });
        if starts || !c.is_alphanumeric() {
            words.push(' ');
        }
        if c.is_alphanumeric() {
            words.push(c);
        }
    }
    words
}

/// What a plain title holding a word whose stem is `term` contains
/// ([`FileName::probes`]).
pub(crate) fn probe(term: &str) -> String {
    let chars: Vec<char> = term.chars().collect();
    let keep = if chars.len() >= 4 { chars.len() - 2 } else { 1 };
    chars.iter().take(keep).collect::<String>().to_lowercase()
}

/// A number or a version (`2`, `v2`): no topic of a file's name.
fn is_version(t: &str) -> bool {
    let digits = t.strip_prefix('v').unwrap_or(t);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// The first of `names` that the note's title names, and how: it writes the
/// file's name as a word of its own, or it says every topical word of it (the
/// note is about what the file is named for), or, for a name of one word, it
/// says that word and nothing else but the `project`'s id and names (its
/// `ScoreContext::own_names`). Not a confidential note's (as for related
/// files: what points at it is its content).
pub(crate) fn title_names<'f>(
    n: &Note,
    names: &'f [FileName],
    project: (Option<&str>, &[String]),
) -> Option<(&'f FileName, Named)> {
    if names.is_empty() || n.sensitivity >= cairn_note::Sensitivity::Confidential {
        return None;
    }
    let (lower, ascii) = plain_title(&n.title);
    if let Some(f) = names
        .iter()
        .find(|f| f.written.as_deref().is_some_and(|w| writes(&lower, w)))
    {
        return Some((f, Named::Written));
    }
    // The test on letters as written holds for plain ASCII titles only (an
    // accent the index folds away is not the letter of a probe).
    let mut named = names
        .iter()
        .filter(|f| !ascii || f.probes.iter().all(|p| lower.contains(p.as_str())))
        .peekable();
    named.peek()?;
    let title: BTreeSet<String> = cairn_index::analyze(&n.title).into_iter().collect();
    // The title's words but the project's names (`dcr` in "Pictures in DCR"),
    // made once, when a one-word name is looked for.
    let mut rest: Option<BTreeSet<String>> = None;
    named.find_map(|f| {
        if !f.terms.is_empty() {
            return f.terms.is_subset(&title).then_some((f, Named::Words));
        }
        let sole = f.sole.as_ref()?;
        let rest = rest.get_or_insert_with(|| {
            let (id, names) = project;
            let own: BTreeSet<String> = names
                .iter()
                .map(String::as_str)
                .chain(id)
                .flat_map(cairn_index::analyze)
                .collect();
            title.difference(&own).cloned().collect()
        });
        (rest.len() == 1 && rest.contains(sole)).then_some((f, Named::Sole))
    })
}

/// A title lowercase, without hyphens and underscores (the index joins
/// `e-mail` into `email`), and whether it is plain ASCII (where a word's
/// [`probe`] is in the title when the word is). It is made for every title the
/// search found, so a plain ASCII one byte by byte.
pub(crate) fn plain_title(title: &str) -> (String, bool) {
    let ascii = title.is_ascii();
    let lower: String = if ascii {
        title
            .bytes()
            .filter(|&b| b != b'-' && b != b'_')
            .map(|b| char::from(b.to_ascii_lowercase()))
            .collect()
    } else {
        title
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .flat_map(char::to_lowercase)
            .collect()
    };
    (lower, ascii)
}

/// Whether `text` holds `word` as a word of its own: no letter or digit just
/// before or after it.
fn writes(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}
