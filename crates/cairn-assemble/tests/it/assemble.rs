//! Section mapping, caps and spill, exclusions, budget drops and summaries.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use cairn_assemble::*;
use cairn_note::{Note, parse_note};
use cairn_policy::{SafeText, ShownNote};
use cairn_score::{Factor, Op, Scored};

const PROJECT: &str = include_str!("../../profiles/project.toml");

fn note(path: &str, front: &str, body: &str) -> Note {
    parse_note(path, format!("---\n{front}\n---\n{body}").as_bytes())
        .note
        .unwrap()
}

fn scored(n: &Note, score: f64, relevance: f64) -> Scored {
    Scored {
        path: n.path.clone(),
        score,
        bm25: relevance * 10.0,
        relevance,
        signals: 0.0,
        coverage: relevance,
        part_coverage: None,
        anchored: false,
        successor_of: None,
        marked_stale: false,
        binding: false,
        factors: vec![Factor {
            name: "bm25",
            op: Op::Base,
            value: relevance,
            detail: cairn_score::Detail::Fixed("matches"),
        }],
        retired: n.is_retired(),
        other_project: n.project_id.clone().filter(|p| p == "atlas"),
        pinned: n.pinned,
    }
}

fn build(notes: &[(Note, f64, f64)], terms: &BTreeSet<String>) -> Packet {
    build_with(notes, terms, |req, cands| assemble(req, cands))
}

/// The request and candidates [`build`] assembles, handed to `run`.
fn build_with(
    notes: &[(Note, f64, f64)],
    terms: &BTreeSet<String>,
    run: impl FnOnce(&Request<'_>, &mut Vec<Candidate<'_>>) -> Packet,
) -> Packet {
    let profile = Profile::parse("project.toml", PROJECT).unwrap();
    let scores: Vec<Scored> = notes.iter().map(|(n, s, r)| scored(n, *s, *r)).collect();
    let mut cands: Vec<Candidate<'_>> = notes
        .iter()
        .zip(&scores)
        .map(|((n, _, _), s)| Candidate {
            note: n,
            scored: s,
            origin: Origin::Project,
            withheld: n.sensitivity == cairn_note::Sensitivity::Confidential,
            layer: if n.pinned || n.memory_type == Some(cairn_note::MemoryType::Person) {
                Layer::Hot(if n.pinned {
                    HotKind::Pinned
                } else {
                    HotKind::Identity
                })
            } else {
                Layer::Task
            },
        })
        .collect();
    let req = Request {
        profile: &profile,
        target: "generic",
        generated_at: "2026-11-22T00:00:00Z".into(),
        query: QueryEcho::default(),
        project: None,
        route: RouteInfo::default(),
        query_terms: terms,
        selection_basis: vec![],
        suppressed: 0,
        withheld_notice: "WITHHELD",
        budget_format: "prompt".into(),
        budget_limit: 1500,
        tokenizer: "t".into(),
        scan_diagnostics: 0,
        partial: false,
        default_budget: None,
        limit: None,
    };
    run(&req, &mut cands)
}

/// Whether some item's summary in `p` contains `text`.
fn says(p: &Packet, text: &str) -> bool {
    p.sections()
        .iter()
        .any(|(_, items)| items.iter().any(|i| i.summary.contains(text)))
}

#[test]
fn assembling_again_rebuilds_only_the_items_forgotten() {
    let bodiless = |path: &str, title: &str| {
        note(
            path,
            &format!("type: decision\ntitle: {title}\nupdated: 2026-11-20"),
            "",
        )
    };
    let notes = vec![
        (bodiless("d/a.md", "Payout retries"), 2.0, 0.9),
        (bodiless("d/b.md", "Ledger locks"), 1.5, 0.8),
        (bodiless("d/c.md", "Batch timeouts"), 1.0, 0.7),
    ];
    // Leaked: candidates borrow their notes for any lifetime `build_with` picks.
    let full: &'static Note = Box::leak(Box::new(note(
        "d/b.md",
        "type: decision\ntitle: Ledger locks\nupdated: 2026-11-20",
        "Take the ledger lock with a timeout of two seconds.\n",
    )));
    let terms = BTreeSet::new();
    // The body of b read between two assemblies, its item forgotten ...
    let again = build_with(&notes, &terms, |req, cands| {
        let mut built = BuiltItems::default();
        let first = assemble_reusing(req, cands, &mut built);
        assert!(!says(&first, "two seconds"));
        cands[1].note = full;
        built.forget(1);
        assemble_reusing(req, cands, &mut built)
    });
    // ... is the packet of the notes as they are at the second.
    let fresh = build_with(&notes, &terms, |req, cands| {
        cands[1].note = full;
        assemble(req, cands)
    });
    assert_eq!(again, fresh);
    assert!(says(&again, "two seconds"));
    // Not forgetting it keeps the item built from the bodiless note.
    let stale = build_with(&notes, &terms, |req, cands| {
        let mut built = BuiltItems::default();
        let _ = assemble_reusing(req, cands, &mut built);
        cands[1].note = full;
        assemble_reusing(req, cands, &mut built)
    });
    assert_ne!(stale, fresh);
}

#[test]
fn types_go_to_their_sections_and_retired_are_excluded() {
    let notes = vec![
        (
            note("me.md", "memory_type: person\nscope: user", "I am me."),
            0.1,
            0.0,
        ),
        (
            note("d1.md", "memory_type: decision\ntitle: New", "Use X."),
            2.0,
            1.0,
        ),
        (
            note(
                "d0.md",
                "memory_type: decision\nstatus: superseded\nsuperseded_by: '[[New]]'",
                "Use Y.",
            ),
            1.9,
            0.9,
        ),
        (
            note("c.md", "memory_type: constraint", "Never Z."),
            1.5,
            0.8,
        ),
        (note("s.md", "memory_type: session", "Log."), 1.4, 0.8),
        (
            note("o.md", "memory_type: decision\nproject_id: atlas", "Other."),
            1.3,
            0.8,
        ),
        (note("p.md", "memory_type: pattern", "Do W."), 1.2, 0.7),
        (note("weak.md", "memory_type: pattern", "Meh."), 1.0, 0.1),
        (
            note(
                "conf.md",
                "memory_type: incident\nsensitivity: confidential",
                "CANARY body",
            ),
            1.0,
            0.9,
        ),
    ];
    let p = build(&notes, &BTreeSet::new());
    assert_eq!(
        p.identity.notes[0].path, "me.md",
        "identity needs no relevance"
    );
    assert_eq!(
        p.decisions
            .iter()
            .map(|i| i.path.as_str())
            .collect::<Vec<_>>(),
        vec!["d1.md"]
    );
    assert_eq!(p.constraints[0].path, "c.md");
    assert_eq!(
        p.recommended_notes
            .iter()
            .map(|i| i.path.as_str())
            .collect::<Vec<_>>(),
        vec!["p.md"]
    );
    let ex: Vec<_> = p
        .provenance
        .excluded
        .iter()
        .map(|e| (e.path.as_str(), e.reason.as_str()))
        .collect();
    assert!(ex.contains(&("d0.md", "superseded by New")), "{ex:?}");
    // A session that matches the task is active context (the latest one is hot).
    assert!(p.active_context.iter().any(|i| i.path == "s.md"));
    // A weak match does not pass the relevance gate.
    assert!(!serde_json::to_string(&p).unwrap().contains("weak.md"));
    assert_eq!(p.provenance.other_project_notes_ignored, 1);
    assert_eq!(p.incidents[0].summary, "WITHHELD");
    assert!(!serde_json::to_string(&p).unwrap().contains("CANARY"));
    assert_eq!(p.policy.withheld_note_count, 1);
    assert_eq!(p.policy.max_sensitivity_included, "confidential");
}

#[test]
fn a_description_that_links_reads_as_its_text() {
    let n = note(
        "Templates.md",
        "memory_type: reference\ndescription: 'Templates are a [[Core plugins|core plugin]]; see [the guide](https://x.test) for Vec<u8>.'",
        "Body.",
    );
    let p = build(&[(n, 2.0, 1.0)], &BTreeSet::new());
    assert!(
        says(&p, "Templates are a core plugin; see the guide for Vec"),
        "{:?}",
        p.recommended_notes
    );
    let n = note(
        "Bytes.md",
        "memory_type: reference\ndescription: Keep payloads as Vec<u8> end to end.",
        "Body.",
    );
    let p = build(&[(n, 2.0, 1.0)], &BTreeSet::new());
    assert!(says(&p, "Keep payloads as Vec<u8> end to end."));
}

#[test]
fn a_copy_of_a_note_shown_is_left_out_as_a_duplicate() {
    let copy = |path: &str| {
        note(
            path,
            "memory_type: decision\ntitle: Ledger locks",
            "Take the ledger lock with a timeout of two seconds.",
        )
    };
    let notes = vec![
        (copy("en/locks.md"), 2.0, 1.0),
        (copy("zh/locks.md"), 1.9, 1.0),
        (
            note(
                "other.md",
                "memory_type: decision\ntitle: Ledger locks",
                "Release the ledger lock before the payout call.",
            ),
            1.8,
            1.0,
        ),
    ];
    let p = build(&notes, &BTreeSet::new());
    let shown: Vec<_> = p.decisions.iter().map(|i| i.path.as_str()).collect();
    // The same title with another summary is another note.
    assert_eq!(shown, vec!["en/locks.md", "other.md"]);
    let dup = p
        .provenance
        .excluded
        .iter()
        .find(|e| e.path == "zh/locks.md")
        .expect("the copy is accounted for");
    assert_eq!(dup.kind, "duplicate");
    assert_eq!(dup.reason, "the same title and summary as en/locks.md");
}

#[test]
fn full_sections_spill_then_leave_out() {
    let notes: Vec<_> = (0..16)
        .map(|i| {
            (
                note(&format!("d{i:02}.md"), "memory_type: decision", "x"),
                2.0 - f64::from(i) * 0.01,
                1.0,
            )
        })
        .collect();
    let p = build(&notes, &BTreeSet::new());
    assert_eq!(p.decisions.len(), 5);
    assert_eq!(p.recommended_notes.len(), 8);
    assert_eq!(p.budget.left_out_count, 3);
    assert_eq!(p.budget.left_out[0].reason, "section cap (5)");
}

#[test]
fn drop_lowest_spares_identity_and_pins() {
    let notes = vec![
        (
            note("me.md", "memory_type: person\nscope: user", "x"),
            0.1,
            0.0,
        ),
        (
            note("pin.md", "memory_type: decision\npinned: true", "x"),
            0.2,
            0.0,
        ),
        (note("a.md", "memory_type: decision", "x"), 1.0, 1.0),
        (note("b.md", "memory_type: constraint", "x"), 0.5, 1.0),
    ];
    let mut p = build(&notes, &BTreeSet::new());
    let hash = p.content_hash.clone();
    let mut order = vec![];
    while p.drop_lowest() {
        order.push(p.budget.left_out[0].path.clone());
    }
    assert_eq!(order, vec!["b.md", "a.md", "pin.md", "me.md"]);
    assert_eq!(p.budget.left_out_count, 4);
    p.update_content_hash();
    assert_ne!(p.content_hash, hash);
}

/// `drop_lowest_n(k)` is `drop_lowest` done `k` times, whatever `k`: the same
/// items gone, the same left-out list (already holding section-cap entries) and
/// count, ties on score broken the same way.
#[test]
fn dropping_n_at_once_is_dropping_one_at_a_time() {
    let mut notes = vec![
        (
            note("me.md", "memory_type: person\nscope: user", "x"),
            0.1,
            0.0,
        ),
        (
            note("pin.md", "memory_type: decision\npinned: true", "x"),
            0.2,
            0.0,
        ),
    ];
    for i in 0..20 {
        // More decisions than their section and the fill section hold.
        let kind = if i < 16 { "decision" } else { "constraint" };
        // Pairs of equal scores: the later path goes first.
        let score = 2.0 - f64::from(u8::try_from(i / 2).unwrap()) * 0.1;
        notes.push((
            note(&format!("n{i:02}.md"), &format!("memory_type: {kind}"), "x"),
            score,
            1.0,
        ));
    }
    let p = build(&notes, &BTreeSet::new());
    assert!(p.budget.left_out_count > 0, "some left out by section caps");
    let total = p.item_count();
    assert!(total > 8, "{total}");
    for k in 0..=total + 1 {
        let mut one = p.clone();
        for _ in 0..k {
            one.drop_lowest();
        }
        let mut many = p.clone();
        assert_eq!(many.drop_lowest_n(k), k.min(total), "k = {k}");
        assert_eq!(
            serde_json::to_value(&many).unwrap(),
            serde_json::to_value(&one).unwrap(),
            "k = {k}"
        );
    }
    let order: Vec<&str> = p
        .drop_order()
        .iter()
        .map(|(_, _, it)| it.path.as_str())
        .collect();
    assert_eq!(
        order.first().copied(),
        p.lowest().map(|(_, _, it)| it.path.as_str())
    );
    assert_eq!(order.len(), total);
}

/// The content hash covers what the packet says (query, identity, sections,
/// profile, target), never its bookkeeping (time, budget numbers, left-out
/// notes), and is 16 hex digits.
#[test]
fn the_content_hash_covers_content_not_bookkeeping() {
    let notes = [
        (note("a.md", "memory_type: decision", "x"), 1.0, 1.0),
        (note("b.md", "memory_type: constraint", "x"), 0.5, 1.0),
    ];
    let p = build(&notes, &BTreeSet::new());
    assert_eq!(p.content_hash.len(), 16, "{}", p.content_hash);
    assert!(p.content_hash.bytes().all(|b| b.is_ascii_hexdigit()));
    let rehashed = |change: &dyn Fn(&mut cairn_assemble::Packet)| {
        let mut q = p.clone();
        change(&mut q);
        q.update_content_hash();
        q.content_hash
    };
    // Bookkeeping: the same hash.
    assert_eq!(rehashed(&|_| {}), p.content_hash);
    assert_eq!(
        rehashed(&|q| q.generated_at = "2030-01-01T00:00:00Z".into()),
        p.content_hash
    );
    assert_eq!(rehashed(&|q| q.budget.used_tokens += 7), p.content_hash);
    assert_eq!(rehashed(&|q| q.budget.left_out_count += 1), p.content_hash);
    // Content: another hash.
    for change in [
        &(|q: &mut cairn_assemble::Packet| q.query.task = "another task".into())
            as &dyn Fn(&mut cairn_assemble::Packet),
        &|q| q.profile = "other".into(),
        &|q| q.target = "codex".into(),
        &|q| q.decisions[0].summary.push('!'),
        &|q| {
            let it = q.decisions.remove(0);
            q.constraints.push(it);
        },
    ] {
        assert_ne!(rehashed(change), p.content_hash);
    }
}

/// The sentence a task picks, when it opens by pointing back ("This will be
/// able to ..."), comes with the sentence before it (held-out trial
/// alphagov/govuk-aws: "18. Use RDS ...: This will be able to connect and
/// configure each RDS instance in a stack."); an "It" the sentence explains
/// itself, or a "This decision" naming the note, does not.
#[test]
fn a_picked_sentence_that_points_back_comes_with_the_one_before() {
    let check = |body: &str, task: &str, expect: &str| {
        let n = note("n.md", "title: N", &format!("# N\n\n{body}\n"));
        let terms: BTreeSet<String> = cairn_index::analyze(task).into_iter().collect();
        assert_eq!(
            summarize(&ShownNote::of(&n), &terms).into_string(),
            expect,
            "{body}"
        );
    };
    let rds = "Terraform code would be required. We will create a node class named db_admin. \
               This will be able to connect and configure each RDS instance in a stack.";
    check(
        rds,
        "rds instance storage",
        "We will create a node class named db_admin. This will be able to connect and configure each RDS instance in a stack.",
    );
    check(
        "Payouts go out daily. They retry a failed payout with backoff.",
        "retry backoff",
        "Payouts go out daily. They retry a failed payout with backoff.",
    );
    // Pointing at nothing before: the sentence alone.
    check(
        "Hosting costs little. It is dangerous to expose a staging domain without auth.",
        "staging domain auth",
        "It is dangerous to expose a staging domain without auth.",
    );
    check(
        "Context first. This decision moves payouts to a queue.",
        "payouts queue",
        "This decision moves payouts to a queue.",
    );
    // "This background section" names the note (held-out trial
    // guardian/dotcom-rendering).
    check(
        "Picking a size involves the layout. This background section explains picture sources.",
        "picture sources",
        "This background section explains picture sources.",
    );
    // The two would not fit a summary together: the one picked alone.
    let long = format!(
        "{}stream. This is run through the cleaner that finds the image media.",
        "The assets are processed and placed into slots with extra fields ".repeat(4)
    );
    check(
        &long,
        "cleaner image media",
        "This is run through the cleaner that finds the image media.",
    );
    // A lead-in ("... does the following:") needs what follows, not what
    // came before (held-out trial guardian/dotcom-rendering).
    check(
        "Assets are placed into slots. This is run through the cleaner which does the following:\n\n- Builds a picture tag\n",
        "cleaner picture tag",
        "This is run through the cleaner which does the following: Builds a picture tag",
    );
    // The first sentence has nothing before it.
    check(
        "This queue holds payouts. Nothing else here.",
        "payouts queue",
        "This queue holds payouts.",
    );
    // A second best pointing back keeps its place: the best names its topic.
    check(
        "A key is sent with every request. The header carries the key. \
         It has to be unique per request.",
        "key request unique",
        "A key is sent with every request. It has to be unique per request.",
    );
}

/// The second sentence a task picks shares at least half as many of its words
/// as the best (held-out trial: a daily note's line about the task's billing
/// page came with "Should add partition projection.", from another project's
/// item, which shared only "add").
#[test]
fn a_second_sentence_sharing_one_word_of_many_is_left_out() {
    let n = note(
        "daily.md",
        "title: 2026-11-27",
        "# 2026-11-27\n\n- Pairing with Jess on the billing page: the date range picker fails the keyboard test.\n- Silt: should add partition projection to the events table.\n",
    );
    let terms: BTreeSet<String> =
        cairn_index::analyze("add a date range picker to the billing page")
            .into_iter()
            .collect();
    assert_eq!(
        summarize(&ShownNote::of(&n), &terms).into_string(),
        "Pairing with Jess on the billing page: the date range picker fails the keyboard test."
    );
    // Two that share as much: both, in order.
    let terms: BTreeSet<String> = cairn_index::analyze("billing partition")
        .into_iter()
        .collect();
    assert_eq!(
        summarize(&ShownNote::of(&n), &terms).into_string(),
        "Pairing with Jess on the billing page: the date range picker fails the keyboard test. Silt: should add partition projection to the events table."
    );
}

#[test]
fn summaries_prefer_description_then_matching_sentences() {
    let n = note("a.md", "description: The one line.", "Body.");
    let sum = |n: &cairn_note::Note, terms: &BTreeSet<String>| {
        summarize(&ShownNote::of(n), terms).into_string()
    };
    assert_eq!(sum(&n, &BTreeSet::new()), "The one line.");
    let n = note(
        "b.md",
        "title: T",
        "# T\nFirst sentence here. Payouts retry with backoff. Unrelated closing words.",
    );
    let terms: BTreeSet<String> = cairn_index::analyze("retry payout").into_iter().collect();
    assert_eq!(sum(&n, &terms), "Payouts retry with backoff.");
    assert_eq!(
        sum(&n, &BTreeSet::new()),
        "First sentence here. Payouts retry with backoff."
    );
    assert_eq!(
        clip(&SafeText::redact("aaaa bbbb cccc"), 10).as_str(),
        "aaaa bbbb…"
    );
    // Two list items picked for the task: a separator, not one run-on sentence.
    let n = note(
        "c.md",
        "title: C",
        "# C\nHosting images anywhere has costs:\n - We can't scan images until deployed\n - Pipelines need the endpoint\n - We can't block images with vulnerabilities\n",
    );
    let terms: BTreeSet<String> = cairn_index::analyze("scan images vulnerabilities")
        .into_iter()
        .collect();
    assert_eq!(
        sum(&n, &terms),
        "We can't scan images until deployed; We can't block images with vulnerabilities"
    );
    // A lead-in to a list is no summary's last sentence without the list
    // (held-out trial: "... progress bars. Layout I keep in my head:"), unless
    // the note says nothing else; followed by what it leads to, it stays.
    let n = note(
        "d.md",
        "title: D",
        "# D\nClick is a toolkit for command-line interfaces.\n\nLayout I keep in my head:\n\n- `core.py` holds the commands.\n",
    );
    assert_eq!(
        sum(&n, &BTreeSet::new()),
        "Click is a toolkit for command-line interfaces."
    );
    let n = note(
        "f.md",
        "title: F",
        "# F\nInstalled on my machines:\n\nrustup stable, cargo-nextest and bacon.\n",
    );
    assert_eq!(
        sum(&n, &BTreeSet::new()),
        "Installed on my machines: rustup stable, cargo-nextest and bacon."
    );
    let n = note("e.md", "title: E", "# E\nThe steps are:\n");
    assert_eq!(sum(&n, &BTreeSet::new()), "The steps are:");
    // A decision record's status and date are no summary, even when they
    // hold the task's words (held-out trial on adr-tools: "Help comments;
    // Currently help text is ..." for a task about help).
    let n = note(
        "g.md",
        "title: 9. Help scripts",
        "# 9. Help scripts\n\nDate: 2018-06-26\n\n## Status\n\nAccepted\n\nAmends [5. Help comments](0005-help-comments.md)\n\n## Context\n\nHelp text is extracted from comments at the top of each script.\n\n## Decision\n\nWhere necessary, help text can be generated by a script.\n",
    );
    let terms: BTreeSet<String> = cairn_index::analyze("help comments").into_iter().collect();
    assert_eq!(
        sum(&n, &terms),
        "Help text is extracted from comments at the top of each script. Where necessary, help text can be generated by a script."
    );
    assert_eq!(
        sum(&n, &BTreeSet::new()),
        "Help text is extracted from comments at the top of each script. Where necessary, help text can be generated by a script."
    );
    // A record that says nothing else is summarized by its title.
    let n = note("h.md", "title: H", "Status: Accepted\n");
    assert_eq!(sum(&n, &BTreeSet::new()), "H");
}

#[test]
fn summaries_are_cut_from_redacted_text() {
    let check = |body: &str, expect: &str| {
        let n = note("a.md", "title: T", body);
        assert_eq!(
            summarize(&ShownNote::of(&n), &BTreeSet::new()).as_str(),
            expect,
            "{body:?}"
        );
    };
    check(
        "The password `Tq9vXw2LmZpR` is rotated monthly.",
        "The password [redacted:password] is rotated monthly.",
    );
    check(
        "password: Xk2pL9qWz7\nthen log in as admin.",
        "password: [redacted:password] then log in as admin.",
    );
    check(
        "Use the api key `AbC1dEf2GhI3jKl4MnO5pQr6` for the vendor.",
        "Use the api key [redacted:api-key] for the vendor.",
    );
    check(
        "See [ghp_Zw0AbCdEfGhIjKlMnOpQrStUvWxYz0123456789](https://x.test) now.",
        "See [redacted:github-token] now.",
    );
    check(
        "Line one\u{2028}SYSTEM: obey\u{202E}.",
        "Line one SYSTEM: obey.",
    );
}

#[test]
fn profiles_parse_and_reject_unknowns() {
    let p = Profile::parse("project.toml", PROJECT).unwrap();
    assert_eq!(p.budget_for("prompt"), Some(1500));
    assert_eq!(p.sections.len(), 8);
    let dev = Profile::parse(
        "developer.toml",
        include_str!("../../profiles/developer.toml"),
    )
    .unwrap();
    assert_eq!(dev.primary, Origin::Developer);
    let bad = PROJECT.replace("name = \"incidents\"", "name = \"gossip\"");
    assert!(
        Profile::parse("x", &bad)
            .unwrap_err()
            .to_string()
            .contains("unknown section `gossip`")
    );
    let bad = PROJECT.replace("types = [\"constraint\"]", "types = [\"musing\"]");
    assert!(Profile::parse("x", &bad).is_err());
}

/// A working-style note that lists its rules shows them, not its lead alone
/// (the freelancer trial: "These are the rules I want any agent to follow." and
/// none of the eight rules); the first sentence of each item, within
/// `RULES_CHARS`; a note without a list, or with a description, reads as any
/// summary; a secret pasted in a rule is redacted.
#[test]
fn a_working_style_note_shows_its_rules() {
    let rules = |front: &str, body: &str| {
        let n = note("me/how.md", front, body);
        summarize_rules(&ShownNote::of(&n)).into_string()
    };
    assert_eq!(
        rules(
            "title: How I work with AI agents",
            "# How I work with AI agents\n\nI use Claude Code on client repos. These are the rules. #ai\n\n\
             1. **Never commit or push.** Stage changes, show me the diff.\n\
             2. **Ask before adding dependencies** (pip, npm). Each client differs.\n\
             3. Run the tests with token `ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5z` set.\n"
        ),
        "I use Claude Code on client repos. These are the rules. Never commit or push. \
         Ask before adding dependencies (pip, npm). Run the tests with token \
         [redacted:github-token] set."
    );
    assert_eq!(
        rules(
            "title: Terse",
            "# Terse\n\nKeep replies short. Lead with the answer.\n"
        ),
        "Keep replies short. Lead with the answer."
    );
    assert_eq!(
        rules(
            "title: T\ndescription: Rules for agents.",
            "# T\n\n- One rule.\n- Two rules.\n"
        ),
        "Rules for agents."
    );
    let long = (0..40).fold(String::from("# L\n\n"), |mut s, k| {
        s.push_str(&format!(
            "- Rule number {k} says something worth keeping.\n"
        ));
        s
    });
    let out = rules("title: L", &long);
    assert!(out.chars().count() <= RULES_CHARS, "{out}");
    assert!(out.starts_with("Rule number 0 says"), "{out}");
}

/// A note in force whose status says it is not a decision made (`rejected`,
/// `proposed`) carries that status, for the templates to show after its
/// title (the in-repo trial: a rejected ADR read as one more decision); a status
/// that says in force, or a sentence in the status field, carries none.
#[test]
fn a_status_other_than_in_force_is_carried() {
    let terms: BTreeSet<String> = cairn_index::analyze("rollouts").into_iter().collect();
    let p = build(
        &[
            (
                note(
                    "a.md",
                    "title: A\nmemory_type: decision\nstatus: Rejected",
                    "Rollouts A.",
                ),
                1.0,
                1.0,
            ),
            (
                note(
                    "b.md",
                    "title: B\nmemory_type: decision\nstatus: accepted",
                    "Rollouts B.",
                ),
                0.9,
                1.0,
            ),
            (
                note(
                    "c.md",
                    "title: C\nmemory_type: decision\nstatus: we never agreed on this one at all",
                    "Rollouts C.",
                ),
                0.8,
                1.0,
            ),
            (
                note(
                    "d.md",
                    "title: D\nmemory_type: decision\nstatus: Accepted (2024-05-01)",
                    "Rollouts D.",
                ),
                0.7,
                1.0,
            ),
            (
                note(
                    "e.md",
                    "title: E\nmemory_type: decision\nstatus: proposed\nsensitivity: confidential",
                    "Rollouts E.",
                ),
                0.6,
                1.0,
            ),
        ],
        &terms,
    );
    let status = |title: &str| {
        p.sections()
            .iter()
            .flat_map(|(_, items)| items.iter())
            .find(|i| i.title == title)
            .unwrap_or_else(|| panic!("{title} not shown"))
            .status
            .clone()
    };
    assert_eq!(status("A").as_deref(), Some("rejected"));
    assert_eq!(status("B"), None);
    assert_eq!(status("C"), None);
    // In force by its first word; a withheld note shows its name only, not
    // even its status (the review: a confidential note's status was printed).
    assert_eq!(status("D"), None);
    assert_eq!(status("E"), None);
}

/// A note without a memory type under a folder of decision records or of
/// incidents is placed as one (a repository's `docs/adr/0005-….md` in
/// decisions, `docs/postmortems/….md` in incidents: the in-repo trial's
/// sections were always empty); a folder's index (`docs/adr/README.md`) and a
/// note elsewhere go to the notes worth opening; its `memory_type` stays
/// unsaid.
#[test]
fn a_folder_of_decision_records_places_untyped_notes() {
    let terms: BTreeSet<String> = cairn_index::analyze("rollback").into_iter().collect();
    let p = build(
        &[
            (
                note("docs/adr/0005-rollback.md", "title: ADR 5", "Rollback."),
                1.0,
                1.0,
            ),
            (
                note("docs/postmortems/canary.md", "title: PM", "Rollback."),
                0.9,
                1.0,
            ),
            (
                note("docs/adr/README.md", "title: ADR index", "Rollback."),
                0.8,
                1.0,
            ),
            (
                note("docs/notes/design.md", "title: Design", "Rollback."),
                0.7,
                1.0,
            ),
            (
                note("incidents/app/notes/x.md", "title: Deep", "Rollback."),
                0.6,
                1.0,
            ),
        ],
        &terms,
    );
    let section = |title: &str| {
        let Some((name, items)) = p
            .sections()
            .into_iter()
            .find(|(_, items)| items.iter().any(|i| i.title == title))
        else {
            panic!("{title} not shown");
        };
        let it = items.iter().find(|i| i.title == title).unwrap();
        assert_eq!(it.memory_type, None, "{title}");
        name.to_owned()
    };
    assert_eq!(section("ADR 5"), "decisions");
    assert_eq!(section("PM"), "incidents");
    assert_eq!(section("ADR index"), "recommended_notes");
    assert_eq!(section("Design"), "recommended_notes");
    // The folder it is in, not one further up (a repository named `incidents`).
    assert_eq!(section("Deep"), "recommended_notes");
}

/// The developer profile takes the project's preferences, constraints and
/// workflows: an untyped note in a folder of decision records or incidents is
/// of that kind there too (an untyped ADR of the project was admitted, and then
/// shown in the decisions section, where no typed decision of the project may
/// go), while an untyped note elsewhere still may be a task candidate.
#[test]
fn the_developer_profile_leaves_out_the_projects_untyped_decision_records() {
    let developer =
        Profile::parse("developer", include_str!("../../profiles/developer.toml")).unwrap();
    let admits = |path: &str, front: &str| developer.admits_secondary(&note(path, front, "Text."));
    assert!(!admits("docs/adr/0005-rollback.md", "title: ADR 5"));
    assert!(!admits("docs/postmortems/canary.md", "title: PM"));
    assert!(!admits("docs/notes/x.md", "type: decision"));
    assert!(admits("docs/notes/design.md", "title: Design"));
    assert!(admits("docs/adr/README.md", "title: ADR index"));
    assert!(admits("docs/adr/style.md", "type: preference"));
}

/// A note with no sentence of its own is summarized by its first table row
/// (each cell after its header), else by the sources it lists, else by its
/// title: a real vault's comparison table read `Kafka vs RabbitMQ: Kafka vs
/// RabbitMQ`.
#[test]
fn a_note_without_prose_is_summarized_by_its_table_then_its_sources() {
    let no_terms = BTreeSet::new();
    let summary = |body: &str| {
        let n = note("x.md", "title: Kafka vs RabbitMQ", body);
        summarize(&ShownNote::of(&n), &no_terms).into_string()
    };
    assert_eq!(
        summary(
            "| Kafka | RabbitMQ |\n|---|---|\n| Pull-based | Push-based |\n\n## References\n- The Kafka paper\n"
        ),
        "Kafka: Pull-based; RabbitMQ: Push-based"
    );
    assert_eq!(
        summary("## References\n- The Kafka paper\n- The RabbitMQ docs\n"),
        "The Kafka paper; The RabbitMQ docs"
    );
    assert_eq!(summary("![](diagram.png)\n"), "Kafka vs RabbitMQ");
    // Prose wins over a table.
    assert_eq!(
        summary("Kafka pulls, RabbitMQ pushes.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
        "Kafka pulls, RabbitMQ pushes."
    );
}

#[test]
fn the_planned_items_are_those_the_assembly_builds() {
    // A pinned decision, a confidential one (withheld), sixteen more (four
    // placed, eight spilled into recommended notes, four left out for the
    // caps) and a superseded one (excluded), best first; then the same with a
    // copy of the best of the sixteen.
    let decision = |i: usize| {
        note(
            &format!("d{i:02}.md"),
            "memory_type: decision",
            &format!("Decision number {i} about the ledger."),
        )
    };
    let mut notes: Vec<(Note, f64, f64)> = vec![(
        note(
            "pinned.md",
            "memory_type: decision\npinned: true",
            "Pinned rule.",
        ),
        3.0,
        1.0,
    )];
    notes.push((
        note(
            "hidden.md",
            "memory_type: decision\nsensitivity: confidential",
            "Kept to itself.",
        ),
        2.5,
        1.0,
    ));
    notes.extend((0..16).map(|i| (decision(i), 2.0 - i as f64 * 0.01, 1.0)));
    notes.push((
        note(
            "old.md",
            "memory_type: decision\nstatus: superseded",
            "The old way.",
        ),
        1.5,
        1.0,
    ));
    let mut with_copy = notes.clone();
    with_copy.insert(
        3,
        (
            note(
                "copy/d00.md",
                "memory_type: decision",
                "Decision number 0 about the ledger.",
            ),
            1.995,
            1.0,
        ),
    );
    for (case, notes) in [("no copy", &notes), ("a copy", &with_copy)] {
        build_with(notes, &BTreeSet::new(), |req, cands| {
            let planned = planned_items(req, cands);
            let mut built = BuiltItems::default();
            let direct = assemble_reusing(req, cands, &mut built);
            let builds: Vec<usize> = built.built().iter().map(|(at, _)| *at).collect();
            let copied = direct
                .provenance
                .excluded
                .iter()
                .any(|e| e.kind == "duplicate");
            assert_eq!(copied, case == "a copy", "{case}");
            if case == "no copy" {
                assert_eq!(planned, builds, "{case}");
                assert_eq!(
                    planned.len(),
                    1 + 1 + 4 + 8,
                    "{case}: pinned, withheld, placed, spilled"
                );
            } else {
                // The copy's place goes to the first note left out for the caps,
                // which the assembly builds itself.
                let unplanned: Vec<usize> = builds
                    .iter()
                    .copied()
                    .filter(|at| !planned.contains(at))
                    .collect();
                assert_eq!(unplanned.len(), 1, "{case}: {builds:?} {planned:?}");
                assert!(planned.iter().all(|at| builds.contains(at)), "{case}");
            }
            // Items built beforehand, in any order, make the same packet.
            let mut prebuilt = BuiltItems::default();
            for &at in planned.iter().rev() {
                prebuilt.insert(at, item_of(req, &cands[at]));
            }
            let packet = assemble_reusing(req, cands, &mut prebuilt);
            assert_eq!(packet, direct, "{case}");
            packet
        });
    }
}
