//! Where an index lives: built in RAM, or created, opened for writing, or opened
//! read-only (checked against its checksums) in a folder of the persistent cache.

use std::path::Path;

use cairn_note::Note;
use tantivy::{Index, ReloadPolicy};

use crate::error::contained;
use crate::schema::{Fields, schema};
use crate::verify::FileSums;
use crate::{ANALYZER, IndexError, NoteIndex, analyzer, live_stats, verify};

impl NoteIndex {
    /// Builds an index of `notes` in RAM (each as given: the engine gives
    /// `cairn_policy::index_view`s, with no credential left in them).
    pub fn build_in_ram<N: std::borrow::Borrow<Note>>(
        notes: impl IntoIterator<Item = N>,
    ) -> Result<Self, IndexError> {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        let mut idx = contained(|| Self::wrap(index, fields))?;
        let mut w = idx.writer()?;
        for n in notes {
            w.add(n.borrow())?;
        }
        w.commit()?;
        idx.reload()?;
        Ok(idx)
    }

    /// Opens the index in `dir`, or creates an empty one there.
    pub fn open_or_create(dir: &Path) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let directory = tantivy::directory::MmapDirectory::open(dir)?;
            let index = Index::open_or_create(directory, schema.clone())?;
            if index.schema() != schema {
                return Err(IndexError::SchemaMismatch);
            }
            Self::wrap(index, fields)
        })
    }

    /// Opens the existing index in `dir` (memory-mapped) to write to it. Fails when
    /// there is none, when its files are unreadable or when its schema is not this
    /// version's.
    pub fn open(dir: &Path) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let directory = tantivy::directory::MmapDirectory::open(dir)?;
            let index = Index::open(directory)?;
            if index.schema() != schema {
                return Err(IndexError::SchemaMismatch);
            }
            Self::wrap(index, fields)
        })
    }

    /// Opens the published index in `dir` for searching only, checked against
    /// `sums` (taken with [`checksum_dir`](crate::checksum_dir) when it was published): the small files
    /// read on every search (meta, fast fields, field norms) are checked now,
    /// every other block the first time a search reads it, so a damaged index is
    /// an error, never a wrong answer. Nothing is ever written to `dir` (not even
    /// tantivy's reader lock file), so it can be read from a read-only folder and
    /// by any number of processes.
    pub fn open_verified(dir: &Path, sums: &[FileSums]) -> Result<Self, IndexError> {
        Self::open_read_only_with(dir, Some(sums))
    }

    /// Opens the existing index in `dir` for searching only, unchecked (see
    /// [`NoteIndex::open_verified`]).
    pub fn open_read_only(dir: &Path) -> Result<Self, IndexError> {
        Self::open_read_only_with(dir, None)
    }

    fn open_read_only_with(dir: &Path, sums: Option<&[FileSums]>) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let directory = verify::ReadOnlyDirectory::open(dir, sums)?;
            let index = Index::open(directory)?;
            if index.schema() != schema {
                return Err(IndexError::SchemaMismatch);
            }
            Self::wrap(index, fields)
        })
    }

    /// Creates an empty index in the existing, empty folder `dir`.
    pub fn create(dir: &Path) -> Result<Self, IndexError> {
        contained(|| {
            let (schema, fields) = schema();
            let index = Index::create_in_dir(dir, schema)?;
            Self::wrap(index, fields)
        })
    }

    fn wrap(index: Index, fields: Fields) -> Result<Self, IndexError> {
        index.tokenizers().register(ANALYZER, analyzer());
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Self {
            index,
            reader,
            fields,
            lengths: live_stats::LengthCache::default(),
        })
    }
}
