//! Shared by the CLI test binaries: the `cairn` binary with its index cache kept
//! in the build's temporary folder (never the user's `~/.cache`).

// Each test binary uses a part of this module.
#![allow(dead_code)]

use assert_cmd::Command;

/// `XDG_CACHE_HOME` for every `cairn` a test starts.
pub(crate) const XDG_CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-cache");

/// The `cairn` binary, its persistent index under [`XDG_CACHE`].
pub(crate) fn test_cairn() -> Command {
    let mut c = Command::cargo_bin("cairn").unwrap();
    c.env("XDG_CACHE_HOME", XDG_CACHE);
    c
}
