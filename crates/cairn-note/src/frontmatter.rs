//! Where a note's front matter is: the one splitter every part of cairn uses (the
//! reader, the write path, lint), so they cannot disagree about which lines of a
//! file are its metadata and where its body starts.
//!
//! The rules:
//!
//! - A UTF-8 byte-order mark before the opener is skipped (and reported).
//! - The opener is the file's first line: `---`, trailing blanks allowed, ended by
//!   a line break (`\n` or `\r\n`). Anything else, even `----` or `---` with
//!   nothing after it, means the file has no front matter.
//! - The block ends at the first following line that is `---` or `...` (trailing
//!   blanks allowed, no indentation). A `---` further down belongs to the body.
//! - An opener never closed leaves a [`Block`] whose `closer` is `None`: its `raw`
//!   runs to the end of the file and the body is the whole file.
//!
//! Only YAML exists today; [`FrontmatterKind`] is where TOML (`+++` … `+++`) and
//! JSON (`{` … `}`) blocks will be added, each with its own opener and closer.

/// The syntax a front-matter block is written in. More kinds (TOML, JSON) will be
/// added, so matches need a wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrontmatterKind {
    /// `---` … `---` (or `...`).
    Yaml,
}

impl FrontmatterKind {
    /// The kind a first line opens, if any (`line` without its line break).
    fn opened_by(line: &str) -> Option<FrontmatterKind> {
        (line.trim_end() == "---").then_some(FrontmatterKind::Yaml)
    }

    /// Whether `line` (without its line break) closes a block of this kind.
    fn is_closer(self, line: &str) -> bool {
        match self {
            FrontmatterKind::Yaml => matches!(line.trim_end(), "---" | "..."),
        }
    }

    /// The delimiter written when cairn creates a block of this kind.
    pub fn delimiter(self) -> &'static str {
        match self {
            FrontmatterKind::Yaml => "---",
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

    /// The 1-based file line of top-level key `key` (written bare or quoted).
    pub fn key_line(&self, key: &str) -> Option<usize> {
        key_line_in(self.raw, key).map(|i| i + self.raw_line)
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

/// The 1-based file line of top-level key `key` in front-matter text `yaml` that
/// starts on line 2 of its file (right after the opener).
pub fn frontmatter_key_line(yaml: &str, key: &str) -> Option<usize> {
    key_line_in(yaml, key).map(|i| i + 2)
}
