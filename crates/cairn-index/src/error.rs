//! Index failures, and the fence around tantivy: every call into it runs under
//! `catch_unwind`, so a panic on damaged data is an [`IndexError::Panicked`],
//! never a crash. Also the test-only fault points (`fault-injection` feature).

/// Index failures (I/O, corruption, tantivy errors).
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// Anything tantivy reports.
    #[error("index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    /// Opening a directory failed.
    #[error("index directory: {0}")]
    Directory(#[from] tantivy::directory::error::OpenDirectoryError),
    /// Reading index files failed.
    #[error("index files: {0}")]
    Io(#[from] std::io::Error),
    /// The stored schema is not this version's.
    #[error("index schema does not match this version of cairn")]
    SchemaMismatch,
    /// tantivy panicked (damaged data it did not expect); the index must not be used again.
    #[error("index: internal failure ({0})")]
    Panicked(String),
}

thread_local! {
    /// How many calls into tantivy under `catch_unwind` this thread is in.
    static CONTAINED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Whether the current thread is inside a call into tantivy whose panics are
/// caught and returned as [`IndexError::Panicked`]: a binary's panic hook can
/// stay silent then (the caller reports the failure and recovers).
pub fn panic_is_contained() -> bool {
    CONTAINED.with(std::cell::Cell::get) > 0
}

/// Runs `f`, turning a panic into [`IndexError::Panicked`].
pub(crate) fn contained<T>(f: impl FnOnce() -> Result<T, IndexError>) -> Result<T, IndexError> {
    CONTAINED.with(|c| c.set(c.get() + 1));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(c.get().saturating_sub(1)));
    match out {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned());
            Err(IndexError::Panicked(msg))
        }
    }
}

/// Test-only fault injection (`--features fault-injection`, switched on for the
/// workspace's tests, never in a release build): with `CAIRN_FAULT=<point>` in the
/// environment, the first call at `point` in the process panics.
#[cfg(feature = "fault-injection")]
pub(crate) fn fault(point: &str) {
    static FIRED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if std::env::var("CAIRN_FAULT").is_ok_and(|v| v == point)
        && !FIRED.swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        panic!("injected fault at {point}");
    }
}

#[cfg(not(feature = "fault-injection"))]
pub(crate) fn fault(_point: &str) {}
