//! Running commands: open the vault, call the engine, print.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use cairn_engine::config::{Config, ConfigError, Discovery};
use cairn_engine::{Engine, EngineError, Format, OpenDeadline, SearchRequest, SearchScope};

use crate::args::{Cli, Command, Source, TextOrJson, UsageError, resolve_cwd};

/// Maps an error to the documented exit code.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    if let Some(code) = crate::cmd_memory::exit_code(err) {
        return code;
    }
    if let Some(e) = err.downcast_ref::<EngineError>() {
        return match e {
            EngineError::Secret { .. } => 4,
            e if e.is_usage() => 2,
            _ => 1,
        };
    }
    if err.downcast_ref::<ConfigError>().is_some() || err.downcast_ref::<UsageError>().is_some() {
        return 2;
    }
    1
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Wakeup(a) => {
            let deadline = a.deadline_ms.map(|ms| {
                OpenDeadline::for_command(std::time::Instant::now(), Duration::from_millis(ms))
            });
            let req = a.packet.request(a.format.into())?;
            let config = load_config(&a.source)?;
            let opts = crate::cmd_index::open_options(&a.source, None, false);
            let engine = Engine::open_for_wakeup(config, &opts, &req, deadline)?;
            let t = std::time::Instant::now();
            let out = engine.wakeup(&req)?;
            print_out(&out.rendered)?;
            crate::cmd_index::timings(&engine, t);
            crate::cmd_index::report(&engine, &a.source);
            crate::cmd_index::report_late(&engine);
            warn_diagnostics(&engine);
            // The process ends here: freeing thousands of decoded notes one by one
            // would only delay the hook that waits for it.
            std::mem::forget(engine);
        }
        Command::Explain(a) => {
            let engine = open(&a.source)?;
            let req = a.packet.request(Format::Prompt)?;
            let ex = engine.explain(&req);
            crate::cmd_index::report_late(&engine);
            let ex = ex?;
            match a.format {
                TextOrJson::Json => print_json(&ex)?,
                TextOrJson::Text => print_out(&ex.to_text())?,
            }
        }
        Command::Search(a) => {
            let engine = open(&a.source)?;
            let has_config = engine.config().source.is_some();
            let req = SearchRequest {
                query: a.query.clone(),
                cwd: if has_config {
                    Some(resolve_cwd(a.cwd.as_ref())?)
                } else {
                    None
                },
                project: a.project.clone(),
                files: Vec::new(),
                scope: if a.all || !has_config {
                    SearchScope::All
                } else {
                    SearchScope::Routed
                },
                limit: a.limit,
                ranking: a.ranking.into(),
                today: chrono::Utc::now().date_naive(),
            };
            let res = engine.search(&req);
            crate::cmd_index::report_late(&engine);
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
                        let status = if h.status == "active" {
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
                    "cairn: {} matching notes hidden by policy (secret or confidential)",
                    res.suppressed
                );
            }
            if !a.all && has_config {
                eprintln!(
                    "cairn: searched {}; use --all for the whole vault",
                    roots_text(&res.roots)
                );
            }
        }
        Command::Get(a) => {
            let engine = open(&a.source)?;
            let g = engine.get(&a.note)?;
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
            if g.redactions > 0 {
                eprintln!("cairn: {} credentials redacted", g.redactions);
            }
        }
        Command::Hook(a) => match a.event {
            crate::cmd_hook::HookEvent::SessionStart(s) => {
                return crate::cmd_hook::session_start(s);
            }
        },
        Command::Hooks(a) => return crate::cmd_hook::hooks(a),
        Command::Mcp(a) => return crate::cmd_mcp::mcp(a),
        Command::Memory(a) => return crate::cmd_memory::run(a),
        Command::Lint(a) => return crate::cmd_lint::run(a),
        Command::Index(a) => return crate::cmd_index::run(&a),
        Command::Init(a) => {
            let dir = match a.dir {
                Some(d) => d,
                None => std::env::current_dir().context("cannot read the current directory")?,
            };
            let report = cairn_engine::init(&dir)?;
            let mut s = String::new();
            for p in &report.created {
                s.push_str(&format!("created {}\n", p.display()));
            }
            for p in &report.kept {
                s.push_str(&format!("kept    {} (already exists)\n", p.display()));
            }
            s.push_str(&format!(
                "\nNext: edit {cfg} (your projects' repo_paths), then run\n  cairn wakeup --config {cfg} --task \"what you are working on\"\n",
                cfg = dir.join("cairn.toml").display()
            ));
            print_out(&s)?;
        }
        Command::Eval(a) => crate::cmd_eval::run(&a)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn roots_text(roots: &[String]) -> String {
    if roots.iter().any(|r| r.is_empty()) {
        return "the whole vault".into();
    }
    roots.join(", ")
}

pub(crate) fn open(source: &Source) -> Result<Engine> {
    let config = load_config(source)?;
    let opts = crate::cmd_index::open_options(source, None, false);
    let engine = Engine::open(config, &opts)?;
    crate::cmd_index::report(&engine, source);
    Ok(engine)
}

pub(crate) fn load_config(source: &Source) -> Result<Config> {
    if let Some(v) = &source.vault {
        return Ok(Config::for_vault(v)?);
    }
    let discovery = Discovery::new(source.config.clone(), |k| std::env::var(k).ok());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match discovery.locate()? {
        Some(path) => Ok(Config::load(&path, home.as_deref())?),
        None => Err(UsageError(
            "no configuration found: pass --config FILE or --vault DIR, set $CAIRN_CONFIG, or run `cairn init`".into(),
        )
        .into()),
    }
}

fn warn_diagnostics(engine: &Engine) {
    let n = engine
        .diagnostics()
        .iter()
        .filter(|d| d.severity >= cairn_engine::Severity::Warning)
        .count();
    if n > 0 {
        eprintln!(
            "cairn: {n} scan warnings (notes skipped or read with defaults); `cairn explain` lists them"
        );
    }
}

pub(crate) fn print_out(s: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("cannot write to stdout"),
    }
}

pub(crate) fn print_json<T: serde::Serialize>(v: &T) -> Result<()> {
    let mut s = serde_json::to_string_pretty(v)?;
    s.push('\n');
    print_out(&s)
}
