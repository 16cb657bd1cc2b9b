//! The red team's leaks, as tables: planted canaries with random-looking values
//! (generated, seeded, so every run is the same) in every context that once let
//! them through, and the look-alikes that must stay as written.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_policy::{find_credentials, redact, redact_markdown};

/// A small deterministic generator (xorshift64*): random-looking canaries.
pub(crate) struct Gen(u64);

impl Gen {
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `n` characters drawn from `alphabet`.
    pub(crate) fn take(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        (0..n)
            .map(|_| char::from(a[usize::try_from(self.next() % a.len() as u64).unwrap_or(0)]))
            .collect()
    }
}

pub(crate) const UPPER_DIGITS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
pub(crate) const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX: &str = "0123456789abcdef";

/// Asserts that no 8-byte window of `secret` is left in `shown`, the output
/// for `text`.
#[track_caller]
fn assert_no_window(shown: &str, text: &str, secret: &str) {
    let leaked = secret
        .as_bytes()
        .windows(8.min(secret.len()))
        .find(|w| shown.as_bytes().windows(w.len()).any(|o| o == *w));
    assert!(
        leaked.is_none(),
        "{secret:?} leaked from {text:?}: {shown:?}"
    );
}

/// Asserts that no 8-byte window of `secret` is left in `text` redacted.
pub(crate) fn assert_hidden(text: &str, secret: &str) {
    let out = redact(text);
    assert_no_window(&out.text, text, secret);
    assert!(find_credentials(&out.text).is_empty(), "{text:?}");
    assert_eq!(redact(&out.text).text, out.text, "idempotent: {text:?}");
}

/// Vendor tokens with a distinctive prefix: (prefix, alphabet, length, whether
/// the prefix is long enough to stand right after a letter, `keyAKIA…`).
const TOKENS: &[(&str, &str, usize, bool)] = &[
    ("AKIA", UPPER_DIGITS, 16, true),
    ("ASIA", UPPER_DIGITS, 16, true),
    ("sk_live_", ALNUM, 24, true),
    ("rk_live_", ALNUM, 28, true),
    ("sk_test_", ALNUM, 24, false),
    ("ghp_", ALNUM, 36, true),
    ("gho_", ALNUM, 36, true),
    ("github_pat_", ALNUM, 40, true),
    ("glpat-", ALNUM, 24, true),
    ("xoxb-", ALNUM, 30, true),
    ("AIza", ALNUM, 35, true),
    ("npm_", ALNUM, 36, false),
    ("hf_", ALNUM, 34, false),
    ("whsec_", ALNUM, 32, true),
    ("SK", "0123456789abcdef", 32, false),
    ("key-", HEX, 32, false),
    ("sk-proj-", ALNUM, 40, false),
    // A held-out trial's `docker login -u bot -p dckr_pat_…` leaked (fails before).
    ("dckr_pat_", ALNUM, 27, true),
    ("dckr_oat_", ALNUM, 27, true),
    ("lin_api_", ALNUM, 40, true),
    ("sntrys_", ALNUM, 60, true),
    ("NRAK-", UPPER_DIGITS, 27, true),
    ("ATATT3", ALNUM, 120, true),
];

/// Where a token is written: markdown emphasis, identifiers, punctuation.
const CONTEXTS: &[&str] = &[
    "{}", "x {} y", "_{}_", "__{}__", "*{}*", "**{}**", "{}_prod", "{}_", "_{}", "({})", "\"{}\"",
    "`{}`", "k={};", "-{}-", "/{}/",
];

#[test]
fn tokens_next_to_word_characters_are_redacted() {
    let mut g = Gen::new(0x5eed_0001);
    for &(prefix, alphabet, len, after_letter) in TOKENS {
        for _ in 0..4 {
            let body = g.take(alphabet, len);
            let token = format!("{prefix}{body}");
            // Mailgun's `key-` after a `-` is the tail of a name (`cache-key-…`).
            let mut contexts: Vec<String> = CONTEXTS
                .iter()
                .filter(|c| !(prefix == "key-" && c.starts_with('-')))
                .map(|c| c.replace("{}", &token))
                .collect();
            if after_letter {
                contexts.push(format!("key{token}"));
                contexts.push(format!("see key{token}_prod now"));
            }
            // Two in a row, one character apart.
            let other = format!("{prefix}{}", g.take(alphabet, len));
            contexts.push(format!("{token} {other}"));
            for text in &contexts {
                assert_hidden(text, &body);
            }
            assert_hidden(&format!("{token} {other}"), &other[prefix.len()..]);
        }
    }
}

#[test]
fn look_alikes_of_short_prefixes_stay() {
    let mut g = Gen::new(7);
    for text in [
        "risk_test_computeRiskScoreWithNulls".to_owned(),
        format!("task-{}", g.take(HEX, 32)),
        format!("desk-{}", g.take(ALNUM, 36)),
        format!("cache-key-{}", g.take(HEX, 32)),
        format!("cache_key-{}", g.take(HEX, 32)),
        format!("TASK{}", g.take(HEX, 32)),
        format!("pnpm_{}", g.take(ALNUM, 36)),
        format!("half_{}", g.take(ALNUM, 32)),
        "AKIAIOSFODNN7EXAMPLEX1".to_owned(),
        "XAKIAIOSFODNN7EXAMPLE".to_owned(),
    ] {
        let out = redact(&text);
        assert!(!out.is_redacted(), "{text:?} -> {:?}", out.text);
    }
}

/// Asserts that no 8-byte window of `secret` is left in `text` printed as
/// written ([`redact_markdown`]), and that the output is stable.
fn assert_hidden_raw(text: &str, secret: &str) {
    let out = redact_markdown(text);
    assert_no_window(&out.text, text, secret);
    assert!(out.count > 0, "{text:?}");
    assert_eq!(
        redact_markdown(&out.text).text,
        out.text,
        "idempotent: {text:?}"
    );
}

/// Raw markdown whose rendered text shows a credential the raw text hides from
/// the rules: `{g}` is a GitHub token's body, `{a}` an AWS key's 16 characters,
/// `{p}` a password.
const RAW_MARKDOWN: &[&str] = &[
    "token ghp\\_{g} here",
    "gh&#112;_{g}",
    "ghp&#95;{g}",
    "&#65;KIA{a}",
    "&#x41;KIA{a} in hex",
    "`ghp_`{g}",
    "x `AKIA`{a} y",
    "gh*p*_{g}",
    "gh**p**_{g}",
    "AKIA<span></span>{a}",
    "gh<!-- x -->p_{g}",
    "The password for payout settlement retry is\n{p}",
    "The password for payout settlement retry is\r\n{p}\n\nnext paragraph",
    "> the staging password is\n> {p}",
    "- the root password was\n  {p}",
    "---\ntitle: x\n---\nthe password is\n{p}",
];

#[test]
fn raw_markdown_hides_what_its_rendered_text_shows() {
    let mut g = Gen::new(0x5eed_0002);
    for template in RAW_MARKDOWN {
        for _ in 0..3 {
            let gh = g.take(ALNUM, 36);
            let aws = g.take(UPPER_DIGITS, 16);
            let pw = format!("{}!{}", g.take(ALNUM, 10), g.take("0123456789", 2));
            let text = template
                .replace("{g}", &gh)
                .replace("{a}", &aws)
                .replace("{p}", &pw);
            let secret = if template.contains("{g}") {
                &gh
            } else if template.contains("{a}") {
                &aws
            } else {
                &pw
            };
            assert_hidden_raw(&text, secret);
            // A `--lines` slice is cut from the whole note's redaction.
            let whole = redact_markdown(&text).text.into_owned();
            for line in whole.lines() {
                assert!(!line.contains(secret.as_str()), "{text:?}");
            }
        }
    }
}

#[test]
fn raw_markdown_without_credentials_is_left_as_written() {
    for text in [
        "The password is required.\nSee the vault.",
        "**bold**, `code`, &amp; and \\_escaped\\_ text\n\n- a list\n- of items",
        "the password for the admin UI is\nstored in the vault",
        "---\ntitle: Runbook\ntags: [ops]\n---\n# Runbook\n\nRotate the key: see `rotate.sh`.",
        "| key | value |\n|---|---|\n| host | db |",
        "Use `ghp_` tokens (classic) for CI.",
    ] {
        let out = redact_markdown(text);
        assert!(!out.is_redacted(), "{text:?} -> {:?}", out.text);
        assert!(
            matches!(out.text, std::borrow::Cow::Borrowed(_)),
            "{text:?}"
        );
    }
}

/// Ways notes write a password down; `{p}` is a generated password.
const PASSWORD_PHRASINGS: &[&str] = &[
    "Use passphrase \"{p}\" to unlock.",
    "Use passphrase '{p}' to unlock.",
    "curl -u admin:{p} https://api.example.com/v1",
    "curl --user deploy:{p} https://x",
    "The root password was changed to {p}.",
    "the password has been changed to {p}",
    "Use {p} as the password.",
    "use `{p}` as the root password",
    "pw: {p}",
    "psw: {p}",
    "pwd: {p}",
    "passwd: {p}",
    "PW = {p}",
    "password → {p}",
    "Password -> {p}",
    "password => {p}",
    "password:\n{p}",
    "password:\n  {p}\n",
    "**Password:**\n{p}",
    "user admin, pass {p}",
    "login: admin / pass: {p}",
    "webhook secret {p}",
    "the webhook secret is {p}",
    "postgresql://app:${p}@db/x",
    "Q: What is the staging DB password?\nA: {p}",
    "**Q:** root password?\n**A:** {p}",
    "- Q: wifi password? A: `{p}`",
    "Q: What's the password for the staging box?\nA: {p}",
    "## What is the staging password?\n\nA: {p}\n",
    "Q: staging password?\r\n\r\nA: {p}\r\n",
    "Q: staging password?\n*A:* {p}",
    "Q: staging password?\n_A:_ {p}",
    "Q: staging password?\n**A**: {p}",
    "**Q: staging password?**\n**A: {p}**",
    "**Q: staging password?** **A: {p}**",
    "1. Q: staging password?\n1. A: {p}",
    "Q: staging password?\nA:\n{p}",
    "Q. staging password?\nA. {p}",
    "Q: staging password?\nAns: {p}",
    "Question: staging password?\nAnswer - {p}",
    "Q: staging password ?\nA: {p}",
    "Q: staging password？\nA: {p}",
    "Q: password for prod? (ask Priya)\nA: {p}",
    "Q: staging password?\nA: {p} (rotated monthly)",
    "Q: staging password?\nA: It's {p}",
    "Q: staging password?\nA: {p} ✅",
    "Q: the door PIN?\nA: {p}",
    "Q: das Kennwort?\nA: {p}",
    "Question: what's the admin passphrase?\nAnswer: {p}\n",
    // Red-team trial (thirty-third session): a key with what it is for, then
    // a colon; the verb before the key; `pw` in a sentence; a registry login.
    "Password for staging: {p}",
    "Root password for the NAS: {p}",
    "**Password for the admin console:** {p}",
    "Passphrase for the GPG signing key: `{p}`",
    "password for prod db: {p}",
    "Changed the root password to {p} today",
    "We reset the admin password to {p}.",
    "I set the office wifi password to {p}",
    "set wifi pw to {p}",
    "router admin pw is {p}",
    "run `docker login -u ci -p {p} registry.example.com`",
    "podman login quay.io -u bot -p {p}",
    "bindpw = {p}",
    "ldap_default_authtok = {p}",
    "token for the CI bot: {p}",
    "API key for Mailchimp: {p}",
    "The shared secret with Acme is {p}.",
    "API key (prod): {p}",
    "Password (staging DB): `{p}`",
    "WIFI:S:GuestNet;T:WPA;P:{p};;",
    "htpasswd -b .htpasswd admin {p}",
    "htpasswd -nbB admin {p}",
    "ldapsearch -x -D cn=admin,dc=example -w {p} -b dc=example",
    "openssl enc -aes-256-cbc -pass pass:{p} -in a -out b",
    "openssl enc -d -k {p} -in a",
];

#[test]
fn password_phrasings_are_redacted() {
    let mut g = Gen::new(0x5eed_0003);
    let (mut leaked, mut cases) = (Vec::new(), Vec::new());
    for template in PASSWORD_PHRASINGS {
        for _ in 0..4 {
            let pw = format!(
                "{}{}!{}",
                g.take("ABCDEFGHJKLMNPQRSTUVWXYZ", 2),
                g.take(ALNUM, 9),
                g.take("0123456789", 2)
            );
            let text = template.replace("{p}", &pw);
            for out in [redact(&text).text, redact_markdown(&text).text] {
                if out.contains(&pw) {
                    leaked.push(format!("{text:?} -> {out:?}"));
                }
            }
            cases.push((text, pw));
        }
    }
    assert!(leaked.is_empty(), "{}", leaked.join("\n"));
    for (text, pw) in &cases {
        assert_hidden(text, pw);
        assert_hidden_raw(text, pw);
    }
}

/// Keys of an environment file, `WireGuard`'s preshared key and a kubeconfig's
/// client key (red-team trial: shown by `get` while `ENCRYPTION_KEY=` beside
/// them was redacted); what names a thing under such a key stays.
#[test]
fn environment_keys_are_redacted_and_names_stay() {
    let secret = "Zq81vLq8mwQk29x0PaTz5";
    for text in [
        format!("APP_KEY=base64:{secret}="),
        format!("OPENAI_KEY={secret}"),
        format!("export LICENSE_KEY=\"{secret}\""),
        format!("PresharedKey = {secret}{secret}="),
        format!("    client-key-data: {secret}{secret}=="),
        format!("Set `OPENAI_KEY={secret}` in .env"),
        format!("OPENAI_KEY={secret}."),
        format!("(APP_KEY=base64:{secret}=)"),
        "HMAC_KEY=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
            .replace("9f86", secret),
    ] {
        assert_hidden(&text, secret);
        assert_hidden_raw(&text, secret);
    }
    for text in [
        "PRIMARY_KEY=id",
        "SORT_KEY=created_at",
        "CACHE_KEY=users:{id}",
        "OPENAI_KEY=$OPENAI_KEY",
        "OPENAI_KEY=${OPENAI_KEY}",
        "PARTITION_KEY=tenant",
        "const MUX_SECRET_KEY = process.env.MUX_SECRET_KEY as string",
        "SORT_KEY=created_at_desc_order",
        "OBJECT_KEY=uploads/avatars/user_123",
        "PARTITION_KEY=tenant_id_and_region",
    ] {
        assert!(!redact(text).is_redacted(), "{text}");
        assert!(!redact_markdown(text).is_redacted(), "{text}");
    }
}

/// A list of logins under a heading that names them (red-team trial: `#
/// Passwords` then `- gmail: …`, shown in every output), and lists under such
/// headings that hold none.
#[test]
fn a_list_under_a_heading_of_passwords_is_redacted() {
    let text = "# Passwords\n\n- gmail: Tr0ub4dorCNRY01a\n- router admin: CNRY01bRouter!\n- AWS console (root): `CNRY01cAws#2024`\n";
    for secret in ["Tr0ub4dorCNRY01a", "CNRY01bRouter!", "CNRY01cAws#2024"] {
        assert_hidden(text, secret);
        assert_hidden_raw(text, secret);
    }
    for text in [
        "## Secrets\n\n- Storage: Vault\n- Rotation: quarterly\n- Owner: @priya\n- Runbook: https://wiki.example.com/secrets\n",
        "## Credentials\n\n- Where: the team vault\n- Ticket: SEC-1234\n- Expires: 2026-12-31\n",
        "## How we store passwords\n\n- Hash: argon2id\n",
        "## Logins\n\n- gmail: alice@example.com\n- GitHub: @alice\n",
        "## Logins\n\nWe use SSO: Okta for everything.\n",
    ] {
        let out = redact_markdown(text);
        assert!(!out.is_redacted(), "{text:?} -> {:?}", out.text);
    }
}

/// What reads like a password phrasing but gives no password.
const PASSWORD_PROSE: &[&str] = &[
    "password: see the vault",
    "password is required",
    "The password is required for login.",
    "pw: see 1Password",
    "password:\nsee the vault entry",
    "password:\n\n## Next section",
    "Use a strong password as the default.",
    "Use it as the password.",
    "Use SSO as the password.",
    "the password was changed to something longer",
    "password → see the team vault",
    "curl -u $USER:$TOKEN https://x",
    "curl -u admin:${ADMIN_PASSWORD} https://x",
    "curl -u \"$CREDS\" https://x",
    "postgresql://app:$DB_PASSWORD@db/x",
    "postgresql://app:${PASS}@db/x",
    "postgresql://app:$PGPASS@db/x",
    "user admin, pass the token along",
    "the webhook secret is stored in Vault",
    "webhook secret rotation",
    "pass it to the handler",
    "Q: Where is the staging password?\nA: In the team vault.",
    "Q: Who rotates the password?\nA: Priya",
    "Q: Do we store the password? A: No",
    "Q: Password manager?\nA: 1Password",
    "Q: Which password hash?\nA: argon2id",
    "Q: What is the password policy?\nA: 12+ chars",
    "Q: Is there a password for the guest wifi?\nA: N/A",
    "Q: Where is the password?\nA: 1Password",
    "Which hash for the password?\nA: PBKDF2",
    "Who knows the password?\nA: @priya",
    "Who owns the password?\nA: @SRE-oncall",
    "Which ticket tracks the password?\nA: SEC-1234",
    "Q: How long is the password?\nA: 16chars+",
    "Password for staging: see the team vault",
    "Password for the admin console: ask Priya",
    "Pins for the release: v1.2.3",
    "Tokens for the theme: colors.primary",
    "Reset the password to the default.",
    "We changed the password to something longer.",
    "set the password to expire in 90 days",
    "docker login -u ci -p $REGISTRY_PASSWORD registry.example.com",
    "docker login -u ci --password-stdin registry.example.com",
    "the pw is in 1Password",
    "token for the CI bot: see the CI settings",
    "Token for design: see Figma",
    "API key for Mailchimp: in the team vault",
    "the shared secret with the vendor is stored in Vault",
    "API key (prod): see the team vault",
    "Password (min. length): twelve",
    "htpasswd -B .htpasswd admin",
    "ldapsearch -x -W -b dc=example",
    "openssl enc -pass env:PASSPHRASE -in a",
];

#[test]
fn password_prose_without_a_password_stays() {
    for text in PASSWORD_PROSE {
        let out = redact(text);
        assert!(!out.is_redacted(), "{text:?} -> {:?}", out.text);
        let raw = redact_markdown(text);
        assert!(!raw.is_redacted(), "raw {text:?} -> {:?}", raw.text);
    }
}

#[test]
fn text_cut_into_words_loses_its_credentials() {
    use cairn_policy::without_credentials;
    assert_eq!(
        without_credentials("src/AKIAIOSFODNN7EXAMPLE.rs"),
        "src/ .rs"
    );
    assert_eq!(
        without_credentials("password=Xk9fakePw2Qz now"),
        "password=  now"
    );
    assert!(matches!(
        without_credentials("payout retries"),
        std::borrow::Cow::Borrowed("payout retries")
    ));
}

/// How the time to read `text(n)` (fastest of three runs) grows from `small`
/// to ten times as much: compared in one run, never a wall-clock bound.
fn growth(text: impl Fn(usize) -> String, read: impl Fn(&str) -> bool, small: usize) -> f64 {
    let time = |n: usize| {
        let text = text(n);
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                assert!(!read(&text), "nothing to redact");
                t.elapsed()
            })
            .min()
            .unwrap()
            .as_secs_f64()
    };
    let base = time(small).max(1e-6);
    time(small * 10) / base
}

/// A long line full of one anchor (`password password …`) is read in time
/// linear in its length: the line tests found each occurrence's line bounds
/// anew, so 180 KB took 19 s (found by a review). Ten times the text may take
/// ten times as long, not a hundred.
#[test]
fn a_line_full_of_an_anchor_is_read_in_linear_time() {
    let ratio = growth(
        |n| "password ".repeat(n),
        |t| redact(t).is_redacted(),
        2_000,
    );
    assert!(ratio < 40.0, "20,000 words took {ratio:.1} times 2,000");
}

/// A long paragraph of one phrasing (`password is required` on every line),
/// which a markdown view reads as one line, is read in linear time too: each
/// match searched back to the line's start and on to its end, so 16,000 lines
/// took 6 s. Ten times the text may take ten times as long, not a hundred.
#[test]
fn a_long_paragraph_is_read_in_linear_time() {
    let ratio = growth(
        |n| "password is required\n".repeat(n),
        |t| redact_markdown(t).is_redacted(),
        500,
    );
    assert!(ratio < 40.0, "5,000 lines took {ratio:.1} times 500");
}
