//! The prose of a body, for summaries and passages, read by a `CommonMark` parser
//! (pulldown-cmark): paragraphs, list items and quotes, each a list of sentences,
//! as a reader sees them (emphasis removed, links reduced to their text, code
//! spans kept as text: `*mut T`, `_progress_` → `progress`).
//!
//! Never prose: headings, code blocks, HTML (a `<!-- toc -->` comment too), link
//! reference definitions, tables, footnote definitions, images and embeds
//! (`![[x.base]]`), so a badge line or an embed line is nothing; a table of
//! contents (a list most of whose items are only a link to a `#section` of the
//! same document); a paragraph of links only (`[Source](…)`) or of `#tags`
//! only; metadata field lines (`**Tags:** x`, `**Category:** x`, `**Related
//! files:** x`, a sensitivity key, any Dataview `key:: value`); the sentence ending in `:` that introduces a code block (unless the note
//! has no other prose: then it is read without its colon); an Obsidian callout's
//! `[!note]` marker.
//!
//! Redaction markers (`[redacted:password]`, see cairn-policy) are kept whole
//! whatever markdown surrounds them: shaping never turns one into link text.

use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};

use crate::lead::{
    RECORD_FIELD_CHARS, announces_summary, cites_key_words, is_definitions, is_record_field,
    is_references, names_bookkeeping, only_points_elsewhere, only_urls,
};
use crate::markdown::{inline_tags, options, squash};

/// The prose of a body: its sentences in document order, and where its lead
/// starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prose {
    /// Every sentence, in document order.
    pub sentences: Vec<String>,
    /// The index in `sentences` of the lead: the first sentence of the first
    /// paragraph under a heading that announces one (`Summary`, `Abstract`,
    /// `Overview`, `TL;DR`, `Synopsis`, `Introduction`, alone or first: `Summary
    /// and Motivation`), else of the first paragraph outside a list that is not
    /// a record's bookkeeping (a short `Date: 2016-02-12` or `Status: Accepted`
    /// line, the short paragraph under a `Status` or `Date` heading: how
    /// decision records open) or a pointer (a short label and a web address:
    /// `Link to this ADR: https://…`), else 0.
    pub lead: usize,
    /// The indices in `sentences` of each list item's first sentence, in order
    /// (the rules of a `How I work` note are its list).
    pub item_starts: Vec<usize>,
    /// The indices in `sentences` of a record's status and date (`Accepted`,
    /// `Amends [5. Help comments](…)`, `Date: 2018-06-26`): read for passages
    /// and task matches, but they say nothing of what the record decided.
    pub record_fields: Vec<usize>,
    /// The sentences under a heading of sources (`References`, `See also`,
    /// `Further reading`, ...), not among `sentences`: where the note points,
    /// not what it says (a summary's last resort).
    pub references: Vec<String>,
}

impl Prose {
    /// The sentences from the lead on, then the ones before it, without a
    /// record's status and date ([`Prose::record_fields`]).
    pub fn lead_first(&self) -> impl Iterator<Item = &String> {
        let lead = self.lead.min(self.sentences.len());
        (lead..self.sentences.len())
            .chain(0..lead)
            .filter(|i| !self.record_fields.contains(i))
            .map(|i| &self.sentences[i])
    }
}

/// Prose of the body for summaries: paragraphs, list items and quotes outside
/// code, headings, HTML and tables, with markdown marks removed and whitespace
/// collapsed, each a sentence list.
pub fn prose_sentences(body: &str) -> Vec<String> {
    prose(body).sentences
}

/// The body's prose (see [`Prose`]).
pub fn prose(body: &str) -> Prose {
    let body = crate::block_ids::without_block_ids(body);
    let body = without_metadata_lines(&body);
    let body = crate::site_syntax::without_site_syntax(&body);
    let (text, markers) = protect_markers(&body);
    let units = units(&text);
    let mut out = Prose::default();
    let mut lead: Option<usize> = None;
    let mut first_paragraph: Option<usize> = None;
    // Sentences that introduce code: prose only when there is no other.
    let mut intros: Vec<String> = Vec::new();
    let mut after_lead_heading = false;
    // Under a `Status` or `Date` heading: its short paragraphs are bookkeeping.
    let mut in_record_field = false;
    // Bare web addresses: the text of a note that has nothing else.
    let mut addresses: Vec<String> = Vec::new();
    // Under a heading of definitions: the terms the note uses, not what it says.
    let mut in_definitions = false;
    // Under a heading of sources: pointers, not prose.
    let mut in_references = false;
    for (i, unit) in units.iter().enumerate() {
        match unit {
            Unit::Heading(h) => {
                after_lead_heading = lead.is_none() && announces_summary(h);
                in_record_field = is_record_field(h.trim().trim_end_matches(':'));
                in_references = is_references(h);
                in_definitions = is_definitions(h);
            }
            Unit::Prose(p, in_list) => {
                let mut sentences: Vec<String> = split_sentences(&restore_markers(p, markers))
                    .into_iter()
                    .filter_map(without_trailing_tags)
                    .collect();
                let introduces_code = matches!(units.get(i + 1), Some(Unit::Code));
                if introduces_code && sentences.last().is_some_and(|s| s.ends_with(':')) {
                    intros.extend(sentences.pop());
                }
                if sentences.is_empty() {
                    continue;
                }
                if in_references {
                    out.references.extend(sentences);
                    continue;
                }
                if after_lead_heading {
                    lead = Some(out.sentences.len());
                    after_lead_heading = false;
                }
                let record_field = p.chars().count() <= RECORD_FIELD_CHARS
                    && (in_record_field
                        || crate::in_body::field(p).is_some()
                        || names_bookkeeping(p));
                if record_field {
                    let at = out.sentences.len();
                    out.record_fields.extend(at..at + sentences.len());
                }
                let bookkeeping = record_field || only_points_elsewhere(p);
                let preamble = in_definitions || cites_key_words(p);
                if !in_list && !bookkeeping && !preamble && first_paragraph.is_none() {
                    first_paragraph = Some(out.sentences.len());
                }
                if *in_list {
                    out.item_starts.push(out.sentences.len());
                }
                out.sentences.extend(sentences);
            }
            Unit::Addresses(a) => addresses.push(a.clone()),
            Unit::Code | Unit::Other => {}
        }
    }
    out.lead = lead.or(first_paragraph).unwrap_or(0);
    if out.sentences.is_empty() {
        // A note that is an introduction and its code (a TIL): the introduction,
        // without the colon that pointed at the code.
        out.item_starts.clear();
        out.sentences = intros
            .into_iter()
            .map(|s| s.trim_end_matches(':').trim_end().to_owned())
            .filter(|s| !s.is_empty())
            .collect();
    }
    if out.sentences.is_empty() {
        // A bookmark: its address is all there is to say.
        out.item_starts.clear();
        out.sentences = addresses;
    }
    out
}

/// `body` without its metadata field lines (`**Tags:** x`, `**Related files:**
/// x`, any Dataview `key:: value`: `crate::entries::is_metadata_line`), each
/// left as an empty line: what a note is filed under is not what it says.
fn without_metadata_lines(body: &str) -> std::borrow::Cow<'_, str> {
    let plain_tags = ["ag:", "ags:", "AG:", "AGS:"]
        .iter()
        .any(|k| body.contains(k));
    if !body.contains(":**") && !body.contains("**:") && !body.contains("::") && !plain_tags {
        return std::borrow::Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    let mut changed = false;
    // After a bare `Tags:` line, its list (`- [[Distributed Systems]]`, one
    // item a line): the tags of a vault that files notes so.
    let mut in_tag_list = false;
    for line in body.split_inclusive('\n') {
        let t = line.trim();
        in_tag_list = in_tag_list && is_tag_item(t);
        if in_tag_list || crate::entries::is_metadata_line(t) || is_bare_tags_label(t) {
            in_tag_list = in_tag_list || is_bare_tags_label(t);
            changed = true;
            out.push('\n');
        } else {
            out.push_str(line);
        }
    }
    if changed {
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(body)
    }
}

/// `Tags:` or `Tag:` (any case, bold or not) alone on its line: a label whose
/// list follows.
fn is_bare_tags_label(t: &str) -> bool {
    t.trim_matches('*').strip_suffix(':').is_some_and(|k| {
        let k = k.trim_matches('*');
        k.eq_ignore_ascii_case("tags") || k.eq_ignore_ascii_case("tag")
    })
}

/// A list item that can be a tag: a wikilink, a `#tag` or a few words
/// (`- [[Distributed Systems]]`, `- #python`, `- data engineering`), not a
/// sentence.
fn is_tag_item(t: &str) -> bool {
    let Some(item) = ["- ", "* ", "+ "].iter().find_map(|m| t.strip_prefix(m)) else {
        return false;
    };
    let item = item.trim();
    !item.is_empty()
        && item.split_whitespace().count() <= 4
        && !item.ends_with(['.', '!', '?', ':'])
}

/// A sentence without the `#tags` that end it (`…to follow. #ai`: how the note
/// is filed, not what it says); `None` when nothing else is left.
fn without_trailing_tags(sentence: String) -> Option<String> {
    let mut end = sentence.len();
    while let Some((head, last)) = sentence[..end].trim_end().rsplit_once(char::is_whitespace) {
        if last.starts_with('#') && inline_tags(last).len() == 1 {
            end = head.len();
        } else {
            break;
        }
    }
    let kept = sentence[..end].trim_end();
    if only_tags(kept) {
        return None;
    }
    // Tags after the sentence ended (`…to follow. #ai`), not a sentence's last
    // word (`Report incidents in #incidents.`).
    let ended = kept.ends_with(['.', '!', '?', '…', ':', ';', ')']);
    if end == sentence.len() || !ended {
        return Some(sentence);
    }
    Some(kept.to_owned())
}

/// Whether text is nothing but `#tags` (an Obsidian tag line): not prose.
fn only_tags(text: &str) -> bool {
    let mut words = text.split_whitespace().peekable();
    words.peek().is_some() && words.all(|w| w.starts_with('#') && inline_tags(w).len() == 1)
}

/// Removes emphasis marks, link syntax and inline code ticks; collapses whitespace.
pub fn clean_inline(text: &str) -> String {
    let (protected, markers) = protect_markers(text);
    let mut out = String::new();
    for event in Parser::new_ext(&protected, options()) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(end) if is_block_end(end) => out.push(' '),
            _ => {}
        }
    }
    squash(&restore_markers(&out, markers))
}

/// One block of a body, as summaries see it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Unit {
    /// Prose text, markdown removed; whether it is in a list.
    Prose(String, bool),
    /// A heading's text.
    Heading(String),
    /// A code block.
    Code,
    /// Anything else that separates prose (a table, HTML, a rule).
    Other,
    /// A run of bare web addresses: not prose, but a bookmark note's only text.
    Addresses(String),
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
    let mut r = Blocks::default();
    for event in Parser::new_ext(body, options()) {
        r.event(event);
    }
    r.flush();
    if r.list_depth > 0 {
        let rest = std::mem::take(&mut r.list.units);
        r.out.extend(rest);
    }
    r.out
}

/// The reader behind [`units`]: events in, units out.
#[derive(Debug, Default)]
struct Blocks {
    out: Vec<Unit>,
    /// The text run being read.
    buf: String,
    /// Whether `buf` holds words outside links (a run of links only is not prose).
    buf_plain: bool,
    /// The heading being read.
    heading: Option<String>,
    /// Text inside these is not prose: code blocks, tables, HTML blocks, images,
    /// footnote definitions, metadata, a bare wikilink's inner text.
    skip: usize,
    /// One entry per open link: whether it opened a skip (a wikilink written out
    /// at its start).
    links: Vec<bool>,
    quote: usize,
    /// A callout's title and where its place is in `out` (a separator, not a
    /// heading: it ends no section and starts none): its message if nothing
    /// follows it in the callout.
    callout_title: Option<(usize, String)>,
    list_depth: usize,
    list: ListState,
    items: Vec<ItemState>,
}

impl Blocks {
    /// Ends the current text run as a unit (of the list being read, if any).
    fn flush(&mut self) {
        let mut text = squash(&self.buf);
        let plain = std::mem::take(&mut self.buf_plain);
        self.buf.clear();
        if self.quote > 0 && text.starts_with("[!") {
            // A callout's first line (`> [!note] Definición`): its marker and
            // title, a label (the title glued to the callout's text was a
            // summary's first word).
            let title = strip_callout(&text);
            if title != text {
                self.buf_plain = false;
                if !title.is_empty() && self.list_depth == 0 {
                    self.callout_title = Some((self.out.len(), title));
                    self.out.push(Unit::Other);
                }
                return;
            }
            text = title;
        }
        // Links alone (`[Source](…)`, or bare addresses) and a line of `#tags`
        // alone are not prose.
        if text.is_empty() || !plain || only_tags(&text) {
            return;
        }
        if only_urls(&text) {
            self.push(Unit::Addresses(text));
            return;
        }
        let in_list = self.list_depth > 0;
        self.push(Unit::Prose(text, in_list));
    }

    fn push(&mut self, unit: Unit) {
        if self.list_depth > 0 {
            self.list.units.push(unit);
        } else {
            self.out.push(unit);
        }
    }

    fn text(&mut self, text: &str) {
        match &mut self.heading {
            Some(h) => h.push_str(text),
            None => self.buf.push_str(text),
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(end) => self.end(end),
            Event::Text(t) | Event::Code(t) if self.skip == 0 => {
                if self.links.is_empty() && t.chars().any(char::is_alphanumeric) {
                    self.buf_plain = true;
                    if let Some(item) = self.items.last_mut() {
                        item.plain = true;
                    }
                }
                self.text(&t);
            }
            Event::InlineMath(t) | Event::DisplayMath(t) if self.skip == 0 => {
                self.buf_plain = true;
                self.text(&t);
            }
            // The end of a callout's first line: its marker and title are done.
            Event::SoftBreak | Event::HardBreak
                if self.quote > 0
                    && self.heading.is_none()
                    && self.buf.trim_start().starts_with("[!") =>
            {
                self.flush();
            }
            Event::SoftBreak | Event::HardBreak => self.text(" "),
            // A line break or a comment separates words; other inline tags do not.
            Event::InlineHtml(h) if h.starts_with("<br") || h.starts_with("<!--") => {
                self.text(" ");
            }
            Event::Rule => {
                self.flush();
                self.push(Unit::Other);
            }
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        if is_block(&tag) {
            self.flush();
        }
        match tag {
            Tag::Heading { .. } => self.heading = Some(String::new()),
            Tag::CodeBlock(_) => {
                self.skip += 1;
                self.push(Unit::Code);
            }
            Tag::Table(_) | Tag::HtmlBlock | Tag::FootnoteDefinition(_) | Tag::MetadataBlock(_) => {
                self.skip += 1;
                self.push(Unit::Other);
            }
            Tag::Image { .. } => self.skip += 1,
            Tag::BlockQuote(_) => self.quote += 1,
            Tag::List(_) => self.list_depth += 1,
            Tag::Item => {
                self.items.push(ItemState::default());
                self.list.items += 1;
            }
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                let wikilink = matches!(link_type, LinkType::WikiLink { .. });
                if dest_url.starts_with('#')
                    && !wikilink
                    && let Some(item) = self.items.last_mut()
                {
                    item.anchor = true;
                }
                let bare = matches!(link_type, LinkType::WikiLink { has_pothole: false });
                if bare {
                    // `[[target#heading]]` reads as its target, and
                    // `[[folder/Note.md]]` as the note's name.
                    if self.skip == 0 {
                        let target = dest_url.split('#').next().unwrap_or("");
                        let name = target.rsplit('/').next().unwrap_or(target);
                        let name = name.strip_suffix(".md").unwrap_or(name);
                        self.text(if name.is_empty() { target } else { name });
                    }
                    self.skip += 1;
                }
                self.links.push(bare);
            }
            _ => {}
        }
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::Heading(_) => {
                if let Some(h) = self.heading.take() {
                    self.push(Unit::Heading(squash(&h)));
                }
            }
            TagEnd::CodeBlock
            | TagEnd::Table
            | TagEnd::HtmlBlock
            | TagEnd::FootnoteDefinition
            | TagEnd::MetadataBlock(_)
            | TagEnd::Image => self.skip = self.skip.saturating_sub(1),
            TagEnd::Link => {
                if self.links.pop() == Some(true) {
                    self.skip = self.skip.saturating_sub(1);
                }
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
                // A callout that is its title alone (`> [!warning] Never
                // deploy on Fridays`): the title is its message.
                if let Some((at, title)) = self.callout_title.take()
                    && at + 1 == self.out.len()
                {
                    self.out[at] = Unit::Prose(title, false);
                }
            }
            TagEnd::Item => {
                self.flush();
                if let Some(item) = self.items.pop()
                    && item.anchor
                    && !item.plain
                {
                    self.list.anchor_items += 1;
                }
            }
            TagEnd::List(_) => {
                self.flush();
                self.list_depth = self.list_depth.saturating_sub(1);
                if self.list_depth == 0 {
                    let done = std::mem::take(&mut self.list);
                    // A table of contents: most items only link to a section.
                    if done.anchor_items * 2 <= done.items {
                        self.out.extend(done.units);
                    } else {
                        self.out.push(Unit::Other);
                    }
                }
            }
            other => {
                if is_block_end(other) {
                    self.flush();
                }
            }
        }
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

fn is_block_end(end: TagEnd) -> bool {
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
pub(crate) fn protect_markers(text: &str) -> (String, bool) {
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
        if let Some(end) = kind_len {
            out.push(OPEN);
            out.push_str(&after[..end]);
            out.push(CLOSE);
            rest = &after[end + 1..];
            found = true;
        } else {
            out.push_str(PREFIX);
            rest = after;
        }
    }
    out.push_str(rest);
    (out, found)
}

pub(crate) fn restore_markers(text: &str, found: bool) -> String {
    if !found {
        return text.to_owned();
    }
    text.replace(OPEN, "[redacted:").replace(CLOSE, "]")
}

/// Splits prose into sentences at `. `, `! `, `? ` (keeping abbreviations like
/// `e.g.` whole, and a parenthesis or bracket that closes whole: `(Kept private.
/// See the wiki.)` is one sentence).
pub fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let enclosed = enclosed(bytes);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // An end mark, or a bracket closing right after one: `(See the wiki.) Next`.
        let ends = match b {
            b'.' | b'!' | b'?' => true,
            b')' | b']' => i > 0 && matches!(bytes[i - 1], b'.' | b'!' | b'?'),
            _ => false,
        };
        if ends
            && i + 1 < bytes.len()
            && bytes[i + 1] == b' '
            && !enclosed.get(i).copied().unwrap_or(false)
        {
            let next = text[i + 1..].trim_start().chars().next();
            let word_before = text[start..i].rsplit(' ').next().unwrap_or("");
            let abbreviation = b == b'.' && is_abbreviation(word_before);
            if next.is_some_and(|c| {
                c.is_uppercase() || c.is_ascii_digit() || matches!(c, '`' | '"' | '(' | '[')
            }) && !abbreviation
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

/// Whether `word` (the word before a full stop) is an abbreviation that does
/// not end a sentence: `e.g.`, `et al.`, `no. 5`. A short word is not one by its
/// length ("Roll it back and test it. Then…" is two sentences).
fn is_abbreviation(word: &str) -> bool {
    const ABBREVIATIONS: &[&str] = &[
        "e.g", "i.e", "etc", "vs", "approx", "cf", "al", "ca", "pp", "no", "nr", "vol", "fig",
        "eq", "ch", "sec", "ff", "resp", "incl", "excl", "esp", "viz",
    ];
    let word = word.trim_start_matches(['(', '[', '"', '\'']);
    ABBREVIATIONS.contains(&word)
}

/// Per byte of `text`: whether it lies inside a pair of `(…)` or `[…]` that
/// closes (an opening bracket with no closing one, as in `1) first`, encloses
/// nothing). Each kind pairs on its own; linear however deep they nest. Empty
/// (nothing enclosed) when no bracket closes, as in most paragraphs.
fn enclosed(text: &[u8]) -> Vec<bool> {
    if !text.iter().any(|&b| b == b')' || b == b']') {
        return Vec::new();
    }
    // +1 where a pair's inside starts, -1 where it ends.
    let mut depth_change = vec![0i32; text.len() + 1];
    let (mut round, mut square): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for (i, &b) in text.iter().enumerate() {
        let open = match b {
            b'(' => {
                round.push(i);
                None
            }
            b'[' => {
                square.push(i);
                None
            }
            b')' => round.pop(),
            b']' => square.pop(),
            _ => None,
        };
        if let Some(from) = open {
            depth_change[from + 1] += 1;
            depth_change[i] -= 1;
        }
    }
    let mut depth = 0;
    depth_change[..text.len()]
        .iter()
        .map(|d| {
            depth += d;
            depth > 0
        })
        .collect()
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn with_no_bracket_closing_nothing_is_enclosed_and_no_table_is_built() {
        assert!(enclosed(b"One. Two (three. Four").is_empty());
        assert_eq!(
            split_sentences("One. Two (three. Four"),
            ["One.", "Two (three.", "Four"]
        );
        // Only the inside of a pair: `b`, not the brackets.
        assert_eq!(
            enclosed(b"a (b) c"),
            [false, false, false, true, false, false, false]
        );
    }

    /// A real vault files each note under a bare `Tags:` line and a list of
    /// links to its tag notes, then a rule: the summary was "Tags:", or "Tags:
    /// == checks for equal VALUE".
    #[test]
    fn a_tags_label_and_its_list_are_not_prose() {
        let body = "Tags:\n- [[Python]]\n- [[Data Structures]]\n---\n== checks for equal VALUE\n\n`is` checks if 2 things are at the same memory location\n";
        let p = prose(body);
        assert_eq!(
            p.lead_first().next().map(String::as_str),
            Some("== checks for equal VALUE")
        );
        assert!(
            !p.sentences.iter().any(|s| s.contains("Tags")),
            "{:?}",
            p.sentences
        );
        let only = prose("Tags:\n- [[Distributed Systems]]\n---\n![](x.png)\n");
        assert!(only.sentences.is_empty(), "{:?}", only.sentences);
        // A list after `Tags:` ends at the first line that is not an item; a
        // sentence in a list is prose; a label with a value is one line only.
        let body =
            "**Tags:**\n- rust\n\nThe cache keeps a day of reads.\n- Items stay listed here.\n";
        let p = prose(body);
        assert_eq!(
            p.sentences,
            ["The cache keeps a day of reads.", "Items stay listed here."]
        );
        let kept = prose("Tags: rust\n- the first point stays\n");
        assert_eq!(kept.sentences, ["the first point stays"]);
    }

    /// What a section of sources holds is where the note points, not what it
    /// says: a real vault's note of stories (a table) was summarized by the
    /// book under its `## References` heading.
    #[test]
    fn a_section_of_sources_is_not_prose() {
        let body = "| Title | Situation |\n|---|---|\n| RIL | internship |\n\n## References\nCracking the Coding Interview\n\n## Notes\nThe stories follow STAR.\n";
        let p = prose(body);
        assert_eq!(p.sentences, ["The stories follow STAR."]);
        assert_eq!(p.references, ["Cracking the Coding Interview"]);
        for heading in [
            "## See also",
            "### Further reading:",
            "## Links",
            "## Sources",
        ] {
            let p = prose(&format!(
                "Lead text here.\n\n{heading}\n- [Book](https://x.org)\n"
            ));
            assert_eq!(p.sentences, ["Lead text here."], "{heading}");
        }
        // A heading that only starts so is a section of the note, and so are
        // `Resources` and `Source` (a Kubernetes note's resource types).
        for heading in ["## References to the cache", "## Resources", "## Source"] {
            let p = prose(&format!("{heading}\nThe cache keeps a day.\n"));
            assert_eq!(p.sentences, ["The cache keeps a day."], "{heading}");
        }
    }

    #[test]
    fn a_label_and_an_address_are_not_the_lead() {
        let body = "Date: 2022-01-05\n\n**Link to this ADR: https://docs.example.com/d/1CsW_RF0pB2cFSc2y__YfQwjQdWBtccq3Ug1EyjVkW88/edit#**\n\n(Security records are kept privately. This sign-post keeps it findable.)\n";
        let p = prose(body);
        assert_eq!(
            p.lead_first().next().map(String::as_str),
            Some("(Security records are kept privately. This sign-post keeps it findable.)")
        );
        // Still a sentence of the note (for passages), and a sentence that
        // says more than where to look is prose.
        assert!(
            p.sentences
                .iter()
                .any(|s| s.starts_with("Link to this ADR"))
        );
        for prose_line in [
            "We moved the docs to https://docs.example.com because the wiki was slow.",
            "See the thread: https://example.com/t and the notes below.",
        ] {
            assert!(!only_points_elsewhere(prose_line), "{prose_line}");
        }
        assert!(only_points_elsewhere(
            "Tracking issue: <https://example.com/i/4>"
        ));
    }

    #[test]
    fn a_short_word_ends_a_sentence_an_abbreviation_does_not() {
        assert_eq!(
            split_sentences("Roll it back and test it. Then tell us. We can go on."),
            vec![
                "Roll it back and test it.",
                "Then tell us.",
                "We can go on."
            ]
        );
        assert_eq!(
            split_sentences("As Smith et al. Reported in vol. 3, see e.g. Section 4. Done."),
            vec![
                "As Smith et al. Reported in vol. 3, see e.g. Section 4.",
                "Done."
            ]
        );
    }

    #[test]
    fn a_parenthesis_that_closes_is_not_cut() {
        assert_eq!(
            split_sentences(
                "(Security ADRs are stored privately. It's useful to keep this here.) Next one."
            ),
            vec![
                "(Security ADRs are stored privately. It's useful to keep this here.)",
                "Next one."
            ]
        );
        assert_eq!(
            split_sentences("See [the guide. It helps] first. Then go."),
            vec!["See [the guide. It helps] first.", "Then go."]
        );
        // An opener that never closes encloses nothing.
        assert_eq!(
            split_sentences("Steps: 1) Stop it. Then restart. (A note"),
            vec!["Steps: 1) Stop it.", "Then restart.", "(A note"]
        );
        assert_eq!(
            split_sentences("One (a. B) two. Three ("),
            vec!["One (a. B) two.", "Three ("]
        );
    }

    /// Metadata field lines are not prose: Dataview's inline fields (any key)
    /// and bold fields with a metadata key (an entry's `Category`, `Tags`,
    /// `Related files`, a sensitivity key). Before, `status:: accepted
    /// related_files:: src/cache.rs` or `Related files: src/time.rs Tags: time`
    /// was a summary's first sentence (as `cairn memory` writes entries, too).
    #[test]
    fn tags_ending_a_sentence_are_not_prose() {
        assert_eq!(
            prose_sentences("I use Codex. These are my rules. #ai #workflow\n"),
            ["I use Codex.", "These are my rules."]
        );
        assert_eq!(prose_sentences("Done.\n\n- #ai #workflow\n"), ["Done."]);
        // A tag that is the sentence's last word stays (the review's case).
        assert_eq!(
            prose_sentences("Report incidents in #incidents.\n"),
            ["Report incidents in #incidents."]
        );
        // A tag inside a sentence, an issue number, a lone word: kept.
        assert_eq!(
            prose_sentences("The #rust build broke in #123.\n"),
            ["The #rust build broke in #123."]
        );
    }

    #[test]
    fn metadata_field_lines_are_not_prose() {
        let body = "Status:: accepted\nrelated_files:: `src/cache.rs`\n\nEach mode writes its own cache.\n\nstd::mem::take avoids a clone.\n";
        assert_eq!(
            prose_sentences(body),
            vec![
                "Each mode writes its own cache.",
                "std::mem::take avoids a clone."
            ]
        );
        let entry = "### [2025-03-19] Time filter reads now through a hook\n\n**Category:** testing\n**Tags:** time-filter, testing\n**Related files:** src/filter/time.rs\n**Sensitivity:** internal\n\nTimeFilter calls a hook for now.\n\n**Why:** tests need a fixed clock.\n";
        assert_eq!(
            prose_sentences(entry),
            vec![
                "TimeFilter calls a hook for now.",
                "Why: tests need a fixed clock."
            ]
        );
    }

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
    fn a_decision_records_bookkeeping_is_not_its_lead() {
        let lead = |body: &str| {
            let p = prose(body);
            p.lead_first().next().cloned().unwrap_or_default()
        };
        // Nygard's template (adr-tools).
        assert_eq!(
            lead(
                "# 1. Record decisions\n\nDate: 2016-02-12\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record the decisions made.\n"
            ),
            "We need to record the decisions made."
        );
        assert_eq!(
            lead(
                "**Status:** Superseded by [ADR 7](0007-x.md)\n\n## Context\n\nQueues lose order.\n"
            ),
            "Queues lose order."
        );
        assert_eq!(
            lead("## Date\n\n2021-04-01\n\n## Decision\n\nUse a log.\n"),
            "Use a log."
        );
        // A status section that says something is prose like any other.
        let narrative = "## Status\n\nIn beta with three customers since June; the billing export is the last piece missing.\n\n## Plan\n\nShip it.\n";
        assert_eq!(
            lead(narrative),
            "In beta with three customers since June; the billing export is the last piece missing."
        );
        // A sentence that starts with the word is not a field.
        assert_eq!(
            lead("Dates are stored in UTC.\n\nMore.\n"),
            "Dates are stored in UTC."
        );
        // When a document was written or reviewed, and by whom, is
        // bookkeeping too (a guide in alphagov/govuk-aws opens with `Created
        // on: 20 May 2019`, which was its summary's first sentence).
        for opening in [
            "Created on: 20 May 2019",
            "**Last updated:** 2023-04-01",
            "- Deciders: Ana, Bo",
            "_Author_: Sam Lee",
        ] {
            assert_eq!(
                lead(&format!(
                    "## Deploying\n\n{opening}\n\nThis describes the deploy.\n"
                )),
                "This describes the deploy.",
                "{opening}"
            );
        }
        // The terms a note defines, and how to read MUST and SHOULD, come
        // before what it says (a decision record in alphagov/govuk-aws opens
        // with `## Definitions` and the RFC 2119 sentence).
        assert_eq!(
            lead(
                "## Status\n\nAccepted\n\n## Definitions\n\nThis proposal uses the [RFC2119](https://www.ietf.org/rfc/rfc2119.txt) standard for MUST and MAY.\n\n## Context\n\nPublic domains get flagged as phishing.\n"
            ),
            "Public domains get flagged as phishing."
        );
        assert_eq!(
            lead(
                "The key words MUST and SHOULD in this document are to be interpreted as described in RFC 2119.\n\nEvery service exposes a health check.\n"
            ),
            "Every service exposes a health check."
        );
        // A label in a sentence, or one that says something, is prose.
        assert_eq!(
            lead("Created on demand: a worker per queue.\n\nMore.\n"),
            "Created on demand: a worker per queue."
        );
        assert_eq!(
            lead(
                "Owner: the platform team decides every schema change in this service, after review.\n\nMore.\n"
            ),
            "Owner: the platform team decides every schema change in this service, after review."
        );
        // Bookkeeping alone is a sentence, but not one of the lead's.
        assert_eq!(prose_sentences("Status: Accepted\n"), ["Status: Accepted"]);
        assert_eq!(lead("Status: Accepted\n"), "");
        // And known for what it is.
        let p = prose(
            "# 9. Help scripts\n\nDate: 2018-06-26\n\n## Status\n\nAccepted\n\nAmends [5. Help comments](0005-help-comments.md)\n\n## Context\n\nHelp text comes from comments.\n",
        );
        let fields: Vec<&str> = p
            .record_fields
            .iter()
            .map(|&i| p.sentences[i].as_str())
            .collect();
        assert_eq!(
            fields,
            ["Date: 2018-06-26", "Accepted", "Amends 5.", "Help comments"]
        );
        // Every sentence stays, in order, for passages and task matches.
        assert_eq!(
            prose_sentences("Date: 2016-02-12\n\n## Context\n\nWhy.\n"),
            vec!["Date: 2016-02-12", "Why."]
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
