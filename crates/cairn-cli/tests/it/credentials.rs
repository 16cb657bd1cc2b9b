//! Credential detection through the real binary: code that looks like an
//! assignment is shown as written by `get` and not reported by `lint`; the new
//! formats (a password in a sentence, vendor tokens, a Kubernetes Secret) are
//! redacted by `get` and reported by `lint` at their lines.

#![allow(clippy::unwrap_used)]

use crate::common;
use common::test_cairn;

use std::path::Path;

/// A note of code and prose that mentions credentials without holding any.
const CODE_NOTE: &str = r"# Macro and config notes

```rust
macro_rules! forward {
    ($($token: tt)*) => { inner!($($token)*) };
}
```

```ts
const pass = getPass();
interface Login { token: string; }
```

```yaml
password: ${{ secrets.DB_PASSWORD }}
other: $DB_PASSWORD
generated: `openssl rand -hex 32`
```
";

/// Fake credentials in the shapes the detector learned in #12.
const HF: &str = "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";
const STAGING_PW: &str = "Tq9vXw2LmZpR";
const K8S_VALUE: &str = "czNjcjN0LXN0YWdpbmctcHc=";

fn secrets_note() -> String {
    format!(
        "# Staging access\n\nThe staging DB password is {STAGING_PW}\n\nHF_TOKEN={HF}\n\n\
         ```yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {K8S_VALUE}\n```\n"
    )
}

fn vault() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("macros.md"), CODE_NOTE).unwrap();
    std::fs::write(dir.path().join("staging.md"), secrets_note()).unwrap();
    dir
}

fn run(vault: &Path, args: &[&str]) -> (String, String) {
    let mut c = test_cairn();
    let out = c
        .env_remove("CAIRN_CONFIG")
        .args(args)
        .arg("--vault")
        .arg(vault)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn get_shows_code_as_written() {
    let v = vault();
    let (out, err) = run(v.path(), &["get", "macros.md"]);
    assert!(!out.contains("[redacted"), "code was redacted:\n{out}{err}");
    for line in [
        "($($token: tt)*) => { inner!($($token)*) };",
        "const pass = getPass();",
        "interface Login { token: string; }",
        "password: ${{ secrets.DB_PASSWORD }}",
        "generated: `openssl rand -hex 32`",
    ] {
        assert!(out.contains(line), "{line} missing:\n{out}");
    }
}

#[test]
fn get_redacts_the_new_formats() {
    let v = vault();
    let (out, err) = run(v.path(), &["get", "staging.md"]);
    for secret in [HF, STAGING_PW, K8S_VALUE] {
        assert!(
            !out.contains(secret) && !err.contains(secret),
            "{secret} leaked:\n{out}"
        );
    }
    for shown in [
        "The staging DB password is [redacted:password]",
        "HF_TOKEN=[redacted:api-key]",
        "  password: [redacted:kubernetes-secret]",
    ] {
        assert!(out.contains(shown), "{shown} missing:\n{out}");
    }
}

#[test]
fn lint_reports_credentials_not_code() {
    let v = vault();
    let (out, err) = run(v.path(), &["lint", "--now", "2026-11-22T09:00:00Z"]);
    assert!(!out.contains("macros.md"), "code reported:\n{out}{err}");
    for finding in [
        "error: staging.md:3: a credential (password)",
        "error: staging.md:5: a credential (api-key)",
        "error: staging.md:13: a credential (kubernetes-secret)",
    ] {
        assert!(out.contains(finding), "{finding} missing:\n{out}{err}");
    }
    for secret in [HF, STAGING_PW, K8S_VALUE] {
        assert!(
            !out.contains(secret) && !err.contains(secret),
            "{secret} leaked"
        );
    }
}
