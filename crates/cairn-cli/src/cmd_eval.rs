//! `cairn eval`: run a retrieval suite through `cairn-eval` and print its metrics
//! as a table or as the `eval.v1` JSON report.

use std::fmt::Write as _;

use anyhow::Result;
use cairn_engine::Ranking;
use cairn_eval::{EvalReport, Metrics};

use crate::args::{EvalArgs, EvalFormat};
use crate::output::{print_json, print_out};

/// Runs the suite and prints the report.
pub fn run(a: &EvalArgs) -> Result<()> {
    let opts = a.options()?;
    let report = cairn_eval::run_eval(&a.suite, &opts)?;
    match a.format {
        EvalFormat::Json => print_json(&report)?,
        EvalFormat::Table => print_out(&table(&report))?,
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
