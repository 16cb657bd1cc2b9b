//! Writing an index: a [`NoteWriter`] adds, replaces and deletes notes (never a
//! secret one) and commits; its size follows how many notes a refresh touches.

use std::borrow::Cow;

use cairn_note::{Note, Sensitivity};
use tantivy::{IndexWriter, TantivyDocument, Term};

use crate::error::contained;
use crate::schema::{Fields, TextField, path_key};
use crate::{IndexError, NoteIndex};

impl NoteIndex {
    /// A writer to add, replace and delete notes. One at a time per index (tantivy locks).
    pub fn writer(&mut self) -> Result<NoteWriter, IndexError> {
        self.writer_for(usize::MAX)
    }

    /// A writer sized for about `notes` notes: a few notes (an incremental refresh)
    /// get one indexing thread and tantivy's smallest memory budget, whose set-up
    /// costs less than a large one's; a build gets a thread per core (up to 4).
    pub fn writer_for(&mut self, notes: usize) -> Result<NoteWriter, IndexError> {
        let (threads, per_thread) = if notes < 1_000 {
            (1, 15_000_000)
        } else {
            let t = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4));
            (t, 40_000_000)
        };
        let writer = contained(|| {
            Ok(self
                .index
                .writer_with_num_threads(threads, threads * per_thread)?)
        })?;
        Ok(NoteWriter {
            writer,
            fields: self.fields,
        })
    }
}

/// `body` without the payloads of its `data:` URIs (an image pasted into the
/// note as `![](data:image/png;base64,iVBORw0…)`): encoded bytes, not words. A
/// real vault's pasted diagrams gave thousands of base64 pieces a note, words of
/// no language that only lengthened its text for BM25.
fn without_data_uris(body: &str) -> Cow<'_, str> {
    const MARK: &str = ";base64,";
    if !body.contains(MARK) {
        return Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find(MARK) {
        // The URI's start: `data:` and its media type just before the mark.
        let head = &rest[..at];
        let Some(start) = head
            .rfind("data:")
            .filter(|&d| !head[d..].contains(char::is_whitespace))
        else {
            out.push_str(&rest[..at + MARK.len()]);
            rest = &rest[at + MARK.len()..];
            continue;
        };
        out.push_str(&rest[..start]);
        let payload = &rest[at + MARK.len()..];
        let end = payload
            .find(|c: char| !(c.is_ascii_alphanumeric() || "+/=%".contains(c)))
            .unwrap_or(payload.len());
        rest = &payload[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Adds, replaces and deletes notes; changes become visible after `commit` and `reload`.
pub struct NoteWriter {
    writer: IndexWriter,
    fields: Fields,
}

impl std::fmt::Debug for NoteWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NoteWriter")
    }
}

impl NoteWriter {
    /// Adds `note` (call [`NoteWriter::delete`] first to replace one). A secret
    /// note is not added: no word of it enters the index (returns `false`). A
    /// confidential note is added by what may be shown of it and the names it
    /// is asked for by (its title, id, aliases and triggers), never by its
    /// content (headings, description, body, tags, related files): a search
    /// that finds it says nothing of what it holds.
    pub fn add(&mut self, note: &Note) -> Result<bool, IndexError> {
        if note.sensitivity == Sensitivity::Secret {
            return Ok(false);
        }
        let content = note.sensitivity < Sensitivity::Confidential;
        let f = &self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.key, &note.path);
        doc.add_u64(f.key_hash, path_key(&note.path));
        doc.add_text(f.file, note.file_path());
        for folder in ancestors(&note.path) {
            doc.add_text(f.folders, folder);
        }
        let text = |field: TextField| f.text[field as usize];
        doc.add_text(text(TextField::Title), &note.title);
        let mut contents = String::with_capacity(note.title.len() + note.body.len() + 64);
        contents.push_str(&note.title);
        contents.push('\n');
        if content {
            for h in &note.headings {
                doc.add_text(text(TextField::Headings), &h.text);
            }
            if let Some(d) = &note.description {
                contents.push_str(d);
                contents.push('\n');
            }
            contents.push_str(&without_data_uris(&note.body));
            for t in &note.tags {
                doc.add_text(text(TextField::Tags), t);
            }
            for r in &note.related_files {
                doc.add_text(text(TextField::RelatedFiles), r);
            }
        }
        doc.add_text(text(TextField::Contents), &contents);
        for t in &note.triggers {
            doc.add_text(text(TextField::Triggers), t);
        }
        for a in &note.aliases {
            doc.add_text(text(TextField::Aliases), a);
        }
        doc.add_text(text(TextField::Path), &note.id);
        let mut dates: Vec<_> = [note.created, note.updated].into_iter().flatten().collect();
        dates.dedup();
        for d in dates {
            doc.add_text(text(TextField::Dates), d.format("%-d %B %Y").to_string());
        }
        contained(|| Ok(self.writer.add_document(doc)?))?;
        Ok(true)
    }

    /// Deletes the note at `path`.
    pub fn delete(&mut self, path: &str) {
        self.writer
            .delete_term(Term::from_field_text(self.fields.key, path));
    }

    /// Deletes every note read from the file at `path`: the note itself, or every
    /// entry of an entry file.
    pub fn delete_file(&mut self, path: &str) {
        self.writer
            .delete_term(Term::from_field_text(self.fields.file, path));
    }

    /// Deletes every note.
    pub fn delete_all(&mut self) -> Result<(), IndexError> {
        self.writer.delete_all_documents()?;
        Ok(())
    }

    /// Commits the changes.
    pub fn commit(mut self) -> Result<(), IndexError> {
        contained(move || {
            self.writer.commit()?;
            self.writer.wait_merging_threads()?;
            Ok(())
        })
    }
}

/// `a/b/c.md` → `a`, `a/b`.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.match_indices('/').map(move |(i, _)| &path[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_of_a_path() {
        assert_eq!(ancestors("a/b/c.md").collect::<Vec<_>>(), vec!["a", "a/b"]);
        assert_eq!(ancestors("c.md").count(), 0);
    }

    #[test]
    fn data_uri_payloads_are_left_out_and_the_rest_kept() {
        let body = "Before ![](data:image/png;base64,iVBORw0KGgo+AAAA/NSUhE==) after.\n<img src=\"data:image/svg+xml;base64,PHN2Zz4=\"> end";
        assert_eq!(
            without_data_uris(body),
            "Before ![]() after.\n<img src=\"\"> end"
        );
        // No URI before the mark, or a blank between: text, kept.
        for kept in [
            "A note on the `;base64,` suffix.",
            "data: is the scheme; see ;base64,x",
            "plain text",
        ] {
            assert_eq!(without_data_uris(kept), kept);
        }
    }
}
