//! The policy tally a caller accumulates while building one output: how many
//! notes were hidden or withheld and how many credentials were redacted.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{CredentialKind, REDACTION_PREFIX, Redaction, Visibility};

/// What policy removed from one output. Counted, never shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PolicyCounts {
    /// Credentials replaced by `[redacted:<kind>]`, over all texts.
    pub redactions_applied: usize,
    /// The same, per [`CredentialKind::as_str`](crate::CredentialKind::as_str) name.
    pub redactions_by_kind: BTreeMap<String, usize>,
    /// Notes left out entirely ([`Visibility::Hidden`]).
    pub suppressed_note_count: usize,
    /// Notes mentioned by title only ([`Visibility::Withheld`]).
    pub withheld_note_count: usize,
}

impl PolicyCounts {
    /// Adds the redactions of one text.
    pub fn add_redaction(&mut self, r: &Redaction<'_>) {
        self.redactions_applied += r.count;
        for kind in &r.kinds {
            *self
                .redactions_by_kind
                .entry(kind.as_str().to_owned())
                .or_default() += 1;
        }
    }

    /// Counts the redaction markers (`[redacted:<kind>]`) in one text that leaves
    /// cairn, whichever pass wrote them: a note's text is redacted before it is
    /// shaped, and the shaped text again, so counting the output's markers counts
    /// each redaction shown exactly once.
    pub fn add_markers(&mut self, text: &str) {
        // Most texts have no `[` at all: one byte search, not a substring
        // searcher set up per text (a packet's few hundred texts).
        if !text.as_bytes().contains(&b'[') {
            return;
        }
        for kind in markers(text) {
            self.redactions_applied += 1;
            *self
                .redactions_by_kind
                .entry(kind.as_str().to_owned())
                .or_default() += 1;
        }
    }

    /// Counts one note's visibility decision (hidden → suppressed, withheld → withheld;
    /// full notes are not counted).
    pub fn add_visibility(&mut self, v: Visibility) {
        match v {
            Visibility::Full => {}
            Visibility::Withheld => self.withheld_note_count += 1,
            Visibility::Hidden => self.suppressed_note_count += 1,
        }
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &PolicyCounts) {
        self.redactions_applied += other.redactions_applied;
        for (kind, n) in &other.redactions_by_kind {
            *self.redactions_by_kind.entry(kind.clone()).or_default() += n;
        }
        self.suppressed_note_count += other.suppressed_note_count;
        self.withheld_note_count += other.withheld_note_count;
    }

    /// Whether policy removed nothing.
    pub fn is_empty(&self) -> bool {
        self.redactions_applied == 0
            && self.suppressed_note_count == 0
            && self.withheld_note_count == 0
    }
}

/// The kind of every redaction marker in `text`, in order.
pub fn markers(text: &str) -> impl Iterator<Item = CredentialKind> + '_ {
    text.match_indices(REDACTION_PREFIX).filter_map(|(at, _)| {
        let rest = &text[at + REDACTION_PREFIX.len()..];
        let (name, _) = rest.split_once(']')?;
        CredentialKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == name)
    })
}

/// `text` without its redaction markers (`[redacted:kind]`, and an unclosed
/// one to the end), its words joined by single spaces: for text that becomes
/// query words, so that neither a credential nor its marker is searched for
/// (a marker's words would count as words of the task).
pub fn without_markers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(REDACTION_PREFIX) {
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = rest[at..].split_once(']').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_leave_no_word() {
        assert_eq!(
            without_markers("fix/[redacted:github-token]-retry"),
            "fix/ -retry"
        );
        assert_eq!(without_markers("plain  words"), "plain words");
        assert_eq!(without_markers("[redacted:x"), "");
    }

    #[test]
    fn markers_are_counted_once_each() {
        let mut c = PolicyCounts::default();
        c.add_markers(
            "a [redacted:password] b [redacted:jwt] [redacted:password] [redacted:nope] [redacted:",
        );
        assert_eq!(c.redactions_applied, 3);
        assert_eq!(c.redactions_by_kind["password"], 2);
        assert_eq!(c.redactions_by_kind["jwt"], 1);
    }
}
