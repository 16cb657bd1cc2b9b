//! The index's schema: one document per note, keyed by its path, with a stable
//! path hash for ties, the file and folders it sits in (for deletes and the
//! folder filter), and the searchable [`TextField`]s, all analysed by `cairn_en`
//! with positions.

use tantivy::schema::{
    FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};

use crate::ANALYZER;

/// The fast field holding [`path_key`] of each note (the stable tie-breaker).
pub(crate) const KEY_HASH: &str = "key_hash";

/// The searchable fields, in the order of [`FieldWeights`](crate::FieldWeights).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TextField {
    /// Title (and aliases' first word of context).
    Title,
    /// ATX headings.
    Headings,
    /// Title plus body: the "flat" BM25 field.
    Contents,
    /// Tags.
    Tags,
    /// Trigger phrases.
    Triggers,
    /// Aliases.
    Aliases,
    /// Related file paths.
    RelatedFiles,
    /// The note's own path.
    Path,
    /// The note's dates (`created`/`date`, `updated`) in words: "27 June 2023".
    Dates,
}

impl TextField {
    /// How many fields there are.
    pub const COUNT: usize = 9;

    /// Every field.
    pub const ALL: [TextField; TextField::COUNT] = [
        TextField::Title,
        TextField::Headings,
        TextField::Contents,
        TextField::Tags,
        TextField::Triggers,
        TextField::Aliases,
        TextField::RelatedFiles,
        TextField::Path,
        TextField::Dates,
    ];

    /// Fields the author curates (title, tags, triggers, aliases, related files): a
    /// match there is evidence of its own, scored apart from the prose fields.
    pub fn is_curated(self) -> bool {
        matches!(
            self,
            TextField::Title
                | TextField::Tags
                | TextField::Triggers
                | TextField::Aliases
                | TextField::RelatedFiles
        )
    }

    /// The schema name.
    pub fn name(self) -> &'static str {
        match self {
            TextField::Title => "title",
            TextField::Headings => "headings",
            TextField::Contents => "contents",
            TextField::Tags => "tags",
            TextField::Triggers => "triggers",
            TextField::Aliases => "aliases",
            TextField::RelatedFiles => "related_files",
            TextField::Path => "path_text",
            TextField::Dates => "dates",
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    /// The note's vault-relative path (stored).
    pub(crate) key: Field,
    /// [`path_key`] of the path (fast).
    pub(crate) key_hash: Field,
    /// The file a note comes from (its path, or the entry file holding it).
    pub(crate) file: Field,
    /// Every folder above the note.
    pub(crate) folders: Field,
    /// The searchable fields, in [`TextField::ALL`] order.
    pub(crate) text: [Field; TextField::COUNT],
}

/// The schema and its field handles.
pub(crate) fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let key = b.add_text_field("path", STRING | STORED);
    let key_hash = b.add_u64_field(KEY_HASH, FAST);
    let file = b.add_text_field("file", STRING);
    let folders = b.add_text_field("folders", STRING);
    // Positions feed the proximity and best-passage scores (`rank.rs`).
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(ANALYZER)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let opts = TextOptions::default().set_indexing_options(indexing);
    let text = TextField::ALL.map(|f| b.add_text_field(f.name(), opts.clone()));
    (
        b.build(),
        Fields {
            key,
            key_hash,
            file,
            folders,
            text,
        },
    )
}

/// A stable 64-bit hash of a note path (FNV-1a): the tie-breaker between hits with
/// equal scores at the result limit, identical in every index holding the note.
pub fn path_key(path: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Paths the caller already holds, by their [`path_key`]: a search names a hit
/// whose key is here without reading the path from the document store (about a
/// quarter of a task search's work on 600 hits). A key that two of the paths
/// share names neither: those hits are read from the store, as every hit whose
/// key is not here is.
#[derive(Debug, Default)]
pub struct KnownPaths<'a> {
    by_key: std::collections::HashMap<u64, Option<&'a str>, BuildKeyHasher>,
}

/// The keys are hashes already ([`path_key`]): the map takes them as they are
/// instead of hashing them again.
type BuildKeyHasher = std::hash::BuildHasherDefault<KeyHasher>;

#[derive(Debug, Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl<'a> KnownPaths<'a> {
    /// `paths`, by key.
    pub fn of(paths: impl IntoIterator<Item = &'a str>) -> Self {
        let mut known = Self::default();
        for p in paths {
            known.insert(path_key(p), p);
        }
        known
    }

    fn insert(&mut self, key: u64, path: &'a str) {
        self.by_key
            .entry(key)
            .and_modify(|held| {
                if *held != Some(path) {
                    *held = None;
                }
            })
            .or_insert(Some(path));
    }

    /// The one path known by `key`.
    pub(crate) fn get(&self, key: u64) -> Option<&'a str> {
        self.by_key.get(&key).copied().flatten()
    }
}

#[cfg(test)]
mod known_paths_tests {
    use super::*;

    #[test]
    fn a_key_two_paths_share_names_neither() {
        let mut k = KnownPaths::of(["a.md", "b.md", "a.md"]);
        assert_eq!(k.get(path_key("a.md")), Some("a.md"));
        assert_eq!(k.get(path_key("b.md")), Some("b.md"));
        assert_eq!(k.get(path_key("c.md")), None);
        k.insert(path_key("a.md"), "not-a.md");
        assert_eq!(k.get(path_key("a.md")), None);
        k.insert(path_key("a.md"), "a.md");
        assert_eq!(k.get(path_key("a.md")), None);
    }
}
