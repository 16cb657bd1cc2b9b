//! The JSON a client writes on the hook's stdin, read leniently: every field is
//! optional, unknown fields are ignored, and garbage yields defaults plus a warning,
//! never an error, because a hook must never block a session.
//!
//! The prompt hook's payload adds `prompt`: Claude Code and Codex `UserPromptSubmit`
//! (`prompt`, `session_id`, `cwd`, `hook_event_name`, `transcript_path`), Gemini CLI
//! `BeforeAgent` (`prompt` besides its base fields `session_id`, `transcript_path`,
//! `cwd`, `hook_event_name`, `timestamp`: google-gemini/gemini-cli
//! `docs/hooks/reference.md`, "Agent hooks"). The prompt is the user's text: it is
//! never logged, never echoed and never stored.

use std::path::PathBuf;

use serde_json::Value;

/// Why the session started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StartReason {
    /// A new session (also the default when the client does not say).
    #[default]
    Startup,
    /// A resumed session.
    Resume,
    /// After `/clear`.
    Clear,
    /// After the context was compacted (which drops earlier injected context).
    Compact,
    /// A value cairn does not know.
    Other,
}

impl StartReason {
    fn parse(s: &str) -> Self {
        match s {
            "startup" | "new" => StartReason::Startup,
            "resume" => StartReason::Resume,
            "clear" => StartReason::Clear,
            "compact" => StartReason::Compact,
            _ => StartReason::Other,
        }
    }

    /// What the packet is built for: a session started anew (also an unknown
    /// value), resumed, compacted or cleared.
    pub fn session(self) -> cairn_engine::SessionSource {
        use cairn_engine::SessionSource;
        match self {
            StartReason::Startup | StartReason::Other => SessionSource::Startup,
            StartReason::Resume => SessionSource::Resume,
            StartReason::Clear => SessionSource::Clear,
            StartReason::Compact => SessionSource::Compact,
        }
    }

    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            StartReason::Startup => "startup",
            StartReason::Resume => "resume",
            StartReason::Clear => "clear",
            StartReason::Compact => "compact",
            StartReason::Other => "other",
        }
    }
}

/// What cairn uses from a client's session-start payload.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookInput {
    /// The session's working directory: `cwd`, else the first of Cursor's `workspace_roots`.
    pub cwd: Option<PathBuf>,
    /// `session_id` (Cursor: `conversation_id`).
    pub session_id: Option<String>,
    /// `source` (Gemini CLI has also used `trigger`).
    pub source: StartReason,
    /// `hook_event_name`, when given.
    pub event: Option<String>,
    /// The user's prompt (the prompt hook's payload), as written.
    pub prompt: Option<String>,
    /// The payload carries a field only Cursor writes (`cursor_version`,
    /// `workspace_roots`): Cursor is running a hook configured for another client.
    pub from_cursor: bool,
    /// A problem with the payload worth one line on stderr (never fatal).
    pub warning: Option<String>,
}

impl HookInput {
    /// Reads a payload. Empty input is a valid "no payload".
    pub fn parse(bytes: &[u8]) -> Self {
        let text = String::from_utf8_lossy(bytes);
        if text.trim().is_empty() {
            return Self::default();
        }
        let value: Value = match serde_json::from_str(text.trim()) {
            Ok(v) => v,
            Err(e) => {
                return Self {
                    warning: Some(format!(
                        "hook input is not JSON ({e}); using the current directory"
                    )),
                    ..Self::default()
                };
            }
        };
        let Some(obj) = value.as_object() else {
            return Self {
                warning: Some(
                    "hook input is not a JSON object; using the current directory".into(),
                ),
                ..Self::default()
            };
        };
        let text_field = |key: &str| {
            obj.get(key)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let cwd = text_field("cwd").or_else(|| {
            obj.get("workspace_roots")
                .and_then(Value::as_array)
                .and_then(|roots| roots.iter().find_map(Value::as_str))
                .map(str::to_owned)
        });
        let source = text_field("source")
            .or_else(|| text_field("trigger"))
            .map_or(StartReason::Startup, |s| StartReason::parse(&s));
        Self {
            cwd: cwd.map(PathBuf::from),
            session_id: text_field("session_id").or_else(|| text_field("conversation_id")),
            source,
            event: text_field("hook_event_name"),
            prompt: obj
                .get("prompt")
                .and_then(Value::as_str)
                .filter(|p| !p.trim().is_empty())
                .map(str::to_owned),
            from_cursor: obj.contains_key("cursor_version") || obj.contains_key("workspace_roots"),
            warning: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_clients_payload() {
        let claude = br#"{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"SessionStart","source":"compact"}"#;
        let i = HookInput::parse(claude);
        assert_eq!(i.cwd, Some(PathBuf::from("/repo")));
        assert_eq!(i.session_id.as_deref(), Some("abc"));
        assert_eq!(i.source, StartReason::Compact);
        assert_eq!(i.event.as_deref(), Some("SessionStart"));
        assert!(i.warning.is_none());

        let codex = br#"{"session_id":"s","cwd":"/r","model":"gpt-5","permission_mode":"default","source":"resume","transcript_path":null}"#;
        assert_eq!(HookInput::parse(codex).source, StartReason::Resume);

        let gemini = br#"{"session_id":"g","cwd":"/g","hook_event_name":"SessionStart","timestamp":"2026-11-22T09:00:00Z","trigger":"clear"}"#;
        assert_eq!(HookInput::parse(gemini).source, StartReason::Clear);

        let cursor = br#"{"conversation_id":"c1","workspace_roots":["/w1","/w2"],"hook_event_name":"sessionStart"}"#;
        let i = HookInput::parse(cursor);
        assert_eq!(i.cwd, Some(PathBuf::from("/w1")));
        assert_eq!(i.session_id.as_deref(), Some("c1"));
        assert_eq!(i.source, StartReason::Startup);
        assert!(i.from_cursor);
        assert!(!HookInput::parse(claude).from_cursor);
    }

    #[test]
    fn reads_the_prompt_hooks_payloads() {
        let claude = br#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"fix the payout retry"}"#;
        let i = HookInput::parse(claude);
        assert_eq!(i.prompt.as_deref(), Some("fix the payout retry"));
        assert_eq!(i.session_id.as_deref(), Some("s1"));
        assert_eq!(i.event.as_deref(), Some("UserPromptSubmit"));
        let gemini = br#"{"session_id":"g","transcript_path":"/t.json","cwd":"/g","hook_event_name":"BeforeAgent","timestamp":"2026-11-22T09:00:00Z","prompt":"  why\nnot  "}"#;
        assert_eq!(
            HookInput::parse(gemini).prompt.as_deref(),
            Some("  why\nnot  ")
        );
        for empty in [&br#"{"prompt":"   "}"#[..], br#"{"prompt":7}"#, b"{}"] {
            assert_eq!(HookInput::parse(empty).prompt, None);
        }
    }

    #[test]
    fn garbage_and_odd_shapes_give_defaults() {
        for bad in [
            &b"not json"[..],
            b"[1,2]",
            b"\"str\"",
            b"{\"cwd\": 42",
            b"\xff\xfe",
        ] {
            let i = HookInput::parse(bad);
            assert_eq!(i.cwd, None);
            assert!(i.warning.is_some(), "{:?}", String::from_utf8_lossy(bad));
        }
        let i = HookInput::parse(b"");
        assert_eq!(i, HookInput::default());
        let i = HookInput::parse(br#"{"cwd":"  ","source":"weird","extra":{"x":[1]}}"#);
        assert_eq!(i.cwd, None);
        assert_eq!(i.source, StartReason::Other);
        assert!(i.warning.is_none());
    }
}
