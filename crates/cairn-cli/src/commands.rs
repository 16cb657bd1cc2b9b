//! Dispatch: each command to the `cmd_*` module that runs it. Commands that decide
//! their own exit code (hooks, lint, index status) return it; the others succeed
//! with 0 or fail with an error (`error.rs` maps it to a code).

use std::process::ExitCode;

use anyhow::Result;

use crate::args::{Cli, Command, HookEvent};

/// Runs the command `cli` names.
pub(crate) fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Wakeup(a) => crate::cmd_wakeup::run(a)?,
        Command::Explain(a) => crate::cmd_explain::run(a)?,
        Command::Search(a) => crate::cmd_search::run(a)?,
        Command::Get(a) => crate::cmd_get::run(a)?,
        Command::Hook(a) => match a.event {
            HookEvent::SessionStart(s) => {
                return crate::cmd_hook::session_start(s);
            }
            HookEvent::Prompt(p) => return crate::cmd_hook::prompt(p),
        },
        Command::Hooks(a) => return crate::cmd_hooks::hooks(a),
        Command::Mcp(a) => return crate::cmd_mcp::mcp(a),
        Command::Memory(a) => return crate::cmd_memory::run(a),
        Command::Lint(a) => return crate::cmd_lint::run(a),
        Command::Index(a) => return crate::cmd_index::run(&a),
        Command::Init(a) => crate::cmd_init::run(a)?,
        Command::Eval(a) => crate::cmd_eval::run(&a)?,
    }
    Ok(ExitCode::SUCCESS)
}
