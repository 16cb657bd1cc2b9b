//! What of a note's raw text the write path may show (`cairn memory show`, the
//! diffs of dry runs and outcomes): nothing of a secret note, the title of a
//! confidential one, and in a `decisions.md` / `lessons.md` every secret entry
//! replaced by a one-line placeholder (no title) and every confidential entry cut
//! to its heading and the neutral notice. Levels come from the cairn-note parser,
//! so this agrees with every reader; when the entries cannot be located in the
//! text with certainty, the whole text is withheld.

use cairn_note::{Sensitivity, entry_file_type, entry_heading, parse_file, slugify};

use crate::sensitivity::level;

/// How much of a note's text may be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reveal {
    /// The text, secret entries replaced and confidential ones cut (credentials
    /// not yet redacted), and the raw text of every masked entry (to tell whether
    /// a change touched one; never shown).
    Text(String, Vec<String>),
    /// A confidential note, or entries that could not be masked: nothing of the text.
    Withheld,
    /// A secret note: nothing, not even its title.
    Secret,
}

/// What of the file `rel` holding `text` may be shown.
pub(crate) fn reveal(rel: &str, text: &str) -> Reveal {
    match level(rel, text) {
        Some(Sensitivity::Secret) => Reveal::Secret,
        Some(Sensitivity::Confidential) => Reveal::Withheld,
        _ => {
            mask_entries(rel, text).map_or(Reveal::Withheld, |(t, hidden)| Reveal::Text(t, hidden))
        }
    }
}

/// The placeholder line of a secret entry.
pub(crate) fn secret_placeholder(hashes: &str, date: Option<chrono::NaiveDate>) -> String {
    match date {
        Some(d) => format!("{hashes} [{d}] (secret entry withheld)"),
        None => format!("{hashes} (secret entry withheld)"),
    }
}

/// `text` with its secret and confidential entries masked, and the masked entries'
/// raw text; `None` when an entry cannot be located where the parser says it is.
fn mask_entries(rel: &str, text: &str) -> Option<(String, Vec<String>)> {
    if entry_file_type(rel).is_none() {
        return Some((text.to_owned(), Vec::new()));
    }
    let notes = parse_file(rel, text.as_bytes()).notes;
    // The log's intro holds its head and any section after the entries above
    // their level, with their marks (a banner under `## Notes`): when it is
    // withheld, so is the text, whose intro parts are not located line by line.
    let intro_withheld = notes
        .iter()
        .any(|n| n.entry_of.is_none() && n.sensitivity >= Sensitivity::Confidential);
    if intro_withheld || marked_text_outside_entries(text, &notes) {
        return None;
    }
    let masked: Vec<_> = notes
        .iter()
        .filter(|n| n.entry_of.is_some() && n.sensitivity >= Sensitivity::Confidential)
        .collect();
    if masked.is_empty() {
        return Some((text.to_owned(), Vec::new()));
    }
    let mut hidden = Vec::new();
    let mut lines: Vec<Option<String>> = text
        .split_inclusive('\n')
        .map(|l| Some(l.to_owned()))
        .collect();
    let mut headings: Vec<usize> = notes
        .iter()
        .filter(|n| n.entry_of.is_some())
        .filter_map(|n| n.body_line.checked_sub(1))
        .collect();
    headings.sort_unstable();
    for e in &masked {
        let start = e.body_line.checked_sub(1)?;
        let mut count = e.body.lines().count().max(1);
        // Text after the entry's end (a rule, a heading of its own level) up to
        // the next entry belongs to no entry, but was written under this one:
        // masked with it (a separator alone stays).
        let next = headings
            .iter()
            .copied()
            .find(|&h| h > start)
            .unwrap_or(lines.len());
        let tail = lines.get(start + count..next).unwrap_or_default();
        if tail.iter().flatten().any(|l| {
            let t = l.trim();
            !t.is_empty() && !matches!(t, "---" | "***" | "___")
        }) {
            count = next - start;
        }
        let heading = lines.get(start)?.clone()?;
        if start + count > lines.len() {
            return None;
        }
        let bare = heading.trim_start_matches('\u{feff}');
        let h = entry_heading(bare.trim())?;
        // The heading there must be this entry's (its id is the slug of its title,
        // `-2`, `-3`... for repeats).
        let key = e.id.rsplit_once('#')?.1;
        let base = slugify(&h.title);
        let same = key == base
            || key
                .strip_prefix(base.as_str())
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        if !same {
            return None;
        }
        let nl = if heading.ends_with("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        let hashes = "#".repeat(usize::from(h.level));
        let first = match e.sensitivity {
            Sensitivity::Secret => format!("{}{nl}", secret_placeholder(&hashes, e.created)),
            _ => format!(
                "{}{nl}{nl}{}{nl}",
                heading.trim_end_matches(['\r', '\n']),
                cairn_policy::WITHHELD_NOTICE
            ),
        };
        let mut raw = lines[start].replace(first).unwrap_or_default();
        for l in &mut lines[start + 1..start + count] {
            raw.push_str(&l.take()?);
        }
        hidden.push(raw);
    }
    Some((lines.into_iter().flatten().collect(), hidden))
}

/// Whether text after the first entry that belongs to no entry (under a
/// heading that reads as none, `## 2026-1-3 — Vendor`) holds a sensitivity
/// mark: no entry carries its level, so nothing would mask it; fail closed.
fn marked_text_outside_entries(text: &str, notes: &[cairn_note::Note]) -> bool {
    let entries: Vec<(usize, usize)> = notes
        .iter()
        .filter(|n| n.entry_of.is_some())
        .map(|e| (e.body_line, e.body_line + e.body.lines().count().max(1)))
        .collect();
    let Some(first) = entries.iter().map(|&(start, _)| start).min() else {
        return false;
    };
    text.lines().enumerate().skip(first - 1).any(|(i, line)| {
        let at = i + 1;
        !entries.iter().any(|&(start, end)| at >= start && at < end) && looks_like_a_mark(line)
    })
}

/// A line that reads as a sensitivity field (`**Sensitivity:** secret`,
/// `- Classification: restricted`, `Sensitivity:: secret`), whatever its value:
/// its key, without the markup around it, read as the parser reads keys.
fn looks_like_a_mark(line: &str) -> bool {
    line.split_once(':').is_some_and(|(key, _)| {
        cairn_note::sensitivity_key(key.trim_matches(|c: char| !c.is_alphanumeric())).is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_entries_become_placeholders_and_confidential_ones_headings() {
        let text = "---\ntitle: Decisions\n---\n# Decisions\n\n\
### [2026-01-01] Use NATS\n\nSimpler to run.\n\n---\n\
### [2026-01-02] Vault unseal keys\n\n**Sensitivity:** secret\n\nShards live with three people.\n\n---\n\
### [2026-01-03] Vendor terms\n\n**Sensitivity:** confidential\n\nThe discount is 40%.\n\n---\n";
        let Reveal::Text(shown, hidden) = reveal("m/decisions.md", text) else {
            panic!("shown");
        };
        assert_eq!(hidden.len(), 2);
        assert!(hidden[0].contains("Shards live"), "{hidden:?}");
        assert_eq!(
            shown,
            format!(
                "---\ntitle: Decisions\n---\n# Decisions\n\n\
### [2026-01-01] Use NATS\n\nSimpler to run.\n\n---\n\
### [2026-01-02] (secret entry withheld)\n\n---\n\
### [2026-01-03] Vendor terms\n\n{}\n\n---\n",
                cairn_policy::WITHHELD_NOTICE
            )
        );
        // The same text under another name is one note, whose head carries the
        // entry's `**Sensitivity:** secret`: the whole note is secret.
        assert_eq!(reveal("m/notes.md", text), Reveal::Secret);
        // A mark under a heading that reads as no entry (a mistyped date)
        // belongs to no entry: nothing would mask it, so nothing is shown
        // (review).
        let orphan = "# Decisions\n\n## 2026-01-02 — Use A\n\nBody a.\n\n## 2026-1-3 — Vendor price\n**Sensitivity:** secret\n\nSecret CANARY.\n";
        assert_eq!(reveal("m/decisions.md", orphan), Reveal::Withheld);
        let plain = orphan.replace("**Sensitivity:** secret\n", "");
        assert!(matches!(reveal("m/decisions.md", &plain), Reveal::Text(..)));
        // Text after a secret entry's rule, or under a heading of its own
        // level, up to the next entry, was written under it: masked with it
        // (red team: `memory show` and dry-run diffs printed it).
        for tail in [
            "---\n\nContinuation CANARY.\n",
            "### Notes\n\nContinuation CANARY.\n",
        ] {
            let text = format!(
                "# Decisions\n\n### [2025-02-01] A\n\n**Sensitivity:** secret\n\nBody.\n\n{tail}\n### [2025-02-02] B\n\nPlain.\n"
            );
            let Reveal::Text(shown, _) = reveal("m/decisions.md", &text) else {
                panic!("shown");
            };
            assert!(
                !shown.contains("CANARY") && shown.contains("Plain."),
                "{shown}"
            );
        }
        // A rule alone after a secret entry stays.
        assert!(
            matches!(reveal("m/decisions.md", text), Reveal::Text(ref t, _) if t.matches("---\n").count() == 5)
        );
        // CRLF survives.
        let crlf = text.replace('\n', "\r\n");
        let Reveal::Text(shown, _) = reveal("m/decisions.md", &crlf) else {
            panic!("shown");
        };
        assert!(!shown.contains("Shards") && !shown.contains("Vault unseal"));
        assert!(shown.contains("(secret entry withheld)\r\n"), "{shown}");
    }

    #[test]
    fn secret_and_confidential_notes() {
        assert_eq!(
            reveal("n.md", "---\nsensitivity: secret\n---\nx\n"),
            Reveal::Secret
        );
        assert_eq!(
            reveal("n.md", "---\nsensitivity: confidential\n---\nx\n"),
            Reveal::Withheld
        );
        // Text the parser refuses (NUL bytes) is secret.
        assert_eq!(reveal("n.md", "a\0b"), Reveal::Secret);
    }
}
