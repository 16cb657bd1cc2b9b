//! `cairn mcp`: serve the vault to agents over MCP on stdin/stdout (see `cairn-mcp`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use cairn_engine::config::Discovery;
use cairn_engine::{IndexMode, OpenOptions, PersistentOptions};
use cairn_mcp::{ProviderError, RescanOnChange};

use crate::args::McpArgs;
use crate::source::load_config;

/// Runs `cairn mcp` until stdin ends.
pub(crate) fn mcp(a: McpArgs) -> Result<ExitCode> {
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
