//! `cairn explain`: the routing trace and every candidate's score breakdown, as
//! text or JSON.

use anyhow::Result;
use cairn_engine::{Engine, Format};

use crate::args::{ExplainArgs, TextOrJson};
use crate::index_report;
use crate::output::{print_json, print_out};
use crate::source::{load_config, open_options};

/// Runs `cairn explain`.
pub(crate) fn run(a: ExplainArgs) -> Result<()> {
    let mut config = load_config(&a.source)?;
    a.packet.derive.apply(&mut config);
    let engine = Engine::open(config, &open_options(&a.source, None, false))?;
    index_report::report(&engine, &a.source);
    let req = a.packet.request(Format::Prompt)?;
    let ex = engine.explain_with_git(&req);
    index_report::report_late(&engine);
    let ex = ex?;
    match a.format {
        TextOrJson::Json => print_json(&ex)?,
        TextOrJson::Text => print_out(&ex.to_text())?,
    }
    Ok(())
}
