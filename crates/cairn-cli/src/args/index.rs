//! `cairn index` flags.

use clap::Args;

use super::TextOrJson;
use crate::source::VaultArgs;

/// `cairn index` flags.
#[derive(Debug, Args)]
pub(crate) struct IndexArgs {
    #[command(flatten)]
    pub source: VaultArgs,
    /// Throw the index away and build it again from every note, and read every project
    /// repository's git history again, whole (after raising `[git] history_days`).
    #[arg(long, conflicts_with = "status")]
    pub rebuild: bool,
    /// Show the index's state (notes, size on disk, last refresh, pending changes, the git
    /// history kept per project repository, and for the repository here when it belongs
    /// to a project: a clone routed by its remote, a linked worktree); change nothing.
    #[arg(long)]
    pub status: bool,
    /// With --status: also read every index file and check its checksum.
    #[arg(long, requires = "status")]
    pub verify: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Print nothing on success (for background refreshes).
    #[arg(long, hide = true)]
    pub quiet: bool,
}
