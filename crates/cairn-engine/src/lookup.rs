//! `search` and `get`: the same ranking and the same policy as `wakeup`.
//!
//! Text a hit or a note shows comes from the policy's redacted view
//! ([`ShownNote`]): credentials are replaced on the original text before a snippet
//! strips, joins or clips it. A lookup by a name the asker could only guess (a
//! title, an alias, a file name) never confirms that a secret note exists: it
//! answers as for a missing note, and no message lists or suggests a secret note.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use cairn_index::QueryTerms;
use cairn_note::{Note, Sensitivity, Status, prose};
use cairn_policy::{PolicyCounts, SafeText, ShownName, ShownNote, Visibility};
use cairn_route::RouteInput;
use cairn_score::{Ranking, ScoreContext, Scored, Weights};
use chrono::NaiveDate;
use serde::Serialize;

use crate::{Engine, EngineError};

/// Which notes a search covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchScope {
    /// The routed project's and the developer's note roots (the whole vault without a config).
    Routed,
    /// The whole vault (`--all`).
    All,
    /// These vault-relative folders.
    Folders(Vec<String>),
}

/// A search.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// Words.
    pub query: String,
    /// Where the search starts (routing); `None` skips routing.
    pub cwd: Option<PathBuf>,
    /// `--project`.
    pub project: Option<String>,
    /// Files (add related-file signals).
    pub files: Vec<String>,
    /// Scope.
    pub scope: SearchScope,
    /// Maximum hits.
    pub limit: usize,
    /// Ranking mode.
    pub ranking: Ranking,
    /// "Today", for recency.
    pub today: NaiveDate,
}

/// One hit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    /// Vault-relative path without `.md`.
    pub id: String,
    /// Vault-relative path.
    pub path: String,
    /// Title.
    pub title: String,
    /// Final score (3 decimals).
    pub score: f64,
    /// Memory type.
    pub memory_type: Option<String>,
    /// Sensitivity.
    pub sensitivity: String,
    /// `active`, `superseded` or `archived`.
    pub status: Status,
    /// Tags (none for a withheld note).
    pub tags: Vec<String>,
    /// `updated`, else `created` (`YYYY-MM-DD`).
    pub date: Option<String>,
    /// The best-matching sentences (redacted), or a neutral line when withheld.
    pub snippet: String,
}

/// Search results.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SearchResult {
    /// Hits, best first.
    pub hits: Vec<SearchHit>,
    /// Matching notes hidden by policy.
    pub suppressed: usize,
    /// Credentials redacted in snippets.
    pub redactions: usize,
    /// Where the search looked.
    pub roots: Vec<String>,
}

/// A note fetched by `get`, after policy.
#[derive(Debug, Clone, Serialize)]
pub struct GetResult {
    /// Id.
    pub id: String,
    /// Vault-relative path.
    pub path: String,
    /// Title.
    pub title: String,
    /// Memory type.
    pub memory_type: Option<String>,
    /// Sensitivity.
    pub sensitivity: String,
    /// `active`, `superseded` or `archived`.
    pub status: Status,
    /// Tags.
    pub tags: Vec<String>,
    /// The file's text, credentials redacted; empty when withheld.
    pub content: String,
    /// Confidential: content withheld.
    pub withheld: bool,
    /// Credentials redacted.
    pub redactions: usize,
    /// For a decision or lesson log's intro: the paths of the file's entries
    /// (notes of their own, to name one; secret ones left out), in file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<String>,
}

impl GetResult {
    /// Keeps lines `start..=end` of the content (1-based; `end` `None` or past the
    /// last line: to the last line) and returns how many lines the note has. A
    /// range that starts past the end, or ends before it starts, is an error; a
    /// withheld note has no content and is left as it is.
    pub fn keep_lines(&mut self, start: usize, end: Option<usize>) -> Result<usize, EngineError> {
        let start = start.max(1);
        let total = self.content.lines().count();
        if self.withheld {
            return Ok(total);
        }
        if let Some(e) = end
            && e < start
        {
            return Err(EngineError::LineRange(format!(
                "the range ends at line {e}, before its start, line {start}"
            )));
        }
        if start > total.max(1) {
            return Err(EngineError::LineRange(format!(
                "line {start} is past the end of the note ({total} lines)"
            )));
        }
        if start > 1 || end.is_some_and(|e| e < total) {
            let last = end.unwrap_or(total).min(total);
            let mut kept = self
                .content
                .lines()
                .skip(start - 1)
                .take(last + 1 - start)
                .collect::<Vec<_>>()
                .join("\n");
            kept.push('\n');
            // The credentials redacted in the lines kept, not in the whole note.
            let mut counts = cairn_policy::PolicyCounts::default();
            counts.add_markers(&kept);
            self.redactions = counts.redactions_applied;
            self.content = kept;
        }
        Ok(total)
    }
}

/// How a lookup answers when the note it names is secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretLookup {
    /// Named by its path or id, which a user can see on disk: refused
    /// ([`EngineError::Secret`], exit 4 on the CLI). Named any other way (title,
    /// alias, file name, an entry's slug): answered as for a missing note.
    RefuseByPath,
    /// Every form answers as for a missing note (for agents, over MCP): the asker
    /// cannot learn that a secret note exists.
    AsMissing,
}

/// What ranking a search produced, before presentation (snippets, limits).
pub(crate) struct Ranked {
    /// Notes that match (BM25, files), best first, each with its policy visibility.
    pub scored: Vec<(Scored, Visibility)>,
    /// Analysed query terms (for snippets).
    pub task_terms: BTreeSet<String>,
    /// Where the search looked.
    pub roots: Vec<String>,
}

impl Engine {
    /// Ranks notes for `req.query` with the full pipeline (or plain BM25).
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResult, EngineError> {
        let ranked = self.rank(req)?;
        let mut out = SearchResult {
            roots: ranked.roots,
            ..SearchResult::default()
        };
        for (s, v) in &ranked.scored {
            let Some(n) = self.meta(&s.path) else {
                continue;
            };
            if *v == Visibility::Hidden {
                out.suppressed += 1;
                continue;
            }
            if out.hits.len() >= req.limit {
                continue;
            }
            // Redacted before shaping: the snippet is cut from the redacted body.
            let (shown, snippet) = if *v == Visibility::Withheld {
                (ShownNote::head(n), cairn_policy::WITHHELD_NOTICE.to_owned())
            } else {
                let shown = ShownNote::of(self.note(&s.path).unwrap_or(n));
                let text = snippet(&shown, &ranked.task_terms).into_string();
                (shown, text)
            };
            let mut counts = PolicyCounts::default();
            counts.add_markers(&snippet);
            counts.add_markers(&shown.title);
            out.redactions += counts.redactions_applied;
            let withheld = *v == Visibility::Withheld;
            out.hits.push(SearchHit {
                tags: if withheld {
                    Vec::new()
                } else {
                    shown.tags.iter().map(|t| t.as_str().to_owned()).collect()
                },
                date: n.updated.or(n.created).map(|d| d.to_string()),
                id: shown.id.into_string(),
                path: shown.path.into_string(),
                title: shown.title.into_string(),
                score: (s.score * 1000.0).round() / 1000.0,
                memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
                sensitivity: n.sensitivity.as_str().to_owned(),
                status: n.status,
                snippet,
            });
        }
        Ok(out)
    }

    /// The ranking half of [`Engine::search`]: route, query, BM25, score, policy
    /// visibility. `search` presents it; `ranked_ids` gives it to a harness.
    pub(crate) fn rank(&self, req: &SearchRequest) -> Result<Ranked, EngineError> {
        let route = match &req.cwd {
            Some(cwd) => Some(cairn_route::route(
                &self.config,
                &RouteInput {
                    cwd,
                    project: req.project.as_deref(),
                    files: &req.files,
                    task: &req.query,
                },
            )?),
            None => None,
        };
        let project = route
            .as_ref()
            .and_then(|r| r.project_id.clone())
            .or_else(|| req.project.clone());
        let roots: Vec<String> = match &req.scope {
            SearchScope::All => vec![String::new()],
            SearchScope::Folders(f) => f.clone(),
            SearchScope::Routed => {
                let mut r = self.config.developer.note_roots.clone();
                if let Some(p) = project.as_deref().and_then(|id| self.config.project(id)) {
                    r.extend(p.note_roots.iter().cloned());
                }
                r.sort();
                r.dedup();
                r
            }
        };
        let mut query = QueryTerms::default();
        let asked = cairn_policy::without_credentials(&req.query);
        query.add_text(&asked, 1.0);
        query.add_pairs(&asked);
        if let Some(r) = &route {
            for f in &r.files {
                query.add_text(&crate::wakeup::file_words(f), 0.3);
            }
        }
        let ranker = crate::wakeup::ranker(req.ranking);
        let hits =
            self.notes
                .search_with(&query, &ranker, Some(&roots), crate::wakeup::BM25_DEPTH)?;
        let mut task_terms: BTreeSet<String> = query.terms.keys().cloned().collect();
        // The words a query word no note holds was looked up as (`websocket`
        // as "web socket"), and the word notes write for two it says apart
        // (`roll back` as `rollback`): the snippet and the triggers see what
        // notes write.
        let spelled = self.notes.spellings(&query, &ranker)?;
        for (_, words) in spelled.respelled {
            task_terms.extend(words);
        }
        task_terms.extend(spelled.joins.into_iter().map(|j| j.term));
        let project_ids: Vec<String> = self.config.projects.iter().map(|p| p.id.clone()).collect();
        let (project_roots, other_roots) = self.own_and_other_roots(project.as_deref());
        let empty = Vec::new();
        let (prefixes, modules) = route
            .as_ref()
            .map(|r| self.module_info(r))
            .unwrap_or_default();
        let file_names = route
            .as_ref()
            .map(|r| cairn_score::file_names(&r.files))
            .unwrap_or_default();
        let ctx = ScoreContext {
            today: req.today,
            half_life_days: self.config.ranking.half_life_days,
            project_id: project.as_deref(),
            project_ids: &project_ids,
            owner_names: &std::collections::BTreeMap::new(),
            own_names: &[],
            project_roots: &project_roots,
            other_roots: &other_roots,
            files: route.as_ref().map_or(&empty, |r| &r.files),
            file_names: &file_names,
            // A search reads no git history: a related folder counts whole.
            folder_shares: &std::collections::BTreeMap::new(),
            // A search gates nothing by files: each match is listed for its words.
            busy_files: &std::collections::BTreeMap::new(),
            module_prefixes: &prefixes,
            modules: &modules,
            // A search's task is typed: no branch to agree with its files.
            subject: &cairn_score::Subject::default(),
            task_terms: &task_terms,
            part_names: &[],
            scene_preferred: &[],
            has_query: true,
            ranking: req.ranking,
            weights: Weights {
                pinned: 0.0,
                ..Weights::default()
            },
        };
        let hit_paths: HashSet<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        // Candidates: BM25 hits, plus notes a file points at.
        let candidates = self.under_roots(&roots).filter(|n| {
            hit_paths.contains(n.path.as_str())
                || (!ctx.files.is_empty() && !n.related_files.is_empty())
        });
        let scored = cairn_score::score(candidates, &hits, &ctx)
            .into_iter()
            .filter(|s| s.bm25 > 0.0 || s.signals > 0.0)
            .filter_map(|s| {
                let n = self.meta(&s.path)?;
                let strong = s.relevance >= 0.6;
                let v = cairn_policy::visibility(n.sensitivity, strong);
                Some((s, v))
            })
            .collect();
        Ok(Ranked {
            scored,
            task_terms,
            roots,
        })
    }

    /// Fetches one note by id, path, file name or title, under policy: secret notes
    /// are refused by path or id and unknown by any other name, confidential ones
    /// withheld, credentials redacted. The CLI's lookup
    /// ([`SecretLookup::RefuseByPath`]); agents use [`Engine::get_with`].
    pub fn get(&self, query: &str) -> Result<GetResult, EngineError> {
        self.get_with(query, SecretLookup::RefuseByPath)
    }

    /// [`Engine::get`], answering for a secret note as `secret` says.
    pub fn get_with(&self, query: &str, secret: SecretLookup) -> Result<GetResult, EngineError> {
        let n = self.resolve_with(query, secret)?;
        if n.sensitivity == Sensitivity::Secret {
            // `resolve_with` only returns one when named by path or id.
            return Err(EngineError::Secret {
                query: redacted(query),
            });
        }
        let shown = ShownNote::head(n);
        let tags: Vec<String> = shown.tags.into_iter().map(SafeText::into_string).collect();
        if n.sensitivity == Sensitivity::Confidential {
            return Ok(GetResult {
                id: shown.id.into_string(),
                path: shown.path.into_string(),
                title: shown.title.into_string(),
                memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
                sensitivity: n.sensitivity.as_str().to_owned(),
                status: n.status,
                tags: Vec::new(),
                content: String::new(),
                withheld: true,
                redactions: 0,
                entries: Vec::new(),
            });
        }
        // An entry of a decisions/lessons file is its own section of that file,
        // and a log's intro is the intro alone: the whole file holds every
        // entry, the secret ones too.
        let intro = self.is_log_intro(n);
        let text = if n.entry_of.is_some() || intro {
            // A cached engine resolves metadata; the body is read on demand.
            self.note(&n.path).unwrap_or(n).body.clone()
        } else {
            let path = self.config.vault.root.join(&n.path);
            std::fs::read(&path).map_or_else(
                |_| n.body.clone(),
                |b| String::from_utf8_lossy(&b).into_owned(),
            )
        };
        // Printed as written: redacted as written and as rendered.
        let content = SafeText::redact_markdown(&text).into_string();
        let mut counts = PolicyCounts::default();
        for t in [&content, shown.title.as_str(), &shown.id, &shown.path]
            .into_iter()
            .chain(tags.iter().map(String::as_str))
        {
            counts.add_markers(t);
        }
        Ok(GetResult {
            id: shown.id.into_string(),
            path: shown.path.into_string(),
            title: shown.title.into_string(),
            memory_type: n.memory_type.map(|t| t.as_str().to_owned()),
            sensitivity: n.sensitivity.as_str().to_owned(),
            status: n.status,
            tags,
            content,
            withheld: false,
            redactions: counts.redactions_applied,
            entries: if intro {
                self.entries_of(&n.path)
            } else {
                Vec::new()
            },
        })
    }

    /// The paths of the entries of the log at `path` that may be named (not
    /// secret), in file order.
    fn entries_of(&self, path: &str) -> Vec<String> {
        let mut entries: Vec<&Note> = self
            .notes
            .iter_meta()
            .filter(|m| m.entry_of.as_deref() == Some(path))
            .filter(|m| m.sensitivity != Sensitivity::Secret)
            .collect();
        entries.sort_by_key(|m| m.body_line);
        entries
            .into_iter()
            .map(|m| ShownName::path_of(m).into_string())
            .collect()
    }

    /// Whether `n` is the intro of a decision or lesson log (`decisions.md`
    /// before its first entry: "Decisions I made, newest last."): the file's
    /// own note when it holds entries. It says how the log is kept, not what
    /// was decided: no task-less list shows it (a task that matches it still
    /// finds it), and `get` gives it alone. A file named so without entries is
    /// a note like any other. Looks through the notes only for a file named as
    /// a log.
    pub(crate) fn is_log_intro(&self, n: &Note) -> bool {
        n.entry_of.is_none()
            && cairn_note::entry_file_type(&n.path).is_some()
            && self
                .notes
                .iter_meta()
                .any(|m| m.entry_of.as_deref() == Some(n.path.as_str()))
    }

    /// Finds the note `query` names: a vault-relative path, an id, a file stem or a
    /// title (case-insensitive), in that order. A secret note is found only by its
    /// exact path or id; any other name of it answers as for a missing note.
    pub fn resolve(&self, query: &str) -> Result<&Note, EngineError> {
        self.resolve_with(query, SecretLookup::RefuseByPath)
    }

    /// [`Engine::resolve`]; with [`SecretLookup::AsMissing`] a secret note is never
    /// found. Error messages never name a secret note, and echo the query redacted.
    pub fn resolve_with(&self, query: &str, secret: SecretLookup) -> Result<&Note, EngineError> {
        let q = query.trim().trim_start_matches("./").replace('\\', "/");
        let q = q
            .strip_prefix("[[")
            .and_then(|s| s.strip_suffix("]]"))
            .unwrap_or(&q)
            .to_owned();
        // Named as a user sees it on disk: a secret note may be refused by name. An
        // entry's `#slug` is made from its title, so it is a guess like a title.
        let on_disk = |n: &Note| {
            n.sensitivity != Sensitivity::Secret
                || (secret == SecretLookup::RefuseByPath && n.entry_of.is_none())
        };
        // Named any other way: a secret note does not exist.
        let guessable = |n: &&Note| n.sensitivity != Sensitivity::Secret;
        if let Some(n) = self.meta(&q).filter(|n| on_disk(n)) {
            return Ok(n);
        }
        // An absolute path inside the vault.
        let as_path = std::path::Path::new(&q);
        if as_path.is_absolute()
            && let Ok(rel) = as_path.strip_prefix(&self.config.vault.root)
            && let Some(n) = self
                .meta(&cairn_scan::rel_path(std::path::Path::new(""), rel))
                .filter(|n| on_disk(n))
        {
            return Ok(n);
        }
        // A path in the vault that a symlink takes to a note (an old name kept
        // as a link): the note, read once at its own path.
        if !as_path.is_absolute()
            && let Ok(real) = self.config.vault.root.join(&q).canonicalize()
            && let Ok(root) = self.config.vault.root.canonicalize()
            && let Ok(rel) = real.strip_prefix(&root)
            && let Some(n) = self
                .meta(&cairn_scan::rel_path(std::path::Path::new(""), rel))
                .filter(|n| on_disk(n))
        {
            return Ok(n);
        }
        // The exact id (the path without `.md`).
        let exact: Vec<&Note> = self
            .notes
            .iter_meta()
            .filter(|n| n.id == q && on_disk(n))
            .collect();
        if let [n] = exact[..] {
            return Ok(n);
        }
        let lower = q.to_lowercase();
        // "ADR-008" names "ADR-008 Retry payouts…": a prefix ending at a word boundary.
        let prefix_of = |text: &str| {
            let t = text.to_lowercase();
            lower.chars().count() >= 3
                && t.strip_prefix(&lower)
                    .is_some_and(|rest| rest.starts_with(|c: char| !c.is_alphanumeric()))
        };
        // "fd/decisions.md#raise-msrv" names "10-Projects/fd/decisions.md#raise-msrv":
        // the end of a path or an id, from a folder's start.
        let tail_of = |text: &str| ends_at_folder(&text.to_lowercase(), &lower);
        let tiers: [&dyn Fn(&Note) -> bool; 5] = [
            &|n| n.id == q || n.id.to_lowercase() == lower,
            &|n| tail_of(&n.path) || tail_of(&n.id),
            &|n| n.stem().to_lowercase() == lower,
            &|n| {
                n.title.to_lowercase() == lower
                    || n.aliases.iter().any(|a| a.to_lowercase() == lower)
            },
            &|n| prefix_of(n.stem()) || prefix_of(&n.title),
        ];
        for tier in tiers {
            let found: Vec<&Note> = self
                .notes
                .iter_meta()
                .filter(guessable)
                .filter(|n| tier(n))
                .collect();
            match found.len() {
                0 => {}
                1 => return Ok(found[0]),
                _ => {
                    let shown: Vec<String> = found
                        .iter()
                        .map(|n| ShownName::path_of(n).into_string())
                        .collect();
                    return Err(EngineError::Ambiguous {
                        query: redacted(query),
                        candidates: shown.join(", "),
                    });
                }
            }
        }
        // An entry file whose every note is an entry, named by its path, its id
        // or their end (`decisions.md`): name its entries (never a secret one:
        // their ids hold their titles), as the packet shows them.
        let entries: Vec<&Note> = self
            .notes
            .iter_meta()
            .filter(|n| {
                n.entry_of.as_deref().is_some_and(|f| {
                    f == q
                        || cairn_note::note_id(f) == q
                        || tail_of(f)
                        || tail_of(&cairn_note::note_id(f))
                })
            })
            .collect();
        let exact_file = entries.iter().any(|n| {
            n.entry_of
                .as_deref()
                .is_some_and(|f| f == q || cairn_note::note_id(f) == q)
        });
        let all = entries.len();
        let entries: Vec<&Note> = entries.into_iter().filter(guessable).collect();
        if all > 0 && entries.is_empty() && exact_file && secret == SecretLookup::RefuseByPath {
            // The file is on disk, and all it holds is secret.
            return Err(EngineError::Secret {
                query: redacted(query),
            });
        }
        if !entries.is_empty() {
            const LISTED: usize = 10;
            let mut names: Vec<String> = entries
                .iter()
                .take(LISTED)
                .map(|n| ShownName::path_of(n).into_string())
                .collect();
            if entries.len() > LISTED {
                names.push(format!("… ({} entries)", entries.len()));
            }
            return Err(EngineError::Ambiguous {
                query: redacted(query),
                candidates: format!("it is an entry file; name one entry: {}", names.join(", ")),
            });
        }
        let suggestions: Vec<String> = self
            .notes
            .iter_meta()
            .filter(guessable)
            .filter(|n| {
                n.path.to_lowercase().contains(&lower) || n.title.to_lowercase().contains(&lower)
            })
            .take(3)
            .map(|n| ShownName::path_of(n).into_string())
            .collect();
        let hint = if suggestions.is_empty() {
            String::new()
        } else {
            format!("; did you mean {}?", suggestions.join(", "))
        };
        Err(EngineError::NotFound {
            query: redacted(query),
            hint,
        })
    }
}

/// Whether `text` ends with `tail` from the start of a folder or file name
/// (both lowercase): `10-projects/fd/decisions.md` ends with `fd/decisions.md`
/// and `decisions.md`, not with `s.md`.
fn ends_at_folder(text: &str, tail: &str) -> bool {
    !tail.is_empty()
        && text
            .strip_suffix(tail)
            .is_some_and(|head| head.is_empty() || head.ends_with('/'))
}

/// A query echoed in a message: redacted as typed, before the message is flattened.
fn redacted(query: &str) -> String {
    SafeText::redact(query).into_string()
}

/// Up to two sentences sharing the most terms with the query, else the description or
/// the prose's lead (the first sentence under a `Summary` heading, else of the first
/// paragraph outside a list); one line, at most 240 characters. Cut from the
/// redacted view.
fn snippet(n: &ShownNote<'_>, terms: &BTreeSet<String>) -> SafeText<'static> {
    let pick = |body: &str| {
        let prose = prose(body);
        let lead = prose.lead;
        let sentences = prose.sentences;
        let mut picked = cairn_assemble::best_sentences(&sentences, terms);
        picked.sort_unstable();
        if picked.is_empty() {
            return n
                .description
                .as_ref()
                .map(|d| d.as_str().to_owned())
                .or_else(|| sentences.get(lead).or(sentences.first()).cloned())
                .unwrap_or_default();
        }
        picked
            .iter()
            .map(|&i| sentences[i].as_str())
            .collect::<Vec<_>>()
            .join(" … ")
    };
    let text = n.body.reshape(pick);
    let flat = text.reshape(|t| {
        cairn_policy::one_line(t)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    });
    cairn_assemble::clip(&flat, 240)
}
