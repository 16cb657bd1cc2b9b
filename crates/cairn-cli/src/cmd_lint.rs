//! `cairn lint`: the vault's health report, as text or JSON, exit 1 on errors.

use std::process::ExitCode;

use anyhow::Result;
use cairn_lint::{LintOptions, Report};

use crate::args::{LintArgs, TextOrJson};
use crate::output::{count, print_json, print_out};
use crate::request::resolve_now;
use crate::source::open;

/// Runs `cairn lint`.
pub(crate) fn run(a: LintArgs) -> Result<ExitCode> {
    let engine = open(&a.source)?;
    let today = resolve_now(a.now.as_deref())?.date_naive();
    let opts = LintOptions {
        cwd: std::env::current_dir().ok(),
        ..LintOptions::new(today)
    };
    let report = cairn_lint::lint(&engine, &opts);
    crate::index_report::report_late(&engine);
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
        "{}, {}, {} in {} checked\n",
        count(sum.errors, "error", "errors"),
        count(sum.warnings, "warning", "warnings"),
        count(sum.notes, "note", "notes"),
        count(sum.files, "file", "files")
    ));
    s
}
