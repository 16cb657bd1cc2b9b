//! Command-line flags, as clap parses them: every command's flags, help text and
//! value enums, validated by clap and nothing else. This module knows nothing of
//! the commands that run them or of the requests they resolve into
//! (`request.rs`); `VaultArgs`, the vault selection every command flattens in, lives
//! with config loading in `source.rs`.

mod eval;
mod hook;
mod index;
mod lint;
mod mcp;
mod memory;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub(crate) use eval::{EvalArgs, EvalFormat};
pub(crate) use hook::{
    ClientArg, HookArgs, HookEvent, HooksAction, HooksArgs, InstallArgs, PromptArgs,
    PromptClientArg, ScopeArg, SessionStartArgs, StatusArgs, WiringArgs,
};
pub(crate) use index::IndexArgs;
pub(crate) use lint::LintArgs;
pub(crate) use mcp::McpArgs;
pub(crate) use memory::{MemoryArgs, MemoryCommand, ScopeArgs, WriteArgs, WriteFlags};

use crate::source::VaultArgs;

const ABOUT: &str = "Durable, trustworthy memory for AI coding agents, from your markdown vault.";

const LONG_ABOUT: &str = "\
Durable, trustworthy memory for AI coding agents, from your markdown vault.

cairn reads the notes you keep (decisions, constraints, incidents, preferences),
works out which project your working directory belongs to, ranks the notes for
the task at hand, keeps secrets out, and prints a compact wake-up packet for
Claude Code, Codex, Cursor, Gemini CLI or opencode.

Configuration is found in this order: --config FILE, $CAIRN_CONFIG,
$XDG_CONFIG_HOME/cairn/config.toml (~/.config/cairn/config.toml). Without one,
--vault DIR treats a folder of notes as one vault.";

const AFTER_HELP: &str = "\
Examples:
  cairn init ~/notes                                  # adopt your notes, or a starter vault
  cairn wakeup --config ~/notes/cairn.toml --task \"fix the flaky payout test\"
  cairn search \"idempotency keys\" --vault ~/notes
  cairn explain --task \"schema migration\"             # why each note was (not) chosen
  cairn memory write retry-policy --body \"...\" --dry-run  # see the diff, write nothing
  cairn lint --format json                            # vault health, exit 1 on errors

Exit codes: 0 ok, 1 failure (lint: errors found), 2 usage or configuration error,
3 write refused (nothing changed), 4 refused by policy.";

/// The `cairn` command line.
#[derive(Debug, Parser)]
#[command(name = "cairn", version, about = ABOUT, long_about = LONG_ABOUT, after_help = AFTER_HELP)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Print the wake-up packet for a session: the notes that matter for this project and task.
    #[command(after_help = "\
Examples:
  cairn wakeup --target claude                        # in a session-start hook
  cairn wakeup --task \"add retry to payouts\" --files src/settlement/payout.rs
  cairn wakeup --format json --now 2026-01-01T00:00:00Z   # reproducible output")]
    Wakeup(WakeupArgs),
    /// Search the notes (same ranking and policy as wakeup).
    #[command(after_help = "\
Examples:
  cairn search \"kafka consumer lag\"
  cairn search \"retry\" --all --format json --limit 5")]
    Search(SearchArgs),
    /// Print one note by path, id, file name or title (secrets refused, credentials redacted).
    Get(GetArgs),
    /// Show the routing trace, every candidate's score breakdown and why it was or was not chosen.
    Explain(ExplainArgs),
    /// Write a cairn.toml: adopt a folder that holds notes, or create a starter vault (never overwrites).
    Init(InitArgs),
    /// Run a client hook: `cairn hook session-start --client claude`, `cairn hook prompt --client claude` (what `hooks install` configures).
    Hook(HookArgs),
    /// Wire cairn into Claude Code, Codex, Gemini CLI or Cursor: install, uninstall, status.
    #[command(after_help = "\
Examples:
  cairn hooks install --client claude --config ~/notes/cairn.toml
  cairn hooks status")]
    Hooks(HooksArgs),
    /// Serve memory to agents over MCP (stdio): wakeup, search, get, explain, list.
    Mcp(McpArgs),
    /// Read and deliberately write memory notes (scopes, MEMORY.md, safe writes).
    Memory(MemoryArgs),
    /// Check the vault: broken links, stale or contradicting decisions, duplicates, secrets.
    Lint(LintArgs),
    /// Measure retrieval quality on a suite of notes and graded queries.
    #[command(after_help = eval::EVAL_AFTER_HELP)]
    Eval(EvalArgs),
    /// Bring the vault's persistent index up to date, rebuild it, or show its state;
    /// read the projects' git history.
    #[command(after_help = "\
Every command keeps the index current by itself (it re-reads only the notes that
changed since the last run); `cairn index` is for doing it ahead of time, starting
over, or looking.

It also reads the git history of each project's repositories (its repo paths, and
the repository it runs in when that belongs to the project routed there), the
first time whole (at most [git] history_commits commits and history_days days):
notes whose related files changed since their date are then marked \"code changed
since\". Later commands only add new commits; the session-start hook starts a
background `cairn index` when a repository's history is not read yet.

The index lives in $XDG_CACHE_HOME/cairn/<vault> (~/.cache/cairn/<vault>) unless
[index] dir in cairn.toml or --index-dir says otherwise.

Examples:
  cairn index                  # refresh now
  cairn index --status         # notes, size on disk, last refresh, pending changes, git history
  cairn index --rebuild        # start over")]
    Index(IndexArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TargetArg {
    Claude,
    Codex,
    Cursor,
    Gemini,
    Opencode,
    Generic,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    /// The authoritative packet.
    Json,
    /// A readable handoff.
    Markdown,
    /// A compact briefing for a model.
    Prompt,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RankingArg {
    /// BM25 with every boost.
    Full,
    /// Plain BM25 (baseline).
    Bm25,
}

/// Flags shared by wakeup and explain.
#[derive(Debug, Clone, Args)]
pub(crate) struct PacketArgs {
    /// Working directory to route (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Use this project instead of routing by directory.
    #[arg(long, value_name = "ID")]
    pub project: Option<String>,
    /// What you are about to do, in your own words.
    #[arg(long, value_name = "TEXT", default_value = "")]
    pub task: String,
    /// Files you are about to touch (comma-separated, relative to --cwd or absolute).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub files: Vec<String>,
    /// Packet profile: project, developer, or one from --profiles-dir (default: project when a project matches).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// The AI client to shape the output for.
    #[arg(long, value_enum, default_value = "generic")]
    pub target: TargetArg,
    /// Token budget of the rendered output (default: the profile's, 1500 for prompt).
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<usize>,
    /// Pin "now" (RFC 3339, e.g. 2026-11-22T09:00:00Z) for reproducible output.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// Ranking: full (default) or plain bm25.
    #[arg(long, value_enum, default_value = "full", hide_short_help = true)]
    pub ranking: RankingArg,
    /// How the session starts: startup, resume, compact or clear. On resume and
    /// compact the project's latest session note is shown whatever its age.
    #[arg(
        long = "source",
        value_enum,
        default_value = "startup",
        value_name = "HOW"
    )]
    pub session: SessionArg,
    /// At most N notes ranked for the task (the hot layer is not counted).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    #[command(flatten)]
    pub(crate) derive: DeriveArgs,
}

/// Whether a request without a task takes one from git.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct DeriveArgs {
    /// With no --task, take none from git (by default the branch, the changed
    /// files and the branch's commits are the task when the repository belongs to
    /// the routed project). `[git] derive = false` does the same for every run.
    #[arg(long, conflicts_with = "derive")]
    pub(crate) no_derive: bool,
    /// With no --task, take one from the git repository of --cwd even when no
    /// project is routed.
    #[arg(long)]
    pub(crate) derive: bool,
}

impl DeriveArgs {
    /// The flags over the configuration's `[git] derive`.
    pub(crate) fn apply(self, config: &mut cairn_engine::config::Config) {
        use cairn_engine::config::Derive;
        if self.no_derive {
            config.git.derive = Derive::Never;
        } else if self.derive {
            config.git.derive = Derive::Always;
        }
    }
}

/// How a session starts, as clients report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SessionArg {
    Startup,
    Resume,
    Compact,
    Clear,
}

#[derive(Debug, Args)]
pub(crate) struct WakeupArgs {
    #[command(flatten)]
    pub source: VaultArgs,
    #[command(flatten)]
    pub packet: PacketArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "prompt")]
    pub format: FormatArg,
    /// Answer within N milliseconds: when the index needs a long refresh or a first
    /// build, answer from the last good index (or the notes readable in time),
    /// mark the packet partial, and finish the refresh in the background.
    #[arg(long, value_name = "N")]
    pub deadline_ms: Option<u64>,
    /// List the scan warnings on stderr (notes skipped or read with defaults),
    /// one per line, instead of their count. Those about secret notes are only
    /// counted: `cairn lint` lists them.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    pub source: VaultArgs,
    #[command(flatten)]
    pub packet: PacketArgs,
    /// Output as JSON instead of text.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TextOrJson {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    /// What to look for.
    pub query: String,
    #[command(flatten)]
    pub source: VaultArgs,
    /// Working directory to route (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Search this project's notes (and the developer's) instead of routing.
    #[arg(long, value_name = "ID")]
    pub project: Option<String>,
    /// Search the whole vault, not only the routed project's and the developer's notes.
    #[arg(long)]
    pub all: bool,
    /// Maximum results.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub limit: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Ranking: full (default) or plain bm25.
    #[arg(long, value_enum, default_value = "full", hide_short_help = true)]
    pub ranking: RankingArg,
}

#[derive(Debug, Args)]
pub(crate) struct GetArgs {
    /// A vault-relative path, an id (path without .md), a file name or a title.
    pub note: String,
    #[command(flatten)]
    pub source: VaultArgs,
    /// Only these lines of the note, 1-based and inclusive: `10..40`, `10..` (to the
    /// end) or `..40` (from the start).
    #[arg(long, value_name = "A..B", value_parser = parse_line_range)]
    pub lines: Option<(usize, Option<usize>)>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
}

/// `A..B`, `A..` or `..B` (1-based, inclusive) → (start, end).
fn parse_line_range(s: &str) -> Result<(usize, Option<usize>), String> {
    let bad = || format!("{s:?} is not a line range: write 10..40, 10.. or ..40");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let num = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
    let start = if a.trim().is_empty() { 1 } else { num(a)? };
    let end = if b.trim().is_empty() {
        None
    } else {
        Some(num(b)?)
    };
    if start == 0 || end == Some(0) {
        return Err(format!("{s:?}: lines are counted from 1"));
    }
    Ok((start, end))
}

#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// Folder of notes to adopt, or to create a starter vault in (default: the current directory).
    pub dir: Option<PathBuf>,
}
