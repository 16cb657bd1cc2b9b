//! The policy tally a caller accumulates while building one output: how many
//! notes were hidden or withheld and how many credentials were redacted.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{Redaction, Visibility};

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
