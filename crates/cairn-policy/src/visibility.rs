//! Sensitivity policy: how much of one note may be shown, given its sensitivity
//! and whether it is strongly relevant to the task.

use std::fmt;

use cairn_note::Sensitivity;
use serde::Serialize;

/// How much of a note may leave cairn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Title, metadata and (redacted) content may be shown.
    Full,
    /// Only the title and [`WITHHELD_NOTICE`] may be shown, never the content.
    Withheld,
    /// The note must not appear in any form; it is only counted.
    Hidden,
}

impl Visibility {
    /// The lowercase word used in serialised output (`full`, `withheld`, `hidden`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Withheld => "withheld",
            Self::Hidden => "hidden",
        }
    }
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The neutral line shown instead of a confidential note's content.
pub const WITHHELD_NOTICE: &str =
    "Confidential note: its content is withheld by policy. Ask the developer if it is needed.";

/// Decides how much of a note may be shown.
///
/// `public`/`internal` → [`Visibility::Full`]; `confidential` →
/// [`Visibility::Withheld`] when `strongly_relevant`, else [`Visibility::Hidden`];
/// `secret` → [`Visibility::Hidden`] always.
pub fn visibility(s: Sensitivity, strongly_relevant: bool) -> Visibility {
    match s {
        Sensitivity::Public | Sensitivity::Internal => Visibility::Full,
        Sensitivity::Confidential if strongly_relevant => Visibility::Withheld,
        Sensitivity::Confidential | Sensitivity::Secret => Visibility::Hidden,
    }
}
