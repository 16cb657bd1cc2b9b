//! The text a sensitivity mark is read from, as a reader sees it rendered:
//! invisible characters and combining marks out, look-alike and full-width
//! letters as Latin ones, digits and symbols written for letters in the words
//! marks are made of as those letters (`C0NFIDENTIAL`, `S3CRET`), character
//! references and backslash escapes decoded, HTML tags and a leading inline
//! comment dropped, and code spans that show a field's syntax blanked; and a
//! word spelled out letter by letter (`S E C R E T`) as the word, for banners.
//! The mark reader (`marks`) reads what this gives.

use std::borrow::Cow;

use crate::marks::{is_combining, is_invisible, latin, read_mark};

/// `text` without invisible characters and combining marks, its look-alike and
/// full-width letters as their Latin letter (`sеcret` with a Cyrillic е), and
/// the words of marks spelled with digits for letters as they read
/// ([`letters_for_digits`]).
pub(crate) fn latin_text(text: &str) -> Cow<'_, str> {
    let text = if text.contains('&') {
        Cow::Owned(numeric_references(text))
    } else {
        Cow::Borrowed(text)
    };
    // A backslash escape shows the character it escapes (`Sensitivity\: secret`).
    let text = if text.contains('\\') {
        Cow::Owned(
            text.replace("\\:", ":")
                .replace("\\*", "*")
                .replace("\\_", "_"),
        )
    } else {
        text
    };
    if text.is_ascii() {
        return letters_for_digits(text);
    }
    letters_for_digits(Cow::Owned(
        text.chars()
            .filter(|&c| !is_invisible(c) && !is_combining(c))
            .map(latin)
            .collect(),
    ))
}

/// The words sensitivity marks are made of, lowercase: the sensitivity keys'
/// words, the levels and their synonyms, and every word of the stamps, the
/// handling warnings and the statements' level words (in the languages stamps
/// are read in). These are the words [`letters_for_digits`] reads when a writer
/// spells them with digits or symbols for letters. A test (`banners`) keeps it
/// complete: a stamp added without its words here would be read in letters
/// only (`Do n0t f0rward`).
pub(crate) const MARK_WORDS: &[&str] = &[
    "and",
    "attorney",
    "authorised",
    "authorized",
    "be",
    "circulate",
    "circulation",
    "classification",
    "classified",
    "client",
    "company",
    "confidenciais",
    "confidencial",
    "confidenciales",
    "confidential",
    "confidentiality",
    "confidentiel",
    "confidentielle",
    "confidentielles",
    "confidentiels",
    "confidenziale",
    "confidenziali",
    "copy",
    "disclose",
    "distribute",
    "distributed",
    "distribution",
    "do",
    "don",
    "estrictamente",
    "estritamente",
    "external",
    "eyes",
    "for",
    "forward",
    "geheim",
    "highly",
    "internal",
    "know",
    "leak",
    "limited",
    "nda",
    "need",
    "never",
    "no",
    "not",
    "notice",
    "only",
    "personal",
    "personnel",
    "post",
    "private",
    "privileged",
    "proprietary",
    "public",
    "publication",
    "publish",
    "release",
    "repost",
    "reproduce",
    "restricted",
    "riservata",
    "riservate",
    "riservati",
    "riservato",
    "secret",
    "secreta",
    "secretas",
    "secreto",
    "secretos",
    "secrets",
    "segreta",
    "segreto",
    "send",
    "sensitive",
    "sensitivity",
    "share",
    "shared",
    "sharing",
    "sigilosa",
    "sigiloso",
    "staff",
    "streng",
    "strettamente",
    "strictement",
    "strictly",
    "strikt",
    "to",
    "top",
    "under",
    "use",
    "vertraulich",
    "vertrouwelijk",
    "your",
];

/// Whether `c`, written in a word, stands for `letter` (lowercase): the letter
/// itself in either case, or a digit or symbol written for it (`0` for `o`, `1`
/// for `i` or `l`, `3` for `e`, `4` and `@` for `a`, `5` and `$` for `s`, `7`
/// for `t`, `8` for `b`, `9` for `g`, `!` and `|` for `i`, `|` for `l`).
fn stands_for(c: u8, letter: u8) -> bool {
    c.to_ascii_lowercase() == letter
        || matches!(
            (c, letter),
            (b'0', b'o')
                | (b'1' | b'!' | b'|', b'i')
                | (b'1' | b'|', b'l')
                | (b'3', b'e')
                | (b'4' | b'@', b'a')
                | (b'5' | b'$', b's')
                | (b'7', b't')
                | (b'8', b'b')
                | (b'9', b'g')
        )
}

/// The bytes written for letters ([`stands_for`]): digits, `$`, `@`, `!`, `|`.
const LOOKS_LIKE_A_LETTER: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = b'0';
    while c <= b'9' {
        t[c as usize] = true;
        c += 1;
    }
    t[b'$' as usize] = true;
    t[b'@' as usize] = true;
    t[b'!' as usize] = true;
    t[b'|' as usize] = true;
    t
};

/// The characters a word of [`letters_for_digits`] is made of.
fn in_word(c: u8) -> bool {
    c.is_ascii_alphabetic() || looks_like_a_letter(c)
}

/// `word` as the mark word it spells with digits or symbols for some of its
/// letters (`C0NFIDENTIAL`, `S3CRET`, `$ecret`, `c0nf1dential`): each of those
/// a letter, in capitals when the word's letters all are, the letters as
/// written. `None` for a word written in letters alone, one of more digits and
/// symbols than letters, or one that spells no mark word (`v1.2`, `sha256`,
/// `S3`, `h3ll0`).
fn spelled_mark_word(word: &[u8]) -> Option<Vec<u8>> {
    let letters = word.iter().filter(|c| c.is_ascii_alphabetic()).count();
    if letters == word.len() || letters * 2 < word.len() {
        return None;
    }
    let capitals = word
        .iter()
        .filter(|c| c.is_ascii_alphabetic())
        .all(u8::is_ascii_uppercase);
    let spelled = MARK_WORDS.iter().find(|m| {
        m.len() == word.len() && word.iter().zip(m.bytes()).all(|(&c, l)| stands_for(c, l))
    })?;
    Some(
        word.iter()
            .zip(spelled.bytes())
            .map(|(&c, l)| match c {
                _ if c.is_ascii_alphabetic() => c,
                _ if capitals => l.to_ascii_uppercase(),
                _ => l,
            })
            .collect(),
    )
}

/// `text` with each word of a mark spelled with digits or symbols for letters
/// ([`spelled_mark_word`]: `C0NFIDENTIAL — do not share`, `Sensitivity:
/// s3cret`, `This note is c0nfidential.`) written in letters, as a reader reads
/// it; a `!` or `|` ending or opening a word is punctuation (`S3CRET!`). Any
/// other text is left as it is: most lines hold no digit or symbol a word
/// could be spelled with.
fn letters_for_digits(text: Cow<'_, str>) -> Cow<'_, str> {
    let b = text.as_bytes();
    // Most lines hold no byte written for a letter ([`LOOKS_LIKE_A_LETTER`]):
    // one pass without a branch per byte (it runs over every line past a
    // note's head), then the words of the others.
    let seen = b.iter().fold(0u8, |seen, &c| {
        seen | u8::from(LOOKS_LIKE_A_LETTER[usize::from(c)])
    });
    if seen == 0 {
        return text;
    }
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < b.len() {
        if !in_word(b[i]) {
            i += 1;
            continue;
        }
        let mut start = i;
        let (mut letters, mut others) = (false, false);
        while i < b.len() && in_word(b[i]) {
            if b[i].is_ascii_alphabetic() {
                letters = true;
            } else {
                others = true;
            }
            i += 1;
        }
        // Only a word of letters and something else can spell a mark word
        // (at most 14 letters long).
        if !(letters && others) || i - start > 16 {
            continue;
        }
        let mut end = i;
        while start < end && matches!(b[start], b'!' | b'|') {
            start += 1;
        }
        while end > start && matches!(b[end - 1], b'!' | b'|') {
            end -= 1;
        }
        if let Some(spelled) = spelled_mark_word(&b[start..end]) {
            out.get_or_insert_with(|| b.to_vec())[start..end].copy_from_slice(&spelled);
        }
    }
    // ASCII written over ASCII: the text stays UTF-8.
    match out.map(String::from_utf8) {
        Some(Ok(s)) => Cow::Owned(s),
        _ => text,
    }
}

/// `text` with its numeric character references (`&#101;`, `&#x65;`) and a few
/// named ones (`&colon;`, `&shy;`, `&nbsp;`, `&amp;`…) as the characters they
/// stand for, as a renderer shows them.
fn numeric_references(text: &str) -> String {
    let mut named = text.to_owned();
    for (entity, c) in [
        ("&colon;", ":"),
        ("&shy;", ""),
        ("&nbsp;", " "),
        ("&ZeroWidthSpace;", ""),
        ("&lowbar;", "_"),
        ("&ast;", "*"),
        ("&vert;", "|"),
        ("&equals;", "="),
        ("&plus;", "+"),
        ("&hyphen;", "\u{2010}"),
        ("&dash;", "\u{2010}"),
        ("&ndash;", "–"),
        ("&mdash;", "—"),
        // Last: `&amp;nbsp;` shows as `&nbsp;`, not a blank.
        ("&amp;", "&"),
    ] {
        if named.contains(entity) {
            named = named.replace(entity, c);
        }
    }
    let text = named.as_str();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("&#") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let decoded = after.split_once(';').and_then(|(num, tail)| {
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => num.parse().ok(),
            }?;
            (num.len() <= 8).then_some((char::from_u32(code)?, tail))
        });
        if let Some((c, tail)) = decoded {
            out.push(c);
            rest = tail;
        } else {
            out.push_str("&#");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// `line` with its HTML tags (`<b>`, `</td>`, `<span class="x">`) made blanks,
/// a table cell's end a `|`; a comment closed on the line and followed by text
/// (`<!-- a --> sensitivity: secret`) is dropped, any other stays (`<!--
/// sensitivity: secret -->` is a mark).
pub(crate) fn without_html_tags(line: Cow<'_, str>) -> Cow<'_, str> {
    if !line.contains('<') {
        return line;
    }
    if let Some(open) = line.find("<!--")
        && let Some(close) = line[open..].find("-->")
        && !line[open + close + 3..].trim().is_empty()
    {
        let rest = format!("{} {}", &line[..open], &line[open + close + 3..]);
        return without_html_tags(Cow::Owned(rest));
    }
    let mut out = String::with_capacity(line.len());
    let mut rest: &str = &line;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let is_tag = after
            .trim_start_matches('/')
            .starts_with(|c: char| c.is_ascii_alphabetic());
        if let Some(close) = after.find('>').filter(|_| is_tag) {
            out.push_str(&rest[..open]);
            let tag = after[..close].to_ascii_lowercase();
            out.push_str(if tag.starts_with("/td") || tag.starts_with("/th") {
                " | "
            } else {
                " "
            });
            rest = &after[close + 1..];
        } else {
            out.push_str(&rest[..=open]);
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `line` with each code span that reads as a mark on its own (`` `sensitivity::
/// secret` ``: the syntax shown) made one blank, and the others' backticks
/// dropped (`` `secret` `` is the value `secret`).
pub(crate) fn code_spans_for_marks(line: &str) -> Cow<'_, str> {
    if !line.contains('`') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        let run = rest[open..].len() - rest[open..].trim_start_matches('`').len();
        let fence = &rest[open..open + run];
        let after = &rest[open + run..];
        let close = after.match_indices(fence).find(|&(i, _)| {
            !after[i + run..].starts_with('`') && (i == 0 || !after[..i].ends_with('`'))
        });
        out.push_str(&rest[..open]);
        if let Some((i, _)) = close {
            let inner = &after[..i];
            if read_mark(inner).is_some() {
                out.push(' ');
            } else {
                out.push_str(inner);
            }
            rest = &after[i + run..];
        } else {
            out.push_str(fence);
            rest = after;
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `s` with a run of five or more single letters at its start written as one
/// word in capitals (`S E C R E T` → `SECRET`, `c o n f i d e n t i a l` →
/// `CONFIDENTIAL`, `C-O-N-F-I-D-E-N-T-I-A-L`, `S.E.C.R.E.T.` and
/// `_C_O_N_F_I_D_E_N_T_I_A_L_` too): no prose spells a word out letter by
/// letter, so a word so written is a stamp whatever its case.
pub(crate) fn spaced_letters(s: &str) -> String {
    // Letters joined by underscores (which emphasis would otherwise take):
    // the first word as written, its emphasis around it left out.
    let line = s.trim();
    let first = line.split(' ').next().unwrap_or("");
    let joined = first.trim_matches(|c| matches!(c, '*' | '~' | '_'));
    if joined.as_bytes().get(1) == Some(&b'_')
        && let Some(word) = joined_letters(joined)
    {
        return format!("{word}{}", &line[first.len()..]);
    }
    let plain: String = s
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '~'))
        .collect();
    let trimmed = plain.trim();
    let first = trimmed.split(' ').next().unwrap_or("");
    if let Some(word) = joined_letters(first) {
        return format!("{word}{}", &trimmed[first.len()..]);
    }
    let words: Vec<&str> = trimmed.split(' ').collect();
    let rest = |word: String, run: usize| {
        let mut out = word;
        for w in &words[run..] {
            out.push(' ');
            out.push_str(w);
        }
        out
    };
    // Letters with digits or symbols written for some (`S 3 C R E T`), read
    // as the mark word they spell, if any.
    let wide = words.iter().take_while(|w| single(w, true)).count();
    if wide >= 5
        && !words[..wide].iter().all(|w| single(w, false))
        && let Some(word) = spelled_mark_word(words[..wide].concat().as_bytes())
    {
        return rest(String::from_utf8_lossy(&word).to_uppercase(), wide);
    }
    let run = words.iter().take_while(|w| single(w, false)).count();
    if run < 5 {
        return s.to_owned();
    }
    rest(words[..run].concat().to_uppercase(), run)
}

/// Whether `w` is one letter, or (`written`) one digit or symbol written for a
/// letter ([`LOOKS_LIKE_A_LETTER`]).
fn single(w: &str, written: bool) -> bool {
    let mut cs = w.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => {
            c.is_alphabetic() || (written && u8::try_from(c).is_ok_and(looks_like_a_letter))
        }
        _ => false,
    }
}

/// Whether `c` is a digit or symbol written for a letter in a mark's word
/// ([`LOOKS_LIKE_A_LETTER`]): what a banner's letters spelled out may hold.
pub(crate) fn looks_like_a_letter(c: u8) -> bool {
    LOOKS_LIKE_A_LETTER[usize::from(c)]
}

/// `word` as one word in capitals when it is five or more single letters
/// joined by one kind of `-`, `.` or `_` (`C-O-N-F-I-D-E-N-T-I-A-L`,
/// `S.E.C.R.E.T.`, `S_E_C_R_E_T`),
/// or such letters with digits or symbols written for some that spell a mark
/// word (`S-3-C-R-E-T`).
fn joined_letters(word: &str) -> Option<String> {
    let b = word.as_bytes();
    let sep = *b.get(1).filter(|c| matches!(c, b'-' | b'.' | b'_'))?;
    // Letters at even places, the separator at odd ones (a closing one too:
    // `S.E.C.R.E.T.`).
    let letters: Vec<u8> = b.iter().copied().step_by(2).collect();
    let joins_all = b.iter().skip(1).step_by(2).all(|&c| c == sep);
    if !joins_all || letters.len() < 5 {
        return None;
    }
    if letters.iter().all(u8::is_ascii_alphabetic) {
        return Some(String::from_utf8_lossy(&letters).to_ascii_uppercase());
    }
    spelled_mark_word(&letters).map(|w| String::from_utf8_lossy(&w).to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marks spelled with digits or symbols for letters read as their words;
    /// other words with digits stay as written.
    #[test]
    fn digits_written_for_letters_in_marks_are_read_as_letters() {
        for (written, read) in [
            (
                "C0NFIDENTIAL \u{2014} do not share",
                "CONFIDENTIAL \u{2014} do not share",
            ),
            ("CONFIDENT1AL", "CONFIDENTIAL"),
            ("C0NF1D3NT14L", "CONFIDENTIAL"),
            ("**TOP S3CRET**", "**TOP SECRET**"),
            ("5ECRET - internal only", "SECRET - internal only"),
            ("$ECRET!", "SECRET!"),
            ("This note contains s3cr3t5", "This note contains secrets"),
            ("This note is c0nfidential.", "This note is confidential."),
            ("Sensitivity: s3cret", "Sensitivity: secret"),
            ("S3nsitivity: secret", "Sensitivity: secret"),
            ("Cl4ssified", "Classified"),
            ("STRENG V3RTRAULICH", "STRENG VERTRAULICH"),
            ("pr1v4te", "private"),
            ("CONF!DENTIAL", "CONFIDENTIAL"),
            ("C|ASSIFIED", "CLASSIFIED"),
            ("Do n0t share", "Do not share"),
            ("T0P SECRET", "TOP SECRET"),
        ] {
            assert_eq!(latin_text(written), read, "{written}");
        }
        for stays in [
            "secret",
            "v1.2.3 of the confidential build",
            "sha256 of the secret",
            "S3 bucket, EC2 host, 2026-01-22",
            "h3ll0 w0rld",
            "C@NFIDENTIAL",
            "5",
            "$5 secret santa",
            "1337 confidential",
            "SECRET|PUBLIC",
        ] {
            assert_eq!(latin_text(stays), stays, "{stays}");
        }
    }
}
