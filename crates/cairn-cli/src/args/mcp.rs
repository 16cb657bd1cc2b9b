//! `cairn mcp` flags and its long help.

use clap::Args;

use crate::source::VaultArgs;

#[derive(Debug, Args)]
#[command(after_help = "\
Clients start it themselves (`cairn hooks install` registers it); stdout carries the
protocol only. Tools: memory_wakeup, memory_search, memory_get, memory_explain,
memory_list and memory_recent (read-only), memory_write and memory_pin (the store of
`cairn memory`); each answers with text and structured content that repeats it.
Resources: every public or internal note as cairn://note/<id> (markdown; in Claude
Code, @-mention it). Prompts: wakeup (task, files) and recent (limit, days). All under
the same policy as the CLI. Notes edited while it runs are seen by the next call. Bad
input (a line that is not JSON, a request before `initialize`, an unknown argument
name) gets a JSON-RPC error; the server keeps running.

Example (what a client runs):
  cairn mcp --config ~/notes/cairn.toml")]
pub(crate) struct McpArgs {
    #[command(flatten)]
    pub source: VaultArgs,
}
