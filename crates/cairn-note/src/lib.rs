//! The note model and its parser: the bytes of one markdown file in, a [`Note`]
//! and [`Diagnostic`]s out. No I/O, no walking, no ranking.
//!
//! Everything in the frontmatter is optional and nothing in it is fatal: unknown
//! keys are kept in [`Note::extra`], unknown enum values become a diagnostic and the
//! default, a malformed block (YAML, TOML or JSON) leaves the body readable as
//! plain text. Only binary and empty files are refused (with a diagnostic). The
//! body is read by a `CommonMark` parser (headings, links, tags, prose).
//!
//! Where the front matter is ([`split_frontmatter`]) and how sure its sensitivity
//! is ([`read_sensitivity`]) are decided once, here, for every part of cairn: a
//! sensitivity that cannot be read with certainty is `secret`.
//!
//! [`parse_file`] also splits `decisions.md` / `lessons.md` entry files into one
//! note per dated entry (see the `entries` module for the format).

mod banners;
mod block_ids;
mod content_hash;
mod entries;
mod fields;
mod foreign_statements;
mod formats;
mod frontmatter;
mod hints;
mod in_body;
mod lead;
mod level_lists;
mod markdown;
mod marks;
mod model;
mod names;
mod page_properties;
mod parse;
mod plain_text;
mod prose;
mod sensitivity;
mod site_syntax;
mod stamps;
mod table;
mod table_marks;
mod title;

pub use content_hash::ContentHash;
pub use entries::{
    EntryHeading, ParsedFile, entry_file_type, entry_heading, format_entry, parse_file, slugify,
};
pub use frontmatter::{
    Block, FrontmatterKind, Split, frontmatter_key_line, normalize_line_breaks, split_frontmatter,
};
pub use markdown::{link_target, options as markdown_options, wikilink_lines, wikilinks};
pub use model::{
    Diagnostic, Freshness, Heading, MemoryType, Note, Priority, Sensitivity, Severity, Status,
    TriggerTerms, in_root,
};
pub use names::{NoteNames, find_named, is_attachment, most_linked};
pub use parse::{Parsed, body_of, note_id, parse_date, parse_note};
pub use prose::{Prose, clean_inline, prose, prose_sentences, split_sentences};
pub use table::table_summary;
pub use title::{humanize, is_index_file};

/// The version of what the parser makes of a file. Bumped whenever the same bytes
/// can parse into a different [`Note`] or different diagnostics, so that a
/// persistent index built by an older parser is never served (`cairn-cache`
/// stores it in each generation and rebuilds on a mismatch).
pub const PARSER_VERSION: u32 = 52;
pub use sensitivity::{
    Doubt, DoubtReason, Raise, SENSITIVITY_KEYS, SYNONYMS, SensitivityReading, read_sensitivity,
    sensitivity_key, sensitivity_word,
};
