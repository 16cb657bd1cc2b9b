//! The unified diff of a change, as shown by `--dry-run` (and kept in every
//! outcome): what the file was, what it will be. The diff obeys the policy like
//! any output: credentials are redacted; the diff of a secret or confidential
//! note is withheld (only its size is said); in an entry file, secret and
//! confidential entries are masked on both sides before diffing, so neither their
//! changed lines nor the context lines around a change show them; and an old
//! `MEMORY.md` line that no visible note would produce (a stale line naming a
//! note that is secret now) is withheld.

use std::collections::HashSet;

use similar::TextDiff;

use crate::mask::{Reveal, reveal};

/// The diff of note `path` from `before` to `after` (`None` = no file), under the policy.
pub(crate) fn note_diff(path: &str, before: Option<&str>, after: Option<&str>) -> String {
    let masked = |t: Option<&str>| match t.map(|t| reveal(path, t)) {
        None => Some(None),
        Some(Reveal::Text(text, hidden)) => Some(Some((text, hidden))),
        Some(Reveal::Withheld | Reveal::Secret) => None,
    };
    let (Some(b), Some(a)) = (masked(before), masked(after)) else {
        return withheld(path, before, after, "the note is secret or confidential");
    };
    let text = |m: &Option<(String, Vec<String>)>| m.as_ref().map(|(t, _)| t.clone());
    let hidden =
        |m: &Option<(String, Vec<String>)>| m.as_ref().map(|(_, h)| h.clone()).unwrap_or_default();
    let (mb, ma) = (text(&b), text(&a));
    if mb == ma && before != after {
        return withheld(path, before, after, "the change is inside a withheld entry");
    }
    let mut diff = unified(path, mb.as_deref(), ma.as_deref());
    if hidden(&b) != hidden(&a) {
        diff.push_str("(changes inside withheld entries are not shown)\n");
    }
    diff
}

/// The diff of the index `path` from the file on disk `before` to the generated
/// `after`. Lines of `before` that are neither in `after` nor in `visible` (the
/// index as the notes before the change would produce it) are withheld.
pub(crate) fn index_diff(path: &str, before: Option<&str>, after: &str, visible: &str) -> String {
    let safe: HashSet<&str> = after.lines().chain(visible.lines()).collect();
    let cleaned = before.map(|b| {
        b.split_inclusive('\n')
            .map(|l| {
                if safe.contains(l.trim_end_matches(['\r', '\n'])) {
                    l.to_owned()
                } else {
                    "(a line of the old index withheld: no visible note produces it)\n".to_owned()
                }
            })
            .collect::<String>()
    });
    unified(path, cleaned.as_deref(), Some(after))
}

/// A diff whose lines are withheld: the headers, the reason and the sizes.
fn withheld(path: &str, before: Option<&str>, after: Option<&str>, why: &str) -> String {
    let (a, b) = labels(path, before, after);
    let diff = TextDiff::from_lines(before.unwrap_or(""), after.unwrap_or(""));
    let (mut added, mut removed) = (0usize, 0usize);
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => added += 1,
            similar::ChangeTag::Delete => removed += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    format!("--- {a}\n+++ {b}\n(diff withheld: {why}; {added} lines added, {removed} removed)\n")
}

fn labels(path: &str, before: Option<&str>, after: Option<&str>) -> (String, String) {
    let a = if before.is_some() {
        format!("a/{path}")
    } else {
        "/dev/null".to_owned()
    };
    let b = if after.is_some() {
        format!("b/{path}")
    } else {
        "/dev/null".to_owned()
    };
    (a, b)
}

/// The plain unified diff from `before` to `after` (`None` = no file), labelled
/// with the vault-relative `path`, credentials redacted.
fn unified(path: &str, before: Option<&str>, after: Option<&str>) -> String {
    let (a, b) = labels(path, before, after);
    // Each side is a note printed as written: redacted as written and as
    // rendered (`ghp\_…`, a password on the line after its sentence), before
    // the diff's line prefixes hide its markdown.
    let before = cairn_policy::redact_markdown(before.unwrap_or(""));
    let after = cairn_policy::redact_markdown(after.unwrap_or(""));
    let diff = TextDiff::from_lines(before.text.as_ref(), after.text.as_ref());
    let text = diff
        .unified_diff()
        .context_radius(3)
        .missing_newline_hint(true)
        .header(&a, &b)
        .to_string();
    cairn_policy::redact(&text).text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_are_redacted_or_withheld() {
        let d = note_diff(
            "n.md",
            Some("a\nb\n"),
            Some("a\nc\ntoken ghp_Fak3CanaryT0kenForCairnDemoOnly9x2Q7\n"),
        );
        assert!(
            d.starts_with("--- a/n.md\n+++ b/n.md\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n"),
            "{d}"
        );
        assert!(d.contains("[redacted:github-token]"));
        assert!(!d.contains("ghp_Fak3"));
        // What the note renders is hidden too (fails before: the diff's line
        // prefixes hid the escape and the wrapped sentence from the redactor).
        let d = note_diff(
            "n.md",
            Some("a\n"),
            Some(
                "a\nghp\\_5pyzQ0kLm3Nx8RtVw2YbCd4EfGh6IjKlMnOp7\nThe password is\nPwDeZ6dqmVe5!9\n",
            ),
        );
        assert!(!d.contains("5pyzQ0kLm3") && !d.contains("PwDeZ6dq"), "{d}");
        let d = note_diff("n.md", None, Some("x\n"));
        assert!(d.starts_with("--- /dev/null\n+++ b/n.md\n"), "{d}");
        let d = note_diff(
            "s.md",
            Some("---\nsensitivity: secret\n---\nx\n"),
            Some("---\nsensitivity: secret\n---\nx\nsecret stuff\n"),
        );
        assert!(!d.contains("secret stuff"));
        assert!(d.contains("1 lines added, 0 removed"));
    }

    #[test]
    fn secret_entries_never_show_in_a_diff_not_even_as_context() {
        let before = "# Decisions\n\n### [2026-01-02] Vault unseal keys\n\n**Sensitivity:** secret\n\nShards live with three people.\n\n---\n";
        let after = format!("{before}### [2026-01-03] Use NATS\n\nSimpler.\n\n---\n");
        let d = note_diff("m/decisions.md", Some(before), Some(&after));
        assert!(d.contains("+### [2026-01-03] Use NATS"), "{d}");
        assert!(
            d.contains(" ### [2026-01-02] (secret entry withheld)"),
            "{d}"
        );
        assert!(!d.contains("Vault unseal") && !d.contains("Shards"), "{d}");
        // A change inside the secret entry only: withheld whole.
        let changed = before.replace("three", "four");
        let d = note_diff("m/decisions.md", Some(before), Some(&changed));
        assert!(d.contains("inside a withheld entry"), "{d}");
        assert!(!d.contains("Shards") && !d.contains("four"), "{d}");
        // A new secret entry shows as its placeholder.
        let d = note_diff(
            "m/decisions.md",
            Some(&after),
            Some(&format!("{after}{before}")),
        );
        assert!(!d.contains("Vault unseal") && !d.contains("Shards"), "{d}");
    }

    #[test]
    fn old_index_lines_no_visible_note_produces_are_withheld() {
        let visible = "# Memory index\n\n- [A](a.md)\n";
        let before = "# Memory index\n\n- [A](a.md)\n- [Root password](s.md)\n";
        let after = "# Memory index\n\n- [A](a.md)\n- [B](b.md)\n";
        let d = index_diff("MEMORY.md", Some(before), after, visible);
        assert!(!d.contains("Root password"), "{d}");
        assert!(
            d.contains("+- [B](b.md)") && d.contains(" - [A](a.md)"),
            "{d}"
        );
        assert!(d.contains("-(a line of the old index withheld"), "{d}");
    }
}
