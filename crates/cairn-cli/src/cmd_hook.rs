//! `cairn hook session-start`: what clients run at a session's start. The logic
//! lives in `cairn-hooks`; this module reads the environment, opens the engine the
//! hook's way and prints the one envelope, whatever the arguments.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use cairn_engine::{Engine, IndexMode, OpenDeadline, OpenOptions, PersistentOptions};
use cairn_hooks::{Client, EngineSources, HookInput, HookOutcome, SessionStart};

use crate::args::SessionStartArgs;
use crate::request::resolve_now;
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
        let index_source = a.source.clone();
        let open_by = OpenDeadline::for_hook(started, deadline);
        let routing = req.wakeup_request();
        sources.full = Box::new(move || {
            let (config, mut opts) = load()?;
            opts.index = IndexMode::Persistent(PersistentOptions {
                dir: index_source.index_dir.clone(),
                ..PersistentOptions::default()
            });
            let engine = Engine::open_for_wakeup(config, &opts, &routing, Some(open_by))?;
            crate::index_report::report(&engine, &index_source);
            Ok(engine)
        });
        let fallback = req.clone();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            cairn_hooks::session_start(req, sources)
        }))
        .unwrap_or_else(|_| {
            cairn_hooks::notice(&fallback, "internal error in the hook", Vec::new())
        })
    };
    emit(&outcome);
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
/// `hookSpecificOutput` shape when there is none. `None` when this is not a hook
/// run, or when help or the version was asked for.
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
            "`cairn hook` needs an event: `cairn hook session-start --client <claude|codex|gemini|cursor>`".to_owned()
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
