//! The text the credential rules read when a note writes ASCII with other
//! characters that look like it: a space outside ASCII (a no-break space
//! pasted from a web page, an ideographic space), a full-width letter typed in
//! a Chinese or Japanese input mode (`ｐａｓｓｗｏｒｄ：`), a Cyrillic or Greek
//! letter inside a Latin word (`pаssword` with a Cyrillic `а`), an invisible
//! character (a zero-width space gluing a value to its key, a soft hyphen
//! inside one). The rules run on a [`View`] with each such character as the
//! ASCII it stands for, and its spans map back to the note's own bytes.
//!
//! An invisible character is read both ways, as a space and as nothing
//! (`password is\u{200B}x` and `pass\u{200B}word: x`): two views, their spans
//! joined.

/// A text with look-alike characters written as ASCII, and where each of its
/// bytes came from.
#[derive(Debug)]
pub(crate) struct View {
    /// The text as the rules read it.
    pub(crate) text: String,
    /// For each byte of `text`, and one past its end, the byte of the
    /// original text its character starts at (past the end: the original's
    /// length).
    from: Vec<usize>,
}

impl View {
    /// The original span of `start..end`, a span of the view: from the start
    /// of the character holding `start` to the end of the one before `end`.
    pub(crate) fn original(&self, start: usize, end: usize) -> (usize, usize) {
        let mut s = start.min(self.text.len());
        while !self.text.is_char_boundary(s) {
            s -= 1;
        }
        let mut e = end.min(self.text.len());
        while !self.text.is_char_boundary(e) {
            e += 1;
        }
        (self.from[s], self.from[e])
    }
}

/// How an invisible character is read in a view.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Invisible {
    Space,
    Nothing,
}

/// The views the rules read of `text`: none when it has no look-alike
/// character (the common case, found by a scan of its bytes), one, or two
/// when it has an invisible character.
pub(crate) fn views(text: &str) -> Vec<View> {
    // Every look-alike character's UTF-8 starts with one of these bytes:
    // C2 (no-break space, soft hyphen), CE/CF (Greek), D0/D1/D3/D4 (Cyrillic),
    // E1/E2/E3 (other spaces, invisible characters), EF (full-width forms, BOM).
    if !text.bytes().any(|b| {
        matches!(
            b,
            0xC2 | 0xCE | 0xCF | 0xD0 | 0xD1 | 0xD3 | 0xD4 | 0xE1..=0xE3 | 0xEF
        )
    }) {
        return Vec::new();
    }
    let Some(space) = view(text, Invisible::Space) else {
        return Vec::new();
    };
    let invisible = text.chars().any(is_invisible);
    let mut out = vec![space];
    if invisible && let Some(glued) = view(text, Invisible::Nothing) {
        out.push(glued);
    }
    out
}

/// `text` as the rules read it, `None` when no character changes.
fn view(text: &str, invisible: Invisible) -> Option<View> {
    let mut out = String::with_capacity(text.len());
    let mut from = Vec::with_capacity(text.len() + 1);
    let mut changed = false;
    let push = |out: &mut String, from: &mut Vec<usize>, at: usize, c: char| {
        let before = out.len();
        out.push(c);
        from.extend(std::iter::repeat_n(at, out.len() - before));
    };
    for (at, c) in text.char_indices() {
        if is_invisible(c) {
            changed = true;
            if invisible == Invisible::Space {
                push(&mut out, &mut from, at, ' ');
            }
            continue;
        }
        let ascii = if !c.is_ascii() && c.is_whitespace() {
            Some(' ')
        } else if ('\u{FF01}'..='\u{FF5E}').contains(&c) {
            // Full-width forms of ASCII's `!` to `~`.
            char::from_u32(c as u32 - 0xFEE0)
        } else if let Some(latin) = latin_look_alike(c)
            && in_latin_word(text, at, c)
        {
            Some(latin)
        } else {
            None
        };
        match ascii {
            Some(a) => {
                changed = true;
                push(&mut out, &mut from, at, a);
            }
            None => push(&mut out, &mut from, at, c),
        }
    }
    from.push(text.len());
    changed.then_some(View { text: out, from })
}

/// Characters that show nothing: zero-width space, non-joiner and joiner,
/// word joiner, byte order mark, soft hyphen, Mongolian vowel separator.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' | '\u{180E}'
    )
}

/// The Latin letter a Cyrillic or Greek letter is drawn as, if it is drawn as one.
fn latin_look_alike(c: char) -> Option<char> {
    Some(match c {
        'а' | 'α' => 'a',
        'е' => 'e',
        'о' | 'ο' => 'o',
        'р' | 'ρ' => 'p',
        'с' => 'c',
        'у' => 'y',
        'х' => 'x',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'κ' => 'k',
        'ν' => 'v',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'Е' | 'Ε' => 'E',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Н' | 'Η' => 'H',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'С' => 'C',
        'Т' | 'Τ' => 'T',
        'Х' | 'Χ' => 'X',
        'І' | 'Ι' => 'I',
        'Ј' => 'J',
        'Ѕ' => 'S',
        'Ζ' => 'Z',
        'Ν' => 'N',
        'Υ' => 'Y',
        _ => return None,
    })
}

/// Whether the word around the character `c` at `at` has an ASCII letter:
/// a Cyrillic letter in a Russian word (`пароль`) stays what it is.
fn in_latin_word(text: &str, at: usize, c: char) -> bool {
    let letter = |c: &char| c.is_alphabetic() || is_invisible(*c);
    let before = text[..at].chars().rev().take_while(letter);
    let after = text[at + c.len_utf8()..].chars().take_while(letter);
    before.chain(after).any(|c| c.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<String> {
        views(text).into_iter().map(|v| v.text).collect()
    }

    #[test]
    fn look_alikes_read_as_ascii_and_map_back() {
        assert!(read("password: x, пароль: y, ☃").is_empty());
        assert_eq!(read("ｐａｓｓｗｏｒｄ：x"), ["password:x"]);
        // A Cyrillic `а` in a Latin word; a Russian word stays.
        assert_eq!(read("pаssword пароль"), ["password пароль"]);
        assert_eq!(read("is\u{200B}x"), ["is x", "isx"]);
        assert_eq!(read("a\u{00A0}b"), ["a b"]);
        let v = &views("ｐｗ：Kq7")[0];
        assert_eq!(v.text, "pw:Kq7");
        // `Kq7` in the view is bytes 3..6; in the original, after three
        // characters of three bytes each.
        assert_eq!(v.original(3, 6), (9, 12));
        assert_eq!(v.original(0, 2), (0, 6));
        let v = &views("pw is\u{200B}Kq7")[1];
        assert_eq!(v.text, "pw isKq7");
        assert_eq!(v.original(5, 8), (8, 11));
    }
}
