//! `cairn hook session-start` and `cairn hook prompt`: what clients run at a
//! session's start and at each prompt. The logic lives in `cairn-hooks`; this module
//! reads the environment, opens the engine the hook's way, prints the answer (the
//! session start's one envelope whatever the arguments; the prompt's envelope or
//! nothing) and keeps the session's record.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use cairn_engine::{
    Engine, IndexMode, OpenDeadline, OpenOptions, PersistentOptions, WakeupRequest,
};
use cairn_hooks::install::Locations;
use cairn_hooks::{
    Client, EngineSources, HookInput, HookOutcome, PromptHook, SessionRecords, SessionStart,
};

use crate::args::{PromptArgs, PromptClientArg, SessionStartArgs};
use crate::request::resolve_now;
use crate::source::VaultArgs;
use crate::source::load_config;

/// Runs the session-start hook: always exit 0, one envelope on stdout.
#[allow(clippy::unnecessary_wraps)] // Every command returns a Result to main's one dispatch.
pub(crate) fn session_start(a: SessionStartArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let client: Client = a.client.into();
    let deadline = Duration::from_millis(a.deadline_ms);
    let stdin = std::io::stdin();
    let (bytes, read_warning) = if stdin.is_terminal() {
        (Vec::new(), None)
    } else {
        cairn_hooks::read_input(stdin, deadline / 4)
    };
    let mut input = HookInput::parse(&bytes);
    if input.warning.is_none() {
        input.warning = read_warning;
    }
    let fallback_cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    if client != Client::Cursor && input.from_cursor && cursor_runs_its_own(&input, &fallback_cwd) {
        // Cursor runs the hooks in Claude Code's settings too ("third-party hooks"),
        // and its own cairn hook gives this packet already: say nothing.
        eprintln!(
            "cairn: hook: Cursor runs its own cairn hook; this {} hook adds nothing",
            client.display_name()
        );
        return Ok(ExitCode::SUCCESS);
    }
    // "Now" is midnight UTC today unless pinned; a bad --now is reported in the notice.
    let now = a.now.as_deref().map(|s| resolve_now(Some(s))).transpose();
    let req = SessionStart {
        client,
        input,
        fallback_cwd,
        profile: a.profile.clone(),
        budget: a.budget.and_then(|b| usize::try_from(b).ok()),
        now: match &now {
            Ok(Some(t)) => *t,
            _ => cairn_hooks::pinned_now(chrono::Utc::now()),
        },
        deadline,
        started,
    };
    let record_input = req.input.clone();
    let outcome = if let Err(e) = now {
        let warnings = req.input.warning.iter().cloned().collect();
        cairn_hooks::notice(&req, &format!("{e:#}"), warnings)
    } else {
        let source = a.source.clone();
        let derive = a.derive;
        let load: cairn_hooks::OpenSettingsLoader = Arc::new(move || {
            let mut config = load_config(&source).map_err(|e| format!("{e:#}"))?;
            derive.apply(&mut config);
            let opts = OpenOptions {
                profiles_dir: source.profiles_dir.clone(),
                ..OpenOptions::default()
            };
            Ok((config, opts))
        });
        // The full packet comes from the persistent index: current, it opens in
        // milliseconds; stale or missing, the engine answers from what it has by
        // half the deadline (the developer's notes read first, then the
        // project's) and a background `cairn index` finishes the work.
        let mut sources = EngineSources::scanning(load.clone());
        let open_by = cairn_hooks::session::open_deadline(started, deadline);
        sources.full = persistent_opener(load, a.source.clone(), req.wakeup_request(), open_by);
        let fallback = req.clone();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            cairn_hooks::session_start(req, sources)
        }))
        .unwrap_or_else(|_| {
            cairn_hooks::notice(&fallback, "internal error in the hook", Vec::new())
        })
    };
    emit(&outcome);
    if !outcome.timings.is_empty() {
        let mut phases = vec![("hook", cairn_engine::micros(started))];
        phases.extend(outcome.timings.iter().copied());
        crate::index_report::print_timings(&phases);
    }
    record_session_start(&outcome, &record_input);
    if let Some(unread) = &outcome.history_unread {
        read_history_in_background(&a.source, unread);
    }
    Ok(ExitCode::SUCCESS)
}

/// The full opener of both hooks: the engine from the persistent index, by
/// `open_by` (current, it opens in milliseconds; stale or missing, the engine
/// answers from what it has and a background `cairn index` finishes the work).
fn persistent_opener(
    load: cairn_hooks::OpenSettingsLoader,
    source: VaultArgs,
    routing: WakeupRequest,
    open_by: OpenDeadline,
) -> cairn_hooks::session::EngineOpener {
    Box::new(move || {
        let (config, mut opts) = load()?;
        opts.index = IndexMode::Persistent(PersistentOptions {
            dir: source.index_dir.clone(),
            ..PersistentOptions::default()
        });
        let engine = Engine::open_for_wakeup(config, &opts, &routing, Some(open_by))?;
        crate::index_report::report(&engine, &source);
        Ok(engine)
    })
}

/// Starts the background `cairn index` that reads the git history the packet
/// went without (after the answer: the hook does not wait for it), and says so
/// on stderr; at most once in ten minutes per repository (a read that fails, or
/// is still under way, is not started again at every session).
fn read_history_in_background(source: &VaultArgs, unread: &cairn_engine::UnreadHistory) {
    if !unread.claim_background_read(std::time::SystemTime::now()) {
        return;
    }
    let shown = crate::index_report::shown_path(&unread.repo);
    let from_next = unread.gives();
    match crate::index_report::spawn_history_read(source, unread) {
        Ok(()) => eprintln!(
            "cairn: hook: reading the git history of {shown} in the background: {from_next} \
             from the next session"
        ),
        Err(e) => eprintln!(
            "cairn: hook: could not start `cairn index` to read the git history of {shown} ({})",
            crate::error::one_line(&e.to_string())
        ),
    }
}

/// Where sessions' records live: `sessions/` in cairn's cache folder
/// (`$CAIRN_CACHE_DIR`, else `$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn`).
fn session_records() -> Option<SessionRecords> {
    cairn_engine::config::cache_root(|k| std::env::var(k).ok())
        .map(|d| SessionRecords::in_cache(&d))
}

/// Records what the session start gave, under the session's id (reset on `clear`
/// and `compact`), and removes expired records. A failure is one line on stderr.
fn record_session_start(outcome: &HookOutcome, input: &HookInput) {
    let (Some(records), Some(id)) = (session_records(), input.session_id.as_deref()) else {
        return;
    };
    let now = std::time::SystemTime::now();
    if let Err(e) = records.session_started(id, input.source, &outcome.given, now) {
        eprintln!("cairn: hook: {}", crate::error::one_line(&e.to_string()));
    }
    records.prune(now);
}

/// Whether Cursor's own cairn hook is wired (for the user, or in the payload's
/// project), so a Claude-shaped hook Cursor runs must stay silent.
fn cursor_runs_its_own(input: &HookInput, fallback_cwd: &std::path::Path) -> bool {
    let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) else {
        return false;
    };
    let loc = Locations {
        home: PathBuf::from(home),
        project_dir: input
            .cwd
            .clone()
            .unwrap_or_else(|| fallback_cwd.to_path_buf()),
        codex_home: None,
        claude_config_dir: None,
    };
    cairn_hooks::install::cursor_hook_installed(&loc)
}

/// Runs the prompt hook: always exit 0; the envelope on stdout, or nothing.
#[allow(clippy::unnecessary_wraps)] // Every command returns a Result to main's one dispatch.
pub(crate) fn prompt(a: PromptArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let client = match a.client {
        PromptClientArg::Claude => Client::Claude,
        PromptClientArg::Codex => Client::Codex,
        PromptClientArg::Gemini => Client::Gemini,
    };
    let deadline = Duration::from_millis(a.deadline_ms);
    let stdin = std::io::stdin();
    let (bytes, read_warning) = if stdin.is_terminal() {
        (Vec::new(), None)
    } else {
        cairn_hooks::read_input(stdin, deadline / 3)
    };
    let mut input = HookInput::parse(&bytes);
    if input.warning.is_none() {
        input.warning = read_warning;
    }
    let now = match a.now.as_deref().map(|s| resolve_now(Some(s))).transpose() {
        Ok(t) => t.unwrap_or_else(|| cairn_hooks::pinned_now(chrono::Utc::now())),
        Err(e) => {
            eprintln!("cairn: hook: {}", crate::error::one_line(&format!("{e:#}")));
            return Ok(ExitCode::SUCCESS);
        }
    };
    let req = PromptHook {
        client,
        input,
        fallback_cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        profile: a.profile.clone(),
        now,
        deadline,
        started,
        max_notes: usize::try_from(a.max_notes).unwrap_or(cairn_hooks::DEFAULT_MAX_NOTES),
        max_chars: usize::try_from(a.max_chars).unwrap_or(cairn_hooks::DEFAULT_MAX_CHARS),
        records: session_records(),
    };
    let source = a.source.clone();
    let load: cairn_hooks::OpenSettingsLoader = Arc::new(move || {
        let config = load_config(&source).map_err(|e| format!("{e:#}"))?;
        let opts = OpenOptions {
            profiles_dir: source.profiles_dir.clone(),
            ..OpenOptions::default()
        };
        Ok((config, opts))
    });
    let routing = req.request(std::collections::BTreeSet::new()).wakeup;
    let open = persistent_opener(
        load,
        a.source.clone(),
        routing,
        cairn_hooks::prompt::open_deadline(started, deadline),
    );
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        cairn_hooks::prompt_hook(req, open)
    }))
    .unwrap_or_else(|_| cairn_hooks::PromptOutcome {
        warning: Some("prompt hook: internal error".into()),
        ..cairn_hooks::PromptOutcome::default()
    });
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(outcome.stdout.as_bytes());
    let _ = out.flush();
    if let Some(w) = &outcome.warning {
        eprintln!("cairn: hook: {w}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a hook's answer: the envelope on stdout, the warnings on stderr.
fn emit(outcome: &HookOutcome) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(outcome.stdout.as_bytes());
    let _ = out.flush();
    for w in &outcome.warnings {
        eprintln!("cairn: hook: {w}");
    }
}

/// A hook run whose arguments clap refused (an unknown flag, `--deadline-ms 0`, a
/// missing or unknown `--client`, no event) still answers its client: exit 0 and a
/// notice in the envelope of the `--client` given, Claude Code's
/// `hookSpecificOutput` shape when there is none; a `hook prompt` run prints
/// nothing on stdout and the reason on stderr. `None` when this is not a hook run,
/// or when help or the version was asked for.
pub(crate) fn answer_bad_arguments(err: &clap::Error) -> Option<ExitCode> {
    use clap::error::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return None;
    }
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if !is_hook_run(&args) {
        return None;
    }
    let reason = match err.kind() {
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "`cairn hook` needs an event: `cairn hook session-start --client <claude|codex|gemini|cursor>` or `cairn hook prompt --client <claude|codex|gemini>`".to_owned()
        }
        _ => clap_reason(&err.render().to_string()),
    };
    // The client writes its payload whatever happens: read it so the write never fails.
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        let _ = cairn_hooks::read_input(
            stdin,
            Duration::from_millis(cairn_hooks::DEFAULT_DEADLINE_MS / 4),
        );
    }
    if event_word(&args) == Some("prompt") {
        eprintln!(
            "cairn: hook: {}",
            crate::error::one_line(&format!("the hook command's arguments are wrong: {reason}"))
        );
        return Some(ExitCode::SUCCESS);
    }
    let client = client_named(&args).unwrap_or(Client::Claude);
    let outcome = cairn_hooks::notice_for(
        client,
        &format!("the hook command's arguments are wrong: {reason}"),
        Vec::new(),
    );
    emit(&outcome);
    Some(ExitCode::SUCCESS)
}

/// Whether the first word of `args` that is neither a global option nor its
/// value is `hook`.
fn is_hook_run(args: &[String]) -> bool {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--config" | "--vault" | "--profiles-dir" | "--index-dir" => {
                it.next();
            }
            s if s.starts_with('-') => {}
            s => return s == "hook",
        }
    }
    false
}

/// The word after `hook` that is not an option: the hook's event.
fn event_word(args: &[String]) -> Option<&str> {
    let at = args.iter().position(|a| a == "hook")?;
    args[at + 1..]
        .iter()
        .map(String::as_str)
        .find(|a| !a.starts_with('-'))
}

/// The client `--client NAME` or `--client=NAME` names, when it is one.
fn client_named(args: &[String]) -> Option<Client> {
    let value = args.iter().enumerate().find_map(|(i, a)| {
        if a == "--client" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--client=")
        }
    })?;
    Client::parse(&value.trim().to_ascii_lowercase())
}

/// clap's message without its usage and tips, on one line.
fn clap_reason(rendered: &str) -> String {
    rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:"))
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("tip:") && !l.starts_with("For more information")
        })
        .map(|l| l.strip_prefix("error: ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_run_is_told_apart_from_other_commands() {
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        for (args, hook, client) in [
            (
                "hook session-start --client codex --bogus",
                true,
                Some(Client::Codex),
            ),
            (
                "--config /c.toml hook session-start --client=Cursor",
                true,
                Some(Client::Cursor),
            ),
            ("--vault hook hooks status", false, None),
            ("hook", true, None),
            ("hook session-start --client nope", true, None),
            ("hooks status --client claude", false, Some(Client::Claude)),
            ("wakeup --task hook", false, None),
        ] {
            let a = words(args);
            assert_eq!(is_hook_run(&a), hook, "{args}");
            assert_eq!(client_named(&a), client, "{args}");
        }
    }

    #[test]
    fn clap_errors_become_one_line() {
        let rendered = "error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: cairn hook session-start [OPTIONS] --client <CLIENT>\n\nFor more information, try '--help'.\n";
        assert_eq!(clap_reason(rendered), "unexpected argument '--bogus' found");
        let rendered = "error: invalid value 'nope' for '--client <CLIENT>'\n  [possible values: claude, codex]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            clap_reason(rendered),
            "invalid value 'nope' for '--client <CLIENT>' [possible values: claude, codex]"
        );
        let rendered = "error: the following required arguments were not provided:\n  --client <CLIENT>\n\nUsage: x\n";
        assert_eq!(
            clap_reason(rendered),
            "the following required arguments were not provided: --client <CLIENT>"
        );
    }
}
