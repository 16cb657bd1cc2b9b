//! Printing: the only writes to stdout outside the hook's envelope (`print_out`,
//! `print_json`), and the shapes human output shares (a UTC timestamp).

use std::io::Write;

use anyhow::{Context, Result};

/// `n` and what is counted, singular or plural: "1 note", "2 notes".
pub(crate) fn count<N>(n: N, one: &str, many: &str) -> String
where
    N: std::fmt::Display + PartialEq + From<u8>,
{
    format!("{n} {}", if n == N::from(1) { one } else { many })
}

/// Writes `s` to stdout; a closed pipe (`| head`) is not an error.
pub(crate) fn print_out(s: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("cannot write to stdout"),
    }
}

/// Writes `v` to stdout as pretty JSON and a newline.
pub(crate) fn print_json<T: serde::Serialize>(v: &T) -> Result<()> {
    let mut s = serde_json::to_string_pretty(v)?;
    s.push('\n');
    print_out(&s)
}

/// A Unix time in nanoseconds as an RFC 3339 UTC timestamp to the second.
pub(crate) fn format_ns(ns: i64) -> String {
    chrono::DateTime::from_timestamp(ns.div_euclid(1_000_000_000), 0)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}
