//! Writes cannot declassify: the effective sensitivity of a note's text, and of
//! each entry of a `decisions.md` / `lessons.md`, is read by the cairn-note parser
//! (so the writer agrees with every reader, fail-closed rules included), before and
//! after a planned change; a change that would lower either is refused unless the
//! caller passed `--declassify` (the CLI only; never an agent over MCP).
//!
//! An entry is followed by its id (`#<slug of its title>`). An entry that
//! disappears is deleted, unless its text reappears at a lower level (renamed
//! with its `**Sensitivity:**` line dropped, moved into the preamble, or the
//! file renamed so it is no longer an entry file): that is lowering too.

use cairn_note::{Note, Sensitivity, parse_file, parse_note};

use crate::error::MemoryError;

/// The level the readers give the file `rel` holding `text`: `None` for a text
/// with nothing to show (blank); text the parser refuses counts as secret.
pub(crate) fn level(rel: &str, text: &str) -> Option<Sensitivity> {
    if text.trim().is_empty() {
        return None;
    }
    Some(
        parse_note(rel, text.as_bytes())
            .note
            .map_or(Sensitivity::Secret, |n| n.sensitivity),
    )
}

/// Refuses the change of file `before_rel` holding `before` into file `after_rel`
/// holding `after` if it lowers the file's level or any entry's.
pub(crate) fn check(
    before_rel: &str,
    before: &str,
    after_rel: &str,
    after: &str,
) -> Result<(), MemoryError> {
    let Some(old) = level(before_rel, before) else {
        return Ok(());
    };
    // Nothing readable after the change: nothing is shown, so nothing is lowered.
    let new = level(after_rel, after).unwrap_or(Sensitivity::Secret);
    let refuse = |what: String, from: Sensitivity, to: Sensitivity| MemoryError::Declassify {
        path: after_rel.to_owned(),
        what,
        from: from.as_str().to_owned(),
        to: to.as_str().to_owned(),
    };
    if new < old {
        return Err(refuse(before_rel.to_owned(), old, new));
    }
    let old_notes = parse_file(before_rel, before.as_bytes()).notes;
    let new_notes = parse_file(after_rel, after.as_bytes()).notes;
    let entry_what = || format!("an entry of {before_rel}");
    for e in old_notes.iter().filter(|n| n.entry_of.is_some()) {
        // Every note of the new text is at least at the file's new level.
        if e.sensitivity <= new {
            continue;
        }
        let key = entry_key(e);
        match new_notes
            .iter()
            .find(|n| n.entry_of.is_some() && entry_key(n) == key)
        {
            Some(same) if same.sensitivity < e.sensitivity => {
                return Err(refuse(entry_what(), e.sensitivity, same.sensitivity));
            }
            Some(_) => {}
            None => {
                let content = entry_content(e);
                if content.is_empty() {
                    continue;
                }
                if let Some(lower) = new_notes
                    .iter()
                    .filter(|n| n.sensitivity < e.sensitivity)
                    .find(|n| n.body.contains(&content))
                {
                    return Err(refuse(entry_what(), e.sensitivity, lower.sensitivity));
                }
            }
        }
    }
    Ok(())
}

/// What identifies an entry within its file: the part of its id after `#`.
fn entry_key(n: &Note) -> &str {
    n.id.rsplit_once('#').map_or(n.id.as_str(), |(_, k)| k)
}

/// An entry's own text: its body without the heading and the `**Key:**` field
/// lines under it, trimmed.
fn entry_content(n: &Note) -> String {
    let mut lines = n.body.lines().skip(1).peekable();
    while lines
        .peek()
        .is_some_and(|l| l.trim().is_empty() || is_field(l.trim()))
    {
        lines.next();
    }
    lines.collect::<Vec<_>>().join("\n").trim().to_owned()
}

fn is_field(line: &str) -> bool {
    line.strip_prefix("**")
        .is_some_and(|r| r.contains(":**") || r.contains("**:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET_ENTRY: &str = "### [2026-01-02] Vault unseal keys\n\n**Sensitivity:** secret\n\nShards live with three people.\n\n---\n";
    const PUBLIC_ENTRY: &str = "### [2026-01-01] Use NATS\n\nSimpler to run.\n\n---\n";

    fn decisions(entries: &str) -> String {
        format!("---\ntitle: Decisions\n---\n# Decisions\n\n{entries}")
    }

    /// (what, before path, before, after path, after, refused?)
    #[test]
    fn lowering_is_refused_on_every_route() {
        let secret_note = "---\ntitle: T\nsensitivity: secret\n---\nbody\n";
        let both = decisions(&format!("{PUBLIC_ENTRY}{SECRET_ENTRY}"));
        let far = decisions(&format!("{}{SECRET_ENTRY}", PUBLIC_ENTRY.repeat(12)));
        // An entry secret by doubt (its value is no level): past a plain note's
        // head such a line reads as prose, so the renamed note would be lower.
        let far_doubt = far.replace("**Sensitivity:** secret", "**Sensitivity:** high");
        let cases: Vec<(&str, &str, String, &str, String, bool)> = vec![
            (
                "sensitivity key lowered",
                "n.md",
                secret_note.into(),
                "n.md",
                secret_note.replace("secret", "public"),
                true,
            ),
            (
                "sensitivity key removed",
                "n.md",
                secret_note.into(),
                "n.md",
                secret_note.replace("sensitivity: secret\n", ""),
                true,
            ),
            (
                "raised",
                "n.md",
                secret_note.replace("secret", "internal"),
                "n.md",
                secret_note.into(),
                false,
            ),
            (
                "same level, body changed",
                "n.md",
                secret_note.into(),
                "n.md",
                secret_note.replace("body", "more body"),
                false,
            ),
            (
                "emptied",
                "n.md",
                secret_note.into(),
                "n.md",
                String::new(),
                false,
            ),
            (
                "entry's sensitivity line deleted",
                "m/decisions.md",
                both.clone(),
                "m/decisions.md",
                both.replace("**Sensitivity:** secret\n\n", ""),
                true,
            ),
            (
                "entry renamed and its line deleted",
                "m/decisions.md",
                both.clone(),
                "m/decisions.md",
                both.replace("**Sensitivity:** secret\n\n", "")
                    .replace("Vault unseal keys", "Renamed"),
                true,
            ),
            (
                "entry moved into the preamble",
                "m/decisions.md",
                both.clone(),
                "m/decisions.md",
                decisions(&format!("Shards live with three people.\n\n{PUBLIC_ENTRY}")),
                true,
            ),
            (
                "entry deleted",
                "m/decisions.md",
                both.clone(),
                "m/decisions.md",
                decisions(PUBLIC_ENTRY),
                false,
            ),
            (
                "another entry edited",
                "m/decisions.md",
                both.clone(),
                "m/decisions.md",
                both.replace("Simpler to run.", "Simpler to run and cheaper."),
                false,
            ),
            (
                // The plain note's head carries the entry's mark: it is secret.
                "entry file renamed into a plain note",
                "m/decisions.md",
                both.clone(),
                "m/notes.md",
                both.clone(),
                false,
            ),
            (
                // The entry's plain mark lies past the plain note's head: it
                // still marks the whole note secret, so nothing is lowered.
                "entry file renamed into a plain note, the entry far down",
                "m/decisions.md",
                far.clone(),
                "m/notes.md",
                far.clone(),
                false,
            ),
            (
                "entry file renamed into a plain note, a doubtful entry far down",
                "m/decisions.md",
                far_doubt.clone(),
                "m/notes.md",
                far_doubt.clone(),
                true,
            ),
            (
                "entry file renamed to another entry file",
                "m/decisions.md",
                both.clone(),
                "m/ledger-decisions.md",
                both.clone(),
                false,
            ),
            (
                "a new note",
                "n.md",
                String::new(),
                "n.md",
                "---\nsensitivity: public\n---\nx\n".into(),
                false,
            ),
        ];
        for (what, brel, before, arel, after, refused) in cases {
            let got = check(brel, &before, arel, &after);
            assert_eq!(got.is_err(), refused, "{what}: {got:?}");
            if let Err(e) = got {
                let msg = e.to_string();
                assert!(msg.contains("lower the sensitivity"), "{what}: {msg}");
                assert!(
                    !msg.contains("Vault unseal") && !msg.contains("Shards"),
                    "{what}: {msg}"
                );
            }
        }
    }
}
