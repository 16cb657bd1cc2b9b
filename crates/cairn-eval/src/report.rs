//! The `eval.v1` report: what a suite run measured, serialised as the stable JSON
//! that `cairn eval --format json` prints (docs/BENCHMARKS.md describes it).

use std::collections::BTreeMap;

use cairn_engine::Ranking;
use serde::Serialize;

use crate::metrics::Metrics;
use crate::packet::PacketReport;
use crate::suite::SuiteIssue;

/// Version tag of the JSON report.
pub const EVAL_REPORT_VERSION: &str = "eval.v1";

/// One query's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryOutcome {
    /// Query id.
    pub id: String,
    /// Category.
    pub question_type: Option<String>,
    /// 1-based rank of the first expected note, if in the top [`crate::EVAL_DEPTH`].
    pub first_relevant_rank: Option<usize>,
    /// nDCG@10.
    pub ndcg_at_10: f64,
    /// Expected notes not in the top 10.
    pub missed_at_10: Vec<String>,
    /// The top 5 note ids, best first.
    pub top: Vec<String>,
}

/// Time spent, in milliseconds. Wall-clock: these vary from run to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timing {
    /// Listing and parsing the notes.
    pub scan_ms: f64,
    /// Building the in-memory index.
    pub index_ms: f64,
    /// Median time to rank one query.
    pub query_p50_ms: f64,
    /// 95th percentile time to rank one query.
    pub query_p95_ms: f64,
    /// Mean time to rank one query.
    pub query_mean_ms: f64,
}

/// The report of one suite run.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    /// [`EVAL_REPORT_VERSION`].
    pub version: &'static str,
    /// The suite folder, as given.
    pub suite: String,
    /// The configuration used, if any.
    pub config: Option<String>,
    /// `full` or `bm25`.
    pub ranking: Ranking,
    /// "Today" for recency.
    pub today: String,
    /// The cutoffs.
    pub ks: Vec<usize>,
    /// Ranked notes looked at per query.
    pub depth: usize,
    /// Notes indexed.
    pub notes: usize,
    /// Query lines in the file (non-blank).
    pub queries_total: usize,
    /// Queries measured.
    pub queries_evaluated: usize,
    /// Queries skipped because of an issue.
    pub queries_skipped: usize,
    /// Everything wrong with the input, by line.
    pub issues: Vec<SuiteIssue>,
    /// Metrics over every measured query.
    pub overall: Metrics,
    /// Metrics per `question_type`.
    pub by_type: BTreeMap<String, Metrics>,
    /// Index build and query latency.
    pub timing: Timing,
    /// Per query, in file order.
    pub per_query: Vec<QueryOutcome>,
    /// Packet tasks (`"kind": "packet"`), measured on whole wake-up packets; absent
    /// when the suite has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packets: Option<PacketReport>,
}
