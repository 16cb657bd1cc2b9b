//! The detectors of credentials known by their own shape: cloud and vendor
//! keys by their prefix and length, private key blocks, JWTs, a URL's
//! password, Kubernetes and Docker secrets.

use crate::CredentialKind;
use crate::rule::{Check, DEFAULTS, Rule};
use crate::shape::Line;

pub(crate) const TOKENS: &[Rule] = &[
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
];
