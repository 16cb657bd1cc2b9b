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
    let list = |items: &[String]| -> Option<Vec<String>> {
        let scrubbed: Vec<Option<String>> = items.iter().map(|s| short(s)).collect();
        scrubbed.iter().any(Option::is_some).then(|| {
            scrubbed
                .into_iter()
                .zip(items)
                .map(|(new, old)| new.unwrap_or_else(|| old.clone()))
                .collect()
        })
    };
    let body = blank_markdown(&note.body);
    let title = short(&note.title);
    let description = note.description.as_deref().and_then(short);
    let headings: Vec<Option<String>> = note.headings.iter().map(|h| short(&h.text)).collect();
    let tags = list(&note.tags);
    let triggers = list(&note.triggers);
    let aliases = list(&note.aliases);
    let related_files = list(&note.related_files);
    let id = short(&note.id);
    if body.is_none()
        && title.is_none()
        && description.is_none()
        && headings.iter().all(Option::is_none)
        && tags.is_none()
        && triggers.is_none()
        && aliases.is_none()
        && related_files.is_none()
        && id.is_none()
    {
        return Cow::Borrowed(note);
    }
    let mut n = note.clone();
    if let Some(b) = body {
        n.body = b;
    }
    if let Some(t) = title {
        n.title = t;
    }
    if let Some(d) = description {
        n.description = Some(d);
    }
    for (h, new) in n.headings.iter_mut().zip(headings) {
        if let Some(t) = new {
            h.text = t;
        }
    }
    if let Some(t) = tags {
        n.tags = t;
    }
    if let Some(t) = triggers {
        n.triggers = t;
    }
    if let Some(a) = aliases {
        n.aliases = a;
    }
    if let Some(r) = related_files {
        n.related_files = r;
    }
    if let Some(i) = id {
        n.id = i;
    }
    Cow::Owned(n)
}

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
