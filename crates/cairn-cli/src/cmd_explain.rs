//! `cairn explain`: the routing trace and every candidate's score breakdown, as
//! text or JSON.

use anyhow::Result;
use cairn_engine::Format;

use crate::args::{ExplainArgs, TextOrJson};
use crate::index_report;
use crate::output::{print_json, print_out};
use crate::source::open;

/// Runs `cairn explain`.
pub fn run(a: ExplainArgs) -> Result<()> {
    let engine = open(&a.source)?;
    let req = a.packet.request(Format::Prompt)?;
    let ex = engine.explain(&req);
    index_report::report_late(&engine);
    let ex = ex?;
    match a.format {
        TextOrJson::Json => print_json(&ex)?,
        TextOrJson::Text => print_out(&explain_text(&ex))?,
    }
    Ok(())
}

fn explain_text(ex: &cairn_engine::Explanation) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "Routing ({}):", ex.route_method);
    for r in &ex.route_reasons {
        let _ = writeln!(s, "  - {r}");
    }
    let _ = writeln!(s, "\nProfile: {}", ex.profile);
    for b in &ex.selection_basis {
        let _ = writeln!(s, "  - {b}");
    }
    let terms: Vec<String> = ex
        .query_terms
        .iter()
        .map(|(t, w)| format!("{t}×{w}"))
        .collect();
    let _ = writeln!(
        s,
        "\nQuery terms: {}",
        if terms.is_empty() {
            "(none)".into()
        } else {
            terms.join(" ")
        }
    );
    let _ = writeln!(
        s,
        "\nCandidates: {} in scope, {} listed, {} hidden by policy",
        ex.candidates_in_scope,
        ex.candidates.len(),
        ex.suppressed_by_policy
    );
    for c in &ex.candidates {
        let _ = writeln!(
            s,
            "\n{:>7.3}  {} [{}] {}: {}",
            c.score,
            c.title,
            c.memory_type.as_deref().unwrap_or("note"),
            c.decision,
            c.why
        );
        let _ = writeln!(
            s,
            "         {} ({}; bm25 {:.3}, relevance {:.2})",
            c.path, c.sensitivity, c.bm25, c.relevance
        );
        for f in &c.factors {
            let op = match f.op {
                cairn_engine::FactorOp::Base => "=",
                cairn_engine::FactorOp::Add => "+",
                cairn_engine::FactorOp::Multiply => "×",
            };
            let _ = writeln!(
                s,
                "           {op} {:<16} {:>6.3}  {}",
                f.name, f.value, f.detail
            );
        }
    }
    let _ = writeln!(
        s,
        "\nBudget: {} of {} tokens ({}); {} relevant notes left out",
        ex.budget.used_tokens, ex.budget.limit_tokens, ex.budget.format, ex.budget.left_out_count
    );
    if !ex.diagnostics.is_empty() {
        let _ = writeln!(s, "\nScan diagnostics ({}):", ex.diagnostics.len());
        for d in &ex.diagnostics {
            let _ = writeln!(s, "  {d}");
        }
    }
    s
}
