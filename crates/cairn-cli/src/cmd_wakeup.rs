//! `cairn wakeup`: the packet for a session, within a deadline when asked, then
//! what the index and the scan have to say on stderr.

use anyhow::Result;
use std::time::{Duration, Instant};

use cairn_engine::{Engine, OpenDeadline};

use crate::args::WakeupArgs;
use crate::index_report;
use crate::output::{count, print_out};
use crate::source::{load_config, open_options};

/// Runs `cairn wakeup`.
pub(crate) fn run(a: WakeupArgs) -> Result<()> {
    let deadline = a
        .deadline_ms
        .map(|ms| OpenDeadline::for_command(Instant::now(), Duration::from_millis(ms)));
    let req = a.packet.request(a.format.into())?;
    let mut config = load_config(&a.source)?;
    a.packet.derive.apply(&mut config);
    let opts = open_options(&a.source, None, false);
    let engine = Engine::open_for_wakeup(config, &opts, &req, deadline)?;
    let t = std::time::Instant::now();
    let out = engine.wakeup_with_git(&req)?;
    print_out(&out.rendered)?;
    index_report::print_timings(&engine.timings(t, &out.timings));
    index_report::report(&engine, &a.source);
    index_report::report_late(&engine);
    if let Some(unread) = &out.history_unread {
        eprintln!(
            "cairn: the git history of {} is not read for its `HEAD`: `cairn index` run \
             there reads it, then {}",
            crate::index_report::shown_path(&unread.repo),
            unread.gives()
        );
    }
    warn_diagnostics(&engine, a.verbose);
    // The process ends here: freeing thousands of decoded notes one by one
    // would only delay the hook that waits for it.
    std::mem::forget(engine);
    Ok(())
}

/// The scan's code for a configured note root that is not a folder.
const MISSING_ROOT: &str = "missing-root";

/// One line per note root that is not a folder, then one summary line for the
/// scan's other warnings, or (`--verbose`) one line each.
/// Those about secret notes (or notes whose sensitivity is in doubt) are
/// counted, never listed here: `cairn lint` lists them.
fn warn_diagnostics(engine: &Engine, verbose: bool) {
    let warning = cairn_engine::Severity::Warning;
    let withheld = engine.withheld_diagnostics(warning);
    // A note root that is not a folder is the configuration's mistake, not a
    // note's: always said, one line each (a project read from it has no notes).
    for root in engine.missing_note_roots() {
        eprintln!(
            "cairn: note root `{root}` (cairn.toml) is not a folder of the vault; nothing is read from it"
        );
    }
    if verbose {
        for d in engine
            .shown_diagnostics()
            .iter()
            .filter(|d| d.severity >= warning && d.code != MISSING_ROOT)
        {
            let line = d.line.map(|l| format!(":{l}")).unwrap_or_default();
            eprintln!(
                "cairn: {}{line}: {} [{}]",
                d.path,
                crate::error::one_line(&d.message),
                d.code
            );
        }
        if withheld > 0 {
            eprintln!(
                "cairn: {} about secret notes (or notes whose sensitivity is in doubt), not listed here: `cairn lint` lists them",
                count(withheld, "scan warning", "scan warnings")
            );
        }
        return;
    }
    let n = engine
        .diagnostics()
        .iter()
        .filter(|d| d.severity >= warning && d.code != MISSING_ROOT)
        .count();
    let lists = match withheld {
        0 => "`cairn wakeup --verbose` or `cairn lint` lists them".to_owned(),
        w if w == n => format!(
            "{} about secret notes (or notes whose sensitivity is in doubt): `cairn lint` lists them",
            if n == 1 { "it is" } else { "all are" }
        ),
        w => format!(
            "{w} of them about secret notes (or notes whose sensitivity is in doubt): `cairn lint` lists them all, `cairn wakeup --verbose` the others"
        ),
    };
    if n > 0 {
        eprintln!(
            "cairn: {} (notes skipped or read with defaults); {lists}",
            count(n, "scan warning", "scan warnings")
        );
    }
}
