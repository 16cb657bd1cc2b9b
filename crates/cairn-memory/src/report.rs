//! What a plan did, told to the caller: the [`Outcome`] of running (or, in a dry
//! run, planning) it, one [`Change`] per file with its hashes and redacted diff,
//! a phrase for messages, and the scope's notes as a dry run's index would list them.

use cairn_note::parse_note;

use crate::contain::join;
use crate::content_hash;
use crate::diff::note_diff;
use crate::index::ScopeNote;
use crate::ops::{Action, Change, Op, Outcome};
use crate::plan::FileOp;
use crate::scope::Scope;
use crate::slug::Slug;

/// The outcome of running (or, `dry_run`, planning) `plan`, the index aside.
pub(crate) fn outcome(
    scope: &Scope,
    op: &Op,
    rel: &str,
    slugs: &[Slug],
    plan: &[FileOp],
    dry_run: bool,
    warnings: Vec<String>,
) -> Outcome {
    let mut changes: Vec<Change> = plan.iter().map(describe).collect();
    if changes.is_empty()
        && !matches!(op, Op::Reindex)
        && let Some(s) = slugs.first()
    {
        changes.push(Change {
            path: join(rel, &s.file_name()),
            action: Action::Unchanged,
            to: None,
            hash_before: None,
            hash_after: None,
            diff: String::new(),
        });
    }
    Outcome {
        scope: scope.to_string(),
        folder: rel.to_owned(),
        dry_run,
        changes,
        index: None,
        warnings,
    }
}

/// What a carried-out plan did, for a message (`a.md written; b.md archived`).
pub(crate) fn done_phrase(plan: &[FileOp]) -> String {
    let parts: Vec<String> = plan
        .iter()
        .map(|f| match f {
            FileOp::Write { rel, .. } => format!("{rel} written"),
            FileOp::Move {
                from_rel,
                archive: true,
                ..
            } => format!("{from_rel} archived"),
            FileOp::Move {
                from_rel, to_rel, ..
            } => format!("{from_rel} moved to {to_rel}"),
            FileOp::Delete { rel, .. } => format!("{rel} deleted"),
        })
        .collect();
    if parts.is_empty() {
        "no note changed".to_owned()
    } else {
        parts.join("; ")
    }
}

/// The plain content hash of the note `rel` holding `text`, for a change's
/// report; none for a note that hides any of its text (its hash is sealed,
/// see `seal.rs`, and the file it keys on is not yet written).
fn plain_hash(rel: &str, text: &str) -> Option<String> {
    (!crate::seal::sealed(rel, text)).then(|| content_hash(text.as_bytes()))
}

/// The change one file operation makes.
fn describe(f: &FileOp) -> Change {
    match f {
        FileOp::Write {
            rel, before, after, ..
        } => Change {
            path: rel.clone(),
            action: if before.is_some() {
                Action::Modified
            } else {
                Action::Created
            },
            to: None,
            hash_before: before.as_deref().and_then(|b| plain_hash(rel, b)),
            hash_after: plain_hash(rel, after),
            diff: note_diff(rel, before.as_deref(), Some(after)),
        },
        FileOp::Move {
            from_rel,
            to_rel,
            content,
            archive,
            ..
        } => {
            let h = plain_hash(from_rel, content);
            Change {
                path: from_rel.clone(),
                action: if *archive {
                    Action::Archived
                } else {
                    Action::Moved
                },
                to: Some(to_rel.clone()),
                hash_before: h.clone(),
                hash_after: h,
                diff: format!("rename from {from_rel}\nrename to {to_rel}\n"),
            }
        }
        FileOp::Delete { rel, content, .. } => Change {
            path: rel.clone(),
            action: Action::Deleted,
            to: None,
            hash_before: plain_hash(rel, content),
            hash_after: None,
            diff: note_diff(rel, Some(content), None),
        },
    }
}

/// The scope's notes as they would be after `plan` (for a dry run's index).
pub(crate) fn simulate(mut notes: Vec<ScopeNote>, plan: &[FileOp], rel: &str) -> Vec<ScopeNote> {
    let file_of = |r: &str| {
        r.strip_prefix(rel)
            .map(|s| s.trim_start_matches('/').to_owned())
    };
    let put = |notes: &mut Vec<ScopeNote>, file: String, text: &str| {
        notes.retain(|n| n.file != file);
        if let Some(note) = parse_note(&file, text.as_bytes()).note {
            notes.push(ScopeNote {
                slug: file.strip_suffix(".md").unwrap_or(&file).to_owned(),
                file,
                note,
                bytes: text.as_bytes().to_vec(),
            });
        }
    };
    for f in plan {
        match f {
            FileOp::Write { rel: r, after, .. } => {
                if let Some(file) = file_of(r) {
                    put(&mut notes, file, after);
                }
            }
            FileOp::Move {
                from_rel,
                to_rel,
                content,
                archive,
                ..
            } => {
                if let Some(file) = file_of(from_rel) {
                    notes.retain(|n| n.file != file);
                }
                if !archive && let Some(file) = file_of(to_rel) {
                    put(&mut notes, file, content);
                }
            }
            FileOp::Delete { rel: r, .. } => {
                if let Some(file) = file_of(r) {
                    notes.retain(|n| n.file != file);
                }
            }
        }
    }
    notes.sort_by(|a, b| a.file.cmp(&b.file));
    notes
}
