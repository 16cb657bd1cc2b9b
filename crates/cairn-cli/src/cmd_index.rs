//! `cairn index`: bring the vault's persistent index up to date or rebuild it
//! (reading every byte), or show its state (`--status`, `--verify`).

use std::process::ExitCode;

use anyhow::Result;
use cairn_engine::{Engine, IndexMode, PersistentOptions};
use serde::Serialize;

use crate::args::{IndexArgs, TextOrJson};
use crate::output::{count, format_ns, print_json, print_out};
use crate::source::{load_config, open_options};

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
    /// The git history kept for each project repo path.
    git_history: Vec<cairn_engine::GitHistoryStatus>,
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
pub(crate) fn run(a: &IndexArgs) -> Result<ExitCode> {
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
            git_history: cairn_engine::index_git_status(
                &config,
                &opts,
                std::env::current_dir().ok().as_deref(),
            ),
        };
        match a.format {
            TextOrJson::Json => print_json(&out)?,
            TextOrJson::Text => print_out(&status_text(&out))?,
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
    // The git history of the vault's repository (its undated notes' days) and
    // the projects' (notes whose code changed): the first, capped pass runs
    // here, never in a hook.
    // ... and of the repository cairn runs in, when it belongs to the project it
    // routes to (a clone routed by its remote, a repository in a folder of them).
    let cwd = std::env::current_dir().ok();
    for h in engine.index_git_history(cwd.as_deref(), a.rebuild) {
        if a.quiet {
            continue;
        }
        if h.project.is_empty() {
            eprintln!(
                "cairn: git history of the vault's repository ({}): {}",
                h.repo.display(),
                h.outcome
            );
        } else {
            eprintln!(
                "cairn: git history of project `{}` ({}): {}",
                h.project,
                h.repo.display(),
                h.outcome
            );
        }
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
        TextOrJson::Json => print_json(&out)?,
        TextOrJson::Text => {
            let s = if !out.refreshed {
                format!(
                    "index up to date: {} (generation {}) in {}\n",
                    count(out.notes, "note", "notes"),
                    out.generation.unwrap_or(0),
                    out.dir.as_deref().unwrap_or("")
                )
            } else if out.rebuilt {
                format!(
                    "index built: {} in {} ms (generation {}) in {}\n",
                    count(out.notes, "note", "notes"),
                    out.millis,
                    out.generation.unwrap_or(0),
                    out.dir.as_deref().unwrap_or("")
                )
            } else {
                format!(
                    "index refreshed in {} ms: {} added ({} of them renamed), {} changed, {} deleted, {} touched; {} (generation {})\n",
                    out.millis,
                    out.added,
                    out.renamed,
                    out.modified,
                    out.deleted,
                    out.touched,
                    count(out.notes, "note", "notes"),
                    out.generation.unwrap_or(0)
                )
            };
            print_out(&s)?;
        }
    }
    Ok(ExitCode::SUCCESS)
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
                "notes:          {} ({}, generation {g})",
                s.notes,
                count(s.files, "file", "files")
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
    for h in &s.git_history {
        let kept = match (h.commits, &h.head) {
            (Some(n), Some(head)) => {
                format!("{} up to {head}", count(n, "commit", "commits"))
            }
            _ => "not read yet (`cairn index` reads it)".to_owned(),
        };
        let _ = writeln!(
            out,
            "git history:    project `{}` ({}): {kept}",
            h.project,
            h.repo.display()
        );
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
