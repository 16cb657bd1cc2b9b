//! `cairn mcp`: serve the vault to agents over MCP on stdin/stdout (see `cairn-mcp`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use cairn_engine::config::Discovery;
use cairn_engine::{IndexMode, OpenOptions, PersistentOptions};
use cairn_mcp::{ProviderError, RescanOnChange};
use clap::Args;

use crate::args::Source;
use crate::commands::load_config;

#[derive(Debug, Args)]
#[command(after_help = "\
Clients start it themselves (`cairn hooks install` registers it); stdout carries the
protocol only. Tools: memory_wakeup, memory_search, memory_get, memory_explain and
memory_list (read-only), memory_write and memory_pin (the store of `cairn memory`),
under the same policy as the CLI. Notes edited while it runs are seen by the next call. Bad input (a line that is not JSON, a request before
`initialize`, an unknown argument name) gets a JSON-RPC error; the server keeps running.

Example (what a client runs):
  cairn mcp --config ~/notes/cairn.toml")]
pub struct McpArgs {
    #[command(flatten)]
    pub source: Source,
}

pub fn mcp(a: McpArgs) -> Result<ExitCode> {
    // Fail fast, before the handshake, on a configuration that cannot load.
    load_config(&a.source)?;
    let config_file = if a.source.vault.is_some() {
        None
    } else {
        Discovery::new(a.source.config.clone(), |k| std::env::var(k).ok()).locate()?
    };
    let source = a.source.clone();
    let provider = RescanOnChange::new(
        Box::new(move || load_config(&source).map_err(|e| ProviderError(format!("{e:#}")))),
        config_file,
        OpenOptions {
            profiles_dir: a.source.profiles_dir.clone(),
            index: IndexMode::Persistent(PersistentOptions {
                dir: a.source.index_dir.clone(),
                ..PersistentOptions::default()
            }),
        },
    );
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    cairn_mcp::run_stdio(Arc::new(provider), cwd).context("MCP server")?;
    Ok(ExitCode::SUCCESS)
}
