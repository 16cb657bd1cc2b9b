//! `cairn-synth`: writes a deterministic synthetic vault, or edits a few of its notes.

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Deterministic synthetic vaults for cairn's benchmarks and tests.
#[derive(Debug, Parser)]
#[command(name = "cairn-synth")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Write `DIR/cairn.toml` and `DIR/vault/` with N notes.
    Gen {
        /// Output folder.
        dir: PathBuf,
        /// Number of notes.
        #[arg(long, default_value_t = 2000)]
        notes: usize,
        /// Seed.
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Number of projects (1 to 12).
        #[arg(long, default_value_t = 6)]
        projects: usize,
    },
    /// Append a paragraph to N notes of a vault, picked by the seed.
    Edit {
        /// The vault folder.
        vault: PathBuf,
        /// How many notes.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Seed (use a new one per run to make new edits).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let res = match cli.command {
        Command::Gen {
            dir,
            notes,
            seed,
            projects,
        } => cairn_synth::generate(
            &dir,
            &cairn_synth::Spec {
                notes,
                seed,
                projects,
                ..cairn_synth::Spec::default()
            },
        )
        .map(|s| {
            println!(
                "wrote {} notes ({:.1} MB) for {} projects into {}; config {}",
                s.notes,
                s.bytes as f64 / 1e6,
                s.projects.len(),
                s.vault.display(),
                s.config.display()
            )
        }),
        Command::Edit { vault, count, seed } => {
            cairn_synth::edit(&vault, count, seed).map(|p| println!("edited {} notes", p.len()))
        }
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cairn-synth: {e}");
            ExitCode::FAILURE
        }
    }
}
