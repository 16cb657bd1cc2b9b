//! Edits to JSON settings files (Claude Code, Codex `hooks.json`, Gemini CLI, Cursor),
//! made on a concrete syntax tree so everything else in the file stays as written:
//! key order, formatting, and the comments Gemini CLI and Cursor allow.
//!
//! Each function takes the file's text and returns the new text and what changed.
//! A value of an unexpected type where cairn needs an object or array is an error,
//! never overwritten.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::Value;

use super::{Change, McpCommand};
use crate::Client;

/// A settings file cairn cannot edit safely.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// Not JSON (or JSONC).
    #[error("cannot parse: {0}")]
    Parse(String),
    /// A key cairn needs holds something else.
    #[error("`{key}` is not {expected}; edit the file by hand")]
    Shape {
        /// Dotted key.
        key: String,
        /// "an object" or "an array".
        expected: &'static str,
    },
}

/// An object with its keys in the order given (settings files are read by people).
fn object(pairs: Vec<(&str, CstInputValue)>) -> CstInputValue {
    CstInputValue::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// Which of cairn's hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookKind {
    /// `cairn hook session-start`: the packet at a session's start.
    SessionStart,
    /// `cairn hook prompt`: the notes for each prompt.
    Prompt,
}

impl HookKind {
    /// The subcommand that identifies cairn's hook of this kind in a command.
    fn subcommand(self) -> &'static str {
        match self {
            HookKind::SessionStart => "session-start",
            HookKind::Prompt => "prompt",
        }
    }

    /// What the kind is called in messages.
    pub fn what(self) -> &'static str {
        match self {
            HookKind::SessionStart => "session-start hook",
            HookKind::Prompt => "prompt hook",
        }
    }
}

/// Claude Code's `SessionStart` matcher written by earlier cairn releases: reinstalling
/// removes it (the entry now has none, so it runs on every source, `fork` included).
const OLD_CLAUDE_MATCHER: &str = "startup|resume|clear|compact";

/// The `SessionStart` entry cairn adds for `client`, as written into the file.
///
/// Claude Code's has no matcher, so it runs on every source: its hooks reference lists
/// `startup`, `resume`, `clear`, `compact` and, in recent releases, `fork`
/// (`--fork-session`, `/branch`); without a matcher a source added later is covered too.
pub fn hook_entry(client: Client, command: &str) -> CstInputValue {
    let cmd = || CstInputValue::from(command);
    let num = |n: u64| CstInputValue::Number(n.to_string());
    match client {
        Client::Claude => object(vec![(
            "hooks",
            CstInputValue::Array(vec![object(vec![
                ("type", "command".into()),
                ("command", cmd()),
                ("timeout", num(10)),
            ])]),
        )]),
        Client::Codex => object(vec![
            ("matcher", "startup|resume|clear|compact".into()),
            (
                "hooks",
                CstInputValue::Array(vec![object(vec![
                    ("type", "command".into()),
                    ("command", cmd()),
                    ("timeout", num(10)),
                    ("statusMessage", "Loading cairn memory".into()),
                ])]),
            ),
        ]),
        // Lifecycle matchers are exact strings in Gemini CLI: no matcher runs on every source.
        Client::Gemini => object(vec![(
            "hooks",
            CstInputValue::Array(vec![object(vec![
                ("name", "cairn-memory".into()),
                ("type", "command".into()),
                ("command", cmd()),
                ("timeout", num(10_000)),
                (
                    "description",
                    "cairn: memory from your notes at session start".into(),
                ),
            ])]),
        )]),
        Client::Cursor => object(vec![("command", cmd())]),
    }
}

/// The prompt-hook entry cairn adds for `client` (`None`: Cursor, whose prompt hook
/// cannot add context). `UserPromptSubmit` (Claude Code, Codex) and `BeforeAgent`
/// (Gemini CLI) take no matcher. The timeouts are the clients' upper bound only: the
/// hook answers within its own deadline (300 ms by default) or adds nothing.
pub fn prompt_entry(client: Client, command: &str) -> Option<CstInputValue> {
    let cmd = || CstInputValue::from(command);
    let num = |n: u64| CstInputValue::Number(n.to_string());
    Some(match client {
        Client::Claude | Client::Codex => object(vec![(
            "hooks",
            CstInputValue::Array(vec![object(vec![
                ("type", "command".into()),
                ("command", cmd()),
                ("timeout", num(5)),
            ])]),
        )]),
        Client::Gemini => object(vec![(
            "hooks",
            CstInputValue::Array(vec![object(vec![
                ("name", "cairn-prompt".into()),
                ("type", "command".into()),
                ("command", cmd()),
                ("timeout", num(5_000)),
                (
                    "description",
                    "cairn: notes from your memory that match each prompt".into(),
                ),
            ])]),
        )]),
        Client::Cursor => return None,
    })
}

/// The event key under `hooks` for `client`'s hook of `kind` (`None`: the client has
/// no such hook).
pub fn event_key(client: Client, kind: HookKind) -> Option<&'static str> {
    match (kind, client) {
        (HookKind::SessionStart, Client::Cursor) => Some("sessionStart"),
        (HookKind::SessionStart, _) => Some("SessionStart"),
        (HookKind::Prompt, c) => c.prompt_event(),
    }
}

fn entry(client: Client, kind: HookKind, command: &str) -> Option<CstInputValue> {
    match kind {
        HookKind::SessionStart => Some(hook_entry(client, command)),
        HookKind::Prompt => prompt_entry(client, command),
    }
}

/// Whether a hook command is cairn's session-start hook.
pub fn is_cairn_hook(command: &str) -> bool {
    is_cairn_command(command, HookKind::SessionStart)
}

/// Whether a hook command is cairn's hook of `kind`: its program is `cairn…` and its
/// first two words after it are `hook <subcommand>`.
pub fn is_cairn_command(command: &str, kind: HookKind) -> bool {
    let first = first_word(command);
    let name = first.rsplit(['/', '\\']).next().unwrap_or_default();
    let rest = command.trim_start();
    let rest = match rest.chars().next() {
        Some(q @ ('\'' | '"')) => rest[1..].split_once(q).map_or("", |(_, r)| r),
        _ => rest.split_once(char::is_whitespace).map_or("", |(_, r)| r),
    };
    let mut words = rest.split_whitespace();
    name.starts_with("cairn")
        && words.next() == Some("hook")
        && words.next() == Some(kind.subcommand())
}

fn first_word(command: &str) -> String {
    let s = command.trim_start();
    match s.chars().next() {
        Some(q @ ('\'' | '"')) => s[1..].split(q).next().unwrap_or_default().to_owned(),
        _ => s.split_whitespace().next().unwrap_or_default().to_owned(),
    }
}

fn parse(text: &str) -> Result<CstRootNode, EditError> {
    let text = if text.trim().is_empty() { "{}\n" } else { text };
    CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| EditError::Parse(e.to_string()))
}

fn root_object(root: &CstRootNode) -> Result<CstObject, EditError> {
    root.object_value_or_create().ok_or(EditError::Shape {
        key: "(top level)".into(),
        expected: "an object",
    })
}

fn object_at(obj: &CstObject, key: &str, dotted: &str) -> Result<CstObject, EditError> {
    obj.object_value_or_create(key)
        .ok_or_else(|| EditError::Shape {
            key: dotted.to_owned(),
            expected: "an object",
        })
}

fn array_at(obj: &CstObject, key: &str, dotted: &str) -> Result<CstArray, EditError> {
    obj.array_value_or_create(key)
        .ok_or_else(|| EditError::Shape {
            key: dotted.to_owned(),
            expected: "an array",
        })
}

/// A finished edit: the text, with the file's final newline kept (or added to a new file).
fn finish(original: &str, root: &CstRootNode) -> String {
    let mut s = root.to_string();
    if (original.trim().is_empty() || original.ends_with('\n')) && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The handler objects of `client`'s entries (of one event) whose command is cairn's
/// hook of `kind`: (the object, its command).
fn cairn_handlers(client: Client, kind: HookKind, events: &CstArray) -> Vec<(CstObject, String)> {
    let mut out = Vec::new();
    for el in events.elements() {
        let Some(entry) = el.as_object() else {
            continue;
        };
        let handlers: Vec<CstObject> = if client == Client::Cursor {
            vec![entry]
        } else {
            entry
                .array_value("hooks")
                .map(|a| a.elements().iter().filter_map(CstNode::as_object).collect())
                .unwrap_or_default()
        };
        for h in handlers {
            let cmd = h
                .get("command")
                .and_then(|p| p.value())
                .and_then(|v| v.to_serde_value())
                .and_then(|v| v.as_str().map(str::to_owned));
            if let Some(cmd) = cmd.filter(|c| is_cairn_command(c, kind)) {
                out.push((h, cmd));
            }
        }
    }
    out
}

/// Adds cairn's session-start hook, or points an existing one at `command`.
pub fn install_hook(
    text: &str,
    client: Client,
    command: &str,
) -> Result<(String, Change), EditError> {
    install_kind(text, client, HookKind::SessionStart, command)
}

/// Adds cairn's hook of `kind`, or points an existing one at `command` (a client
/// without such a hook: nothing changes).
pub fn install_kind(
    text: &str,
    client: Client,
    kind: HookKind,
    command: &str,
) -> Result<(String, Change), EditError> {
    let (Some(key), Some(new_entry)) = (event_key(client, kind), entry(client, kind, command))
    else {
        return Ok((text.to_owned(), Change::Unchanged));
    };
    let root = parse(text)?;
    let obj = root_object(&root)?;
    if client == Client::Cursor && obj.get("version").is_none() {
        obj.insert(0, "version", CstInputValue::Number("1".into()));
    }
    let hooks = object_at(&obj, "hooks", "hooks")?;
    let events = array_at(&hooks, key, &format!("hooks.{key}"))?;
    let ours = cairn_handlers(client, kind, &events);
    let mut change = if ours.is_empty() {
        events.ensure_multiline();
        events.append(new_entry);
        Change::Added
    } else if ours.iter().all(|(_, c)| c == command) {
        Change::Unchanged
    } else {
        for (h, c) in &ours {
            if c != command
                && let Some(p) = h.get("command")
            {
                p.set_value(command.into());
            }
        }
        Change::Updated
    };
    if client == Client::Claude && kind == HookKind::SessionStart {
        for (h, _) in &ours {
            if drop_old_matcher(h) {
                change = Change::Updated;
            }
        }
    }
    Ok((finish(text, &root), change))
}

/// Removes the matcher earlier releases wrote on the entry holding `handler` (Claude
/// Code's `SessionStart`), when the entry holds only cairn's hooks; whether it did.
fn drop_old_matcher(handler: &CstObject) -> bool {
    let Some(entry) = handler
        .parent()
        .and_then(|list| list.parent())
        .and_then(|prop| prop.parent())
        .and_then(|e| e.as_object())
    else {
        return false;
    };
    let only_cairn = entry.array_value("hooks").is_some_and(|a| {
        a.elements().iter().all(|h| {
            h.as_object()
                .and_then(|h| h.get("command"))
                .and_then(|p| p.value())
                .and_then(|v| v.to_serde_value())
                .and_then(|v| v.as_str().map(is_cairn_hook))
                .unwrap_or(false)
        })
    });
    let old = entry
        .get("matcher")
        .and_then(|p| p.value())
        .and_then(|v| v.to_serde_value())
        .is_some_and(|v| v.as_str() == Some(OLD_CLAUDE_MATCHER));
    match entry.get("matcher") {
        Some(p) if old && only_cairn => {
            p.remove();
            true
        }
        _ => false,
    }
}

/// Removes cairn's session-start hook (and containers it leaves empty).
pub fn uninstall_hook(text: &str, client: Client) -> Result<(String, Change), EditError> {
    uninstall_kind(text, client, HookKind::SessionStart)
}

/// Removes cairn's hook of `kind` (and containers it leaves empty).
pub fn uninstall_kind(
    text: &str,
    client: Client,
    kind: HookKind,
) -> Result<(String, Change), EditError> {
    let unchanged = || Ok((text.to_owned(), Change::Unchanged));
    if text.trim().is_empty() {
        return unchanged();
    }
    let Some(key) = event_key(client, kind) else {
        return unchanged();
    };
    let root = parse(text)?;
    let Some(obj) = root.object_value() else {
        return unchanged();
    };
    let Some(hooks) = obj.object_value("hooks") else {
        return unchanged();
    };
    let Some(events) = hooks.array_value(key) else {
        return unchanged();
    };
    let ours = cairn_handlers(client, kind, &events);
    if ours.is_empty() {
        return unchanged();
    }
    for (h, _) in ours {
        let group = h.parent().and_then(|p| p.as_array());
        h.remove();
        // An entry whose handler list is now empty goes too (Cursor's entries are the
        // handlers themselves).
        if client == Client::Cursor {
            continue;
        }
        if let Some(list) = group.filter(|a| a.elements().is_empty())
            && let Some(entry) = list
                .parent()
                .and_then(|p| p.parent())
                .and_then(|p| p.as_object())
        {
            entry.remove();
        }
    }
    if events.elements().is_empty()
        && let Some(p) = hooks.get(key)
    {
        p.remove();
    }
    if hooks.properties().is_empty()
        && let Some(p) = obj.get("hooks")
    {
        p.remove();
    }
    Ok((finish(text, &root), Change::Removed))
}

/// The commands of cairn's session-start hooks in `text`.
pub fn find_hooks(text: &str, client: Client) -> Result<Vec<String>, EditError> {
    find_kind(text, client, HookKind::SessionStart)
}

/// The commands of cairn's hooks of `kind` in `text`.
pub fn find_kind(text: &str, client: Client, kind: HookKind) -> Result<Vec<String>, EditError> {
    let Some(key) = event_key(client, kind) else {
        return Ok(Vec::new());
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let root = parse(text)?;
    let events = root
        .object_value()
        .and_then(|o| o.object_value("hooks"))
        .and_then(|h| h.array_value(key));
    Ok(events
        .map(|e| {
            cairn_handlers(client, kind, &e)
                .into_iter()
                .map(|(_, c)| c)
                .collect()
        })
        .unwrap_or_default())
}

/// The `mcpServers.cairn` entry cairn writes (`with_type` adds Claude Code's `"type": "stdio"`).
fn mcp_entry(mcp: &McpCommand, with_type: bool) -> CstInputValue {
    let mut pairs = Vec::new();
    if with_type {
        pairs.push(("type", CstInputValue::from("stdio")));
    }
    pairs.push(("command", mcp.command.as_str().into()));
    pairs.push((
        "args",
        CstInputValue::Array(mcp.args.iter().map(|a| a.as_str().into()).collect()),
    ));
    object(pairs)
}

/// Registers (or updates) `mcpServers.cairn`, keeping any other keys of an existing entry.
pub fn install_mcp(
    text: &str,
    mcp: &McpCommand,
    with_type: bool,
) -> Result<(String, Change), EditError> {
    let root = parse(text)?;
    let obj = root_object(&root)?;
    let servers = object_at(&obj, "mcpServers", "mcpServers")?;
    let change = match servers.get("cairn") {
        None => {
            servers.append("cairn", mcp_entry(mcp, with_type));
            Change::Added
        }
        Some(prop) => {
            let existing = prop.object_value().ok_or(EditError::Shape {
                key: "mcpServers.cairn".into(),
                expected: "an object",
            })?;
            let current = read_mcp(&existing);
            if current.as_ref() == Some(mcp) {
                Change::Unchanged
            } else {
                set_prop(&existing, "command", Value::from(mcp.command.clone()));
                set_prop(&existing, "args", serde_json::json!(mcp.args));
                Change::Updated
            }
        }
    };
    Ok((finish(text, &root), change))
}

/// Removes `mcpServers.cairn` (and `mcpServers` when it is left empty).
pub fn uninstall_mcp(text: &str) -> Result<(String, Change), EditError> {
    if text.trim().is_empty() {
        return Ok((text.to_owned(), Change::Unchanged));
    }
    let root = parse(text)?;
    let Some(obj) = root.object_value() else {
        return Ok((text.to_owned(), Change::Unchanged));
    };
    let Some(servers) = obj.object_value("mcpServers") else {
        return Ok((text.to_owned(), Change::Unchanged));
    };
    let Some(prop) = servers.get("cairn") else {
        return Ok((text.to_owned(), Change::Unchanged));
    };
    prop.remove();
    if servers.properties().is_empty()
        && let Some(p) = obj.get("mcpServers")
    {
        p.remove();
    }
    Ok((finish(text, &root), Change::Removed))
}

/// The registered `mcpServers.cairn` command, if any.
pub fn find_mcp(text: &str) -> Result<Option<McpCommand>, EditError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let root = parse(text)?;
    Ok(root
        .object_value()
        .and_then(|o| o.object_value("mcpServers"))
        .and_then(|s| s.object_value("cairn"))
        .and_then(|c| read_mcp(&c)))
}

fn read_mcp(entry: &CstObject) -> Option<McpCommand> {
    let v = entry.to_serde_value()?;
    let command = v.get("command")?.as_str()?.to_owned();
    let args = v
        .get("args")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Some(McpCommand { command, args })
}

fn set_prop(obj: &CstObject, key: &str, value: Value) {
    match obj.get(key) {
        Some(p) => p.set_value(to_input(&value)),
        None => {
            obj.append(key, to_input(&value));
        }
    }
}

/// A serde value as a CST input (numbers keep their JSON text).
fn to_input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(to_input).collect()),
        Value::Object(o) => {
            CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), to_input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "/usr/local/bin/cairn hook session-start --client claude";

    #[test]
    fn recognises_cairn_hook_commands() {
        assert!(is_cairn_hook(CMD));
        assert!(is_cairn_hook(
            "'/opt/my tools/cairn' hook session-start --client codex --config '/a b/c.toml'"
        ));
        assert!(is_cairn_hook(
            "cairn.exe hook session-start --client cursor"
        ));
        assert!(!is_cairn_hook("/usr/bin/other hook session-start"));
        assert!(!is_cairn_hook("cairn wakeup --target claude"));
        assert!(!is_cairn_hook("echo cairn hook session-start"));
    }

    #[test]
    fn install_into_nothing_creates_the_structure() {
        let (out, change) = install_hook("", Client::Claude, CMD).unwrap();
        assert_eq!(change, Change::Added);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["hooks"]["SessionStart"][0]["hooks"][0]["command"], CMD);
        assert!(out.ends_with('\n'));
        let (out, change) = install_hook(
            "",
            Client::Cursor,
            "cairn hook session-start --client cursor",
        )
        .unwrap();
        assert_eq!(change, Change::Added);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["version"], 1);
        assert_eq!(
            v["hooks"]["sessionStart"][0]["command"],
            "cairn hook session-start --client cursor"
        );
    }

    #[test]
    fn wrong_shapes_are_refused_not_overwritten() {
        for text in [
            "[1]",
            r#"{"hooks": 3}"#,
            r#"{"hooks": {"SessionStart": {}}}"#,
        ] {
            assert!(
                matches!(
                    install_hook(text, Client::Claude, CMD),
                    Err(EditError::Shape { .. })
                ),
                "{text}"
            );
        }
        assert!(matches!(
            install_hook("{ nope", Client::Claude, CMD),
            Err(EditError::Parse(_))
        ));
        assert!(matches!(
            install_mcp(
                r#"{"mcpServers": {"cairn": "x"}}"#,
                &McpCommand {
                    command: "c".into(),
                    args: vec![]
                },
                false
            ),
            Err(EditError::Shape { .. })
        ));
    }

    #[test]
    fn updating_keeps_the_users_other_keys() {
        let text = r#"{
  "mcpServers": {
    "cairn": { "command": "/old/cairn", "args": ["mcp"], "env": { "A": "1" } }
  }
}
"#;
        let mcp = McpCommand {
            command: "/new/cairn".into(),
            args: vec!["mcp".into()],
        };
        let (out, change) = install_mcp(text, &mcp, false).unwrap();
        assert_eq!(change, Change::Updated);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["mcpServers"]["cairn"]["command"], "/new/cairn");
        assert_eq!(v["mcpServers"]["cairn"]["env"]["A"], "1");
        assert_eq!(find_mcp(&out).unwrap(), Some(mcp.clone()));
        let (again, change) = install_mcp(&out, &mcp, false).unwrap();
        assert_eq!((again.as_str(), change), (out.as_str(), Change::Unchanged));
    }
}
