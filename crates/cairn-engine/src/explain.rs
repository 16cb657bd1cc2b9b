//! `explain`: the routing trace, every candidate's score breakdown, why each was
//! included or left out, and the scan diagnostics. Secret notes are counted, never named.

use serde::Serialize;

use cairn_note::{Diagnostic, Sensitivity};
use cairn_policy::Visibility;
use cairn_score::{Detail, Factor, Scored};

use crate::derived_task::TaskPart;
use crate::wakeup::{WakeupRequest, route_method};
use crate::{Engine, EngineError};

/// How many candidates an explanation lists (all pinned ones and all the
/// packet shows are listed too).
pub(crate) const EXPLAIN_LIMIT: usize = 40;

/// One candidate's story.
#[derive(Debug, Clone, Serialize)]
pub struct CandidateReport {
    /// Vault-relative path.
    pub path: String,
    /// Title (redacted).
    pub title: String,
    /// Memory type.
    pub memory_type: Option<String>,
    /// Sensitivity.
    pub sensitivity: String,
    /// Final score.
    pub score: f64,
    /// Raw BM25.
    pub bm25: f64,
    /// Normalised relevance.
    pub relevance: f64,
    /// The share of the query's IDF mass the note contains (the relevance gate).
    pub coverage: f64,
    /// `hot` or `task` when included.
    pub layer: Option<String>,
    /// Every factor (empty for withheld notes).
    pub factors: Vec<Factor>,
    /// `included` or `left out`.
    pub decision: String,
    /// Which section, or why not.
    pub why: String,
}

/// The whole explanation.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// Routing method.
    pub route_method: String,
    /// Routed project.
    pub project_id: Option<String>,
    /// Routing sentences.
    pub route_reasons: Vec<String>,
    /// Profile used.
    pub profile: String,
    /// Query terms with weights.
    pub query_terms: Vec<(String, f32)>,
    /// How selection works.
    pub selection_basis: Vec<String>,
    /// Candidates in scope.
    pub candidates_in_scope: usize,
    /// The listed candidates, best first.
    pub candidates: Vec<CandidateReport>,
    /// Secret or unrelated confidential notes hidden (never named), relevant
    /// to the task or not.
    pub suppressed_by_policy: usize,
    /// Those of them the packet would have considered (pinned, or past the
    /// relevance gate, of this project): the packet's
    /// `policy.suppressed_note_count`. A secret note is never indexed, so it
    /// is among them only when pinned.
    pub suppressed_relevant: usize,
    /// Scan diagnostics, but those about secret notes.
    pub diagnostics: Vec<Diagnostic>,
    /// How many scan diagnostics are about secret notes (or notes whose
    /// sensitivity is in doubt): counted, not listed (`cairn lint` lists them).
    #[serde(skip_serializing_if = "is_zero")]
    pub diagnostics_withheld: usize,
    /// The packet's budget line.
    pub budget: cairn_assemble::Budget,
    /// What git gave as the task, or why nothing (only from [`Engine::explain_with_git`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub git: Vec<String>,
}

impl Engine {
    /// Explains what `wakeup` would do for `req`.
    pub fn explain(&self, req: &WakeupRequest) -> Result<Explanation, EngineError> {
        self.explain_from(req, None, &[], FilesFrom::Request)
    }

    /// [`Engine::explain`] with the git history that marks notes whose code changed.
    pub(crate) fn explain_from(
        &self,
        req: &WakeupRequest,
        history: Option<&cairn_git::History>,
        parts: &[TaskPart],
        files: FilesFrom,
    ) -> Result<Explanation, EngineError> {
        let out = self.wakeup_echo(req, crate::git_task::Echo::default(), history, parts)?;
        let sel = self.select_with(req, history, parts)?;
        let packet = &out.packet;
        let mut candidates = Vec::new();
        let mut hidden = 0;
        for (rank, s) in sel.scored.iter().enumerate() {
            let Some(n) = self.meta(&s.path) else {
                continue;
            };
            let v = sel
                .visibility
                .get(s.path.as_str())
                .copied()
                .unwrap_or(Visibility::Hidden);
            if n.sensitivity == Sensitivity::Secret || v == Visibility::Hidden {
                hidden += 1;
                continue;
            }
            let derived = packet
                .provenance
                .derived_from
                .iter()
                .find(|d| d.path == s.path);
            // Every note the packet shows is listed, wherever it ranks (with
            // no task, a hub note ranks with every other note).
            if rank >= EXPLAIN_LIMIT && !s.pinned && derived.is_none() {
                continue;
            }
            let item = packet
                .sections()
                .into_iter()
                .flat_map(|(_, items)| items.iter())
                .find(|i| i.path == s.path);
            let layer = item.map(|i| i.layer.clone());
            let (decision, why) = if let Some(d) = derived {
                let how = match layer.as_deref() {
                    Some("hot") => "hot layer".to_owned(),
                    // Both: the gate passed on the words, and the files point at it.
                    _ if s.anchored && s.matches_task(sel.profile.min_coverage) => format!(
                        "task layer: passed the gate, covers {}, and {}",
                        covered(s),
                        pointed_at(s, files)
                    ),
                    _ if s.anchored => format!("task layer: {}", pointed_at(s, files)),
                    // With no task, a note is listed as one most linked to
                    // (its reason says by how many) or as recently edited.
                    _ if sel.query.is_empty() => item
                        .and_then(|i| {
                            i.reasons.iter().find(|r| {
                                r.starts_with("linked from") || r.starts_with("recently edited")
                            })
                        })
                        .map_or_else(
                            || "no task: recently edited".to_owned(),
                            |r| format!("no task: {r}"),
                        ),
                    _ if !s.matches_task(sel.profile.min_coverage) && s.successor_of.is_some() => {
                        format!(
                            "task layer: replaces {}, which matches the task",
                            s.successor_of.as_deref().unwrap_or_default()
                        )
                    }
                    _ => format!("task layer: passed the gate, covers {}", covered(s)),
                };
                ("included".to_owned(), format!("in {} ({how})", d.section))
            } else if let Some(l) = packet.budget.left_out.iter().find(|l| l.path == s.path) {
                (
                    "left out".to_owned(),
                    format!("{} ({})", l.reason, l.section),
                )
            } else if let Some(e) = packet.provenance.excluded.iter().find(|e| e.path == s.path) {
                ("left out".to_owned(), e.reason.clone())
            } else if s.retired {
                (
                    "left out".to_owned(),
                    // A withheld note's keys are its text: named only when shown in full.
                    match cairn_score::retired_because(n) {
                        Some(why) if v == Visibility::Full => {
                            cairn_policy::redact(&why).text.into_owned()
                        }
                        _ => "retired".to_owned(),
                    },
                )
            } else if let Some(p) = &s.other_project {
                let whose = match sel.owners.declared.get(p) {
                    Some(Some(hub)) => {
                        format!("belongs to {p}, a client or project its hub note declares ({hub})")
                    }
                    // A confidential hub is not named, nor is what it names.
                    Some(None) => "belongs to another client or project, which a withheld \
                                   hub note declares"
                        .to_owned(),
                    None => format!("belongs to project {p}"),
                };
                ("left out".to_owned(), whose)
            } else if sel.query.is_empty() && !s.pinned {
                // With no task, the packet lists the profile's notes shown in
                // full most recently edited or most linked to, up to a cap.
                let why = if v != Visibility::Full {
                    "no task: a note not shown in full is listed only for a task it matches"
                } else if !sel.in_the_no_task_list(n) {
                    "no task: this profile lists no note of its kind from this folder without one"
                } else {
                    "no task: not in the packet's short list of the most recently edited and most \
                     linked notes (session notes, log intros, repository boilerplate and another \
                     project's notes never are; notes from outside the profile's own folders take \
                     a third of it at most)"
                };
                ("left out".to_owned(), why.to_owned())
            } else if !s.passes_gate(sel.profile.min_coverage) {
                (
                    "left out".to_owned(),
                    format!(
                        "failed the relevance gate: covers {}, needs {}{} (or {})",
                        covered(s),
                        needed(s, sel.profile.min_coverage),
                        if s.marked_stale {
                            " as it is marked stale"
                        } else {
                            ""
                        },
                        files.a_match()
                    ),
                )
            } else if let Some(section) = cairn_assemble::section_for(sel.profile, n).filter(|_| {
                // A note from the profile's secondary folders goes only
                // where the profile admits it (as the assembly decides).
                sel.origin.get(s.path.as_str()) == Some(&sel.profile.primary)
                    || sel.profile.admits_secondary(n)
            }) {
                // Past the notes the packet lists by name: a section's cap or
                // the token budget left it out with the others.
                let unlisted = packet
                    .budget
                    .left_out_count
                    .saturating_sub(packet.budget.left_out.len());
                (
                    "left out".to_owned(),
                    format!(
                        "passed the gate, covers {}; {section} was full or the token budget \
                         spent: one of {} relevant notes left out and not listed by name",
                        covered(s),
                        unlisted.max(1)
                    ),
                )
            } else {
                (
                    "left out".to_owned(),
                    "no section of this profile takes it".to_owned(),
                )
            };
            let withheld = v == Visibility::Withheld;
            let shown = cairn_policy::ShownName::of(n);
            candidates.push(CandidateReport {
                path: shown.path.into_string(),
                title: shown.title.into_string(),
                memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
                sensitivity: n.sensitivity.as_str().to_owned(),
                score: (s.score * 1000.0).round() / 1000.0,
                bm25: (s.bm25 * 1000.0).round() / 1000.0,
                relevance: (s.relevance * 1000.0).round() / 1000.0,
                coverage: (s.coverage * 1000.0).round() / 1000.0,
                layer,
                factors: if withheld {
                    Vec::new()
                } else {
                    redact_factors(&s.factors)
                },
                decision,
                why,
            });
        }
        Ok(Explanation {
            route_method: route_method(sel.route.method).to_owned(),
            project_id: sel.route.project_id.clone(),
            route_reasons: sel.route.reasons.clone(),
            profile: sel.profile.name.clone(),
            query_terms: sel
                .query
                .terms
                .iter()
                .map(|(t, w)| (t.clone(), *w))
                .collect(),
            selection_basis: packet.provenance.selection_basis.clone(),
            candidates_in_scope: sel.scored.len(),
            candidates,
            suppressed_by_policy: hidden,
            suppressed_relevant: packet.policy.suppressed_note_count,
            diagnostics: self.shown_diagnostics(),
            diagnostics_withheld: self.withheld_diagnostics(crate::Severity::Info),
            budget: packet.budget.clone(),
            git: Vec::new(),
        })
    }
}

/// Where a request's files came from, as explain names them: `--files`, or
/// the working tree's changed files (a task derived from git).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FilesFrom {
    /// `--files` (or the MCP call's files).
    Request,
    /// The files a task derived from git names.
    Git,
}

impl FilesFrom {
    /// The files, as the subject of a sentence.
    fn name(self) -> &'static str {
        match self {
            FilesFrom::Request => "--files",
            FilesFrom::Git => "the changed files",
        }
    }

    /// What lets a note past the gate without the words, after "or".
    fn a_match(self) -> &'static str {
        match self {
            FilesFrom::Request => "a --files match",
            FilesFrom::Git => "a match of the changed files",
        }
    }
}

/// How the request's files point at an anchored note: one of its related
/// files is among them, or it belongs to a module they select (its tag or a
/// related file in the module's folder: a weaker pointer, said as such), or
/// its title names one of them, or what they and the branch are about.
fn pointed_at(s: &Scored, files: FilesFrom) -> String {
    let who = files.name();
    if let Some(m) = s.factors.iter().find(|f| f.name == "module") {
        return format!("{who} select its module: {}", m.detail);
    }
    match s
        .factors
        .iter()
        .find(|f| f.name == "file_name" || f.name == "subject")
    {
        Some(f) => format!("{who} point at it: {}", f.detail),
        None => format!("{who} point at it"),
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn redact_factors(f: &[Factor]) -> Vec<Factor> {
    f.iter()
        .map(|f| Factor {
            detail: Detail::Text(
                cairn_policy::redact(&f.detail.to_string())
                    .text
                    .into_owned(),
            ),
            ..f.clone()
        })
        .collect()
}

/// How much of the task a note covers: of the query, and of the part it covers
/// most of when the task is derived.
fn covered(s: &cairn_score::Scored) -> String {
    cairn_score::coverage_words(s.coverage, s.part_coverage)
}

/// What the gate asks of a note (see [`cairn_score::Scored::covers`]).
fn needed(s: &cairn_score::Scored, min_coverage: f64) -> String {
    let share = s.needed_coverage(min_coverage);
    let whole = if s.binding {
        format!("{:.0}% (a constraint in scope)", share * 100.0)
    } else {
        format!("{:.0}%", share * 100.0)
    };
    if s.part_coverage.is_some() {
        format!(
            "{whole} of the query or {:.0}% of one part",
            share.max(cairn_score::PART_MIN_COVERAGE) * 100.0
        )
    } else {
        whole
    }
}
