//! `cairn get`: one note by path, id, file name or title, under policy (secret
//! refused, confidential withheld, credentials redacted).

use anyhow::Result;

use crate::args::{GetArgs, TextOrJson};
use crate::output::{print_json, print_out};
use crate::source::open;

/// Runs `cairn get`.
pub(crate) fn run(a: GetArgs) -> Result<()> {
    let engine = open(&a.source)?;
    let mut g = engine.get(&a.note)?;
    if let Some((start, end)) = a.lines {
        g.keep_lines(start, end)?;
    }
    match a.format {
        TextOrJson::Json => print_json(&g)?,
        TextOrJson::Text if g.withheld => print_out(&format!(
            "{} ({})\n{}\n",
            g.title,
            g.path,
            cairn_engine::WITHHELD_NOTICE
        ))?,
        TextOrJson::Text => {
            let mut c = g.content.clone();
            if !c.ends_with('\n') {
                c.push('\n');
            }
            print_out(&c)?;
        }
    }
    if !g.entries.is_empty() && a.format == TextOrJson::Text {
        let whose = if g.entries.len() == 1 {
            "1 entry is a note of its own; name it".to_owned()
        } else {
            format!(
                "{} entries are notes of their own; name one",
                g.entries.len()
            )
        };
        eprintln!(
            "cairn: this is the intro of a log whose {whose}: {}",
            g.entries.join(", ")
        );
    }
    if g.redactions > 0 {
        eprintln!(
            "cairn: {} redacted",
            crate::output::count(g.redactions, "credential", "credentials")
        );
    }
    Ok(())
}
