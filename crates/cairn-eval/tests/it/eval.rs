//! `eval`: the devmem suite's quality floors (CI fails when retrieval gets worse),
//! the id and scope rules, and bad suite input reported by line and skipped.

// Exact values: every figure here comes from fixed inputs and exact arithmetic.
#![allow(clippy::float_cmp)]
#![allow(clippy::unwrap_used)] // test helpers, like the tests, fail loudly

use std::path::{Path, PathBuf};

use cairn_engine::Ranking;
use cairn_eval::*;

fn devmem() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/devmem")
        .canonicalize()
        .unwrap()
}

fn opts(ranking: Ranking) -> EvalOptions {
    EvalOptions {
        ks: vec![1, 5, 10],
        ranking,
        config: None,
        home: None,
        today: "2026-11-22".parse().unwrap(),
        profiles_dir: None,
    }
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The floors sit a little below the figures measured when they were set
/// (2026-11-22, `cairn eval fixtures/devmem --now 2026-11-22T09:00:00Z`): a change
/// that loses more than noise fails CI. Raise them when retrieval improves.
#[test]
fn devmem_suite_stays_above_its_floors() {
    let full = run_eval(&devmem(), &opts(Ranking::Full)).unwrap();
    assert!(full.issues.is_empty(), "{:?}", full.issues);
    assert_eq!(full.queries_evaluated, 89);
    assert_eq!(full.notes, 151);
    let o = &full.overall;
    let floors = [
        ("hit@1", o.hit[&1], 0.70),                 // measured 0.742
        ("hit@5", o.hit[&5], 0.94), // measured 0.955 (0.966 before the 5 notes of #14)
        ("hit@10", o.hit[&10], 0.97), // measured 1.000
        ("recall@10", o.recall[&10], 0.93), // measured 0.964
        ("recall_all@10", o.recall_all[&10], 0.88), // measured 0.921
        ("MRR", o.mrr, 0.80),       // measured 0.837
        ("nDCG@10", o.ndcg_at_10, 0.78), // measured 0.810
    ];
    for (name, value, floor) in floors {
        assert!(
            value >= floor,
            "devmem {name} {value:.3} fell below {floor}"
        );
    }
    // Every question type keeps an answer in the top 10 for most of its tasks.
    for (t, m) in &full.by_type {
        assert!(m.hit[&10] >= 0.9, "{t}: hit@10 {:.3}", m.hit[&10]);
    }

    // The boosts earn their place: the full ranking beats plain BM25 on this suite
    // (measured nDCG@10 0.810 against 0.762, MRR 0.837 against 0.788).
    let plain = run_eval(&devmem(), &opts(Ranking::Bm25)).unwrap();
    assert!(o.ndcg_at_10 > plain.overall.ndcg_at_10 + 0.02);
    assert!(o.mrr > plain.overall.mrr);
}

#[test]
fn the_same_suite_gives_the_same_figures() {
    let a = run_eval(&devmem(), &opts(Ranking::Full)).unwrap();
    let b = run_eval(&devmem(), &opts(Ranking::Full)).unwrap();
    assert_eq!(a.overall, b.overall);
    assert_eq!(a.by_type, b.by_type);
    assert_eq!(a.per_query, b.per_query);
    assert_eq!(a.packets, b.packets);
}

/// Copies the folder `from` to `to` (files and folders only).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Every file under `dir`, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The eval pins file times as it pins the day: two checkouts of a suite
/// whose files were written in different orders (as two clones are) give the
/// same figures and packets. The packets' "recently edited" notes once followed
/// the files' times, and a clone whose old incident note happened to be written
/// last showed it (a must-not hit, in CI only).
#[test]
fn file_times_do_not_change_the_figures() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    copy_dir(&devmem(), &a);
    copy_dir(&devmem(), &b);
    let day = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_796_000_000);
    // An hour apart: the two orders span days, as clones made on different
    // days would.
    let files = (files_under(&a), files_under(&b));
    let orders: [Vec<&PathBuf>; 2] = [files.0.iter().collect(), files.1.iter().rev().collect()];
    for order in orders {
        for (i, f) in order.into_iter().enumerate() {
            std::fs::File::options()
                .write(true)
                .open(f)
                .unwrap()
                .set_modified(day + std::time::Duration::from_secs(3_600 * i as u64))
                .unwrap();
        }
    }
    let ra = run_eval(&a, &opts(Ranking::Full)).unwrap();
    let rb = run_eval(&b, &opts(Ranking::Full)).unwrap();
    assert_eq!(ra.overall, rb.overall);
    assert_eq!(ra.per_query, rb.per_query);
    assert_eq!(ra.packets, rb.packets);
    assert_eq!(ra.packets.unwrap().overall.must_not_hits, 0);
}

#[test]
fn vault_subfolders_are_haystacks_and_ids_are_relative_to_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "conv-a/s1.md", "We adopted a puppy named Biscuit.");
    write(d, "conv-a/s2.md", "The garden needs water.");
    write(
        d,
        "conv-b/s1.md",
        "Biscuit the puppy chewed the garden hose.",
    );
    write(
        d,
        "queries.jsonl",
        r#"{"id": "1", "query": "puppy Biscuit", "expected": ["s1"], "vault": "conv-a", "question_type": "single"}
{"id": "2", "query": "garden hose", "expected": ["s1"], "vault": "conv-b"}
{"id": "3", "query": "garden", "expected": ["conv-a/s2"]}
"#,
    );
    let r = run_eval(d, &opts(Ranking::Full)).unwrap();
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    assert_eq!(r.queries_evaluated, 3);
    assert_eq!(r.overall.hit[&1], 1.0);
    // Inside a haystack, only its notes are ranked.
    assert_eq!(r.per_query[0].top, vec!["s1"]);
    assert_eq!(r.per_query[1].top, vec!["s1"]);
    // Without `vault`, ids are relative to the suite folder and every note competes.
    assert_eq!(r.per_query[2].top[0], "conv-a/s2");
    assert_eq!(r.by_type.keys().collect::<Vec<_>>(), vec!["single"]);
}

#[test]
fn a_notes_folder_is_the_searched_root() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "notes/42.md", "# Aspirin\nAspirin lowers fever.");
    write(d, "notes/7.md", "# Insulin\nInsulin lowers blood sugar.");
    write(
        d,
        "queries.jsonl",
        r#"{"id": 1, "query": "what lowers fever", "expected": ["42"], "grades": {"42": 1}}"#,
    );
    let r = run_eval(d, &opts(Ranking::Bm25)).unwrap();
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    assert_eq!(r.notes, 2);
    assert_eq!(r.per_query[0].first_relevant_rank, Some(1));
    assert_eq!(r.overall.ndcg_at_10, 1.0);
}

#[test]
fn bad_input_is_reported_by_line_and_the_rest_still_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.md", "Retry with backoff and jitter.");
    write(d, "b.md", "Postgres vacuum settings.");
    write(
        d,
        "queries.jsonl",
        r#"{"id": "ok", "query": "retry backoff", "expected": ["a"]}
{"id": "broken", "query": "x", "expected": ["a"]
{"id": "ghost", "query": "vacuum", "expected": ["b", "nope"]}
{"id": "novault", "query": "vacuum", "expected": ["b"], "vault": "missing"}
{"id": "escape", "query": "vacuum", "expected": ["b"], "vault": "../x"}

{"id": "ok2", "query": "vacuum", "expected": ["b.md"]}
"#,
    );
    let r = run_eval(d, &opts(Ranking::Full)).unwrap();
    assert_eq!(r.queries_total, 6);
    assert_eq!(r.queries_evaluated, 2);
    assert_eq!(r.queries_skipped, 4);
    let lines: Vec<usize> = r.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5]);
    assert!(
        r.issues[0].message.contains("not a JSON object"),
        "{:?}",
        r.issues[0]
    );
    assert!(r.issues[1].message.contains("`nope`"), "{:?}", r.issues[1]);
    assert_eq!(r.issues[1].query_id.as_deref(), Some("ghost"));
    assert!(r.issues[2].message.contains("`vault`"));
    assert!(r.issues[3].message.contains("`vault`"));
    assert!(r.issues.iter().all(|i| i.file == "queries.jsonl"));
    assert_eq!(r.overall.hit[&1], 1.0);
}

#[test]
fn a_suite_with_a_config_routes_each_query_from_its_cwd() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "cairn.toml",
        "[vault]\nroot = \"vault\"\n[developer]\nnote_roots = [\"dev\"]\n\
         [[projects]]\nid = \"alpha\"\nrepo_paths = [\"repos/alpha\"]\nnote_roots = [\"alpha\"]\n\
         [[projects]]\nid = \"beta\"\nrepo_paths = [\"repos/beta\"]\nnote_roots = [\"beta\"]\n",
    );
    write(d, "repos/alpha/README.md", "alpha");
    write(d, "repos/beta/README.md", "beta");
    write(
        d,
        "vault/alpha/deploy.md",
        "Deploy alpha with the blue green script.",
    );
    write(
        d,
        "vault/beta/deploy.md",
        "Deploy beta with the blue green script.",
    );
    write(d, "vault/dev/style.md", "Short answers, please.");
    write(
        d,
        "queries.jsonl",
        r#"{"id": "a", "query": "blue green deploy", "expected": ["alpha/deploy"], "cwd": "repos/alpha"}
{"id": "b", "query": "blue green deploy", "expected": ["beta/deploy"], "cwd": "repos/beta"}
{"id": "c", "query": "blue green deploy", "expected": ["beta/deploy"], "cwd": "repos/nowhere"}
{"id": "d", "query": "short answers", "expected": ["dev/style"]}
"#,
    );
    let r = run_eval(d, &opts(Ranking::Full)).unwrap();
    assert_eq!(r.queries_evaluated, 3, "{:?}", r.issues);
    assert_eq!(r.issues.len(), 1);
    assert_eq!(r.issues[0].line, 3);
    assert!(r.issues[0].message.contains("`cwd`"));
    // Routing keeps the other project's twin note out entirely.
    assert_eq!(r.per_query[0].top, vec!["alpha/deploy"]);
    assert_eq!(r.per_query[1].top, vec!["beta/deploy"]);
    assert_eq!(r.per_query[2].top, vec!["dev/style"]);
    assert!(r.config.is_some());
}

#[test]
fn a_missing_queries_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        run_eval(dir.path(), &opts(Ranking::Full)),
        Err(EvalError::Io { .. })
    ));
}

/// The packet floors sit a little below the figures measured when they were set
/// (`cairn eval fixtures/devmem --now 2026-11-22T09:00:00Z`, 80 packet tasks,
/// generic json packets at the profile's default budget): losing one expected
/// note in two or three tasks of a type, or a few points overall, fails CI.
/// Raise them when the packet improves.
#[test]
fn devmem_packets_stay_above_their_floors() {
    let r = run_eval(&devmem(), &opts(Ranking::Full)).unwrap();
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let p = r.packets.as_ref().expect("devmem has packet tasks");
    assert_eq!((p.tasks_total, p.tasks_evaluated), (80, 80));
    let o = &p.overall;
    let floors = [
        ("recall", o.recall, 0.92),                           // measured 0.9418
        ("precision", o.precision, 0.62),                     // measured 0.6368
        ("section recall", o.section_recall.unwrap(), 0.92),  // measured 0.9378
        ("pinned present", o.pinned_present, 1.0),            // measured 1.000
        ("session present", o.session_present.unwrap(), 1.0), // measured 1.000 (67 tasks)
        ("identity in its section", o.by_section["identity"], 1.0), // measured 1.000
    ];
    for (name, value, floor) in floors {
        assert!(
            value >= floor,
            "devmem packets {name} {value:.4} fell below {floor}"
        );
    }
    // Measured: none (a note marked stale needs twice the coverage).
    assert_eq!(o.must_not_hits, 0, "must-not hits");
    // Off-topic tasks get the hot layer only (measured 0.0 task-layer notes).
    assert_eq!(p.by_type["off-topic"].mean_task_notes, 0.0);

    // type → (recall floor, precision floor); measured values in the comments.
    let per_type = [
        ("cross", 0.75, 0.66),           // measured 0.7841, 0.6910
        ("empty", 0.97, 0.47),           // measured 1.0000, 0.4988
        ("file", 0.94, 0.58),            // measured 0.9665, 0.6140
        ("no-project", 0.86, 0.57),      // measured 0.8917, 0.6071
        ("off-topic", 0.97, 0.68),       // measured 1.0000, 0.7184
        ("resume", 0.91, 0.57),          // measured 0.9439, 0.5997
        ("stale-trap", 0.86, 0.65),      // measured 0.8893, 0.6850
        ("superseded-trap", 0.93, 0.67), // measured 0.9614, 0.7100 (successors pass the gate)
        ("task", 0.91, 0.67),            // measured 0.9383, 0.7026
    ];
    assert_eq!(p.by_type.len(), per_type.len());
    for (t, recall, precision) in per_type {
        let m = &p.by_type[t];
        assert!(m.recall >= recall, "{t}: recall {:.4} < {recall}", m.recall);
        assert!(
            m.precision >= precision,
            "{t}: precision {:.4} < {precision}",
            m.precision
        );
        assert_eq!(m.pinned_present, 1.0, "{t}: a pinned note is missing");
    }
}

#[test]
fn packet_tasks_are_scored_on_the_whole_packet() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "cairn.toml",
        "[vault]\nroot = \"vault\"\n[developer]\nnote_roots = [\"dev\"]\n\
         [[projects]]\nid = \"alpha\"\nrepo_paths = [\"repos/alpha\"]\nnote_roots = [\"alpha\"]\n",
    );
    write(d, "repos/alpha/README.md", "alpha");
    write(
        d,
        "vault/dev/me.md",
        "---\nmemory_type: person\npinned: true\n---\n# Me\nI write Go and keep answers short.",
    );
    write(
        d,
        "vault/alpha/overview.md",
        "---\nmemory_type: project\npinned: true\n---\n# Alpha\nAlpha ships metrics.",
    );
    write(
        d,
        "vault/alpha/deploy.md",
        "---\nmemory_type: decision\n---\n# Blue green deploys\nDeploy alpha with the blue green script.",
    );
    write(
        d,
        "vault/alpha/old-deploy.md",
        "---\nmemory_type: decision\nstatus: superseded\n---\n# Old deploys\nDeploy alpha by hand, no blue green.",
    );
    write(
        d,
        "queries.jsonl",
        r#"{"id": "s", "query": "blue green deploy", "expected": ["alpha/deploy"], "cwd": "repos/alpha"}
{"id": "p1", "kind": "packet", "cwd": "repos/alpha", "task": "blue green deploy of alpha", "expected": ["dev/me", "alpha/overview", "alpha/deploy"], "sections": {"identity": ["dev/me"], "decisions": ["alpha/deploy"]}, "must_not": ["alpha/old-deploy"], "question_type": "task"}
{"id": "p2", "kind": "packet", "cwd": "repos/alpha", "expected": ["alpha/nope"]}
{"id": "p3", "kind": "packet", "cwd": "repos/beta", "expected": ["dev/me"]}
"#,
    );
    let r = run_eval(d, &opts(Ranking::Full)).unwrap();
    assert_eq!(r.queries_total, 1);
    assert_eq!(r.queries_evaluated, 1);
    let p = r.packets.as_ref().unwrap();
    assert_eq!(
        (p.tasks_total, p.tasks_evaluated, p.tasks_skipped),
        (3, 1, 2)
    );
    let lines: Vec<usize> = r.issues.iter().map(|i| i.line).collect();
    assert_eq!(lines, vec![3, 4], "{:?}", r.issues);
    assert!(r.issues[0].message.contains("`alpha/nope`"));
    assert!(r.issues[1].message.contains("`cwd`"));

    let t = &p.per_task[0];
    assert_eq!(t.project.as_deref(), Some("alpha"));
    assert_eq!(t.profile, "project");
    assert!(
        t.shown.contains(&"identity: dev/me".to_owned()),
        "{:?}",
        t.shown
    );
    // The figures follow from what the packet shows.
    let ids: std::collections::BTreeSet<&str> = t
        .shown
        .iter()
        .map(|s| s.split_once(": ").unwrap().1)
        .collect();
    assert_eq!(t.notes, ids.len());
    let expected = ["dev/me", "alpha/overview", "alpha/deploy"];
    let found = expected.iter().filter(|e| ids.contains(*e)).count();
    assert_eq!(t.recall, ((found as f64 / 3.0) * 1e4).round() / 1e4);
    assert_eq!(
        t.missed.len(),
        3 - found,
        "{:?} missed {:?}",
        t.shown,
        t.missed
    );
    assert!(
        t.must_not_hits.is_empty(),
        "a superseded note is never shown"
    );
    assert!(t.pinned_missing.is_empty(), "{:?}", t.pinned_missing);
    assert_eq!(p.overall.tasks, 1);
    assert_eq!(p.overall.pinned_present, 1.0);
    assert_eq!(p.by_type["task"].recall, p.overall.recall);
    assert_eq!(p.overall.session_present, None);
    assert!(serde_json::to_value(&r).unwrap()["packets"]["per_task"].is_array());
}

#[test]
fn a_suite_without_packet_tasks_has_no_packets_object() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.md", "Retry with backoff.");
    write(
        dir.path(),
        "queries.jsonl",
        r#"{"id": "1", "query": "retry", "expected": ["a"]}"#,
    );
    let r = run_eval(dir.path(), &opts(Ranking::Full)).unwrap();
    assert!(r.packets.is_none());
    assert!(serde_json::to_value(&r).unwrap().get("packets").is_none());
}
