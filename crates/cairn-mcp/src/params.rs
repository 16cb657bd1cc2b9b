//! Tool inputs. Flat objects of strings, numbers, booleans and string lists; every
//! optional field is nullable (`Option`), so models that send `null` for "not given"
//! and models that omit the key are both understood. Field docs become the schema's
//! descriptions. An argument name a tool does not know is refused (`-32602`, naming
//! the key), never ignored: a misspelt `dry_run` must not write.

use rmcp::ErrorData;
use rmcp::model::{JsonObject, Tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// Refuses a call whose arguments name a key `tool`'s input schema does not list:
/// `-32602` (invalid params) naming the keys. Checked before rmcp deserialises the
/// arguments, because rmcp reports its own deserialisation errors as tool results.
pub fn check_argument_names(tool: &Tool, arguments: Option<&JsonObject>) -> Result<(), ErrorData> {
    let known = tool
        .input_schema
        .get("properties")
        .and_then(|p| p.as_object());
    let unknown: Vec<&str> = arguments
        .into_iter()
        .flat_map(|a| a.keys())
        .filter(|k| !known.is_some_and(|p| p.contains_key(k.as_str())))
        .map(String::as_str)
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let mut names: Vec<&str> = known
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    names.sort_unstable();
    let quoted = |v: &[String]| {
        v.iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The caller's key names are untrusted text, echoed redacted like any other.
    let unknown: Vec<String> = unknown
        .iter()
        .map(|k| crate::server::safe_line(k))
        .collect();
    let names: Vec<String> = names.iter().map(|k| (*k).to_owned()).collect();
    Err(ErrorData::invalid_params(
        format!(
            "unknown argument {} for {}; its arguments are {}",
            quoted(&unknown),
            tool.name,
            quoted(&names)
        ),
        Some(serde_json::json!({ "unknown_arguments": unknown })),
    ))
}

/// `memory_wakeup`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WakeupParams {
    /// Working directory of the session (routes to the project). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// What the session is about to do, in words. Default: empty (the task is then
    /// derived from the git working tree of cwd when it belongs to the routed
    /// project; else pins, priority and recency decide).
    #[serde(default)]
    pub task: Option<String>,
    /// Files about to be touched, relative to cwd or absolute.
    #[serde(default)]
    pub files: Option<Vec<String>>,
    /// Packet profile: "project" (default when a project matches) or "developer", or a custom one.
    #[serde(default)]
    pub profile: Option<String>,
    /// Client to shape the text for: claude, codex, cursor, gemini, opencode or generic (default).
    #[serde(default)]
    pub target: Option<String>,
    /// Token budget of the text (default: the profile's, 1500).
    #[serde(default)]
    pub budget: Option<u32>,
    /// "prompt" (compact briefing, default), "markdown" (readable handoff), or "json":
    /// the prompt briefing, plus the whole wakeup.v1 packet in the structured content
    /// (large: ask only when a program needs every field).
    #[serde(default)]
    pub format: Option<String>,
    /// Why the briefing is asked for: "startup" (default), "resume", "compact" or
    /// "clear". On resume and compact the project's latest session note is shown
    /// whatever its age.
    #[serde(default)]
    pub source: Option<String>,
}

/// `memory_search`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// Words to look for.
    pub query: String,
    /// Working directory (routes to the project whose notes are searched). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Search this project's notes (and the developer's) instead of routing by cwd.
    #[serde(default)]
    pub project: Option<String>,
    /// Keep only these memory types (project, decision, preference, constraint, pattern, incident, person, workflow, session, reference).
    #[serde(default)]
    pub types: Option<Vec<String>>,
    /// Keep only notes with at least one of these tags.
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    /// Results per page (default 10, at most 50).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Skip this many results first (paging: the answer gives the next page's offset).
    #[serde(default)]
    pub offset: Option<u32>,
    /// Search the whole vault instead of the routed project's and the developer's notes.
    #[serde(default)]
    pub all: Option<bool>,
}

/// `memory_get`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetParams {
    /// The note: a vault-relative path, an id (path without .md), a file name or a title.
    pub id: String,
    /// First line to return (1-based, inclusive). Default: 1.
    #[serde(default)]
    pub start_line: Option<u32>,
    /// Last line to return (inclusive). Default: the end of the note.
    #[serde(default)]
    pub end_line: Option<u32>,
}

/// `memory_explain`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainParams {
    /// Working directory (routes to the project). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// The task in words.
    #[serde(default)]
    pub task: Option<String>,
    /// Files about to be touched.
    #[serde(default)]
    pub files: Option<Vec<String>>,
    /// Packet profile (default: project when a project matches, else developer).
    #[serde(default)]
    pub profile: Option<String>,
    /// "text" (default) or "json": the whole explanation, every factor, in the
    /// structured content too.
    #[serde(default)]
    pub format: Option<String>,
}

/// `memory_list`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Which notes: "project" (the routed project's note roots), "developer" (the developer-wide roots), or "both" (default).
    #[serde(default)]
    pub scope: Option<String>,
    /// Working directory (routes to the project). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Use this project instead of routing by cwd.
    #[serde(default)]
    pub project: Option<String>,
    /// Keep only this memory type.
    #[serde(default)]
    pub memory_type: Option<String>,
    /// Maximum notes (default 100, at most 500).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Skip this many notes first (paging).
    #[serde(default)]
    pub offset: Option<u32>,
}

/// `memory_recent`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecentParams {
    /// Which notes: "project" (the routed project's note roots), "developer" (the developer-wide roots), or "both" (default).
    #[serde(default)]
    pub scope: Option<String>,
    /// Working directory (routes to the project). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Use this project instead of routing by cwd.
    #[serde(default)]
    pub project: Option<String>,
    /// Only notes dated in the last this many days.
    #[serde(default)]
    pub days: Option<u32>,
    /// Maximum notes (default 10, at most 100).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Skip this many notes first (paging).
    #[serde(default)]
    pub offset: Option<u32>,
}

/// `memory_write`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteParams {
    /// The note's name in its scope, e.g. `retry-policy` (letters, digits, `-`, `_`, `.`).
    pub slug: String,
    /// The note's markdown body (no frontmatter: cairn writes it).
    pub body: String,
    /// `create` (default: refuse if the note exists), `append` (add a dated section) or
    /// `replace` (replace the body, keep other frontmatter).
    #[serde(default)]
    pub mode: Option<String>,
    /// `global`, `user`, `project/<id>` or `persona/<name>`. Default: the project the
    /// working directory routes to, else `user`.
    #[serde(default)]
    pub scope: Option<String>,
    /// Working directory (picks the default scope). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Title. Default: from the slug.
    #[serde(default)]
    pub title: Option<String>,
    /// One-line description (shown in MEMORY.md and in packets).
    #[serde(default)]
    pub description: Option<String>,
    /// Memory type: decision, constraint, preference, pattern, incident, workflow, ...
    #[serde(default)]
    pub memory_type: Option<String>,
    /// public, internal (default), confidential or secret.
    #[serde(default)]
    pub sensitivity: Option<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    /// Write only if the note's current content hash is this (from `memory_get` or a
    /// previous write): a compare-and-swap that never overwrites someone else's edit.
    #[serde(default)]
    pub expect_hash: Option<String>,
    /// Show the diff and write nothing.
    #[serde(default)]
    pub dry_run: Option<bool>,
}

/// `memory_pin`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PinParams {
    /// The note's name in its scope.
    pub slug: String,
    /// `true` (default) to pin, `false` to unpin.
    #[serde(default)]
    pub pinned: Option<bool>,
    /// The note's scope (see `memory_write`). Default: the routed project, else `user`.
    #[serde(default)]
    pub scope: Option<String>,
    /// Working directory (picks the default scope). Default: the server's directory.
    #[serde(default)]
    pub cwd: Option<String>,
}
