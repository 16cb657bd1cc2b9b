//! A fast, conservative token estimate.
//!
//! Loading a real BPE vocabulary costs tens of milliseconds at every start, more
//! than a session-start hook can spend, so the budget uses this estimate instead.
//! It walks the text once, counting word pieces the way byte-pair encoders split
//! English, code and paths: a letter run costs one token per 6 letters (at least
//! one), a digit run one per 3 digits, each other ASCII symbol and each newline
//! one, a non-ASCII character one per two UTF-8 bytes, single spaces nothing and
//! indentation runs one per 4; then 5% on top. Fitted on the fixture vaults and
//! renders: it stays above the cl100k and o200k counts on every text the tests
//! try (at least 1.07×) and about 1.3× on average (see `tests/it/render.rs`), so a
//! budget is never exceeded by a real tokenizer while little of it is wasted.

/// Name recorded in packets.
pub const TOKENIZER_NAME: &str = "cairn-estimate-v1 (>= cl100k/o200k)";

/// Estimated tokens of `text` (never below the cl100k or o200k count in tests).
///
/// One pass over the bytes (fitting a packet estimates every rendering and every
/// item's texts); a non-ASCII character is counted from its first byte.
pub fn estimate_tokens(text: &str) -> usize {
    let bytes = text.as_bytes();
    // The end of the run of bytes `like` the one at `at`.
    let run = |at: usize, like: fn(u8) -> bool| {
        bytes[at..]
            .iter()
            .position(|&b| !like(b))
            .map_or(bytes.len(), |n| at + n)
    };
    let mut raw = 0usize;
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if b.is_ascii_alphabetic() {
            let end = run(at, |b| b.is_ascii_alphabetic());
            raw += (end - at).div_ceil(6);
            at = end;
        } else if b.is_ascii_digit() {
            let end = run(at, |b| b.is_ascii_digit());
            raw += (end - at).div_ceil(3);
            at = end;
        } else if b == b' ' {
            let end = run(at, |b| b == b' ');
            if end - at > 1 {
                raw += (end - at).div_ceil(4);
            }
            at = end;
        } else if b.is_ascii() {
            // Newlines, tabs and symbols.
            raw += 1;
            at += 1;
        } else {
            // Accented letters, CJK, emoji, typographic punctuation: the
            // character's UTF-8 length, from its first byte (the text is UTF-8).
            let len: usize = match b {
                0xF0.. => 4,
                0xE0.. => 3,
                _ => 2,
            };
            raw += len.div_ceil(2);
            at += len;
        }
    }
    raw + raw.div_ceil(20) + 1
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// The estimate as first written, character by character.
    fn by_chars(text: &str) -> usize {
        let mut raw = 0usize;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_alphabetic() {
                let mut n: usize = 1;
                while chars.peek().is_some_and(char::is_ascii_alphabetic) {
                    chars.next();
                    n += 1;
                }
                raw += n.div_ceil(6);
            } else if c.is_ascii_digit() {
                let mut n: usize = 1;
                while chars.peek().is_some_and(char::is_ascii_digit) {
                    chars.next();
                    n += 1;
                }
                raw += n.div_ceil(3);
            } else if c == ' ' {
                let mut n: usize = 1;
                while chars.peek() == Some(&' ') {
                    chars.next();
                    n += 1;
                }
                if n > 1 {
                    raw += n.div_ceil(4);
                }
            } else if c.is_ascii() {
                raw += 1;
            } else {
                raw += c.len_utf8().div_ceil(2);
            }
        }
        raw + raw.div_ceil(20) + 1
    }

    #[test]
    fn counts_as_documented() {
        for text in [
            "",
            "a",
            "abcdefg 12345  x\n",
            "naïve café — 日本語 🦀",
            "    indented",
        ] {
            assert_eq!(super::estimate_tokens(text), by_chars(text), "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn one_pass_over_bytes_counts_as_character_by_character(text in "[a-z0-9 \\n.,é日🦀-]{0,40}|\\PC{0,40}") {
            prop_assert_eq!(super::estimate_tokens(&text), by_chars(&text));
        }
    }
}
