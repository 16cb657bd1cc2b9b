//! The one front-matter splitter: where the block is, where the body starts, on
//! every shape a file's head can take.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_note::{FrontmatterKind, split_frontmatter};

/// What a split should find: the block's raw text and closer (`None` for no block;
/// `closer: None` for an unclosed one), the body and its first line.
struct Expect {
    raw: Option<&'static str>,
    closer: Option<&'static str>,
    body: &'static str,
    body_line: usize,
}

const fn block(raw: &'static str, closer: &'static str, body: &'static str, line: usize) -> Expect {
    Expect {
        raw: Some(raw),
        closer: Some(closer),
        body,
        body_line: line,
    }
}

const fn unclosed(raw: &'static str, body: &'static str) -> Expect {
    Expect {
        raw: Some(raw),
        closer: None,
        body,
        body_line: 1,
    }
}

const fn none(body: &'static str) -> Expect {
    Expect {
        raw: None,
        closer: None,
        body,
        body_line: 1,
    }
}

fn check(input: &str, e: Expect) {
    let s = split_frontmatter(input);
    assert_eq!(s.front.map(|b| b.raw), e.raw, "raw of {input:?}");
    assert_eq!(
        s.front.and_then(|b| b.closer),
        e.closer,
        "closer of {input:?}"
    );
    assert_eq!(s.body, e.body, "body of {input:?}");
    assert_eq!(s.body_line, e.body_line, "body line of {input:?}");
    // Offsets point at the same text.
    assert_eq!(&input[s.body_start..], s.body, "body offset of {input:?}");
    if let Some(b) = s.front {
        assert_eq!(&input[b.raw_start..b.raw_start + b.raw.len()], b.raw);
        assert_eq!(b.raw_line, 2);
        assert_eq!(b.opener.trim_end(), b.kind.delimiter(), "{input:?}");
    }
    assert_eq!(s.bom, input.starts_with('\u{feff}'));
}

#[test]
fn splits() {
    let cases = [
        (
            "---\ntitle: a\n---\nbody\n",
            block("title: a\n", "---", "body\n", 4),
        ),
        // `...` closes YAML too.
        (
            "---\ntitle: a\n...\nbody\n",
            block("title: a\n", "...", "body\n", 4),
        ),
        // Byte-order mark.
        (
            "\u{feff}---\ntitle: a\n---\nbody",
            block("title: a\n", "---", "body", 4),
        ),
        // CRLF: the raw text keeps its line ends, delimiters do not.
        (
            "---\r\ntitle: a\r\n---\r\nbody\r\n",
            block("title: a\r\n", "---", "body\r\n", 4),
        ),
        ("\u{feff}---\r\n---\r\nx", block("", "---", "x", 3)),
        // Empty block.
        ("---\n---\nbody", block("", "---", "body", 3)),
        // Trailing blanks on both delimiters.
        ("---  \na: 1\n--- \t\nb", block("a: 1\n", "--- \t", "b", 4)),
        // A `---` inside the body belongs to the body.
        (
            "---\na: 1\n---\ntext\n---\nmore\n",
            block("a: 1\n", "---", "text\n---\nmore\n", 4),
        ),
        // Closer at the end without a line break.
        ("---\na: 1\n---", block("a: 1\n", "---", "", 4)),
        // An indented `---` or a longer rule does not close.
        (
            "---\na: |\n  ---\n----\n---\nbody",
            block("a: |\n  ---\n----\n", "---", "body", 6),
        ),
        // Unclosed: all body.
        (
            "---\ntitle: a\nbody\n",
            unclosed("title: a\nbody\n", "---\ntitle: a\nbody\n"),
        ),
        ("---\n", unclosed("", "---\n")),
        // Not an opener.
        ("----\na: 1\n----\n", none("----\na: 1\n----\n")),
        ("---", none("---")),
        (" ---\na: 1\n---\n", none(" ---\na: 1\n---\n")),
        ("--- a\n---\n", none("--- a\n---\n")),
        (
            "# Title\n---\na: 1\n---\n",
            none("# Title\n---\na: 1\n---\n"),
        ),
        ("\u{feff}plain", none("plain")),
        ("", none("")),
        // TOML: `+++` opens and closes.
        ("+++\na = 1\n+++\nbody", block("a = 1\n", "+++", "body", 4)),
        (
            "+++ \r\na = 1\r\n+++\t\r\nbody",
            block("a = 1\r\n", "+++\t", "body", 4),
        ),
        (
            "+++\na = 1\n---\nbody\n",
            unclosed("a = 1\n---\nbody\n", "+++\na = 1\n---\nbody\n"),
        ),
        ("++++\na = 1\n++++\n", none("++++\na = 1\n++++\n")),
        // JSON: a lone `{` opens, a lone `}` closes; the braces are delimiters.
        ("{\n\"a\": 1\n}\nbody", block("\"a\": 1\n", "}", "body", 4)),
        (
            "{\n\"a\": {\"b\": 1\n  }\n}\nx",
            block("\"a\": {\"b\": 1\n  }\n", "}", "x", 5),
        ),
        (
            "{{< shortcode >}}\ntext\n",
            none("{{< shortcode >}}\ntext\n"),
        ),
        ("{\"a\": 1}\ntext\n", none("{\"a\": 1}\ntext\n")),
    ];
    for (input, expect) in cases {
        check(input, expect);
    }
}

#[test]
fn key_lines() {
    let s = split_frontmatter("\u{feff}---\ntitle: a\n'pinned': true\n---\n");
    let b = s.front.unwrap();
    assert_eq!(b.kind, FrontmatterKind::Yaml);
    assert_eq!(b.key_line("title"), Some(2));
    assert_eq!(b.key_line("pinned"), Some(3));
    assert_eq!(b.key_line("tags"), None);
    let t = split_frontmatter("+++\ntitle = 'a'\n\"date\" = 2024-01-01\n[extra]\ntags = []\n+++\n")
        .front
        .unwrap();
    assert_eq!(t.kind, FrontmatterKind::Toml);
    assert_eq!(t.key_line("title"), Some(2));
    assert_eq!(t.key_line("date"), Some(3));
    assert_eq!(t.key_line("extra"), Some(4));
    assert_eq!(t.key_line("tags"), Some(5));
    let j = split_frontmatter("{\n  \"title\": \"a\",\n  \"date\": 1\n}\n")
        .front
        .unwrap();
    assert_eq!(j.kind, FrontmatterKind::Json);
    assert_eq!(j.key_line("date"), Some(3));
    assert_eq!(j.key_line("dat"), None);
}

#[test]
fn a_yaml_marker_may_carry_a_comment() {
    let s = split_frontmatter("--- # front matter\ntitle: a\n--- # end\nbody\n");
    let b = s.front.expect("a block");
    assert_eq!(
        (b.kind, b.opener, b.raw, b.closer, s.body),
        (
            FrontmatterKind::Yaml,
            "--- # front matter",
            "title: a\n",
            Some("--- # end"),
            "body\n"
        )
    );
    // Not a comment: no blank before `#`; not YAML's marker: `----`.
    for text in ["---# x\ntitle: a\n---\n", "---- # x\ntitle: a\n---\n"] {
        assert!(split_frontmatter(text).front.is_none(), "{text:?}");
    }
    // A lone `\r` is not a line break to the splitter: the parser normalises first.
    assert!(split_frontmatter("---\rtitle: a\r---\r").front.is_none());
    let n = cairn_note::normalize_line_breaks("---\rtitle: a\r\n---\u{2028}body\u{85}");
    assert_eq!(n, "---\ntitle: a\n---\nbody\n");
}
