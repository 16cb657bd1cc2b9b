//! What cairn reads from a markdown body, through a `CommonMark` parser
//! (pulldown-cmark): headings (ATX and setext), `[[wikilinks]]` and inline `#tags`.
//! Text in code (spans, fenced and indented blocks), HTML (comments included),
//! link destinations and link text is never a tag; wikilinks in code or HTML are
//! not links. Heading text is what a reader sees: links reduced to their text,
//! inline code kept as text, emphasis and images removed.

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd, TextMergeWithOffset};

use crate::model::Heading;

/// The markdown dialect cairn reads: `CommonMark` plus GitHub tables, task lists,
/// strikethrough and footnotes, Obsidian wikilinks and heading attributes
/// (`## Title {#id}`). One definition for every reader of note text (the
/// redactor's plain view of a note included).
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_WIKILINKS
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// Structure found in a body.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct BodyParts {
    /// Headings, ATX and setext.
    pub headings: Vec<Heading>,
    /// Wikilink targets, in order, unique.
    pub wikilinks: Vec<String>,
    /// Inline tags, lowercase, without `#`, in order, unique.
    pub tags: Vec<String>,
    /// Every wikilink occurrence with its 1-based file line, in order.
    pub wikilink_lines: Vec<(String, usize)>,
}

/// Every `[[wikilink]]` target of `body` (whose first line is file line
/// `first_line`) with the line it is on; links in code and HTML are not links
/// and are skipped.
pub fn wikilink_lines(body: &str, first_line: usize) -> Vec<(String, usize)> {
    scan_body(body, first_line).wikilink_lines
}

/// Maps byte offsets of a text to 1-based lines.
pub(crate) struct Lines {
    breaks: Vec<usize>,
    first: usize,
}

impl Lines {
    pub(crate) fn new(text: &str, first_line: usize) -> Self {
        Self {
            breaks: text.match_indices('\n').map(|(i, _)| i).collect(),
            first: first_line,
        }
    }

    /// The line of byte `offset`.
    pub(crate) fn of(&self, offset: usize) -> usize {
        self.first + self.breaks.partition_point(|&b| b < offset)
    }
}

/// Scans `body`, whose first line is line `first_line` of the file.
pub(crate) fn scan_body(body: &str, first_line: usize) -> BodyParts {
    let mut parts = BodyParts::default();
    let lines = Lines::new(body, first_line);
    // Where text goes: a heading being read, or nowhere (code, HTML, images).
    let mut heading: Option<(u8, usize, String)> = None;
    let mut code = 0usize;
    let mut image = 0usize;
    let mut link = 0usize;
    let events = TextMergeWithOffset::new(Parser::new_ext(body, options()).into_offset_iter());
    for (event, range) in events {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((level as u8, lines.of(range.start), String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, line, text)) = heading.take() {
                    let text = squash(&text);
                    if !text.is_empty() {
                        parts.headings.push(Heading { level, text, line });
                    }
                }
            }
            Event::Start(Tag::CodeBlock(_)) => code += 1,
            Event::End(TagEnd::CodeBlock) => code = code.saturating_sub(1),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => {
                image += 1;
                if let LinkType::WikiLink { .. } = link_type {
                    add_link(&mut parts, &dest_url, lines.of(range.start));
                }
            }
            Event::End(TagEnd::Image) => image = image.saturating_sub(1),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => {
                link += 1;
                if let LinkType::WikiLink { .. } = link_type {
                    add_link(&mut parts, &dest_url, lines.of(range.start));
                }
            }
            Event::End(TagEnd::Link) => link = link.saturating_sub(1),
            Event::Text(text) if code == 0 && image == 0 => {
                if let Some((_, _, h)) = heading.as_mut() {
                    h.push_str(&text);
                }
                if link == 0 {
                    for tag in inline_tags(&text) {
                        if !parts.tags.contains(&tag) {
                            parts.tags.push(tag);
                        }
                    }
                }
            }
            Event::Code(text) if image == 0 => {
                if let Some((_, _, h)) = heading.as_mut() {
                    h.push_str(&text);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, _, h)) = heading.as_mut() {
                    h.push(' ');
                }
            }
            _ => {}
        }
    }
    parts
}

/// The note a wikilink's inside names: before its alias (`|`) or heading (`#`);
/// a table cell escapes the alias's pipe (`[[Table view\|Table]]`), and the
/// backslash is no part of the name.
fn link_name(inner: &str) -> &str {
    let name = inner.split(['|', '#']).next().unwrap_or("").trim();
    name.strip_suffix('\\').map_or(name, str::trim_end)
}

fn add_link(parts: &mut BodyParts, dest: &str, line: usize) {
    let target = link_name(dest);
    // A note name never holds brackets or a line break: `[[![img](x)](y)` and
    // `[[tag] text]` are brackets that happen to double, not links.
    if target.is_empty() || target.contains(['[', ']', '\n']) {
        return;
    }
    parts.wikilink_lines.push((target.to_owned(), line));
    if !parts.wikilinks.iter().any(|l| l == target) {
        parts.wikilinks.push(target.to_owned());
    }
}

/// Whitespace collapsed to single spaces, trimmed.
pub(crate) fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn is_heading_marker(t: &str) -> bool {
    let hashes = t.chars().take_while(|&c| c == '#').count();
    (1..=6).contains(&hashes)
        && t[hashes..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t')
}

/// Fenced code, line by line, as `CommonMark` reads it (pulldown-cmark): which
/// lines of a text are a closed fenced code block (its fences included),
/// wherever it opens (a list item, a block quote). A fence that never closes is
/// not counted as code: a line a sensitivity mark may be on is read unless the
/// text surely shows it as code. Lines are the text's `\n`-separated lines.
#[derive(Debug, Default)]
pub(crate) struct Fences(Vec<bool>);

impl Fences {
    /// The fenced lines of `text`.
    pub(crate) fn of(text: &str) -> Self {
        if !text.contains("```") && !text.contains("~~~") {
            return Self(Vec::new());
        }
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let line_of = |at: usize| starts.partition_point(|&s| s <= at).saturating_sub(1);
        let mut code = vec![false; starts.len()];
        for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
            let Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(_))) = event
            else {
                continue;
            };
            let block = &text[range.clone()];
            let first = line_of(range.start);
            let last = line_of(range.end.saturating_sub(1).max(range.start));
            if closes_its_fence(block) {
                for c in &mut code[first..=last] {
                    *c = true;
                }
            }
        }
        Self(code)
    }

    /// Whether line `i` (0-based) is fenced code.
    pub(crate) fn is_code(&self, i: usize) -> bool {
        self.0.get(i).copied().unwrap_or(false)
    }
}

/// Whether a fenced block's text ends with a closing fence: its last line,
/// without a container's prefix (`>`, blanks), is a run of the opening fence's
/// character at least as long.
fn closes_its_fence(block: &str) -> bool {
    let mut lines = block
        .lines()
        .map(|l| l.trim_start_matches(['>', ' ', '\t']).trim());
    let Some((ch, n)) = lines.next().and_then(|first| {
        let first = first.trim_start_matches(['-', '*', '+', ' ']);
        let first = first.trim_start_matches(|c: char| c.is_ascii_digit());
        let first = first.trim_start_matches(['.', ')', ' ']);
        fence_marker(first)
    }) else {
        return false;
    };
    block
        .lines()
        .skip(1)
        .last()
        .map(|l| l.trim_start_matches(['>', ' ', '\t']).trim())
        .is_some_and(|l| l.len() >= n && l.chars().all(|c| c == ch))
}

/// Fenced code blocks, followed line by line as a reader meets them (a fence
/// left open runs to the end, unlike [`Fences`], which counts closed blocks
/// only): the fence a line is in, if any.
#[derive(Debug, Default)]
pub(crate) struct OpenFence(Option<(char, usize)>);

impl OpenFence {
    /// Whether the trimmed line `t`, the next of the text, is a fence or
    /// inside a fenced block (a closing fence is as long as its opener or
    /// longer, of the same character).
    pub(crate) fn in_code(&mut self, t: &str) -> bool {
        if let Some((ch, n)) = self.0 {
            if fence_marker(t).is_some_and(|(c, m)| c == ch && m >= n) {
                self.0 = None;
            }
            return true;
        }
        self.0 = fence_marker(t);
        self.0.is_some()
    }
}

/// A fence opener/closer: three or more backticks or tildes.
pub(crate) fn fence_marker(t: &str) -> Option<(char, usize)> {
    let ch = t.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let n = t.chars().take_while(|&c| c == ch).count();
    (n >= 3).then_some((ch, n))
}

/// `[[target]]`, `[[target|alias]]`, `[[target#heading]]`, `![[embed]]` → `target`,
/// in plain text (a front-matter value, a line).
pub fn wikilinks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("[[") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("]]") else { break };
        let inner = &after[..end];
        if !inner.contains('[') && !inner.contains('\n') {
            let target = link_name(inner);
            if !target.is_empty() {
                out.push(target.to_owned());
            }
        }
        rest = &after[end + 2..];
    }
    out
}

/// Removes `[[ ]]` around a link-valued frontmatter string.
pub fn link_target(text: &str) -> String {
    let t = text.trim();
    let t = t
        .strip_prefix("[[")
        .and_then(|t| t.strip_suffix("]]"))
        .unwrap_or(t);
    link_name(t).to_owned()
}

/// `#tag` words of plain text (never code, HTML or a link: the caller gives only
/// text outside them): a `#` at the start or after whitespace or `(`, then
/// letters, digits, `-`, `_`, `/`, with at least one character that is not a
/// digit (Obsidian's rule: `#2024-review` is a tag, `#2024` and `#1` are not).
pub(crate) fn inline_tags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '#' && (i == 0 || chars[i - 1].is_whitespace() || chars[i - 1] == '(') {
            let start = i + 1;
            let mut end = start;
            while end < chars.len()
                && (chars[end].is_alphanumeric() || matches!(chars[end], '-' | '_' | '/'))
            {
                end += 1;
            }
            let tag: String = chars[start..end].iter().collect::<String>();
            let tag = tag
                .trim_start_matches(['/', '-'])
                .trim_end_matches(['/', '-'])
                .to_lowercase();
            if tag
                .chars()
                .any(|c| !c.is_ascii_digit() && c != '-' && c != '/')
            {
                out.push(tag);
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_links_tags_skip_code() {
        let body = "# Title #rust\nSee [[Other Note|other]] and ![[img.png]] #todo.\n```\n# not heading [[nope]] #nope\n```\n## Sub ##\n`[[inline]]` #tag-two/x and issue #42 and a#b\n[[![img](x.png)]](y) [[tag] text](z)\n";
        let p = scan_body(body, 5);
        let hs: Vec<_> = p
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(hs, vec![(1, "Title #rust", 5), (2, "Sub", 10)]);
        assert_eq!(p.wikilinks, vec!["Other Note", "img.png"]);
        assert_eq!(p.tags, vec!["rust", "todo", "tag-two/x"]);
        // A table cell escapes an alias's pipe.
        let p = scan_body(
            "| View | Link |\n|---|---|\n| a | [[Table view\\|Table]] |\n",
            1,
        );
        assert_eq!(p.wikilinks, vec!["Table view"]);
        assert_eq!(wikilinks("| [[Table view\\|Table]] |"), vec!["Table view"]);
    }

    #[test]
    fn tag_rules() {
        let check = |text: &str, expect: &[&str]| assert_eq!(inline_tags(text), expect, "{text}");
        check("#2024-review and #2024 and #1", &["2024-review"]);
        check("(#a) x#b #_c #-", &["a", "_c"]);
        check("#Tag/Sub/", &["tag/sub"]);
    }

    #[test]
    fn link_targets() {
        assert_eq!(link_target("[[ADR-3 Use Kafka|kafka]]"), "ADR-3 Use Kafka");
        assert_eq!(link_target("plain.md"), "plain.md");
    }
}
