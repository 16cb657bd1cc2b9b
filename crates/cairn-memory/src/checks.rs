//! The checks every planned change passes before anything is written:
//! compare-and-swap on the content hash, credentials in the new text, the size
//! cap, front matter that must still read, case and normalisation collisions,
//! and no lowering of a note's or an entry's sensitivity.

use std::path::Path;

use unicode_normalization::UnicodeNormalization;

use crate::contain::{Current, join, rel_under};
use crate::error::MemoryError;
use crate::frontmatter::NoteText;
use crate::ops::WriteOptions;
use crate::plan::FileOp;
use crate::sensitivity;
use crate::slug::Slug;

/// Compare-and-swap: the note's content hash must start with `--expect-hash`.
pub(crate) fn check_hash(opts: &WriteOptions, cur: &Current) -> Result<(), MemoryError> {
    let Some(expected) = &opts.expect_hash else {
        return Ok(());
    };
    let actual = cur.text.as_deref().map_or_else(
        || "absent".to_owned(),
        |t| crate::seal::shown_hash(&cur.rel, t, &cur.abs),
    );
    let want = expected.trim().to_ascii_lowercase();
    if want.len() < 8 || !actual.starts_with(&want) {
        return Err(MemoryError::HashMismatch {
            path: cur.rel.clone(),
            expected: expected.clone(),
            actual,
        });
    }
    Ok(())
}

/// Refuses a plan that lowers the sensitivity of a note or an entry.
pub(crate) fn check_declassify(plan: &[FileOp]) -> Result<(), MemoryError> {
    for f in plan {
        match f {
            FileOp::Write {
                rel,
                before: Some(before),
                after,
                ..
            } => sensitivity::check(rel, before, rel, after)?,
            FileOp::Move {
                from_rel,
                to_rel,
                content,
                ..
            } => sensitivity::check(from_rel, content, to_rel, content)?,
            FileOp::Write { before: None, .. } | FileOp::Delete { .. } => {}
        }
    }
    Ok(())
}

/// Refuses credentials in `texts` unless allowed; returns whether any were found.
pub(crate) fn check_credentials(texts: &[&str], allow: bool) -> Result<bool, MemoryError> {
    let mut found: Vec<String> = Vec::new();
    for t in texts {
        // As a reader sees the text: escaped or entity-encoded credentials too.
        for f in cairn_policy::find_credentials_markdown(t) {
            found.push(format!("{} on line {}", f.kind, f.line));
        }
    }
    if found.is_empty() {
        return Ok(false);
    }
    if allow {
        return Ok(true);
    }
    Err(MemoryError::Credentials {
        count: found.len(),
        kinds: found.join(", "),
    })
}

pub(crate) fn check_size(rel: &str, after: &str, limit: u64) -> Result<(), MemoryError> {
    let bytes = after.len() as u64;
    if bytes > limit {
        return Err(MemoryError::TooLarge {
            path: rel.to_owned(),
            bytes,
            limit,
        });
    }
    Ok(())
}

/// The written note must read back with a valid frontmatter.
pub(crate) fn check_parses(rel: &str, after: &str) -> Result<(), MemoryError> {
    let doc = NoteText::split(after).map_err(|r| frontmatter_error(rel, r))?;
    doc.mapping().map_err(|r| frontmatter_error(rel, r))?;
    Ok(())
}

/// Refuses a new note whose name differs from an existing one's only in case
/// or Unicode normalisation.
pub(crate) fn check_case_collision(
    root: &Path,
    rel: &str,
    slug: &Slug,
    cur: &Current,
) -> Result<(), MemoryError> {
    if cur.text.is_some() {
        return Ok(());
    }
    let dir = cur.abs.parent().unwrap_or(root);
    let fold = |s: &str| s.nfc().collect::<String>().to_lowercase();
    let want = fold(&format!("{}.md", slug.leaf()));
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in rd.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        if fold(&name) == want && name != format!("{}.md", slug.leaf()) {
            let existing = rel_under(root, &dir.join(&name)).unwrap_or(name);
            return Err(MemoryError::CaseCollision {
                path: cur.rel.clone(),
                existing: join(rel, &existing),
            });
        }
    }
    Ok(())
}

/// A front-matter problem of the note at `rel`.
pub(crate) fn frontmatter_error(rel: &str, reason: String) -> MemoryError {
    MemoryError::Frontmatter {
        path: rel.to_owned(),
        reason,
    }
}
