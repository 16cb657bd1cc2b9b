//! `get` prints a note as written; its summary is cut from the rendered text. A
//! credential the rendering reveals (an escaped or entity-coded character, a code
//! span splitting a token, a sentence wrapped across lines) must be hidden from
//! `get` and from every `--lines` slice of it, as the summary hides it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_engine::config::Config;
use cairn_engine::*;

/// (body, secret): the red team's notes, whose summaries were redacted while
/// `get` printed the value.
const RENDERED_LEAKS: &[(&str, &str)] = &[
    (
        "CI uses ghp\\_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7 for releases.",
        "5pyzQ0kLm3Nx8RtVw2",
    ),
    (
        "CI uses gh&#112;_xqZKa81LmNoPqRsTuVwXyZ0123456789ab for releases.",
        "xqZKa81LmNoPqRsTuV",
    ),
    (
        "The deploy key is &#65;KIAO2V2QX7LM4RT9KPZ for the bucket.",
        "O2V2QX7LM4RT9KPZ",
    ),
    (
        "CI uses `ghp_`pYgojR4kLm3Nx8RtVw2YbCd4EfGh6IjKlMn for releases.",
        "pYgojR4kLm3Nx8RtVw",
    ),
    (
        "Rotation notes.\n\nThe password for payout settlement retry is\nPwDeZ6dqmVe5!9\n\nAsk ops first.",
        "PwDeZ6dqmVe5!9",
    ),
];

#[test]
fn get_and_every_line_slice_hide_what_the_rendered_text_shows() {
    let vault = tempfile::tempdir().unwrap();
    for (i, (body, _)) in RENDERED_LEAKS.iter().enumerate() {
        let text = format!("---\ntitle: Rendered leak {i}\n---\n{body}\n");
        std::fs::write(vault.path().join(format!("r-{i}.md")), text).unwrap();
    }
    let e = Engine::open(
        Config::for_vault(vault.path()).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    for (i, (_, secret)) in RENDERED_LEAKS.iter().enumerate() {
        let name = format!("r-{i}.md");
        let whole = e.get(&name).unwrap();
        assert!(
            !whole.content.contains(secret),
            "get {name}: {}",
            whole.content
        );
        assert!(whole.redactions > 0, "get {name}: {}", whole.content);
        let total = whole.content.lines().count();
        for start in 1..=total {
            for end in start..=total {
                let mut g = e.get(&name).unwrap();
                g.keep_lines(start, Some(end)).unwrap();
                assert!(
                    !g.content.contains(secret),
                    "get {name} --lines {start}:{end}: {}",
                    g.content
                );
            }
        }
    }
}

/// A line slice counts the credentials redacted in the lines it keeps, not the
/// note's: before, `--lines 1..2` of a note whose token is on its last line
/// said "1 credential redacted".
#[test]
fn a_line_slice_counts_its_own_redactions() {
    let vault = tempfile::tempdir().unwrap();
    std::fs::write(
        vault.path().join("n.md"),
        "---\ntitle: Release notes\n---\nOne.\nTwo.\nGH_TOKEN=ghp_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7\n",
    )
    .unwrap();
    let e = Engine::open(
        Config::for_vault(vault.path()).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    let whole = e.get("n.md").unwrap();
    assert_eq!(whole.redactions, 1);
    let last = whole.content.lines().count();
    let mut g = e.get("n.md").unwrap();
    g.keep_lines(1, Some(last - 1)).unwrap();
    assert_eq!(g.redactions, 0, "{}", g.content);
    let mut g = e.get("n.md").unwrap();
    g.keep_lines(last, Some(last)).unwrap();
    assert_eq!(g.redactions, 1, "{}", g.content);
}
