//! `cairn hooks install|uninstall|status`: wire clients to cairn (the session-start
//! hook and the MCP server) and check what they would get. Planning, writing and
//! probing live in `cairn-hooks`; this module finds the settings, bakes the
//! vault's flags into the commands and prints.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use cairn_engine::PersistentOptions;
use cairn_engine::config::Discovery;
use cairn_hooks::Client;
use cairn_hooks::install::{self, Action, Locations, McpCommand, Scope, Wiring, shell_quote};

use crate::args::{HooksAction, HooksArgs, InstallArgs, StatusArgs, WiringArgs};
use crate::error::UsageError;
use crate::output::{format_ns, print_out};
use crate::source::{VaultArgs, load_config};

fn locations(dir: Option<&PathBuf>) -> Result<Locations> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| UsageError("$HOME is not set: cannot find the clients' settings".into()))?;
    let project_dir = match dir {
        Some(d) => absolute(d)?,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    Ok(Locations {
        home,
        project_dir,
        codex_home: std::env::var_os("CODEX_HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from),
        claude_config_dir: std::env::var_os("CLAUDE_CONFIG_DIR")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from),
    })
}

fn absolute(p: &Path) -> Result<PathBuf> {
    p.canonicalize()
        .with_context(|| format!("{} cannot be opened", p.display()))
}

/// The configuration arguments baked into the hook and MCP commands: the flags given,
/// else the configuration discovery finds now, made absolute.
fn source_args(source: &VaultArgs) -> Result<Vec<String>> {
    let mut args = Vec::new();
    if let Some(v) = &source.vault {
        args.push("--vault".to_owned());
        args.push(absolute(v)?.display().to_string());
    } else {
        let discovery = Discovery::new(source.config.clone(), |k| std::env::var(k).ok());
        match discovery.locate()? {
            Some(path) => {
                args.push("--config".to_owned());
                args.push(absolute(&path)?.display().to_string());
            }
            None => bail!(UsageError(
                "no configuration found: pass --config FILE or --vault DIR (run `cairn init` to create one)"
                    .into()
            )),
        }
    }
    if let Some(p) = &source.profiles_dir {
        args.push("--profiles-dir".to_owned());
        args.push(absolute(p)?.display().to_string());
    }
    if let Some(p) = &source.index_dir {
        // Made absolute, not resolved: the first run creates it.
        let p = std::path::absolute(p)
            .with_context(|| format!("{} cannot be made absolute", p.display()))?;
        args.push("--index-dir".to_owned());
        args.push(p.display().to_string());
    }
    Ok(args)
}

fn stamp() -> String {
    chrono::Utc::now().format("%Y%m%dT%H%M%SZ").to_string()
}

fn tilde(p: &Path, home: &Path) -> String {
    match p.strip_prefix(home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => p.display().to_string(),
    }
}

/// Runs `cairn hooks …`.
pub(crate) fn hooks(a: HooksArgs) -> Result<ExitCode> {
    match a.action {
        HooksAction::Install(i) => install_or_uninstall(&i.wiring, Some(&i)),
        HooksAction::Uninstall(u) => install_or_uninstall(&u.wiring, None),
        HooksAction::Status(s) => status(&s),
    }
}

fn install_or_uninstall(w: &WiringArgs, install: Option<&InstallArgs>) -> Result<ExitCode> {
    let loc = locations(w.dir.as_ref())?;
    let scope: Scope = w.scope.into();
    let (hook_command, mcp) = match install {
        Some(i) => {
            let bin = match &i.bin {
                Some(b) => b.display().to_string(),
                None => std::env::current_exe()
                    .and_then(|p| p.canonicalize())
                    .context("cannot find this cairn binary's path; pass --bin")?
                    .display()
                    .to_string(),
            };
            let args = source_args(&i.source)?;
            let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
            let mcp = (!i.no_mcp).then(|| McpCommand {
                command: bin.clone(),
                args: std::iter::once("mcp".to_owned())
                    .chain(args.iter().cloned())
                    .collect(),
            });
            (Some((shell_quote(&bin), quoted, !i.no_prompt_hook)), mcp)
        }
        None => (None, None),
    };
    let action = if install.is_some() {
        Action::Install
    } else {
        Action::Uninstall
    };
    let mut clients: Vec<Client> = w.client.iter().map(|&c| c.into()).collect();
    clients.dedup();
    let mut report = String::new();
    let mut plans = Vec::new();
    for client in clients {
        let command = |event: &str| {
            hook_command.as_ref().map(|(bin, args, _)| {
                let mut parts = vec![
                    bin.clone(),
                    "hook".into(),
                    event.into(),
                    "--client".into(),
                    client.as_str().into(),
                ];
                parts.extend(args.iter().cloned());
                parts.join(" ")
            })
        };
        let with_prompt = hook_command.as_ref().is_some_and(|(_, _, p)| *p);
        let wiring = Wiring {
            client,
            scope,
            hook_command: command("session-start").unwrap_or_default(),
            prompt_command: command("prompt").filter(|_| with_prompt),
            mcp: mcp.clone(),
        };
        let edits = install::plan(&wiring, &loc, action)?;
        plans.push((client, edits));
    }
    // Every plan is made before anything is written: one broken file changes nothing.
    for (client, edits) in &plans {
        report.push_str(&format!(
            "{} ({} scope):\n",
            client.display_name(),
            scope.as_str()
        ));
        if edits.is_empty() {
            report.push_str(match action {
                Action::Install => "  already wired; nothing to change\n",
                Action::Uninstall => "  nothing of cairn's to remove\n",
            });
            continue;
        }
        if w.dry_run {
            for e in edits {
                report.push_str(&format!(
                    "  would change {}: {}\n",
                    tilde(&e.path, &loc.home),
                    e.changes.join(", ")
                ));
                report.push_str(&e.diff());
            }
            continue;
        }
        let applied = install::apply(edits, &stamp())?;
        for (e, a) in edits.iter().zip(&applied) {
            let backup = a.backup.as_ref().map_or_else(
                || " (new file)".into(),
                |b| format!(" (backup: {})", tilde(b, &loc.home)),
            );
            report.push_str(&format!(
                "  {}: {}{backup}\n",
                tilde(&e.path, &loc.home),
                e.changes.join(", ")
            ));
        }
        if action == Action::Install {
            report.push_str(&format!("  next: {}\n", next_step(*client)));
        }
    }
    if w.dry_run {
        report.push_str("(dry run: nothing was written)\n");
    }
    print_out(&report)?;
    Ok(ExitCode::SUCCESS)
}

fn next_step(client: Client) -> &'static str {
    match client {
        Client::Claude => {
            "start a new Claude Code session; `/hooks` lists the hook, `/mcp` the server"
        }
        Client::Codex => {
            "start Codex and trust the new hooks when asked (`/hooks`); Codex releases whose hooks are still behind a flag need `codex_hooks = true` under `[features]` in config.toml"
        }
        Client::Gemini => {
            "restart Gemini CLI; `/hooks panel` lists the hook (older releases need the hooks system enabled in `/settings`)"
        }
        Client::Cursor => "restart Cursor (hooks and MCP servers load at start)",
    }
}

/// The vault options a hook command passes to cairn (`--config`, `--vault`,
/// `--index-dir`, `--profiles-dir`), read back from the command line as a POSIX
/// shell would split it. `None` when the command does not split (hand-edited) or
/// names no vault: the index line is left out rather than guessed.
fn hook_source(cmd: &str) -> Option<VaultArgs> {
    let words = shlex::split(cmd)?;
    let mut source = VaultArgs::default();
    let mut it = words.iter().skip(1);
    while let Some(w) = it.next() {
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (w.as_str(), None),
        };
        let slot = match flag {
            "--config" => &mut source.config,
            "--vault" => &mut source.vault,
            "--index-dir" => &mut source.index_dir,
            "--profiles-dir" => &mut source.profiles_dir,
            _ => continue,
        };
        let value = match inline {
            Some(v) => v,
            None => it.next()?.clone(),
        };
        *slot = Some(PathBuf::from(value));
    }
    (source.config.is_some() || source.vault.is_some()).then_some(source)
}

fn status(a: &StatusArgs) -> Result<ExitCode> {
    let loc = locations(a.dir.as_ref())?;
    let clients: Vec<Client> = if a.client.is_empty() {
        Client::ALL.to_vec()
    } else {
        a.client.iter().map(|&c| c.into()).collect()
    };
    let mut s = String::new();
    let mut failed = false;
    for client in clients {
        s.push_str(&format!("{}\n", client.display_name()));
        for scope in [Scope::User, Scope::Project] {
            // Run from $HOME, the project files are the user files: report them once.
            if scope == Scope::Project
                && loc.hook_file(client, scope) == loc.hook_file(client, Scope::User)
            {
                continue;
            }
            let w = install::inspect(client, scope, &loc);
            let label = format!("  {:<8}", scope.as_str());
            if w.hooks.is_empty() {
                s.push_str(&format!(
                    "{label}hook: not wired ({})\n",
                    tilde(&w.hook_file, &loc.home)
                ));
            }
            for cmd in &w.hooks {
                s.push_str(&format!(
                    "{label}hook: wired in {}\n            {cmd}\n",
                    tilde(&w.hook_file, &loc.home)
                ));
                if !a.no_run {
                    let p = install::probe(client, cmd, &loc.project_dir, Duration::from_secs(15));
                    failed |= !p.ok;
                    s.push_str(&format!(
                        "            {} {}\n",
                        if p.ok { "ok:" } else { "FAILED:" },
                        p.message
                    ));
                }
                if let Some(source) = hook_source(cmd) {
                    s.push_str(&format!("            {}\n", hook_index_line(&source)));
                }
            }
            if client.prompt_event().is_some() {
                if w.prompt_hooks.is_empty() {
                    s.push_str(&format!(
                        "  {:<8}prompt hook: not wired ({})\n",
                        "",
                        tilde(&w.hook_file, &loc.home)
                    ));
                }
                for cmd in &w.prompt_hooks {
                    s.push_str(&format!(
                        "  {:<8}prompt hook: wired in {}\n            {cmd}\n",
                        "",
                        tilde(&w.hook_file, &loc.home)
                    ));
                    if !a.no_run {
                        let p = install::probe_prompt(
                            client,
                            cmd,
                            &loc.project_dir,
                            Duration::from_secs(15),
                        );
                        failed |= !p.ok;
                        s.push_str(&format!(
                            "            {} {}\n",
                            if p.ok { "ok:" } else { "FAILED:" },
                            p.message
                        ));
                    }
                }
            }
            match &w.mcp {
                Some(m) => s.push_str(&format!(
                    "  {:<8}MCP:  registered in {} ({} {})\n",
                    "",
                    tilde(&w.mcp_file, &loc.home),
                    m.command,
                    m.args.join(" ")
                )),
                None => s.push_str(&format!(
                    "  {:<8}MCP:  not registered ({})\n",
                    "",
                    tilde(&w.mcp_file, &loc.home)
                )),
            }
            for p in &w.problems {
                failed = true;
                s.push_str(&format!("  {:<8}problem: {p}\n", ""));
            }
        }
    }
    print_out(&s)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One line on the persistent index of the vault a hook command reads (for
/// `cairn hooks status`): whether a session start will find it current. Writes
/// nothing.
fn hook_index_line(source: &VaultArgs) -> String {
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
        format!(
            "index: current ({}{when})",
            crate::output::count(st.notes, "note", "notes")
        )
    } else {
        format!(
            "index: {}{when}; {a} added, {m} changed, {d} deleted since (the next \
             session start re-reads only those)",
            crate::output::count(st.notes, "note", "notes")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_source_reads_back_what_install_writes() {
        let args = [
            "--config",
            "/home/me/my notes/cairn.toml",
            "--index-dir",
            "/tmp/it's here",
        ];
        let quoted: Vec<String> = args.iter().map(|a| shell_quote(a)).collect();
        let cmd = format!(
            "{} hook session-start --client claude {}",
            shell_quote("/opt/my tools/cairn"),
            quoted.join(" ")
        );
        let s = hook_source(&cmd).unwrap();
        assert_eq!(
            s.config,
            Some(PathBuf::from("/home/me/my notes/cairn.toml"))
        );
        assert_eq!(s.index_dir, Some(PathBuf::from("/tmp/it's here")));
        assert_eq!((s.vault, s.profiles_dir), (None, None));

        let s = hook_source("cairn hook session-start --vault=/v --client codex").unwrap();
        assert_eq!(s.vault, Some(PathBuf::from("/v")));
        // No vault named, a dangling flag, or a line a shell would not split: no guess.
        assert!(hook_source("cairn hook session-start --client claude").is_none());
        assert!(hook_source("cairn hook session-start --config").is_none());
        assert!(hook_source("cairn hook session-start --config '/unclosed").is_none());
    }
}
