//! Where the vault comes from: the `--config`/`--vault`/`--profiles-dir`/`--index-dir`
//! flags every command takes (`VaultArgs`), the configuration they select (discovery,
//! loading), and how the engine opens it (the persistent index, a deadline, the
//! progress bar).
// Doc comments on clap fields are the command's help text, not rustdoc
// markup: `<vault>` and `[index] dir` read as plain text there.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use cairn_engine::config::{Config, Discovery};
use cairn_engine::{Engine, IndexMode, OpenOptions, PersistentOptions};
use clap::Args;

use crate::error::UsageError;
use crate::progress::Bar;

/// Where the vault comes from. (The doc comments are `--help` text, printed as
/// written: no backticks around variable names.)
#[allow(clippy::doc_markdown)]
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct VaultArgs {
    /// Configuration file (else the file $CAIRN_CONFIG names, else
    /// ~/.config/cairn/config.toml).
    #[arg(long, value_name = "FILE", global = true, conflicts_with = "vault")]
    pub config: Option<PathBuf>,
    /// Use this folder as one vault, without a configuration file.
    #[arg(long, value_name = "DIR", global = true)]
    pub vault: Option<PathBuf>,
    /// Folder of extra profiles (*.toml) and templates (templates/<format>/<target>.j2).
    #[arg(long, value_name = "DIR", global = true, hide_short_help = true)]
    pub profiles_dir: Option<PathBuf>,
    /// Folder of the persistent index (default: [index] dir, else
    /// $CAIRN_CACHE_DIR/<vault>, else $XDG_CACHE_HOME/cairn/<vault>, else
    /// ~/.cache/cairn/<vault>).
    #[arg(long, value_name = "DIR", global = true, hide_short_help = true)]
    pub index_dir: Option<PathBuf>,
}

/// The configuration `source` selects: `--vault DIR` as one vault, else the file
/// discovery finds (`--config`, `$CAIRN_CONFIG`, XDG).
pub(crate) fn load_config(source: &VaultArgs) -> Result<Config> {
    if let Some(v) = &source.vault {
        return Ok(Config::for_vault(v)?);
    }
    let discovery = Discovery::new(source.config.clone(), |k| std::env::var(k).ok());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match discovery.locate()? {
        Some(path) => Ok(Config::load(&path, home.as_deref())?),
        None => Err(UsageError(
            "no configuration found: pass --config FILE or --vault DIR, set $CAIRN_CONFIG, or run `cairn init`".into(),
        )
        .into()),
    }
}

/// Loads the configuration and opens the engine from the persistent index, telling
/// stderr what the index did.
pub(crate) fn open(source: &VaultArgs) -> Result<Engine> {
    let config = load_config(source)?;
    let opts = open_options(source, None, false);
    let engine = Engine::open(config, &opts)?;
    crate::index_report::report(&engine, source);
    Ok(engine)
}

/// Engine options for `source`: the persistent index, with a progress bar.
pub(crate) fn open_options(
    source: &VaultArgs,
    deadline: Option<Instant>,
    rebuild: bool,
) -> OpenOptions {
    OpenOptions {
        profiles_dir: source.profiles_dir.clone(),
        index: IndexMode::Persistent(PersistentOptions {
            dir: source.index_dir.clone(),
            rebuild,
            deadline,
            progress: Some(Arc::new(Bar::new())),
            verify: false,
        }),
    }
}
