//! What is obviously not a secret: the heuristics that keep `key = value` rules
//! quiet on code, templates and prose. Each answers one question about a value
//! (or the line around it); when none applies, the value is a credential.
//!
//! The rule of thumb: a quoted literal is a secret unless it is a placeholder, a
//! reference or user-interface text; an unquoted value is a secret unless it is
//! a reference, code, a type, grammar or the first word of a sentence.

use crate::code_shapes::{
    is_code, is_command, is_grammar, is_type_annotation, trim_code_punctuation,
};
use crate::detect::REDACTION_PREFIX;

/// How a value is delimited in the text around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quote {
    /// Bare: code, a reference or a typed-in value.
    None,
    /// `"…"`.
    Double,
    /// `'…'`.
    Single,
    /// `` `…` ``: a literal in code, or a markdown code span.
    Backtick,
    /// `**…**` or `__…__` (markdown bold).
    Bold,
}

impl Quote {
    /// How the value at `start..end` of `text` is delimited.
    pub(crate) fn around(text: &str, start: usize, end: usize) -> Quote {
        let bytes = text.as_bytes();
        let before = start.checked_sub(1).and_then(|i| bytes.get(i));
        match (before, bytes.get(end)) {
            (Some(b'"'), Some(b'"')) => Quote::Double,
            (Some(b'\''), Some(b'\'')) => Quote::Single,
            (Some(b'`'), Some(b'`')) => Quote::Backtick,
            _ if (text[..start].ends_with("**") && text[end..].starts_with("**"))
                || (text[..start].ends_with("__") && text[end..].starts_with("__")) =>
            {
                Quote::Bold
            }
            _ => Quote::None,
        }
    }
}

/// Whether `value` is nothing but one or more `[redacted:<kind>]` markers.
pub(crate) fn is_markers(value: &str) -> bool {
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
    "true",
    "false",
    "null",
    "none",
    "nil",
    "some",
    "yes",
    "no",
    "on",
    "off",
    "required",
    "optional",
    "empty",
    "unset",
    "n/a",
    "na",
    "tbd",
    "todo",
    "redacted",
    "hidden",
    "masked",
    "omitted",
    "undefined",
    "read",
    "write",
    // fetch's `credentials:` option
    "include",
    "omit",
    "same-origin",
];

/// Whether an assignment's value is a placeholder, a reference, code or prose
/// rather than a secret. `rest` is the remainder of the line after the value.
pub(crate) fn is_benign_value(value: &str, quote: Quote, rest: &str) -> bool {
    if value.is_empty() || is_markers(value) {
        return true;
    }
    let unquoted = quote == Quote::None;
    let lower = value.to_ascii_lowercase();
    if NOT_SECRET_WORDS.contains(&trim_code_punctuation(&lower)) {
        return true;
    }
    // Punctuation only (`'Password: ',`, `token == '('`, `prompt("Password: ")?;`):
    // syntax, not a secret. Quoted, only when short.
    if (unquoted || value.len() < 4) && !value.chars().any(char::is_alphanumeric) {
        return true;
    }
    if is_mask(trim_code_punctuation(value)) {
        return true;
    }
    // References to where the secret lives: `$VAR`, `${VAR}`, `${env.X}`,
    // `%VAR%`, templates, command substitutions.
    if is_env_reference(value)
        || ["{{", "{%", "<%", "${", "$("]
            .iter()
            .any(|p| value.starts_with(p))
        || starts_with_placeholder(value)
        || (unquoted && value.starts_with("--"))
    {
        return true;
    }
    if looks_like_path(value)
        || is_placeholder(&lower)
        || is_credential_name(value)
        || (unquoted && (is_code(value) || is_code(value.strip_prefix('$').unwrap_or(""))))
    {
        return true;
    }
    // `token:/etc/ledger/token` (systemd `LoadCredential=`): a name and a file.
    if unquoted
        && let Some((name, path)) = value.split_once(':')
        && is_word(name)
        && looks_like_path(trim_code_punctuation(path))
    {
        return true;
    }
    match quote {
        Quote::Backtick => return is_command(value) || is_flag(value),
        Quote::Double | Quote::Single | Quote::Bold => return is_ui_text(value),
        Quote::None => {}
    }
    // An operand of a comparison or a logical operator: `pass = a.id === b.id`.
    let next = rest.trim_start();
    if ["===", "==", "!==", "!=", "&&", "||", "<=", ">="]
        .iter()
        .any(|op| next.starts_with(op))
    {
        return true;
    }
    is_type_annotation(value, rest)
        || is_grammar(value)
        || is_version(value)
        || is_date(value)
        || is_variable_name(value)
        || UI_LABELS.contains(&value)
        || value.ends_with("\":")
        || value.ends_with("':")
        || starts_a_sentence(value, rest)
}

/// A name made of words, as code and API docs name types and members
/// (`retry`, `PrefetchOptions`, `createReducer`,
/// `ActionReducerMapBuilder.addCase`, `Options.unstable__sideEffects`): parts
/// between dots and underscores, each words in camel or Pascal case, letters
/// only, at most ten words of three and a half letters on average (a random
/// key of letters alone changes case every other letter); one word only in
/// lower case, of at most twelve letters.
pub(crate) fn is_identifier_words(value: &str) -> bool {
    let mut words = 0usize;
    let mut letters = 0usize;
    for part in value.split(['.', '_']).filter(|p| !p.is_empty()) {
        for (i, c) in part.chars().enumerate() {
            if !c.is_ascii_alphabetic() {
                return false;
            }
            if i == 0 || c.is_ascii_uppercase() {
                words += 1;
            }
            letters += 1;
        }
    }
    match words {
        0 => false,
        1 => letters <= 12 && value.bytes().all(|b| b.is_ascii_lowercase()),
        _ => words <= 10 && letters * 2 >= words * 7,
    }
}

/// Words that name a credential; an identifier made with one is a variable.
const CREDENTIAL_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "token",
    "secret",
    "apikey",
    "api_key",
    "api-key",
    "credential",
];

/// An identifier that names a credential instead of being one: `token` in
/// `self.token = token`, `db_password`, `dbPassword`, `db-credentials`.
pub(crate) fn is_variable_name(value: &str) -> bool {
    let bare = trim_code_punctuation(value);
    let ident = bare.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && bare
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
    let lower = bare.to_ascii_lowercase();
    ident && CREDENTIAL_WORDS.iter().any(|w| lower.contains(w))
}

/// A name made of words, one of which names a credential (`app_password`,
/// `db-credentials`, `RANDOM_PASSWORD`): quoted, still a name
/// (`:'app_password'` in psql, a key in a secret store, a placeholder in
/// capitals), never digits or mixed case.
fn is_credential_name(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let one_case = value.bytes().all(|b| !b.is_ascii_uppercase())
        || value.bytes().all(|b| !b.is_ascii_lowercase());
    let segments: Vec<&str> = lower.split(['_', '-']).collect();
    one_case
        && segments.len() >= 2
        && segments
            .iter()
            .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase()))
        && segments
            .iter()
            .any(|s| CREDENTIAL_WORDS.contains(s) || *s == "credentials")
}

/// A date or a month: `2026-01`, `2026-01-03`.
fn is_date(value: &str) -> bool {
    let v = trim_code_punctuation(value).as_bytes();
    let digits =
        |r: std::ops::Range<usize>| v.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    (v.len() == 7 || v.len() == 10)
        && digits(0..4)
        && v[4] == b'-'
        && digits(5..7)
        && (v.len() == 7 || (v[7] == b'-' && digits(8..10)))
}

/// Text that asks for a value instead of giving one (`your-api-key-here`,
/// `changeme`, `<placeholder>`); `lower` is the value in ASCII lowercase.
fn is_placeholder(lower: &str) -> bool {
    let your = lower
        .strip_prefix("your")
        .is_some_and(|r| r.starts_with(['-', '_', ' ', '.']));
    your || is_documented_shape(lower)
        || lower.contains("...")
        || lower.contains('…')
        || lower.ends_with("-here")
        || lower.ends_with("_here")
        || lower.ends_with(" here")
        || [
            "placeholder",
            "changeme",
            "change-me",
            "change_me",
            "replaceme",
            "replace-me",
            "replace_me",
        ]
        .iter()
        .any(|p| lower.contains(p))
}

/// A token after its scheme that stands for one: cut short after a prefix
/// (`sk-...`, `eyJ…`: fewer than 16 characters before the dots, where a real
/// token has more, so `9f2c…e4a1...` with its 32 characters stays a token) or
/// asked for (`YOUR_TOKEN`, `<token>`-like words, `xxxx…`).
pub(crate) fn is_token_placeholder(token: &str) -> bool {
    let cut = [token.find("..."), token.find('…')]
        .into_iter()
        .flatten()
        .min();
    match cut {
        Some(at) => at < 16,
        None => is_placeholder(&token.to_ascii_lowercase()),
    }
}

/// `sk_live_xxxxxxxx…`, `AKIAXXXXXXXXXXXXXXXX`, `hf_xxxx…`: a key's documented
/// shape, mostly `x`, not a key.
pub(crate) fn is_documented_shape(token: &str) -> bool {
    let xs = token.bytes().filter(|b| matches!(b, b'x' | b'X')).count();
    xs >= 8 && xs * 2 >= token.len()
}

/// A version (`1.0.188`, `v2.3`, `^1.2`, `=0.14.7`): a pinned dependency, not a PIN.
pub(crate) fn is_version(value: &str) -> bool {
    let v = value.trim_start_matches(['v', 'V', '^', '~', '=', '>', '<']);
    v.contains('.')
        && v.starts_with(|c: char| c.is_ascii_digit())
        && !v.ends_with('.')
        && v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// A command-line flag in a code span (`` `--password-stdin` ``).
fn is_flag(value: &str) -> bool {
    value.strip_prefix('-').is_some_and(|f| {
        f.starts_with(|c: char| c.is_ascii_alphabetic() || c == '-')
            && f.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'='))
    })
}

/// One unquoted word followed by more words (`password: see the vault`,
/// `passphrase: see 1Password`), or by grammar (`credentials = auth-scheme [ …`).
fn starts_a_sentence(value: &str, rest: &str) -> bool {
    if !is_word(value) {
        return false;
    }
    let after = rest.trim_start_matches([' ', '\t']);
    after.len() < rest.len()
        && (after.starts_with(|c: char| c.is_alphanumeric())
            || after.starts_with(['[', '/', '*', '|', '"']))
}

/// `/home/me/project`, `~/.ssh/id_ed25519`, `./secrets/db`: where something is
/// (`PWD=/home/me`, `private_key: ~/.ssh/id_rsa`), not a secret. Every segment
/// must read like a file name (lowercase, optionally capitalised), so base64 that
/// happens to start with `/` is still redacted.
fn looks_like_path(value: &str) -> bool {
    let value = value.trim_end_matches(['\'', '"', ')', ',', ';']);
    // `secret/data/become:password`: a store path, all lowercase, two slashes or more.
    let relative = value.matches('/').count() >= 2
        && value.starts_with(|c: char| c.is_ascii_lowercase())
        && value.bytes().all(|b| {
            b.is_ascii_lowercase()
                || b.is_ascii_digit()
                || matches!(b, b'/' | b'.' | b'_' | b'-' | b':')
        });
    if relative {
        return true;
    }
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

/// A mask in place of a secret: `****`, `xxxx`, `...`, `-`.
pub(crate) fn is_mask(value: &str) -> bool {
    value
        .chars()
        .all(|c| matches!(c, '*' | '•' | '…' | 'x' | 'X' | '.' | '#' | '-' | '_'))
}

/// `$NAME`, `${NAME}` or `%NAME%`. A bare `$` before upper and lower case
/// letters and digits (`$ctQUy1xvCkga`) is a password that starts with `$`,
/// not a name (`$DB_PASSWORD`, `$dbPass`, `$pgpass2`).
pub(crate) fn is_env_reference(value: &str) -> bool {
    fn is_name(s: &str) -> bool {
        !s.is_empty()
            && !s.starts_with(|c: char| c.is_ascii_digit())
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }
    if let Some(braced) = value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
        return is_name(braced);
    }
    if let Some(name) = value.strip_prefix('$') {
        let name = name.trim_end_matches([',', ';', ')', '"', '\'']);
        let random = name.bytes().any(|b| b.is_ascii_uppercase())
            && name.bytes().any(|b| b.is_ascii_lowercase())
            && name.bytes().any(|b| b.is_ascii_digit());
        return is_name(name) && !random;
    }
    value.len() > 2
        && value.starts_with('%')
        && value.ends_with('%')
        && is_name(&value[1..value.len() - 1])
}

/// An `UPPER_SNAKE_CASE` name with at least one underscore: a variable, not a
/// value (`password: DB_PASSWORD`).
pub(crate) fn is_constant_name(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_uppercase())
        && value.contains('_')
        && value
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// An ASCII word, apostrophes and inner hyphens allowed (`see`, `don't`,
/// `auth-scheme`).
pub(crate) fn is_word(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_alphabetic())
        && !value.ends_with('-')
        && value
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'\'' || b == b'-')
}

/// Whether a bare `Bearer` token looks machine-made (a digit, or mixed case)
/// rather than a long English word.
pub(crate) fn looks_random(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    let after_first = body.get(1..).unwrap_or("");
    body.bytes().any(|b| b.is_ascii_digit())
        || body
            .bytes()
            .any(|b| matches!(b, b'.' | b'_' | b'~' | b'+' | b'/'))
        || (after_first.bytes().any(|b| b.is_ascii_uppercase())
            && body.bytes().any(|b| b.is_ascii_lowercase()))
}

/// Passwords that devices, images and distributions ship with, plain words
/// all (`root:toor` on Kali, `pi:raspberry`, `root:calvin` on Dell iDRAC,
/// `scott:tiger`, `vagrant:vagrant`): written beside a user after a word for
/// credentials, they are the credential, though no password looks less typed.
/// Not words that name roles or places as well (`admin`, `root`, `default`:
/// `role:admin`, `namespace:default`); a default repeating its user
/// (`admin:admin`) is caught as such.
const KNOWN_DEFAULT_PASSWORDS: &[&str] = &[
    "alpine",
    "calvin",
    "changeme",
    "cisco",
    "dietpi",
    "kali",
    "letmein",
    "pfsense",
    "qwerty",
    "raspberry",
    "tiger",
    "toor",
    "ubnt",
    "vagrant",
    "welcome",
];

/// Whether `value` is a password devices and images ship with
/// ([`KNOWN_DEFAULT_PASSWORDS`], any case).
pub(crate) fn is_known_default_password(value: &str) -> bool {
    KNOWN_DEFAULT_PASSWORDS
        .iter()
        .any(|p| value.eq_ignore_ascii_case(p))
}

/// Whether a bare word stated in a sentence (`the password is X`) looks typed
/// or generated rather than like English: four or more digits (a PIN), or six
/// or more characters with a digit, a symbol or several lowercase-to-uppercase
/// steps.
pub(crate) fn looks_typed(value: &str) -> bool {
    let v = value.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
    if v.len() >= 4 && v.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    if v.chars().count() < 6 {
        return false;
    }
    // A version or a size, not a secret: `1.2.3`, `v2.0`, `12px`.
    let unversioned = v.strip_prefix(['v', 'V']).unwrap_or(v);
    if unversioned.starts_with(|c: char| c.is_ascii_digit())
        && unversioned.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return false;
    }
    let digit = v.bytes().any(|b| b.is_ascii_digit());
    let symbol = v.bytes().any(|b| b"!@#$%^&*+=~?".contains(&b));
    // Case steps: `xKqTzWpL` has many, `HttpOnly` and `PostgreSQL` one.
    let steps = v
        .as_bytes()
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
    digit || symbol || steps >= 3
}

/// Whether a value written right after its key, with nothing between
/// (`password Kq7vZ3mXp9`), is one no sentence has there: eight characters or
/// more (a final `.` or `)` aside), a letter and a digit, and a symbol or
/// both cases with four changes or more between lower case, upper case and
/// digits (`Xk9fakePw2`). `SHA256`, `v2.0.1`, `bcrypt2`, `Argon2id` and
/// `base64Encoded` are words of a sentence about passwords.
pub(crate) fn looks_generated(value: &str) -> bool {
    let v = value.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
    let has = |f: fn(&u8) -> bool| v.as_bytes().iter().any(f);
    let class = |b: u8| {
        if b.is_ascii_lowercase() {
            1
        } else if b.is_ascii_uppercase() {
            2
        } else if b.is_ascii_digit() {
            3
        } else {
            0
        }
    };
    let changes = v
        .as_bytes()
        .windows(2)
        .filter(|w| class(w[0]) != 0 && class(w[1]) != 0 && class(w[0]) != class(w[1]))
        .count();
    let mixed = has(u8::is_ascii_lowercase) && has(u8::is_ascii_uppercase) && changes >= 4;
    v.chars().count() >= 8
        && has(u8::is_ascii_digit)
        && has(u8::is_ascii_alphabetic)
        && (mixed || has(|b| b"!@#$%^&*+=~?".contains(b)))
        && !is_version(v)
        && !is_date(v)
}

/// Function words of the languages notes are written in: a phrase that has one
/// is a sentence, not a passphrase.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "to", "of", "in", "on", "at", "by", "for", "from",
    "with", "without", "as", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that",
    "these", "those", "see", "use", "used", "ask", "stored", "kept", "lives", "into", "via", "per",
    "not", "no", "never", "must", "should", "can", "will", "may", "your", "our", "my", "their",
    "you", "we", "they", "if", "when", "then", "than", "same", "get", "enter", "please", "only",
    "also", "each", "every", "any", "all", "here", "there", "where", "what", "which", "how",
    "after", "before", "until", "since", "do", "does", "don't", "der", "die", "das", "und", "ist",
    "ihr", "ihre", "sie", "le", "la", "les", "est", "de", "du", "votre", "vous", "el", "es", "su",
    "tu", "y", "o", "je", "uw", "het", "een",
];

/// Labels that name a credential in a user interface (`"password": "Password"`).
const UI_LABELS: &[&str] = &[
    "Password",
    "Passwort",
    "Kennwort",
    "Contraseña",
    "Senha",
    "Wachtwoord",
    "Lösenord",
    "Passphrase",
    "Token",
    "Secret",
    "PIN",
    "Mot de passe",
    "API key",
    "API Key",
];

/// Whether a quoted value is user-interface text rather than a secret: a label
/// (`"Password"`), or a phrase that reads as a sentence (`"Enter your
/// password"`, `"Forgot password?"`). `"correct horse battery staple"` is not.
fn is_ui_text(value: &str) -> bool {
    let trimmed = value.trim();
    if UI_LABELS.contains(&trimmed) {
        return true;
    }
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    if words.len() < 2 {
        return false;
    }
    trimmed.ends_with(['?', ':', '…'])
        || words.iter().any(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase();
            STOPWORDS.contains(&w.as_str())
        })
}

/// The longest line read as a passphrase: eight words of twenty-odd letters.
const MAX_PASSPHRASE_BYTES: usize = 200;

/// The byte length of a passphrase at the start of `line` (`correct horse
/// battery staple`): `min_words` to eight lowercase words, nothing else on the
/// line, no function word. `None` when the line is a sentence.
pub(crate) fn passphrase_len(line: &str, min_words: usize) -> Option<usize> {
    let phrase = line.trim_end();
    // Eight words are short: a longer line is a sentence (and a paragraph read
    // as one line, as a markdown view reads it, is not split whole for every
    // match in it: that made a long note's reading quadratic).
    if phrase.len() > MAX_PASSPHRASE_BYTES {
        return None;
    }
    let words: Vec<&str> = phrase.split([' ', '-']).collect();
    let ok = (min_words..=8).contains(&words.len())
        && words.iter().all(|w| {
            w.len() >= 2 && w.bytes().all(|b| b.is_ascii_lowercase()) && !STOPWORDS.contains(w)
        });
    ok.then_some(phrase.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code_shapes::is_macro_fragment;

    fn check(f: fn(&str) -> bool, cases: &[(&str, bool)]) {
        for &(input, expect) in cases {
            assert_eq!(f(input), expect, "{input:?}");
        }
    }

    #[test]
    fn generated_values() {
        check(
            looks_generated,
            &[
                ("Kq7vZ3mXp9", true),
                ("Xk9fakePw2", true),
                ("P@ssw0rd!", true),
                ("Kq7vZ3mXp9.", true),
                ("SHA256", false),
                ("Argon2id", false),
                ("base64Encoded", false),
                ("sha256Hex", false),
                ("hunter22", false),
                ("v2.0.1-rc1", false),
                ("2026-11-02", false),
                ("ResetPasswordFlow", false),
            ],
        );
    }

    #[test]
    fn identifier_words() {
        check(
            is_identifier_words,
            &[
                ("PrefetchOptions", true),
                ("UseQueryResult", true),
                ("createReducer", true),
                ("ActionReducerMapBuilder.addCase", true),
                ("CreateApiOptions.extractRehydrationInfo", true),
                ("refetchOnMountOrArgChange", true),
                ("EndpointDefinitionWithQueryFn.queryFn", true),
                (
                    "ReactHooksModuleOptions.unstable__sideEffectsInRender",
                    true,
                ),
                ("retry", true),
                ("Prefetch", false),
                ("averyveryverylongword", false),
                ("PrefetchOptions2", false),
                ("AbCdEf", false),
                ("XkqPzrTvnBlmWq", false),
                ("ABCdef", false),
                ("aBcDeF", false),
                ("XkQpZrTvNbLm", false),
                ("Q7xLm9PzW4", false),
                ("a.b", false),
                ("", false),
                ("OneTwoThreeFourFiveSixSevenEightNineTenEleven", false),
            ],
        );
    }

    #[test]
    fn grammar_versions_dates_and_shapes() {
        check(
            is_grammar,
            &[
                ("1*tchar", true),
                ("*(", true),
                ("4*8DIGIT", true),
                ("32OCTET", true),
                ("%x30-39", true),
                ("3*uVrc*v%G^AC", false),
                ("hunter2", false),
            ],
        );
        check(
            is_version,
            &[
                ("1.0.188", true),
                ("=1.38.0", true),
                ("v2.3", true),
                ("731904", false),
                ("1.", false),
            ],
        );
        check(
            is_date,
            &[
                ("2026-01", true),
                ("2026-01-03,", true),
                ("2026-1-3", false),
                ("20260103", false),
            ],
        );
        check(
            is_documented_shape,
            &[
                ("hf_xxxxxxxxxxxxxxxxxxxx", true),
                ("AKIAXXXXXXXXXXXXXXXX", true),
                ("glpat-xxxxXXXX1234_abcd-EFGH", false),
            ],
        );
    }

    #[test]
    fn names_commands_and_ui_text() {
        check(
            is_variable_name,
            &[
                ("token", true),
                ("db_password,", true),
                ("dbPassword", true),
                ("db-credentials", true),
                ("hunter2", false),
            ],
        );
        check(
            is_credential_name,
            &[
                ("app_password", true),
                ("db-credentials", true),
                ("password_123", false),
                ("password", false),
            ],
        );
        check(
            is_command,
            &[
                ("openssl rand -hex 32", true),
                ("pwgen 16 1", true),
                ("head -c 32 /dev/urandom | base64", true),
                ("correct horse battery staple", false),
                ("openssl", false),
            ],
        );
        check(
            is_ui_text,
            &[
                ("Password", true),
                ("Enter your password", true),
                ("Forgot password?", true),
                ("correct horse battery staple", false),
                ("hunter2", false),
            ],
        );
        check(
            is_macro_fragment,
            &[("tt)*)", true), ("expr,", true), ("hunter2", false)],
        );
    }

    #[test]
    fn typed_values_and_passphrases() {
        check(
            looks_typed,
            &[
                ("Tq9vXw2LmZpR", true),
                ("4821", true),
                ("Summer2024!", true),
                ("xKqTzWpLmN", true),
                ("HttpOnly", false),
                ("PostgreSQL", false),
                ("1.2.3", false),
                ("hashed", false),
                ("12+", false),
            ],
        );
        assert_eq!(passphrase_len("orbit velvet canyon pickle  ", 4), Some(26));
        assert_eq!(passphrase_len("orbit velvet canyon", 4), None);
        assert_eq!(passphrase_len("orbit velvet canyon", 3), Some(19));
        assert_eq!(passphrase_len("stored in the vault", 3), None);
        assert_eq!(passphrase_len("Orbit velvet canyon pickle", 4), None);
    }

    #[test]
    fn quotes_are_read_from_both_sides() {
        let text = r#"a "x" 'y' `z` **w** v"#;
        assert_eq!(Quote::around(text, 3, 4), Quote::Double);
        assert_eq!(Quote::around(text, 7, 8), Quote::Single);
        assert_eq!(Quote::around(text, 11, 12), Quote::Backtick);
        assert_eq!(Quote::around(text, 16, 17), Quote::Bold);
        assert_eq!(Quote::around(text, 20, 21), Quote::None);
    }
}
