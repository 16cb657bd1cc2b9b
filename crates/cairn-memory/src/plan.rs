//! Planning: what one operation would change, computed from the files as they
//! are (read under the scope lock), with every check applied: compare-and-swap,
//! collisions, size cap, credentials, frontmatter that must still read. Nothing is
//! written here; [`crate::store`] carries the plan out (or, in a dry run, only
//! shows its diffs).

use std::path::{Path, PathBuf};

use cairn_note::{Sensitivity, entry_file_type, format_entry};
use serde_yaml_ng::{Mapping, Value};
use unicode_normalization::UnicodeNormalization;

use crate::contain::{note_path, scope_root};
use crate::error::MemoryError;
use crate::frontmatter::{NoteText, string, string_items, strings};
use crate::ops::{NewNote, Op, WriteMode, WriteOptions};
use crate::scope::Scope;
use crate::slug::Slug;
use crate::store::{Store, content_hash, join, rel_under};

/// A planned file operation.
pub(crate) enum FileOp {
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
pub(crate) struct Current {
    /// The real file.
    pub abs: PathBuf,
    /// Vault-relative path.
    pub rel: String,
    /// Its text, `None` when it does not exist.
    pub text: Option<String>,
}

impl Store {
    /// Resolves and reads `slug` under `root` (creating nested parents when `create`).
    pub(crate) fn current(
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

    /// Like [`Store::current`], but the note must exist.
    pub(crate) fn existing(
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

    /// Compare-and-swap: the note's content hash must start with `--expect-hash`.
    pub(crate) fn check_hash(&self, opts: &WriteOptions, cur: &Current) -> Result<(), MemoryError> {
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

    /// The file operations `op` needs, after every check.
    pub(crate) fn plan(
        &self,
        scope: &Scope,
        op: &Op,
        opts: &WriteOptions,
        rel: &str,
        root: &Path,
        slugs: &[Slug],
    ) -> Result<Vec<FileOp>, MemoryError> {
        let today = opts.now.date_naive().to_string();
        let limit = self.config().memory.max_note_bytes;
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
                        // In an entry file, --sensitivity is the entry's (a field line).
                        let sensitivity = if secret {
                            Some(Sensitivity::Secret)
                        } else {
                            meta.sensitivity.filter(|_| entry_type.is_none())
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
                            Some(_) => format!(
                                "# {}\n\n{}",
                                one_line(&file_title),
                                new_entry(meta, slug, opts, body)?
                            ),
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
                            Some(_) => new_entry(meta, slug, opts, body)?,
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
                    let archive = &self.config().memory.archive_folder;
                    let slug = &slugs[0];
                    let mut name = slug.file_name();
                    let stamp = opts.now.format("%Y%m%dT%H%M%SZ").to_string();
                    let dir = root.join(archive);
                    let mut k = 1;
                    while std::fs::symlink_metadata(dir.join(&name)).is_ok() {
                        let stamp = if k == 1 {
                            stamp.clone()
                        } else {
                            format!("{stamp}-{k}")
                        };
                        name = archive_name(slug, &stamp);
                        k += 1;
                    }
                    let to = dir.join(&name);
                    if creating && let Some(parent) = to.parent() {
                        scope_root(root, &rel_under(root, parent).unwrap_or_default(), true)?;
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

/// A new dated entry for an entry file, with a `**Sensitivity:**` field line
/// when the caller gave one (an entry's field can only raise the file's level).
fn new_entry(
    meta: &NewNote,
    slug: &Slug,
    opts: &WriteOptions,
    body: &str,
) -> Result<String, MemoryError> {
    let title = entry_title(meta, slug)?;
    let entry = format_entry(
        opts.now.date_naive(),
        &title,
        meta.category.as_deref(),
        &clean_tags(&meta.tags),
        body,
    );
    let Some(level) = meta.sensitivity else {
        return Ok(entry);
    };
    let (heading, rest) = entry.split_once("\n\n").unwrap_or((&entry, ""));
    let gap = if rest.starts_with("**") { "" } else { "\n" };
    Ok(format!(
        "{heading}\n\n**Sensitivity:** {}\n{gap}{rest}",
        level.as_str()
    ))
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
    let fold = |s: &str| s.nfc().collect::<String>().to_lowercase();
    let want = fold(&format!("{}.md", slug.leaf()));
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in rd.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        if fold(&name) == want && name != format!("{}.md", slug.leaf()) {
            let existing = rel_under(root, &dir.join(&name)).unwrap_or(name);
            return Err(MemoryError::CaseCollision {
                path: cur.rel.clone(),
                existing: join(rel, &existing),
            });
        }
    }
    Ok(())
}

/// The archive name of `slug` stamped `stamp` (when its own name is taken):
/// `retry-policy.<stamp>.md`; an entry file keeps its name last
/// (`<stamp>.decisions.md`), so it stays an entry file and its entries keep
/// their levels.
fn archive_name(slug: &Slug, stamp: &str) -> String {
    if entry_file_type(&slug.file_name()).is_none() {
        return format!("{}.{stamp}.md", slug.as_str());
    }
    match slug.as_str().rsplit_once('/') {
        Some((dir, leaf)) => format!("{dir}/{stamp}.{leaf}.md"),
        None => format!("{stamp}.{}.md", slug.as_str()),
    }
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
