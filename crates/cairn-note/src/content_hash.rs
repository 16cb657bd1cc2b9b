//! The one content hash of cairn: BLAKE3 of a text's bytes, kept to 128 bits.
//! The cache stores it per file (16 bytes); the write path shows its first 16 hex
//! digits (what `cairn memory show` prints and `--expect-hash` takes); a packet's
//! `content_hash` and a vault's cache-folder name use the same short form.

use std::fmt;

/// The first 16 bytes of the BLAKE3 hash of some bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash([u8; 16]);

impl ContentHash {
    /// The hash of `bytes`.
    pub fn of(bytes: &[u8]) -> ContentHash {
        let mut out = [0u8; 16];
        out.copy_from_slice(&blake3::hash(bytes).as_bytes()[..16]);
        ContentHash(out)
    }

    /// A hash stored earlier (see [`ContentHash::to_bytes`]).
    pub fn from_bytes(bytes: [u8; 16]) -> ContentHash {
        ContentHash(bytes)
    }

    /// The 16 bytes, as the cache's manifest stores them.
    pub fn to_bytes(self) -> [u8; 16] {
        self.0
    }

    /// The first 16 hex digits (64 bits), lowercase: the form cairn shows.
    pub fn short_hex(self) -> String {
        use std::fmt::Write as _;
        self.0[..8]
            .iter()
            .fold(String::with_capacity(16), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHash({})", self.short_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::ContentHash;

    #[test]
    fn the_short_form_is_the_prefix_of_blake3_hex() {
        for text in [&b""[..], b"hello", "ünïcode\n".as_bytes()] {
            let hex = blake3::hash(text).to_hex();
            assert_eq!(ContentHash::of(text).short_hex(), &hex.as_str()[..16]);
            assert_eq!(
                ContentHash::of(text).to_bytes(),
                blake3::hash(text).as_bytes()[..16]
            );
        }
    }
}
