//! A suite's `queries.jsonl`: one JSON query a line, read leniently. A bad line
//! becomes a [`SuiteIssue`] naming its file and line; the other lines still count.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

/// The queries file inside a suite folder.
pub const QUERIES_FILE: &str = "queries.jsonl";

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
