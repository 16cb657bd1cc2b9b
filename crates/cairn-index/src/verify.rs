//! Integrity of an index on disk: per-block checksums of every file, taken when
//! the index is published, and a read-only directory that checks every byte
//! tantivy reads against them before tantivy sees it.
//!
//! ```text
//! publish:  every file ─▶ crc32 of each 16 KiB block ─▶ FileSums (stored by the caller)
//! open:     meta.json, .managed.json, *.fast, *.fieldnorm ─▶ checked whole, at once
//!           every other file ─▶ each block checked the first time a read touches it
//! verify:   every block of every file (a full read)
//! ```
//! A block that does not match is an I/O error (`InvalidData`) at the read that
//! touched it, so damage becomes an error of the search, never a panic inside
//! tantivy nor a silently different answer. Files that are not in the table are
//! not part of the published index and cannot be opened.

use std::collections::HashMap;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use tantivy::HasLen;
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    DirectoryLock, FileHandle, Lock, MmapDirectory, OwnedBytes, WatchCallback, WatchHandle,
    WritePtr,
};

/// Bytes per checksummed block.
pub const BLOCK: usize = 16 * 1024;

/// The checksums of one index file: its length and the crc32 of each [`BLOCK`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSums {
    /// The file name inside the index folder.
    pub name: String,
    /// Its length in bytes.
    pub len: u64,
    /// crc32 of each block, in order (the last one may be short).
    pub blocks: Vec<u32>,
}

/// Files small enough, and read whole on every search anyway, to be checked
/// completely when the index is opened.
fn checked_at_open(name: &str) -> bool {
    name.ends_with(".json") || name.ends_with(".fast") || name.ends_with(".fieldnorm")
}

/// Files of an index that are not its data (tantivy's lock files).
fn is_lock(name: &str) -> bool {
    name.ends_with(".lock")
}

/// Reads `path` block by block and returns its checksums.
fn sums_of_file(path: &Path, name: &str) -> io::Result<FileSums> {
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; BLOCK];
    let mut blocks = Vec::new();
    let mut len = 0u64;
    loop {
        let n = read_block(&mut f, &mut buf)?;
        if n == 0 {
            break;
        }
        len += n as u64;
        blocks.push(crc32fast::hash(&buf[..n]));
        if n < BLOCK {
            break;
        }
    }
    Ok(FileSums {
        name: name.to_owned(),
        len,
        blocks,
    })
}

/// Fills `buf` as far as the file allows; returns the bytes read.
fn read_block(f: &mut std::fs::File, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The checksums of every file of the index in `dir` (lock files left out),
/// sorted by name. `known` are checksums already taken of some of these files
/// (hard links of an index verified before): a segment file with the same name
/// and length keeps them and is not read again (tantivy never rewrites a segment
/// file; its `.json` files it does, so those are always read).
pub fn checksum_dir(dir: &Path, known: &[FileSums]) -> io::Result<Vec<FileSums>> {
    let known: HashMap<&str, &FileSums> = known.iter().map(|s| (s.name.as_str(), s)).collect();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type()?.is_file() || is_lock(&name) {
            continue;
        }
        let len = entry.metadata()?.len();
        match known.get(name.as_str()) {
            Some(k) if k.len == len && !name.ends_with(".json") => out.push((*k).clone()),
            _ => out.push(sums_of_file(&entry.path(), &name)?),
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Reads every file in `sums` from `dir` and compares it with its checksums;
/// returns the damaged files, each with what is wrong (empty: sound).
pub fn verify_dir(dir: &Path, sums: &[FileSums]) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sums {
        match sums_of_file(&dir.join(&s.name), &s.name) {
            Ok(actual) if actual.len != s.len => bad.push(format!(
                "{}: {} bytes, {} expected",
                s.name, actual.len, s.len
            )),
            Ok(actual) => {
                if let Some(b) = actual
                    .blocks
                    .iter()
                    .zip(&s.blocks)
                    .position(|(a, e)| a != e)
                {
                    bad.push(format!("{}: checksum mismatch in block {b}", s.name));
                } else if actual.blocks.len() != s.blocks.len() {
                    bad.push(format!("{}: block count differs", s.name));
                }
            }
            Err(e) => bad.push(format!("{}: {e}", s.name)),
        }
    }
    bad
}

fn damaged(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// One published file and which of its blocks were checked already (shared by
/// every handle of the file, so a block is checked once per process).
#[derive(Debug)]
struct FileState {
    sums: FileSums,
    checked: Box<[AtomicBool]>,
}

impl FileState {
    fn new(sums: FileSums) -> Self {
        let checked = (0..sums.blocks.len())
            .map(|_| AtomicBool::new(false))
            .collect();
        Self { sums, checked }
    }

    /// Checks the blocks of `range` in `read(range)`'s bytes, each once.
    fn check(
        &self,
        range: Range<usize>,
        read: impl Fn(Range<usize>) -> io::Result<OwnedBytes>,
    ) -> io::Result<()> {
        let len = usize::try_from(self.sums.len).unwrap_or(usize::MAX);
        if range.end > len {
            return Err(damaged(format!(
                "{}: read past its published length",
                self.sums.name
            )));
        }
        if range.start >= range.end {
            return Ok(());
        }
        let last = (range.end - 1) / BLOCK;
        for b in range.start / BLOCK..=last {
            let Some(flag) = self.checked.get(b) else {
                return Err(damaged(format!(
                    "{}: read past its published length",
                    self.sums.name
                )));
            };
            if flag.load(Ordering::Acquire) {
                continue;
            }
            let lo = b * BLOCK;
            let hi = (lo + BLOCK).min(len);
            let bytes = read(lo..hi)?;
            if crc32fast::hash(&bytes) != self.sums.blocks[b] {
                return Err(damaged(format!(
                    "{}: checksum mismatch in bytes {lo}..{hi}",
                    self.sums.name
                )));
            }
            flag.store(true, Ordering::Release);
        }
        Ok(())
    }

    fn check_all(&self, read: impl Fn(Range<usize>) -> io::Result<OwnedBytes>) -> io::Result<()> {
        self.check(
            0..usize::try_from(self.sums.len).unwrap_or(usize::MAX),
            read,
        )
    }
}

/// A file handle whose reads are checked block by block.
#[derive(Debug)]
struct CheckedFile {
    inner: Arc<dyn FileHandle>,
    state: Arc<FileState>,
}

impl HasLen for CheckedFile {
    fn len(&self) -> usize {
        self.inner.len()
    }
}

impl FileHandle for CheckedFile {
    fn read_bytes(&self, range: Range<usize>) -> io::Result<OwnedBytes> {
        self.state
            .check(range.clone(), |r| self.inner.read_bytes(r))?;
        self.inner.read_bytes(range)
    }
}

/// A memory-mapped directory that refuses every write. Its lock is a no-op: the
/// only lock a reader takes keeps a concurrent writer's garbage collection from
/// deleting files mid-open, and nothing writes to an index opened this way.
/// With checksums, every read is checked (see the module header).
#[derive(Debug, Clone)]
pub(crate) struct ReadOnlyDirectory {
    inner: MmapDirectory,
    files: Option<Arc<HashMap<String, Arc<FileState>>>>,
}

fn read_only_error() -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, "index opened read-only")
}

impl ReadOnlyDirectory {
    /// `dir`, checked against `sums` when given.
    pub(crate) fn open(dir: &Path, sums: Option<&[FileSums]>) -> Result<Self, crate::IndexError> {
        let inner = MmapDirectory::open(dir)?;
        let files = sums.map(|sums| {
            Arc::new(
                sums.iter()
                    .map(|s| (s.name.clone(), Arc::new(FileState::new(s.clone()))))
                    .collect(),
            )
        });
        Ok(Self { inner, files })
    }

    /// The checked state of `path`, `None` when reads are not checked.
    fn state(&self, path: &Path) -> Result<Option<&Arc<FileState>>, OpenReadError> {
        let Some(files) = &self.files else {
            return Ok(None);
        };
        let name = path.to_string_lossy();
        match files.get(name.as_ref()) {
            Some(s) => Ok(Some(s)),
            None => Err(OpenReadError::IoError {
                io_error: Arc::new(damaged(format!(
                    "{name} is not part of the published index"
                ))),
                filepath: path.to_path_buf(),
            }),
        }
    }
}

fn open_error(path: &Path, e: io::Error) -> OpenReadError {
    OpenReadError::IoError {
        io_error: Arc::new(e),
        filepath: path.to_path_buf(),
    }
}

impl tantivy::Directory for ReadOnlyDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        let handle = self.inner.get_file_handle(path)?;
        let Some(state) = self.state(path)? else {
            return Ok(handle);
        };
        if handle.len() as u64 != state.sums.len {
            return Err(open_error(
                path,
                damaged(format!(
                    "{}: {} bytes, {} expected",
                    state.sums.name,
                    handle.len(),
                    state.sums.len
                )),
            ));
        }
        let file = CheckedFile {
            inner: handle,
            state: state.clone(),
        };
        if checked_at_open(&state.sums.name) {
            file.state
                .check_all(|r| file.inner.read_bytes(r))
                .map_err(|e| open_error(path, e))?;
        }
        Ok(Arc::new(file))
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        Err(DeleteError::IoError {
            io_error: Arc::new(read_only_error()),
            filepath: path.to_path_buf(),
        })
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        Err(OpenWriteError::IoError {
            io_error: Arc::new(read_only_error()),
            filepath: path.to_path_buf(),
        })
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        let bytes = self.inner.atomic_read(path)?;
        if let Some(state) = self.state(path)? {
            if bytes.len() as u64 != state.sums.len {
                return Err(open_error(
                    path,
                    damaged(format!(
                        "{}: {} bytes, {} expected",
                        state.sums.name,
                        bytes.len(),
                        state.sums.len
                    )),
                ));
            }
            let owned = OwnedBytes::new(bytes.clone());
            state
                .check_all(|r| Ok(owned.slice(r)))
                .map_err(|e| open_error(path, e))?;
        }
        Ok(bytes)
    }

    fn atomic_write(&self, _path: &Path, _data: &[u8]) -> io::Result<()> {
        Err(read_only_error())
    }

    fn sync_directory(&self) -> io::Result<()> {
        Ok(())
    }

    fn acquire_lock(&self, _lock: &Lock) -> Result<DirectoryLock, LockError> {
        Ok(DirectoryLock::from(Box::new(())))
    }

    fn watch(&self, _cb: WatchCallback) -> tantivy::Result<WatchHandle> {
        Ok(WatchHandle::empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_round_trip_and_every_flipped_byte_is_found() {
        let d = tempfile::tempdir().unwrap();
        let big: Vec<u8> = (0..BLOCK * 2 + 100)
            .map(|i| u8::try_from(i % 251).unwrap_or(0))
            .collect();
        std::fs::write(d.path().join("a.idx"), &big).unwrap();
        std::fs::write(d.path().join("meta.json"), b"{}").unwrap();
        std::fs::write(d.path().join("x.lock"), b"").unwrap();
        std::fs::write(d.path().join("empty.del"), b"").unwrap();
        let sums = checksum_dir(d.path(), &[]).unwrap();
        let names: Vec<&str> = sums.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a.idx", "empty.del", "meta.json"]);
        assert_eq!(sums[0].blocks.len(), 3);
        assert_eq!(sums[1].blocks.len(), 0);
        assert!(verify_dir(d.path(), &sums).is_empty());
        for at in [0, BLOCK - 1, BLOCK, BLOCK * 2 + 99] {
            let mut b = big.clone();
            b[at] ^= 1;
            std::fs::write(d.path().join("a.idx"), &b).unwrap();
            let bad = verify_dir(d.path(), &sums);
            assert_eq!(bad.len(), 1, "flip at {at}: {bad:?}");
            assert!(bad[0].starts_with("a.idx"), "{bad:?}");
        }
        std::fs::write(d.path().join("a.idx"), &big[..10]).unwrap();
        assert_eq!(verify_dir(d.path(), &sums).len(), 1);
        std::fs::remove_file(d.path().join("a.idx")).unwrap();
        assert_eq!(verify_dir(d.path(), &sums).len(), 1);
    }

    #[test]
    fn known_sums_are_reused_only_for_the_same_length() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("a.idx"), b"abc").unwrap();
        let fake = FileSums {
            name: "a.idx".into(),
            len: 3,
            blocks: vec![7],
        };
        let same = checksum_dir(d.path(), std::slice::from_ref(&fake)).unwrap();
        assert_eq!(same, std::slice::from_ref(&fake));
        let longer = FileSums { len: 4, ..fake };
        let reread = checksum_dir(d.path(), std::slice::from_ref(&longer)).unwrap();
        assert_ne!(reread, std::slice::from_ref(&longer));
        // tantivy rewrites its .json files: never trusted.
        std::fs::write(d.path().join("meta.json"), b"{}").unwrap();
        let meta = FileSums {
            name: "meta.json".into(),
            len: 2,
            blocks: vec![7],
        };
        let reread = checksum_dir(d.path(), std::slice::from_ref(&meta)).unwrap();
        assert_ne!(reread[1], meta);
    }

    #[test]
    fn a_checked_handle_refuses_damaged_blocks_only() {
        let data: Vec<u8> = (0..BLOCK * 3)
            .map(|i| u8::try_from(i % 13).unwrap_or(0))
            .collect();
        let sums = FileSums {
            name: "f.pos".into(),
            len: data.len() as u64,
            blocks: data.chunks(BLOCK).map(crc32fast::hash).collect(),
        };
        let mut bad = data.clone();
        bad[BLOCK + 5] ^= 0x10;
        let file = CheckedFile {
            inner: Arc::new(OwnedBytes::new(bad)),
            state: Arc::new(FileState::new(sums)),
        };
        assert!(file.read_bytes(0..10).is_ok());
        assert!(file.read_bytes(BLOCK * 2..BLOCK * 3).is_ok());
        assert!(file.read_bytes(10..10).is_ok());
        let e = file.read_bytes(BLOCK - 1..BLOCK + 1).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(file.read_bytes(BLOCK * 3..BLOCK * 3 + 1).is_err());
    }
}
