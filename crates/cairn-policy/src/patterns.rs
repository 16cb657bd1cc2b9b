//! The building blocks of the credential rules (`rules/`): the ends of their
//! keys, and their patterns' parts as macros, so each pattern is one
//! `concat!`ed literal: a value, an assignment, a key before a code span, a
//! command-line flag, a sentence, a key with what it is for, a value right after
//! its key, a YAML block scalar.

/// The password keys' ends, then `extra` ones: one list for both rules' lists.
macro_rules! password_ends {
    ($($extra:literal),* $(,)?) => {
        &[
            "password",
            "passwd",
            "passphrase",
            "passcode",
            "passwort",
            "kennwort",
            "contraseña",
            "contrasena",
            "senha",
            "passe",
            "pwd",
            "pin",
            $($extra),*
        ]
    };
}

/// How the password keys end (`mot de passe` in `passe`).
pub(crate) const PASSWORD_ENDS: &[&str] = password_ends!();

/// How the API key keys end (`api_key`, `access-token`).
pub(crate) const API_KEY_ENDS: &[&str] = &["key", "token"];

/// How the password keys of an assignment end: [`PASSWORD_ENDS`], the keys
/// outside Latin script, `pass` and `puk` (`SSHPASS`, `db_pass`, `dbPass`),
/// the short `pw` and `psw`, and sssd's `authtok` (`ldap_default_authtok`).
pub(crate) const PASSWORD_ASSIGNMENT_ENDS: &[&str] = password_ends!(
    "wachtwoord",
    "lösenord",
    "пароль",
    "hasło",
    "密码",
    "口令",
    "パスワード",
    "비밀번호",
    "pass",
    "puk",
    "pw",
    "psw",
    "authtok",
);

/// How the generic secret keys end (`secret_key_base`, `credentials`).
pub(crate) const SECRET_ENDS: &[&str] = &[
    "secret",
    "geheimnis",
    "key",
    "base",
    "token",
    "credential",
    "credentials",
];

/// The value of an assignment: double-, single- or backtick-quoted (groups 1–3),
/// or one unquoted run of characters other than spaces and backticks (group 4;
/// a backtick ends it so that `` `password=x` `` keeps its closing backtick).
macro_rules! value {
    () => {
        r#"(?:"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)'|`([^`\r\n]*)`|([^\s`]+))"#
    };
}

/// `<key><separator><value>`: the key, optionally quoted or in markdown bold, then
/// `=`, `:`, `:=`, `::` and a blank (a Dataview or Logseq property), `=>`, `==`, `===` or a
/// full-width `：`/`＝` on the same line,
/// then a YAML anchor's name if any (`pwd: &db x`), then [`value!`].
macro_rules! assignment {
    ($keys:literal) => {
        concat!(
            "(?i)(?:",
            $keys,
            r#")(?:\*\*|__)?["'`]?(?:\*\*|__)?[ \t]*(?:=>|:=|::[ \t]|===|==|=|:|：|＝)[ \t]*(?:\*\*|__)?[ \t]*(?:&[A-Za-z0-9_-]+[ \t]+)?"#,
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

/// `<key> [for the staging DB] is <value>`: a credential stated in a sentence
/// (also `was changed to`, `has been reset to`, `set to`).
/// The value is quoted, a code span, bold, or one bare word (groups 1–6).
macro_rules! prose {
    ($keys:literal) => {
        concat!(
            r"(?i)\b(?:",
            $keys,
            r#")(?:\*\*|__)?(?:[ \t]+(?:for|of|on)(?:[ \t]+[^\s*`|]+){1,4}?)?[ \t]+(?:(?:(?:is|was|has[ \t]+been|had[ \t]+been)[ \t]+)?(?:changed|reset|set|rotated|updated)[ \t]+to|(?:is|was|ist|es|est)(?:[ \t]+(?:set[ \t]+to|now|still|currently|simply|just))?)[ \t]*:?[ \t]+"#,
            prose_value!()
        )
    };
}

/// `<key> for the staging DB: <value>`, `<key> (prod): <value>`: a key, what it
/// is for (one to five words after `for`, `of`, `on`, `at`, `in` or `with`, a
/// note in round or square brackets or double quotes, or an encoding: `base64`,
/// `hex`), then a
/// colon and blanks, then `prose_value!`.
macro_rules! qualified {
    ($keys:literal) => {
        concat!(
            r"(?i)\b(?:",
            $keys,
            r")(?:\*\*|__)?(?:[ \t]+(?:for|of|on|at|in|with)(?:[ \t]+[^\s:：*`|\[\]()<>]+){1,5}?|[ \t]*\([^()\r\n:]{1,40}\)|[ \t]*\[[^\[\]\r\n:]{1,40}\]|[ \t]+\x22[^\x22\r\n:]{1,40}\x22|[ \t]+(?:base64|b64|hex|value|string))(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?[ \t]+",
            prose_value!()
        )
    };
}

/// `<key> [(what it is for)] <value>` with no verb between (`The VNC password
/// Kq7vZ3mXp9`, `**Password** x`, `password (prod) x`): the key, a note in
/// round or square brackets, then `$sep` (what may stand between: a comma, a
/// colon), blanks, and a run of eight characters or more (group 1) that
/// `Check::Bare` then tests.
macro_rules! bare {
    ($keys:literal, $sep:literal) => {
        concat!(
            r"(?i)\b(?:",
            $keys,
            r")(?:\*\*|__)?(?:[ \t]*\([^()\r\n:]{1,40}\)|[ \t]*\[[^\[\]\r\n:]{1,40}\])?(?:\*\*|__)?[ \t]*",
            $sep,
            r"[ \t]+([^\s`*,;()\[\]<>\x22']{8,})"
        )
    };
}

/// The value of a sentence: quoted, a code span, bold, or one bare word (groups 1–6).
macro_rules! prose_value {
    () => {
        r#"(?:"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)'|`([^`\r\n]+)`|\*\*([^*\r\n]+)\*\*|__([^_\r\n]+)__|([^\s`*]+))"#
    };
}

/// A YAML key ending in one of `$keys`, with a block scalar indicator (`|`, `>-`).
/// Group 1 is the key line's indentation.
macro_rules! block_scalar {
    ($keys:literal) => {
        concat!(
            r#"(?m)^([ \t]*)(?:-[ \t]+)?["']?[A-Za-z0-9_.-]*?(?i:"#,
            $keys,
            r#")["']?[ \t]*:[ \t]*[|>][0-9+-]*[ \t]*(?:#[^\r\n]*)?\r?$"#
        )
    };
}
