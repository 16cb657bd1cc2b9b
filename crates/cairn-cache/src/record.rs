//! A file's notes in the manifest: every field of each [`Note`] except its body,
//! encoded with postcard so one file's notes can be decoded without touching the
//! others. A file holds one note, or one per entry of a `decisions.md`/`lessons.md`
//! entry file.
//!
//! `Note::extra` holds arbitrary YAML values (`serde_json::Value`), which a
//! self-describing-less format cannot carry; it is stored as JSON text. The
//! conversions destructure [`Note`] completely, so a field added to the model is a
//! compile error here until it is stored too.
//!
//! A secret note is stored as its [`secret_stub`]: its path, its kind (type,
//! status, pinned) and sizes, never a word of its text: no title, description,
//! tags, links, headings, dates or custom keys. An entry's path holds the slug of
//! its title, so a secret entry's stub is named by its line instead
//! ([`secret_entry_path`]).

use std::collections::BTreeMap;

use cairn_note::{
    Freshness, Heading, MemoryType, Note, Priority, Sensitivity, Status, TriggerTerms,
};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// The stored form of a note (all of it but the body).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredNote {
    id: String,
    path: String,
    title: String,
    description: Option<String>,
    memory_type: Option<MemoryType>,
    project_id: Option<String>,
    scope: Option<String>,
    sensitivity: Sensitivity,
    freshness: Option<Freshness>,
    source_of_truth: bool,
    retrieval_priority: Option<Priority>,
    pinned: bool,
    status: Status,
    status_word: Option<String>,
    supersedes: Vec<String>,
    superseded_by: Vec<String>,
    triggers: Vec<String>,
    /// `triggers` analysed by `cairn_index::analyze`, one list each: scoring a
    /// cached note then tests terms, without analysing text.
    trigger_terms: String,
    related_files: Vec<String>,
    related_memory: Vec<String>,
    tags: Vec<String>,
    aliases: Vec<String>,
    #[serde(with = "days")]
    created: Option<NaiveDate>,
    #[serde(with = "days")]
    updated: Option<NaiveDate>,
    #[serde(with = "days")]
    review_after: Option<NaiveDate>,
    /// `Note::extra` as a JSON object (empty string when there is none).
    extra_json: String,
    headings: Vec<Heading>,
    wikilinks: Vec<String>,
    body_line: usize,
    size: u64,
    mtime: Option<i64>,
    entry_of: Option<String>,
}

impl StoredNote {
    /// Everything of `note` but its body.
    pub(crate) fn from_note(note: &Note) -> Self {
        let Note {
            id,
            path,
            title,
            description,
            memory_type,
            project_id,
            scope,
            sensitivity,
            freshness,
            source_of_truth,
            retrieval_priority,
            pinned,
            status,
            status_word,
            supersedes,
            superseded_by,
            triggers,
            trigger_terms: _,
            related_files,
            related_memory,
            tags,
            aliases,
            created,
            updated,
            review_after,
            extra,
            headings,
            wikilinks,
            body: _,
            body_line,
            size,
            mtime,
            entry_of,
            // Not stored: the engine sets it as it decodes a note.
            committed: _,
        } = note;
        Self {
            id: id.clone(),
            path: path.clone(),
            title: title.clone(),
            description: description.clone(),
            memory_type: *memory_type,
            project_id: project_id.clone(),
            scope: scope.clone(),
            sensitivity: *sensitivity,
            freshness: *freshness,
            source_of_truth: *source_of_truth,
            retrieval_priority: *retrieval_priority,
            pinned: *pinned,
            status: *status,
            status_word: status_word.clone(),
            supersedes: supersedes.clone(),
            superseded_by: superseded_by.clone(),
            triggers: triggers.clone(),
            // Analysed from the triggers themselves, never taken from the
            // note's memo: `==` ignores it, so a stale one would go unseen.
            trigger_terms: {
                let analysed: Vec<Vec<String>> =
                    triggers.iter().map(|t| cairn_index::analyze(t)).collect();
                TriggerTerms::known(triggers, &analysed)
                    .text()
                    .unwrap_or_default()
                    .to_owned()
            },
            related_files: related_files.clone(),
            related_memory: related_memory.clone(),
            tags: tags.clone(),
            aliases: aliases.clone(),
            created: *created,
            updated: *updated,
            review_after: *review_after,
            extra_json: if extra.is_empty() {
                String::new()
            } else {
                serde_json::to_string(extra).unwrap_or_default()
            },
            headings: headings.clone(),
            wikilinks: wikilinks.clone(),
            body_line: *body_line,
            size: *size,
            mtime: *mtime,
            entry_of: entry_of.clone(),
        }
    }

    /// The note, with an empty body.
    pub(crate) fn into_note(self) -> Note {
        let extra: BTreeMap<String, serde_json::Value> = if self.extra_json.is_empty() {
            BTreeMap::new()
        } else {
            serde_json::from_str(&self.extra_json).unwrap_or_default()
        };
        Note {
            id: self.id,
            path: self.path,
            title: self.title,
            description: self.description,
            memory_type: self.memory_type,
            project_id: self.project_id,
            scope: self.scope,
            sensitivity: self.sensitivity,
            freshness: self.freshness,
            source_of_truth: self.source_of_truth,
            retrieval_priority: self.retrieval_priority,
            pinned: self.pinned,
            status: self.status,
            status_word: self.status_word,
            supersedes: self.supersedes,
            superseded_by: self.superseded_by,
            trigger_terms: TriggerTerms::from_text(&self.triggers, self.trigger_terms),
            triggers: self.triggers,
            related_files: self.related_files,
            related_memory: self.related_memory,
            tags: self.tags,
            aliases: self.aliases,
            created: self.created,
            updated: self.updated,
            review_after: self.review_after,
            extra,
            headings: self.headings,
            wikilinks: self.wikilinks,
            body: String::new(),
            body_line: self.body_line,
            size: self.size,
            mtime: self.mtime,
            committed: None,
            entry_of: self.entry_of,
        }
    }
}

/// Dates as days since 1 January of year 1: four bytes to copy instead of text to
/// parse (a cached note's dates are decoded on every command that reaches it).
mod days {
    use chrono::{Datelike, NaiveDate};
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    #[allow(clippy::ref_option, clippy::trivially_copy_pass_by_ref)] // serde's `with` signature.
    pub(super) fn serialize<S: Serializer>(d: &Option<NaiveDate>, s: S) -> Result<S::Ok, S::Error> {
        d.map(|d| d.num_days_from_ce()).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<NaiveDate>, D::Error> {
        Option::<i32>::deserialize(d)?
            .map(|n| {
                NaiveDate::from_num_days_from_ce_opt(n)
                    .ok_or_else(|| D::Error::custom("date out of range"))
            })
            .transpose()
    }
}

/// The path of a secret entry's stub: `<file>#~<line>` (`~` is never part of
/// an entry slug, so it cannot name another entry).
pub fn secret_entry_path(file: &str, body_line: usize) -> String {
    format!("{file}#~{body_line}")
}

/// What cairn keeps of a secret note outside its file (the cache, the metadata
/// ranking sees): where it is, what kind of note it is, nothing of its text.
/// Anything that needs more reads the file itself.
pub fn secret_stub(note: &Note) -> Note {
    let (id, path) = match &note.entry_of {
        Some(file) => (
            secret_entry_path(&cairn_note::note_id(file), note.body_line),
            secret_entry_path(file, note.body_line),
        ),
        None => (note.id.clone(), note.path.clone()),
    };
    Note {
        id,
        path,
        title: String::new(),
        description: None,
        memory_type: note.memory_type,
        project_id: None,
        scope: None,
        sensitivity: Sensitivity::Secret,
        freshness: None,
        source_of_truth: false,
        retrieval_priority: None,
        pinned: note.pinned,
        status: note.status,
        // A word of another vocabulary is text of the note: the stub keeps only
        // the words cairn knows, which say its kind.
        status_word: note
            .status_word
            .clone()
            .filter(|w| Status::parse(w).is_some()),
        supersedes: Vec::new(),
        superseded_by: Vec::new(),
        triggers: Vec::new(),
        trigger_terms: TriggerTerms::default(),
        related_files: Vec::new(),
        related_memory: Vec::new(),
        tags: Vec::new(),
        aliases: Vec::new(),
        created: None,
        updated: None,
        review_after: None,
        extra: BTreeMap::new(),
        headings: Vec::new(),
        wikilinks: Vec::new(),
        body: String::new(),
        body_line: note.body_line,
        size: note.size,
        mtime: note.mtime,
        committed: None,
        entry_of: note.entry_of.clone(),
    }
}

/// Encodes the metadata of a file's notes (empty when there are none); secret
/// notes as their [`secret_stub`].
pub(crate) fn encode(notes: &[Note]) -> Vec<u8> {
    if notes.is_empty() {
        return Vec::new();
    }
    let stored: Vec<StoredNote> = notes
        .iter()
        .map(|n| {
            if n.sensitivity == Sensitivity::Secret {
                StoredNote::from_note(&secret_stub(n))
            } else {
                StoredNote::from_note(n)
            }
        })
        .collect();
    postcard::to_allocvec(&stored).unwrap_or_default()
}

/// Decodes the metadata of a file's notes (bodies empty).
pub(crate) fn decode(bytes: &[u8]) -> Result<Vec<Note>, postcard::Error> {
    postcard::from_bytes::<Vec<StoredNote>>(bytes)
        .map(|v| v.into_iter().map(StoredNote::into_note).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_everything_but_the_body() {
        let text = "---\ntitle: T\nmemory_type: decision\nproject_id: p\nsensitivity: confidential\nfreshness: stale\nsource_of_truth: true\nretrieval_priority: high\npinned: true\nstatus: superseded\nsupersedes: ['[[a]]']\nsuperseded_by: [b]\ntriggers: [x y]\nrelated_files: [src/a.rs]\nrelated_memory: ['[[c]]']\ntags: [k]\naliases: [al]\ncreated: 2024-01-02\nupdated: 2024-02-03\nreview_after: 2025-01-01\ncustom: {nested: [1, 2]}\n---\n# H1\n\nbody [[w]] #tag\n";
        let mut note = cairn_note::parse_note("a/b.md", text.as_bytes())
            .note
            .unwrap();
        note.mtime = Some(1_700_000_000);
        let back = decode(&encode(std::slice::from_ref(&note))).unwrap();
        let mut expected = note.clone();
        expected.body = String::new();
        assert_eq!(back, vec![expected]);
        assert!(!note.extra.is_empty());
        // `==` ignores the triggers' terms: the cached note carries them, analysed.
        let terms = |n: &Note| -> Vec<Vec<String>> {
            n.trigger_terms
                .get()
                .unwrap()
                .map(|t| t.map(str::to_owned).collect())
                .collect()
        };
        assert!(note.trigger_terms.get().is_none());
        assert_eq!(terms(&back[0]), [cairn_index::analyze("x y")]);
        assert_eq!(terms(&back[0]), [vec!["x", "y"]]);

        // A note that carries terms for other triggers is stored with its own.
        let mut stale = back[0].clone();
        stale.triggers = vec!["Retrying payouts".to_owned()];
        let again = decode(&encode(std::slice::from_ref(&stale))).unwrap();
        assert_eq!(terms(&again[0]), [cairn_index::analyze("Retrying payouts")]);
    }

    #[test]
    fn an_entry_file_keeps_every_entry() {
        let text = "# Decisions\n\n### [2024-03-01] Use NATS\n**Category:** architecture\n\nBecause.\n\n---\n\n### [2024-04-02] Keep Postgres\n\nStill.\n";
        let parsed = cairn_note::parse_file("p/decisions.md", text.as_bytes());
        assert!(parsed.notes.len() >= 2, "{parsed:?}");
        let back = decode(&encode(&parsed.notes)).unwrap();
        assert_eq!(back.len(), parsed.notes.len());
        for (b, n) in back.iter().zip(&parsed.notes) {
            assert_eq!(b.path, n.path);
            assert_eq!(b.entry_of.as_deref(), Some("p/decisions.md"));
        }
    }

    #[test]
    fn a_secret_note_is_stored_as_its_stub() {
        let text = "---\ntitle: Vault key CANARYT\nsensitivity: secret\ndescription: CANARYD\ntags: [canaryg]\ntriggers: [CANARYR]\naliases: [CANARYA]\nrelated_files: [CANARYF.rs]\nproject_id: CANARYP\npinned: true\ncustom: CANARYX\ncreated: 2024-01-02\n---\n# CANARYH\n\nbody CANARYB [[CANARYW]] #canaryi\n";
        let note = cairn_note::parse_note("s/Vault key.md", text.as_bytes())
            .note
            .unwrap();
        assert_eq!(note.sensitivity, Sensitivity::Secret);
        let bytes = encode(std::slice::from_ref(&note));
        let lower = String::from_utf8_lossy(&bytes).to_lowercase();
        assert!(!lower.contains("canary"), "{lower}");
        let back = decode(&bytes).unwrap();
        assert_eq!(back, vec![secret_stub(&note)]);
        assert_eq!(back[0].path, "s/Vault key.md");
        assert!(back[0].pinned);
        assert_eq!(back[0].sensitivity, Sensitivity::Secret);
    }

    #[test]
    fn a_secret_entry_is_named_by_its_line_not_its_title() {
        let text = "# Decisions\n\n### [2024-03-01] Use CANARYT\n**Sensitivity:** secret\n\nBecause CANARYB.\n\n---\n\n### [2024-04-02] Keep Postgres\n\nStill.\n";
        let parsed = cairn_note::parse_file("p/decisions.md", text.as_bytes());
        let secret: Vec<&Note> = parsed
            .notes
            .iter()
            .filter(|n| n.sensitivity == Sensitivity::Secret)
            .collect();
        assert_eq!(secret.len(), 1, "{parsed:?}");
        let bytes = encode(&parsed.notes);
        assert!(
            !String::from_utf8_lossy(&bytes)
                .to_lowercase()
                .contains("canary")
        );
        let back = decode(&bytes).unwrap();
        let stub = back
            .iter()
            .find(|n| n.sensitivity == Sensitivity::Secret)
            .unwrap();
        assert_eq!(
            stub.path,
            secret_entry_path("p/decisions.md", secret[0].body_line)
        );
        assert_eq!(stub.entry_of.as_deref(), Some("p/decisions.md"));
        assert!(back.iter().any(|n| n.title == "Keep Postgres"));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(decode(&[0xff, 0xff, 0xff]).is_err());
        assert!(decode(&[]).is_err());
    }
}
