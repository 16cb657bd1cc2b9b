//! The manifest of one generation: which files the index holds, as what, and the
//! notes' metadata, in one checksummed binary file, memory-mapped: opening it
//! touches the pages of the rows and paths, and of the records that are decoded.
//!
//! ```text
//! magic "CAIRNMF1" · format u32 · crc32 u32 (of everything after it) · header length u32
//! header        postcard: versions, vault, generation, times, section lengths,
//!               the walk's record (folder and ignore-file stamps)
//! entries       one fixed 60-byte row per file, sorted by path:
//!               size u64 · mtime_ns i64 · blake3[..16] · path offset u32 · path length u32
//!               · record offset u64 · record length u32 · note count u32
//!               · indexed note count u32 (secret notes are not indexed)
//! paths         the paths, UTF-8, back to back
//! diagnostics   postcard Vec<Diagnostic>: what parsing the files reported
//! records       postcard Vec<StoredNote> per file that parsed into notes (a
//!               secret note's record is its stub: no word of its text)
//! ```
//! The header also holds the checksums of every file of the generation's index
//! (crc32 per 16 KiB block, [`cairn_index::FileSums`]).
//! Nothing is decoded up front but the header: rows are read in place, and a
//! note's record only when the note is wanted. Every offset is checked when the
//! file is opened, so a damaged manifest is an error, never a panic or a wrong note.

// The format stores offsets and lengths in u32 and u64 fields, and cairn builds for
// 64-bit targets: the casts between them and usize below cannot lose a value that
// a vault can produce (a 4 GiB path table or record, which `open` refuses).
#![allow(clippy::cast_possible_truncation)]

use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;

use tantivy::directory::{Directory, MmapDirectory, OwnedBytes};

use cairn_note::{Diagnostic, Note};
use serde::{Deserialize, Serialize};

use crate::record;

const MAGIC: &[u8; 8] = b"CAIRNMF1";
/// Bumped whenever the layout of this file or of the records changes.
pub(crate) const FORMAT: u32 = 7;
const ROW: usize = 60;
const PREFIX: usize = 20;

/// The bytes of the file at `path`, memory-mapped (through tantivy's directory,
/// which owns the mapping safely). Generations are immutable once published, so
/// the file never changes under the mapping.
fn map(path: &Path) -> std::io::Result<OwnedBytes> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a file path",
        ));
    };
    let dir = MmapDirectory::open(dir).map_err(std::io::Error::other)?;
    let slice = dir.open_read(Path::new(name)).map_err(|e| match e {
        tantivy::directory::error::OpenReadError::FileDoesNotExist(_) => {
            std::io::Error::from(std::io::ErrorKind::NotFound)
        }
        other => std::io::Error::other(other),
    })?;
    slice.read_bytes()
}

/// Why a manifest cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ManifestProblem {
    /// Unreadable bytes: truncated, flipped, not a manifest.
    Damaged(String),
    /// Written by another version of cairn (or another schema or format).
    Foreign(String),
}

/// The header: versions and bookkeeping.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Header {
    /// The cairn version that wrote it.
    pub cairn_version: String,
    /// `cairn_index::SCHEMA_VERSION` of the index beside it.
    pub schema_version: u32,
    /// `cairn_note::PARSER_VERSION` of the parser that made its notes: a newer
    /// parser never serves an older one's notes.
    pub parser_version: u32,
    /// The vault root it describes.
    pub vault: String,
    /// Generation number (1 for the first build).
    pub generation: u64,
    /// When this generation was written, ns since the epoch.
    pub refreshed_at_ns: i64,
    /// When the listing it reflects started, ns since the epoch (racy-file check).
    pub scanned_at_ns: i64,
    /// Rows.
    pub entries: u64,
    /// Notes of all rows.
    pub notes: u64,
    /// Notes in the index (all but the secret ones) = its document count.
    pub documents: u64,
    /// Length of the paths section.
    pub paths_len: u64,
    /// Length of the diagnostics section.
    pub diagnostics_len: u64,
    /// Length of the records section.
    pub records_len: u64,
    /// The index files of this generation, their sizes and block checksums: a
    /// truncated, missing or damaged file is caught before tantivy uses a byte of it.
    pub index_files: Vec<cairn_index::FileSums>,
    /// What the walk that listed the vault depended on (lets the next command
    /// skip the walk: [`cairn_scan::relist`]).
    pub walk: cairn_scan::Walk,
    /// The notes most linked to and how many notes link to each
    /// ([`cairn_note::most_linked`]), computed when the generation is written so
    /// no query pays for resolving links.
    pub hubs: Vec<(String, u32)>,
}

/// Most hub notes a generation keeps.
pub(crate) const HUBS_KEPT: usize = 256;

/// One file of the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryInfo {
    /// Size in bytes when read.
    pub size: u64,
    /// Modification time when read, ns since the epoch.
    pub mtime_ns: i64,
    /// The first 16 bytes of the content's blake3 hash.
    pub hash: [u8; 16],
    /// How many notes the file parsed into: 1, one per entry of an entry file,
    /// or 0 (the file only has diagnostics).
    pub notes: u32,
    /// How many of them are in the index (the others are secret).
    pub docs: u32,
}

/// A manifest being written.
#[derive(Debug, Default)]
pub(crate) struct ManifestBuilder<'a> {
    /// Path, row, note record. Rows kept from the previous generation borrow its
    /// memory-mapped manifest: a refresh of a few notes copies each unchanged row
    /// once, into the new manifest, and allocates nothing per row.
    rows: Vec<(Cow<'a, str>, EntryInfo, Cow<'a, [u8]>)>,
}

impl<'a> ManifestBuilder<'a> {
    /// Adds a file with its encoded note record (empty when it has no note).
    pub(crate) fn push(
        &mut self,
        path: impl Into<Cow<'a, str>>,
        info: EntryInfo,
        record: impl Into<Cow<'a, [u8]>>,
    ) {
        self.rows.push((path.into(), info, record.into()));
    }

    /// Serialises the manifest (rows sorted by path) into one buffer of exactly
    /// its size. Fails only if the header or the diagnostics cannot be encoded,
    /// which must never yield a manifest that reads back as damaged.
    pub(crate) fn finish(
        mut self,
        mut header: Header,
        diagnostics: &[Diagnostic],
    ) -> Result<Vec<u8>, postcard::Error> {
        self.rows.sort_by(|a, b| a.0.cmp(&b.0));
        self.rows.dedup_by(|a, b| a.0 == b.0);
        let paths_len: usize = self.rows.iter().map(|r| r.0.len()).sum();
        let records_len: usize = self.rows.iter().map(|r| r.2.len()).sum();
        let notes: u64 = self
            .rows
            .iter()
            .filter(|r| !r.2.is_empty())
            .map(|r| u64::from(r.1.notes))
            .sum();
        let documents: u64 = self
            .rows
            .iter()
            .filter(|r| !r.2.is_empty())
            .map(|r| u64::from(r.1.docs.min(r.1.notes)))
            .sum();
        let diags = postcard::to_allocvec(diagnostics)?;
        // Every note's links, from the records (a secret note's stub has none).
        let decoded: Vec<Note> = self
            .rows
            .iter()
            .filter(|r| !r.2.is_empty())
            .flat_map(|r| record::decode(&r.2).unwrap_or_default())
            .collect();
        let refs: Vec<&Note> = decoded
            .iter()
            .filter(|n| n.sensitivity != cairn_note::Sensitivity::Secret)
            .collect();
        header.hubs = cairn_note::most_linked(&refs, HUBS_KEPT);
        header.entries = self.rows.len() as u64;
        header.notes = notes;
        header.documents = documents;
        header.paths_len = paths_len as u64;
        header.diagnostics_len = diags.len() as u64;
        header.records_len = records_len as u64;
        let head = postcard::to_allocvec(&header)?;

        let mut out = Vec::with_capacity(
            PREFIX + head.len() + self.rows.len() * ROW + paths_len + diags.len() + records_len,
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(head.len() as u32).to_le_bytes());
        out.extend_from_slice(&head);
        let (mut path_at, mut record_at) = (0usize, 0usize);
        for (path, info, rec) in &self.rows {
            let count = if rec.is_empty() { 0 } else { info.notes };
            let docs = if rec.is_empty() {
                0
            } else {
                info.docs.min(info.notes)
            };
            out.extend_from_slice(&info.size.to_le_bytes());
            out.extend_from_slice(&info.mtime_ns.to_le_bytes());
            out.extend_from_slice(&info.hash);
            out.extend_from_slice(&(path_at as u32).to_le_bytes());
            out.extend_from_slice(&(path.len() as u32).to_le_bytes());
            out.extend_from_slice(&(record_at as u64).to_le_bytes());
            out.extend_from_slice(&(rec.len() as u32).to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
            out.extend_from_slice(&docs.to_le_bytes());
            path_at += path.len();
            record_at += rec.len();
        }
        for (path, _, _) in &self.rows {
            out.extend_from_slice(path.as_bytes());
        }
        out.extend_from_slice(&diags);
        for (_, _, rec) in &self.rows {
            out.extend_from_slice(rec);
        }
        let crc = crc32fast::hash(&out[16..]);
        out[12..16].copy_from_slice(&crc.to_le_bytes());
        Ok(out)
    }
}

/// A manifest read from disk.
#[derive(Debug)]
pub(crate) struct Manifest {
    bytes: OwnedBytes,
    header: Header,
    table: Range<usize>,
    paths: Range<usize>,
    diagnostics: Range<usize>,
    records: Range<usize>,
}

impl Manifest {
    /// Reads and checks `path`: magic, format, checksum, header, versions, every offset.
    pub(crate) fn read(
        path: &Path,
        vault: &str,
    ) -> Result<Result<Self, ManifestProblem>, std::io::Error> {
        Ok(Self::parse(map(path)?, vault))
    }

    /// Checks and wraps manifest bytes.
    pub(crate) fn parse(bytes: OwnedBytes, vault: &str) -> Result<Self, ManifestProblem> {
        let damaged = |why: &str| ManifestProblem::Damaged(why.to_owned());
        if bytes.len() < PREFIX || &bytes[..8] != MAGIC {
            return Err(damaged("not a cairn manifest"));
        }
        let format = le_u32(&bytes, 8);
        if format != FORMAT {
            return Err(ManifestProblem::Foreign(format!(
                "manifest format {format} (this cairn reads {FORMAT})"
            )));
        }
        if le_u32(&bytes, 12) != crc32fast::hash(&bytes[16..]) {
            return Err(damaged("checksum mismatch (truncated or overwritten)"));
        }
        let head_len = le_u32(&bytes, 16) as usize;
        let head_end = PREFIX
            .checked_add(head_len)
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| damaged("header out of bounds"))?;
        let header: Header = postcard::from_bytes(&bytes[PREFIX..head_end])
            .map_err(|e| ManifestProblem::Damaged(format!("header: {e}")))?;
        let expected_cairn = env!("CARGO_PKG_VERSION");
        if header.cairn_version != expected_cairn
            || header.schema_version != cairn_index::SCHEMA_VERSION
            || header.parser_version != cairn_note::PARSER_VERSION
        {
            return Err(ManifestProblem::Foreign(format!(
                "cairn {} (index schema {}, parser {}); this is cairn {expected_cairn} (schema {}, parser {})",
                header.cairn_version,
                header.schema_version,
                header.parser_version,
                cairn_index::SCHEMA_VERSION,
                cairn_note::PARSER_VERSION,
            )));
        }
        if header.vault != vault {
            return Err(ManifestProblem::Foreign(format!(
                "it indexes another vault ({})",
                header.vault
            )));
        }
        let mut at = head_end;
        let mut section = |len: u64| -> Result<Range<usize>, ManifestProblem> {
            let len = usize::try_from(len).map_err(|_| damaged("section too large"))?;
            let end = at
                .checked_add(len)
                .filter(|&e| e <= bytes.len())
                .ok_or_else(|| damaged("section out of bounds"))?;
            let r = at..end;
            at = end;
            Ok(r)
        };
        let rows = usize::try_from(header.entries).map_err(|_| damaged("too many rows"))?;
        let table = section(
            (rows as u64)
                .checked_mul(ROW as u64)
                .ok_or_else(|| damaged("too many rows"))?,
        )?;
        let paths = section(header.paths_len)?;
        let diagnostics = section(header.diagnostics_len)?;
        let records = section(header.records_len)?;
        if at != bytes.len() {
            return Err(damaged("trailing bytes"));
        }
        let m = Self {
            bytes,
            header,
            table,
            paths,
            diagnostics,
            records,
        };
        m.check_rows()?;
        Ok(m)
    }

    /// Every row's path and record lie inside their sections; paths are UTF-8 and
    /// strictly increasing; the note count adds up.
    fn check_rows(&self) -> Result<(), ManifestProblem> {
        let damaged = |why: String| ManifestProblem::Damaged(why);
        let mut prev: Option<&str> = None;
        let mut notes = 0u64;
        let mut documents = 0u64;
        for i in 0..self.len() {
            let r = self.row(i);
            let p = r.path.clone();
            if p.end > self.paths.len() {
                return Err(damaged(format!("row {i}: path out of bounds")));
            }
            let path = std::str::from_utf8(
                &self.bytes[self.paths.start + p.start..self.paths.start + p.end],
            )
            .map_err(|_| damaged(format!("row {i}: path is not UTF-8")))?;
            if prev.is_some_and(|q| q >= path) {
                return Err(damaged(format!("row {i}: rows out of order")));
            }
            prev = Some(path);
            if r.record.end > self.records.len() {
                return Err(damaged(format!("row {i}: record out of bounds")));
            }
            if r.info.docs > r.info.notes {
                return Err(damaged(format!("row {i}: more documents than notes")));
            }
            notes += u64::from(r.info.notes);
            documents += u64::from(r.info.docs);
        }
        if notes != self.header.notes || documents != self.header.documents {
            return Err(damaged("note count does not add up".into()));
        }
        Ok(())
    }

    /// The header.
    pub(crate) fn header(&self) -> &Header {
        &self.header
    }

    /// Number of files.
    pub(crate) fn len(&self) -> usize {
        self.header.entries as usize
    }

    fn row(&self, i: usize) -> Row {
        let at = self.table.start + i * ROW;
        let b = &self.bytes;
        let mut hash = [0u8; 16];
        hash.copy_from_slice(&b[at + 16..at + 32]);
        let path_off = le_u32(b, at + 32) as usize;
        let path_len = le_u32(b, at + 36) as usize;
        let rec_off = le_u64(b, at + 40) as usize;
        let rec_len = le_u32(b, at + 48) as usize;
        Row {
            info: EntryInfo {
                size: le_u64(b, at),
                mtime_ns: le_u64(b, at + 8).cast_signed(),
                hash,
                notes: le_u32(b, at + 52),
                docs: le_u32(b, at + 56),
            },
            path: path_off..path_off.saturating_add(path_len),
            record: rec_off..rec_off.saturating_add(rec_len),
        }
    }

    /// The path of row `i` (checked at open; empty if out of range).
    pub(crate) fn path(&self, i: usize) -> &str {
        std::str::from_utf8(self.path_bytes(i)).unwrap_or("")
    }

    /// The path of row `i` as bytes (byte order is the paths' sort order).
    fn path_bytes(&self, i: usize) -> &[u8] {
        if i >= self.len() {
            return b"";
        }
        let at = self.table.start + i * ROW;
        let off = le_u32(&self.bytes, at + 32) as usize;
        let len = le_u32(&self.bytes, at + 36) as usize;
        &self.bytes[self.paths.start + off..self.paths.start + off + len]
    }

    /// Size, mtime, hash and note flag of row `i`.
    pub(crate) fn info(&self, i: usize) -> EntryInfo {
        self.row(i).info
    }

    /// The encoded record of row `i` (empty when the file has no note).
    pub(crate) fn record(&self, i: usize) -> &[u8] {
        let r = self.row(i).record;
        &self.bytes[self.records.start + r.start..self.records.start + r.end]
    }

    /// The notes of row `i`, bodies empty (none when the file has no note).
    pub(crate) fn notes(&self, i: usize) -> Result<Vec<Note>, ManifestProblem> {
        if i >= self.len() || self.info(i).notes == 0 {
            return Ok(Vec::new());
        }
        let notes = record::decode(self.record(i))
            .map_err(|e| ManifestProblem::Damaged(format!("record of {}: {e}", self.path(i))))?;
        if notes.len() != self.info(i).notes as usize {
            return Err(ManifestProblem::Damaged(format!(
                "record of {}: note count does not add up",
                self.path(i)
            )));
        }
        Ok(notes)
    }

    /// The parse diagnostics of every file.
    pub(crate) fn diagnostics(&self) -> Result<Vec<Diagnostic>, ManifestProblem> {
        postcard::from_bytes(&self.bytes[self.diagnostics.clone()])
            .map_err(|e| ManifestProblem::Damaged(format!("diagnostics: {e}")))
    }

    /// The row holding `path`.
    pub(crate) fn find(&self, path: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = usize::midpoint(lo, hi);
            match self.path_bytes(mid).cmp(path.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The first row whose path is not less than `key`.
    pub(crate) fn lower_bound(&self, key: &str) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = usize::midpoint(lo, hi);
            if self.path_bytes(mid) < key.as_bytes() {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Size of the file in bytes.
    pub(crate) fn byte_len(&self) -> usize {
        self.bytes.len()
    }
}

struct Row {
    info: EntryInfo,
    path: Range<usize>,
    record: Range<usize>,
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            cairn_version: env!("CARGO_PKG_VERSION").into(),
            schema_version: cairn_index::SCHEMA_VERSION,
            parser_version: cairn_note::PARSER_VERSION,
            vault: "/v".into(),
            generation: 3,
            refreshed_at_ns: 10,
            scanned_at_ns: 9,
            entries: 0,
            notes: 0,
            documents: 0,
            paths_len: 0,
            diagnostics_len: 0,
            records_len: 0,
            index_files: Vec::new(),
            walk: cairn_scan::Walk::default(),
            hubs: Vec::new(),
        }
    }

    fn sample() -> Vec<u8> {
        let mut b = ManifestBuilder::default();
        for (p, text) in [
            ("b/x.md", "# X\nbody"),
            ("a.md", "---\ntitle: A\n---\nbody"),
        ] {
            let n = cairn_note::parse_note(p, text.as_bytes()).note.unwrap();
            let info = EntryInfo {
                size: text.len() as u64,
                mtime_ns: 5,
                hash: [7; 16],
                notes: 1,
                docs: 1,
            };
            b.push(p, info, record::encode(std::slice::from_ref(&n)));
        }
        b.push(
            "c.md",
            EntryInfo {
                size: 0,
                mtime_ns: 1,
                hash: [0; 16],
                notes: 0,
                docs: 0,
            },
            Vec::new(),
        );
        let diags = vec![Diagnostic {
            path: "c.md".into(),
            line: None,
            severity: cairn_note::Severity::Error,
            code: "empty-file".into(),
            message: "empty".into(),
        }];
        b.finish(header(), &diags).unwrap()
    }

    #[test]
    fn round_trip_sorted_and_searchable() {
        let m = Manifest::parse(OwnedBytes::new(sample()), "/v").unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m.header().notes, 2);
        assert_eq!(m.header().documents, 2);
        assert_eq!(m.header().generation, 3);
        assert_eq!(
            (0..3).map(|i| m.path(i)).collect::<Vec<_>>(),
            ["a.md", "b/x.md", "c.md"]
        );
        assert_eq!(m.find("b/x.md"), Some(1));
        assert_eq!(m.find("b"), None);
        assert_eq!(m.lower_bound("b/"), 1);
        assert_eq!(m.notes(0).unwrap()[0].title, "A");
        assert!(m.notes(2).unwrap().is_empty());
        assert_eq!(m.info(1).hash, [7; 16]);
        assert_eq!(m.diagnostics().unwrap()[0].code, "empty-file");
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_is_caught() {
        let bytes = sample();
        for len in 0..bytes.len() {
            assert!(
                Manifest::parse(OwnedBytes::new(bytes[..len].to_vec()), "/v").is_err(),
                "truncated to {len}"
            );
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x40;
            assert!(
                Manifest::parse(OwnedBytes::new(b), "/v").is_err(),
                "flipped byte {i}"
            );
        }
    }

    #[test]
    fn other_versions_and_vaults_are_foreign() {
        assert!(matches!(
            Manifest::parse(OwnedBytes::new(sample()), "/other"),
            Err(ManifestProblem::Foreign(_))
        ));
        let mut h = header();
        h.cairn_version = "0.0.0-old".into();
        let b = ManifestBuilder::default().finish(h, &[]).unwrap();
        assert!(matches!(
            Manifest::parse(OwnedBytes::new(b), "/v"),
            Err(ManifestProblem::Foreign(_))
        ));
        // Notes an older parser made are never served by a newer one.
        let mut h = header();
        h.parser_version = cairn_note::PARSER_VERSION - 1;
        let b = ManifestBuilder::default().finish(h, &[]).unwrap();
        assert!(matches!(
            Manifest::parse(OwnedBytes::new(b), "/v"),
            Err(ManifestProblem::Foreign(why)) if why.contains("parser")
        ));
    }
}
