//! BM25 over notes: field matches, stemming, folder filters, replace/delete, on-disk reopen.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_index::*;
use cairn_note::parse_note;

fn note(path: &str, text: &str) -> cairn_note::Note {
    parse_note(path, text.as_bytes()).note.unwrap()
}

fn corpus() -> Vec<cairn_note::Note> {
    vec![
        note(
            "p/ledger/retry.md",
            "---\ntitle: Payout retries\ntriggers: [retry storm]\n---\nWe retry payouts with exponential backoff.",
        ),
        note(
            "p/ledger/kafka.md",
            "---\ntitle: Events on Kafka\ntags: [events]\n---\nSettlement events are published to Kafka.",
        ),
        note(
            "p/atlas/tiles.md",
            "# Tile server\nThe tile server caches vector tiles; retries are rare.",
        ),
        note(
            "dev/style.md",
            "---\ntitle: Terse replies\n---\nKeep answers short.",
        ),
    ]
}

fn q(text: &str) -> QueryTerms {
    let mut q = QueryTerms::default();
    q.add_text(text, 1.0);
    q
}

#[test]
fn ranks_by_bm25_with_stemming() {
    let idx = NoteIndex::build_in_ram(corpus()).unwrap();
    assert_eq!(idx.doc_count(), 4);
    let hits = idx
        .search(
            &q("retrying the payout"),
            &FieldWeights::default(),
            None,
            10,
        )
        .unwrap();
    assert_eq!(hits[0].path, "p/ledger/retry.md");
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert!(
        idx.search(&q("the of and"), &FieldWeights::default(), None, 10)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn folder_filter_restricts() {
    let idx = NoteIndex::build_in_ram(corpus()).unwrap();
    let w = FieldWeights::default();
    let hits = idx
        .search(&q("retry"), &w, Some(&["p/atlas".to_owned()]), 10)
        .unwrap();
    assert_eq!(
        hits.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
        vec!["p/atlas/tiles.md"]
    );
    let all = idx
        .search(&q("retry"), &w, Some(&[String::new()]), 10)
        .unwrap();
    assert_eq!(all.len(), 2);
}

#[test]
fn explain_names_terms_and_fields() {
    let idx = NoteIndex::build_in_ram(corpus()).unwrap();
    let m = idx
        .explain(
            &q("kafka events"),
            &FieldWeights::default(),
            "p/ledger/kafka.md",
        )
        .unwrap();
    let fields: Vec<_> = m.iter().map(|t| (t.term.as_str(), t.field)).collect();
    assert!(fields.contains(&("kafka", TextField::Title)), "{fields:?}");
    assert!(fields.contains(&("event", TextField::Tags)), "{fields:?}");
    assert!(
        idx.explain(&q("kafka"), &FieldWeights::default(), "nope.md")
            .unwrap()
            .is_empty()
    );
}

#[test]
fn on_disk_replace_delete_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut idx = NoteIndex::open_or_create(dir.path()).unwrap();
        let mut w = idx.writer().unwrap();
        for n in corpus() {
            w.add(&n).unwrap();
        }
        w.commit().unwrap();
        idx.reload().unwrap();
        assert_eq!(idx.doc_count(), 4);
        let mut w = idx.writer().unwrap();
        w.delete("p/atlas/tiles.md");
        w.delete("dev/style.md");
        w.add(&note(
            "dev/style.md",
            "# Verbose replies\nExplain everything.",
        ))
        .unwrap();
        w.commit().unwrap();
    }
    let idx = NoteIndex::open_or_create(dir.path()).unwrap();
    assert_eq!(idx.doc_count(), 3);
    let hits = idx
        .search(&q("verbose"), &FieldWeights::default(), None, 5)
        .unwrap();
    assert_eq!(hits[0].path, "dev/style.md");
    assert!(
        idx.search(&q("tile"), &FieldWeights::default(), None, 5)
            .unwrap()
            .is_empty()
    );
}
