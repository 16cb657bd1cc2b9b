//! Credential detection and redaction: finds credentials in a text and replaces
//! each one with `[redacted:<kind>]`.
//!
//! How it stays cheap: every rule names the literal anchors it cannot match
//! without (`AKIA`, `ghp_`, `-----BEGIN`, `password`, `://`, ...). One
//! case-insensitive Aho-Corasick pass over the text finds which anchors occur;
//! only the rules they enable run, and a text with no anchor at all is returned
//! borrowed without running any regex. All matchers are built once.
//!
//! How it stays safe: overlapping findings are merged into one span (earliest
//! start, then longest), so a credential is never half redacted; values that are
//! already `[redacted:...]` are left alone, and the output is re-checked until
//! nothing in it is flagged, so redaction is idempotent.
//!
//! How it stays quiet on prose and code: `key = value` rules need a `=`/`:`
//! right after the key (or a code span: ``password `x` ``), and skip values that
//! are obviously not secrets: placeholders (`${VAR}`, `<your-password>`,
//! `{{ template }}`, `****`), words such as `none`/`true`/`required`, file paths
//! (`PWD=/home/me`), unquoted code references (`getpass()`, `config.password`,
//! `&str`, `DB_PASSWORD`), and a single unquoted word followed by more words on
//! the line (`password: see the vault entry`). Quoted literals are always
//! redacted: `"hunter2"` in code is a secret whatever surrounds it.

use std::borrow::Cow;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use regex::{Captures, Regex};
use serde::Serialize;

use crate::CredentialKind;

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

/// Replaces each span with its marker; also returns where each marker landed.
fn apply(text: &str, spans: &[Span]) -> (String, Vec<(usize, usize)>) {
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
fn settled_spans(text: &str) -> Vec<Span> {
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
struct Span {
    start: usize,
    end: usize,
    kind: CredentialKind,
}

/// How a regex match becomes a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The first participating capture group (or the whole match) as is.
    Plain,
    /// The value of a `key = value` assignment ([`value!`] groups): skip
    /// placeholders and prose.
    Assignment,
    /// A code span after a key: skip placeholders and variable names
    /// (``the token `NPM_TOKEN` ``). Not used for `secret`, because ``secret `x` ``
    /// nearly always names a secret in a manager rather than giving its value.
    Quoted,
    /// A bare bearer token: only when it looks random.
    RandomLooking,
    /// A PEM BEGIN line: extend to the matching END line, or to the end of the text.
    PemBlock,
}

/// One detector.
#[derive(Debug)]
struct Rule {
    kind: CredentialKind,
    /// Literals (matched ignoring ASCII case) of which at least one occurs in
    /// every text the pattern can match.
    anchors: &'static [&'static str],
    pattern: &'static str,
    check: Check,
}

/// The value of an assignment: double-, single- or backtick-quoted (groups 1–3),
/// or one unquoted run of characters other than spaces and backticks (group 4;
/// a backtick ends it so that `` `password=x` `` keeps its closing backtick).
macro_rules! value {
    () => {
        r#"(?:"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)'|`([^`\r\n]*)`|([^\s`]+))"#
    };
}

/// `<key><separator><value>`: the key, optionally quoted or in markdown bold, then
/// `=`, `:`, `:=`, `=>`, `==` or `===` on the same line, then [`value!`].
macro_rules! assignment {
    ($keys:literal) => {
        concat!(
            "(?i)(?:",
            $keys,
            r#")(?:\*\*|__)?["'`]?(?:\*\*|__)?[ \t]*(?:=>|:=|===|==|=|:)[ \t]*(?:\*\*|__)?[ \t]*"#,
            value!()
        )
    };
}

/// A key followed by a markdown code span, as notes write it: ``password `x` ``,
/// ``the token is `x` ``.
macro_rules! code_span_after {
    ($keys:literal) => {
        concat!(
            "(?i)(?:",
            $keys,
            r")[ \t]+(?:(?:is|was)[ \t]+)?`([^`\r\n]+)`"
        )
    };
}

/// A command-line flag followed by its value (`--password hunter2`).
macro_rules! cli_flag {
    ($flags:literal) => {
        concat!("(?i)--(?:", $flags, ")[ \t]+", value!())
    };
}

const RULES: &[Rule] = &[
    Rule {
        kind: CredentialKind::AwsAccessKey,
        anchors: &[
            "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA", "A3T",
        ],
        pattern: r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::AwsSecretKey,
        anchors: &["secret"],
        pattern: r#"(?i)aws[ _-]?secret[ _-]?(?:access[ _-]?)?key["'`]?[ \t]*(?:=>|:=|=|:)[ \t]*["'`]?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::GithubToken,
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        pattern: r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,}",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::GitlabToken,
        anchors: &["glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-"],
        pattern: r"gl(?:pat|dt|rt|ptt|ft|soat)-[A-Za-z0-9_-]{20,}",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::SlackToken,
        anchors: &["xox", "xapp-"],
        pattern: r"xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[0-9]+-[A-Za-z0-9-]{10,}",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::SlackToken,
        anchors: &["hooks.slack.com/"],
        pattern: r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_+-]+)",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::PrivateKey,
        anchors: &["-----BEGIN "],
        pattern: r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----",
        check: Check::PemBlock,
    },
    Rule {
        kind: CredentialKind::Jwt,
        anchors: &["eyJ"],
        pattern: r"eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::UrlPassword,
        anchors: &["://"],
        pattern: r"://[^\s:/@?#\[\]]*:([^\s/?#]+)@",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pin", "puk"],
        pattern: assignment!(
            r"passwd|password|passphrase|pwd|\bpass|[_.-]pass|(?-i:[a-z0-9]Pass)|\bpin|\bpuk"
        ),
        check: Check::Assignment,
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass"],
        pattern: code_span_after!(r"password|passwd|passphrase"),
        check: Check::Quoted,
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["--pass"],
        pattern: cli_flag!("password|passwd|pass"),
        check: Check::Assignment,
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["api_key", "api-key", "api key", "apikey", "token"],
        pattern: assignment!(
            r"api[ _-]?key|api[ _-]?token|access[ _-]?token|auth[ _-]?token|refresh[ _-]?token|private[ _-]?token|\btoken|[_.-]token|(?-i:[a-z0-9]Token)"
        ),
        check: Check::Assignment,
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["api_key", "api-key", "api key", "apikey", "token"],
        pattern: code_span_after!(r"api[ _-]?key|\btoken"),
        check: Check::Quoted,
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["--api", "--token", "--access-token", "--auth-token"],
        pattern: cli_flag!("api[_-]?key|token|access-token|auth-token"),
        check: Check::Assignment,
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &[
            "sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk-", "AIza", "npm_", "pypi-",
            "sk.eyJ",
        ],
        pattern: r"\b(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|sk-(?:proj|ant|svcacct|admin)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{32,}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_-]{16,}|sk\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)",
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::BearerToken,
        anchors: &["authorization"],
        pattern: r#"(?i)\b(?:proxy-)?authorization["'`]?[ \t]*[:=][ \t]*["'`]?(?:bearer|basic|token|bot|apikey)[ \t]+([A-Za-z0-9._~+/=-]*[A-Za-z0-9][A-Za-z0-9._~+/=-]*)"#,
        check: Check::Plain,
    },
    Rule {
        kind: CredentialKind::BearerToken,
        anchors: &["bearer"],
        pattern: r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)",
        check: Check::RandomLooking,
    },
    Rule {
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &[
            "secret",
            "credential",
            "privatekey",
            "private_key",
            "private-key",
            "signingkey",
            "signing_key",
            "signing-key",
            "encryptionkey",
            "encryption_key",
            "encryption-key",
            "masterkey",
            "master_key",
            "master-key",
        ],
        pattern: assignment!(
            r"secret(?:[ _-]?(?:access[ _-]?)?key|[ _-]?token)?|credentials?|private[_-]?key|(?:signing|encryption|master)[_-]?key|(?-i:(?:private|signing|encryption|master)Key)"
        ),
        check: Check::Assignment,
    },
];

/// The compiled rules and their prefilter.
#[derive(Debug)]
struct Matchers {
    /// All anchors of all rules, deduplicated, matched ignoring ASCII case.
    prefilter: AhoCorasick,
    /// For each prefilter pattern, the rules it enables (bit `i` is `RULES[i]`).
    enables: Vec<u64>,
    /// `RULES[i].pattern`, compiled the first time the prefilter enables the rule
    /// (compiling them all costs milliseconds, and most texts enable none).
    regexes: Vec<OnceLock<Regex>>,
}

fn matchers() -> &'static Matchers {
    static MATCHERS: OnceLock<Matchers> = OnceLock::new();
    MATCHERS.get_or_init(|| {
        const _: () = assert!(RULES.len() <= 64, "rule masks are u64");
        let mut anchors: Vec<&'static str> = Vec::new();
        let mut enables: Vec<u64> = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            for &anchor in rule.anchors {
                let at = match anchors.iter().position(|a| a.eq_ignore_ascii_case(anchor)) {
                    Some(at) => at,
                    None => {
                        anchors.push(anchor);
                        enables.push(0);
                        anchors.len() - 1
                    }
                };
                enables[at] |= 1 << i;
            }
        }
        let prefilter = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&anchors)
            .expect("the static anchors build an automaton");
        let regexes = RULES.iter().map(|_| OnceLock::new()).collect();
        Matchers {
            prefilter,
            enables,
            regexes,
        }
    })
}

fn compile(rule: &Rule) -> Regex {
    Regex::new(rule.pattern).expect("the static rule patterns compile")
}

/// All spans to redact in `text`, merged and sorted.
fn detect(text: &str) -> Vec<Span> {
    let m = matchers();
    let all = if RULES.len() == 64 {
        u64::MAX
    } else {
        (1u64 << RULES.len()) - 1
    };
    let mut enabled = 0u64;
    for hit in m.prefilter.find_overlapping_iter(text) {
        enabled |= m.enables[hit.pattern().as_usize()];
        if enabled == all {
            break;
        }
    }
    if enabled == 0 {
        return Vec::new();
    }

    let mut spans = Vec::new();
    for (i, (rule, re)) in RULES.iter().zip(&m.regexes).enumerate() {
        if enabled & (1 << i) == 0 {
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
        // Not `captures_iter`: after a rejected match (a placeholder, prose) the
        // search resumes at its value, so `--token --token x` still finds `x`.
        let mut at = 0;
        while let Some(caps) = re.captures_at(text, at) {
            let Some(whole) = caps.get(0) else { break };
            let next = match to_span(text, rule, &caps) {
                Some(span) => {
                    spans.push(span);
                    whole.end()
                }
                None => (1..caps.len())
                    .find_map(|g| caps.get(g))
                    .map_or(whole.start(), |v| v.start()),
            };
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

/// Turns one match into a span, or `None` when the rule's check rejects it.
fn to_span(text: &str, rule: &Rule, caps: &Captures<'_>) -> Option<Span> {
    let whole = caps.get(0)?;
    // The first participating group is the secret; without groups, the whole match.
    let (group, value) = (1..caps.len())
        .find_map(|g| caps.get(g).map(|v| (g, v)))
        .unwrap_or((0, whole));
    let mut end = value.end();
    match rule.check {
        Check::Plain => {}
        Check::Assignment | Check::Quoted => {
            let unquoted = rule.check == Check::Assignment && group == caps.len() - 1;
            // A query parameter (`?token=abc&x=1)`) ends where the URL syntax resumes.
            if unquoted
                && text[..whole.start()].ends_with(['?', '&'])
                && let Some(cut) = value.as_str().find(['&', '#', ')', '>', '"', '\''])
            {
                end = value.start() + cut;
            }
            let rest = text[whole.end()..].split('\n').next().unwrap_or("");
            let value_text = &text[value.start()..end];
            // `a == b` compares with a literal only when the literal is quoted.
            let comparison = text[whole.start()..value.start()].contains("==");
            if is_benign_value(value_text, unquoted, rest)
                || (unquoted && comparison)
                || (rule.check == Check::Quoted
                    && (is_constant_name(value_text) || is_code(value_text)))
            {
                return None;
            }
        }
        Check::RandomLooking => {
            if !looks_random(value.as_str()) {
                return None;
            }
        }
        Check::PemBlock => {
            let end_line = format!("-----END {}-----", value.as_str());
            end = match text[whole.end()..].find(&end_line) {
                Some(at) => whole.end() + at + end_line.len(),
                None => text.len(),
            };
            return Some(Span {
                start: whole.start(),
                end,
                kind: rule.kind,
            });
        }
    }
    if value.start() == end || is_markers(value.as_str()) {
        return None;
    }
    Some(Span {
        start: value.start(),
        end,
        kind: rule.kind,
    })
}

/// Sorts spans (earliest start, then longest, then the more specific kind) and
/// merges overlapping ones into the first, so nothing is redacted twice and no
/// credential is cut in half.
fn merge(mut spans: Vec<Span>) -> Vec<Span> {
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

/// Whether `value` is nothing but one or more `[redacted:<kind>]` markers.
fn is_markers(value: &str) -> bool {
    let mut rest = value;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix(REDACTION_PREFIX) else {
            return false;
        };
        let name_len = after
            .bytes()
            .take_while(|b| b.is_ascii_lowercase() || *b == b'-')
            .count();
        let Some(next) = after[name_len..].strip_prefix(']') else {
            return false;
        };
        if name_len == 0 {
            return false;
        }
        rest = next;
    }
    true
}

/// Values of a `key = value` assignment that are obviously not secrets.
const NOT_SECRET_WORDS: &[&str] = &[
    "true", "false", "null", "none", "nil", "some", "yes", "no", "on", "off", "required",
    "optional", "empty", "unset", "n/a", "na", "tbd", "todo", "redacted", "hidden", "masked",
    "omitted",
];

/// Whether an assignment's value is a placeholder, a reference or prose rather
/// than a secret. `rest` is the remainder of the line after the value.
fn is_benign_value(value: &str, unquoted: bool, rest: &str) -> bool {
    if value.is_empty() || is_markers(value) {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    if NOT_SECRET_WORDS.contains(&trim_code_punctuation(&lower)) {
        return true;
    }
    // Punctuation only (`'Password: ',`, `token == '('`): syntax, not a secret.
    if value.len() < 4 && !value.chars().any(char::is_alphanumeric) {
        return true;
    }
    // Masks: `****`, `xxxx`, `...`, `-`.
    if value
        .chars()
        .all(|c| matches!(c, '*' | '•' | '…' | 'x' | 'X' | '.' | '#' | '-' | '_'))
    {
        return true;
    }
    // References to where the secret lives: `$VAR`, `${VAR}`, `%VAR%`, templates.
    if is_env_reference(value)
        || ["{{", "{%", "<%", "${{", "$("]
            .iter()
            .any(|p| value.starts_with(p))
        || starts_with_placeholder(value)
        || (unquoted && value.starts_with("--"))
    {
        return true;
    }
    if looks_like_path(value) || (unquoted && is_code(value)) {
        return true;
    }
    // Prose: one unquoted word followed by more words (`password: see the vault`,
    // `passphrase: see 1Password`).
    unquoted && is_word(value) && {
        let after = rest.trim_start_matches([' ', '\t']);
        after.len() < rest.len() && after.starts_with(|c: char| c.is_ascii_alphanumeric())
    }
}

/// Type names that follow a key in code (`password: String,`, `token: u32`).
const TYPE_NAMES: &[&str] = &[
    "string",
    "str",
    "bytes",
    "secretstring",
    "secretbox",
    "number",
    "bool",
    "boolean",
    "int",
    "integer",
    "text",
    "varchar",
    "char",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "c_char",
    "c_int",
    "c_long",
    "c_void",
];

/// Names of the objects a dotted code reference usually starts from
/// (`config.password`, `self.token`).
const OBJECT_NAMES: &[&str] = &[
    "self", "this", "config", "cfg", "conf", "settings", "env", "process", "os", "ctx", "context",
    "opts", "options", "args", "params", "req", "request", "secrets", "vars", "inputs", "app",
    "state", "props", "node",
];

/// Whether an unquoted value is code rather than a literal: a path (`::`), a
/// reference (`&str`), a call or index (`getpass()`, `os.environ["PW"]`,
/// `Token(0);`), a generic type (`Option<String>`) or a type name (`String,`).
/// A literal secret in code is quoted, and quoted values are always redacted.
fn is_code(value: &str) -> bool {
    if value.starts_with([':', '{']) || value.contains("::") {
        return true;
    }
    // An array type: `[u8; 32]`.
    if let Some(inner) = value.strip_prefix('[') {
        let elem = inner.split([';', ']']).next().unwrap_or("");
        if TYPE_NAMES.contains(&elem.to_ascii_lowercase().as_str()) {
            return true;
        }
    }
    let bare = trim_code_punctuation(value);
    if value.starts_with("*mut") || value.starts_with("*const") || is_constant_name(bare) {
        return true;
    }
    // A reference: `&str`, `&[u8]`, `&'a str`, `&mut x`.
    if value.strip_prefix('&').is_some_and(|v| {
        v.starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '[' | '\''))
    }) {
        return true;
    }
    let ident_len = value
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.'))
        .count();
    let starts_ident = value.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    let after = &value.as_bytes()[ident_len..];
    let call = matches!(after.first(), Some(b'(' | b'[' | b'<'))
        || (after.first() == Some(&b'!') && matches!(after.get(1), Some(b'(' | b'[' | b'{')));
    if starts_ident && call {
        return true;
    }
    if TYPE_NAMES.contains(&bare.to_ascii_lowercase().as_str()) {
        return true;
    }
    // A lowercase dotted path: code when it ends like code or starts from a
    // well-known object (`node.semi_token,`, `config.db.password`).
    let mut segments = bare.split('.');
    let first = segments.next().unwrap_or("");
    let snake = |seg: &str| {
        seg.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && seg
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    };
    let rest: Vec<&str> = segments.collect();
    !rest.is_empty()
        && snake(first)
        && rest.iter().all(|seg| snake(seg) || is_constant_name(seg))
        && (bare.len() < value.len() || OBJECT_NAMES.contains(&first))
}

/// `value` without the punctuation code puts after it (`None):` → `None`).
fn trim_code_punctuation(value: &str) -> &str {
    value.trim_end_matches([',', ';', ')', ':', '>'])
}

/// `/home/me/project`, `~/.ssh/id_ed25519`, `./secrets/db`: where something is
/// (`PWD=/home/me`, `private_key: ~/.ssh/id_rsa`), not a secret. Every segment
/// must read like a file name (lowercase, optionally capitalised), so base64 that
/// happens to start with `/` is still redacted.
fn looks_like_path(value: &str) -> bool {
    let Some(rest) = ["/", "~/", "./", "../"]
        .iter()
        .find_map(|p| value.strip_prefix(p))
    else {
        return false;
    };
    let mut segments = rest.split('/').filter(|s| !s.is_empty()).peekable();
    segments.peek().is_some()
        && segments.all(|seg| {
            let tail = seg
                .strip_prefix(|c: char| c.is_ascii_uppercase())
                .unwrap_or(seg);
            tail.bytes().all(|b| {
                b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-')
            })
        })
}

/// `<your-password>`, `<topic>-<partition>`: a value that opens with a `<name>`.
fn starts_with_placeholder(value: &str) -> bool {
    value
        .strip_prefix('<')
        .and_then(|v| v.split_once('>'))
        .is_some_and(|(name, _)| {
            name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'_' | b'-' | b'.'))
        })
}

/// `$NAME`, `${NAME}` or `%NAME%`.
fn is_env_reference(value: &str) -> bool {
    fn is_name(s: &str) -> bool {
        !s.is_empty()
            && !s.starts_with(|c: char| c.is_ascii_digit())
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }
    if let Some(braced) = value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
        return is_name(braced);
    }
    if let Some(name) = value.strip_prefix('$') {
        return is_name(name);
    }
    value.len() > 2
        && value.starts_with('%')
        && value.ends_with('%')
        && is_name(&value[1..value.len() - 1])
}

/// An `UPPER_SNAKE_CASE` name with at least one underscore: a variable, not a
/// value (`password: DB_PASSWORD`).
fn is_constant_name(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_uppercase())
        && value.contains('_')
        && value
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// An ASCII word, apostrophes allowed inside (`see`, `don't`).
fn is_word(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_alphabetic())
        && value.bytes().all(|b| b.is_ascii_alphabetic() || b == b'\'')
}

/// Whether a bare `Bearer` token looks machine-made (a digit, or mixed case)
/// rather than a long English word.
fn looks_random(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    let after_first = body.get(1..).unwrap_or("");
    body.bytes().any(|b| b.is_ascii_digit())
        || body
            .bytes()
            .any(|b| matches!(b, b'.' | b'_' | b'~' | b'+' | b'/'))
        || (after_first.bytes().any(|b| b.is_ascii_uppercase())
            && body.bytes().any(|b| b.is_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles_and_has_an_anchor() {
        let m = matchers();
        assert_eq!(m.regexes.len(), RULES.len());
        for rule in RULES {
            assert!(!rule.anchors.is_empty(), "{:?}", rule.pattern);
            assert!(Regex::new(rule.pattern).is_ok(), "{:?}", rule.pattern);
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

    #[test]
    fn prefilter_skips_anchorless_text() {
        assert!(detect("nothing to see here, move along").is_empty());
    }
}
