//! The note model and its parser: the bytes of one markdown file in, a [`Note`]
//! and [`Diagnostic`]s out. No I/O, no walking, no ranking.
//!
//! Everything in the frontmatter is optional and nothing in it is fatal: unknown
//! keys are kept in [`Note::extra`], unknown enum values become a diagnostic and the
//! default, malformed YAML leaves the body readable as plain text. Only binary and
//! empty files are refused (with a diagnostic).

mod markdown;
mod model;
mod parse;

pub use markdown::{clean_inline, link_target, prose_sentences, split_sentences, wikilinks};
pub use model::{
    Diagnostic, Freshness, Heading, MemoryType, Note, Priority, Sensitivity, Severity, Status,
};
pub use parse::{Parsed, note_id, parse_date, parse_note};
