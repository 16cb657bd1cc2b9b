//! `cairn eval`: run a retrieval suite through the engine and print its metrics as
//! a table or as the `eval.v1` JSON report.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Result, bail};
use cairn_engine::{EvalOptions, EvalReport, Metrics, Ranking};
use clap::{Args, ValueEnum};

use crate::args::{RankingArg, UsageError, resolve_now};

/// `cairn eval` flags.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Suite folder: notes plus queries.jsonl (see `cairn eval --help`).
    #[arg(value_name = "SUITE")]
    pub suite: PathBuf,
    /// Cutoffs for hit@k, recall_all@k and recall@k.
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
    /// Pin "today" (RFC 3339) for recency; use it for reproducible figures.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// Folder of extra profiles and templates.
    #[arg(long, value_name = "DIR", hide_short_help = true)]
    pub profiles_dir: Option<PathBuf>,
}

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// A readable table.
    Table,
    /// The stable `eval.v1` report (docs/BENCHMARKS.md describes it).
    Json,
}

/// Long help: the suite format and the id rule.
pub const EVAL_AFTER_HELP: &str = "\
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

/// Runs the suite and prints the report.
pub fn run(a: &EvalArgs) -> Result<()> {
    if a.ks.contains(&0) {
        bail!(UsageError("--k values must be at least 1".into()));
    }
    if !a.suite.is_dir() {
        bail!(UsageError(format!(
            "suite {} is not a folder",
            a.suite.display()
        )));
    }
    let opts = EvalOptions {
        ks: a.ks.clone(),
        ranking: a.ranking.into(),
        config: a.config.clone(),
        home: std::env::var_os("HOME").map(PathBuf::from),
        today: resolve_now(a.now.as_deref())?.date_naive(),
        profiles_dir: a.profiles_dir.clone(),
    };
    let report = cairn_engine::run_eval(&a.suite, &opts)?;
    match a.format {
        EvalFormat::Json => crate::commands::print_json(&report)?,
        EvalFormat::Table => crate::commands::print_out(&table(&report))?,
    }
    if report.queries_skipped > 0 {
        eprintln!(
            "cairn: {} of {} queries skipped because of bad input (listed above)",
            report.queries_skipped, report.queries_total
        );
    }
    Ok(())
}

/// The report as a table: one row overall, one per question type.
pub fn table(r: &EvalReport) -> String {
    let mut s = String::new();
    let ranking = match r.ranking {
        Ranking::Full => "full",
        Ranking::Bm25 => "bm25",
    };
    let _ = writeln!(
        s,
        "suite {}: {} notes, {} of {} queries evaluated, ranking {ranking}, today {}",
        r.suite, r.notes, r.queries_evaluated, r.queries_total, r.today
    );
    if let Some(c) = &r.config {
        let _ = writeln!(s, "config {c}");
    }
    let width = r
        .by_type
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(0)
        .max("overall".len());
    let mut header = format!("\n{:<width$} {:>5}", "", "n");
    for prefix in ["hit", "all", "rec"] {
        for k in &r.ks {
            let _ = write!(header, " {:>7}", format!("{prefix}@{k}"));
        }
    }
    let _ = writeln!(header, " {:>7} {:>7}", "MRR", "nDCG@10");
    s.push_str(&header);
    let row = |s: &mut String, name: &str, m: &Metrics| {
        let _ = write!(s, "{name:<width$} {:>5}", m.queries);
        for map in [&m.hit, &m.recall_all, &m.recall] {
            for k in &r.ks {
                let _ = write!(s, " {:>7.3}", map.get(k).copied().unwrap_or(0.0));
            }
        }
        let _ = writeln!(s, " {:>7.3} {:>7.3}", m.mrr, m.ndcg_at_10);
    };
    row(&mut s, "overall", &r.overall);
    for (t, m) in &r.by_type {
        row(&mut s, t, m);
    }
    let _ = writeln!(
        s,
        "\nhit@k: an expected note in the top k; all@k: every expected note; rec@k: the share found."
    );
    let t = &r.timing;
    let _ = writeln!(
        s,
        "time: scan {:.0} ms, index {:.0} ms; per query p50 {:.2} ms, p95 {:.2} ms",
        t.scan_ms, t.index_ms, t.query_p50_ms, t.query_p95_ms
    );
    if !r.issues.is_empty() {
        let _ = writeln!(
            s,
            "\n{} issues ({} queries skipped):",
            r.issues.len(),
            r.queries_skipped
        );
        for i in &r.issues {
            let _ = writeln!(s, "  {i}");
        }
    }
    s
}
