//! Which of a note's related files and modules the task's files point at: the
//! same path, a folder holding it, or a path that ends the same way (a file
//! named by its name or last folders, or from a folder above the repository).

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

/// Whether one path ends with the other at a folder boundary: a related file
/// written by its name or its last folders (`batch.rs`, `payout/batch.rs`), or
/// from a folder above the repository (`ledger/src/payout/batch.rs`), names the
/// repository's `src/payout/batch.rs`. Both paths as [`norm_path`] gives them.
fn ends_with_path(a: &str, b: &str) -> bool {
    let tail = |long: &str, short: &str| {
        long.len() > short.len()
            && long.as_bytes()[long.len() - short.len() - 1] == b'/'
            && long.ends_with(short)
    };
    !a.is_empty() && !b.is_empty() && (tail(a, b) || tail(b, a))
}

/// A related file equal to, or a folder containing, a `--files` path, else
/// one that names it by its last parts ([`ends_with_path`]): the nearest one
/// (the same path, else a folder holding it, the deepest first; then by its
/// last parts, the longest first), the first of equals.
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
            let covers = covers_normed(nr, nf);
            if !covers && !ends_with_path(nr, nf) {
                continue;
            }
            let key = (nr == nf, covers, nr.len());
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
