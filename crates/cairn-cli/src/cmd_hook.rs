//! `cairn hook session-start` (what clients run) and `cairn hooks install|uninstall|status`
//! (wiring clients). The logic lives in `cairn-hooks`; this module parses flags, reads
//! the environment and prints.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use cairn_engine::config::Discovery;
use cairn_engine::{Engine, IndexMode, OpenDeadline, OpenOptions, PersistentOptions};
use cairn_hooks::install::{self, Action, Locations, McpCommand, Scope, Wiring, shell_quote};
use cairn_hooks::{Client, EngineSources, HookInput, HookOutcome, SessionStart};
use clap::{Args, Subcommand, ValueEnum};

use crate::args::{Source, UsageError, resolve_now};
use crate::commands::load_config;

/// `cairn hook ...`: run by a client.
#[derive(Debug, Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub event: HookEvent,
}

#[derive(Debug, Subcommand)]
pub enum HookEvent {
    /// Print the wake-up packet for the session in the client's hook envelope (reads the client's JSON on stdin).
    #[command(after_help = "\
Always exits 0 and prints exactly one JSON envelope on stdout, within --deadline-ms:
the packet, or a reduced packet when the vault is too slow to scan in time, or a
notice when something is wrong, wrong arguments included. A notice tells the model
only that memory is unavailable; the reason is for you: in the envelope's
systemMessage (Claude Code, Codex, Gemini CLI) and on stderr.

Example (what `cairn hooks install --client claude` configures):
  echo '{\"cwd\":\"/path/to/repo\",\"source\":\"startup\"}' | cairn hook session-start --client claude")]
    SessionStart(SessionStartArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientArg {
    Claude,
    Codex,
    Gemini,
    Cursor,
}

impl From<ClientArg> for Client {
    fn from(c: ClientArg) -> Self {
        match c {
            ClientArg::Claude => Client::Claude,
            ClientArg::Codex => Client::Codex,
            ClientArg::Gemini => Client::Gemini,
            ClientArg::Cursor => Client::Cursor,
        }
    }
}

#[derive(Debug, Args)]
pub struct SessionStartArgs {
    /// The client running the hook (decides the envelope, the wording and the size cap).
    #[arg(long, value_enum)]
    pub client: ClientArg,
    #[command(flatten)]
    pub source: Source,
    /// Answer within this many milliseconds, whatever happens.
    #[arg(long, value_name = "MS", default_value_t = cairn_hooks::DEFAULT_DEADLINE_MS,
          value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub deadline_ms: u64,
    /// Packet profile (default: project when a project matches, else developer).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Token budget (default: the profile's; the client's cap always applies).
    #[arg(long, value_name = "TOKENS", value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: Option<u64>,
    /// Pin "now" (RFC 3339); by default midnight UTC today, so output is stable within a day.
    #[arg(long, value_name = "RFC3339", hide_short_help = true)]
    pub now: Option<String>,
}

/// Runs the session-start hook: always exit 0, one envelope on stdout.
pub fn session_start(a: SessionStartArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let client: Client = a.client.into();
    let deadline = Duration::from_millis(a.deadline_ms);
    let stdin = std::io::stdin();
    let (bytes, read_warning) = if stdin.is_terminal() {
        (Vec::new(), None)
    } else {
        cairn_hooks::read_input(stdin, deadline / 4)
    };
    let mut input = HookInput::parse(&bytes);
    if input.warning.is_none() {
        input.warning = read_warning;
    }
    let fallback_cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    // "Now" is midnight UTC today unless pinned; a bad --now is reported in the notice.
    let now = a.now.as_deref().map(|s| resolve_now(Some(s))).transpose();
    let req = SessionStart {
        client,
        input,
        fallback_cwd,
        profile: a.profile.clone(),
        budget: a.budget.map(|b| b as usize),
        now: match &now {
            Ok(Some(t)) => *t,
            _ => cairn_hooks::pinned_now(chrono::Utc::now()),
        },
        deadline,
        started,
    };
    let outcome = match now {
        Err(e) => {
            let warnings = req.input.warning.iter().cloned().collect();
            cairn_hooks::notice(&req, &format!("{e:#}"), warnings)
        }
        Ok(_) => {
            let source = a.source.clone();
            let load: cairn_hooks::ConfigLoader = Arc::new(move || {
                let config = load_config(&source).map_err(|e| format!("{e:#}"))?;
                let opts = OpenOptions {
                    profiles_dir: source.profiles_dir.clone(),
                    ..OpenOptions::default()
                };
                Ok((config, opts))
            });
            // The full packet comes from the persistent index: current, it opens in
            // milliseconds; stale or missing, the engine answers from what it has by
            // half the deadline (the developer's notes read first, then the
            // project's) and a background `cairn index` finishes the work.
            let mut sources = EngineSources::scanning(load.clone());
            let index_source = a.source.clone();
            let open_by = OpenDeadline::for_hook(started, deadline);
            let routing = req.wakeup_request();
            sources.full = Box::new(move || {
                let (config, mut opts) = load()?;
                opts.index = IndexMode::Persistent(PersistentOptions {
                    dir: index_source.index_dir.clone(),
                    ..PersistentOptions::default()
                });
                let engine = Engine::open_for_wakeup(config, &opts, &routing, Some(open_by))?;
                crate::cmd_index::report(&engine, &index_source);
                Ok(engine)
            });
            let fallback = req.clone();
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                cairn_hooks::session_start(req, sources)
            }))
            .unwrap_or_else(|_| {
                cairn_hooks::notice(&fallback, "internal error in the hook", Vec::new())
            })
        }
    };
    emit(&outcome);
    Ok(ExitCode::SUCCESS)
}

/// Prints a hook's answer: the envelope on stdout, the warnings on stderr.
fn emit(outcome: &HookOutcome) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(outcome.stdout.as_bytes());
    let _ = out.flush();
    for w in &outcome.warnings {
        eprintln!("cairn: hook: {w}");
    }
}

/// A hook run whose arguments clap refused (an unknown flag, `--deadline-ms 0`, a
/// missing or unknown `--client`, no event) still answers its client: exit 0 and a
/// notice in the envelope of the `--client` given, Claude Code's
/// `hookSpecificOutput` shape when there is none. `None` when this is not a hook
/// run, or when help or the version was asked for.
pub fn answer_bad_arguments(err: &clap::Error) -> Option<ExitCode> {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return None;
    }
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if !is_hook_run(&args) {
        return None;
    }
    let reason = match err.kind() {
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "`cairn hook` needs an event: `cairn hook session-start --client <claude|codex|gemini|cursor>`".to_owned()
        }
        _ => clap_reason(&err.render().to_string()),
    };
    // The client writes its payload whatever happens: read it so the write never fails.
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        let _ = cairn_hooks::read_input(
            stdin,
            Duration::from_millis(cairn_hooks::DEFAULT_DEADLINE_MS / 4),
        );
    }
    let client = client_named(&args).unwrap_or(Client::Claude);
    let outcome = cairn_hooks::notice_for(
        client,
        &format!("the hook command's arguments are wrong: {reason}"),
        Vec::new(),
    );
    emit(&outcome);
    Some(ExitCode::SUCCESS)
}

/// Whether the first word of `args` that is neither a global option nor its
/// value is `hook`.
fn is_hook_run(args: &[String]) -> bool {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--config" | "--vault" | "--profiles-dir" | "--index-dir" => {
                it.next();
            }
            s if s.starts_with('-') => {}
            s => return s == "hook",
        }
    }
    false
}

/// The client `--client NAME` or `--client=NAME` names, when it is one.
fn client_named(args: &[String]) -> Option<Client> {
    let value = args.iter().enumerate().find_map(|(i, a)| {
        if a == "--client" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--client=")
        }
    })?;
    Client::parse(&value.trim().to_ascii_lowercase())
}

/// clap's message without its usage and tips, on one line.
fn clap_reason(rendered: &str) -> String {
    rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("tip:") && !l.starts_with("For more information")
        })
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `cairn hooks ...`: wire clients.
#[derive(Debug, Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(Debug, Subcommand)]
pub enum HooksAction {
    /// Add cairn's session-start hook and MCP server to a client's settings (merged, backed up, idempotent).
    #[command(after_help = "\
Examples:
  cairn hooks install --client claude --config ~/notes/cairn.toml
  cairn hooks install --client codex,gemini,cursor --dry-run   # show the diff only
  cairn hooks install --client claude --scope project          # this repository only

The hook command runs this cairn binary with the configuration given here (or the one
found now: $CAIRN_CONFIG, ~/.config/cairn/config.toml), so it works whatever the
client's environment is.")]
    Install(InstallArgs),
    /// Remove cairn's session-start hook and MCP server from a client's settings (other entries kept).
    Uninstall(UninstallArgs),
    /// Show whether each client is wired, run each configured hook once to check what the client would get, and whether the index it reads is current.
    #[command(after_help = "\
A hook whose index is not built yet still answers, with a partial packet, and
builds the index in the background; `cairn index` builds it now.

Exit code: 0 when every configured hook delivers a packet, 1 when one fails or
delivers only a notice.")]
    Status(StatusArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    /// Your home directory: every session.
    User,
    /// The project directory (--dir): sessions started there.
    Project,
}

impl From<ScopeArg> for Scope {
    fn from(s: ScopeArg) -> Self {
        match s {
            ScopeArg::User => Scope::User,
            ScopeArg::Project => Scope::Project,
        }
    }
}

/// Flags shared by install and uninstall.
#[derive(Debug, Clone, Args)]
pub struct WiringArgs {
    /// Clients to wire (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', required = true)]
    pub client: Vec<ClientArg>,
    /// Where: user (your home directory, default) or project (--dir).
    #[arg(long, value_enum, default_value = "user")]
    pub scope: ScopeArg,
    /// Project directory for --scope project (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Show the changes as a unified diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    #[command(flatten)]
    pub wiring: WiringArgs,
    #[command(flatten)]
    pub source: Source,
    /// Do not register the MCP server, only the hook.
    #[arg(long)]
    pub no_mcp: bool,
    /// The program clients run (default: this cairn's absolute path).
    #[arg(long, value_name = "PATH")]
    pub bin: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    #[command(flatten)]
    pub wiring: WiringArgs,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Clients to check (default: all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub client: Vec<ClientArg>,
    /// Project directory to inspect for project-scope settings (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Only read the settings; do not run the hooks.
    #[arg(long)]
    pub no_run: bool,
}

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
    })
}

fn absolute(p: &Path) -> Result<PathBuf> {
    p.canonicalize()
        .with_context(|| format!("{} cannot be opened", p.display()))
}

/// The configuration arguments baked into the hook and MCP commands: the flags given,
/// else the configuration discovery finds now, made absolute.
fn source_args(source: &Source) -> Result<Vec<String>> {
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

pub fn hooks(a: HooksArgs) -> Result<ExitCode> {
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
            (Some((shell_quote(&bin), quoted)), mcp)
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
        let hook = hook_command
            .as_ref()
            .map(|(bin, args)| {
                let mut parts = vec![
                    bin.clone(),
                    "hook".into(),
                    "session-start".into(),
                    "--client".into(),
                    client.as_str().into(),
                ];
                parts.extend(args.iter().cloned());
                parts.join(" ")
            })
            .unwrap_or_default();
        let wiring = Wiring {
            client,
            scope,
            hook_command: hook,
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
            let backup = a
                .backup
                .as_ref()
                .map(|b| format!(" (backup: {})", tilde(b, &loc.home)))
                .unwrap_or_else(|| " (new file)".into());
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
    crate::commands::print_out(&report)?;
    Ok(ExitCode::SUCCESS)
}

fn next_step(client: Client) -> &'static str {
    match client {
        Client::Claude => {
            "start a new Claude Code session; `/hooks` lists the hook, `/mcp` the server"
        }
        Client::Codex => {
            "start Codex and trust the new hook when asked (`/hooks`); Codex releases before hooks were on by default need `[features] hooks = true` in config.toml"
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
fn hook_source(cmd: &str) -> Option<Source> {
    let words = shlex::split(cmd)?;
    let mut source = Source::default();
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
                    s.push_str(&format!(
                        "            {}\n",
                        crate::cmd_index::hook_index_line(&source)
                    ));
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
    crate::commands::print_out(&s)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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

    #[test]
    fn a_hook_run_is_told_apart_from_other_commands() {
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        for (args, hook, client) in [
            (
                "hook session-start --client codex --bogus",
                true,
                Some(Client::Codex),
            ),
            (
                "--config /c.toml hook session-start --client=Cursor",
                true,
                Some(Client::Cursor),
            ),
            ("--vault hook hooks status", false, None),
            ("hook", true, None),
            ("hook session-start --client nope", true, None),
            ("hooks status --client claude", false, Some(Client::Claude)),
            ("wakeup --task hook", false, None),
        ] {
            let a = words(args);
            assert_eq!(is_hook_run(&a), hook, "{args}");
            assert_eq!(client_named(&a), client, "{args}");
        }
    }

    #[test]
    fn clap_errors_become_one_line() {
        let rendered = "error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: cairn hook session-start [OPTIONS] --client <CLIENT>\n\nFor more information, try '--help'.\n";
        assert_eq!(clap_reason(rendered), "unexpected argument '--bogus' found");
        let rendered = "error: invalid value 'nope' for '--client <CLIENT>'\n  [possible values: claude, codex]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            clap_reason(rendered),
            "invalid value 'nope' for '--client <CLIENT>' [possible values: claude, codex]"
        );
        let rendered = "error: the following required arguments were not provided:\n  --client <CLIENT>\n\nUsage: x\n";
        assert_eq!(
            clap_reason(rendered),
            "the following required arguments were not provided: --client <CLIENT>"
        );
    }
}
