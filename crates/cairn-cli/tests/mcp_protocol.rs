//! `cairn mcp` fed raw lines through the real binary: bad input at the protocol
//! edge gets a JSON-RPC error and the server keeps running. Garbage and half
//! objects get -32700 (id null); requests before `initialize` get -32600; unknown
//! argument names get -32602 naming the key; tool errors are worded for the
//! agent (no doubled prefix, no CLI flags); and a valid request still succeeds
//! after each of them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
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

fn demo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo")
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
