//! Packet tasks: a session start run through `Engine::wakeup` (JSON, generic
//! target, the profile's default budget) and scored on every note of every
//! section of the packet, hot layer and `identity.notes` included.
//!
//! Per task:
//! - **recall**: expected notes shown / expected notes (`expected` and every id of
//!   `sections`, once each);
//! - **precision**: expected notes shown / notes shown (no figure for an empty
//!   packet; such a task is left out of the precision mean);
//! - **must-not hits**: `must_not` notes shown;
//! - **pinned present**: every *pinned note in scope* is shown. A note is in scope
//!   when it is pinned, not retired (status superseded or archived,
//!   `superseded_by` set, or under an `archive`/`.archive`/`_archive` folder), not
//!   secret, and under the developer's note roots or the routed project's;
//! - **session present**: every expected session note (`memory_type: session`, or
//!   under a `sessions/` folder) is shown; no figure when the task expects none;
//! - **task notes**: notes of the task layer (not the hot layer) shown;
//! - **section recall**: for the ids of `sections`, the share shown in the section
//!   named (pooled per section, averaged over tasks overall).
//!
//! Means are over tasks (macro averages), overall and per `question_type`.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

use cairn_engine::{Engine, Format, MemoryType, Ranking, Sensitivity, Target, WakeupRequest};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

use crate::EvalError;
use crate::metrics::round4;
use crate::suite::{PACKET_SECTIONS, PacketTask, QUERIES_FILE, SuiteIssue};

/// Packet metrics over a set of tasks (all of them, or one question type).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PacketMetrics {
    /// Tasks measured.
    pub tasks: usize,
    /// Mean share of the expected notes shown.
    pub recall: f64,
    /// Mean share of the shown notes that are expected (packets with at least one note).
    pub precision: f64,
    /// `must_not` notes shown, summed over tasks.
    pub must_not_hits: usize,
    /// Tasks with at least one `must_not` note shown.
    pub must_not_tasks: usize,
    /// Share of tasks whose packet shows every pinned note in scope.
    pub pinned_present: f64,
    /// Share of tasks expecting a session note whose packet shows every one of them.
    pub session_present: Option<f64>,
    /// Tasks expecting a session note.
    pub session_tasks: usize,
    /// Mean share of the `sections` ids shown in the section named (tasks with `sections`).
    pub section_recall: Option<f64>,
    /// Section → share of its expected ids shown in it, pooled over tasks.
    pub by_section: BTreeMap<String, f64>,
    /// Mean notes per packet.
    pub mean_notes: f64,
    /// Mean notes per packet in the task layer (ranked for the task, not the hot
    /// layer); 0 is the goal on off-topic tasks.
    pub mean_task_notes: f64,
}

/// One packet task's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PacketOutcome {
    /// Task id.
    pub id: String,
    /// Category.
    pub question_type: Option<String>,
    /// The routed project, if any.
    pub project: Option<String>,
    /// The profile used.
    pub profile: String,
    /// Notes shown.
    pub notes: usize,
    /// Of them, notes in the task layer.
    pub task_notes: usize,
    /// Expected notes shown / expected notes.
    pub recall: f64,
    /// Expected notes shown / notes shown (`None` for an empty packet).
    pub precision: Option<f64>,
    /// Expected notes not shown.
    pub missed: Vec<String>,
    /// `must_not` notes shown.
    pub must_not_hits: Vec<String>,
    /// Pinned notes in scope not shown.
    pub pinned_missing: Vec<String>,
    /// `section: id` for each `sections` id not shown in that section.
    pub misplaced: Vec<String>,
    /// Every note shown, as `section: id`, in packet order.
    pub shown: Vec<String>,
}

/// The packet part of the `eval.v1` report (present when the suite has packet tasks).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PacketReport {
    /// Packet lines in the file.
    pub tasks_total: usize,
    /// Tasks measured.
    pub tasks_evaluated: usize,
    /// Tasks skipped because of an issue (listed in the report's `issues`).
    pub tasks_skipped: usize,
    /// Target and format the packets were built for.
    pub target: String,
    /// Output format.
    pub format: String,
    /// Metrics over every measured task.
    pub overall: PacketMetrics,
    /// Metrics per `question_type`.
    pub by_type: BTreeMap<String, PacketMetrics>,
    /// Per task, in file order.
    pub per_task: Vec<PacketOutcome>,
}

/// One task's raw numbers, kept for aggregation.
struct TaskScore {
    recall: f64,
    precision: Option<f64>,
    must_not_hits: usize,
    pinned_ok: bool,
    session_ok: Option<bool>,
    section_recall: Option<f64>,
    /// section → (shown there, expected there).
    sections: BTreeMap<String, (usize, usize)>,
    notes: usize,
    task_notes: usize,
}

/// Runs every packet task through `wakeup` and measures it. Bad tasks (an unknown
/// id, a missing `cwd`, a request the engine refuses) become issues.
pub(crate) fn run_packets(
    engine: &Engine,
    suite: &Path,
    tasks: &[PacketTask],
    tasks_total: usize,
    ranking: Ranking,
    today: NaiveDate,
    issues: &mut Vec<SuiteIssue>,
) -> Result<PacketReport, EvalError> {
    let ids: HashSet<&str> = engine.notes().iter().map(|n| n.id.as_str()).collect();
    let facts = VaultFacts::read(engine);
    let default_now: DateTime<Utc> = today
        .and_hms_opt(9, 0, 0)
        .map(|t| t.and_utc())
        .unwrap_or_default();
    let mut outcomes = Vec::new();
    let mut scores: Vec<(Option<String>, TaskScore)> = Vec::new();
    for t in tasks {
        let issue = |message: String| SuiteIssue {
            file: QUERIES_FILE.to_owned(),
            line: t.line,
            query_id: Some(t.id.clone()),
            message: format!("{message}; skipped"),
        };
        let unknown: BTreeSet<&str> = t
            .expected
            .iter()
            .chain(t.sections.values().flatten())
            .chain(&t.must_not)
            .map(String::as_str)
            .filter(|id| !ids.contains(id))
            .collect();
        if !unknown.is_empty() {
            issues.push(issue(format!(
                "no note with id {}",
                unknown
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
            continue;
        }
        let cwd = suite.join(t.cwd.as_deref().unwrap_or("."));
        if !cwd.is_dir() {
            issues.push(issue(format!(
                "`cwd` {:?} is not a folder of the suite",
                t.cwd.as_deref().unwrap_or(".")
            )));
            continue;
        }
        let req = WakeupRequest {
            cwd,
            project: None,
            task: t.task.clone(),
            files: t.files.clone(),
            profile: None,
            target: Target::Generic,
            format: Format::Json,
            budget: None,
            now: t.now.unwrap_or(default_now),
            ranking,
            source: t.source,
            limit: None,
            caps: cairn_engine::OutputCaps::NONE,
        };
        let out = match engine.wakeup(&req) {
            Ok(o) => o,
            Err(e) if e.is_usage() => {
                issues.push(issue(e.to_string()));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let packet = &out.packet;
        let project = packet.identity.project.as_ref().map(|p| p.id.clone());
        let shown: Vec<ShownSection<'_>> = packet
            .sections()
            .into_iter()
            .map(|(name, items)| {
                let ids = items
                    .iter()
                    .map(|i| (i.id.clone(), i.layer != "hot"))
                    .collect();
                (name, ids)
            })
            .collect();
        let (outcome, score) =
            score_task(engine, &facts, t, &shown, project, packet.profile.clone());
        scores.push((t.question_type.clone(), score));
        outcomes.push(outcome);
    }

    let overall = aggregate(scores.iter().map(|(_, s)| s));
    let mut types: BTreeMap<String, Vec<&TaskScore>> = BTreeMap::new();
    for (t, s) in &scores {
        if let Some(t) = t {
            types.entry(t.clone()).or_default().push(s);
        }
    }
    Ok(PacketReport {
        tasks_total,
        tasks_evaluated: outcomes.len(),
        tasks_skipped: tasks_total - outcomes.len(),
        target: Target::Generic.to_string(),
        format: Format::Json.to_string(),
        overall,
        by_type: types
            .into_iter()
            .map(|(t, ss)| (t, aggregate(ss.into_iter())))
            .collect(),
        per_task: outcomes,
    })
}

/// Whether `path` lies under one of `roots`.
fn under(path: &str, roots: &[String]) -> bool {
    roots.iter().any(|r| cairn_engine::in_root(path, r))
}

/// What scoring needs to know about the vault, read once.
pub(crate) struct VaultFacts {
    /// Pinned, not retired, not secret: (id, vault-relative path).
    pinned: Vec<(String, String)>,
    /// Ids of session notes.
    sessions: HashSet<String>,
}

impl VaultFacts {
    fn read(engine: &Engine) -> Self {
        let mut pinned = Vec::new();
        let mut sessions = HashSet::new();
        for n in engine.notes() {
            // Retired the way the packet reads it: by status, by `superseded_by`, or
            // by an archive folder anywhere in the path.
            let retired = n.is_retired()
                || !n.superseded_by.is_empty()
                || n.in_folder(&["archive", ".archive", "_archive"]);
            if n.pinned && !retired && n.sensitivity != Sensitivity::Secret {
                pinned.push((n.id.clone(), n.path.clone()));
            }
            if n.memory_type == Some(MemoryType::Session) || n.in_folder(&["sessions"]) {
                sessions.insert(n.id.clone());
            }
        }
        Self { pinned, sessions }
    }
}

/// One section of a packet: its name and its notes, as (id, in the task layer).
type ShownSection<'a> = (&'a str, Vec<(String, bool)>);

/// Scores one packet, given section by section in packet order.
fn score_task(
    engine: &Engine,
    facts: &VaultFacts,
    t: &PacketTask,
    packet_sections: &[ShownSection<'_>],
    project: Option<String>,
    profile: String,
) -> (PacketOutcome, TaskScore) {
    let mut shown: Vec<String> = Vec::new();
    let mut shown_in: BTreeMap<&str, HashSet<&str>> = BTreeMap::new();
    let mut all: Vec<&str> = Vec::new();
    let mut task_notes = 0;
    for (name, ids) in packet_sections {
        for (id, task_layer) in ids {
            shown.push(format!("{name}: {id}"));
            shown_in.entry(name).or_default().insert(id.as_str());
            if !all.contains(&id.as_str()) {
                all.push(id.as_str());
                task_notes += usize::from(*task_layer);
            }
        }
    }
    let present = |id: &str| all.contains(&id);

    let mut expected: Vec<&str> = Vec::new();
    for id in t.expected.iter().chain(t.sections.values().flatten()) {
        if !expected.contains(&id.as_str()) {
            expected.push(id);
        }
    }
    let found = expected.iter().filter(|id| present(id)).count();
    let recall = if expected.is_empty() {
        1.0
    } else {
        found as f64 / expected.len() as f64
    };
    let precision = (!all.is_empty()).then(|| found as f64 / all.len() as f64);
    let must_not_hits: Vec<String> = t
        .must_not
        .iter()
        .filter(|id| present(id))
        .cloned()
        .collect();

    let config = engine.config();
    let mut roots = config.developer.note_roots.clone();
    if let Some(p) = project.as_deref().and_then(|p| config.project(p)) {
        roots.extend(p.note_roots.iter().cloned());
    }
    let pinned_missing: Vec<String> = facts
        .pinned
        .iter()
        .filter(|(id, path)| under(path, &roots) && !present(id))
        .map(|(id, _)| id.clone())
        .collect();
    let sessions: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|id| facts.sessions.contains(*id))
        .collect();
    let session_ok = (!sessions.is_empty()).then(|| sessions.iter().all(|id| present(id)));

    let mut sections = BTreeMap::new();
    let mut misplaced = Vec::new();
    for (name, ids) in &t.sections {
        let there = shown_in.get(name.as_str());
        let hit = ids
            .iter()
            .filter(|id| {
                let ok = there.is_some_and(|s| s.contains(id.as_str()));
                if !ok {
                    misplaced.push(format!("{name}: {id}"));
                }
                ok
            })
            .count();
        if !ids.is_empty() {
            sections.insert(name.clone(), (hit, ids.len()));
        }
    }
    let (sh, st) = sections
        .values()
        .fold((0, 0), |(a, b), (h, n)| (a + h, b + n));
    let section_recall = (st > 0).then(|| sh as f64 / st as f64);

    let outcome = PacketOutcome {
        id: t.id.clone(),
        question_type: t.question_type.clone(),
        project,
        profile,
        notes: all.len(),
        task_notes,
        recall: round4(recall),
        precision: precision.map(round4),
        missed: expected
            .iter()
            .filter(|id| !present(id))
            .map(|s| (*s).to_owned())
            .collect(),
        must_not_hits: must_not_hits.clone(),
        pinned_missing: pinned_missing.clone(),
        misplaced,
        shown,
    };
    let score = TaskScore {
        recall,
        precision,
        must_not_hits: must_not_hits.len(),
        pinned_ok: pinned_missing.is_empty(),
        session_ok,
        section_recall,
        sections,
        notes: all.len(),
        task_notes,
    };
    (outcome, score)
}

fn mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| round4(sum / n as f64))
}

fn aggregate<'a>(ss: impl Iterator<Item = &'a TaskScore>) -> PacketMetrics {
    let ss: Vec<&TaskScore> = ss.collect();
    let flag = |b: bool| f64::from(u8::from(b));
    let mut pooled: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for s in &ss {
        for (name, (h, n)) in &s.sections {
            let e = pooled.entry(name.clone()).or_default();
            e.0 += h;
            e.1 += n;
        }
    }
    // Sections in packet order would read better, but a map keeps the JSON stable.
    debug_assert!(pooled.keys().all(|k| PACKET_SECTIONS.contains(&k.as_str())));
    PacketMetrics {
        tasks: ss.len(),
        recall: mean(ss.iter().map(|s| s.recall)).unwrap_or(0.0),
        precision: mean(ss.iter().filter_map(|s| s.precision)).unwrap_or(0.0),
        must_not_hits: ss.iter().map(|s| s.must_not_hits).sum(),
        must_not_tasks: ss.iter().filter(|s| s.must_not_hits > 0).count(),
        pinned_present: mean(ss.iter().map(|s| flag(s.pinned_ok))).unwrap_or(0.0),
        session_present: mean(ss.iter().filter_map(|s| s.session_ok.map(flag))),
        session_tasks: ss.iter().filter(|s| s.session_ok.is_some()).count(),
        section_recall: mean(ss.iter().filter_map(|s| s.section_recall)),
        by_section: pooled
            .into_iter()
            .map(|(k, (h, n))| (k, round4(h as f64 / n.max(1) as f64)))
            .collect(),
        mean_notes: mean(ss.iter().map(|s| s.notes as f64)).unwrap_or(0.0),
        mean_task_notes: mean(ss.iter().map(|s| s.task_notes as f64)).unwrap_or(0.0),
    }
}
