//! Credential detection and redaction: finds credentials in a text and replaces
//! each one with `[redacted:<kind>]`. The detectors are data (`rules.rs`); this
//! file runs them, turns matches into spans and settles the result.
//!
//! How it stays cheap: every rule names the literal anchors it cannot flag
//! anything without (`AKIA`, `ghp_`, `-----BEGIN`, `password`, `://`, ...). One
//! pass over the text, looking the anchors up by their first bytes
//! ([`Prefilter`]), finds which occur; only the rules they enable run, and a
//! text with no anchor at all is returned borrowed without running any regex.
//! All matchers are built once; each regex is compiled the first time a text
//! enables it.
//!
//! How it stays safe: overlapping findings are merged into one span (earliest
//! start, then longest), so a credential is never half redacted; values that are
//! already `[redacted:...]` are left alone, and the output is re-checked until
//! nothing in it is flagged, so redaction is idempotent.
//!
//! How it stays quiet on prose and code: `key = value` rules need a separator
//! right after the key (or a code span: ``password `x` ``, or a sentence:
//! `the password is X`), and skip values that are obviously not secrets
//! (`benign.rs`): placeholders, references, templates, commands, code, types,
//! grammar and prose. Quoted literals are redacted unless they are one of those
//! or user-interface text: `"hunter2"` in code is a secret whatever surrounds it.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::{Captures, Regex};
use serde::Serialize;

use crate::CredentialKind;
use crate::benign::{self, Quote, is_markers};
use crate::code_shapes;
use crate::prefilter::{CaseFold, Mask, Prefilter};
use crate::rule::{Check, Rule};
use crate::rules::RULES;
use crate::shape::{BEFORE_VERB, Line, Lowered, VERBS, has_also, has_line, has_shape};
use crate::structure;

/// What every redaction marker starts with; the full marker is
/// `[redacted:<kind>]` with the kind's [`CredentialKind::as_str`] name.
pub const REDACTION_PREFIX: &str = "[redacted:";

/// One credential found in a text. Findings never overlap and come in text order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What kind of credential it is (the earliest, longest detector wins a merge).
    pub kind: CredentialKind,
    /// 1-based line on which the finding starts.
    pub line: usize,
    /// Byte offset of the first redacted byte.
    pub start: usize,
    /// Byte offset one past the last redacted byte.
    pub end: usize,
}

/// The result of [`redact`]: the safe text and what was removed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redaction<'a> {
    /// The text with every credential replaced; borrowed when nothing was found.
    pub text: Cow<'a, str>,
    /// How many credentials were replaced (`kinds.len()`).
    pub count: usize,
    /// The kind of each replacement, one entry per redaction, in text order.
    pub kinds: Vec<CredentialKind>,
}

impl Redaction<'_> {
    /// Whether anything was redacted.
    pub fn is_redacted(&self) -> bool {
        self.count > 0
    }

    /// Detaches the result from the input text.
    pub fn into_owned(self) -> Redaction<'static> {
        Redaction {
            text: Cow::Owned(self.text.into_owned()),
            count: self.count,
            kinds: self.kinds,
        }
    }
}

/// Replaces each credential in `text` with `[redacted:<kind>]`.
///
/// Only the secret part is replaced: the key of an assignment
/// (`password=[redacted:password]`) and the rest of a URL
/// (`postgres://svc:[redacted:url-password]@db:5432/x`) stay readable.
/// `redact(redact(x).text) == redact(x).text` for every `x`.
pub fn redact(text: &str) -> Redaction<'_> {
    if text.len() > MEMO_MAX_BYTES {
        return redact_now(text);
    }
    // `try_with`: a thread being torn down redacts without the memory.
    let Some(memo) = MEMO
        .try_with(|m| m.borrow().get(text).cloned())
        .ok()
        .flatten()
    else {
        let r = redact_now(text);
        let memo = r.is_redacted().then(|| Memo {
            text: r.text.as_ref().into(),
            kinds: r.kinds.clone(),
        });
        let _ = MEMO.try_with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= MEMO_ENTRIES {
                m.clear();
            }
            m.insert(text.into(), memo);
        });
        return r;
    };
    match memo {
        None => Redaction {
            text: Cow::Borrowed(text),
            count: 0,
            kinds: Vec::new(),
        },
        Some(Memo { text, kinds }) => Redaction {
            text: Cow::Owned(text.into()),
            count: kinds.len(),
            kinds,
        },
    }
}

/// Texts up to this many bytes are remembered with their redaction, per thread:
/// the same titles, paths, reasons and summaries are redacted again and again as
/// a packet is assembled, fitted to its budget, rendered and checked. Longer
/// texts (bodies) are redacted each time.
const MEMO_MAX_BYTES: usize = 1024;

/// At most this many texts are remembered per thread (a text and its redaction
/// of up to 1 KB each: 4 MB at most, per thread that redacts); the memory is
/// emptied when full, so a long-running server never grows.
const MEMO_ENTRIES: usize = 2048;

/// A remembered redaction: `None` for a text with nothing to redact.
#[derive(Debug, Clone)]
struct Memo {
    text: Box<str>,
    kinds: Vec<CredentialKind>,
}

thread_local! {
    static MEMO: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, Option<Memo>>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// [`redact`] without the memory.
fn redact_now(text: &str) -> Redaction<'_> {
    let spans = settled_spans(text);
    if spans.is_empty() {
        return Redaction {
            text: Cow::Borrowed(text),
            count: 0,
            kinds: Vec::new(),
        };
    }
    let (out, _) = apply(text, &spans);
    Redaction {
        text: Cow::Owned(out),
        count: spans.len(),
        kinds: spans.iter().map(|s| s.kind).collect(),
    }
}

/// Every credential in `text`: exactly the spans [`redact`] replaces, in order,
/// without overlaps.
pub fn find_credentials(text: &str) -> Vec<Finding> {
    let mut line = 1;
    let mut pos = 0;
    settled_spans(text)
        .into_iter()
        .map(|span| {
            line += text.as_bytes()[pos..span.start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            pos = span.start;
            Finding {
                kind: span.kind,
                line,
                start: span.start,
                end: span.end,
            }
        })
        .collect()
}

/// `text` with each credential replaced by a blank: for text that is cut into
/// words rather than shown (a task's or a path's query terms, which `explain`
/// lists lower-cased and stemmed, past the reach of a case-sensitive rule), where
/// a marker's words would become words of the query. Borrowed when clean.
pub fn without_credentials(text: &str) -> Cow<'_, str> {
    let spans = settled_spans(text);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for span in &spans {
        out.push_str(&text[pos..span.start]);
        out.push(' ');
        pos = span.end;
    }
    out.push_str(&text[pos..]);
    Cow::Owned(out)
}

/// Replaces each span with its marker; also returns where each marker landed.
pub(crate) fn apply(text: &str, spans: &[Span]) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(text.len() + spans.len() * 16);
    let mut markers = Vec::with_capacity(spans.len());
    let mut pos = 0;
    for span in spans {
        out.push_str(&text[pos..span.start]);
        let at = out.len();
        out.push_str(REDACTION_PREFIX);
        out.push_str(span.kind.as_str());
        out.push(']');
        markers.push((at, out.len()));
        pos = span.end;
    }
    out.push_str(&text[pos..]);
    (out, markers)
}

/// How many times redaction is re-checked before giving up on a text.
const MAX_PASSES: usize = 8;

/// The spans of `text` whose redaction leaves nothing to flag.
///
/// One detection pass is almost always enough. When a merge leaves residue next
/// to a marker (`secret="-----BEGIN PRIVATE KEY-----…"` leaves the closing quote
/// after `[redacted:secret]`, which an unquoted value would then take along), the
/// output is checked again and the new finding, mapped back to the original text,
/// absorbs the spans it touches. This makes [`redact`] idempotent and its output
/// free of findings by construction. A text that does not settle within
/// [`MAX_PASSES`] is redacted whole.
pub(crate) fn settled_spans(text: &str) -> Vec<Span> {
    let mut spans = detect(text);
    for _ in 0..MAX_PASSES {
        if spans.is_empty() {
            return spans;
        }
        let (out, markers) = apply(text, &spans);
        let more = detect(&out);
        if more.is_empty() {
            return spans;
        }
        let mapped: Vec<Span> = more
            .iter()
            .map(|s| Span {
                start: to_original(s.start, false, &spans, &markers),
                end: to_original(s.end, true, &spans, &markers),
                kind: s.kind,
            })
            .collect();
        spans.extend(mapped);
        spans = merge(spans);
    }
    let kind = spans
        .first()
        .map_or(CredentialKind::GenericSecretAssignment, |s| s.kind);
    vec![Span {
        start: 0,
        end: text.len(),
        kind,
    }]
}

/// Maps a byte offset in the redacted text back to the original text. An offset
/// inside a marker maps to the start (or, for an end offset, the end) of the
/// span the marker replaced.
fn to_original(pos: usize, is_end: bool, spans: &[Span], markers: &[(usize, usize)]) -> usize {
    let i = if is_end {
        markers.partition_point(|m| m.1 < pos)
    } else {
        markers.partition_point(|m| m.1 <= pos)
    };
    if let Some(m) = markers.get(i) {
        let inside = if is_end { m.0 < pos } else { m.0 <= pos };
        if inside {
            return if is_end { spans[i].end } else { spans[i].start };
        }
    }
    match i.checked_sub(1) {
        Some(p) => spans[p].end + (pos - markers[p].1),
        None => pos,
    }
}

/// A span to redact, before line numbers are known.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kind: CredentialKind,
}

/// The compiled rules and their prefilter.
#[derive(Debug)]
struct Matchers {
    /// Which rules the anchors in a text enable.
    prefilter: Prefilter,
    /// Letters outside ASCII that fold together with an anchor's.
    fold: CaseFold,
    /// Per rule, the words its [`Line`] test looks for (its anchors, or its
    /// keys' ends), folded and in ASCII lower case as [`Lowered`] texts are
    /// searched for them (rules whose [`Line`] is `Any`: none).
    line_anchors: Vec<Vec<memchr::memmem::Finder<'static>>>,
    /// `RULES[i].pattern`, compiled the first time the prefilter enables the rule
    /// (compiling them all costs milliseconds, and most texts enable none).
    regexes: Vec<OnceLock<Regex>>,
}

fn matchers() -> &'static Matchers {
    static MATCHERS: OnceLock<Matchers> = OnceLock::new();
    MATCHERS.get_or_init(|| {
        const _: () = assert!(RULES.len() <= Mask::BITS as usize, "rule masks are u128");
        // Every word a folded text is compared with: the anchors, the keys'
        // ends, the words every match also has, the marks after a key, and the
        // words a key's sentence has.
        let fold = CaseFold::of(
            RULES
                .iter()
                .flat_map(|r| {
                    let anchors = if r.exact { &[][..] } else { r.anchors };
                    anchors.iter().chain(r.line.words()).chain(r.also)
                })
                .chain(VERBS)
                .chain(BEFORE_VERB)
                .copied(),
        );
        let line_anchors = RULES
            .iter()
            .map(|rule| {
                let words = match rule.line {
                    Line::Any => &[][..],
                    Line::Key { ends, .. } => ends,
                    _ => rule.anchors,
                };
                words
                    .iter()
                    .map(|w| memchr::memmem::Finder::new(&fold.lower(w)).into_owned())
                    .collect()
            })
            .collect();
        Matchers {
            prefilter: Prefilter::build(&fold),
            fold,
            line_anchors,
            regexes: RULES.iter().map(|_| OnceLock::new()).collect(),
        }
    })
}

fn compile(rule: &Rule) -> Regex {
    Regex::new(rule.pattern).expect("the static rule patterns compile")
}

/// The rules `text` enables: those with an anchor in it, ignoring case as the
/// rules' regexes do (see [`CaseFold`]).
#[cfg(test)]
fn enabled_rules(m: &Matchers, text: &str) -> Mask {
    enabled_and_folded(m, text).0
}

/// The rules `text` enables (those with an anchor in it, ignoring case as the
/// rules' regexes do), and `text` folded when folding changed it.
fn enabled_and_folded(m: &Matchers, text: &str) -> (Mask, Option<String>) {
    match m.fold.text(text) {
        Some(folded) => (m.prefilter.enabled(&folded), Some(folded)),
        None => (m.prefilter.enabled(text), None),
    }
}

/// Whether rule `i` passes every test that comes before its regex on `text`:
/// its anchors among the `enabled` rules, then its shape, its line and its
/// words ([`crate::shape`]). `detect` and the tests of those tests ask this
/// one question, so no test can be left out of either.
fn passes(m: &Matchers, i: usize, enabled: Mask, text: &str, lowered: &mut Lowered<'_>) -> bool {
    let rule = &RULES[i];
    enabled & (1 << i) != 0
        && has_shape(rule, text)
        && has_line(rule.line, &m.line_anchors[i], lowered)
        && has_also(rule.also, lowered)
}

/// All spans to redact in `text`, merged and sorted.
fn detect(text: &str) -> Vec<Span> {
    // Look-alikes of ASCII (a no-break space between a key and its value, a
    // full-width key, a Cyrillic letter in a Latin key, a zero-width space
    // gluing a value to its key) are read as the ASCII they stand for: the
    // rules run on views of the text, their spans mapped back to its bytes.
    let views = crate::lookalike::views(text);
    if views.is_empty() {
        return detect_in(text);
    }
    let spans: Vec<Span> = views
        .iter()
        .flat_map(|view| {
            detect_in(&view.text).into_iter().map(|s| {
                let (start, end) = view.original(s.start, s.end);
                Span {
                    start,
                    end,
                    kind: s.kind,
                }
            })
        })
        .collect();
    merge(spans)
}

fn detect_in(text: &str) -> Vec<Span> {
    let m = matchers();
    let (enabled, folded) = enabled_and_folded(m, text);
    if enabled == 0 {
        return Vec::new();
    }
    let mut lowered = Lowered::new(text, folded);

    let mut spans = Vec::new();
    for (i, (rule, re)) in RULES.iter().zip(&m.regexes).enumerate() {
        if !passes(m, i, enabled, text, &mut lowered) {
            continue;
        }
        let re = re.get_or_init(|| compile(rule));
        if re.captures_len() == 1 && rule.check == Check::Plain {
            spans.extend(re.find_iter(text).map(|found| Span {
                start: found.start(),
                end: found.end(),
                kind: rule.kind,
            }));
            continue;
        }
        // Not `captures_iter`: after a rejected value (a placeholder, prose) the
        // search resumes at the value, so `--token --token x` still finds `x`.
        let mut at = 0;
        while let Some(caps) = re.captures_at(text, at) {
            let Some(whole) = caps.get(0) else { break };
            let next = to_spans(text, rule, &caps, &mut spans);
            at = if next > whole.start() {
                next
            } else {
                whole.start()
                    + text[whole.start()..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8)
            };
            if at > text.len() {
                break;
            }
        }
    }
    merge(spans)
}

/// Turns one match into spans (none when the rule's check rejects it); returns
/// where the search goes on.
fn to_spans(text: &str, rule: &Rule, caps: &Captures<'_>, out: &mut Vec<Span>) -> usize {
    let Some(whole) = caps.get(0) else {
        return text.len();
    };
    let mut push = |start: usize, end: usize, kind: CredentialKind| {
        out.push(Span { start, end, kind });
    };
    match rule.check {
        Check::PemBlock => {
            let label = caps.get(1).map_or("", |g| g.as_str());
            push(
                whole.start(),
                structure::pem_end(text, label, whole.end()),
                rule.kind,
            );
            return whole.end();
        }
        Check::BlockScalar => {
            let indent = caps.get(1).map_or(0, |g| g.len());
            if let Some((s, e)) = structure::block_scalar(text, indent, whole.end()) {
                push(s, e, rule.kind);
            }
            return whole.end();
        }
        Check::KubernetesData => {
            let indent = caps.get(1).map_or(0, |g| g.len());
            let mut found = Vec::new();
            structure::kubernetes_yaml(text, indent, whole.end(), &mut found);
            for (s, e) in found {
                push(s, e, rule.kind);
            }
            return whole.end();
        }
        Check::KubernetesJson => {
            let mut found = Vec::new();
            structure::kubernetes_json(text, whole.end() - 1, &mut found);
            for (s, e) in found {
                push(s, e, rule.kind);
            }
            return whole.end();
        }
        Check::Pair => {
            // Every pair on the rest of the line, each checked alone: a port
            // or a time before it hides no pair after it.
            let after = caps.get(1).map_or(whole.end()..whole.end(), |g| g.range());
            for (s, e) in crate::pairs::credential_pairs(text, after) {
                push(s, e, rule.kind);
            }
            return whole.end();
        }
        Check::CredentialList => {
            let mut found = Vec::new();
            structure::credential_list(text, whole.end(), &mut found);
            for (s, e) in found {
                push(s, e, rule.kind);
            }
            return whole.end();
        }
        Check::Table => {
            let mut found = Vec::new();
            structure::table(text, whole.start(), &mut found);
            for (k, s, e) in found {
                push(s, e, k);
            }
            return whole.end();
        }
        _ => {}
    }
    // The first participating group is the secret; without groups, the whole match.
    let value = (1..caps.len()).find_map(|g| caps.get(g)).unwrap_or(whole);
    match value_span(
        text,
        rule,
        whole.start(),
        whole.end(),
        value.start(),
        value.end(),
    ) {
        Some(end) => {
            push(value.start(), end, rule.kind);
            // A plain token's match may take the character after it (rules bound
            // a token by its alphabet, not `\b`), which can be the one before the
            // next token (`AKIA… AKIA…`): go on right after the token.
            if matches!(rule.check, Check::Plain | Check::UrlPassword) {
                end
            } else {
                whole.end().max(end)
            }
        }
        None => value.start(),
    }
}

/// Where the secret that starts at `start` ends, or `None` when the value is
/// not a secret. `match_start..match_end` is the whole match (key included).
fn value_span(
    text: &str,
    rule: &Rule,
    match_start: usize,
    match_end: usize,
    start: usize,
    value_end: usize,
) -> Option<usize> {
    let mut end = value_end;
    if start == end || is_markers(&text[start..end]) {
        return None;
    }
    match rule.check {
        Check::Plain => return Some(end),
        // Not a token cut short (`Bearer sk-...`) or asked for.
        Check::RandomLooking | Check::Given => {
            let token = &text[start..end];
            let random = rule.check == Check::Given || benign::looks_random(token);
            return (random && !benign::is_token_placeholder(token)).then_some(end);
        }
        Check::UrlPassword => {
            return (!benign::is_env_reference(&text[start..end])).then_some(end);
        }
        _ => {}
    }
    let quote = match Quote::around(text, start, end) {
        Quote::None if rule.check == Check::Literal => Quote::Double,
        q => q,
    };
    let unquoted = quote == Quote::None;
    // The line's end, 512 bytes on at most (a paragraph read as one line would
    // make a search to its end per match quadratic).
    let window = boundary_at_or_after(text, start + 512);
    let line_end = text[start..window]
        .find(['\n', '\r'])
        .map_or(window, |i| start + i);
    if unquoted {
        // A query parameter (`?token=abc&x=1)`) ends where the URL syntax resumes.
        if text[..match_start].ends_with(['?', '&'])
            && let Some(cut) = text[start..end].find(['&', '#', ')', '>', '"', '\''])
        {
            end = start + cut;
        }
        // A value in markdown bold keeps its closing `**`.
        if end - start > 2 && (text[..end].ends_with("**") || text[..end].ends_with("__")) {
            end -= 2;
        }
        // A passphrase: several lowercase words and nothing else on the line.
        let words = matches!(rule.check, Check::Assignment | Check::Prose | Check::Answer)
            && rule.kind == CredentialKind::PasswordAssignment
            && benign::is_word(&text[start..end]);
        if words {
            let key = &text[match_start..start];
            let min = if key.to_ascii_lowercase().contains("phrase") {
                3
            } else {
                4
            };
            if let Some(len) = benign::passphrase_len(&text[start..line_end], min) {
                return Some(start + len);
            }
        }
    }
    // A sentence goes on after a bare value's comma or semicolon (`the deploy
    // token is ghp_…; then run it`): they are no part of it.
    if unquoted && matches!(rule.check, Check::Prose | Check::Answer) {
        end = start + text[start..end].trim_end_matches([',', ';']).len();
    }
    let value = &text[start..end];
    // A sentence's value that ends in a colon, or is followed by one, is what
    // the key is for (`client secret (base64): x`, `client secret "prod": x`):
    // the value comes after it.
    if matches!(rule.check, Check::Prose | Check::Answer)
        && (value.ends_with([':', '：'])
            || text[end..line_end]
                .trim_start_matches(['"', '\'', '`', '*', '_'])
                .starts_with([':', '：']))
    {
        return None;
    }
    let rest = &text[match_end.max(end).min(line_end)..line_end];
    if end == start || benign::is_benign_value(value, quote, rest) {
        return None;
    }
    // An API key or token is long and mixes letters and digits: a value of a
    // few letters or digits alone is a format's token (`token: \`HH\``), a
    // field number (`string security_token = 1;`) or a word (``Token
    // `claims` ``), as docs write them.
    let short = value.trim_end_matches([';', ',']);
    if rule.kind == CredentialKind::ApiKeyAssignment
        && short.chars().count() < 8
        && (!short.bytes().any(|b| b.is_ascii_digit()) || short.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    // A type or member name as an API key's value (`?token=PrefetchOptions`,
    // `?token=ActionReducerMapBuilder.addCase` in a docs site's links): words in
    // camel or Pascal case and nothing else; a key is random.
    if unquoted
        && rule.kind == CredentialKind::ApiKeyAssignment
        && benign::is_identifier_words(value)
    {
        return None;
    }
    let key = &text[match_start..start];
    // `a == b` compares with a literal only when the literal is quoted.
    if unquoted && key.contains("==") {
        return None;
    }
    // `${DB_PASSWORD:?message}`: the key is a shell parameter, the value its
    // error message.
    // The line before the match, its last 256 bytes at most (a paragraph read
    // as one line would make a search back to its start per match quadratic).
    let from = boundary_at_or_after(text, match_start.saturating_sub(256));
    let line_before = &text[text[from..match_start]
        .rfind('\n')
        .map_or(from, |i| from + i + 1)..match_start];
    if unquoted
        && value.starts_with('?')
        && line_before
            .rfind("${")
            .is_some_and(|i| !line_before[i..].contains('}'))
    {
        return None;
    }
    // `$token:tt` in a `macro_rules!` matcher.
    if unquoted && text[..match_start].ends_with('$') && code_shapes::is_macro_fragment(value) {
        return None;
    }
    // A code span after a key names a variable or shows code as often as it
    // gives a value (``the token `NPM_TOKEN` ``, ``a token is `args[i]` ``).
    let code_span = matches!(rule.check, Check::Quoted | Check::Prose | Check::Answer)
        && quote == Quote::Backtick;
    // A question about something else than the password itself: who knows
    // it, where it is kept, which hash protects it.
    if rule.check == Check::Answer && asks_about(line_before) {
        return None;
    }
    if code_span && (benign::is_constant_name(value) || code_shapes::is_code(value)) {
        return None;
    }
    match rule.check {
        Check::Prose | Check::Answer if unquoted => benign::looks_typed(value).then_some(end),
        Check::Bare => benign::looks_generated(value).then_some(end),
        _ => Some(end),
    }
}

/// The first character boundary of `text` at or after byte `at` (its length
/// when `at` is past it): where a bounded look at a line may start or stop.
fn boundary_at_or_after(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Whether the question before a password word asks about something else than
/// the password (`Who knows the`, `Where is the`, `Which hash for the`).
fn asks_about(question: &str) -> bool {
    const ABOUT: &[&str] = &[
        "who",
        "whom",
        "whose",
        "where",
        "which",
        "why",
        "how",
        "when",
        "whether",
        "does",
        "do",
        "did",
        "can",
        "should",
        "is there",
        "are there",
    ];
    let q = question.to_ascii_lowercase();
    let words: Vec<&str> = q
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    ABOUT.iter().any(|a| match a.split_once(' ') {
        Some((x, y)) => words.windows(2).any(|w| w[0] == x && w[1] == y),
        None => words.contains(a),
    })
}

/// Sorts spans (earliest start, then longest, then the more specific kind) and
/// merges overlapping ones into the first, so nothing is redacted twice and no
/// credential is cut in half.
pub(crate) fn merge(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by(|a, b| {
        a.start
            .cmp(&b.start)
            .then(b.end.cmp(&a.end))
            .then(a.kind.cmp(&b.kind))
    });
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start < last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::shape::has_block_indicator;

    #[test]
    fn every_rule_compiles_and_has_an_anchor() {
        let m = matchers();
        assert_eq!(m.regexes.len(), RULES.len());
        for rule in RULES {
            assert!(!rule.anchors.is_empty(), "{:?}", rule.pattern);
            // `DEFAULTS`' placeholder pattern is never a rule's own.
            assert!(!rule.pattern.is_empty(), "a rule without a pattern");
            assert!(Regex::new(rule.pattern).is_ok(), "{:?}", rule.pattern);
            // The prefilter indexes anchors by two bytes (a shorter one
            // would make its rule run on every text).
            assert!(
                rule.anchors.iter().all(|a| a.len() >= 2),
                "{:?}",
                rule.pattern
            );
        }
    }

    #[test]
    fn markers_are_recognised() {
        assert!(is_markers("[redacted:password]"));
        assert!(is_markers("[redacted:jwt][redacted:url-password]"));
        assert!(!is_markers("[redacted:]"));
        assert!(!is_markers("[redacted:password]x"));
        assert!(!is_markers(""));
    }

    #[test]
    fn offsets_map_back_through_markers() {
        let spans = [Span {
            start: 4,
            end: 10,
            kind: CredentialKind::Jwt,
        }];
        // "abc [redacted:jwt]xyz" from "abc 012345xyz": the marker is 4..18.
        let markers = [(4, 18)];
        assert_eq!(to_original(0, false, &spans, &markers), 0);
        assert_eq!(to_original(4, false, &spans, &markers), 4);
        assert_eq!(to_original(10, false, &spans, &markers), 4);
        assert_eq!(to_original(18, false, &spans, &markers), 10);
        assert_eq!(to_original(18, true, &spans, &markers), 10);
        assert_eq!(to_original(12, true, &spans, &markers), 10);
        assert_eq!(to_original(4, true, &spans, &markers), 4);
        assert_eq!(to_original(20, true, &spans, &markers), 12);
    }

    /// The rules whose anchors `text` contains, found the slow, obvious way: a
    /// regex of each anchor, ignoring case as the rules' regexes do (Unicode's)
    /// unless the rule's anchors are exact.
    fn enabled_by_search(text: &str) -> Mask {
        static ANCHORS: OnceLock<Vec<(usize, Regex)>> = OnceLock::new();
        let anchors = ANCHORS.get_or_init(|| {
            RULES
                .iter()
                .enumerate()
                .flat_map(|(i, rule)| {
                    rule.anchors.iter().map(move |a| {
                        let re = regex::RegexBuilder::new(&regex::escape(a))
                            .case_insensitive(!rule.exact)
                            .build()
                            .unwrap();
                        (i, re)
                    })
                })
                .collect()
        });
        anchors
            .iter()
            .filter(|(_, re)| re.is_match(text))
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    #[test]
    fn the_prefilter_finds_every_anchor_even_inside_another() {
        // Anchors that overlap or contain each other, in either case.
        for text in [
            "PASSWORD> and sshpass -p",
            "the api-key-0123 and --token>",
            "a secret> AGE-SECRET-KEY-1",
            "MTA SK ask Oz",
            "machinedefault://",
            "",
        ] {
            assert_eq!(
                enabled_rules(matchers(), text),
                enabled_by_search(text),
                "{text:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn the_prefilter_enables_exactly_the_rules_whose_anchors_occur(
            parts in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(
                        RULES.iter().flat_map(|r| r.anchors.iter().copied()).collect::<Vec<_>>()
                    ).prop_map(str::to_owned),
                    "[a-zA-Z_:/>. -]{0,3}",
                    "\\PC{0,2}",
                ],
                0..12,
            ),
            cases in prop::collection::vec(any::<prop::sample::Index>(), 48),
        ) {
            // Letters in any case a `(?i)` regex takes for them (`ПАРОЛЬ`,
            // `PASSWORD`, `paſſword`): folded anchors match every way.
            let text = in_cases(&parts.concat(), &cases);
            prop_assert_eq!(
                enabled_rules(matchers(), &text),
                enabled_by_search(&text)
            );
        }
    }

    /// Every way of writing `c` that a case-insensitive regex takes for it.
    fn case_variants(c: char) -> Vec<char> {
        use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
        let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
        class.case_fold_simple();
        class.iter().flat_map(|r| r.start()..=r.end()).collect()
    }

    /// `text` with each letter written as one of its [`case_variants`], by `cases`.
    fn in_cases(text: &str, cases: &[prop::sample::Index]) -> String {
        text.chars()
            .zip(cases.iter().cycle())
            .map(|(c, pick)| pick.get(&case_variants(c)).to_owned())
            .collect()
    }

    proptest! {
        /// The prefilter's promise: a rule it leaves out has no match in the
        /// text (whatever the case of its key), so skipping it loses nothing.
        #[test]
        fn a_rule_left_out_has_no_match(
            parts in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(
                        RULES.iter().flat_map(|r| r.anchors.iter().copied()).collect::<Vec<_>>()
                    ).prop_map(str::to_owned),
                    prop::sample::select(vec![
                        "word", "wd", "=", ": ", "：", "＝", " is ", " was ", "\tist ", " es ",
                        " for the db ", " `", "`", "\"", "'", "\n", "\r\n", " ", "\t", "-",
                        "_", "**", "__", "://u:", "@", "|", " | ", "\n| ", "-p", " -a ", "</",
                        ">", "<", "value=\"", "key=\"", "=>", ":=", "aws_", "_key", "by ",
                    ]).prop_map(str::to_owned),
                    "[A-Za-z0-9_+/=.-]{8,40}",
                    "\\PC{0,2}",
                ],
                0..10,
            ),
            cases in prop::collection::vec(any::<prop::sample::Index>(), 48),
        ) {
            let text = in_cases(&parts.concat(), &cases);
            let m = matchers();
            let (enabled, folded) = enabled_and_folded(m, &text);
            let mut lowered = Lowered::new(&text, folded);
            for (i, (rule, re)) in RULES.iter().zip(&m.regexes).enumerate() {
                if !passes(m, i, enabled, &text, &mut lowered) {
                    let re = re.get_or_init(|| compile(rule));
                    prop_assert!(!re.is_match(&text), "rule {} ({:?}) left out of {:?}", i, rule.kind, text);
                }
            }
        }
    }

    proptest! {
        /// Every text a block-scalar rule's regex matches has the indicator the
        /// rule is skipped without.
        #[test]
        fn a_block_scalar_match_always_has_its_indicator(
            parts in prop::collection::vec(
                prop_oneof![
                    Just("private_key".to_owned()),
                    Just("password".to_owned()),
                    Just("- \"token\"".to_owned()),
                    Just(":".to_owned()),
                    Just(" \t".to_owned()),
                    Just("|".to_owned()),
                    Just(">".to_owned()),
                    Just("|-2".to_owned()),
                    Just(" # note".to_owned()),
                    Just("\n".to_owned()),
                    Just("\r\n".to_owned()),
                    "[a-z_:|> \t\n-]{0,4}",
                ],
                0..14,
            ),
        ) {
            let text: String = parts.concat();
            for rule in RULES.iter().filter(|r| r.check == Check::BlockScalar) {
                if Regex::new(rule.pattern).unwrap().is_match(&text) {
                    prop_assert!(has_block_indicator(&text), "{:?}", text);
                }
            }
        }
    }

    #[test]
    fn line_marks_are_in_lower_case() {
        for rule in RULES {
            for word in rule.line.words() {
                assert_eq!(*word, word.to_lowercase(), "{:?}", rule.pattern);
            }
        }
    }

    /// The key group of a pattern: its first `(?:…)`, nested groups and all.
    fn key_group(pattern: &str) -> &str {
        let open = pattern.find("(?:").unwrap();
        let mut depth = 0;
        for (at, c) in pattern[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return &pattern[open..=open + at];
                    }
                }
                _ => {}
            }
        }
        panic!("no key group in {pattern:?}")
    }

    /// Every key a rule tested by how its keys end can match ends so: keys
    /// generated from the pattern's key group, in every case it takes, folded
    /// and in lower case as texts are searched.
    #[test]
    fn every_key_ends_as_its_rule_says() {
        use proptest::strategy::ValueTree;
        let m = matchers();
        let lower = |w: &str| m.fold.lower(w);
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut rules = 0;
        for rule in RULES {
            let Line::Key { ends, .. } = rule.line else {
                continue;
            };
            rules += 1;
            let ends: Vec<String> = ends.iter().map(|e| lower(e)).collect();
            let group = format!("(?i){}", key_group(rule.pattern).replace(r"\b", ""));
            let keys = proptest::string::string_regex(&group).unwrap();
            for _ in 0..400 {
                let key = keys.new_tree(&mut runner).unwrap().current();
                let key = lower(&key);
                assert!(
                    ends.iter().any(|end| key.ends_with(end.as_str())),
                    "{key:?} of {group:?}"
                );
            }
        }
        assert!(rules >= 7, "{rules}");
    }

    #[test]
    fn a_key_word_in_prose_runs_no_assignment_rule() {
        let m = matchers();
        let runs = |text: &str| -> Vec<usize> {
            let (enabled, folded) = enabled_and_folded(m, text);
            let mut lowered = Lowered::new(text, folded);
            (0..RULES.len())
                .filter(|&i| passes(m, i, enabled, text, &mut lowered))
                .collect()
        };
        // Words with an anchor in them, no credential's shape on their line.
        for text in [
            "pinned",
            "Pin the payout because the team already knows how to operate it.",
            "Rotate the token weekly.\nThe secret store holds them (see the runbook)",
            "We bypass the cache; passing tests",
            "See https://github.com/org/repo/pull/7: the default branch is main",
            "MDX pages and NTP clocks; bearer of bad news",
            "mysql is the store: see the runbook",
            "Pinned notes, the spinner is slow; passing tests were fine",
        ] {
            assert_eq!(runs(text), Vec::<usize>::new(), "{text:?}");
        }
        // The shapes themselves still run their rules.
        for text in [
            "PASSWORD: Xk9fakePw2",
            "the staging password is Xk9fakePw2",
            "the token `abc`",
            "| host | password |",
            "ПАРОЛЬ = Xk9fakePw2",
            "postgres://svc:Xk9fakePw2@db:5432/x",
            "Authorization: Bearer abcdefghijklmnop1234",
            "mysql -u root -pXk9fakePw2",
            "machine h\n  login u\n  password Xk9fakePw2",
        ] {
            assert!(!runs(text).is_empty(), "{text:?}");
        }
    }

    /// Texts in the shapes the line tests stand for: assignments, sentences,
    /// code spans and table rows, each key one of the anchors (maybe
    /// continued), every part in the variants its rule's regex allows.
    fn credential_shapes() -> impl Strategy<Value = String> {
        let anchors: Vec<&str> = RULES
            .iter()
            .flat_map(|r| r.anchors.iter().copied())
            .collect();
        let key = prop_oneof![
            (
                prop::sample::select(anchors),
                prop::sample::select(vec!["", "word", "wd", "_key"]),
            )
                .prop_map(|(a, more)| format!("{a}{more}")),
            // Whole keys that an anchor only starts or ends.
            prop::sample::select(vec![
                "mot de passe",
                "contraseña",
                "passphrase",
                "passcode",
                "api key",
                "api-token",
                "access_token",
                "auth token",
                "senha",
                "kennwort",
                "dbPass",
                "apiToken",
            ])
            .prop_map(str::to_owned),
        ];
        let pick = |v: Vec<&'static str>| prop::sample::select(v);
        let blanks = || pick(vec![" ", "\t", " \t", "  "]);
        let value = "[A-Za-z0-9]{4,12}";
        prop_oneof![
            (
                key.clone(),
                pick(vec!["", "**", "__"]),
                pick(vec!["", "\"", "'", "`"]),
                pick(vec!["", " ", "\t"]),
                pick(vec!["=>", ":=", "===", "==", "=", ":", "：", "＝"]),
                value,
            )
                .prop_map(|(k, d, q, b, sep, v)| format!("{k}{d}{q}{d}{b}{sep}{b}{v}")),
            (
                key.clone(),
                pick(vec!["", "**", "__"]),
                pick(vec!["", " for the db", "\ton prod", " of x y z"]),
                blanks(),
                pick(vec!["is", "was", "ist", "es", "est"]),
                blanks(),
                value,
            )
                .prop_map(|(k, d, f, b1, verb, b2, v)| format!("the {k}{d}{f}{b1}{verb}{b2}{v}")),
            (key.clone(), blanks(), pick(vec!["", "is ", "was\t"]), value)
                .prop_map(|(k, b, is, v)| format!("{k}{b}{is}`{v}`")),
            (pick(vec!["", " ", "\t "]), key, value)
                .prop_map(|(b, k, v)| format!("{b}| host | {k} |\n| db | {v} |")),
            // Shapes of their own: a URL's user and password, a `.netrc`
            // entry, a database client's password flag, an AWS secret key.
            (
                pick(vec!["https", "postgres", "redis"]),
                "[a-z0-9._%-]{0,8}",
                value,
                "[a-z0-9.-]{1,8}"
            )
                .prop_map(|(scheme, user, v, host)| format!("{scheme}://{user}:{v}@{host}/db")),
            (
                pick(vec!["machine git.acme.org", "default"]),
                pick(vec![" ", "\n  ", "\t"]),
                value
            )
                .prop_map(|(m, b, v)| format!("{m}{b}login bob{b}password {v}")),
            (
                pick(vec![
                    "mysql -u root",
                    "mysqldump -h db",
                    "sshpass",
                    "redis-cli -h cache"
                ]),
                value
            )
                .prop_map(|(cmd, v)| {
                    let flag = if cmd.starts_with("redis") {
                        " -a "
                    } else {
                        " -p"
                    };
                    format!("{cmd}{flag}{v} x")
                }),
            (
                pick(vec![
                    "aws_secret_access_key",
                    "AWS-SECRET-KEY",
                    "awssecretkey"
                ]),
                "[A-Za-z0-9/+=]{40}"
            )
                .prop_map(|(k, v)| format!("{k} = {v}")),
        ]
    }

    proptest! {
        /// A credential in a shape a rule's tests stand for passes all of them
        /// (anchor, tail, line, words), whatever the case of its key and verb.
        #[test]
        fn a_credential_in_any_shape_passes_every_test_of_its_rule(
            shape in credential_shapes(),
            before in prop::sample::select(vec!["", "x ", "note:\n", "a\n\n"]),
            cases in prop::collection::vec(any::<prop::sample::Index>(), 48),
        ) {
            let text = format!("{before}{}", in_cases(&shape, &cases));
            let m = matchers();
            let (enabled, folded) = enabled_and_folded(m, &text);
            let mut lowered = Lowered::new(&text, folded);
            for (i, (rule, re)) in RULES.iter().zip(&m.regexes).enumerate() {
                if re.get_or_init(|| compile(rule)).is_match(&text) {
                    prop_assert!(
                        passes(m, i, enabled, &text, &mut lowered),
                        "rule {} ({:?}) on {:?}", i, rule.kind, text
                    );
                }
            }
        }
    }

    /// The tail test reads the text as written, not case folded: sound while
    /// no case-insensitive tailed rule has an anchor with a letter that folds
    /// beyond ASCII (`k`: the Kelvin sign, `s`: `ſ`). A new one must read the
    /// folded text instead.
    #[test]
    fn tailed_anchors_need_no_folding() {
        for rule in RULES.iter().filter(|r| !r.tails.is_empty()) {
            if rule.pattern.contains("(?i)") {
                for (anchor, _) in rule.tails {
                    assert!(
                        !anchor.to_ascii_lowercase().contains(['k', 's']),
                        "{anchor:?} of {:?}",
                        rule.pattern
                    );
                }
            }
        }
    }

    /// The rules with [`Rule::tails`].
    fn tailed() -> impl Iterator<Item = &'static Rule> {
        RULES.iter().filter(|r| !r.tails.is_empty())
    }

    #[test]
    fn a_tailed_rule_gives_each_of_its_anchors_one_tail() {
        assert!(tailed().count() >= 2);
        for rule in tailed() {
            let mut named: Vec<&str> = rule.tails.iter().map(|(a, _)| *a).collect();
            let mut anchors = rule.anchors.to_vec();
            named.sort_unstable();
            anchors.sort_unstable();
            assert_eq!(named, anchors, "{:?}", rule.pattern);
        }
    }

    #[test]
    fn a_vendor_key_rule_needs_a_token_after_its_anchor() {
        let mailgun = RULES.iter().find(|r| r.anchors == ["key-"]).unwrap();
        let vendor = RULES.iter().find(|r| r.anchors.contains(&"sk-")).unwrap();
        for slug in [
            "10-Projects/ledger/incidents/2026-02-16-payout-broke-idempotency-key-1786",
            "the api-key-rotation runbook",
            "a risk-based review of the task-list; see disk-usage",
            "sk-short and hf_short",
        ] {
            assert!(!has_shape(mailgun, slug), "{slug}");
            assert!(!has_shape(vendor, slug), "{slug}");
        }
        assert!(has_shape(
            mailgun,
            "MAILGUN=key-3ax6xnjp29jd6fds4gc373sgvjxteol0"
        ));
        assert!(has_shape(
            vendor,
            "use 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 here"
        ));
        assert!(has_shape(vendor, "x SK-ant-api03-abcdefghijklmnopqrstuvwx"));
    }

    /// The shortest keys the tailed rules match: each passes its rule's tail
    /// test, and one character shorter it is no key at all (so the tails'
    /// numbers are the patterns' own, not smaller by chance).
    #[test]
    fn the_shortest_keys_pass_their_tails() {
        let a = |n: usize| "a".repeat(n);
        let h = |n: usize| "0".repeat(n);
        for key in [
            format!("Bearer {}", a(16)),
            format!("MD{}.{}.{}", a(21), a(6), a(27)),
            format!("sk-ant-{}", a(20)),
            format!("sk_live_{}", a(16)),
            format!("whsec_{}", a(24)),
            format!("AIza{}", a(35)),
            format!("npm_{}", a(36)),
            format!("pypi-AgE{}", a(16)),
            "sk.eyJa.b".to_owned(),
            format!("hf_{}", a(30)),
            format!("SG.{}.{}", a(16), a(30)),
            format!("dop_v1_{}", h(64)),
            format!("shpat_{}", h(32)),
            format!("tskey-{}-{}", a(6), a(10)),
            format!("key-{}", h(32)),
            format!("hvs.{}", a(24)),
            format!("dp.st.{}", a(40)),
            format!("dp.st.dev.{}", a(40)),
            format!("pscale_pw_{}", a(32)),
            format!("xkeysib-{}-{}", h(64), a(16)),
            format!("{}.atlasv1.{}", a(14), a(60)),
            format!("gsk_{}", a(48)),
            format!("r8_{}", a(37)),
            format!("dapi{}", h(32)),
            format!("sk-or-v1-{}", h(20)),
        ] {
            let rule = RULES
                .iter()
                .find(|r| !r.tails.is_empty() && Regex::new(r.pattern).unwrap().is_match(&key))
                .unwrap_or_else(|| panic!("no tailed rule matches {key:?}"));
            assert!(has_shape(rule, &key), "{key:?}");
            let shorter = &key[..key.len() - 1];
            assert!(
                !Regex::new(rule.pattern).unwrap().is_match(shorter),
                "{shorter:?}"
            );
        }
    }

    /// A generator of the text `rule`'s regex matches (word boundaries and the
    /// start-of-text alternative left out: the generator has no such thing).
    fn matching(rule: &Rule) -> proptest::string::RegexGeneratorStrategy<String> {
        let bounds = Regex::new(r"\(\?:\^\|\[\^[^\]]*\]\)|\(\?:\[\^[^\]]*\]\|\$\)").unwrap();
        let unbounded = rule.pattern.replace(r"\b", "");
        let pattern = bounds.replace_all(&unbounded, "");
        proptest::string::string_regex(&pattern).unwrap()
    }

    #[test]
    fn the_generators_of_tailed_rules_make_matches() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for rule in tailed() {
            let re = Regex::new(rule.pattern).unwrap();
            let hits = (0..100)
                .filter(|_| {
                    let text = matching(rule).new_tree(&mut runner).unwrap().current();
                    re.is_match(&format!(" {text} "))
                })
                .count();
            // Not vacuous: the property below sees real matches.
            assert!(hits >= 50, "{hits} of 100 for {:?}", rule.pattern);
        }
    }

    proptest! {
        /// A text a tailed rule's regex matches always has one of its tails.
        #[test]
        fn a_match_of_a_tailed_rule_always_has_its_tail(
            key in prop::sample::select(
                tailed().map(|r| r.pattern).collect::<Vec<_>>()
            ).prop_flat_map(|p| matching(RULES.iter().find(|r| r.pattern == p).unwrap())),
            before in "\\PC{0,6}",
            after in "\\PC{0,6}",
        ) {
            let text = format!("{before} {key} {after}");
            let m = matchers();
            for (rule, re) in RULES.iter().zip(&m.regexes).filter(|(r, _)| !r.tails.is_empty()) {
                if re.get_or_init(|| compile(rule)).is_match(&text) {
                    prop_assert!(has_shape(rule, &text), "{:?}", text);
                }
            }
        }
    }

    #[test]
    fn prefilter_skips_anchorless_text() {
        assert!(detect("nothing to see here, move along").is_empty());
    }
}
