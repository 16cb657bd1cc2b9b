//! The prose of a body, for summaries and passages, read by a CommonMark parser
//! (pulldown-cmark): paragraphs, list items and quotes, each a list of sentences,
//! as a reader sees them (emphasis removed, links reduced to their text, code
//! spans kept as text: `*mut T`, `_progress_` → `progress`).
//!
//! Never prose: headings, code blocks, HTML (a `<!-- toc -->` comment too), link
//! reference definitions, tables, footnote definitions, images and embeds
//! (`![[x.base]]`), so a badge line or an embed line is nothing; a table of
//! contents (a list most of whose items are only a link to a `#section` of the
//! same document); the sentence ending in `:` that introduces a code block; an
//! Obsidian callout's `[!note]` marker.
//!
//! Redaction markers (`[redacted:password]`, see cairn-policy) are kept whole
//! whatever markdown surrounds them: shaping never turns one into link text.

use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};

use crate::markdown::{options, squash};

/// The prose of a body: its sentences in document order, and where its lead
/// starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prose {
    /// Every sentence, in document order.
    pub sentences: Vec<String>,
    /// The index in `sentences` of the lead: the first sentence of the first
    /// paragraph under a heading that announces one (`Summary`, `Abstract`,
    /// `Overview`, `TL;DR`, `Synopsis`, `Introduction`), else 0.
    pub lead: usize,
}

impl Prose {
    /// The sentences from the lead on, then the ones before it.
    pub fn lead_first(&self) -> impl Iterator<Item = &String> {
        let lead = self.lead.min(self.sentences.len());
        self.sentences[lead..]
            .iter()
            .chain(self.sentences[..lead].iter())
    }
}

/// Headings that announce the note's own summary.
const LEAD_HEADINGS: &[&str] = &[
    "summary",
    "abstract",
    "overview",
    "tl;dr",
    "tldr",
    "synopsis",
    "introduction",
];

/// Prose of the body for summaries: paragraphs, list items and quotes outside
/// code, headings, HTML and tables, with markdown marks removed and whitespace
/// collapsed, each a sentence list.
pub fn prose_sentences(body: &str) -> Vec<String> {
    prose(body).sentences
}

/// The body's prose (see [`Prose`]).
pub fn prose(body: &str) -> Prose {
    let (text, markers) = protect_markers(body);
    let units = units(&text);
    let mut out = Prose::default();
    let mut lead: Option<usize> = None;
    let mut after_lead_heading = false;
    for (i, unit) in units.iter().enumerate() {
        match unit {
            Unit::Heading(h) => {
                after_lead_heading = lead.is_none()
                    && LEAD_HEADINGS
                        .contains(&h.trim().trim_end_matches(':').to_lowercase().as_str());
            }
            Unit::Prose(p) => {
                let mut sentences = split_sentences(&restore_markers(p, markers));
                let introduces_code = matches!(units.get(i + 1), Some(Unit::Code));
                if introduces_code && sentences.last().is_some_and(|s| s.ends_with(':')) {
                    sentences.pop();
                }
                if sentences.is_empty() {
                    continue;
                }
                if after_lead_heading {
                    lead = Some(out.sentences.len());
                    after_lead_heading = false;
                }
                out.sentences.extend(sentences);
            }
            Unit::Code | Unit::Other => {}
        }
    }
    out.lead = lead.unwrap_or(0);
    out
}

/// Removes emphasis marks, link syntax and inline code ticks; collapses whitespace.
pub fn clean_inline(text: &str) -> String {
    let (protected, markers) = protect_markers(text);
    let mut out = String::new();
    for event in Parser::new_ext(&protected, options()) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(end) if is_block_end(&end) => out.push(' '),
            _ => {}
        }
    }
    squash(&restore_markers(&out, markers))
}

/// One block of a body, as summaries see it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unit {
    /// Prose text, markdown removed.
    Prose(String),
    /// A heading's text.
    Heading(String),
    /// A code block.
    Code,
    /// Anything else that separates prose (a table, HTML, a rule).
    Other,
}

/// The state of one list item, for the table-of-contents rule.
#[derive(Debug, Default)]
struct ItemState {
    /// A link to a `#section` of the same document.
    anchor: bool,
    /// Text outside links.
    plain: bool,
}

/// One list being read, from its outermost level: its units wait until the list
/// ends, when the table-of-contents rule decides whether they are prose.
#[derive(Debug, Default)]
struct ListState {
    units: Vec<Unit>,
    items: usize,
    anchor_items: usize,
}

/// The body's blocks in document order.
fn units(body: &str) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut buf = String::new();
    let mut heading: Option<String> = None;
    // Text inside these is not prose: code blocks, tables, HTML blocks, images,
    // footnote definitions, metadata.
    let mut skip = 0usize;
    // One entry per open link: whether it opened a skip (a wikilink written out
    // at its start).
    let mut links: Vec<bool> = Vec::new();
    let mut quote = 0usize;
    let mut list_depth = 0usize;
    let mut list = ListState::default();
    let mut items: Vec<ItemState> = Vec::new();

    // Ends the current text run as a unit (of the list being read, if any).
    let flush = |buf: &mut String,
                 quote: usize,
                 list_depth: usize,
                 list: &mut ListState,
                 out: &mut Vec<Unit>| {
        let mut text = squash(buf);
        buf.clear();
        if quote > 0 {
            text = strip_callout(&text);
        }
        if text.is_empty() {
            return;
        }
        if list_depth > 0 {
            list.units.push(Unit::Prose(text));
        } else {
            out.push(Unit::Prose(text));
        }
    };
    let push = |unit: Unit, list_depth: usize, list: &mut ListState, out: &mut Vec<Unit>| {
        if list_depth > 0 {
            list.units.push(unit);
        } else {
            out.push(unit);
        }
    };

    for event in Parser::new_ext(body, options()) {
        match event {
            Event::Start(tag) => {
                if is_block(&tag) {
                    flush(&mut buf, quote, list_depth, &mut list, &mut out);
                }
                match tag {
                    Tag::Heading { .. } => heading = Some(String::new()),
                    Tag::CodeBlock(_) => {
                        skip += 1;
                        push(Unit::Code, list_depth, &mut list, &mut out);
                    }
                    Tag::Table(_)
                    | Tag::HtmlBlock
                    | Tag::FootnoteDefinition(_)
                    | Tag::MetadataBlock(_) => {
                        skip += 1;
                        push(Unit::Other, list_depth, &mut list, &mut out);
                    }
                    Tag::Image { .. } => skip += 1,
                    Tag::BlockQuote(_) => quote += 1,
                    Tag::List(_) => list_depth += 1,
                    Tag::Item => {
                        items.push(ItemState::default());
                        list.items += 1;
                    }
                    Tag::Link {
                        link_type,
                        dest_url,
                        ..
                    } => {
                        if dest_url.starts_with('#')
                            && !matches!(link_type, LinkType::WikiLink { .. })
                            && let Some(item) = items.last_mut()
                        {
                            item.anchor = true;
                        }
                        let bare_wikilink =
                            matches!(link_type, LinkType::WikiLink { has_pothole: false });
                        if bare_wikilink {
                            // `[[target#heading]]` reads as its target.
                            if skip == 0 {
                                let shown = dest_url.split('#').next().unwrap_or("");
                                text_to(&mut heading, &mut buf, shown);
                            }
                            skip += 1;
                        }
                        links.push(bare_wikilink);
                    }
                    _ => {}
                }
            }
            Event::End(end) => {
                match end {
                    TagEnd::Heading(_) => {
                        if let Some(h) = heading.take() {
                            push(Unit::Heading(squash(&h)), list_depth, &mut list, &mut out);
                        }
                    }
                    TagEnd::CodeBlock
                    | TagEnd::Table
                    | TagEnd::HtmlBlock
                    | TagEnd::FootnoteDefinition
                    | TagEnd::MetadataBlock(_)
                    | TagEnd::Image => skip = skip.saturating_sub(1),
                    TagEnd::Link => {
                        if links.pop() == Some(true) {
                            skip = skip.saturating_sub(1);
                        }
                    }
                    TagEnd::BlockQuote(_) => {
                        flush(&mut buf, quote, list_depth, &mut list, &mut out);
                        quote = quote.saturating_sub(1);
                    }
                    TagEnd::Item => {
                        flush(&mut buf, quote, list_depth, &mut list, &mut out);
                        if let Some(item) = items.pop()
                            && item.anchor
                            && !item.plain
                        {
                            list.anchor_items += 1;
                        }
                    }
                    TagEnd::List(_) => {
                        flush(&mut buf, quote, list_depth, &mut list, &mut out);
                        list_depth = list_depth.saturating_sub(1);
                        if list_depth == 0 {
                            let done = std::mem::take(&mut list);
                            // A table of contents: most items only link to a section.
                            if done.anchor_items * 2 <= done.items {
                                out.extend(done.units);
                            } else {
                                out.push(Unit::Other);
                            }
                        }
                    }
                    _ => {
                        if is_block_end(&end) {
                            flush(&mut buf, quote, list_depth, &mut list, &mut out);
                        }
                    }
                }
            }
            Event::Text(t) | Event::Code(t) if skip == 0 => {
                if links.is_empty()
                    && let Some(item) = items.last_mut()
                    && t.chars().any(char::is_alphanumeric)
                {
                    item.plain = true;
                }
                text_to(&mut heading, &mut buf, &t);
            }
            Event::InlineMath(t) | Event::DisplayMath(t) if skip == 0 => {
                text_to(&mut heading, &mut buf, &t);
            }
            Event::SoftBreak | Event::HardBreak => text_to(&mut heading, &mut buf, " "),
            // A line break or a comment separates words; other inline tags do not.
            Event::InlineHtml(h) if h.starts_with("<br") || h.starts_with("<!--") => {
                text_to(&mut heading, &mut buf, " ");
            }
            Event::Rule => {
                flush(&mut buf, quote, list_depth, &mut list, &mut out);
                push(Unit::Other, list_depth, &mut list, &mut out);
            }
            _ => {}
        }
    }
    flush(&mut buf, quote, list_depth, &mut list, &mut out);
    if list_depth > 0 {
        out.extend(list.units);
    }
    out
}

fn text_to(heading: &mut Option<String>, buf: &mut String, text: &str) {
    match heading {
        Some(h) => h.push_str(text),
        None => buf.push_str(text),
    }
}

fn is_block(tag: &Tag<'_>) -> bool {
    !matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

fn is_block_end(end: &TagEnd) -> bool {
    !matches!(
        end,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

/// `[!note] Title text` → `Title text` (an Obsidian or GitHub callout marker, with
/// its optional fold sign).
fn strip_callout(text: &str) -> String {
    let Some(rest) = text.strip_prefix("[!") else {
        return text.to_owned();
    };
    match rest.find(']') {
        Some(end)
            if rest[..end]
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_') =>
        {
            rest[end + 1..]
                .trim_start_matches(['+', '-'])
                .trim()
                .to_owned()
        }
        _ => text.to_owned(),
    }
}

/// Opens a protected redaction marker (private use: never markdown).
const OPEN: char = '\u{E000}';
/// Closes one.
const CLOSE: char = '\u{E001}';

/// `text` with every redaction marker `[redacted:kind]` replaced by a token the
/// markdown parser leaves alone, and whether any was found. Stray private-use
/// characters of those two code points are dropped first.
fn protect_markers(text: &str) -> (String, bool) {
    const PREFIX: &str = "[redacted:";
    let text: std::borrow::Cow<'_, str> = if text.contains([OPEN, CLOSE]) {
        text.replace([OPEN, CLOSE], "").into()
    } else {
        text.into()
    };
    if !text.contains(PREFIX) {
        return (text.into_owned(), false);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    let mut found = false;
    while let Some(at) = rest.find(PREFIX) {
        out.push_str(&rest[..at]);
        let after = &rest[at + PREFIX.len()..];
        let kind_len = after.find(']').filter(|&end| {
            end > 0
                && after[..end]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        });
        match kind_len {
            Some(end) => {
                out.push(OPEN);
                out.push_str(&after[..end]);
                out.push(CLOSE);
                rest = &after[end + 1..];
                found = true;
            }
            None => {
                out.push_str(PREFIX);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, found)
}

fn restore_markers(text: &str, found: bool) -> String {
    if !found {
        return text.to_owned();
    }
    text.replace(OPEN, "[redacted:").replace(CLOSE, "]")
}

/// Splits prose into sentences at `. `, `! `, `? ` (keeping abbreviations like `e.g.` whole).
pub fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if matches!(b, b'.' | b'!' | b'?') && i + 1 < bytes.len() && bytes[i + 1] == b' ' {
            let next = text[i + 1..].trim_start().chars().next();
            let word_before = text[start..i].rsplit(' ').next().unwrap_or("");
            let abbreviation = b == b'.'
                && (word_before.len() <= 2 && word_before.chars().all(|c| c.is_ascii_lowercase())
                    || matches!(word_before, "e.g" | "i.e" | "etc" | "vs" | "approx" | "cf"));
            if next.is_some_and(|c| c.is_uppercase() || c.is_ascii_digit() || c == '`' || c == '"')
                && !abbreviation
            {
                let s = text[start..=i].trim();
                if !s.is_empty() {
                    out.push(s.to_owned());
                }
                start = i + 1;
            }
        }
        i += 1;
    }
    let s = text[start..].trim();
    if !s.is_empty() {
        out.push(s.to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_and_prose() {
        let body = "Intro line one\ncontinues here. Second sentence, e.g. this one! Third?\n\n- item **bold** [link](http://x)\n```\ncode. Not prose.\n```\n| a | b |\n|---|---|\n| c | d |\n";
        let s = prose_sentences(body);
        assert_eq!(
            s,
            vec![
                "Intro line one continues here.",
                "Second sentence, e.g. this one!",
                "Third?",
                "item bold link"
            ]
        );
    }

    #[test]
    fn redaction_markers_survive_inline_cleaning() {
        let check = |input: &str, expect: &str| assert_eq!(clean_inline(input), expect);
        check(
            "The password `[redacted:password]` is",
            "The password [redacted:password] is",
        );
        check("**[redacted:api-key]** and _x_", "[redacted:api-key] and x");
        check(
            "see [[redacted:github-token]](https://x.test) now",
            "see [redacted:github-token] now",
        );
        check(
            "[redacted:url-password](later)",
            "[redacted:url-password](later)",
        );
        check("[[Note|alias]] [not](u)", "alias not");
    }
}
