//! `cairn eval`: run a retrieval suite through `cairn-eval` and print its metrics
//! as a table or as the `eval.v1` JSON report.

use std::fmt::Write as _;

use anyhow::Result;
use cairn_engine::Ranking;
use cairn_eval::{EvalReport, Metrics, PacketMetrics, PacketReport};

use crate::args::{EvalArgs, EvalFormat};
use crate::output::{print_json, print_out};

/// Runs the suite and prints the report.
pub(crate) fn run(a: &EvalArgs) -> Result<()> {
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
    if let Some(p) = report.packets.as_ref().filter(|p| p.tasks_skipped > 0) {
        eprintln!(
            "cairn: {} of {} packet tasks skipped because of bad input (listed above)",
            p.tasks_skipped, p.tasks_total
        );
    }
    Ok(())
}

/// The report as a table: one row overall, one per question type.
pub(crate) fn table(r: &EvalReport) -> String {
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
    if let Some(p) = &r.packets {
        s.push_str(&packet_table(p));
    }
    let t = &r.timing;
    let _ = writeln!(
        s,
        "time: scan {:.0} ms, index {:.0} ms; per query p50 {:.2} ms, p95 {:.2} ms",
        t.scan_ms, t.index_ms, t.query_p50_ms, t.query_p95_ms
    );
    if !r.issues.is_empty() {
        let _ = writeln!(
            s,
            "\n{} issues ({} queries and tasks skipped):",
            r.issues.len(),
            r.queries_skipped + r.packets.as_ref().map_or(0, |p| p.tasks_skipped)
        );
        for i in &r.issues {
            let _ = writeln!(s, "  {i}");
        }
    }
    s
}

/// The packet tasks as a table: one row overall, one per question type.
fn packet_table(p: &PacketReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\npacket tasks: {} of {} evaluated ({} {} packets at the profile's budget)",
        p.tasks_evaluated, p.tasks_total, p.target, p.format
    );
    let width = p
        .by_type
        .keys()
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(0)
        .max("overall".len());
    let _ = writeln!(
        s,
        "{:<width$} {:>5} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6}",
        "",
        "n",
        "recall",
        "prec",
        "mn-hits",
        "mn-task",
        "pinned",
        "session",
        "sect-R",
        "notes",
        "task"
    );
    let opt = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"));
    let row = |s: &mut String, name: &str, m: &PacketMetrics| {
        let _ = writeln!(
            s,
            "{name:<width$} {:>5} {:>7.3} {:>7.3} {:>7} {:>7} {:>7.3} {:>7} {:>7} {:>6.1} {:>6.1}",
            m.tasks,
            m.recall,
            m.precision,
            m.must_not_hits,
            m.must_not_tasks,
            m.pinned_present,
            opt(m.session_present),
            opt(m.section_recall),
            m.mean_notes,
            m.mean_task_notes
        );
    };
    row(&mut s, "overall", &p.overall);
    for (t, m) in &p.by_type {
        row(&mut s, t, m);
    }
    if !p.overall.by_section.is_empty() {
        let secs: Vec<String> = p
            .overall
            .by_section
            .iter()
            .map(|(k, v)| format!("{k} {v:.3}"))
            .collect();
        let _ = writeln!(s, "section recall: {}", secs.join(", "));
    }
    let _ = writeln!(
        s,
        "recall/prec: expected notes shown over expected / over shown; mn: must-not notes shown \
         (hits, tasks); pinned: every pinned note in scope shown; session: every expected \
         session note shown; sect-R: expected notes in their section; notes, task: mean notes \
         per packet, of them in the task layer."
    );
    s
}
