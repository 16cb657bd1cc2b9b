//! `cairn mcp` fed raw lines through the real binary: bad input at the protocol
//! edge gets a JSON-RPC error and the server keeps running. Garbage and half
//! objects get -32700 (id null); requests before `initialize` get -32600; unknown
//! argument names get -32602 naming the key; tool errors are worded for the
//! agent (no doubled prefix, no CLI flags); and a valid request still succeeds
//! after each of them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

use crate::common;
use common::{DEMO_CANARIES, demo};

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

/// What one line sent to the server must produce.
enum Expect {
    /// A JSON-RPC error with this code and id, its message containing the text.
    Error(i64, Value, &'static str),
    /// A result for this id.
    Result(i64),
    /// Nothing (checked by the ping that follows).
    Nothing,
}

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    next_ping: i64,
}

impl Server {
    fn start(config: &Path) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .env("XDG_CACHE_HOME", common::XDG_CACHE)
            .args(["mcp", "--config", config.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            next_ping: 1000,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next message from the server (a generous guard, not a timing assertion).
    fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answered nothing (did it exit?)");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends `ping` and checks that the next message is its answer: the server is
    /// alive and answered nothing else in between.
    fn ping(&mut self) {
        let id = self.next_ping;
        self.next_ping += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string());
        let r = self.next();
        assert_eq!(r["id"], id, "expected the ping's answer, got {r}");
        assert!(r.get("result").is_some(), "{r}");
    }

    fn check(&mut self, line: &str, expect: &Expect) -> Value {
        self.send(line);
        match expect {
            Expect::Nothing => {
                self.ping();
                Value::Null
            }
            Expect::Error(code, id, text) => {
                let r = self.next();
                assert_eq!(r["jsonrpc"], "2.0", "{line} -> {r}");
                assert_eq!(r["error"]["code"], *code, "{line} -> {r}");
                assert!(
                    r.as_object().unwrap().contains_key("id") && r["id"] == *id,
                    "{line} -> {r}"
                );
                let msg = r["error"]["message"].as_str().unwrap();
                assert!(msg.contains(text), "{line} -> {msg}");
                r
            }
            Expect::Result(id) => {
                let r = self.next();
                assert_eq!(r["id"], *id, "{line} -> {r}");
                assert!(r.get("result").is_some(), "{line} -> {r}");
                r
            }
        }
    }

    /// Closes stdin; the server must stop by itself, successfully.
    fn finish(mut self) {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn initialize(id: i64) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "cairn-test", "version": "0"}
        }
    })
    .to_string()
}

fn call(id: i64, tool: &str, arguments: Value) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}
    })
    .to_string()
}

fn tool_text(r: &Value) -> String {
    r["result"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect()
}

#[test]
fn bad_lines_get_json_rpc_errors_and_the_server_keeps_running() {
    let mut s = Server::start(&demo().join("cairn.toml"));
    let search = call(20, "memory_search", json!({"query": "retry"}));
    let cases: Vec<(String, Expect)> = vec![
        // Before initialize.
        (
            "this is not json".into(),
            Expect::Error(-32700, Value::Null, "Parse error"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"#.into(),
            Expect::Error(-32700, Value::Null, "Parse error"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#.into(),
            Expect::Error(-32600, json!(2), "initialize"),
        ),
        (
            search.clone(),
            Expect::Error(-32600, json!(20), "initialize"),
        ),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
            Expect::Nothing,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"r","result":{}}"#.into(),
            Expect::Nothing,
        ),
        (
            "[1,2,3]".into(),
            Expect::Error(-32600, Value::Null, "Invalid request"),
        ),
        (String::new(), Expect::Nothing),
        // The handshake, then the same again.
        (initialize(3), Expect::Result(3)),
        (
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(),
            Expect::Nothing,
        ),
        (
            "\u{1}\u{2} garbage".into(),
            Expect::Error(-32700, Value::Null, "Parse error"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"#.into(),
            Expect::Error(-32700, Value::Null, "Parse error"),
        ),
        (
            r#"{"id":5}"#.into(),
            Expect::Error(-32600, json!(5), "Invalid request"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}"#.into(),
            Expect::Error(-32602, json!(6), "tools/call"),
        ),
        (search.clone(), Expect::Result(20)),
    ];
    for (line, expect) in &cases {
        s.check(line, expect);
    }
    // The valid search after all that succeeded with hits.
    let r = s.check(
        &call(21, "memory_search", json!({"query": "retry"})),
        &Expect::Result(21),
    );
    assert_ne!(r["result"]["isError"], true, "{r}");
    assert!(tool_text(&r).contains("1. "), "{r}");
    s.finish();
}

/// A search that finds nothing says so, its query redacted: it echoed the
/// query as sent, credentials and all (held-out trial).
#[test]
fn a_search_that_finds_nothing_echoes_its_query_redacted() {
    let mut s = Server::start(&demo().join("cairn.toml"));
    s.check(&initialize(1), &Expect::Result(1));
    for (offset, id) in [(0, 2), (5, 3)] {
        let r = s.check(
            &call(
                id,
                "memory_search",
                json!({"query": "zzqx AKIAIOSFODNN7CANARY4 password=hunter2xyz", "offset": offset}),
            ),
            &Expect::Result(id),
        );
        let all = r.to_string();
        assert!(tool_text(&r).contains("match `zzqx"), "{r}");
        for canary in ["IOSFODNN7CANARY4", "hunter2xyz"] {
            assert!(!all.contains(canary), "{all}");
        }
    }
    s.finish();
}

#[test]
fn unknown_argument_names_are_refused_as_invalid_params() {
    let mut s = Server::start(&demo().join("cairn.toml"));
    s.check(&initialize(1), &Expect::Result(1));
    // Every tool, its required arguments plus one it does not know.
    let cases = [
        ("memory_wakeup", json!({"taks": "retry"}), "taks"),
        (
            "memory_search",
            json!({"query": "retry", "limt": 5}),
            "limt",
        ),
        ("memory_get", json!({"id": "ADR-008", "start": 2}), "start"),
        (
            "memory_explain",
            json!({"cwd": ".", "verbose": true}),
            "verbose",
        ),
        ("memory_list", json!({"type": "decision"}), "type"),
        (
            "memory_write",
            json!({"slug": "x", "body": "y", "dryrun": true}),
            "dryrun",
        ),
        ("memory_pin", json!({"slug": "x", "unpin": true}), "unpin"),
    ];
    for (i, (tool, args, key)) in cases.iter().enumerate() {
        let id = 10 + i64::try_from(i).unwrap();
        s.check(
            &call(id, tool, args.clone()),
            &Expect::Error(-32602, json!(id), key),
        );
    }
    // A key that is a credential is echoed redacted (message and data).
    let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let r = s.check(
        &call(20, "memory_search", json!({"query": "retry", token: 1})),
        &Expect::Error(-32602, json!(20), "[redacted:"),
    );
    assert!(!r.to_string().contains(&token[4..20]), "{r}");
    // So is a method name rmcp does not know, and a value serde could not read
    // (their words are rmcp's and serde's, not cairn's).
    s.send(&json!({"jsonrpc": "2.0", "id": 21, "method": token}).to_string());
    let r = s.next();
    assert_eq!(r["id"], 21, "{r}");
    assert!(r.get("error").is_some(), "{r}");
    assert!(!r.to_string().contains(&token[4..20]), "{r}");
    s.send(&call(
        22,
        "memory_search",
        json!({"query": "retry", "limit": token}),
    ));
    let r = s.next();
    assert_eq!(r["id"], 22, "{r}");
    assert!(!r.to_string().contains(&token[4..20]), "{r}");
    // Known arguments still work.
    let r = s.check(
        &call(
            30,
            "memory_get",
            json!({"id": "ADR-008", "start_line": 1, "end_line": 3}),
        ),
        &Expect::Result(30),
    );
    assert_ne!(r["result"]["isError"], true, "{r}");
    s.finish();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn write_refusals_are_worded_for_the_agent() {
    let work = tempfile::tempdir().unwrap();
    let vault = work.path().join("demo");
    copy_dir(&demo(), &vault);
    let mut s = Server::start(&vault.join("cairn.toml"));
    s.check(&initialize(1), &Expect::Result(1));
    let write = |id: i64, body: &str| {
        call(
            id,
            "memory_write",
            json!({"slug": "retry-budget", "body": body, "scope": "user"}),
        )
    };
    let first = s.check(&write(2, "Retry payouts five times."), &Expect::Result(2));
    assert_ne!(first["result"]["isError"], true, "{first}");
    // (call, what the refusal must say)
    let cases = [
        (write(3, "Something else."), "already exists"),
        (
            call(
                4,
                "memory_write",
                json!({"slug": "ci", "body": "token ghp_0123456789abcdefghijABCDEFGHIJ012345", "scope": "user"}),
            ),
            "credential",
        ),
        (
            call(
                5,
                "memory_write",
                json!({"slug": "retry-budget", "body": "x", "mode": "replace", "scope": "user", "expect_hash": "0000000000000000"}),
            ),
            "changed since you read it",
        ),
    ];
    for (line, says) in &cases {
        let id = serde_json::from_str::<Value>(line).unwrap()["id"]
            .as_i64()
            .unwrap();
        let r = s.check(line, &Expect::Result(id));
        assert_eq!(r["result"]["isError"], true, "{r}");
        let text = tool_text(&r);
        assert!(text.contains(says), "{text}");
        assert_eq!(text.matches("refused").count(), 1, "doubled: {text}");
        assert!(!text.contains("--"), "points at a CLI flag: {text}");
        assert!(!text.contains("ghp_0123456789"), "{text}");
    }
    s.finish();
}

fn request(id: i64, method: &str, params: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// Bytes of a tool answer's structured content (as JSON) over the bytes of its text.
fn size_ratio(r: &Value) -> f64 {
    let structured = serde_json::to_string(&r["result"]["structuredContent"]).unwrap();
    let text = tool_text(r);
    assert!(!text.is_empty(), "{r}");
    #[allow(clippy::cast_precision_loss)]
    let ratio = structured.len() as f64 / text.len() as f64;
    ratio
}

/// Codex, Claude Code and opencode give the model the structured content instead of
/// the text: it must carry the briefing and stay about its size (at most 1.2×).
#[test]
fn a_wakeup_s_structured_content_is_at_most_1_2_times_its_text() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut ratios: Vec<(f64, String)> = Vec::new();
    // The demo vault, and the devmem suite's every query from its own directory.
    let mut runs: Vec<(PathBuf, Vec<(String, String)>)> = Vec::new();
    let ledger = fixtures.join("demo/repos/ledger");
    runs.push((
        fixtures.join("demo/cairn.toml"),
        [
            "",
            "add retry to payout settlement",
            "kafka outbox events",
            "restore postgres",
        ]
        .iter()
        .map(|t| (ledger.display().to_string(), (*t).to_owned()))
        .collect(),
    ));
    let devmem = fixtures.join("devmem");
    let queries = std::fs::read_to_string(devmem.join("queries.jsonl")).unwrap();
    let mut tasks: Vec<(String, String)> = queries
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|q| {
            let cwd = devmem
                .join(q["cwd"].as_str().unwrap_or("."))
                .display()
                .to_string();
            // Retrieval queries have a `query`, packet tasks a `task`.
            let task = q["query"].as_str().or_else(|| q["task"].as_str())?;
            Some((cwd, task.to_owned()))
        })
        .collect();
    for repo in ["tidewater", "quarry", "kestrel", "brindle"] {
        tasks.push((
            devmem.join("repos").join(repo).display().to_string(),
            String::new(),
        ));
    }
    assert!(tasks.len() > 150, "{}", tasks.len());
    runs.push((devmem.join("cairn.toml"), tasks));
    for (config, tasks) in &runs {
        let mut s = Server::start(config);
        s.check(&initialize(1), &Expect::Result(1));
        for (i, (cwd, task)) in tasks.iter().enumerate() {
            let id = 10 + i64::try_from(i).unwrap();
            let r = s.check(
                &call(id, "memory_wakeup", json!({"cwd": cwd, "task": task})),
                &Expect::Result(id),
            );
            assert_ne!(r["result"]["isError"], true, "{r}");
            let structured = &r["result"]["structuredContent"];
            assert_eq!(structured["text"].as_str(), Some(tool_text(&r).as_str()));
            assert!(
                structured.get("packet").is_none(),
                "the packet only when asked"
            );
            ratios.push((size_ratio(&r), format!("{}: {task}", config.display())));
        }
        s.finish();
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (max, worst) = ratios.last().unwrap();
    let median = ratios[ratios.len() / 2].0;
    eprintln!(
        "wakeup structured/text bytes over {} briefings: median {median:.3}, max {max:.3} ({worst})",
        ratios.len()
    );
    assert!(*max <= 1.2, "{max:.3}: {worst}");
}

#[test]
fn no_resource_prompt_or_tool_answer_shows_a_secret() {
    let mut s = Server::start(&demo().join("cairn.toml"));
    s.check(&initialize(1), &Expect::Result(1));
    // Each answer, with what its request sent (a refusal may echo the request).
    let mut answers: Vec<(Value, String)> = Vec::new();
    let mut id = 10;
    let mut next_id = || {
        id += 1;
        id
    };
    // Every resource, page by page, and each one read.
    let mut uris = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let n = next_id();
        let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
        let r = s.check(&request(n, "resources/list", &params), &Expect::Result(n));
        for res in r["result"]["resources"].as_array().unwrap() {
            uris.push(res["uri"].as_str().unwrap().to_owned());
        }
        cursor = r["result"]["nextCursor"].as_str().map(str::to_owned);
        answers.push((r, String::new()));
        if cursor.is_none() {
            break;
        }
    }
    assert!(uris.len() > 40, "{}", uris.len());
    for uri in &uris {
        let n = next_id();
        let r = s.check(
            &request(n, "resources/read", &json!({"uri": uri})),
            &Expect::Result(n),
        );
        assert_eq!(r["result"]["contents"][0]["mimeType"], "text/markdown");
        answers.push((r, String::new()));
    }
    // The secret and confidential notes by every URI form: one "missing" error.
    let mut refusals = std::collections::BTreeSet::new();
    for id_ in [
        "10-Projects/ledger/Production database access",
        "10-Projects/ledger/Production%20database%20access",
        "10-Projects%2Fhearth%2FBreak-glass%20access",
        "10-Projects/ledger/Vendor contract - Northwind Payments renewal",
        "Production database access",
        "10-Projects/ledger/No such note",
    ] {
        let n = next_id();
        let uri = format!("cairn://note/{id_}");
        let r = s.check(
            &request(n, "resources/read", &json!({"uri": uri})),
            &Expect::Error(-32002, json!(n), "no readable note"),
        );
        let message = r["error"]["message"].as_str().unwrap().replace(&uri, "URI");
        refusals.insert(message);
        answers.push((r, uri));
    }
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    for (method, params) in [
        ("resources/templates/list", json!({})),
        ("prompts/list", json!({})),
        (
            "prompts/get",
            json!({"name": "wakeup", "arguments": {"task": "production database access credentials break-glass"}}),
        ),
        (
            "prompts/get",
            json!({"name": "recent", "arguments": {"limit": "100"}}),
        ),
    ] {
        let n = next_id();
        let r = s.check(&request(n, method, &params), &Expect::Result(n));
        answers.push((r, params.to_string()));
    }
    // Every tool that reads, asked about the secret notes.
    let ask = "production database access credentials break-glass vendor contract";
    for (tool, args) in [
        ("memory_wakeup", json!({"task": ask})),
        ("memory_wakeup", json!({"task": ask, "format": "json"})),
        (
            "memory_search",
            json!({"query": ask, "all": true, "limit": 50}),
        ),
        ("memory_explain", json!({"task": ask, "format": "json"})),
        ("memory_list", json!({"limit": 500})),
        ("memory_recent", json!({"limit": 100})),
        ("memory_get", json!({"id": "Restore Postgres from restic"})),
        (
            "memory_get",
            json!({"id": "10-Projects/ledger/Production database access.md"}),
        ),
    ] {
        let n = next_id();
        let r = s.check(&call(n, tool, args.clone()), &Expect::Result(n));
        answers.push((r, args.to_string()));
    }
    s.finish();
    for (answer, sent) in &answers {
        let mut shown = answer.to_string();
        // What the request itself said may come back (a task, a refused id).
        let sent: Value = serde_json::from_str(sent).unwrap_or(Value::String(sent.clone()));
        let mut echoes = Vec::new();
        collect_strings(&sent, &mut echoes);
        for echo in echoes.iter().filter(|e| !e.is_empty()) {
            shown = shown.replace(echo.as_str(), "");
        }
        for canary in DEMO_CANARIES.iter() {
            assert!(!shown.contains(canary), "{canary} leaked: {shown}");
        }
    }
}

fn collect_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

/// An MCP-only setup (no hooks, no `cairn index`) gets "code changed since"
/// marks too: a `memory_wakeup` that finds the project's git history not read
/// answers at once, then the server reads the history on a thread of its own,
/// and later wake-ups mark the notes whose files changed.
#[test]
fn an_mcp_server_reads_an_unread_git_history_after_answering() {
    let (_dir, config, repo) = crate::git_task::held_out("[index]\ndir = \"index\"\n");
    crate::git_task::main_at_branch_tip(&repo);
    let index_dir = config.parent().unwrap().join("index");
    let mut s = Server::start(&config);
    s.check(&initialize(1), &Expect::Result(1));
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
    let cwd = repo.to_str().unwrap();
    let first = s.check(
        &call(2, "memory_wakeup", json!({"cwd": cwd})),
        &Expect::Result(2),
    );
    assert!(tool_text(&first).contains("derived from git"), "{first}");
    // The thread writes the history beside the index.
    let waited = crate::git_task::await_history(&index_dir);
    let mut id = 3;
    let text = loop {
        let r = s.check(
            &call(
                id,
                "memory_wakeup",
                json!({"cwd": cwd, "task": "payout batch lock", "format": "json"}),
            ),
            &Expect::Result(id),
        );
        let text = tool_text(&r);
        if text.contains("changed in 1 commit since") || waited.elapsed() > Duration::from_secs(120)
        {
            break text;
        }
        id += 1;
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        text.contains("src/payout/batch.rs changed in 1 commit since"),
        "{text}"
    );
    s.finish();
}

/// The MCP server's engine lives on: a `memory_wakeup` that finds the vault's
/// git history never read (no `cairn index` yet) has it read on a thread of
/// the server's own, and the engine opens again once it is there (its notes'
/// dates are set as they are read), so a later wake-up's undated notes are
/// dated by their last commits. Before, only a project's history was read, and
/// an engine that had dated its notes without one kept them so.
#[test]
fn an_mcp_server_dates_notes_by_the_vaults_history_once_read() {
    let (_dir, root, config, toml) = crate::git_task::cloned_vault();
    std::fs::write(&config, format!("{toml}[index]\ndir = \"index\"\n")).unwrap();
    let mut s = Server::start(&config);
    s.check(&initialize(1), &Expect::Result(1));
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
    let cwd = root.to_str().unwrap();
    let first_note = |r: &Value| -> Value {
        r["result"]["structuredContent"]["packet"]["recommended_notes"][0].clone()
    };
    let first = s.check(
        &call(2, "memory_wakeup", json!({"cwd": cwd, "format": "json"})),
        &Expect::Result(2),
    );
    assert_eq!(first_note(&first)["path"], "alpha.md", "{first}");
    // Polled: a generous guard, not a timing assertion.
    let waited = std::time::Instant::now();
    let mut id = 3;
    let dated = loop {
        let r = s.check(
            &call(id, "memory_wakeup", json!({"cwd": cwd, "format": "json"})),
            &Expect::Result(id),
        );
        let note = first_note(&r);
        if note["path"] == "bravo.md" || waited.elapsed() > Duration::from_secs(120) {
            break note;
        }
        id += 1;
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(dated["path"], "bravo.md", "{dated}");
    assert_eq!(dated["date"], "2025-09-20", "{dated}");
    s.finish();
}
