//! `wakeup`: route, pick the profile's candidates, rank, apply policy, assemble,
//! redact, render and fit the budget and the caps (`fit.rs`). `explain` reuses
//! [`Engine::select_with`].

use std::collections::BTreeSet;
use std::path::PathBuf;

use cairn_assemble::{
    Candidate, HotKind, Origin, Packet, Profile, ProjectInfo, QueryEcho, Request, RouteInfo,
};
use cairn_index::{QueryTerms, Ranker};
use cairn_note::Note;
use cairn_policy::Visibility;
use cairn_render::{Format, TOKENIZER_NAME, Target};
use cairn_route::{Route, RouteMethod};
use cairn_score::{Ranking, ScoreContext, Scored, Weights};
use chrono::{DateTime, Utc};
use rustc_hash::FxHashMap;

use crate::derived_task::TaskPart;
use crate::fit::{MAX_FIT_ATTEMPTS, OutputCaps, Shrink, shrink};
use crate::git_task::Echo;
use crate::hot::SessionSource;
use crate::layers::{Layers, candidates};
use crate::owners::Owners;
use crate::{Engine, EngineError};

/// How many BM25 hits feed the scorer (notes below get relevance 0).
pub(crate) const BM25_DEPTH: usize = 1000;

/// A wake-up request.
#[derive(Debug, Clone)]
pub struct WakeupRequest {
    /// Working directory.
    pub cwd: PathBuf,
    /// `--project`.
    pub project: Option<String>,
    /// The task in words (may be empty).
    pub task: String,
    /// Files about to be touched.
    pub files: Vec<String>,
    /// Profile name; default `project` when a project matched, else `developer`.
    pub profile: Option<String>,
    /// Target client.
    pub target: Target,
    /// Output format.
    pub format: Format,
    /// Token budget; default from the profile.
    pub budget: Option<usize>,
    /// "Now" (pinned with `--now` for reproducible output).
    pub now: DateTime<Utc>,
    /// Ranking mode.
    pub ranking: Ranking,
    /// Startup, resume, compact or clear (resume and compact show the project's
    /// latest session note whatever its age).
    pub source: SessionSource,
    /// `--limit`: at most this many task-layer notes.
    pub limit: Option<usize>,
    /// Caps on the rendered text beyond the budget (a client's context limits):
    /// the packet is assembled again within smaller budgets until it fits.
    pub caps: OutputCaps,
}

/// The packet and its rendering.
#[derive(Debug, Clone)]
pub struct WakeupOutput {
    /// The packet (after policy and budget).
    pub packet: Packet,
    /// The rendered text, within the budget.
    pub rendered: String,
    /// Microseconds per phase (`select`, `layers`, `assemble`, `render`; the last
    /// three summed over fitting attempts), for `CAIRN_TIMINGS`: never in the packet.
    pub timings: Vec<(&'static str, u64)>,
    /// When the routed project's git history is not read for its `HEAD` (so no
    /// note can be marked "code changed since") and the index folder can keep
    /// it: where `cairn index` reads it. Set by [`Engine::wakeup_with_git`];
    /// never in the packet.
    pub history_unread: Option<crate::UnreadHistory>,
}

/// Everything decided before assembly; shared by wakeup and explain.
pub(crate) struct Selection<'e> {
    pub route: Route,
    pub profile: &'e Profile,
    pub primary_roots: Vec<String>,
    pub secondary_roots: Vec<String>,
    pub query: QueryTerms,
    pub task_terms: BTreeSet<String>,
    /// In-scope notes, scored, best first.
    pub scored: Vec<Scored>,
    pub origin: FxHashMap<&'e str, Origin>,
    pub visibility: FxHashMap<&'e str, Visibility>,
    /// Hidden by policy and relevant enough to have mattered.
    pub suppressed: usize,
    /// The in-scope notes by path (metadata).
    pub notes: FxHashMap<&'e str, &'e Note>,
    /// The hot layer, chosen from metadata whatever the task (`hot.rs`).
    pub hot: Vec<(&'e Note, HotKind)>,
    /// Pinned notes past the hot layer's cap.
    pub pins_over: Vec<&'e Note>,
    /// Project notes whose related files changed since their date.
    pub code_changed: crate::code_changed::CodeChanged,
    /// What each part of `query` is, in words (a derived task's branch and commits).
    pub part_names: Vec<&'static str>,
    /// Who the notes may belong to: configured projects and the clients or
    /// projects hub notes declare.
    pub owners: Owners,
}

impl Engine {
    /// Query terms: the task (or a derived task's parts), the selected modules' and
    /// active scenes' keywords, and the words of `--files` paths; with the names
    /// of the query's parts.
    pub(crate) fn query_terms(
        &self,
        task: &str,
        route: &Route,
        parts: &[TaskPart],
    ) -> (QueryTerms, Vec<&'static str>) {
        let mut q = QueryTerms::default();
        let names = if parts.is_empty() {
            add_task_words(&mut q, task);
            Vec::new()
        } else {
            crate::derived_task::add_parts(&mut q, parts)
        };
        let project = route
            .project_id
            .as_deref()
            .and_then(|id| self.config.project(id));
        if let Some(p) = project {
            for m in p.modules.iter().filter(|m| route.modules.contains(&m.id)) {
                for k in &m.keywords {
                    q.add_text(k, 0.5);
                }
            }
        }
        for s in self
            .config
            .scenes
            .iter()
            .filter(|s| route.scenes.contains(&s.id))
        {
            for k in &s.keywords {
                q.add_text(k, 0.5);
            }
        }
        for f in &route.files {
            q.add_text(&file_words(f), 0.3);
        }
        (q, names)
    }

    /// Routes, scopes, ranks and applies policy; project notes whose related files
    /// changed in `history` since their date are deboosted (`code_changed.rs`).
    pub(crate) fn select_with(
        &self,
        req: &WakeupRequest,
        history: Option<&cairn_git::History>,
        parts: &[TaskPart],
    ) -> Result<Selection<'_>, EngineError> {
        self.select(req, history, parts, false)
    }

    /// [`Engine::select_with`] for a packet: beside the task search, the hot
    /// layer's bodies are also read into the note cache, where assembly finds
    /// them, and the template the packet is rendered with is parsed.
    pub(crate) fn select_for_packet(
        &self,
        req: &WakeupRequest,
        history: Option<&cairn_git::History>,
        parts: &[TaskPart],
    ) -> Result<Selection<'_>, EngineError> {
        self.select(req, history, parts, true)
    }

    fn select(
        &self,
        req: &WakeupRequest,
        history: Option<&cairn_git::History>,
        parts: &[TaskPart],
        for_packet: bool,
    ) -> Result<Selection<'_>, EngineError> {
        let route = cairn_route::route(&self.config, &req.route_input())?;
        let default_profile = if route.project_id.is_some() {
            "project"
        } else {
            "developer"
        };
        let profile = self.profile(req.profile.as_deref().unwrap_or(default_profile))?;
        let project = route.project_id.as_deref();
        let primary_roots = self.roots(profile.primary, project);
        let secondary_roots = profile
            .secondary
            .map(|s| self.roots(s, project))
            .unwrap_or_default();

        let mut origin: FxHashMap<&str, Origin> = FxHashMap::default();
        let mut in_scope: Vec<&Note> = Vec::new();
        let primary_notes: Vec<&Note> = self.under_roots(&primary_roots).collect();
        let secondary_notes: Vec<&Note> = if profile.secondary.is_some() {
            self.under_roots(&secondary_roots).collect()
        } else {
            Vec::new()
        };
        origin.reserve(primary_notes.len() + secondary_notes.len());
        for &n in &primary_notes {
            origin.insert(n.path.as_str(), profile.primary);
            in_scope.push(n);
        }
        if let Some(secondary) = profile.secondary {
            for &n in &secondary_notes {
                if !origin.contains_key(n.path.as_str()) && profile.admits_secondary(n) {
                    origin.insert(n.path.as_str(), secondary);
                    in_scope.push(n);
                }
            }
        }

        let (project_roots, other_roots) = self.own_and_other_roots(project);
        let owners = self.owners(project, &project_roots, &[&primary_notes, &secondary_notes]);
        let (query, part_names) = self.query_terms(&req.task, &route, parts);
        let task_terms: BTreeSet<String> = cairn_index::analyze(&req.task).into_iter().collect();
        let mut folders = primary_roots.clone();
        folders.extend(secondary_roots.iter().cloned());
        let ranker = crate::wakeup::ranker(req.ranking);
        let search = || {
            if folders.is_empty() {
                return Ok(Vec::new());
            }
            // Every note under the folders is named, so no hit's path is read
            // from the index's store (hits out of scope are dropped below).
            let under = primary_notes.iter().chain(&secondary_notes);
            let known = if query.is_empty() {
                cairn_index::KnownPaths::default()
            } else {
                cairn_index::KnownPaths::of(under.map(|n| n.path.as_str()))
            };
            self.notes
                .search_knowing(&query, &ranker, Some(&folders), BM25_DEPTH, &known)
        };
        // Neither which notes' code moved on nor the hot layer depends on the
        // task: beside the task search, on the pool's idle thread, the first is
        // counted and the second chosen and, for a packet, its bodies read into
        // the note cache (the notes a packet shows whatever the task; assembly
        // reads them there) and the packet's template parsed (the first
        // rendering, which finds the notes fitting drops whatever their
        // bodies, then does not).
        let (hits, (code_changed, (hot, pins_over))) = rayon::join(search, || {
            let hot = self.hot_picks(
                profile,
                project,
                &owners.ids,
                &primary_notes,
                &secondary_notes,
                req,
            );
            if for_packet {
                if self.notes.lazy_bodies() {
                    for (n, _) in &hot.0 {
                        let _ = self.note(&n.path);
                    }
                }
                self.renderer.prepare(req.target, req.format);
            }
            let changed = history.map_or_else(Default::default, |h| {
                crate::code_changed::changes(&in_scope, &origin, h)
            });
            (changed, hot)
        });
        let hits = hits?;
        let hits: Vec<_> = hits
            .into_iter()
            .filter(|h| origin.contains_key(h.path.as_str()))
            .collect();

        let (module_prefixes, modules) = self.module_info(&route);
        let scene_preferred: Vec<String> = self
            .config
            .scenes
            .iter()
            .filter(|s| route.scenes.contains(&s.id))
            .flat_map(|s| s.preferred_notes.iter().cloned())
            .collect();
        let folder_shares = crate::code_changed::folder_shares(&route.files, history);
        let busy_files = cairn_score::busy_files(in_scope.iter().copied(), &route.files);
        let file_names = cairn_score::file_names(&route.files);
        let mut subject = crate::derived_task::subject(parts, &route.files);
        if !subject.is_empty() || subject.branch_has_words() {
            // The project's own names (its id and name, default tags, its
            // checkouts' folders; not its modules) say what all of it is
            // about, and so does a word most notes hold (`aws` in a vault of
            // AWS infrastructure): neither is the work's subject. A failed
            // look-up keeps the word (the search reported its own error).
            // Of the branch's words a title may say most of, only the
            // project's names are left out: a title saying two of them is
            // about more than the vault's domain.
            let modules: Vec<&str> = project
                .and_then(|id| self.config.project(id))
                .map(|p| p.modules.iter().map(|m| m.id.as_str()).collect())
                .unwrap_or_default();
            let own: BTreeSet<String> = owners
                .own_names
                .iter()
                .filter(|n| !modules.iter().any(|m| m.eq_ignore_ascii_case(n)))
                .map(String::as_str)
                .chain(project)
                .flat_map(cairn_index::analyze)
                .collect();
            subject.retain_branch(|term| !own.contains(term));
            subject.retain(|term| {
                !own.contains(term)
                    && self
                        .notes
                        .share_holding(term)
                        .map_or(true, |share| share < crate::derived_task::DOMAIN_SHARE)
            });
        }
        let ctx = ScoreContext {
            today: req.now.date_naive(),
            half_life_days: self.config.ranking.half_life_days,
            project_id: project,
            project_ids: &owners.ids,
            owner_names: &owners.names,
            own_names: &owners.own_names,
            project_roots: &project_roots,
            other_roots: &other_roots,
            files: &route.files,
            file_names: &file_names,
            folder_shares: &folder_shares,
            busy_files: &busy_files,
            module_prefixes: &module_prefixes,
            modules: &modules,
            subject: &subject,
            task_terms: &task_terms,
            part_names: &part_names,
            scene_preferred: &scene_preferred,
            has_query: !query.is_empty(),
            ranking: req.ranking,
            weights: Weights::default(),
        };
        let mut scored = cairn_score::score(in_scope.iter().copied(), &hits, &ctx);
        let notes: FxHashMap<&str, &Note> =
            in_scope.iter().map(|n| (n.path.as_str(), *n)).collect();
        if ctx.has_query {
            cairn_score::lift_successors(&mut scored, &notes, profile.min_coverage, |queries| {
                cairn_note::find_named(in_scope.iter().copied(), queries)
                    .into_iter()
                    .map(|n| n.map(|n| n.path.clone()))
                    .collect()
            });
        }

        crate::code_changed::apply(
            &mut scored,
            &code_changed,
            self.config.git.code_changed_deboost,
        );

        let mut visibility = FxHashMap::default();
        visibility.reserve(scored.len());
        let mut suppressed = 0;
        for s in &scored {
            let Some(n) = notes.get(s.path.as_str()) else {
                continue;
            };
            let strong = ctx.has_query
                && s.relevance >= profile.confidential_min_relevance
                && s.passes_full_gate(profile.min_coverage);
            let v = cairn_policy::visibility(n.sensitivity, strong);
            if v == Visibility::Hidden
                && !s.retired
                && s.other_project.is_none()
                && (s.pinned || s.passes_gate(profile.min_coverage))
            {
                suppressed += 1;
            }
            visibility.insert(n.path.as_str(), v);
        }
        Ok(Selection {
            route,
            profile,
            primary_roots,
            secondary_roots,
            query,
            task_terms,
            scored,
            origin,
            visibility,
            suppressed,
            notes,
            hot,
            pins_over,
            code_changed,
            part_names,
            owners,
        })
    }

    /// Builds, redacts, renders and fits the wake-up packet: within the token
    /// budget, then within `req.caps`. Routing and ranking run once;
    /// when the text is over a character or byte cap, only the layers, assembly and
    /// rendering run again, within a budget derived from the measured ratio (see `fit.rs`).
    pub fn wakeup(&self, req: &WakeupRequest) -> Result<WakeupOutput, EngineError> {
        let (read, echo) = crate::resume::read_as(req);
        self.wakeup_echo(&read, echo, None, &[])
    }

    /// [`Engine::wakeup`], the packet's query saying what `echo` adds.
    pub(crate) fn wakeup_echo(
        &self,
        req: &WakeupRequest,
        echo: Echo<'_>,
        history: Option<&cairn_git::History>,
        parts: &[TaskPart],
    ) -> Result<WakeupOutput, EngineError> {
        let started = std::time::Instant::now();
        let sel = self.select_for_packet(req, history, parts)?;
        let selected = crate::micros(started);
        let spent = std::cell::Cell::new(0u64);
        let format = req.format;
        let budget = req
            .budget
            .or_else(|| sel.profile.budget_for(format.as_str()))
            .unwrap_or(match format {
                Format::Prompt => 1500,
                Format::Markdown => 2500,
                Format::Json => 6000,
            });
        let caps = req.caps;
        // One attempt within `requested` tokens (`None`: the profile's budget). The
        // no-task layer's size follows the attempt's budget, as the sections' caps do.
        let within = |requested: Option<usize>| {
            let t = std::time::Instant::now();
            let layers = self.layers(&sel, req, requested);
            let candidates = candidates(&sel, &layers);
            spent.set(spent.get() + crate::micros(t));
            let limit = requested.unwrap_or(budget);
            self.packet_within(&sel, req, &layers, &candidates, limit, echo)
        };
        let capped = caps.cap_budget(budget);
        let mut out = within(if capped < budget {
            Some(capped)
        } else {
            req.budget
        })?;
        let timed = |mut out: WakeupOutput| {
            out.timings.insert(0, ("select", selected));
            out.timings.insert(1, ("layers", spent.get()));
            out
        };
        if !caps.caps_text() {
            return Ok(timed(out));
        }
        // A profile budget over the token cap costs one attempt, as a rendering
        // at that budget, then at the cap, would.
        let over_the_cap = req.budget.is_none() && caps.cap_budget(budget) < budget;
        let attempts = MAX_FIT_ATTEMPTS - usize::from(over_the_cap);
        for _ in 0..attempts {
            match shrink(&out.rendered, out.packet.budget.limit_tokens, &caps) {
                Shrink::Fits => return Ok(timed(out)),
                Shrink::To(next) => {
                    let before = out.timings.clone();
                    out = within(Some(next))?;
                    for (i, (_, us)) in before.iter().enumerate() {
                        if let Some(t) = out.timings.get_mut(i) {
                            t.1 += us;
                        }
                    }
                }
                Shrink::Never => break,
            }
        }
        Err(EngineError::DoesNotFit {
            caps: caps.describe(),
        })
    }

    /// The packet of `sel` assembled, redacted and rendered within `limit` tokens.
    fn packet_within<'e>(
        &'e self,
        sel: &Selection<'e>,
        req: &WakeupRequest,
        layers: &Layers<'e>,
        candidates: &[Candidate<'e>],
        limit: usize,
        echo: Echo<'_>,
    ) -> Result<WakeupOutput, EngineError> {
        let profile = sel.profile;
        let format = req.format;
        let mut candidates = candidates.to_vec();
        let project = sel
            .route
            .project_id
            .as_deref()
            .and_then(|id| self.config.project(id))
            .map(|p| ProjectInfo {
                id: p.id.clone(),
                name: p.name.clone(),
                repo_paths: p
                    .repo_paths
                    .iter()
                    .map(|r| r.display().to_string())
                    .collect(),
                modules: p.modules.iter().map(|m| m.id.clone()).collect(),
            });
        let request = Request {
            profile,
            target: req.target.as_str(),
            generated_at: req.now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            query: QueryEcho {
                task: echo
                    .unused
                    .map(|(task, _)| task)
                    .or(echo.resumed)
                    .map_or_else(|| req.task.clone(), str::to_owned),
                cwd: sel.route.cwd.display().to_string(),
                files: echo
                    .unused
                    .map_or_else(|| sel.route.files.clone(), |(_, files)| files.to_vec()),
                modules: sel.route.modules.clone(),
                scenes: sel.route.scenes.clone(),
                derived: echo.derived.map(str::to_owned),
                task_unused: echo.unused.is_some() || echo.resumed.is_some(),
            },
            project,
            route: RouteInfo {
                method: route_method(sel.route.method).to_owned(),
                project_id: sel.route.project_id.clone(),
                reasons: sel.route.reasons.clone(),
            },
            query_terms: &sel.task_terms,
            selection_basis: self.selection_basis(sel, req.ranking),
            suppressed: sel.suppressed,
            withheld_notice: cairn_policy::WITHHELD_NOTICE,
            budget_format: format.as_str().to_owned(),
            budget_limit: limit,
            tokenizer: TOKENIZER_NAME.to_owned(),
            scan_diagnostics: self.diagnostics.len(),
            partial: self.index_info.partial.is_some(),
            default_budget: profile.budget_for(format.as_str()),
            limit: req.limit,
        };
        let started = std::time::Instant::now();
        let within = limit + crate::fit::FIT_SLACK_TOKENS;
        let (mut packet, sure) = self.assemble_with_bodies(&request, &mut candidates, |first| {
            self.sure_drops(first, req.target, format, within)
        });
        packet
            .provenance
            .partial_reason
            .clone_from(&self.index_info.partial);
        crate::code_changed::annotate(&mut packet, &sel.code_changed);
        for n in &layers.pins_over {
            packet.budget.left_out_count += 1;
            if packet.budget.left_out.len() < cairn_assemble::LEFT_OUT_LISTED {
                let shown = cairn_policy::ShownName::of(n);
                packet.budget.left_out.push(cairn_assemble::LeftOut {
                    path: shown.path.into_string(),
                    title: shown.title.into_string(),
                    section: "pins".to_owned(),
                    reason: format!("hot layer cap ({} pins)", profile.hot.pins),
                    score: 0.0,
                    layer: "hot".to_owned(),
                });
            }
        }

        // Policy, second line of defence: note text was redacted before assembly
        // shaped it (`cairn_policy::ShownNote`); every string that leaves cairn is
        // redacted again, and the markers in the result are what is counted, so a
        // credential redacted early is counted once.
        let counts = packet.redact_texts();
        packet.policy.redactions_applied = counts.redactions_applied;
        packet.policy.redactions_by_kind = counts.redactions_by_kind;
        let assembled = crate::micros(started);

        let started = std::time::Instant::now();
        // The items fitting drops whatever their summaries: the lowest in the
        // drop order (which no summary changes), as fitting would drop them.
        packet.drop_lowest_n(sure);
        let rendered = self.fit_tokens(&mut packet, req.target, format, limit)?;
        Ok(WakeupOutput {
            packet,
            rendered,
            timings: vec![("assemble", assembled), ("render", crate::micros(started))],
            history_unread: None,
        })
    }

    fn selection_basis(&self, sel: &Selection<'_>, ranking: Ranking) -> Vec<String> {
        let p = sel.profile;
        let roots = |r: &[String]| {
            if r.is_empty() {
                "(none)".to_owned()
            } else {
                r.iter()
                    .map(|x| {
                        if x.is_empty() {
                            "the whole vault"
                        } else {
                            x.as_str()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let mut out = vec![format!(
            "profile {}: notes under {}",
            p.name,
            roots(&sel.primary_roots)
        )];
        let mut missing = self.missing_note_roots();
        out.extend(
            (sel.primary_roots.iter().chain(&sel.secondary_roots))
                .filter(|r| {
                    // Each once, a root both primary and secondary too.
                    let at = missing.iter().position(|m| *m == r.as_str());
                    at.map(|i| missing.remove(i)).is_some()
                })
                .map(|r| {
                    format!("note root {r} is not a folder of the vault: nothing is read from it")
                }),
        );
        if p.secondary.is_some() && !sel.secondary_roots.is_empty() {
            let types: Vec<&str> = p.secondary_types.iter().map(|t| t.as_str()).collect();
            out.push(format!(
                "plus {} notes (untyped ones too, for a task) under {}",
                types.join("/"),
                roots(&sel.secondary_roots)
            ));
        }
        if sel.query.is_empty() {
            out.push("no task or files given: notes ranked by pins, priority and recency".into());
        } else {
            let terms: Vec<&str> = sel.query.terms.keys().map(String::as_str).collect();
            out.push(format!("query terms (stemmed): {}", terms.join(", ")));
            // A failed look-up only leaves the lines out: the search itself
            // reported its own error.
            let (respelled, joins) = self
                .notes
                .spellings(&sel.query, &ranker(ranking))
                .map(|s| (s.respelled, s.joins))
                .unwrap_or_default();
            if !respelled.is_empty() {
                let said: Vec<String> = respelled
                    .iter()
                    .map(|(t, words)| format!("{t} as {}", words.join(" ")))
                    .collect();
                out.push(format!(
                    "words no note holds, looked up as the vault writes them (stemmed): {}",
                    said.join(", ")
                ));
            }
            if !joins.is_empty() {
                let said: Vec<String> = joins
                    .iter()
                    .map(|j| format!("{} also as {}", j.said, j.term))
                    .collect();
                out.push(format!(
                    "words said apart that notes also write as one (the joined word stemmed): {}",
                    said.join(", ")
                ));
            }
            if !sel.query.parts.is_empty() {
                let parts: Vec<String> = sel
                    .query
                    .parts
                    .iter()
                    .zip(&sel.part_names)
                    .map(|(terms, name)| {
                        let words: Vec<&str> = terms.iter().map(String::as_str).collect();
                        format!("{name} ({})", words.join(" "))
                    })
                    .collect();
                out.push(format!(
                    "the task is derived: a note covering one of its parts passes the gate as one covering the whole does: {}",
                    parts.join("; ")
                ));
            }
        }
        out.push(match ranking {
            Ranking::Full => format!(
                "ranking: BM25F over headings, contents, path and dates, plus BM25 on title, tags, triggers, aliases and related files, term proximity and the best passage; order by the squared share of the best match, times boosts (source of truth, priority, project, recency with a {}-day half-life, staleness); plus file, trigger, scene and pin signals",
                self.config.ranking.half_life_days
            ),
            Ranking::Bm25 => "ranking: plain BM25 on the contents field, no boosts".into(),
        });
        out.push(format!(
            "the hot layer (identity, working style, the project's overview and latest session, pins) does not depend on the task; a task-layer note must cover {:.0}% of the query's IDF-weighted words or match --files; superseded and archived notes never enter a section",
            p.min_coverage * 100.0
        ));
        out
    }
}

/// The text ranking of a mode: BM25F with proximity, or plain BM25.
pub(crate) fn ranker(ranking: Ranking) -> Ranker {
    match ranking {
        Ranking::Full => Ranker::default(),
        Ranking::Bm25 => Ranker::PLAIN,
    }
}

pub(crate) fn route_method(m: RouteMethod) -> &'static str {
    match m {
        RouteMethod::Explicit => "explicit",
        RouteMethod::RepoPath => "repo_path",
        RouteMethod::Worktree => "worktree",
        RouteMethod::Remote => "remote",
        RouteMethod::NoMatch => "no_match",
        RouteMethod::Unscoped => "unscoped",
    }
}

/// Words of how developers phrase a task that say what to do, not what it is about
/// (`change how X works`, `let's finish Y`, `please help fix Z`), as the analyzer
/// stems them. They count for a quarter of a topical word, in ranking and in the
/// relevance gate alike.
pub(crate) const TASK_FILLER: &[&str] = &[
    "add",
    "ask",
    "bit",
    "chang",
    "check",
    "continu",
    "could",
    "figur",
    "finish",
    "fix",
    "get",
    "go",
    "help",
    "implement",
    "job",
    "let",
    "look",
    "make",
    "mayb",
    "need",
    "new",
    "next",
    "now",
    "pleas",
    "plan",
    "sort",
    "start",
    "stuff",
    "task",
    "thing",
    "think",
    "today",
    "tri",
    "updat",
    "want",
    "way",
    "wonder",
    "work",
    "would",
];

/// Adds the task's words to `q`: topical words at weight 1, filler at 0.25. A
/// credential in it is dropped before it is lower-cased into terms (`explain`
/// lists them), as in every text cut into query words.
pub(crate) fn add_task_words(q: &mut QueryTerms, task: &str) {
    let task = cairn_policy::without_credentials(task);
    q.add_pairs(&task);
    for t in cairn_index::analyze(&task) {
        let w = if TASK_FILLER.contains(&t.as_str()) {
            0.25
        } else {
            1.0
        };
        *q.terms.entry(t).or_insert(0.0) += w;
    }
}

/// The words of a file path worth searching for: folder and file names without the
/// extension and without folder names every repository has (`src`, `lib`, ...).
pub(crate) fn file_words(path: &str) -> String {
    const GENERIC: &[&str] = &[
        "src", "lib", "libs", "app", "apps", "pkg", "packages", "crates", "internal", "cmd",
        "test", "tests", "spec", "main", "index", "mod",
    ];
    let path = cairn_policy::without_credentials(path);
    let mut parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    if let Some(last) = parts.last_mut() {
        *last = last.rsplit_once('.').map_or(*last, |(stem, _)| stem);
    }
    parts
        .into_iter()
        .filter(|p| !GENERIC.contains(&p.to_ascii_lowercase().as_str()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_words_drop_extensions_and_generic_folders() {
        assert_eq!(
            super::file_words("src/settlement/payout.rs"),
            "settlement payout"
        );
        assert_eq!(super::file_words("lib/index.ts"), "");
        // A workspace's folder of packages or crates says where, not what.
        assert_eq!(
            super::file_words("packages/core/src/adr/AdrSlug.ts"),
            "core adr AdrSlug"
        );
        assert_eq!(
            super::file_words("crates/cairn-git/src/branch.rs"),
            "cairn-git branch"
        );
        assert_eq!(
            super::file_words("migrations/0007_add_idempotency.sql"),
            "migrations 0007_add_idempotency"
        );
    }
}
