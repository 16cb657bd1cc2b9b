//! Page properties written in the body, as Logseq writes a page's: its first
//! lines, one `key:: value` each (`title:: New to Logseq?`, `alias:: Todos`,
//! `tags:: embed, [[Publishing]]`, `description:: …`), before any other text.
//! A file without front matter has its `title`, `alias`, `tags` and
//! `description` read from them as from front matter; every other key stays a
//! line of metadata (never a summary's sentence, as every `key:: value` is).

use serde_yaml_ng::Value as Yaml;

use crate::fields::Map;

/// The keys read as front matter; lists are written comma-separated.
const READ: &[&str] = &["title", "alias", "aliases", "tags", "description"];

/// At most this many leading lines are read as properties.
const MAX_LINES: usize = 40;

/// Adds the page properties that open `body` (blank lines before them
/// skipped) to `fields`: `title` and `description` as text, `alias` and `tags`
/// as lists (`[[links]]` and `#` reduced to their names).
pub(crate) fn read(body: &str, fields: &mut Map) {
    let mut started = false;
    for line in body.lines().take(MAX_LINES) {
        let t = line.trim();
        if t.is_empty() {
            if started {
                break;
            }
            continue;
        }
        let Some((key, value)) = property(t) else {
            break;
        };
        started = true;
        let key = key.to_ascii_lowercase();
        if !READ.contains(&key.as_str()) || value.is_empty() || fields.contains_key(&key) {
            continue;
        }
        let v = match key.as_str() {
            "alias" | "aliases" | "tags" => Yaml::Sequence(
                value
                    .split(',')
                    .map(|item| {
                        item.trim()
                            .trim_start_matches('#')
                            .trim_start_matches("[[")
                            .trim_end_matches("]]")
                            .trim()
                    })
                    .filter(|item| !item.is_empty())
                    .map(|item| Yaml::String(item.to_owned()))
                    .collect(),
            ),
            _ => Yaml::String(value.to_owned()),
        };
        fields.insert(key, v);
    }
}

/// A `key:: value` line's key and value: a key of letters, digits, `_`, `-`
/// and `.` (Logseq's `logseq.order-list-type`), as Logseq writes it.
fn property(t: &str) -> Option<(&str, &str)> {
    let (key, value) = t
        .split_once(":: ")
        .or_else(|| t.strip_suffix("::").map(|k| (k, "")))?;
    let ok = !key.is_empty()
        && key.len() <= 40
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    ok.then(|| (key, value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(body: &str) -> Map {
        let mut m = Map::new();
        read(body, &mut m);
        m
    }

    #[test]
    fn leading_properties_are_read_and_nothing_after_them() {
        let m = read_str(
            "title:: New to Logseq?\nalias:: Todos, [[Tasks list]]\ntags:: #embed, [[Publishing]]\npublic:: true\n\n- title:: not a property\n",
        );
        assert_eq!(m["title"], Yaml::String("New to Logseq?".into()));
        assert_eq!(
            m["alias"],
            Yaml::Sequence(vec![
                Yaml::String("Todos".into()),
                Yaml::String("Tasks list".into())
            ])
        );
        assert_eq!(
            m["tags"],
            Yaml::Sequence(vec![
                Yaml::String("embed".into()),
                Yaml::String("Publishing".into())
            ])
        );
        assert!(!m.contains_key("public"));
        // Not at the top: no page property.
        assert!(read_str("# Heading\ntitle:: x\n").is_empty());
        assert!(read_str("Some prose: with a colon.\ntitle:: x\n").is_empty());
        // Keys with spaces are Dataview's fields, not page properties.
        assert!(read_str("Due date:: tomorrow\n").is_empty());
    }
}
