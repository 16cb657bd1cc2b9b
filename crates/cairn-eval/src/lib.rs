//! `cairn eval`'s harness: measure how well the ranking finds the expected notes of
//! a suite.
//!
//! A suite is a folder holding notes and `queries.jsonl`, one JSON object a line:
//! `{"id", "query", "expected": [note ids], "grades"?: {note id: grade},
//! "vault"?: "subfolder", "cwd"?, "files"?, "question_type"?}`.
//!
//! Which notes are searched, and what a note id is relative to:
//! - With a configuration (`--config F`, else a `cairn.toml` in the suite folder) the
//!   base is the configured vault root; queries are routed from their `cwd` (relative
//!   to the suite folder) and `files`, exactly like `cairn search` from that folder:
//!   the routed project's and the developer's note roots (the developer's alone
//!   without a `cwd`).
//! - Without one, the base is the suite's `notes/` folder when it exists, else the
//!   suite folder itself, searched as one unscoped vault.
//! - `vault` narrows a query to that subfolder of the base (its own haystack).
//!
//! A note id is the note's path relative to the searched root (the `vault`
//! subfolder when given, else the base), without `.md`.
//!
//! Every query goes through the same ranking as `search` (`Engine::ranked_ids`,
//! policy included: secret notes never count as found); this crate uses the
//! engine's public API only. Bad input (a line that is not JSON, a missing field,
//! an id that names no note, a `cwd` or `vault` that does not exist) is reported
//! with its file and line and the query skipped; the rest of the suite still runs.
//!
//! Lines with `"kind": "packet"` are packet tasks instead: `{"id", "kind": "packet",
//! "cwd", "task", "files"?, "source"?, "expected", "sections"?, "must_not"?, "now"?,
//! "question_type"?, "note"?}`, each run through `Engine::wakeup` and scored on the
//! whole packet (`packet.rs` has the definitions). Lines without `kind`, or with
//! `"kind": "search"`, are retrieval queries.
//!
//! `suite.rs` reads `queries.jsonl`, `run.rs` runs the queries, `metrics.rs`
//! measures them, `packet.rs` runs and measures the packet tasks, `report.rs` is
//! the `eval.v1` report.

mod metrics;
mod packet;
mod report;
mod run;
mod suite;

use std::path::PathBuf;

use cairn_engine::EngineError;
use cairn_engine::config::ConfigError;

pub use metrics::{EVAL_DEPTH, Metrics, NDCG_CUTOFF};
pub use packet::{PacketMetrics, PacketOutcome, PacketReport};
pub use report::{EVAL_REPORT_VERSION, EvalReport, QueryOutcome, Timing};
pub use run::{EvalOptions, run_eval};
pub use suite::{
    PACKET_SECTIONS, PacketTask, QUERIES_FILE, SuiteIssue, SuiteQueries, SuiteQuery, parse_queries,
};

/// Why a suite could not be run at all (a bad query is a [`SuiteIssue`], not this).
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// Reading the queries file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The suite's configuration is invalid (usage error).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The engine failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl EvalError {
    /// Whether this is the user's input or configuration (exit code 2) rather than a failure.
    pub fn is_usage(&self) -> bool {
        match self {
            EvalError::Io { .. } => false,
            EvalError::Config(_) => true,
            EvalError::Engine(e) => e.is_usage(),
        }
    }
}
