//! Sensitivity marks a front-matter parser does not see (red-team findings): line
//! breaks other than `\n`, blocks not recognised or broken, keys with invisible
//! characters or typos, marks in the body's head and in entries. Each case is a
//! whole file and the level it must read as; a mark can only raise a level.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_note::{Sensitivity, parse_file, parse_note, read_sensitivity};
use proptest::prelude::*;

use Sensitivity::{Confidential, Internal, Public, Secret};

/// Planted in the title and body: never in a diagnostic of a secret note.
const CANARY: &str = "Qz9CANARY";

/// `text` (a note `n.md`) → `expect`, by the parser and by the one rule.
fn check(text: &str, expect: Sensitivity) {
    let p = parse_note("n.md", text.as_bytes());
    let note = p.note.expect("a note");
    assert_eq!(note.sensitivity, expect, "{text:?}: {:?}", p.diagnostics);
    assert_eq!(read_sensitivity(text).sensitivity, expect, "{text:?}");
    if expect == Secret {
        for d in &p.diagnostics {
            assert!(!d.message.contains(CANARY), "{text:?} quoted: {d}");
        }
    }
}

#[test]
fn line_breaks_of_every_kind_delimit_front_matter() {
    for br in ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}"] {
        let text =
            format!("---{br}sensitivity: secret{br}---{br}# {CANARY}{br}{br}{CANARY} body.{br}");
        check(&text, Secret);
        let text = format!("---{br}title: x{br}sensitivity: public{br}---{br}# T{br}body{br}");
        check(&text, Public);
    }
    // Mixed.
    check("---\r\nsensitivity: secret\r---\n# Qz9CANARY\n", Secret);
    check(
        "---\rtitle: a\r\nsensitivity: confidential\n---\rbody\r",
        Confidential,
    );
}

#[test]
fn blocks_not_recognised_still_mark_the_note() {
    for text in [
        "\n---\nsensitivity: secret\n---\n# Qz9CANARY\n",
        "   \n---\nsensitivity: secret\n---\n# Qz9CANARY\n",
        " ---\nsensitivity: secret\n---\n# Qz9CANARY\n",
        "--- # front matter\nsensitivity: secret\n---\n# Qz9CANARY\n",
        "%YAML 1.2\n---\nsensitivity: secret\n---\n# Qz9CANARY\n",
        "%YAML 1.2\n---\nsensitivity: secret\n...\n# Qz9CANARY\n",
        "{\"title\":\"Qz9CANARY\",\"sensitivity\":\"secret\"}\n\nbody\n",
        "{\"title\": \"x\", \"sensitivity\": \"top secret\"}\nbody\n",
    ] {
        check(text, Secret);
    }
    // `--- # comment` opens a block: its keys are read.
    let p = parse_note(
        "n.md",
        b"--- # fm\ntitle: Hello\nsensitivity: public\n--- # end\nbody\n",
    );
    let n = p.note.expect("note");
    assert_eq!((n.title.as_str(), n.sensitivity), ("Hello", Public));
    // An unrecognised block's `public` does not lower the default.
    check("\n---\nsensitivity: public\n---\nbody\n", Internal);
}

#[test]
fn keys_nearly_sensitivity_name_it() {
    for (key, value, expect) in [
        ("sensi\u{200b}tivity", "secret", Secret),
        ("sensi\u{2060}tivity", "secret", Secret),
        ("\u{feff}sensitivity", "secret", Secret),
        ("sen\u{00ad}sitivity", "secret", Secret),
        ("SENSİTİVİTY", "secret", Secret),
        ("sеnsitivity", "secret", Secret),
        ("ｓｅｎｓｉｔｉｖｉｔｙ", "secret", Secret),
        ("sensitivty", "secret", Secret),
        ("sensitivit", "secret", Secret),
        ("sensitivty", "confidential", Confidential),
        ("sensitivty", "hush", Secret),
        ("clasification", "secret", Secret),
        ("confidentialty", "secret", Secret),
        ("data_clasification", "secret", Secret),
        ("Sensitivity_Level", "secret", Secret),
        // Not near (an ordinary word, three edits): left alone.
        ("clarification", "secret", Internal),
        ("sensitivities", "secret", Internal),
    ] {
        let front = format!("---\ntitle: {CANARY}\n{key}: {value}\n---\nbody\n");
        check(&front, expect);
        // The same key as a body line.
        check(&format!("# {CANARY}\n\n{key}: {value}\n"), expect);
    }
}

#[test]
fn broken_blocks_that_name_the_key_are_secret() {
    for text in [
        "---\nsensitivity = secret\n---\n# Qz9CANARY\n",
        "---\nsensitivity = public\n---\n# Qz9CANARY\n",
        "---\nsensitivity：secret\n---\n# Qz9CANARY\n",
        "---\nsensitivity secret\n---\n# Qz9CANARY\n",
        "---\ntitle: a\nsensitivity = \"secret\"\n---\n# Qz9CANARY\n",
        "+++\nsensitivity: secret\n+++\n# Qz9CANARY\n",
        "+++\nsensitivity: public\n+++\n# Qz9CANARY\n",
        "---\nsensitivity = \"secret\"\n+++\n# Qz9CANARY\n",
        "{\n\"sensitivity\" = \"public\"\n}\n# Qz9CANARY\n",
    ] {
        check(text, Secret);
    }
    // Unchanged: a broken block without the key keeps the default; a comment is
    // not a key.
    check("---\ntitle: Foo: bar\n---\nbody\n", Internal);
    check(
        "---\n# sensitivity: secret\ntitle: [x\n---\nbody\n",
        Internal,
    );
}

#[test]
fn the_head_of_the_body_can_only_raise() {
    for (text, expect) in [
        ("# T\n\nSensitivity: secret\n\nQz9CANARY\n", Secret),
        ("# T\n\n**Sensitivity:** confidential\n", Confidential),
        ("# T\n\n> **Sensitivity:** secret\n", Secret),
        ("# T\n\n- Sensitivity: secret\n", Secret),
        ("# T\n\n| Sensitivity | secret |\n|---|---|\n", Secret),
        ("# T\n\nSensitivity secret\n", Secret),
        ("# T\n\nsensitivity = secret\n", Secret),
        ("# T\n\nsensitivity -> secret\n", Secret),
        ("# T\n\n<!-- sensitivity: secret -->\n", Secret),
        ("# T\n\nSensitivity: top secret (Qz9CANARY)\n", Secret),
        ("# T\n\nSensitivity:\n", Secret),
        // Lower than the front matter: the front matter stands.
        (
            "---\nsensitivity: secret\n---\nSensitivity: public\n",
            Secret,
        ),
        (
            "---\nsensitivity: confidential\n---\nsensitivity: internal\n",
            Confidential,
        ),
        ("# T\n\nSensitivity: public\n", Internal),
        (
            "---\nsensitivity: public\n---\nsensitivity: public\n",
            Public,
        ),
        // Prose is not a mark.
        ("# T\n\nSensitivity analysis shows a trend.\n", Internal),
        ("# T\n\nThe sensitivity: high, as measured.\n", Internal),
        ("# T\n\nClarification: we meant the other one.\n", Internal),
        (
            "# T\n\n| Sensitivity | Meaning |\n|---|---|\n| a | b |\n",
            Internal,
        ),
        ("# T\n\n```yaml\nsensitivity: secret\n```\n", Internal),
    ] {
        check(text, expect);
    }
}

#[test]
fn past_the_head_a_withholding_level_and_dataview_fields_count() {
    let filler = "Line of prose.\n\n".repeat(40);
    // Past the 30 lines of the head, a mark that names a withholding level
    // still raises the note; a doubt there is read as prose.
    check(&format!("# T\n\n{filler}Sensitivity: secret\n"), Secret);
    check(
        &format!("# T\n\n{filler}**Classification:** restricted\n"),
        Confidential,
    );
    check(&format!("# T\n\n{filler}Sensitivity: high\n"), Internal);
    check(&format!("# T\n\n{filler}Sensitivity: public\n"), Internal);
    check(
        &format!("# T\n\n{filler}Mark a note with `sensitivity: secret`.\n"),
        Internal,
    );
    check(&format!("# T\n\n{filler}sensitivity:: secret\n"), Secret);
    check(
        &format!("# T\n\n{filler}Owner: me [sensitivity:: secret]\n"),
        Secret,
    );
    check(&format!("# T\n\n{filler}Sensitivity:: bogus\n"), Secret);
}

/// A decision log under a name cairn does not read as entries is one note: a
/// secret entry far down withholds all of it (it was searchable before).
#[test]
fn a_log_under_another_name_is_withheld_by_a_secret_entry() {
    let mut text = String::from("# Decision log\n\n");
    for day in 1..=12 {
        text.push_str(&format!(
            "### [2026-01-{day:02}] Entry {day}\n\n**Status:** accepted\n\nWhy.\n\n"
        ));
    }
    text.push_str(&format!(
        "### [2026-01-20] {CANARY}\n\n**Sensitivity:** secret\n\n{CANARY} body.\n"
    ));
    for name in ["decision-log.md", "adr-log.md", "notes.md"] {
        let p = parse_file(name, text.as_bytes());
        assert_eq!(p.notes.len(), 1, "{name}");
        assert_eq!(p.notes[0].sensitivity, Secret, "{name}");
    }
}

/// An entry file whose one entry carries `field`: the entry's level.
fn entry_level(field: &str) -> Sensitivity {
    let text = format!(
        "# Decisions\n\nA log.\n\n### [2026-01-02] {CANARY} entry\n\n{field}\n\n{CANARY} body.\n\n---\n\n### [2026-01-03] Other\n\nPlain.\n"
    );
    let p = parse_file("decisions.md", text.as_bytes());
    let entries: Vec<_> = p.notes.iter().filter(|n| n.entry_of.is_some()).collect();
    assert_eq!(entries.len(), 2, "{field:?}");
    // The other entry and the file keep their level: an entry's mark is its own.
    assert_eq!(entries[1].sensitivity, Internal, "{field:?}");
    assert!(
        p.notes
            .iter()
            .filter(|n| n.entry_of.is_none())
            .all(|n| n.sensitivity == Internal),
        "{field:?}"
    );
    entries[0].sensitivity
}

#[test]
fn entry_marks_are_read_by_the_same_line_reader() {
    for (field, expect) in [
        ("Sensitivity: secret", Secret),
        ("- **Sensitivity:** secret", Secret),
        ("**Sensitivity:** secret", Secret),
        ("__Sensitivity:__ secret", Secret),
        ("*Sensitivity:* secret", Secret),
        ("> **Sensitivity:** secret", Secret),
        ("Sensitivity:: secret", Secret),
        ("| Sensitivity | secret |", Secret),
        ("**Sensi\u{200b}tivity:** secret", Secret),
        ("**Sensitivty:** confidential", Confidential),
        ("**Category:** x\n**Sensitivity:** hush", Secret),
        ("**Category:** x", Internal),
    ] {
        assert_eq!(entry_level(field), expect, "{field:?}");
    }
}

proptest! {
    /// Whatever line break, decoration and invisible characters a secret mark is
    /// written with, at the head of a note, the note is secret.
    #[test]
    fn a_marked_head_is_secret(
        br in prop::sample::select(vec!["\n", "\r\n", "\r", "\u{2028}"]),
        lead in prop::sample::select(vec!["", "> ", "- ", "* ", "**", "| ", "  ", "1. "]),
        zw in prop::sample::select(vec!["", "\u{200b}", "\u{00ad}", "\u{2060}", "\u{feff}"]),
        sep in prop::sample::select(vec![": ", ":: ", " = ", "：", " -> ", " "]),
        at in 0usize..6,
        prose in "[a-z ]{0,40}",
    ) {
        let key = format!("Sensi{zw}tivity");
        let mut lines: Vec<String> = vec!["# Title".into(), prose.clone()];
        lines.insert(at.min(lines.len()), format!("{lead}{key}{sep}secret"));
        let text = lines.join(br) + br;
        let p = parse_note("n.md", text.as_bytes());
        prop_assert_eq!(p.note.map(|n| n.sensitivity), Some(Secret), "{:?}", text);
    }
}

/// Marks spelled with digits or symbols for letters (`C0NFIDENTIAL`, `S3CRET`)
/// and in lowercase spaced letters withhold their note, in the head and past
/// it; before, each let the note's text through. Words with digits that spell
/// no mark leave a note as it was.
#[test]
fn marks_spelled_with_digits_withhold_the_note() {
    let pad = "Line of prose.\n\n".repeat(40);
    for (mark, level) in [
        ("C0NFIDENTIAL \u{2014} do not share", Confidential),
        ("CONFIDENT1AL", Confidential),
        ("# C0NF1D3NT14L", Confidential),
        ("**TOP S3CRET**", Secret),
        ("5ECRET - internal only", Secret),
        ("This note is c0nfidential.", Confidential),
        ("This note contains s3cr3t5.", Secret),
        ("**S3nsitivity:** secret", Secret),
        ("Sensitivity: s3cret", Secret),
        ("c o n f i d e n t i a l", Confidential),
        ("C-O-N-F-I-D-E-N-T-I-A-L", Confidential),
        ("S.E.C.R.E.T.", Secret),
        ("Do n0t share", Confidential),
        ("T0P S3CR3T", Secret),
    ] {
        for text in [
            format!("# T\n\n{pad}{mark}\n\n{CANARY} body.\n"),
            format!("# T\n\n{mark}\n\n{CANARY} body.\n"),
        ] {
            check(&text, level);
        }
    }
    for prose in [
        "The S3 bucket and the EC2 hosts, v1.2.3, sha256 sums.",
        "h3ll0 w0rld: the 1337 way",
        "$5 for the secret santa",
    ] {
        check(&format!("# T\n\n{prose}\n"), Internal);
        check(&format!("# T\n\n{pad}{prose}\n"), Internal);
    }
}

/// Red-team marks (seventeenth session): written past the 30-line head and in
/// it, each must withhold its note. Before, each of these let the note's text
/// through, past the head at least: a value in a code span or on the next line,
/// invisible or look-alike letters, a callout, a symbol, HTML, several fields
/// on one line, a lead-in, a qualified key, an em dash, a definition list.
#[test]
fn marks_written_any_common_way_withhold_the_note_anywhere() {
    let pad = "Line of prose.\n\n".repeat(40);
    for mark in [
        "**Sensitivity:** `secret`",
        "`Sensitivity`: secret",
        "**Sensitivity:**\nsecret",
        "**Sensitivity:**\n- secret",
        "Sensitivity: se\u{200B}cret",
        "Sensitivity: SE\u{AD}CRET",
        "Sensitivity: s\u{0435}cret",
        "Sensitivity: \u{FF53}\u{FF45}\u{FF43}\u{FF52}\u{FF45}\u{FF54}",
        "> [!warning] Sensitivity: secret",
        "> [!secret]- Classification: Secret",
        "\u{1F512} Classification: SECRET",
        "<b>Sensitivity:</b> secret",
        "<td>Sensitivity</td><td>Secret</td>",
        "<details><summary>Sensitivity: secret</summary>",
        "**Owner:** Bob \u{B7} **Sensitivity:** Secret",
        "NOTE: sensitivity: secret",
        "[//]: # (sensitivity: secret)",
        "[^1]: Sensitivity: secret",
        "- [x] Sensitivity: secret",
        "Data sensitivity: secret",
        "Document classification: SECRET",
        "Classification\u{2014}SECRET",
        "Sensitivity\n: secret",
        "[sensitivity]: secret",
        "Sensitivity: s&#101;cret",
        "Sensitivity: ~~internal~~ **secret**",
        "#secret",
        "Tags: #ops #secret",
        "Sensitivity&colon; secret",
        "Sens&shy;itivity: secret",
        "Sensitivity\\: secret",
        "<!-- a --> sensitivity: secret",
        "| Date | Entry | Sensitivity |\n|---|---|---|\n| 2025-01-01 | public thing | internal |\n| 2025-02-01 | vendor price | secret |",
    ] {
        for text in [
            format!("# T\n\n{pad}{mark}\n\n{CANARY} body.\n"),
            format!("# T\n\n{mark}\n\n{CANARY} body.\n"),
        ] {
            check(&text, Secret);
        }
    }
    // Prose stays prose, past the head.
    for prose in [
        "Sensitivity: high",
        "Model sensitivity: 0.93",
        "Classification: supervised",
        "Set `sensitivity: secret` in the front matter.",
        "Write `**Sensitivity:** secret` under an entry's heading.",
        "The secret is kept elsewhere; sensitivity matters.",
        "Note: the classification: see below",
        "> [!tip] Keep it short.",
        "| Test | Sensitivity | Specificity |\n|---|---|---|\n| PCR | 0.93 | 0.88 |",
        "| Note | sensitivity |\n|---|---|\n| a | public |\n| b | internal |\n| c | secret |",
        "- **sensitivity**: internal 105, public 31, confidential 5, secret 5.",
        "- sensitivity policy: secret notes sit next to the queries, and leaks show",
        "- **Confidentiality:** uploads are encrypted; keys are kept secret in Vault.",
        "Data classification: customer PII is confidential, payment data is secret.",
        "Classification \u{2014} secret sharing scheme (Shamir)",
        "Sensitivity: secret keys rotate monthly",
        "- Sensitivity: secret notes are never shown to the agent.",
        "Note: sensitivity: secret hides a note from agents.",
        "Sensitivity: private beta feature flag",
    ] {
        check(&format!("# T\n\n{pad}{prose}\n"), Internal);
    }
    check(
        "# T\n\n- sensitivity policy: secret notes sit next to the queries\n",
        Internal,
    );
}

/// Fenced code as `CommonMark` reads it: a fence opened in a list item, an
/// indented block that only looks like a fence, a line of inline code with
/// three backticks, and a fence that never closes no longer hide the marks
/// after them (each put every later line "in code"); a mark inside a closed
/// fence still documents the syntax.
#[test]
fn fenced_code_is_read_as_markdown_reads_it() {
    for text in [
        "# D\n\n- ```sh\n  make\n  ```\n\n**Sensitivity:** secret\n\nQz9CANARY\n",
        "# D\n\n1. ```js\n   x()\n   ```\n\n**Sensitivity:** secret\n\nQz9CANARY\n",
        "# D\n\n    ```\n    indented\n\n**Sensitivity:** secret\n\nQz9CANARY\n",
        "# D\n\n```a`b```\n\n**Sensitivity:** secret\n\nQz9CANARY\n",
        "# D\n\n```\nnever closed\n\n**Sensitivity:** secret\n\nQz9CANARY\n",
    ] {
        check(text, Secret);
    }
    check(
        "# D\n\n```yaml\nsensitivity: secret\n```\n\nProse.\n",
        Internal,
    );
    check(
        "# D\n\n> ```\n> sensitivity: secret\n> ```\n\nProse.\n",
        Internal,
    );
}

/// The level of each entry of a `decisions.md` holding `text`, by slug.
fn entry_levels(text: &str) -> Vec<(String, Sensitivity)> {
    parse_file("decisions.md", text.as_bytes())
        .notes
        .into_iter()
        .filter(|n| n.entry_of.is_some())
        .map(|n| (n.id.rsplit_once('#').unwrap().1.to_owned(), n.sensitivity))
        .collect()
}

/// An entry nested under a secret one is secret; a mark under a heading of the
/// entry's own level (`### Metadata`) or after its rule counts for it; a fence
/// opened in a list item does not swallow the next entry's mark.
#[test]
fn an_entry_s_marks_reach_to_the_next_entry() {
    let nested = "# Log\n\n## 2025-02-01 \u{2014} Vendor negotiation\n\n**Sensitivity:** secret\n\nTerms.\n\n### 2025-02-03 \u{2014} Follow-up call\n\nWe agreed price Qz9CANARY.\n\n## 2025-03-01 \u{2014} Use redis\n\nPlain.\n";
    assert_eq!(
        entry_levels(nested),
        [
            ("vendor-negotiation".to_owned(), Secret),
            ("follow-up-call".to_owned(), Secret),
            ("use-redis".to_owned(), Internal),
        ]
    );
    let metadata = "# Log\n\n### [2025-02-01] Vendor pricing\n\nPrice Qz9CANARY agreed.\n\n### Metadata\n\n**Sensitivity:** secret\n\n### [2025-02-02] Use redis\n\nPlain.\n";
    assert_eq!(
        entry_levels(metadata),
        [
            ("vendor-pricing".to_owned(), Secret),
            ("use-redis".to_owned(), Internal),
        ]
    );
    let after_rule = "# Log\n\n### [2025-02-01] A\n\nText.\n\n---\n\nSensitivity: confidential\n\n### [2025-02-02] B\n\nPlain.\n";
    assert_eq!(
        entry_levels(after_rule),
        [("a".to_owned(), Confidential), ("b".to_owned(), Internal)]
    );
    let list_fence = "# Log\n\n### [2025-02-01] Build\n\n- ```sh\n  make\n  ```\n\n**Sensitivity:** secret\n\nPrice Qz9CANARY.\n\n### [2025-02-02] Use redis\n\nPlain.\n";
    assert_eq!(
        entry_levels(list_fence),
        [
            ("build".to_owned(), Secret),
            ("use-redis".to_owned(), Internal),
        ]
    );
}

/// A confidential note's diagnostics quote none of its values: an agent reads
/// diagnostics (explain, MCP), and its content is not to be shown. Before,
/// `freshness: <value>` was quoted in the warning.
#[test]
fn a_confidential_note_s_diagnostics_quote_no_value() {
    let text = format!(
        "---\ntitle: Vendor\nsensitivity: confidential\nfreshness: {CANARY}1\nmemory_type: {CANARY}2\nreview_after: {CANARY}3\nretrieval_priority: {CANARY}4\n---\nBody.\n"
    );
    let p = parse_note("n.md", text.as_bytes());
    assert!(p.diagnostics.len() >= 3, "{:?}", p.diagnostics);
    for d in &p.diagnostics {
        assert!(!d.message.contains(CANARY), "{d}");
    }
    // An internal note's are quoted, to be fixed.
    let p = parse_note("n.md", text.replace("confidential", "internal").as_bytes());
    assert!(p.diagnostics.iter().any(|d| d.message.contains(CANARY)));
}

/// Banners: a level stamped on a note without a key (red team: `CONFIDENTIAL —
/// do not share` as the first line, `TOP SECRET` alone, `This note is classified
/// secret.`, `TS//SCI`, `S E C R E T` and `Security level: secret` left the note
/// `internal`). In the head, past it, and in an entry of a decisions file; the
/// names and prose that only look like one stay `internal`.
#[test]
fn banners_without_a_key_withhold_the_note() {
    let pad = "Line of prose.\n\n".repeat(40);
    for (banner, level) in [
        ("CONFIDENTIAL \u{2014} do not share", Confidential),
        ("**TOP SECRET**", Secret),
        ("# SECRET", Secret),
        ("> [!danger] STRICTLY CONFIDENTIAL", Confidential),
        ("Confidential \u{2014} do not share", Confidential),
        ("Secret (not for distribution)", Secret),
        ("This note is classified secret.", Secret),
        (
            "This document is confidential and must not leave the team.",
            Confidential,
        ),
        ("Security level: secret", Secret),
    ] {
        for text in [
            format!("{banner}\n\n# T\n\n{CANARY} body.\n"),
            format!("# T\n\n{pad}{banner}\n\n{CANARY} body.\n"),
        ] {
            check(&text, level);
        }
    }
    // Second red team: forms that were missed, in the head and past it.
    for (banner, level) in [
        ("S E C R E T", Secret),
        ("TS//SCI", Secret),
        ("(S//NF) Relay", Secret),
        ("For your eyes only.", Secret),
        ("DO NOT SHARE", Confidential),
        ("CLASSIFIED", Secret),
        ("EYES ONLY", Secret),
        ("Confidential: Q3 payout numbers", Confidential),
        ("[CONFIDENTIAL]", Confidential),
        ("DRAFT \u{2014} CONFIDENTIAL", Confidential),
        ("Top-Secret", Secret),
        ("These notes are confidential.", Confidential),
        ("Everything below is confidential.", Confidential),
        ("> [!confidential]", Confidential),
        ("**Status:** Confidential", Confidential),
        ("Security level: secret", Secret),
        // Struck words are read without them too (a struck stamp still counts).
        ("~~draft~~ CONFIDENTIAL", Confidential),
        ("~~Draft~~ ~~v2~~ TOP SECRET \u{2014} vendor keys", Secret),
        ("~~CONFIDENTIAL~~ \u{2014} public now", Confidential),
        // Statements in the six other languages, in the head and past it.
        ("Dieses Dokument ist streng vertraulich.", Confidential),
        ("Cette note est secrète.", Secret),
        ("Questo documento è riservato.", Confidential),
    ] {
        for text in [
            format!("{banner}\n\n# T\n\n{CANARY} body.\n"),
            format!("# T\n\n{pad}{banner}\n\n{CANARY} body.\n"),
        ] {
            check(&text, level);
        }
    }
    let log = "# Log\n\n### [2025-02-01] Vendor pricing\n\nCONFIDENTIAL \u{2014} do not share\n\nPrice Qz9CANARY.\n\n### [2025-02-02] Use redis\n\nPlain.\n";
    assert_eq!(
        entry_levels(log),
        [
            ("vendor-pricing".to_owned(), Confidential),
            ("use-redis".to_owned(), Internal),
        ]
    );
    for prose in [
        "## Secret\n\nA Kubernetes Secret holds a token.",
        "- Secret\n- ConfigMap\n- Service",
        "- PUBLIC\n- INTERNAL\n- SECRET",
        "### Secret Rotation",
        "## PRIVATE API",
        "Secret: do not commit it to git.",
        "| Level | Meaning |\n|---|---|\n| SECRET | never shown |",
        "The FPGA is reset because its configuration was\n  confidential.",
        "This file is secret-free.",
        "Is this document confidential? Ask the owner.",
        "Security level: high",
        "Private\n\nMethods that start with an underscore.",
        "SECRET: ${{ secrets.PAYOUT_KEY }}",
        "PRIVATE: true",
        "CLASSIFIED: 1203 payout ledger rows",
        "## PUBLIC\n\nx\n\n## PRIVATE\n\ny\n\n## INTERFACE\n\nz",
        "`This note is confidential.` is the statement form we detect.",
        "Exports tagged with the level\nconfidential: do not share them outside finance.",
        "PUBLIC: shown.\n\nINTERNAL: shown.\n\nCONFIDENTIAL: listed, content withheld.\n\nSECRET: never shown.",
        "- PUBLIC: shown\n- INTERNAL: shown\n- CONFIDENTIAL: listed, withheld\n- SECRET: never shown",
        "Status: draft",
        "Visibility: private",
    ] {
        check(&format!("# T\n\n{prose}\n"), Internal);
        check(&format!("# T\n\n{pad}{prose}\n"), Internal);
    }
}

/// A section above the entries' level (`## Notes` after `### [date]` entries)
/// belonged to no note: its text was never shown nor found, and a mark in it
/// applied to nothing. It is now the intro's (the file's own note), with its
/// marks; grouping headings alone (`## 2024`) add nothing.
#[test]
fn a_section_after_the_entries_belongs_to_the_intro() {
    let file = |notes: &str| {
        format!(
            "# Decisions\n\n## 2025\n\n### [2025-02-01] Use redis\n\nRedis for the cache.\n\n## 2024\n\n### [2024-05-01] Use kafka\n\nKafka for events.\n\n{notes}"
        )
    };
    let parsed = |text: &str| parse_file("decisions.md", text.as_bytes()).notes;
    // Plain notes: found in the intro, entries unchanged.
    let notes = parsed(&file("## Notes\n\nThe zebra ledger keeps its own clock.\n"));
    let intro = notes
        .iter()
        .find(|n| n.entry_of.is_none())
        .expect("an intro");
    assert!(intro.body.contains("zebra ledger keeps"), "{}", intro.body);
    assert!(!intro.body.contains("## 2024"), "{}", intro.body);
    assert_eq!(intro.sensitivity, Internal);
    assert_eq!(notes.iter().filter(|n| n.entry_of.is_some()).count(), 2);
    // A mark there raises the intro, not the entries.
    let notes = parsed(&file(&format!(
        "## Notes\n\n**Sensitivity:** secret\n\nVendor price {CANARY}.\n"
    )));
    let intro = notes
        .iter()
        .find(|n| n.entry_of.is_none())
        .expect("an intro");
    assert_eq!(intro.sensitivity, Secret);
    for e in notes.iter().filter(|n| n.entry_of.is_some()) {
        assert_eq!(e.sensitivity, Internal, "{}", e.id);
        assert!(!e.body.contains(CANARY));
    }
    // Grouping headings only: no intro (the preamble is a title).
    let notes = parsed(&file(""));
    assert!(notes.iter().all(|n| n.entry_of.is_some()), "{notes:#?}");
}

/// A banner after a log's entries (a footer: `CONFIDENTIAL — do not share`
/// under `## Notes`, or below a `---` that closes the last entry) is the
/// file's, as the preamble's is: it withheld only the intro or the last entry,
/// and every other entry's text was shown. A keyed mark stays where it was
/// written: under a section's own heading, that section's (the intro's);
/// below a rule, the entry above's.
#[test]
fn a_banner_or_footer_after_the_entries_marks_every_entry() {
    let log = |tail: &str| {
        format!(
            "# Decisions\n\n### [2025-02-01] Use redis\n\nRedis for {CANARY}.\n\n### [2024-05-01] Use kafka\n\nKafka for events.\n\n{tail}"
        )
    };
    let levels = |text: &str| {
        let notes = parse_file("decisions.md", text.as_bytes()).notes;
        let intro = notes
            .iter()
            .find(|n| n.entry_of.is_none())
            .map(|n| n.sensitivity);
        let entries: Vec<_> = notes
            .iter()
            .filter(|n| n.entry_of.is_some())
            .map(|n| n.sensitivity)
            .collect();
        (intro, entries)
    };
    for tail in [
        "## Notes\n\nCONFIDENTIAL \u{2014} do not share\n",
        "## Notes\n\nThe zebra ledger.\n\nThis note is confidential.\n",
    ] {
        let (intro, entries) = levels(&log(tail));
        assert_eq!(intro, Some(Confidential), "{tail:?}");
        assert_eq!(entries, [Confidential, Confidential], "{tail:?}");
    }
    // A footer below the last entry's rule: no intro of its own (the file's
    // note holds nothing else), every entry raised, whatever follows it.
    for tail in [
        "---\n\nCONFIDENTIAL\n",
        "---\n\n*Internal & Confidential*\n",
        "---\n\nCONFIDENTIAL \u{2014} do not share\n\n## Appendix\n\nThe zebra ledger.\n",
    ] {
        let (intro, entries) = levels(&log(tail));
        assert_ne!(intro, Some(Internal), "{tail:?}");
        assert_eq!(entries, [Confidential, Confidential], "{tail:?}");
    }
    assert_eq!(levels(&log("---\n\nCONFIDENTIAL\n")).0, None);
    // The last entry's own section (`### Metadata`, its level) is its own, as
    // under any other entry: not a footer.
    let (_, entries) = levels(&log("### Metadata\n\nCONFIDENTIAL\n"));
    assert_eq!(entries, [Internal, Confidential]);
    // A banner and a keyed mark that disagree there: the intro in doubt
    // (secret), the entries at the banner's level.
    let (intro, entries) = levels(&log(
        "## Notes\n\n**Sensitivity:** internal\n\nCONFIDENTIAL\n",
    ));
    assert_eq!(intro, Some(Secret));
    assert_eq!(entries, [Confidential, Confidential]);
    // Banners naming two levels describe them: the intro's only (in doubt).
    let (intro, entries) = levels(&log(
        "## Classification\n\nCONFIDENTIAL: entries about customers\n\nSECRET: entries about keys\n",
    ));
    assert_eq!(intro, Some(Secret));
    assert_eq!(entries, [Internal, Internal]);
    // A keyed mark below a rule is the last entry's, as it was.
    let (_, entries) = levels(&log("---\n\nSensitivity: confidential\n"));
    assert_eq!(entries, [Internal, Confidential]);
    // Under a section's own heading, a keyed mark or a table's column is that
    // section's: the intro's only.
    for tail in [
        "## Notes\n\n**Sensitivity:** confidential\n\nVendor terms.\n",
        "## Vendor pricing\n\n| Item | Sensitivity |\n|---|---|\n| price | confidential |\n",
    ] {
        let (intro, entries) = levels(&log(tail));
        assert_eq!(intro, Some(Confidential), "{tail:?}");
        assert_eq!(entries, [Internal, Internal], "{tail:?}");
    }
    // A footer without a mark changes nothing, nor does a section describing
    // the levels (lines heading all four, as in a note's body): it made the
    // intro secret, and with banners the file's, every entry.
    for tail in [
        "---\n\nWritten by the platform team.\n",
        "## Sensitivity levels\n\nPUBLIC: shown.\n\nINTERNAL: shown.\n\nCONFIDENTIAL: listed, content withheld.\n\nSECRET: never shown.\n",
    ] {
        let (intro, entries) = levels(&log(tail));
        assert_ne!(intro, Some(Secret), "{tail:?}");
        assert_ne!(intro, Some(Confidential), "{tail:?}");
        assert_eq!(entries, [Internal, Internal], "{tail:?}");
    }
    // Nor inside an entry; a banner above a list of visibilities still counts.
    let (_, entries) = levels(&log(
        "### [2025-06-01] Levels\n\n- PUBLIC: shown\n- INTERNAL: shown\n- CONFIDENTIAL: withheld\n- SECRET: never shown\n",
    ));
    assert_eq!(entries, [Internal, Internal, Internal]);
    let (_, entries) = levels(&log(
        "### [2025-06-01] Pay API\n\nCONFIDENTIAL\n\n- Public: /v1/pay\n- Internal: /admin\n",
    ));
    assert_eq!(entries, [Internal, Internal, Confidential]);
    // Fewer than four levels may be marks with their content (the review: a
    // secret line beside two others was dropped, and its passphrase shown),
    // and a stamp below a list of visibilities counts.
    for (entry, level) in [
        (
            "Public: list prices\nInternal: discount bands\nSECRET: the signing key passphrase tulip-42\n",
            Secret,
        ),
        (
            "- Public: /metrics\n- Internal: /debug/pprof\n\nCONFIDENTIAL\n",
            Confidential,
        ),
    ] {
        let (_, entries) = levels(&log(&format!("### [2025-06-01] Tiers\n\n{entry}")));
        assert_eq!(entries, [Internal, Internal, level], "{entry:?}");
        check(&format!("# Tiers\n\n{entry}"), level);
        let pad = "Line of prose.\n\n".repeat(40);
        check(&format!("# Tiers\n\n{pad}{entry}"), level);
    }
}

/// A level read from words without a sensitivity key is said (info
/// `sensitivity-mark`, with its line), so that a line not meant as a mark can
/// be found and reworded; a sensitivity key written in the body is the author's
/// plain statement and says nothing more.
#[test]
fn a_level_read_without_a_key_is_said_with_its_line() {
    let said = |text: &str| {
        parse_note("n.md", text.as_bytes())
            .diagnostics
            .into_iter()
            .filter(|d| d.code == "sensitivity-mark")
            .map(|d| (d.line, d.severity, d.message.contains("banner")))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said("# T\n\nCONFIDENTIAL \u{2014} do not share\n\nBody.\n"),
        [(Some(3), cairn_note::Severity::Info, true)]
    );
    assert_eq!(
        said("---\ntitle: T\n---\n# T\n\n**Status:** Confidential\n"),
        [(Some(6), cairn_note::Severity::Info, false)]
    );
    assert!(said("# T\n\nSensitivity: secret\n").is_empty());
    assert!(said("---\nsensitivity: secret\n---\n# T\n\nCONFIDENTIAL\n").is_empty());
    assert!(said("# T\n\nPlain.\n").is_empty());
}

/// The session's review: a banner on a long line (a paragraph written on one
/// line: the quick test read only lines under 400 bytes), a banner above a
/// list of visibilities (taken for a list of levels), a stated level with a
/// clause after it, and a section after a log's entries marked by a table
/// alone (no prose: its marks were dropped with it).
#[test]
fn banners_on_long_lines_above_lists_and_in_tables_after_entries() {
    let long = "word ".repeat(120);
    let pad = "Line of prose.\n\n".repeat(40);
    check(
        &format!("CONFIDENTIAL \u{2014} {long}\n\n# T\n"),
        Confidential,
    );
    check(
        &format!("This note is confidential: {long}\n\n# T\n"),
        Confidential,
    );
    check(
        &format!("# T\n\n{pad}**Sensitivity:** secret. {long}\n"),
        Secret,
    );
    check(
        "CONFIDENTIAL\n\n- Public: /v1/pay\n- Internal: /admin\n",
        Confidential,
    );
    check(
        "# T\n\nStatus: Confidential \u{2014} do not share\n",
        Confidential,
    );
    let log = format!(
        "# Decisions\n\n### [2025-02-01] Use redis\n\nRedis.\n\n## Vendor pricing\n\n| Item | Sensitivity |\n|---|---|\n| price {CANARY} | secret |\n"
    );
    let notes = parse_file("decisions.md", log.as_bytes()).notes;
    let intro = notes
        .iter()
        .find(|n| n.entry_of.is_none())
        .expect("an intro");
    assert_eq!(intro.sensitivity, Secret);
}
