//! Assemble: scored, policy-cleared candidates → a wakeup.v1 [`Packet`].
//!
//! A profile (data, see [`Profile`]) maps memory types to sections with caps and a
//! relevance floor. Every item carries its path, score, reasons and sensitivity;
//! superseded and archived notes never enter a section (relevant ones are listed in
//! `provenance.excluded`); notes of other projects are ignored and counted.
//! Summaries are the note's description, else its sentences that best match the task.
//!
//! Assembly prints a note's text only from its [`ShownNote`], the policy's redacted
//! view (built here for the few notes a packet names): credentials are replaced on
//! the original text before a summary flattens, strips, joins or clips it, and
//! [`summarize`] and [`clip`] take nothing else.
//!
//! Assembly does not render or count tokens: the caller renders, measures, and calls
//! [`Packet::drop_lowest`] until the output fits the budget. It does not decide
//! sensitivity either: candidates arrive already cleared (or withheld) by policy.

mod packet;
mod profile;
mod rules;
mod session;
mod summary;

use std::collections::{BTreeSet, HashMap};

use cairn_note::{Note, Sensitivity};
use cairn_policy::{SafeText, ShownName, ShownNote};
use cairn_score::Scored;

pub use packet::{
    Budget, CodeChange, Derived, Excluded, Identity, Item, LeftOut, Packet, PolicySummary,
    ProjectInfo, Provenance, QueryEcho, RouteInfo, VERSION,
};
pub use profile::{
    DEFAULT_MIN_COVERAGE, HUB_LINKS, HotRules, Origin, Profile, ProfileError, SECTION_NAMES,
    SectionRule,
};
pub use rules::{RULES_CHARS, summarize_rules};
pub use session::{SESSION_CHARS, next_steps, summarize_session};
pub use summary::{best_sentences, clip, summarize};
pub(crate) use summary::{clip_str, ends_sentence, one_line, telling_description};

/// The built-in profiles (`crates/cairn-assemble/profiles/*.toml`), compiled in.
pub const BUILTIN_PROFILES: &[(&str, &str)] = &[
    ("project", include_str!("../profiles/project.toml")),
    ("developer", include_str!("../profiles/developer.toml")),
    ("session", include_str!("../profiles/session.toml")),
];

/// How many left-out notes are listed by name (all are counted).
pub const LEFT_OUT_LISTED: usize = 20;
/// How many excluded notes are listed.
pub const EXCLUDED_LISTED: usize = 20;
/// Longest summary, in characters.
pub const SUMMARY_CHARS: usize = 280;

/// A note offered to the assembler.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    /// The note.
    pub note: &'a Note,
    /// Its score.
    pub scored: &'a Scored,
    /// Which scope it came from.
    pub origin: Origin,
    /// Confidential: show the title and a neutral line only.
    pub withheld: bool,
    /// Which layer the caller put it in.
    pub layer: Layer,
}

/// The two layers of a packet. The hot layer does not depend on the task (its
/// summaries and reasons neither), so the rendered prefix that holds it is the same
/// for every task in one project; the task layer is ranked for the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// Task-independent, and why.
    Hot(HotKind),
    /// No task at all: a recently edited note, after the hot layer.
    Recent,
    /// No task at all: a note many notes link to (an index or map of content),
    /// and how many do.
    Hub(u32),
    /// Ranked for the task; must pass the relevance gate.
    Task,
}

impl Layer {
    /// The packet's name for the layer (`hot` or `task`).
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Hot(_) => "hot",
            Layer::Recent | Layer::Hub(_) | Layer::Task => "task",
        }
    }
}

/// Why a note is in the hot layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HotKind {
    /// The developer's own profile.
    Identity,
    /// A pinned, high-priority or evergreen preference or workflow.
    WorkingStyle,
    /// The routed project's overview.
    Overview,
    /// The routed project's latest session or handoff note, and its date.
    Session(chrono::NaiveDate),
    /// Pinned.
    Pinned,
}

impl HotKind {
    /// The reason an item states (task-independent).
    pub fn reason(self) -> String {
        match self {
            HotKind::Identity => "the developer's profile".to_owned(),
            HotKind::WorkingStyle => "working style (always shown)".to_owned(),
            HotKind::Overview => "the project's overview".to_owned(),
            HotKind::Session(d) => format!("the project's latest session ({d})"),
            HotKind::Pinned => "pinned".to_owned(),
        }
    }
}

/// Everything else the packet states.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The profile.
    pub profile: &'a Profile,
    /// Target client.
    pub target: &'a str,
    /// ISO-8601 UTC.
    pub generated_at: String,
    /// The request, echoed.
    pub query: QueryEcho,
    /// The routed project.
    pub project: Option<ProjectInfo>,
    /// Routing decision.
    pub route: RouteInfo,
    /// Analysed task terms (for summaries).
    pub query_terms: &'a BTreeSet<String>,
    /// Sentences on how ranking worked (for `selection_basis`).
    pub selection_basis: Vec<String>,
    /// Notes suppressed by policy before assembly.
    pub suppressed: usize,
    /// The neutral line for withheld notes.
    pub withheld_notice: &'a str,
    /// Budget format and limit.
    pub budget_format: String,
    /// Budget limit in tokens.
    pub budget_limit: usize,
    /// Tokenizer name for the packet.
    pub tokenizer: String,
    /// Scan diagnostics count.
    pub scan_diagnostics: usize,
    /// Whether the packet is partial.
    pub partial: bool,
    /// The profile's default budget for this format (caps are its maxima there).
    pub default_budget: Option<usize>,
    /// `--limit`: at most this many task-layer notes.
    pub limit: Option<usize>,
}

/// The items an assembly built, by candidate position: assembling the same
/// candidates again with the same request rebuilds only the items of the
/// candidates [`BuiltItems::forget`] names (an item is a function of its
/// candidate and the request alone).
#[derive(Debug, Default)]
pub struct BuiltItems(HashMap<usize, Item>);

impl BuiltItems {
    /// Drops the item of the candidate at `position` (its note changed).
    pub fn forget(&mut self, position: usize) {
        self.0.remove(&position);
    }

    /// Keeps `item`, made by [`item_of`] for the candidate at `position` with the
    /// request the next assembly is given, as that candidate's item: a caller
    /// builds items where it likes (on several threads) and the assembly takes them.
    pub fn insert(&mut self, position: usize, item: Item) {
        self.0.insert(position, item);
    }

    /// The positions of the candidates whose items were built, in order, with
    /// their items.
    pub fn built(&self) -> Vec<(usize, &Item)> {
        let mut out: Vec<(usize, &Item)> = self.0.iter().map(|(&at, item)| (at, item)).collect();
        out.sort_unstable_by_key(|&(at, _)| at);
        out
    }
}

/// The item an assembly with `req` makes of `candidate` wherever it places it:
/// its shown, redacted texts, its summary and its reasons (a function of the
/// two alone; see [`BuiltItems::insert`]).
pub fn item_of(req: &Request<'_>, candidate: &Candidate<'_>) -> Item {
    make_item(candidate.note, candidate.scored, candidate, req)
}

/// Builds the packet. `candidates` must be sorted best first (as [`cairn_score::score`] returns).
pub fn assemble(req: &Request<'_>, candidates: &[Candidate<'_>]) -> Packet {
    assemble_reusing(req, candidates, &mut BuiltItems::default())
}

/// [`assemble`], taking the items `built` holds instead of building them again
/// and keeping there those it builds.
pub fn assemble_reusing(
    req: &Request<'_>,
    candidates: &[Candidate<'_>],
    built: &mut BuiltItems,
) -> Packet {
    assemble_with(req, candidates, &mut Items::Build(built))
}

/// The positions of the candidates whose items an assembly of `candidates`
/// with `req` builds, in order, were no item a copy of another (which only
/// the items can tell: a copy's place goes to a later candidate, whose item
/// the assembly then builds itself). For building them beforehand, on several
/// threads ([`item_of`], [`BuiltItems::insert`]): the decisions are the
/// assembly's own, made without building an item or redacting a name.
#[must_use]
pub fn planned_items(req: &Request<'_>, candidates: &[Candidate<'_>]) -> Vec<usize> {
    let mut items = Items::Plan(Vec::new());
    assemble_with(req, candidates, &mut items);
    match items {
        Items::Plan(at) => at,
        Items::Build(_) => Vec::new(),
    }
}

/// Where an assembly's items come from: built (or taken from those built
/// before), or only planned (see [`planned_items`]).
enum Items<'b> {
    Build(&'b mut BuiltItems),
    /// The positions an assembly would build; the packet is thrown away, and
    /// nothing in it is built or redacted (a stand-in item holds only its layer).
    Plan(Vec<usize>),
}

impl Items<'_> {
    fn planning(&self) -> bool {
        matches!(self, Items::Plan(_))
    }
}

fn assemble_with(req: &Request<'_>, candidates: &[Candidate<'_>], items: &mut Items<'_>) -> Packet {
    let profile = req.profile;
    let mut packet = Packet {
        version: VERSION.to_owned(),
        generated_at: req.generated_at.clone(),
        target: req.target.to_owned(),
        profile: profile.name.clone(),
        query: req.query.clone(),
        identity: Identity {
            project: req.project.clone(),
            notes: Vec::new(),
        },
        working_style: Vec::new(),
        active_context: Vec::new(),
        priorities: Vec::new(),
        constraints: Vec::new(),
        decisions: Vec::new(),
        incidents: Vec::new(),
        recommended_notes: Vec::new(),
        provenance: Provenance {
            route: req.route.clone(),
            derived_from: Vec::new(),
            selection_basis: req.selection_basis.clone(),
            excluded: Vec::new(),
            other_project_notes_ignored: 0,
            scan_diagnostics: req.scan_diagnostics,
            partial: req.partial,
            partial_reason: None,
        },
        policy: PolicySummary {
            suppressed_note_count: req.suppressed,
            policy_mode: "standard".into(),
            ..PolicySummary::default()
        },
        budget: Budget {
            format: req.budget_format.clone(),
            limit_tokens: req.budget_limit,
            tokenizer: req.tokenizer.clone(),
            ..Budget::default()
        },
        content_hash: String::new(),
    };

    let fill = profile.sections.iter().position(|s| s.fill);
    let planning = items.planning();
    for (at, c) in candidates.iter().enumerate() {
        let n = c.note;
        let s = c.scored;
        let mut put = |packet: &mut Packet, section: &str| {
            let item = match items {
                Items::Build(built) => built
                    .0
                    .entry(at)
                    .or_insert_with(|| make_item(n, s, c, req))
                    .clone(),
                Items::Plan(planned) => {
                    planned.push(at);
                    Item {
                        layer: c.layer.as_str().to_owned(),
                        ..Item::default()
                    }
                }
            };
            // A copy of a note shown already (a translation's untranslated
            // pages, a file kept in two places): the same title and summary
            // tell the session nothing new (a held-out trial: four of eight
            // items were copies).
            if let Some(first) = copy_of(packet, &item) {
                exclude(packet, n, "duplicate", |_| {
                    format!("the same title and summary as {first}")
                });
                return;
            }
            place(packet, n, item, section);
        };
        match c.layer {
            Layer::Hot(kind) => {
                let section = hot_section(profile, kind, n);
                put(&mut packet, section);
                continue;
            }
            Layer::Recent | Layer::Hub(_) => {
                if !s.retired && s.other_project.is_none() {
                    put(&mut packet, "recommended_notes");
                }
                continue;
            }
            Layer::Task => {}
        }
        let relevant = s.passes_gate(profile.min_coverage);
        if c.origin != profile.primary && !profile.admits_secondary(n) {
            continue;
        }
        if s.other_project.is_some() {
            packet.provenance.other_project_notes_ignored += 1;
            continue;
        }
        if s.retired {
            // Listed as not current when it matches the task: a retired note is
            // usually marked stale too, which must not hide it from this list.
            if !planning && (s.anchored || s.covers(profile.min_coverage)) {
                exclude(&mut packet, n, "retired", |shown| {
                    let kind = match (n.status, shown.superseded_by.first()) {
                        (_, Some(by)) => return format!("superseded by {by}"),
                        (cairn_note::Status::Superseded, None) => "superseded",
                        _ => "archived",
                    };
                    // Another word than cairn's (`deprecated`, a configured
                    // `rejected`) is named: it is the key that retired the note.
                    match shown.status_word.as_deref() {
                        Some(w) if n.is_retired() && w != kind => {
                            format!("{kind} (status {w})")
                        }
                        _ => kind.to_owned(),
                    }
                });
            }
            continue;
        }
        // Below the gate a note goes nowhere (most of the notes in scope).
        if !relevant {
            continue;
        }
        let Some(rule_ix) = section_taking(profile, n) else {
            if !planning
                && n.memory_type
                    .is_some_and(|t| profile.exclude_types.contains(&t))
            {
                let t = n
                    .memory_type
                    .map(cairn_note::MemoryType::as_str)
                    .unwrap_or_default();
                exclude(&mut packet, n, "excluded_type", |_| {
                    format!("{t} notes are not part of the {} profile", profile.name)
                });
            }
            continue;
        };
        let rule = &profile.sections[rule_ix];
        let name = rule.name.as_str();
        let cap = scaled_cap(rule.cap, req);
        let target = if count_task(&packet, name) < cap {
            Some(name)
        } else {
            // A full typed section spills into the fill section.
            fill.filter(|&f| f != rule_ix)
                .map(|f| &profile.sections[f])
                .filter(|f| count_task(&packet, &f.name) < scaled_cap(f.cap, req))
                .map(|f| f.name.as_str())
        };
        let target = target.filter(|_| req.limit.is_none_or(|l| task_items(&packet) < l));
        let Some(target) = target else {
            packet.budget.left_out_count += 1;
            if !planning && packet.budget.left_out.len() < LEFT_OUT_LISTED {
                let shown = ShownName::of(n);
                packet.budget.left_out.push(LeftOut {
                    path: shown.path.into_string(),
                    title: shown.title.into_string(),
                    section: name.to_owned(),
                    reason: match req.limit {
                        Some(l) if task_items(&packet) >= l => format!("--limit {l}"),
                        _ => format!("section cap ({cap})"),
                    },
                    score: round3(s.score),
                    layer: "task".to_owned(),
                });
            }
            continue;
        };
        put(&mut packet, target);
    }
    if planning {
        return packet;
    }

    packet.policy.withheld_note_count = packet
        .sections()
        .iter()
        .flat_map(|(_, v)| v.iter())
        .filter(|i| i.withheld)
        .count();
    packet.policy.max_sensitivity_included = max_sensitivity(&packet);
    packet.update_content_hash();
    packet
}

/// Task-layer items in `section` (hot items do not use a section's cap).
fn count_task(p: &Packet, section: &str) -> usize {
    p.sections()
        .iter()
        .find(|(n, _)| *n == section)
        .map_or(0, |(_, v)| v.iter().filter(|i| i.layer != "hot").count())
}

/// Task-layer items in the whole packet.
fn task_items(p: &Packet) -> usize {
    p.sections()
        .iter()
        .flat_map(|(_, v)| v.iter())
        .filter(|i| i.layer != "hot")
        .count()
}

/// A section's cap at this request's budget (see [`scale_to_budget`]).
fn scaled_cap(cap: usize, req: &Request<'_>) -> usize {
    scale_to_budget(cap, req.budget_limit, req.default_budget)
}

/// A profile count (a cap, a number of notes) at a `budget`: the profile's counts
/// are the maxima at its `default` budget, and scale with a bigger or smaller one
/// (at least 1); unchanged at the default or when the profile sets none.
pub fn scale_to_budget(n: usize, budget: usize, default: Option<usize>) -> usize {
    match default {
        Some(default) if default > 0 && budget != default => {
            let scaled = (n as f64 * budget as f64 / default as f64).round();
            // `scaled` is a non-negative whole number of notes, far below usize::MAX.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let scaled = scaled as usize;
            scaled.max(1)
        }
        _ => n,
    }
}

/// Where a hot note goes: its kind's section, or for a pin the first typed section
/// that takes it, else `recommended_notes`.
fn hot_section(profile: &Profile, kind: HotKind, n: &Note) -> &'static str {
    match kind {
        HotKind::Identity => "identity",
        HotKind::WorkingStyle => "working_style",
        HotKind::Overview | HotKind::Session(_) => "active_context",
        HotKind::Pinned => profile
            .sections
            .iter()
            .filter(|r| !r.fill && r.name != "identity")
            .find(|r| takes(profile, r, n))
            .and_then(|r| SECTION_NAMES.iter().find(|x| **x == r.name).copied())
            .unwrap_or("recommended_notes"),
    }
}

/// The path of an item `packet` shows with `item`'s title and summary, if any
/// (withheld items and items without a summary are never copies).
fn copy_of(packet: &Packet, item: &Item) -> Option<String> {
    if item.withheld || item.summary.is_empty() {
        return None;
    }
    packet
        .sections()
        .iter()
        .flat_map(|(_, items)| items.iter())
        .find(|i| i.title == item.title && i.summary == item.summary)
        .map(|i| i.path.clone())
}

/// Puts the item for `c` into `section` and records where it came from.
fn place(packet: &mut Packet, n: &Note, item: Item, section: &str) {
    packet.provenance.derived_from.push(Derived {
        path: item.path.clone(),
        memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
        source_of_truth: n.source_of_truth,
        section: section.to_owned(),
    });
    if let Some(list) = packet.section_mut(section) {
        list.push(item);
    }
}

fn exclude(p: &mut Packet, n: &Note, kind: &str, reason: impl FnOnce(&ShownNote<'_>) -> String) {
    if p.provenance.excluded.len() < EXCLUDED_LISTED {
        let shown = ShownNote::head(n);
        let reason = reason(&shown);
        p.provenance.excluded.push(Excluded {
            kind: kind.to_owned(),
            path: shown.path.into_string(),
            title: shown.title.into_string(),
            reason,
        });
    }
}

/// The section of `profile` a task-layer note `n` goes to, caps aside (its
/// position): the first that takes it and is not always shown; `None` when
/// none does.
fn section_taking(profile: &Profile, n: &Note) -> Option<usize> {
    profile
        .sections
        .iter()
        .position(|r| !r.always && takes(profile, r, n))
}

/// The name of the section of `profile` a task-layer note `n` that passes the
/// gate goes to, caps aside; `None` when no section takes it (as the assembly
/// decides: for an explanation of a note it left out).
#[must_use]
pub fn section_for<'p>(profile: &'p Profile, n: &Note) -> Option<&'p str> {
    section_taking(profile, n).map(|i| profile.sections[i].name.as_str())
}

/// Whether section `r` takes note `n`.
fn takes(profile: &Profile, r: &SectionRule, n: &Note) -> bool {
    let excluded_type = n
        .memory_type
        .is_some_and(|t| profile.exclude_types.contains(&t));
    if r.fill {
        return !excluded_type;
    }
    let type_ok = r.types.is_empty() || section_type(n).is_some_and(|t| r.types.contains(&t));
    let tag_ok = r.tags.is_empty() || n.tags.iter().any(|t| r.tags.contains(t));
    let scope_ok = r.scopes.is_empty()
        || n.scope
            .as_deref()
            .is_some_and(|s| r.scopes.iter().any(|x| x.eq_ignore_ascii_case(s)));
    // A tag-only rule must not swallow excluded types.
    type_ok && tag_ok && scope_ok && !(r.types.is_empty() && excluded_type)
}

/// Folders whose notes are decisions, and whose are incidents, when a note says
/// no memory type (a repository's `docs/adr/`, a vault's `Incidents/`).
const DECISION_FOLDERS: &[&str] = &[
    "adr",
    "adrs",
    "decisions",
    "decision-records",
    "decision_records",
    "architecture-decisions",
    "architecture-decision-records",
];
const INCIDENT_FOLDERS: &[&str] = &[
    "incidents",
    "postmortems",
    "post-mortems",
    "postmortem",
    "incident-reports",
];

/// The type a note is placed by: its memory type, else for a note (not a
/// folder's `README.md` or `index.md`, an index) under a folder of decision
/// records or of incidents, that kind. Only placement: ranking, scope and the
/// item's `memory_type` keep what the note says.
pub(crate) fn section_type(n: &Note) -> Option<cairn_note::MemoryType> {
    n.memory_type.or_else(|| {
        if n.entry_of.is_some() || cairn_note::is_index_file(&n.path) {
            return None;
        }
        // The folder the note is in, not any on its path (a repository named
        // `incidents` holds more than incidents).
        let parent = n.path.rsplit_once('/')?.0;
        let parent = parent.rsplit('/').next().unwrap_or(parent);
        let is = |names: &[&str]| names.iter().any(|f| f.eq_ignore_ascii_case(parent));
        if is(DECISION_FOLDERS) {
            Some(cairn_note::MemoryType::Decision)
        } else if is(INCIDENT_FOLDERS) {
            Some(cairn_note::MemoryType::Incident)
        } else {
            None
        }
    })
}

fn make_item(n: &Note, s: &Scored, c: &Candidate<'_>, req: &Request<'_>) -> Item {
    let withheld = c.withheld;
    // A withheld note shows its name only: its body is not even redacted.
    let shown = if withheld {
        ShownNote::head(n)
    } else {
        ShownNote::of(n)
    };
    let no_terms = BTreeSet::new();
    let (summary, reasons) = match c.layer {
        _ if withheld => (
            req.withheld_notice.to_owned(),
            vec!["strongly relevant to the task".to_owned()],
        ),
        // Task-independent: the same words whatever the task.
        Layer::Hot(HotKind::WorkingStyle) => (
            rules::summarize_rules(&shown).into_string(),
            vec![HotKind::WorkingStyle.reason()],
        ),
        // Continuity: what was done, and what comes next.
        Layer::Hot(kind @ HotKind::Session(_)) => (
            session::summarize_session(&shown).into_string(),
            vec![kind.reason()],
        ),
        Layer::Hot(kind) => (
            summarize(&shown, &no_terms).into_string(),
            vec![kind.reason()],
        ),
        Layer::Hub(links) => (
            summarize(&shown, &no_terms).into_string(),
            vec![format!("linked from {links} notes")],
        ),
        Layer::Recent => (
            summarize(&shown, &no_terms).into_string(),
            vec![match (n.updated.or(n.created), n.committed) {
                (Some(d), _) => format!("recently edited ({d})"),
                (None, Some(d)) => format!("recently edited (last commit {d})"),
                (None, None) => "recently edited".to_owned(),
            }],
        ),
        Layer::Task => (
            summarize(&shown, req.query_terms).into_string(),
            s.reasons(),
        ),
    };
    Item {
        id: shown.id.into_string(),
        title: shown.title.into_string(),
        summary,
        path: shown.path.into_string(),
        memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
        sensitivity: n.sensitivity.as_str().to_owned(),
        score: round3(s.score),
        reasons,
        pinned: n.pinned,
        date: n
            .updated
            .or(n.created)
            .or(n.committed)
            .map(|d| d.to_string()),
        withheld,
        layer: c.layer.as_str().to_owned(),
        supersedes: if withheld {
            Vec::new()
        } else {
            shown
                .supersedes
                .into_iter()
                .map(SafeText::into_string)
                .collect()
        },
        code_changed: Vec::new(),
        // A withheld note shows its name only: not even its status.
        status: if withheld {
            None
        } else {
            shown
                .status_word
                .as_ref()
                .and_then(|w| status_label(w.as_str()))
        },
    }
}

/// Status words that say a note is in force: no label.
const IN_FORCE: &[&str] = &[
    "active",
    "accepted",
    "approved",
    "adopted",
    "agreed",
    "decided",
    "done",
    "complete",
    "completed",
    "implemented",
    "current",
    "final",
    "stable",
    "published",
    "live",
    "in force",
    "in-force",
    "ok",
    "valid",
    "enacted",
    "ratified",
    "merged",
];

/// The label of a note's status word (already redacted): the word itself when
/// it says something other than in force, short (three words and 24
/// characters at most: a status, not a sentence). A status whose first word
/// says in force (`Accepted (2024-05-01)`) or names a sensitivity (`status:
/// confidential` raises the note's level; it is no status) has none.
fn status_label(word: &str) -> Option<String> {
    let w = one_line(word.trim()).to_lowercase();
    let short = !w.is_empty() && w.chars().count() <= 24 && w.split_whitespace().count() <= 3;
    let first = w
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .find(|p| !p.is_empty())
        .unwrap_or_default();
    let in_force = IN_FORCE.contains(&w.as_str()) || IN_FORCE.contains(&first);
    let level = cairn_note::Sensitivity::parse(first).is_some();
    (short && !in_force && !level).then_some(w)
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn max_sensitivity(p: &Packet) -> String {
    p.sections()
        .iter()
        .flat_map(|(_, v)| v.iter())
        .filter_map(|i| Sensitivity::parse(&i.sensitivity))
        .max()
        .unwrap_or(Sensitivity::Public)
        .as_str()
        .to_owned()
}
