//! What an agent reads when a tool fails: one message, worded for the tool's
//! arguments rather than the CLI's flags, never prefixed twice, and passed through
//! the redactor like every other text that leaves cairn.

use cairn_memory::MemoryError;

/// A write-path refusal in the words of `memory_write` / `memory_pin`.
pub(crate) fn memory_error(e: &MemoryError) -> String {
    let text = match e {
        MemoryError::Exists { path } => format!(
            "refused: {path} already exists; write with mode `append` to add a dated section or `replace` to replace its body, or choose another slug"
        ),
        MemoryError::HashMismatch {
            path,
            expected,
            actual,
        } => format!(
            "refused: {path} changed since you read it (content hash {actual}, expected {expected}); read it again with memory_get and retry (with expect_hash {actual} if your change still applies)"
        ),
        MemoryError::Credentials { count, kinds } => format!(
            "refused: the text holds {count} credential(s) ({kinds}); remove them: credentials are never stored through MCP"
        ),
        other => other.to_string(),
    };
    flags_to_arguments(&text)
}

/// CLI flags an error text may name, and the tool argument that does the same.
const FLAGS: &[(&str, &str)] = &[
    ("--append", "mode `append`"),
    ("--force", "mode `replace`"),
    ("--title", "`title`"),
    ("--type", "`memory_type`"),
    ("--description", "`description`"),
    ("--sensitivity", "`sensitivity`"),
    ("--tags", "`tags`"),
    ("--scope", "`scope`"),
    ("--expect-hash", "`expect_hash`"),
    ("--dry-run", "`dry_run`"),
];

/// Replaces each CLI flag of [`FLAGS`] in `text` with its tool argument (whole
/// flags only: `--types` is not `--type`).
fn flags_to_arguments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let len = tail[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .map_or(tail.len(), |n| n + 2);
        let flag = &tail[..len];
        match FLAGS.iter().find(|(f, _)| *f == flag) {
            Some((_, arg)) => out.push_str(arg),
            None => out.push_str(flag),
        }
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

/// The text of a tool error as the agent receives it: credentials redacted.
pub(crate) fn tool_error(message: &str) -> String {
    cairn_policy::redact(message).text.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_become_arguments() {
        let cases = [
            ("pass --title for the entry", "pass `title` for the entry"),
            (
                "pass --append to add, --force to replace",
                "pass mode `append` to add, mode `replace` to replace",
            ),
            (
                "--types stays; --type goes",
                "--types stays; `memory_type` goes",
            ),
            ("no flags here - at all", "no flags here - at all"),
            ("ends with --dry-run", "ends with `dry_run`"),
            ("--", "--"),
        ];
        for (input, expect) in cases {
            assert_eq!(flags_to_arguments(input), expect, "{input}");
        }
    }

    #[test]
    fn refusals_are_prefixed_once_and_name_no_cli_flag() {
        let errors = [
            MemoryError::Exists {
                path: "a.md".into(),
            },
            MemoryError::HashMismatch {
                path: "a.md".into(),
                expected: "0000".into(),
                actual: "1111".into(),
            },
            MemoryError::Credentials {
                count: 1,
                kinds: "github-token on line 1".into(),
            },
            MemoryError::Refused(
                "decisions.md is an entry file (dated `### [YYYY-MM-DD] Title` entries): pass --title for the entry"
                    .into(),
            ),
        ];
        for e in &errors {
            let m = memory_error(e);
            assert!(m.starts_with("refused: "), "{m}");
            assert_eq!(m.matches("refused").count(), 1, "{m}");
            assert!(!m.contains("--"), "{m}");
            assert!(!m.contains("cairn memory"), "{m}");
        }
    }

    #[test]
    fn tool_errors_are_redacted() {
        let m = tool_error("cairn.toml:3: bad value `ghp_0123456789abcdefghijABCDEFGHIJ012345`");
        assert!(!m.contains("ghp_0123456789"), "{m}");
        assert!(m.contains("cairn.toml:3"), "{m}");
    }
}
