//! `cairn lint`: what is wrong with a vault, with file and line, for people and CI.
//!
//! Lint looks at exactly what the engine sees ([`cairn_engine::Engine`]: the same
//! scan, the same entry splitting, the same profiles) and reports:
//!
//! | code | severity | what |
//! |---|---|---|
//! | `sensitivity-doubt` | error | a sensitivity-like key that does not read as exactly one known level: the note (or entry) is secret until fixed (key and line, never the value) |
//! | parser codes (`frontmatter-yaml`/`-toml`/`-json`, `frontmatter-unquoted`, `frontmatter-value`, `entry-date`, ...) | error for unreadable frontmatter, else as the parser says | the scan's diagnostics |
//! | `broken-wikilink` | warning | a `[[link]]` in a body (outside code) or a property that names no note |
//! | `broken-reference` | error | a `related_memory` / `supersedes` / `superseded_by` value that names no note |
//! | `superseded-without-successor` | warning | `status: superseded` and nothing names its replacement |
//! | `supersession-one-sided` | warning | A supersedes B but B is still active (both reach packets) |
//! | `contradicting-decisions` | warning | an older decision contradicts a newer one on the same subject (see [`decisions`]) |
//! | `review-overdue` | warning | `review_after` is past |
//! | `near-duplicate` | warning | two notes share most of their wording (see [`duplicates`]) |
//! | `memory-index-missing` / `memory-index-stale` / `memory-index-over-budget` | warning | a scope's `MEMORY.md` |
//! | `memory-scope-unreachable` | warning | a memory scope folder under no note root |
//! | `credential-in-note` | error | a credential in a note that is not `sensitivity: secret` |
//! | `pinned-over-budget` | warning | pinned notes that do not fit a profile's prompt budget |
//! | `code-changed-since-note` | warning | a project note's `related_files` changed in commits after its date |
//! | `git-history-not-read` | info | a project repository whose history `cairn index` has not read yet (its notes were not checked) |
//!
//! Lint output obeys the policy like any other: findings name paths, keys,
//! credential kinds and counts, never a credential value or a secret note's text,
//! and every message passes through the redactor.

mod code;
pub mod decisions;
pub mod duplicates;
mod links;
mod vault;

use std::collections::HashMap;
use std::path::PathBuf;

use cairn_engine::Engine;
use cairn_note::Note;
use chrono::NaiveDate;
use serde::Serialize;

/// The report format version.
pub const VERSION: &str = "lint.v1";

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Something is broken or unsafe: `cairn lint` exits 1.
    Error,
    /// Worth fixing.
    Warning,
    /// Worth knowing.
    Info,
}

impl Level {
    /// The word.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
        }
    }
}

/// One problem.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Severity.
    pub severity: Level,
    /// A stable short code.
    pub code: String,
    /// Vault-relative file path (`""` for the vault as a whole).
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong and what to do, in one line.
    pub message: String,
    /// The other file involved (duplicate, contradiction, supersession).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub related: Option<String>,
    /// How alike two notes are (near-duplicates), 0 to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
}

/// Counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Infos.
    pub infos: usize,
    /// Notes checked (an entry of a decisions/lessons file counts as one).
    pub notes: usize,
    /// Files those notes come from.
    pub files: usize,
}

/// Everything lint found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// [`VERSION`].
    pub version: &'static str,
    /// Counts.
    pub summary: Summary,
    /// Findings, sorted by path, line and code.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.summary.errors > 0
    }
}

/// Lint settings.
#[derive(Debug, Clone)]
pub struct LintOptions {
    /// "Today", for `review_after` (pinned in tests).
    pub today: NaiveDate,
    /// Word 3-gram Jaccard similarity from which two notes are near-duplicates.
    pub duplicate_threshold: f64,
    /// The folder lint runs in: when it is in a repository that belongs to a
    /// project (a linked worktree, a clone routed by its remote, a repository in
    /// a folder of repositories), that repository's git history is the one its
    /// notes are checked against (`code-changed-since-note`).
    pub cwd: Option<PathBuf>,
}

impl LintOptions {
    /// Defaults for `today`: duplicates from 80% alike.
    pub fn new(today: NaiveDate) -> LintOptions {
        LintOptions {
            today,
            duplicate_threshold: duplicates::DEFAULT_THRESHOLD,
            cwd: None,
        }
    }
}

/// What every check reads: the engine's notes and the files they come from.
pub(crate) struct Ctx<'e> {
    pub engine: &'e Engine,
    pub opts: &'e LintOptions,
    /// File texts by vault-relative file path (read once).
    pub texts: HashMap<String, String>,
    pub findings: Vec<Finding>,
}

impl<'e> Ctx<'e> {
    pub(crate) fn notes(&self) -> &'e [Note] {
        self.engine.notes()
    }

    /// The file text of a note (empty when unreadable).
    pub(crate) fn text(&self, n: &Note) -> &str {
        self.texts.get(n.file_path()).map_or("", String::as_str)
    }

    /// The 1-based file line of frontmatter key `key` of `n`'s file (found by the
    /// splitter the reader uses, on the text as the reader sees it: every line
    /// break a `\n`, so an old Mac file's lines are counted as the parser counts).
    pub(crate) fn key_line(&self, n: &Note, key: &str) -> Option<usize> {
        cairn_note::split_frontmatter(&cairn_note::normalize_line_breaks(self.text(n)))
            .front
            .filter(cairn_note::Block::is_closed)?
            .key_line(key)
    }

    pub(crate) fn push(
        &mut self,
        severity: Level,
        code: &str,
        path: &str,
        line: Option<usize>,
        message: String,
    ) {
        self.findings.push(Finding {
            severity,
            code: code.to_owned(),
            path: path.to_owned(),
            line,
            message,
            related: None,
            similarity: None,
        });
    }
}

/// Lints the engine's vault.
pub fn lint(engine: &Engine, opts: &LintOptions) -> Report {
    let root = &engine.config().vault.root;
    let mut texts = HashMap::new();
    for n in engine.notes() {
        let file = n.file_path();
        if !texts.contains_key(file) {
            let text = std::fs::read(root.join(file))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            texts.insert(file.to_owned(), text);
        }
    }
    let mut ctx = Ctx {
        engine,
        opts,
        texts,
        findings: Vec::new(),
    };
    vault::diagnostics(&mut ctx);
    links::check(&mut ctx);
    decisions::check(&mut ctx);
    duplicates::check(&mut ctx);
    vault::review_dates(&mut ctx);
    vault::credentials(&mut ctx);
    vault::memory_indexes(&mut ctx);
    vault::pinned_budget(&mut ctx);
    code::changed_since_note(&mut ctx);

    let files = ctx.texts.len();
    let notes = engine.notes().len();
    let mut findings = ctx.findings;
    // Policy on the way out: nothing that looks like a credential leaves lint.
    for f in &mut findings {
        f.message = cairn_policy::redact(&f.message).text.into_owned();
        f.path = cairn_policy::redact(&f.path).text.into_owned();
    }
    findings.sort_by(|a, b| {
        (&a.path, a.line, &a.code, &a.message).cmp(&(&b.path, b.line, &b.code, &b.message))
    });
    findings.dedup();
    let count = |l: Level| findings.iter().filter(|f| f.severity == l).count();
    Report {
        version: VERSION,
        summary: Summary {
            errors: count(Level::Error),
            warnings: count(Level::Warning),
            infos: count(Level::Info),
            notes,
            files,
        },
        findings,
    }
}
