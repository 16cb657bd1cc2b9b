//! Where a note's front matter is: the one splitter every part of cairn uses (the
//! reader, the write path, lint), so they cannot disagree about which lines of a
//! file are its metadata and where its body starts.
//!
//! The rules:
//!
//! - A UTF-8 byte-order mark before the opener is skipped (and reported).
//! - The opener is the file's first line, trailing blanks allowed, ended by a line
//!   break (`\n` or `\r\n`; the parser first makes every line break `\n`, see
//!   [`normalize_line_breaks`]): `---` opens YAML (also `--- # a comment`), `+++`
//!   TOML (Hugo, Zola), a lone `{` JSON (Hugo). Anything else, even `----`, ` ---`,
//!   a blank first line or `---` with nothing after it, means the file has no front
//!   matter (the sensitivity rule still reads such a file's head: see `marks`).
//! - The block ends at the first following line that closes its kind (trailing
//!   blanks allowed, no indentation): `---` or `...` for YAML (a comment after
//!   them allowed), `+++` for TOML, `}` for JSON. A `---` further down belongs to
//!   the body.
//! - An opener never closed leaves a [`Block`] whose `closer` is `None`: its `raw`
//!   runs to the end of the file and the body is the whole file.
//!
//! A block's `raw` is the text between its delimiter lines, for every kind (a JSON
//! block's braces are its delimiters: its parser puts them back).

/// The syntax a front-matter block is written in. More kinds may be added, so
/// matches need a wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrontmatterKind {
    /// `---` … `---` (or `...`).
    Yaml,
    /// `+++` … `+++` (Hugo, Zola).
    Toml,
    /// `{` … `}`, each alone on its line (Hugo).
    Json,
}

impl FrontmatterKind {
    /// The kind a first line opens, if any (`line` without its line break).
    fn opened_by(line: &str) -> Option<FrontmatterKind> {
        if is_yaml_marker(line, "---") {
            return Some(FrontmatterKind::Yaml);
        }
        match line.trim_end() {
            "+++" => Some(FrontmatterKind::Toml),
            "{" => Some(FrontmatterKind::Json),
            _ => None,
        }
    }

    /// Whether `line` (without its line break) closes a block of this kind.
    fn is_closer(self, line: &str) -> bool {
        match self {
            FrontmatterKind::Yaml => is_yaml_marker(line, "---") || is_yaml_marker(line, "..."),
            FrontmatterKind::Toml => line.trim_end() == "+++",
            FrontmatterKind::Json => line.trim_end() == "}",
        }
    }

    /// The opening delimiter, as cairn writes it when it creates a block of this kind.
    pub fn delimiter(self) -> &'static str {
        match self {
            FrontmatterKind::Yaml => "---",
            FrontmatterKind::Toml => "+++",
            FrontmatterKind::Json => "{",
        }
    }

    /// The syntax's name, for messages: `YAML`, `TOML`, `JSON`.
    pub fn name(self) -> &'static str {
        match self {
            FrontmatterKind::Yaml => "YAML",
            FrontmatterKind::Toml => "TOML",
            FrontmatterKind::Json => "JSON",
        }
    }

    /// The diagnostic code of a block of this kind that does not parse.
    pub fn error_code(self) -> &'static str {
        match self {
            FrontmatterKind::Yaml => "frontmatter-yaml",
            FrontmatterKind::Toml => "frontmatter-toml",
            FrontmatterKind::Json => "frontmatter-json",
        }
    }
}

/// A front-matter block found by [`split_frontmatter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block<'a> {
    /// Its syntax.
    pub kind: FrontmatterKind,
    /// The opening line as written, without its line break (`---`, `---  `).
    pub opener: &'a str,
    /// The text between the delimiter lines, line breaks as written (the last line
    /// keeps its break). For an unclosed block: everything after the opener.
    pub raw: &'a str,
    /// Byte offset of `raw` in the text given to [`split_frontmatter`].
    pub raw_start: usize,
    /// 1-based line of the file on which `raw` starts.
    pub raw_line: usize,
    /// The closing line as written, without its line break; `None` when the block
    /// is never closed.
    pub closer: Option<&'a str>,
}

impl Block<'_> {
    /// Whether a closing line was found.
    pub fn is_closed(&self) -> bool {
        self.closer.is_some()
    }

    /// The 1-based file line of top-level key `key` (written bare or quoted; for
    /// TOML also a `[key]` table header).
    pub fn key_line(&self, key: &str) -> Option<usize> {
        let found = match self.kind {
            FrontmatterKind::Toml => toml_key_line_in(self.raw, key),
            FrontmatterKind::Json => json_key_line_in(self.raw, key),
            FrontmatterKind::Yaml => key_line_in(self.raw, key),
        };
        found.map(|i| i + self.raw_line)
    }
}

/// A text split at its front matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// Whether the text started with a UTF-8 byte-order mark (skipped).
    pub bom: bool,
    /// The front-matter block, closed or not; `None` when the file has none.
    pub front: Option<Block<'a>>,
    /// The body: everything after the closing line (for no block or an unclosed
    /// one, the whole text after the byte-order mark).
    pub body: &'a str,
    /// Byte offset of `body` in the text given to [`split_frontmatter`].
    pub body_start: usize,
    /// 1-based line of the file on which `body` starts.
    pub body_line: usize,
}

/// Splits `text` into its front matter and body. Never fails: a text without a
/// block is all body.
pub fn split_frontmatter(text: &str) -> Split<'_> {
    let bom = text.starts_with('\u{feff}');
    let start = if bom { '\u{feff}'.len_utf8() } else { 0 };
    let after_bom = &text[start..];
    let no_block = Split {
        bom,
        front: None,
        body: after_bom,
        body_start: start,
        body_line: 1,
    };
    let Some(nl) = after_bom.find('\n') else {
        return no_block;
    };
    let opener = strip_cr(&after_bom[..nl]);
    let Some(kind) = FrontmatterKind::opened_by(opener) else {
        return no_block;
    };
    let raw_start = start + nl + 1;
    let rest = &text[raw_start..];
    let mut offset = 0;
    for (i, line) in rest.split_inclusive('\n').enumerate() {
        let bare = strip_cr(line.strip_suffix('\n').unwrap_or(line));
        if kind.is_closer(bare) {
            let body_start = raw_start + offset + line.len();
            return Split {
                bom,
                front: Some(Block {
                    kind,
                    opener,
                    raw: &rest[..offset],
                    raw_start,
                    raw_line: 2,
                    closer: Some(bare),
                }),
                body: &text[body_start..],
                body_start,
                body_line: i + 3,
            };
        }
        offset += line.len();
    }
    Split {
        front: Some(Block {
            kind,
            opener,
            raw: rest,
            raw_start,
            raw_line: 2,
            closer: None,
        }),
        ..no_block
    }
}

/// Whether `line` is the YAML marker `marker`, alone or followed by blanks and a
/// comment (`--- # front matter`).
fn is_yaml_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker).is_some_and(|rest| {
        let t = rest.trim_start();
        t.is_empty() || (t.len() < rest.len() && t.starts_with('#'))
    })
}

/// `text` with every line break a `\n`: `\r\n`, a lone `\r` (old Mac files), U+2028,
/// U+2029 and U+0085 (NEL). Borrowed when there is none of them.
pub fn normalize_line_breaks(text: &str) -> std::borrow::Cow<'_, str> {
    // One single-character search each (`memchr` on a byte): a set of
    // characters is searched a character at a time, and every note a wake-up
    // shows comes through here.
    if !['\r', '\u{2028}', '\u{2029}', '\u{85}']
        .iter()
        .any(|&c| text.contains(c))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\u{2028}' | '\u{2029}' | '\u{85}' => out.push('\n'),
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// The 0-based line index in `raw` of top-level key `key`.
fn key_line_in(raw: &str, key: &str) -> Option<usize> {
    raw.lines().position(|l| {
        let l = l
            .strip_prefix('"')
            .or_else(|| l.strip_prefix('\''))
            .unwrap_or(l);
        l.strip_prefix(key).is_some_and(|rest| {
            let rest = rest.trim_start_matches(['"', '\'']);
            rest.trim_start().starts_with(':')
        })
    })
}

/// The 0-based line index in TOML `raw` of key `key` (`key = …`, `"key" = …`,
/// `key.sub = …`) or of its table header (`[key]`, `[key.sub]`).
fn toml_key_line_in(raw: &str, key: &str) -> Option<usize> {
    raw.lines().position(|l| {
        let l = l.trim();
        let name = match l.strip_prefix('[') {
            Some(header) => header.trim_start_matches('['),
            None => l,
        };
        let first = name
            .split(['=', '.', ']'])
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches(['"', '\'']);
        first == key && (l.starts_with('[') || l.contains('='))
    })
}

/// The 0-based line index in JSON `raw` of key `"key":` (at any indentation).
fn json_key_line_in(raw: &str, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    raw.lines().position(|l| {
        l.trim_start()
            .strip_prefix(&quoted)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    })
}

/// The 1-based file line of top-level key `key` in front-matter text `yaml` that
/// starts on line 2 of its file (right after the opener).
pub fn frontmatter_key_line(yaml: &str, key: &str) -> Option<usize> {
    key_line_in(yaml, key).map(|i| i + 2)
}
