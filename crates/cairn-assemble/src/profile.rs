//! Profiles: packet shapes as data (`crates/cairn-assemble/profiles/*.toml`): where candidates come from,
//! which memory types feed which section, caps, relevance floors and token budgets.

use std::collections::BTreeMap;

use cairn_note::MemoryType;
use serde::Deserialize;

/// Which note roots a profile draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The routed project's note roots.
    Project,
    /// The developer-wide note roots.
    Developer,
}

/// How many notes an untyped note of the secondary scope links to at most and
/// still be a task candidate (see [`Profile::admits_secondary`]).
pub const HUB_LINKS: usize = 25;

/// A parsed profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// Name (`project`, `developer`, ...).
    pub name: String,
    /// One line for `--help` and docs.
    pub description: String,
    /// Where most candidates come from.
    pub primary: Origin,
    /// The other scope, restricted to `secondary_types`.
    pub secondary: Option<Origin>,
    /// Memory types taken from the secondary scope.
    pub secondary_types: Vec<MemoryType>,
    /// Memory types never shown (unless a section names them).
    pub exclude_types: Vec<MemoryType>,
    /// Relevance floor for notes without pins or file/trigger signals.
    pub min_relevance: f64,
    /// Relevance from which a confidential note may be mentioned (withheld).
    pub confidential_min_relevance: f64,
    /// The task layer's absolute gate: the share of the query's IDF mass a note
    /// must cover (unless `--files` point at it).
    pub min_coverage: f64,
    /// The hot layer: what every session of this profile starts with.
    pub hot: HotRules,
    /// Token budget per format.
    pub budget: BTreeMap<String, usize>,
    /// Sections in matching order.
    pub sections: Vec<SectionRule>,
}

/// How much the hot layer (the task-independent part of a packet) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HotRules {
    /// The developer's own profile notes.
    pub identity: usize,
    /// Pinned, high-priority and evergreen preferences and workflows.
    pub working_style: usize,
    /// Other pinned notes (constraints, references, ...).
    pub pins: usize,
    /// The routed project's latest session or handoff notes.
    pub sessions: usize,
    /// A session note is in the hot layer at session start when it is at most this
    /// many days old (on resume and compact, whatever its age).
    pub continuity_days: i64,
    /// With no task at all: recently edited notes shown after the hot layer.
    pub recent: usize,
}

impl Default for HotRules {
    fn default() -> Self {
        Self {
            identity: 2,
            working_style: 3,
            pins: 6,
            sessions: 1,
            continuity_days: 14,
            recent: 5,
        }
    }
}

/// One section rule.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionRule {
    /// Packet field name.
    pub name: String,
    /// Memory types it takes (empty: any).
    pub types: Vec<MemoryType>,
    /// Tags it takes (any one suffices; empty: no tag condition).
    pub tags: Vec<String>,
    /// Scopes it takes (empty: any).
    pub scopes: Vec<String>,
    /// Included without relevance.
    pub always: bool,
    /// Takes the best remaining notes of any non-excluded type.
    pub fill: bool,
    /// Maximum items.
    pub cap: usize,
}

/// The sections a wakeup.v1 packet has, besides `identity`.
pub const SECTION_NAMES: &[&str] = &[
    "identity",
    "working_style",
    "active_context",
    "priorities",
    "constraints",
    "decisions",
    "incidents",
    "recommended_notes",
];

/// A profile file that does not parse or names unknown things.
#[derive(Debug, thiserror::Error)]
#[error("profile {name}: {message}")]
pub struct ProfileError {
    /// Profile name or file.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    name: String,
    #[serde(default)]
    description: String,
    primary: Origin,
    secondary: Option<Origin>,
    #[serde(default)]
    secondary_types: Vec<String>,
    #[serde(default)]
    exclude_types: Vec<String>,
    #[serde(default = "default_min_relevance")]
    min_relevance: f64,
    #[serde(default = "default_confidential")]
    confidential_min_relevance: f64,
    #[serde(default = "default_min_coverage")]
    min_coverage: f64,
    #[serde(default)]
    hot: HotRules,
    #[serde(default)]
    budget: BTreeMap<String, usize>,
    sections: Vec<RawSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSection {
    name: String,
    #[serde(default)]
    types: Vec<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    scopes: Vec<String>,
    #[serde(default)]
    always: bool,
    #[serde(default)]
    fill: bool,
    cap: usize,
}

fn default_min_relevance() -> f64 {
    0.25
}

fn default_min_coverage() -> f64 {
    DEFAULT_MIN_COVERAGE
}

/// The default share of the query a task-layer note must cover.
pub const DEFAULT_MIN_COVERAGE: f64 = 0.35;

fn default_confidential() -> f64 {
    0.6
}

impl Profile {
    /// Whether a note of the secondary scope may be a task-layer candidate: one
    /// of `secondary_types`, or without a type (a vault without cairn's keys:
    /// its notes still need the task's words to pass the gate) unless it is a
    /// hub, linking to [`HUB_LINKS`] notes or more (a dashboard or a map of
    /// content holds most words of any task). A note without a type in a folder
    /// of decision records or incidents is of that kind here, as where it is
    /// placed (an untyped ADR of the project is no developer's preference). The
    /// no-task list takes the typed ones only.
    #[must_use]
    pub fn admits_secondary(&self, n: &cairn_note::Note) -> bool {
        match crate::section_type(n) {
            Some(t) => self.secondary_types.contains(&t),
            None => n.wikilinks.len() < HUB_LINKS,
        }
    }

    /// Parses a profile file's text; `origin` names it in errors.
    pub fn parse(origin: &str, text: &str) -> Result<Self, ProfileError> {
        let err = |message: String| ProfileError {
            name: origin.to_owned(),
            message,
        };
        let raw: RawProfile = toml::from_str(text).map_err(|e| err(e.message().to_owned()))?;
        let types = |list: &[String]| -> Result<Vec<MemoryType>, ProfileError> {
            list.iter()
                .map(|t| {
                    MemoryType::parse(t).ok_or_else(|| err(format!("unknown memory type `{t}`")))
                })
                .collect()
        };
        let mut sections = Vec::new();
        for s in raw.sections {
            if !SECTION_NAMES.contains(&s.name.as_str()) {
                return Err(err(format!(
                    "unknown section `{}` (sections: {})",
                    s.name,
                    SECTION_NAMES.join(", ")
                )));
            }
            sections.push(SectionRule {
                types: types(&s.types)?,
                tags: s.tags.iter().map(|t| t.to_lowercase()).collect(),
                scopes: s.scopes,
                always: s.always,
                fill: s.fill,
                cap: s.cap,
                name: s.name,
            });
        }
        Ok(Self {
            name: raw.name,
            description: raw.description,
            primary: raw.primary,
            secondary: raw.secondary.filter(|s| *s != raw.primary),
            secondary_types: types(&raw.secondary_types)?,
            exclude_types: types(&raw.exclude_types)?,
            min_relevance: raw.min_relevance,
            confidential_min_relevance: raw.confidential_min_relevance,
            min_coverage: raw.min_coverage,
            hot: raw.hot,
            budget: raw.budget,
            sections,
        })
    }

    /// The budget for `format`, if the profile sets one.
    pub fn budget_for(&self, format: &str) -> Option<usize> {
        self.budget.get(format).copied()
    }
}
