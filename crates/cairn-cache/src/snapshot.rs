//! A published generation, opened for reading: its manifest (note metadata,
//! decoded one note at a time) and its memory-mapped index. Opening checks the
//! manifest (crc32), the index's small files against the checksums the manifest
//! holds (the rest is checked block by block as searches read it) and that the
//! two agree; anything unreadable is [`CacheError::Damaged`]. Nothing here writes.

use std::ops::Range;
use std::path::{Path, PathBuf};

use cairn_index::NoteIndex;
use cairn_note::{Diagnostic, Note};

use crate::CacheError;
use crate::manifest::{EntryInfo, Manifest, ManifestProblem};
use crate::store::{INDEX, MANIFEST};

/// One generation of the cache: what the index holds and the index itself.
pub struct Snapshot {
    name: String,
    dir: PathBuf,
    manifest: Manifest,
    index: NoteIndex,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("generation", &self.name)
            .field("files", &self.len())
            .finish_non_exhaustive()
    }
}

impl Snapshot {
    /// Opens generation `name` of the cache at `cache_dir` for the vault `vault`.
    pub(crate) fn open(cache_dir: &Path, name: &str, vault: &str) -> Result<Self, CacheError> {
        let dir = cache_dir.join(name);
        let manifest_path = dir.join(MANIFEST);
        let damaged = |path: PathBuf, why: String| CacheError::Damaged { path, why };
        let manifest = match Manifest::read(&manifest_path, vault) {
            Ok(Ok(m)) => m,
            Ok(Err(ManifestProblem::Damaged(why))) => {
                return Err(CacheError::Damaged {
                    path: manifest_path,
                    why,
                });
            }
            Ok(Err(ManifestProblem::Foreign(why))) => {
                return Err(CacheError::Foreign {
                    path: cache_dir.to_path_buf(),
                    why,
                });
            }
            // Missing (CURRENT points nowhere), not a file, unreadable: damaged.
            Err(e) => return Err(damaged(manifest_path, e.to_string())),
        };
        let index_dir = dir.join(INDEX);
        for f in &manifest.header().index_files {
            let actual = std::fs::metadata(index_dir.join(&f.name)).map(|m| m.len());
            if actual.as_ref().ok() != Some(&f.len) {
                return Err(damaged(
                    index_dir.join(&f.name),
                    match actual {
                        Ok(n) => format!("{n} bytes, {} expected", f.len),
                        Err(e) => e.to_string(),
                    },
                ));
            }
        }
        let index = NoteIndex::open_verified(&index_dir, &manifest.header().index_files)
            .map_err(|e| damaged(index_dir.clone(), e.to_string()))?;
        let docs = index.doc_count();
        if docs != manifest.header().documents {
            return Err(damaged(
                index_dir,
                format!(
                    "{docs} documents for {} indexed notes in the manifest",
                    manifest.header().documents
                ),
            ));
        }
        Ok(Self {
            name: name.to_owned(),
            dir,
            manifest,
            index,
        })
    }

    /// The generation's folder name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The generation's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The notes most linked to, with how many notes link to each (computed when
    /// the generation was written).
    pub fn hubs(&self) -> &[(String, u32)] {
        &self.manifest().header().hubs
    }

    /// The generation's number (1 for the first build).
    pub fn generation(&self) -> u64 {
        self.manifest.header().generation
    }

    /// When this generation was written, ns since the epoch.
    pub fn refreshed_at_ns(&self) -> i64 {
        self.manifest.header().refreshed_at_ns
    }

    pub(crate) fn scanned_at_ns(&self) -> i64 {
        self.manifest.header().scanned_at_ns
    }

    /// What the walk that listed the vault for this generation depended on.
    pub fn walk(&self) -> &cairn_scan::Walk {
        &self.manifest.header().walk
    }

    /// The index of this generation's notes.
    pub fn index(&self) -> &NoteIndex {
        &self.index
    }

    /// Files known (notes plus files that did not parse into a note).
    pub fn len(&self) -> usize {
        self.manifest.len()
    }

    /// No files at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Notes, secret ones included.
    pub fn note_count(&self) -> u64 {
        self.manifest.header().notes
    }

    /// Notes in the index (all but the secret ones): its document count.
    pub fn document_count(&self) -> u64 {
        self.manifest.header().documents
    }

    /// The vault-relative path of file `i` (files are sorted by path).
    pub fn path(&self, i: usize) -> &str {
        self.manifest.path(i)
    }

    /// Size, mtime and content hash of file `i` as indexed.
    pub fn info(&self, i: usize) -> EntryInfo {
        self.manifest.info(i)
    }

    /// The file at `path`.
    pub fn find(&self, path: &str) -> Option<usize> {
        self.manifest.find(path)
    }

    /// The files under the vault-relative folder `root` (`""`: all), a contiguous
    /// range because files are sorted by path.
    pub fn range_under(&self, root: &str) -> Range<usize> {
        let root = root.trim_matches('/');
        if root.is_empty() {
            return 0..self.len();
        }
        let start = self.manifest.lower_bound(&format!("{root}/"));
        // '0' is the character after '/': the first path past the folder.
        let end = self.manifest.lower_bound(&format!("{root}0"));
        start..end.max(start)
    }

    /// The notes of file `i` with every field but their bodies (empty): one, one
    /// per entry of an entry file, or none when the file did not parse into a note.
    pub fn notes(&self, i: usize) -> Result<Vec<Note>, CacheError> {
        self.manifest.notes(i).map_err(|p| self.damaged(p))
    }

    /// What parsing the files reported, sorted, as stored: the messages of a
    /// secret file's diagnostics are withheld ([`crate::WITHHELD_DIAGNOSTIC`]).
    pub fn diagnostics(&self) -> Result<Vec<Diagnostic>, CacheError> {
        self.manifest.diagnostics().map_err(|p| self.damaged(p))
    }

    /// What parsing the files reported, sorted, with the withheld messages of
    /// secret files read again from the vault at `vault` (those files only).
    pub fn diagnostics_from(&self, vault: &Path) -> Result<Vec<Diagnostic>, CacheError> {
        let mut diags = self.diagnostics()?;
        let mut withheld: Vec<String> = diags
            .iter()
            .filter(|d| d.message == crate::WITHHELD_DIAGNOSTIC)
            .map(|d| d.path.clone())
            .collect();
        if withheld.is_empty() {
            return Ok(diags);
        }
        withheld.sort();
        withheld.dedup();
        let root = vault.canonicalize().unwrap_or_else(|_| vault.to_path_buf());
        for path in withheld {
            let Ok(bytes) = cairn_scan::read_inside(&root, &vault.join(&path)) else {
                continue;
            };
            let fresh = cairn_note::parse_file(&path, &bytes).diagnostics;
            diags.retain(|d| d.path != path);
            diags.extend(fresh);
        }
        diags.sort();
        Ok(diags)
    }

    /// Reads every file of this generation's index and checks it against its
    /// checksums; returns the damaged files (empty: sound).
    pub fn verify(&self) -> Vec<String> {
        cairn_index::verify_dir(&self.dir.join(INDEX), &self.manifest.header().index_files)
    }

    /// The checksums of this generation's index files.
    pub(crate) fn index_sums(&self) -> &[cairn_index::FileSums] {
        &self.manifest.header().index_files
    }

    /// Whether `bytes` are the content file `i` had when it was indexed.
    pub fn content_matches(&self, i: usize, bytes: &[u8]) -> bool {
        self.info(i).hash == crate::content_hash(bytes)
    }

    /// Bytes on disk of this generation (manifest and index; files shared with
    /// the previous generation through hard links are counted here too).
    pub fn disk_bytes(&self) -> u64 {
        crate::store::disk_usage(&self.dir)
    }

    /// Size of the manifest in bytes.
    pub fn manifest_bytes(&self) -> usize {
        self.manifest.byte_len()
    }

    pub(crate) fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    fn damaged(&self, p: ManifestProblem) -> CacheError {
        let why = match p {
            ManifestProblem::Damaged(w) | ManifestProblem::Foreign(w) => w,
        };
        CacheError::Damaged {
            path: self.dir.join(MANIFEST),
            why,
        }
    }
}
