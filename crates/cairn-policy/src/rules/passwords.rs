//! The detectors of passwords: assignments, sentences, code spans, command
//! lines, tables, lists under a heading, answers to a question.

use crate::CredentialKind;
use crate::patterns::{PASSWORD_ASSIGNMENT_ENDS, PASSWORD_ENDS};
use crate::rule::{Check, DEFAULTS, Rule};
use crate::shape::{Line, Then};

pub(crate) const PASSWORDS: &[Rule] = &[
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
        // password devices ship with, that repeats its user or that looks
        // generated; a Wi-Fi network and its key (`Wi-Fi: Office5G / x`).
        kind: CredentialKind::PasswordAssignment,
        anchors: &["cred", "login", "logon", "wi-fi", "wifi", "wlan"],
        pattern: r"(?i)\b(?:credentials?|creds|logins?|logon|wi-?fi|wlan)\b([^\r\n]{0,160}[:/][^\r\n]{0,160})",
        check: Check::Pair,
        line: Line::After(&[":", "/"]),
        ..DEFAULTS
    },
    Rule {
        // An arrow, a dash or a tab for a separator: `password → x`,
        // `Password -> x`, `Staging password — x`, `db password - x`,
        // `password<TAB>x` (a row copied from a spreadsheet).
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pw"],
        pattern: concat!(
            r"(?i)(?:password|passwd|passphrase|passcode|pwd|\bps?w|\bpass)(?:\*\*|__)?(?:[ \t]*(?:->|→|⟶|⇒|—|–)[ \t]*|[ \t]+-[ \t]+|\t+)(?:\*\*|__)?[ \t]*",
            value!()
        ),
        check: Check::Assignment,
        line: Line::After(&["->", "→", "⟶", "⇒", "—", "–", " - ", "\t"]),
        ..DEFAULTS
    },
    Rule {
        // The value right after its key, nothing between but what it is for:
        // `The VNC password Kq7vZ3mXp9 opens the lab box`, `**Password**
        // Kq7vZ3mXp9`, `password (prod) Kq7vZ3mXp9`, `the shared password,
        // Kq7vZ3mXp9, only from the VPN`. Only a value no sentence has there
        // (`Check::Bare`): `password SHA256 hashes`, `password reset flow` stay.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd"],
        pattern: bare!(r"password|passwd|passphrase|passcode|pwd", ",?"),
        check: Check::Bare,
        line: Line::Key {
            ends: &["password", "passwd", "passphrase", "passcode", "pwd"],
            then: Then::Generated,
        },
        ..DEFAULTS
    },
    Rule {
        // Redis's `AUTH [user] password`, opening a line (after a prompt such
        // as `127.0.0.1:6379>`) or a code span: `AUTH Kq7vZ3mXp9`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["AUTH"],
        exact: true,
        pattern: r"(?m)(?:^[ \t]*(?:[\w.:-]*>[ \t]*)?|`)AUTH[ \t]+(?:[^\s`]+[ \t]+)?([^\s`]+)[ \t]*(?:`|\r?$)",
        check: Check::Prose,
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
        // The value alone in the paragraph under a heading that ends with its
        // key: `## Staging password` ⏎ ⏎ `Kq7vZ3mXp9` (a red team's; a value
        // that looks typed, as in a sentence: `## Password` ⏎ `rotation` stays).
        kind: CredentialKind::PasswordAssignment,
        anchors: &["pass", "pwd", "pin"],
        pattern: concat!(
            r"(?m)^[ \t]{0,3}#{1,6}[ \t]+(?:[^\r\n#]*?[ \t])?(?i:password|passwd|passphrase|passcode|pwd|pin)[ \t]*#*[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*",
            prose_value!(),
            r"[ \t]*\r?$"
        ),
        check: Check::Prose,
        // A heading's mark: prose with a key word runs no regex.
        also: &["#"],
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
        // More command lines that take a password as an argument (a red team,
        // 2026-12-01): `rabbitmqctl add_user app x`, `az login -u u -p x`,
        // `net user administrator x`, `mc alias set local URL access x`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &[
            "rabbitmqctl",
            "az login",
            "net user",
            "mc alias set",
            "mc config host add",
        ],
        pattern: concat!(
            r"(?i)(?:\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+",
            r"|\baz login\b[^\r\n|;&]*?[ \t](?:(?-i:-p)|--password)[ \t]+",
            r"|\bnet user[ \t]+[^\s/]+[ \t]+",
            r"|\bmc (?:alias set|config host add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+)",
            value!()
        ),
        check: Check::Assignment,
        ..DEFAULTS
    },
    Rule {
        // A password piped into a command that reads it: `echo 'x' | docker
        // login -u bob --password-stdin`, `echo 'app:x' | chpasswd`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["--password-stdin", "chpasswd"],
        pattern: concat!(
            r#"(?i)\becho[ \t]+(?:-n[ \t]+)?(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s|'"]+))[ \t]*\|[ \t]*(?:sudo[ \t]+)?"#,
            r"(?:(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login\b[^\r\n]*?--password-stdin|chpasswd\b)"
        ),
        check: Check::Assignment,
        ..DEFAULTS
    },
    Rule {
        // Configuration lines whose value is a password: Redis's `requirepass`
        // and `masterauth`, wpa_supplicant's `psk=` and `wpa_passphrase`.
        kind: CredentialKind::PasswordAssignment,
        anchors: &["requirepass", "masterauth", "psk", "wpa_passphrase"],
        pattern: concat!(
            r"(?im)^[ \t]*(?:requirepass|masterauth|(?:wpa_)?psk|wpa_passphrase)(?:[ \t]*=[ \t]*|[ \t]+)",
            value!()
        ),
        check: Check::Assignment,
        ..DEFAULTS
    },
    Rule {
        // A `.pgpass` line: `host:port:database:user:password` (the port
        // PostgreSQL's, PgBouncer's or any).
        kind: CredentialKind::PasswordAssignment,
        anchors: &[":5432:", ":5433:", ":6432:", ":*:"],
        pattern: r"(?m)^[ \t]*[^\s:#|]+:(?:5432|5433|6432|\*):[^\s:|]+:[^\s:|]+:([^\s|`]+)[ \t]*$",
        check: Check::Assignment,
        ..DEFAULTS
    },
];
