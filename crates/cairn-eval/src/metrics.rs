//! The numbers of a ranked list against a query's expectations (hit@k,
//! `recall_all@k`, recall@k, reciprocal rank, nDCG@10), their means over a set of
//! queries, and latency percentiles.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::suite::SuiteQuery;

/// Ranked notes looked at per query: MRR counts a first relevant note down to here.
pub const EVAL_DEPTH: usize = 100;
/// The cutoff of nDCG.
pub const NDCG_CUTOFF: usize = 10;

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

/// Expected notes first, then other graded notes, each once.
pub(crate) fn relevant_ids(q: &SuiteQuery) -> Vec<String> {
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
pub(crate) struct QueryMetrics {
    hit: Vec<bool>,
    all: Vec<bool>,
    frac: Vec<f64>,
    pub(crate) first_rank: Option<usize>,
    pub(crate) ndcg: f64,
}

impl QueryMetrics {
    /// Measures ranked ids `list` against the query's expectations.
    pub(crate) fn measure(q: &SuiteQuery, list: &[String], ks: &[usize]) -> Self {
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
            q.grades.iter().find(|(g, _)| norm(g) == id).map_or_else(
                || {
                    if expected.iter().any(|e| e == id) {
                        1.0
                    } else {
                        0.0
                    }
                },
                |(_, &v)| v,
            )
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

pub(crate) fn aggregate<'a>(ms: impl Iterator<Item = &'a QueryMetrics>, ks: &[usize]) -> Metrics {
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
pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    // `p` is a share in 0..=1: the rank is a position in `sorted`, clamped below.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub(crate) fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
// Exact values: every figure here comes from fixed inputs and exact arithmetic.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::suite::parse_queries;

    fn q(line: &str) -> SuiteQuery {
        let p = parse_queries("q.jsonl", line);
        assert!(p.issues.is_empty(), "{:?}", p.issues);
        p.queries[0].clone()
    }

    fn ids(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
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
        assert_eq!(m.mrr, round4(f64::midpoint(1.0, 1.0 / 3.0)));
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 10.0);
        assert_eq!(percentile(&v, 0.95), 19.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }
}
