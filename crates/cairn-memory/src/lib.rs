//! The write path: deliberate memory writes into the vault, that never lose or
//! silently overwrite a note.
//!
//! Memory lives in scope folders of the vault (`global`, `user`, `project/<id>`,
//! `persona/<name>`, see [`Scope`]), one markdown note per memory plus a generated
//! `MEMORY.md` index. Every write goes through [`Store::apply`]:
//!
//! - the name is validated ([`Slug`]) and resolved inside the scope folder, with
//!   symlinks followed only where they stay inside (`contain`);
//! - writers of a scope are serialised by an exclusive file lock, so concurrent
//!   processes never lose an update, and an existing note is only changed on
//!   request (`--append`, `--force`), optionally compare-and-swap on its content
//!   hash (`--expect-hash`);
//! - the new text is size-capped, refused when it holds credentials (unless the
//!   note is marked secret), and its frontmatter is written with proper YAML
//!   escaping, changing only the keys the operation is about;
//! - no write lowers the effective sensitivity of a note or of an entry of a
//!   `decisions.md` / `lessons.md`, as the cairn-note parser reads it, unless the
//!   caller declassifies on purpose (the CLI's `--declassify`; never over MCP);
//! - files are replaced atomically (temporary file, fsync, rename, fsync of the
//!   folder), so a crash leaves the old note or the new one, never a torn one, and
//!   only if the note still holds what the change was planned from (an editor's
//!   save in between is re-planned on, or refused, never overwritten);
//! - `MEMORY.md` is regenerated and usage statistics go to a sidecar outside the
//!   vault ([`UsageLog`]).
//!
//! A dry run returns the unified diffs of what would change and writes nothing.
//! Reads ([`Store::show`], [`Store::list`]) and diffs obey the same policy as
//! every other output: secret notes are never shown, confidential ones withheld,
//! secret entries replaced by a placeholder line, credentials redacted.

mod atomic;
mod checks;
mod contain;
mod diff;
mod error;
mod fault;
mod frontmatter;
mod index;
mod mask;
mod ops;
mod plan;
mod report;
mod scope;
mod seal;
mod sensitivity;
mod slug;
mod store;
mod usage;

pub use atomic::{LOCK_FILE, TEMP_MARKER, is_temp_file};
pub use error::{ErrorKind, MemoryError};
pub use fault::{ABORT_HOOK, EDITOR_LINE, FAULT_VAR};
pub use index::{INDEX_FILE, entry_lines};
pub use ops::{
    Action, Change, IndexStatus, Listed, NewNote, Op, Outcome, Shown, WriteMode, WriteOptions,
};
pub use scope::{Scope, all_scopes};
pub use slug::{MAX_SLUG_BYTES, Slug};
pub use store::Store;
pub use usage::{USAGE_FILE, Usage, UsageLog};

/// The content hash of a note as the write path shows it and `--expect-hash`
/// takes it: [`cairn_note::ContentHash::short_hex`] of the file's bytes.
pub fn content_hash(bytes: &[u8]) -> String {
    cairn_note::ContentHash::of(bytes).short_hex()
}
