//! What the persistent index tells the user on stderr (a rebuilt index, a fallback
//! to memory, a partial answer, damage found while answering, timings), and the
//! background refresh a deadline leaves behind.

use std::time::Instant;

use cairn_engine::Engine;

use crate::source::VaultArgs;

/// Tells stderr what the index did that the user should know, and starts the
/// refresh a deadline cut short in a background process.
pub(crate) fn report(engine: &Engine, source: &VaultArgs) {
    let info = engine.index_info();
    for w in &info.warnings {
        eprintln!("cairn: {w}");
    }
    if let Some(why) = &info.partial {
        eprintln!("cairn: partial answer: {why}");
    }
    if info.refresh_pending {
        match spawn_refresh(engine, source) {
            Ok(()) => eprintln!("cairn: the index refresh continues in the background"),
            Err(e) => eprintln!(
                "cairn: could not start a background refresh ({e}); the next command will refresh the index"
            ),
        }
    }
}

/// Tells stderr what the index found while answering (a damaged index that
/// was replaced): call after the command's engine requests.
pub(crate) fn report_late(engine: &Engine) {
    for w in engine.take_index_warnings() {
        eprintln!("cairn: {w}");
    }
}

/// With `CAIRN_TIMINGS=1`, prints how long opening the index and answering took.
pub(crate) fn timings(engine: &Engine, answer_started: Instant) {
    if std::env::var_os("CAIRN_TIMINGS").is_none() {
        return;
    }
    let mut parts: Vec<String> = engine
        .index_info()
        .timings
        .iter()
        .map(|(k, us)| format!("{k} {:.1} ms", *us as f64 / 1000.0))
        .collect();
    parts.push(format!(
        "answer {:.1} ms",
        answer_started.elapsed().as_secs_f64() * 1000.0
    ));
    eprintln!("cairn: timings: {}", parts.join(", "));
}

/// Starts `cairn index --quiet` for the same vault, detached from this process
/// (its own process group, no stdio): it takes the writer lock, so it is safe
/// beside any other cairn process.
fn spawn_refresh(engine: &Engine, source: &VaultArgs) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("index").arg("--quiet");
    match &engine.config().source {
        Some(cfg) => cmd.arg("--config").arg(cfg),
        None => cmd.arg("--vault").arg(&engine.config().vault.root),
    };
    if let Some(d) = &source.index_dir {
        cmd.arg("--index-dir").arg(d);
    }
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    cmd.spawn().map(|_| ())
}
