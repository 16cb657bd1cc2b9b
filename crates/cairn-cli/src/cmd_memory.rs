//! `cairn memory …`: list, read and deliberately write memory notes in the
//! vault's scope folders (flags, then printing; the work is in `cairn-memory`).

use std::io::Read;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use cairn_engine::config::Config;
use cairn_memory::{Action, NewNote, Op, Outcome, Scope, Store, WriteMode, WriteOptions};
use cairn_note::{MemoryType, Sensitivity};

use crate::args::{MemoryArgs, MemoryCommand, ScopeArgs, TextOrJson, WriteArgs, WriteFlags};
use crate::error::UsageError;
use crate::output::{print_json, print_out};
use crate::request::{resolve_cwd, resolve_now};
use crate::source::load_config;

/// Runs `cairn memory …`.
pub(crate) fn run(a: MemoryArgs) -> Result<ExitCode> {
    let config = load_config(&a.source)?;
    let mut store = Store::new(config.clone());
    if let Some(dir) = cairn_engine::config::cache_root(|k| std::env::var(k).ok()) {
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
                eprintln!(
                    "cairn: {} redacted",
                    crate::output::count(shown.redactions, "credential", "credentials")
                );
            }
            for w in &warnings {
                warn(w);
            }
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
    if let Some(s) = &a.scope {
        Ok(Scope::parse(s)?)
    } else {
        let cwd = resolve_cwd(a.cwd.as_ref())?;
        Ok(Scope::default_for(config, &cwd))
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
