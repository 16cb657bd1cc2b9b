//! The content hash the write path shows (`memory list`, `memory show`,
//! MCP `memory_get`) and compares (`--expect-hash`). A note whose text is not
//! shown whole (secret, confidential, entries withheld, credentials redacted)
//! gets a sealed hash: keyed with its file's identity and modification time,
//! which no output of cairn shows, so the hash confirms no guess of the text
//! it hides (a red team recovered a four-digit door code from a secret note's
//! plain hash in 0.04 s). It still changes whenever the file does, so
//! compare-and-swap works; a file touched without a change reads as changed.

use std::path::Path;

use crate::mask::{Reveal, reveal};

/// The hash of the note `rel` holding `text`, read from `file`.
pub(crate) fn shown_hash(rel: &str, text: &str, file: &Path) -> String {
    if sealed(rel, text) {
        let mut keyed = file_key(file);
        keyed.extend_from_slice(text.as_bytes());
        crate::content_hash(&keyed)
    } else {
        crate::content_hash(text.as_bytes())
    }
}

/// Whether the note `rel` holding `text` hides any of it: its hash must not
/// be a plain one.
pub(crate) fn sealed(rel: &str, text: &str) -> bool {
    match reveal(rel, text) {
        Reveal::Text(shown, hidden) => {
            !hidden.is_empty() || cairn_policy::redact_markdown(&shown).count > 0
        }
        Reveal::Withheld | Reveal::Secret => true,
    }
}

/// What keys a sealed hash: the file's device, inode, size and modification
/// time to the nanosecond; a file that cannot be read for them gets a key of
/// this process alone (its hash then matches nothing later: compare-and-swap
/// refuses, which is safe).
fn file_key(file: &Path) -> Vec<u8> {
    let mut key = b"cairn sealed hash\0".to_vec();
    if let Ok(m) = std::fs::metadata(file) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            for n in [m.dev(), m.ino(), m.size()] {
                key.extend_from_slice(&n.to_le_bytes());
            }
            key.extend_from_slice(&m.mtime().to_le_bytes());
            key.extend_from_slice(&m.mtime_nsec().to_le_bytes());
        }
        #[cfg(not(unix))]
        {
            key.extend_from_slice(&m.len().to_le_bytes());
            if let Ok(t) = m.modified().and_then(|t| {
                t.duration_since(std::time::UNIX_EPOCH)
                    .map_err(std::io::Error::other)
            }) {
                key.extend_from_slice(&t.as_nanos().to_le_bytes());
            }
        }
    } else {
        let unique = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        key.extend_from_slice(&unique.to_le_bytes());
        key.extend_from_slice(&std::process::id().to_le_bytes());
    }
    key
}
