//! The note model and its parser: the bytes of one markdown file in, a [`Note`]
//! and [`Diagnostic`]s out. No I/O, no walking, no ranking.
//!
//! Everything in the frontmatter is optional and nothing in it is fatal: unknown
//! keys are kept in [`Note::extra`], unknown enum values become a diagnostic and the
//! default, malformed YAML leaves the body readable as plain text. Only binary and
//! empty files are refused (with a diagnostic).
//!
//! Where the front matter is ([`split_frontmatter`]) and how sure its sensitivity
//! is ([`read_sensitivity`]) are decided once, here, for every part of cairn: a
//! sensitivity that cannot be read with certainty is `secret`.
//!
//! [`parse_file`] also splits `decisions.md` / `lessons.md` entry files into one
//! note per dated entry (see the `entries` module for the format).

mod content_hash;
mod entries;
mod frontmatter;
mod markdown;
mod model;
mod names;
mod parse;
mod sensitivity;

pub use content_hash::ContentHash;
pub use entries::{
    EntryHeading, ParsedFile, entry_file_type, entry_heading, format_entry, parse_file, slugify,
};
pub use frontmatter::{Block, FrontmatterKind, Split, frontmatter_key_line, split_frontmatter};
pub use markdown::{
    clean_inline, link_target, prose_sentences, split_sentences, wikilink_lines, wikilinks,
};
pub use model::{
    Diagnostic, Freshness, Heading, MemoryType, Note, Priority, Sensitivity, Severity, Status,
};
pub use names::{NoteNames, find_named, is_attachment, most_linked};
pub use parse::{Parsed, note_id, parse_date, parse_note};
pub use sensitivity::{
    Doubt, DoubtReason, SENSITIVITY_KEYS, SYNONYMS, SensitivityReading, read_sensitivity,
    sensitivity_key, sensitivity_word,
};
