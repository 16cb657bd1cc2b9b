//! MCP prompts: `wakeup` (the briefing for a task, as `memory_wakeup` gives it) and
//! `recent` (the notes updated most recently, as `memory_recent` lists them), so a
//! user can run them from the client (Claude Code: `/mcp__cairn__wakeup`).
//!
//! Arguments are strings, as the protocol has them; an argument name a prompt does
//! not know, or a value that does not read, is refused (`-32602`) naming it. The
//! text is the tools' own, so the policy is theirs.

use cairn_engine::{Engine, ListRequest};
use rmcp::ErrorData;
use rmcp::model::{
    GetPromptResult, JsonObject, ListPromptsResult, Prompt, PromptArgument, PromptMessage, Role,
};

use crate::params::{RecentParams, WakeupParams};
use crate::read_tools::{
    MAX_RECENT, WakeupAsk, recent_answer, recent_request, wakeup_answer, wakeup_ask,
};
use crate::server::CairnServer;

/// The prompts cairn serves, in the order `prompts/list` gives them.
pub(crate) fn list() -> ListPromptsResult {
    ListPromptsResult::with_all_items(vec![
        Prompt::new(
            "wakeup",
            Some(
                "cairn's memory briefing for a task in this project: the decisions, \
                 constraints, incidents and preferences that matter, ranked and policy-checked.",
            ),
            Some(vec![
                PromptArgument::new("task")
                    .with_description("What you are about to do, in words.")
                    .with_required(true),
                PromptArgument::new("files")
                    .with_description("Files about to be touched, separated by commas (optional).")
                    .with_required(false),
            ]),
        )
        .with_title("Memory briefing for a task"),
        Prompt::new(
            "recent",
            Some(
                "The notes of this project and the developer updated or created most \
                 recently, newest first.",
            ),
            Some(vec![
                PromptArgument::new("limit")
                    .with_description(format!(
                        "How many notes (default 10, at most {MAX_RECENT})."
                    ))
                    .with_required(false),
                PromptArgument::new("days")
                    .with_description("Only notes dated in the last this many days (optional).")
                    .with_required(false),
            ]),
        )
        .with_title("Recently updated notes"),
    ])
}

/// A prompt's arguments, checked against the names it takes.
struct Args {
    prompt: &'static str,
    values: JsonObject,
}

impl Args {
    fn new(
        prompt: &'static str,
        known: &[&str],
        values: Option<JsonObject>,
    ) -> Result<Self, ErrorData> {
        let values = values.unwrap_or_default();
        let mut unknown: Vec<String> = values
            .keys()
            .filter(|k| !known.contains(&k.as_str()))
            .map(|k| crate::server::safe_line(k))
            .collect();
        unknown.sort_unstable();
        if !unknown.is_empty() {
            let unknown: Vec<&str> = unknown.iter().map(String::as_str).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown argument {} for the {prompt} prompt; its arguments are {}",
                    quoted(&unknown),
                    quoted(known)
                ),
                None,
            ));
        }
        Ok(Self { prompt, values })
    }

    /// A string argument (a number or a boolean is read as its text); `null` and
    /// blank are "not given".
    fn text(&self, name: &str) -> Result<Option<String>, ErrorData> {
        match self.values.get(name) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(crate::server::nonempty(Some(s.clone()))),
            Some(v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => {
                Ok(Some(v.to_string()))
            }
            Some(_) => Err(ErrorData::invalid_params(
                format!("the {} prompt's `{name}` must be a string", self.prompt),
                None,
            )),
        }
    }

    /// A whole-number argument.
    fn number(&self, name: &str) -> Result<Option<u32>, ErrorData> {
        self.text(name)?
            .map(|s| {
                s.parse::<u32>().map_err(|_| {
                    ErrorData::invalid_params(
                        format!(
                            "the {} prompt's `{name}` must be a whole number, not `{}`",
                            self.prompt,
                            crate::server::line(&cairn_engine::policy::SafeText::redact(&s))
                        ),
                        None,
                    )
                })
            })
            .transpose()
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a prompt needs from the engine.
pub(crate) enum Ask {
    /// The briefing.
    Wakeup(WakeupAsk),
    /// The recent notes, and the window in days.
    Recent(ListRequest, Option<u32>),
}

/// Reads `name`'s arguments into what the engine is asked.
pub(crate) fn ask(
    server: &CairnServer,
    name: &str,
    arguments: Option<JsonObject>,
) -> Result<Ask, ErrorData> {
    match name {
        "wakeup" => {
            let args = Args::new("wakeup", &["task", "files"], arguments)?;
            let files = args.text("files")?.map(|f| {
                f.split([',', '\n'])
                    .map(str::trim)
                    .filter(|f| !f.is_empty())
                    .map(str::to_owned)
                    .collect()
            });
            let params = WakeupParams {
                task: args.text("task")?,
                files,
                ..WakeupParams::default()
            };
            wakeup_ask(server, params)
                .map(Ask::Wakeup)
                .map_err(|e| ErrorData::invalid_params(e, None))
        }
        "recent" => {
            let args = Args::new("recent", &["limit", "days"], arguments)?;
            let params = RecentParams {
                limit: args.number("limit")?,
                days: args.number("days")?,
                ..RecentParams::default()
            };
            recent_request(server, params)
                .map(|(req, days)| Ask::Recent(req, days))
                .map_err(|e| ErrorData::invalid_params(e, None))
        }
        other => Err(ErrorData::invalid_params(
            format!(
                "unknown prompt `{}`: cairn's prompts are wakeup and recent",
                crate::server::line(&cairn_engine::policy::SafeText::redact(other))
            ),
            None,
        )),
    }
}

/// Answers the prompt: one user message holding the tool's text.
pub(crate) fn answer(engine: &Engine, ask: Ask) -> Result<GetPromptResult, ErrorData> {
    let (description, answer) = match ask {
        Ask::Wakeup(ask) => {
            let description = if ask.req.task.is_empty() {
                "cairn memory briefing".to_owned()
            } else {
                "cairn memory briefing for the task".to_owned()
            };
            (description, wakeup_answer(engine, &ask))
        }
        Ask::Recent(req, days) => (
            "Recently updated cairn notes".to_owned(),
            recent_answer(engine, req, days),
        ),
    };
    let (text, _) =
        answer.map_err(|e| ErrorData::internal_error(crate::messages::tool_error(&e), None))?;
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(description),
    )
}
