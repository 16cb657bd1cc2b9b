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
        MemoryError::Declassify { what, from, to, .. } => format!(
            "refused: the write would lower the sensitivity of {what} from {from} to {to}; nothing changed (a tool never lowers a sensitivity: keep {from} or higher, or ask the user to change it)"
        ),
        MemoryError::Changed { path } => format!(
            "refused: {path} was changed by another program while cairn was writing it; nothing was overwritten: read it again with memory_get and retry"
        ),
        MemoryError::IndexStale { done, index, error } => format!(
            "{done}, but {index} could not be updated ({error}): the index is stale; the next write repairs it"
        ),
        MemoryError::LineOutOfRange { path, lines } => {
            format!("refused: {path} has {lines} lines; the line must be between 0 and {lines}")
        }
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

/// CLI flags about the server's own setup, which an agent cannot pass.
const SERVER_FLAGS: &[(&str, &str)] = &[
    ("--config", "the cairn server's configuration file"),
    ("--vault", "the cairn server's vault"),
    ("--index-dir", "the cairn server's index folder"),
    ("--profiles-dir", "the cairn server's profiles folder"),
];

/// Replaces each CLI flag of [`FLAGS`] in `text` with its tool argument, each of
/// [`SERVER_FLAGS`] with what it sets, and any other with "an option of the `cairn`
/// command line" (whole flags only: `--types` is not `--type`).
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
        match FLAGS.iter().chain(SERVER_FLAGS).find(|(f, _)| *f == flag) {
            Some((_, arg)) => out.push_str(arg),
            None if flag.as_bytes().get(2).is_some_and(u8::is_ascii_lowercase) => {
                out.push_str("an option of the `cairn` command line");
            }
            None => out.push_str(flag),
        }
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

/// The text of a tool error as the agent receives it: credentials redacted, on
/// one line, CLI flags worded as tool arguments (an engine or configuration
/// error may name one).
pub(crate) fn tool_error(message: &str) -> String {
    // On one line: an echoed argument cannot start a line of its own.
    cairn_policy::one_line(&flags_to_arguments(&cairn_policy::redact(message).text)).into_owned()
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
                "--typo is not --type",
                "an option of the `cairn` command line is not `memory_type`",
            ),
            (
                "set [index] dir in cairn.toml or pass --index-dir",
                "set [index] dir in cairn.toml or pass the cairn server's index folder",
            ),
            ("a `---` line closes it", "a `---` line closes it"),
            ("no flags here - at all", "no flags here - at all"),
            ("ends with --dry-run", "ends with `dry_run`"),
            ("--", "--"),
        ];
        for (input, expect) in cases {
            assert_eq!(flags_to_arguments(input), expect, "{input}");
        }
    }

    /// Whether `text` holds a `--flag`.
    pub(crate) fn names_a_flag(text: &str) -> bool {
        text.match_indices("--").any(|(at, _)| {
            text.as_bytes()
                .get(at + 2)
                .is_some_and(u8::is_ascii_lowercase)
        })
    }

    /// Every write-path error an agent can meet, with the CLI wording of each.
    fn every_memory_error() -> Vec<MemoryError> {
        let path = || "notes/a.md".to_owned();
        vec![
            MemoryError::InvalidSlug {
                slug: "..".into(),
                reason: "not a name".into(),
            },
            MemoryError::Exists { path: path() },
            MemoryError::CaseCollision {
                path: path(),
                existing: "notes/A.md".into(),
            },
            MemoryError::HashMismatch {
                path: path(),
                expected: "0000".into(),
                actual: "1111".into(),
            },
            MemoryError::Escape {
                path: path(),
                root: "notes".into(),
                reason: "symlink".into(),
            },
            MemoryError::TooLarge {
                path: path(),
                bytes: 10,
                limit: 5,
            },
            MemoryError::Credentials {
                count: 1,
                kinds: "github-token on line 1".into(),
            },
            MemoryError::NoMatch { path: path() },
            MemoryError::AmbiguousMatch {
                path: path(),
                count: 2,
                lines: "1, 3".into(),
            },
            MemoryError::LineOutOfRange {
                path: path(),
                lines: 3,
            },
            MemoryError::Frontmatter {
                path: path(),
                reason: "unclosed `---` block".into(),
            },
            MemoryError::Changed { path: path() },
            MemoryError::Declassify {
                path: path(),
                what: path(),
                from: "confidential".into(),
                to: "public".into(),
            },
            MemoryError::IndexStale {
                done: "notes/a.md written".into(),
                index: "notes/MEMORY.md".into(),
                error: "disk full".into(),
            },
            MemoryError::Refused(
                "decisions.md is an entry file (dated `### [YYYY-MM-DD] Title` entries): pass --title for the entry"
                    .into(),
            ),
            MemoryError::Refused("--old is empty; give the text to replace".into()),
            MemoryError::Secret { path: path() },
        ]
    }

    #[test]
    fn refusals_are_prefixed_once_and_name_no_cli_flag_or_command() {
        for e in &every_memory_error() {
            let m = tool_error(&memory_error(e));
            if e.kind() == cairn_memory::ErrorKind::Refused {
                assert!(m.starts_with("refused: "), "{m}");
            }
            assert!(m.matches("refused").count() <= 1, "doubled: {m}");
            assert!(!names_a_flag(&m), "names a CLI flag: {m}");
            assert!(!m.contains("cairn memory"), "names a CLI command: {m}");
        }
        // The declassify refusal says what an agent can do instead.
        let declassify = &every_memory_error()[12];
        let m = memory_error(declassify);
        assert!(m.contains("lower the sensitivity"), "{m}");
        assert!(m.contains("ask the user"), "{m}");
    }

    #[test]
    fn tool_errors_are_redacted() {
        let m = tool_error("cairn.toml:3: bad value `ghp_0123456789abcdefghijABCDEFGHIJ012345`");
        assert!(!m.contains("ghp_0123456789"), "{m}");
        assert!(m.contains("cairn.toml:3"), "{m}");
    }
}
