//! The wakeup.v1 packet: the authoritative, serialisable result of `cairn wakeup`.
//! Field names of the brief are kept exactly; additions (budget, excluded notes,
//! content hash) are new fields, never renamed ones.

use serde::{Deserialize, Serialize};

/// Schema version string.
pub const VERSION: &str = "wakeup.v1";

/// A wake-up packet.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Packet {
    /// Always [`VERSION`].
    pub version: String,
    /// ISO-8601 UTC.
    pub generated_at: String,
    /// The client it was shaped for.
    pub target: String,
    /// The profile used.
    pub profile: String,
    /// What was asked.
    pub query: QueryEcho,
    /// Who the developer is and what project this is.
    pub identity: Identity,
    /// How the developer likes to work.
    pub working_style: Vec<Item>,
    /// The project's current situation.
    pub active_context: Vec<Item>,
    /// What matters most right now.
    pub priorities: Vec<Item>,
    /// Hard boundaries.
    pub constraints: Vec<Item>,
    /// Decisions in force.
    pub decisions: Vec<Item>,
    /// Failures to learn from.
    pub incidents: Vec<Item>,
    /// Further notes worth opening.
    pub recommended_notes: Vec<Item>,
    /// Where everything came from.
    pub provenance: Provenance,
    /// What policy did.
    pub policy: PolicySummary,
    /// Token budget bookkeeping.
    pub budget: Budget,
    /// Hash of the packet's content (sections, identity, query), stable across runs
    /// and independent of `generated_at` and budget numbers.
    pub content_hash: String,
}

/// The request, echoed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryEcho {
    /// The task in words.
    pub task: String,
    /// The working directory.
    pub cwd: String,
    /// `--files`, repository-relative.
    pub files: Vec<String>,
    /// Selected modules.
    pub modules: Vec<String>,
    /// Active scenes.
    pub scenes: Vec<String>,
    /// Where the task and files came from when the request had none: `derived
    /// from git: branch …, N changed files, M commits`, or why none was derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<String>,
    /// Whether the task and files above went unused: derived from git, they
    /// matched no note, and the notes are those of a session without a task
    /// (only written when true).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub task_unused: bool,
}

/// The `identity` object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Identity {
    /// The routed project, if any.
    pub project: Option<ProjectInfo>,
    /// Identity notes (the developer).
    pub notes: Vec<Item>,
}

/// What the configuration says about the routed project.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProjectInfo {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Repository roots.
    pub repo_paths: Vec<String>,
    /// Module ids.
    pub modules: Vec<String>,
}

/// One note in a section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Note id (vault-relative path without extension).
    pub id: String,
    /// Title.
    pub title: String,
    /// The description or the most relevant sentences; a neutral line when withheld.
    pub summary: String,
    /// Vault-relative source path.
    pub path: String,
    /// Memory type, when known.
    pub memory_type: Option<String>,
    /// Sensitivity.
    pub sensitivity: String,
    /// Final score (3 decimals).
    pub score: f64,
    /// Why it was chosen.
    pub reasons: Vec<String>,
    /// Pinned.
    pub pinned: bool,
    /// `updated`, else `created`, else (a note that says no date, in a vault
    /// kept in git) the day of its file's last commit.
    pub date: Option<String>,
    /// Confidential: content withheld.
    pub withheld: bool,
    /// `hot` (task-independent, rendered first) or `task` (ranked for the task).
    #[serde(default = "task_layer")]
    pub layer: String,
    /// Notes this one supersedes.
    #[serde(default)]
    pub supersedes: Vec<String>,
    /// Its `related_files` that changed in commits after its date (`updated`, else
    /// `created`), from the routed project's git history.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub code_changed: Vec<CodeChange>,
    /// Its status when it states one other than in force (`rejected`,
    /// `proposed`, `draft`, `open`): a decision an agent must not take as made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// A related file (or folder) of a note that changed after the note's date.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeChange {
    /// The file or folder, as the note names it.
    pub path: String,
    /// Commits that touched it after `since`.
    pub commits: usize,
    /// The note's date the commits are counted from.
    pub since: String,
    /// Whether `commits` is a lower bound: the note is older than the oldest
    /// commit of the (capped) history read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_least: bool,
}

impl CodeChange {
    /// How many commits, as a phrase: `1 commit`, `3 commits`, `at least 3 commits`.
    #[must_use]
    pub fn count_phrase(&self) -> String {
        format!(
            "{}{} commit{}",
            if self.at_least { "at least " } else { "" },
            self.commits,
            if self.commits == 1 { "" } else { "s" }
        )
    }

    /// The reason a packet item gives: `src/x.rs changed in 3 commits since 2026-01-22`.
    #[must_use]
    pub fn reason(&self) -> String {
        format!(
            "{} changed in {} since {}",
            self.path,
            self.count_phrase(),
            self.since
        )
    }
}

fn task_layer() -> String {
    "task".to_owned()
}

/// The `provenance` object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// How the project was chosen.
    pub route: RouteInfo,
    /// Every note the packet shows.
    pub derived_from: Vec<Derived>,
    /// How the selection worked, in sentences.
    pub selection_basis: Vec<String>,
    /// Relevant notes kept out on purpose (superseded, archived, excluded types).
    pub excluded: Vec<Excluded>,
    /// Notes of other configured projects that were ignored.
    pub other_project_notes_ignored: usize,
    /// Scan diagnostics (see `cairn explain`).
    pub scan_diagnostics: usize,
    /// True when the packet was cut short (deadline, missing index).
    pub partial: bool,
    /// Why it is partial, when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_reason: Option<String>,
}

/// The routing decision.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RouteInfo {
    /// `explicit`, `repo_path`, `worktree`, `no_match`, `unscoped`.
    pub method: String,
    /// The project id.
    pub project_id: Option<String>,
    /// Sentences.
    pub reasons: Vec<String>,
}

/// A source of the packet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    /// Vault-relative path.
    pub path: String,
    /// Memory type.
    pub memory_type: Option<String>,
    /// Source of truth.
    pub source_of_truth: bool,
    /// The section it went to.
    pub section: String,
}

/// A relevant note kept out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Excluded {
    /// `retired` (superseded or archived), `excluded_type` (the profile leaves the
    /// type out) or `duplicate` (the same title and summary as an item shown).
    pub kind: String,
    /// Vault-relative path.
    pub path: String,
    /// Title.
    pub title: String,
    /// Why.
    pub reason: String,
}

/// The `policy` object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PolicySummary {
    /// The highest sensitivity among shown items.
    pub max_sensitivity_included: String,
    /// Credentials redacted in the packet's text.
    pub redactions_applied: usize,
    /// Redactions per credential kind.
    pub redactions_by_kind: std::collections::BTreeMap<String, usize>,
    /// Notes left out for their sensitivity (secret, or confidential and not strongly relevant).
    pub suppressed_note_count: usize,
    /// Confidential notes mentioned with their content withheld.
    pub withheld_note_count: usize,
    /// The policy in force.
    pub policy_mode: String,
}

/// Token budget bookkeeping.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// The rendered format the budget applies to.
    pub format: String,
    /// The limit, in tokens.
    pub limit_tokens: usize,
    /// Tokens of the rendered output (conservative estimate).
    pub used_tokens: usize,
    /// How tokens are counted.
    pub tokenizer: String,
    /// Relevant notes left out (section caps and the budget).
    pub left_out_count: usize,
    /// The first of them, best first.
    pub left_out: Vec<LeftOut>,
}

/// A relevant note that did not fit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeftOut {
    /// Vault-relative path.
    pub path: String,
    /// Title.
    pub title: String,
    /// Section it would have gone to.
    pub section: String,
    /// `section cap` or `token budget`.
    pub reason: String,
    /// Its score.
    pub score: f64,
    /// The layer it would have gone to: `task` (it matched the task) or `hot`.
    #[serde(default = "task_layer")]
    pub layer: String,
}

impl Packet {
    /// The section lists in packet order, with their names (identity notes first).
    pub fn sections(&self) -> [(&'static str, &Vec<Item>); 8] {
        [
            ("identity", &self.identity.notes),
            ("working_style", &self.working_style),
            ("active_context", &self.active_context),
            ("priorities", &self.priorities),
            ("constraints", &self.constraints),
            ("decisions", &self.decisions),
            ("incidents", &self.incidents),
            ("recommended_notes", &self.recommended_notes),
        ]
    }

    /// Mutable section lists, in packet order.
    pub fn sections_mut(&mut self) -> [(&'static str, &mut Vec<Item>); 8] {
        [
            ("identity", &mut self.identity.notes),
            ("working_style", &mut self.working_style),
            ("active_context", &mut self.active_context),
            ("priorities", &mut self.priorities),
            ("constraints", &mut self.constraints),
            ("decisions", &mut self.decisions),
            ("incidents", &mut self.incidents),
            ("recommended_notes", &mut self.recommended_notes),
        ]
    }

    /// The section list called `name`.
    pub fn section_mut(&mut self, name: &str) -> Option<&mut Vec<Item>> {
        self.sections_mut()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// Number of items shown.
    pub fn item_count(&self) -> usize {
        self.sections().iter().map(|(_, v)| v.len()).sum()
    }

    /// Redacts every string [`Packet::visit_text_mut`] visits, in place (the
    /// second line of defence: note text was redacted before it was shaped), and
    /// counts the markers in the result, so a credential redacted early is
    /// counted once.
    pub fn redact_texts(&mut self) -> cairn_policy::PolicyCounts {
        let mut counts = cairn_policy::PolicyCounts::default();
        self.visit_text_mut(&mut |s: &mut String| {
            let r = cairn_policy::redact(s);
            if r.count > 0 {
                *s = r.text.into_owned();
            }
            counts.add_markers(s);
        });
        counts
    }

    /// Calls `f` on every string that came from a note or the request, so a policy
    /// can redact them all in one pass.
    pub fn visit_text_mut(&mut self, f: &mut dyn FnMut(&mut String)) {
        f(&mut self.query.task);
        self.query.files.iter_mut().for_each(&mut *f);
        if let Some(d) = &mut self.query.derived {
            f(d);
        }
        for (_, items) in self.sections_mut() {
            for it in items.iter_mut() {
                f(&mut it.title);
                f(&mut it.summary);
                f(&mut it.path);
                f(&mut it.id);
                it.reasons.iter_mut().for_each(&mut *f);
                it.supersedes.iter_mut().for_each(&mut *f);
                it.code_changed.iter_mut().for_each(|c| f(&mut c.path));
            }
        }
        for d in &mut self.provenance.derived_from {
            f(&mut d.path);
        }
        for e in &mut self.provenance.excluded {
            f(&mut e.path);
            f(&mut e.title);
            f(&mut e.reason);
        }
        for l in &mut self.budget.left_out {
            f(&mut l.path);
            f(&mut l.title);
        }
    }

    /// Every item with its section and index, in packet order.
    fn placed_items(&self) -> impl Iterator<Item = (&'static str, usize, &Item)> {
        self.sections()
            .into_iter()
            .flat_map(|(name, items)| items.iter().enumerate().map(move |(i, it)| (name, i, it)))
    }

    /// The item [`Packet::drop_lowest`] drops next, with its section and index.
    pub fn lowest(&self) -> Option<(&'static str, usize, &Item)> {
        self.placed_items()
            .min_by(|(an, _, a), (bn, _, b)| drop_key_order(an, a, bn, b))
    }

    /// Every item in the order [`Packet::drop_lowest`] drops them, with its
    /// section and index (in the packet as it is): the first is [`Packet::lowest`].
    pub fn drop_order(&self) -> Vec<(&'static str, usize, &Item)> {
        let mut all: Vec<_> = self.placed_items().collect();
        // Stable: of equal keys, `lowest` takes the first in packet order.
        all.sort_by(|(an, _, a), (bn, _, b)| drop_key_order(an, a, bn, b));
        all
    }

    /// [`Packet::drop_lowest`] `k` times, in one pass; the number dropped (fewer
    /// than `k` when the packet runs out).
    pub fn drop_lowest_n(&mut self, k: usize) -> usize {
        let gone: Vec<(&'static str, usize)> = self
            .drop_order()
            .into_iter()
            .take(k)
            .map(|(name, i, _)| (name, i))
            .collect();
        if gone.is_empty() {
            return 0;
        }
        // Out of the sections first (every index refers to the packet as it
        // was), then listed as each drop lists it: the latest first.
        let mut taken: Vec<Option<(&'static str, Item)>> = vec![None; gone.len()];
        for (name, items) in self.sections_mut() {
            let mut at_gone: Vec<(usize, usize)> = gone
                .iter()
                .enumerate()
                .filter(|(_, (n, _))| *n == name)
                .map(|(order, (_, i))| (*i, order))
                .collect();
            if at_gone.is_empty() {
                continue;
            }
            // Highest index first, so the lower ones stay put.
            at_gone.sort_unstable_by(|a, b| b.cmp(a));
            for (i, order) in at_gone {
                taken[order] = Some((name, items.remove(i)));
            }
        }
        let dropped = taken.len();
        let mut listed: Vec<LeftOut> = Vec::with_capacity(dropped + self.budget.left_out.len());
        for (name, it) in taken.into_iter().rev().flatten() {
            listed.push(self.dropped(name, it));
        }
        listed.append(&mut self.budget.left_out);
        listed.truncate(crate::LEFT_OUT_LISTED);
        self.budget.left_out = listed;
        self.budget.left_out_count += dropped;
        dropped
    }

    /// Drops the least valuable item to save tokens: task-layer items before hot
    /// ones, never identity while anything else remains, pinned notes last, else the
    /// lowest score (ties: last in path order). Returns false when nothing is left to drop.
    pub fn drop_lowest(&mut self) -> bool {
        let Some((name, i, _)) = self.lowest() else {
            return false;
        };
        let Some(items) = self.section_mut(name) else {
            return false;
        };
        let it = items.remove(i);
        self.budget.left_out_count += 1;
        let left = self.dropped(name, it);
        self.budget.left_out.insert(0, left);
        self.budget.left_out.truncate(crate::LEFT_OUT_LISTED);
        true
    }

    /// `it`, just taken out of section `name` to save tokens: no longer a source
    /// of the packet, and listed as left out for the budget.
    fn dropped(&mut self, name: &str, it: Item) -> LeftOut {
        self.provenance.derived_from.retain(|d| d.path != it.path);
        LeftOut {
            path: it.path,
            title: it.title,
            section: name.to_owned(),
            reason: "token budget".into(),
            score: it.score,
            layer: it.layer,
        }
    }

    /// Recomputes `content_hash` from the query, identity and sections.
    ///
    /// Serialised straight to JSON bytes in field order: every map inside is a
    /// `BTreeMap`, so the bytes are deterministic without first building a
    /// `serde_json::Value` (which sorted every object's keys, and cost more than
    /// the hashing: fitting recomputes the hash after its drops).
    pub fn update_content_hash(&mut self) {
        #[derive(Serialize)]
        struct Content<'a> {
            query: &'a QueryEcho,
            identity: &'a Identity,
            sections: [(&'static str, &'a Vec<Item>); 7],
            profile: &'a str,
            target: &'a str,
        }
        let [_, rest @ ..] = self.sections();
        let content = Content {
            query: &self.query,
            identity: &self.identity,
            sections: rest,
            profile: &self.profile,
            target: &self.target,
        };
        let bytes = serde_json::to_vec(&content).unwrap_or_default();
        self.content_hash = cairn_note::ContentHash::of(&bytes).short_hex();
    }
}

/// The order items are dropped in to save tokens (lower first): the task layer
/// before the hot layer, the rest before identity, unpinned before pinned, then
/// by score, then the later path first.
fn drop_key_order(an: &str, a: &Item, bn: &str, b: &Item) -> std::cmp::Ordering {
    (a.layer == "hot", an == "identity", a.pinned)
        .cmp(&(b.layer == "hot", bn == "identity", b.pinned))
        .then(a.score.total_cmp(&b.score))
        .then_with(|| b.path.cmp(&a.path))
}
