//! `cairn hook session-start` and `cairn hook prompt` (what clients run) and `cairn
//! hooks install|uninstall|status` (wiring clients): flags and help.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use crate::source::VaultArgs;

/// `cairn hook ...`: run by a client.
#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    #[command(subcommand)]
    pub event: HookEvent,
}

#[derive(Debug, Subcommand)]
pub(crate) enum HookEvent {
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
    /// Add the few notes that match the prompt just submitted, and that this session was not given yet (reads the client's JSON on stdin).
    #[command(after_help = "\
Run by Claude Code and Codex on UserPromptSubmit and by Gemini CLI on BeforeAgent.
The prompt is the task: notes that pass the same relevance gate as a wake-up's task
layer, are neither secret nor confidential, and were not given earlier in this session
(the session-start packet and earlier prompts, remembered for a day per session id in
cairn's cache folder, note ids and times only), at most --max-notes of them within
--max-chars. When nothing qualifies, the prompt is empty, or anything fails, stdout
stays empty (a failure prints one line on stderr). Always exits 0, within --deadline-ms.

Example (what `cairn hooks install --client claude` configures):
  echo '{\"cwd\":\"/path/to/repo\",\"session_id\":\"s1\",\"prompt\":\"retry payouts\"}' | cairn hook prompt --client claude")]
    Prompt(PromptArgs),
}

/// The clients with a prompt hook that adds context (Cursor has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PromptClientArg {
    Claude,
    Codex,
    Gemini,
}

#[derive(Debug, Args)]
pub(crate) struct PromptArgs {
    /// The client running the hook (decides the envelope and the wording).
    #[arg(long, value_enum)]
    pub client: PromptClientArg,
    #[command(flatten)]
    pub source: VaultArgs,
    /// Answer within this many milliseconds, or add nothing.
    #[arg(long, value_name = "MS", default_value_t = cairn_hooks::PROMPT_DEADLINE_MS,
          value_parser = clap::value_parser!(u64).range(50..=60_000))]
    pub deadline_ms: u64,
    /// At most this many notes per prompt.
    #[arg(long, value_name = "N", default_value_t = cairn_hooks::DEFAULT_MAX_NOTES as u64,
          value_parser = clap::value_parser!(u64).range(1..=20))]
    pub max_notes: u64,
    /// At most this many characters per prompt.
    #[arg(long, value_name = "CHARS", default_value_t = cairn_hooks::DEFAULT_MAX_CHARS as u64,
          value_parser = clap::value_parser!(u64).range(200..=9_000))]
    pub max_chars: u64,
    /// Packet profile (default: project when a project matches, else developer).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Pin "now" (RFC 3339); by default midnight UTC today.
    #[arg(long, value_name = "RFC3339", hide_short_help = true)]
    pub now: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientArg {
    Claude,
    Codex,
    Gemini,
    Cursor,
}

#[derive(Debug, Args)]
pub(crate) struct SessionStartArgs {
    /// The client running the hook (decides the envelope, the wording and the size cap).
    #[arg(long, value_enum)]
    pub client: ClientArg,
    #[command(flatten)]
    pub source: VaultArgs,
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
    #[command(flatten)]
    pub(crate) derive: super::DeriveArgs,
}

/// `cairn hooks ...`: wire clients.
#[derive(Debug, Args)]
pub(crate) struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(Debug, Subcommand)]
pub(crate) enum HooksAction {
    /// Add cairn's session-start and prompt hooks and MCP server to a client's settings (merged, backed up, idempotent).
    #[command(after_help = "\
Examples:
  cairn hooks install --client claude --config ~/notes/cairn.toml
  cairn hooks install --client codex,gemini,cursor --dry-run   # show the diff only
  cairn hooks install --client claude --scope project          # this repository only

The hook commands run this cairn binary with the configuration given here (or the one
found now: $CAIRN_CONFIG, ~/.config/cairn/config.toml), so they work whatever the
client's environment is. Claude Code's user settings are found in $CLAUDE_CONFIG_DIR
when it is set. The last three backups of each settings file are kept.")]
    Install(InstallArgs),
    /// Remove cairn's hooks and MCP server from a client's settings (other entries kept).
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

/// Flags shared by install and uninstall.
#[derive(Debug, Clone, Args)]
pub(crate) struct WiringArgs {
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
pub(crate) struct InstallArgs {
    #[command(flatten)]
    pub wiring: WiringArgs,
    #[command(flatten)]
    pub source: VaultArgs,
    /// Do not register the MCP server, only the hooks.
    #[arg(long)]
    pub no_mcp: bool,
    /// Do not wire the prompt hook (run at each prompt), only the session-start hook; removes one an earlier install added.
    #[arg(long)]
    pub no_prompt_hook: bool,
    /// The program clients run (default: this cairn's absolute path).
    #[arg(long, value_name = "PATH")]
    pub bin: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct UninstallArgs {
    #[command(flatten)]
    pub wiring: WiringArgs,
}

#[derive(Debug, Args)]
pub(crate) struct StatusArgs {
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
