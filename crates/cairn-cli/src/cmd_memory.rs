//! `cairn memory …`: list, read and deliberately write memory notes in the
//! vault's scope folders (flags, then printing; the work is in `cairn-memory`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_engine::config::Config;
use cairn_memory::{
    Action, ErrorKind, MemoryError, NewNote, Op, Outcome, Scope, Store, WriteMode, WriteOptions,
};
use cairn_note::{MemoryType, Sensitivity};
use clap::{Args, Subcommand};

use crate::args::{Source, TextOrJson, UsageError, resolve_cwd, resolve_now};
use crate::commands::{load_config, print_json, print_out};

/// Exit code for refusals.
pub const EXIT_REFUSED: u8 = 3;

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
pub struct MemoryArgs {
    #[command(flatten)]
    pub source: Source,
    #[command(subcommand)]
    pub command: MemoryCommand,
}

/// The memory subcommands.
#[derive(Debug, Subcommand)]
pub enum MemoryCommand {
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
pub struct ScopeArgs {
    /// global, user, project/<id> or persona/<name> (default: the project the working directory belongs to, else user).
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// Working directory that picks the default scope (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
}

/// Flags of every write.
#[derive(Debug, Clone, Args)]
pub struct WriteFlags {
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
pub struct ListArgs {
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
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
pub struct WriteArgs {
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
    /// memory_type: project, decision, preference, constraint, pattern, incident, person, workflow, session, reference.
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
pub struct EditArgs {
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
pub struct InsertArgs {
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
pub struct MvArgs {
    /// The note's name.
    pub slug: String,
    /// Its new name (must not exist).
    pub new: String,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub struct RmArgs {
    /// The note's name.
    pub slug: String,
    /// Delete the file instead of moving it to the archive folder.
    #[arg(long)]
    pub purge: bool,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub struct SlugArgs {
    /// The note's name.
    pub slug: String,
    #[command(flatten)]
    pub flags: WriteFlags,
}

#[derive(Debug, Args)]
pub struct SupersedeArgs {
    /// The note being replaced.
    pub old: String,
    /// The note replacing it (same scope).
    #[arg(long, value_name = "NEW")]
    pub by: String,
    #[command(flatten)]
    pub flags: WriteFlags,
}

/// The exit code of a memory error, if `err` is one.
pub fn exit_code(err: &anyhow::Error) -> Option<u8> {
    err.downcast_ref::<MemoryError>().map(|e| match e.kind() {
        ErrorKind::Refused => EXIT_REFUSED,
        ErrorKind::NotFound | ErrorKind::Io => 1,
        ErrorKind::Usage => 2,
        ErrorKind::Policy => 4,
    })
}

/// Runs `cairn memory …`.
pub fn run(a: MemoryArgs) -> Result<ExitCode> {
    let config = load_config(&a.source)?;
    let mut store = Store::new(config.clone());
    if let Some(dir) = cairn_memory::default_cache_dir(|k| std::env::var(k).ok()) {
        match store.clone().with_usage(&dir) {
            Ok(s) => store = s,
            Err(e) => warn(&format!("usage statistics off: {e}")),
        }
    }
    match a.command {
        MemoryCommand::List(l) => {
            let scope = scope_of(&config, &l.scope)?;
            let items = store.list(&scope)?;
            match l.format {
                TextOrJson::Json => print_json(&items)?,
                TextOrJson::Text => print_out(&list_text(&store, &scope, &items)?)?,
            }
        }
        MemoryCommand::Show(s) => {
            let scope = scope_of(&config, &s.scope)?;
            let mut warnings = Vec::new();
            let shown = store.show(&scope, &s.slug, chrono::Utc::now(), &mut warnings)?;
            match s.format {
                TextOrJson::Json => print_json(&shown)?,
                TextOrJson::Text if shown.withheld => print_out(&format!(
                    "{} ({})\n{}\n",
                    shown.title,
                    shown.path,
                    cairn_engine::WITHHELD_NOTICE
                ))?,
                TextOrJson::Text => {
                    let mut c = shown.content.clone();
                    if !c.ends_with('\n') {
                        c.push('\n');
                    }
                    print_out(&c)?;
                    eprintln!(
                        "cairn: {} (content hash {}; --expect-hash {} writes only if unchanged)",
                        shown.path, shown.hash, shown.hash
                    );
                }
            }
            if shown.redactions > 0 {
                eprintln!("cairn: {} credentials redacted", shown.redactions);
            }
            warnings.iter().for_each(|w| warn(w));
        }
        MemoryCommand::Path(p) => {
            let scope = scope_of(&config, &p)?;
            let (_, abs) = store.folder(&scope)?;
            print_out(&format!("{}\n", abs.display()))?;
        }
        MemoryCommand::Reindex(p) => {
            let scope = scope_of(&config, &p)?;
            let outcome = store.reindex(&scope, chrono::Utc::now())?;
            report(&outcome, TextOrJson::Text)?;
        }
        MemoryCommand::Write(w) => {
            let body = read_body(&w)?;
            let meta = NewNote {
                title: w.title.clone(),
                memory_type: w
                    .memory_type
                    .as_deref()
                    .map(|t| {
                        MemoryType::parse(t).ok_or_else(|| {
                            usage(format!(
                                "--type {t}: use one of {}",
                                words(MemoryType::ALL.iter().map(|t| t.as_str()))
                            ))
                        })
                    })
                    .transpose()?,
                description: w.description.clone(),
                sensitivity: w
                    .sensitivity
                    .as_deref()
                    .map(|s| {
                        Sensitivity::parse(s).ok_or_else(|| {
                            usage(format!(
                                "--sensitivity {s}: use one of {}",
                                words(Sensitivity::ALL.iter().map(|s| s.as_str()))
                            ))
                        })
                    })
                    .transpose()?,
                tags: w.tags.clone(),
                category: w.category.clone(),
            };
            let mode = if w.append {
                WriteMode::Append
            } else if w.force {
                WriteMode::Force
            } else {
                WriteMode::Create
            };
            let op = Op::Write {
                slug: w.slug.clone(),
                body,
                mode,
                meta,
            };
            return write(&config, &store, &w.flags, op, w.allow_secrets);
        }
        MemoryCommand::Edit(e) => {
            let op = Op::Edit {
                slug: e.slug,
                old: e.old,
                new: e.new,
            };
            return write(&config, &store, &e.flags, op, e.allow_secrets);
        }
        MemoryCommand::Insert(i) => {
            let op = Op::Insert {
                slug: i.slug,
                line: i.line,
                text: i.text,
            };
            return write(&config, &store, &i.flags, op, i.allow_secrets);
        }
        MemoryCommand::Mv(m) => {
            let op = Op::Move {
                slug: m.slug,
                to: m.new,
            };
            return write(&config, &store, &m.flags, op, false);
        }
        MemoryCommand::Rm(r) => {
            let op = Op::Remove {
                slug: r.slug,
                purge: r.purge,
            };
            return write(&config, &store, &r.flags, op, false);
        }
        MemoryCommand::Pin(p) => {
            let op = Op::Pin {
                slug: p.slug,
                pinned: true,
            };
            return write(&config, &store, &p.flags, op, false);
        }
        MemoryCommand::Unpin(p) => {
            let op = Op::Pin {
                slug: p.slug,
                pinned: false,
            };
            return write(&config, &store, &p.flags, op, false);
        }
        MemoryCommand::Supersede(s) => {
            let op = Op::Supersede {
                old: s.old,
                by: s.by,
            };
            return write(&config, &store, &s.flags, op, false);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write(
    config: &Config,
    store: &Store,
    flags: &WriteFlags,
    op: Op,
    allow_secrets: bool,
) -> Result<ExitCode> {
    let scope = scope_of(config, &flags.scope)?;
    let opts = WriteOptions {
        expect_hash: flags.expect_hash.clone(),
        dry_run: flags.dry_run,
        allow_secrets,
        declassify: flags.declassify,
        now: resolve_now(flags.now.as_deref())?,
    };
    let outcome = store.apply(&scope, &op, &opts)?;
    report(&outcome, flags.format)?;
    Ok(ExitCode::SUCCESS)
}

fn report(outcome: &Outcome, format: TextOrJson) -> Result<()> {
    if format == TextOrJson::Json {
        print_json(outcome)?;
    } else {
        let mut s = String::new();
        for c in &outcome.changes {
            if outcome.dry_run {
                s.push_str(&c.diff);
                if !c.diff.ends_with('\n') && !c.diff.is_empty() {
                    s.push('\n');
                }
                continue;
            }
            let line = match c.action {
                Action::Created => format!(
                    "created   {} (hash {})",
                    c.path,
                    c.hash_after.as_deref().unwrap_or("")
                ),
                Action::Modified => format!(
                    "modified  {} (hash {} → {})",
                    c.path,
                    c.hash_before.as_deref().unwrap_or(""),
                    c.hash_after.as_deref().unwrap_or("")
                ),
                Action::Moved => {
                    format!("moved     {} → {}", c.path, c.to.as_deref().unwrap_or(""))
                }
                Action::Archived => {
                    format!("archived  {} → {}", c.path, c.to.as_deref().unwrap_or(""))
                }
                Action::Deleted => format!("deleted   {}", c.path),
                Action::Unchanged => format!("unchanged {}", c.path),
            };
            s.push_str(&line);
            s.push('\n');
        }
        if let Some(i) = &outcome.index {
            if outcome.dry_run {
                let n = outcome
                    .changes
                    .iter()
                    .filter(|c| c.action != Action::Unchanged)
                    .count();
                s.push_str(&format!(
                    "dry run: nothing written ({n} file(s) would change; {} would list {})\n",
                    i.path,
                    notes(i.entries)
                ));
            } else if i.changed {
                s.push_str(&format!("indexed   {} ({})\n", i.path, notes(i.entries)));
            }
        }
        print_out(&s)?;
    }
    outcome.warnings.iter().for_each(|w| warn(w));
    Ok(())
}

fn list_text(store: &Store, scope: &Scope, items: &[cairn_memory::Listed]) -> Result<String> {
    use std::fmt::Write as _;
    let (rel, _) = store.folder(scope)?;
    let mut s = format!("{scope} ({rel}): {}\n", notes(items.len()));
    for i in items {
        let mut tags = vec![i.memory_type.clone().unwrap_or_else(|| "note".into())];
        if i.pinned {
            tags.push("pinned".into());
        }
        if i.status != "active" {
            tags.push(i.status.clone());
        }
        if i.sensitivity != "internal" {
            tags.push(i.sensitivity.clone());
        }
        let _ = write!(s, "  {}  {} [{}]", i.slug, i.title, tags.join(", "));
        if let Some(d) = &i.description {
            let _ = write!(s, " — {d}");
        }
        if i.usage.reads > 0 || i.usage.writes > 0 {
            let _ = write!(
                s,
                "  (read {}×, written {}×, last used {})",
                i.usage.reads,
                i.usage.writes,
                i.usage.last_used.as_deref().unwrap_or("?")
            );
        }
        s.push('\n');
    }
    Ok(s)
}

fn scope_of(config: &Config, a: &ScopeArgs) -> Result<Scope> {
    match &a.scope {
        Some(s) => Ok(Scope::parse(s)?),
        None => {
            let cwd = resolve_cwd(a.cwd.as_ref())?;
            Ok(Scope::default_for(config, &cwd))
        }
    }
}

fn read_body(w: &WriteArgs) -> Result<String> {
    let from_stdin = || -> Result<String> {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read the body from standard input")?;
        Ok(s)
    };
    match (&w.body, &w.body_file) {
        (Some(b), _) if b == "-" => from_stdin(),
        (Some(b), _) => Ok(b.clone()),
        (None, Some(f)) if f.as_os_str() == "-" => from_stdin(),
        (None, Some(f)) => std::fs::read_to_string(f)
            .with_context(|| format!("cannot read --body-file {}", f.display())),
        (None, None) => bail!(usage(
            "give the body with --body TEXT or --body-file FILE".into()
        )),
    }
}

fn notes(n: usize) -> String {
    if n == 1 {
        "1 note".to_owned()
    } else {
        format!("{n} notes")
    }
}

fn usage(msg: String) -> anyhow::Error {
    UsageError(msg).into()
}

fn words<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

fn warn(msg: &str) {
    eprintln!("cairn: warning: {msg}");
}
