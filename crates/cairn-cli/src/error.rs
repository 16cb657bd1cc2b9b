//! How a failure leaves the binary: the usage error flags resolve into, the
//! documented exit code of every error (0 ok, 1 failure, 2 usage or configuration,
//! 3 write refused, 4 refused by policy), and the one redacted line it is printed as.

use cairn_engine::EngineError;
use cairn_engine::config::ConfigError;
use cairn_eval::EvalError;
use cairn_memory::{ErrorKind, MemoryError};

/// Exit code for refusals.
const EXIT_REFUSED: u8 = 3;

/// A usage error found while resolving flags (exit code 2).
#[derive(Debug)]
pub(crate) struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Maps an error to the documented exit code.
pub(crate) fn exit_code(err: &anyhow::Error) -> u8 {
    if let Some(code) = memory_exit_code(err) {
        return code;
    }
    if let Some(e) = err.downcast_ref::<EngineError>() {
        return engine_exit_code(e);
    }
    if let Some(e) = err.downcast_ref::<EvalError>() {
        return match e {
            EvalError::Engine(e) => engine_exit_code(e),
            e if e.is_usage() => 2,
            _ => 1,
        };
    }
    if err.downcast_ref::<ConfigError>().is_some() || err.downcast_ref::<UsageError>().is_some() {
        return 2;
    }
    1
}

fn engine_exit_code(e: &EngineError) -> u8 {
    match e {
        EngineError::Secret { .. } => 4,
        e if e.is_usage() => 2,
        _ => 1,
    }
}

/// The exit code of a memory error, if `err` is one.
fn memory_exit_code(err: &anyhow::Error) -> Option<u8> {
    err.downcast_ref::<MemoryError>().map(|e| match e.kind() {
        ErrorKind::Refused => EXIT_REFUSED,
        ErrorKind::NotFound | ErrorKind::Io => 1,
        ErrorKind::Usage => 2,
        ErrorKind::Policy => 4,
    })
}

/// An error as one line: redacted as written (a config error can quote a line of
/// the file, a lookup echoes the query), then flattened.
pub(crate) fn one_line(s: &str) -> String {
    use cairn_engine::policy::{SafeText, one_line};
    one_line(&SafeText::redact(s))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
