//! The note model and its parser: the bytes of one markdown file in, a [`Note`]
//! and [`Diagnostic`]s out. No I/O, no walking, no ranking.
//!
//! Everything in the frontmatter is optional and nothing in it is fatal: unknown
//! keys are kept in [`Note::extra`], unknown enum values become a diagnostic and the
//! default, malformed YAML leaves the body readable as plain text. Only binary and
//! empty files are refused (with a diagnostic).
//!
//! [`parse_file`] also splits `decisions.md` / `lessons.md` entry files into one
//! note per dated entry (see the `entries` module for the format).

mod entries;
mod markdown;
mod model;
mod parse;

pub use entries::{
    EntryHeading, ParsedFile, entry_file_type, entry_heading, format_entry, parse_file, slugify,
};
pub use markdown::{
    clean_inline, link_target, prose_sentences, split_sentences, wikilink_lines, wikilinks,
};
pub use model::{
    Diagnostic, Freshness, Heading, MemoryType, Note, Priority, Sensitivity, Severity, Status,
};
pub use parse::{Parsed, frontmatter_key_line, note_id, parse_date, parse_note};
