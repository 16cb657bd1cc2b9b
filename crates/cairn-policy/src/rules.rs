//! The credential detectors, as data: for each one its kind, its anchors, its
//! pattern and how a match becomes a span ([`Check`]). The engine that runs them
//! is `detect.rs`; what counts as "obviously not a secret" is `benign.rs`.
//!
//! Formats follow the public rule sets of secret scanners (prefixes and lengths
//! of vendor tokens); the patterns are our own. Every rule names the literals it
//! cannot flag anything without, so text with none of them runs no regex.

use crate::CredentialKind;
use crate::patterns::{API_KEY_ENDS, PASSWORD_ASSIGNMENT_ENDS, PASSWORD_ENDS, SECRET_ENDS};
use crate::rule::{Check, DEFAULTS, Rule};
use crate::shape::{Line, Then};

pub(crate) const RULES: &[Rule] = &[
    Rule {
        kind: CredentialKind::AwsAccessKey,
        anchors: &[
            "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA", "A3T",
        ],
        // Bounded by its own alphabet, not `\b`: `keyAKIA…`, `_AKIA…_` (emphasis)
        // and `AKIA…_prod` are keys too.
        pattern: r"(?:^|[^A-Z0-9])((?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16})(?:[^A-Z0-9]|$)",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::AwsSecretKey,
        anchors: &["secret"],
        pattern: r#"(?i)aws[ _-]?secret[ _-]?(?:access[ _-]?)?key["'`]?[ \t]*(?:=>|:=|=|:)[ \t]*["'`]?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        check: Check::Plain,
        line: Line::After(&["=", ":"]),
        also: &["aws"],
        ..DEFAULTS
    },
    Rule {
        // The secret key written in prose, beside its key id (`AWS key AKIA…
        // and secret wJalr…`): its forty characters right after the word,
        // where they look random. (`secret key: wJalr…` is an assignment.)
        kind: CredentialKind::AwsSecretKey,
        anchors: &["secret"],
        // ASCII letters only, the word in any case: under `(?i)` a class of
        // letters takes `ſ` and the Kelvin sign too.
        pattern: r"\b[Ss][Ee][Cc][Rr][Ee][Tt][ \t]+([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)",
        check: Check::RandomLooking,
        tails: &[("secret", 40)],
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::GithubToken,
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        pattern: r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,}",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::GitlabToken,
        anchors: &["glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-"],
        pattern: r"gl(?:pat|dt|rt|ptt|ft|soat)-[A-Za-z0-9_-]{20,}",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::SlackToken,
        anchors: &["xox", "xapp-"],
        pattern: r"xox[abposre]-[A-Za-z0-9-]{10,}|xapp-[0-9]+-[A-Za-z0-9-]{10,}",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::SlackToken,
        anchors: &["hooks.slack.com/"],
        pattern: r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_+-]+)",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PrivateKey,
        anchors: &["-----BEGIN "],
        pattern: r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----",
        check: Check::PemBlock,
        ..DEFAULTS
    },
    Rule {
        // age (`age-keygen`): Bech32, 58 characters after the `1` separator.
        kind: CredentialKind::PrivateKey,
        anchors: &["AGE-SECRET-KEY-"],
        pattern: r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58,}",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::Jwt,
        anchors: &["eyJ"],
        pattern: r"eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::UrlPassword,
        anchors: &["://"],
        // A value that starts with `<` or `{`, or holds `<>{}`, is a placeholder
        // or template (`<PASSWORD>`, `${DB_PASS}`, `{{ pw }}`); one that starts
        // with `$` is one when it names a variable (`$DB_PASSWORD`, not `$ctQUy1x…`).
        pattern: r"://[^\s:/@?#\[\]]*:([^\s/?#<>{}][^\s/?#<>{}]*)@",
        check: Check::UrlPassword,
        line: Line::UrlUserinfo,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::KubernetesSecret,
        // The check (`structure.rs`) finds `kind:` and `Secret` with any blanks
        // and quotes between them: the anchor and the word are what it needs.
        anchors: &["kind:"],
        pattern: r"(?m)^([ \t]*)(?:data|stringData)[ \t]*:[ \t]*(?:#[^\r\n]*)?\r?$",
        check: Check::KubernetesData,
        also: &["secret"],
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::KubernetesSecret,
        // `"kind"` and `"Secret"` with any whitespace between, as the check reads them.
        anchors: &["\"kind\""],
        pattern: r#""(?:data|stringData)"[ \t]*:[ \t]*\{"#,
        check: Check::KubernetesJson,
        also: &["\"secret\""],
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::KubernetesSecret,
        anchors: &[".dockerconfigjson"],
        pattern: r#"\.dockerconfigjson["']?[ \t]*:[ \t]*["']?([A-Za-z0-9+/]{16,}={0,2})"#,
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // `auth` of a Docker `config.json`: base64 of `user:password`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["\"auth\""],
        pattern: r#""auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{8,}={0,2})""#,
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &[
            "pass",
            "pwd",
            "pin",
            "puk",
            "kennwort",
            "contrase",
            "senha",
            "wachtwoord",
            "lösenord",
            "пароль",
            "Пароль",
            "hasło",
            "密码",
            "口令",
            "パスワード",
            "비밀번호",
            "pw",
            "psw",
            "authtok",
        ],
        pattern: assignment!(
            r"\bps?w|_ps?w|bindpw|authtok|passwd|password|passphrase|passcode|passwort|kennwort|contraseña|contrasena|senha|wachtwoord|lösenord|пароль|hasło|mot de passe|密码|口令|パスワード|비밀번호|pwd|(?-i:(?:SSH|DB|SMTP|MAIL|FTP|LDAP|REDIS|ROOT|ADMIN|USER)PASS)\b|sshpass|\bpass|[_.-]pass|(?-i:[a-z0-9]Pass)|\bpin|\bpuk"
        ),
        check: Check::Assignment,
        line: Line::Key {
            ends: PASSWORD_ASSIGNMENT_ENDS,
            then: Then::Separator,
        },
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "kennwort"],
        pattern: code_span_after!(r"password|passwd|passphrase|passwort|kennwort"),
        check: Check::Quoted,
        line: Line::Key {
            ends: PASSWORD_ENDS,
            then: Then::CodeSpan,
        },
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["--pass"],
        pattern: cli_flag!("password|passwd|pass"),
        check: Check::Assignment,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pin", "kennwort", "contrase", "senha"],
        pattern: prose!(
            r"password|passwd|passphrase|passcode|passwort|kennwort|contraseña|contrasena|senha|mot de passe|pwd|pin"
        ),
        check: Check::Prose,
        line: Line::Key {
            ends: PASSWORD_ENDS,
            then: Then::Verb,
        },
        ..DEFAULTS
    },
    Rule {
        // A key with what it is for, then a colon: `Password for staging: x`,
        // `Root password for the NAS: x`, `**Passphrase for the GPG key:** x`,
        // `Password (staging): x`.
        // Not `pin` (`Pins for the release: v1.2.3`).
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pw"],
        pattern: qualified!(r"password|passwd|passphrase|passcode|pwd|pw"),
        check: Check::Prose,
        line: Line::After(&[":", "："]),
        ..DEFAULTS
    },
    Rule {
        // The verb before the key: `changed the root password to x`, `set
        // wifi pw to x`, `reset the admin password to x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pw"],
        pattern: concat!(
            r"(?i)\b(?:set|setting|changed?|changing|reset|resetting|updated?|updating|rotated?|rotating)\b(?:[ \t]+[^\s.;:!?*`|]+){0,4}?[ \t]+(?:password|passwd|passphrase|passcode|pwd|pw)(?:\*\*|__)?[ \t]+(?:back[ \t]+)?to[ \t]*:?[ \t]+",
            prose_value!()
        ),
        check: Check::Prose,
        line: Line::After(&[" to", "\tto"]),
        ..DEFAULTS
    },
    Rule {
        // `pw` in a sentence: `router admin pw is x` (the other keys: `prose!` above).
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pw"],
        pattern: prose!(r"\bpw"),
        check: Check::Prose,
        line: Line::Key {
            ends: &["pw"],
            then: Then::Verb,
        },
        ..DEFAULTS
    },
    Rule {
        // A quoted value right after its key: `use passphrase "x" to unlock`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd"],
        pattern: r#"(?i)\b(?:password|passwd|passphrase|passcode|pwd)[ \t]+(?:"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)')"#,
        check: Check::Prose,
        line: Line::After(&["\"", "'"]),
        ..DEFAULTS
    },
    Rule {
        // The value before its key: `use x as the (root) password`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["use"],
        pattern: concat!(
            r"(?i)\buse[ \t]+",
            prose_value!(),
            r"[ \t]+as[ \t]+(?:[^\s`*|]+[ \t]+){0,3}?(?:password|passwd|passphrase|passcode|pwd|pin)\b"
        ),
        check: Check::Prose,
        line: Line::After(&[" as", "\tas"]),
        // The words the pattern ends with, not `pass`/`pin` (of `passes`,
        // `pinned`): prose such as `use X as Y` must not compile this pattern.
        also: &["password", "passwd", "passphrase", "passcode", "pwd"],
        ..DEFAULTS
    },
    Rule {
        // After its user: `user admin, pass x`, `login bob / pw x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["user", "login"],
        pattern: concat!(
            r"(?i)\b(?:user(?:name)?|login)(?:[ \t]*[:=][ \t]*|[ \t]+)[^\s,;/]+[ \t]*[,;/]?[ \t]*(?:and[ \t]+)?",
            r"(?:pass(?:word)?|passwd|pwd|pw)(?:[ \t]*[:=][ \t]*|[ \t]+)",
            prose_value!()
        ),
        check: Check::Prose,
        line: Line::After(&["pass", "pwd", "pw"]),
        ..DEFAULTS
    },
    Rule {
        // `user:password` pairs on the rest of a line after a word for
        // credentials: `default credentials (msfadmin:msfadmin)`, `creds:
        // alice:Passw0rd!, bob:Summer2024`. Each pair is redacted whole; a port
        // (`host:5432`), a scheme, a tag or a pair of plain words
        // (`system:masters`) is none (`pairs::credential_pair`). A slash for
        // the colon (`login root / toor`, `creds admin/admin`) only with a
        // password devices ship with or that repeats its user.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["cred", "login", "logon"],
        pattern: r"(?i)\b(?:credentials?|creds|logins?|logon)\b([^\r\n]{0,160}[:/][^\r\n]{0,160})",
        check: Check::Pair,
        line: Line::After(&[":", "/"]),
        ..DEFAULTS
    },
    Rule {
        // An arrow for a separator: `password → x`, `Password -> x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pw"],
        pattern: concat!(
            r"(?i)(?:password|passwd|passphrase|passcode|pwd|\bps?w|\bpass)(?:\*\*|__)?[ \t]*(?:->|→|⟶|⇒)[ \t]*(?:\*\*|__)?[ \t]*",
            value!()
        ),
        check: Check::Assignment,
        line: Line::After(&["->", "→", "⟶", "⇒"]),
        ..DEFAULTS
    },
    Rule {
        // The value alone on the line below its key: `password:` ⏎ `x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pw"],
        pattern: concat!(
            r"(?im)(?:password|passwd|passphrase|passcode|pwd|\bps?w|_ps?w)(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?[ \t]*\r?\n[ \t]*",
            prose_value!(),
            r"[ \t]*\r?$"
        ),
        check: Check::Prose,
        line: Line::Key {
            ends: &[
                "password",
                "passwd",
                "passphrase",
                "passcode",
                "pwd",
                "pw",
                "psw",
            ],
            then: Then::Separator,
        },
        ..DEFAULTS
    },
    Rule {
        // A question and its answer: `Q: the staging password?` ⏎ `A: x`, on
        // one line or two (a blank line between, list markers, `Q.`/`Ans:`/
        // `Answer -`, bold or italic labels, `A:` ⏎ `x`, `it's x`, a note in
        // brackets after it). The question asks for the password (it ends
        // there, or goes on with `for`/`of`/…), not about a kind of one
        // (`password manager?`); `Check::Answer` drops who/where/which/… ones.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pw", "pin", "kennwort"],
        pattern: concat!(
            r"(?im)(?:password|passwd|passphrase|passcode|passwort|kennwort|pwd|\bpw|\bpin)s?",
            r"(?:\*\*|__|[*_`'\x22])?(?:[ \t]+(?:for|of|to|on|at|in)\b[^?？]{0,80}?)?[ \t]*[?？]",
            r"(?:\*\*|__|[*_])?(?:[ \t]*\([^\r\n)]{0,60}\))?(?:[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*(?:(?:[-*+>]|\d{1,2}[.)])[ \t]+)?|[ \t]+)",
            r"(?:\*\*|__|[*_])?(?:a|ans|answer)(?:\*\*|__|[*_])?[ \t]*(?:[:：.]|[ \t]-)(?:\*\*|__|[*_])?",
            r"[ \t]*(?:\r?\n[ \t]*)?(?:it'?s[ \t]+|it[ \t]+is[ \t]+)?",
            prose_value!(),
            r"(?:\*\*|__|[*_])?[ \t]*(?:\([^\r\n)]{0,60}\)|[^\w\s`*]{1,4})?[ \t]*\r?$"
        ),
        check: Check::Answer,
        line: Line::After(&["?", "？"]),
        ..DEFAULTS
    },
    Rule {
        // curl's credentials: `curl -u user:x`, `--user=user:x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["curl"],
        pattern: r#"(?i)\bcurl\b[^\r\n]*?[ \t](?:(?-i:-u)|--user)(?:[ \t]+|=)["']?[^\s:"'@]+:([^\s"'@]+)"#,
        check: Check::Assignment,
        line: Line::After(&[" -u", "\t-u", "--user"]),
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "kennwort"],
        pattern: block_scalar!(r"password|passwd|passphrase|passwort|kennwort|pwd"),
        check: Check::BlockScalar,
        ..DEFAULTS
    },
    Rule {
        // netrc: `machine h login u password p`, on one line or several.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["machine", "default"],
        pattern: r"(?i)\b(?:machine[ \t]+\S+|default)(?:[ \t\r\n]+(?:login|account|port|protocol)[ \t]+\S+)*[ \t\r\n]+password[ \t]+(\S+)",
        check: Check::Assignment,
        also: &["password"],
        ..DEFAULTS
    },
    Rule {
        // A password on a command line: `sshpass -p x`, `mysql -px`, `redis-cli -a x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["sshpass", "mysql", "mariadb", "redis-cli"],
        pattern: concat!(
            r"(?i)(?:\bsshpass\b[^\r\n]*?[ \t](?-i:-p)[ \t]*|\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb|mariadb-dump|mariadb-admin)\b[^\r\n]*?[ \t](?-i:-p)|\bredis-cli\b[^\r\n]*?[ \t](?-i:-a)[ \t]+)",
            value!()
        ),
        check: Check::Assignment,
        line: Line::After(&[" -p", "\t-p", " -a", "\t-a"]),
        ..DEFAULTS
    },
    Rule {
        // A container registry's login: `docker login -u ci -p x registry`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["login"],
        pattern: concat!(
            r"(?i)\b(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login\b[^\r\n|;&]*?[ \t](?-i:-p)[ \t]+",
            value!()
        ),
        check: Check::Assignment,
        line: Line::After(&[" -p", "\t-p"]),
        ..DEFAULTS
    },
    Rule {
        // A Wi-Fi network's QR string: `WIFI:S:Guest;T:WPA;P:x;;`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["WIFI:"],
        exact: true,
        pattern: r"WIFI:[^\r\n]*?;?P:((?:[^;\\\r\n]|\\.)+)",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // Passwords on other command lines: `htpasswd -b file user x` (`-n`:
        // no file), `ldapsearch … -w x`, `openssl … -pass pass:x`, `-k x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["htpasswd", "ldap", "openssl"],
        pattern: concat!(
            r"(?i)(?:\bhtpasswd[ \t]+(?-i:-[a-zA-Z]*b[a-zA-Z]*)[ \t]+(?:-[a-z0-9]+[ \t]+)*(?:\S+[ \t]+)?\S+[ \t]+",
            r"|\bldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)\b[^\r\n|;&]*?[ \t](?-i:-w)[ \t]+",
            r"|\bopenssl\b[^\r\n|;&]*?[ \t](?:-pass(?:in|out)?[ \t]+pass:|(?-i:-k)[ \t]+))",
            value!()
        ),
        check: Check::Assignment,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::PasswordAssignment,
        anchors: &["password>", "passwd>", "passphrase>", "pwd>"],
        pattern: r"(?i)<(?:[a-z0-9]+[_.-]?)?(?:password|passwd|passphrase|pwd)>([^<\r\n]*)</",
        check: Check::Literal,
        line: Line::After(&["</"]),
        ..DEFAULTS
    },
    Rule {
        // SQL: `CREATE USER app WITH PASSWORD 'x'`, `IDENTIFIED BY 'x'`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["password", "identified"],
        pattern: r"(?i)\b(?:password|identified[ \t]+by)[ \t]+'((?:[^'\\\r\n]|'')*)'",
        check: Check::Literal,
        line: Line::After(&["'"]),
        ..DEFAULTS
    },
    Rule {
        // .NET `appSettings`: `<add key="DbPassword" value="…" />`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd"],
        pattern: r#"(?i)\bkey="[^"\r\n]*(?:password|passwd|pwd)"[ \t]+value="([^"\r\n]*)""#,
        check: Check::Literal,
        line: Line::After(&["value="]),
        ..DEFAULTS
    },
    Rule {
        // A heading that names credentials, of at most seven words
        // (`# Passwords`, `## Wifi passwords`, `### Test account credentials
        // (staging)`): the values of the `label: value` lines below it.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["passwords", "passcodes", "credentials", "logins", "secrets"],
        pattern: r"(?im)^[ \t]{0,3}#{1,6}[ \t]+(?:[^\s#]+[ \t]+){0,3}(?:passwords|passcodes|credentials|logins|secrets)\b(?:[ \t]+[^\s#]+){0,3}[ \t]*:?[ \t]*#*[ \t]*\r?$",
        check: Check::CredentialList,
        ..DEFAULTS
    },
    Rule {
        // Markdown tables; the check picks each cell's kind from its key.
        kind: CredentialKind::PasswordAssignment,
        anchors: &[
            "pass", "pwd", "pin", "kennwort", "token", "secret", "api key", "api_key", "apikey",
            "api-key",
        ],
        pattern: r"(?im)^[ \t]*\|[^\r\n]*(?:pass|pwd|pin|kennwort|token|secret|api[ _-]?key)[^\r\n]*\|",
        check: Check::Table,
        line: Line::TableRow,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["api_key", "api-key", "api key", "apikey", "token"],
        pattern: assignment!(
            r"api[ _-]?key|api[ _-]?token|access[ _-]?token|auth[ _-]?token|refresh[ _-]?token|private[ _-]?token|\btoken|[_.-]token|(?-i:[a-z0-9]Token)"
        ),
        check: Check::Assignment,
        line: Line::Key {
            ends: API_KEY_ENDS,
            then: Then::Separator,
        },
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["api_key", "api-key", "api key", "apikey", "token"],
        pattern: code_span_after!(r"api[ _-]?key|\btoken"),
        check: Check::Quoted,
        line: Line::Key {
            ends: API_KEY_ENDS,
            then: Then::CodeSpan,
        },
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["api_key", "api-key", "api key", "apikey", "token"],
        pattern: prose!(r"api[ _-]?key|api[ _-]?token|access[ _-]?token|auth[ _-]?token|token"),
        check: Check::Prose,
        line: Line::Key {
            ends: API_KEY_ENDS,
            then: Then::Verb,
        },
        ..DEFAULTS
    },
    Rule {
        // A key with what it is for, then a colon: `API key for Mailchimp: x`,
        // `token for the CI bot: x`, `API key (prod): x` (one token: `Tokens for
        // the theme: …` are a design system's).
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["api_key", "api-key", "api key", "apikey", "token"],
        pattern: qualified!(r"api[ _-]?key|api[ _-]?token|access[ _-]?token|auth[ _-]?token|token"),
        check: Check::Prose,
        line: Line::After(&[":", "："]),
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["--api", "--token", "--access-token", "--auth-token"],
        pattern: cli_flag!("api[_-]?key|token|access-token|auth-token"),
        check: Check::Assignment,
        ..DEFAULTS
    },
    Rule {
        // Vendor keys with a distinctive prefix: Stripe, OpenAI/Anthropic, Google,
        // npm, PyPI, Mapbox, Hugging Face, SendGrid, DigitalOcean, Shopify,
        // Tailscale, Docker Hub, Linear, Sentry, Grafana, Postman, New Relic,
        // Atlassian, HashiCorp Vault, Doppler, PlanetScale, Heroku, Brevo, Square,
        // Figma, Buildkite, Terraform Cloud, Groq, xAI, Perplexity, Replicate,
        // Supabase, Pulumi, Databricks, Notion, Fly.io.
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &[
            "sk_live_",
            "rk_live_",
            "sk_test_",
            "rk_test_",
            "whsec_",
            "sk-",
            "AIza",
            "npm_",
            "pypi-",
            "sk.eyJ",
            "hf_",
            "api_org_",
            "SG.",
            "dop_v1_",
            "doo_v1_",
            "dor_v1_",
            "shpat_",
            "shpss_",
            "shpca_",
            "shppa_",
            "tskey-",
            "dckr_pat_",
            "dckr_oat_",
            "lin_api_",
            "sntrys_",
            "glsa_",
            "PMAK-",
            "NRAK-",
            "ATATT3",
            "hvs.",
            "hvb.",
            "hvr.",
            "dp.pt.",
            "dp.st.",
            "dp.ct.",
            "dp.sa.",
            "dp.scim.",
            "dp.audit.",
            "pscale_pw_",
            "pscale_tkn_",
            "pscale_oauth_",
            "HRKU-",
            "xkeysib-",
            "sq0atp-",
            "sq0csp-",
            "figd_",
            "bkua_",
            ".atlasv1.",
            "gsk_",
            "xai-",
            "pplx-",
            "r8_",
            "sbp_",
            "pul-",
            "dapi",
            "ntn_",
            "fo1_",
        ],
        // Not `\b`, which fails between two word characters (`_sk_live_…_` in
        // emphasis, `keyAIza…`): the long, distinctive prefixes stand anywhere;
        // the short ones (`sk-` of `task-…`, `rk_test_` of `risk_test_…`) only
        // after a character that is not a letter or digit. Every token takes
        // its whole run of its alphabet, so no tail of a longer one is left.
        pattern: concat!(
            r"([sr]k_live_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/]{24,}|AIza[0-9A-Za-z_-]{35,}",
            r"|pypi-AgE[A-Za-z0-9_-]{16,}|api_org_[A-Za-z0-9]{30,}|do[por]_v1_[a-f0-9]{64,}",
            r"|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32,}|tskey-(?:[a-z]+-)?[A-Za-z0-9]{6,}-[A-Za-z0-9]{10,}",
            r"|dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}|lin_api_[A-Za-z0-9]{32,}|sntrys_[A-Za-z0-9+/=_-]{40,}",
            r"|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}",
            r"|NRAK-[A-Z0-9]{27}|ATATT3[A-Za-z0-9_=-]{60,}|hv[sbr]\.[A-Za-z0-9_-]{24,}",
            r"|dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{40,}",
            r"|pscale_(?:pw|tkn|oauth)_[A-Za-z0-9_=.-]{32,}|HRKU-[A-Za-z0-9_-]{58,}",
            r"|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}|sq0(?:atp-[A-Za-z0-9_-]{22,}|csp-[A-Za-z0-9_-]{43,})",
            r"|figd_[A-Za-z0-9_-]{40,}|bkua_[a-f0-9]{40}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,})",
            r"|(?:^|[^A-Za-z0-9])([sr]k_test_[A-Za-z0-9]{16,}",
            r"|sk-(?:proj|ant|svcacct|admin|or-v1)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{32,}",
            r"|gsk_[A-Za-z0-9]{48,}|xai-[A-Za-z0-9]{64,}|pplx-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{37,}",
            r"|sbp_[a-f0-9]{40}|pul-[a-f0-9]{40}|dapi[a-f0-9]{32}|ntn_[A-Za-z0-9]{40,}|fo1_[A-Za-z0-9_-]{43,}",
            r"|npm_[A-Za-z0-9]{36,}|sk\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|hf_[A-Za-z0-9]{30,}",
            r"|SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50})"
        ),
        check: Check::Plain,
        tails: &[
            ("sk_live_", 16),
            ("rk_live_", 16),
            ("sk_test_", 16),
            ("rk_test_", 16),
            ("whsec_", 24),
            // `ant-` and 20, or 32.
            ("sk-", 24),
            ("AIza", 35),
            ("npm_", 36),
            // `AgE` and 16.
            ("pypi-", 19),
            // One, a dot, one.
            ("sk.eyJ", 3),
            ("hf_", 30),
            ("api_org_", 30),
            // 16, a dot, 30.
            ("SG.", 47),
            ("dop_v1_", 64),
            ("doo_v1_", 64),
            ("dor_v1_", 64),
            ("shpat_", 32),
            ("shpss_", 32),
            ("shpca_", 32),
            ("shppa_", 32),
            // 6, a dash, 10.
            ("tskey-", 17),
            ("dckr_pat_", 20),
            ("dckr_oat_", 20),
            ("lin_api_", 32),
            ("sntrys_", 40),
            // 32, an underscore, 8.
            ("glsa_", 41),
            // 24, a dash, 34.
            ("PMAK-", 59),
            ("NRAK-", 27),
            ("ATATT3", 60),
            ("hvs.", 24),
            ("hvb.", 24),
            ("hvr.", 24),
            // A config's name and a dot may come first.
            ("dp.pt.", 40),
            ("dp.st.", 40),
            ("dp.ct.", 40),
            ("dp.sa.", 40),
            ("dp.scim.", 40),
            ("dp.audit.", 40),
            ("pscale_pw_", 32),
            ("pscale_tkn_", 32),
            ("pscale_oauth_", 32),
            ("HRKU-", 58),
            // 64, a dash, 16.
            ("xkeysib-", 81),
            ("sq0atp-", 22),
            ("sq0csp-", 43),
            ("figd_", 40),
            ("bkua_", 40),
            (".atlasv1.", 60),
            ("gsk_", 48),
            ("xai-", 64),
            ("pplx-", 40),
            ("r8_", 37),
            ("sbp_", 40),
            ("pul-", 40),
            ("dapi", 32),
            ("ntn_", 40),
            ("fo1_", 43),
        ],
        ..DEFAULTS
    },
    Rule {
        // Mailgun: `key-` + 32 hex, not the tail of a longer name (`cache-key-…`,
        // `cache_key-…`), in emphasis too (`_key-…_`).
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["key-"],
        pattern: r"(?:^|[^A-Za-z0-9_.-])_*(key-[0-9a-f]{32})(?:[^A-Za-z0-9]|$)",
        check: Check::Plain,
        tails: &[("key-", 32)],
        ..DEFAULTS
    },
    Rule {
        // Twilio API key sid: `SK` + 32 hex.
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["SK"],
        exact: true,
        pattern: r"(?:^|[^A-Za-z0-9])(SK[0-9a-fA-F]{32})(?:[^A-Za-z0-9]|$)",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // Discord bot token: base64 of a numeric id (so `[MNO][DTjz]…`), a
        // timestamp, an HMAC.
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &[
            "MD", "MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT", "Oj", "Oz",
        ],
        exact: true,
        pattern: r"(?:^|[^A-Za-z0-9-])([MNO][DTjz][A-Za-z0-9_-]{21,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?:[^A-Za-z0-9_-]|$)",
        check: Check::Plain,
        tails: &[
            // 21 to 25, a dot, 6, a dot, 27 to 38.
            ("MD", 56),
            ("MT", 56),
            ("Mj", 56),
            ("Mz", 56),
            ("ND", 56),
            ("NT", 56),
            ("Nj", 56),
            ("Nz", 56),
            ("OD", 56),
            ("OT", 56),
            ("Oj", 56),
            ("Oz", 56),
        ],
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"],
        pattern: r"discord(?:app)?\.com/api/webhooks/([0-9]+/[A-Za-z0-9_-]+)",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // Telegram bot token: bot id, `:AA`, 33 more (also inside `api.telegram.org/bot…`).
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &[":AA"],
        pattern: r"(?:^|[^0-9])([0-9]{8,10}:AA[A-Za-z0-9_-]{33,})",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // Azure connection strings: storage account keys, Service Bus / Event Hubs keys.
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["AccountKey", "SharedAccessKey"],
        pattern: r"(?i)(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*([A-Za-z0-9+/]{20,}={0,2})",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::BearerToken,
        anchors: &["authorization"],
        pattern: r#"(?i)\b(?:proxy-)?authorization["'`]?[ \t]*[:=][ \t]*["'`]?(?:bearer|basic|token|bot|apikey)[ \t]+([A-Za-z0-9._~+/=-]*[A-Za-z0-9][A-Za-z0-9._~+/=-]*)"#,
        check: Check::Given,
        line: Line::After(&[":", "="]),
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::BearerToken,
        anchors: &["bearer"],
        pattern: r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)",
        check: Check::RandomLooking,
        tails: &[("bearer", 16)],
        ..DEFAULTS
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
            r"secret(?:[ _-]?(?:access[ _-]?)?key(?:[_-]?base)?|[ _-]?token)?|credentials?|private[_-]?key|(?:signing|encryption|master)[_-]?key|(?-i:(?:private|signing|encryption|master)Key)"
        ),
        check: Check::Assignment,
        line: Line::Key {
            ends: SECRET_ENDS,
            then: Then::Separator,
        },
        ..DEFAULTS
    },
    Rule {
        // An environment file's key (`APP_KEY=…`, `OPENAI_KEY=…`,
        // `LICENSE_KEY=…`), in capitals as `.env` files write them; WireGuard's
        // `PresharedKey`, a kubeconfig's `client-key-data`.
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["_KEY", "PresharedKey", "client-key-data"],
        exact: true,
        // A key's value is machine-made: nine characters or more of a token's
        // alphabet with a capital, `+`, `=` or `:` in it, or 32 hexadecimal
        // digits, the whole value and looking random (`PRIMARY_KEY=id`,
        // `SORT_KEY=created_at_desc`, `OBJECT_KEY=uploads/user_123`,
        // `CACHE_KEY=users:{id}` and `process.env.MUX_SECRET_KEY` name things).
        pattern: r#"(?-i:\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_KEY\b|\bPresharedKey\b|\bclient-key-data\b)["']?[ \t]*(?:=|:)[ \t]*["']?([A-Za-z0-9+/=_:~-]{8,}[A-Z+=:][A-Za-z0-9+/=_:~-]*|[A-Za-z0-9+/=_:~-]*[A-Z+=:][A-Za-z0-9+/=_:~-]{8,}|[a-f0-9]{32,})(?:[^A-Za-z0-9+/=_:~.-]|\.(?:\s|$)|$)"#,
        check: Check::RandomLooking,
        line: Line::After(&["=", ":"]),
        ..DEFAULTS
    },
    Rule {
        // `the webhook secret is x`, `signing secret x`, `the shared secret
        // with Acme is x`.
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["webhook", "signing", "client", "shared"],
        pattern: concat!(
            r"(?i)\b(?:webhook|signing|client|shared)[ \t_-]?secret(?:\*\*|__)?(?:[ \t]+(?:with|for|of)(?:[ \t]+[^\s:*`|]+){1,3}?[ \t]+(?:is|was))?(?:[ \t]+(?:is|was)(?:[ \t]+now)?)?[ \t]*:?[ \t]+",
            prose_value!()
        ),
        check: Check::Prose,
        line: Line::After(&["secret"]),
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &[
            "secret",
            "token",
            "key",
            "credential",
            "id_rsa",
            "id_ed25519",
            "id_ecdsa",
        ],
        pattern: block_scalar!(
            r"secret|token|private[_-]?key|privatekey|api[_-]?key|apikey|credentials?|signing[_-]?key|ssh[_-]?key|id_rsa|id_ed25519|id_ecdsa"
        ),
        check: Check::BlockScalar,
        ..DEFAULTS
    },
    Rule {
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["secret>", "token>", "key>"],
        pattern: r"(?i)<(?:[a-z0-9]+[_.-]?)?(?:secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key)>([^<\r\n]*)</",
        check: Check::Literal,
        line: Line::After(&["</"]),
        ..DEFAULTS
    },
];
