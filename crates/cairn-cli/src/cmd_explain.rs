//! `cairn explain`: the routing trace and every candidate's score breakdown, as
//! text or JSON.

use anyhow::Result;
use cairn_engine::Format;

use crate::args::{ExplainArgs, TextOrJson};
use crate::index_report;
use crate::output::{print_json, print_out};
use crate::source::open;

/// Runs `cairn explain`.
pub(crate) fn run(a: ExplainArgs) -> Result<()> {
    let engine = open(&a.source)?;
    let req = a.packet.request(Format::Prompt)?;
    let ex = engine.explain(&req);
    index_report::report_late(&engine);
    let ex = ex?;
    match a.format {
        TextOrJson::Json => print_json(&ex)?,
        TextOrJson::Text => print_out(&ex.to_text())?,
    }
    Ok(())
}
