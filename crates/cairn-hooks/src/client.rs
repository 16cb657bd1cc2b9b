//! The AI clients that run session-start hooks: what each one reads on stdout (the
//! envelope), how much context it accepts, and how to check an envelope it would get.

use std::fmt;

use cairn_engine::{OutputCaps, Target};
use serde_json::Value;

/// A client with a session-start hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Client {
    /// Claude Code.
    Claude,
    /// `OpenAI` Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// Cursor.
    Cursor,
}

/// How much context a client accepts from a hook, with margin below its real limit.
///
/// The packet assembler's token budget applies these: items are dropped whole, text is
/// never cut mid-item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextLimits {
    /// Characters (Unicode scalar values) of the injected text.
    pub max_chars: usize,
    /// Bytes of the injected text (clients that estimate tokens as bytes / 4).
    pub max_bytes: usize,
    /// Tokens by cairn's conservative estimate (at or above real tokenizer counts).
    pub max_tokens: Option<usize>,
}

impl ContextLimits {
    /// These limits as the engine's caps on a wake-up's rendered text.
    pub fn caps(&self) -> OutputCaps {
        OutputCaps {
            max_chars: Some(self.max_chars),
            max_bytes: Some(self.max_bytes),
            max_tokens: self.max_tokens,
        }
    }
}

impl Client {
    /// Every client.
    pub const ALL: [Client; 4] = [
        Client::Claude,
        Client::Codex,
        Client::Gemini,
        Client::Cursor,
    ];

    /// Lowercase name, as on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Codex => "codex",
            Client::Gemini => "gemini",
            Client::Cursor => "cursor",
        }
    }

    /// The product name, for messages.
    pub fn display_name(self) -> &'static str {
        match self {
            Client::Claude => "Claude Code",
            Client::Codex => "Codex",
            Client::Gemini => "Gemini CLI",
            Client::Cursor => "Cursor",
        }
    }

    /// Parses a lowercase name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The render target whose templates shape the text for this client.
    pub fn target(self) -> Target {
        match self {
            Client::Claude => Target::Claude,
            Client::Codex => Target::Codex,
            Client::Gemini => Target::Gemini,
            Client::Cursor => Target::Cursor,
        }
    }

    /// The limits cairn keeps to, each with margin:
    /// - Claude Code replaces injected text above 10,000 characters with a preview: 9,000.
    /// - Codex spills hook text above 2,500 tokens (estimated as bytes / 4) to a file:
    ///   2,400 tokens by cairn's estimate and 9,600 bytes (2,400 by Codex's).
    /// - Gemini CLI and Cursor document no cap: the Claude Code limit, so a session
    ///   start never carries more than about 2,500 tokens of memory.
    pub fn limits(self) -> ContextLimits {
        match self {
            Client::Codex => ContextLimits {
                max_chars: 9_600,
                max_bytes: 9_600,
                max_tokens: Some(2_400),
            },
            Client::Claude | Client::Gemini | Client::Cursor => ContextLimits {
                max_chars: 9_000,
                max_bytes: usize::MAX,
                max_tokens: None,
            },
        }
    }

    /// The exact stdout the client consumes for `context`: one JSON object on one line,
    /// followed by a newline.
    pub fn envelope(self, context: &str) -> String {
        self.envelope_with_message(context, None)
    }

    /// Whether the client shows a hook's `systemMessage` to the user. Claude Code,
    /// Codex and Gemini CLI document it in their hook output; Cursor's `sessionStart`
    /// output has no such field (its hook log shows stderr).
    pub fn shows_system_message(self) -> bool {
        !matches!(self, Client::Cursor)
    }

    /// Like [`Client::envelope`], with `message` for the user (not the model) as the
    /// envelope's `systemMessage` when the client shows one; otherwise it is left out.
    pub fn envelope_with_message(self, context: &str, message: Option<&str>) -> String {
        let mut value = match self {
            Client::Claude | Client::Codex | Client::Gemini => serde_json::json!({
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": context,
                }
            }),
            Client::Cursor => serde_json::json!({ "additional_context": context }),
        };
        if let (Some(m), Some(obj)) = (
            message.filter(|_| self.shows_system_message()),
            value.as_object_mut(),
        ) {
            obj.insert("systemMessage".into(), Value::String(m.to_owned()));
        }
        let mut s = value.to_string();
        s.push('\n');
        s
    }

    /// The `systemMessage` of an envelope, when it has one.
    pub fn read_system_message(self, stdout: &str) -> Option<String> {
        let value: Value = serde_json::from_str(stdout.trim()).ok()?;
        value
            .get("systemMessage")
            .and_then(Value::as_str)
            .map(str::to_owned)
    }

    /// Checks that `stdout` is exactly one envelope this client accepts and returns the
    /// context it carries.
    pub fn read_envelope(self, stdout: &str) -> Result<String, EnvelopeError> {
        let trimmed = stdout.trim();
        if trimmed.is_empty() {
            return Err(EnvelopeError::Empty);
        }
        let value: Value = serde_json::from_str(trimmed).map_err(|e| EnvelopeError::NotJson {
            error: e.to_string(),
        })?;
        let obj = value.as_object().ok_or(EnvelopeError::Shape {
            expected: self.shape(),
        })?;
        let context = match self {
            Client::Claude | Client::Codex | Client::Gemini => {
                let specific = obj
                    .get("hookSpecificOutput")
                    .and_then(Value::as_object)
                    .ok_or(EnvelopeError::Shape {
                        expected: self.shape(),
                    })?;
                if specific.get("hookEventName").and_then(Value::as_str) != Some("SessionStart") {
                    return Err(EnvelopeError::Shape {
                        expected: self.shape(),
                    });
                }
                specific.get("additionalContext").and_then(Value::as_str)
            }
            Client::Cursor => obj.get("additional_context").and_then(Value::as_str),
        };
        let context = context.ok_or(EnvelopeError::Shape {
            expected: self.shape(),
        })?;
        let limits = self.limits();
        let chars = context.chars().count();
        if chars > limits.max_chars || context.len() > limits.max_bytes {
            return Err(EnvelopeError::TooLong {
                chars,
                bytes: context.len(),
                limits,
            });
        }
        if let Some(max) = limits.max_tokens {
            let tokens = cairn_render::estimate_tokens(context);
            if tokens > max {
                return Err(EnvelopeError::TooManyTokens { tokens, max });
            }
        }
        Ok(context.to_owned())
    }

    /// A realistic session-start payload as this client writes it on the hook's stdin
    /// (used by `cairn hooks status` and the tests).
    pub fn sample_payload(self, cwd: &std::path::Path, source: &str) -> String {
        let cwd = cwd.display().to_string();
        let v = match self {
            Client::Claude => serde_json::json!({
                "session_id": "cairn-status-check",
                "transcript_path": "/tmp/cairn-status-check.jsonl",
                "cwd": cwd,
                "hook_event_name": "SessionStart",
                "source": source,
            }),
            Client::Codex => serde_json::json!({
                "session_id": "cairn-status-check",
                "transcript_path": null,
                "cwd": cwd,
                "hook_event_name": "SessionStart",
                "model": "gpt-5-codex",
                "permission_mode": "default",
                "source": source,
            }),
            Client::Gemini => serde_json::json!({
                "session_id": "cairn-status-check",
                "transcript_path": "/tmp/cairn-status-check.json",
                "cwd": cwd,
                "hook_event_name": "SessionStart",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "source": source,
            }),
            Client::Cursor => serde_json::json!({
                "conversation_id": "cairn-status-check",
                "generation_id": "cairn-status-check",
                "hook_event_name": "sessionStart",
                "workspace_roots": [cwd],
                "is_background_agent": false,
                "composer_mode": "agent",
            }),
        };
        v.to_string()
    }

    /// The event a client's prompt hook runs on, as its settings and envelope name it:
    /// `UserPromptSubmit` for Claude Code and Codex (both documented with `prompt` on
    /// stdin and `hookSpecificOutput.additionalContext` out), `BeforeAgent` for Gemini
    /// CLI (google-gemini/gemini-cli `docs/hooks/reference.md`: "`prompt`: the original
    /// text submitted by the user"; `hookSpecificOutput.additionalContext` "is appended
    /// to the prompt for this turn only"). `None` for Cursor, whose `beforeSubmitPrompt`
    /// output cannot add context.
    pub fn prompt_event(self) -> Option<&'static str> {
        match self {
            Client::Claude | Client::Codex => Some("UserPromptSubmit"),
            Client::Gemini => Some("BeforeAgent"),
            Client::Cursor => None,
        }
    }

    /// The prompt hook's stdout for `context`: one JSON object on one line, then a
    /// newline (`{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`).
    /// Empty for a client without a prompt hook.
    pub fn prompt_envelope(self, context: &str) -> String {
        let Some(event) = self.prompt_event() else {
            return String::new();
        };
        let mut s = serde_json::json!({
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": context,
            }
        })
        .to_string();
        s.push('\n');
        s
    }

    /// Checks a prompt hook's stdout: `Ok(None)` when it printed nothing (no note
    /// qualified), `Ok(Some(context))` for exactly one envelope of this client's
    /// prompt event.
    pub fn read_prompt_envelope(self, stdout: &str) -> Result<Option<String>, EnvelopeError> {
        let trimmed = stdout.trim();
        if trimmed.is_empty() {
            return Ok(None);
        }
        let shape = EnvelopeError::Shape {
            expected: r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit" (Gemini CLI: "BeforeAgent"),"additionalContext":"..."}}"#,
        };
        let value: Value = serde_json::from_str(trimmed).map_err(|e| EnvelopeError::NotJson {
            error: e.to_string(),
        })?;
        let specific = value
            .get("hookSpecificOutput")
            .and_then(Value::as_object)
            .ok_or(shape.clone())?;
        if self.prompt_event().is_none()
            || specific.get("hookEventName").and_then(Value::as_str) != self.prompt_event()
        {
            return Err(shape);
        }
        let context = specific
            .get("additionalContext")
            .and_then(Value::as_str)
            .ok_or(shape)?;
        Ok(Some(context.to_owned()))
    }

    /// A realistic prompt-hook payload as this client writes it (Cursor: its
    /// `beforeSubmitPrompt` shape, for the tests of a Claude-shaped hook run by Cursor).
    pub fn sample_prompt_payload(
        self,
        cwd: &std::path::Path,
        session_id: &str,
        prompt: &str,
    ) -> String {
        let cwd = cwd.display().to_string();
        let v = match self {
            Client::Claude => serde_json::json!({
                "session_id": session_id,
                "transcript_path": "/tmp/cairn-status-check.jsonl",
                "cwd": cwd,
                "permission_mode": "default",
                "hook_event_name": "UserPromptSubmit",
                "prompt": prompt,
            }),
            Client::Codex => serde_json::json!({
                "session_id": session_id,
                "transcript_path": null,
                "cwd": cwd,
                "hook_event_name": "UserPromptSubmit",
                "model": "gpt-5-codex",
                "permission_mode": "default",
                "turn_id": "turn-1",
                "prompt": prompt,
            }),
            Client::Gemini => serde_json::json!({
                "session_id": session_id,
                "transcript_path": "/tmp/cairn-status-check.json",
                "cwd": cwd,
                "hook_event_name": "BeforeAgent",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "prompt": prompt,
            }),
            Client::Cursor => serde_json::json!({
                "conversation_id": session_id,
                "generation_id": "cairn-status-check",
                "hook_event_name": "beforeSubmitPrompt",
                "workspace_roots": [cwd],
                "cursor_version": "1.7.0",
                "prompt": prompt,
            }),
        };
        v.to_string()
    }

    fn shape(self) -> &'static str {
        match self {
            Client::Claude | Client::Codex | Client::Gemini => {
                r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"..."}}"#
            }
            Client::Cursor => r#"{"additional_context":"..."}"#,
        }
    }
}

impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a hook's stdout would not reach the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvelopeError {
    /// Nothing on stdout.
    #[error("the hook printed nothing")]
    Empty,
    /// Not one JSON value.
    #[error("stdout is not one JSON object ({error})")]
    NotJson {
        /// The parser's message.
        error: String,
    },
    /// JSON, but not the client's shape.
    #[error("stdout is JSON but not the envelope the client reads: {expected}")]
    Shape {
        /// The expected shape.
        expected: &'static str,
    },
    /// Over the character or byte cap.
    #[error(
        "the context is {chars} characters ({bytes} bytes), over the cap of {} characters / {} bytes",
        limits.max_chars,
        limits.max_bytes
    )]
    TooLong {
        /// Characters.
        chars: usize,
        /// Bytes.
        bytes: usize,
        /// The caps.
        limits: ContextLimits,
    },
    /// Over the token cap.
    #[error("the context is about {tokens} tokens, over the cap of {max}")]
    TooManyTokens {
        /// Estimated tokens.
        tokens: usize,
        /// The cap.
        max: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_round_trip_through_their_own_reader() {
        let text = "line one\n\"quoted\" </cairn-memory> ünïcode";
        for c in Client::ALL {
            let out = c.envelope(text);
            assert!(
                out.ends_with('\n') && out.matches('\n').count() == 1,
                "{out}"
            );
            assert_eq!(c.read_envelope(&out).as_deref(), Ok(text), "{c}");
        }
    }

    #[test]
    fn the_message_for_the_user_goes_where_the_client_shows_it() {
        for c in Client::ALL {
            let out = c.envelope_with_message("ctx", Some("why"));
            assert_eq!(c.read_envelope(&out).as_deref(), Ok("ctx"), "{c}");
            let expected = c.shows_system_message().then(|| "why".to_owned());
            assert_eq!(c.read_system_message(&out), expected, "{c}");
            assert_eq!(c.envelope_with_message("ctx", None), c.envelope("ctx"));
        }
        assert!(!Client::Cursor.shows_system_message());
    }

    #[test]
    fn each_client_rejects_the_other_shape() {
        let claude = Client::Claude.envelope("x");
        let cursor = Client::Cursor.envelope("x");
        assert!(matches!(
            Client::Cursor.read_envelope(&claude),
            Err(EnvelopeError::Shape { .. })
        ));
        assert!(matches!(
            Client::Codex.read_envelope(&cursor),
            Err(EnvelopeError::Shape { .. })
        ));
        assert!(matches!(
            Client::Gemini.read_envelope(
                "{\"hookSpecificOutput\":{\"hookEventName\":\"Stop\",\"additionalContext\":\"x\"}}"
            ),
            Err(EnvelopeError::Shape { .. })
        ));
        assert!(matches!(
            Client::Claude.read_envelope("{\"hookSpecificOutput\""),
            Err(EnvelopeError::NotJson { .. })
        ));
        assert_eq!(
            Client::Claude.read_envelope("  \n"),
            Err(EnvelopeError::Empty)
        );
    }

    #[test]
    fn prompt_envelopes_name_each_clients_event() {
        for (c, event) in [
            (Client::Claude, "UserPromptSubmit"),
            (Client::Codex, "UserPromptSubmit"),
            (Client::Gemini, "BeforeAgent"),
        ] {
            let out = c.prompt_envelope("ctx \"q\"\nline");
            assert!(
                out.ends_with('\n') && out.matches('\n').count() == 1,
                "{out}"
            );
            let value: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(
                value,
                serde_json::json!({"hookSpecificOutput": {
                    "hookEventName": event,
                    "additionalContext": "ctx \"q\"\nline",
                }})
            );
            assert_eq!(
                c.read_prompt_envelope(&out),
                Ok(Some("ctx \"q\"\nline".to_owned()))
            );
            assert_eq!(c.read_prompt_envelope(""), Ok(None));
            // The session-start envelope is not the prompt hook's.
            assert!(c.read_prompt_envelope(&c.envelope("x")).is_err());
        }
        assert_eq!(Client::Cursor.prompt_envelope("x"), "");
    }

    #[test]
    fn caps_are_enforced_by_the_reader() {
        let long = "a ".repeat(4_600);
        assert!(matches!(
            Client::Claude.read_envelope(&Client::Claude.envelope(&long)),
            Err(EnvelopeError::TooLong { .. })
        ));
        let ok = "word ".repeat(1_700);
        assert!(
            Client::Claude
                .read_envelope(&Client::Claude.envelope(&ok))
                .is_ok()
        );
        // 9,600 bytes of short words: within Codex's bytes, over its token estimate.
        let tokens = "a, ".repeat(3_000);
        assert!(matches!(
            Client::Codex.read_envelope(&Client::Codex.envelope(&tokens)),
            Err(EnvelopeError::TooManyTokens { .. })
        ));
    }
}
