//! What each tool answers as structured content, and its `outputSchema`.
//!
//! Clients differ in what reaches the model: Codex, Claude Code and opencode give it
//! the structured content (as JSON) instead of the text when both are present. So
//! every answer's structured content carries the text itself (`text`, with its
//! framing: the briefing's block, the hit list) plus a few small machine-readable
//! fields the text does not hold in that form (paging, counts, a hash, the ids of
//! hits), never a second copy of what the text lists: a briefing already names
//! every note's path, and listing them again would cost a quarter more (1.23× the
//! text on the demo vault for the ids alone). The wake-up answer stays within 1.2×
//! the text's bytes (tested on the demo vault and every devmem task); the whole
//! wakeup.v1 packet or explanation comes only when asked (`format: "json"`).
//!
//! Every type here derives `JsonSchema`; `schema::<T>()` is the tool's
//! `outputSchema`, so a client can validate what it gets.

use std::sync::Arc;

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Serialize;

/// The `outputSchema` of a tool whose structured content is a `T`.
pub(crate) fn schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    rmcp::handler::server::tool::schema_for_output::<T>()
}

/// `memory_wakeup`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct WakeupOut {
    /// The briefing, exactly as the text content (its framing included; every note
    /// named with its path).
    pub text: String,
    /// The project the session was routed to, if any.
    pub project_id: Option<String>,
    /// How many notes the briefing shows.
    pub note_count: usize,
    /// The packet's content hash: the same briefing has the same hash.
    pub content_hash: String,
    /// The whole wakeup.v1 packet (every note's id, section, reasons and score): only
    /// when asked for with `format: "json"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet: Option<serde_json::Value>,
}

/// `memory_search`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct SearchOut {
    /// The hits as a numbered list (title, type, path, score, best sentences).
    pub text: String,
    /// The ids of this page's hits, best first (`memory_get` and `cairn://note/<id>`
    /// take them).
    pub ids: Vec<String>,
    /// How many hits were skipped before this page.
    pub offset: usize,
    /// Whether more hits follow this page.
    pub more: bool,
    /// The `offset` of the next page, when there is one.
    pub next_offset: Option<usize>,
    /// Matching notes hidden by policy.
    pub suppressed: usize,
}

/// `memory_get`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct GetOut {
    /// The note's text (the asked lines), credentials redacted; for a confidential
    /// note, its title and a notice that its content is withheld.
    pub text: String,
    /// The note's id.
    pub id: String,
    /// Its vault-relative path.
    pub path: String,
    /// Its title.
    pub title: String,
    /// Its memory type, if it has one.
    pub memory_type: Option<String>,
    /// `active`, `superseded` or `archived`.
    pub status: String,
    /// The content is withheld (a confidential note).
    pub withheld: bool,
    /// Credentials redacted in the text.
    pub redactions: usize,
    /// The first line the text holds (1-based).
    pub start_line: usize,
    /// How many lines the whole note has.
    pub total_lines: usize,
    /// For a decision or lesson log's intro: the paths of the file's entries,
    /// notes of their own to get by path (secret ones left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<String>,
}

/// An explained candidate.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct CandidateRef {
    /// Its vault-relative path.
    pub path: String,
    /// `included` or `left out`.
    pub decision: String,
}

/// `memory_explain`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ExplainOut {
    /// The explanation, as `cairn explain` prints it.
    pub text: String,
    /// How the project was routed.
    pub route_method: String,
    /// The routed project, if any.
    pub project_id: Option<String>,
    /// The candidates listed, best first.
    pub candidates: Vec<CandidateRef>,
    /// The whole explanation (every factor): only when asked for with `format: "json"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<serde_json::Value>,
}

/// `memory_list` and `memory_recent`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ListOut {
    /// The notes, one a line (title, type, path; the date for `memory_recent`).
    pub text: String,
    /// The routed project, if any.
    pub project_id: Option<String>,
    /// How many notes this page lists.
    pub count: usize,
    /// How many notes qualify, before paging.
    pub total: usize,
    /// Secret or confidential notes in scope, not listed.
    pub hidden: usize,
    /// How many notes were skipped before this page.
    pub offset: usize,
    /// The `offset` of the next page, when there is one.
    pub next_offset: Option<usize>,
}

/// A change a write made.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ChangeRef {
    /// `created`, `updated`, `pinned`, ...
    pub action: String,
    /// The vault-relative path.
    pub path: String,
    /// The note's content hash after the change (`expect_hash` for the next write).
    pub hash_after: Option<String>,
}

/// `memory_write` and `memory_pin`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct WriteOut {
    /// What changed, one a line (with the diff on a dry run), and any warning.
    pub text: String,
    /// The scope written to.
    pub scope: String,
    /// Its vault-relative folder.
    pub folder: String,
    /// Nothing was written.
    pub dry_run: bool,
    /// The notes changed, in order.
    pub changes: Vec<ChangeRef>,
}
