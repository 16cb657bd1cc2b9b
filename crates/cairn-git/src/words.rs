//! The words of a branch name: what a branch says about its task.

/// Prefixes that say what kind of work a branch is, not what it is about.
const KIND_PREFIXES: &[&str] = &[
    "feature", "feat", "fix", "bugfix", "hotfix", "chore", "refactor", "wip",
];

/// The words of `branch`: split on `/`, `-`, `_` and `.`, the leading kind
/// (`feature/`, `fix/`, `chore/`, ...) dropped, empty parts and bare numbers
/// dropped, in order. `fix/payout-batch-lock-timeouts` gives `payout batch lock
/// timeouts`; an issue number (`123-x`) is no word.
#[must_use]
pub fn branch_words(branch: &str) -> Vec<String> {
    let mut segments = branch.split('/').filter(|s| !s.is_empty()).peekable();
    let mut out = Vec::new();
    let mut first = true;
    while let Some(seg) = segments.next() {
        let lower = seg.to_lowercase();
        if first && segments.peek().is_some() && KIND_PREFIXES.contains(&lower.as_str()) {
            first = false;
            continue;
        }
        first = false;
        for w in seg.split(|c: char| matches!(c, '-' | '_' | '.') || c.is_whitespace()) {
            if w.is_empty() || w.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            out.push(w.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::branch_words;

    #[track_caller]
    fn check(branch: &str, expect: &str) {
        assert_eq!(branch_words(branch).join(" "), expect, "branch {branch:?}");
    }

    #[test]
    fn branch_names_become_words() {
        check(
            "fix/payout-batch-lock-timeouts",
            "payout batch lock timeouts",
        );
        check("feature/ledger_posting", "ledger posting");
        check("chore/bump-deps", "bump deps");
        check("main", "main");
        check("fix", "fix");
        check("alice/fix/retry-loop", "alice fix retry loop");
        check("feature/123-idempotency-keys", "idempotency keys");
        check("release/2.4", "release");
        check("", "");
        check("//--__", "");
        check("Feature/Settlement", "Settlement");
        check("fix/ -retry", "retry");
    }
}
