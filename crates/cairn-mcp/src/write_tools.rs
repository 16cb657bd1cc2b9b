//! The two MCP tools that write: `memory_write` and `memory_pin`, through
//! `cairn-memory`, the same store as `cairn memory write/pin`, so its collision,
//! compare-and-swap, containment and size rules hold unchanged. An agent cannot
//! opt in to storing credentials nor lower a note's sensitivity. Their structured
//! content is the text plus the scope, folder and changed paths (`WriteOut`).

use std::fmt::Write as _;

use cairn_engine::{Engine, MemoryType, Sensitivity};
use cairn_memory::{NewNote, Op, Scope, Store, WriteMode, WriteOptions};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

use crate::output::{self, ChangeRef, WriteOut};
use crate::params::{PinParams, WriteParams};
use crate::server::{Answer, CairnServer, json, nonempty, to_result};

/// Applies one write through the memory store of the engine's vault. Credentials
/// are never allowed (an agent cannot opt in to storing one), and neither is
/// lowering a note's or an entry's sensitivity (only the CLI's `--declassify`).
fn write_memory(
    engine: &Engine,
    scope: Option<String>,
    cwd: &std::path::Path,
    op: &Op,
    expect_hash: Option<String>,
    dry_run: bool,
) -> Answer {
    let opts = WriteOptions {
        expect_hash,
        dry_run,
        allow_secrets: false,
        declassify: false,
        now: chrono::Utc::now(),
    };
    let config = engine.config().clone();
    let scope = match scope {
        Some(s) => Scope::parse(&s).map_err(|e| e.to_string())?,
        None => Scope::default_for(&config, cwd),
    };
    let store = Store::new(config);
    let outcome = store
        .apply(&scope, op, &opts)
        .map_err(|e| crate::messages::memory_error(&e))?;
    let mut text = String::new();
    let mut changes = Vec::with_capacity(outcome.changes.len());
    if outcome.dry_run {
        let _ = writeln!(text, "Dry run: nothing written.");
    }
    for c in &outcome.changes {
        let action = serde_json::to_value(c.action)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let _ = write!(text, "{action} {}", c.path);
        changes.push(ChangeRef {
            action: action.clone(),
            path: c.path.clone(),
            hash_after: c.hash_after.clone(),
        });
        if let Some(to) = &c.to {
            let _ = write!(text, " -> {to}");
        }
        if let Some(h) = &c.hash_after {
            let _ = write!(text, " (content hash {h})");
        }
        text.push('\n');
        if outcome.dry_run && !c.diff.is_empty() {
            text.push_str(&c.diff);
        }
    }
    for w in &outcome.warnings {
        let _ = writeln!(text, "warning: {w}");
    }
    let out = WriteOut {
        text: text.clone(),
        scope: outcome.scope,
        folder: outcome.folder,
        dry_run: outcome.dry_run,
        changes,
    };
    Ok((text, json(&out)?))
}

#[tool_router(router = write_tool_router, vis = "pub(crate)")]
impl CairnServer {
    /// Record a memory note (decision, lesson, preference, constraint...) in the
    /// developer's vault, with frontmatter, atomically. `create` refuses an existing
    /// note; `append` adds a dated section; `replace` replaces the body. Credentials in
    /// the body are refused. `expect_hash` makes the write conditional on the current
    /// content; `dry_run` shows the diff only.
    #[tool(
        name = "memory_write",
        output_schema = output::schema::<WriteOut>(),
        annotations(
            title = "Write a memory note",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_write(
        &self,
        Parameters(p): Parameters<WriteParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mode = match nonempty(p.mode)
            .as_deref()
            .map(str::to_lowercase)
            .as_deref()
        {
            None | Some("create") => WriteMode::Create,
            Some("append") => WriteMode::Append,
            Some("replace" | "force") => WriteMode::Force,
            Some(other) => {
                return Ok(to_result(Err(format!(
                    "unknown mode `{other}`: use create, append or replace"
                ))));
            }
        };
        let memory_type = match nonempty(p.memory_type) {
            None => None,
            Some(t) => match MemoryType::parse(&t) {
                Some(mt) => Some(mt),
                None => return Ok(to_result(Err(format!("unknown memory type `{t}`")))),
            },
        };
        let sensitivity = match nonempty(p.sensitivity) {
            None => None,
            Some(s) => match Sensitivity::parse(&s) {
                Some(v) => Some(v),
                None => {
                    return Ok(to_result(Err(format!(
                        "unknown sensitivity `{s}`: use public, internal, confidential or secret"
                    ))));
                }
            },
        };
        let op = Op::Write {
            slug: p.slug.trim().to_owned(),
            body: p.body,
            mode,
            meta: NewNote {
                title: nonempty(p.title),
                memory_type,
                description: nonempty(p.description),
                sensitivity,
                tags: p.tags.unwrap_or_default(),
                category: None,
            },
        };
        let cwd = self.cwd(p.cwd);
        let expect_hash = nonempty(p.expect_hash);
        let dry_run = p.dry_run.unwrap_or(false);
        Ok(self
            .run(move |engine| {
                write_memory(engine, nonempty(p.scope), &cwd, &op, expect_hash, dry_run)
            })
            .await)
    }

    /// Pin a memory note (always considered for the wake-up packet) or unpin it.
    #[tool(
        name = "memory_pin",
        output_schema = output::schema::<WriteOut>(),
        annotations(
            title = "Pin or unpin a note",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_pin(
        &self,
        Parameters(p): Parameters<PinParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let op = Op::Pin {
            slug: p.slug.trim().to_owned(),
            pinned: p.pinned.unwrap_or(true),
        };
        let cwd = self.cwd(p.cwd);
        Ok(self
            .run(move |engine| write_memory(engine, nonempty(p.scope), &cwd, &op, None, false))
            .await)
    }
}
