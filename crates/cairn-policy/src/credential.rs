//! The kinds of credential the redactor recognises, and their stable names.

use std::fmt;

use serde::Serialize;

/// A kind of credential. The declaration order is the tie-break when two
/// detectors flag exactly the same span (the more specific kind comes first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum CredentialKind {
    /// An AWS access key id (`AKIA…`, `ASIA…`, … + 16 characters).
    #[serde(rename = "aws-access-key")]
    AwsAccessKey,
    /// An AWS secret access key assigned to `aws_secret_access_key` or similar.
    #[serde(rename = "aws-secret-key")]
    AwsSecretKey,
    /// A GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
    #[serde(rename = "github-token")]
    GithubToken,
    /// A GitLab token (`glpat-`, `gldt-`, `glrt-`, …).
    #[serde(rename = "gitlab-token")]
    GitlabToken,
    /// A Slack token (`xoxb-`, `xoxp-`, `xapp-`, …) or the secret path of a Slack webhook URL.
    #[serde(rename = "slack-token")]
    SlackToken,
    /// A PEM private key block, BEGIN line through the matching END line, or an
    /// age secret key (`AGE-SECRET-KEY-1…`).
    #[serde(rename = "private-key")]
    PrivateKey,
    /// A JSON Web Token (`eyJ….eyJ….signature`).
    #[serde(rename = "jwt")]
    Jwt,
    /// The password part of `scheme://user:password@host`.
    #[serde(rename = "url-password")]
    UrlPassword,
    /// A value under `data:`/`stringData:` of a Kubernetes `kind: Secret`
    /// manifest (YAML or JSON), or a `.dockerconfigjson`.
    #[serde(rename = "kubernetes-secret")]
    KubernetesSecret,
    /// A password: the value of a `password=`/`passwd:`/`Passwort:`/`--password`
    /// assignment, or one stated in a sentence (`the DB password is X`), a YAML
    /// block (`password: |`), a table cell, an XML element, a netrc file, a
    /// command line (`sshpass -p`, `mysql -pX`), SQL (`WITH PASSWORD '…'`) or a
    /// Docker `config.json` `auth`.
    #[serde(rename = "password")]
    PasswordAssignment,
    /// The value of an `api_key=`/`access_token:`/`*_TOKEN=` assignment, or a
    /// well-known vendor key: Stripe (`sk_live_`, `whsec_`), OpenAI/Anthropic,
    /// Google, npm, `PyPI`, Mapbox, Hugging Face (`hf_`), `SendGrid` (`SG.`), Twilio
    /// (`SK…`), `DigitalOcean` (`dop_v1_`), Shopify (`shpat_`), Tailscale
    /// (`tskey-`), Mailgun (`key-`), Discord and Telegram bot tokens and webhook
    /// URLs, Azure `AccountKey=`/`SharedAccessKey=`, `HashiCorp` Vault (`hvs.`),
    /// Doppler (`dp.st.`), `PlanetScale` (`pscale_pw_`), the AI providers' keys
    /// (`gsk_`, `xai-`, `pplx-`, `r8_`, `sk-or-v1-`) and more in `rules/`.
    #[serde(rename = "api-key")]
    ApiKeyAssignment,
    /// The credentials of an `Authorization:` header or a bare `Bearer <token>`.
    #[serde(rename = "bearer-token")]
    BearerToken,
    /// The value of a `secret:`/`client_secret=`/`private_key =`/`credentials:` assignment.
    #[serde(rename = "secret")]
    GenericSecretAssignment,
}

impl CredentialKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [CredentialKind] = &[
        Self::AwsAccessKey,
        Self::AwsSecretKey,
        Self::GithubToken,
        Self::GitlabToken,
        Self::SlackToken,
        Self::PrivateKey,
        Self::Jwt,
        Self::UrlPassword,
        Self::KubernetesSecret,
        Self::PasswordAssignment,
        Self::ApiKeyAssignment,
        Self::BearerToken,
        Self::GenericSecretAssignment,
    ];

    /// The stable kebab-case name, as used in `[redacted:<name>]` and in counts.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AwsAccessKey => "aws-access-key",
            Self::AwsSecretKey => "aws-secret-key",
            Self::GithubToken => "github-token",
            Self::GitlabToken => "gitlab-token",
            Self::SlackToken => "slack-token",
            Self::PrivateKey => "private-key",
            Self::Jwt => "jwt",
            Self::UrlPassword => "url-password",
            Self::KubernetesSecret => "kubernetes-secret",
            Self::PasswordAssignment => "password",
            Self::ApiKeyAssignment => "api-key",
            Self::BearerToken => "bearer-token",
            Self::GenericSecretAssignment => "secret",
        }
    }

    /// The replacement text for one credential of this kind: `[redacted:<name>]`.
    pub fn marker(self) -> String {
        format!("{}{}]", crate::REDACTION_PREFIX, self.as_str())
    }
}

impl fmt::Display for CredentialKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
