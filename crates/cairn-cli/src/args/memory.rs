//! `cairn memory …` flags: the subcommands, the scope and write flags they share,
//! and the long help (scopes, safe writes, exit codes).
// Doc comments on clap fields are the command's help text, not rustdoc
// markup: `<vault>` and `[index] dir` read as plain text there.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::TextOrJson;
use crate::source::VaultArgs;

const MEMORY_HELP: &str = "\
Scopes: global (cross-project rules), user (you), project/<id> (default when the
working directory belongs to a configured project, else user), persona/<name>.
Each is a folder of the vault ([memory] in cairn.toml) with one note per memory
and a generated MEMORY.md index.

Writes never overwrite silently: an existing note needs --append (adds a dated
section) or --force (replaces the body, keeps other frontmatter keys). Every write
is validated, locked against concurrent writers, size-capped, checked for
credentials and atomic. --dry-run prints the unified diff and writes nothing;
--expect-hash H writes only if the note still has content hash H (see `show`).
No write lowers a note's sensitivity, or an entry's in decisions.md / lessons.md
(a --sensitivity, an edit of the key, a deleted **Sensitivity:** line, a rename
that stops a file being an entry file), unless you pass --declassify.

Examples:
  cairn memory write retry-policy --type decision --description \"Payouts retry 3 times\" \\
      --body \"Retry payouts with capped exponential backoff.\"
  cairn memory write retry-policy --append --body \"Cap raised to 5 tries.\" --dry-run
  cairn memory write decisions --append --title \"Use NATS for events\" --category architecture \\
      --tags events,nats --body \"Replaces Kafka: simpler to run.\"
  cairn memory edit retry-policy --old \"3 times\" --new \"5 times\"
  cairn memory supersede kafka-events --by nats-events
  cairn memory list --scope user --format json

Exit codes: 0 ok, 1 not found or I/O failure (also: the note was written but
MEMORY.md could not be; the next write repairs it), 2 usage error, 3 refused
(nothing changed), 4 refused by policy (secret note).";

/// `cairn memory`.
#[derive(Debug, Args)]
#[command(after_help = MEMORY_HELP)]
pub(crate) struct MemoryArgs {
    #[command(flatten)]
    pub source: VaultArgs,
    #[command(subcommand)]
    pub command: MemoryCommand,
}

/// The memory subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum MemoryCommand {
    /// List the notes of a scope (title, type, pins, usage).
    List(ListArgs),
    /// Print one note (secret notes refused, confidential withheld, credentials redacted).
    Show(ShowArgs),
    /// Print the folder of a scope.
    Path(ScopeArgs),
    /// Create a note; with --append or --force, add to or replace an existing one.
    Write(WriteArgs),
    /// Replace the one occurrence of --old with --new.
    Edit(EditArgs),
    /// Insert text after line N (0 = at the top).
    Insert(InsertArgs),
    /// Rename a note within its scope (never overwrites).
    Mv(MvArgs),
    /// Move a note to the scope's archive folder (--purge deletes it).
    Rm(RmArgs),
    /// Pin a note: it enters every wake-up packet of its scope.
    Pin(SlugArgs),
    /// Unpin a note.
    Unpin(SlugArgs),
    /// Mark OLD `status: superseded` by NEW, linking both ways.
    Supersede(SupersedeArgs),
    /// Regenerate the scope's MEMORY.md index.
    Reindex(ScopeArgs),
}

/// Which scope.
#[derive(Debug, Clone, Args)]
pub(crate) struct ScopeArgs {
    /// global, user, project/<id> or persona/<name> (default: the project the working directory belongs to, else user).
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// Working directory that picks the default scope (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
}

/// Flags of every write.
#[derive(Debug, Clone, Args)]
pub(crate) struct WriteFlags {
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Write only if the note's content hash is still H (compare-and-swap; `show` prints it).
    #[arg(long, value_name = "H")]
    pub expect_hash: Option<String>,
    /// Print the unified diff of what would change, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Allow this write to lower the sensitivity of a note or of an entry (e.g.
    /// secret → internal). Without it such a write is refused (exit 3) and nothing
    /// changes. Agents cannot declassify over MCP.
    #[arg(long)]
    pub declassify: bool,
    /// Pin "now" (RFC 3339) for the dates written into notes.
    #[arg(long, value_name = "RFC3339", hide_short_help = true)]
    pub now: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
}

#[derive(Debug, Args)]
pub(crate) struct ShowArgs {
    /// The note's name (file name without .md).
    pub slug: String,
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Output format (json includes the content hash).
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["body", "body_file"])))]
pub(crate) struct WriteArgs {
    /// The note's name: its file name without .md (e.g. retry-policy).
    pub slug: String,
    /// The markdown body (`-` reads standard input).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub body: Option<String>,
    /// Read the body from a file (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub body_file: Option<PathBuf>,
    /// If the note exists, add the body as a dated section (a dated entry in decisions.md / lessons.md).
    #[arg(long, conflicts_with = "force")]
    pub append: bool,
    /// If the note exists, replace its body (frontmatter keys not given are kept).
    #[arg(long)]
    pub force: bool,
    /// `memory_type`: project, decision, preference, constraint, pattern, incident, person, workflow, session, reference.
    #[arg(long = "type", value_name = "TYPE")]
    pub memory_type: Option<String>,
    /// Title (default: from the name). In decisions.md / lessons.md: the entry's title.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// One-line description (shown in MEMORY.md and packets).
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// public, internal (default), confidential or secret.
    #[arg(long, value_name = "LEVEL")]
    pub sensitivity: Option<String>,
    /// Tags (comma-separated).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub tags: Vec<String>,
    /// An entry's **Category:** (decisions.md / lessons.md).
    #[arg(long, value_name = "TEXT")]
    pub category: Option<String>,
    /// Accept credentials in the text and store the note as `sensitivity: secret`.
    #[arg(long)]
    pub allow_secrets: bool,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub(crate) struct EditArgs {
    /// The note's name.
    pub slug: String,
    /// The text to replace (must occur exactly once in the file).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub old: String,
    /// The replacement.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub new: String,
    /// Accept credentials in the new text and mark the note secret.
    #[arg(long)]
    pub allow_secrets: bool,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub(crate) struct InsertArgs {
    /// The note's name.
    pub slug: String,
    /// Insert after this line of the file (0 = at the top).
    #[arg(long, value_name = "N")]
    pub line: usize,
    /// The text to insert.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub text: String,
    /// Accept credentials in the text and mark the note secret.
    #[arg(long)]
    pub allow_secrets: bool,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub(crate) struct MvArgs {
    /// The note's name.
    pub slug: String,
    /// Its new name (must not exist).
    pub new: String,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub(crate) struct RmArgs {
    /// The note's name.
    pub slug: String,
    /// Delete the file instead of moving it to the archive folder.
    #[arg(long)]
    pub purge: bool,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub(crate) struct SlugArgs {
    /// The note's name.
    pub slug: String,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub(crate) struct SupersedeArgs {
    /// The note being replaced.
    pub old: String,
    /// The note replacing it (same scope).
    #[arg(long, value_name = "NEW")]
    pub by: String,
    #[command(flatten)]
    pub flags: WriteFlags,
}
