//! Score: the final ranking of candidate notes, with every factor visible.
//!
//! ```text
//! score = (relevance + signals) × multipliers
//! relevance   = (text / best text of this query)²           (0..1; 0.5 for everyone when there is no query)
//! signals     = related file or module matches --files       (+0.6 / +0.3)
//!             + a trigger phrase is in the task               (+0.5)
//!             + the note is preferred by an active scene      (+0.3)
//!             + pinned                                        (+0.4)
//! multipliers = source_of_truth ×1.25 · retrieval_priority high ×1.2 / low ×0.8
//!             · project_id is the routed project ×1.15 (without project_id:
//!               the note is in one of the project's note folders)
//!             · recency 0.5 + 0.5·2^(−age/half-life) (evergreen: ×1)
//!             · freshness stale or review_after passed ×0.5
//! ```
//! `text` is the index's relevance (BM25F plus proximity and passage). It saturates,
//! so the notes that match a task well all score within a few tens of percent of
//! each other; squaring the ratio keeps the task's words ahead of the multipliers
//! (a 70% match becomes 0.49), and a note needs 50% of the best match to reach a
//! 25% relevance threshold. Boosts multiply relevance instead of adding to it, so a project name or a pin
//! on an unrelated note can never outrank the note that matches the task (the
//! failure of fixed integer boosts). `--ranking bm25` turns everything but BM25 off.
//!
//! Score reads notes and BM25 hits; it decides nothing about sections, policy or
//! budgets, it only reports facts (retired, belongs to another project) for the
//! assembler to act on.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use cairn_index::Hit;
use cairn_note::{Freshness, Note, Priority};
use chrono::NaiveDate;
use rayon::prelude::*;
use serde::Serialize;

use crate::files::{file_match, is_the_file, module_match, norm_path};

mod factor;
mod files;
mod subject;
pub use factor::{Detail, Factor, Op, coverage_words};
pub use files::{BUSY_FILE_NOTES, FileName, busy_files, file_names, name_terms};
pub use subject::{Subject, subject};

/// Which ranking to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ranking {
    /// BM25 plus every boost.
    #[default]
    Full,
    /// Plain BM25 (flat contents field, no boosts): the baseline.
    Bm25,
}

/// Weights of the formula, exposed so `explain` can print them and tests can pin them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Weights {
    /// Added when a related file (or module prefix) matches `--files`.
    pub file_match: f64,
    /// Added when a note's module matches.
    pub module_match: f64,
    /// Added when a trigger phrase is in the task.
    pub trigger: f64,
    /// Added for an active scene's preferred note.
    pub scene: f64,
    /// Added for pinned notes.
    pub pinned: f64,
    /// Multiplier for `source_of_truth`.
    pub source_of_truth: f64,
    /// Multiplier for `retrieval_priority: high`.
    pub priority_high: f64,
    /// Multiplier for `retrieval_priority: low`.
    pub priority_low: f64,
    /// Multiplier when `project_id` is the routed project.
    pub project_match: f64,
    /// Multiplier for stale notes.
    pub stale: f64,
    /// Relevance given to every note when there is no query at all.
    pub no_query_relevance: f64,
    /// Relevance is the ratio to the best match raised to this power.
    pub relevance_exponent: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Self {
            file_match: 0.6,
            module_match: 0.3,
            trigger: 0.5,
            scene: 0.3,
            pinned: 0.4,
            source_of_truth: 1.25,
            priority_high: 1.2,
            priority_low: 0.8,
            project_match: 1.15,
            stale: 0.5,
            no_query_relevance: 0.5,
            relevance_exponent: 2.0,
        }
    }
}

/// What the scorer needs to know about the request.
#[derive(Debug, Clone)]
pub struct ScoreContext<'a> {
    /// "Today", for recency and `review_after`.
    pub today: NaiveDate,
    /// Recency half-life in days.
    pub half_life_days: f64,
    /// The routed project.
    pub project_id: Option<&'a str>,
    /// Every configured project id (to spot notes of other projects), and any
    /// other client or project the caller knows of (a vault's hub notes).
    pub project_ids: &'a [String],
    /// The names an untyped note may be another project's by, lowercased, each
    /// with that project's id: configured projects' ids and names, and the
    /// clients or projects the caller found declared (a vault's hub notes).
    pub owner_names: &'a BTreeMap<String, String>,
    /// The routed project's names besides its id, lowercased (its name, default
    /// tags, folders): an untyped note naming one is never another's.
    pub own_names: &'a [String],
    /// The routed project's note folders (vault-relative): a note without a
    /// `project_id` is the project's too when the deepest folder holding it is
    /// one of these and not also in [`ScoreContext::other_roots`].
    pub project_roots: &'a [String],
    /// The other note folders of the configuration: the developer's and the
    /// other projects' (a folder shared with the project is nobody's own).
    pub other_roots: &'a [String],
    /// `--files`, repository-relative.
    pub files: &'a [String],
    /// Those of [`ScoreContext::files`] whose names are two topical words or
    /// more ([`file_names`]): a note whose title says them all is about what
    /// the file is named for.
    pub file_names: &'a [FileName],
    /// For folders holding a file of [`ScoreContext::files`], the share of the
    /// repository's files (those its history touched) under each (`crates` →
    /// 0.95), when its history is known: a related folder that holds much of
    /// the repository says little about one change ([`BROAD_FOLDER`]).
    pub folder_shares: &'a BTreeMap<String, f64>,
    /// Those of [`ScoreContext::files`] that more than [`BUSY_FILE_NOTES`] of
    /// the notes in scope name in their related files, with how many
    /// ([`busy_files`]): with a task's words, a file so many notes name does
    /// not point at one of them by itself.
    pub busy_files: &'a BTreeMap<String, usize>,
    /// Path prefixes of the selected modules.
    pub module_prefixes: &'a [String],
    /// Ids of the selected modules (a note tagged with one matches).
    pub modules: &'a [String],
    /// With a derived task, what its branch and its changed files are both
    /// about ([`subject()`]): a note whose title says it is pointed at as one a
    /// file's name is. Empty otherwise.
    pub subject: &'a Subject,
    /// Analysed terms of the task (for triggers).
    pub task_terms: &'a BTreeSet<String>,
    /// What each part of the query is ([`cairn_index::QueryTerms::parts`]), in
    /// words (`the branch name`): a note's coverage says of which it is.
    pub part_names: &'a [&'static str],
    /// Notes preferred by active scenes (paths, ids or titles).
    pub scene_preferred: &'a [String],
    /// Whether the request had any query terms at all.
    pub has_query: bool,
    /// Full or plain BM25.
    pub ranking: Ranking,
    /// Formula weights.
    pub weights: Weights,
}

/// The share of the gate's coverage a constraint in scope needs (28% of the
/// query where other notes need 35%): measured on devmem (recall 0.942 → 0.945,
/// precision unchanged) and a held-out freelancer's vault (its "no PHI in logs"
/// constraint covered 32% of an audit-logging task).
pub const BINDING_COVERAGE: f64 = 0.8;

/// A scored note.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scored {
    /// Vault-relative path.
    pub path: String,
    /// Final score.
    pub score: f64,
    /// Raw BM25 (0 when the note did not match).
    pub bm25: f64,
    /// Normalised BM25, 0..1.
    pub relevance: f64,
    /// Sum of the additive signals (files, triggers, scenes; pins excluded).
    pub signals: f64,
    /// The share of the query's IDF mass the note matches ([`Hit::coverage`]), 0..1:
    /// the absolute relevance gate, comparable across queries.
    pub coverage: f64,
    /// With query parts (a derived task): the part the note covers most of, in
    /// words (`the branch name`), and that share, 0..1. A note passes the gate by
    /// covering [`PART_MIN_COVERAGE`] (or more, when the whole needs more) of one part.
    pub part_coverage: Option<(&'static str, f64)>,
    /// A related file matches `--files`, or a module the files select does.
    pub anchored: bool,
    /// The retired note this one replaces (its `superseded_by` names this note)
    /// whose match passed the gate: the current answer to what the task asked of
    /// the old one passes the gate with it. Set by the caller
    /// ([`lift_successors`]), which knows the gate's threshold.
    pub successor_of: Option<String>,
    /// Its author marked it `freshness: stale`: its own text needs twice the
    /// coverage to pass the gate.
    pub marked_stale: bool,
    /// A constraint in the session's scope (not another project's): a rule that
    /// binds the work, so its text needs [`BINDING_COVERAGE`] of the coverage
    /// others need (an agent that misses one breaks it; one more short item
    /// costs little).
    pub binding: bool,
    /// Every factor.
    pub factors: Vec<Factor>,
    /// Superseded or archived.
    pub retired: bool,
    /// `project_id` names another configured project.
    pub other_project: Option<String>,
    /// Pinned.
    pub pinned: bool,
}

impl Scored {
    /// Whether anything in the request points at this note (BM25, files, triggers, scenes).
    pub fn is_relevant(&self, min_relevance: f64) -> bool {
        self.relevance >= min_relevance || self.signals > 0.0
    }

    /// The absolute relevance gate of the task layer: the note covers at least
    /// `min_coverage` of the query's IDF mass, or `--files` point at it. A trigger,
    /// a scene, a pin or a boost alone never passes it, and neither does being the
    /// best of poor matches.
    pub fn passes_gate(&self, min_coverage: f64) -> bool {
        self.anchored || self.successor_of.is_some() || self.matches_task(min_coverage)
    }

    /// [`Scored::passes_gate`] without a constraint's lower share: what a
    /// confidential note must pass to be named at all (its lower gate is for
    /// what the session is shown, never for what it is told exists).
    pub fn passes_full_gate(&self, min_coverage: f64) -> bool {
        let share = if self.marked_stale {
            (min_coverage * 2.0).min(0.9)
        } else {
            min_coverage
        };
        self.anchored || self.successor_of.is_some() || self.covers(share)
    }

    /// Whether the note's own text covers at least `min_coverage` of the query.
    /// Whether the note's own text covers what [`Scored::needed_coverage`] asks.
    pub fn matches_task(&self, min_coverage: f64) -> bool {
        self.covers(self.needed_coverage(min_coverage))
    }

    /// The share of the query this note must cover to pass the gate by its text:
    /// `min_coverage`, twice that (at most 90%) for a note marked stale.
    pub fn needed_coverage(&self, min_coverage: f64) -> f64 {
        let base = if self.binding {
            min_coverage * BINDING_COVERAGE
        } else {
            min_coverage
        };
        if self.marked_stale {
            (base * 2.0).min(0.9)
        } else {
            base
        }
    }

    /// Whether the note's text covers at least `share` of the query, whatever its
    /// freshness (what a retired note is measured by: it never enters a section).
    pub fn covers(&self, share: f64) -> bool {
        self.bm25 > 0.0
            && (self.coverage >= share
                || self
                    .part_coverage
                    .is_some_and(|(_, c)| c >= share.max(PART_MIN_COVERAGE)))
    }

    /// Human-readable reasons, one per factor that mattered.
    pub fn reasons(&self) -> Vec<String> {
        self.factors
            .iter()
            .filter(|f| match f.op {
                Op::Base => f.value > 0.0,
                Op::Add => f.value != 0.0,
                Op::Multiply => (f.value - 1.0).abs() > 1e-9,
            })
            .map(|f| f.detail.to_string())
            .collect()
    }
}

/// Scores `notes` given BM25 `hits`; best first, ties by path (the order does not
/// depend on the parallel scoring).
pub fn score<'n>(
    notes: impl IntoIterator<Item = &'n Note>,
    hits: &[Hit],
    ctx: &ScoreContext<'_>,
) -> Vec<Scored> {
    let best = hits
        .iter()
        .map(|h| f64::from(h.bm25))
        .fold(0.0_f64, f64::max);
    let by_path: HashMap<&str, Match> = hits
        .iter()
        .map(|h| {
            (
                h.path.as_str(),
                Match {
                    bm25: f64::from(h.bm25),
                    coverage: f64::from(h.coverage),
                    part: h
                        .part
                        .and_then(|(p, c)| ctx.part_names.get(p).map(|name| (*name, f64::from(c)))),
                },
            )
        })
        .collect();
    let notes: Vec<&Note> = notes.into_iter().collect();
    // Independent per note, and a profile's roots can hold thousands of them.
    let mut out: Vec<Scored> = notes
        .par_iter()
        .with_min_len(128)
        .map(|n| {
            score_one(
                n,
                by_path.get(n.path.as_str()).copied().unwrap_or_default(),
                best,
                ctx,
            )
        })
        .collect();
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.path.cmp(&b.path))
    });
    out
}

/// The share of one part of a derived task (the branch name, a commit subject) a
/// note must cover to pass the gate by that part alone. Higher than the whole
/// query's: a part is a few words, and a note passes by any of up to six.
pub const PART_MIN_COVERAGE: f64 = 0.5;

/// A note's text match: its BM25, the share of the query it covers and, with
/// query parts, the part it covers most of.
#[derive(Debug, Clone, Copy, Default)]
struct Match {
    bm25: f64,
    coverage: f64,
    part: Option<(&'static str, f64)>,
}

fn score_one(n: &Note, m: Match, best: f64, ctx: &ScoreContext<'_>) -> Scored {
    let Match {
        bm25,
        coverage,
        part,
    } = m;
    let w = &ctx.weights;
    let mut factors = Vec::new();
    let retired = is_retired(n);
    let other_project = n
        .project_id
        .as_deref()
        .filter(|p| Some(*p) != ctx.project_id && ctx.project_ids.iter().any(|id| id == p))
        .map(str::to_owned)
        .or_else(|| named_for_another(n, ctx));

    if ctx.ranking == Ranking::Bm25 {
        let relevance = if best > 0.0 { bm25 / best } else { 0.0 };
        factors.push(Factor {
            name: "bm25",
            op: Op::Base,
            value: bm25,
            detail: Detail::Bm25(bm25),
        });
        return Scored {
            path: n.path.clone(),
            score: bm25,
            bm25,
            relevance,
            signals: 0.0,
            coverage,
            part_coverage: part,
            anchored: false,
            successor_of: None,
            marked_stale: n.freshness == Some(Freshness::Stale),
            binding: false,
            factors,
            retired,
            other_project,
            pinned: n.pinned,
        };
    }

    let relevance = if ctx.has_query {
        let ratio = if best > 0.0 { bm25 / best } else { 0.0 };
        let r = ratio.powf(w.relevance_exponent);
        factors.push(Factor {
            name: "bm25",
            op: Op::Base,
            value: r,
            detail: Detail::Matches {
                bm25,
                ratio,
                coverage,
                part,
            },
        });
        r
    } else {
        factors.push(Factor {
            name: "no_query",
            op: Op::Base,
            value: w.no_query_relevance,
            detail: Detail::Fixed("no task given: ranked by pins, priority and recency"),
        });
        w.no_query_relevance
    };

    let mut signals = 0.0;
    let mut anchored = false;
    if let Some((file, related)) = file_match(n, ctx.files) {
        // A related folder holding the file counts by how specific it is.
        let share = (norm_path(&related) != norm_path(&file))
            .then(|| ctx.folder_shares.get(norm_path(&related)).copied())
            .flatten()
            .filter(|s| norm_path(&file).starts_with(norm_path(&related)) && *s > 0.0);
        let value = w.file_match * (1.0 - share.unwrap_or(0.0));
        // A file many notes name (a crate's argument parser, a shared schema)
        // says little about which of them the work is about: the task's
        // words choose among them (without words, the file is all there is).
        // A related folder holding it is weighed by its share instead.
        let busy = (ctx.has_query && is_the_file(norm_path(&related), norm_path(&file)))
            .then(|| ctx.busy_files.get(&file).copied())
            .flatten();
        anchored = share.is_none_or(|s| s < BROAD_FOLDER) && busy.is_none();
        signals += value;
        factors.push(Factor {
            name: "file",
            op: Op::Add,
            value,
            detail: Detail::Text(match (share, busy) {
                (None, Some(notes)) => format!(
                    "related file {related} matches {file}, but {notes} notes name it: too many to point at the note alone"
                ),
                (Some(s), _) if anchored => format!(
                    "related folder {related} holds {file} ({:.0}% of the repository's files)",
                    s * 100.0
                ),
                (Some(s), _) => format!(
                    "related folder {related} holds {file}, but also {:.0}% of the repository's files: too broad to point at the note alone",
                    s * 100.0
                ),
                (None, None) => format!("related file {related} matches {file}"),
            }),
        });
    } else if let Some(m) = module_match(n, ctx) {
        // A module chosen by `--files` points at the note; one chosen by the
        // working directory alone says where, not what.
        anchored = !ctx.files.is_empty();
        signals += w.module_match;
        factors.push(Factor {
            name: "module",
            op: Op::Add,
            value: w.module_match,
            detail: Detail::Text(m),
        });
    }
    if !anchored
        && bm25 > 0.0
        && let Some((name, why)) = subject::title_points(n, ctx)
    {
        anchored = true;
        signals += w.module_match;
        factors.push(Factor {
            name,
            op: Op::Add,
            value: w.module_match,
            detail: Detail::Text(why),
        });
    }
    if let Some(t) = trigger_match(n, ctx.task_terms) {
        signals += w.trigger;
        factors.push(Factor {
            name: "trigger",
            op: Op::Add,
            value: w.trigger,
            detail: Detail::Text(format!("trigger \"{t}\" is in the task")),
        });
    }
    if ctx
        .scene_preferred
        .iter()
        .any(|p| p == &n.path || p == &n.id || p == &n.title)
    {
        signals += w.scene;
        factors.push(Factor {
            name: "scene",
            op: Op::Add,
            value: w.scene,
            detail: Detail::Fixed("preferred by an active scene"),
        });
    }
    let mut base = relevance + signals;
    if n.pinned {
        base += w.pinned;
        factors.push(Factor {
            name: "pinned",
            op: Op::Add,
            value: w.pinned,
            detail: Detail::Fixed("pinned"),
        });
    }

    let mut mult = 1.0;
    let mut multiply = |name: &'static str, value: f64, detail: Detail| {
        mult *= value;
        factors.push(Factor {
            name,
            op: Op::Multiply,
            value,
            detail,
        });
    };
    if n.source_of_truth {
        multiply(
            "source_of_truth",
            w.source_of_truth,
            Detail::Weighted("source of truth", w.source_of_truth),
        );
    }
    match n.retrieval_priority {
        Some(Priority::High) => multiply(
            "priority",
            w.priority_high,
            Detail::Weighted("retrieval priority high", w.priority_high),
        ),
        Some(Priority::Low) => multiply(
            "priority",
            w.priority_low,
            Detail::Weighted("retrieval priority low", w.priority_low),
        ),
        _ => {}
    }
    match (n.project_id.as_deref(), ctx.project_id) {
        (Some(p), Some(routed)) if p == routed => multiply(
            "project",
            w.project_match,
            Detail::Project(p.to_owned(), w.project_match),
        ),
        (None, Some(routed)) if in_project_folder(&n.path, ctx) => {
            multiply(
                "project",
                w.project_match,
                Detail::ProjectFolder(routed.to_owned(), w.project_match),
            );
        }
        _ => {}
    }
    if n.freshness == Some(Freshness::Evergreen) {
        // Evergreen notes do not decay.
    } else if let Some(date) = n.effective_date() {
        let age = (ctx.today - date).num_days().max(0) as f64;
        let decay = 0.5 + 0.5 * (-age / ctx.half_life_days).exp2();
        multiply("recency", decay, Detail::Recency { date, age, decay });
    }
    let review_passed = n.review_after.is_some_and(|d| d < ctx.today);
    if n.freshness == Some(Freshness::Stale) || review_passed {
        let review_due = if review_passed { n.review_after } else { None };
        multiply("stale", w.stale, Detail::Stale(review_due, w.stale));
    }

    Scored {
        path: n.path.clone(),
        score: base * mult,
        bm25,
        relevance,
        signals,
        coverage,
        part_coverage: part,
        anchored,
        successor_of: None,
        marked_stale: n.freshness == Some(Freshness::Stale),
        binding: n.memory_type == Some(cairn_note::MemoryType::Constraint)
            && other_project.is_none(),
        factors,
        retired,
        other_project,
        pinned: n.pinned,
    }
}

/// Most retired notes whose successors are looked up per query: the packet's task
/// layer holds about ten notes, and each lookup is a pass over the notes in scope.
pub const MAX_SUCCESSOR_LOOKUPS: usize = 16;

/// Lets the successor of a retired note whose own text passes the gate
/// (`min_coverage`) pass it too: a task that matches a superseded decision is
/// answered by the decision that replaced it, though the new one may word it
/// differently. The [`MAX_SUCCESSOR_LOOKUPS`] best-scored such notes are taken
/// (`scored` is in score order); `resolve` answers all their `(superseded_by
/// value, retired note)` queries at once with a path each, or `None` (the caller
/// owns the note set). A retired successor is not lifted; the first retired note
/// in score order names the lift.
pub fn lift_successors<'n, S: std::hash::BuildHasher>(
    scored: &mut [Scored],
    notes: &HashMap<&str, &'n Note, S>,
    min_coverage: f64,
    resolve: impl FnOnce(&[(&'n str, &'n Note)]) -> Vec<Option<String>>,
) {
    // A retired note is usually marked stale as well: its match counts in full here.
    let mut queries: Vec<(&'n str, &'n Note)> = Vec::new();
    for s in scored
        .iter()
        .filter(|s| s.retired && s.covers(min_coverage))
        .take(MAX_SUCCESSOR_LOOKUPS)
    {
        if let Some(n) = notes.get(s.path.as_str()) {
            queries.extend(n.superseded_by.iter().map(|t| (t.as_str(), *n)));
        }
    }
    if queries.is_empty() {
        return;
    }
    let found = resolve(&queries);
    for ((_, from), next) in queries.iter().zip(found) {
        let Some(next) = next else { continue };
        if let Some(s) = scored
            .iter_mut()
            .find(|s| s.path == next && !s.retired && s.successor_of.is_none())
        {
            s.successor_of = Some(from.path.clone());
        }
    }
}

/// Folders whose notes are retired wherever they sit (`archive/`, `.archive/`,
/// `_archive/`, in any case, at any depth).
pub const ARCHIVE_FOLDERS: &[&str] = &["archive", ".archive", "_archive"];

/// Whether a note is retired: superseded or archived by status, replaced by
/// another (`superseded_by` set, whatever its status says), or kept under an
/// archive folder. No boost, trigger or pin brings a retired note back.
pub fn is_retired(n: &Note) -> bool {
    n.is_retired() || !n.superseded_by.is_empty() || n.in_folder(ARCHIVE_FOLDERS)
}

/// Why a note is retired, in words naming the key or folder that did it; `None`
/// when it is not.
pub fn retired_because(n: &Note) -> Option<String> {
    if let Some(by) = n.superseded_by.first() {
        return Some(format!("retired: superseded_by names {by}"));
    }
    if n.is_retired() {
        return Some(match n.status_word.as_deref() {
            Some(w) if w != n.status.as_str() => format!("retired: status {w} ({})", n.status),
            _ => format!("retired: status {}", n.status),
        });
    }
    ARCHIVE_FOLDERS
        .iter()
        .find(|f| n.in_folder(&[**f]))
        .map(|f| format!("retired: under an {f}/ folder"))
}

/// A related folder holding at least this share of the repository's files
/// (see [`ScoreContext::folder_shares`]) does not point at a note by itself: the
/// note must match the task's words too (`related_files: [crates/]` in a
/// repository whose code is all under `crates/`).
pub const BROAD_FOLDER: f64 = 0.5;

/// A trigger whose every analysed term is in the task (one with no term never
/// is): by its terms when the note carries them ([`Note::trigger_terms`]), else
/// by analysing it.
fn trigger_match<'n>(n: &'n Note, task_terms: &BTreeSet<String>) -> Option<&'n str> {
    if task_terms.is_empty() {
        return None;
    }
    if let Some(analysed) = n.trigger_terms.get() {
        return n.triggers.iter().zip(analysed).find_map(|(t, terms)| {
            let mut terms = terms.peekable();
            let within = terms.peek().is_some() && terms.all(|term| task_terms.contains(term));
            within.then_some(t.as_str())
        });
    }
    n.triggers
        .iter()
        .map(String::as_str)
        .find(|t| cairn_index::analyzed_within(t, task_terms))
}

/// The query terms that occur in the note's title, headings, tags or body (for
/// "why" lines); cheap enough for the handful of notes that make a packet.
pub fn matched_terms(n: &Note, query_terms: &BTreeSet<String>) -> Vec<String> {
    if query_terms.is_empty() {
        return Vec::new();
    }
    let mut found = BTreeSet::new();
    let mut scan = |text: &str| {
        for t in cairn_index::analyze(text) {
            if query_terms.contains(&t) {
                found.insert(t);
            }
        }
    };
    scan(&n.title);
    for h in &n.headings {
        scan(&h.text);
    }
    for t in n.tags.iter().chain(&n.triggers).chain(&n.aliases) {
        scan(t);
    }
    if let Some(d) = &n.description {
        scan(d);
    }
    scan(&n.body);
    found.into_iter().collect()
}

/// The other project an untyped note without a `project_id` names
/// ([`ScoreContext::owner_names`]), when it names not the routed one and lies outside
/// the routed project's own folders: by its file name (`facturaia.md`), a file
/// name that starts with the name and a separator (`Bramble - check webhooks.md`,
/// `Bramble: ...`), or a tag (`#facturaia`, `#client/bramble`), in a session of
/// project `simarro`: a vault without cairn's keys says whose a note is that way.
fn named_for_another(n: &Note, ctx: &ScoreContext<'_>) -> Option<String> {
    let here = ctx.project_id?;
    if n.project_id.is_some() || n.memory_type.is_some() || in_project_folder(&n.path, ctx) {
        return None;
    }
    // What the note is named by: its file name, the start of its file name
    // before a separator, its tags and a nested tag's last part; each looked up
    // (a vault may declare hundreds of owners).
    let stem = n.stem().to_lowercase();
    let mut said: Vec<String> = vec![stem.clone()];
    for sep in NAME_SEPARATORS {
        let mut at = 0;
        while let Some(i) = stem[at..].find(sep) {
            said.push(stem[..at + i].to_owned());
            at += i + sep.len();
        }
    }
    for t in &n.tags {
        let t = t.to_lowercase();
        if let Some((_, last)) = t.rsplit_once('/') {
            said.push(last.to_owned());
        }
        said.push(t);
    }
    let here = here.to_lowercase();
    if said.iter().any(|w| *w == here || ctx.own_names.contains(w)) {
        return None;
    }
    said.iter()
        .filter_map(|w| ctx.owner_names.get(w))
        .find(|owner| **owner != here)
        .cloned()
}

/// What separates a name at a file name's start from the rest (`Bramble - …`).
const NAME_SEPARATORS: &[&str] = &[" - ", " – ", " — ", ": "];

/// Whether the deepest configured note folder holding vault-relative `path` is
/// the routed project's own ([`ScoreContext::project_roots`]): a folder the
/// project shares with the developer or another project, or a deeper folder
/// of theirs inside it, makes no note the project's.
fn in_project_folder(path: &str, ctx: &ScoreContext<'_>) -> bool {
    // The depth of the deepest of `roots` holding `path` (1 + its length).
    let deepest = |roots: &[String]| {
        roots
            .iter()
            .filter(|r| cairn_note::in_root(path, r))
            .map(|r| r.trim_matches('/').len() + 1)
            .max()
            .unwrap_or(0)
    };
    let own = deepest(ctx.project_roots);
    own > 1 && own > deepest(ctx.other_roots)
}

#[cfg(test)]
mod tests;
