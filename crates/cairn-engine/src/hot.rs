//! The hot layer: what a session starts with whatever the task. The developer's
//! profile, their working style, the routed project's overview, its latest session
//! or handoff note, and pins, chosen from note metadata alone (no text search), so
//! the same notes, in the same order, open every packet of one project. With no
//! task at all, the recently edited notes that follow it.
//!
//! Only facts about notes decide here: type, scope, folder, pin, priority,
//! freshness, dates, and for a note without a type what its tags, `type`
//! property or file name say it is. Policy still applies (a secret or
//! confidential note is never hot), and nothing retired or belonging to another
//! project is.

use std::collections::{HashMap, HashSet};

use cairn_assemble::{HotKind, HotRules};
use cairn_note::{Freshness, MemoryType, Note, Priority};
use chrono::NaiveDate;

/// Where a session start comes from, as clients report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SessionSource {
    /// A new session.
    #[default]
    Startup,
    /// A resumed session (`--resume`, `--continue`).
    Resume,
    /// The context was compacted.
    Compact,
    /// The user cleared the context (`/clear`).
    Clear,
}

impl SessionSource {
    /// Parses a client's word (`startup`, `resume`, `compact`, `clear`).
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "startup" | "start" | "new" => Some(Self::Startup),
            "resume" | "continue" => Some(Self::Resume),
            "compact" => Some(Self::Compact),
            "clear" => Some(Self::Clear),
            _ => None,
        }
    }

    /// Its word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Startup => "startup",
            Self::Resume => "resume",
            Self::Compact => "compact",
            Self::Clear => "clear",
        }
    }

    /// Whether the session carries on earlier work (the latest session note is
    /// shown whatever its age; so does a task that asks to carry on).
    pub fn continues(self) -> bool {
        matches!(self, Self::Resume | Self::Compact)
    }
}

/// Scopes that mark a note as the developer's own profile.
const SELF_SCOPES: &[&str] = &["user", "self", "me"];

/// Folder names that hold session and handoff notes.
const SESSION_FOLDERS: &[&str] = &["sessions", "session", "handoffs", "handoff"];

/// Files that every repository has and no developer wrote as memory.
const BOILERPLATE: &[&str] = &[
    "contributing",
    "license",
    "licence",
    "copying",
    "code_of_conduct",
    "code-of-conduct",
    "security",
    "pull_request_template",
    "issue_template",
    "changelog",
    "authors",
    "codeowners",
];

/// What the hot layer is chosen from.
pub(crate) struct HotInput<'a, 'e> {
    /// Notes under the developer roots (path order).
    pub developer: &'a [&'e Note],
    /// Notes under the routed project's roots (path order; empty without a project).
    pub project: &'a [&'e Note],
    /// The developer roots that hold the developer's profile.
    pub identity_roots: &'a [String],
    /// The routed project's roots.
    pub project_roots: &'a [String],
    /// The routed project.
    pub project_id: Option<&'a str>,
    /// The names a hub of the routed project has, lowercased (its id, its name,
    /// its folders' names: `owners::project_names`).
    pub project_names: &'a [String],
    /// Every configured project (a note of another one is never hot).
    pub project_ids: &'a [String],
    /// "Today".
    pub today: NaiveDate,
    /// Startup, resume, compact or clear.
    pub source: SessionSource,
    /// The profile's hot rules.
    pub rules: HotRules,
    /// Whether a note may be shown in full (policy).
    pub visible: &'a dyn Fn(&Note) -> bool,
}

/// The hot layer, in packet order (identity, working style, overview, session,
/// pins), and the pinned notes its cap left out (the packet lists them).
pub(crate) fn hot_layer<'e>(input: &HotInput<'_, 'e>) -> (Vec<(&'e Note, HotKind)>, Vec<&'e Note>) {
    let usable = |n: &Note| usable(n, input.project_id, input.project_ids, input.visible);
    let mut out: Vec<(&'e Note, HotKind)> = Vec::new();
    let mut taken: HashSet<&str> = HashSet::new();
    let take = |out: &mut Vec<(&'e Note, HotKind)>,
                taken: &mut HashSet<&'e str>,
                n: &'e Note,
                kind: HotKind| {
        if taken.insert(n.path.as_str()) {
            out.push((n, kind));
        }
    };

    // Identity: the developer's own profile.
    let mut identity: Vec<&'e Note> = input
        .developer
        .iter()
        .copied()
        .filter(|n| is_identity(n, input.identity_roots) && usable(n))
        .collect();
    identity.sort_by(|a, b| {
        (!a.pinned, priority_rank(a), &a.path).cmp(&(!b.pinned, priority_rank(b), &b.path))
    });
    for n in identity.into_iter().take(input.rules.identity) {
        take(&mut out, &mut taken, n, HotKind::Identity);
    }

    // Working style: pinned, high-priority and evergreen preferences and
    // workflows, then the developer's own preferences however plainly
    // written, and untyped notes that say they are preferences (a tag, a
    // name). Another tool's `feedback` notes are lessons as often
    // (`learnings/`): they count in an identity root, or named or tagged so.
    let mut style: Vec<&'e Note> = input
        .developer
        .iter()
        .copied()
        .filter(|n| {
            is_marked_style(n)
                || (is_preference(n)
                    && (!is_feedback(n)
                        || in_roots(n, input.identity_roots)
                        || declares(n, &UNTYPED_PREFERENCES)))
                || says(n, &UNTYPED_PREFERENCES)
        })
        .chain(input.project.iter().copied().filter(|n| is_marked_style(n)))
        .filter(|n| usable(n))
        .collect();
    style.sort_by(|a, b| {
        style_key(a)
            .cmp(&style_key(b))
            .then_with(|| date_of(b).cmp(&date_of(a)))
            .then_with(|| a.path.cmp(&b.path))
    });
    style.dedup_by(|a, b| a.path == b.path);
    for n in style.into_iter().take(input.rules.working_style) {
        take(&mut out, &mut taken, n, HotKind::WorkingStyle);
    }

    // The project's overview: a `project` note, else the root README or index.
    if input.project_id.is_some() {
        let mut overviews: Vec<&'e Note> = input
            .project
            .iter()
            .copied()
            .filter(|n| n.memory_type == Some(MemoryType::Project) && usable(n))
            .collect();
        overviews.sort_by(|a, b| {
            (!a.pinned, priority_rank(a))
                .cmp(&(!b.pinned, priority_rank(b)))
                .then_with(|| date_of(b).cmp(&date_of(a)))
                .then_with(|| a.path.cmp(&b.path))
        });
        // Then an untyped note that says it is the overview (`type: project`,
        // an `#overview` tag, `Ledger overview.md`), then the root's index.
        let overview = overviews
            .first()
            .copied()
            .or_else(|| {
                input
                    .project
                    .iter()
                    .copied()
                    .filter(|n| says(n, &UNTYPED_OVERVIEW) || named_after(n, input.project_names))
                    // A hub named after the project among the developer's notes.
                    .chain(
                        input
                            .developer
                            .iter()
                            .copied()
                            .filter(|n| named_after(n, input.project_names)),
                    )
                    .filter(|n| usable(n))
                    .min_by(|a, b| {
                        date_of(b)
                            .cmp(&date_of(a))
                            .then_with(|| a.path.cmp(&b.path))
                    })
            })
            .or_else(|| {
                input
                    .project
                    .iter()
                    .copied()
                    .filter(|n| is_root_index(n, input.project_roots) && usable(n))
                    .min_by(|a, b| a.path.cmp(&b.path))
            });
        if let Some(n) = overview {
            take(&mut out, &mut taken, n, HotKind::Overview);
        }

        // Continuity: the latest session or handoff notes.
        let mut sessions: Vec<(NaiveDate, &'e Note)> = input
            .project
            .iter()
            .copied()
            .filter(|n| is_session(n) && usable(n))
            .filter_map(|n| session_date(n).map(|d| (d, n)))
            .collect();
        sessions.sort_by(|(da, a), (db, b)| db.cmp(da).then_with(|| a.path.cmp(&b.path)));
        for (date, n) in sessions.into_iter().take(input.rules.sessions) {
            let age = (input.today - date).num_days();
            if input.source.continues() || age <= input.rules.continuity_days {
                take(&mut out, &mut taken, n, HotKind::Session(date));
            }
        }
    }

    // Pins, developer-wide and the project's (sessions have their own rule).
    let mut pins: Vec<&'e Note> = input
        .developer
        .iter()
        .chain(input.project.iter())
        .copied()
        .filter(|n| n.pinned && !is_session(n) && !taken.contains(n.path.as_str()) && usable(n))
        .collect();
    pins.sort_by(|a, b| {
        priority_rank(a)
            .cmp(&priority_rank(b))
            .then_with(|| a.path.cmp(&b.path))
    });
    pins.dedup_by(|a, b| a.path == b.path);
    let over = pins.split_off(input.rules.pins.min(pins.len()));
    for n in pins {
        take(&mut out, &mut taken, n, HotKind::Pinned);
    }
    (out, over)
}

/// What [`recent`] chooses with.
#[derive(Clone, Copy)]
pub(crate) struct RecentInput<'a> {
    /// The hot layer's paths (not chosen again).
    pub hot: &'a HashSet<&'a str>,
    /// The profile's roots (boilerplate at their top is skipped).
    pub roots: &'a [String],
    /// Every configured project's id.
    pub project_ids: &'a [String],
    /// The routed project.
    pub project_id: Option<&'a str>,
    /// Whether a note may be shown in full.
    pub visible: &'a dyn Fn(&Note) -> bool,
    /// Path → how many notes link to it.
    pub hubs: &'a HashMap<&'a str, u32>,
    /// Whether a note is a log's intro ([`crate::Engine::is_log_intro`]).
    pub is_log_intro: &'a dyn Fn(&Note) -> bool,
    /// Whether a note is of the profile's own scope (the project's, in a project
    /// session); the others (the developer's) take at most a third of the list
    /// while the own ones last.
    pub own: &'a dyn Fn(&Note) -> bool,
    /// Most notes chosen.
    pub limit: usize,
}

/// With no task at all, up to `limit` notes of `notes` that are not hot, not
/// sessions, not retired, not another project's and not repository boilerplate at
/// a root: first the hubs (the notes most linked to, `hubs`: path → how many
/// notes link to it), a third of `limit` at most, then the most recently edited
/// (`updated`, else `created`, else the file time's day, newest first; within a
/// day by `created`, newest first, then by path). A hub comes with its link count.
/// Notes not of the profile's own scope (`own`: the developer's lessons in a
/// project session) take at most a third of the list, unless the own ones are too
/// few to fill it: a session without a task is about the project first.
pub(crate) fn recent<'e>(
    notes: impl Iterator<Item = &'e Note>,
    input: &RecentInput<'_>,
) -> Vec<(&'e Note, Option<u32>)> {
    let RecentInput {
        hot,
        roots,
        project_ids,
        project_id,
        visible,
        hubs,
        is_log_intro,
        own,
        limit,
    } = *input;
    let candidates: Vec<&'e Note> = notes
        .filter(|n| {
            !hot.contains(n.path.as_str())
                && !is_session(n)
                && !is_boilerplate(n, roots)
                && !is_log_intro(n)
                && usable(n, project_id, project_ids, visible)
        })
        .collect();
    let mut linked: Vec<(u32, &'e Note)> = candidates
        .iter()
        .filter_map(|n| hubs.get(n.path.as_str()).map(|&k| (k, *n)))
        .collect();
    linked.sort_by(|(ka, a), (kb, b)| kb.cmp(ka).then_with(|| a.path.cmp(&b.path)));
    let hub_slots = if limit >= 2 { limit.div_ceil(3) } else { 0 };
    let mut out: Vec<(&'e Note, Option<u32>)> = linked
        .into_iter()
        .take(hub_slots)
        .map(|(k, n)| (n, Some(k)))
        .collect();
    let taken: HashSet<&str> = out.iter().map(|(n, _)| n.path.as_str()).collect();
    // The day a note was last edited is the day recency measures from
    // (`updated`, else `created`, else the file time's UTC day): front matter
    // first, since a fresh checkout's files all carry the day (and the second)
    // their clone wrote them, and a day, not a second, so that notes dated only
    // by their files keep one order from clone to clone (and a packet stays the
    // same within a day, as a hook's pinned time does).
    let mut edited_list: Vec<(NaiveDate, &'e Note)> = candidates
        .into_iter()
        .filter(|n| !taken.contains(n.path.as_str()))
        .filter_map(|n| n.effective_date().map(|d| (d, n)))
        .collect();
    // Newest day first; within a day the newer front-matter date (`created`),
    // then the path.
    edited_list.sort_by(|(da, a), (db, b)| {
        db.cmp(da)
            .then_with(|| b.created.cmp(&a.created))
            .then_with(|| a.path.cmp(&b.path))
    });
    out.extend(edited_list.into_iter().map(|(_, n)| (n, None)));
    own_first(out, own, limit)
}

/// The first `limit` of `ranked`, in its order, where notes not `own` take at
/// most a third of the places (rounded down: none of one place) while `own` ones
/// remain to take the others; if too few are own, the others fill what is left,
/// in order.
fn own_first<'e>(
    ranked: Vec<(&'e Note, Option<u32>)>,
    own: &dyn Fn(&Note) -> bool,
    limit: usize,
) -> Vec<(&'e Note, Option<u32>)> {
    let owned = ranked.iter().filter(|(n, _)| own(n)).count();
    let others_cap = (limit / 3).max(limit.saturating_sub(owned));
    let mut others = 0;
    let mut keep = vec![false; ranked.len()];
    let mut kept = 0;
    for (i, (n, _)) in ranked.iter().enumerate() {
        if kept == limit {
            break;
        }
        if own(n) {
            keep[i] = true;
            kept += 1;
        } else if others < others_cap {
            keep[i] = true;
            kept += 1;
            others += 1;
        }
    }
    ranked
        .into_iter()
        .zip(keep)
        .filter_map(|(pick, k)| k.then_some(pick))
        .collect()
}

/// Whether a note may be in either layer at all: not retired, fully visible, and
/// not another configured project's.
fn usable(
    n: &Note,
    project_id: Option<&str>,
    project_ids: &[String],
    visible: &dyn Fn(&Note) -> bool,
) -> bool {
    !cairn_score::is_retired(n)
        && visible(n)
        && n.project_id
            .as_deref()
            .is_none_or(|p| Some(p) == project_id || !project_ids.iter().any(|id| id == p))
}

/// The developer roots that hold the developer's profile: those whose folder name
/// contains "identity".
pub(crate) fn default_identity_roots(developer_roots: &[String]) -> Vec<String> {
    developer_roots
        .iter()
        .filter(|r| {
            r.trim_matches('/')
                .rsplit('/')
                .next()
                .is_some_and(|name| name.to_ascii_lowercase().contains("identity"))
        })
        .cloned()
        .collect()
}

/// A note about the developer: `scope: user` (or self, me), or a `person` note
/// under an identity root (any `person` note when there is no identity root),
/// or an untyped note under an identity root that says it is the developer's
/// profile as an Obsidian vault does (see [`says`]: `type: person`, a `#me` or
/// `#person` tag, a file named `About me`).
fn is_identity(n: &Note, identity_roots: &[String]) -> bool {
    let self_scope = n
        .scope
        .as_deref()
        .is_some_and(|s| SELF_SCOPES.iter().any(|x| x.eq_ignore_ascii_case(s)));
    let person = n.memory_type == Some(MemoryType::Person);
    let in_identity_root = in_roots(n, identity_roots);
    (self_scope && (person || n.memory_type.is_none()))
        || (person && (identity_roots.is_empty() || in_identity_root))
        || (in_identity_root && says(n, &UNTYPED_PROFILE) && !says(n, &UNTYPED_PREFERENCES))
        || (identity_roots.is_empty() && says(n, &UNTYPED_SELF))
}

/// How an untyped note says what it is, the way a vault without cairn's keys
/// does: a `type` property (which cairn reads as a memory type only for kinds
/// of knowledge), a tag, or its file name.
struct Untyped {
    types: &'static [&'static str],
    tags: &'static [&'static str],
    names: &'static [&'static str],
    /// Whether a file name ending with one of `names` counts (`Ledger
    /// overview`; not `Group Policy Preferences`, a page about Windows).
    name_ends: bool,
}

/// The developer's own profile note.
const UNTYPED_PROFILE: Untyped = Untyped {
    types: &["person", "me", "profile"],
    tags: &["person", "me", "about-me", "aboutme", "profile", "whoami"],
    names: &[
        "me", "about me", "about-me", "about_me", "aboutme", "profile", "whoami",
    ],
    name_ends: false,
};

/// The developer's profile where no folder is the identity's: only what names
/// the developer alone (`About me.md`, `#whoami`, `type: me`), not `#me`, which
/// a vault may give every note of the developer's own area, nor `#person`, which
/// a colleague's note has too.
const UNTYPED_SELF: Untyped = Untyped {
    types: &["me"],
    tags: &["about-me", "aboutme", "whoami"],
    names: &[
        "me",
        "about me",
        "about-me",
        "about_me",
        "aboutme",
        "whoami",
        "my profile",
    ],
    name_ends: false,
};

/// The developer's preferences: how they like to work.
const UNTYPED_PREFERENCES: Untyped = Untyped {
    types: &["preference", "preferences"],
    tags: &[
        "preference",
        "preferences",
        "working-style",
        "workingstyle",
        "how-i-work",
    ],
    names: &[
        "preferences",
        "my preferences",
        "working style",
        "working-style",
        "how i work",
        "how-i-work",
    ],
    name_ends: false,
};

/// A project's overview note.
const UNTYPED_OVERVIEW: Untyped = Untyped {
    // In the project's folders, a client's hub is its overview.
    types: &["project", "overview", "client", "customer"],
    tags: &["overview", "project-overview"],
    names: &["overview"],
    name_ends: true,
};

/// Whether `n`, a note without a memory type, says it is what `what` names
/// (see [`declares`]).
fn says(n: &Note, what: &Untyped) -> bool {
    n.memory_type.is_none() && n.entry_of.is_none() && declares(n, what)
}

/// Whether `n` declares itself what `what` names: by its `type` property,
/// which decides alone when it is there (`type: command` on `Introduction and
/// Overview.md` is a command), else by a tag or its file name.
fn declares(n: &Note, what: &Untyped) -> bool {
    if let Some(t) = type_property(n) {
        return what.types.contains(&t.as_str());
    }
    let tagged = n.tags.iter().any(|t| {
        let t = t.rsplit('/').next().unwrap_or(t);
        what.tags.iter().any(|w| w.eq_ignore_ascii_case(t))
    });
    // The name, or (see `name_ends`) a name ending with it, or for a phrase a
    // name starting with it (`How I work with agents`); a file name's hyphens
    // and underscores read as spaces (`how-i-work-with-ai-agents.md`, as a
    // repository names its files).
    let name = n.stem().to_lowercase().replace(['-', '_'], " ");
    let named = what.names.iter().any(|w| {
        name == *w
            || (what.name_ends
                && name
                    .strip_suffix(w)
                    .is_some_and(|h| h.ends_with([' ', '-', '_'])))
            || (w.contains(' ') && name.strip_prefix(w).is_some_and(|t| t.starts_with(' ')))
    });
    tagged || named
}

/// What a note's `type` property says, lowercased, without a link's brackets
/// (`type: "[[Client]]"` → `client`); `None` when absent or empty.
pub(crate) fn type_property(n: &Note) -> Option<String> {
    let t = n.extra.get("type")?.as_str()?;
    let t = t
        .trim_start_matches("[[")
        .trim_end_matches("]]")
        .trim()
        .to_lowercase();
    (!t.is_empty()).then_some(t)
}

/// Whether `n`, without a memory type, is named after the project (a hub note
/// `facturaia.md`, `Ledger.md`, `Larkspur Health.md`): its file name is one of
/// `names` (lowercased).
fn named_after(n: &Note, names: &[String]) -> bool {
    n.memory_type.is_none() && n.entry_of.is_none() && {
        let stem = n.stem().to_lowercase();
        names.contains(&stem)
    }
}

/// Whether `n` is a preference because another tool typed it `feedback`
/// (`type: feedback`, `metadata.type: feedback`: Claude Code's memory files and
/// the like), not by cairn's own `memory_type`.
fn is_feedback(n: &Note) -> bool {
    let feedback = |v: Option<&serde_json::Value>| {
        v.and_then(|v| v.as_str())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("feedback"))
    };
    feedback(n.extra.get("type")) || feedback(n.extra.get("metadata").and_then(|m| m.get("type")))
}

/// Whether `n` lies under one of `roots`.
fn in_roots(n: &Note, roots: &[String]) -> bool {
    roots.iter().any(|r| crate::in_root(&n.path, r))
}

/// A preference or workflow marked to be always shown: pinned, high priority
/// or evergreen.
fn is_marked_style(n: &Note) -> bool {
    matches!(
        n.memory_type,
        Some(MemoryType::Preference | MemoryType::Workflow)
    ) && is_marked(n)
}

fn is_marked(n: &Note) -> bool {
    n.pinned
        || n.retrieval_priority == Some(Priority::High)
        || n.freshness == Some(Freshness::Evergreen)
}

fn is_preference(n: &Note) -> bool {
    n.memory_type == Some(MemoryType::Preference)
}

/// Lower sorts first: marked (see [`is_marked_style`]), pinned, then
/// preferences before workflows, then high priority, then evergreen.
fn style_key(n: &Note) -> (bool, bool, bool, u8, bool) {
    (
        !is_marked(n),
        !n.pinned,
        !is_preference(n),
        priority_rank(n),
        n.freshness != Some(Freshness::Evergreen),
    )
}

fn priority_rank(n: &Note) -> u8 {
    match n.retrieval_priority {
        Some(Priority::High) => 0,
        Some(Priority::Low) => 2,
        _ => 1,
    }
}

fn date_of(n: &Note) -> Option<NaiveDate> {
    n.updated.or(n.created)
}

/// A session or handoff note: `memory_type: session`, or kept in a `sessions/`
/// (or `handoffs/`) folder.
pub(crate) fn is_session(n: &Note) -> bool {
    n.memory_type == Some(MemoryType::Session)
        || n.in_folder(SESSION_FOLDERS)
        || (n.memory_type.is_none() && n.entry_of.is_none() && named_session(n))
}

/// Whether an untyped note says it is a session log: a `#session` or
/// `#handoff` tag, or a file name holding the word `session` or `handoff` and
/// a date (`Larkspur - session 2026-11-25.md`, `2026-11-18 Session - payout
/// retry spike.md`; not `Session cookies.md`).
fn named_session(n: &Note) -> bool {
    // The tag itself, not a nested tag's last part (`#auth/session` is a topic).
    let tagged = n
        .tags
        .iter()
        .any(|t| SESSION_FOLDERS.iter().any(|w| w.eq_ignore_ascii_case(t)));
    tagged || {
        let name = n.stem().to_lowercase();
        let worded = name
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| SESSION_FOLDERS.contains(&w));
        worded && date_in_name(n).is_some()
    }
}

/// A session's date: its front-matter date (`date`, `created`, `updated`), else a
/// `YYYY-MM-DD` in its file name; never the file time (a checkout or a sync
/// rewrites it).
pub(crate) fn session_date(n: &Note) -> Option<NaiveDate> {
    n.created.or(n.updated).or_else(|| date_in_name(n))
}

/// The first `YYYY-MM-DD` date in the note's file name.
fn date_in_name(n: &Note) -> Option<NaiveDate> {
    let name = n.path.rsplit('/').next().unwrap_or(&n.path);
    let bytes = name.as_bytes();
    (0..bytes.len().saturating_sub(9)).find_map(|i| {
        let s = name.get(i..i + 10)?;
        let b = s.as_bytes();
        let shape = b.iter().enumerate().all(|(j, c)| match j {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        });
        let bounded = i == 0 || !bytes[i - 1].is_ascii_digit();
        (shape && bounded)
            .then(|| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok())
            .flatten()
    })
}

/// `README.md`, `index.md` or `_index.md` directly in one of `roots`.
fn is_root_index(n: &Note, roots: &[String]) -> bool {
    let (folder, name) = n.path.rsplit_once('/').unwrap_or(("", &n.path));
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    ["readme", "index", "_index"].contains(&stem.to_ascii_lowercase().as_str())
        && roots.iter().any(|r| r.trim_matches('/') == folder)
}

/// Repository boilerplate at the vault's root or at one of `roots`: never memory.
/// A note of the same name deeper in the vault is the user's own.
fn is_boilerplate(n: &Note, roots: &[String]) -> bool {
    let (folder, name) = n.path.rsplit_once('/').unwrap_or(("", &n.path));
    let stem = name
        .rsplit_once('.')
        .map_or(name, |(s, _)| s)
        .to_ascii_lowercase();
    let at_root = folder.is_empty() || roots.iter().any(|r| r.trim_matches('/') == folder);
    let in_templates = n.in_folder(&["templates", ".github"]);
    (at_root && BOILERPLATE.contains(&stem.as_str())) || in_templates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(path: &str) -> Note {
        let parsed = cairn_note::parse_note(path, b"# T\n\nbody\n");
        let Some(n) = parsed.note else {
            panic!("{path}: no note");
        };
        n
    }

    #[test]
    fn session_dates_come_from_front_matter_else_the_file_name() {
        let check = |path: &str, expect: Option<&str>| {
            let d = session_date(&note(path)).map(|d| d.to_string());
            assert_eq!(d.as_deref(), expect, "{path}");
        };
        check("p/sessions/2026-11-03-skew.md", Some("2026-11-03"));
        check("p/session-2026-11-14-rollup.md", Some("2026-11-14"));
        check("p/sessions/handoff.md", None);
        check("p/sessions/12026-11-03.md", None);
        check("p/sessions/2026-13-03-x.md", None);
    }

    /// The recently edited notes follow front-matter dates, then file days, not
    /// file seconds: a note with a `created` date is that old whatever its file
    /// time (a clone writes every file today); notes dated only by their files
    /// on one day come by path, whatever order their seconds say.
    #[test]
    fn recently_edited_follows_dates_and_days_not_file_seconds() {
        let day = 1_796_000_000; // 2026-11-30, early morning UTC
        let make = |path: &str, front: &str, secs: i64| {
            let text = format!("---\ntitle: T\n{front}---\n# T\n\nbody\n");
            let mut n = cairn_note::parse_note(path, text.as_bytes()).note.unwrap();
            n.mtime = Some(day + secs);
            n
        };
        let notes = [
            make("p/a.md", "", 1),
            make("p/b.md", "", 30),
            make("p/c.md", "created: 2026-06-01\n", 50),
            make("p/d.md", "updated: 2026-11-01\ncreated: 2025-01-01\n", 60),
        ];
        let hubs = HashMap::new();
        let input = RecentInput {
            hot: &HashSet::new(),
            roots: &[],
            project_ids: &[],
            project_id: None,
            visible: &|_| true,
            hubs: &hubs,
            is_log_intro: &|_| false,
            own: &|_| true,
            limit: 10,
        };
        let order: Vec<&str> = recent(notes.iter(), &input)
            .into_iter()
            .map(|(n, _)| n.path.as_str())
            .collect();
        assert_eq!(order, ["p/a.md", "p/b.md", "p/d.md", "p/c.md"]);
    }

    /// Without a task, a project session lists the project's notes first: the
    /// developer's (newer, or hubs) take at most a third of the places while the
    /// project's last, and fill the list when the project has too few. The
    /// review's vault listed five developer lessons and none of the project's.
    #[test]
    fn the_no_task_list_is_the_projects_first() {
        let make = |path: &str, date: &str| {
            let text = format!("---\ntitle: T\nupdated: {date}\n---\n# T\n\nbody\n");
            cairn_note::parse_note(path, text.as_bytes()).note.unwrap()
        };
        let notes = [
            make("dev/a.md", "2026-11-20"),
            make("dev/b.md", "2026-11-19"),
            make("dev/c.md", "2026-11-18"),
            make("dev/d.md", "2026-11-17"),
            make("proj/w.md", "2026-08-01"),
            make("proj/x.md", "2026-07-01"),
            make("proj/y.md", "2026-06-01"),
            make("proj/z.md", "2026-05-01"),
        ];
        let hubs = HashMap::from([("dev/d.md", 9)]);
        let run = |notes: &[Note], limit: usize| -> Vec<String> {
            let input = RecentInput {
                hot: &HashSet::new(),
                roots: &[],
                project_ids: &[],
                project_id: None,
                visible: &|_| true,
                hubs: &hubs,
                is_log_intro: &|_| false,
                own: &|n| n.path.starts_with("proj/"),
                limit,
            };
            recent(notes.iter(), &input)
                .into_iter()
                .map(|(n, _)| n.path.clone())
                .collect()
        };
        // Six places: two for the developer's (the hub, then the newest).
        assert_eq!(
            run(&notes, 6),
            [
                "dev/d.md",
                "dev/a.md",
                "proj/w.md",
                "proj/x.md",
                "proj/y.md",
                "proj/z.md"
            ]
        );
        // One project note: the developer's fill the rest, in their order.
        assert_eq!(
            run(&notes[..5], 4),
            ["dev/d.md", "dev/a.md", "dev/b.md", "proj/w.md"]
        );
    }

    /// A repository names its files with hyphens: `how-i-work-with-ai-agents.md`
    /// says it is preferences as `How I work with AI agents.md` does (the in-repo
    /// trial's rules never reached the agent); `about_me.md` is the profile.
    #[test]
    fn hyphenated_file_names_say_what_a_note_is() {
        assert!(says(
            &note("me/how-i-work-with-ai-agents.md"),
            &UNTYPED_PREFERENCES
        ));
        assert!(says(&note("me/working_style.md"), &UNTYPED_PREFERENCES));
        assert!(says(&note("me/about_me.md"), &UNTYPED_SELF));
        assert!(says(&note("p/ledger-overview.md"), &UNTYPED_OVERVIEW));
        assert!(!says(
            &note("p/group-policy-preferences.md"),
            &UNTYPED_PREFERENCES
        ));
    }

    #[test]
    fn boilerplate_only_at_a_root() {
        let roots = vec!["proj".to_owned()];
        assert!(is_boilerplate(&note("CONTRIBUTING.md"), &roots));
        assert!(is_boilerplate(&note("proj/LICENSE.md"), &roots));
        assert!(!is_boilerplate(&note("proj/notes/security.md"), &roots));
        assert!(is_boilerplate(&note("proj/templates/daily.md"), &roots));
    }

    #[test]
    fn identity_roots_are_developer_roots_named_identity() {
        let roots = vec![
            "00-Identity".to_owned(),
            "20-Areas".to_owned(),
            "me/identity-notes".to_owned(),
        ];
        assert_eq!(
            default_identity_roots(&roots),
            vec!["00-Identity".to_owned(), "me/identity-notes".to_owned()]
        );
    }
}
