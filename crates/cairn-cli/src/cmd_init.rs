//! `cairn init`: a `cairn.toml` that `wakeup` can use at once, and what was
//! written. On a folder that already holds notes (a markdown file outside hidden
//! folders) it adopts them: the folder is the vault, developer and project roots
//! are proposed from its top folders as comments, no example note is added, and it
//! says what it found. On any other folder it writes a starter vault skeleton.
//! Never overwrites: existing files are kept and reported. It writes files, so it
//! lives with the front end, not in the read-only engine; it needs nothing of the
//! write path (`cairn-memory`: scopes, locks).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cairn_engine::config::Config;

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
pub(crate) fn run(a: InitArgs) -> Result<()> {
    let dir = match a.dir {
        Some(d) => d,
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    if holds_notes(&dir, 0) {
        return adopt(&dir);
    }
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

/// Folders below this depth are not looked into for a first note.
const LOOK_DEPTH: usize = 32;

/// Whether `dir` holds a markdown file outside hidden folders (at most
/// [`LOOK_DEPTH`] folders down; unreadable folders hold nothing).
fn holds_notes(dir: &Path, depth: usize) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let mut folders = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            folders.push(entry.path());
        } else if is_markdown(&name) {
            return true;
        }
    }
    depth < LOOK_DEPTH && folders.iter().any(|f| holds_notes(f, depth + 1))
}

fn is_markdown(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".md") || lower.ends_with(".markdown")
}

/// What adoption found: note files by top folder (`""` for the vault's top).
#[derive(Debug, Default)]
struct Found {
    /// Note files per top folder.
    top: BTreeMap<String, usize>,
    /// Note files per second-level folder of a project container (`10-Projects/x`).
    projects: BTreeMap<String, usize>,
    /// Note files in all.
    files: usize,
    /// A template folder at the top (skipped by every scan).
    templates: Option<String>,
}

/// Folder names (lowercase, any part of the name) that hold notes about the
/// developer rather than one project.
const DEVELOPER_WORDS: &[&str] = &[
    "identity",
    "about",
    "profile",
    "people",
    "person",
    "area",
    "workflow",
    "preference",
    "resource",
    "reference",
    "journal",
    "daily",
];

/// At most this many projects are proposed (the rest are counted).
const MAX_PROPOSED: usize = 20;

fn is_developer_folder(name: &str) -> bool {
    let lower = name.to_lowercase();
    lower == "me" || DEVELOPER_WORDS.iter().any(|w| lower.contains(w))
}

/// Folder names (lowercase, after a leading number such as `40-` or `_`) that
/// hold neither one project's notes nor the developer's: retired notes,
/// unsorted captures and files attached to notes. Adoption proposes no root
/// for them (`asset-tracker` is a project's name, not one of these).
const NEITHER_NAMES: &[&str] = &[
    "archive",
    "archives",
    "archived",
    "inbox",
    "attachment",
    "attachments",
    "asset",
    "assets",
    "trash",
];

fn is_neither_folder(name: &str) -> bool {
    let lower = name.to_lowercase();
    let bare = lower.trim_start_matches(|c: char| c.is_ascii_digit() || " ._-".contains(c));
    NEITHER_NAMES.contains(&bare)
}

fn is_project_container(name: &str) -> bool {
    name.to_lowercase().contains("project")
}

/// Reads the notes of `dir` as the zero-config vault would (ignore files, hidden
/// folders, templates and limits as every command does) and counts them.
fn survey(dir: &Path) -> Result<Found> {
    let config = Config::for_vault(dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    let scan = cairn_engine::scan_vault(&config);
    let mut found = Found::default();
    let mut files: Vec<&str> = scan.notes.iter().map(cairn_note::Note::file_path).collect();
    files.dedup();
    for f in files {
        found.files += 1;
        let mut parts = f.split('/');
        let first = parts.next().unwrap_or("");
        let top = if f.contains('/') { first } else { "" };
        *found.top.entry(top.to_owned()).or_default() += 1;
        if is_project_container(top)
            && let Some(second) = parts.next()
            && f.matches('/').count() >= 2
        {
            *found.projects.entry(format!("{top}/{second}")).or_default() += 1;
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        found.templates = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .find(|n| matches!(n.to_lowercase().as_str(), "templates" | "_templates"));
    }
    Ok(found)
}

/// The roots adoption proposes: developer folders, and projects (id, folder,
/// note count); with the top folders read as translations, proposed as neither.
struct Proposal {
    developer: Vec<String>,
    projects: Vec<(String, String, usize)>,
    more_projects: usize,
    translations: Vec<String>,
}

/// The ISO 639-1 language codes, which a folder of a translation is named by
/// (`de`, `pt-br`, `zh_Hant`).
const LANGUAGE_CODES: &str = "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs \
    ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn \
    gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn \
    ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng \
    nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm \
    sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa \
    wo xh yi yo za zh zu";

/// Whether a folder's name is a language's code, alone or with a region or
/// script (`en`, `pt-BR`, `zh_hant`).
fn is_language_folder(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let (code, rest) = match lower.split_once(['-', '_']) {
        Some((code, rest)) => (code, Some(rest)),
        None => (lower.as_str(), None),
    };
    let rest_ok = rest
        .is_none_or(|r| (2..=4).contains(&r.len()) && r.bytes().all(|b| b.is_ascii_alphanumeric()));
    rest_ok && code.len() == 2 && LANGUAGE_CODES.split_whitespace().any(|c| c == code)
}

/// Top folders read as one collection in several languages (a documentation
/// vault with `en/`, `de/`, `ja/`…): at least this many named by a language's
/// code. Each is a translation of the others, not a project: proposing thirty
/// projects (a held-out trial on Obsidian's help vault) helped nobody.
const MIN_TRANSLATIONS: usize = 3;

fn propose(found: &Found) -> Proposal {
    let mut developer = Vec::new();
    let mut projects: Vec<(String, String, usize)> = Vec::new();
    let mut translations: Vec<String> = found
        .top
        .keys()
        .filter(|t| is_language_folder(t))
        .cloned()
        .collect();
    if translations.len() < MIN_TRANSLATIONS {
        translations.clear();
    }
    for (top, &n) in &found.top {
        if top.is_empty() || is_neither_folder(top) || translations.contains(top) {
            continue;
        }
        if is_developer_folder(top) {
            developer.push(top.clone());
        } else if is_project_container(top) {
            for (folder, &m) in found.projects.iter().filter(|(f, _)| {
                f.strip_prefix(top.as_str())
                    .is_some_and(|r| r.starts_with('/') && !is_neither_folder(&r[1..]))
            }) {
                let leaf = folder.rsplit('/').next().unwrap_or(folder);
                projects.push((project_id(leaf), folder.clone(), m));
            }
        } else {
            projects.push((project_id(top), top.clone(), n));
        }
    }
    // Ids stay unique: a repeated one gets the folder's position.
    let mut seen = std::collections::HashSet::new();
    for (i, p) in projects.iter_mut().enumerate() {
        if !seen.insert(p.0.clone()) {
            p.0 = format!("{}-{}", p.0, i + 1);
        }
    }
    let more_projects = projects.len().saturating_sub(MAX_PROPOSED);
    projects.truncate(MAX_PROPOSED);
    Proposal {
        developer,
        projects,
        more_projects,
        translations,
    }
}

/// A folder name as a project id: lowercase ASCII letters and digits, `-` between.
fn project_id(folder: &str) -> String {
    let mut id = String::new();
    for c in folder.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').to_owned();
    if id.is_empty() { "project".into() } else { id }
}

/// A TOML string (basic string, escaped).
fn toml_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The configuration adoption writes: the folder is the vault, every note is
/// developer-wide until the user picks roots from the commented proposals.
fn adopted_config(found: &Found, p: &Proposal) -> String {
    let mut s = String::new();
    s.push_str("# cairn configuration, written by `cairn init` for the notes already in this\n");
    s.push_str("# folder. Paths are relative to this file.\n");
    s.push_str("# Docs: https://github.com/cairn-memory/cairn#configuration\n#\n");
    let _ = writeln!(
        s,
        "# Found {}: {} at the top, the rest in {}.",
        crate::output::count(found.files, "note file", "note files"),
        found.top.get("").copied().unwrap_or(0),
        crate::output::count(
            found.top.keys().filter(|k| !k.is_empty()).count(),
            "top folder",
            "top folders"
        )
    );
    s.push_str("\n[vault]\nroot = \".\"\n");
    if let Some(t) = &found.templates {
        let _ = writeln!(
            s,
            "# {} holds note templates: never read as memories (another folder: templates = \"…\").",
            toml_str(t)
        );
    }
    s.push_str("\n[developer]\n");
    s.push_str("# Until you choose, every note is developer-wide (read in every project):\n");
    s.push_str("note_roots = [\"\"]\n");
    if p.developer.is_empty() {
        s.push_str(
            "# No folder looks like notes about you (identity, areas, workflows); list yours:\n",
        );
        s.push_str("# note_roots = [\"About me\", \"Workflows\"]\n");
    } else {
        s.push_str("# Proposed from the folder names (uncomment to use instead):\n");
        let list: Vec<String> = p.developer.iter().map(|d| toml_str(d)).collect();
        let _ = writeln!(s, "# note_roots = [{}]", list.join(", "));
    }
    if !p.translations.is_empty() {
        let _ = writeln!(
            s,
            "# {} look like one collection in {} languages: no project is proposed for\n\
             # them (to keep one language, set note_roots to its folder).",
            p.translations.join(", "),
            p.translations.len()
        );
    }
    s.push_str("\n[ranking]\n# A note this many days old keeps 3/4 of its recency weight.\nhalf_life_days = 180\n");
    if !p.projects.is_empty() {
        s.push_str(
            "\n# Proposed projects, one per folder: uncomment those that are projects, and set\n",
        );
        s.push_str(
            "# their repo_paths to your checkouts (a working directory inside one routes to it).\n",
        );
        for (id, folder, n) in &p.projects {
            let _ = write!(
                s,
                "#\n# [[projects]]\n# id = {}\n# name = {}\n# repo_paths = [{}]\n# note_roots = [{}]   # {n} note files\n",
                toml_str(id),
                toml_str(&cairn_note::humanize(
                    folder.rsplit('/').next().unwrap_or(folder)
                )),
                toml_str(&format!("~/code/{id}")),
                toml_str(folder),
            );
        }
        if p.more_projects > 0 {
            let _ = writeln!(s, "#\n# ({} more folders not listed)", p.more_projects);
        }
    }
    s
}

/// Adopts the notes already in `dir`: writes the config (unless one exists) and
/// says what it found.
fn adopt(dir: &Path) -> Result<()> {
    let found = survey(dir)?;
    let proposal = propose(&found);
    let cfg = dir.join("cairn.toml");
    let mut s = String::new();
    let _ = writeln!(
        s,
        "found {} in {} (the vault: no example notes added)",
        crate::output::count(found.files, "note file", "note files"),
        dir.display()
    );
    let mut tops: Vec<(&String, &usize)> =
        found.top.iter().filter(|(k, _)| !k.is_empty()).collect();
    tops.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = tops
        .iter()
        .take(8)
        .map(|(k, n)| format!("{k} ({n})"))
        .collect();
    if let Some(&n) = found.top.get("") {
        let _ = writeln!(s, "  at the top: {n}");
    }
    if !shown.is_empty() {
        let more = tops.len().saturating_sub(shown.len());
        let tail = if more > 0 {
            format!(", and {more} more")
        } else {
            String::new()
        };
        let _ = writeln!(s, "  top folders: {}{tail}", shown.join(", "));
    }
    if let Some(t) = &found.templates {
        let _ = writeln!(s, "  templates: {t} (never read as memories)");
    }
    let dev = if proposal.developer.is_empty() {
        "none found (every note is developer-wide)".to_owned()
    } else {
        proposal.developer.join(", ")
    };
    let _ = writeln!(s, "  proposed developer roots: {dev}");
    let projects: Vec<&str> = proposal.projects.iter().map(|p| p.1.as_str()).collect();
    let projects = if projects.is_empty() {
        "none".to_owned()
    } else if proposal.more_projects > 0 {
        format!(
            "{} (and {} more)",
            projects.join(", "),
            proposal.more_projects
        )
    } else {
        projects.join(", ")
    };
    let _ = writeln!(s, "  proposed projects: {projects}");
    if !proposal.translations.is_empty() {
        let _ = writeln!(
            s,
            "  translations (one collection in {} languages, no project proposed): {}",
            proposal.translations.len(),
            proposal.translations.join(", ")
        );
    }
    if cfg.exists() {
        let _ = writeln!(s, "kept    {} (already exists)", cfg.display());
    } else {
        write_new(&cfg, &adopted_config(&found, &proposal))
            .with_context(|| cfg.display().to_string())?;
        let _ = writeln!(
            s,
            "created {} (the proposed roots are commented out: uncomment the ones that fit)",
            cfg.display()
        );
    }
    let _ = write!(
        s,
        "\nNext: review {cfg}, then run\n  cairn wakeup --config {cfg} --task \"what you are working on\"\n",
        cfg = cfg.display()
    );
    print_out(&s)
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

    /// The adopted configuration parses, and its proposals parse once uncommented.
    #[test]
    fn adopted_config_parses_with_and_without_its_proposals() {
        use super::*;
        let mut found = Found {
            files: 5,
            templates: Some("Templates".into()),
            ..Found::default()
        };
        found.top.insert(String::new(), 1);
        found.top.insert("00-Identity".into(), 1);
        found.top.insert("10-Projects".into(), 2);
        found.top.insert("kep \"x\"".into(), 1);
        // Neither a project nor the developer's: no root proposed.
        found.top.insert("40-Archive".into(), 3);
        found.top.insert("Inbox".into(), 1);
        found.top.insert("asset-tracker".into(), 1);
        found.projects.insert("10-Projects/ledger".into(), 2);
        found.projects.insert("10-Projects/_Archive".into(), 2);
        let p = propose(&found);
        assert_eq!(p.developer, vec!["00-Identity"]);
        let ids: Vec<&str> = p.projects.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(ids, vec!["ledger", "asset-tracker", "kep-x"]);
        let dir = tempfile::tempdir().expect("tempdir");
        for folder in [
            "00-Identity",
            "10-Projects/ledger",
            "asset-tracker",
            "kep \"x\"",
        ] {
            std::fs::create_dir_all(dir.path().join(folder)).expect("mkdir");
        }
        let text = adopted_config(&found, &p);
        let path = dir.path().join("cairn.toml");
        let c = Config::parse(&text, &path, None).expect("adopted config parses");
        assert_eq!(c.developer.note_roots, vec![String::new()]);
        assert!(c.projects.is_empty());
        // Uncommented: the proposals are valid configuration too.
        let open: String = text
            .lines()
            .filter(|l| !l.starts_with("note_roots = [\"\"]"))
            .map(|l| {
                l.strip_prefix("# ")
                    .filter(|r| r.starts_with(['[', 'i', 'n', 'r']))
                    .unwrap_or(l)
            })
            .collect::<Vec<_>>()
            .join("\n");
        let c = Config::parse(&open, &path, None).expect("proposals parse");
        assert_eq!(c.projects.len(), 3, "{open}");
        assert_eq!(c.developer.note_roots, vec!["00-Identity"]);
    }

    /// A collection kept in several languages (`en/`, `de/`, `pt-BR/`…): its
    /// folders are translations, not projects; two-letter names that are no
    /// language's code, and fewer than three that are, stay projects.
    #[test]
    fn language_folders_are_translations_not_projects() {
        use super::*;
        let mut found = Found::default();
        for top in ["en", "de", "ja", "pt-BR", "zh_Hant", "ui", "Guides"] {
            found.top.insert(top.into(), 10);
        }
        let p = propose(&found);
        assert_eq!(p.translations, ["de", "en", "ja", "pt-BR", "zh_Hant"]);
        let folders: Vec<&str> = p.projects.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(folders, ["Guides", "ui"]);
        let text = adopted_config(&found, &p);
        assert!(text.contains("one collection in 5 languages"), "{text}");
        Config::parse(
            &text,
            &tempfile::tempdir().unwrap().path().join("cairn.toml"),
            None,
        )
        .expect("parses");

        let mut two = Found::default();
        for top in ["en", "de", "ml-service"] {
            two.top.insert(top.into(), 3);
        }
        let p = propose(&two);
        assert!(p.translations.is_empty());
        assert_eq!(p.projects.len(), 3);
        for not in ["ui", "db", "e2e", "en-", "en-toolong", "eng", "x"] {
            assert!(!is_language_folder(not), "{not}");
        }
    }
}
