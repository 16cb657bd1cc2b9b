//! What the persistent index tells the user on stderr (a rebuilt index, a fallback
//! to memory, a partial answer, damage found while answering, timings), and the
//! background refresh a deadline leaves behind.

use std::path::Path;

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

/// With `CAIRN_TIMINGS=1`, prints `phases` (microseconds each) on one stderr
/// line: how long opening the index and answering took ([`Engine::timings`]).
pub(crate) fn print_timings(phases: &[(&str, u64)]) {
    if std::env::var_os("CAIRN_TIMINGS").is_none() {
        return;
    }
    let parts: Vec<String> = phases
        .iter()
        .map(|(k, us)| format!("{k} {:.1} ms", *us as f64 / 1000.0))
        .collect();
    eprintln!("cairn: timings: {}", parts.join(", "));
}

/// Starts `cairn index --quiet` for the same vault, detached from this process
/// (its own process group, no stdio): it takes the writer lock, so it is safe
/// beside any other cairn process.
fn spawn_refresh(engine: &Engine, source: &VaultArgs) -> std::io::Result<()> {
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    match &engine.config().source {
        Some(cfg) => args.extend(["--config".into(), cfg.into()]),
        None => args.extend(["--vault".into(), engine.config().vault.root.clone().into()]),
    }
    if let Some(d) = &source.index_dir {
        args.extend(["--index-dir".into(), d.into()]);
    }
    spawn_index(&args, None)
}

/// Starts `cairn index --quiet` in `unread.repo`, detached as
/// [`spawn_refresh`]'s, for the configuration `source` resolves to (its path
/// made absolute: the process runs elsewhere) and the index folder the wake-up
/// used: run in a repository that belongs to the project it routes to, it reads
/// that repository's git history, the first time whole (see `cairn index`).
pub(crate) fn spawn_history_read(
    source: &VaultArgs,
    unread: &cairn_engine::UnreadHistory,
) -> std::io::Result<()> {
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    if let Some(v) = &source.vault {
        args.extend(["--vault".into(), std::path::absolute(v)?.into()]);
    } else {
        let config =
            crate::source::load_config(source).map_err(|e| std::io::Error::other(e.to_string()))?;
        if let Some(path) = &config.source {
            args.extend(["--config".into(), std::path::absolute(path)?.into()]);
        }
    }
    args.extend([
        "--index-dir".into(),
        std::path::absolute(&unread.index_dir)?.into(),
    ]);
    spawn_index(&args, Some(&unread.repo))
}

/// A path for a line on stderr: redacted and on one line, as every text a hook
/// prints (a folder's name is text someone else may have chosen).
pub(crate) fn shown_path(path: &Path) -> String {
    let text = path.display().to_string();
    let flat = cairn_engine::policy::one_line(&text);
    cairn_engine::policy::redact(&flat).text.into_owned()
}

/// `cairn index --quiet ARGS`, in `dir` when given, detached from this process.
fn spawn_index(args: &[std::ffi::OsString], dir: Option<&Path>) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("index").arg("--quiet").args(args);
    if let Some(d) = dir {
        cmd.current_dir(d);
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
