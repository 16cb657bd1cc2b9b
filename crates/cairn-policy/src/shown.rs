//! The redacted view of a note: the only form in which shaping code (summaries,
//! snippets, clipping, flattening) receives a note's text.
//!
//! Credentials are found on the original text. Once a text has been flattened,
//! stripped of markdown, joined or clipped, a rule may no longer see what it would
//! have seen (``password `x` `` loses its code span, `password: x` followed by another
//! line gains words after it, a clipped token is too short to recognise). So every
//! text field is redacted *before* shaping, here, and shaping code takes a
//! [`SafeText`] or a [`ShownNote`], which only this module can build.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use cairn_note::Note;
use serde::{Serialize, Serializer};

use crate::redact;
use crate::untrusted::{normalize, one_line};

/// Text that has been through [`redact`] in its original form (after
/// [`normalize`]: invisible characters removed, every line break
/// a reader would see made a `\n`). Only this crate constructs it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SafeText<'a>(Cow<'a, str>);

impl<'a> SafeText<'a> {
    /// Normalises and redacts `original` (borrowed when nothing changes).
    pub fn redact(original: &'a str) -> Self {
        match normalize(original) {
            Cow::Borrowed(text) => Self(redact(text).text),
            Cow::Owned(text) => Self(Cow::Owned(redact(&text).text.into_owned())),
        }
    }

    /// Normalises and redacts a note's raw markdown, to be printed as written
    /// (`get`, `memory show`): [`crate::redact_markdown`], which also masks what the
    /// rendered text would show.
    pub fn redact_markdown(original: &'a str) -> Self {
        match normalize(original) {
            Cow::Borrowed(text) => Self(crate::redact_markdown(text).text),
            Cow::Owned(text) => Self(Cow::Owned(crate::redact_markdown(&text).text.into_owned())),
        }
    }

    /// Shapes safe text (flattening, clipping, picking sentences). The result is
    /// redacted again: shaping can line up words that a rule then recognises, and
    /// redacting twice is harmless (markers are left alone).
    pub fn reshape(&self, shape: impl FnOnce(&str) -> String) -> SafeText<'static> {
        SafeText::redact(&shape(&self.0)).into_owned()
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0.into_owned()
    }

    /// Detaches the text from the note it came from.
    pub fn into_owned(self) -> SafeText<'static> {
        SafeText(Cow::Owned(self.0.into_owned()))
    }
}

impl Deref for SafeText<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SafeText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for SafeText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// A note's text as it may leave cairn: every field any output prints, each
/// redacted on its original text; names (title, tags, aliases, links) are then
/// made one line ([`one_line`]). Fields no output prints (headings, triggers,
/// related files, extra keys) are absent, so they cannot be printed from here.
/// Build it only for the notes an answer shows: redacting a body costs a pass over it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownNote<'a> {
    /// Id.
    pub id: SafeText<'a>,
    /// Vault-relative path.
    pub path: SafeText<'a>,
    /// Title.
    pub title: SafeText<'a>,
    /// Description.
    pub description: Option<SafeText<'a>>,
    /// Body; empty for [`ShownNote::head`].
    pub body: SafeText<'a>,
    /// Tags.
    pub tags: Vec<SafeText<'a>>,
    /// Aliases.
    pub aliases: Vec<SafeText<'a>>,
    /// Notes this one replaces.
    pub supersedes: Vec<SafeText<'a>>,
    /// Notes replacing this one.
    pub superseded_by: Vec<SafeText<'a>>,
    /// The `status` word as written.
    pub status_word: Option<SafeText<'a>>,
}

impl<'a> ShownNote<'a> {
    /// Every printable field of `note`, body included.
    pub fn of(note: &'a Note) -> Self {
        Self {
            body: SafeText::redact(&note.body),
            ..Self::head(note)
        }
    }

    /// Every printable field of `note` but its body: for answers that show a
    /// note's name only (lists, withheld notes, left-out notes).
    pub fn head(note: &'a Note) -> Self {
        let all = |v: &'a [String]| v.iter().map(|s| name(s)).collect();
        // The path and title a list names the note by, so a head and a name
        // never differ.
        let ShownName { path, title } = ShownName::of(note);
        Self {
            id: SafeText::redact(&note.id),
            path,
            title,
            description: note.description.as_deref().map(SafeText::redact),
            body: SafeText::default(),
            tags: all(&note.tags),
            aliases: all(&note.aliases),
            supersedes: all(&note.supersedes),
            superseded_by: all(&note.superseded_by),
            status_word: note.status_word.as_deref().map(name),
        }
    }
}

/// What a list names a note by: its path and title, redacted as
/// [`ShownNote::head`] redacts them, and nothing else of the note read. For
/// the lists of notes an answer mentions without showing them (left out,
/// explain's candidates, the notes an ambiguous name may mean): a head would
/// redact its id, description, tags and aliases too, for nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownName<'a> {
    /// Vault-relative path.
    pub path: SafeText<'a>,
    /// Title, on one line.
    pub title: SafeText<'a>,
}

impl<'a> ShownName<'a> {
    /// `note`'s path and title, each redacted on its original text.
    pub fn of(note: &'a Note) -> Self {
        Self {
            path: ShownName::path_of(note),
            title: name(&note.title),
        }
    }

    /// `note`'s path alone, redacted (the path [`ShownName::of`] gives).
    pub fn path_of(note: &'a Note) -> SafeText<'a> {
        SafeText::redact(&note.path)
    }
}

/// A name (title, tag, alias, link target): redacted, then one line.
fn name(original: &str) -> SafeText<'_> {
    let safe = SafeText::redact(original);
    match one_line(&safe) {
        Cow::Borrowed(_) => safe,
        Cow::Owned(flat) => SafeText::redact(&flat).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_happens_on_the_original_text() {
        // Joining the two lines first would hide the value among words.
        let s = SafeText::redact("password: Xk2pL9qWz7\nthen log in with the admin user.");
        assert!(!s.contains("Xk2pL9qWz7"), "{s}");
        let joined = s.reshape(|t| t.split_whitespace().collect::<Vec<_>>().join(" "));
        assert!(!joined.contains("Xk2pL9qWz7"), "{joined}");
        assert!(joined.contains("[redacted:"), "{joined}");
    }

    #[test]
    fn a_separator_a_reader_sees_as_a_line_break_is_one_for_the_redactor() {
        let s = SafeText::redact("password: Xk2pL9qWz7\u{2028}then log in with the admin user.");
        assert!(!s.contains("Xk2pL9qWz7"), "{s}");
    }

    #[test]
    fn a_name_is_the_heads_path_and_title() {
        let path = "ops/token ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7C.md";
        let text = "---\ntitle: \"Rotate\\npassword: Xk2pL9qWz7 today\"\n---\nBody.\n";
        let note = cairn_note::parse_note(path, text.as_bytes()).note.unwrap();
        let head = ShownNote::head(&note);
        let name = ShownName::of(&note);
        assert_eq!((&name.path, &name.title), (&head.path, &head.title));
        assert!(!name.path.contains("ghp_Ab3d"), "{}", name.path);
        assert!(!name.title.contains("Xk2pL9qWz7"), "{}", name.title);
        assert!(!name.title.contains('\n'), "{}", name.title);
        assert_eq!(ShownName::path_of(&note), head.path);
    }

    #[test]
    fn clean_text_stays_borrowed() {
        let s = SafeText::redact("nothing to see here");
        assert!(matches!(s.0, Cow::Borrowed(_)));
    }
}
