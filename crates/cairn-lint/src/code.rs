//! `code-changed-since-note`: a project note whose `related_files` changed in
//! commits after its date (`updated`, else `created`), by the git history cached
//! for the project's repository (`cairn index` reads it). Files and counts only.
//! `git-history-not-read` (info): a project repository whose history no command
//! has read yet, so its notes could not be checked.

use cairn_engine::Sensitivity;

use crate::{Ctx, Level};

/// Reports every project note whose related files changed since it was written.
pub(crate) fn changed_since_note(ctx: &mut Ctx<'_>) {
    let mut found = Vec::new();
    let changed = ctx.engine.notes_with_changed_code(ctx.opts.cwd.as_deref());
    for (project, repo) in &changed.unread {
        found.push((
            repo.display().to_string(),
            None,
            format!(
                "the git history of project `{project}`'s repository is not read yet, so its notes were not checked for code that changed since them: run `cairn index` once"
            ),
        ));
    }
    let unread = found.len();
    for (path, changes) in changed.notes {
        let Some(n) = ctx.engine.note(&path) else {
            continue;
        };
        if n.is_retired() || n.sensitivity == Sensitivity::Secret {
            continue;
        }
        // A confidential note's related files are content: named by count only.
        let files: Vec<String> = if n.sensitivity >= Sensitivity::Confidential {
            vec![format!(
                "{} of its related files (withheld: the note is confidential)",
                changes.len()
            )]
        } else {
            changes
                .iter()
                .map(|c| format!("{} ({})", c.path, c.count_phrase()))
                .collect()
        };
        let since = changes.first().map(|c| c.since.clone()).unwrap_or_default();
        // An entry of a decision log is named, at its heading: the file's
        // other entries share its path.
        let (line, which) = if n.entry_of.is_some() {
            let title = cairn_policy::ShownName::of(n).title.into_string();
            (
                Some(n.body_line),
                format!("the entry \u{201c}{title}\u{201d}: "),
            )
        } else {
            (ctx.key_line(n, "related_files"), String::new())
        };
        found.push((
            n.file_path().to_owned(),
            line,
            format!(
                "{which}the code it describes changed since {since}: {}; check the note is still true, then update its date",
                files.join(", ")
            ),
        ));
    }
    for (i, (path, line, message)) in found.into_iter().enumerate() {
        if i < unread {
            ctx.push(Level::Info, "git-history-not-read", &path, line, message);
        } else {
            ctx.push(
                Level::Warning,
                "code-changed-since-note",
                &path,
                line,
                message,
            );
        }
    }
}
