//! The text form of an [`Explanation`]: the one formatter behind `cairn explain`
//! and MCP's `memory_explain`, so a person and an agent read the same story.
//! Text that comes from notes (titles, paths, reasons, factor details,
//! diagnostics) is flattened to one line: note text cannot start a line of its own.

use std::fmt::Write as _;

use cairn_policy::one_line;
use cairn_score::Op;

use crate::Explanation;

impl Explanation {
    /// Routing, profile, query terms, every listed candidate with its score
    /// breakdown and decision, the budget line and the scan diagnostics.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "Routing ({}):", self.route_method);
        for r in &self.route_reasons {
            let _ = writeln!(s, "  - {}", one_line(r));
        }
        if !self.git.is_empty() {
            let _ = writeln!(s, "\nGit:");
            for g in &self.git {
                let _ = writeln!(s, "  - {}", one_line(g));
            }
        }
        let _ = writeln!(s, "\nProfile: {}", self.profile);
        for b in &self.selection_basis {
            let _ = writeln!(s, "  - {}", one_line(b));
        }
        let terms: Vec<String> = self
            .query_terms
            .iter()
            .map(|(t, w)| format!("{t}×{}", short_number(f64::from(*w))))
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
            "\nCandidates: {} in scope, {} listed, {} hidden by policy{}",
            self.candidates_in_scope,
            self.candidates.len(),
            self.suppressed_by_policy,
            if self.suppressed_by_policy > 0 {
                format!(
                    " (the packet counts {} of them: those pinned or past the relevance \
                     gate; no word of a secret note is indexed)",
                    self.suppressed_relevant
                )
            } else {
                String::new()
            }
        );
        for c in &self.candidates {
            let _ = writeln!(
                s,
                "\n{:>7.3}  {} [{}] {}: {}",
                c.score,
                one_line(&c.title),
                c.memory_type.as_deref().unwrap_or("note"),
                c.decision,
                one_line(&c.why)
            );
            let _ = writeln!(
                s,
                "         {} ({}; bm25 {:.3}, relevance {:.2})",
                one_line(&c.path),
                c.sensitivity,
                c.bm25,
                c.relevance
            );
            for f in &c.factors {
                let op = match f.op {
                    Op::Base => "=",
                    Op::Add => "+",
                    Op::Multiply => "×",
                };
                let _ = writeln!(
                    s,
                    "           {op} {:<16} {:>6.3}  {}",
                    f.name,
                    f.value,
                    one_line(&f.detail.to_string())
                );
            }
        }
        let _ = writeln!(
            s,
            "\nBudget: {} of {} tokens ({}); {} left out",
            self.budget.used_tokens,
            self.budget.limit_tokens,
            self.budget.format,
            crate::git_task::plural(self.budget.left_out_count, "relevant note")
        );
        if !self.diagnostics.is_empty() {
            let _ = writeln!(s, "\nScan diagnostics ({}):", self.diagnostics.len());
            for d in &self.diagnostics {
                let _ = writeln!(s, "  {}", one_line(&d.to_string()));
            }
        }
        if self.diagnostics_withheld > 0 {
            let _ = writeln!(
                s,
                "\n{} about secret notes (or notes whose sensitivity is in doubt), not named here: `cairn lint` lists them",
                crate::git_task::plural(self.diagnostics_withheld, "scan diagnostic")
            );
        }
        s
    }
}

/// A weight with at most three decimals, without trailing zeros: `2.9`, not the
/// float sum's `2.8999999`.
fn short_number(w: f64) -> String {
    let s = format!("{w:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}
