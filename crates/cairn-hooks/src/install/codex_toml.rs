//! Codex registers MCP servers in `config.toml` (`[mcp_servers.cairn]`): edits made with
//! `toml_edit`, so comments, order and formatting of the rest of the file stay.

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

use super::json::EditError;
use super::{Change, McpCommand};

fn parse(text: &str) -> Result<DocumentMut, EditError> {
    text.parse::<DocumentMut>().map_err(|e| {
        EditError::Parse(
            e.to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        )
    })
}

fn args_array(args: &[String]) -> Array {
    args.iter().map(String::as_str).collect()
}

fn shape(key: &str) -> EditError {
    EditError::Shape {
        key: key.to_owned(),
        expected: "a table",
    }
}

/// Reads `command` and `args` of a server entry.
fn read_entry(entry: &Item) -> Option<McpCommand> {
    let t = entry.as_table_like()?;
    let command = t.get("command")?.as_str()?.to_owned();
    let args = t
        .get("args")
        .and_then(Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Some(McpCommand { command, args })
}

/// Registers (or updates) `[mcp_servers.cairn]`, keeping other keys of an existing entry.
pub fn install_mcp(text: &str, mcp: &McpCommand) -> Result<(String, Change), EditError> {
    let mut doc = parse(text)?;
    let root = doc.as_table_mut();
    if !root.contains_key("mcp_servers") {
        let mut t = Table::new();
        t.set_implicit(true);
        root.insert("mcp_servers", Item::Table(t));
    }
    let servers = root
        .get_mut("mcp_servers")
        .ok_or_else(|| shape("mcp_servers"))?;
    let change = match servers.get("cairn") {
        Some(existing) if read_entry(existing).as_ref() == Some(mcp) => Change::Unchanged,
        Some(existing) => {
            if existing.as_table_like().is_none() {
                return Err(shape("mcp_servers.cairn"));
            }
            let entry = servers
                .get_mut("cairn")
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| shape("mcp_servers.cairn"))?;
            entry.insert("command", Item::Value(Value::from(mcp.command.as_str())));
            entry.insert("args", Item::Value(Value::Array(args_array(&mcp.args))));
            Change::Updated
        }
        None => {
            match servers {
                Item::Table(t) => {
                    let mut entry = Table::new();
                    entry.insert("command", Item::Value(Value::from(mcp.command.as_str())));
                    entry.insert("args", Item::Value(Value::Array(args_array(&mcp.args))));
                    t.insert("cairn", Item::Table(entry));
                }
                Item::Value(Value::InlineTable(t)) => {
                    let mut entry = InlineTable::new();
                    entry.insert("command", Value::from(mcp.command.as_str()));
                    entry.insert("args", Value::Array(args_array(&mcp.args)));
                    t.insert("cairn", Value::InlineTable(entry));
                }
                _ => return Err(shape("mcp_servers")),
            }
            Change::Added
        }
    };
    let mut out = doc.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok((out, change))
}

/// Removes `[mcp_servers.cairn]` (and an `mcp_servers` table it leaves empty).
pub fn uninstall_mcp(text: &str) -> Result<(String, Change), EditError> {
    let mut doc = parse(text)?;
    let root = doc.as_table_mut();
    let Some(servers) = root
        .get_mut("mcp_servers")
        .and_then(Item::as_table_like_mut)
    else {
        return Ok((text.to_owned(), Change::Unchanged));
    };
    if servers.remove("cairn").is_none() {
        return Ok((text.to_owned(), Change::Unchanged));
    }
    if servers.is_empty() {
        root.remove("mcp_servers");
    }
    Ok((doc.to_string(), Change::Removed))
}

/// The registered `[mcp_servers.cairn]`, if any.
pub fn find_mcp(text: &str) -> Result<Option<McpCommand>, EditError> {
    let doc = parse(text)?;
    Ok(doc
        .as_table()
        .get("mcp_servers")
        .and_then(|s| s.get("cairn"))
        .and_then(read_entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mcp() -> McpCommand {
        McpCommand {
            command: "/usr/local/bin/cairn".into(),
            args: vec![
                "mcp".into(),
                "--config".into(),
                "/home/u/notes/cairn.toml".into(),
            ],
        }
    }

    #[test]
    fn adds_a_table_and_keeps_the_rest() {
        let text = "# my codex config\nmodel = \"gpt-5\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let (out, change) = install_mcp(text, &mcp()).unwrap();
        assert_eq!(change, Change::Added);
        assert!(
            out.starts_with(
                "# my codex config\nmodel = \"gpt-5\"\n\n[mcp_servers.other]\ncommand = \"x\"\n"
            ),
            "{out}"
        );
        assert!(out.contains("[mcp_servers.cairn]\ncommand = \"/usr/local/bin/cairn\"\nargs = [\"mcp\", \"--config\", \"/home/u/notes/cairn.toml\"]\n"), "{out}");
        assert_eq!(find_mcp(&out).unwrap(), Some(mcp()));
        let (again, change) = install_mcp(&out, &mcp()).unwrap();
        assert_eq!((again.as_str(), change), (out.as_str(), Change::Unchanged));
        let (removed, change) = uninstall_mcp(&out).unwrap();
        assert_eq!(change, Change::Removed);
        assert_eq!(removed, text);
    }

    #[test]
    fn empty_file_round_trips() {
        let (out, _) = install_mcp("", &mcp()).unwrap();
        assert!(out.starts_with("[mcp_servers.cairn]\n"), "{out}");
        let (removed, change) = uninstall_mcp(&out).unwrap();
        assert_eq!(change, Change::Removed);
        assert_eq!(removed.trim(), "");
    }

    #[test]
    fn refuses_odd_shapes_and_bad_toml() {
        assert!(matches!(
            install_mcp("mcp_servers = 3\n", &mcp()),
            Err(EditError::Shape { .. })
        ));
        assert!(matches!(
            install_mcp("[mcp_servers]\ncairn = 1\n", &mcp()),
            Err(EditError::Shape { .. })
        ));
        assert!(matches!(
            install_mcp("[[[", &mcp()),
            Err(EditError::Parse(_))
        ));
    }
}
