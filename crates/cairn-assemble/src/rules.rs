//! A working-style note's summary: the rules it lists.
//!
//! A developer often keeps how they want agents to work in one note, a lead
//! sentence and a list (`How I work with AI agents`: "1. **Never commit or
//! push.** Stage changes, show me the diff…"). The one-line summary other items
//! get ([`crate::summarize`]) would show the lead alone ("These are the rules I
//! want any agent to follow.") and none of the rules.

use std::collections::BTreeSet;

use cairn_note::prose;
use cairn_policy::{SafeText, ShownNote};

use crate::{clip_str, ends_sentence, one_line, summarize};

/// The longest summary of a working-style note that lists its rules.
pub const RULES_CHARS: usize = 400;

/// The summary of a working-style note: its description when it has one; else,
/// when its prose holds a list of two items or more, the lead before the list
/// (at most two sentences) and each item's first sentence, in order, within
/// [`RULES_CHARS`]; else [`summarize`]'s line.
pub fn summarize_rules(n: &ShownNote<'_>) -> SafeText<'static> {
    if crate::telling_description(n).is_some() {
        return summarize(n, &BTreeSet::new());
    }
    n.body.reshape(|body| {
        let p = prose(body);
        let items: Vec<&str> = p
            .item_starts
            .iter()
            .filter_map(|&i| p.sentences.get(i))
            .map(|s| s.trim())
            .filter(|s| s.chars().any(char::is_alphanumeric))
            .collect();
        let Some(&first_item) = p.item_starts.first() else {
            return summarize(n, &BTreeSet::new()).into_string();
        };
        if items.len() < 2 {
            return summarize(n, &BTreeSet::new()).into_string();
        }
        let lead = p.sentences[p.lead.min(first_item)..first_item]
            .iter()
            .map(|s| s.trim())
            .filter(|s| *s != n.title.trim())
            .take(2);
        let mut out = String::new();
        for s in lead.chain(items) {
            if !out.is_empty() {
                if out.chars().count() + s.chars().count() + 2 > RULES_CHARS {
                    break;
                }
                out.push_str(if ends_sentence(&out) { " " } else { "; " });
            }
            out.push_str(s);
        }
        clip_str(&one_line(&out), RULES_CHARS)
    })
}
