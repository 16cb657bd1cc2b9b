//! A decision record's status and date written in its body, as the common ADR
//! templates keep them instead of front matter:
//!
//! - a field line in the note's head (after the title, before its first section
//!   heading): `Date: 2016-02-13` (Nygard's template, adr-tools),
//!   `* Status: superseded by [ADR-0005](0005-example.md)` and `- Date: 2020-11-03`
//!   (MADR 2, log4brains), `**Status:** Accepted`;
//! - a `## Status` section (Nygard's template, adr-tools): its first line is the
//!   status; its `Superseded by [..](..)` and `Supersedes [..](..)` lines link
//!   the records that replace it or that it replaces.
//!
//! A status is one word, read as front matter's `status` is (a retiring word
//! retires the note; any other, `Accepted` or `Proposed`, leaves it in force),
//! optionally linked (`[Deprecated](https://…)`) and followed only by what says
//! when or by what (`by [7. Use a log](…)`, `(2021-04-01)`, `on 2021-04-01`):
//! a sentence (`Deprecated endpoints are listed below`, `archive job runs at
//! 02:00`) is no status. Field lines count only in the head: the first two
//! blocks after the title, before any section heading. The front matter's own
//! keys always win; text in fenced code is never read.

use chrono::NaiveDate;

use crate::fields::parse_date;
use crate::markdown::{is_heading_marker, wikilinks};

/// What a body says of its record's status and date.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct InBody {
    /// The status word (lowercase: `accepted`, `superseded`).
    pub(crate) status_word: Option<String>,
    /// The record's date.
    pub(crate) date: Option<NaiveDate>,
    /// Records that replace this one.
    pub(crate) superseded_by: Vec<String>,
    /// Records this one replaces.
    pub(crate) supersedes: Vec<String>,
}

/// Reads the status and date of `body` (see the module's documentation).
pub(crate) fn read(body: &str) -> InBody {
    let mut out = InBody::default();
    let mut fences = crate::markdown::OpenFence::default();
    // Before the first section heading (a level-1 title does not end it) and
    // within the first two blocks of text.
    let mut head = true;
    let mut blocks = 0;
    let mut in_block = false;
    // Inside a `Status` section: whether its first line was read.
    let mut status_section: Option<bool> = None;
    for raw in body.lines() {
        let t = raw.trim();
        if fences.in_code(t) {
            continue;
        }
        if is_heading_marker(t) {
            let level = t.chars().take_while(|&c| c == '#').count();
            let text = plain(t.trim_start_matches('#').trim_end_matches('#'));
            status_section = None;
            if level > 1 {
                head = false;
                if text.eq_ignore_ascii_case("status") {
                    status_section = Some(false);
                }
            }
            continue;
        }
        if t.is_empty() {
            if in_block {
                in_block = false;
                blocks += 1;
                head &= blocks < 2;
            }
            continue;
        }
        in_block = true;
        if let Some(first_read) = status_section {
            let line = plain(t);
            if !first_read {
                status_section = Some(true);
                out.status(&line);
            } else if let Some(rest) = strip_prefix_ci(&line, "superseded by") {
                out.superseded_by.extend(links(rest));
            } else if let Some(rest) = strip_prefix_ci(&line, "supersedes") {
                out.supersedes.extend(links(rest));
            }
            continue;
        }
        if head && let Some((key, value)) = field(t) {
            match key.as_str() {
                "status" => out.status(&value),
                "date" if out.date.is_none() => {
                    out.date = value.split_whitespace().next().and_then(parse_date);
                }
                _ => {}
            }
        }
    }
    out.superseded_by.dedup();
    out.supersedes.dedup();
    out
}

impl InBody {
    /// Takes `value` as the status, when none was read yet: its first word, and
    /// the records it links when it says `superseded by` or `supersedes`.
    fn status(&mut self, value: &str) {
        if self.status_word.is_some() {
            return;
        }
        let value = &unlinked(&value.replace("**", ""));
        let Some(word) = status_word(value) else {
            return;
        };
        if let Some(rest) = strip_prefix_ci(value, "superseded by") {
            self.superseded_by.extend(links(rest));
        } else if let Some(rest) = strip_prefix_ci(value, "supersedes") {
            self.supersedes.extend(links(rest));
        }
        self.status_word = Some(word);
    }
}

/// The status word of a status value: its first word, when all that follows
/// says when or by what (nothing, `by …`, `in favour of …`, a date, a bracket,
/// punctuation); `None` for a sentence.
fn status_word(value: &str) -> Option<String> {
    let t = value.trim_start_matches(|c: char| !c.is_alphabetic());
    let end = t.find(|c: char| !c.is_alphabetic()).unwrap_or(t.len());
    let (word, rest) = t.split_at(end);
    if word.is_empty() {
        return None;
    }
    let rest = rest
        .trim_start_matches(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '.' | ',' | ';' | ':' | '-' | '–' | '—' | '*' | '_' | ']' | ')' | '"' | '\''
                )
        })
        .to_lowercase();
    let says_when_or_by = rest.is_empty()
        || [
            "by ",
            "by[",
            "in favor",
            "in favour",
            "on ",
            "since ",
            "as of",
            "(",
            "[",
        ]
        .iter()
        .any(|p| rest.starts_with(p))
        || rest.starts_with(|c: char| c.is_ascii_digit());
    says_when_or_by.then(|| word.to_lowercase())
}

/// `text` with markdown links as their text (`[Deprecated](https://…)` →
/// `Deprecated`), when a link opens it.
fn unlinked(text: &str) -> String {
    let t = text.trim_start();
    if let Some(inner) = t.strip_prefix('[')
        && let Some(close) = inner.find("](")
        && let Some(end) = inner[close + 2..].find(')')
    {
        return format!("{}{}", &inner[..close], &inner[close + 2 + end + 1..]);
    }
    t.to_owned()
}

/// A `Key: value` field line (`- Status: x`, `**Date:** x`, `* **Status**: x`):
/// its key lowercased and its value, emphasis removed.
pub(crate) fn field(line: &str) -> Option<(String, String)> {
    let t = line
        .strip_prefix(['-', '*', '+'])
        .filter(|r| r.starts_with([' ', '\t']))
        .map_or(line, str::trim_start);
    let (key, value) = t.split_once(':')?;
    let key = plain(key);
    let value = plain(value.trim_start_matches(['*', '_']));
    (matches!(key.to_ascii_lowercase().as_str(), "status" | "date") && !value.is_empty())
        .then(|| (key.to_ascii_lowercase(), value))
}

/// `text` without list markers and emphasis around it, trimmed.
fn plain(text: &str) -> String {
    let t = text.trim();
    let t = t
        .strip_prefix(['-', '*', '+'])
        .filter(|r| r.starts_with([' ', '\t']))
        .unwrap_or(t);
    t.trim()
        .trim_matches(|c| matches!(c, '*' | '_' | '`'))
        .trim()
        .to_owned()
}

/// `text` after `prefix`, compared without case.
fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The records `text` names: markdown link targets (`[title](0009-x.md)`),
/// wikilinks, else the text itself when it is short (`ADR-0012`).
fn links(text: &str) -> Vec<String> {
    let mut out = wikilinks(text);
    let mut rest = text;
    while let Some(open) = rest.find("](") {
        let after = &rest[open + 2..];
        let Some(close) = after.find(')') else { break };
        let target = after[..close].split('#').next().unwrap_or("").trim();
        if !target.is_empty() && !target.contains("://") {
            out.push(target.to_owned());
        }
        rest = &after[close + 1..];
    }
    if out.is_empty() {
        let t = text.trim().trim_end_matches('.').trim();
        if !t.is_empty() && t.len() <= 80 && !t.contains(['[', ']', '(', ')']) {
            out.push(t.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{InBody, read};
    use chrono::NaiveDate;

    fn date(s: &str) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
    }

    #[track_caller]
    fn check(body: &str, status: Option<&str>, on: Option<&str>, by: &[&str], replaces: &[&str]) {
        let got = read(body);
        let want = InBody {
            status_word: status.map(str::to_owned),
            date: on.and_then(date),
            superseded_by: by.iter().map(|s| (*s).to_owned()).collect(),
            supersedes: replaces.iter().map(|s| (*s).to_owned()).collect(),
        };
        assert_eq!(got, want, "{body}");
    }

    #[test]
    fn nygard_and_adr_tools() {
        check(
            "# 5. Help comments\n\nDate: 2016-02-13\n\n## Status\n\nAccepted\n\nAmended by [9. Help scripts](0009-help-scripts.md)\n\n## Context\n\nStatus: nothing here\n",
            Some("accepted"),
            Some("2016-02-13"),
            &[],
            &[],
        );
        check(
            "# 2. Use a queue\n\nDate: 2019-01-02\n\n## Status\n\nSuperseded by [7. Use a log](0007-use-a-log.md)\n\n## Context\n\nx\n",
            Some("superseded"),
            Some("2019-01-02"),
            &["0007-use-a-log.md"],
            &[],
        );
        check(
            "# 7. Use a log\n\nDate: 2019-03-04\n\n## Status\n\nAccepted\n\nSupersedes [2. Use a queue](0002-use-a-queue.md)\n",
            Some("accepted"),
            Some("2019-03-04"),
            &[],
            &["0002-use-a-queue.md"],
        );
    }

    #[test]
    fn madr_fields_in_the_head() {
        check(
            "# Use Lunr for search\n\n- Status: accepted\n- Date: 2020-11-03\n\n## Context\n\n- Status: ignored\n",
            Some("accepted"),
            Some("2020-11-03"),
            &[],
            &[],
        );
        check(
            "# Use the ADR number\n\n- Status: superseded by [20201016-use-the-slug](20201016-use-the-slug.md)\n- Date: 2020-09-26\n",
            Some("superseded"),
            Some("2020-09-26"),
            &["20201016-use-the-slug.md"],
            &[],
        );
        check(
            "**Status:** Deprecated\n**Date:** 2021-04-01 (revised)\n\nText.",
            Some("deprecated"),
            Some("2021-04-01"),
            &[],
            &[],
        );
        check(
            "* **Status**: superseded by ADR-0012.\n",
            Some("superseded"),
            None,
            &["ADR-0012"],
            &[],
        );
        check(
            "## Status\n\n**Superseded** by [[New cache]]\n",
            Some("superseded"),
            None,
            &["New cache"],
            &[],
        );
    }

    #[test]
    fn sentences_are_not_statuses() {
        for body in [
            "## Status\n\nDeprecated endpoints (/v1/pay) are listed below.\n",
            "- Status: replaced the failing disk, monitoring\n",
            "Status: archive job runs at 02:00\n",
            "# Disk swap\n\nWe swapped the disk.\n\nIt works.\n\nStatus: superseded\n",
        ] {
            assert_eq!(read(body).status_word, None, "{body}");
        }
        check(
            "## Status\n\n[Deprecated](https://example.com/pull/395)\n",
            Some("deprecated"),
            None,
            &[],
            &[],
        );
        check(
            "## Status\n\n[Approved]\n",
            Some("approved"),
            None,
            &[],
            &[],
        );
        check(
            "# T\n\n- Status: superseded (2021-04-01)\n",
            Some("superseded"),
            None,
            &[],
            &[],
        );
        check(
            "# T\n\nStatus: Deprecated in favour of [the v2 API](v2.md)\n",
            Some("deprecated"),
            None,
            &[],
            &[],
        );
    }

    #[test]
    fn templates_code_and_prose_are_not_fields() {
        // A template's placeholder is no status word cairn retires by.
        check(
            "# Title\n\n## Status\n\nWhat is the status, such as proposed, accepted, rejected, deprecated, superseded, etc.?\n",
            None,
            None,
            &[],
            &[],
        );
        check(
            "```\nStatus: superseded\nDate: 2020-01-01\n```\n\nProse mentions Status: superseded inline.\n",
            None,
            None,
            &[],
            &[],
        );
        check("Date: soon\n", None, None, &[], &[]);
        check("", None, None, &[], &[]);
        check("## Status\n\n\n", None, None, &[], &[]);
        check("Status: ✅\n", None, None, &[], &[]);
    }
}
