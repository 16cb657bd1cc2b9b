//! The six MCP tools that read: `memory_wakeup`, `memory_search`, `memory_get`,
//! `memory_explain`, `memory_list` and `memory_recent`. Each turns its arguments into
//! one engine request, and answers with readable text plus compact structured
//! content that carries the same text (`output.rs`). The engine applies the policy.

use std::fmt::Write as _;
use std::sync::Arc;

use cairn_engine::{
    Engine, Format, ListRequest, ListResult, ListScope, MemoryType, Ranking, SearchRequest,
    SearchScope, SecretLookup, SessionSource, Target, WakeupRequest,
};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{ErrorData, tool, tool_router};

use crate::output::{self, CandidateRef, ExplainOut, GetOut, ListOut, SearchOut, WakeupOut};
use crate::params::{
    ExplainParams, GetParams, ListParams, RecentParams, SearchParams, WakeupParams,
};
use crate::server::{
    Answer, CairnServer, engine_error, json, line, nonempty, safe_line, to_result,
};

/// Most search results per call.
const MAX_SEARCH: usize = 50;
/// Most listed notes per call.
const MAX_LIST: usize = 500;
/// Most recent notes per call.
pub(crate) const MAX_RECENT: usize = 100;

/// What `memory_wakeup` (and the `wakeup` prompt) asks of the engine, besides the
/// request: whether the whole packet goes into the structured content.
pub(crate) struct WakeupAsk {
    pub req: WakeupRequest,
    pub full_packet: bool,
}

/// The wake-up request for these arguments, or the refusal an agent reads.
pub(crate) fn wakeup_ask(server: &CairnServer, p: WakeupParams) -> Result<WakeupAsk, String> {
    let target = match nonempty(p.target) {
        None => Target::Generic,
        Some(t) => Target::parse(&t.to_lowercase()).ok_or_else(|| {
            format!("unknown target `{t}`: use claude, codex, cursor, gemini, opencode or generic")
        })?,
    };
    let (format, full_packet) = match nonempty(p.format)
        .as_deref()
        .map(str::to_lowercase)
        .as_deref()
    {
        None | Some("prompt") => (Format::Prompt, false),
        Some("markdown") => (Format::Markdown, false),
        Some("json") => (Format::Prompt, true),
        Some(other) => {
            return Err(format!(
                "unknown format `{other}`: use prompt, markdown or json (json adds the whole wakeup.v1 packet to the structured content)"
            ));
        }
    };
    if p.budget == Some(0) {
        return Err("budget must be at least 1".into());
    }
    let source = match nonempty(p.source) {
        None => SessionSource::Startup,
        Some(s) => SessionSource::parse(&s).ok_or_else(|| {
            format!("unknown source `{s}`: use startup, resume, compact or clear")
        })?,
    };
    let req = WakeupRequest {
        cwd: server.cwd(p.cwd),
        project: None,
        task: nonempty(p.task).unwrap_or_default(),
        files: p
            .files
            .unwrap_or_default()
            .into_iter()
            .filter_map(|f| nonempty(Some(f)))
            .collect(),
        profile: nonempty(p.profile),
        target,
        format,
        budget: p.budget.map(|b| b as usize),
        now: chrono::Utc::now(),
        ranking: Ranking::Full,
        source,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    };
    Ok(WakeupAsk { req, full_packet })
}

/// Runs the wake-up (with the working tree's task when none is given).
pub(crate) fn wakeup_answer(engine: &Engine, ask: &WakeupAsk) -> Answer {
    wakeup_answer_and_history(engine, ask).0
}

/// [`wakeup_answer`], and the git history it found not read for its `HEAD`
/// (see [`read_history_in_background`]).
fn wakeup_answer_and_history(
    engine: &Engine,
    ask: &WakeupAsk,
) -> (Answer, Option<cairn_engine::UnreadHistory>) {
    match engine.wakeup_with_git(&ask.req) {
        Ok(mut out) => {
            let unread = out.history_unread.take();
            (wakeup_structured(out, ask), unread)
        }
        Err(e) => (Err(engine_error(&e)), None),
    }
}

/// Reads, on a thread of its own after the answer, the git history a wake-up
/// went without, as `cairn index` would (the first time whole): the server
/// lives on, so the next wake-ups mark notes whose code changed since. At most
/// once in ten minutes per repository (the claim's stamp); a failure is a
/// history still unread, and the next wake-ups say so in `memory_explain`.
fn read_history_in_background(engine: &Arc<Engine>, unread: cairn_engine::UnreadHistory) {
    if !unread.claim_background_read(std::time::SystemTime::now()) {
        return;
    }
    let engine = Arc::clone(engine);
    let _ = std::thread::Builder::new()
        .name("cairn-history".to_owned())
        .spawn(move || {
            let _ = engine.index_git_history(Some(&unread.repo), false);
        });
}

/// A wake-up's answer: its text, and its structured content.
fn wakeup_structured(out: cairn_engine::WakeupOutput, ask: &WakeupAsk) -> Answer {
    let structured = WakeupOut {
        text: out.rendered.clone(),
        project_id: out.packet.identity.project.as_ref().map(|p| p.id.clone()),
        note_count: out.packet.item_count(),
        content_hash: out.packet.content_hash.clone(),
        packet: if ask.full_packet {
            Some(json(&out.packet)?)
        } else {
            None
        },
    };
    Ok((out.rendered, json(&structured)?))
}

/// `memory_list`'s or `memory_recent`'s scope argument.
fn list_scope(scope: Option<String>) -> Result<ListScope, String> {
    match nonempty(scope).as_deref().map(str::to_lowercase).as_deref() {
        None | Some("both" | "all") => Ok(ListScope::Both),
        Some("project") => Ok(ListScope::Project),
        Some("developer") => Ok(ListScope::Developer),
        Some(other) => Err(format!(
            "unknown scope `{other}`: use project, developer or both"
        )),
    }
}

/// The roots a listing covered, for a sentence.
fn roots_text(res: &ListResult) -> String {
    if res.roots.is_empty() {
        return "no note roots".to_owned();
    }
    res.roots
        .iter()
        .map(|r| {
            if r.is_empty() {
                "the whole vault".to_owned()
            } else {
                line(r)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A listing's page as structured content.
fn list_out(text: String, res: &ListResult, offset: usize) -> ListOut {
    let shown = res.notes.len();
    ListOut {
        text,
        project_id: res.project_id.clone(),
        total: res.total,
        hidden: res.hidden,
        offset,
        next_offset: (offset + shown < res.total).then_some(offset + shown),
        count: shown,
    }
}

/// The text of `memory_recent` (and of the `recent` prompt).
pub(crate) fn recent_text(res: &ListResult, offset: usize, days: Option<u32>) -> String {
    let mut text = String::new();
    let window = days.map_or(String::new(), |d| format!(" in the last {d} days"));
    let _ = writeln!(
        text,
        "{} under {} dated{window}, newest first (showing {} from {}){}",
        notes(res.total, "note"),
        roots_text(res),
        res.notes.len(),
        offset + 1,
        if res.hidden > 0 {
            format!("; {} not listed", notes(res.hidden, "sensitive note"))
        } else {
            String::new()
        }
    );
    for n in &res.notes {
        let _ = writeln!(
            text,
            "- {} {} ({}{}) [{}]",
            n.date.as_deref().unwrap_or("undated"),
            line(&n.title),
            n.memory_type.as_deref().unwrap_or("note"),
            if n.status == cairn_engine::Status::Active {
                String::new()
            } else {
                format!(", {}", n.status)
            },
            line(&n.id)
        );
    }
    if offset + res.notes.len() < res.total {
        let _ = writeln!(
            text,
            "More: call again with offset {}.",
            offset + res.notes.len()
        );
    }
    text
}

/// The recent notes for `p`: the request and the window in days.
pub(crate) fn recent_request(
    server: &CairnServer,
    p: RecentParams,
) -> Result<(ListRequest, Option<u32>), String> {
    let scope = list_scope(p.scope)?;
    let project = nonempty(p.project);
    Ok((
        ListRequest {
            cwd: project.is_none().then(|| server.cwd(p.cwd)),
            project,
            scope,
            memory_type: None,
            limit: p.limit.map_or(10, |l| l as usize).clamp(1, MAX_RECENT),
            offset: p.offset.map_or(0, |o| o as usize),
        },
        p.days,
    ))
}

/// Runs a recent-notes request.
pub(crate) fn recent_answer(engine: &Engine, mut req: ListRequest, days: Option<u32>) -> Answer {
    if engine.config().source.is_none() {
        req.cwd = None;
    }
    let since = days.and_then(|d| {
        chrono::Utc::now()
            .date_naive()
            .checked_sub_days(chrono::Days::new(u64::from(d)))
    });
    let res = engine.recent(&req, since).map_err(|e| engine_error(&e))?;
    let text = recent_text(&res, req.offset, days);
    Ok((text.clone(), json(&list_out(text, &res, req.offset))?))
}

#[tool_router(router = read_tool_router, vis = "pub(crate)")]
impl CairnServer {
    /// The wake-up packet for a session: the notes that matter for this project and task
    /// (identity, working style, constraints, decisions, incidents, recommended notes),
    /// ranked, explained and policy-checked. Text is the briefing; structured content
    /// repeats it with the project, the note count and the content hash (the whole
    /// wakeup.v1 packet with `format: "json"`).
    #[tool(
        name = "memory_wakeup",
        output_schema = output::schema::<WakeupOut>(),
        annotations(
            title = "Wake-up packet",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_wakeup(
        &self,
        Parameters(p): Parameters<WakeupParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let ask = match wakeup_ask(self, p) {
            Ok(ask) => ask,
            Err(e) => return Ok(to_result(Err(e))),
        };
        Ok(self
            .run(move |engine| {
                let (answer, unread) = wakeup_answer_and_history(engine, &ask);
                if let Some(unread) = unread {
                    read_history_in_background(engine, unread);
                }
                answer
            })
            .await)
    }

    /// Search the notes with the same ranking and policy as the wake-up packet. By default
    /// it covers the routed project's and the developer's notes; filters by memory type
    /// and tag are optional. Paged: `limit` hits from `offset`; the answer says whether
    /// more follow and the next page's offset.
    #[tool(
        name = "memory_search",
        output_schema = output::schema::<SearchOut>(),
        annotations(
            title = "Search memory",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_search(
        &self,
        Parameters(p): Parameters<SearchParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let query = p.query.trim().to_owned();
        if query.is_empty() {
            return Ok(to_result(Err(
                "query is empty: give a few words to look for".into(),
            )));
        }
        let mut types = Vec::new();
        for t in p.types.unwrap_or_default() {
            match MemoryType::parse(&t) {
                Some(mt) => types.push(mt),
                None => return Ok(to_result(Err(format!("unknown memory type `{t}`")))),
            }
        }
        let tags: Vec<String> = p
            .tags
            .unwrap_or_default()
            .iter()
            .map(|t| t.trim().trim_start_matches('#').to_lowercase())
            .filter(|t| !t.is_empty())
            .collect();
        let limit = p.limit.map_or(10, |l| l as usize).clamp(1, MAX_SEARCH);
        let offset = p.offset.map_or(0, |o| o as usize);
        let cwd = self.cwd(p.cwd);
        let project = nonempty(p.project);
        let all = p.all.unwrap_or(false);
        Ok(self
            .run(move |engine| {
                let has_config = engine.config().source.is_some();
                let filtered = !types.is_empty() || !tags.is_empty();
                // One more than the page, to know whether more follow.
                let wanted = offset.saturating_add(limit).saturating_add(1);
                let req = SearchRequest {
                    query: query.clone(),
                    cwd: has_config.then_some(cwd),
                    project,
                    files: Vec::new(),
                    scope: if all || !has_config {
                        SearchScope::All
                    } else {
                        SearchScope::Routed
                    },
                    limit: if filtered { usize::MAX } else { wanted },
                    ranking: Ranking::Full,
                    today: chrono::Utc::now().date_naive(),
                };
                let mut res = engine.search(&req).map_err(|e| engine_error(&e))?;
                if filtered {
                    res.hits.retain(|h| {
                        let Some(n) = engine.note(&h.path) else {
                            return false;
                        };
                        // By the tags the hit shows: a withheld (confidential)
                        // note shows none, so a tag filter cannot confirm its tags.
                        (types.is_empty() || n.memory_type.is_some_and(|t| types.contains(&t)))
                            && (tags.is_empty() || h.tags.iter().any(|t| tags.contains(t)))
                    });
                }
                let more = res.hits.len() > offset.saturating_add(limit);
                let page: Vec<_> = res.hits.into_iter().skip(offset).take(limit).collect();
                let mut text = String::new();
                if page.is_empty() {
                    if offset == 0 {
                        let _ = writeln!(text, "No notes match `{}`.", safe_line(&query));
                    } else {
                        let _ = writeln!(text, "No more notes match `{}`.", safe_line(&query));
                    }
                }
                for (i, h) in page.iter().enumerate() {
                    let kind = h.memory_type.as_deref().unwrap_or("note");
                    let status = if h.status == cairn_engine::Status::Active {
                        String::new()
                    } else {
                        format!(", {} (not current)", h.status)
                    };
                    let _ = writeln!(
                        text,
                        "{}. {} ({kind}{status}) [{}] score {:.3}\n   {}",
                        offset + i + 1,
                        line(&h.title),
                        line(&h.path),
                        h.score,
                        line(&h.snippet)
                    );
                }
                if res.suppressed > 0 {
                    let _ = writeln!(
                        text,
                        "{} hidden by policy.",
                        notes(res.suppressed, "matching note")
                    );
                }
                let next_offset = more.then_some(offset + page.len());
                if let Some(next) = next_offset {
                    let _ = writeln!(text, "More: call again with offset {next}.");
                }
                let out = SearchOut {
                    text: text.clone(),
                    ids: page.into_iter().map(|h| h.id).collect(),
                    offset,
                    more,
                    next_offset,
                    suppressed: res.suppressed,
                };
                Ok((text, json(&out)?))
            })
            .await)
    }

    /// Read one note by path, id, file name or title, optionally a range of its lines.
    /// Secret notes are never shown (any name of one answers as a missing note); confidential
    /// notes are withheld; credentials are redacted.
    #[tool(
        name = "memory_get",
        output_schema = output::schema::<GetOut>(),
        annotations(
            title = "Read a note",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_get(
        &self,
        Parameters(p): Parameters<GetParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let id = p.id.trim().to_owned();
        if id.is_empty() {
            return Ok(to_result(Err(
                "id is empty: give a note's path, id or title".into(),
            )));
        }
        let start = p.start_line.map_or(1, |s| s.max(1) as usize);
        let end = p.end_line.map(|e| e as usize);
        if end.is_some_and(|e| e < start) {
            return Ok(to_result(Err(format!(
                "end_line {} is before start_line {start}",
                end.unwrap_or_default()
            ))));
        }
        Ok(self
            .run(move |engine| {
                // An agent cannot confirm a secret note by guessing any of its names.
                let mut g = engine
                    .get_with(&id, SecretLookup::AsMissing)
                    .map_err(|e| engine_error(&e))?;
                let total = g.keep_lines(start, end).map_err(|e| engine_error(&e))?;
                let text = if g.withheld {
                    format!(
                        "{} ({})\n{}\n",
                        line(&g.title),
                        line(&g.path),
                        cairn_engine::WITHHELD_NOTICE
                    )
                } else {
                    std::mem::take(&mut g.content)
                };
                let out = GetOut {
                    text: text.clone(),
                    id: g.id,
                    path: g.path,
                    title: g.title,
                    memory_type: g.memory_type,
                    status: g.status.to_string(),
                    withheld: g.withheld,
                    redactions: g.redactions,
                    start_line: if g.withheld { 1 } else { start },
                    total_lines: total,
                    entries: g.entries,
                };
                Ok((text, json(&out)?))
            })
            .await)
    }

    /// Why each note was or was not chosen for a wake-up packet: routing, query terms,
    /// every candidate's score breakdown and decision. Secret notes are counted, never
    /// named. The whole explanation as JSON with `format: "json"`.
    #[tool(
        name = "memory_explain",
        output_schema = output::schema::<ExplainOut>(),
        annotations(
            title = "Explain selection",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_explain(
        &self,
        Parameters(p): Parameters<ExplainParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let full = match nonempty(p.format)
            .as_deref()
            .map(str::to_lowercase)
            .as_deref()
        {
            None | Some("text") => false,
            Some("json") => true,
            Some(other) => {
                return Ok(to_result(Err(format!(
                    "unknown format `{other}`: use text or json (json adds the whole explanation to the structured content)"
                ))));
            }
        };
        let req = WakeupRequest {
            cwd: self.cwd(p.cwd),
            project: None,
            task: nonempty(p.task).unwrap_or_default(),
            files: p
                .files
                .unwrap_or_default()
                .into_iter()
                .filter_map(|f| nonempty(Some(f)))
                .collect(),
            profile: nonempty(p.profile),
            target: Target::Generic,
            format: Format::Prompt,
            budget: None,
            now: chrono::Utc::now(),
            ranking: Ranking::Full,
            source: SessionSource::Startup,
            limit: None,
            caps: cairn_engine::OutputCaps::NONE,
        };
        Ok(self
            .run(move |engine| {
                // Without a task, the task git derives (as `memory_wakeup` does).
                let ex = engine
                    .explain_with_git(&req)
                    .map_err(|e| engine_error(&e))?;
                // The same text as `cairn explain`.
                let text = ex.to_text();
                let out = ExplainOut {
                    text: text.clone(),
                    route_method: ex.route_method.clone(),
                    project_id: ex.project_id.clone(),
                    candidates: ex
                        .candidates
                        .iter()
                        .map(|c| CandidateRef {
                            path: c.path.clone(),
                            decision: c.decision.clone(),
                        })
                        .collect(),
                    explanation: if full { Some(json(&ex)?) } else { None },
                };
                Ok((text, json(&out)?))
            })
            .await)
    }

    /// List the notes under the routed project's and/or the developer's note roots, with
    /// title, memory type and path (sorted by path, paged). Secret and confidential notes
    /// are not listed, only counted.
    #[tool(
        name = "memory_list",
        output_schema = output::schema::<ListOut>(),
        annotations(
            title = "List notes",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_list(
        &self,
        Parameters(p): Parameters<ListParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let scope = match list_scope(p.scope) {
            Ok(s) => s,
            Err(e) => return Ok(to_result(Err(e))),
        };
        let memory_type = match nonempty(p.memory_type) {
            None => None,
            Some(t) => match MemoryType::parse(&t) {
                Some(mt) => Some(mt),
                None => return Ok(to_result(Err(format!("unknown memory type `{t}`")))),
            },
        };
        let cwd = self.cwd(p.cwd);
        let project = nonempty(p.project);
        let limit = p.limit.map_or(100, |l| l as usize).clamp(1, MAX_LIST);
        let offset = p.offset.map_or(0, |o| o as usize);
        Ok(self
            .run(move |engine| {
                let has_config = engine.config().source.is_some();
                let req = ListRequest {
                    cwd: (has_config && project.is_none()).then_some(cwd),
                    project,
                    scope,
                    memory_type,
                    limit,
                    offset,
                };
                let res = engine.list(&req).map_err(|e| engine_error(&e))?;
                let mut text = String::new();
                let _ = writeln!(
                    text,
                    "{} under {} (showing {} from {}){}",
                    notes(res.total, "note"),
                    roots_text(&res),
                    res.notes.len(),
                    offset + 1,
                    if res.hidden > 0 {
                        format!("; {} not listed", notes(res.hidden, "sensitive note"))
                    } else {
                        String::new()
                    }
                );
                for n in &res.notes {
                    let _ = writeln!(
                        text,
                        "- {} ({}{}) [{}]",
                        line(&n.title),
                        n.memory_type.as_deref().unwrap_or("note"),
                        if n.status == cairn_engine::Status::Active {
                            String::new()
                        } else {
                            format!(", {}", n.status)
                        },
                        line(&n.path)
                    );
                }
                if offset + res.notes.len() < res.total {
                    let _ = writeln!(
                        text,
                        "More: call again with offset {}.",
                        offset + res.notes.len()
                    );
                }
                Ok((text.clone(), json(&list_out(text, &res, offset))?))
            })
            .await)
    }

    /// The notes updated or created most recently (by their `updated`, else `created`
    /// date, else in a vault kept in git their file's last commit; newest first, ties by id) under the routed project's and the developer's
    /// note roots, optionally only those of the last `days` days. Secret and
    /// confidential notes are not listed, only counted; undated notes are not listed.
    #[tool(
        name = "memory_recent",
        output_schema = output::schema::<ListOut>(),
        annotations(
            title = "Recent notes",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    pub(crate) async fn memory_recent(
        &self,
        Parameters(p): Parameters<RecentParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let (req, days) = match recent_request(self, p) {
            Ok(r) => r,
            Err(e) => return Ok(to_result(Err(e))),
        };
        Ok(self
            .run(move |engine| recent_answer(engine, req, days))
            .await)
    }
}

/// `n` and `what`, plural unless `n` is 1: "1 sensitive note", "3 sensitive notes".
fn notes(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
