//! What cairn reads from a markdown body: ATX headings, `[[wikilinks]]`, inline
//! `#tags` and plain prose (for summaries). Code fences and inline code are skipped.

use crate::model::Heading;

/// Structure found in a body.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BodyParts {
    /// ATX headings.
    pub headings: Vec<Heading>,
    /// Wikilink targets, in order, unique.
    pub wikilinks: Vec<String>,
    /// Inline tags, lowercase, without `#`, in order, unique.
    pub tags: Vec<String>,
    /// Every wikilink occurrence with its 1-based file line, in order.
    pub wikilink_lines: Vec<(String, usize)>,
}

/// Every `[[wikilink]]` target of `body` (whose first line is file line
/// `first_line`) with the line it is on; links in code fences and inline code
/// are not links and are skipped.
pub fn wikilink_lines(body: &str, first_line: usize) -> Vec<(String, usize)> {
    scan_body(body, first_line).wikilink_lines
}

/// Scans `body`, whose first line is line `first_line` of the file.
pub fn scan_body(body: &str, first_line: usize) -> BodyParts {
    let mut parts = BodyParts::default();
    let mut fence: Option<(char, usize)> = None;
    for (i, line) in body.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some((ch, n)) = fence_marker(trimmed) {
            match fence {
                None => {
                    fence = Some((ch, n));
                    continue;
                }
                Some((open, len))
                    if open == ch && n >= len && trimmed.trim_end().chars().all(|c| c == ch) =>
                {
                    fence = None;
                    continue;
                }
                Some(_) => {}
            }
        }
        if fence.is_some() {
            continue;
        }
        if let Some(h) = atx_heading(trimmed, first_line + i) {
            parts.headings.push(h);
        }
        let text = strip_inline_code(line);
        for link in wikilinks(&text) {
            parts.wikilink_lines.push((link.clone(), first_line + i));
            if !parts.wikilinks.contains(&link) {
                parts.wikilinks.push(link);
            }
        }
        // A heading marker is `#` plus a space, never a tag, so every line is scanned alike.
        for tag in inline_tags(&text) {
            if !parts.tags.contains(&tag) {
                parts.tags.push(tag);
            }
        }
    }
    parts
}

pub(crate) fn is_heading_marker(t: &str) -> bool {
    let hashes = t.chars().take_while(|&c| c == '#').count();
    (1..=6).contains(&hashes)
        && t[hashes..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t')
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

fn atx_heading(t: &str, line: usize) -> Option<Heading> {
    if !is_heading_marker(t) {
        return None;
    }
    let level = t.chars().take_while(|&c| c == '#').count();
    let text = t[level..].trim();
    // Closing sequence: `## Title ##`.
    let text = text.trim_end_matches('#').trim_end();
    if text.is_empty() {
        return None;
    }
    Some(Heading {
        level: level as u8,
        text: text.to_owned(),
        line,
    })
}

/// Replaces `inline code` spans with spaces so links and tags inside are ignored.
fn strip_inline_code(line: &str) -> String {
    if !line.contains('`') {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// `[[target]]`, `[[target|alias]]`, `[[target#heading]]`, `![[embed]]` → `target`.
pub fn wikilinks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("[[") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("]]") else { break };
        let inner = &after[..end];
        if !inner.contains('[') && !inner.contains('\n') {
            let target = inner.split(['|', '#']).next().unwrap_or("").trim();
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
    t.split(['|', '#']).next().unwrap_or("").trim().to_owned()
}

/// `#tag` words: after whitespace or line start, first char a letter, then letters,
/// digits, `-`, `_`, `/`.
fn inline_tags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '#' && (i == 0 || chars[i - 1].is_whitespace() || chars[i - 1] == '(') {
            let start = i + 1;
            if start < chars.len() && chars[start].is_alphabetic() {
                let mut end = start;
                while end < chars.len()
                    && (chars[end].is_alphanumeric() || matches!(chars[end], '-' | '_' | '/'))
                {
                    end += 1;
                }
                let tag: String = chars[start..end].iter().collect::<String>();
                let tag = tag.trim_end_matches(['/', '-']).to_lowercase();
                if !tag.is_empty() {
                    out.push(tag);
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Prose of the body for summaries: paragraphs outside code, headings and tables,
/// with markdown marks removed and whitespace collapsed, each a sentence list.
pub fn prose_sentences(body: &str) -> Vec<String> {
    let mut sentences = Vec::new();
    let mut para = String::new();
    let mut fence: Option<char> = None;
    let flush = |para: &mut String, out: &mut Vec<String>| {
        if !para.trim().is_empty() {
            out.extend(split_sentences(&clean_inline(para)));
        }
        para.clear();
    };
    for line in body.lines() {
        let t = line.trim();
        if let Some((ch, _)) = fence_marker(t) {
            match fence {
                None => {
                    flush(&mut para, &mut sentences);
                    fence = Some(ch);
                }
                Some(open) if open == ch => fence = None,
                Some(_) => {}
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        if t.is_empty() || is_heading_marker(t) || t.starts_with('|') || t.starts_with("---") {
            flush(&mut para, &mut sentences);
            continue;
        }
        // List items are their own sentences.
        let item = t
            .strip_prefix("- ")
            .or_else(|| t.strip_prefix("* "))
            .or_else(|| t.strip_prefix("+ "))
            .or_else(|| {
                let digits = t.chars().take_while(char::is_ascii_digit).count();
                (digits > 0)
                    .then(|| t[digits..].strip_prefix(". "))
                    .flatten()
            });
        if let Some(item) = item {
            flush(&mut para, &mut sentences);
            let item = item.trim_start_matches("[ ] ").trim_start_matches("[x] ");
            para.push_str(item);
            flush(&mut para, &mut sentences);
            continue;
        }
        let t = t.trim_start_matches('>').trim();
        if !para.is_empty() {
            para.push(' ');
        }
        para.push_str(t);
    }
    flush(&mut para, &mut sentences);
    sentences
}

/// Removes emphasis marks, link syntax and inline code ticks; collapses whitespace.
pub fn clean_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // [[target|alias]] → alias or target; [text](url) → text.
    while !rest.is_empty() {
        // A redaction marker (`[redacted:password]`, see cairn-policy) is kept whole,
        // whatever follows it: shaping never turns it into link text.
        if let Some(len) = marker_len(rest) {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if let Some((r, end)) = rest
            .strip_prefix("[[")
            .filter(|_| marker_len(&rest[1..]).is_none())
            .and_then(|r| Some((r, r.find("]]")?)))
        {
            let inner = &r[..end];
            let shown = inner.rsplit('|').next().unwrap_or(inner);
            out.push_str(shown.split('#').next().unwrap_or(shown));
            rest = &r[end + 2..];
            continue;
        }
        let link = rest.strip_prefix('[').and_then(|r| {
            let close = r.find("](")?;
            let url_end = r[close + 2..].find(')')?;
            let text = &r[..close];
            (!text.contains('[') || marker_len(text) == Some(close)).then_some((r, close, url_end))
        });
        if let Some((r, close, url_end)) = link {
            out.push_str(&r[..close]);
            rest = &r[close + 2 + url_end + 1..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '*' | '`' => {}
            '_' if out.ends_with(' ') || out.is_empty() => {}
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The length of the redaction marker `text` starts with (`[redacted:` + a
/// lowercase kebab-case kind + `]`), if it starts with one.
fn marker_len(text: &str) -> Option<usize> {
    const PREFIX: &str = "[redacted:";
    let kind = text.strip_prefix(PREFIX)?;
    let end = kind.find(']')?;
    (end > 0
        && kind[..end]
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))
    .then_some(PREFIX.len() + end + 1)
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
    fn headings_links_tags_skip_code() {
        let body = "# Title #rust\nSee [[Other Note|other]] and ![[img.png]] #todo.\n```\n# not heading [[nope]] #nope\n```\n## Sub ##\n`[[inline]]` #tag-two/x and issue #42 and a#b\n";
        let p = scan_body(body, 5);
        let hs: Vec<_> = p
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(hs, vec![(1, "Title #rust", 5), (2, "Sub", 10)]);
        assert_eq!(p.wikilinks, vec!["Other Note", "img.png"]);
        assert_eq!(p.tags, vec!["rust", "todo", "tag-two/x"]);
    }

    #[test]
    fn sentences_and_prose() {
        let body = "Intro line one\ncontinues here. Second sentence, e.g. this one! Third?\n\n- item **bold** [link](http://x)\n```\ncode. Not prose.\n```\n| a | b |\n";
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
        check(
            "**[redacted:api-key]** and _x_",
            "[redacted:api-key] and x_",
        );
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

    #[test]
    fn link_targets() {
        assert_eq!(link_target("[[ADR-3 Use Kafka|kafka]]"), "ADR-3 Use Kafka");
        assert_eq!(link_target("plain.md"), "plain.md");
    }
}
