//! Keeping the server's engine current while it runs: notes edited, added or deleted
//! during a session are visible to the next tool call.
//!
//! [`EngineProvider`] is the seam. [`RescanOnChange`] lists the vault before each
//! call (paths, sizes, modification times: no file is read, and no walk when no
//! folder changed since the last one) and compares that, and the configuration
//! file's stamp, with what the current engine was built from. Only when something
//! changed does it open the engine again: through the persistent index (the CLI's
//! mode), which re-reads only the changed files, or by reading every note in memory.
//!
//! A failure while the engine is being built (even a panic) never wedges the
//! server: the lock is taken back from a poisoned state, the half-built state
//! is dropped, and the next call builds the engine afresh.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::UNIX_EPOCH;

use cairn_engine::config::Config;
use cairn_engine::{Engine, EngineError, IndexMode, OpenOptions};

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

/// What the vault looked like when the engine was built.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Snapshot {
    config_stamp: Option<(u64, i128)>,
    files: Vec<(String, u64, i128)>,
}

struct Current {
    snapshot: Snapshot,
    /// The record of the last walk of the vault: lets the next call stat the files
    /// it found instead of walking again when no folder changed.
    walk: cairn_scan::Walk,
    config: Config,
    engine: Arc<Engine>,
}

/// Re-lists the vault before each call and rebuilds the engine when a note or the
/// configuration changed.
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
            .finish()
    }
}

fn stamp(path: &std::path::Path) -> Option<(u64, i128)> {
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128);
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
        let config = match current.as_ref() {
            Some(c) if c.snapshot.config_stamp == config_stamp => c.config.clone(),
            _ => (self.load_config)()?,
        };
        let roots = [String::new()];
        let (root, limits) = (&config.vault.root, &config.vault.limits);
        let listing = current
            .as_ref()
            .and_then(|c| {
                let paths: Vec<&str> = c.snapshot.files.iter().map(|f| f.0.as_str()).collect();
                cairn_scan::relist(root, &roots, limits, &c.walk, &paths)
            })
            .unwrap_or_else(|| cairn_scan::list(root, &roots, limits));
        let snapshot = Snapshot {
            config_stamp,
            files: listing
                .files
                .iter()
                .map(|f| (f.path.clone(), f.size, f.mtime_ns))
                .collect(),
        };
        if let Some(c) = current.as_mut().filter(|c| c.snapshot == snapshot) {
            c.walk = listing.walk;
            return Ok(c.engine.clone());
        }
        let walk = listing.walk.clone();
        let engine = if matches!(self.options.index, IndexMode::Persistent(_)) {
            // The persistent index re-reads only the files that changed.
            Arc::new(Engine::open(config.clone(), &self.options)?)
        } else {
            let mut scan = cairn_scan::read(&listing.files);
            scan.diagnostics.extend(listing.diagnostics);
            scan.diagnostics.sort();
            Arc::new(Engine::from_notes(
                config.clone(),
                scan.notes,
                scan.diagnostics,
                &self.options,
            )?)
        };
        *current = Some(Current {
            snapshot,
            walk,
            config,
            engine: engine.clone(),
        });
        Ok(engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
