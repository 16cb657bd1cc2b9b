//! `cairn eval` flags and its long help (the suite format and the id rule).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::RankingArg;

/// `cairn eval` flags.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// Suite folder: notes plus queries.jsonl (see `cairn eval --help`).
    #[arg(value_name = "SUITE")]
    pub suite: PathBuf,
    /// Cutoffs for hit@k, `recall_all@k` and recall@k.
    #[arg(
        long = "k",
        value_name = "K,K",
        value_delimiter = ',',
        default_value = "1,5,10"
    )]
    pub ks: Vec<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: EvalFormat,
    /// Configuration to route queries with (default: SUITE/cairn.toml when it exists).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Ranking: full (default) or plain bm25, to see what the boosts add.
    #[arg(long, value_enum, default_value = "full")]
    pub ranking: RankingArg,
    /// Pin "today" (RFC 3339) for recency; use it for reproducible figures (file
    /// times are never read: notes are dated by their front matter).
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// Folder of extra profiles and templates.
    #[arg(long, value_name = "DIR", hide_short_help = true)]
    pub profiles_dir: Option<PathBuf>,
}

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum EvalFormat {
    /// A readable table.
    Table,
    /// The stable `eval.v1` report (docs/BENCHMARKS.md describes it).
    Json,
}

/// Long help: the suite format and the id rule.
pub(super) const EVAL_AFTER_HELP: &str = "\
A suite is a folder of markdown notes plus queries.jsonl, one JSON object a line:
  {\"id\", \"query\", \"expected\": [note ids], \"grades\"?: {id: grade},
   \"vault\"?: \"subfolder\", \"cwd\"?, \"files\"?, \"question_type\"?}

Which notes are searched:
  - with --config FILE, or a cairn.toml in SUITE: that vault, each query routed from
    its cwd (relative to SUITE) and files, like `cairn search`;
  - otherwise SUITE/notes when it exists, else SUITE, as one vault;
  - \"vault\" narrows a query to that subfolder.
A note id is the note's path relative to the searched root (the vault subfolder when
given), without .md. Bad lines and unknown ids are reported with file:line and skipped.

Metrics, overall and per question_type: hit@k, recall_all@k, recall@k, MRR (first
relevant note in the top 100), nDCG@10 (graded when grades are given), query latency
p50/p95, scan and index time.

Examples:
  cairn eval fixtures/devmem --now 2026-11-22T09:00:00Z
  cairn eval ../bench/scifact --ranking bm25 --format json";
