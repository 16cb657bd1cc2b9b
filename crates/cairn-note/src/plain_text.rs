//! The text a sensitivity mark is read from, as a reader sees it rendered:
//! invisible characters and combining marks out, look-alike and full-width
//! letters as Latin ones, character references and backslash escapes decoded,
//! HTML tags and a leading inline comment dropped, and code spans that show a
//! field's syntax blanked. The mark reader (`marks`) reads what this gives.

use std::borrow::Cow;

use crate::marks::{is_combining, is_invisible, latin, read_mark};

/// `text` without invisible characters and combining marks, its look-alike and
/// full-width letters as their Latin letter (`sеcret` with a Cyrillic е).
pub(crate) fn latin_text(text: &str) -> Cow<'_, str> {
    let text = if text.contains('&') {
        Cow::Owned(numeric_references(text))
    } else {
        Cow::Borrowed(text)
    };
    // A backslash escape shows the character it escapes (`Sensitivity\: secret`).
    let text = if text.contains('\\') {
        Cow::Owned(
            text.replace("\\:", ":")
                .replace("\\*", "*")
                .replace("\\_", "_"),
        )
    } else {
        text
    };
    if text.is_ascii() {
        return text;
    }
    Cow::Owned(
        text.chars()
            .filter(|&c| !is_invisible(c) && !is_combining(c))
            .map(latin)
            .collect(),
    )
}

/// `text` with its numeric character references (`&#101;`, `&#x65;`) and a few
/// named ones (`&colon;`, `&shy;`, `&nbsp;`…) as the characters they stand for,
/// as a renderer shows them.
fn numeric_references(text: &str) -> String {
    let mut named = text.to_owned();
    for (entity, c) in [
        ("&colon;", ":"),
        ("&shy;", ""),
        ("&nbsp;", " "),
        ("&ZeroWidthSpace;", ""),
        ("&lowbar;", "_"),
        ("&ast;", "*"),
        ("&vert;", "|"),
        ("&equals;", "="),
    ] {
        if named.contains(entity) {
            named = named.replace(entity, c);
        }
    }
    let text = named.as_str();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("&#") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let decoded = after.split_once(';').and_then(|(num, tail)| {
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => num.parse().ok(),
            }?;
            (num.len() <= 8).then_some((char::from_u32(code)?, tail))
        });
        if let Some((c, tail)) = decoded {
            out.push(c);
            rest = tail;
        } else {
            out.push_str("&#");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// `line` with its HTML tags (`<b>`, `</td>`, `<span class="x">`) made blanks,
/// a table cell's end a `|`; a comment closed on the line and followed by text
/// (`<!-- a --> sensitivity: secret`) is dropped, any other stays (`<!--
/// sensitivity: secret -->` is a mark).
pub(crate) fn without_html_tags(line: Cow<'_, str>) -> Cow<'_, str> {
    if !line.contains('<') {
        return line;
    }
    if let Some(open) = line.find("<!--")
        && let Some(close) = line[open..].find("-->")
        && !line[open + close + 3..].trim().is_empty()
    {
        let rest = format!("{} {}", &line[..open], &line[open + close + 3..]);
        return without_html_tags(Cow::Owned(rest));
    }
    let mut out = String::with_capacity(line.len());
    let mut rest: &str = &line;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let is_tag = after
            .trim_start_matches('/')
            .starts_with(|c: char| c.is_ascii_alphabetic());
        if let Some(close) = after.find('>').filter(|_| is_tag) {
            out.push_str(&rest[..open]);
            let tag = after[..close].to_ascii_lowercase();
            out.push_str(if tag.starts_with("/td") || tag.starts_with("/th") {
                " | "
            } else {
                " "
            });
            rest = &after[close + 1..];
        } else {
            out.push_str(&rest[..=open]);
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `line` with each code span that reads as a mark on its own (`` `sensitivity::
/// secret` ``: the syntax shown) made one blank, and the others' backticks
/// dropped (`` `secret` `` is the value `secret`).
pub(crate) fn code_spans_for_marks(line: &str) -> Cow<'_, str> {
    if !line.contains('`') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        let run = rest[open..].len() - rest[open..].trim_start_matches('`').len();
        let fence = &rest[open..open + run];
        let after = &rest[open + run..];
        let close = after.match_indices(fence).find(|&(i, _)| {
            !after[i + run..].starts_with('`') && (i == 0 || !after[..i].ends_with('`'))
        });
        out.push_str(&rest[..open]);
        if let Some((i, _)) = close {
            let inner = &after[..i];
            if read_mark(inner).is_some() {
                out.push(' ');
            } else {
                out.push_str(inner);
            }
            rest = &after[i + run..];
        } else {
            out.push_str(fence);
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}
