//! Checks of single notes and of the vault's layout: the scan's diagnostics,
//! overdue reviews, credentials in notes that are not secret, the memory scopes'
//! `MEMORY.md` indexes, and pinned notes that overflow a packet.

use std::collections::{BTreeMap, BTreeSet};

use cairn_engine::{Format, Ranking, Target, WakeupRequest, in_root};
use cairn_memory::{ErrorKind, Scope, Store, all_scopes, entry_lines};
use cairn_note::{Note, Sensitivity, Severity};

use crate::{Ctx, Level};

/// The scan's diagnostics. Unreadable frontmatter is an error (its keys are
/// ignored), and so is a sensitivity in doubt (`sensitivity-doubt`, an error from
/// the parser: the note is secret until fixed).
pub(crate) fn diagnostics(ctx: &mut Ctx<'_>) {
    let diags: Vec<_> = ctx.engine.diagnostics().to_vec();
    for d in diags {
        let level = match (d.code.as_str(), d.severity) {
            (
                "frontmatter-yaml"
                | "frontmatter-toml"
                | "frontmatter-json"
                | "frontmatter-unclosed"
                | "frontmatter-shape",
                _,
            ) => Level::Error,
            (_, Severity::Error) => Level::Error,
            (_, Severity::Warning) => Level::Warning,
            (_, Severity::Info) => Level::Info,
        };
        let mut message = d.message.clone();
        match d.code.as_str() {
            "frontmatter-yaml"
            | "frontmatter-toml"
            | "frontmatter-json"
            | "frontmatter-unclosed"
            | "frontmatter-shape" => {
                message.push_str(
                    " (until fixed, every key is ignored: the note is internal, or secret if it names a sensitivity)",
                );
            }
            _ => {}
        }
        ctx.push(level, &d.code, &d.path, d.line, message);
    }
    let missing: Vec<String> = ctx
        .engine
        .missing_note_roots()
        .into_iter()
        .map(str::to_owned)
        .collect();
    for r in missing {
        ctx.push(
            Level::Warning,
            "missing-root",
            &r,
            None,
            "this note root (cairn.toml) is not a folder of the vault; nothing is read from it"
                .into(),
        );
    }
}

/// Notes whose `review_after` date has passed.
pub(crate) fn review_dates(ctx: &mut Ctx<'_>) {
    let today = ctx.opts.today;
    let mut found = Vec::new();
    for n in ctx.notes() {
        let Some(due) = n.review_after else { continue };
        if n.is_retired() || due >= today {
            continue;
        }
        let days = (today - due).num_days();
        found.push((
            n.file_path().to_owned(),
            ctx.key_line(n, "review_after"),
            format!(
                "review was due on {due} ({days} days ago): check it is still true, then move `review_after`, or retire the note"
            ),
        ));
    }
    for (path, line, message) in found {
        ctx.push(Level::Warning, "review-overdue", &path, line, message);
    }
}

/// Credentials in notes that are not `sensitivity: secret`. The finding names the
/// kind and the line, never the value.
pub(crate) fn credentials(ctx: &mut Ctx<'_>) {
    let mut by_file: BTreeMap<&str, Vec<&Note>> = BTreeMap::new();
    for n in ctx.notes() {
        by_file.entry(n.file_path()).or_default().push(n);
    }
    let mut found = Vec::new();
    for (file, notes) in by_file {
        let Some(text) = ctx.texts.get(file) else {
            continue;
        };
        // Lines outside every note's body (frontmatter, text between entries)
        // carry the file's own sensitivity: the lowest of its notes'.
        let file_level = notes
            .iter()
            .map(|n| n.sensitivity)
            .min()
            .unwrap_or_default();
        // As a reader sees the note: escaped or entity-encoded credentials too.
        for f in cairn_policy::find_credentials_markdown(text) {
            let covering = notes.iter().find(|n| {
                let end = n.body_line + n.body.lines().count();
                (n.body_line..end).contains(&f.line)
            });
            let level = covering.map_or(file_level, |n| n.sensitivity);
            if level == Sensitivity::Secret {
                continue;
            }
            found.push((
                file.to_owned(),
                f.line,
                format!(
                    "a credential ({}) sits in a note that is not secret: remove it (and rotate it if it was real), or mark the note `sensitivity: secret`",
                    f.kind
                ),
            ));
        }
    }
    for (path, line, message) in found {
        ctx.push(
            Level::Error,
            "credential-in-note",
            &path,
            Some(line),
            message,
        );
    }
}

/// Each memory scope's `MEMORY.md`: present, current, within its line budget; and
/// each scope folder under a note root (else nothing in it reaches a packet).
pub(crate) fn memory_indexes(ctx: &mut Ctx<'_>) {
    let config = ctx.engine.config().clone();
    let budget = config.memory.index_budget_lines;
    let store = Store::new(config.clone());
    let mut roots: Vec<String> = config.developer.note_roots.clone();
    for p in &config.projects {
        roots.extend(p.note_roots.iter().cloned());
    }
    for scope in all_scopes(&config) {
        let state = match store.index_state(&scope) {
            Ok(Some(s)) => s,
            Ok(None) => continue,
            Err(e) if e.kind() == ErrorKind::Usage => continue,
            Err(e) => {
                let folder = scope.folder(&config).unwrap_or_default();
                ctx.push(Level::Warning, "memory-scope", &folder, None, e.to_string());
                continue;
            }
        };
        let (path, expected, current) = state;
        let folder = path.rsplit_once('/').map_or("", |(f, _)| f).to_owned();
        let reindex = reindex_hint(&scope);
        let listed = entry_lines(&expected);
        match &current {
            None if listed > 0 => ctx.push(
                Level::Warning,
                "memory-index-missing",
                &path,
                None,
                format!(
                    "scope {scope} has {} but no MEMORY.md: run `{reindex}`",
                    notes(listed)
                ),
            ),
            Some(cur) if *cur != expected => {
                let have = entry_lines(cur);
                let what = if have == listed {
                    "titles or descriptions changed".to_owned()
                } else {
                    format!("it lists {}, the folder has {listed}", notes(have))
                };
                ctx.push(
                    Level::Warning,
                    "memory-index-stale",
                    &path,
                    None,
                    format!("out of date ({what}): run `{reindex}`"),
                );
            }
            _ => {}
        }
        if listed > budget {
            ctx.push(
                Level::Warning,
                "memory-index-over-budget",
                &path,
                None,
                format!(
                    "lists {}, over its budget of {budget} lines ([memory] index_budget_lines): merge, retire or move some",
                    notes(listed)
                ),
            );
        }
        if !folder.is_empty() && !roots.iter().any(|r| in_root(&format!("{folder}/x"), r)) {
            ctx.push(
                Level::Warning,
                "memory-scope-unreachable",
                &folder,
                None,
                format!(
                    "scope {scope} is under no note root, so its notes never reach a packet: add the folder to note_roots, or point [memory] at one"
                ),
            );
        }
    }
}

fn notes(n: usize) -> String {
    if n == 1 {
        "1 note".to_owned()
    } else {
        format!("{n} notes")
    }
}

fn reindex_hint(scope: &Scope) -> String {
    format!("cairn memory reindex --scope {scope}")
}

/// Pinned notes enter every packet of their profile first; when they alone do not
/// fit the prompt budget (or overflow a section's cap), some are dropped. Checked
/// with the real pipeline: an empty-task wake-up per project (and one for the
/// developer profile), whose left-out list names the pinned notes that did not fit.
pub(crate) fn pinned_budget(ctx: &mut Ctx<'_>) {
    let engine = ctx.engine;
    let config = engine.config();
    if !engine.notes().iter().any(|n| n.pinned && !n.is_retired()) {
        return;
    }
    let now = ctx.opts.today.and_hms_opt(12, 0, 0).map(|t| t.and_utc());
    let Some(now) = now else { return };
    let mut contexts: Vec<(Option<String>, Vec<String>, String)> = config
        .projects
        .iter()
        .map(|p| {
            let mut roots = p.note_roots.clone();
            roots.extend(config.developer.note_roots.iter().cloned());
            (
                Some(p.id.clone()),
                roots,
                p.note_roots.first().cloned().unwrap_or_default(),
            )
        })
        .collect();
    if !config.developer.note_roots.is_empty() {
        contexts.push((None, config.developer.note_roots.clone(), String::new()));
    }
    let mut found = Vec::new();
    for (project, roots, path) in contexts {
        let req = WakeupRequest {
            cwd: config.vault.root.clone(),
            project: project.clone(),
            task: String::new(),
            files: Vec::new(),
            profile: None,
            target: Target::Generic,
            format: Format::Prompt,
            budget: None,
            now,
            ranking: Ranking::Full,
            source: cairn_engine::SessionSource::Startup,
            limit: None,
            caps: cairn_engine::OutputCaps::NONE,
        };
        let Ok(out) = engine.wakeup(&req) else {
            continue;
        };
        // Pinned notes dropped for the budget (or past a full section's cap).
        let dropped: Vec<String> = out
            .packet
            .budget
            .left_out
            .iter()
            .filter(|l| engine.note(&l.path).is_some_and(|n| n.pinned))
            .map(|l| format!("{}: {}", l.path, l.reason))
            .collect();
        if dropped.is_empty() {
            continue;
        }
        let pinned: Vec<&Note> = engine
            .notes()
            .iter()
            .filter(|n| n.pinned && !n.is_retired() && n.sensitivity != Sensitivity::Secret)
            .filter(|n| roots.iter().any(|r| in_root(&n.path, r)))
            .collect();
        let empty = BTreeSet::new();
        let tokens: usize = pinned
            .iter()
            .map(|n| {
                let item = format!(
                    "{}: {} ({})",
                    n.title,
                    cairn_assemble::summarize(&cairn_policy::ShownNote::of(n), &empty),
                    n.path
                );
                cairn_render::estimate_tokens(&item)
            })
            .sum();
        let whose = project.map_or_else(
            || "the developer profile".to_owned(),
            |p| format!("project {p} ({} profile)", out.packet.profile),
        );
        found.push((
            path,
            format!(
                "pinned notes do not fit the prompt budget of {} tokens for {whose}: {} of {} pinned notes were left out ({}); the pinned notes alone take about {tokens} tokens as packet items: unpin some or shorten their descriptions",
                out.packet.budget.limit_tokens,
                dropped.len(),
                pinned.len(),
                dropped.join(", ")
            ),
        ));
    }
    for (path, message) in found {
        ctx.push(Level::Warning, "pinned-over-budget", &path, None, message);
    }
}
