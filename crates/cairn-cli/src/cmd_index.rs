//! `cairn index`, and the persistent index as every command uses it: options from
//! the flags, the stderr notes (a rebuilt index, a fallback to memory, a partial
//! answer), the progress bar of a long build, and the background refresh a
//! deadline leaves behind.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use cairn_engine::{Engine, IndexMode, OpenOptions, PersistentOptions, Progress};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::args::{Source, TextOrJson};
use crate::commands::load_config;

/// `cairn index` flags.
#[derive(Debug, Args)]
pub struct IndexArgs {
    #[command(flatten)]
    pub source: Source,
    /// Throw the index away and build it again from every note.
    #[arg(long, conflicts_with = "status")]
    pub rebuild: bool,
    /// Show the index's state (notes, size on disk, last refresh, pending changes); change nothing.
    #[arg(long)]
    pub status: bool,
    /// With --status: also read every index file and check its checksum.
    #[arg(long, requires = "status")]
    pub verify: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Print nothing on success (for background refreshes).
    #[arg(long, hide = true)]
    pub quiet: bool,
}

/// Engine options for `source`: the persistent index, with a progress bar.
pub fn open_options(source: &Source, deadline: Option<Instant>, rebuild: bool) -> OpenOptions {
    OpenOptions {
        profiles_dir: source.profiles_dir.clone(),
        index: IndexMode::Persistent(PersistentOptions {
            dir: source.index_dir.clone(),
            rebuild,
            deadline,
            progress: Some(Arc::new(Bar::new())),
            verify: false,
        }),
    }
}

/// Tells stderr what the index did that the user should know, and starts the
/// refresh a deadline cut short in a background process.
pub fn report(engine: &Engine, source: &Source) {
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
pub fn report_late(engine: &Engine) {
    for w in engine.take_index_warnings() {
        eprintln!("cairn: {w}");
    }
}

/// With `CAIRN_TIMINGS=1`, prints how long opening the index and answering took.
pub fn timings(engine: &Engine, answer_started: Instant) {
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
fn spawn_refresh(engine: &Engine, source: &Source) -> std::io::Result<()> {
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

#[derive(Debug, Serialize)]
struct StatusOut {
    dir: String,
    generation: Option<u64>,
    notes: u64,
    files: u64,
    disk_bytes: u64,
    last_refresh: Option<String>,
    pending_added: usize,
    pending_modified: usize,
    pending_deleted: usize,
    problem: Option<String>,
    writer_active: bool,
    damaged_files: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct RefreshOut {
    dir: Option<String>,
    generation: Option<u64>,
    notes: usize,
    refreshed: bool,
    rebuilt: bool,
    added: usize,
    modified: usize,
    deleted: usize,
    renamed: usize,
    touched: usize,
    millis: u64,
}

/// Runs `cairn index`.
pub fn run(a: &IndexArgs) -> Result<ExitCode> {
    let config = load_config(&a.source)?;
    if a.status {
        let opts = PersistentOptions {
            dir: a.source.index_dir.clone(),
            ..PersistentOptions::default()
        };
        let st = cairn_engine::index_status(&config, &opts)?;
        let damaged = if a.verify {
            Some(cairn_engine::index_verify(&config, &opts)?)
        } else {
            None
        };
        let out = StatusOut {
            dir: st.dir.display().to_string(),
            generation: st.generation,
            notes: st.notes,
            files: st.files,
            disk_bytes: st.disk_bytes,
            last_refresh: st.refreshed_at_ns.map(format_ns),
            pending_added: st.pending.0,
            pending_modified: st.pending.1,
            pending_deleted: st.pending.2,
            problem: st.problem.clone(),
            writer_active: st.writer_active,
            damaged_files: damaged.clone(),
        };
        match a.format {
            TextOrJson::Json => crate::commands::print_json(&out)?,
            TextOrJson::Text => crate::commands::print_out(&status_text(&out))?,
        }
        let bad = damaged.is_some_and(|d| !d.is_empty()) || st.problem.is_some();
        return Ok(if bad {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    // `cairn index` (and the background refresh) reads every byte of the index.
    let mut opts = open_options(&a.source, None, a.rebuild);
    if let IndexMode::Persistent(p) = &mut opts.index {
        p.verify = true;
    }
    let engine = Engine::open(config, &opts)?;
    let info = engine.index_info();
    for w in &info.warnings {
        eprintln!("cairn: {w}");
    }
    if info.cache_dir.is_none() {
        // The warnings said why; the index could not be kept.
        return Ok(ExitCode::from(1));
    }
    if a.quiet {
        return Ok(ExitCode::SUCCESS);
    }
    let r = info.refresh.as_ref();
    let out = RefreshOut {
        dir: info.cache_dir.as_ref().map(|d| d.display().to_string()),
        generation: info.generation,
        notes: engine.note_count(),
        refreshed: r.is_some(),
        rebuilt: r.is_some_and(|r| r.rebuilt),
        added: r.map_or(0, |r| r.added),
        modified: r.map_or(0, |r| r.modified),
        deleted: r.map_or(0, |r| r.deleted),
        renamed: r.map_or(0, |r| r.renamed),
        touched: r.map_or(0, |r| r.touched),
        millis: r.map_or(0, |r| r.millis),
    };
    match a.format {
        TextOrJson::Json => crate::commands::print_json(&out)?,
        TextOrJson::Text => {
            let s = if !out.refreshed {
                format!(
                    "index up to date: {} notes (generation {}) in {}\n",
                    out.notes,
                    out.generation.unwrap_or(0),
                    out.dir.as_deref().unwrap_or("")
                )
            } else if out.rebuilt {
                format!(
                    "index built: {} notes in {} ms (generation {}) in {}\n",
                    out.notes,
                    out.millis,
                    out.generation.unwrap_or(0),
                    out.dir.as_deref().unwrap_or("")
                )
            } else {
                format!(
                    "index refreshed in {} ms: {} added ({} of them renamed), {} changed, {} deleted, {} touched; {} notes (generation {})\n",
                    out.millis,
                    out.added,
                    out.renamed,
                    out.modified,
                    out.deleted,
                    out.touched,
                    out.notes,
                    out.generation.unwrap_or(0)
                )
            };
            crate::commands::print_out(&s)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One line on the persistent index of the vault a hook command reads (for
/// `cairn hooks status`): whether a session start will find it current. Writes
/// nothing.
pub fn hook_index_line(source: &Source) -> String {
    let config = match load_config(source) {
        Ok(c) => c,
        Err(e) => return format!("index: unknown ({e:#})"),
    };
    let opts = PersistentOptions {
        dir: source.index_dir.clone(),
        ..PersistentOptions::default()
    };
    let st = match cairn_engine::index_status(&config, &opts) {
        Ok(st) => st,
        Err(e) => return format!("index: unknown ({e})"),
    };
    if let Some(p) = &st.problem {
        return format!("index: unusable ({p}); the next session start rebuilds it");
    }
    let Some(_) = st.generation else {
        let quote =
            |p: &std::path::Path| cairn_hooks::install::shell_quote(&p.display().to_string());
        let mut build_now = match &config.source {
            Some(c) => format!("cairn index --config {}", quote(c)),
            None => format!("cairn index --vault {}", quote(&config.vault.root)),
        };
        if let Some(d) = &source.index_dir {
            build_now.push_str(&format!(" --index-dir {}", quote(d)));
        }
        return format!(
            "index: not built yet; the first session start answers with a partial packet and \
             builds it in the background (run `{build_now}` to build it now)"
        );
    };
    let (a, m, d) = st.pending;
    let when = st
        .refreshed_at_ns
        .map(|ns| format!(", refreshed {}", format_ns(ns)))
        .unwrap_or_default();
    if a + m + d == 0 {
        format!("index: current ({} notes{when})", st.notes)
    } else {
        format!(
            "index: {} notes{when}; {a} added, {m} changed, {d} deleted since (the next \
             session start re-reads only those)",
            st.notes
        )
    }
}

fn status_text(s: &StatusOut) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "index folder:   {}", s.dir);
    match s.generation {
        None if s.problem.is_none() => {
            let _ = writeln!(
                out,
                "state:          not built yet (the next command builds it)"
            );
        }
        None => {}
        Some(g) => {
            let _ = writeln!(
                out,
                "notes:          {} ({} files, generation {g})",
                s.notes, s.files
            );
            let _ = writeln!(out, "size on disk:   {}", human_bytes(s.disk_bytes));
            let _ = writeln!(
                out,
                "last refresh:   {}",
                s.last_refresh.as_deref().unwrap_or("unknown")
            );
        }
    }
    let pending = s.pending_added + s.pending_modified + s.pending_deleted;
    if pending == 0 {
        let _ = writeln!(out, "pending:        none (up to date)");
    } else {
        let _ = writeln!(
            out,
            "pending:        {} added, {} changed, {} deleted (the next command applies them)",
            s.pending_added, s.pending_modified, s.pending_deleted
        );
    }
    if s.writer_active {
        let _ = writeln!(
            out,
            "writer:         another cairn process is updating the index now"
        );
    }
    if let Some(p) = &s.problem {
        let _ = writeln!(out, "problem:        {p} (the next command rebuilds it)");
    }
    if let Some(d) = &s.damaged_files {
        if d.is_empty() {
            let _ = writeln!(out, "verify:         every index file matches its checksum");
        } else {
            let _ = writeln!(
                out,
                "verify:         {} damaged files: {} (run `cairn index --rebuild`)",
                d.len(),
                d.join(", ")
            );
        }
    }
    out
}

fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KB", "MB", "GB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

fn format_ns(ns: i64) -> String {
    chrono::DateTime::from_timestamp(ns.div_euclid(1_000_000_000), 0)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

/// A progress bar on stderr that appears only when a build has taken more than a
/// second and stderr is a terminal.
struct Bar {
    bar: ProgressBar,
    started: Instant,
    shown: AtomicBool,
    tty: bool,
}

impl Bar {
    fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("cairn: {msg} {wide_bar} {pos}/{len} ({eta})")
        {
            bar.set_style(style);
        }
        Self {
            bar,
            started: Instant::now(),
            shown: AtomicBool::new(false),
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn maybe_show(&self) {
        if self.tty
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() >= Duration::from_secs(1)
        {
            self.shown.store(true, Ordering::Relaxed);
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(200));
        }
    }
}

impl Progress for Bar {
    fn begin(&self, total: u64, phase: &str) {
        if total > 0 {
            self.bar.set_length(total);
            self.bar.set_position(0);
        }
        self.bar.set_message(phase.to_owned());
        self.maybe_show();
    }

    fn advance(&self, n: u64) {
        self.bar.inc(n);
        self.maybe_show();
    }

    fn end(&self) {
        self.bar.finish_and_clear();
    }
}
