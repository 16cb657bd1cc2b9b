//! Running a suite: load its configuration or take its notes as one vault, read
//! and index the notes (each timed), rank every query through the engine and
//! measure it.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use cairn_engine::config::Config;
use cairn_engine::{Engine, OpenOptions, Ranking, SearchRequest, SearchScope};
use chrono::NaiveDate;

use crate::EvalError;
use crate::metrics::{
    EVAL_DEPTH, NDCG_CUTOFF, QueryMetrics, aggregate, percentile, relevant_ids, round3, round4,
};
use crate::packet::run_packets;
use crate::report::{EVAL_REPORT_VERSION, EvalReport, QueryOutcome, Timing};
use crate::suite::{QUERIES_FILE, SuiteIssue, parse_queries};

/// How to run a suite.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Cutoffs for hit@k, `recall_all@k` and recall@k (sorted, deduplicated, ≥ 1).
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

/// Loads the suite in `suite`, opens its notes and measures every query.
pub fn run_eval(suite: &Path, opts: &EvalOptions) -> Result<EvalReport, EvalError> {
    let queries_path = suite.join(QUERIES_FILE);
    let text = std::fs::read(&queries_path).map_err(|e| EvalError::Io {
        path: queries_path.clone(),
        source: e,
    })?;
    let parsed = parse_queries(QUERIES_FILE, &String::from_utf8_lossy(&text));

    let suite_config = suite.join("cairn.toml");
    let config_path = opts
        .config
        .clone()
        .or_else(|| suite_config.is_file().then_some(suite_config));
    let config = if let Some(p) = &config_path {
        Config::load(p, opts.home.as_deref())?
    } else {
        let notes = suite.join("notes");
        Config::for_vault(if notes.is_dir() { &notes } else { suite })?
    };
    let has_config = config.source.is_some();

    let t0 = Instant::now();
    let mut scan = cairn_engine::scan_vault(&config);
    // The eval pins time (`--now`), file times too: a suite's files carry the
    // times of its checkout (in CI, the order a clone wrote them), which say
    // nothing of its notes and would make the packets' "recently edited" notes
    // differ from one clone to the next. Notes are dated by their front matter
    // alone.
    for n in &mut scan.notes {
        n.mtime = None;
    }
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
        let list: Vec<String> = match engine.ranked_ids(&req) {
            Ok(ids) => ids.iter().map(|id| relative_id(id, &root)).collect(),
            Err(e) if e.is_usage() => {
                issues.push(issue(e.to_string()));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
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
    let packets = if parsed.packet_lines > 0 {
        Some(run_packets(
            &engine,
            suite,
            &parsed.packets,
            parsed.packet_lines,
            opts.ranking,
            opts.today,
            &mut issues,
        )?)
    } else {
        None
    };
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
        packets,
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

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

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
