//! `cairn-synth`: writes a deterministic synthetic vault (see the library header).

#![allow(clippy::print_stdout)]

use std::path::PathBuf;

use anyhow::Result;
use clap::Parser;

/// Write a synthetic cairn vault: notes of about 3 KB over several projects, with a
/// cairn.toml and stand-in repositories. The same flags always give the same files.
#[derive(Debug, Parser)]
#[command(
    name = "cairn-synth",
    version,
    after_help = "Example:\n  cairn-synth /tmp/vault10k --notes 10000\n  cairn-synth /tmp/vault10k --edit 10 --seed 7     # touch 10 notes\n  cairn wakeup --config /tmp/vault10k/cairn.toml --cwd /tmp/vault10k/repos/ledger --task \"fix the payout retry\""
)]
struct Args {
    /// Folder to write into (created if missing).
    out: PathBuf,
    /// Number of notes.
    #[arg(long, default_value_t = 1000)]
    notes: usize,
    /// Seed.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Number of projects (1 to 8).
    #[arg(long, default_value_t = 6)]
    projects: usize,
    /// Instead of writing a vault, append a paragraph to this many notes of the vault
    /// already in OUT (chosen by --seed), as an editor would between two runs.
    #[arg(long, value_name = "COUNT")]
    edit: Option<usize>,
}

fn main() -> Result<()> {
    let a = Args::parse();
    if let Some(count) = a.edit {
        let edited = cairn_synth::edit(&a.out.join("vault"), count, a.seed)?;
        println!(
            "edited {} notes under {}",
            edited.len(),
            a.out.join("vault").display()
        );
        return Ok(());
    }
    let spec = cairn_synth::Spec {
        notes: a.notes,
        seed: a.seed,
        projects: a.projects,
    };
    let g = cairn_synth::generate(&a.out, &spec)?;
    println!(
        "wrote {} notes ({:.1} MB) for projects {} to {}\nconfig: {}",
        g.notes,
        g.bytes as f64 / 1e6,
        g.projects.join(", "),
        g.vault.display(),
        g.config.display()
    );
    Ok(())
}
