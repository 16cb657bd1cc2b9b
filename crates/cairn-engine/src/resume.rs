//! A task that asks to carry on the last session's work (`continue where I
//! left off`, `where were we?`): the latest session is then shown whatever
//! its age, and a task that says nothing else is read as none, on a resumed
//! session's terms (git derives the task where it can).

use std::borrow::Cow;

use crate::git_task::Echo;
use crate::hot::SessionSource;
use crate::wakeup::WakeupRequest;

/// What a task says when it asks to carry on the last session's work
/// (`continue where I left off`, `where were we?`, `pick up from last
/// session`), in lower case.
const RESUMING_PHRASES: &[&str] = &[
    "left off",
    "where was i",
    "where were we",
    "pick up where",
    "pick up from",
    "carry on",
    "continue where",
    "continue from",
    "continue the work",
    "continue working",
    "resume work",
    "resume where",
    "last session",
    "previous session",
    "what was i doing",
    "what were we doing",
];

/// Whether `task` asks to carry on the last session's work: then the latest
/// session is shown whatever its age, as on a resumed session.
pub(crate) fn asks_to_resume(task: &str) -> bool {
    if task.is_empty() {
        return false;
    }
    let lower = task.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let said = words.join(" ");
    matches!(
        said.as_str(),
        "continue" | "resume" | "let's continue" | "lets continue"
    ) || RESUMING_PHRASES.iter().any(|r| said.contains(r))
}

/// Words a request to carry on says beside the work it names: a task of these
/// alone (`continue where I left off`, `ok, where were we?`, `let's pick up from
/// the last session`) names no work, in lower case.
const RESUMING_WORDS: &[&str] = &[
    "a",
    "again",
    "am",
    "and",
    "back",
    "bit",
    "can",
    "carry",
    "continue",
    "continuing",
    "did",
    "do",
    "doing",
    "ended",
    "from",
    "get",
    "go",
    "going",
    "hey",
    "hi",
    "i",
    "i'm",
    "it",
    "just",
    "last",
    "left",
    "let",
    "let's",
    "lets",
    "me",
    "my",
    "now",
    "of",
    "off",
    "ok",
    "okay",
    "on",
    "our",
    "pick",
    "picking",
    "please",
    "previous",
    "resume",
    "resuming",
    "session",
    "so",
    "stopped",
    "the",
    "things",
    "time",
    "to",
    "up",
    "us",
    "was",
    "we",
    "were",
    "what",
    "where",
    "with",
    "work",
    "working",
    "yesterday",
    "you",
];

/// Whether `task` asks to carry on the last session's work and names no
/// work of its own (`continue where I left off`, not `continue the payout
/// retry work`): the wake-up then reads it as no task, on a resumed session's
/// terms (a held-out trial: such a task matched no note, and its packet said
/// so instead of giving the notes a session without a task gets).
pub(crate) fn only_asks_to_resume(task: &str) -> bool {
    asks_to_resume(task)
        && task
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .all(|w| RESUMING_WORDS.contains(&w))
}

/// What the packet's query says of a task that only asked to resume, made
/// without a task.
pub(crate) const RESUMED: &str =
    "read as resuming the last session: the notes a session without a task gets";

/// What the packet's query says first of a task that only asked to resume,
/// when git gave the task.
pub(crate) const RESUMING: &str = "read as resuming the last session";

/// `req` as the wake-up reads it when its task only asks to carry on the last
/// session's work (`continue where I left off`): no task (so git derives one
/// where it can), on a resumed session's terms (the latest session shown
/// whatever its age). `None`: `req` is read as it is.
pub(crate) fn resumption(req: &WakeupRequest) -> Option<WakeupRequest> {
    only_asks_to_resume(&req.task).then(|| {
        let mut read = req.clone();
        read.task.clear();
        if read.source == SessionSource::Startup {
            read.source = SessionSource::Resume;
        }
        read
    })
}

/// `req` as a wake-up without git reads it ([`resumption`]), and what its
/// query says of it.
pub(crate) fn read_as(req: &WakeupRequest) -> (Cow<'_, WakeupRequest>, Echo<'_>) {
    match resumption(req) {
        Some(read) => (
            Cow::Owned(read),
            Echo {
                derived: Some(RESUMED),
                unused: None,
                resumed: Some(&req.task),
            },
        ),
        None => (Cow::Borrowed(req), Echo::default()),
    }
}
