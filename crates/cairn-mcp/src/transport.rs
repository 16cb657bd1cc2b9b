//! The stdio transport: every line from the client is checked before rmcp sees it,
//! so bad input gets a JSON-RPC error and the server keeps running.
//!
//! rmcp's own stdio transport drops unparsable lines silently and ends the session
//! when anything but `initialize` comes first. Here:
//!
//! - a line that is not JSON gets `-32700` (parse error, `"id": null`);
//! - JSON that is not a client message gets `-32600` (invalid request), or `-32602`
//!   (invalid params) when it names a method, with the request's id when one can be
//!   read; a broken notification gets nothing, as JSON-RPC wants;
//! - before the server has answered `initialize`, any other request gets `-32600`
//!   saying so (`ping`, `server/discover` and requests that carry the 2026-07-28
//!   inline lifecycle metadata pass, as rmcp allows), and notifications and
//!   responses are dropped instead of ending the session;
//! - a line over [`MAX_LINE_BYTES`] is skipped with a parse error.
//!
//! Lines are read on their own task, so [`Transport::receive`] only waits on a
//! channel (cancel-safe). Every outgoing message is one whole line written under a
//! lock, so error replies never interleave with rmcp's answers.

use std::collections::VecDeque;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, GetMeta, JsonRpcMessage, ProtocolVersion,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt,
};
use tokio::sync::{Mutex, mpsc};

/// The longest line read as one message (rmcp's own default).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The requests of the MCP specification a client sends (rmcp parses each into its
/// own type when its params fit).
const STANDARD_REQUESTS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/templates/list",
    "subscriptions/listen",
    "tools/call",
    "tools/list",
];

/// What a line from the client becomes.
#[derive(Debug)]
pub enum Checked {
    /// A client message, for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// An error response to write back (one JSON line, newline included).
    Reply(Vec<u8>),
    /// Nothing to do: a blank line or a notification that cannot be read.
    Skip,
}

/// Checks one line (without its newline): JSON, then a client message.
pub fn check_line(line: &[u8]) -> Checked {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Checked::Skip;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return Checked::Reply(error_line(
                ErrorCode::PARSE_ERROR,
                &format!("Parse error: the message is not JSON ({e})"),
                Value::Null,
            ));
        }
    };
    match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(JsonRpcMessage::Request(req))
            if matches!(&req.request, ClientRequest::CustomRequest(c)
                if STANDARD_REQUESTS.contains(&c.method.as_str())) =>
        {
            // rmcp keeps a standard request whose params do not fit its type as a
            // custom one, and would answer "method not found".
            Checked::Reply(error_line(
                ErrorCode::INVALID_PARAMS,
                &format!(
                    "Invalid params for `{}`: they do not match the method's parameters",
                    req.request.method()
                ),
                serde_json::to_value(&req.id).unwrap_or(Value::Null),
            ))
        }
        Ok(msg) => Checked::Message(Box::new(msg)),
        Err(e) => {
            let obj = value.as_object();
            let id = obj.and_then(|o| o.get("id"));
            // A notification never gets an answer, even a broken one.
            if obj.is_some() && id.is_none() {
                return Checked::Skip;
            }
            let id = id
                .filter(|v| v.is_string() || v.is_number())
                .cloned()
                .unwrap_or(Value::Null);
            // Any method name parses (rmcp keeps unknown ones as custom requests),
            // so a request with one failed on its params.
            match obj.and_then(|o| o.get("method")).and_then(Value::as_str) {
                Some(method) if !id.is_null() => Checked::Reply(error_line(
                    ErrorCode::INVALID_PARAMS,
                    &format!("Invalid params for `{method}` ({e})"),
                    id,
                )),
                _ => Checked::Reply(error_line(
                    ErrorCode::INVALID_REQUEST,
                    &format!("Invalid request: not a JSON-RPC 2.0 message of an MCP client ({e})"),
                    id,
                )),
            }
        }
    }
}

/// What the lifecycle gate does with a message.
#[derive(Debug)]
pub enum Gate {
    /// Hand it to rmcp.
    Pass(Box<ClientJsonRpcMessage>),
    /// Refuse it with this error line.
    Refuse(Vec<u8>),
    /// Drop it silently.
    Drop,
}

/// The message before the server has answered `initialize`: requests other than
/// `initialize`, `ping` and `server/discover` are refused unless they carry the
/// inline lifecycle metadata; notifications and responses are dropped. The second
/// value says the request opens a session without `initialize` (2026-07-28).
pub fn gate_before_initialize(msg: ClientJsonRpcMessage) -> (Gate, bool) {
    match msg {
        JsonRpcMessage::Request(req) => match &req.request {
            ClientRequest::InitializeRequest(_)
            | ClientRequest::PingRequest(_)
            | ClientRequest::DiscoverRequest(_) => {
                (Gate::Pass(Box::new(JsonRpcMessage::Request(req))), false)
            }
            other => {
                let meta = other.get_meta();
                if meta.protocol_version().is_some()
                    && meta
                        .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                        .is_empty()
                {
                    return (Gate::Pass(Box::new(JsonRpcMessage::Request(req))), true);
                }
                let id = serde_json::to_value(&req.id).unwrap_or(Value::Null);
                (
                    Gate::Refuse(error_line(
                        ErrorCode::INVALID_REQUEST,
                        "Server not initialized: send an `initialize` request first and wait for its answer",
                        id,
                    )),
                    false,
                )
            }
        },
        _ => (Gate::Drop, false),
    }
}

/// One JSON-RPC error response as a line. Written by hand so that `id` can be
/// `null`, as JSON-RPC 2.0 asks of a parse error (rmcp's type omits it).
fn error_line(code: ErrorCode, message: &str, id: Value) -> Vec<u8> {
    let v = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code.0, "message": message },
    });
    let mut out = v.to_string().into_bytes();
    out.push(b'\n');
    out
}

type Writer<W> = Arc<Mutex<W>>;

async fn write_line<W: AsyncWrite + Unpin>(writer: &Writer<W>, line: &[u8]) -> std::io::Result<()> {
    let mut w = writer.lock().await;
    w.write_all(line).await?;
    w.flush().await
}

/// Outcome of reading one line.
enum Read {
    /// A whole line (newline included, or the last bytes before end of input).
    Line,
    /// Longer than the limit; skipped up to its newline.
    TooLong,
    /// End of input.
    End,
}

async fn read_line<R: AsyncBufRead + Unpin>(
    r: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Read> {
    buf.clear();
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    let n = (&mut *r).take(limit).read_until(b'\n', buf).await?;
    if n == 0 {
        return Ok(Read::End);
    }
    if buf.last() == Some(&b'\n') || buf.len() <= max {
        return Ok(Read::Line);
    }
    buf.clear();
    loop {
        let n = (&mut *r).take(64 * 1024).read_until(b'\n', buf).await?;
        if n == 0 || buf.last() == Some(&b'\n') {
            buf.clear();
            return Ok(Read::TooLong);
        }
        buf.clear();
    }
}

/// Reads lines until end of input, answering the bad ones and passing the rest on.
async fn pump<R, W>(
    read: R,
    writer: Writer<W>,
    tx: mpsc::UnboundedSender<ClientJsonRpcMessage>,
    max: usize,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = tokio::io::BufReader::new(read);
    let mut buf = Vec::new();
    loop {
        let checked = match read_line(&mut reader, &mut buf, max).await {
            Ok(Read::End) | Err(_) => return,
            Ok(Read::TooLong) => Checked::Reply(error_line(
                ErrorCode::PARSE_ERROR,
                &format!("Parse error: the message is longer than {max} bytes"),
                Value::Null,
            )),
            Ok(Read::Line) => {
                let line = buf.strip_suffix(b"\n").unwrap_or(&buf);
                check_line(line)
            }
        };
        match checked {
            Checked::Message(m) => {
                if tx.send(*m).is_err() {
                    return;
                }
            }
            Checked::Reply(line) => {
                if write_line(&writer, &line).await.is_err() {
                    return;
                }
            }
            Checked::Skip => {}
        }
    }
}

/// Redacts the strings of an error message: `error.message` and `error.data`, or
/// a tool error result's `result.content`.
fn redact_error(v: &mut serde_json::Value) {
    fn strings(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::String(s) => {
                let r = cairn_policy::redact(s);
                if r.count > 0 {
                    *s = r.text.into_owned();
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strings),
            serde_json::Value::Object(o) => o.values_mut().for_each(strings),
            _ => {}
        }
    }
    if let Some(e) = v.get_mut("error") {
        strings(e);
    }
    if let Some(c) = v.get_mut("result").and_then(|r| r.get_mut("content")) {
        strings(c);
    }
}

/// cairn's stdio transport for the MCP server (see the module docs).
pub struct CheckedStdio<W> {
    writer: Writer<W>,
    incoming: mpsc::UnboundedReceiver<ClientJsonRpcMessage>,
    initialized: bool,
    refusals: VecDeque<Vec<u8>>,
}

impl<W> std::fmt::Debug for CheckedStdio<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckedStdio")
            .field("initialized", &self.initialized)
            .finish_non_exhaustive()
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> CheckedStdio<W> {
    /// Reads from `read` (on a task of the current runtime) and writes to `write`.
    pub fn new<R: AsyncRead + Unpin + Send + 'static>(read: R, write: W) -> Self {
        Self::with_max_line(read, write, MAX_LINE_BYTES)
    }

    /// Like [`CheckedStdio::new`], with another line limit.
    pub fn with_max_line<R: AsyncRead + Unpin + Send + 'static>(
        read: R,
        write: W,
        max_line: usize,
    ) -> Self {
        let writer = Arc::new(Mutex::new(write));
        let (tx, incoming) = mpsc::unbounded_channel();
        tokio::spawn(pump(read, writer.clone(), tx, max_line));
        Self {
            writer,
            incoming,
            initialized: false,
            refusals: VecDeque::new(),
        }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for CheckedStdio<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let JsonRpcMessage::Response(r) = &item
            && matches!(r.result, ServerResult::InitializeResult(_))
        {
            self.initialized = true;
        }
        // An error (a JSON-RPC error, or a tool's error result) may echo what the
        // caller sent, in words rmcp or serde wrote (an unknown method's name,
        // "invalid type: string ..."): its strings pass the redactor like every
        // other text that leaves cairn. Other messages are cairn's own, already
        // redacted where they are made.
        let is_error = match &item {
            JsonRpcMessage::Error(_) => true,
            JsonRpcMessage::Response(r) => {
                matches!(&r.result, ServerResult::CallToolResult(c) if c.is_error == Some(true))
            }
            _ => false,
        };
        let line = if is_error {
            serde_json::to_value(&item).and_then(|mut v| {
                redact_error(&mut v);
                serde_json::to_vec(&v)
            })
        } else {
            serde_json::to_vec(&item)
        }
        .map(|mut v| {
            v.push(b'\n');
            v
        });
        let writer = self.writer.clone();
        async move {
            let line = line.map_err(std::io::Error::other)?;
            write_line(&writer, &line).await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            // A refusal is written before the next message is read; one cut
            // short by cancellation stays queued.
            while let Some(line) = self.refusals.front() {
                if write_line(&self.writer, line).await.is_err() {
                    return None;
                }
                self.refusals.pop_front();
            }
            let msg = self.incoming.recv().await?;
            if self.initialized {
                return Some(msg);
            }
            match gate_before_initialize(msg) {
                (Gate::Pass(m), opens) => {
                    self.initialized |= opens;
                    return Some(*m);
                }
                (Gate::Refuse(line), _) => self.refusals.push_back(line),
                (Gate::Drop, _) => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        self.writer.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &[u8]) -> Value {
        match check_line(line) {
            Checked::Reply(r) => serde_json::from_slice(&r).unwrap(),
            other => panic!("{}: {other:?}", String::from_utf8_lossy(line)),
        }
    }

    #[test]
    fn each_line_is_checked() {
        // (line, what it becomes: "message", "skip" or the error code and id)
        let cases: &[(&str, &str)] = &[
            ("", "skip"),
            ("   \r", "skip"),
            ("garbage", "-32700 null"),
            ("{\"jsonrpc\":\"2.0\",\"id\":1,", "-32700 null"),
            ("{} {}", "-32700 null"),
            (
                "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
                "message",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
                "message",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "message",
            ),
            ("[1,2]", "-32600 null"),
            ("42", "-32600 null"),
            ("{\"id\":7}", "-32600 7"),
            // A method rmcp does not know is its to answer (method not found).
            (
                "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"vendor/x\",\"params\":{}}",
                "message",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
                "-32602 8",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":[]}",
                "-32602 9",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":5,\"error\":{}}",
                "-32600 \"a\"",
            ),
            // A notification rmcp does not know is its to ignore; a broken one
            // gets no answer.
            (
                "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\"}",
                "message",
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/vendor/x\"}",
                "message",
            ),
            ("{\"jsonrpc\":\"2.0\",\"method\":7}", "skip"),
            ("{\"jsonrpc\":\"2.0\"}", "skip"),
        ];
        for (line, expect) in cases {
            let got = match check_line(line.as_bytes()) {
                Checked::Message(_) => "message".to_owned(),
                Checked::Skip => "skip".to_owned(),
                Checked::Reply(_) => {
                    let v = reply(line.as_bytes());
                    assert_eq!(v["jsonrpc"], "2.0");
                    assert!(
                        v["error"]["message"]
                            .as_str()
                            .is_some_and(|m| !m.is_empty())
                    );
                    format!("{} {}", v["error"]["code"], v["id"])
                }
            };
            assert_eq!(&got, expect, "{line:?}");
        }
    }

    #[test]
    fn a_parse_error_has_a_null_id_and_does_not_echo_the_input() {
        let v = reply(b"not json: SECRET-ish");
        assert!(v.as_object().unwrap().contains_key("id"));
        assert_eq!(v["id"], Value::Null);
        assert!(!v.to_string().contains("SECRET"));
    }

    fn message(line: &str) -> ClientJsonRpcMessage {
        match check_line(line.as_bytes()) {
            Checked::Message(m) => *m,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn before_initialize_only_the_lifecycle_passes() {
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        // (message, expected: "pass", "pass+open", "drop" or "refuse")
        let cases: &[(&str, &str)] = &[
            (init, "pass"),
            (r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, "pass"),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
                "refuse",
            ),
            (
                r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_get","arguments":{"id":"x"}}}"#,
                "refuse",
            ),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
                "pass+open",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "drop",
            ),
            (r#"{"jsonrpc":"2.0","id":9,"result":{}}"#, "drop"),
        ];
        for (line, expect) in cases {
            let got = match gate_before_initialize(message(line)) {
                (Gate::Pass(_), false) => "pass",
                (Gate::Pass(_), true) => "pass+open",
                (Gate::Drop, _) => "drop",
                (Gate::Refuse(r), _) => {
                    let v: Value = serde_json::from_slice(&r).unwrap();
                    assert_eq!(v["error"]["code"], -32600, "{line}");
                    assert!(
                        v["error"]["message"]
                            .as_str()
                            .unwrap()
                            .contains("initialize")
                    );
                    assert_ne!(v["id"], Value::Null, "{line}");
                    "refuse"
                }
            };
            assert_eq!(got, *expect, "{line}");
        }
    }

    #[tokio::test]
    async fn bad_lines_are_answered_and_good_ones_passed_on_in_order() {
        let (mut client, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, mut client_out) = tokio::io::duplex(1 << 16);
        let mut t = CheckedStdio::with_max_line(server_in, server_out, 64);
        let long = format!("{{\"x\":\"{}\"}}\n", "a".repeat(100));
        let input = format!(
            "garbage\n{long}{}\n{}\n",
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
        );
        client.write_all(input.as_bytes()).await.unwrap();
        drop(client);
        // tools/list is refused (not initialized), ping passes.
        let m = t.receive().await.unwrap();
        assert!(
            matches!(m, JsonRpcMessage::Request(ref r) if matches!(r.request, ClientRequest::PingRequest(_))),
            "{m:?}"
        );
        assert!(t.receive().await.is_none());
        drop(t);
        let mut out = String::new();
        client_out.read_to_string(&mut out).await.unwrap();
        let replies: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let codes: Vec<(i64, Value)> = replies
            .iter()
            .map(|v| (v["error"]["code"].as_i64().unwrap(), v["id"].clone()))
            .collect();
        assert_eq!(
            codes,
            [
                (-32700, Value::Null),
                (-32700, Value::Null),
                (-32600, Value::from(3))
            ]
        );
    }
}
