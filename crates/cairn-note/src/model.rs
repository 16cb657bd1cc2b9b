//! The note model: what cairn knows about one markdown file after parsing.

use std::collections::BTreeMap;
use std::fmt;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// One parsed note. Paths are vault-relative with `/` separators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// Vault-relative path without the `.md` extension: the note's id.
    pub id: String,
    /// Vault-relative path with extension.
    pub path: String,
    /// Title: frontmatter `title`, else the first H1, else `name`, else (for a
    /// `README.md`/`index.md`/`_index.md`) its folder's name, else the file stem.
    pub title: String,
    /// Frontmatter `description` (or `summary`), if any.
    pub description: Option<String>,
    /// Frontmatter `memory_type` (or `metadata.type`), if known.
    pub memory_type: Option<MemoryType>,
    /// Frontmatter `project_id`.
    pub project_id: Option<String>,
    /// Frontmatter `scope`.
    pub scope: Option<String>,
    /// Frontmatter `sensitivity` (or another sensitivity-like key), read by
    /// [`crate::read_sensitivity`]: internal when absent, secret when in doubt.
    pub sensitivity: Sensitivity,
    /// Frontmatter `freshness`.
    pub freshness: Option<Freshness>,
    /// Frontmatter `source_of_truth`.
    pub source_of_truth: bool,
    /// Frontmatter `retrieval_priority`.
    pub retrieval_priority: Option<Priority>,
    /// Frontmatter `pinned`.
    pub pinned: bool,
    /// Frontmatter `status`; active when absent. Other tools' words
    /// (`implementable`, `draft`, `published`) leave a note active.
    pub status: Status,
    /// The `status` word as written (trimmed, lowercase), kept so a configured
    /// list of retiring statuses can decide ([`Note::retire_by`]); `None` when the
    /// note has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_word: Option<String>,
    /// Notes this one replaces (link targets, brackets removed).
    pub supersedes: Vec<String>,
    /// Notes replacing this one.
    pub superseded_by: Vec<String>,
    /// Phrases that, when the task mentions them, make this note relevant.
    pub triggers: Vec<String>,
    /// [`Note::triggers`] as index terms, when whoever made this note had the
    /// index's analyzer (the cache analyses them once, at index time, so a
    /// hook's scoring does not). Derived: not serialised, and never makes two
    /// notes differ.
    #[serde(skip)]
    pub trigger_terms: TriggerTerms,
    /// Repository-relative files this note is about.
    pub related_files: Vec<String>,
    /// Linked notes (link targets, brackets removed).
    pub related_memory: Vec<String>,
    /// Tags from frontmatter (`tags`, `tag`, `[taxonomies] tags`, `[extra] tags`)
    /// and inline `#tags`, lowercase, sorted, unique.
    pub tags: Vec<String>,
    /// Other names of this note.
    pub aliases: Vec<String>,
    /// `created` (or `date`).
    pub created: Option<NaiveDate>,
    /// `updated` (or `lastmod`, `modified`).
    pub updated: Option<NaiveDate>,
    /// `review_after`.
    pub review_after: Option<NaiveDate>,
    /// Frontmatter keys cairn does not interpret, kept as they were.
    pub extra: BTreeMap<String, serde_json::Value>,
    /// Headings of the body (ATX and setext), as a reader sees their text.
    pub headings: Vec<Heading>,
    /// `[[wikilink]]` targets in front-matter properties, then in the body, in
    /// order, unique.
    pub wikilinks: Vec<String>,
    /// The markdown body (frontmatter removed).
    pub body: String,
    /// 1-based line of the file on which `body` starts.
    pub body_line: usize,
    /// Size of the file in bytes.
    pub size: u64,
    /// Modification time of the file, seconds since the epoch (set by the scanner).
    pub mtime: Option<i64>,
    /// For a note that says no date of its own, in a vault kept in git: the
    /// day of its file's last commit, when the note is dated by it (the file is
    /// as git wrote it; set by the engine, never read from the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub committed: Option<NaiveDate>,
    /// For one entry of a `decisions.md` / `lessons.md` entry file: that file's
    /// vault-relative path. The entry's own `path` and `id` then end in `#<entry-slug>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_of: Option<String>,
}

/// Each of a note's triggers as index terms, in order: a memo of what the
/// index's analyzer makes of them, or unknown (then whoever needs them
/// analyses the triggers). Kept as one text, each trigger's terms separated by
/// spaces and ended by a line break, so a cached note decodes it in one
/// allocation. `==` ignores it: two notes that say the same are equal whether
/// or not one of them had its triggers analysed.
#[derive(Debug, Clone, Default)]
pub struct TriggerTerms(Option<String>);

impl TriggerTerms {
    /// `terms`, one list per trigger of `triggers`; unknown when the counts
    /// differ or a term is empty or holds white space.
    pub fn known(triggers: &[String], terms: &[Vec<String>]) -> Self {
        let fits = terms.len() == triggers.len()
            && terms
                .iter()
                .flatten()
                .all(|t| !t.is_empty() && !t.contains(char::is_whitespace));
        if !fits {
            return Self(None);
        }
        let mut text = String::new();
        for list in terms {
            text.push_str(&list.join(" "));
            text.push('\n');
        }
        Self(Some(text))
    }

    /// Terms as [`TriggerTerms::text`] gave them, for `triggers`; unknown when
    /// the count of triggers differs.
    pub fn from_text(triggers: &[String], text: String) -> Self {
        Self((text.matches('\n').count() == triggers.len()).then_some(text))
    }

    /// The stored form: each trigger's terms, separated by spaces, then a line
    /// break; `None` when unknown.
    pub fn text(&self) -> Option<&str> {
        self.0.as_deref()
    }

    /// Each trigger's terms, in the triggers' order, when known.
    pub fn get(&self) -> Option<impl Iterator<Item = impl Iterator<Item = &str>>> {
        self.0.as_deref().map(|t| {
            t.split_terminator('\n')
                .map(|line| line.split(' ').filter(|w| !w.is_empty()))
        })
    }
}

impl PartialEq for TriggerTerms {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A heading of the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Text without the `#` marks.
    pub text: String,
    /// 1-based line in the file.
    pub line: usize,
}

macro_rules! keyword_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal $(| $alias:literal)*),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vm])* $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical lowercase word.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses the canonical word or an accepted alias, ignoring case and `-`/`_`/spaces.
            pub fn parse(text: &str) -> Option<Self> {
                let t: String = text
                    .trim()
                    .chars()
                    .filter(|c| !matches!(c, '-' | '_' | ' '))
                    .flat_map(char::to_lowercase)
                    .collect();
                match t.as_str() {
                    $($text $(| $alias)* => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

keyword_enum! {
    /// What kind of memory a note holds; decides its packet section.
    MemoryType {
        /// A project's overview or current situation.
        Project = "project" | "projects" | "overview",
        /// An accepted decision (ADR).
        Decision = "decision" | "decisions" | "adr",
        /// How the developer likes to work.
        Preference = "preference" | "preferences" | "feedback",
        /// A hard requirement or boundary.
        Constraint = "constraint" | "constraints" | "rule" | "rules",
        /// A reusable approach.
        Pattern = "pattern" | "patterns",
        /// A failure and its lesson.
        Incident = "incident" | "incidents" | "postmortem" | "lesson" | "lessons",
        /// A person (the developer themself when scoped to the user).
        Person = "person" | "people" | "user",
        /// A procedure or habit.
        Workflow = "workflow" | "workflows" | "runbook" | "global",
        /// A session log.
        Session = "session" | "sessions",
        /// Reference material.
        Reference = "reference" | "references" | "doc" | "docs",
    }
}

keyword_enum! {
    /// Who may see a note's content.
    Sensitivity {
        /// Anyone.
        Public = "public",
        /// The developer and their agents (the default).
        Internal = "internal",
        /// Only mentioned when strongly relevant, never verbatim.
        Confidential = "confidential",
        /// Never shown.
        Secret = "secret",
    }
}

keyword_enum! {
    /// How current a note is meant to be.
    Freshness {
        /// Timeless: no recency decay.
        Evergreen = "evergreen",
        /// Current.
        Active = "active",
        /// Known to be out of date.
        Stale = "stale",
    }
}

keyword_enum! {
    /// The author's hint about retrieval importance.
    Priority {
        /// Prefer.
        High = "high",
        /// Neutral.
        Medium = "medium" | "normal",
        /// Prefer less.
        Low = "low",
    }
}

keyword_enum! {
    /// Lifecycle state.
    Status {
        /// In force.
        Active = "active" | "accepted" | "current",
        /// Replaced by a newer note; never enters a packet section.
        Superseded = "superseded" | "replaced" | "deprecated" | "obsolete",
        /// Kept for history (or withdrawn); never enters a packet section.
        Archived = "archived" | "archive" | "withdrawn" | "retired",
    }
}

// `#[derive(Default)]` cannot reach through the macro above.
#[allow(clippy::derivable_impls)]
impl Default for Sensitivity {
    fn default() -> Self {
        Self::Internal
    }
}

#[allow(clippy::derivable_impls)]
impl Default for Status {
    fn default() -> Self {
        Self::Active
    }
}

/// Whether vault-relative `path` lies under root folder `root` (`""`: the
/// whole vault).
pub fn in_root(path: &str, root: &str) -> bool {
    let root = root.trim_matches('/');
    root.is_empty()
        || path
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

impl Note {
    /// Whether one of the folders on the note's path (not its file name) is
    /// called one of `names`, in any case (`archive/`, `sessions/`, ...).
    pub fn in_folder(&self, names: &[&str]) -> bool {
        self.path
            .split('/')
            .rev()
            .skip(1)
            .any(|folder| names.iter().any(|n| folder.eq_ignore_ascii_case(n)))
    }

    /// Whether the note is out of service (superseded or archived).
    pub fn is_retired(&self) -> bool {
        matches!(self.status, Status::Superseded | Status::Archived)
    }

    /// Sets [`Note::status`] from its written word and a configured list of
    /// retiring words (lowercase): a word on the list retires the note
    /// (superseded when it is a word for that, such as `replaced`, else
    /// archived); any other word, or none, leaves it active. Without a configured
    /// list the built-in words decide ([`Status::parse`]) and this is not called.
    pub fn retire_by(&mut self, retiring: &[String]) {
        self.status = match self.status_word.as_deref() {
            Some(w) if retiring.iter().any(|r| r == w) => match Status::parse(w) {
                Some(Status::Superseded) => Status::Superseded,
                _ => Status::Archived,
            },
            _ => Status::Active,
        };
    }

    /// The date recency is measured from: `updated`, else `created`/`date`, else the file's mtime.
    pub fn effective_date(&self) -> Option<NaiveDate> {
        self.updated.or(self.created).or_else(|| {
            self.mtime
                .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
                .map(|d| d.date_naive())
        })
    }

    /// The vault-relative path of the file this note was read from: `path`, or for
    /// an entry of an entry file, that file's path.
    pub fn file_path(&self) -> &str {
        self.entry_of.as_deref().unwrap_or(&self.path)
    }

    /// The file stem (last path segment of the id).
    pub fn stem(&self) -> &str {
        self.id.rsplit('/').next().unwrap_or(&self.id)
    }
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; nothing was lost.
    Info,
    /// Something was ignored or defaulted.
    Warning,
    /// A file was skipped, or a note is treated as secret because its sensitivity
    /// is in doubt.
    Error,
}

/// A problem found while reading a note or walking the vault. Never fatal.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Vault-relative path (or the folder, for walk problems).
    pub path: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// Severity.
    pub severity: Severity,
    /// A stable short code (`frontmatter-yaml`, `binary-file`, ...).
    pub code: String,
    /// What happened and what cairn did about it.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{sev}: {}", self.path)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {} [{}]", self.message, self.code)
    }
}
