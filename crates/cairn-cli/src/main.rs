//! `cairn`: the command line. The only crate that parses flags and prints.
//!
//! Flags are parsed and validated by clap (`args/`, which knows no command), then
//! resolved into the libraries' typed requests (`request.rs`); the vault they
//! select is loaded and opened in one place (`source.rs`); `commands.rs` hands each
//! command to its `cmd_*.rs`, which runs it and prints through `output.rs`. Data
//! goes to stdout, diagnostics to stderr. Exit codes (`error.rs`): 0 success,
//! 1 failure (not found, I/O), 2 usage or configuration error, 3 write refused
//! (nothing changed), 4 refused by policy.

#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod cmd_eval;
mod cmd_explain;
mod cmd_get;
mod cmd_hook;
mod cmd_hooks;
mod cmd_index;
mod cmd_init;
mod cmd_lint;
mod cmd_mcp;
mod cmd_memory;
mod cmd_search;
mod cmd_wakeup;
mod commands;
mod error;
mod index_report;
mod output;
mod progress;
mod request;
mod source;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc: a command decodes thousands of cached notes (tens of thousands of
/// small strings) on its way to a packet; the system allocator spends a fifth of a
/// warm wake-up on them, mimalloc much less (docs/BENCHMARKS.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // No backtraces for users: an internal error is one line and a distinct exit code.
    // A panic inside the index is caught, recovered from and reported by the
    // caller (one warning): nothing to say here.
    std::panic::set_hook(Box::new(|info| {
        if cairn_engine::panic_is_contained() {
            return;
        }
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("cairn: internal error: {msg}{at} (please report this)");
    }));
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        // A client's hook run answers in its envelope whatever its arguments.
        Err(e) => match cmd_hook::answer_bad_arguments(&e) {
            Some(code) => return code,
            None => e.exit(),
        },
    };
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            let code = error::exit_code(&err);
            eprintln!("cairn: error: {}", error::one_line(&format!("{err:#}")));
            ExitCode::from(code)
        }
    }
}
