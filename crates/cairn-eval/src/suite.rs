//! A suite's `queries.jsonl`: one JSON query a line, read leniently. A bad line
//! becomes a [`SuiteIssue`] naming its file and line; the other lines still count.

use std::collections::{BTreeMap, HashSet};

use cairn_engine::SessionSource;
use chrono::{DateTime, Utc};
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

/// The sections of a wake-up packet, in packet order (`identity` is `identity.notes`).
pub const PACKET_SECTIONS: [&str; 8] = [
    "identity",
    "working_style",
    "active_context",
    "priorities",
    "constraints",
    "decisions",
    "incidents",
    "recommended_notes",
];

/// One packet task (`"kind": "packet"`): a session start run through `wakeup` and
/// scored on every note of the packet's sections.
#[derive(Debug, Clone, PartialEq)]
pub struct PacketTask {
    /// Its id.
    pub id: String,
    /// Working directory, relative to the suite folder (`.` when absent).
    pub cwd: Option<String>,
    /// The task in words (may be empty).
    pub task: String,
    /// Files about to be touched.
    pub files: Vec<String>,
    /// `startup`, `resume`, `compact` or `clear`.
    pub source: SessionSource,
    /// Notes that must be somewhere in the packet.
    pub expected: Vec<String>,
    /// Section name → notes expected in that section.
    pub sections: BTreeMap<String, Vec<String>>,
    /// Notes whose presence is an error.
    pub must_not: Vec<String>,
    /// "Now" for this task; the eval's `today` at 09:00 UTC when absent.
    pub now: Option<DateTime<Utc>>,
    /// Category, for the per-type breakdown.
    pub question_type: Option<String>,
    /// Why the task expects what it expects (not used in scoring).
    pub note: Option<String>,
    /// 1-based line in `queries.jsonl`.
    pub line: usize,
}

/// The queries of a suite and the lines that could not be read.
#[derive(Debug, Clone, Default)]
pub struct SuiteQueries {
    /// Retrieval queries that parsed, in file order.
    pub queries: Vec<SuiteQuery>,
    /// Packet tasks that parsed, in file order.
    pub packets: Vec<PacketTask>,
    /// Lines that did not.
    pub issues: Vec<SuiteIssue>,
    /// Non-blank lines seen that are not packet tasks (retrieval queries, and lines
    /// too broken to tell).
    pub lines: usize,
    /// Non-blank lines with `"kind": "packet"`.
    pub packet_lines: usize,
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
        let issue = |query_id: Option<String>, message: String| SuiteIssue {
            file: file.to_owned(),
            line,
            query_id,
            message,
        };
        let value: serde_json::Value = match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(e) => {
                out.lines += 1;
                out.issues
                    .push(issue(None, format!("not a JSON object: {e}; skipped")));
                continue;
            }
        };
        let kind = value.get("kind").cloned();
        let is_packet = match kind {
            None | Some(serde_json::Value::Null) => false,
            Some(serde_json::Value::String(k)) if k.trim() == "search" => false,
            Some(serde_json::Value::String(k)) if k.trim() == "packet" => true,
            Some(k) => {
                out.lines += 1;
                let id = value.get("id").and_then(scalar_text);
                out.issues.push(issue(
                    id,
                    format!("`kind` {k} is neither \"search\" nor \"packet\"; skipped"),
                ));
                continue;
            }
        };
        if is_packet {
            out.packet_lines += 1;
            match parse_packet(&value, line) {
                Ok(t) => {
                    if seen.insert(t.id.clone()) {
                        out.packets.push(t);
                    } else {
                        out.issues.push(issue(
                            Some(t.id),
                            "the same id was used on an earlier line; skipped".into(),
                        ));
                    }
                }
                Err((id, msg)) => out.issues.push(issue(id, format!("{msg}; skipped"))),
            }
            continue;
        }
        out.lines += 1;
        match parse_query(&value, line) {
            Ok(q) => {
                if seen.insert(q.id.clone()) {
                    out.queries.push(q);
                } else {
                    out.issues.push(issue(
                        Some(q.id),
                        "the same id was used on an earlier line; skipped".into(),
                    ));
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

type LineError = (Option<String>, String);

/// A list of strings (absent or null: empty).
fn string_list(
    obj: &serde_json::Map<String, serde_json::Value>,
    key: &str,
    fail: &dyn Fn(&str) -> LineError,
) -> Result<Vec<String>, LineError> {
    match obj.get(key) {
        None | Some(serde_json::Value::Null) => Ok(Vec::new()),
        Some(serde_json::Value::Array(a)) => a
            .iter()
            .map(|x| scalar_text(x).ok_or_else(|| fail(&format!("`{key}` must hold strings"))))
            .collect(),
        Some(_) => Err(fail(&format!("`{key}` must be a list of strings"))),
    }
}

/// An optional string (absent, null or blank: `None`).
fn opt_string(
    obj: &serde_json::Map<String, serde_json::Value>,
    key: &str,
    fail: &dyn Fn(&str) -> LineError,
) -> Result<Option<String>, LineError> {
    match obj.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(serde_json::Value::String(s)) => Ok(Some(s.trim().to_owned())),
        Some(_) => Err(fail(&format!("`{key}` must be a string"))),
    }
}

/// A note id as the suite writes it, without `.md` and outer blanks.
pub(crate) fn norm_id(id: &str) -> String {
    id.trim().trim_end_matches(".md").to_owned()
}

fn parse_packet(v: &serde_json::Value, line: usize) -> Result<PacketTask, LineError> {
    let obj = v
        .as_object()
        .ok_or((None, "not a JSON object".to_owned()))?;
    let id = obj
        .get("id")
        .and_then(scalar_text)
        .filter(|s| !s.trim().is_empty())
        .ok_or((None, "missing `id` (a string)".to_owned()))?;
    let fail = |msg: &str| (Some(id.clone()), msg.to_owned());
    let task = match obj.get("task") {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => return Err(fail("`task` must be a string")),
    };
    let source = match opt_string(obj, "source", &fail)? {
        None => SessionSource::Startup,
        Some(s) => SessionSource::parse(&s).ok_or_else(|| {
            fail(&format!(
                "`source` {s:?} is not startup, resume, compact or clear"
            ))
        })?,
    };
    let ids = |key: &str| -> Result<Vec<String>, LineError> {
        let mut out: Vec<String> = Vec::new();
        for x in string_list(obj, key, &fail)? {
            let x = norm_id(&x);
            if !out.contains(&x) {
                out.push(x);
            }
        }
        Ok(out)
    };
    let expected = ids("expected")?;
    let must_not = ids("must_not")?;
    let mut sections = BTreeMap::new();
    match obj.get("sections") {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Object(m)) => {
            for (name, list) in m {
                if !PACKET_SECTIONS.contains(&name.as_str()) {
                    return Err(fail(&format!(
                        "`sections` names {name:?}, not a packet section ({})",
                        PACKET_SECTIONS.join(", ")
                    )));
                }
                let list = list
                    .as_array()
                    .and_then(|a| a.iter().map(scalar_text).collect::<Option<Vec<_>>>())
                    .ok_or_else(|| fail(&format!("`sections.{name}` must be a list of strings")))?;
                sections.insert(name.clone(), list.iter().map(|x| norm_id(x)).collect());
            }
        }
        Some(_) => return Err(fail("`sections` must be an object of section → note ids")),
    }
    if expected.is_empty() && sections.values().all(Vec::is_empty) {
        return Err(fail("no `expected` notes"));
    }
    if let Some(clash) = expected.iter().find(|e| must_not.contains(e)) {
        return Err(fail(&format!("`{clash}` is both expected and must_not")));
    }
    let now = match opt_string(obj, "now", &fail)? {
        None => None,
        Some(s) => Some(
            DateTime::parse_from_rfc3339(&s)
                .map_err(|e| fail(&format!("`now` {s:?} is not an RFC 3339 time: {e}")))?
                .with_timezone(&Utc),
        ),
    };
    Ok(PacketTask {
        cwd: opt_string(obj, "cwd", &fail)?,
        task,
        files: string_list(obj, "files", &fail)?,
        source,
        expected,
        sections,
        must_not,
        now,
        question_type: opt_string(obj, "question_type", &fail)?,
        note: opt_string(obj, "note", &fail)?,
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

    #[test]
    fn packet_lines_are_packet_tasks_and_bad_ones_become_issues() {
        let text = r#"{"id":"q","query":"x","expected":["n1"],"kind":"search"}
{"id":"p1","kind":"packet","cwd":"repos/a","task":"","source":"resume","expected":["a","b.md"],"sections":{"identity":["a"]},"must_not":["c"],"now":"2026-12-09T09:00:00Z","question_type":"resume","note":"why"}
{"id":"p2","kind":"packet","expected":["a"],"source":"later"}
{"id":"p3","kind":"packet","expected":["a"],"sections":{"hot":["a"]}}
{"id":"p4","kind":"packet","expected":["a"],"must_not":["a"]}
{"id":"p5","kind":"packet","expected":["a"],"now":"yesterday"}
{"id":"p6","kind":"packet","task":"x"}
{"id":"p7","kind":"recall","query":"x","expected":["a"]}
{"id":"q","kind":"packet","expected":["a"]}
"#;
        let p = parse_queries("queries.jsonl", text);
        assert_eq!(p.lines, 2, "the search line and the unknown kind");
        assert_eq!(p.packet_lines, 7);
        assert_eq!(p.queries.len(), 1);
        assert_eq!(p.packets.len(), 1);
        let t = &p.packets[0];
        assert_eq!(t.id, "p1");
        assert_eq!(t.source, SessionSource::Resume);
        assert_eq!(t.expected, vec!["a", "b"]);
        assert_eq!(t.sections["identity"], vec!["a"]);
        assert_eq!(t.must_not, vec!["c"]);
        assert_eq!(t.now.unwrap().to_rfc3339(), "2026-12-09T09:00:00+00:00");
        assert_eq!(t.cwd.as_deref(), Some("repos/a"));
        let msgs: Vec<(usize, &str)> = p
            .issues
            .iter()
            .map(|i| (i.line, i.message.as_str()))
            .collect();
        assert_eq!(msgs.len(), 7, "{msgs:?}");
        assert!(msgs[0].1.contains("`source`"));
        assert!(msgs[1].1.contains("not a packet section"));
        assert!(msgs[2].1.contains("both expected and must_not"));
        assert!(msgs[3].1.contains("RFC 3339"));
        assert!(msgs[4].1.contains("no `expected`"));
        assert!(msgs[5].1.contains("`kind`"));
        assert!(msgs[6].1.contains("earlier line"));
        // A default packet task starts a session with no task.
        let d = parse_queries("q", r#"{"id":"d","kind":"packet","expected":["a"]}"#);
        assert_eq!(d.packets[0].source, SessionSource::Startup);
        assert_eq!(d.packets[0].task, "");
        assert_eq!(d.packets[0].now, None);
    }
}
