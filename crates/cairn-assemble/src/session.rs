//! The latest session note's summary: what was done, and what comes next.
//!
//! A session log is read at the next session start for its continuity: where
//! the work stopped and what was to be done next. Its lead paragraph says what
//! was done ("Did: moved the webhook handler…"); the next steps sit under a
//! label or a heading of their own (`Next:`, `## Next steps`, `TODO:`) or are
//! its open tasks (`- [ ] …`), which the one-line summary other items get
//! ([`crate::summarize`]) leaves out.

use std::collections::BTreeSet;

use cairn_policy::{SafeText, ShownNote};

use crate::{clip_str, one_line, summarize};

/// The longest summary of the latest session note.
pub const SESSION_CHARS: usize = 480;

/// The least of [`SESSION_CHARS`] the lead keeps beside the next steps.
const LEAD_CHARS: usize = 160;

/// At most this many next steps are listed.
const MAX_STEPS: usize = 6;

/// What a label or a heading of next steps says, in lower case, without its
/// colon: `Next`, `Next steps`, `TODO`, `Open questions`…
const NEXT_LABELS: &[&str] = &[
    "next",
    "next steps",
    "next step",
    "next up",
    "next session",
    "next time",
    "todo",
    "todos",
    "to do",
    "to-do",
    "follow-up",
    "follow-ups",
    "follow up",
    "follow ups",
    "followups",
    "open questions",
    "open items",
    "open tasks",
    "remaining",
    "still to do",
    "left to do",
    "pending",
    "where i left off",
    "where we left off",
    "tomorrow",
];

/// The summary of the project's latest session note: its line as
/// [`summarize`] gives it, then its next steps (`Next: a. b. c.`) when the note
/// names them and the line does not already say them, within [`SESSION_CHARS`]
/// (the lead cut first, to at least 160 characters).
pub fn summarize_session(n: &ShownNote<'_>) -> SafeText<'static> {
    let lead = summarize(n, &BTreeSet::new()).into_string();
    n.body.reshape(|body| {
        let (label, steps) = next_steps(body);
        let steps: Vec<String> = steps
            .into_iter()
            .filter(|s| !lead.contains(s.as_str()))
            .collect();
        if steps.is_empty() {
            return lead.clone();
        }
        // Each step a sentence: a step may hold a `;` of its own.
        let said: Vec<String> = steps
            .iter()
            .map(|s| {
                if s.ends_with(['.', '!', '?']) {
                    s.clone()
                } else {
                    format!("{s}.")
                }
            })
            .collect();
        let next = format!("{label}: {}", said.join(" "));
        let room = SESSION_CHARS
            .saturating_sub(next.chars().count() + 1)
            .max(LEAD_CHARS);
        let lead = clip_str(&lead, room);
        clip_str(&one_line(&format!("{lead} {next}")), SESSION_CHARS)
    })
}

/// The next steps a session note names, and the label they go by (`Next`, or
/// `Open tasks` for unchecked tasks): the text after a label line (`Next:
/// x`), the list or paragraph lines below it, or those under a heading of next
/// steps; else its unchecked tasks (`- [ ] x`). A list item's continuation
/// lines are part of it. Each step as a reader sees it (markdown removed), at
/// most six. Code blocks are not read.
pub fn next_steps(body: &str) -> (&'static str, Vec<String>) {
    let mut steps: Vec<String> = Vec::new();
    let mut tasks: Vec<String> = Vec::new();
    // Inside the next steps: the heading level that ends them (7 for a label:
    // a blank line after its text ends it, or any heading).
    let mut under: Option<usize> = None;
    let mut in_fence = false;
    // The line before was blank; the last task line was an unchecked task's.
    let mut after_blank = true;
    let mut in_task = false;
    for line in body.lines() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            in_fence = !in_fence;
            in_task = false;
            continue;
        }
        if in_fence {
            continue;
        }
        let blank = t.is_empty();
        let level = heading_level(t);
        let item = is_item(t);
        let continues = !blank && !item && level.is_none() && !after_blank;
        if let Some(end) = under {
            // A heading as high (any heading, after a label), or a blank
            // line after a label's text.
            let ends = level.is_some_and(|l| l <= end) || (end == 7 && blank && !steps.is_empty());
            if ends {
                break;
            }
            if !blank && level.is_none() {
                match steps.last_mut() {
                    Some(last) if continues => {
                        last.push(' ');
                        last.push_str(t);
                    }
                    _ => steps.push(t.to_owned()),
                }
            }
        } else if let Some(l) = level {
            if is_next_label(&t[l..]) {
                under = Some(l);
            }
        } else if let Some(rest) = label_line(t) {
            under = Some(7);
            if !rest.is_empty() {
                steps.push(rest.to_owned());
            }
        } else if unchecked_task(t).is_some() {
            tasks.push(t.to_owned());
            in_task = true;
        } else if in_task && continues {
            if let Some(last) = tasks.last_mut() {
                last.push(' ');
                last.push_str(t);
            }
        } else if !blank {
            in_task = false;
        }
        after_blank = blank;
    }
    let (label, raw) = if steps.is_empty() {
        ("Open tasks", tasks)
    } else {
        ("Next", steps)
    };
    let mut found: Vec<String> = raw.iter().filter_map(|r| step(r)).collect();
    found.truncate(MAX_STEPS);
    (label, found)
}

/// Whether a line is a list item's first line.
fn is_item(t: &str) -> bool {
    strip_marker(t).len() != t.len()
}

/// The level of an ATX heading line (`## x`: 2).
fn heading_level(t: &str) -> Option<usize> {
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    ((1..=6).contains(&hashes) && t[hashes..].starts_with([' ', '\t'])).then_some(hashes)
}

/// Whether a heading's or a label's text names next steps.
fn is_next_label(text: &str) -> bool {
    let t = text
        .trim()
        .trim_end_matches('#')
        .trim()
        .trim_matches(|c| c == '*' || c == '_')
        .trim_end_matches(':')
        .trim()
        .to_lowercase();
    NEXT_LABELS.contains(&t.as_str())
}

/// The rest of a label line of next steps (`Next: x`, `**TODO:** x`, `-
/// next: x`): the text after its colon, maybe empty.
fn label_line(t: &str) -> Option<&str> {
    let t = strip_marker(t);
    let (label, rest) = t.split_once(':')?;
    let rest = rest.trim_start_matches(['*', '_']).trim();
    is_next_label(label).then_some(rest)
}

/// An unchecked task's text (`- [ ] x`).
fn unchecked_task(t: &str) -> Option<&str> {
    let rest = ["- ", "* ", "+ "].iter().find_map(|m| t.strip_prefix(m))?;
    rest.strip_prefix("[ ]").map(str::trim)
}

/// A line without its list marker (`-`, `*`, `+`, `1.`) and checkbox.
fn strip_marker(t: &str) -> &str {
    let t = list_item(t);
    t.strip_prefix("[ ]")
        .or_else(|| t.strip_prefix("[x]"))
        .or_else(|| t.strip_prefix("[X]"))
        .map_or(t, str::trim_start)
}

/// A line without its list marker (`-`, `*`, `+`, `1.`).
fn list_item(t: &str) -> &str {
    ["- ", "* ", "+ "]
        .iter()
        .find_map(|m| t.strip_prefix(m))
        .unwrap_or_else(|| {
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") ")) {
                &t[digits + 2..]
            } else {
                t
            }
        })
        .trim_start()
}

/// One step as a reader sees it; none when it says nothing (or is done: `[x]`).
fn step(t: &str) -> Option<String> {
    let item = list_item(t);
    let done = item.starts_with("[x]") || item.starts_with("[X]");
    let text = cairn_note::clean_inline(strip_marker(t));
    let text = text.trim().trim_end_matches(['.', ';']).trim();
    (!done && text.chars().any(char::is_alphanumeric)).then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::next_steps;

    fn check(body: &str, label: &str, expect: &[&str]) {
        let (l, steps) = next_steps(body);
        assert_eq!(steps, expect, "{body:?}");
        if !expect.is_empty() {
            assert_eq!(l, label, "{body:?}");
        }
    }

    #[test]
    fn next_steps_under_a_label_a_heading_or_as_open_tasks() {
        // Held-out trial: the packet showed the "Did:" paragraph alone.
        check(
            "Did: moved the handler.\n\nNext:\n- Migration 0042: index on `created_at`.\n- Fix `TestWebhookRetry` flake.\n\nUnrelated paragraph.\n",
            "Next",
            &[
                "Migration 0042: index on created_at",
                "Fix TestWebhookRetry flake",
            ],
        );
        check(
            "did: dark mode.\n\nnext: billing page date picker, keyboard nav.\n\nLater text.\n",
            "Next",
            &["billing page date picker, keyboard nav"],
        );
        check(
            "# Session\n\nWork.\n\n## Next steps\n\n1. Ship it\n2. **Tell** ops\n\n## Notes\n\n- not a step\n",
            "Next",
            &["Ship it", "Tell ops"],
        );
        check(
            "**TODO:** rotate the key\n- and the cert\n",
            "Next",
            &["rotate the key", "and the cert"],
        );
        check(
            "Worked on X.\n\n- [x] done thing\n- [ ] open thing\n- [ ] other\n",
            "Open tasks",
            &["open thing", "other"],
        );
        check(
            "## Next\n\n```\nNext: not this\n```\n- real step\n",
            "Next",
            &["real step"],
        );
        // Closing hashes; a numbered task done.
        check(
            "## Next steps ##\n\n1. [x] done already\n2. [ ] still to do\n",
            "Next",
            &["still to do"],
        );
        // Continuation lines belong to their item (the demo vault's session).
        check(
            "Follow-ups:\n\n- [ ] Retry once; it is\n      not a sign of stress. Needs an amendment to\n      [[ADR-008 Retry payouts]]; discuss.\n- [ ] Add a label.\n\nAgent notes: later.\n",
            "Next",
            &[
                "Retry once; it is not a sign of stress. Needs an amendment to ADR-008 Retry payouts; discuss",
                "Add a label",
            ],
        );
        check(
            "Did a thing.\n\n- [ ] open one\n  still the same one\n- [x] done\n  its tail\n\nText.\n",
            "Open tasks",
            &["open one still the same one"],
        );
        // No next steps: nothing.
        check("Did things. Next time is unclear.\n\nThe end.\n", "", &[]);
        check("Nextcloud: set up.\n", "", &[]);
    }
}
