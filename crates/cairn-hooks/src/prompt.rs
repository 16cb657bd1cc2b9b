//! `cairn hook prompt`: the few notes that match the prompt the user just submitted
//! and that this session was not given yet, in the client's prompt-hook envelope
//! (Claude Code and Codex `UserPromptSubmit`, Gemini CLI `BeforeAgent`), within a
//! deadline, or nothing at all.
//!
//! ```text
//! t = 0            read the session's record (what it was given), start the build on a
//!                  worker: open the vault, Engine::prompt_notes (the prompt is the task,
//!                  redacted first; only notes past the absolute relevance gate)
//! t = deadline-ε   the notes in the envelope, and the record extended; else nothing
//! ```
//! Nothing qualifies, an empty prompt, an error, a late build: stdout stays empty (the
//! client adds nothing) and, for a failure, one line goes to stderr, for the user.
//! The prompt's text is never echoed, logged or stored.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use cairn_engine::{Format, OutputCaps, PromptNotes, PromptNotesRequest, Ranking, WakeupRequest};
use chrono::{DateTime, Utc};

use crate::client::Client;
use crate::input::HookInput;
use crate::record::SessionRecords;
use crate::session::EngineOpener;

/// The prompt hook's default deadline, in milliseconds.
pub const PROMPT_DEADLINE_MS: u64 = 300;

/// Most notes one prompt adds, by default.
pub const DEFAULT_MAX_NOTES: usize = 3;

/// Most characters one prompt adds, by default.
pub const DEFAULT_MAX_CHARS: usize = 1_200;

/// Time kept back from the deadline for writing the answer and the record.
const ANSWER_MARGIN: Duration = Duration::from_millis(15);

/// A prompt-hook request.
#[derive(Debug, Clone)]
pub struct PromptHook {
    /// The client (decides the envelope and the template).
    pub client: Client,
    /// The client's payload (its `prompt` is the task).
    pub input: HookInput,
    /// Used when the payload has no directory.
    pub fallback_cwd: PathBuf,
    /// Packet profile (default: `project` when a project matches, else `developer`).
    pub profile: Option<String>,
    /// "Now", for ranking (pinned to the day, as the session start's).
    pub now: DateTime<Utc>,
    /// Answer within this, counted from `started`.
    pub deadline: Duration,
    /// When the hook started.
    pub started: Instant,
    /// At most this many notes.
    pub max_notes: usize,
    /// At most this many characters.
    pub max_chars: usize,
    /// Where what each session was given is remembered (`None`: nowhere, so nothing
    /// is remembered and nothing is left out).
    pub records: Option<SessionRecords>,
}

/// The prompt hook's answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptOutcome {
    /// Exactly what goes to stdout: the envelope, or nothing.
    pub stdout: String,
    /// The ids of the notes given.
    pub given: Vec<String>,
    /// At most one line for stderr (redacted, one line), for the user.
    pub warning: Option<String>,
}

impl PromptHook {
    /// The engine request for this prompt, leaving out `given`.
    pub fn request(&self, given: BTreeSet<String>) -> PromptNotesRequest {
        PromptNotesRequest {
            wakeup: WakeupRequest {
                cwd: self
                    .input
                    .cwd
                    .clone()
                    .unwrap_or_else(|| self.fallback_cwd.clone()),
                project: None,
                task: self.input.prompt.clone().unwrap_or_default(),
                files: Vec::new(),
                profile: self.profile.clone(),
                target: self.client.target(),
                format: Format::Prompt,
                budget: None,
                now: self.now,
                ranking: Ranking::Full,
                source: cairn_engine::SessionSource::Startup,
                limit: Some(self.max_notes),
                caps: OutputCaps::default(),
            },
            given,
            max_notes: self.max_notes,
            max_chars: self.max_chars,
        }
    }
}

/// How long after its start the prompt hook has notes to answer with, for a
/// `deadline`: the deadline less the time kept for writing the answer and the
/// record.
pub fn answer_window(deadline: Duration) -> Duration {
    deadline.saturating_sub(ANSWER_MARGIN)
}

/// When the index open must be done for a prompt hook started at `started`
/// with `deadline`: half of the [`answer_window`], the other half for ranking.
pub fn open_deadline(started: Instant, deadline: Duration) -> cairn_engine::OpenDeadline {
    cairn_engine::OpenDeadline::for_hook(started, answer_window(deadline))
}

/// Runs the prompt hook. Never fails, and returns by `req.started + req.deadline`.
pub fn prompt_hook(req: PromptHook, open: EngineOpener) -> PromptOutcome {
    let warn = |w: String| PromptOutcome {
        warning: Some(crate::session::for_the_user(&w)),
        ..PromptOutcome::default()
    };
    if req.input.prompt.is_none() {
        // An empty prompt, or a payload without one: nothing to match, nothing to say
        // unless the payload itself was unreadable.
        return match &req.input.warning {
            Some(w) => warn(w.clone()),
            None => PromptOutcome::default(),
        };
    }
    if req.client.prompt_event().is_none() {
        return warn(format!(
            "{} has no prompt hook that adds context",
            req.client.display_name()
        ));
    }
    let session = req.input.session_id.clone();
    let given = match (&req.records, &session) {
        (Some(records), Some(id)) => records.given(id, SystemTime::now()),
        _ => BTreeSet::new(),
    };
    let engine_req = req.request(given);
    let (tx, rx) = mpsc::channel::<Result<PromptNotes, String>>();
    let spawned = std::thread::Builder::new()
        .name("cairn-hook".into())
        .spawn(move || {
            let r = open()
                .map_err(|e| e.to_string())
                .and_then(|engine| engine.prompt_notes(&engine_req).map_err(|e| e.to_string()));
            let _ = tx.send(r);
        });
    if let Err(e) = spawned {
        return warn(format!("prompt hook: cannot start a worker: {e}"));
    }
    let wait = answer_window(req.deadline).saturating_sub(req.started.elapsed());
    let notes = match rx.recv_timeout(wait) {
        Ok(Ok(notes)) => notes,
        Ok(Err(e)) => return warn(format!("prompt hook: {e}")),
        Err(_) => {
            return warn(format!(
                "prompt hook: no answer within {} ms; nothing added to this prompt",
                req.deadline.as_millis()
            ));
        }
    };
    if notes.ids.is_empty() {
        return PromptOutcome::default();
    }
    let mut warning = None;
    if let (Some(records), Some(id)) = (&req.records, &session)
        && let Err(e) = records.add(id, &notes.ids, SystemTime::now(), false)
    {
        warning = Some(crate::session::for_the_user(&e.to_string()));
    }
    PromptOutcome {
        stdout: req.client.prompt_envelope(&notes.rendered),
        given: notes.ids,
        warning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_engine::config::Config;
    use cairn_engine::{Engine, OpenOptions};

    fn vault() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write(
            "retry.md",
            "---\ntitle: Payout retry backoff\nmemory_type: decision\n---\nRetry payout submissions with capped exponential backoff.\n",
        );
        write(
            "kafka.md",
            "---\ntitle: Kafka consumer lag\nmemory_type: incident\n---\nConsumer lag on the settlement topic.\n",
        );
        write(
            "secret.md",
            "---\ntitle: Payout retry credentials\nsensitivity: secret\n---\nCANARY-PROMPT-SECRET payout retry backoff\n",
        );
        dir
    }

    fn req(dir: &std::path::Path, prompt: &str, records: Option<SessionRecords>) -> PromptHook {
        PromptHook {
            client: Client::Claude,
            input: HookInput::parse(
                Client::Claude
                    .sample_prompt_payload(dir, "s1", prompt)
                    .as_bytes(),
            ),
            fallback_cwd: dir.to_path_buf(),
            profile: None,
            now: crate::session::pinned_now(Utc::now()),
            deadline: Duration::from_secs(30),
            started: Instant::now(),
            max_notes: DEFAULT_MAX_NOTES,
            max_chars: DEFAULT_MAX_CHARS,
            records,
        }
    }

    fn opener(dir: &std::path::Path) -> EngineOpener {
        let dir = dir.to_path_buf();
        Box::new(move || {
            Ok(Engine::open(
                Config::for_vault(&dir)?,
                &OpenOptions::default(),
            )?)
        })
    }

    #[test]
    fn gives_matching_notes_once_and_nothing_off_topic() {
        let v = vault();
        let cache = tempfile::tempdir().unwrap();
        let records = SessionRecords::in_cache(cache.path());
        let out = prompt_hook(
            req(v.path(), "payout retry backoff", Some(records.clone())),
            opener(v.path()),
        );
        let ctx = Client::Claude
            .read_prompt_envelope(&out.stdout)
            .unwrap()
            .unwrap();
        assert!(ctx.contains("Payout retry backoff"), "{ctx}");
        assert!(!ctx.contains("CANARY"), "{ctx}");
        assert!(!ctx.contains("Kafka"), "{ctx}");
        assert_eq!(out.given, ["retry"]);
        assert!(out.warning.is_none());
        // The same prompt again: already given.
        let again = prompt_hook(
            req(v.path(), "payout retry backoff", Some(records)),
            opener(v.path()),
        );
        assert_eq!(again, PromptOutcome::default());
        // Off topic, or no prompt: nothing at all.
        for p in ["what is the weather in Lisbon", "", "yes please continue"] {
            let out = prompt_hook(req(v.path(), p, None), opener(v.path()));
            assert_eq!(out, PromptOutcome::default(), "{p}");
        }
    }

    /// A credential pasted into a prompt is redacted before anything reads it,
    /// and its marker is no query word either: the marker's words (`redacted
    /// github token`) weighed against every note, and the matching note fell
    /// under the gate (held-out trial: nothing was given).
    #[test]
    fn a_credential_in_the_prompt_neither_shows_nor_hides_the_matching_note() {
        let v = vault();
        let token = "ghp_T3stC4n4ryT0k3nAbCdEfGhIjKlMnOpQrSt9";
        let key = "AKIAIOSFODNN7TESTKEY";
        let out = prompt_hook(
            req(v.path(), &format!("{token} {key} payout backoff"), None),
            opener(v.path()),
        );
        let ctx = Client::Claude
            .read_prompt_envelope(&out.stdout)
            .unwrap()
            .unwrap_or_default();
        assert!(ctx.contains("Payout retry backoff"), "{ctx}");
        assert!(!ctx.contains(token) && !ctx.contains(key), "{ctx}");
    }

    #[test]
    fn failures_print_nothing_and_one_line() {
        let v = vault();
        let out = prompt_hook(
            req(v.path(), "payout retry", None),
            Box::new(|| Err("cairn.toml:3: broken\nsecond line".into())),
        );
        assert!(out.stdout.is_empty());
        let w = out.warning.unwrap();
        assert!(w.contains("broken") && !w.contains('\n'), "{w}");
        let mut late = req(v.path(), "payout retry", None);
        late.deadline = Duration::from_millis(100);
        let out = prompt_hook(
            late,
            Box::new(|| {
                std::thread::sleep(Duration::from_secs(30));
                Err("unreachable".into())
            }),
        );
        assert!(out.stdout.is_empty());
        assert!(out.warning.unwrap().contains("within 100 ms"));
    }
}
