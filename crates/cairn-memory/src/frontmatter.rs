//! Frontmatter on the write path: new notes get YAML written by `serde_yaml_ng`
//! (so every value is escaped properly), and changes to an existing note touch
//! only the keys they are about. A key is replaced in place, line for line, so
//! comments, key order, quoting and unknown keys all survive and the diff stays
//! small; the result is re-parsed and compared with the intended mapping, and
//! only if that check fails is the whole block re-serialised (still losing no key).

use serde_yaml_ng::{Mapping, Value};

/// A note's text split at its frontmatter. Line endings are normalised to `\n`
/// (and restored by [`NoteText::render`]); a byte-order mark is kept aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NoteText {
    /// The YAML between the `---` lines (with its final newline), if any.
    pub yaml: Option<String>,
    /// Everything after the closing `---` line (or the whole text).
    pub body: String,
    /// The opening and closing delimiter lines as written (`---`, `...`).
    delimiters: (String, String),
    crlf: bool,
    bom: bool,
}

fn standard() -> (String, String) {
    let d = cairn_note::FrontmatterKind::Yaml.delimiter();
    (d.to_owned(), d.to_owned())
}

impl NoteText {
    /// Splits `text`. An opening `---` that is never closed is an error (writing a
    /// second frontmatter block above it would be worse), and so is TOML or JSON
    /// front matter (cairn writes YAML; it never prepends a second block).
    pub(crate) fn split(text: &str) -> Result<NoteText, String> {
        let bom = text.starts_with('\u{feff}');
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let crlf = text.contains("\r\n");
        let text = if crlf {
            text.replace("\r\n", "\n")
        } else {
            text.to_owned()
        };
        // The reader takes a lone `\r` (old Mac files), U+2028, U+2029 and U+0085 for
        // line breaks too; written back as they are, they would not be the lines the
        // reader sees, and rewritten as `\n` every line would change.
        if text.contains(['\r', '\u{2028}', '\u{2029}', '\u{85}']) {
            return Err("its line breaks are not all `\\n` or `\\r\\n` (a lone `\\r`, or a Unicode line separator); `cairn memory` writes only those, so convert its line ends first".into());
        }
        // The one splitter the reader and lint use, so all three agree on the block.
        let split = cairn_note::split_frontmatter(&text);
        match split.front {
            None => Ok(NoteText {
                yaml: None,
                body: text,
                delimiters: standard(),
                crlf,
                bom,
            }),
            Some(block) if block.kind != cairn_note::FrontmatterKind::Yaml => Err(format!(
                "its front matter is {} (`{}` … ); `cairn memory` edits YAML front matter only, so edit this note in your editor",
                block.kind.name(),
                block.opener.trim_end()
            )),
            Some(block) => match block.closer {
                Some(closer) => Ok(NoteText {
                    yaml: Some(block.raw.to_owned()),
                    body: split.body.to_owned(),
                    delimiters: (block.opener.to_owned(), closer.to_owned()),
                    crlf,
                    bom,
                }),
                None => Err("the frontmatter starts with `---` but never ends; fix it first (`cairn lint` shows where)".into()),
            },
        }
    }

    /// A new note: frontmatter from `mapping`, then `body`.
    pub(crate) fn new(mapping: &Mapping, body: &str) -> Result<NoteText, String> {
        Ok(NoteText {
            yaml: Some(to_yaml(mapping)?),
            body: body.to_owned(),
            delimiters: standard(),
            crlf: false,
            bom: false,
        })
    }

    /// The frontmatter as a mapping (empty when there is none).
    pub(crate) fn mapping(&self) -> Result<Mapping, String> {
        match &self.yaml {
            None => Ok(Mapping::new()),
            Some(y) => parse_mapping(y),
        }
    }

    /// Sets (`Some`) or removes (`None`) top-level `key`, editing only its lines.
    /// A note without frontmatter gets one.
    pub(crate) fn set(&mut self, key: &str, value: Option<Value>) -> Result<(), String> {
        let yaml = self.yaml.clone().unwrap_or_default();
        if self.yaml.is_none() && value.is_none() {
            return Ok(());
        }
        self.yaml = Some(set_key(&yaml, key, value.as_ref())?);
        Ok(())
    }

    /// The full text, with the original line endings and byte-order mark.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        if let Some(y) = &self.yaml {
            out.push_str(&self.delimiters.0);
            out.push('\n');
            out.push_str(y);
            if !y.is_empty() && !y.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&self.delimiters.1);
            out.push('\n');
        }
        out.push_str(&self.body);
        let out = if self.crlf {
            out.replace('\n', "\r\n")
        } else {
            out
        };
        if self.bom {
            format!("\u{feff}{out}")
        } else {
            out
        }
    }
}

/// Parses frontmatter text into a mapping; anything else is an error.
pub(crate) fn parse_mapping(yaml: &str) -> Result<Mapping, String> {
    match serde_yaml_ng::from_str::<Value>(yaml) {
        Ok(Value::Mapping(m)) => Ok(m),
        Ok(Value::Null) => Ok(Mapping::new()),
        Ok(_) => Err("the frontmatter is not a `key: value` mapping".into()),
        Err(e) => {
            let msg = e.to_string();
            Err(format!(
                "the frontmatter is not valid YAML ({}); fix it first (`cairn lint` shows where)",
                msg.split(" at line").next().unwrap_or(&msg)
            ))
        }
    }
}

fn to_yaml(m: &Mapping) -> Result<String, String> {
    if m.is_empty() {
        return Ok(String::new());
    }
    serde_yaml_ng::to_string(m).map_err(|e| format!("cannot write frontmatter: {e}"))
}

/// `key: value` as YAML lines (nothing for `None`).
fn render_key(key: &str, value: Option<&Value>) -> Result<String, String> {
    let Some(v) = value else {
        return Ok(String::new());
    };
    let mut m = Mapping::new();
    m.insert(Value::String(key.to_owned()), v.clone());
    to_yaml(&m)
}

/// Whether `line` starts top-level key `key`.
fn is_key_line(line: &str, key: &str) -> bool {
    let unquoted = line
        .strip_prefix('"')
        .and_then(|l| l.strip_prefix(key)?.strip_prefix('"'))
        .or_else(|| {
            line.strip_prefix('\'')
                .and_then(|l| l.strip_prefix(key)?.strip_prefix('\''))
        })
        .or_else(|| line.strip_prefix(key));
    unquoted.is_some_and(|rest| rest.trim_start_matches([' ', '\t']).starts_with(':'))
}

fn set_key(yaml: &str, key: &str, value: Option<&Value>) -> Result<String, String> {
    let mut expected = parse_mapping(yaml)?;
    let k = Value::String(key.to_owned());
    match value {
        Some(v) => {
            if expected.get(&k) == Some(v) {
                return Ok(yaml.to_owned());
            }
            expected.insert(k.clone(), v.clone());
        }
        None => {
            if expected.shift_remove(&k).is_none() {
                return Ok(yaml.to_owned());
            }
        }
    }
    let rendered = render_key(key, value)?;
    let lines: Vec<&str> = yaml.split_inclusive('\n').collect();
    let surgical = if let Some(start) = lines.iter().position(|l| is_key_line(l, key)) {
        let value_inline = lines[start]
            .split_once(':')
            .is_some_and(|(_, v)| !v.trim().is_empty() && !v.trim().starts_with('#'));
        let mut end = start + 1;
        let mut last = start + 1;
        while end < lines.len() {
            let l = lines[end];
            let continues = l.starts_with([' ', '\t'])
                || (!value_inline && l.starts_with('-') && !l.starts_with("---"));
            if continues {
                end += 1;
                last = end;
            } else if l.trim().is_empty() {
                end += 1;
            } else {
                break;
            }
        }
        let mut out: String = lines[..start].concat();
        out.push_str(&rendered);
        out.push_str(&lines[last..].concat());
        out
    } else {
        let mut out = yaml.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&rendered);
        out
    };
    if parse_mapping(&surgical).is_ok_and(|m| m == expected) {
        Ok(surgical)
    } else {
        to_yaml(&expected)
    }
}

/// A YAML string value.
pub(crate) fn string(s: &str) -> Value {
    Value::String(s.to_owned())
}

/// A YAML list of strings.
pub(crate) fn strings<I: IntoIterator<Item = S>, S: AsRef<str>>(items: I) -> Value {
    Value::Sequence(items.into_iter().map(|s| string(s.as_ref())).collect())
}

/// The string items of a frontmatter value (one string, or a list of strings;
/// `[[link]]` written bare, which YAML reads as nested lists, is flattened back).
pub(crate) fn string_items(v: Option<&Value>) -> Vec<String> {
    fn flat(v: &Value, out: &mut Vec<String>, depth: usize) {
        match v {
            Value::String(s) => out.push(if depth >= 2 {
                format!("[[{s}]]")
            } else {
                s.clone()
            }),
            Value::Sequence(seq) => seq.iter().for_each(|x| flat(x, out, depth + 1)),
            Value::Number(n) => out.push(n.to_string()),
            Value::Bool(b) => out.push(b.to_string()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(v) = v {
        match v {
            Value::Sequence(seq) => seq.iter().for_each(|x| flat(x, &mut out, 1)),
            other => flat(other, &mut out, 0),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str, key: &str, value: Option<Value>) -> String {
        let mut n = NoteText::split(text).unwrap();
        n.set(key, value).unwrap();
        n.render()
    }

    #[test]
    fn replaces_in_place_keeping_comments_order_and_unknown_keys() {
        let text = "---\n# who owns this\ntitle: \"Keep: me\"\npinned: false # toggled by cairn\nowner: {team: core}\ntags:\n- a\n- b\nzeta: 1\n---\nbody\n";
        let out = set(text, "pinned", Some(Value::Bool(true)));
        assert_eq!(
            out,
            "---\n# who owns this\ntitle: \"Keep: me\"\npinned: true\nowner: {team: core}\ntags:\n- a\n- b\nzeta: 1\n---\nbody\n"
        );
        let out = set(text, "tags", Some(strings(["x"])));
        assert!(
            out.contains("owner: {team: core}\ntags:\n- x\nzeta: 1\n"),
            "{out}"
        );
        let out = set(text, "tags", None);
        assert!(out.contains("owner: {team: core}\nzeta: 1\n"), "{out}");
        let out = set(text, "status", Some(string("superseded")));
        assert!(
            out.ends_with("zeta: 1\nstatus: superseded\n---\nbody\n"),
            "{out}"
        );
        // Nothing to change: byte-identical.
        assert_eq!(set(text, "zeta", Some(Value::Number(1.into()))), text);
        assert_eq!(set(text, "absent", None), text);
    }

    #[test]
    fn values_are_escaped() {
        for s in [
            "yes",
            "no",
            "null",
            "- dash",
            "a: b",
            "#hash",
            "[[ADR-3]]",
            "line\nbreak",
            "'q'",
            "\"dq\"",
            "12",
            "~",
        ] {
            let out = set("---\ntitle: x\n---\n", "title", Some(string(s)));
            let m = NoteText::split(&out).unwrap().mapping().unwrap();
            assert_eq!(m.get("title"), Some(&string(s)), "{s:?} → {out}");
        }
    }

    #[test]
    fn notes_without_frontmatter_get_one_and_crlf_survives() {
        assert_eq!(
            set("# T\nbody\n", "pinned", Some(Value::Bool(true))),
            "---\npinned: true\n---\n# T\nbody\n"
        );
        assert_eq!(set("# T\n", "pinned", None), "# T\n");
        let out = set(
            "\u{feff}---\r\ntitle: a\r\n---\r\nbody\r\n",
            "pinned",
            Some(Value::Bool(true)),
        );
        assert_eq!(
            out,
            "\u{feff}---\r\ntitle: a\r\npinned: true\r\n---\r\nbody\r\n"
        );
    }

    #[test]
    fn delimiters_are_kept_as_written() {
        let out = set(
            "---  \ntitle: a\n...\nbody\n",
            "pinned",
            Some(Value::Bool(true)),
        );
        assert_eq!(out, "---  \ntitle: a\npinned: true\n...\nbody\n");
    }

    #[test]
    fn broken_frontmatter_is_refused() {
        assert!(NoteText::split("---\ntitle: x\nbody\n").is_err());
        // TOML and JSON front matter are refused, never doubled by a YAML block.
        let toml = NoteText::split("+++\ntitle = \"x\"\n+++\nbody\n").unwrap_err();
        assert!(toml.contains("TOML"), "{toml}");
        assert!(NoteText::split("{\n\"title\": \"x\"\n}\nbody\n").is_err());
        // Line breaks the reader sees but the writer would not keep.
        for text in [
            "---\rsensitivity: secret\r---\rbody\r",
            "a\u{2028}b\n",
            "a\r\nb\rc\n",
        ] {
            assert!(NoteText::split(text).is_err(), "{text:?}");
        }
        assert!(NoteText::split("---\r\ntitle: x\r\n---\r\nbody\r\n").is_ok());
        let mut n = NoteText::split("---\ntitle: [x\n---\nbody\n").unwrap();
        assert!(n.set("pinned", Some(Value::Bool(true))).is_err());
    }

    #[test]
    fn block_scalars_are_replaced_whole() {
        let text = "---\ndescription: |\n  line one\n\n  line two\nafter: 1\n---\n";
        let out = set(text, "description", Some(string("short")));
        assert_eq!(out, "---\ndescription: short\nafter: 1\n---\n");
    }

    #[test]
    fn string_items_flatten_links() {
        let m = NoteText::split("---\na: [[X]]\nb:\n  - \"[[Y]]\"\n  - [[Z]]\nc: one\n---\n")
            .unwrap()
            .mapping()
            .unwrap();
        assert_eq!(string_items(m.get("a")), vec!["[[X]]"]);
        assert_eq!(string_items(m.get("b")), vec!["[[Y]]", "[[Z]]"]);
        assert_eq!(string_items(m.get("c")), vec!["one"]);
    }
}
