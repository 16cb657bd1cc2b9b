//! Recall and precision of credential detection, measured on the labelled corpus
//! in `fixtures/credentials/` (format: its README). Floors: at least 98% of the
//! marked secret spans covered by a finding, at most 1% of the negative
//! snippets flagged. Run with `--nocapture` to see the per-format table.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cairn_policy::{find_credentials, redact};

const OPEN: char = '\u{27e6}';
const CLOSE: char = '\u{27e7}';
const RECALL_FLOOR: f64 = 0.98;
const FALSE_POSITIVE_CEILING: f64 = 0.01;

/// One snippet of the corpus: its label, the text without markers, the marked
/// spans (byte ranges of the text) and the line of its header in the file.
#[derive(Debug)]
struct Case {
    label: String,
    text: String,
    spans: Vec<(usize, usize)>,
    line: usize,
}

fn read(name: &str) -> Vec<Case> {
    let path = format!(
        "{}/../../fixtures/credentials/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let raw = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&raw)
}

/// Splits a corpus file into cases: a `%%% <label>` line opens one; the lines up
/// to the next such line (trailing blank lines dropped) are its text.
fn parse(raw: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut body: Vec<&str> = Vec::new();
    let mut open: Option<(String, usize)> = None;
    let mut finish = |open: Option<(String, usize)>, body: &mut Vec<&str>| {
        if let Some((label, line)) = open {
            while body.last().is_some_and(|l| l.trim().is_empty()) {
                body.pop();
            }
            let (text, spans) = unmark(&body.join("\n"), line);
            cases.push(Case {
                label,
                text,
                spans,
                line,
            });
        }
        body.clear();
    };
    for (i, line) in raw.lines().enumerate() {
        if let Some(label) = line.strip_prefix("%%% ") {
            finish(open.take(), &mut body);
            open = Some((label.trim().to_owned(), i + 1));
        } else if open.is_some() {
            body.push(line);
        }
    }
    finish(open, &mut body);
    cases
}

/// Removes the `⟦…⟧` markers; returns the text and the marked byte ranges.
fn unmark(marked: &str, line: usize) -> (String, Vec<(usize, usize)>) {
    let mut text = String::with_capacity(marked.len());
    let mut spans = Vec::new();
    let mut start = None;
    for c in marked.chars() {
        match c {
            OPEN => {
                assert!(start.is_none(), "nested marker in the case at line {line}");
                start = Some(text.len());
            }
            CLOSE => {
                let s = start
                    .take()
                    .expect("a closing marker without an opening one");
                assert!(s < text.len(), "empty span in the case at line {line}");
                spans.push((s, text.len()));
            }
            _ => text.push(c),
        }
    }
    assert!(
        start.is_none(),
        "unclosed marker in the case at line {line}"
    );
    (text, spans)
}

/// Per label: marked spans, spans found; or snippets, snippets flagged.
#[derive(Default)]
struct Tally {
    total: usize,
    hit: usize,
}

fn table(title: &str, tallies: &BTreeMap<String, Tally>) -> String {
    let mut out = format!("| {title} | total | found | rate |\n|---|---|---|---|\n");
    for (label, t) in tallies {
        let rate = t.hit as f64 / t.total as f64;
        writeln!(out, "| {label} | {} | {} | {rate:.3} |", t.total, t.hit).unwrap();
    }
    out
}

#[test]
fn corpus_parser_reads_markers_and_blank_lines() {
    let raw = "# comment\n%%% a\nx ⟦s3cr3t⟧ y\n\n%%% b\nline 1\n\nline ⟦é⟧ 3\n\n\n";
    let cases = parse(raw);
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].label, "a");
    assert_eq!(cases[0].text, "x s3cr3t y");
    assert_eq!(cases[0].spans, [(2, 8)]);
    assert_eq!(cases[1].text, "line 1\n\nline é 3");
    assert_eq!(
        &cases[1].text[cases[1].spans[0].0..cases[1].spans[0].1],
        "é"
    );
    assert_eq!(cases[1].line, 5);
}

#[test]
fn recall_of_marked_secrets_meets_the_floor() {
    let cases = read("positive.txt");
    assert!(cases.len() >= 150, "only {} positive snippets", cases.len());
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses = String::new();
    for case in &cases {
        assert!(
            !case.spans.is_empty(),
            "positive case at line {} marks no secret",
            case.line
        );
        let findings = find_credentials(&case.text);
        let tally = tallies.entry(case.label.clone()).or_default();
        for &(s, e) in &case.spans {
            tally.total += 1;
            if findings.iter().any(|f| f.start <= s && f.end >= e) {
                tally.hit += 1;
            } else {
                writeln!(
                    misses,
                    "  {} (line {}): {:?} not covered; findings {:?}",
                    case.label,
                    case.line,
                    &case.text[s..e],
                    findings
                        .iter()
                        .map(|f| &case.text[f.start..f.end])
                        .collect::<Vec<_>>()
                )
                .unwrap();
            }
        }
        // Whatever is found, redaction settles and removes every marked secret.
        let once = redact(&case.text).text.into_owned();
        assert_eq!(
            redact(&once).text,
            once,
            "not idempotent: line {}",
            case.line
        );
    }
    let total: usize = tallies.values().map(|t| t.total).sum();
    let hit: usize = tallies.values().map(|t| t.hit).sum();
    let recall = hit as f64 / total as f64;
    println!(
        "positive snippets: {}, marked spans: {total}, found: {hit}, recall {recall:.4}\n\n{}",
        cases.len(),
        table("format", &tallies)
    );
    assert!(
        recall >= RECALL_FLOOR,
        "span recall {recall:.4} below {RECALL_FLOOR}; misses:\n{misses}"
    );
    if !misses.is_empty() {
        println!("misses:\n{misses}");
    }
}

#[test]
fn false_positive_rate_on_negatives_stays_under_the_ceiling() {
    let cases = read("negative.txt");
    assert!(cases.len() >= 300, "only {} negative snippets", cases.len());
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut flagged = String::new();
    for case in &cases {
        assert!(
            case.spans.is_empty(),
            "negative case at line {} has a marked span",
            case.line
        );
        let findings = find_credentials(&case.text);
        let tally = tallies.entry(case.label.clone()).or_default();
        tally.total += 1;
        if !findings.is_empty() {
            tally.hit += 1;
            writeln!(
                flagged,
                "  {} (line {}): {:?}",
                case.label,
                case.line,
                findings
                    .iter()
                    .map(|f| (f.kind.as_str(), &case.text[f.start..f.end]))
                    .collect::<Vec<_>>()
            )
            .unwrap();
        }
    }
    let hit: usize = tallies.values().map(|t| t.hit).sum();
    let rate = hit as f64 / cases.len() as f64;
    println!(
        "negative snippets: {}, flagged: {hit}, false-positive rate {rate:.4}\n\n{}",
        cases.len(),
        table("shape", &tallies)
    );
    assert!(
        rate <= FALSE_POSITIVE_CEILING,
        "false-positive rate {rate:.4} above {FALSE_POSITIVE_CEILING}; flagged:\n{flagged}"
    );
    if !flagged.is_empty() {
        println!("flagged:\n{flagged}");
    }
}
