//! `user:password` pairs written after a word for credentials (`default creds
//! msfadmin:msfadmin`, `login root / toor`): which of them are credentials, and
//! where each one is (the `Pair` check of `rules/`).

use crate::benign;

/// The `user:password` pairs in `text[range]` (the rest of a line after a word
/// for credentials), as byte spans of `text`: a user of letters, digits, `.`,
/// `_`, `@`, `\` or `-` after a blank, a bracket, a quote, a bold or table
/// mark, `=` or `,` (not a colon: `urn:a:b` is a name), then a colon and a password up to a blank, a quote, a
/// bracket, `,`, `;`, `:`, `/`, `|`, `*` or `<` (a sentence's closing `.` left
/// out), that [`credential_pair`] takes for one. A slash between them, with or
/// without a blank on each side (`root / toor`, `admin/admin`), makes a pair
/// only when the password is one devices ship with, repeats its user or looks
/// generated: `read /
/// write` and `vault/kv` are no credentials, and a path goes on after its slash.
pub(crate) fn credential_pairs(text: &str, range: std::ops::Range<usize>) -> Vec<(usize, usize)> {
    let w = &text[range.clone()];
    let bytes = w.as_bytes();
    let user_byte = |b: u8| b.is_ascii_alphanumeric() || b"._@\\-".contains(&b);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(off) = w[from..].find([':', '/']) {
        let sep = from + off;
        from = sep + 1;
        let slash = bytes[sep] == b'/';
        // A slash may stand between blanks (`root / toor`).
        let spaced =
            slash && sep > 0 && bytes[sep - 1] == b' ' && bytes.get(sep + 1) == Some(&b' ');
        let user_end = if spaced { sep - 1 } else { sep };
        let mut user_start = user_end;
        while user_start > 0 && user_byte(bytes[user_start - 1]) {
            user_start -= 1;
        }
        let delimited = user_start == 0
            || b" \t([`'\"*=|,".contains(&bytes[user_start - 1])
            || (slash && bytes[user_start - 1] == b':');
        let rest_start = if spaced { sep + 2 } else { sep + 1 };
        let rest = &w[rest_start..];
        let len = rest
            .find(|c: char| c.is_whitespace() || "`'\")],;:/\\|*<".contains(c))
            .unwrap_or(rest.len());
        let password = rest[..len].trim_end_matches(['.', ',']);
        let user = &w[user_start..user_end];
        let pair = if slash {
            // A path goes on (`a/b/c`); one it came from leaves the user
            // undelimited.
            !rest[len..].starts_with('/') && slash_pair(user, password)
        } else {
            credential_pair(user, password)
        };
        if user_start < user_end && delimited && !password.is_empty() && pair {
            out.push((
                range.start + user_start,
                range.start + rest_start + password.len(),
            ));
        }
    }
    out
}

/// Whether `user/password` is a credential: a password devices ship with
/// (`root/toor`, `pi/raspberry`), one that repeats its user (`admin/admin`) or
/// one no word looks like (`admin / Kq7vZ3mXp9`).
fn slash_pair(user: &str, password: &str) -> bool {
    !password.bytes().all(|b| b.is_ascii_digit())
        && (user.eq_ignore_ascii_case(password)
            || benign::is_known_default_password(password)
            || benign::looks_generated(password))
}

/// Whether `user:password` is a credential: not a scheme (`https:`), a port
/// (`host:5432`), a version or an image tag (`python:3.12-slim`), a digest
/// (`sha256:9f86…`), a mask (`****`), a placeholder or a reference (`<pass>`,
/// `${X}`, `$DB_PASS`, `%PW%`), and a password typed or generated (a digit, a
/// symbol, mixed case), a default that repeats its user (`msfadmin:msfadmin`)
/// or that devices ship with (`root:toor`, `pi:raspberry`):
/// a pair of plain words is a name (`system:masters`, `cargo:system-keychain`).
fn credential_pair(user: &str, password: &str) -> bool {
    let named = |names: &[&str]| names.iter().any(|n| user.eq_ignore_ascii_case(n));
    if named(&["http", "https", "ssh", "git", "ftp", "file", "mailto"])
        || named(&["sha1", "sha256", "sha384", "sha512", "md5", "blake3", "sha"])
    {
        return false;
    }
    let port = password.bytes().all(|b| b.is_ascii_digit());
    let version =
        password.starts_with(|c: char| c.is_ascii_digit()) && password.contains(['.', '-']);
    let mask = benign::is_mask(password);
    let mut chars = password.chars();
    let first = chars.next();
    let second = chars.next();
    let reference = matches!(first, Some('<' | '{' | '['))
        || (matches!(first, Some('$' | '%'))
            && second.is_some_and(|c| c == '{' || c == '_' || c.is_ascii_uppercase()));
    let word = ["password", "pass", "passwd", "pwd", "secret", "token"]
        .iter()
        .any(|w| password.eq_ignore_ascii_case(w));
    let typed = benign::looks_typed(password)
        || user.eq_ignore_ascii_case(password)
        || benign::is_known_default_password(password);
    typed && !port && !version && !mask && !reference && !word
}
