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
//! A refusal at any step leaves every file as it was.

use std::path::{Path, PathBuf};

use cairn_config::Config;
use cairn_note::{MemoryType, Sensitivity, Status, entry_file_type, format_entry, parse_note};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_yaml_ng::{Mapping, Value};

use crate::atomic::{self, Replace, ScopeLock};
use crate::contain::{note_path, scope_root};
use crate::diff::unified;
use crate::error::MemoryError;
use crate::frontmatter::{NoteText, string, string_items, strings};
use crate::index::{
    IGNORE_FILE, INDEX_FILE, ScopeNote, entry_lines, ignore_text, read_scope, render_index,
};
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

/// A planned file operation.
enum FileOp {
    Write {
        abs: PathBuf,
        rel: String,
        before: Option<String>,
        after: String,
    },
    Move {
        from: PathBuf,
        to: PathBuf,
        from_rel: String,
        to_rel: String,
        content: String,
        archive: bool,
    },
    Delete {
        abs: PathBuf,
        rel: String,
        content: String,
    },
}

/// A note read for an operation.
struct Current {
    abs: PathBuf,
    rel: String,
    text: Option<String>,
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

    fn slug(&self, raw: &str) -> Result<Slug, MemoryError> {
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
        let root = match scope_root(vault, &rel, !opts.dry_run)? {
            Some(r) => r,
            // Dry run on a scope that does not exist yet: plan against where it would be.
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
        if outcome.changes.is_empty() && !matches!(op, Op::Reindex) {
            if let Some(s) = slugs.first() {
                outcome.changes.push(Change {
                    path: join(&rel, &s.file_name()),
                    action: Action::Unchanged,
                    to: None,
                    hash_before: None,
                    hash_after: None,
                    diff: String::new(),
                });
            }
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
        if let Some(u) = &self.usage {
            if let Err(e) = u.record(scope, slug, ev, now) {
                w.push(format!("usage statistics not recorded: {e}"));
            }
        }
    }

    fn not_found(&self, scope: &Scope, slug: &Slug, rel: &str, root: Option<&Path>) -> MemoryError {
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

    /// Resolves and reads `slug` under `root`.
    fn current(
        &self,
        root: &Path,
        rel: &str,
        slug: &Slug,
        create: bool,
    ) -> Result<Current, MemoryError> {
        let abs = if root.is_dir() {
            note_path(root, slug, create)?.unwrap_or_else(|| root.join(slug.file_name()))
        } else {
            root.join(slug.file_name())
        };
        let text = match std::fs::read(&abs) {
            Ok(b) => Some(String::from_utf8(b).map_err(|_| {
                MemoryError::Refused(format!(
                    "{} is not UTF-8 text; cairn only edits text notes",
                    join(rel, &slug.file_name())
                ))
            })?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(MemoryError::io(&abs)(e)),
        };
        // The real file (an in-scope symlink is reported, and written, as its target).
        Ok(Current {
            rel: join(
                rel,
                &rel_under(root, &abs).unwrap_or_else(|| slug.file_name()),
            ),
            abs,
            text,
        })
    }

    fn existing(
        &self,
        scope: &Scope,
        root: &Path,
        rel: &str,
        slug: &Slug,
    ) -> Result<(Current, String), MemoryError> {
        let cur = self.current(root, rel, slug, false)?;
        match cur.text.clone() {
            Some(t) => Ok((cur, t)),
            None => Err(self.not_found(scope, slug, rel, Some(root).filter(|r| r.is_dir()))),
        }
    }

    fn check_hash(&self, opts: &WriteOptions, cur: &Current) -> Result<(), MemoryError> {
        let Some(expected) = &opts.expect_hash else {
            return Ok(());
        };
        let actual = cur
            .text
            .as_deref()
            .map_or_else(|| "absent".to_owned(), |t| content_hash(t.as_bytes()));
        let want = expected.trim().to_ascii_lowercase();
        if want.len() < 8 || !actual.starts_with(&want) {
            return Err(MemoryError::HashMismatch {
                path: cur.rel.clone(),
                expected: expected.clone(),
                actual,
            });
        }
        Ok(())
    }

    fn plan(
        &self,
        scope: &Scope,
        op: &Op,
        opts: &WriteOptions,
        rel: &str,
        root: &Path,
        slugs: &[Slug],
    ) -> Result<Vec<FileOp>, MemoryError> {
        let today = opts.now.date_naive().to_string();
        let limit = self.config.memory.max_note_bytes;
        let creating = !opts.dry_run;
        let mut plan = Vec::new();
        match op {
            Op::Reindex => {}
            Op::Write {
                body, mode, meta, ..
            } => {
                let slug = &slugs[0];
                let cur = self.current(root, rel, slug, creating)?;
                self.check_hash(opts, &cur)?;
                check_case_collision(root, rel, slug, &cur)?;
                let mut added: Vec<&str> = vec![body.as_str()];
                added.extend(meta.title.as_deref());
                added.extend(meta.description.as_deref());
                added.extend(meta.category.as_deref());
                added.extend(meta.tags.iter().map(String::as_str));
                let secret = check_credentials(&added, opts.allow_secrets)?;
                let entry_type = entry_file_type(&slug.file_name());
                let after = match (&cur.text, mode) {
                    (Some(_), WriteMode::Create) => {
                        return Err(MemoryError::Exists {
                            path: cur.rel.clone(),
                        });
                    }
                    (None, _) => {
                        let mut m = Mapping::new();
                        let file_title = match entry_type {
                            Some(_) => slug.default_title(),
                            None => meta.title.clone().unwrap_or_else(|| slug.default_title()),
                        };
                        m.insert(string("title"), string(&one_line(&file_title)));
                        if let Some(d) = &meta.description {
                            m.insert(string("description"), string(&one_line(d)));
                        }
                        let memory_type = meta.memory_type.or(entry_type);
                        if let Some(t) = memory_type {
                            m.insert(string("memory_type"), string(t.as_str()));
                        }
                        m.insert(string("scope"), string(&scope.to_string()));
                        if let Some(p) = scope.project_id() {
                            m.insert(string("project_id"), string(p));
                        }
                        let sensitivity = if secret {
                            Some(Sensitivity::Secret)
                        } else {
                            meta.sensitivity
                        };
                        if let Some(s) = sensitivity {
                            m.insert(string("sensitivity"), string(s.as_str()));
                        }
                        if entry_type.is_none() && !meta.tags.is_empty() {
                            m.insert(string("tags"), strings(clean_tags(&meta.tags)));
                        }
                        m.insert(string("created"), string(&today));
                        m.insert(string("updated"), string(&today));
                        let body_text = match entry_type {
                            Some(_) => {
                                let title = entry_title(meta, slug)?;
                                format!(
                                    "# {}\n\n{}",
                                    one_line(&file_title),
                                    format_entry(
                                        opts.now.date_naive(),
                                        &title,
                                        meta.category.as_deref(),
                                        &clean_tags(&meta.tags),
                                        body
                                    )
                                )
                            }
                            None => with_newline(body),
                        };
                        NoteText::new(&m, &body_text)
                            .map_err(|reason| frontmatter_error(&cur.rel, reason))?
                            .render()
                    }
                    (Some(text), WriteMode::Append) => {
                        let mut doc =
                            NoteText::split(text).map_err(|r| frontmatter_error(&cur.rel, r))?;
                        doc.mapping().map_err(|r| frontmatter_error(&cur.rel, r))?;
                        let section = match entry_type {
                            Some(_) => {
                                let title = entry_title(meta, slug)?;
                                format_entry(
                                    opts.now.date_naive(),
                                    &title,
                                    meta.category.as_deref(),
                                    &clean_tags(&meta.tags),
                                    body,
                                )
                            }
                            None => format!("## {today}\n\n{}", with_newline(body.trim())),
                        };
                        let head = doc.body.trim_end();
                        doc.body = if head.is_empty() {
                            section
                        } else {
                            format!("{head}\n\n{section}")
                        };
                        if entry_type.is_none() {
                            apply_meta(&mut doc, meta, false)
                                .map_err(|r| frontmatter_error(&cur.rel, r))?;
                        }
                        if secret {
                            doc.set("sensitivity", Some(string("secret")))
                                .map_err(|r| frontmatter_error(&cur.rel, r))?;
                        }
                        if doc.yaml.is_some() {
                            doc.set("updated", Some(string(&today)))
                                .map_err(|r| frontmatter_error(&cur.rel, r))?;
                        }
                        doc.render()
                    }
                    (Some(text), WriteMode::Force) => {
                        let mut doc =
                            NoteText::split(text).map_err(|r| frontmatter_error(&cur.rel, r))?;
                        let existing = doc.mapping().map_err(|r| frontmatter_error(&cur.rel, r))?;
                        apply_meta(&mut doc, meta, true)
                            .map_err(|r| frontmatter_error(&cur.rel, r))?;
                        let set = |doc: &mut NoteText, k: &str, v: Value| {
                            doc.set(k, Some(v))
                                .map_err(|r| frontmatter_error(&cur.rel, r))
                        };
                        if existing.get("title").is_none() && meta.title.is_none() {
                            set(&mut doc, "title", string(&slug.default_title()))?;
                        }
                        if existing.get("scope").is_none() {
                            set(&mut doc, "scope", string(&scope.to_string()))?;
                        }
                        if let Some(p) = scope
                            .project_id()
                            .filter(|_| existing.get("project_id").is_none())
                        {
                            set(&mut doc, "project_id", string(p))?;
                        }
                        if secret {
                            set(&mut doc, "sensitivity", string("secret"))?;
                        }
                        set(&mut doc, "updated", string(&today))?;
                        doc.body = with_newline(body);
                        doc.render()
                    }
                };
                check_size(&cur.rel, &after, limit)?;
                check_parses(&cur.rel, &after)?;
                plan.push(FileOp::Write {
                    abs: cur.abs,
                    rel: cur.rel,
                    before: cur.text,
                    after,
                });
            }
            Op::Edit { old, new, .. } => {
                let (cur, text) = self.existing(scope, root, rel, &slugs[0])?;
                self.check_hash(opts, &cur)?;
                if old.is_empty() {
                    return Err(MemoryError::Refused(
                        "--old is empty; give the text to replace".into(),
                    ));
                }
                let secret = check_credentials(&[new.as_str()], opts.allow_secrets)?;
                let crlf = text.contains("\r\n");
                let norm = text.replace("\r\n", "\n");
                let old_n = old.replace("\r\n", "\n");
                let starts: Vec<usize> = norm.match_indices(&old_n).map(|(i, _)| i).collect();
                match starts.len() {
                    0 => return Err(MemoryError::NoMatch { path: cur.rel }),
                    1 => {}
                    n => {
                        let lines: Vec<String> = starts
                            .iter()
                            .map(|&i| (norm[..i].matches('\n').count() + 1).to_string())
                            .collect();
                        return Err(MemoryError::AmbiguousMatch {
                            path: cur.rel,
                            count: n,
                            lines: lines.join(", "),
                        });
                    }
                }
                let edited = norm.replacen(&old_n, &new.replace("\r\n", "\n"), 1);
                let edited = if crlf {
                    edited.replace('\n', "\r\n")
                } else {
                    edited
                };
                let after = finish_edit(&cur.rel, &text, &edited, secret, &today)?;
                check_size(&cur.rel, &after, limit)?;
                plan.push(FileOp::Write {
                    abs: cur.abs,
                    rel: cur.rel,
                    before: Some(text),
                    after,
                });
            }
            Op::Insert {
                line, text: insert, ..
            } => {
                let (cur, text) = self.existing(scope, root, rel, &slugs[0])?;
                self.check_hash(opts, &cur)?;
                let secret = check_credentials(&[insert.as_str()], opts.allow_secrets)?;
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                if *line > lines.len() {
                    return Err(MemoryError::LineOutOfRange {
                        path: cur.rel,
                        lines: lines.len(),
                    });
                }
                let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
                let mut out: String = lines[..*line].concat();
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push_str(nl);
                }
                out.push_str(&insert.replace("\r\n", "\n").replace('\n', nl));
                if !insert.ends_with('\n') {
                    out.push_str(nl);
                }
                out.push_str(&lines[*line..].concat());
                let after = finish_edit(&cur.rel, &text, &out, secret, &today)?;
                check_size(&cur.rel, &after, limit)?;
                plan.push(FileOp::Write {
                    abs: cur.abs,
                    rel: cur.rel,
                    before: Some(text),
                    after,
                });
            }
            Op::Move { .. } => {
                let (cur, text) = self.existing(scope, root, rel, &slugs[0])?;
                self.check_hash(opts, &cur)?;
                let target = self.current(root, rel, &slugs[1], creating)?;
                if target.text.is_some() {
                    return Err(MemoryError::Exists { path: target.rel });
                }
                check_case_collision(root, rel, &slugs[1], &target)?;
                plan.push(FileOp::Move {
                    from: cur.abs,
                    to: target.abs,
                    from_rel: cur.rel,
                    to_rel: target.rel,
                    content: text,
                    archive: false,
                });
            }
            Op::Remove { purge, .. } => {
                let (cur, text) = self.existing(scope, root, rel, &slugs[0])?;
                self.check_hash(opts, &cur)?;
                if *purge {
                    plan.push(FileOp::Delete {
                        abs: cur.abs,
                        rel: cur.rel,
                        content: text,
                    });
                } else {
                    let archive = &self.config.memory.archive_folder;
                    let slug = &slugs[0];
                    let mut name = slug.file_name();
                    let stamp = opts.now.format("%Y%m%dT%H%M%SZ").to_string();
                    let dir = root.join(archive);
                    let mut k = 1;
                    while dir.join(&name).exists() {
                        name = if k == 1 {
                            format!("{}.{stamp}.md", slug.as_str())
                        } else {
                            format!("{}.{stamp}-{k}.md", slug.as_str())
                        };
                        k += 1;
                    }
                    let to = dir.join(&name);
                    if creating {
                        if let Some(parent) = to.parent() {
                            scope_root(root, &rel_under(root, parent).unwrap_or_default(), true)?;
                        }
                    }
                    plan.push(FileOp::Move {
                        from: cur.abs,
                        to,
                        from_rel: cur.rel,
                        to_rel: join(rel, &format!("{archive}/{name}")),
                        content: text,
                        archive: true,
                    });
                }
            }
            Op::Pin { pinned, .. } => {
                let (cur, text) = self.existing(scope, root, rel, &slugs[0])?;
                self.check_hash(opts, &cur)?;
                let mut doc = NoteText::split(&text).map_err(|r| frontmatter_error(&cur.rel, r))?;
                let value = pinned.then_some(Value::Bool(true));
                doc.set("pinned", value)
                    .map_err(|r| frontmatter_error(&cur.rel, r))?;
                let after = doc.render();
                if after != text {
                    plan.push(FileOp::Write {
                        abs: cur.abs,
                        rel: cur.rel,
                        before: Some(text),
                        after,
                    });
                }
            }
            Op::Supersede { .. } => {
                let (old_cur, old_text) = self.existing(scope, root, rel, &slugs[0])?;
                let (by_cur, by_text) = self.existing(scope, root, rel, &slugs[1])?;
                self.check_hash(opts, &old_cur)?;
                if old_cur.abs == by_cur.abs {
                    return Err(MemoryError::Refused(
                        "a note cannot supersede itself".into(),
                    ));
                }
                let link = |r: &str| format!("[[{}]]", r.strip_suffix(".md").unwrap_or(r));
                let mut by_doc =
                    NoteText::split(&by_text).map_err(|r| frontmatter_error(&by_cur.rel, r))?;
                let by_map = by_doc
                    .mapping()
                    .map_err(|r| frontmatter_error(&by_cur.rel, r))?;
                let mut supersedes = string_items(by_map.get("supersedes"));
                push_unique(&mut supersedes, link(&old_cur.rel));
                by_doc
                    .set("supersedes", Some(strings(&supersedes)))
                    .map_err(|r| frontmatter_error(&by_cur.rel, r))?;
                by_doc
                    .set("updated", Some(string(&today)))
                    .map_err(|r| frontmatter_error(&by_cur.rel, r))?;

                let mut old_doc =
                    NoteText::split(&old_text).map_err(|r| frontmatter_error(&old_cur.rel, r))?;
                let old_map = old_doc
                    .mapping()
                    .map_err(|r| frontmatter_error(&old_cur.rel, r))?;
                let mut by_list = string_items(old_map.get("superseded_by"));
                push_unique(&mut by_list, link(&by_cur.rel));
                old_doc
                    .set("status", Some(string("superseded")))
                    .map_err(|r| frontmatter_error(&old_cur.rel, r))?;
                old_doc
                    .set("superseded_by", Some(strings(&by_list)))
                    .map_err(|r| frontmatter_error(&old_cur.rel, r))?;
                old_doc
                    .set("updated", Some(string(&today)))
                    .map_err(|r| frontmatter_error(&old_cur.rel, r))?;
                // The new note first: a crash in between leaves a link the next
                // run completes, never an old note retired without its successor.
                for (cur, before, doc) in [(by_cur, by_text, by_doc), (old_cur, old_text, old_doc)]
                {
                    let after = doc.render();
                    check_size(&cur.rel, &after, limit)?;
                    if after != before {
                        plan.push(FileOp::Write {
                            abs: cur.abs,
                            rel: cur.rel,
                            before: Some(before),
                            after,
                        });
                    }
                }
            }
        }
        Ok(plan)
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
                if !archive {
                    if let Some(file) = file_of(to_rel) {
                        put(&mut notes, file, content);
                    }
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

/// Refuses credentials in `texts` unless allowed; returns whether any were found.
fn check_credentials(texts: &[&str], allow: bool) -> Result<bool, MemoryError> {
    let mut found: Vec<String> = Vec::new();
    for t in texts {
        for f in cairn_policy::find_credentials(t) {
            found.push(format!("{} on line {}", f.kind, f.line));
        }
    }
    if found.is_empty() {
        return Ok(false);
    }
    if allow {
        return Ok(true);
    }
    Err(MemoryError::Credentials {
        count: found.len(),
        kinds: found.join(", "),
    })
}

fn check_size(rel: &str, after: &str, limit: u64) -> Result<(), MemoryError> {
    let bytes = after.len() as u64;
    if bytes > limit {
        return Err(MemoryError::TooLarge {
            path: rel.to_owned(),
            bytes,
            limit,
        });
    }
    Ok(())
}

/// The written note must read back with a valid frontmatter.
fn check_parses(rel: &str, after: &str) -> Result<(), MemoryError> {
    let doc = NoteText::split(after).map_err(|r| frontmatter_error(rel, r))?;
    doc.mapping().map_err(|r| frontmatter_error(rel, r))?;
    Ok(())
}

/// After an edit or insert: the frontmatter must still read (if it did before),
/// secrets mark the note secret, and `updated` moves to today.
fn finish_edit(
    rel: &str,
    before: &str,
    after: &str,
    secret: bool,
    today: &str,
) -> Result<String, MemoryError> {
    let was_valid = NoteText::split(before).is_ok_and(|d| d.mapping().is_ok());
    let mut doc = match NoteText::split(after) {
        Ok(d) if d.mapping().is_ok() => d,
        Ok(_) | Err(_) if was_valid => {
            return Err(MemoryError::Frontmatter {
                path: rel.to_owned(),
                reason: "the change would leave the frontmatter unreadable; nothing changed".into(),
            });
        }
        // It was broken before: leave the user's text alone.
        _ => return Ok(after.to_owned()),
    };
    if secret {
        doc.set("sensitivity", Some(string("secret")))
            .map_err(|r| frontmatter_error(rel, r))?;
    }
    if doc.yaml.is_some() {
        doc.set("updated", Some(string(today)))
            .map_err(|r| frontmatter_error(rel, r))?;
    }
    Ok(doc.render())
}

/// Sets the frontmatter keys the caller gave (with `--append` or `--force`).
fn apply_meta(doc: &mut NoteText, meta: &NewNote, force: bool) -> Result<(), String> {
    if let Some(t) = &meta.title {
        doc.set("title", Some(string(&one_line(t))))?;
    }
    if let Some(d) = &meta.description {
        doc.set("description", Some(string(&one_line(d))))?;
    }
    if let Some(t) = meta.memory_type {
        doc.set("memory_type", Some(string(t.as_str())))?;
    }
    if let Some(s) = meta.sensitivity {
        doc.set("sensitivity", Some(string(s.as_str())))?;
    }
    if !meta.tags.is_empty() {
        let mut tags = if force {
            Vec::new()
        } else {
            string_items(doc.mapping()?.get("tags"))
        };
        for t in clean_tags(&meta.tags) {
            push_unique(&mut tags, t);
        }
        doc.set("tags", Some(strings(&tags)))?;
    }
    Ok(())
}

fn entry_title(meta: &NewNote, slug: &Slug) -> Result<String, MemoryError> {
    meta.title
        .as_deref()
        .map(one_line)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            MemoryError::Refused(format!(
                "{} is an entry file (dated `### [YYYY-MM-DD] Title` entries): pass --title for the entry",
                slug.file_name()
            ))
        })
}

fn check_case_collision(
    root: &Path,
    rel: &str,
    slug: &Slug,
    cur: &Current,
) -> Result<(), MemoryError> {
    if cur.text.is_some() {
        return Ok(());
    }
    let dir = cur.abs.parent().unwrap_or(root);
    let want = slug.leaf().to_lowercase() + ".md";
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in rd.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.to_lowercase() == want && name != format!("{}.md", slug.leaf()) {
            let existing = rel_under(root, &dir.join(&name)).unwrap_or(name);
            return Err(MemoryError::CaseCollision {
                path: cur.rel.clone(),
                existing: join(rel, &existing),
            });
        }
    }
    Ok(())
}

fn frontmatter_error(rel: &str, reason: String) -> MemoryError {
    MemoryError::Frontmatter {
        path: rel.to_owned(),
        reason,
    }
}

fn push_unique(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
    }
}

fn clean_tags(tags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for t in tags.iter().flat_map(|t| t.split(',')) {
        let t = one_line(t.trim().trim_start_matches('#'));
        if !t.is_empty() {
            push_unique(&mut out, t);
        }
    }
    out
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn with_newline(s: &str) -> String {
    if s.is_empty() || s.ends_with('\n') {
        s.to_owned()
    } else {
        format!("{s}\n")
    }
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Active => "active",
        Status::Superseded => "superseded",
        Status::Archived => "archived",
    }
}

/// `folder` + `/` + `file`.
fn join(folder: &str, file: &str) -> String {
    if folder.is_empty() {
        file.to_owned()
    } else {
        format!("{}/{file}", folder.trim_end_matches('/'))
    }
}

/// `path` relative to `root`, `/`-separated.
fn rel_under(root: &Path, path: &Path) -> Option<String> {
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
