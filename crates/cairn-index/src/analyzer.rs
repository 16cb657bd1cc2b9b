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

/// Analyses `text` into index terms, in order (duplicates kept).
pub fn analyze(text: &str) -> Vec<String> {
    thread_local! {
        // Building the analyzer (stop word set, stemmer) costs more than analysing a
        // sentence; snippets and triggers analyse many.
        static ANALYZER: std::cell::RefCell<TextAnalyzer> = std::cell::RefCell::new(analyzer());
    }
    ANALYZER.with(|a| {
        let mut a = a.borrow_mut();
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push(t.text.clone());
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
