//! Running a configured hook command the way its client would: through the shell, a
//! sample payload on stdin, a timeout, and the envelope checked (the session start's,
//! or the prompt hook's, which may also print nothing).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::Client;
use crate::session::NOTICE_PREFIX;

/// The result of running a hook once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The envelope parsed and carried a packet.
    pub ok: bool,
    /// Wall time.
    pub elapsed: Duration,
    /// Exit code (`None`: killed or not started).
    pub exit_code: Option<i32>,
    /// Characters of context delivered.
    pub context_chars: usize,
    /// One line: what happened.
    pub message: String,
}

/// What running a command once gave.
struct Ran {
    elapsed: Duration,
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs `command` through the shell in `cwd` with `payload` on stdin, killing it
/// after `timeout`; a failure to run it is the [`Probe`] to report.
fn run(command: &str, cwd: &Path, payload: &str, timeout: Duration) -> Result<Ran, Probe> {
    let start = Instant::now();
    let failed = |message: String, exit_code: Option<i32>| Probe {
        ok: false,
        elapsed: start.elapsed(),
        exit_code,
        context_chars: 0,
        message,
    };
    let mut cmd = shell(command);
    cmd.current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Err(failed(format!("cannot start the shell: {e}"), None)),
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A hook that does not read its input is fine: ignore a closed pipe.
        let _ = stdin.write_all(payload.as_bytes());
    }
    let stdout = child.stdout.take().map(reader);
    let stderr = child.stderr.take().map(reader);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(failed(format!("cannot wait for the hook: {e}"), None)),
        }
    };
    let elapsed = start.elapsed();
    let Some(status) = status else {
        return Err(Probe {
            elapsed,
            ..failed(
                format!("killed after {} ms without an answer", timeout.as_millis()),
                None,
            )
        });
    };
    // A grandchild may still hold the pipes open: wait for the output only briefly.
    let collect = |rx: Option<mpsc::Receiver<String>>| {
        rx.and_then(|rx| rx.recv_timeout(Duration::from_secs(1)).ok())
            .unwrap_or_default()
    };
    let out = collect(stdout);
    let err = collect(stderr);
    let code = status.code();
    if code != Some(0) {
        let last = err.lines().last().unwrap_or("").trim().to_owned();
        return Err(Probe {
            elapsed,
            ..failed(format!("exited with {code:?}: {last}"), code)
        });
    }
    Ok(Ran {
        elapsed,
        code,
        out,
        err,
    })
}

/// Runs `command` with `client`'s sample payload for `cwd`, killing it after `timeout`.
pub fn probe(client: Client, command: &str, cwd: &Path, timeout: Duration) -> Probe {
    let payload = client.sample_payload(cwd, "startup");
    let Ran {
        elapsed,
        code,
        out,
        err,
    } = match run(command, cwd, &payload, timeout) {
        Ok(r) => r,
        Err(p) => return p,
    };
    let failed = |message: String| Probe {
        ok: false,
        elapsed,
        exit_code: code,
        context_chars: 0,
        message,
    };
    match client.read_envelope(&out) {
        Ok(context) if context.starts_with(NOTICE_PREFIX) => {
            // The reason is for the user: cairn's last stderr line, else the
            // envelope's systemMessage, else the context itself.
            let reason = err
                .lines()
                .rev()
                .find_map(|l| l.strip_prefix("cairn: hook: "))
                .map(str::to_owned)
                .or_else(|| client.read_system_message(&out))
                .unwrap_or_else(|| context.clone());
            Probe {
                ok: false,
                elapsed,
                exit_code: code,
                context_chars: context.chars().count(),
                message: format!("runs, but delivers a notice: {reason}"),
            }
        }
        Ok(context) => Probe {
            ok: true,
            elapsed,
            exit_code: code,
            context_chars: context.chars().count(),
            message: format!(
                "runs: {} characters of memory in a valid {} envelope, {} ms",
                context.chars().count(),
                client.display_name(),
                elapsed.as_millis()
            ),
        },
        Err(e) => failed(format!("the output would not reach the model: {e}")),
    }
}

/// The prompt the status check sends a prompt hook.
pub const SAMPLE_PROMPT: &str = "what did we decide about this project?";

/// Runs a prompt hook `command` with `client`'s sample prompt payload for `cwd`: it
/// works when it exits 0 with either nothing on stdout (no note matched) or one valid
/// envelope, and says nothing on stderr (a failure's one line).
pub fn probe_prompt(client: Client, command: &str, cwd: &Path, timeout: Duration) -> Probe {
    let payload = client.sample_prompt_payload(cwd, "cairn-status-check", SAMPLE_PROMPT);
    let Ran {
        elapsed,
        code,
        out,
        err,
    } = match run(command, cwd, &payload, timeout) {
        Ok(r) => r,
        Err(p) => return p,
    };
    let reason = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("cairn: hook: "))
        .map(str::to_owned);
    match (client.read_prompt_envelope(&out), reason) {
        (Ok(_), Some(reason)) => Probe {
            ok: false,
            elapsed,
            exit_code: code,
            context_chars: 0,
            message: format!("runs, but fails: {reason}"),
        },
        (Ok(context), None) => {
            let chars = context.as_deref().map_or(0, |c| c.chars().count());
            Probe {
                ok: true,
                elapsed,
                exit_code: code,
                context_chars: chars,
                message: match context {
                    Some(_) => format!(
                        "runs: {chars} characters of notes for a sample prompt, {} ms",
                        elapsed.as_millis()
                    ),
                    None => format!(
                        "runs: no note matched a sample prompt (nothing added), {} ms",
                        elapsed.as_millis()
                    ),
                },
            }
        }
        (Err(e), _) => Probe {
            ok: false,
            elapsed,
            exit_code: code,
            context_chars: 0,
            message: format!("the output would not reach the model: {e}"),
        },
    }
}

fn reader(mut r: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
    });
    rx
}

#[cfg(unix)]
fn shell(command: &str) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c").arg(command);
    c
}

#[cfg(not(unix))]
fn shell(command: &str) -> Command {
    let mut c = Command::new("cmd");
    c.arg("/C").arg(command);
    c
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn run(cmd: &str, client: Client) -> Probe {
        probe(client, cmd, Path::new("/"), Duration::from_secs(10))
    }

    #[test]
    fn judges_what_a_client_would_see() {
        let good = r#"printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hello"}}'"#;
        let p = run(good, Client::Claude);
        assert!(p.ok, "{p:?}");
        assert_eq!(p.context_chars, 5);

        let p = run(good, Client::Cursor);
        assert!(!p.ok && p.message.contains("would not reach"), "{p:?}");

        let p = run("echo oops >&2; exit 3", Client::Claude);
        assert!(
            !p.ok && p.exit_code == Some(3) && p.message.contains("oops"),
            "{p:?}"
        );

        let p = run("echo '{\"hookSpecificOutput\"'", Client::Codex);
        assert!(!p.ok && p.message.contains("not one JSON object"), "{p:?}");

        let notice =
            format!(r#"printf '%s\n' '{{"additional_context":"{NOTICE_PREFIX}: broken"}}'"#);
        let p = run(&notice, Client::Cursor);
        assert!(!p.ok && p.message.contains("notice"), "{p:?}");

        // The reason a notice gives the user is what status reports.
        let notice = format!(
            r#"echo 'cairn: hook: config is broken' >&2; printf '%s\n' '{{"additional_context":"{NOTICE_PREFIX}."}}'"#
        );
        let p = run(&notice, Client::Cursor);
        assert!(
            !p.ok && p.message.ends_with("notice: config is broken"),
            "{p:?}"
        );
        let notice = format!(
            r#"printf '%s\n' '{{"systemMessage":"vault missing","hookSpecificOutput":{{"hookEventName":"SessionStart","additionalContext":"{NOTICE_PREFIX}."}}}}'"#
        );
        let p = run(&notice, Client::Codex);
        assert!(
            !p.ok && p.message.ends_with("notice: vault missing"),
            "{p:?}"
        );
    }

    #[test]
    fn judges_a_prompt_hook() {
        let run =
            |cmd: &str| probe_prompt(Client::Gemini, cmd, Path::new("/"), Duration::from_secs(10));
        let p = run("cat > /dev/null");
        assert!(p.ok && p.message.contains("no note matched"), "{p:?}");
        let p = run(
            r#"cat > /dev/null; printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"notes"}}'"#,
        );
        assert!(p.ok && p.context_chars == 5, "{p:?}");
        let p = run("echo 'cairn: hook: prompt hook: broken config' >&2");
        assert!(
            !p.ok && p.message.ends_with("fails: prompt hook: broken config"),
            "{p:?}"
        );
        let p = run(
            r#"printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"x"}}'"#,
        );
        assert!(!p.ok && p.message.contains("would not reach"), "{p:?}");
    }

    #[test]
    fn a_hanging_hook_is_killed() {
        let p = probe(
            Client::Claude,
            "sleep 30",
            Path::new("/"),
            Duration::from_millis(200),
        );
        assert!(!p.ok && p.message.contains("killed"), "{p:?}");
        assert!(p.elapsed < Duration::from_secs(20));
    }
}
