//! The store: every `cairn memory` operation on one vault, through one pipeline.
//!
//! ```text
//! scope → folder (inside the vault) → slug (validated) → lock the scope
//!   → read the current file(s) → compare-and-swap (--expect-hash)
//!   → compute the new text → size cap, credentials, frontmatter checks
//!   → (dry run: stop here, return the diffs)
//!   → atomic writes → MEMORY.md regenerated → usage sidecar
//! ```
//!
//! A refusal at any step leaves every file as it was. The middle steps (what
//! each operation would change, and every check) are in [`crate::plan`].

use std::path::{Path, PathBuf};

use cairn_config::Config;
use cairn_note::{MemoryType, Sensitivity, Status, parse_note};
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::atomic::{self, Replace, ScopeLock};
use crate::contain::scope_root;
use crate::diff::unified;
use crate::error::MemoryError;
use crate::index::{
    IGNORE_FILE, INDEX_FILE, ScopeNote, entry_lines, ignore_text, read_scope, render_index,
};
use crate::plan::FileOp;
use crate::scope::Scope;
use crate::slug::Slug;
use crate::usage::{Usage, UsageEvent, UsageLog};

/// How `write` treats an existing note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    /// Create; refuse if the note exists.
    Create,
    /// Add a dated section (or, in an entry file, a dated entry).
    Append,
    /// Replace the body; frontmatter keys not given are kept.
    Force,
}

/// Frontmatter for `write` (each `None` keeps or omits the key).
#[derive(Debug, Clone, Default)]
pub struct NewNote {
    /// `title` (or, appending to an entry file, the entry's title).
    pub title: Option<String>,
    /// `memory_type`.
    pub memory_type: Option<MemoryType>,
    /// `description`.
    pub description: Option<String>,
    /// `sensitivity`.
    pub sensitivity: Option<Sensitivity>,
    /// `tags` (or the entry's tags).
    pub tags: Vec<String>,
    /// An entry's `**Category:**`.
    pub category: Option<String>,
}

/// One operation.
#[derive(Debug, Clone)]
pub enum Op {
    /// Create (or append to, or replace) a note.
    Write {
        /// Name.
        slug: String,
        /// Markdown body.
        body: String,
        /// What to do if it exists.
        mode: WriteMode,
        /// Frontmatter.
        meta: NewNote,
    },
    /// Replace the one occurrence of `old` with `new`.
    Edit {
        /// Name.
        slug: String,
        /// Text to find (must occur exactly once).
        old: String,
        /// Replacement.
        new: String,
    },
    /// Insert `text` after line `line` (0 = at the top).
    Insert {
        /// Name.
        slug: String,
        /// Line number.
        line: usize,
        /// Text.
        text: String,
    },
    /// Rename within the scope.
    Move {
        /// Name.
        slug: String,
        /// New name.
        to: String,
    },
    /// Move to the scope's archive folder, or delete with `purge`.
    Remove {
        /// Name.
        slug: String,
        /// Delete instead of archiving.
        purge: bool,
    },
    /// Set or clear `pinned`.
    Pin {
        /// Name.
        slug: String,
        /// New state.
        pinned: bool,
    },
    /// Mark `old` superseded by `by`, linking both ways.
    Supersede {
        /// The replaced note.
        old: String,
        /// The replacing note.
        by: String,
    },
    /// Regenerate `MEMORY.md` only.
    Reindex,
}

/// Options shared by every write.
#[derive(Debug, Clone)]
pub struct WriteOptions {
    /// Compare-and-swap: the primary note's current content hash must be this.
    pub expect_hash: Option<String>,
    /// Compute and return the diffs; write nothing.
    pub dry_run: bool,
    /// Accept credentials in the new text; the note is then marked secret.
    pub allow_secrets: bool,
    /// "Now", for dates and usage statistics.
    pub now: DateTime<Utc>,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// A new file.
    Created,
    /// Changed in place.
    Modified,
    /// Renamed (see `to`).
    Moved,
    /// Moved to the archive folder (see `to`).
    Archived,
    /// Deleted.
    Deleted,
    /// Nothing to do.
    Unchanged,
}

/// One file change of an [`Outcome`].
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// Vault-relative path.
    pub path: String,
    /// What happened.
    pub action: Action,
    /// Where it went (moves and archives).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Content hash before.
    pub hash_before: Option<String>,
    /// Content hash after.
    pub hash_after: Option<String>,
    /// Unified diff (redacted; withheld for secret and confidential notes).
    pub diff: String,
}

/// The scope index after an operation.
#[derive(Debug, Clone, Serialize)]
pub struct IndexStatus {
    /// Vault-relative path of `MEMORY.md`.
    pub path: String,
    /// Entry lines.
    pub entries: usize,
    /// The line budget.
    pub budget: usize,
    /// Whether the file changed.
    pub changed: bool,
}

/// The result of [`Store::apply`].
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The scope.
    pub scope: String,
    /// Its vault-relative folder.
    pub folder: String,
    /// Nothing was written.
    pub dry_run: bool,
    /// Note changes, in order (the index is reported in `index`).
    pub changes: Vec<Change>,
    /// `MEMORY.md`.
    pub index: Option<IndexStatus>,
    /// Things worth saying that did not stop the operation.
    pub warnings: Vec<String>,
}

/// A note as `cairn memory show` returns it, after policy.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    /// Scope.
    pub scope: String,
    /// Name.
    pub slug: String,
    /// Vault-relative path.
    pub path: String,
    /// Content hash (for `--expect-hash`).
    pub hash: String,
    /// Title (redacted).
    pub title: String,
    /// Sensitivity.
    pub sensitivity: String,
    /// Confidential: content withheld.
    pub withheld: bool,
    /// The file (credentials redacted); empty when withheld.
    pub content: String,
    /// Credentials redacted.
    pub redactions: usize,
}

/// One note of `cairn memory list`, after policy.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    /// Name.
    pub slug: String,
    /// Vault-relative path.
    pub path: String,
    /// Title (`(secret)` for secret notes).
    pub title: String,
    /// Description (none for secret and confidential notes).
    pub description: Option<String>,
    /// Memory type.
    pub memory_type: Option<String>,
    /// Sensitivity.
    pub sensitivity: String,
    /// Status.
    pub status: String,
    /// Pinned.
    pub pinned: bool,
    /// `updated`, else `created`.
    pub date: Option<String>,
    /// Content hash.
    pub hash: String,
    /// Usage statistics from the sidecar.
    pub usage: Usage,
}

/// The memory scopes of one vault.
#[derive(Debug, Clone)]
pub struct Store {
    config: Config,
    usage: Option<UsageLog>,
}

/// The content hash of a note: the first 16 hex digits of its BLAKE3 hash.
pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex()[..16].to_owned()
}

impl Store {
    /// A store over `config`'s vault, without usage statistics.
    pub fn new(config: Config) -> Store {
        Store {
            config,
            usage: None,
        }
    }

    /// Records usage statistics in the sidecar of cache folder `dir`.
    pub fn with_usage(mut self, dir: &Path) -> Result<Store, MemoryError> {
        self.usage = Some(UsageLog::new(dir, &self.config.vault.root)?);
        Ok(self)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The scope's vault-relative folder and its absolute path (which may not exist yet).
    pub fn folder(&self, scope: &Scope) -> Result<(String, PathBuf), MemoryError> {
        let rel = scope.folder(&self.config)?;
        let abs = self.config.vault.root.join(&rel);
        Ok((rel, abs))
    }

    pub(crate) fn slug(&self, raw: &str) -> Result<Slug, MemoryError> {
        Slug::parse(raw, self.config.memory.nested)
    }

    /// Every note of the scope, after policy, with usage statistics.
    pub fn list(&self, scope: &Scope) -> Result<Vec<Listed>, MemoryError> {
        let (rel, _) = self.folder(scope)?;
        let Some(root) = scope_root(&self.config.vault.root, &rel, false)? else {
            return Ok(Vec::new());
        };
        let usage = self
            .usage
            .as_ref()
            .map(|u| u.scope(&scope.to_string()))
            .unwrap_or_default();
        let notes = read_scope(
            &root,
            self.config.memory.nested,
            &self.config.memory.archive_folder,
        );
        Ok(notes
            .into_iter()
            .map(|n| {
                let note = &n.note;
                let secret = note.sensitivity == Sensitivity::Secret;
                let confidential = note.sensitivity == Sensitivity::Confidential;
                Listed {
                    path: join(&rel, &n.file),
                    title: if secret {
                        "(secret)".to_owned()
                    } else {
                        cairn_policy::redact(&note.title).text.into_owned()
                    },
                    description: if secret || confidential {
                        None
                    } else {
                        note.description
                            .as_deref()
                            .map(|d| cairn_policy::redact(d).text.into_owned())
                    },
                    memory_type: note.memory_type.map(|t| t.as_str().to_owned()),
                    sensitivity: note.sensitivity.as_str().to_owned(),
                    status: status_word(note.status).to_owned(),
                    pinned: note.pinned,
                    date: note.updated.or(note.created).map(|d| d.to_string()),
                    hash: content_hash(&n.bytes),
                    usage: usage.get(&n.slug).cloned().unwrap_or_default(),
                    slug: n.slug,
                }
            })
            .collect())
    }

    /// One note, after policy: secret notes are refused, confidential ones withheld,
    /// credentials redacted. Counts as a read in the usage statistics.
    pub fn show(
        &self,
        scope: &Scope,
        slug: &str,
        now: DateTime<Utc>,
        warnings: &mut Vec<String>,
    ) -> Result<Shown, MemoryError> {
        let slug = self.slug(slug)?;
        let (rel, _) = self.folder(scope)?;
        let root = scope_root(&self.config.vault.root, &rel, false)?
            .ok_or_else(|| self.not_found(scope, &slug, &rel, None))?;
        let cur = self.current(&root, &rel, &slug, false)?;
        let Some(text) = cur.text else {
            return Err(self.not_found(scope, &slug, &rel, Some(&root)));
        };
        let note = parse_note(&cur.rel, text.as_bytes()).note;
        let sensitivity = note.as_ref().map(|n| n.sensitivity).unwrap_or_default();
        if sensitivity == Sensitivity::Secret {
            return Err(MemoryError::Secret { path: cur.rel });
        }
        let title = note
            .as_ref()
            .map(|n| cairn_policy::redact(&n.title).text.into_owned())
            .unwrap_or_else(|| slug.default_title());
        let withheld = sensitivity == Sensitivity::Confidential;
        let red = cairn_policy::redact(&text);
        let shown = Shown {
            scope: scope.to_string(),
            slug: slug.to_string(),
            path: cur.rel,
            hash: content_hash(text.as_bytes()),
            title,
            sensitivity: sensitivity.as_str().to_owned(),
            withheld,
            content: if withheld {
                String::new()
            } else {
                red.text.into_owned()
            },
            redactions: if withheld { 0 } else { red.count },
        };
        self.record(scope, slug.as_str(), &UsageEvent::Read, now, warnings);
        Ok(shown)
    }

    /// Runs one operation on `scope`.
    pub fn apply(
        &self,
        scope: &Scope,
        op: &Op,
        opts: &WriteOptions,
    ) -> Result<Outcome, MemoryError> {
        let (rel, abs) = self.folder(scope)?;
        // Validate every name before touching the disk.
        let slugs: Vec<Slug> = match op {
            Op::Write { slug, .. }
            | Op::Edit { slug, .. }
            | Op::Insert { slug, .. }
            | Op::Remove { slug, .. }
            | Op::Pin { slug, .. } => vec![self.slug(slug)?],
            Op::Move { slug, to } => vec![self.slug(slug)?, self.slug(to)?],
            Op::Supersede { old, by } => vec![self.slug(old)?, self.slug(by)?],
            Op::Reindex => Vec::new(),
        };
        let vault = &self.config.vault.root;
        // Only a write creates the scope folder; other operations need an existing note.
        let create = !opts.dry_run && matches!(op, Op::Write { .. } | Op::Reindex);
        let root = match scope_root(vault, &rel, create)? {
            Some(r) => r,
            // Not there (yet): plan against where it would be; nothing is written there.
            None => abs.clone(),
        };
        let _lock = if opts.dry_run || !root.is_dir() {
            None
        } else {
            Some(ScopeLock::acquire(&root)?)
        };
        let mut warnings = Vec::new();
        if _lock.is_some() {
            let removed = atomic::remove_stale_temps(&root);
            if removed > 0 {
                warnings.push(format!(
                    "removed {removed} temporary file(s) left in {rel} by an interrupted write"
                ));
            }
        }

        let plan = self.plan(scope, op, opts, &rel, &root, &slugs)?;
        let mut outcome = Outcome {
            scope: scope.to_string(),
            folder: rel.clone(),
            dry_run: opts.dry_run,
            changes: plan.iter().map(describe).collect(),
            index: None,
            warnings,
        };
        if outcome.changes.is_empty()
            && !matches!(op, Op::Reindex)
            && let Some(s) = slugs.first()
        {
            outcome.changes.push(Change {
                path: join(&rel, &s.file_name()),
                action: Action::Unchanged,
                to: None,
                hash_before: None,
                hash_after: None,
                diff: String::new(),
            });
        }

        if opts.dry_run {
            let notes = simulate(
                if root.is_dir() {
                    read_scope(
                        &root,
                        self.config.memory.nested,
                        &self.config.memory.archive_folder,
                    )
                } else {
                    Vec::new()
                },
                &plan,
                &rel,
            );
            let (status, diff) = self.index_preview(scope, &rel, &root, &notes);
            if !diff.is_empty() {
                outcome.changes.push(Change {
                    path: status.path.clone(),
                    action: if root.join(INDEX_FILE).exists() {
                        Action::Modified
                    } else {
                        Action::Created
                    },
                    to: None,
                    hash_before: None,
                    hash_after: None,
                    diff,
                });
            }
            outcome.index = Some(status);
            return Ok(outcome);
        }

        for f in &plan {
            execute(f)?;
        }
        let status = self.write_index(scope, &rel, &root, &mut outcome.warnings)?;
        if status.entries > status.budget {
            outcome.warnings.push(format!(
                "{} lists {} notes, over its budget of {} lines ([memory] index_budget_lines); merge or retire some",
                status.path, status.entries, status.budget
            ));
        }
        outcome.index = Some(status);

        let scope_name = scope.to_string();
        for f in &plan {
            let event = match f {
                FileOp::Write { rel: r, .. } => Some((r.clone(), UsageEvent::Write)),
                FileOp::Move {
                    from_rel,
                    to_rel,
                    archive: false,
                    ..
                } => Some((from_rel.clone(), UsageEvent::Renamed(slug_of(&rel, to_rel)))),
                FileOp::Move { from_rel, .. } => Some((from_rel.clone(), UsageEvent::Removed)),
                FileOp::Delete { rel: r, .. } => Some((r.clone(), UsageEvent::Removed)),
            };
            if let Some((path, ev)) = event {
                let slug = slug_of(&rel, &path);
                self.record_named(&scope_name, &slug, &ev, opts.now, &mut outcome.warnings);
            }
        }
        Ok(outcome)
    }

    fn record(
        &self,
        scope: &Scope,
        slug: &str,
        ev: &UsageEvent,
        now: DateTime<Utc>,
        w: &mut Vec<String>,
    ) {
        self.record_named(&scope.to_string(), slug, ev, now, w);
    }

    fn record_named(
        &self,
        scope: &str,
        slug: &str,
        ev: &UsageEvent,
        now: DateTime<Utc>,
        w: &mut Vec<String>,
    ) {
        if let Some(u) = &self.usage
            && let Err(e) = u.record(scope, slug, ev, now)
        {
            w.push(format!("usage statistics not recorded: {e}"));
        }
    }

    pub(crate) fn not_found(
        &self,
        scope: &Scope,
        slug: &Slug,
        rel: &str,
        root: Option<&Path>,
    ) -> MemoryError {
        let lower = slug.as_str().to_lowercase();
        let hint = root
            .map(|r| {
                read_scope(
                    r,
                    self.config.memory.nested,
                    &self.config.memory.archive_folder,
                )
            })
            .unwrap_or_default()
            .into_iter()
            .filter(|n| n.note.sensitivity != Sensitivity::Secret)
            .filter(|n| {
                let s = n.slug.to_lowercase();
                s.contains(&lower) || lower.contains(&s)
            })
            .take(3)
            .map(|n| n.slug)
            .collect::<Vec<_>>();
        MemoryError::NotFound {
            scope: scope.to_string(),
            slug: slug.to_string(),
            folder: rel.to_owned(),
            hint: if hint.is_empty() {
                String::new()
            } else {
                format!("; did you mean {}?", hint.join(", "))
            },
        }
    }

    /// The index text for `notes` and its status against the file on disk.
    fn index_preview(
        &self,
        scope: &Scope,
        rel: &str,
        root: &Path,
        notes: &[ScopeNote],
    ) -> (IndexStatus, String) {
        let text = render_index(&scope.to_string(), notes);
        let path = join(rel, INDEX_FILE);
        let before = std::fs::read_to_string(root.join(INDEX_FILE)).ok();
        let changed = before.as_deref() != Some(text.as_str());
        let diff = if changed {
            unified(&path, before.as_deref(), Some(&text), false)
        } else {
            String::new()
        };
        (
            IndexStatus {
                path,
                entries: entry_lines(&text),
                budget: self.config.memory.index_budget_lines,
                changed,
            },
            diff,
        )
    }

    /// Regenerates the scope's `MEMORY.md` (and its `.cairnignore`). Call under the lock.
    fn write_index(
        &self,
        scope: &Scope,
        rel: &str,
        root: &Path,
        warnings: &mut Vec<String>,
    ) -> Result<IndexStatus, MemoryError> {
        let ignore = root.join(IGNORE_FILE);
        if !ignore.exists() {
            atomic::write_file(
                &ignore,
                ignore_text(&self.config.memory.archive_folder).as_bytes(),
                Replace::Never,
            )?;
        } else if !std::fs::read_to_string(&ignore)
            .is_ok_and(|t| t.lines().any(|l| l.trim() == INDEX_FILE))
        {
            warnings.push(format!(
                "{} does not list {INDEX_FILE}: the index is scanned as a note",
                join(rel, IGNORE_FILE)
            ));
        }
        let notes = read_scope(
            root,
            self.config.memory.nested,
            &self.config.memory.archive_folder,
        );
        let (status, _) = self.index_preview(scope, rel, root, &notes);
        if status.changed {
            let text = render_index(&scope.to_string(), &notes);
            atomic::write_file(&root.join(INDEX_FILE), text.as_bytes(), Replace::Atomically)?;
        }
        Ok(status)
    }

    /// Regenerates `MEMORY.md` of `scope` (`cairn memory reindex`).
    pub fn reindex(&self, scope: &Scope, now: DateTime<Utc>) -> Result<Outcome, MemoryError> {
        self.apply(
            scope,
            &Op::Reindex,
            &WriteOptions {
                expect_hash: None,
                dry_run: false,
                allow_secrets: false,
                now,
            },
        )
    }

    /// What `MEMORY.md` of `scope` should say now, and what it says (for `lint`):
    /// `(vault-relative path, expected text, current text)`; `None` when the scope
    /// folder does not exist.
    pub fn index_state(
        &self,
        scope: &Scope,
    ) -> Result<Option<(String, String, Option<String>)>, MemoryError> {
        let (rel, _) = self.folder(scope)?;
        let Some(root) = scope_root(&self.config.vault.root, &rel, false)? else {
            return Ok(None);
        };
        let notes = read_scope(
            &root,
            self.config.memory.nested,
            &self.config.memory.archive_folder,
        );
        let expected = render_index(&scope.to_string(), &notes);
        let current = std::fs::read_to_string(root.join(INDEX_FILE)).ok();
        Ok(Some((join(&rel, INDEX_FILE), expected, current)))
    }
}

fn describe(f: &FileOp) -> Change {
    let withhold = |texts: &[Option<&str>]| {
        texts.iter().flatten().any(|t| {
            parse_note("x.md", t.as_bytes())
                .note
                .is_some_and(|n| n.sensitivity >= Sensitivity::Confidential)
        })
    };
    match f {
        FileOp::Write {
            rel, before, after, ..
        } => Change {
            path: rel.clone(),
            action: if before.is_some() {
                Action::Modified
            } else {
                Action::Created
            },
            to: None,
            hash_before: before.as_deref().map(|b| content_hash(b.as_bytes())),
            hash_after: Some(content_hash(after.as_bytes())),
            diff: unified(
                rel,
                before.as_deref(),
                Some(after),
                withhold(&[before.as_deref(), Some(after)]),
            ),
        },
        FileOp::Move {
            from_rel,
            to_rel,
            content,
            archive,
            ..
        } => {
            let h = content_hash(content.as_bytes());
            Change {
                path: from_rel.clone(),
                action: if *archive {
                    Action::Archived
                } else {
                    Action::Moved
                },
                to: Some(to_rel.clone()),
                hash_before: Some(h.clone()),
                hash_after: Some(h),
                diff: format!("rename from {from_rel}\nrename to {to_rel}\n"),
            }
        }
        FileOp::Delete { rel, content, .. } => Change {
            path: rel.clone(),
            action: Action::Deleted,
            to: None,
            hash_before: Some(content_hash(content.as_bytes())),
            hash_after: None,
            diff: unified(rel, Some(content), None, withhold(&[Some(content)])),
        },
    }
}

fn execute(f: &FileOp) -> Result<(), MemoryError> {
    match f {
        FileOp::Write {
            abs, before, after, ..
        } => {
            let replace = if before.is_some() {
                Replace::Atomically
            } else {
                Replace::Never
            };
            atomic::write_file(abs, after.as_bytes(), replace).map_err(|e| match e {
                MemoryError::Io { error, .. }
                    if error.kind() == std::io::ErrorKind::AlreadyExists =>
                {
                    MemoryError::Refused(format!(
                        "{} appeared while writing; nothing overwritten",
                        abs.display()
                    ))
                }
                other => other,
            })
        }
        FileOp::Move { from, to, .. } => atomic::move_file(from, to),
        FileOp::Delete { abs, .. } => atomic::remove_file(abs),
    }
}

/// The scope's notes as they would be after `plan` (for a dry run's index).
fn simulate(mut notes: Vec<ScopeNote>, plan: &[FileOp], rel: &str) -> Vec<ScopeNote> {
    let file_of = |r: &str| {
        r.strip_prefix(rel)
            .map(|s| s.trim_start_matches('/').to_owned())
    };
    let put = |notes: &mut Vec<ScopeNote>, file: String, text: &str| {
        notes.retain(|n| n.file != file);
        if let Some(note) = parse_note(&file, text.as_bytes()).note {
            notes.push(ScopeNote {
                slug: file.strip_suffix(".md").unwrap_or(&file).to_owned(),
                file,
                note,
                bytes: text.as_bytes().to_vec(),
            });
        }
    };
    for f in plan {
        match f {
            FileOp::Write { rel: r, after, .. } => {
                if let Some(file) = file_of(r) {
                    put(&mut notes, file, after);
                }
            }
            FileOp::Move {
                from_rel,
                to_rel,
                content,
                archive,
                ..
            } => {
                if let Some(file) = file_of(from_rel) {
                    notes.retain(|n| n.file != file);
                }
                if !archive && let Some(file) = file_of(to_rel) {
                    put(&mut notes, file, content);
                }
            }
            FileOp::Delete { rel: r, .. } => {
                if let Some(file) = file_of(r) {
                    notes.retain(|n| n.file != file);
                }
            }
        }
    }
    notes.sort_by(|a, b| a.file.cmp(&b.file));
    notes
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Active => "active",
        Status::Superseded => "superseded",
        Status::Archived => "archived",
    }
}

/// `folder` + `/` + `file`.
pub(crate) fn join(folder: &str, file: &str) -> String {
    if folder.is_empty() {
        file.to_owned()
    } else {
        format!("{}/{file}", folder.trim_end_matches('/'))
    }
}

/// `path` relative to `root`, `/`-separated.
pub(crate) fn rel_under(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The slug of vault-relative note path `path` in scope folder `folder`.
fn slug_of(folder: &str, path: &str) -> String {
    let file = path
        .strip_prefix(folder)
        .map_or(path, |s| s.trim_start_matches('/'));
    file.strip_suffix(".md").unwrap_or(file).to_owned()
}
