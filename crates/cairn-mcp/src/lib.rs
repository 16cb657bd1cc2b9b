//! `cairn mcp`: a stdio Model Context Protocol server (official Rust SDK, `rmcp`) so
//! agents can pull the wake-up packet and search, read, explain and list notes during
//! a session.
//!
//! - [`server`]: the handler: tools, resources and prompts, and their shared plumbing.
//! - `read_tools`: the tools that read (`memory_wakeup`, `memory_search`, `memory_get`,
//!   `memory_explain`, `memory_list`, `memory_recent`); `write_tools`: `memory_write`
//!   and `memory_pin`. Each answers with text plus compact structured content that
//!   repeats the text (`output`: its types and `outputSchema`s).
//! - [`resources`]: every note an agent may read in full as `cairn://note/<id>`.
//! - `prompts`: the `wakeup` and `recent` prompts.
//! - [`params`]: the tools' flat, nullable input schemas.
//! - [`refresh`]: how the engine stays current while the server runs.
//! - [`transport`]: stdin checked line by line, so bad input gets a JSON-RPC error
//!   (`-32700`, `-32600`) and never ends the session.
//!
//! stdout carries the protocol only; nothing here prints.

mod messages;
mod output;
pub mod params;
mod prompts;
mod read_tools;
pub mod refresh;
pub mod resources;
pub mod server;
pub mod transport;
mod write_tools;

use std::path::PathBuf;
use std::sync::Arc;

pub use refresh::{ConfigLoader, EngineProvider, ProviderError, RescanOnChange};
pub use server::CairnServer;
pub use transport::CheckedStdio;

use rmcp::ServiceExt;

/// The server could not start or stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The MCP handshake failed.
    #[error("MCP initialisation failed: {0}")]
    Initialize(String),
    /// The server task failed.
    #[error("the MCP server stopped: {0}")]
    Stopped(String),
}

/// Serves MCP on stdin/stdout until the client disconnects. Blocks.
pub fn run_stdio(
    provider: Arc<dyn EngineProvider>,
    default_cwd: PathBuf,
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let server = CairnServer::new(provider, default_cwd);
        let running = match server
            .serve(CheckedStdio::new(tokio::io::stdin(), tokio::io::stdout()))
            .await
        {
            Ok(r) => r,
            // The client left before initializing: a normal end, not a failure.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(ServeError::Initialize(e.to_string())),
        };
        running
            .waiting()
            .await
            .map_err(|e| ServeError::Stopped(e.to_string()))?;
        Ok(())
    })
}
