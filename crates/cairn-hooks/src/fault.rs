//! Faults a test can inject into the hook, compiled only with the cargo feature
//! `fault-injection` (on for `cargo test`, through cairn-cli's dev-dependencies;
//! absent from a normal build). `CAIRN_FAULTS` names them, comma-separated.

use std::time::Duration;

/// The environment variable naming the active faults.
pub const ENV: &str = "CAIRN_FAULTS";

/// The full build never finishes (as a first index build of a large vault would
/// not, within a session start): the quick packet must answer.
pub const STALL_FULL_BUILD: &str = "stall-full-build";

/// Whether `name` is among the active faults.
pub fn active(name: &str) -> bool {
    std::env::var(ENV).is_ok_and(|v| v.split(',').any(|f| f.trim() == name))
}

/// Blocks this thread for good when `name` is active.
pub fn stall_if(name: &str) {
    if active(name) {
        loop {
            std::thread::sleep(Duration::from_secs(3_600));
        }
    }
}
