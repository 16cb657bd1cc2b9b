//! Which of a note's related files and modules the task's files point at: the
//! same path, a folder holding it, or the file's name alone.

use cairn_note::Note;

use crate::ScoreContext;

pub(crate) fn norm_path(mut p: &str) -> &str {
    // `strip_prefix` compares bytes; `trim_start_matches` with a string
    // pattern sets up a substring search at every call (thousands per wake-up).
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    p.trim_matches('/')
}

fn path_covers(a: &str, b: &str) -> bool {
    covers_normed(norm_path(a), norm_path(b))
}

/// [`path_covers`] of paths [`norm_path`] gave.
fn covers_normed(a: &str, b: &str) -> bool {
    !a.is_empty()
        && !b.is_empty()
        && (a == b
            || b.strip_prefix(a).is_some_and(|r| r.starts_with('/'))
            || a.strip_prefix(b).is_some_and(|r| r.starts_with('/')))
}

/// Whether a related file written by its name alone (`batch.rs`) names `file`
/// (`src/payout/batch.rs`). Only a bare name: a path with a folder is a path
/// from the repository's root (a note's `src/lib.rs` is not every crate's
/// `crates/x/src/lib.rs`, and a note's `crates/x/Cargo.toml` not the root
/// `Cargo.toml`). Both paths as [`norm_path`] gives them.
fn names_file(related: &str, file: &str) -> bool {
    !related.is_empty()
        && !related.contains('/')
        && file
            .strip_suffix(related)
            .is_some_and(|head| head.ends_with('/'))
}

/// A related file equal to, or a folder containing, a `--files` path, or
/// naming it by its file name ([`names_file`]): the nearest one (the same
/// path, else the file's name, else the deepest folder holding it), the first
/// of equals.
pub(crate) fn file_match(n: &Note, files: &[String]) -> Option<(String, String)> {
    // A confidential note's related files are its content: they point at it
    // for nobody (a `--files` guess would confirm them).
    if n.sensitivity >= cairn_note::Sensitivity::Confidential || n.related_files.is_empty() {
        return None;
    }
    let mut best: Option<((bool, bool, usize), &String, &String)> = None;
    for f in files {
        let nf = norm_path(f);
        for r in &n.related_files {
            let nr = norm_path(r);
            let named = names_file(nr, nf);
            if !named && !covers_normed(nr, nf) {
                continue;
            }
            let key = (nr == nf, named, nr.len());
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, f, r));
            }
        }
    }
    best.map(|(_, f, r)| (f.clone(), r.clone()))
}

pub(crate) fn module_match(n: &Note, ctx: &ScoreContext<'_>) -> Option<String> {
    // As for files: a confidential note's tags and related files select nothing.
    if n.sensitivity >= cairn_note::Sensitivity::Confidential {
        return None;
    }
    if let Some(m) = ctx
        .modules
        .iter()
        .find(|m| n.tags.iter().any(|t| t == &m.to_lowercase()))
    {
        return Some(format!("tagged with the selected module {m}"));
    }
    ctx.module_prefixes.iter().find_map(|p| {
        n.related_files
            .iter()
            .find(|r| path_covers(p, r))
            .map(|r| format!("related file {r} is in the selected module ({p})"))
    })
}
