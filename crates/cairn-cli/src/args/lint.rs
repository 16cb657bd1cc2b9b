//! `cairn lint` flags and its long help (what is checked, exit codes).

use clap::Args;

use super::TextOrJson;
use crate::source::VaultArgs;

const LINT_HELP: &str = "\
Reports, with file and line: unreadable frontmatter and unknown values, broken
[[wikilinks]] and related_memory/supersedes references, superseded notes with no
successor, decisions that contradict a newer one on the same subject, notes past
review_after, near-duplicate notes (with how alike they are), MEMORY.md indexes
out of date or over budget, credentials in notes that are not secret (never the
value), and pinned notes that overflow the packet budget.

Exit codes: 0 no errors (warnings allowed unless --deny-warnings), 1 errors found,
2 usage or configuration error. Run it in the vault's CI.";

#[derive(Debug, Args)]
#[command(after_help = LINT_HELP)]
pub(crate) struct LintArgs {
    #[command(flatten)]
    pub source: VaultArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Pin "today" (RFC 3339) for review dates.
    #[arg(long, value_name = "RFC3339", hide_short_help = true)]
    pub now: Option<String>,
}
