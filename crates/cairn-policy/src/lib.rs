//! Policy: what of a note may leave cairn. Nothing else.
//!
//! Two independent mechanisms, both applied to everything cairn outputs:
//!
//! - **Sensitivity** ([`visibility()`]): per note. `public` and `internal` notes are
//!   shown in full; a `confidential` note is only mentioned (title plus
//!   [`WITHHELD_NOTICE`]) when strongly relevant and hidden otherwise; a `secret`
//!   note is never shown in any form.
//! - **Credential redaction** ([`redact`], [`find_credentials`]): per text. Every
//!   excerpt, title or line that leaves cairn passes through [`redact`], which
//!   replaces each credential it recognises (cloud keys, vendor tokens, private
//!   key blocks, JWTs, passwords in URLs, `password=`-style assignments, bearer
//!   tokens) with `[redacted:<kind>]`. Redaction is idempotent and text without
//!   any credential anchor is returned borrowed, without running a regex. A
//!   note's raw markdown, printed as written, goes through [`redact_markdown`],
//!   which also redacts what its rendered text shows (`ghp\_…`, `gh&#112;_…`).
//!
//! - **Untrusted text** ([`ShownNote`], [`SafeText`], [`normalize`], [`one_line`]):
//!   credentials are found on a note's original text, before anything flattens,
//!   strips, joins or clips it; shaping code takes the redacted view. Invisible
//!   format characters never leave cairn, and text shaped into one line has no line
//!   or paragraph separator left.
//!
//! Callers accumulate what was suppressed, withheld and redacted in a
//! [`PolicyCounts`], which feeds the packet's `policy` block: counted, never shown.

mod benign;
mod code_shapes;
mod counts;
mod credential;
mod detect;
mod indexed;
mod lookalike;
mod markdown;
mod pairs;
#[macro_use]
mod patterns;
mod prefilter;
mod rule;
mod rules;
mod shape;
mod shown;
mod structure;
mod untrusted;
mod visibility;

pub use cairn_note::Sensitivity;
pub use counts::{PolicyCounts, markers, without_markers};
pub use credential::CredentialKind;
pub use detect::{
    Finding, REDACTION_PREFIX, Redaction, find_credentials, redact, without_credentials,
};
pub use indexed::index_view;
pub use markdown::{find_credentials_markdown, redact_markdown};
pub use shown::{SafeText, ShownName, ShownNote};
pub use untrusted::{is_invisible, is_line_break, normalize, one_line};
pub use visibility::{Visibility, WITHHELD_NOTICE, visibility};
