//! What of a note an index may hold: its text with every credential blanked, so
//! that a search (`cairn search`, `explain`, MCP `memory_search`) can never
//! confirm a guessed credential, whole or piece by piece, by matching it. The
//! note's own text is left as it is: what is shown is redacted where it is shown.

use std::borrow::Cow;

use cairn_note::Note;

use crate::detect::without_credentials;
use crate::markdown::find_credentials_markdown;

/// `note` as an index may hold it: the credentials of its body (found as a
/// reader sees them: `ghp\_…` too), title, description, headings, tags,
/// triggers, aliases, related files and id replaced by blanks. Borrowed when it
/// has none (most notes), so indexing pays a clone only for the others.
pub fn index_view(note: &Note) -> Cow<'_, Note> {
    let short = |s: &str| match without_credentials(s) {
        Cow::Borrowed(_) => None,
        Cow::Owned(o) => Some(o),
    };
    // Cloned at the first credential found, not before.
    let mut view = Cow::Borrowed(note);
    if let Some(b) = blank_markdown(&note.body) {
        view.to_mut().body = b;
    }
    if let Some(t) = short(&note.title) {
        view.to_mut().title = t;
    }
    if let Some(d) = note.description.as_deref().and_then(short) {
        view.to_mut().description = Some(d);
    }
    if let Some(i) = short(&note.id) {
        view.to_mut().id = i;
    }
    for (at, h) in note.headings.iter().enumerate() {
        if let Some(t) = short(&h.text) {
            view.to_mut().headings[at].text = t;
        }
    }
    let lists: [(&[String], ListField); 4] = [
        (&note.tags, |n| &mut n.tags),
        (&note.triggers, |n| &mut n.triggers),
        (&note.aliases, |n| &mut n.aliases),
        (&note.related_files, |n| &mut n.related_files),
    ];
    for (items, field) in lists {
        for (at, item) in items.iter().enumerate() {
            if let Some(t) = short(item) {
                field(view.to_mut())[at] = t;
            }
        }
    }
    view
}

/// A list of a note's indexed words (tags, triggers, aliases, related files).
type ListField = fn(&mut Note) -> &mut Vec<String>;

/// `text` with each credential a reader sees blanked; `None` when there is none.
fn blank_markdown(text: &str) -> Option<String> {
    let found = find_credentials_markdown(text);
    if found.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for f in &found {
        if f.start < pos {
            continue;
        }
        out.push_str(&text[pos..f.start]);
        out.push(' ');
        pos = f.end;
    }
    out.push_str(&text[pos..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_blanked_and_clean_notes_borrowed() {
        let parse = |text: &str| {
            cairn_note::parse_note("n.md", text.as_bytes())
                .note
                .unwrap()
        };
        let clean = parse("---\ntitle: Payout retries\n---\nBack off twice.\n");
        assert!(matches!(index_view(&clean), Cow::Borrowed(_)));
        let n = parse(
            "---\ntitle: Staging\ntags: [ops]\n---\n# Access\n\nThe staging password is Xk9fakePw2Qz!.\nToken: ghp\\_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7\n",
        );
        let v = index_view(&n);
        assert!(matches!(v, Cow::Owned(_)));
        assert!(!v.body.contains("Xk9fake"), "{}", v.body);
        assert!(!v.body.contains("5pyzQ0kLm3"), "{}", v.body);
        assert!(v.body.contains("staging password is"));
        assert_eq!(v.title, "Staging");
    }
}
