//! Planning: what one operation would change, computed from the files as they
//! are (read under the scope lock), with every check of [`crate::checks`]
//! applied. One function per operation; nothing is written here, and nothing
//! here calls into the store: [`crate::store`] builds a [`Planner`], then carries
//! the plan out (or, in a dry run, only shows its diffs).

use std::path::{Path, PathBuf};

use cairn_config::MemoryConfig;
use cairn_note::{Sensitivity, entry_file_type, format_entry};
use serde_yaml_ng::{Mapping, Value};

use crate::checks::{
    check_case_collision, check_credentials, check_hash, check_parses, check_size,
    frontmatter_error,
};
use crate::contain::{Current, join, read_note, rel_under, scope_root};
use crate::error::MemoryError;
use crate::frontmatter::{NoteText, string, string_items, strings};
use crate::index::read_scope;
use crate::ops::{NewNote, Op, WriteMode, WriteOptions};
use crate::scope::Scope;
use crate::slug::Slug;

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

/// Everything one operation is planned against: the memory settings, the scope,
/// the caller's options and the scope folder (vault-relative `rel`, real `root`,
/// which may not exist yet).
pub(crate) struct Planner<'a> {
    pub memory: &'a MemoryConfig,
    pub scope: &'a Scope,
    pub opts: &'a WriteOptions,
    pub rel: &'a str,
    pub root: &'a Path,
}

impl Planner<'_> {
    /// The file operations `op` needs, after every check.
    pub(crate) fn plan(&self, op: &Op) -> Result<Vec<FileOp>, MemoryError> {
        match op {
            Op::Reindex => Ok(Vec::new()),
            Op::Write {
                slug,
                body,
                mode,
                meta,
            } => self.write(&self.slug(slug)?, body, *mode, meta),
            Op::Edit { slug, old, new } => self.edit(&self.slug(slug)?, old, new),
            Op::Insert { slug, line, text } => self.insert(&self.slug(slug)?, *line, text),
            Op::Move { slug, to } => self.rename(&self.slug(slug)?, &self.slug(to)?),
            Op::Remove { slug, purge: true } => self.purge(&self.slug(slug)?),
            Op::Remove { slug, purge: false } => self.archive(&self.slug(slug)?),
            Op::Pin { slug, pinned } => self.pin(&self.slug(slug)?, *pinned),
            Op::Supersede { old, by } => self.supersede(&self.slug(old)?, &self.slug(by)?),
        }
    }

    /// `raw` as a slug; one that holds a credential is refused before it is
    /// read (or echoed) as a name.
    fn slug(&self, raw: &str) -> Result<Slug, MemoryError> {
        if let Some(f) = cairn_policy::find_credentials(raw).into_iter().next() {
            return Err(MemoryError::CredentialSlug {
                kind: f.kind.to_string(),
            });
        }
        Slug::parse(raw, self.memory.nested)
    }

    fn today(&self) -> String {
        self.opts.now.date_naive().to_string()
    }

    /// Whether folders may be created (never in a dry run).
    fn creating(&self) -> bool {
        !self.opts.dry_run
    }

    /// Reads `slug`, which must exist.
    fn existing(&self, slug: &Slug) -> Result<(Current, String), MemoryError> {
        let cur = read_note(self.root, self.rel, slug, false)?;
        match cur.text.clone() {
            Some(t) => Ok((cur, t)),
            None => Err(not_found(
                self.memory,
                self.scope,
                slug,
                self.rel,
                Some(self.root).filter(|r| r.is_dir()),
            )),
        }
    }

    /// `write`: create, append to, or replace a note.
    fn write(
        &self,
        slug: &Slug,
        body: &str,
        mode: WriteMode,
        meta: &NewNote,
    ) -> Result<Vec<FileOp>, MemoryError> {
        let cur = read_note(self.root, self.rel, slug, self.creating())?;
        check_hash(self.opts, &cur)?;
        check_case_collision(self.root, self.rel, slug, &cur)?;
        let mut added: Vec<&str> = vec![body];
        added.extend(meta.title.as_deref());
        added.extend(meta.description.as_deref());
        added.extend(meta.category.as_deref());
        added.extend(meta.tags.iter().map(String::as_str));
        let secret = check_credentials(&added, self.opts.allow_secrets)?;
        let after = match (&cur.text, mode) {
            (Some(_), WriteMode::Create) => {
                return Err(MemoryError::Exists {
                    path: cur.rel.clone(),
                });
            }
            (None, _) => self.new_note(slug, body, meta, secret, &cur.rel)?,
            (Some(text), WriteMode::Append) => {
                self.appended(slug, text, body, meta, secret, &cur.rel)?
            }
            (Some(text), WriteMode::Force) => {
                self.replaced(slug, text, body, meta, secret, &cur.rel)?
            }
        };
        check_size(&cur.rel, &after, self.memory.max_note_bytes)?;
        check_parses(&cur.rel, &after)?;
        Ok(vec![FileOp::Write {
            abs: cur.abs,
            rel: cur.rel,
            before: cur.text,
            after,
        }])
    }

    /// The text of a new note (or a new entry file holding its first entry).
    fn new_note(
        &self,
        slug: &Slug,
        body: &str,
        meta: &NewNote,
        secret: bool,
        path: &str,
    ) -> Result<String, MemoryError> {
        let today = self.today();
        let entry_type = entry_file_type(&slug.file_name());
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
        m.insert(string("scope"), string(&self.scope.to_string()));
        if let Some(p) = self.scope.project_id() {
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
                new_entry(meta, slug, self.opts, body)?
            ),
            None => with_newline(body),
        };
        Ok(NoteText::new(&m, &body_text)
            .map_err(|reason| frontmatter_error(path, reason))?
            .render())
    }

    /// `write --append`: a dated section (or, in an entry file, a dated entry).
    fn appended(
        &self,
        slug: &Slug,
        text: &str,
        body: &str,
        meta: &NewNote,
        secret: bool,
        path: &str,
    ) -> Result<String, MemoryError> {
        let today = self.today();
        let entry_type = entry_file_type(&slug.file_name());
        let mut doc = NoteText::split(text).map_err(|r| frontmatter_error(path, r))?;
        doc.mapping().map_err(|r| frontmatter_error(path, r))?;
        let section = match entry_type {
            Some(_) => new_entry(meta, slug, self.opts, body)?,
            None => format!("## {today}\n\n{}", with_newline(body.trim())),
        };
        let head = doc.body.trim_end();
        doc.body = if head.is_empty() {
            section
        } else {
            format!("{head}\n\n{section}")
        };
        if entry_type.is_none() {
            apply_meta(&mut doc, meta, false).map_err(|r| frontmatter_error(path, r))?;
        }
        if secret {
            doc.set("sensitivity", Some(string("secret")))
                .map_err(|r| frontmatter_error(path, r))?;
        }
        if doc.yaml.is_some() {
            doc.set("updated", Some(string(&today)))
                .map_err(|r| frontmatter_error(path, r))?;
        }
        Ok(doc.render())
    }

    /// `write --force`: a new body; front-matter keys not given are kept.
    fn replaced(
        &self,
        slug: &Slug,
        text: &str,
        body: &str,
        meta: &NewNote,
        secret: bool,
        path: &str,
    ) -> Result<String, MemoryError> {
        let mut doc = NoteText::split(text).map_err(|r| frontmatter_error(path, r))?;
        let existing = doc.mapping().map_err(|r| frontmatter_error(path, r))?;
        apply_meta(&mut doc, meta, true).map_err(|r| frontmatter_error(path, r))?;
        let set = |doc: &mut NoteText, k: &str, v: Value| {
            doc.set(k, Some(v)).map_err(|r| frontmatter_error(path, r))
        };
        if existing.get("title").is_none() && meta.title.is_none() {
            set(&mut doc, "title", string(&slug.default_title()))?;
        }
        if existing.get("scope").is_none() {
            set(&mut doc, "scope", string(&self.scope.to_string()))?;
        }
        if let Some(p) = self
            .scope
            .project_id()
            .filter(|_| existing.get("project_id").is_none())
        {
            set(&mut doc, "project_id", string(p))?;
        }
        if secret {
            set(&mut doc, "sensitivity", string("secret"))?;
        }
        set(&mut doc, "updated", string(&self.today()))?;
        doc.body = with_newline(body);
        Ok(doc.render())
    }

    /// `edit`: replace the one occurrence of `old` with `new`.
    fn edit(&self, slug: &Slug, old: &str, new: &str) -> Result<Vec<FileOp>, MemoryError> {
        let (cur, text) = self.existing(slug)?;
        check_hash(self.opts, &cur)?;
        if old.is_empty() {
            return Err(MemoryError::Refused(
                "--old is empty; give the text to replace".into(),
            ));
        }
        let secret = check_credentials(&[new], self.opts.allow_secrets)?;
        let crlf = text.contains("\r\n");
        let norm = text.replace("\r\n", "\n");
        let old_n = old.replace("\r\n", "\n");
        // Whether `old` occurs, and where, is answered from the text `cairn
        // memory show` shows, never from what it withholds: a guess of a
        // withheld text's words would otherwise be confirmed by the answer.
        let shown = match crate::mask::reveal(&cur.rel, &text) {
            crate::mask::Reveal::Text(shown, _) => shown.replace("\r\n", "\n"),
            crate::mask::Reveal::Withheld | crate::mask::Reveal::Secret => {
                return Err(MemoryError::Refused(format!(
                    "{} is secret or confidential: `edit` finds text only in what `cairn memory show` shows; change it in your editor",
                    cur.rel
                )));
            }
        };
        let starts: Vec<usize> = shown.match_indices(&old_n).map(|(i, _)| i).collect();
        if starts.len() == 1 && norm.matches(&old_n).count() != 1 {
            // Once in what is shown, again in a withheld entry: said as if
            // it did not occur.
            return Err(MemoryError::NoMatch { path: cur.rel });
        }
        match starts.len() {
            0 => return Err(MemoryError::NoMatch { path: cur.rel }),
            1 => {}
            n => {
                let lines: Vec<String> = starts
                    .iter()
                    .map(|&i| (shown[..i].matches('\n').count() + 1).to_string())
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
        let after = finish_edit(&cur.rel, &text, &edited, secret, &self.today())?;
        check_size(&cur.rel, &after, self.memory.max_note_bytes)?;
        Ok(vec![FileOp::Write {
            abs: cur.abs,
            rel: cur.rel,
            before: Some(text),
            after,
        }])
    }

    /// `insert`: `insert` after line `line` (0 = at the top).
    fn insert(&self, slug: &Slug, line: usize, insert: &str) -> Result<Vec<FileOp>, MemoryError> {
        let (cur, text) = self.existing(slug)?;
        check_hash(self.opts, &cur)?;
        let secret = check_credentials(&[insert], self.opts.allow_secrets)?;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let (Some(above), Some(below)) = (lines.get(..line), lines.get(line..)) else {
            return Err(MemoryError::LineOutOfRange {
                path: cur.rel,
                lines: lines.len(),
            });
        };
        let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let mut out: String = above.concat();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(nl);
        }
        out.push_str(&insert.replace("\r\n", "\n").replace('\n', nl));
        if !insert.ends_with('\n') {
            out.push_str(nl);
        }
        out.push_str(&below.concat());
        let after = finish_edit(&cur.rel, &text, &out, secret, &self.today())?;
        check_size(&cur.rel, &after, self.memory.max_note_bytes)?;
        Ok(vec![FileOp::Write {
            abs: cur.abs,
            rel: cur.rel,
            before: Some(text),
            after,
        }])
    }

    /// `move`: rename within the scope, never over an existing note.
    fn rename(&self, slug: &Slug, to: &Slug) -> Result<Vec<FileOp>, MemoryError> {
        let (cur, text) = self.existing(slug)?;
        check_hash(self.opts, &cur)?;
        let target = read_note(self.root, self.rel, to, self.creating())?;
        if target.text.is_some() {
            return Err(MemoryError::Exists { path: target.rel });
        }
        check_case_collision(self.root, self.rel, to, &target)?;
        Ok(vec![FileOp::Move {
            from: cur.abs,
            to: target.abs,
            from_rel: cur.rel,
            to_rel: target.rel,
            content: text,
            archive: false,
        }])
    }

    /// `remove --purge`: delete the note.
    fn purge(&self, slug: &Slug) -> Result<Vec<FileOp>, MemoryError> {
        let (cur, text) = self.existing(slug)?;
        check_hash(self.opts, &cur)?;
        Ok(vec![FileOp::Delete {
            abs: cur.abs,
            rel: cur.rel,
            content: text,
        }])
    }

    /// `remove`: move the note to the scope's archive folder, under a stamped
    /// name when its own is taken there.
    fn archive(&self, slug: &Slug) -> Result<Vec<FileOp>, MemoryError> {
        let (cur, text) = self.existing(slug)?;
        check_hash(self.opts, &cur)?;
        let archive = &self.memory.archive_folder;
        let mut name = slug.file_name();
        let stamp = self.opts.now.format("%Y%m%dT%H%M%SZ").to_string();
        let dir = self.root.join(archive);
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
        if self.creating()
            && let Some(parent) = to.parent()
        {
            scope_root(
                self.root,
                &rel_under(self.root, parent).unwrap_or_default(),
                true,
            )?;
        }
        Ok(vec![FileOp::Move {
            from: cur.abs,
            to,
            from_rel: cur.rel,
            to_rel: join(self.rel, &format!("{archive}/{name}")),
            content: text,
            archive: true,
        }])
    }

    /// `pin` / `unpin`: set or clear `pinned`.
    fn pin(&self, slug: &Slug, pinned: bool) -> Result<Vec<FileOp>, MemoryError> {
        let (cur, text) = self.existing(slug)?;
        check_hash(self.opts, &cur)?;
        let mut doc = NoteText::split(&text).map_err(|r| frontmatter_error(&cur.rel, r))?;
        let value = pinned.then_some(Value::Bool(true));
        doc.set("pinned", value)
            .map_err(|r| frontmatter_error(&cur.rel, r))?;
        let after = doc.render();
        if after == text {
            return Ok(Vec::new());
        }
        Ok(vec![FileOp::Write {
            abs: cur.abs,
            rel: cur.rel,
            before: Some(text),
            after,
        }])
    }

    /// `supersede`: mark `old` superseded by `by`, linking both ways.
    fn supersede(&self, old: &Slug, by: &Slug) -> Result<Vec<FileOp>, MemoryError> {
        let today = self.today();
        let (old_cur, old_text) = self.existing(old)?;
        let (by_cur, by_text) = self.existing(by)?;
        check_hash(self.opts, &old_cur)?;
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
        let mut plan = Vec::new();
        for (cur, before, doc) in [(by_cur, by_text, by_doc), (old_cur, old_text, old_doc)] {
            let after = doc.render();
            check_size(&cur.rel, &after, self.memory.max_note_bytes)?;
            if after != before {
                plan.push(FileOp::Write {
                    abs: cur.abs,
                    rel: cur.rel,
                    before: Some(before),
                    after,
                });
            }
        }
        Ok(plan)
    }
}

/// The refusal of a note that does not exist, with up to three similar names of
/// the scope (never a secret note's) when `root` is given.
pub(crate) fn not_found(
    memory: &MemoryConfig,
    scope: &Scope,
    slug: &Slug,
    rel: &str,
    root: Option<&Path>,
) -> MemoryError {
    let lower = slug.as_str().to_lowercase();
    let hint = root
        .map(|r| read_scope(r, memory.nested, &memory.archive_folder))
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
