//! `cairn init`: a starter `cairn.toml` and vault skeleton that `wakeup` can use at
//! once, and what was written. Never overwrites: existing files are kept and
//! reported. It writes files, so it lives with the front end, not in the read-only
//! engine; it needs nothing of the write path (`cairn-memory`: scopes, locks).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::args::InitArgs;
use crate::output::print_out;

/// What `init` did.
#[derive(Debug, Clone, Default)]
struct InitReport {
    /// Files written.
    created: Vec<PathBuf>,
    /// Files that already existed and were left alone.
    kept: Vec<PathBuf>,
}

/// Runs `cairn init`.
pub fn run(a: InitArgs) -> Result<()> {
    let dir = match a.dir {
        Some(d) => d,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let report = init(&dir)?;
    let mut s = String::new();
    for p in &report.created {
        s.push_str(&format!("created {}\n", p.display()));
    }
    for p in &report.kept {
        s.push_str(&format!("kept    {} (already exists)\n", p.display()));
    }
    s.push_str(&format!(
        "\nNext: edit {cfg} (your projects' repo_paths), then run\n  cairn wakeup --config {cfg} --task \"what you are working on\"\n",
        cfg = dir.join("cairn.toml").display()
    ));
    print_out(&s)
}

const CONFIG: &str = r#"# cairn configuration. Paths are relative to this file.
# Docs: https://github.com/cairn-memory/cairn#configuration

[vault]
root = "vault"

[vault.limits]
max_files = 200000
max_file_bytes = 1048576
max_depth = 32

[developer]
# Folders (inside the vault) with notes about you and how you work.
note_roots = ["00-Identity", "30-Workflows"]

[ranking]
# A note this many days old keeps 3/4 of its recency weight.
half_life_days = 180

# One [[projects]] entry per project. cairn routes your working directory to the
# project whose repo_paths contain it (worktrees and subfolders included).
[[projects]]
id = "example"
name = "Example project"
repo_paths = ["~/code/example"]
note_roots = ["10-Projects/example"]

[[projects.modules]]
id = "api"
path_prefixes = ["src/api"]
keywords = ["endpoint", "handler", "route"]

[[scenes]]
id = "debugging"
keywords = ["debug", "bug", "error", "crash", "fix"]
"#;

const NOTES: &[(&str, &str)] = &[
    (
        "vault/00-Identity/me.md",
        "---\ntitle: About me\nmemory_type: person\nscope: user\npinned: true\ndescription: Who I am and how I like to collaborate with coding agents.\n---\n# About me\n\nI am a software engineer. Replace this with your role, the languages you use most, and how you like an agent to work with you.\n",
    ),
    (
        "vault/30-Workflows/working-style.md",
        "---\ntitle: Working style\nmemory_type: preference\ndescription: Keep replies short; explain a plan before large changes; never force-push.\n---\n# Working style\n\n- Keep replies short and concrete.\n- Before a change that touches more than a few files, explain the plan first.\n- Never force-push or rewrite shared history.\n",
    ),
    (
        "vault/10-Projects/example/overview.md",
        "---\ntitle: Example project overview\nmemory_type: project\nproject_id: example\nsource_of_truth: true\ndescription: What the project is, its stack and its current focus.\n---\n# Example project\n\nDescribe the project, its architecture and what is happening now.\n",
    ),
    (
        "vault/10-Projects/example/decisions/0001-record-decisions.md",
        "---\ntitle: Record decisions as notes\nmemory_type: decision\nproject_id: example\ndescription: Each architectural decision gets one note with its rationale and reversal condition.\n---\n# Record decisions as notes\n\nWe record each decision in its own note, with why we made it and what would make us reverse it. A newer decision marks the old one `status: superseded`.\n",
    ),
];

/// Writes a starter configuration and vault into `dir` (created if missing). An
/// I/O error reads `<path>: <error>`.
fn init(dir: &Path) -> Result<InitReport> {
    let io = |p: &Path| p.display().to_string();
    std::fs::create_dir_all(dir).with_context(|| io(dir))?;
    let mut report = InitReport::default();
    let files = std::iter::once(("cairn.toml", CONFIG)).chain(NOTES.iter().copied());
    for (rel, text) in files {
        let path = dir.join(rel);
        if path.exists() {
            report.kept.push(path);
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| io(parent))?;
        }
        write_new(&path, text).with_context(|| io(&path))?;
        report.created.push(path);
    }
    Ok(report)
}

/// Writes `text` to a temporary file beside `path`, then links it into place only if
/// `path` still does not exist: never a partial file, never an overwrite.
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    cairn_atomic_write::StagedFile::beside(path, ".cairn-tmp-", 0o666, text.as_bytes())?
        .create_new()
}

#[cfg(test)]
mod tests {
    use super::NOTES;

    /// The starter notes are read the same way by every reader: a closed block the
    /// one splitter finds, no diagnostic, a sensitivity read with certainty.
    #[test]
    fn starter_notes_have_front_matter_every_reader_agrees_on() {
        for (rel, text) in NOTES {
            let split = cairn_note::split_frontmatter(text);
            assert!(split.front.is_some_and(|b| b.is_closed()), "{rel}");
            let parsed = cairn_note::parse_note(rel, text.as_bytes());
            assert!(
                parsed.diagnostics.is_empty(),
                "{rel}: {:?}",
                parsed.diagnostics
            );
            assert!(cairn_note::read_sensitivity(text).doubt.is_none(), "{rel}");
        }
    }
}
