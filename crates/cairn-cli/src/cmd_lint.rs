//! `cairn lint`: the vault's health report, as text or JSON, exit 1 on errors.

use std::process::ExitCode;

use anyhow::Result;
use cairn_lint::{LintOptions, Report};
use clap::Args;

use crate::args::{Source, TextOrJson, resolve_now};
use crate::commands::{open, print_json, print_out};

const LINT_HELP: &str = "\
Reports, with file and line: unreadable frontmatter and unknown values, broken
[[wikilinks]] and related_memory/supersedes references, superseded notes with no
successor, decisions that contradict a newer one on the same subject, notes past
review_after, near-duplicate notes (with how alike they are), MEMORY.md indexes
out of date or over budget, credentials in notes that are not secret (never the
value), and pinned notes that overflow the packet budget.

Exit codes: 0 no errors (warnings allowed unless --deny-warnings), 1 errors found,
2 usage or configuration error. Run it in the vault's CI.";

#[derive(Debug, Args)]
#[command(after_help = LINT_HELP)]
pub struct LintArgs {
    #[command(flatten)]
    pub source: Source,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Pin "today" (RFC 3339) for review dates.
    #[arg(long, value_name = "RFC3339", hide_short_help = true)]
    pub now: Option<String>,
}

pub fn run(a: LintArgs) -> Result<ExitCode> {
    let engine = open(&a.source)?;
    let today = resolve_now(a.now.as_deref())?.date_naive();
    let report = cairn_lint::lint(&engine, &LintOptions::new(today));
    crate::cmd_index::report_late(&engine);
    match a.format {
        TextOrJson::Json => print_json(&report)?,
        TextOrJson::Text => print_out(&text(&report))?,
    }
    let failed = report.has_errors() || (a.deny_warnings && report.summary.warnings > 0);
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    for f in &r.findings {
        let at = match f.line {
            Some(l) if !f.path.is_empty() => format!("{}:{l}", f.path),
            _ if f.path.is_empty() => "(vault)".to_owned(),
            _ => f.path.clone(),
        };
        s.push_str(&format!(
            "{}: {at}: {} [{}]\n",
            f.severity.as_str(),
            f.message,
            f.code
        ));
    }
    let sum = &r.summary;
    s.push_str(&format!(
        "{} errors, {} warnings, {} notes in {} files checked\n",
        sum.errors, sum.warnings, sum.notes, sum.files
    ));
    s
}
