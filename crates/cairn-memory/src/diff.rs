//! The unified diff of a change, as shown by `--dry-run` (and kept in every
//! outcome): what the file was, what it will be. The diff obeys the policy like
//! any output: credentials are redacted, and the diff of a secret or confidential
//! note is withheld (only its size is said).

use similar::TextDiff;

/// The unified diff from `before` to `after` (`None` = no file), labelled with
/// the vault-relative `path`. `withhold` replaces the body with a neutral line.
pub fn unified(path: &str, before: Option<&str>, after: Option<&str>, withhold: bool) -> String {
    let old = before.unwrap_or("");
    let new = after.unwrap_or("");
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
    let diff = TextDiff::from_lines(old, new);
    if withhold {
        let (mut added, mut removed) = (0usize, 0usize);
        for change in diff.iter_all_changes() {
            match change.tag() {
                similar::ChangeTag::Insert => added += 1,
                similar::ChangeTag::Delete => removed += 1,
                similar::ChangeTag::Equal => {}
            }
        }
        return format!(
            "--- {a}\n+++ {b}\n(diff withheld: the note is secret or confidential; {added} lines added, {removed} removed)\n"
        );
    }
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
        let d = unified(
            "n.md",
            Some("a\nb\n"),
            Some("a\nc\ntoken ghp_Fak3CanaryT0kenForCairnDemoOnly9x2Q7\n"),
            false,
        );
        assert!(
            d.starts_with("--- a/n.md\n+++ b/n.md\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n"),
            "{d}"
        );
        assert!(d.contains("[redacted:github-token]"));
        assert!(!d.contains("ghp_Fak3"));
        let d = unified("n.md", None, Some("x\n"), false);
        assert!(d.starts_with("--- /dev/null\n+++ b/n.md\n"), "{d}");
        let d = unified("s.md", Some("x\n"), Some("x\nsecret stuff\n"), true);
        assert!(!d.contains("secret stuff"));
        assert!(d.contains("1 lines added, 0 removed"));
    }
}
