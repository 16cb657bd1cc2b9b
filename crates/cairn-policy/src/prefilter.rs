//! Which rules a text enables, without running a regex: the anchors every
//! match of a rule has, looked up by their first bytes in one pass over the
//! text (`Prefilter`), in every case the rules' regexes take (`CaseFold`).

use crate::rules::RULES;

/// A set of rules, one bit each (bit `i` is `RULES[i]`).
pub(crate) type Mask = u128;

/// Case beyond ASCII, for the prefilter. It compares folded anchors ignoring
/// ASCII case, but a rule's `(?i)` regex folds Unicode case: to it `ПАРОЛЬ`,
/// `LÖSENORD` and `HASŁO` are `пароль`, `lösenord` and `hasło`, and `ſ` (long
/// s) and `K` (Kelvin sign) are `s` and `k`. Each letter outside ASCII that
/// folds together with a letter of a folded anchor is mapped to one letter of
/// its class (the ASCII one if the class has one), in anchors and texts alike,
/// so an anchor written in any case is found: without this, a credential keyed
/// in capitals would run no regex and stay in the text. The classes are
/// Unicode's simple case folding as the regexes apply it (`regex-syntax`).
#[derive(Debug, Default)]
pub(crate) struct CaseFold {
    /// Letter to its class's letter, sorted by letter.
    map: Vec<(char, char)>,
}

impl CaseFold {
    /// The folding of the letters of `anchors`.
    pub(crate) fn of<'a>(anchors: impl IntoIterator<Item = &'a str>) -> CaseFold {
        use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
        let mut letters: Vec<char> = anchors.into_iter().flat_map(str::chars).collect();
        letters.sort_unstable();
        letters.dedup();
        let mut map = Vec::new();
        for c in letters {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
            class.case_fold_simple();
            let members: Vec<char> = class.iter().flat_map(|r| r.start()..=r.end()).collect();
            let Some(&first) = members.first() else {
                continue;
            };
            let to = members
                .iter()
                .find(|m| m.is_ascii())
                .map_or(first, char::to_ascii_lowercase);
            map.extend(
                members
                    .into_iter()
                    .filter(|&m| !m.is_ascii() && m != to)
                    .map(|m| (m, to)),
            );
        }
        map.sort_unstable();
        map.dedup_by_key(|(from, _)| *from);
        CaseFold { map }
    }

    fn letter(&self, c: char) -> Option<char> {
        if c.is_ascii() {
            return None;
        }
        self.map
            .binary_search_by_key(&c, |&(from, _)| from)
            .ok()
            .map(|at| self.map[at].1)
    }

    /// `word` folded and in ASCII lower case: as the tests after the prefilter
    /// compare words with a folded, lower-cased text.
    pub(crate) fn lower(&self, word: &str) -> String {
        self.text(word)
            .unwrap_or_else(|| word.to_owned())
            .to_ascii_lowercase()
    }

    /// `text` with its letters folded, when one of them is; `None` otherwise
    /// (an ASCII text is never: ASCII case is the prefilter's own).
    pub(crate) fn text(&self, text: &str) -> Option<String> {
        if text.is_ascii() || !text.chars().any(|c| self.letter(c).is_some()) {
            return None;
        }
        Some(text.chars().map(|c| self.letter(c).unwrap_or(c)).collect())
    }
}

/// Which rules the anchors in a text enable, without an automaton: anchors are
/// looked up by their first bytes. Folded anchors (matched ignoring ASCII case)
/// by a hash of their first three bytes in lower case, exact anchors (`SK`, the
/// first letters of a Discord token) and two-byte folded ones by their first two
/// bytes as written. One pass over a text tests each position's keys against two
/// bit sets and compares the anchors only where a key is set: a few positions in
/// a hundred in notes.
///
/// Not Aho-Corasick: every wake-up, search and hook is a new process, and
/// building an automaton over these anchors cost 0.5 ms (`AhoCorasick`, which
/// then found its overlapping matches at 8 ns a byte of notes) to 1.3 ms and more
/// (its DFA, 4 ns a byte). This builds in microseconds and passes notes at about
/// 3 ns a byte (`docs/BENCHMARKS.md`). Its result is tested against a plain
/// substring search.
#[derive(Debug)]
pub(crate) struct Prefilter {
    /// Folded anchors of three bytes or more, by [`Prefilter::triple`].
    folded: AnchorIndex,
    /// Exact anchors and two-byte folded ones, by [`Prefilter::pair`].
    paired: AnchorIndex,
    /// Rules with an anchor shorter than two bytes: they run on every text
    /// (none today; fail closed if one is added).
    always: Mask,
}

/// Anchors by a 16-bit key: a bit set of the keys in use, the anchors sorted
/// by key.
#[derive(Debug)]
pub(crate) struct AnchorIndex {
    keys: Box<[u64; 1024]>,
    anchors: Vec<(u16, Anchor)>,
}

/// One anchor and the rules it enables.
#[derive(Debug, Clone)]
pub(crate) struct Anchor {
    /// As written (exact), or with its letters folded ([`CaseFold`]).
    text: Box<[u8]>,
    /// Matched byte for byte (`SK`); otherwise ignoring ASCII case.
    exact: bool,
    enables: Mask,
}

impl AnchorIndex {
    fn new(mut anchors: Vec<(u16, Anchor)>) -> AnchorIndex {
        anchors.sort_by_key(|(key, _)| *key);
        let mut keys = Box::new([0u64; 1024]);
        for (key, _) in &anchors {
            keys[usize::from(key >> 6)] |= 1 << (key & 63);
        }
        AnchorIndex { keys, anchors }
    }

    /// Whether some anchor has `key`.
    #[inline]
    fn has(&self, key: u16) -> bool {
        self.keys[usize::from(key >> 6)] & (1 << (key & 63)) != 0
    }

    /// Adds to `enabled` the rules of the anchors of `key` that `rest` starts with.
    fn check(&self, key: u16, rest: &[u8], enabled: &mut Mask) {
        let first = self.anchors.partition_point(|(k, _)| *k < key);
        for (_, a) in self.anchors[first..].iter().take_while(|(k, _)| *k == key) {
            let found = rest.get(..a.text.len()).is_some_and(|head| {
                if a.exact {
                    *head == *a.text
                } else {
                    head.eq_ignore_ascii_case(&a.text)
                }
            });
            if found {
                *enabled |= a.enables;
            }
        }
    }
}

impl Prefilter {
    /// The key of two bytes as written.
    fn pair(a: u8, b: u8) -> u16 {
        u16::from_be_bytes([a, b])
    }

    /// The key of three bytes in ASCII lower case.
    fn triple(a: u8, b: u8, c: u8) -> u16 {
        Self::triple_of(u32::from_be_bytes([
            0,
            a.to_ascii_lowercase(),
            b.to_ascii_lowercase(),
            c.to_ascii_lowercase(),
        ]))
    }

    /// The key of three lower-case bytes in the low 24 bits of `low`: the high
    /// 16 bits of a multiplicative hash (its best bits).
    #[inline]
    fn triple_of(low: u32) -> u16 {
        #[allow(clippy::cast_possible_truncation)]
        let key = (low.wrapping_mul(0x9E37_79B1) >> 16) as u16;
        key
    }

    /// The prefilter of [`RULES`], folded anchors folded by `fold`.
    pub(crate) fn build(fold: &CaseFold) -> Prefilter {
        // Each distinct anchor once, with every rule it enables.
        let mut anchors: Vec<Anchor> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            for &anchor in rule.anchors {
                let text: Box<[u8]> = if rule.exact {
                    anchor.as_bytes().into()
                } else {
                    fold.text(anchor)
                        .map_or_else(|| anchor.as_bytes().into(), |f| f.into_bytes().into())
                };
                let same = |a: &&mut Anchor| {
                    a.exact == rule.exact
                        && if rule.exact {
                            a.text == text
                        } else {
                            a.text.eq_ignore_ascii_case(&text)
                        }
                };
                match anchors.iter_mut().find(same) {
                    Some(known) => known.enables |= 1 << i,
                    None => anchors.push(Anchor {
                        text,
                        exact: rule.exact,
                        enables: 1 << i,
                    }),
                }
            }
        }
        let (mut folded, mut paired, mut always) = (Vec::new(), Vec::new(), 0);
        for a in anchors {
            match *a.text {
                [x, y, z, ..] if !a.exact => folded.push((Self::triple(x, y, z), a)),
                [x, y, ..] if a.exact => paired.push((Self::pair(x, y), a)),
                [x, y] => {
                    // Every way of writing the two bytes.
                    let mut cases = Vec::new();
                    for x in [x.to_ascii_lowercase(), x.to_ascii_uppercase()] {
                        for y in [y.to_ascii_lowercase(), y.to_ascii_uppercase()] {
                            cases.push(Self::pair(x, y));
                        }
                    }
                    cases.sort_unstable();
                    cases.dedup();
                    paired.extend(cases.into_iter().map(|key| (key, a.clone())));
                }
                _ => always |= a.enables,
            }
        }
        Prefilter {
            folded: AnchorIndex::new(folded),
            paired: AnchorIndex::new(paired),
            always,
        }
    }

    /// The rules enabled by the anchors found in `text`.
    pub(crate) fn enabled(&self, text: &str) -> Mask {
        let bytes = text.as_bytes();
        let mut enabled = self.always;
        // The last three bytes (`raw`) and their lower case (`low`), rolling:
        // the byte at `at` is the last of them.
        let (mut raw, mut low) = (0u32, 0u32);
        for (at, &byte) in bytes.iter().enumerate() {
            raw = raw << 8 | u32::from(byte);
            low = (low << 8 | u32::from(byte.to_ascii_lowercase())) & 0x00FF_FFFF;
            if at >= 1 {
                // Truncation intended: the last two bytes.
                #[allow(clippy::cast_possible_truncation)]
                let key = raw as u16;
                if self.paired.has(key) {
                    self.paired.check(key, &bytes[at - 1..], &mut enabled);
                }
            }
            if at >= 2 {
                let key = Self::triple_of(low);
                if self.folded.has(key) {
                    self.folded.check(key, &bytes[at - 2..], &mut enabled);
                }
            }
        }
        enabled
    }
}
