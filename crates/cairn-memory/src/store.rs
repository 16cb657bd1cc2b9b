//! The store: every `cairn memory` operation on one vault, through one pipeline.
//!
//! ```text
//! scope → folder (inside the vault) → slug (validated) → lock the scope
//!   → MEMORY.md / .cairnignore must not be symlinks
//!   → read the current file(s) → compare-and-swap (--expect-hash)
//!   → compute the new text → size cap, credentials, frontmatter checks
//!   → no lowering of a note's or an entry's sensitivity (unless --declassify)
//!   → (dry run: stop here, return the diffs, under the policy)
//!   → atomic writes, each checking the note still holds what was planned from
//!     (append-like changes plan again, up to 3 times; others are refused)
//!   → MEMORY.md regenerated → usage sidecar
//! ```
//!
//! A refusal at any step leaves every file as it was. The middle steps (what
//! each operation would change, and every check) are in [`crate::plan`] and
//! [`crate::checks`]; what a plan did, as an [`Outcome`], in [`crate::report`]; a
//! failure after the notes are written (the index on a full disk) says so.

use std::path::{Path, PathBuf};

use cairn_config::Config;
use cairn_note::{Sensitivity, Status, parse_note};
use chrono::{DateTime, Utc};

use crate::atomic::{self, Replace, ScopeLock};
use crate::checks::check_declassify;
use crate::contain::{join, plain_file_or_absent, read_note, read_plain, scope_root, slug_of};
use crate::diff::index_diff;
use crate::error::MemoryError;
use crate::fault;
use crate::index::{IGNORE_FILE, INDEX_FILE, entry_lines, ignore_text, read_scope, render_index};
use crate::mask::{Reveal, reveal};
use crate::ops::{
    Action, Change, IndexStatus, Listed, Op, Outcome, Shown, WriteMode, WriteOptions,
};
use crate::plan::{FileOp, Planner, not_found};
use crate::report::{done_phrase, outcome, simulate};
use crate::scope::Scope;
use crate::sensitivity;
use crate::slug::Slug;
use crate::usage::{UsageEvent, UsageLog};

/// How many times a change that does not depend on what the caller saw (append,
/// insert, pin, ...) is planned again when another program saves the note under it.
const MAX_REPLANS: usize = 3;

/// The memory scopes of one vault.
#[derive(Debug, Clone)]
pub struct Store {
    config: Config,
    usage: Option<UsageLog>,
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
                    hash: crate::seal::shown_hash(
                        &join(&rel, &n.file),
                        &String::from_utf8_lossy(&n.bytes),
                        &root.join(&n.file),
                    ),
                    usage: usage.get(&n.slug).cloned().unwrap_or_default(),
                    slug: n.slug,
                }
            })
            .collect())
    }

    /// One note, after policy: secret notes are refused, confidential ones withheld,
    /// secret entries of an entry file replaced by a placeholder (confidential ones
    /// cut to their heading), credentials redacted. Counts as a read in the usage
    /// statistics.
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
            .ok_or_else(|| not_found(&self.config.memory, scope, &slug, &rel, None))?;
        let cur = read_note(&root, &rel, &slug, false)?;
        let Some(text) = cur.text else {
            return Err(not_found(
                &self.config.memory,
                scope,
                &slug,
                &rel,
                Some(&root),
            ));
        };
        let (withheld, content) = match reveal(&cur.rel, &text) {
            Reveal::Secret => return Err(MemoryError::Secret { path: cur.rel }),
            Reveal::Withheld => (true, String::new()),
            Reveal::Text(t, _) => (false, t),
        };
        let sensitivity = sensitivity::level(&cur.rel, &text).unwrap_or_default();
        let title = parse_note(&cur.rel, text.as_bytes()).note.map_or_else(
            || slug.default_title(),
            |n| cairn_policy::redact(&n.title).text.into_owned(),
        );
        // Printed as written: redacted as written and as rendered.
        let red = cairn_policy::redact_markdown(&content);
        let hash = crate::seal::shown_hash(&cur.rel, &text, &cur.abs);
        let shown = Shown {
            scope: scope.to_string(),
            slug: slug.to_string(),
            path: cur.rel,
            hash,
            title,
            sensitivity: sensitivity.as_str().to_owned(),
            withheld,
            content: red.text.into_owned(),
            redactions: red.count,
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
        let lock = if opts.dry_run || !root.is_dir() {
            None
        } else {
            Some(ScopeLock::acquire(&root)?)
        };
        // cairn's own files beside the notes are never read or written through a symlink.
        for own in [INDEX_FILE, IGNORE_FILE] {
            plain_file_or_absent(&root.join(own))?;
        }
        let mut warnings = Vec::new();
        if lock.is_some() {
            let removed = atomic::remove_stale_temps(&root);
            if removed > 0 {
                warnings.push(format!(
                    "removed {removed} temporary file(s) left in {rel} by an interrupted write"
                ));
            }
        }

        // An external editor does not take the lock: each replacement checks, right
        // before its rename, that the note still holds what the plan was made from.
        // Changes that do not depend on what the caller saw are planned again.
        let replannable = opts.expect_hash.is_none()
            && matches!(
                op,
                Op::Write {
                    mode: WriteMode::Append,
                    ..
                } | Op::Insert { .. }
                    | Op::Pin { .. }
                    | Op::Supersede { .. }
                    | Op::Move { .. }
                    | Op::Remove { purge: false, .. }
            );
        let planner = Planner {
            memory: &self.config.memory,
            scope,
            opts,
            rel: &rel,
            root: &root,
        };
        let mut replans = 0;
        let plan = loop {
            let plan = planner.plan(op)?;
            if !opts.declassify {
                check_declassify(&plan)?;
            }
            if opts.dry_run {
                return self.dry_run(scope, op, &rel, &root, &slugs, &plan, warnings);
            }
            match plan.iter().try_for_each(execute) {
                Ok(()) => break plan,
                Err(MemoryError::Changed { .. }) if replannable && replans < MAX_REPLANS => {
                    replans += 1;
                }
                Err(e) => return Err(e),
            }
        };
        if replans > 0 {
            warnings.push(format!(
                "another program saved the note while cairn was writing it; planned again ({replans}×) on its new text, nothing lost"
            ));
        }
        let mut outcome = outcome(scope, op, &rel, &slugs, &plan, false, warnings);
        let index = self.write_index(scope, &rel, &root, &mut outcome.warnings);
        self.record_plan(scope, &rel, &plan, opts.now, &mut outcome.warnings);
        let status = index.map_err(|e| match e {
            MemoryError::Io { error, .. } => MemoryError::IndexStale {
                done: done_phrase(&plan),
                index: join(&rel, INDEX_FILE),
                error: error.to_string(),
            },
            other => other,
        })?;
        if status.entries > status.budget {
            outcome.warnings.push(format!(
                "{} lists {} notes, over its budget of {} lines ([memory] index_budget_lines); merge or retire some",
                status.path, status.entries, status.budget
            ));
        }
        outcome.index = Some(status);
        Ok(outcome)
    }

    /// The outcome of a dry run: the plan's diffs and the index it would write.
    #[allow(clippy::too_many_arguments)]
    fn dry_run(
        &self,
        scope: &Scope,
        op: &Op,
        rel: &str,
        root: &Path,
        slugs: &[Slug],
        plan: &[FileOp],
        warnings: Vec<String>,
    ) -> Result<Outcome, MemoryError> {
        let mut outcome = outcome(scope, op, rel, slugs, plan, true, warnings);
        let before = if root.is_dir() {
            read_scope(
                root,
                self.config.memory.nested,
                &self.config.memory.archive_folder,
            )
        } else {
            Vec::new()
        };
        let notes = simulate(before.clone(), plan, rel);
        let text = render_index(&scope.to_string(), &notes);
        let on_disk = read_plain(&root.join(INDEX_FILE))?;
        let status = self.index_status(rel, &text, on_disk.as_deref());
        if status.changed {
            let visible = render_index(&scope.to_string(), &before);
            outcome.changes.push(Change {
                path: status.path.clone(),
                action: if on_disk.is_some() {
                    Action::Modified
                } else {
                    Action::Created
                },
                to: None,
                hash_before: None,
                hash_after: None,
                diff: index_diff(&status.path, on_disk.as_deref(), &text, &visible),
            });
        }
        outcome.index = Some(status);
        Ok(outcome)
    }

    /// Records the plan's notes in the usage statistics.
    fn record_plan(
        &self,
        scope: &Scope,
        rel: &str,
        plan: &[FileOp],
        now: DateTime<Utc>,
        warnings: &mut Vec<String>,
    ) {
        let scope_name = scope.to_string();
        for f in plan {
            let (path, ev) = match f {
                FileOp::Write { rel: r, .. } => (r, UsageEvent::Write),
                FileOp::Move {
                    from_rel,
                    to_rel,
                    archive: false,
                    ..
                } => (from_rel, UsageEvent::Renamed(slug_of(rel, to_rel))),
                FileOp::Move { from_rel, .. } => (from_rel, UsageEvent::Removed),
                FileOp::Delete { rel: r, .. } => (r, UsageEvent::Removed),
            };
            let slug = slug_of(rel, path);
            self.record_named(&scope_name, &slug, &ev, now, warnings);
        }
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

    /// The status of index text `text` against the file's current text.
    fn index_status(&self, rel: &str, text: &str, on_disk: Option<&str>) -> IndexStatus {
        IndexStatus {
            path: join(rel, INDEX_FILE),
            entries: entry_lines(text),
            budget: self.config.memory.index_budget_lines,
            changed: on_disk != Some(text),
        }
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
        match read_plain(&ignore)? {
            None => atomic::write_file(
                &ignore,
                ignore_text(&self.config.memory.archive_folder).as_bytes(),
                Replace::Never,
            )?,
            Some(t) if !t.lines().any(|l| l.trim() == INDEX_FILE) => warnings.push(format!(
                "{} does not list {INDEX_FILE}: the index is scanned as a note",
                join(rel, IGNORE_FILE)
            )),
            Some(_) => {}
        }
        let notes = read_scope(
            root,
            self.config.memory.nested,
            &self.config.memory.archive_folder,
        );
        let text = render_index(&scope.to_string(), &notes);
        let path = root.join(INDEX_FILE);
        let status = self.index_status(rel, &text, read_plain(&path)?.as_deref());
        if status.changed {
            fault::index_write().map_err(MemoryError::io(&path))?;
            atomic::write_file(&path, text.as_bytes(), Replace::Atomically)?;
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
                declassify: false,
                now,
            },
        )
    }

    /// What `MEMORY.md` of `scope` should say now, and what it says (for `lint`):
    /// `(vault-relative path, expected text, current text)`; `None` when the scope
    /// folder does not exist. A `MEMORY.md` that is a symlink is refused.
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
        let current = read_plain(&root.join(INDEX_FILE))?;
        Ok(Some((join(&rel, INDEX_FILE), expected, current)))
    }
}

/// Carries out one file operation. A note replaced or deleted must still hold,
/// right before the rename, the text it was planned from ([`MemoryError::Changed`]).
fn execute(f: &FileOp) -> Result<(), MemoryError> {
    let (result, rel) = match f {
        FileOp::Write {
            abs,
            rel,
            before,
            after,
        } => {
            let replace = match before {
                Some(b) => Replace::Matching(b.as_bytes()),
                None => Replace::Never,
            };
            let r = atomic::write_file(abs, after.as_bytes(), replace).map_err(|e| match e {
                MemoryError::Io { error, .. }
                    if error.kind() == std::io::ErrorKind::AlreadyExists =>
                {
                    MemoryError::Refused(format!(
                        "{rel} appeared while writing; nothing overwritten"
                    ))
                }
                other => other,
            });
            (r, rel)
        }
        FileOp::Move {
            from, to, from_rel, ..
        } => (atomic::move_file(from, to), from_rel),
        FileOp::Delete { abs, rel, content } => (atomic::remove_file(abs, content.as_bytes()), rel),
    };
    result.map_err(|e| match e {
        MemoryError::Changed { .. } => MemoryError::Changed { path: rel.clone() },
        other => other,
    })
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Active => "active",
        Status::Superseded => "superseded",
        Status::Archived => "archived",
    }
}
