//! Ranking cases, each a small table: notes, hits, context → expected order or factor.

// Exact values: every figure here comes from fixed inputs and exact arithmetic.
#![allow(clippy::float_cmp)]

use super::*;
use cairn_note::parse_note;

mod file_names;
mod subject;

fn note(path: &str, front: &str) -> Note {
    parse_note(path, format!("---\n{front}\n---\nbody").as_bytes())
        .note
        .unwrap()
}

fn hit(path: &str, bm25: f32) -> Hit {
    Hit {
        path: path.to_owned(),
        bm25,
        proximity: 0.0,
        coverage: 1.0,
        part: None,
    }
}

struct Ctx {
    projects: Vec<String>,
    owner_names: BTreeMap<String, String>,
    project_roots: Vec<String>,
    other_roots: Vec<String>,
    files: Vec<String>,
    /// [`file_names`] of `files`, made at the first [`Ctx::ctx`].
    file_names: std::cell::OnceCell<Vec<FileName>>,
    shares: BTreeMap<String, f64>,
    /// [`busy_files`] of the notes scored (set by the test that wants it).
    busy: BTreeMap<String, usize>,
    prefixes: Vec<String>,
    modules: Vec<String>,
    terms: BTreeSet<String>,
    scenes: Vec<String>,
    subject: Subject,
}

impl Ctx {
    fn new(task: &str) -> Self {
        Ctx {
            projects: vec!["ledger".into(), "atlas".into()],
            owner_names: BTreeMap::from([
                ("atlas".into(), "atlas".into()),
                ("ledger".into(), "ledger".into()),
            ]),
            project_roots: vec!["10-Projects/ledger".into(), "20-Areas".into()],
            other_roots: vec![
                String::new(),
                "20-Areas".into(),
                "10-Projects/ledger/shared".into(),
            ],
            files: vec![],
            file_names: std::cell::OnceCell::new(),
            shares: BTreeMap::new(),
            busy: BTreeMap::new(),
            prefixes: vec![],
            modules: vec![],
            terms: cairn_index::analyze(task).into_iter().collect(),
            scenes: vec![],
            subject: Subject::default(),
        }
    }
    fn ctx(&self) -> ScoreContext<'_> {
        ScoreContext {
            today: NaiveDate::from_ymd_opt(2026, 11, 22).unwrap(),
            half_life_days: 180.0,
            project_id: Some("ledger"),
            project_ids: &self.projects,
            owner_names: &self.owner_names,
            own_names: &[],
            project_roots: &self.project_roots,
            other_roots: &self.other_roots,
            files: &self.files,
            file_names: self.file_names.get_or_init(|| file_names(&self.files)),
            folder_shares: &self.shares,
            busy_files: &self.busy,
            module_prefixes: &self.prefixes,
            modules: &self.modules,
            subject: &self.subject,
            task_terms: &self.terms,
            part_names: &[],
            scene_preferred: &self.scenes,
            has_query: !self.terms.is_empty(),
            ranking: Ranking::Full,
            weights: Weights::default(),
        }
    }
}

fn order(scored: &[Scored]) -> Vec<&str> {
    scored.iter().map(|s| s.path.as_str()).collect()
}

#[test]
fn the_note_matching_the_task_beats_project_priors() {
    let notes = vec![
        note(
            "overview.md",
            "project_id: ledger\nsource_of_truth: true\nretrieval_priority: high\nupdated: 2026-11-20",
        ),
        note("retry.md", "updated: 2025-01-01"),
    ];
    let c = Ctx::new("retry payouts");
    // The overview matches weakly (the project's name), the retry note strongly.
    let s = score(
        &notes,
        &[hit("retry.md", 10.0), hit("overview.md", 2.0)],
        &c.ctx(),
    );
    assert_eq!(order(&s), vec!["retry.md", "overview.md"]);
}

#[test]
fn pins_are_a_bonus_not_a_trump() {
    let notes = vec![
        note("pinned.md", "pinned: true\nfreshness: evergreen"),
        note("match.md", "freshness: evergreen"),
    ];
    let c = Ctx::new("kafka lag");
    let s = score(&notes, &[hit("match.md", 8.0)], &c.ctx());
    assert_eq!(order(&s), vec!["match.md", "pinned.md"]);
    assert!(s[1].pinned && s[1].score > 0.0);
    assert!(!s[1].is_relevant(0.2), "a pin is not relevance");
}

#[test]
fn recency_and_staleness() {
    let notes = vec![
        note("old.md", "updated: 2024-11-22"),
        note("new.md", "updated: 2026-11-01"),
        note("stale.md", "updated: 2026-11-01\nfreshness: stale"),
        note("review.md", "updated: 2026-11-01\nreview_after: 2026-01-01"),
    ];
    let c = Ctx::new("x");
    let hits: Vec<_> = notes.iter().map(|n| hit(&n.path, 5.0)).collect();
    let s = score(&notes, &hits, &c.ctx());
    assert_eq!(order(&s), vec!["new.md", "old.md", "review.md", "stale.md"]);
    let old = s.iter().find(|x| x.path == "old.md").unwrap();
    let recency = old.factors.iter().find(|f| f.name == "recency").unwrap();
    assert!(
        (recency.value - (0.5 + 0.5 * 2f64.powf(-730.0 / 180.0))).abs() < 0.02,
        "{recency:?}"
    );
    assert!(
        s.iter()
            .find(|x| x.path == "review.md")
            .unwrap()
            .reasons()
            .iter()
            .any(|r| r.contains("review was due 2026-01-01"))
    );
}

/// A related folder counts by how much of the repository it holds: one that
/// holds most of it neither anchors the note nor adds the whole file credit;
/// an exact file match of the same note wins over its folder.
#[test]
fn a_broad_related_folder_points_at_nothing_alone() {
    let notes = vec![
        note("broad.md", "related_files: [crates/]"),
        note("narrow.md", "related_files: [crates/lint/pytest/]"),
        note(
            "both.md",
            "related_files: [crates/, crates/lint/pytest/raises.rs]",
        ),
        note("unknown.md", "related_files: [docs/]"),
    ];
    let mut c = Ctx::new("");
    c.files = vec![
        "crates/lint/pytest/raises.rs".into(),
        "docs/rules.md".into(),
    ];
    c.shares = [
        ("crates".to_owned(), 0.95),
        ("crates/lint".to_owned(), 0.46),
        ("crates/lint/pytest".to_owned(), 0.01),
    ]
    .into_iter()
    .collect();
    let s = score(&notes, &[], &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    let broad = get("broad.md");
    assert!(!broad.anchored);
    assert!(
        (broad.signals - 0.6 * 0.05).abs() < 1e-9,
        "{}",
        broad.signals
    );
    assert!(
        broad
            .reasons()
            .iter()
            .any(|r| r.contains("95% of the repository's files") && r.contains("too broad")),
        "{:?}",
        broad.reasons()
    );
    let narrow = get("narrow.md");
    assert!(narrow.anchored);
    assert!((narrow.signals - 0.6 * 0.99).abs() < 1e-9);
    let both = get("both.md");
    assert!(both.anchored && (both.signals - 0.6).abs() < 1e-9);
    // No history, no share: a folder counts as before.
    let unknown = get("unknown.md");
    assert!(unknown.anchored && (unknown.signals - 0.6).abs() < 1e-9);
}

/// A file more than five notes name (a crate's argument parser) points at
/// none of them alone: each needs the task's words too; a file fewer name
/// still anchors its notes, and a confidential note is not counted.
#[test]
fn a_file_many_notes_name_anchors_none_of_them_alone() {
    let mut notes: Vec<Note> = (0..6)
        .map(|i| {
            note(
                &format!("flags{i}.md"),
                "related_files: [crates/core/flags/hiargs.rs]",
            )
        })
        .collect();
    // Named by its file name alone: the same file.
    notes.push(note("by-name.md", "related_files: [hiargs.rs]"));
    notes.push(note(
        "hidden.md",
        "sensitivity: confidential\nrelated_files: [crates/core/flags/hiargs.rs]",
    ));
    notes.push(note(
        "walk.md",
        "related_files: [crates/ignore/src/walk.rs]",
    ));
    // A folder holding it is not the file: not counted, and weighed by its
    // share of the repository (none known here), not as a busy file.
    notes.push(note("folder.md", "related_files: [crates/core/flags/]"));
    let files = vec![
        "crates/core/flags/hiargs.rs".to_owned(),
        "crates/ignore/src/walk.rs".to_owned(),
    ];
    let busy = busy_files(&notes, &files);
    assert_eq!(
        busy,
        BTreeMap::from([("crates/core/flags/hiargs.rs".to_owned(), 7)])
    );
    let mut c = Ctx::new("sort the walk by path");
    c.files = files;
    c.busy = busy;
    let s = score(&notes, &[], &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    for p in ["flags0.md", "flags5.md", "by-name.md"] {
        assert!(!get(p).anchored, "{p}");
        assert!(
            get(p)
                .reasons()
                .iter()
                .any(|r| r.contains("but 7 notes name it: too many")),
            "{p}: {:?}",
            get(p).reasons()
        );
    }
    // The signal stays: among notes the words pick, naming the file counts.
    assert!((get("flags0.md").signals - 0.6).abs() < 1e-9);
    assert!(get("walk.md").anchored);
    assert!(
        get("folder.md").anchored,
        "{:?}",
        get("folder.md").reasons()
    );
    // Five or fewer: every one anchored, as before.
    let few = &notes[..5];
    assert!(busy_files(few, &c.files).is_empty());
    // Without words, naming the file is all a note has: it anchors.
    let mut bare = Ctx::new("");
    bare.files.clone_from(&c.files);
    bare.busy = c.busy.clone();
    let s = score(&notes, &[], &bare.ctx());
    assert!(s.iter().find(|x| x.path == "flags0.md").unwrap().anchored);
}

/// A confidential note's related files and tags are its content: `--files` or
/// a module never point at it (red team: `--files` on its related file made it
/// appear, withheld, and so confirmed the path).
#[test]
fn files_and_modules_never_point_at_a_confidential_note() {
    let notes = vec![
        note(
            "conf.md",
            "sensitivity: confidential\nrelated_files: [src/billing/zeta.rs]\ntags: [billing]",
        ),
        note("open.md", "related_files: [src/billing/zeta.rs]"),
    ];
    let mut c = Ctx::new("");
    c.files = vec!["src/billing/zeta.rs".into()];
    c.modules = vec!["billing".into()];
    c.prefixes = vec!["src/billing".into()];
    let s = score(&notes, &[], &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    assert!(!get("conf.md").anchored);
    assert!(get("conf.md").signals.abs() < 1e-9);
    assert!(get("open.md").anchored);
}

#[test]
fn files_triggers_scenes_add_signals() {
    let notes = vec![
        note("file.md", "related_files: [src/settlement/]"),
        note("trig.md", "triggers: [schema change]"),
        note("scene.md", "title: Release checklist"),
        note("module.md", "tags: [settlement]"),
        note("none.md", "title: nothing"),
    ];
    let mut c = Ctx::new("plan the schema change for release");
    c.files = vec!["src/settlement/payout.rs".into()];
    c.modules = vec!["settlement".into()];
    c.scenes = vec!["Release checklist".into()];
    let s = score(&notes, &[], &c.ctx());
    let sig = |p: &str| s.iter().find(|x| x.path == p).unwrap().signals;
    assert_eq!(sig("file.md"), 0.6);
    assert_eq!(sig("trig.md"), 0.5);
    assert_eq!(sig("scene.md"), 0.3);
    assert_eq!(sig("module.md"), 0.3);
    assert_eq!(sig("none.md"), 0.0);
    assert!(
        !s.iter()
            .find(|x| x.path == "none.md")
            .unwrap()
            .is_relevant(0.2)
    );
}

#[test]
fn facts_for_the_assembler() {
    let notes = vec![
        note("old.md", "status: superseded"),
        note("arch.md", "status: archived"),
        note("other.md", "project_id: atlas"),
        note("unknown.md", "project_id: somewhere-else"),
    ];
    let c = Ctx::new("x");
    let s = score(&notes, &[], &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    assert!(get("old.md").retired && get("arch.md").retired);
    assert_eq!(get("other.md").other_project.as_deref(), Some("atlas"));
    assert_eq!(
        get("unknown.md").other_project,
        None,
        "only configured projects count"
    );
}

#[test]
fn no_query_ranks_by_priors_and_bm25_mode_ignores_them() {
    let notes = vec![
        note("plain.md", "freshness: evergreen"),
        note("sot.md", "source_of_truth: true\nfreshness: evergreen"),
    ];
    let c = Ctx::new("");
    let s = score(&notes, &[], &c.ctx());
    assert_eq!(order(&s), vec!["sot.md", "plain.md"]);
    assert!(
        s[0].is_relevant(0.2),
        "everything is relevant without a query"
    );

    let c = Ctx::new("x");
    let mut ctx = c.ctx();
    ctx.ranking = Ranking::Bm25;
    let s = score(&notes, &[hit("plain.md", 3.0), hit("sot.md", 1.0)], &ctx);
    assert_eq!(order(&s), vec!["plain.md", "sot.md"]);
    assert_eq!(s[0].score, 3.0);
}

#[test]
fn matched_terms_lists_query_terms_found() {
    let n = parse_note("a.md", b"# Payout retries\nWe retry with backoff.")
        .note
        .unwrap();
    let q: BTreeSet<String> = cairn_index::analyze("retrying payouts quickly")
        .into_iter()
        .collect();
    assert_eq!(matched_terms(&n, &q), vec!["payout", "retri"]);
}

fn covering(path: &str, coverage: f32) -> Hit {
    Hit {
        coverage,
        ..hit(path, 10.0)
    }
}

#[test]
fn a_note_marked_stale_needs_twice_the_coverage() {
    let notes = [
        note("a.md", "title: A"),
        note("b.md", "title: B\nfreshness: stale"),
        note("c.md", "title: C\nfreshness: stale"),
    ];
    let c = Ctx::new("redis memory");
    let hits = [
        covering("a.md", 0.4),
        covering("b.md", 0.4),
        covering("c.md", 0.75),
    ];
    let s = score(&notes, &hits, &c.ctx());
    let gate = |p: &str| s.iter().find(|x| x.path == p).unwrap().passes_gate(0.35);
    assert!(gate("a.md"));
    assert!(!gate("b.md"), "stale at 40% < 70%");
    assert!(gate("c.md"));
}

/// A constraint in scope (the routed project's, or no project's) binds the
/// work: its text needs 80% of the coverage others need (28% of 35%); another
/// project's does not.
#[test]
fn a_constraint_in_scope_needs_less_of_the_query() {
    let notes = [
        note("d.md", "title: D\ntype: decision"),
        note("c.md", "title: C\ntype: constraint\nproject_id: ledger"),
        note("g.md", "title: G\nmemory_type: constraint"),
        note("o.md", "title: O\ntype: constraint\nproject_id: atlas"),
        note("s.md", "title: S\ntype: constraint\nfreshness: stale"),
        note("w.md", "title: W\ntype: constraint"),
    ];
    let c = Ctx::new("audit logging patient appointment history");
    let hits = [
        covering("d.md", 0.3),
        covering("c.md", 0.3),
        covering("g.md", 0.3),
        covering("o.md", 0.3),
        covering("s.md", 0.5),
        covering("w.md", 0.25),
    ];
    let s = score(&notes, &hits, &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    assert!(!get("d.md").passes_gate(0.35));
    assert!(get("c.md").binding && get("c.md").passes_gate(0.35));
    assert!(get("g.md").passes_gate(0.35));
    assert!(!get("o.md").binding && !get("o.md").passes_gate(0.35));
    // Marked stale: twice the constraint's share (56%).
    assert!(!get("s.md").passes_gate(0.35));
    assert!(!get("w.md").passes_gate(0.35), "25% < 28%");
    assert!((get("c.md").needed_coverage(0.35) - 0.28).abs() < 1e-9);
    // Naming a confidential note needs the full gate: a constraint at 30%
    // is shown when it may be, never named when it is withheld.
    assert!(get("c.md").passes_gate(0.35) && !get("c.md").passes_full_gate(0.35));
    assert!(!get("d.md").passes_full_gate(0.35));
}

#[test]
fn the_successor_of_a_matching_retired_note_passes_the_gate() {
    let notes = [
        note(
            "old.md",
            "title: Old\nsuperseded_by: [new]\nfreshness: stale",
        ),
        note("new.md", "title: New"),
        note("weak-old.md", "title: Weak\nsuperseded_by: [other]"),
        note("other.md", "title: Other"),
    ];
    let c = Ctx::new("online store memory");
    let hits = [
        covering("old.md", 0.5),
        covering("new.md", 0.1),
        covering("weak-old.md", 0.2),
    ];
    let mut s = score(&notes, &hits, &c.ctx());
    let by_path: HashMap<&str, &Note> = notes.iter().map(|n| (n.path.as_str(), n)).collect();
    lift_successors(&mut s, &by_path, 0.35, |queries| {
        queries
            .iter()
            .map(|(t, _)| Some(format!("{t}.md")))
            .collect()
    });
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    assert_eq!(get("new.md").successor_of.as_deref(), Some("old.md"));
    assert!(get("new.md").passes_gate(0.35));
    // The retired note itself stays out; a weak match lifts nothing.
    assert!(get("old.md").retired);
    assert_eq!(get("other.md").successor_of, None);
    assert!(!get("other.md").passes_gate(0.35));
}

#[test]
fn a_retired_note_says_which_key_or_folder_retired_it() {
    let why = |path: &str, front: &str| retired_because(&note(path, front));
    assert_eq!(
        why("a.md", "superseded_by: [b]\nstatus: active").as_deref(),
        Some("retired: superseded_by names b")
    );
    assert_eq!(
        why("a.md", "status: withdrawn").as_deref(),
        Some("retired: status withdrawn (archived)")
    );
    assert_eq!(
        why("a.md", "status: archived").as_deref(),
        Some("retired: status archived")
    );
    // A configured list decides instead of the built-in words.
    let mut rejected = note("a.md", "status: Rejected");
    assert_eq!(retired_because(&rejected), None);
    rejected.retire_by(&["rejected".to_owned()]);
    assert_eq!(
        retired_because(&rejected).as_deref(),
        Some("retired: status rejected (archived)")
    );
    let mut replaced = note("a.md", "status: replaced");
    replaced.retire_by(&["replaced".to_owned()]);
    assert_eq!(
        retired_because(&replaced).as_deref(),
        Some("retired: status replaced (superseded)")
    );
    replaced.retire_by(&["rejected".to_owned()]);
    assert_eq!(retired_because(&replaced), None);
    assert_eq!(
        why("x/_archive/a.md", "title: A").as_deref(),
        Some("retired: under an _archive/ folder")
    );
    assert_eq!(why("a.md", "status: draft"), None);
}

#[test]
fn triggers_match_the_same_by_their_stored_terms_as_by_analysis() {
    let triggers = [
        "schema change",
        "Retrying payouts",
        "the of and",
        "",
        "payout-batch lock",
        "PayoutBatch",
        "LOCKS, payouts; retried!",
        "Zürich deploy",
        "lock timeout",
    ];
    let tasks = [
        "retry the payout batch lock",
        "deploy to zürich",
        "a schema change in payouts",
        "payoutbatch lock timeouts",
        "",
    ];
    for task in tasks {
        let terms: BTreeSet<String> = cairn_index::analyze(task).into_iter().collect();
        for one in &triggers {
            // One trigger at a time, then all of them: the first that matches.
            let lists: [Vec<String>; 2] = [
                vec![(*one).to_owned()],
                triggers.iter().map(|t| (*t).to_owned()).collect(),
            ];
            for list in lists {
                let mut plain = note("t.md", "title: T");
                plain.triggers.clone_from(&list);
                let mut stored = plain.clone();
                let analysed: Vec<_> = list.iter().map(|t| cairn_index::analyze(t)).collect();
                stored.trigger_terms = cairn_note::TriggerTerms::known(&list, &analysed);
                assert!(stored.trigger_terms.get().is_some());
                assert!(plain.trigger_terms.get().is_none());
                assert_eq!(
                    trigger_match(&stored, &terms),
                    trigger_match(&plain, &terms),
                    "{task:?} {list:?}"
                );
            }
        }
    }
    // Some pairs match, some do not: the comparison above is not vacuous.
    let terms: BTreeSet<String> = cairn_index::analyze(tasks[0]).into_iter().collect();
    let mut n = note("t.md", "title: T");
    n.triggers = vec!["Retrying payouts".to_owned(), "schema change".to_owned()];
    assert_eq!(trigger_match(&n, &terms), Some("Retrying payouts"));
    n.triggers.remove(0);
    assert_eq!(trigger_match(&n, &terms), None);
}

#[test]
fn stored_terms_for_other_triggers_are_unknown() {
    let triggers = vec!["a".to_owned(), "b".to_owned()];
    let t = cairn_note::TriggerTerms::known(&triggers, &[vec!["a".to_owned()]]);
    assert!(t.get().is_none());
    let spaced = [vec!["a b".to_owned()], vec![]];
    assert!(
        cairn_note::TriggerTerms::known(&triggers, &spaced)
            .get()
            .is_none()
    );
    let t = cairn_note::TriggerTerms::known(&triggers, &[vec!["a".to_owned()], vec![]]);
    assert_eq!(t.text(), Some("a\n\n"));
    let back = cairn_note::TriggerTerms::from_text(&triggers, "a\n\n".to_owned());
    let lists: Vec<Vec<&str>> = back.get().unwrap().map(Iterator::collect).collect();
    assert_eq!(lists, [vec!["a"], vec![]]);
    assert!(
        cairn_note::TriggerTerms::from_text(&triggers, "a\n".to_owned())
            .get()
            .is_none()
    );
}

/// A note in the routed project's note folder is the project's, `project_id`
/// or not; one elsewhere without it (a developer note), in a folder whose
/// name only starts like the project's, in a folder the project shares with
/// the developer (`20-Areas`) or in a deeper folder of someone else's inside
/// the project's is not; a `project_id` naming another project wins over the
/// folder. The developer's root is the whole vault (`cairn init`'s).
#[test]
fn a_note_in_the_project_s_folder_is_the_project_s() {
    let notes = vec![
        note("10-Projects/ledger/locks.md", "freshness: evergreen"),
        note(
            "10-Projects/ledger/tagged.md",
            "project_id: ledger\nfreshness: evergreen",
        ),
        note("10-Projects/ledger-old/x.md", "freshness: evergreen"),
        note("20-Areas/style.md", "freshness: evergreen"),
        note("10-Projects/ledger/shared/y.md", "freshness: evergreen"),
        note("top.md", "freshness: evergreen"),
        note(
            "10-Projects/ledger/atlas.md",
            "project_id: atlas\nfreshness: evergreen",
        ),
    ];
    let c = Ctx::new("");
    let s = score(&notes, &[], &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    let boost = Weights::default().project_match;
    let base = get("20-Areas/style.md").score;
    assert!((get("10-Projects/ledger/locks.md").score - base * boost).abs() < 1e-9);
    assert_eq!(
        get("10-Projects/ledger/locks.md").score,
        get("10-Projects/ledger/tagged.md").score
    );
    assert_eq!(get("10-Projects/ledger-old/x.md").score, base);
    assert_eq!(get("10-Projects/ledger/shared/y.md").score, base);
    assert_eq!(get("top.md").score, base);
    assert!(
        get("10-Projects/ledger/locks.md").factors.iter().any(|f| f
            .detail
            .to_string()
            .contains("in a note folder of project ledger")),
        "{:?}",
        get("10-Projects/ledger/locks.md").factors
    );
    assert_eq!(get("10-Projects/ledger/atlas.md").score, base);
    assert_eq!(
        get("10-Projects/ledger/atlas.md").other_project.as_deref(),
        Some("atlas")
    );
}

/// An untyped note without a `project_id` that names another configured
/// project by its file name or a tag (a client hub, a note tagged with the
/// other client among the developer's notes) is that project's; one that
/// names the routed project too, a typed one, or one in the routed project's
/// own folders is not.
#[test]
fn an_untyped_note_named_after_another_project_is_that_project_s() {
    let notes = vec![
        note("00-home/atlas.md", "tags: [hub]"),
        note("00-home/clients.md", "tags: [atlas]"),
        note("00-home/both.md", "tags: [atlas, ledger]"),
        note("00-home/typed.md", "memory_type: pattern\ntags: [atlas]"),
        note("10-Projects/ledger/atlas-notes.md", "tags: [atlas]"),
        note("00-home/other.md", "tags: [misc]"),
    ];
    let c = Ctx::new("x");
    let s = score(&notes, &[], &c.ctx());
    let other = |p: &str| {
        s.iter()
            .find(|x| x.path == p)
            .unwrap()
            .other_project
            .clone()
    };
    assert_eq!(other("00-home/atlas.md").as_deref(), Some("atlas"));
    assert_eq!(other("00-home/clients.md").as_deref(), Some("atlas"));
    for p in [
        "00-home/both.md",
        "00-home/typed.md",
        "10-Projects/ledger/atlas-notes.md",
        "00-home/other.md",
    ] {
        assert_eq!(other(p), None, "{p}");
    }
}

/// The other ways a note names another project: a file name that starts with
/// its name and a separator (`Atlas - invoices.md`, `atlas: notes.md`), a
/// nested tag's last part (`#client/atlas`); not a name inside another word
/// (`Atlassian tips.md`) nor a note that also names one of the routed
/// project's own names (its default tag `payments`).
#[test]
fn a_file_name_start_or_a_nested_tag_names_another_project() {
    let notes = vec![
        note("00-home/Atlas - invoices.md", "tags: [misc]"),
        note("00-home/atlas: notes.md", "tags: [misc]"),
        note("00-home/n.md", "tags: [client/atlas]"),
        note("00-home/Atlassian tips.md", "tags: [misc]"),
        note("00-home/shared.md", "tags: [atlas, payments]"),
    ];
    let c = Ctx::new("x");
    let own = vec!["payments".to_owned()];
    let mut ctx = c.ctx();
    ctx.own_names = &own;
    let s = score(&notes, &[], &ctx);
    let other = |p: &str| {
        s.iter()
            .find(|x| x.path == p)
            .unwrap()
            .other_project
            .clone()
    };
    assert_eq!(
        other("00-home/Atlas - invoices.md").as_deref(),
        Some("atlas")
    );
    assert_eq!(other("00-home/atlas: notes.md").as_deref(), Some("atlas"));
    assert_eq!(other("00-home/n.md").as_deref(), Some("atlas"));
    assert_eq!(other("00-home/Atlassian tips.md"), None);
    assert_eq!(other("00-home/shared.md"), None);
}

/// A related file written by its name alone names the changed file of that
/// name (held-out trial: `related_files: [batch.rs]` pointed at nothing), and
/// ranks above a folder holding it (a broad folder would leave the note
/// unanchored); a path with a folder is from the repository's root, so a
/// note's `src/lib.rs` or `crates/x/Cargo.toml` names no other crate's file
/// (review).
#[test]
fn a_related_file_named_by_its_name_matches() {
    let notes = vec![
        note("name.md", "related_files: [batch.rs]"),
        note("tail.md", "related_files: [payout/batch.rs]"),
        note("above.md", "related_files: [ledger/src/payout/batch.rs]"),
        note(
            "other.md",
            "related_files: [atch.rs, src/payout/batch.rs.bak, rs]",
        ),
        note("both.md", "related_files: [src/, batch.rs]"),
        note("lib.md", "related_files: [src/lib.rs, crates/x/Cargo.toml]"),
    ];
    let mut c = Ctx::new("");
    c.files = vec![
        "src/payout/batch.rs".into(),
        "crates/y/src/lib.rs".into(),
        "Cargo.toml".into(),
    ];
    c.shares.insert("src".into(), 0.9);
    let s = score(&notes, &[], &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    assert_eq!(get("name.md").signals, 0.6);
    assert!(get("name.md").anchored);
    for p in ["tail.md", "above.md", "other.md", "lib.md"] {
        assert_eq!(get(p).signals, 0.0, "{p}");
        assert!(!get(p).anchored, "{p}");
    }
    // The file's name, not the folder holding 90% of the repository.
    assert_eq!(get("both.md").signals, 0.6);
    assert!(get("both.md").anchored);
}
