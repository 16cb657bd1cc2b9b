//! The `cairn_en` analyzer: words (identifier-aware, [`WordTokenizer`]), lowercase,
//! ASCII folding, Snowball stop words, a memoised Snowball stemmer; and
//! [`analyze`], the same analysis for query text and snippets.

use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, Stemmer,
    StopWordFilter, TextAnalyzer, Token, TokenFilter, TokenStream, Tokenizer,
};

use crate::WordTokenizer;

/// The analyzer: split into words ([`WordTokenizer`]: camelCase parts, joined
/// hyphenated words, no contraction tails, ordinals as numbers), drop tokens over 40
/// bytes, lowercase, fold accents, drop English stop words ([`stop_words`]), stem.
pub fn analyzer() -> TextAnalyzer {
    let stop = StopWordFilter::remove(stop_words().map(str::to_owned));
    TextAnalyzer::builder(WordTokenizer)
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(stop)
        .filter(MemoStemmer)
        .build()
}

/// English stop words (`stopwords.txt`, data: the Snowball project's list,
/// snowballstem.org, BSD licence, without its contractions, which the tokenizer
/// already splits; see the file for why).
const STOP_WORDS_TXT: &str = include_str!("stopwords.txt");

/// The English stop words the analyzer drops, in the order of `stopwords.txt`.
pub fn stop_words() -> impl Iterator<Item = &'static str> {
    STOP_WORDS_TXT
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Most distinct words one analyzer remembers the stem of.
const STEM_CACHE_WORDS: usize = 100_000;

/// tantivy's English Snowball stemmer with a memo of the stems already computed:
/// the same tokens, but a vault repeats its words so often that stemming each
/// occurrence was a third of the cost of building an index. Each analyzer
/// (one per indexing thread) has its own memo, so nothing is shared or locked.
#[derive(Clone, Copy, Debug, Default)]
struct MemoStemmer;

impl TokenFilter for MemoStemmer {
    type Tokenizer<T: Tokenizer> = MemoStemmerFilter<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> MemoStemmerFilter<T> {
        MemoStemmerFilter {
            inner: tokenizer,
            memo: std::collections::HashMap::new(),
            stem_one: TextAnalyzer::builder(RawTokenizer::default())
                .filter(Stemmer::new(Language::English))
                .build(),
        }
    }
}

#[derive(Clone)]
struct MemoStemmerFilter<T> {
    inner: T,
    memo: std::collections::HashMap<String, String>,
    /// The stemmer itself, applied to one word at a time.
    stem_one: TextAnalyzer,
}

impl<T: Tokenizer> Tokenizer for MemoStemmerFilter<T> {
    type TokenStream<'a> = MemoStemmerStream<'a, T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        MemoStemmerStream {
            tail: self.inner.token_stream(text),
            memo: &mut self.memo,
            stem_one: &mut self.stem_one,
        }
    }
}

struct MemoStemmerStream<'a, S> {
    tail: S,
    memo: &'a mut std::collections::HashMap<String, String>,
    stem_one: &'a mut TextAnalyzer,
}

impl<S: TokenStream> TokenStream for MemoStemmerStream<'_, S> {
    fn advance(&mut self) -> bool {
        if !self.tail.advance() {
            return false;
        }
        let token = self.tail.token_mut();
        if let Some(stem) = self.memo.get(&token.text) {
            token.text.clear();
            token.text.push_str(stem);
            return true;
        }
        let mut stream = self.stem_one.token_stream(&token.text);
        let stem = if stream.advance() {
            stream.token().text.clone()
        } else {
            token.text.clone()
        };
        drop(stream);
        if self.memo.len() < STEM_CACHE_WORDS {
            self.memo
                .insert(std::mem::take(&mut token.text), stem.clone());
        }
        token.text = stem;
        true
    }

    fn token(&self) -> &Token {
        self.tail.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.tail.token_mut()
    }
}

/// Runs `f` with this thread's analyzer: building one (stop word set, stemmer)
/// costs more than analysing a sentence, and snippets and triggers analyse many.
fn with_analyzer<T>(f: impl FnOnce(&mut TextAnalyzer) -> T) -> T {
    thread_local! {
        static ANALYZER: std::cell::RefCell<TextAnalyzer> = std::cell::RefCell::new(analyzer());
    }
    ANALYZER.with(|a| f(&mut a.borrow_mut()))
}

/// Analyses `text` into index terms, in order (duplicates kept).
pub fn analyze(text: &str) -> Vec<String> {
    with_analyzer(|a| {
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push(t.text.clone());
        }
        out
    })
}

/// Whether `text` has at least one index term and every one of them is in
/// `terms`: [`analyze`] and a test of each term, stopping at the first term
/// missing (most texts tested against a task miss at their first word).
pub fn analyzed_within(text: &str, terms: &std::collections::BTreeSet<String>) -> bool {
    if terms.is_empty() {
        return false;
    }
    with_analyzer(|a| {
        let mut stream = a.token_stream(text);
        let mut any = false;
        while let Some(t) = stream.next() {
            if !terms.contains(&t.text) {
                return false;
            }
            any = true;
        }
        any
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analyzed_within_is_every_term_of_analyze_in_the_set() {
        let set = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect();
        let task: std::collections::BTreeSet<String> = set(&["retri", "payout", "lock"]);
        for text in [
            "retrying payouts",
            "Retry the payout lock",
            "the payout",
            "the of and",
            "",
            "payout ledger",
            "ledger payout",
            "LOCKS, payouts; retried!",
        ] {
            let terms = analyze(text);
            let expected = !terms.is_empty() && terms.iter().all(|t| task.contains(t));
            assert_eq!(analyzed_within(text, &task), expected, "{text}");
        }
        assert!(analyzed_within("Retry the payout lock", &task));
        assert!(!analyzed_within("the of and", &task));
        assert!(!analyzed_within(
            "payout",
            &std::collections::BTreeSet::new()
        ));
    }

    #[test]
    fn analyzer_stems_and_drops_stop_words() {
        assert_eq!(
            analyze("The Retrying of payouts, naïvely!"),
            vec!["retri", "payout", "naiv"]
        );
        assert_eq!(
            analyze("src/settlement/payout_job.rs"),
            vec!["src", "settlement", "payout", "payoutjob", "job", "rs"]
        );
    }

    #[test]
    fn memoised_stems_equal_plain_stems() {
        let stop = StopWordFilter::remove(stop_words().map(str::to_owned));
        let mut plain = TextAnalyzer::builder(WordTokenizer)
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .filter(stop)
            .filter(Stemmer::new(Language::English))
            .build();
        let text = "Retrying retries retried: the runners running ran, généralement naïvely \
                    retrying again and again; Relational relations relate. retrying";
        let mut expected = Vec::new();
        let mut s = plain.token_stream(text);
        while let Some(t) = s.next() {
            expected.push(t.text.clone());
        }
        // Twice: the second pass is served from the memo.
        assert_eq!(analyze(text), expected);
        assert_eq!(analyze(text), expected);
    }
}
