//! The detectors of API keys, tokens and other secrets given under a name:
//! assignments, sentences, flags, vendor keys without a label, bearer tokens,
//! block scalars.

use crate::CredentialKind;
use crate::patterns::{API_KEY_ENDS, SECRET_ENDS};
use crate::rule::{Check, DEFAULTS, Rule};
use crate::shape::{Line, Then};

pub(crate) const KEYS: &[Rule] = &[
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
            "geheimnis",
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
            r"secret(?:[ _-]?(?:access[ _-]?)?key(?:[_-]?base)?|[ _-]?token)?|geheimnis|credentials?|private[_-]?key|(?:signing|encryption|master)[_-]?key|(?-i:(?:private|signing|encryption|master)Key)"
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
    Rule {
        // A secret with what it is for before the colon: `client secret (prod):
        // x`, `webhook secret for Acme: x`, `signing secret [rotated]: x`,
        // `shared secret hex: x` (a red team, 2026-12-01).
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["secret"],
        pattern: qualified!(
            r"(?:(?:client|webhook|signing|shared|app|api|consumer|oauth|jwt|session|cookie)[ \t_-]?)?secret"
        ),
        check: Check::Prose,
        line: Line::After(&[":", "："]),
        ..DEFAULTS
    },
    Rule {
        // A session cookie's value: `Cookie: sessionid=x`, `Set-Cookie:
        // session=x; Path=/` (only one that looks random).
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["cookie"],
        pattern: r"(?i)\b(?:set-)?cookie[ \t]*:[^\r\n]*?\b(?:session(?:id)?|sid|sessid|phpsessid|jsessionid|connect\.sid|[a-z0-9]*_session|auth(?:_token)?|token|jwt|remember_token)=([^;\s\x22']+)",
        check: Check::RandomLooking,
        ..DEFAULTS
    },
    Rule {
        // Vault's unseal keys as `vault operator init` prints them, a presigned
        // URL's signature (S3's `X-Amz-Signature`, an Azure SAS's `sig`).
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["unseal key", "x-amz-signature=", "sig="],
        pattern: r"(?i)(?:\bunseal key(?:[ \t]+\d+)?[ \t]*:[ \t]*([A-Za-z0-9+/=]{20,})|X-Amz-Signature=([0-9a-f]{64})|[?&]sig=([A-Za-z0-9%+/=]{20,}))",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // A wallet's seed phrase (BIP-39: twelve to twenty-four words of three
        // to eight letters), alone on the rest of its line or the next after
        // `seed phrase:`, `recovery phrase`, `mnemonic:`.
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["phrase", "mnemonic", "seed words"],
        pattern: r"(?im)\b(?:(?:seed|recovery|mnemonic|backup|secret|wallet)[ \t]+(?:phrase|words)|mnemonic)(?:\*\*|__)?[ \t]*[:：=-]?(?:\*\*|__)?[ \t]*(?:\r?\n[ \t]*)?((?:[a-z]{3,8}[ \t,]+){11,23}[a-z]{3,8})[ \t]*\.?[ \t]*\r?$",
        check: Check::Plain,
        ..DEFAULTS
    },
    Rule {
        // Recovery or backup codes after their label: `GitHub recovery codes:
        // 8f3k2-m9x7q 4h7q9-z2c8w`, `2FA backup code: 48213967` (each code six
        // to ten digits, or two groups with a digit between a dash).
        kind: CredentialKind::GenericSecretAssignment,
        anchors: &["code"],
        pattern: r"(?i)\b(?:recovery|backup|2fa|mfa|otp|scratch|emergency)[ \t]+codes?(?:[ \t]*\([^()\r\n]{1,40}\))?(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?[ \t]*((?:[0-9]{6,10}|[A-Za-z0-9]{0,5}[0-9][A-Za-z0-9]{0,5}-[A-Za-z0-9]{3,6}|[A-Za-z0-9]{3,6}-[A-Za-z0-9]{0,5}[0-9][A-Za-z0-9]{0,5})(?:[ \t]*[,;]?[ \t]+(?:[0-9]{6,10}|[A-Za-z0-9]{0,5}[0-9][A-Za-z0-9]{0,5}-[A-Za-z0-9]{3,6}|[A-Za-z0-9]{3,6}-[A-Za-z0-9]{0,5}[0-9][A-Za-z0-9]{0,5}))*)",
        check: Check::Plain,
        line: Line::After(&[":", "："]),
        ..DEFAULTS
    },
    Rule {
        // A key's value right after its name, or after a colon when the name
        // is one no assignment rule knows (`API key Kq7vZ3mXp9C5`, `JWT
        // signing key: Kq7vZ3mXp9`): only a value no sentence has there
        // (`Check::Bare`).
        kind: CredentialKind::ApiKeyAssignment,
        anchors: &["key", "token", "secret"],
        pattern: bare!(
            r"api[ _-]?key|access[ _-]?key|secret[ _-]?key|signing[ _-]?key|encryption[ _-]?key|master[ _-]?key|license[ _-]?key|token",
            r"[,:：]?(?:\*\*|__)?"
        ),
        check: Check::Bare,
        line: Line::Key {
            ends: &["key", "token"],
            then: Then::Generated,
        },
        ..DEFAULTS
    },
];
