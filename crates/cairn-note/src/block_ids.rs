//! The ids that name a block for links to it, which say nothing and are left
//! out of a summary's prose: a block anchor ending a line (`text ^71zw33gw6mli`:
//! Obsidian's, Foam's and Dendron's) or alone on one, and a Logseq block
//! reference (`((60af74c1-51e3-4a29-8a8e-3fd6d3ab5d4c))`) or embed of one.

/// `body` without the ids that name a block for links to it, which say
/// nothing: a block anchor ending a line (`text ^71zw33gw6mli`, Obsidian's,
/// Foam's and Dendron's) or alone on one, and a Logseq block reference
/// (`((60af74c1-51e3-4a29-8a8e-3fd6d3ab5d4c))`) or embed of one (`{{embed
/// ((…))}}`).
pub(crate) fn without_block_ids(body: &str) -> std::borrow::Cow<'_, str> {
    if !body.contains('^') && !body.contains("((") {
        return std::borrow::Cow::Borrowed(body);
    }
    let mut out = String::with_capacity(body.len());
    let mut changed = false;
    for line in body.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let ending = &line[content.len()..];
        let mut kept = content.to_owned();
        if let Some(at) = block_anchor_at(&kept) {
            kept.truncate(at);
            kept.truncate(kept.trim_end().len());
        }
        let unref = without_block_refs(&kept);
        if unref != content {
            changed = true;
        }
        out.push_str(&unref);
        out.push_str(ending);
    }
    if changed {
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(body)
    }
}

/// Where a block anchor ending `line` starts: `^` and 1 to 64 letters, digits
/// or dashes at the end, after a blank or alone on the line (`x^2` and `2^10`
/// are not anchors).
fn block_anchor_at(line: &str) -> Option<usize> {
    let t = line.trim_end();
    let at = t.rfind('^')?;
    let id = &t[at + 1..];
    // A letter in it: `react ^18` is a version range.
    let valid = !id.is_empty()
        && id.len() <= 64
        && id.bytes().any(|b| b.is_ascii_alphabetic())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let starts = at == 0 || t[..at].ends_with([' ', '\t']) || t[..at].trim().is_empty();
    (valid && starts).then_some(at)
}

/// `line` without Logseq's block references `((uuid))` and the embeds of one
/// (`{{embed ((uuid))}}`).
fn without_block_refs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("((") {
        let after = &rest[at + 2..];
        let uuid = after.get(..36).filter(|u| is_uuid(u));
        if let Some(u) = uuid
            && after[u.len()..].starts_with("))")
        {
            let mut before = &rest[..at];
            let mut end = at + 2 + 36 + 2;
            // `{{embed ((uuid))}}`: the embed goes whole.
            if let Some(open) = before.rfind("{{")
                && before[open + 2..].trim().eq_ignore_ascii_case("embed")
                && rest[end..].starts_with("}}")
            {
                before = &before[..open];
                end += 2;
            }
            out.push_str(before);
            rest = &rest[end..];
        } else {
            out.push_str(&rest[..at + 2]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Whether `s` is a UUID written as 8-4-4-4-12 hexadecimal digits.
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use crate::prose::prose;

    /// Held-out trials (Dendron, Foam, Logseq): a block's id is no prose.
    #[test]
    fn block_ids_and_references_are_no_prose() {
        let p = prose(
            "Dendron 0.88 has sprouted ^71zw33gw6mli\n\nSee the flow.\n^a-1\n\nLogseq has ((60af74c1-51e3-4a29-8a8e-3fd6d3ab5d4c)) built in. {{embed ((6380b0a1-0bce-4e5e-a9d2-01a234567890))}}\n",
        );
        let all = p.sentences.join(" | ");
        assert_eq!(
            all,
            "Dendron 0.88 has sprouted | See the flow. | Logseq has built in."
        );
        // A power, a footnote's caret, a half reference: as written.
        let p =
            prose("Grows as 2^10 and x^2.\n\nA (( note )) here ^ there.\n\nUpgrade to react ^18\n");
        assert_eq!(
            p.sentences.join(" | "),
            "Grows as 2^10 and x^2. | A (( note )) here ^ there. | Upgrade to react ^18"
        );
    }
}
