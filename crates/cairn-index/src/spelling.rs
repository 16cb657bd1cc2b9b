//! Other spellings of a query word that no note holds. A branch named
//! `fix/websocket-reconnect` or `fix/db-conn-leak`, or a task typed as
//! "healthcheck timeouts", asks about what the notes call a "web socket", a
//! "database connection" and a "health check".
//!
//! A query term that no note contains is looked up as the vault writes it:
//! - **a compound** as two words that notes do contain (`websocket` → `web`
//!   `socket`, `ratelimit` → `rate` `limit`): both halves are words of the
//!   vault's own index, nothing is split by a dictionary the vault does not share;
//! - **a developer's abbreviation** ([`ABBREVIATIONS`]: `db`, `conn`, `k8s`,
//!   `txn`, ...) as the first of its spellings whose words notes contain.
//!
//! The new words share the term's weight, in every part of the query that held
//! it. Only a term no note holds is respelled: a vault that writes `db` or
//! `websocket` finds it as written, and one that writes `web-socket` already
//! holds the joined form (the tokenizer indexes it).
//!
//! The other way round, **two words the query says side by side** that notes
//! write as one (a task "roll back the migration", "log in fails", "the data
//! set" and notes on the `rollback`, the `login` page, the `dataset`): the
//! joined word, when notes hold it, is looked for too, as another way to write
//! the pair ([`Join`], [`joins`]). Not only when no note holds the words: a
//! vault writes both forms (`SciFact`'s abstracts say "data set" 40 times and
//! "dataset" 38). A note is credited with the part of the pair it does not
//! write apart, so either form covers it once and the query weighs no more.

use tantivy::query::{EnableScoring, PhraseQuery, Query};
use tantivy::{DocSet, Searcher, TERMINATED, Term};

use crate::live_stats::{contents_hold, holds};
use crate::rank::Ranker;
use crate::schema::Fields;
use crate::{IndexError, QueryTerms, TextField};

/// The shortest term that is split: shorter ones (`carpet`, `became`) split
/// into two words by chance more often than by meaning.
const MIN_COMPOUND_CHARS: usize = 7;

/// The shortest half: `web`, `log`, `key`, not `a` or `re`.
const MIN_PART_CHARS: usize = 3;

/// English prefixes that are tokens too (`com` from `example.com`, `pre`,
/// `con`): `complain` is no "com plain", whatever a note says.
const PREFIX_HALVES: &[&str] = &[
    "anti", "com", "con", "counter", "dis", "inter", "intra", "mis", "non", "per", "pre", "pro",
    "semi", "sub", "super", "trans", "tri", "uni",
];

/// English suffixes that are words too: `wireless` is no "wire less".
const SUFFIX_HALVES: &[&str] = &[
    "able", "dom", "ful", "hood", "ible", "ing", "ion", "ish", "less", "like", "ment", "ness",
    "ship", "some", "ward", "wise",
];

/// The terms of `q` that no note contains and that an abbreviation's spelling
/// or two words notes contain make up, each with those words (in their order,
/// each once), in the order of `q`'s terms.
pub(crate) fn respellings(
    searcher: &Searcher,
    fields: &Fields,
    r: &Ranker,
    q: &QueryTerms,
) -> Result<Vec<(String, Vec<String>)>, IndexError> {
    let mut vault = Index {
        searcher,
        fields,
        r,
    };
    let mut respelled: Vec<(String, Vec<String>)> = Vec::new();
    for (text, &w) in &q.terms {
        let spelled = abbreviation(text);
        if w <= 0.0
            || (spelled.is_none() && !is_candidate(text))
            || joins_query_words(text, q)
            || vault.holds(text)?
        {
            continue;
        }
        let mut words = match spelled {
            Some(s) => first_held(s, &mut vault)?,
            None => None,
        };
        if words.is_none() && is_candidate(text) {
            words = best_split(text, &mut vault)?.map(Vec::from);
        }
        if let Some(mut words) = words {
            let mut seen = std::collections::BTreeSet::new();
            words.retain(|w| seen.insert(w.clone()));
            // A query that says both words already (`card-risk` gives `card`,
            // `risk` and the joined `cardrisk`) counts them already.
            if words.iter().all(|w| q.terms.contains_key(w)) {
                continue;
            }
            respelled.push((text.clone(), words));
        }
    }
    Ok(respelled)
}

/// Whether `text` is two words of the query joined (`card-risk` gives `card`,
/// `risk` and the joined `cardrisk`): the query counts them already.
fn joins_query_words(text: &str, q: &QueryTerms) -> bool {
    text.char_indices()
        .skip(1)
        .any(|(at, _)| q.terms.contains_key(&text[..at]) && q.terms.contains_key(&text[at..]))
}

/// What the vault holds, as [`respellings`] asks it.
trait Vocabulary {
    /// Whether a note holds `term`.
    fn holds(&mut self, term: &str) -> Result<bool, IndexError>;
    /// Whether a note holds `words` one after the other.
    fn has_phrase(&mut self, words: &[String]) -> Result<bool, IndexError>;
}

/// The index's vocabulary.
struct Index<'a> {
    searcher: &'a Searcher,
    fields: &'a Fields,
    r: &'a Ranker,
}

impl Vocabulary for Index<'_> {
    fn holds(&mut self, term: &str) -> Result<bool, IndexError> {
        holds(self.searcher, self.fields, self.r, term)
    }

    fn has_phrase(&mut self, words: &[String]) -> Result<bool, IndexError> {
        let field = self.fields.text[TextField::Contents as usize];
        let terms: Vec<Term> = words
            .iter()
            .map(|w| Term::from_field_text(field, w))
            .collect();
        if terms.len() < 2 {
            return Ok(false);
        }
        // The first live note that holds it, not a count of them all.
        let weight =
            PhraseQuery::new(terms).weight(EnableScoring::disabled_from_searcher(self.searcher))?;
        for seg in self.searcher.segment_readers() {
            let mut scorer = weight.scorer(seg, 1.0)?;
            let mut d = scorer.doc();
            while d != TERMINATED {
                if !seg.is_deleted(d) {
                    return Ok(true);
                }
                d = scorer.advance();
            }
        }
        Ok(false)
    }
}

/// Fewest letters of either word of a pair ([`pairs_of`]): `log in`, not `a b`.
const MIN_PAIR_WORD_CHARS: usize = 2;

/// Fewest letters of a pair's two words together: `login`, not `go to`.
const MIN_JOINED_CHARS: usize = 5;

/// The pairs of words `text` says side by side that a note may write as one
/// word (`roll back`, `log in`, `data set`), lowercase: each of letters only
/// once the punctuation before the first and after the second is set aside,
/// with nothing but white space between them (a comma or a full stop after
/// the first word ends the pair, one after the second does not); no stop word
/// first, and a stop word second only when it is a particle ([`PARTICLES`]).
pub(crate) fn pairs_of(text: &str) -> Vec<(String, String)> {
    let letters =
        |s: &str| s.chars().count() >= MIN_PAIR_WORD_CHARS && s.chars().all(char::is_alphabetic);
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter_map(|w| {
            let a = w[0].trim_start_matches(|c: char| c.is_ascii_punctuation());
            let b = w[1].trim_end_matches(|c: char| c.is_ascii_punctuation());
            if !letters(a)
                || !letters(b)
                || a.chars().count() + b.chars().count() < MIN_JOINED_CHARS
            {
                return None;
            }
            let (a, b) = (a.to_lowercase(), b.to_lowercase());
            // No stop word begins a pair (`any way` is no `anyway`) and only a
            // particle ends one (`associated with` is no word).
            let stop = stop_word_set();
            (!stop.contains(a.as_str())
                && (!stop.contains(b.as_str()) || PARTICLES.contains(&b.as_str())))
            .then_some((a, b))
        })
        .collect()
}

/// [`crate::stop_words`] as a set, made once.
fn stop_word_set() -> &'static std::collections::HashSet<&'static str> {
    static SET: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
        std::sync::LazyLock::new(|| crate::stop_words().collect());
    &SET
}

/// A word notes hold that joins two words the query says side by side
/// (`roll back` as `rollback`): another way to write them. A note that holds
/// it is credited with what it lacks of `words` (so a note writing either
/// form covers the pair, and one writing both covers it once); the query's
/// weight is not raised by it. It is scored as a term weighted as its words are
/// on average, and never more telling than the most telling of them (its IDF
/// at most theirs): a join only one note glued together by mistake
/// (`breastcancer`) would otherwise outweigh every word of the query.
#[derive(Debug, Clone, PartialEq)]
pub struct Join {
    /// The pair as the query says it, lowercase (`log in`).
    pub said: String,
    /// The query's terms the pair analyses to, in order (one when the second
    /// word is a stop word: `log in` is `log`).
    pub words: Vec<String>,
    /// The joined word, as the index analyses it.
    pub term: String,
}

/// Stop words that end a pair: the particles of phrasal verbs, which notes
/// write joined as nouns (`log in`, `set up`, `check out`, `shut down`). Any
/// other stop word ends none (`associated with` is no word, whatever a note
/// glued together).
const PARTICLES: &[&str] = &["in", "up", "out", "down", "off", "on", "over"];

impl Join {
    /// Its weight in `q`: its words' weights on average.
    pub(crate) fn weight(&self, q: &QueryTerms) -> f32 {
        self.words
            .iter()
            .filter_map(|w| q.terms.get(w))
            .sum::<f32>()
            / self.words.len() as f32
    }
}

/// A query as the search reads it: the terms no note holds with the words
/// they are looked up as, the query with those words in their place, and the
/// joins of that query.
#[derive(Debug, Clone, PartialEq)]
pub struct Spellings {
    /// Each term no note holds, with the words it is looked up as.
    pub respelled: Vec<(String, Vec<String>)>,
    /// The words notes hold that join two words the query says apart.
    pub joins: Vec<Join>,
    /// The query with `respelled` applied; `None` when nothing was respelled.
    query: Option<QueryTerms>,
}

impl Spellings {
    /// The query the search ranks by: `q` respelled.
    pub(crate) fn query<'a>(&'a self, q: &'a QueryTerms) -> &'a QueryTerms {
        self.query.as_ref().unwrap_or(q)
    }
}

/// [`Spellings`] of `q`: what `search`, `explain` and the callers that say
/// what a query was looked up as all read it by, computed in one place.
pub(crate) fn spellings(
    searcher: &Searcher,
    fields: &Fields,
    r: &Ranker,
    q: &QueryTerms,
) -> Result<Spellings, IndexError> {
    let respelled = respellings(searcher, fields, r, q)?;
    let query = self::respelled(q, &respelled);
    let joins = joins(searcher, fields, query.as_ref().unwrap_or(q))?;
    Ok(Spellings {
        respelled,
        joins,
        query,
    })
}

/// The joins of `q`'s pairs ([`pairs_of`]) that notes hold, in the order of
/// the pairs: the joined word is one term of the index, not one of the query's
/// own.
fn joins(searcher: &Searcher, fields: &Fields, q: &QueryTerms) -> Result<Vec<Join>, IndexError> {
    let mut out: Vec<Join> = Vec::new();
    // The pairs are those `pairs_of` kept: no stop word first, only a particle
    // second. The cheap tests first: the joined word, then the halves.
    for (a, b) in &q.pairs {
        let joined = crate::analyze(&format!("{a}{b}"));
        let [term] = joined.as_slice() else {
            continue;
        };
        if q.terms.contains_key(term) || out.iter().any(|j| &j.term == term) {
            continue;
        }
        let mut words: Vec<String> = crate::analyze(a)
            .into_iter()
            .chain(crate::analyze(b))
            .filter(|w| q.terms.get(w).is_some_and(|&x| x > 0.0))
            .collect();
        words.dedup();
        // Looked up in the notes' contents (title and body) only: most joined
        // words are no word at all (`payoutbatch`), and each field asked
        // costs a look-up per segment.
        if words.is_empty() || words.contains(term) || !contents_hold(searcher, fields, term)? {
            continue;
        }
        out.push(Join {
            said: format!("{a} {b}"),
            words,
            term: term.clone(),
        });
    }
    Ok(out)
}

/// `q` with each term of `respelled` replaced by its words, sharing its
/// weight, in every part that held it; `None` when there is nothing to replace.
pub(crate) fn respelled(q: &QueryTerms, respelled: &[(String, Vec<String>)]) -> Option<QueryTerms> {
    if respelled.is_empty() {
        return None;
    }
    let mut out = q.clone();
    for (whole, words) in respelled {
        // The words share the term's weight: one thing said in two words
        // weighs what it weighed in one.
        let w = out.terms.remove(whole).unwrap_or(0.0) / words.len().max(1) as f32;
        for word in words {
            *out.terms.entry(word.clone()).or_insert(0.0) += w;
        }
        for part in &mut out.parts {
            if part.remove(whole) {
                part.extend(words.iter().cloned());
            }
        }
    }
    Some(out)
}

/// Abbreviations developers write in branch names, commit subjects and tasks,
/// each with its spellings in full, most common first. Keys and spellings are
/// analysed as the index is ([`crate::analyze`]: `deps` is `dep`'s key too).
pub const ABBREVIATIONS: &[(&str, &[&str])] = &[
    ("a11y", &["accessibility"]),
    ("acct", &["account"]),
    ("addr", &["address"]),
    ("arg", &["argument"]),
    ("auth", &["authentication"]),
    ("authn", &["authentication"]),
    ("btn", &["button"]),
    ("cfg", &["configuration", "config"]),
    ("cmd", &["command"]),
    ("config", &["configuration"]),
    ("conn", &["connection"]),
    ("ctx", &["context"]),
    ("db", &["database"]),
    ("dep", &["dependency"]),
    ("dir", &["directory"]),
    ("doc", &["documentation"]),
    ("env", &["environment"]),
    ("err", &["error"]),
    ("i18n", &["internationalization", "translation"]),
    ("idx", &["index"]),
    ("img", &["image"]),
    ("infra", &["infrastructure"]),
    ("k8s", &["kubernetes"]),
    ("l10n", &["localization", "translation"]),
    ("lib", &["library"]),
    ("mgr", &["manager"]),
    ("msg", &["message"]),
    ("mw", &["middleware"]),
    ("nav", &["navigation"]),
    ("param", &["parameter"]),
    ("perf", &["performance"]),
    ("pkg", &["package"]),
    ("pr", &["pull request"]),
    ("regex", &["regular expression"]),
    ("repo", &["repository"]),
    ("req", &["request"]),
    ("resp", &["response"]),
    ("sched", &["scheduler", "schedule"]),
    ("svc", &["service"]),
    ("tmpl", &["template"]),
    ("txn", &["transaction"]),
];

/// The spellings of `term` if it is an abbreviation's key (analysed).
fn abbreviation(term: &str) -> Option<&'static [&'static str]> {
    static KEYS: std::sync::LazyLock<Vec<(String, &'static [&'static str])>> =
        std::sync::LazyLock::new(|| {
            ABBREVIATIONS
                .iter()
                .filter_map(|(k, v)| match crate::analyze(k).as_slice() {
                    [key] => Some((key.clone(), *v)),
                    _ => None,
                })
                .collect()
        });
    KEYS.iter().find(|(k, _)| k == term).map(|(_, v)| *v)
}

/// The words of the first of `spellings` that a note holds: its one word, or
/// its words one after the other (`pull request`).
fn first_held(
    spellings: &[&str],
    vault: &mut impl Vocabulary,
) -> Result<Option<Vec<String>>, IndexError> {
    for s in spellings {
        let words = crate::analyze(s);
        let held = match words.as_slice() {
            [] => false,
            [word] => vault.holds(word)?,
            _ => vault.has_phrase(&words)?,
        };
        if held {
            return Ok(Some(words));
        }
    }
    Ok(None)
}

/// A term made of letters only, long enough to be two words.
fn is_candidate(text: &str) -> bool {
    text.chars().count() >= MIN_COMPOUND_CHARS && text.chars().all(char::is_alphabetic)
}

/// The split of `text` into two terms that a note holds one after the other
/// (a note that says "socket" and, elsewhere, "web" does not write `websocket`
/// as two words): the one whose shorter half is longest (`health|check` over a
/// chance `heal|thcheck`), then the first.
fn best_split(text: &str, vault: &mut impl Vocabulary) -> Result<Option<[String; 2]>, IndexError> {
    let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let chars = bounds.len();
    // Split points, the most even first, then from the left.
    let mut splits: Vec<(usize, usize)> = bounds
        .iter()
        .enumerate()
        .filter(|(k, _)| *k >= MIN_PART_CHARS && chars - k >= MIN_PART_CHARS)
        .map(|(k, &at)| (k.min(chars - k), at))
        .collect();
    splits.sort_by_key(|&(shorter, at)| (std::cmp::Reverse(shorter), at));
    for (_, at) in splits {
        let (a, b) = text.split_at(at);
        if PREFIX_HALVES.contains(&a) || SUFFIX_HALVES.contains(&b) {
            continue;
        }
        // `text` is a stem: its first half is a whole word, stemmed as the
        // index stems it (`cachepolici` → `cach`); its last half is the stem
        // of the last word, but for a final `e` the whole word's stemming took
        // (`keystor` → `store`).
        let Some(first) = held_form(vault, &[a.to_owned()], a)? else {
            continue;
        };
        let Some(last) = held_form(vault, &[b.to_owned(), format!("{b}e")], b)? else {
            continue;
        };
        let halves = [first, last];
        if vault.has_phrase(&halves)? {
            return Ok(Some(halves));
        }
    }
    Ok(None)
}

/// The first of `half` as it is, then each of `words` stemmed, that a note holds.
fn held_form(
    vault: &mut impl Vocabulary,
    words: &[String],
    half: &str,
) -> Result<Option<String>, IndexError> {
    if vault.holds(half)? {
        return Ok(Some(half.to_owned()));
    }
    for w in words {
        if let [stem] = crate::analyze(w).as_slice()
            && stem != half
            && vault.holds(stem)?
        {
            return Ok(Some(stem.clone()));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::{IndexError, Vocabulary, abbreviation, best_split, first_held, is_candidate};

    /// The words notes hold, and the phrases.
    struct Words<'a>(&'a [&'a str], &'a [&'a str]);

    impl Vocabulary for Words<'_> {
        fn holds(&mut self, term: &str) -> Result<bool, IndexError> {
            Ok(self.0.contains(&term))
        }

        fn has_phrase(&mut self, words: &[String]) -> Result<bool, IndexError> {
            Ok(self.1.contains(&words.join(" ").as_str()))
        }
    }

    #[track_caller]
    fn check(text: &str, vocabulary: &[&str], phrases: &[&str], expect: Option<&str>) {
        let got = best_split(text, &mut Words(vocabulary, phrases))
            .unwrap()
            .map(|[a, b]| format!("{a} {b}"));
        assert_eq!(got.as_deref(), expect, "{text:?}");
    }

    #[test]
    fn a_compound_splits_into_two_words_a_note_writes_together() {
        let ws = &["web", "socket"];
        check("websocket", ws, &["web socket"], Some("web socket"));
        // Both words, but never one after the other: not a compound of the vault.
        check("websocket", ws, &[], None);
        check("websocket", ws, &["socket web"], None);
        // Only into words the vault holds.
        check("websocket", &["web"], &["web socket"], None);
        check("websocket", &[], &[], None);
        // Halves of three characters or more.
        check("abcdefgh", &["ab", "cdefgh"], &["ab cdefgh"], None);
        // The longest shorter half wins over a chance split.
        let hc = &["heal", "thcheck", "health", "check"];
        check(
            "healthcheck",
            hc,
            &["heal thcheck", "health check"],
            Some("health check"),
        );
        check("healthcheck", hc, &["heal thcheck"], Some("heal thcheck"));
        // Equal lengths: the first.
        check(
            "abcdefghi",
            &["abc", "defghi", "abcdef", "ghi"],
            &["abc defghi", "abcdef ghi"],
            Some("abc defghi"),
        );
        // An English prefix or suffix is no half, though a token of the vault.
        let affixes = &["com", "plain", "wire", "less"];
        check("complain", affixes, &["com plain"], None);
        check("wireless", affixes, &["wire less"], None);
        // Halves as the index stems them: `cachepolicy` is the stem
        // `cachepolici`, the index holds `cach` and `polici`; `keystore` is
        // `keystor`, the index holds `key` and `store`.
        let cache = crate::analyze("cache policy");
        let cache: Vec<&str> = cache.iter().map(String::as_str).collect();
        let phrase = cache.join(" ");
        let stem = crate::analyze("cachepolicy").remove(0);
        check(&stem, &cache, &[&phrase], Some(&phrase));
        let stem = crate::analyze("keystore").remove(0);
        check(&stem, &["key", "store"], &["key store"], Some("key store"));
        // Characters, not bytes.
        check(
            "überstraße",
            &["über", "straße"],
            &["über straße"],
            Some("über straße"),
        );
    }

    #[test]
    fn a_joined_pair_of_the_query_s_own_words_is_not_respelled() {
        let mut q = crate::QueryTerms::default();
        q.add_text("card-risk scoring", 1.0);
        assert!(q.terms.contains_key("cardrisk"));
        assert!(super::joins_query_words("cardrisk", &q));
        assert!(!super::joins_query_words("websocket", &q));
        assert!(!super::joins_query_words("card", &q));
    }

    #[test]
    fn pairs_are_words_of_letters_side_by_side() {
        let pairs = |t: &str| super::pairs_of(t);
        let p = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(
            pairs("Roll back the (data set)."),
            [p("roll", "back"), p("data", "set")]
        );
        // Stop words: none first, a particle second.
        assert_eq!(pairs("any way with log in"), [p("log", "in")]);
        // A comma after the first word ends the pair, one after the second
        // does not (a bracket before it does); digits, identifiers and one-letter words make none; nor do
        // two words under five letters together.
        assert_eq!(pairs("roll, back up, now"), [p("back", "up")]);
        assert!(pairs("v2 api x ray, go to ab_cd e-f").is_empty());
        assert_eq!(pairs("log in"), [p("log", "in")]);
    }

    #[test]
    fn only_long_words_of_letters_are_candidates() {
        assert!(is_candidate("websocket"));
        assert!(!is_candidate("carpet"));
        assert!(!is_candidate("sha256sum"));
        assert!(!is_candidate("web_socket"));
    }

    #[test]
    fn abbreviations_are_keyed_as_the_index_spells_them() {
        assert_eq!(abbreviation("db"), Some(&["database"][..]));
        // `deps` and `docs` analyse to `dep` and `doc`.
        assert_eq!(crate::analyze("deps"), ["dep"]);
        assert!(abbreviation("dep").is_some());
        assert!(abbreviation("k8s").is_some());
        assert!(abbreviation("database").is_none());
        // Every key is one term of the index (a key the analyser drops or
        // splits would never be looked up), and every spelling is other words
        // than the key (`utility` stems to `util`: no spelling at all).
        for (k, spellings) in super::ABBREVIATIONS {
            let key = crate::analyze(k);
            assert_eq!(key.len(), 1, "{k}");
            for s in *spellings {
                assert!(!crate::analyze(s).contains(&key[0]), "{k}: {s}");
            }
        }
    }

    #[test]
    fn an_abbreviation_takes_its_first_spelling_the_vault_holds() {
        let words = crate::analyze("authorization pull request");
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let phrase = crate::analyze("pull request").join(" ");
        let mut vault = Words(&words, &[phrase.as_str()]);
        let mut held = |s: &[&str]| first_held(s, &mut vault).unwrap();
        assert_eq!(
            held(&["authentication", "authorization"]),
            Some(crate::analyze("authorization"))
        );
        // No spelling whose stem is another word (`authorization` stems to
        // `author`): `auth` is spelled as authentication only.
        assert_eq!(abbreviation("auth"), Some(&["authentication"][..]));
        assert_eq!(
            held(&["pull request"]),
            Some(crate::analyze("pull request"))
        );
        // Words of a spelling held apart, or not all held: not held.
        assert_eq!(held(&["request pull"]), None);
        assert_eq!(held(&["merge request"]), None);
        assert_eq!(held(&[]), None);
    }
}
