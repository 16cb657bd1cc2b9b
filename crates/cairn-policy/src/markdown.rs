//! Redaction of a note's raw markdown, for every output that prints it as written
//! (`get`, `get --lines`, MCP `memory_get` and `resources/read`, `memory show`).
//!
//! Summaries and snippets are cut from the rendered text, where escapes and
//! entities are decoded, code-span and emphasis markers are gone and a wrapped
//! sentence is one line. Redacting the raw text alone would let `get` print what
//! a summary hides: `ghp\_…`, `gh&#112;_…`, `` `ghp_`… ``, or `the password is`
//! with its value on the next line. So [`redact_markdown`] detects on both: the
//! raw text, and a plain view of it (markdown rendered to text by pulldown-cmark,
//! soft line breaks as spaces), whose every match is mapped back to the raw bytes
//! of the events it overlaps; the raw text is masked over the union.

use std::borrow::Cow;
use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, TagEnd};

use crate::detect::{Span, apply, merge, settled_spans};
use crate::{CredentialKind, Redaction, markers};

/// The markdown the plain view reads: what notes are written in (cairn-note's
/// dialect), and front matter as a block of its own, kept line by line.
fn options() -> Options {
    cairn_note::markdown_options()
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
}

/// How many times the masked text is checked again before it is masked whole.
const MAX_PASSES: usize = 8;

/// Replaces each credential of a raw markdown text with `[redacted:<kind>]`: those
/// [`crate::redact`] finds in the text as written, and those it finds in the text
/// as rendered (mapped back onto the raw bytes that render them). Idempotent;
/// borrowed when nothing is found.
pub fn redact_markdown(text: &str) -> Redaction<'_> {
    let mut current = Cow::Borrowed(text);
    for _ in 0..MAX_PASSES {
        let spans = spans(&current);
        if spans.is_empty() {
            let kinds = new_markers(text, &current);
            return Redaction {
                count: kinds.len(),
                kinds,
                text: current,
            };
        }
        current = Cow::Owned(apply(&current, &spans).0);
    }
    let kind = markers(&current)
        .next()
        .unwrap_or(CredentialKind::GenericSecretAssignment);
    Redaction {
        text: Cow::Owned(kind.marker()),
        count: 1,
        kinds: vec![kind],
    }
}

/// Every credential of a raw markdown text as [`redact_markdown`] finds them in
/// one pass: those of the text as written and those of the text as rendered
/// (`ghp\_…`, `gh&#112;_…`, a password on the next line), each as the raw bytes
/// that hold it. For checks that must see what a reader sees (the write path's
/// refusal, `cairn lint`); in text order.
pub fn find_credentials_markdown(text: &str) -> Vec<crate::Finding> {
    spans(text)
        .into_iter()
        .map(|s| crate::Finding {
            kind: s.kind,
            line: text[..s.start].matches('\n').count() + 1,
            start: s.start,
            end: s.end,
        })
        .collect()
}

/// The markers of `now` that `before` did not have, in order (a note may quote a
/// marker; it is not a redaction of ours).
fn new_markers(before: &str, now: &str) -> Vec<CredentialKind> {
    let mut had: Vec<CredentialKind> = markers(before).collect();
    markers(now)
        .filter(|k| match had.iter().position(|h| h == k) {
            Some(i) => {
                had.swap_remove(i);
                false
            }
            None => true,
        })
        .collect()
}

/// The spans to mask in `text`: the raw text's and the plain view's, merged.
fn spans(text: &str) -> Vec<Span> {
    let mut spans = settled_spans(text);
    let view = View::of(text);
    if view.plain != text {
        for s in settled_spans(&view.plain) {
            if let Some(raw) = view.to_raw(s.start..s.end) {
                spans.push(Span {
                    start: raw.start,
                    end: raw.end,
                    kind: s.kind,
                });
            }
        }
    }
    merge(spans)
}

/// A piece of the plain view and the raw bytes it was rendered from.
#[derive(Debug)]
struct Piece {
    plain: Range<usize>,
    raw: Range<usize>,
    /// Whether the raw bytes are the plain text itself (offsets map one to one).
    verbatim: bool,
}

/// Markdown rendered to plain text, with where each piece came from.
#[derive(Debug, Default)]
struct View {
    plain: String,
    pieces: Vec<Piece>,
}

impl View {
    fn of(text: &str) -> Self {
        let mut view = View::default();
        for (event, raw) in Parser::new_ext(text, options()).into_offset_iter() {
            match event {
                // An inline tag or comment renders as nothing (`AKIA<b></b>…`).
                Event::Text(t)
                | Event::Code(t)
                | Event::Html(t)
                | Event::InlineMath(t)
                | Event::DisplayMath(t) => view.push(&t, raw, text),
                Event::SoftBreak => view.push(" ", raw, text),
                Event::HardBreak => view.push("\n", raw, text),
                Event::End(TagEnd::TableCell) => view.plain.push_str(" | "),
                Event::End(
                    TagEnd::Paragraph
                    | TagEnd::Heading(_)
                    | TagEnd::Item
                    | TagEnd::TableRow
                    | TagEnd::TableHead
                    | TagEnd::CodeBlock
                    | TagEnd::HtmlBlock
                    | TagEnd::MetadataBlock(_)
                    | TagEnd::BlockQuote(_)
                    | TagEnd::FootnoteDefinition,
                )
                | Event::Rule => view.plain.push('\n'),
                _ => {}
            }
        }
        view
    }

    fn push(&mut self, s: &str, raw: Range<usize>, text: &str) {
        let start = self.plain.len();
        self.plain.push_str(s);
        let verbatim = text.get(raw.clone()) == Some(s);
        self.pieces.push(Piece {
            plain: start..self.plain.len(),
            raw,
            verbatim,
        });
    }

    /// The raw bytes behind `plain[range]`: exact inside a piece written as it
    /// renders, the whole piece otherwise (an escape, an entity, a code span with
    /// its backticks), from the first piece it overlaps to the last.
    fn to_raw(&self, range: Range<usize>) -> Option<Range<usize>> {
        let first = self.pieces.partition_point(|p| p.plain.end <= range.start);
        let mut out: Option<Range<usize>> = None;
        for p in self.pieces[first..]
            .iter()
            .take_while(|p| p.plain.start < range.end)
        {
            let raw = if p.verbatim {
                let s = range.start.max(p.plain.start) - p.plain.start;
                let e = range.end.min(p.plain.end) - p.plain.start;
                p.raw.start + s..p.raw.start + e
            } else {
                p.raw.clone()
            };
            out = Some(match out {
                Some(o) => o.start.min(raw.start)..o.end.max(raw.end),
                None => raw,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_view_decodes_and_maps_back() {
        let text = "a gh&#112;\\_x `c` *d*\nnext";
        let view = View::of(text);
        assert_eq!(view.plain, "a ghp_x c d next\n");
        // `p` came from the entity: its whole raw range.
        let p = view.plain.find('p').unwrap();
        assert_eq!(view.to_raw(p..p + 1), Some(4..10));
        // `next` is verbatim.
        let n = view.plain.find("next").unwrap();
        assert_eq!(view.to_raw(n + 1..n + 3), Some(23..25));
    }
}
