//! Usage statistics (reads, writes, last use) for a hot set, kept in a sidecar
//! file in cairn's cache folder: outside the vault, never in a note, so a synced
//! or cloned vault cannot fake them and they never show up in a diff.
//!
//! One JSON file (`memory-usage.json`) holds every vault's counts, keyed by the
//! canonical vault path and the note's logical identity (`<scope>:<slug>`), so
//! moving a note within its scope keeps its history. Updates are read-modify-write
//! under the sidecar's own lock and written atomically; a missing or corrupt file
//! starts empty. Recording is best effort: a failure is reported to the caller as
//! a warning and never fails the command that used the note. The sidecar and its
//! lock are private to the user (0600, in a folder created 0700, on Unix).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::atomic::{LOCK_FILE, Replace, ScopeLock, write_file};
use crate::error::MemoryError;

/// The sidecar file name inside the cache folder.
pub const USAGE_FILE: &str = "memory-usage.json";

/// One note's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Times the note was read with `cairn memory show`.
    #[serde(default)]
    pub reads: u64,
    /// Times the note was written through `cairn memory`.
    #[serde(default)]
    pub writes: u64,
    /// Last read or write (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used: Option<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct UsageFile {
    version: u32,
    #[serde(default)]
    vaults: BTreeMap<String, BTreeMap<String, Usage>>,
}

/// What happened to a note, for [`UsageLog::record`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageEvent {
    /// Read.
    Read,
    /// Written.
    Write,
    /// Renamed to this slug (same scope).
    Renamed(String),
    /// Removed or archived: its counts are dropped.
    Removed,
}

/// The sidecar of one vault.
#[derive(Debug, Clone)]
pub struct UsageLog {
    dir: PathBuf,
    vault: String,
}

impl UsageLog {
    /// The sidecar in cache folder `dir` for the (canonical) vault `vault`.
    /// Refuses a cache folder inside the vault: statistics never live in notes.
    pub fn new(dir: &Path, vault: &Path) -> Result<UsageLog, MemoryError> {
        let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if canonical.starts_with(vault) {
            return Err(MemoryError::Refused(format!(
                "the cache folder {} is inside the vault; usage statistics are not recorded there",
                dir.display()
            )));
        }
        Ok(UsageLog {
            dir: dir.to_path_buf(),
            vault: vault.display().to_string(),
        })
    }

    /// The sidecar file.
    pub fn path(&self) -> PathBuf {
        self.dir.join(USAGE_FILE)
    }

    /// Counts of every note of `scope` (`<scope>` as displayed), by slug.
    pub fn scope(&self, scope: &str) -> BTreeMap<String, Usage> {
        let file = read(&self.path());
        let prefix = format!("{scope}:");
        file.vaults
            .get(&self.vault)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| k.strip_prefix(&prefix).map(|s| (s.to_owned(), v.clone())))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Records `event` for `slug` of `scope` at `now`.
    pub fn record(
        &self,
        scope: &str,
        slug: &str,
        event: &UsageEvent,
        now: DateTime<Utc>,
    ) -> Result<(), MemoryError> {
        private_dir_all(&self.dir).map_err(MemoryError::io(&self.dir))?;
        let lock = self.dir.join(LOCK_FILE);
        private_file(&lock).map_err(MemoryError::io(&lock))?;
        let _lock = ScopeLock::acquire(&self.dir)?;
        let path = self.path();
        // `write_file` keeps the permissions of the file it replaces.
        private_file(&path).map_err(MemoryError::io(&path))?;
        let mut file = read(&path);
        file.version = 1;
        let notes = file.vaults.entry(self.vault.clone()).or_default();
        let key = format!("{scope}:{slug}");
        let stamp = now.format("%Y-%m-%dT%H:%M:%SZ").to_string();
        match event {
            UsageEvent::Read | UsageEvent::Write => {
                let u = notes.entry(key).or_default();
                if *event == UsageEvent::Read {
                    u.reads += 1;
                } else {
                    u.writes += 1;
                }
                u.last_used = Some(stamp);
            }
            UsageEvent::Renamed(to) => {
                if let Some(u) = notes.remove(&key) {
                    notes.insert(format!("{scope}:{to}"), u);
                }
            }
            UsageEvent::Removed => {
                notes.remove(&key);
            }
        }
        let mut text = serde_json::to_string_pretty(&file)
            .map_err(|e| MemoryError::Refused(format!("cannot encode usage statistics: {e}")))?;
        text.push('\n');
        write_file(&path, text.as_bytes(), Replace::Atomically)
    }
}

/// Creates `dir` and its missing parents, 0700 on Unix.
fn private_dir_all(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

/// Makes `path` a file only its owner can read: created empty (0600) if missing,
/// narrowed to 0600 if not.
fn private_file(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .open(path)?;
        if f.metadata()?.permissions().mode() & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// The sidecar's content; a missing or unreadable file is empty (self-healing).
fn read(path: &Path) -> UsageFile {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_survive_renames_and_corruption_heals() {
        let cache = tempfile::tempdir().unwrap();
        let vault = tempfile::tempdir().unwrap();
        let log = UsageLog::new(cache.path(), vault.path()).unwrap();
        let t: DateTime<Utc> = "2026-11-22T09:00:00Z".parse().unwrap();
        log.record("user", "a", &UsageEvent::Write, t).unwrap();
        log.record("user", "a", &UsageEvent::Read, t).unwrap();
        log.record("user", "a", &UsageEvent::Read, t).unwrap();
        log.record("global", "a", &UsageEvent::Read, t).unwrap();
        let u = &log.scope("user")["a"];
        assert_eq!((u.reads, u.writes), (2, 1));
        assert_eq!(u.last_used.as_deref(), Some("2026-11-22T09:00:00Z"));
        log.record("user", "a", &UsageEvent::Renamed("b".into()), t)
            .unwrap();
        assert_eq!(log.scope("user").keys().collect::<Vec<_>>(), vec!["b"]);
        log.record("user", "b", &UsageEvent::Removed, t).unwrap();
        assert!(log.scope("user").is_empty());
        assert_eq!(log.scope("global")["a"].reads, 1);

        std::fs::write(log.path(), "{not json").unwrap();
        assert!(log.scope("global").is_empty());
        log.record("global", "a", &UsageEvent::Read, t).unwrap();
        assert_eq!(log.scope("global")["a"].reads, 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_sidecar_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let cache = tempfile::tempdir().unwrap();
        let vault = tempfile::tempdir().unwrap();
        let dir = cache.path().join("cairn");
        let log = UsageLog::new(&dir, vault.path()).unwrap();
        let t: DateTime<Utc> = "2026-11-22T09:00:00Z".parse().unwrap();
        log.record("user", "a", &UsageEvent::Write, t).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&log.path()), 0o600);
        assert_eq!(mode(&dir.join(LOCK_FILE)), 0o600);
        // An older, readable sidecar is narrowed on the next write.
        std::fs::set_permissions(log.path(), std::fs::Permissions::from_mode(0o644)).unwrap();
        log.record("user", "a", &UsageEvent::Read, t).unwrap();
        assert_eq!(mode(&log.path()), 0o600);
        assert_eq!(log.scope("user")["a"].reads, 1);
    }

    #[test]
    fn a_cache_inside_the_vault_is_refused() {
        let vault = tempfile::tempdir().unwrap();
        let v = vault.path().canonicalize().unwrap();
        assert!(UsageLog::new(&v.join(".cache"), &v).is_err());
    }
}
