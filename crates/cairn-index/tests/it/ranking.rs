//! The ranking formula, case by case: textbook BM25 for the baseline, curated fields,
//! dates, proximity and passages, and `explain` adding up to the score.

// Exact values: every figure here comes from fixed inputs and exact arithmetic.
#![allow(clippy::float_cmp)]
#![allow(clippy::unwrap_used)] // test helpers, like the tests, fail loudly

use cairn_index::*;
use cairn_note::parse_note;

fn note(path: &str, text: &str) -> cairn_note::Note {
    parse_note(path, text.as_bytes()).note.unwrap()
}

fn q(text: &str) -> QueryTerms {
    let mut q = QueryTerms::default();
    q.add_text(text, 1.0);
    q.add_pairs(text);
    q
}

fn order(idx: &NoteIndex, r: &Ranker, text: &str) -> Vec<String> {
    idx.search_with(&q(text), r, None, 10)
        .unwrap()
        .into_iter()
        .map(|h| h.path)
        .collect()
}

#[test]
fn plain_is_textbook_bm25() {
    // Bodies without titles or headings: the contents field is the title (the file
    // stem) plus the body, so every length below is exact.
    let notes = vec![
        note("d1.md", "kafka kafka broker"),
        note("d2.md", "kafka consumer lag grows slowly"),
        note("d3.md", "postgres vacuum"),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let hits = idx
        .search_with(&q("kafka"), &Ranker::PLAIN, None, 10)
        .unwrap();
    assert_eq!(hits.len(), 2);
    // Contents: "d1\nkafka kafka broker" = 4 tokens, "d2\n..." = 6, "d3\n..." = 3.
    let (n, df, avg) = (3.0_f32, 2.0_f32, 13.0_f32 / 3.0);
    let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
    let bm25 = |tf: f32, len: f32| idf * 2.2 * tf / (tf + 1.2 * (0.25 + 0.75 * len / avg));
    assert_eq!(hits[0].path, "d1.md");
    assert!((hits[0].bm25 - bm25(2.0, 4.0)).abs() < 1e-4, "{hits:?}");
    assert!((hits[1].bm25 - bm25(1.0, 6.0)).abs() < 1e-4, "{hits:?}");
    assert_eq!(hits[0].proximity, 0.0);
}

#[test]
fn curated_fields_count_on_their_own() {
    let notes = vec![
        note(
            "tagged.md",
            "---\ntags: [kafka]\n---\nConsumers read kafka topics.",
        ),
        note("plain.md", "Consumers read kafka topics."),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    assert_eq!(
        order(&idx, &Ranker::default(), "kafka"),
        vec!["tagged.md", "plain.md"]
    );
    // The baseline reads the contents field only: both score the same, ties by path.
    assert_eq!(
        order(&idx, &Ranker::PLAIN, "kafka"),
        vec!["plain.md", "tagged.md"]
    );
}

#[test]
fn a_date_in_the_query_matches_the_note_date() {
    let notes = vec![
        note(
            "may.md",
            "---\ndate: 2023-05-08\n---\nWe talked about the garden.",
        ),
        note(
            "june.md",
            "---\ndate: 2023-06-27\n---\nWe talked about the garden.",
        ),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    for text in [
        "garden on 8 May, 2023",
        "the garden in May",
        "garden, 8th May",
    ] {
        assert_eq!(order(&idx, &Ranker::default(), text)[0], "may.md", "{text}");
    }
    assert_eq!(
        order(&idx, &Ranker::default(), "garden in June")[0],
        "june.md"
    );
}

#[test]
fn words_near_each_other_rank_first() {
    let filler = "the weather was mild and the team met for lunch. ".repeat(12);
    // The same words, so the same length: only their distance differs.
    let near = format!("consumer lag alpha {filler} beta");
    let far = format!("consumer alpha beta {filler} lag");
    let notes = vec![note("far.md", &far), note("near.md", &near)];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let full = idx
        .search_with(&q("consumer lag"), &Ranker::default(), None, 10)
        .unwrap();
    assert_eq!(full[0].path, "near.md");
    assert!(full[0].proximity > full[1].proximity);
    // Without proximity and passages both notes have the same words and length.
    let plain = idx
        .search_with(&q("consumer lag"), &Ranker::PLAIN, None, 10)
        .unwrap();
    assert!((plain[0].bm25 - plain[1].bm25).abs() < 1e-4, "{plain:?}");
}

#[test]
fn explain_adds_up_to_the_score() {
    let notes = vec![
        note(
            "p/retry.md",
            "---\ntitle: Payout retries\ntags: [retry]\ntriggers: [retry storm]\n---\n# Payout retries\nWe retry payouts with backoff.",
        ),
        note("p/other.md", "Payouts settle nightly; no retry here."),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let r = Ranker {
        proximity: 0.0,
        passage: 0.0,
        ..Ranker::default()
    };
    let query = q("retry payouts");
    for hit in idx.search_with(&query, &r, None, 10).unwrap() {
        let parts = idx.explain_with(&query, &r, None, &hit.path).unwrap();
        let sum: f32 = parts.iter().map(|p| p.score).sum();
        assert!(
            (sum - hit.bm25).abs() < 1e-3,
            "{}: {sum} vs {}",
            hit.path,
            hit.bm25
        );
    }
}

#[test]
fn folders_restrict_without_changing_statistics() {
    let notes = vec![
        note("a/one.md", "retry budget"),
        note("b/two.md", "retry budget"),
        note("b/three.md", "unrelated words"),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let all = idx
        .search_with(&q("retry"), &Ranker::default(), None, 10)
        .unwrap();
    let only_a = idx
        .search_with(&q("retry"), &Ranker::default(), Some(&["a".to_owned()]), 10)
        .unwrap();
    assert_eq!(only_a.len(), 1);
    assert_eq!(only_a[0].path, "a/one.md");
    let same = all.iter().find(|h| h.path == "a/one.md").unwrap();
    assert!((same.bm25 - only_a[0].bm25).abs() < 1e-6);
    assert!(
        idx.search_with(&q("retry"), &Ranker::default(), Some(&["c".to_owned()]), 10)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn limit_keeps_ties_by_path() {
    let notes: Vec<_> = (0..6)
        .map(|i| note(&format!("n{i}.md"), "same words here"))
        .collect();
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let hits = idx
        .search_with(&q("words"), &Ranker::default(), None, 3)
        .unwrap();
    let paths: Vec<_> = hits.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths, vec!["n0.md", "n1.md", "n2.md"]);
}

/// A word's document frequency counts the live notes of the whole index, in
/// the search's folders or not, and not a deleted note still in its segment:
/// the scores are those of a fresh index of the live notes, searched in the
/// same folder, for words in the body and in the title.
#[test]
fn document_frequency_counts_live_notes_of_every_folder() {
    let keep = [
        note(
            "a/one.md",
            "---\ntitle: Kafka retries\n---\nretry the kafka consumer",
        ),
        note("b/two.md", "kafka broker retry"),
        note("b/three.md", "postgres vacuum"),
    ];
    let gone = note("b/four.md", "---\ntitle: Kafka\n---\nkafka kafka retry lag");
    let dir = tempfile::tempdir().unwrap();
    let mut idx = NoteIndex::open_or_create(dir.path()).unwrap();
    let mut w = idx.writer().unwrap();
    for n in keep.iter().chain([&gone]) {
        w.add(n).unwrap();
    }
    w.commit().unwrap();
    let mut w = idx.writer().unwrap();
    w.delete("b/four.md");
    w.commit().unwrap();
    idx.reload().unwrap();
    let fresh = NoteIndex::build_in_ram(&keep).unwrap();
    for text in ["kafka", "retry", "kafka retry lag", "vacuum"] {
        for folders in [None, Some(vec!["a".to_owned()])] {
            let got = idx
                .search_with(&q(text), &Ranker::default(), folders.as_deref(), 10)
                .unwrap();
            let want = fresh
                .search_with(&q(text), &Ranker::default(), folders.as_deref(), 10)
                .unwrap();
            assert_eq!(got, want, "{text} in {folders:?}");
        }
        // In its folder or in all, a note scores the same.
        let score = |folders: Option<&[String]>| {
            idx.search_with(&q(text), &Ranker::default(), folders, 10)
                .unwrap()
                .into_iter()
                .find(|h| h.path == "a/one.md")
                .map(|h| h.bm25)
        };
        assert_eq!(score(None), score(Some(&["a".to_owned()])), "{text}");
    }
}

#[test]
fn statistics_follow_the_index_after_a_change() {
    // Searching computes (and keeps) average field lengths; after notes change and
    // the index is reloaded, scores must be the fresh index's, not the old lengths'.
    let before = vec![
        note("a.md", "kafka broker"),
        note("b.md", "kafka consumer lag"),
        note("c.md", "postgres vacuum"),
    ];
    let long = note(
        "d.md",
        "kafka consumer group rebalancing storms during rolling deploys of the \
         payment service, with lag growing for every partition of the topic",
    );
    let dir = tempfile::tempdir().unwrap();
    let mut idx = NoteIndex::open_or_create(dir.path()).unwrap();
    let mut w = idx.writer().unwrap();
    for n in &before {
        w.add(n).unwrap();
    }
    w.commit().unwrap();
    idx.reload().unwrap();
    let old = idx
        .search_with(&q("kafka"), &Ranker::PLAIN, None, 10)
        .unwrap();

    let mut w = idx.writer().unwrap();
    w.delete("c.md");
    w.add(&long).unwrap();
    w.commit().unwrap();
    idx.reload().unwrap();
    let updated = idx
        .search_with(&q("kafka"), &Ranker::PLAIN, None, 10)
        .unwrap();

    let fresh = NoteIndex::build_in_ram(&[before[0].clone(), before[1].clone(), long]).unwrap();
    let expected = fresh
        .search_with(&q("kafka"), &Ranker::PLAIN, None, 10)
        .unwrap();
    assert_eq!(updated, expected);
    assert_ne!(
        updated[0].bm25, old[0].bm25,
        "the longer note moves the average"
    );
}

#[test]
fn a_hit_says_how_much_of_its_best_part_it_covers() {
    let notes = vec![
        note("batch.md", "payout batch lock timeouts"),
        note("kafka.md", "kafka consumer lag"),
        note("other.md", "garden tomatoes"),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let mut q = QueryTerms::default();
    q.add_text("payout batch lock", 1.0);
    q.add_text("kafka consumer rebalance", 0.5);
    let hits = |q: &QueryTerms| {
        let mut hits = idx.search_with(q, &Ranker::PLAIN, None, 10).unwrap();
        hits.sort_by(|a, b| a.path.cmp(&b.path));
        hits
    };
    // One piece: no part.
    let before = hits(&q);
    assert_eq!(before.len(), 2, "{before:?}");
    assert!(
        before.iter().all(|h| h.coverage < 1.0 && h.part.is_none()),
        "{before:?}"
    );

    let part = |text: &str| cairn_index::analyze(text).into_iter().collect();
    q.parts = vec![part("payout batch lock"), part("kafka consumer rebalance")];
    let after = hits(&q);
    // batch.md holds every word of the first part.
    assert_eq!(after[0].path, "batch.md");
    let (p, c) = after[0].part.unwrap();
    assert_eq!(p, 0);
    assert!((c - 1.0).abs() < 1e-6, "{after:?}");
    // kafka.md holds two of the three words of the second part (equal IDF: every
    // word is in one note, or none, which weighs like the rarest).
    assert_eq!(after[1].path, "kafka.md");
    let (p, c) = after[1].part.unwrap();
    assert_eq!(p, 1);
    assert!((c - 2.0 / 3.0).abs() < 1e-6, "{after:?}");
    // The whole query's coverage and the ranking do not change with parts.
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(
            (&b.path, b.bm25.to_bits(), b.coverage.to_bits()),
            (&a.path, a.bm25.to_bits(), a.coverage.to_bits())
        );
    }
}

#[test]
fn hits_named_from_known_paths_are_the_hits_read_from_the_store() {
    // Many notes, ties included (identical bodies).
    let notes: Vec<_> = (0..60)
        .map(|i| {
            let body = match i % 4 {
                0 => "payout batch lock timeout".to_owned(),
                1 => format!("payout retry {i}"),
                2 => "ledger posting lock".to_owned(),
                _ => format!("unrelated text {i}"),
            };
            note(&format!("n/{i:02}.md"), &body)
        })
        .collect();
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let all: Vec<&str> = notes.iter().map(|n| n.path.as_str()).collect();
    let some: Vec<&str> = all.iter().copied().step_by(3).collect();
    let strangers = ["elsewhere/x.md", "n/99.md"];
    for text in [
        "payout lock",
        "ledger",
        "retry timeout batch",
        "nothing here",
    ] {
        for r in [Ranker::PLAIN, Ranker::default()] {
            for limit in [1, 5, 10, 100] {
                let read = idx.search_with(&q(text), &r, None, limit).unwrap();
                for known in [&all[..], &some[..], &strangers[..]] {
                    let named = idx
                        .search_knowing(
                            &q(text),
                            &r,
                            None,
                            limit,
                            &KnownPaths::of(known.iter().copied()),
                        )
                        .unwrap();
                    assert_eq!(named, read, "{text} {limit}");
                }
            }
        }
    }
}

#[test]
fn a_word_no_note_holds_is_looked_up_as_the_two_words_notes_write() {
    let notes = vec![
        note(
            "socket.md",
            "# Web socket reconnects\nThe web socket client reconnects with backoff.",
        ),
        note("web.md", "# Web server\nThe web server listens on 8080."),
        note(
            "joined.md",
            "# Health-check\nThe health-check endpoint answers 204.",
        ),
        note("other.md", "# Payouts\nPayout batches run nightly."),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let r = Ranker::default();
    // No note says `websocket`: the note that says "web socket" comes first,
    // the one with only "web" after it.
    assert_eq!(order(&idx, &r, "websocket"), ["socket.md", "web.md"]);
    let hits = idx.search_with(&q("websocket"), &r, None, 10).unwrap();
    assert!((hits[0].coverage - 1.0).abs() < 1e-6, "{hits:?}");
    // A hyphenated note holds the joined word: found whole, not split.
    assert_eq!(order(&idx, &r, "healthcheck"), ["joined.md"]);
    // Explain names the halves that matched.
    let terms: Vec<String> = idx
        .explain_with(&q("websocket"), &r, None, "socket.md")
        .unwrap()
        .into_iter()
        .map(|m| m.term)
        .collect();
    assert!(terms.contains(&"web".to_owned()) && terms.contains(&"socket".to_owned()));
    // Parts follow: the part that held the compound holds its halves.
    let mut parts = q("websocket reconnect");
    parts.parts = vec![parts.terms.keys().cloned().collect()];
    let hits = idx.search_with(&parts, &r, None, 10).unwrap();
    assert_eq!(hits[0].path, "socket.md");
    assert_eq!(hits[0].part.map(|(p, _)| p), Some(0));
    assert!(hits[0].part.unwrap().1 > 0.99, "{hits:?}");
    // The compound's own stem splits too; a word no two of the vault's words
    // make is not split at all.
    assert_eq!(order(&idx, &r, "websockets"), ["socket.md", "web.md"]);
    assert!(order(&idx, &r, "kubernetes").is_empty());

    // A vault that holds both words, never one after the other, does not write
    // the compound as two: nothing is found (a public TIL collection found a
    // note on Unix file types, "socket", that also said "web").
    let apart = NoteIndex::build_in_ram(&[
        note(
            "types.md",
            "# File types
A socket, a pipe; see the web docs.",
        ),
        note(
            "other.md",
            "# Payouts
Payout batches run nightly.",
        ),
    ])
    .unwrap();
    assert!(order(&apart, &r, "websocket").is_empty());
    assert!(
        apart
            .spellings(&q("websocket"), &r)
            .unwrap()
            .respelled
            .is_empty()
    );
    // A query that says the words already (`web-socket` gives `web`, `socket`
    // and the joined `websocket`) is not respelled: its words count once.
    assert!(
        apart
            .spellings(&q("web-socket"), &r)
            .unwrap()
            .respelled
            .is_empty()
    );
    assert!(
        idx.spellings(&q("web-socket"), &r)
            .unwrap()
            .respelled
            .is_empty()
    );
    assert_eq!(
        idx.spellings(&q("websocket reconnect"), &r)
            .unwrap()
            .respelled,
        [(
            "websocket".to_owned(),
            vec!["web".to_owned(), "socket".to_owned()]
        )]
    );
}

#[test]
fn an_abbreviation_no_note_holds_is_looked_up_spelled_out() {
    let notes = vec![
        note(
            "pool.md",
            "# Database connection pool\nThe database connection pool leaks under load.",
        ),
        note("leak.md", "# Memory leak\nA leak in the parser."),
        note("txn.md", "# Retries\nEvery txn is retried once."),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let r = Ranker::default();
    // A branch `fix/db-conn-leak`: no note says `db` or `conn`.
    let hits = idx.search_with(&q("db conn leak"), &r, None, 10).unwrap();
    assert_eq!(hits[0].path, "pool.md", "{hits:?}");
    assert!((hits[0].coverage - 1.0).abs() < 1e-6, "{hits:?}");
    // A vault that writes the abbreviation finds it as written, and not spelled
    // out: `txn` is held, so "transaction" is not looked up.
    assert_eq!(order(&idx, &r, "txn"), ["txn.md"]);
    // A spelling no note holds adds nothing.
    assert!(order(&idx, &r, "k8s").is_empty());
}

/// Two words the query says apart that a note writes as one (`roll back`,
/// `log in`, `data set`): the note writing the joined word covers the pair as
/// one writing the two words does; the query's weight is not raised by it.
#[test]
fn two_words_said_apart_find_the_note_that_joins_them() {
    let notes = vec![
        note(
            "rollback.md",
            "# Rollback procedure for schema migrations\nA failed migration is undone with the rollback script.",
        ),
        note(
            "office.md",
            "# The back office outage\nThe back office went down when a roll of certificates expired.",
        ),
        note(
            "login.md",
            "# Login page\nThe login form posts to /session.",
        ),
        note(
            "logging.md",
            "# Structured logs\nEvery service writes a log line per request.",
        ),
        note(
            "apart.md",
            "# Roll back\nTo roll back a failed migration, run the revert script.",
        ),
    ];
    let idx = NoteIndex::build_in_ram(&notes).unwrap();
    let r = Ranker::default();
    let hits = idx
        .search_with(&q("roll back the failed migration"), &r, None, 10)
        .unwrap();
    let at = |p: &str| hits.iter().position(|h| h.path == p).unwrap();
    // Both ways of writing it come before a note that says `back` and `roll`
    // apart, about something else; each covers the whole query.
    assert!(
        at("rollback.md") < at("office.md") && at("apart.md") < at("office.md"),
        "{hits:?}"
    );
    for p in ["rollback.md", "apart.md"] {
        assert!((hits[at(p)].coverage - 1.0).abs() < 1e-6, "{p}: {hits:?}");
    }
    // What it was looked up as; the second word a stop word (`in`), the pair
    // is its first word's.
    assert_eq!(
        idx.spellings(&q("roll back the failed migration"), &r)
            .unwrap()
            .joins,
        [Join {
            said: "roll back".to_owned(),
            words: vec!["roll".to_owned(), "back".to_owned()],
            term: "rollback".to_owned()
        }]
    );
    assert_eq!(order(&idx, &r, "log in")[0], "login.md");
    let terms: Vec<String> = idx
        .explain_with(&q("log in"), &r, None, "login.md")
        .unwrap()
        .into_iter()
        .map(|m| m.term)
        .collect();
    assert!(terms.contains(&"login".to_owned()), "{terms:?}");
    // Explain adds up to the score with a join (the note writing both forms
    // scored for the pair once).
    let plain = Ranker {
        proximity: 0.0,
        passage: 0.0,
        ..Ranker::default()
    };
    let both = NoteIndex::build_in_ram(&[
        note(
            "glued.md",
            "# Rollback\nThe rollback script undoes a migration.",
        ),
        note(
            "hyphen.md",
            "# Roll-back\nThe roll-back script undoes a migration.",
        ),
        note(
            "apart.md",
            "# Roll back\nTo roll back a migration, run the script.",
        ),
        note("office.md", "# Office\nThe back office."),
    ])
    .unwrap();
    let query = q("roll back a migration");
    let hits = both.search_with(&query, &plain, None, 10).unwrap();
    for hit in &hits {
        let parts = both.explain_with(&query, &plain, None, &hit.path).unwrap();
        let sum: f32 = parts.iter().map(|p| p.score).sum();
        assert!(
            (sum - hit.bm25).abs() < 1e-3,
            "{}: {sum} vs {}",
            hit.path,
            hit.bm25
        );
    }
    // A hyphenated `roll-back` is indexed as `roll`, `back` and `rollback`:
    // it holds the words apart, so the join adds nothing to it.
    let parts = both
        .explain_with(&query, &plain, None, "hyphen.md")
        .unwrap();
    assert!(parts.iter().all(|p| p.term != "rollback"), "{parts:?}");
    let parts = both.explain_with(&query, &plain, None, "glued.md").unwrap();
    assert!(parts.iter().any(|p| p.term == "rollback"), "{parts:?}");

    // Two joins sharing a word (`roll back`, `roll out`): a note writing both
    // joined words is credited with `roll` once, and the second join adds
    // nothing to it; a note writing only the second is scored for it.
    let shared = NoteIndex::build_in_ram(&[
        note(
            "both.md",
            "# Plans\nThe rollback plan and the rollout plan.",
        ),
        note("out.md", "# Plans\nThe rollout plan for billing."),
        note("other.md", "# Billing\nInvoices."),
    ])
    .unwrap();
    let query = q("roll back the roll out of billing");
    assert_eq!(shared.spellings(&query, &plain).unwrap().joins.len(), 2);
    let terms = |p: &str| -> Vec<String> {
        shared
            .explain_with(&query, &plain, None, p)
            .unwrap()
            .into_iter()
            .map(|m| m.term)
            .collect()
    };
    assert!(terms("both.md").contains(&"rollback".to_owned()));
    assert!(
        !terms("both.md").contains(&"rollout".to_owned()),
        "{:?}",
        terms("both.md")
    );
    assert!(terms("out.md").contains(&"rollout".to_owned()));
    for hit in shared.search_with(&query, &plain, None, 10).unwrap() {
        let sum: f32 = shared
            .explain_with(&query, &plain, None, &hit.path)
            .unwrap()
            .iter()
            .map(|p| p.score)
            .sum();
        assert!(
            (sum - hit.bm25).abs() < 1e-3,
            "{}: {sum} vs {}",
            hit.path,
            hit.bm25
        );
        assert!(hit.coverage <= 1.0);
    }

    // No join: words apart across a comma, a stop word first (`any way`), a
    // joined word no note holds, one the query says already.
    for text in [
        "roll, back",
        "any way",
        "office back",
        "roll back rollback",
        "roll-back",
    ] {
        assert!(
            idx.spellings(&q(text), &r).unwrap().joins.is_empty(),
            "{text}"
        );
    }
}

/// Explaining a note for a word that only later notes hold answers that it
/// does not match: it failed in debug builds (tantivy's postings only seek
/// forward) whichever of two notes was indexed first.
#[test]
fn explain_a_note_for_a_word_only_another_note_holds() {
    let idx = NoteIndex::build_in_ram(&[
        note("alpha.md", "# Alpha\nAlpha notes."),
        note("beta.md", "# Beta\nBeta notes."),
    ])
    .unwrap();
    let r = Ranker::default();
    for (path, own) in [("alpha.md", "alpha"), ("beta.md", "beta")] {
        let terms: Vec<String> = idx
            .explain_with(&q("alpha beta"), &r, None, path)
            .unwrap()
            .into_iter()
            .map(|m| m.term)
            .collect();
        assert!(!terms.is_empty(), "{path}");
        assert!(terms.iter().all(|t| t == own), "{path}: {terms:?}");
    }
}
