//! Front-matter text → one value tree, whatever its syntax: YAML (`serde_yaml_ng`),
//! TOML (`toml`) and JSON (`serde_json`) blocks all become a `serde_yaml_ng::Value`,
//! so the note's fields, the sensitivity rule and the extra keys are read by one
//! code path. TOML dates become their text (`2024-01-02`), JSON numbers and YAML
//! numbers alike become numbers.

use serde_yaml_ng::{Mapping, Number, Value as Yaml};

use crate::frontmatter::{Block, FrontmatterKind};

/// Why a closed block does not parse: the file line where known, and the parser's
/// message (which may quote the note's text: callers decide whether to show it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BlockError {
    /// 1-based file line.
    pub line: Option<usize>,
    /// The parser's message, without position or source excerpt.
    pub message: String,
}

/// The block's value tree when it is closed (`None` for an unclosed block), or why
/// it does not parse.
pub(crate) fn parse_block(block: &Block<'_>) -> Option<Result<Yaml, BlockError>> {
    if !block.is_closed() {
        return None;
    }
    Some(match block.kind {
        FrontmatterKind::Toml => parse_toml(block.raw, block.raw_line),
        FrontmatterKind::Json => parse_json(block.raw, block.raw_line),
        FrontmatterKind::Yaml => serde_yaml_ng::from_str::<Yaml>(block.raw).map_err(|e| {
            let msg = e.to_string();
            BlockError {
                line: e.location().map(|l| l.line() + block.raw_line - 1),
                message: msg.split(" at line").next().unwrap_or(&msg).to_owned(),
            }
        }),
    })
}

/// A YAML block that does not parse because some of its top-level values are
/// plain text YAML cannot read unquoted (`title: Incident: cookie path`, `author:
/// @alice`), read again with those values quoted: the mapping and the 1-based
/// file lines of the values quoted (with their keys), or `None` when no line is
/// of that shape or the block still does not parse. Only the block's own
/// top-level `key: value` lines are touched, each kept on its line, so file
/// lines stay right; nothing is guessed beyond quoting what was written.
///
/// This serves a note's fields only: the sensitivity rule reads the block as
/// written (a block that does not parse is doubt when it names a sensitivity).
pub(crate) fn parse_yaml_quoting_values(
    block: &Block<'_>,
) -> Option<(Mapping, Vec<(usize, String)>)> {
    if block.kind != FrontmatterKind::Yaml || !block.is_closed() {
        return None;
    }
    let mut quoted = Vec::new();
    let mut text = String::with_capacity(block.raw.len() + 16);
    for (i, line) in block.raw.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        match unquotable_value(body) {
            Some((key, value)) => {
                text.push_str(key);
                text.push_str(": '");
                text.push_str(&value.replace('\'', "''"));
                text.push('\'');
                text.push_str(&line[body.len()..]);
                quoted.push((block.raw_line + i, key.to_owned()));
            }
            None => text.push_str(line),
        }
    }
    if quoted.is_empty() {
        return None;
    }
    match serde_yaml_ng::from_str::<Yaml>(&text) {
        Ok(Yaml::Mapping(map)) => Some((map, quoted)),
        _ => None,
    }
}

/// A top-level `key: value` line (the key a name, of several words perhaps)
/// whose value YAML cannot read as plain text:
/// it holds `: ` or ends with `:` (a second mapping), or starts with a
/// character YAML reserves (`@`, `` ` ``, `%`). The key is a plain name; a
/// value that opens a quote, a flow collection, a block scalar, an anchor, an
/// alias, a tag or a comment is left to YAML.
fn unquotable_value(line: &str) -> Option<(&str, &str)> {
    let (key, rest) = line.split_once(": ")?;
    // A name, perhaps of several words (Obsidian's `Due date`), not ending in a
    // blank.
    let plain_key = key
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && !key.ends_with(' ')
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ' '));
    let value = rest.trim();
    if !plain_key || value.is_empty() {
        return None;
    }
    if value.starts_with(['"', '\'', '[', '{', '|', '>', '&', '*', '!', '#']) {
        return None;
    }
    let reserved_start = value.starts_with(['@', '`', '%']);
    let second_mapping = value.contains(": ") || value.ends_with(':');
    (reserved_start || second_mapping).then_some((key, value))
}

fn parse_toml(raw: &str, first_line: usize) -> Result<Yaml, BlockError> {
    match toml::from_str::<toml::Table>(raw) {
        Ok(table) => Ok(Yaml::Mapping(
            table
                .into_iter()
                .map(|(k, v)| (Yaml::String(k), from_toml(v)))
                .collect(),
        )),
        Err(e) => Err(BlockError {
            line: e
                .span()
                .map(|s| first_line + raw.get(..s.start).map_or(0, |t| t.matches('\n').count())),
            message: e.message().trim().to_owned(),
        }),
    }
}

fn from_toml(v: toml::Value) -> Yaml {
    match v {
        toml::Value::String(s) => Yaml::String(s),
        toml::Value::Integer(i) => Yaml::Number(Number::from(i)),
        toml::Value::Float(f) => Yaml::Number(Number::from(f)),
        toml::Value::Boolean(b) => Yaml::Bool(b),
        toml::Value::Datetime(d) => Yaml::String(d.to_string()),
        toml::Value::Array(a) => Yaml::Sequence(a.into_iter().map(from_toml).collect()),
        toml::Value::Table(t) => Yaml::Mapping(
            t.into_iter()
                .map(|(k, v)| (Yaml::String(k), from_toml(v)))
                .collect::<Mapping>(),
        ),
    }
}

/// A JSON block's raw text is what lies between its `{` and `}` lines: parsed with
/// its braces put back, so error lines are file lines.
fn parse_json(raw: &str, first_line: usize) -> Result<Yaml, BlockError> {
    let text = format!("{{\n{raw}}}");
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) => Ok(from_json(v)),
        Err(e) => {
            let msg = e.to_string();
            Err(BlockError {
                // Line 1 of `text` is the opener, the file line before `raw`.
                line: (e.line() > 0).then(|| e.line() + first_line - 2),
                message: msg.split(" at line").next().unwrap_or(&msg).to_owned(),
            })
        }
    }
}

fn from_json(v: serde_json::Value) -> Yaml {
    use serde_json::Value as J;
    match v {
        J::Null => Yaml::Null,
        J::Bool(b) => Yaml::Bool(b),
        J::Number(n) => {
            if let Some(i) = n.as_i64() {
                Yaml::Number(Number::from(i))
            } else if let Some(u) = n.as_u64() {
                Yaml::Number(Number::from(u))
            } else {
                Yaml::Number(Number::from(n.as_f64().unwrap_or(0.0)))
            }
        }
        J::String(s) => Yaml::String(s),
        J::Array(a) => Yaml::Sequence(a.into_iter().map(from_json).collect()),
        J::Object(o) => Yaml::Mapping(
            o.into_iter()
                .map(|(k, v)| (Yaml::String(k), from_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_frontmatter;

    fn parse(text: &str) -> Result<Yaml, BlockError> {
        let split = split_frontmatter(text);
        let block = split.front.expect("a block");
        parse_block(&block).expect("closed")
    }

    #[test]
    fn toml_and_json_become_one_tree() {
        let t =
            parse("+++\ntitle = \"A\"\ndate = 2024-01-02\n[taxonomies]\ntags = [\"x\"]\n+++\nbody");
        let t = t.expect("parses");
        assert_eq!(t["title"], Yaml::String("A".into()));
        assert_eq!(t["date"], Yaml::String("2024-01-02".into()));
        assert_eq!(t["taxonomies"]["tags"][0], Yaml::String("x".into()));
        let j = parse("{\n  \"title\": \"B\",\n  \"n\": 2\n}\nbody").expect("parses");
        assert_eq!(j["title"], Yaml::String("B".into()));
        assert_eq!(j["n"], Yaml::Number(Number::from(2)));
    }

    #[test]
    fn values_yaml_cannot_read_unquoted_are_quoted_for_the_fields() {
        let quoted = |text: &str| {
            let split = split_frontmatter(text);
            let block = split.front.expect("a block");
            assert!(
                parse_block(&block).expect("closed").is_err(),
                "{text:?} parses"
            );
            parse_yaml_quoting_values(&block)
        };
        let (v, lines) = quoted(
            "---\ntitle: Incident: cookie path\nupdated: 2026-06-20\nauthor: @alice\nnote: it's: odd\nDue date: Q3: maybe\n---\nbody",
        )
        .expect("repaired");
        let v = Yaml::Mapping(v);
        assert_eq!(v["title"], Yaml::String("Incident: cookie path".into()));
        assert_eq!(v["updated"], Yaml::String("2026-06-20".into()));
        assert_eq!(v["author"], Yaml::String("@alice".into()));
        assert_eq!(v["note"], Yaml::String("it's: odd".into()));
        let keys: Vec<_> = lines.iter().map(|(l, k)| (*l, k.as_str())).collect();
        assert_eq!(
            keys,
            [(2, "title"), (4, "author"), (5, "note"), (6, "Due date")]
        );
        assert_eq!(v["Due date"], Yaml::String("Q3: maybe".into()));
        // A value ending in a colon, with a line break as Windows writes it.
        let (v, _) = quoted("---\r\ntitle: Todo:\r\ntags: [a]\r\n---\r\n").expect("repaired");
        assert_eq!(Yaml::Mapping(v)["title"], Yaml::String("Todo:".into()));
        // Other errors are not guessed at: an unclosed flow list, a duplicate key,
        // an indented value, a quoted one.
        for text in [
            "---\ntitle: [unclosed\nfoo: a: b\n---\n",
            "---\ntitle: a: b\ntitle: c\n---\n",
            "---\nmeta:\n  title: a: b\n---\n",
            "---\ntitle: \"a\": b\n---\n",
        ] {
            assert_eq!(quoted(text), None, "{text:?}");
        }
    }

    #[test]
    fn errors_name_file_lines() {
        let e = parse("+++\ntitle = \"A\"\ntitle = \"B\"\n+++\n").expect_err("duplicate");
        assert_eq!(e.line, Some(3), "{e:?}");
        let e = parse("{\n  \"a\": 1,\n  \"b\" 2\n}\n").expect_err("syntax");
        assert_eq!(e.line, Some(3), "{e:?}");
    }
}
