//! `eval`: measure how well the ranking finds the expected notes of a suite.
//!
//! A suite is a folder holding notes and `queries.jsonl`, one JSON object a line:
//! `{"id", "query", "expected": [note ids], "grades"?: {note id: grade},
//! "vault"?: "subfolder", "cwd"?, "files"?, "question_type"?}`.
//!
//! Which notes are searched, and what a note id is relative to:
//! - With a configuration (`--config F`, else a `cairn.toml` in the suite folder) the
//!   base is the configured vault root; queries are routed from their `cwd` (relative
//!   to the suite folder) and `files`, exactly like `cairn search` from that folder:
//!   the routed project's and the developer's note roots (the developer's alone
//!   without a `cwd`).
//! - Without one, the base is the suite's `notes/` folder when it exists, else the
//!   suite folder itself, searched as one unscoped vault.
//! - `vault` narrows a query to that subfolder of the base (its own haystack).
//!
//! A note id is the note's path relative to the searched root (the `vault`
//! subfolder when given, else the base), without `.md`.
//!
//! Every query goes through the same ranking as `search` (`Engine::search`'s ranking
//! half, policy included: secret notes never count as found). Bad input (a line that
//! is not JSON, a missing field, an id that names no note, a `cwd` or `vault` that
//! does not exist) is reported with its file and line and the query skipped; the
//! rest of the suite still runs.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use cairn_config::Config;
use cairn_policy::Visibility;
use cairn_score::Ranking;
use chrono::NaiveDate;
use serde::Serialize;

use crate::{Engine, EngineError, OpenOptions, SearchRequest, SearchScope};

/// Version tag of the JSON report.
pub const EVAL_REPORT_VERSION: &str = "eval.v1";
/// The queries file inside a suite folder.
pub const QUERIES_FILE: &str = "queries.jsonl";
/// Ranked notes looked at per query: MRR counts a first relevant note down to here.
pub const EVAL_DEPTH: usize = 100;
/// The cutoff of nDCG.
pub const NDCG_CUTOFF: usize = 10;

/// How to run a suite.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Cutoffs for hit@k, recall_all@k and recall@k (sorted, deduplicated, ≥ 1).
    pub ks: Vec<usize>,
    /// Full ranking or plain BM25.
    pub ranking: Ranking,
    /// A configuration file to use instead of the suite's own `cairn.toml`.
    pub config: Option<PathBuf>,
    /// Home folder, for `~/` in configuration files.
    pub home: Option<PathBuf>,
    /// "Today", for recency and review dates.
    pub today: NaiveDate,
    /// Folder of profile and template overrides.
    pub profiles_dir: Option<PathBuf>,
}

/// One problem with the suite's input. The query it concerns was skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SuiteIssue {
    /// The file (`queries.jsonl`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The query's id, when it could be read.
    pub query_id: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SuiteIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(id) = &self.query_id {
            write!(f, "query {id}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// One query of a suite, as read from `queries.jsonl`.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteQuery {
    /// Its id.
    pub id: String,
    /// The words searched for.
    pub query: String,
    /// Ids of the notes that answer it.
    pub expected: Vec<String>,
    /// Graded relevance (id → grade > 0); empty when the suite gives none.
    pub grades: BTreeMap<String, f64>,
    /// Subfolder to search only in.
    pub vault: Option<String>,
    /// Working directory, relative to the suite folder.
    pub cwd: Option<String>,
    /// Files about to be touched.
    pub files: Vec<String>,
    /// Category, for the per-type breakdown.
    pub question_type: Option<String>,
    /// 1-based line in `queries.jsonl`.
    pub line: usize,
}

/// The queries of a suite and the lines that could not be read.
#[derive(Debug, Clone, Default)]
pub struct SuiteQueries {
    /// Queries that parsed, in file order.
    pub queries: Vec<SuiteQuery>,
    /// Lines that did not.
    pub issues: Vec<SuiteIssue>,
    /// Non-blank lines seen.
    pub lines: usize,
}

/// Parses `queries.jsonl` text. Never fails: bad lines become issues.
pub fn parse_queries(file: &str, text: &str) -> SuiteQueries {
    let mut out = SuiteQueries::default();
    let mut seen: HashSet<String> = HashSet::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        out.lines += 1;
        let issue = |query_id: Option<String>, message: String| SuiteIssue {
            file: file.to_owned(),
            line,
            query_id,
            message,
        };
        let value: serde_json::Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => {
                out.issues
                    .push(issue(None, format!("not a JSON object: {e}; skipped")));
                continue;
            }
        };
        match parse_query(&value, line) {
            Ok(q) => {
                if !seen.insert(q.id.clone()) {
                    out.issues.push(issue(
                        Some(q.id),
                        "the same id was used on an earlier line; skipped".into(),
                    ));
                } else {
                    out.queries.push(q);
                }
            }
            Err((id, msg)) => out.issues.push(issue(id, format!("{msg}; skipped"))),
        }
    }
    out
}

fn scalar_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn parse_query(v: &serde_json::Value, line: usize) -> Result<SuiteQuery, (Option<String>, String)> {
    let obj = v
        .as_object()
        .ok_or((None, "not a JSON object".to_owned()))?;
    let id = obj
        .get("id")
        .and_then(scalar_text)
        .filter(|s| !s.trim().is_empty())
        .ok_or((None, "missing `id` (a string)".to_owned()))?;
    let fail = |msg: &str| (Some(id.clone()), msg.to_owned());
    let query = obj
        .get("query")
        .and_then(|q| q.as_str())
        .map(str::to_owned)
        .ok_or_else(|| fail("missing `query` (a string)"))?;
    let strings = |key: &str| -> Result<Vec<String>, (Option<String>, String)> {
        match obj.get(key) {
            None | Some(serde_json::Value::Null) => Ok(Vec::new()),
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .map(|x| scalar_text(x).ok_or_else(|| fail(&format!("`{key}` must hold strings"))))
                .collect(),
            Some(_) => Err(fail(&format!("`{key}` must be a list of strings"))),
        }
    };
    let expected = strings("expected")?;
    let files = strings("files")?;
    let mut grades = BTreeMap::new();
    match obj.get("grades") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Object(m)) => {
            for (k, g) in m {
                let g = g
                    .as_f64()
                    .filter(|g| g.is_finite() && *g >= 0.0)
                    .ok_or_else(|| fail(&format!("grade of `{k}` is not a number ≥ 0")))?;
                if g > 0.0 {
                    grades.insert(k.clone(), g);
                }
            }
        }
        Some(_) => return Err(fail("`grades` must be an object of note id → number")),
    }
    if expected.is_empty() && grades.is_empty() {
        return Err(fail("no `expected` notes and no positive `grades`"));
    }
    let opt_str = |key: &str| -> Result<Option<String>, (Option<String>, String)> {
        match obj.get(key) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.trim().to_owned())),
            Some(_) => Err(fail(&format!("`{key}` must be a string"))),
        }
    };
    Ok(SuiteQuery {
        query,
        expected,
        grades,
        vault: opt_str("vault")?,
        cwd: opt_str("cwd")?,
        files,
        question_type: opt_str("question_type")?,
        line,
        id,
    })
}

/// Metrics over a set of queries (all of them, or one question type).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    /// Queries measured.
    pub queries: usize,
    /// k → share of queries with at least one expected note in the top k.
    pub hit: BTreeMap<usize, f64>,
    /// k → share of queries with every expected note in the top k.
    pub recall_all: BTreeMap<usize, f64>,
    /// k → mean fraction of the expected notes found in the top k.
    pub recall: BTreeMap<usize, f64>,
    /// Mean reciprocal rank of the first expected note (0 when not in the top [`EVAL_DEPTH`]).
    pub mrr: f64,
    /// Mean nDCG@10: linear gains, the grade when graded, else 1 per expected note.
    pub ndcg_at_10: f64,
}

/// One query's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueryOutcome {
    /// Query id.
    pub id: String,
    /// Category.
    pub question_type: Option<String>,
    /// 1-based rank of the first expected note, if in the top [`EVAL_DEPTH`].
    pub first_relevant_rank: Option<usize>,
    /// nDCG@10.
    pub ndcg_at_10: f64,
    /// Expected notes not in the top 10.
    pub missed_at_10: Vec<String>,
    /// The top 5 note ids, best first.
    pub top: Vec<String>,
}

/// Time spent, in milliseconds. Wall-clock: these vary from run to run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timing {
    /// Listing and parsing the notes.
    pub scan_ms: f64,
    /// Building the in-memory index.
    pub index_ms: f64,
    /// Median time to rank one query.
    pub query_p50_ms: f64,
    /// 95th percentile time to rank one query.
    pub query_p95_ms: f64,
    /// Mean time to rank one query.
    pub query_mean_ms: f64,
}

/// The report of one suite run.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    /// [`EVAL_REPORT_VERSION`].
    pub version: &'static str,
    /// The suite folder, as given.
    pub suite: String,
    /// The configuration used, if any.
    pub config: Option<String>,
    /// `full` or `bm25`.
    pub ranking: Ranking,
    /// "Today" for recency.
    pub today: String,
    /// The cutoffs.
    pub ks: Vec<usize>,
    /// Ranked notes looked at per query.
    pub depth: usize,
    /// Notes indexed.
    pub notes: usize,
    /// Query lines in the file (non-blank).
    pub queries_total: usize,
    /// Queries measured.
    pub queries_evaluated: usize,
    /// Queries skipped because of an issue.
    pub queries_skipped: usize,
    /// Everything wrong with the input, by line.
    pub issues: Vec<SuiteIssue>,
    /// Metrics over every measured query.
    pub overall: Metrics,
    /// Metrics per `question_type`.
    pub by_type: BTreeMap<String, Metrics>,
    /// Index build and query latency.
    pub timing: Timing,
    /// Per query, in file order.
    pub per_query: Vec<QueryOutcome>,
}

/// Loads the suite in `suite`, opens its notes and measures every query.
pub fn run_eval(suite: &Path, opts: &EvalOptions) -> Result<EvalReport, EngineError> {
    let queries_path = suite.join(QUERIES_FILE);
    let text = std::fs::read(&queries_path).map_err(|e| EngineError::Io {
        path: queries_path.clone(),
        source: e,
    })?;
    let parsed = parse_queries(QUERIES_FILE, &String::from_utf8_lossy(&text));

    let suite_config = suite.join("cairn.toml");
    let config_path = opts
        .config
        .clone()
        .or_else(|| suite_config.is_file().then_some(suite_config));
    let config = match &config_path {
        Some(p) => Config::load(p, opts.home.as_deref())?,
        None => {
            let notes = suite.join("notes");
            Config::for_vault(if notes.is_dir() { &notes } else { suite })?
        }
    };
    let has_config = config.source.is_some();

    let t0 = Instant::now();
    let scan = cairn_scan::scan(&config.vault.root, &[String::new()], &config.vault.limits);
    let scan_ms = ms(t0);
    let t1 = Instant::now();
    let engine = Engine::from_notes(
        config,
        scan.notes,
        scan.diagnostics,
        &OpenOptions {
            profiles_dir: opts.profiles_dir.clone(),
            ..OpenOptions::default()
        },
    )?;
    let index_ms = ms(t1);

    let mut ks: Vec<usize> = opts.ks.iter().copied().filter(|&k| k > 0).collect();
    ks.sort_unstable();
    ks.dedup();
    if ks.is_empty() {
        ks = vec![1, 5, 10];
    }
    let depth = EVAL_DEPTH.max(ks.last().copied().unwrap_or(0));

    let ids: HashSet<&str> = engine.notes().iter().map(|n| n.id.as_str()).collect();
    let mut issues = parsed.issues;
    let mut outcomes = Vec::new();
    let mut per_query_metrics: Vec<(Option<String>, QueryMetrics)> = Vec::new();
    let mut latencies = Vec::new();
    for q in &parsed.queries {
        let issue = |message: String| SuiteIssue {
            file: QUERIES_FILE.to_owned(),
            line: q.line,
            query_id: Some(q.id.clone()),
            message: format!("{message}; skipped"),
        };
        let root = match q.vault.as_deref().map(clean_folder) {
            None => String::new(),
            Some(Some(r)) if engine.config().vault.root.join(&r).is_dir() => r,
            Some(_) => {
                issues.push(issue(format!(
                    "`vault` {:?} is not a folder of the suite's notes",
                    q.vault.as_deref().unwrap_or_default()
                )));
                continue;
            }
        };
        let full = |id: &str| {
            let id = id.trim().trim_end_matches(".md");
            if root.is_empty() {
                id.to_owned()
            } else {
                format!("{root}/{id}")
            }
        };
        let unknown: Vec<&str> = q
            .expected
            .iter()
            .chain(q.grades.keys())
            .filter(|id| !ids.contains(full(id).as_str()))
            .map(String::as_str)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if !unknown.is_empty() {
            let under = if root.is_empty() {
                String::new()
            } else {
                format!(" under `{root}`")
            };
            issues.push(issue(format!(
                "no note{under} with id {}",
                unknown
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
            continue;
        }
        let cwd = match (&q.cwd, has_config) {
            (Some(c), true) => {
                let p = suite.join(c);
                if !p.is_dir() {
                    issues.push(issue(format!("`cwd` {c:?} is not a folder of the suite")));
                    continue;
                }
                Some(p)
            }
            _ => None,
        };
        let scope = if !root.is_empty() {
            SearchScope::Folders(vec![root.clone()])
        } else if has_config {
            SearchScope::Routed
        } else {
            SearchScope::All
        };
        let req = SearchRequest {
            query: q.query.clone(),
            cwd,
            project: None,
            files: q.files.clone(),
            scope,
            limit: depth,
            ranking: opts.ranking,
            today: opts.today,
        };
        let t = Instant::now();
        let ranked = match engine.rank(&req) {
            Ok(r) => r,
            Err(e) if e.is_usage() => {
                issues.push(issue(e.to_string()));
                continue;
            }
            Err(e) => return Err(e),
        };
        let list: Vec<String> = ranked
            .scored
            .iter()
            .filter(|(_, v)| *v != Visibility::Hidden)
            .take(depth)
            .filter_map(|(s, _)| engine.note(&s.path))
            .map(|n| relative_id(&n.id, &root))
            .collect();
        latencies.push(ms(t));

        let m = QueryMetrics::measure(q, &list, &ks);
        outcomes.push(QueryOutcome {
            id: q.id.clone(),
            question_type: q.question_type.clone(),
            first_relevant_rank: m.first_rank,
            ndcg_at_10: round4(m.ndcg),
            missed_at_10: relevant_ids(q)
                .into_iter()
                .filter(|id| !list.iter().take(NDCG_CUTOFF).any(|x| x == id))
                .collect(),
            top: list.iter().take(5).cloned().collect(),
        });
        per_query_metrics.push((q.question_type.clone(), m));
    }
    issues.sort_by(|a, b| a.line.cmp(&b.line).then_with(|| a.message.cmp(&b.message)));

    let overall = aggregate(per_query_metrics.iter().map(|(_, m)| m), &ks);
    let mut types: BTreeMap<String, Vec<&QueryMetrics>> = BTreeMap::new();
    for (t, m) in &per_query_metrics {
        if let Some(t) = t {
            types.entry(t.clone()).or_default().push(m);
        }
    }
    let by_type = types
        .into_iter()
        .map(|(t, ms)| (t, aggregate(ms.into_iter(), &ks)))
        .collect();

    let mut sorted = latencies.clone();
    sorted.sort_by(f64::total_cmp);
    let mean = if sorted.is_empty() {
        0.0
    } else {
        sorted.iter().sum::<f64>() / sorted.len() as f64
    };
    Ok(EvalReport {
        version: EVAL_REPORT_VERSION,
        suite: suite.display().to_string(),
        config: config_path.map(|p| p.display().to_string()),
        ranking: opts.ranking,
        today: opts.today.to_string(),
        depth,
        notes: engine.notes().len(),
        queries_total: parsed.lines,
        queries_evaluated: outcomes.len(),
        queries_skipped: parsed.lines - outcomes.len(),
        issues,
        overall,
        by_type,
        timing: Timing {
            scan_ms: round3(scan_ms),
            index_ms: round3(index_ms),
            query_p50_ms: round3(percentile(&sorted, 0.50)),
            query_p95_ms: round3(percentile(&sorted, 0.95)),
            query_mean_ms: round3(mean),
        },
        per_query: outcomes,
        ks,
    })
}

/// A vault-relative folder without `.`/`..` parts and outer slashes; `None` if it
/// would leave the vault.
fn clean_folder(f: &str) -> Option<String> {
    let mut parts = Vec::new();
    for c in Path::new(f.trim()).components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// A vault-relative note id made relative to `root`.
fn relative_id(id: &str, root: &str) -> String {
    if root.is_empty() {
        return id.to_owned();
    }
    id.strip_prefix(root)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or(id)
        .to_owned()
}

/// Expected notes first, then other graded notes, each once.
fn relevant_ids(q: &SuiteQuery) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in q.expected.iter().chain(q.grades.keys()) {
        let id = id.trim().trim_end_matches(".md").to_owned();
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// One query's numbers.
#[derive(Debug, Clone)]
struct QueryMetrics {
    hit: Vec<bool>,
    all: Vec<bool>,
    frac: Vec<f64>,
    first_rank: Option<usize>,
    ndcg: f64,
}

impl QueryMetrics {
    /// Measures ranked ids `list` against the query's expectations.
    fn measure(q: &SuiteQuery, list: &[String], ks: &[usize]) -> Self {
        let norm = |s: &String| s.trim().trim_end_matches(".md").to_owned();
        let mut expected: Vec<String> = q.expected.iter().map(norm).collect();
        if expected.is_empty() {
            // Only grades given: every graded note counts as expected.
            expected = q.grades.keys().map(norm).collect();
        }
        expected.sort();
        expected.dedup();
        let rank_of = |id: &str| list.iter().position(|x| x == id).map(|p| p + 1);
        let ranks: Vec<Option<usize>> = expected.iter().map(|e| rank_of(e)).collect();
        let within = |k: usize| ranks.iter().filter(|r| r.is_some_and(|r| r <= k)).count();
        let n = expected.len().max(1);
        let hit = ks.iter().map(|&k| within(k) > 0).collect();
        let all = ks.iter().map(|&k| within(k) == expected.len()).collect();
        let frac = ks.iter().map(|&k| within(k) as f64 / n as f64).collect();
        let first_rank = ranks.iter().flatten().min().copied();

        // Gains: the grade when graded, else 1 for an expected note.
        let gain = |id: &str| -> f64 {
            q.grades
                .iter()
                .find(|(g, _)| norm(g) == id)
                .map(|(_, &v)| v)
                .unwrap_or_else(|| {
                    if expected.iter().any(|e| e == id) {
                        1.0
                    } else {
                        0.0
                    }
                })
        };
        let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
        let dcg: f64 = list
            .iter()
            .take(NDCG_CUTOFF)
            .enumerate()
            .map(|(i, id)| gain(id) * discount(i))
            .sum();
        let mut ideal: Vec<f64> = relevant_ids(q).iter().map(|id| gain(id)).collect();
        ideal.sort_by(|a, b| b.total_cmp(a));
        let idcg: f64 = ideal
            .iter()
            .take(NDCG_CUTOFF)
            .enumerate()
            .map(|(i, g)| g * discount(i))
            .sum();
        let ndcg = if idcg > 0.0 { dcg / idcg } else { 0.0 };
        Self {
            hit,
            all,
            frac,
            first_rank,
            ndcg,
        }
    }
}

fn aggregate<'a>(ms: impl Iterator<Item = &'a QueryMetrics>, ks: &[usize]) -> Metrics {
    let ms: Vec<&QueryMetrics> = ms.collect();
    let n = ms.len();
    let mean = |f: &dyn Fn(&QueryMetrics) -> f64| -> f64 {
        if n == 0 {
            0.0
        } else {
            round4(ms.iter().map(|m| f(m)).sum::<f64>() / n as f64)
        }
    };
    let per_k = |f: &dyn Fn(&QueryMetrics, usize) -> f64| -> BTreeMap<usize, f64> {
        ks.iter()
            .enumerate()
            .map(|(i, &k)| (k, mean(&|m| f(m, i))))
            .collect()
    };
    Metrics {
        queries: n,
        hit: per_k(&|m, i| f64::from(u8::from(m.hit[i]))),
        recall_all: per_k(&|m, i| f64::from(u8::from(m.all[i]))),
        recall: per_k(&|m, i| m.frac[i]),
        mrr: mean(&|m| m.first_rank.map_or(0.0, |r| 1.0 / r as f64)),
        ndcg_at_10: mean(&|m| m.ndcg),
    }
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(line: &str) -> SuiteQuery {
        let p = parse_queries("q.jsonl", line);
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        p.queries[0].clone()
    }

    fn ids(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn bad_lines_become_issues_with_their_line() {
        let text = "\n{\"id\":\"a\",\"query\":\"x\",\"expected\":[\"n1\"]}\nnot json\n{\"id\":\"b\",\"expected\":[\"n1\"]}\n{\"id\":\"a\",\"query\":\"y\",\"expected\":[\"n2\"]}\n{\"id\":3,\"query\":\"z\",\"expected\":[],\"grades\":{\"n3\":0}}\n[1,2]\n{\"id\":\"c\",\"query\":\"w\",\"expected\":\"n1\"}\n";
        let p = parse_queries("queries.jsonl", text);
        assert_eq!(p.lines, 7);
        assert_eq!(p.queries.len(), 1);
        assert_eq!(p.queries[0].id, "a");
        let lines: Vec<usize> = p.issues.iter().map(|i| i.line).collect();
        assert_eq!(lines, vec![3, 4, 5, 6, 7, 8]);
        assert!(p.issues[0].message.contains("not a JSON object"));
        assert!(p.issues[1].message.contains("missing `query`"));
        assert!(p.issues[2].message.contains("earlier line"));
        assert!(p.issues[3].message.contains("no `expected`"));
        assert_eq!(p.issues[3].query_id.as_deref(), Some("3"));
        assert!(p.issues[5].message.contains("list of strings"));
        assert_eq!(
            p.issues[1].to_string(),
            "queries.jsonl:4: query b: missing `query` (a string); skipped"
        );
    }

    #[test]
    fn hit_recall_and_mrr() {
        let query = q(r#"{"id":"1","query":"x","expected":["a","b"]}"#);
        let ks = [1, 2, 5];
        let m = QueryMetrics::measure(&query, &ids(&["z", "a", "y", "x", "b"]), &ks);
        assert_eq!(m.hit, vec![false, true, true]);
        assert_eq!(m.all, vec![false, false, true]);
        assert_eq!(m.frac, vec![0.0, 0.5, 1.0]);
        assert_eq!(m.first_rank, Some(2));
        // Binary gains: (1/log2(3) + 1/log2(6)) / (1 + 1/log2(3)).
        let want = (1.0 / 3f64.log2() + 1.0 / 6f64.log2()) / (1.0 + 1.0 / 3f64.log2());
        assert!((m.ndcg - want).abs() < 1e-12, "{}", m.ndcg);
        let none = QueryMetrics::measure(&query, &ids(&["z"]), &ks);
        assert_eq!(none.first_rank, None);
        assert_eq!(none.ndcg, 0.0);
    }

    #[test]
    fn graded_ndcg_uses_grades_and_counts_unretrieved_grades_in_the_ideal() {
        let query = q(r#"{"id":"1","query":"x","expected":["a"],"grades":{"a":3,"b":1}}"#);
        let m = QueryMetrics::measure(&query, &ids(&["b", "a"]), &[1]);
        let want = (1.0 + 3.0 / 3f64.log2()) / (3.0 + 1.0 / 3f64.log2());
        assert!((m.ndcg - want).abs() < 1e-12);
        let perfect = QueryMetrics::measure(&query, &ids(&["a", "b"]), &[1]);
        assert!((perfect.ndcg - 1.0).abs() < 1e-12);
        // Only "a" is expected: hit and recall ignore grade-1 "b".
        assert_eq!(perfect.all, vec![true]);
    }

    #[test]
    fn aggregates_are_means() {
        let query = q(r#"{"id":"1","query":"x","expected":["a"]}"#);
        let a = QueryMetrics::measure(&query, &ids(&["a"]), &[1, 3]);
        let b = QueryMetrics::measure(&query, &ids(&["x", "y", "a"]), &[1, 3]);
        let m = aggregate([&a, &b].into_iter(), &[1, 3]);
        assert_eq!(m.queries, 2);
        assert_eq!(m.hit[&1], 0.5);
        assert_eq!(m.hit[&3], 1.0);
        assert_eq!(m.mrr, round4((1.0 + 1.0 / 3.0) / 2.0));
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 10.0);
        assert_eq!(percentile(&v, 0.95), 19.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }

    #[test]
    fn folders_never_leave_the_vault() {
        assert_eq!(clean_folder("conv-26/").as_deref(), Some("conv-26"));
        assert_eq!(clean_folder("./a/b").as_deref(), Some("a/b"));
        assert_eq!(clean_folder("../x"), None);
        assert_eq!(clean_folder("/etc"), None);
        assert_eq!(relative_id("conv-26/s1", "conv-26"), "s1");
        assert_eq!(relative_id("s1", ""), "s1");
    }
}
