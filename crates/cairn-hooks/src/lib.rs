//! Into the agents: session-start and prompt hooks for Claude Code, Codex, Gemini CLI and Cursor,
//! and wiring them (and the MCP server) into each client's own settings files.
//!
//! - [`Client`]: each client's envelope, caps and sample payload ([`client`]).
//! - [`HookInput`]: the client's stdin, read leniently ([`input`]).
//! - [`session_start`]: the packet for the session's directory, fitted by the engine
//!   to the client's caps ([`ContextLimits::caps`]), within a deadline, errors turned
//!   into a notice ([`session`]): one neutral line for the model, the reason for the user.
//! - [`prompt_hook`]: the notes that match one prompt and that the session was not
//!   given yet, or nothing ([`prompt`]); what each session was given is kept in
//!   [`SessionRecords`] ([`record`]: note ids and times, never prompt text).
//! - [`install`]: plan, diff, apply and inspect settings-file edits, and run a
//!   configured hook to check it ([`install::probe`]).
//!
//! This crate returns values; the CLI prints them.

pub mod client;
#[cfg(feature = "fault-injection")]
pub mod fault;
pub mod input;
pub mod install;
pub mod prompt;
pub mod record;
pub mod session;

pub use client::{Client, ContextLimits, EnvelopeError};
pub use input::{HookInput, StartReason};
pub use prompt::{
    DEFAULT_MAX_CHARS, DEFAULT_MAX_NOTES, PROMPT_DEADLINE_MS, PromptHook, PromptOutcome,
    prompt_hook,
};
pub use record::{RECORD_TTL, RecordError, SessionRecords};
pub use session::{
    BuildPath, DEFAULT_DEADLINE_MS, EngineOpener, EngineSources, HookOutcome, NOTICE_LINE,
    NOTICE_PREFIX, OpenError, OpenSettingsLoader, QUICK_MAX_FILES, SessionStart, notice,
    notice_for, pinned_now, read_input, session_start,
};
