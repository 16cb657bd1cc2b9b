//! Keeping the server's engine current while it runs: notes edited, added or deleted
//! during a session are visible to the next tool call.
//!
//! [`EngineProvider`] is the seam. [`RescanOnChange`] checks the configuration
//! file's stamp before each call and asks the engine whether the vault changed
//! ([`Engine::refresh`]: one listing of paths, sizes and modification times, no
//! file read, no walk when no folder changed since the last one). Only when
//! something changed is there a new engine: the engine reopens itself from that
//! listing (through the persistent index, the CLI's mode, only the changed files
//! are re-read), and a changed configuration opens a new one.
//!
//! A failure while the engine is being built (even a panic) never wedges the
//! server: the lock is taken back from a poisoned state, the half-built state
//! is dropped, and the next call builds the engine afresh.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use cairn_engine::config::Config;
use cairn_engine::{Engine, EngineError, OpenOptions};

/// Why no engine could be had (a broken configuration, an unreadable vault).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ProviderError(pub String);

impl From<EngineError> for ProviderError {
    fn from(e: EngineError) -> Self {
        Self(e.to_string())
    }
}

/// Gives the engine as the vault is now.
pub trait EngineProvider: Send + Sync + 'static {
    /// An engine that reflects every change made to the vault before this call.
    fn engine(&self) -> Result<Arc<Engine>, ProviderError>;
}

/// Loads the configuration (called again when the configuration file changes).
pub type ConfigLoader = Box<dyn Fn() -> Result<Config, ProviderError> + Send + Sync>;

struct Current {
    /// The configuration file's size and modification time when it was loaded.
    config_stamp: Option<(u64, i128)>,
    engine: Arc<Engine>,
}

/// Asks the engine before each call whether the vault changed, and opens a new one
/// when the configuration changed.
pub struct RescanOnChange {
    load_config: ConfigLoader,
    config_file: Option<PathBuf>,
    options: OpenOptions,
    current: Mutex<Option<Current>>,
}

impl std::fmt::Debug for RescanOnChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RescanOnChange")
            .field("config_file", &self.config_file)
            .finish_non_exhaustive()
    }
}

fn stamp(path: &std::path::Path) -> Option<(u64, i128)> {
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos().cast_signed());
    Some((meta.len(), mtime))
}

impl RescanOnChange {
    /// `config_file` is watched for changes (`None` for a `--vault` folder).
    pub fn new(
        load_config: ConfigLoader,
        config_file: Option<PathBuf>,
        options: OpenOptions,
    ) -> Self {
        Self {
            load_config,
            config_file,
            options,
            current: Mutex::new(None),
        }
    }
}

impl EngineProvider for RescanOnChange {
    fn engine(&self) -> Result<Arc<Engine>, ProviderError> {
        let mut current = self.current.lock().unwrap_or_else(|poisoned| {
            // An earlier call panicked while building: whatever it left is not
            // trusted; this call starts over.
            self.current.clear_poison();
            let mut guard = poisoned.into_inner();
            *guard = None;
            guard
        });
        let config_stamp = self.config_file.as_deref().and_then(stamp);
        let engine = match current.as_ref() {
            Some(c) if c.config_stamp == config_stamp => match c.engine.refresh()? {
                None => return Ok(c.engine.clone()),
                Some(engine) => engine,
            },
            _ => Engine::open((self.load_config)()?, &self.options)?,
        };
        let engine = Arc::new(engine);
        *current = Some(Current {
            config_stamp,
            engine: engine.clone(),
        });
        Ok(engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_engine::IndexMode;

    fn provider(dir: &std::path::Path) -> RescanOnChange {
        let d = dir.to_path_buf();
        RescanOnChange::new(
            Box::new(move || Config::for_vault(&d).map_err(|e| ProviderError(e.to_string()))),
            None,
            OpenOptions::default(),
        )
    }

    #[test]
    fn rebuilds_only_when_the_vault_changed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "# Alpha\n\nfirst text\n").unwrap();
        let p = provider(dir.path());
        let e1 = p.engine().unwrap();
        let e2 = p.engine().unwrap();
        assert!(Arc::ptr_eq(&e1, &e2), "unchanged vault, same engine");
        assert_eq!(e1.notes().len(), 1);

        std::fs::write(dir.path().join("b.md"), "# Beta\n\nsecond\n").unwrap();
        let e3 = p.engine().unwrap();
        assert_eq!(e3.notes().len(), 2);

        // An edit that keeps the size still changes the modification time.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(dir.path().join("a.md"), "# Alpha\n\nfirst TEXT\n").unwrap();
        let e4 = p.engine().unwrap();
        assert!(!Arc::ptr_eq(&e3, &e4));
        assert!(e4.note("a.md").unwrap().body.contains("TEXT"));

        std::fs::remove_file(dir.path().join("b.md")).unwrap();
        assert_eq!(p.engine().unwrap().notes().len(), 1);
    }

    #[test]
    fn a_persistent_index_sees_edits_too() {
        let dir = tempfile::tempdir().unwrap();
        let vault = dir.path().join("vault");
        std::fs::create_dir(&vault).unwrap();
        std::fs::write(vault.join("a.md"), "# Alpha\n\nfirst text\n").unwrap();
        let v = vault.clone();
        let p = RescanOnChange::new(
            Box::new(move || Config::for_vault(&v).map_err(|e| ProviderError(e.to_string()))),
            None,
            OpenOptions {
                index: IndexMode::Persistent(cairn_engine::PersistentOptions {
                    dir: Some(dir.path().join("index")),
                    ..Default::default()
                }),
                ..OpenOptions::default()
            },
        );
        let e1 = p.engine().unwrap();
        assert!(e1.index_info().cache_dir.is_some(), "{:?}", e1.index_info());
        assert!(Arc::ptr_eq(&e1, &p.engine().unwrap()));
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(vault.join("a.md"), "# Alpha\n\nfirst TEXT\n").unwrap();
        std::fs::write(vault.join("b.md"), "# Beta\n\nsecond\n").unwrap();
        let e2 = p.engine().unwrap();
        assert_eq!(e2.notes().len(), 2);
        assert!(e2.note("a.md").unwrap().body.contains("TEXT"));
        let r = e2
            .index_info()
            .refresh
            .clone()
            .expect("an incremental refresh");
        assert_eq!((r.added, r.modified, r.rebuilt), (1, 1, false), "{r:?}");
    }

    #[test]
    fn a_call_after_a_panic_succeeds() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "# Alpha\n\nfirst text\n").unwrap();
        let d = dir.path().to_path_buf();
        let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let n = calls.clone();
        let p = RescanOnChange::new(
            Box::new(move || {
                // The first build panics while the provider holds its lock.
                assert!(
                    n.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0,
                    "injected failure"
                );
                Config::for_vault(&d).map_err(|e| ProviderError(e.to_string()))
            }),
            None,
            OpenOptions::default(),
        );
        let p = Arc::new(p);
        let first = std::thread::spawn({
            let p = p.clone();
            move || p.engine().map(|_| ())
        })
        .join();
        assert!(first.is_err(), "the first call panicked");
        assert!(p.current.is_poisoned());
        let e = p.engine().expect("the next call succeeds");
        assert_eq!(e.notes().len(), 1);
        assert!(Arc::ptr_eq(&e, &p.engine().unwrap()));
    }

    #[test]
    fn a_broken_configuration_is_an_error_not_a_panic() {
        let p = RescanOnChange::new(
            Box::new(|| Err(ProviderError("cairn.toml:2: broken".into()))),
            None,
            OpenOptions::default(),
        );
        assert_eq!(p.engine().unwrap_err().to_string(), "cairn.toml:2: broken");
    }
}
