//! `cairn search`: ranked notes with snippets, as text or JSON; what policy hid
//! and where the search looked go to stderr.

use anyhow::Result;

use crate::args::{SearchArgs, TextOrJson};
use crate::index_report;
use crate::output::{print_json, print_out};
use crate::source::open;

/// Runs `cairn search`.
pub(crate) fn run(a: SearchArgs) -> Result<()> {
    let engine = open(&a.source)?;
    let has_config = engine.config().source.is_some();
    let req = a.request(has_config)?;
    let res = engine.search(&req);
    index_report::report_late(&engine);
    let res = res?;
    match a.format {
        TextOrJson::Json => print_json(&res.hits)?,
        TextOrJson::Text => {
            let mut s = String::new();
            if res.hits.is_empty() {
                s.push_str("no matching notes\n");
            }
            for h in &res.hits {
                let kind = h.memory_type.as_deref().unwrap_or("note");
                let status = if h.status == cairn_engine::Status::Active {
                    String::new()
                } else {
                    format!(" [{}]", h.status)
                };
                s.push_str(&format!(
                    "{:>7.3}  {}  ({kind}){status}\n         {}\n         {}\n",
                    h.score, h.title, h.path, h.snippet
                ));
            }
            print_out(&s)?;
        }
    }
    if res.suppressed > 0 {
        eprintln!(
            "cairn: {} hidden by policy (secret or confidential)",
            crate::output::count(res.suppressed, "matching note", "matching notes")
        );
    }
    // Roots that already cover the whole vault need no hint to search it.
    if !a.all && has_config && !res.roots.iter().any(String::is_empty) {
        eprintln!(
            "cairn: searched {}; use --all for the whole vault",
            roots_text(&res.roots)
        );
    }
    Ok(())
}

fn roots_text(roots: &[String]) -> String {
    if roots.iter().any(std::string::String::is_empty) {
        return "the whole vault".into();
    }
    roots.join(", ")
}
