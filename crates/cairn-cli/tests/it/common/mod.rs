//! Shared by the CLI test modules: the `cairn` binary with its index cache kept
//! in the build's temporary folder (never the user's `~/.cache`).

// Test helpers fail loudly, as the tests do.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// `XDG_CACHE_HOME` for every `cairn` a test starts.
pub(crate) const XDG_CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-cache");

/// The `cairn` binary, its persistent index under [`XDG_CACHE`] (a
/// `$CAIRN_CACHE_DIR` of the developer's would move it).
pub(crate) fn test_cairn() -> Command {
    let mut c = Command::cargo_bin("cairn").unwrap();
    c.env("XDG_CACHE_HOME", XDG_CACHE)
        .env_remove("CAIRN_CACHE_DIR");
    c
}

/// The demo vault's folder (`fixtures/demo`).
pub(crate) fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo")
}

/// What the demo vault must never show, in any answer: its planted secrets,
/// confidential notes' markers and credentials, one a line in
/// `fixtures/demo/canaries.txt` (the MCP client test reads the same file).
pub(crate) static DEMO_CANARIES: std::sync::LazyLock<Vec<&'static str>> =
    std::sync::LazyLock::new(|| {
        include_str!("../../../../../fixtures/demo/canaries.txt")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect()
    });
