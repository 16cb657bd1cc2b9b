//! The word tokenizer: splits text into words the way a developer's notes need.
//!
//! - Words are runs of letters and digits; everything else separates them, so
//!   `snake_case`, `kebab-case` and `a/b/c.rs` split into their words.
//! - A `camelCase` or `PascalCase` word is kept whole and its parts are added at the
//!   same position (`RollupPlanner` → `RollupPlanner`, `Rollup`, `Planner`;
//!   `HTTPServer` → `HTTPServer`, `HTTP`, `Server`), so either spelling matches;
//!   not a two-letter prefix starting the word (`reStructuredText` → no `re`;
//!   `dbPool` → `db`, `Pool`; `userId` → `Id`).
//! - English contractions and possessives lose their tail (`Caroline's` →
//!   `Caroline`, `don't` → `don`), as Lucene's possessive filter does.
//! - Ordinals become their number (`8th` → `8`), so "8th December" matches a date.
//! - Words joined by single hyphens or underscores are also indexed joined, at the
//!   first word's position (`IL-6` → `IL`, `IL6`, `6`; `e-mail` → `email`), so
//!   `IL6`, `IL-6` and `IL 6` all meet, and an identifier matches whole.
//!
//! - Chinese, Japanese and Korean, written without spaces between words, are
//!   indexed as overlapping pairs of characters (`计算属性` → `计算`, `算属`,
//!   `属性`; a character alone when it stands alone), as Lucene's CJK analyzer
//!   does: a query word of two characters or more then meets the text that holds
//!   it (a held-out trial: `计算`, in 29 of the Vue docs' pages, found none).
//!
//! Lowercasing, folding, stop words and stemming are the analyzer's filters.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// Contraction and possessive tails dropped after an apostrophe.
const CLITICS: &[&str] = &["s", "t", "ll", "re", "ve", "d", "m"];

/// The word tokenizer (see the module header).
#[derive(Debug, Clone, Default)]
pub struct WordTokenizer;

/// The tokens of one text.
#[derive(Debug)]
pub struct WordTokenStream {
    tokens: Vec<Token>,
    next: usize,
    current: Token,
}

impl Tokenizer for WordTokenizer {
    type TokenStream<'a> = WordTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordTokenStream {
        WordTokenStream {
            tokens: tokens(text),
            next: 0,
            current: Token::default(),
        }
    }
}

impl TokenStream for WordTokenStream {
    fn advance(&mut self) -> bool {
        match self.tokens.get_mut(self.next) {
            Some(t) => {
                self.current = std::mem::take(t);
                self.next += 1;
                true
            }
            None => false,
        }
    }

    fn token(&self) -> &Token {
        &self.current
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.current
    }
}

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}')
}

/// Splits `text` into tokens with positions (see the module header).
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    // Each main word: byte range and position, for catenating joined words.
    let mut mains: Vec<(usize, usize, usize)> = Vec::new();
    let mut position = 0usize;
    let mut chars = text.char_indices().peekable();
    // The two characters before the current word, for the apostrophe rule.
    let mut prev: Option<char> = None;
    let mut prev2: Option<char> = None;
    while let Some((start, c)) = chars.next() {
        if !c.is_alphanumeric() {
            prev2 = prev;
            prev = Some(c);
            continue;
        }
        if is_cjk(c) {
            // A run of CJK characters: its overlapping pairs.
            let mut run = vec![(start, c)];
            while let Some(&(i, c)) = chars.peek() {
                if !is_cjk(c) {
                    break;
                }
                run.push((i, c));
                chars.next();
            }
            let end_of = |(i, c): (usize, char)| i + c.len_utf8();
            if run.len() == 1 {
                out.push(cjk_token(text, start, end_of(run[0]), position));
                position += 1;
            }
            for pair in run.windows(2) {
                out.push(cjk_token(text, pair[0].0, end_of(pair[1]), position));
                position += 1;
            }
            prev2 = run.len().checked_sub(2).map(|i| run[i].1).or(prev);
            prev = run.last().map(|&(_, c)| c);
            continue;
        }
        let mut end = start + c.len_utf8();
        let mut last = c;
        while let Some(&(i, c)) = chars.peek() {
            if !c.is_alphanumeric() || is_cjk(c) {
                break;
            }
            end = i + c.len_utf8();
            last = c;
            chars.next();
        }
        let word = &text[start..end];
        let after_apostrophe =
            prev.is_some_and(is_apostrophe) && prev2.is_some_and(char::is_alphanumeric);
        prev2 = if word.chars().count() > 1 {
            word.chars().rev().nth(1)
        } else {
            prev
        };
        prev = Some(last);
        if after_apostrophe && CLITICS.iter().any(|t| word.eq_ignore_ascii_case(t)) {
            continue;
        }
        let word = strip_ordinal(word);
        let token = |from: usize, to: usize| Token {
            offset_from: from,
            offset_to: to,
            position,
            text: text[from..to].to_owned(),
            position_length: 1,
        };
        out.push(token(start, start + word.len()));
        mains.push((start, start + word.len(), position));
        let parts = camel_parts(word);
        if parts.len() > 1 {
            for (a, b) in parts {
                if is_word_part(&word[a..b], a == 0) {
                    out.push(token(start + a, start + b));
                }
            }
        }
        position += 1;
    }
    // Words joined by single hyphens or underscores also count as one word:
    // `IL-6` → `IL6`, `e-mail` → `email`, `insert_deduplication_token` → `insertdeduplicationtoken`.
    let joined =
        |a: &(usize, usize, usize), b: &(usize, usize, usize)| matches!(&text[a.1..b.0], "-" | "_");
    let mut i = 0;
    while i < mains.len() {
        let mut j = i;
        while j + 1 < mains.len() && joined(&mains[j], &mains[j + 1]) {
            j += 1;
        }
        if j > i {
            let word: String = mains[i..=j].iter().map(|m| &text[m.0..m.1]).collect();
            out.push(Token {
                offset_from: mains[i].0,
                offset_to: mains[j].1,
                position: mains[i].2,
                text: word,
                position_length: 1,
            });
        }
        i = j + 1;
    }
    out.sort_by_key(|t| t.position);
    out
}

/// Whether `c` is of a script written without spaces between words, indexed
/// in pairs: Han (Chinese characters, kanji, hanja), hiragana, katakana and
/// Hangul.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // hiragana, katakana
        | '\u{31F0}'..='\u{31FF}' // katakana extensions
        | '\u{3400}'..='\u{4DBF}' // Han extension A
        | '\u{4E00}'..='\u{9FFF}' // Han
        | '\u{F900}'..='\u{FAFF}' // Han compatibility
        | '\u{FF66}'..='\u{FF9F}' // half-width katakana
        | '\u{1100}'..='\u{11FF}' // Hangul jamo
        | '\u{3130}'..='\u{318F}' // Hangul compatibility jamo
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{20000}'..='\u{2FA1F}' // Han extensions B and on
    )
}

/// One token of a CJK run.
fn cjk_token(text: &str, from: usize, to: usize, position: usize) -> Token {
    Token {
        offset_from: from,
        offset_to: to,
        position,
        text: text[from..to].to_owned(),
        position_length: 1,
    }
}

/// Two-letter prefixes that start camelCase words without being words (`re`
/// of `reStructuredText`, `Re` of `ReDoS`, `un` of `unRegister`).
const PREFIXES: &[&str] = &["re", "un", "de", "ex", "co"];

/// Whether a camelCase part is indexed on its own: two characters or more,
/// except a prefix starting the word ([`PREFIXES`]): indexed alone, `re` made
/// `ReDoS` and `reStructuredText` meet. `id` of `idToken`, `db` of `dbPool`,
/// `IO` of `IOError` and `Id` of `userId` stay. One letter is never a word.
fn is_word_part(part: &str, first: bool) -> bool {
    match part.chars().count() {
        0 | 1 => false,
        2 => !(first && PREFIXES.iter().any(|p| part.eq_ignore_ascii_case(p))),
        _ => true,
    }
}

/// `8th` → `8`; anything else unchanged.
fn strip_ordinal(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits + 2 != word.len() {
        return word;
    }
    let tail = &word[digits..];
    if ["st", "nd", "rd", "th"]
        .iter()
        .any(|t| tail.eq_ignore_ascii_case(t))
    {
        &word[..digits]
    } else {
        word
    }
}

/// Byte ranges of the camelCase parts of `word` (one range when there are none).
fn camel_parts(word: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut cuts = vec![0];
    for i in 1..chars.len() {
        let (p, c) = (chars[i - 1].1, chars[i].1);
        let next_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        // fooBar | HTTPServer (cut before the S of Server)
        if (p.is_lowercase() && c.is_uppercase())
            || (p.is_uppercase() && c.is_uppercase() && next_lower)
        {
            cuts.push(chars[i].0);
        }
    }
    cuts.push(word.len());
    cuts.windows(2).map(|w| (w[0], w[1])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<(usize, String)> {
        tokens(text)
            .into_iter()
            .map(|t| (t.position, t.text))
            .collect()
    }

    fn w(xs: &[(usize, &str)]) -> Vec<(usize, String)> {
        xs.iter().map(|(p, s)| (*p, (*s).to_owned())).collect()
    }

    #[test]
    fn cjk_runs_are_pairs_of_characters() {
        assert_eq!(
            words("计算属性 computed"),
            w(&[(0, "计算"), (1, "算属"), (2, "属性"), (3, "computed")])
        );
        assert_eq!(
            words("ADRのファイル名"),
            w(&[
                (0, "ADR"),
                (1, "のフ"),
                (2, "ファ"),
                (3, "ァイ"),
                (4, "イル"),
                (5, "ル名")
            ])
        );
        assert_eq!(words("缓存。"), w(&[(0, "缓存")]));
        assert_eq!(words("锁 a"), w(&[(0, "锁"), (1, "a")]));
        assert_eq!(
            words("비밀번호"),
            w(&[(0, "비밀"), (1, "밀번"), (2, "번호")])
        );
    }

    #[test]
    fn cases() {
        let cases: &[(&str, &[(usize, &str)])] = &[
            (
                "Hello, tax payer!",
                &[(0, "Hello"), (1, "tax"), (2, "payer")],
            ),
            (
                "insert_deduplication_token",
                &[
                    (0, "insert"),
                    (0, "insertdeduplicationtoken"),
                    (1, "deduplication"),
                    (2, "token"),
                ],
            ),
            (
                "IL-6 and e-mail - not a-",
                &[
                    (0, "IL"),
                    (0, "IL6"),
                    (1, "6"),
                    (2, "and"),
                    (3, "e"),
                    (3, "email"),
                    (4, "mail"),
                    (5, "not"),
                    (6, "a"),
                ],
            ),
            (
                "the RollupPlanner split",
                &[
                    (0, "the"),
                    (1, "RollupPlanner"),
                    (1, "Rollup"),
                    (1, "Planner"),
                    (2, "split"),
                ],
            ),
            (
                "HTTPServer",
                &[(0, "HTTPServer"), (0, "HTTP"), (0, "Server")],
            ),
            ("GOMEMLIMIT", &[(0, "GOMEMLIMIT")]),
            // A prefix is no word: `ReDoS` and `reStructuredText` met on `re`.
            ("ReDoS", &[(0, "ReDoS"), (0, "Do")]),
            ("userId", &[(0, "userId"), (0, "user"), (0, "Id")]),
            ("dbPool", &[(0, "dbPool"), (0, "db"), (0, "Pool")]),
            (
                "reStructuredText",
                &[(0, "reStructuredText"), (0, "Structured"), (0, "Text")],
            ),
            ("IOError", &[(0, "IOError"), (0, "IO"), (0, "Error")]),
            ("nRF52840", &[(0, "nRF52840"), (0, "RF52840")]),
            (
                "Caroline's plans, don't",
                &[(0, "Caroline"), (1, "plans"), (2, "don")],
            ),
            ("Caroline’s", &[(0, "Caroline")]),
            ("'s t", &[(0, "s"), (1, "t")]),
            (
                "on 8th December, 2nd and 1st",
                &[
                    (0, "on"),
                    (1, "8"),
                    (2, "December"),
                    (3, "2"),
                    (4, "and"),
                    (5, "1"),
                ],
            ),
            // An ordinal is not joined to the next word.
            ("4th-gen 10x", &[(0, "4"), (1, "gen"), (2, "10x")]),
            ("naïve café", &[(0, "naïve"), (1, "café")]),
        ];
        for (text, want) in cases {
            assert_eq!(words(text), w(want), "{text}");
        }
    }

    #[test]
    fn offsets_point_at_the_word() {
        let text = "a fooBar";
        for t in tokens(text) {
            assert_eq!(&text[t.offset_from..t.offset_to], t.text);
        }
    }
}
