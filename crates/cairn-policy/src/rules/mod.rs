//! The credential detectors, as data: for each one its kind, its anchors, its
//! pattern and how a match becomes a span ([`Check`](crate::rule::Check)). The engine that runs them
//! is `detect.rs`; what counts as "obviously not a secret" is `benign.rs`.
//!
//! Formats follow the public rule sets of secret scanners (prefixes and lengths
//! of vendor tokens); the patterns are our own. Every rule names the literals it
//! cannot flag anything without, so text with none of them runs no regex.

mod keys;
mod passwords;
mod tokens;

use crate::rule::{DEFAULTS, Rule};

/// Every detector, in the order they run: tokens known by their shape, then
/// passwords, then keys and other secrets (a tie between two kinds on one
/// span goes by [`crate::CredentialKind`]'s order, not this one).
pub(crate) const RULES: &[Rule] = &joined::<
    { tokens::TOKENS.len() + passwords::PASSWORDS.len() + keys::KEYS.len() },
>(&[tokens::TOKENS, passwords::PASSWORDS, keys::KEYS]);

/// The rules of `parts`, one after another.
const fn joined<const N: usize>(parts: &[&[Rule]]) -> [Rule; N] {
    let mut out = [DEFAULTS; N];
    let mut at = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[at] = parts[p][i];
            at += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(at == N, "every rule has its place");
    out
}
