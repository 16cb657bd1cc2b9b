//! Fault injection for tests, compiled only with the `fault-injection` cargo
//! feature (switched on for `cargo test` through cairn-cli's dev-dependency);
//! without it every hook below is an empty function and no environment variable
//! is ever read.
//!
//! With the feature, `CAIRN_TEST_FAULT` holds a comma-separated list of faults:
//!
//! - `abort-before-rename`: abort the process right after a temporary file is
//!   written and synced, before the rename (the crash tests; the older
//!   `CAIRN_TEST_ABORT_BEFORE_RENAME=1` does the same);
//! - `edit-before-rename=N`: the first N times a note is about to be replaced,
//!   an "external editor" rename-saves it first (a line appended), as a racing
//!   editor would between cairn's plan and its rename;
//! - `index-write-fails`: writing `MEMORY.md` fails as on a full disk.

use std::path::Path;

/// The environment variable that selects faults (read only with the feature).
pub const FAULT_VAR: &str = "CAIRN_TEST_FAULT";
/// The older environment variable of the crash test (only with the feature).
pub const ABORT_HOOK: &str = "CAIRN_TEST_ABORT_BEFORE_RENAME";

/// The line an injected external editor appends.
pub const EDITOR_LINE: &str = "Saved by another editor.";

#[cfg(feature = "fault-injection")]
mod on {
    use std::io::Write;
    use std::path::Path;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static EDITS: AtomicUsize = AtomicUsize::new(0);

    /// The value of fault `name` in `CAIRN_TEST_FAULT`: `Some("")` when named
    /// without a value.
    fn fault(name: &str) -> Option<String> {
        let all = std::env::var(super::FAULT_VAR).ok()?;
        all.split(',').find_map(|f| {
            let (k, v) = f.split_once('=').unwrap_or((f, ""));
            (k.trim() == name).then(|| v.trim().to_owned())
        })
    }

    pub(super) fn before_rename() {
        let old = std::env::var_os(super::ABORT_HOOK).is_some_and(|v| v == "1");
        if old || fault("abort-before-rename").is_some() {
            std::process::abort();
        }
    }

    pub(super) fn racing_editor(path: &Path) {
        let Some(n) = fault("edit-before-rename") else {
            return;
        };
        let limit: usize = n.parse().unwrap_or(1);
        if EDITS.fetch_add(1, Ordering::SeqCst) >= limit {
            return;
        }
        // An editor's save: a new file beside the note, renamed over it.
        let Ok(mut text) = std::fs::read_to_string(path) else {
            return;
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("\n{}\n", super::EDITOR_LINE));
        let tmp = path.with_extension("md.editor-save~");
        let saved = std::fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .and_then(|()| std::fs::rename(&tmp, path));
        if saved.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }

    pub(super) fn index_write() -> std::io::Result<()> {
        match fault("index-write-fails") {
            Some(_) => Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "no space left on device (injected fault)",
            )),
            None => Ok(()),
        }
    }
}

/// Right after a temporary file is synced, before it is renamed into place.
pub(crate) fn before_rename() {
    #[cfg(feature = "fault-injection")]
    on::before_rename();
}

/// Right before cairn checks that the note it is replacing is still what it
/// planned from (the moment a racing editor's save would land).
pub(crate) fn racing_editor(path: &Path) {
    #[cfg(feature = "fault-injection")]
    on::racing_editor(path);
    #[cfg(not(feature = "fault-injection"))]
    let _ = path;
}

/// Before `MEMORY.md` is written.
pub(crate) fn index_write() -> std::io::Result<()> {
    #[cfg(feature = "fault-injection")]
    return on::index_write();
    #[cfg(not(feature = "fault-injection"))]
    Ok(())
}
