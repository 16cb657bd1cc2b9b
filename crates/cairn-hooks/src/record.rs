//! The per-session record: which notes a session has been given (the session-start
//! packet, then each prompt's notes), so the prompt hook never gives a note twice.
//!
//! One small file per session in its own folder of cairn's cache
//! (`<cache>/sessions/<16 hex digits of the session id's content hash>.json`): the
//! session id never appears in a file name as written. A file holds note ids and the
//! times they were given, nothing else: never the prompt, never note text. Folder
//! 0700, files 0600; each write replaces the file atomically
//! ([`cairn_atomic_write::StagedFile::beside_unsynced`]) but without a sync, since a
//! lost record only means a note may be given again. Entries expire after
//! [`RECORD_TTL`]; whole files older than that are removed by [`SessionRecords::prune`]
//! (the session-start hook calls it, so a prompt never lists the folder).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::input::StartReason;

/// How long a record remembers what a session was given.
pub const RECORD_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// The folder of session records inside cairn's cache folder.
pub const SESSIONS_FOLDER: &str = "sessions";

/// The record file's version.
const VERSION: u32 = 1;

/// A record that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the session record in {dir}: {source}")]
pub struct RecordError {
    /// The records' folder.
    pub dir: PathBuf,
    /// The error.
    pub source: std::io::Error,
}

/// One session's record as stored.
#[derive(Debug, Default, Serialize, Deserialize)]
struct RecordFile {
    version: u32,
    /// Note id → when it was given (seconds since the Unix epoch).
    given: BTreeMap<String, u64>,
}

/// The records' folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecords {
    dir: PathBuf,
}

impl SessionRecords {
    /// The records kept in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The records in `cache_dir`'s [`SESSIONS_FOLDER`].
    pub fn in_cache(cache_dir: &Path) -> Self {
        Self::new(cache_dir.join(SESSIONS_FOLDER))
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `session_id`.
    pub fn path(&self, session_id: &str) -> PathBuf {
        let key = cairn_note::ContentHash::of(session_id.as_bytes()).short_hex();
        self.dir.join(format!("{key}.json"))
    }

    /// The ids given to `session_id` within [`RECORD_TTL`] of `now`. A missing,
    /// unreadable or damaged record is empty.
    pub fn given(&self, session_id: &str, now: SystemTime) -> BTreeSet<String> {
        let cutoff = secs(now).saturating_sub(RECORD_TTL.as_secs());
        self.read(session_id)
            .given
            .into_iter()
            .filter(|(_, at)| *at >= cutoff)
            .map(|(id, _)| id)
            .collect()
    }

    /// Adds `ids` to `session_id`'s record, given at `now`; with `reset`, what was
    /// recorded before is forgotten first. Expired entries are dropped.
    pub fn add(
        &self,
        session_id: &str,
        ids: &[String],
        now: SystemTime,
        reset: bool,
    ) -> Result<(), RecordError> {
        let at = secs(now);
        let cutoff = at.saturating_sub(RECORD_TTL.as_secs());
        let mut record = if reset {
            RecordFile::default()
        } else {
            self.read(session_id)
        };
        record.version = VERSION;
        record.given.retain(|_, t| *t >= cutoff);
        for id in ids {
            record.given.insert(id.clone(), at);
        }
        let err = |source| RecordError {
            dir: self.dir.clone(),
            source,
        };
        create_private_dir(&self.dir).map_err(err)?;
        let bytes = serde_json::to_vec(&record).map_err(|e| err(std::io::Error::other(e)))?;
        let staged = cairn_atomic_write::StagedFile::beside_unsynced(
            &self.path(session_id),
            ".cairn-tmp-",
            0o600,
            &bytes,
        )
        .map_err(err)?;
        staged.replace().map_err(err)
    }

    /// Records what a session start gave: `clear` and `compact` drop the context the
    /// session had, so they reset the record; other starts add to it.
    pub fn session_started(
        &self,
        session_id: &str,
        source: StartReason,
        ids: &[String],
        now: SystemTime,
    ) -> Result<(), RecordError> {
        let reset = matches!(source, StartReason::Clear | StartReason::Compact);
        self.add(session_id, ids, now, reset)
    }

    /// Removes the records last written more than [`RECORD_TTL`] before `now`, and
    /// temporary files a killed writer left; returns how many. Never fails: what
    /// cannot be listed or removed stays.
    pub fn prune(&self, now: SystemTime) -> usize {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        let mut removed = 0;
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let ours = name.ends_with(".json") || name.contains(".cairn-tmp-");
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .is_some_and(|age| age > RECORD_TTL);
            if ours && old && std::fs::remove_file(e.path()).is_ok() {
                removed += 1;
            }
        }
        removed
    }

    fn read(&self, session_id: &str) -> RecordFile {
        std::fs::read(self.path(session_id))
            .ok()
            .and_then(|b| serde_json::from_slice::<RecordFile>(&b).ok())
            .filter(|r| r.version == VERSION)
            .unwrap_or_default()
    }
}

fn secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Creates `dir` (and its parents) private to the user: 0700 on Unix.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn records_add_reset_and_expire() {
        let dir = tempfile::tempdir().unwrap();
        let r = SessionRecords::in_cache(dir.path());
        let t0 = 1_800_000_000;
        assert!(r.given("s1", at(t0)).is_empty());
        r.session_started(
            "s1",
            StartReason::Startup,
            &["a".into(), "b".into()],
            at(t0),
        )
        .unwrap();
        r.add("s1", &["c".into()], at(t0 + 60), false).unwrap();
        let ids = |set: BTreeSet<String>| set.into_iter().collect::<Vec<_>>();
        assert_eq!(ids(r.given("s1", at(t0 + 120))), ["a", "b", "c"]);
        assert!(r.given("s2", at(t0)).is_empty(), "sessions are apart");
        // A day later, what was given first has expired.
        assert_eq!(ids(r.given("s1", at(t0 + 86_430))), ["c"]);
        // Resumed: added to; compacted or cleared: reset.
        r.session_started("s1", StartReason::Resume, &["d".into()], at(t0 + 180))
            .unwrap();
        assert_eq!(ids(r.given("s1", at(t0 + 200))), ["a", "b", "c", "d"]);
        r.session_started("s1", StartReason::Compact, &["e".into()], at(t0 + 240))
            .unwrap();
        assert_eq!(ids(r.given("s1", at(t0 + 250))), ["e"]);
        r.session_started("s1", StartReason::Clear, &[], at(t0 + 300))
            .unwrap();
        assert!(r.given("s1", at(t0 + 310)).is_empty());
    }

    #[test]
    fn the_file_is_private_and_names_no_session() {
        let dir = tempfile::tempdir().unwrap();
        let r = SessionRecords::in_cache(dir.path());
        let id = "../../etc/passwd\n<session>";
        r.add(id, &["10-Projects/x".into()], SystemTime::now(), false)
            .unwrap();
        let path = r.path(id);
        assert_eq!(path.parent(), Some(r.dir()));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.len() == 21 && name.ends_with(".json"),
            "hashed name: {name}"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("passwd") && text.contains("10-Projects/x"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(r.dir()), 0o700);
        }
    }

    #[test]
    fn damaged_records_read_as_empty_and_old_ones_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let r = SessionRecords::in_cache(dir.path());
        r.add("s", &["a".into()], SystemTime::now(), false).unwrap();
        std::fs::write(r.path("s"), b"{not json").unwrap();
        assert!(r.given("s", SystemTime::now()).is_empty());
        r.add("s", &["b".into()], SystemTime::now(), false).unwrap();
        assert_eq!(r.given("s", SystemTime::now()).len(), 1);
        assert_eq!(r.prune(SystemTime::now()), 0);
        let later = SystemTime::now() + RECORD_TTL + Duration::from_secs(60);
        assert_eq!(r.prune(later), 1);
        assert!(!r.path("s").exists());
        // No folder at all: nothing to prune, no error.
        assert_eq!(SessionRecords::new(dir.path().join("none")).prune(later), 0);
    }
}
