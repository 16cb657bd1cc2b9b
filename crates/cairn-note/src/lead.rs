//! What a note's headings and paragraphs are, for choosing its lead (the
//! first sentence of its summary): a heading that announces the summary
//! (`Summary`, `TL;DR`); and what is never the lead though it is prose: a
//! record's bookkeeping (`Status: Accepted`, `Date: 2016-02-12`, `Created on:
//! 20 May 2019`, `Deciders: Ana, Bo`), a pointer elsewhere (`Link to this ADR:
//! https://…`), the terms a note defines (`## Definitions`, how to read `MUST`
//! as RFC 2119 says), its sources (`## References`).

/// First words of headings that announce the note's own summary.
const LEAD_HEADINGS: &[&str] = &[
    "summary",
    "abstract",
    "overview",
    "tl;dr",
    "tldr",
    "synopsis",
    "introduction",
];

/// The longest paragraph that can be a record's bookkeeping (a status with
/// what replaced it, a date): a longer one says something.
pub(crate) const RECORD_FIELD_CHARS: usize = 80;

/// Whether a paragraph only points elsewhere: a short label, a colon and one
/// web address (`Link to this ADR: https://…`, `Tracking issue: <https://…>`).
/// It is not a lead, whatever the address's length.
pub(crate) fn only_points_elsewhere(paragraph: &str) -> bool {
    let Some((label, rest)) = paragraph.split_once(": ") else {
        return false;
    };
    let words = label.split_whitespace().count();
    let address = rest.trim().trim_start_matches('<').trim_end_matches('>');
    (1..=6).contains(&words)
        && !address.contains(char::is_whitespace)
        && (address.starts_with("https://") || address.starts_with("http://"))
}

/// Headings of the terms a note defines before it says anything, whole
/// (lowercase, without a closing colon); not `Terms` or `Conventions`, which
/// many notes use for their own content (a contract's terms, a team's coding
/// conventions).
const DEFINITION_HEADINGS: &[&str] = &[
    "definitions",
    "terminology",
    "glossary",
    "notation",
    "conventions and terminology",
];

/// Whether a heading names a section of definitions ([`DEFINITION_HEADINGS`]).
pub(crate) fn is_definitions(heading: &str) -> bool {
    heading_in(heading, DEFINITION_HEADINGS)
}

/// Whether a paragraph says how to read the requirement key words (`MUST`,
/// `SHOULD`, ... as RFC 2119 or RFC 8174 define them): a specification's
/// boilerplate, never its lead.
pub(crate) fn cites_key_words(paragraph: &str) -> bool {
    let upper = paragraph.to_ascii_uppercase();
    ["RFC2119", "RFC 2119", "RFC8174", "RFC 8174"]
        .iter()
        .any(|r| upper.contains(r))
}

/// Headings of a note's sources, whole (lowercase, without a closing colon);
/// not `Resources` or `Source`, which many notes use for their own content (a
/// Kubernetes note's resource types, a note about source code).
const REFERENCE_HEADINGS: &[&str] = &[
    "references",
    "reference",
    "sources",
    "bibliography",
    "citations",
    "further reading",
    "see also",
    "links",
    "related links",
    "external links",
];

/// Whether a heading names a section of sources ([`REFERENCE_HEADINGS`]).
pub(crate) fn is_references(heading: &str) -> bool {
    heading_in(heading, REFERENCE_HEADINGS)
}

/// Whether a heading, whole, lowercase and without a closing colon, is one of
/// `names`.
fn heading_in(heading: &str, names: &[&str]) -> bool {
    let h = heading.trim().trim_end_matches(':').trim().to_lowercase();
    names.contains(&h.as_str())
}

/// Labels of a document's bookkeeping lines, lowercase: when it was written
/// or reviewed and by whom (`Created on: 20 May 2019`, `Last updated:
/// 2023-04-01`, `Deciders: Ana, Bo`), besides a record's `Status` and `Date`.
const BOOKKEEPING_LABELS: &[&str] = &[
    "created",
    "created on",
    "created at",
    "date created",
    "creation date",
    "updated",
    "updated on",
    "last updated",
    "last update",
    "last modified",
    "modified",
    "last reviewed",
    "reviewed",
    "reviewed on",
    "review date",
    "published",
    "published on",
    "written on",
    "author",
    "authors",
    "owner",
    "owners",
    "deciders",
    "reviewers",
    "maintainer",
    "maintainers",
];

/// Whether a short paragraph is a bookkeeping line: a label of
/// [`BOOKKEEPING_LABELS`], maybe bold or a list item's, a colon and a value
/// (`**Last updated:** 2023-04-01`, `- Deciders: Ana, Bo`).
pub(crate) fn names_bookkeeping(p: &str) -> bool {
    let line = p.trim_start();
    let line = line
        .strip_prefix(['-', '*', '+'])
        .filter(|r| r.starts_with([' ', '\t']))
        .map_or(line, str::trim_start);
    let Some((label, value)) = line.split_once(':') else {
        return false;
    };
    let label = label
        .trim_matches(|c: char| matches!(c, '*' | '_') || c.is_whitespace())
        .to_lowercase();
    let value = value.trim_matches(|c: char| matches!(c, '*' | '_') || c.is_whitespace());
    !value.is_empty() && BOOKKEEPING_LABELS.contains(&label.as_str())
}

/// Whether `name` is one of a decision record's bookkeeping fields.
pub(crate) fn is_record_field(name: &str) -> bool {
    name.eq_ignore_ascii_case("status") || name.eq_ignore_ascii_case("date")
}

/// Whether a heading announces the note's summary: its first word (or all of it)
/// is one of [`LEAD_HEADINGS`].
pub(crate) fn announces_summary(heading: &str) -> bool {
    let lower = heading.trim().to_lowercase();
    let first = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ':' | '-' | '—' | '–'))
        .find(|w| !w.is_empty())
        .unwrap_or("");
    LEAD_HEADINGS.contains(&first) || LEAD_HEADINGS.contains(&lower.trim_end_matches(':'))
}

/// Whether text is nothing but bare web addresses (a source line under a title,
/// not a link in markdown's syntax): not prose.
pub(crate) fn only_urls(text: &str) -> bool {
    let mut words = text
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .peekable();
    words.peek().is_some()
        && words.all(|w| {
            let w = w.trim_start_matches(['<', '(']).to_ascii_lowercase();
            w.starts_with("http://") || w.starts_with("https://") || w.starts_with("www.")
        })
}
