//! Render: a packet → text for one AI client in one format.
//!
//! `json` is the packet itself (authoritative, identical for every target but for the
//! `target` field). `markdown` (a human handoff) and `prompt` (a compact briefing for a
//! model's context) come from minijinja templates, one per target and format, in
//! `crates/cairn-render/templates/<format>/<target>.j2`; they shape wording and order, never
//! meaning.
//!
//! Note text is untrusted data. Every value a template prints goes through one
//! formatter ([`neutralize`]) that flattens it to a single line (no line or
//! paragraph separator of any kind survives, nor a bidi control or another invisible
//! format character) and neutralises closing tags and the template's own block tag,
//! so a note cannot end the memory block and speak as the system. Templates cannot
//! opt out.
//!
//! [`estimate_tokens`] is the token counter the budget uses: a conservative estimate
//! calibrated against the cl100k and o200k tokenizers (see the tests).

mod tokens;
mod watch;

use std::fmt;

use cairn_assemble::{Item, Packet};
use minijinja::value::Value;
use minijinja::{Environment, UndefinedBehavior};

pub use tokens::{TOKENIZER_NAME, estimate_tokens};

/// A rendering of a packet ([`Renderer::render_watching`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendering {
    /// The text; it ends with a newline.
    pub text: String,
    /// Whether the text depends on the packet's `budget.used_tokens`; when not,
    /// the same packet with another value renders the same text.
    pub reads_used_tokens: bool,
}

/// The tag the prompt templates wrap memory in.
pub const BLOCK_TAG: &str = "cairn-memory";

/// AI clients a packet can be shaped for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// Claude Code.
    Claude,
    /// `OpenAI` Codex CLI.
    Codex,
    /// Cursor.
    Cursor,
    /// Gemini CLI.
    Gemini,
    /// opencode.
    Opencode,
    /// Any other client.
    Generic,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 6] = [
        Target::Claude,
        Target::Codex,
        Target::Cursor,
        Target::Gemini,
        Target::Opencode,
        Target::Generic,
    ];

    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Claude => "claude",
            Target::Codex => "codex",
            Target::Cursor => "cursor",
            Target::Gemini => "gemini",
            Target::Opencode => "opencode",
            Target::Generic => "generic",
        }
    }

    /// Parses a lowercase name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// The packet as JSON.
    Json,
    /// A readable handoff.
    Markdown,
    /// A compact briefing for a model.
    Prompt,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Json, Format::Markdown, Format::Prompt];

    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Prompt => "prompt",
        }
    }

    /// Parses a lowercase name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == s)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Template problems (a broken override, a missing template).
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// minijinja reported an error.
    #[error("template {name}: {source}")]
    Template {
        /// The template.
        name: String,
        /// The error.
        source: minijinja::Error,
    },
    /// JSON serialisation failed.
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
}

/// The built-in templates, compiled into the binary.
pub const BUILTIN_TEMPLATES: &[(&str, &str)] = &[
    ("_macros.j2", include_str!("../templates/_macros.j2")),
    (
        "prompt/claude.j2",
        include_str!("../templates/prompt/claude.j2"),
    ),
    (
        "prompt/codex.j2",
        include_str!("../templates/prompt/codex.j2"),
    ),
    (
        "prompt/cursor.j2",
        include_str!("../templates/prompt/cursor.j2"),
    ),
    (
        "prompt/gemini.j2",
        include_str!("../templates/prompt/gemini.j2"),
    ),
    (
        "prompt/opencode.j2",
        include_str!("../templates/prompt/opencode.j2"),
    ),
    (
        "prompt/generic.j2",
        include_str!("../templates/prompt/generic.j2"),
    ),
    (
        "markdown/claude.j2",
        include_str!("../templates/markdown/claude.j2"),
    ),
    (
        "markdown/codex.j2",
        include_str!("../templates/markdown/codex.j2"),
    ),
    (
        "markdown/cursor.j2",
        include_str!("../templates/markdown/cursor.j2"),
    ),
    (
        "markdown/gemini.j2",
        include_str!("../templates/markdown/gemini.j2"),
    ),
    (
        "markdown/opencode.j2",
        include_str!("../templates/markdown/opencode.j2"),
    ),
    (
        "markdown/generic.j2",
        include_str!("../templates/markdown/generic.j2"),
    ),
    (
        "related/claude.j2",
        include_str!("../templates/related/claude.j2"),
    ),
    (
        "related/codex.j2",
        include_str!("../templates/related/codex.j2"),
    ),
    (
        "related/cursor.j2",
        include_str!("../templates/related/cursor.j2"),
    ),
    (
        "related/gemini.j2",
        include_str!("../templates/related/gemini.j2"),
    ),
    (
        "related/opencode.j2",
        include_str!("../templates/related/opencode.j2"),
    ),
    (
        "related/generic.j2",
        include_str!("../templates/related/generic.j2"),
    ),
];

/// The fence of targets whose client escapes `<` and `>` (Gemini CLI): their blocks
/// open with a line starting with it and close with a line holding only it.
/// [`neutralize`] leaves no run of three backticks in any value.
pub const FENCE: &str = "```";

/// Most retired notes a text rendering names in its "Not current" line, the
/// most relevant first; the others are counted ("3 more").
pub const NOT_CURRENT_NAMED: usize = 5;

/// Compiled templates.
pub struct Renderer {
    env: Environment<'static>,
}

impl fmt::Debug for Renderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Renderer")
    }
}

/// A section as templates see it: `name`, `heading` and `items`.
///
/// Its items are the very values of the packet's own (a [`Value`] is reference
/// counted): each item is converted for the templates once per rendering, not
/// once more for every view that shows it.
struct SectionView {
    name: &'static str,
    heading: String,
    items: Vec<Value>,
}

impl SectionView {
    /// The map templates read.
    fn into_value(self) -> Value {
        minijinja::context! {
            name => self.name,
            heading => self.heading,
            items => Value::from(self.items),
        }
    }
}

/// Each section's items as `packet_value` (the packet converted for the
/// templates) holds them, paired with the packet's own, in packet order.
fn section_items<'a>(
    packet: &'a Packet,
    packet_value: &Value,
) -> Vec<(&'static str, Vec<(&'a Item, Value)>)> {
    packet
        .sections()
        .into_iter()
        .map(|(name, items)| {
            let list = if name == "identity" {
                packet_value
                    .get_attr("identity")
                    .and_then(|i| i.get_attr("notes"))
            } else {
                packet_value.get_attr(name)
            };
            let values: Vec<Value> = list
                .and_then(|l| l.try_iter().map(Iterator::collect))
                .unwrap_or_default();
            // The packet's conversion holds every item; should it ever not, each
            // item is converted on its own.
            let pairs = if values.len() == items.len() {
                items.iter().zip(values).collect()
            } else {
                items
                    .iter()
                    .map(|i| (i, Value::from(minijinja::value::Serde(i))))
                    .collect()
            };
            (name, pairs)
        })
        .collect()
}

/// The sections of `items` ([`section_items`]), holding only the items `keep` accepts.
fn section_views(
    items: &[(&'static str, Vec<(&Item, Value)>)],
    keep: impl Fn(&Item) -> bool,
) -> Vec<SectionView> {
    items
        .iter()
        .map(|(name, pairs)| SectionView {
            name,
            heading: heading(name).to_owned(),
            items: pairs
                .iter()
                .filter(|(i, _)| keep(i))
                .map(|(_, v)| v.clone())
                .collect(),
        })
        .collect()
}

fn heading(name: &str) -> &'static str {
    match name {
        "identity" => "Who you are working with",
        "working_style" => "Working style",
        "active_context" => "Active context",
        "priorities" => "Priorities",
        "constraints" => "Constraints",
        "decisions" => "Decisions in force",
        "incidents" => "Incidents and lessons",
        _ => "Also relevant",
    }
}

/// The name of the template that renders `target` in `format`.
fn template_name(target: Target, format: Format) -> String {
    format!("{}/{}.j2", format.as_str(), target.as_str())
}

impl Renderer {
    /// The built-in templates.
    pub fn builtin() -> Result<Self, RenderError> {
        Self::with_templates(std::iter::empty())
    }

    /// The built-in templates, then `overrides` (same names replace them).
    pub fn with_templates(
        templates: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, RenderError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
            .map_err(|source| RenderError::Template {
                name: "syntax".into(),
                source,
            })?;
        env.set_syntax(syntax);
        // Every template is "escaped" with the neutraliser: values are flattened and
        // defused; template output (macros) comes back marked safe and passes through.
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::Custom("cairn-untrusted".into()));
        env.set_formatter(|out, _state, value| {
            if value.is_none() || value.is_undefined() {
                return Ok(());
            }
            let text = value.to_string();
            let text = if value.is_safe() {
                text
            } else {
                neutralize(&text)
            };
            out.write_str(&text).map_err(minijinja::Error::from)
        });
        // A built-in template is parsed when it is first rendered: a wake-up
        // renders one target's, and parsing all of them was about 0.4 ms of
        // every start (the tests render each one). Given templates are parsed
        // here, so a broken one is an error before anything is rendered; one
        // named as a built-in replaces it (minijinja asks its loader only for
        // names it does not hold).
        env.set_loader(|name| {
            Ok(BUILTIN_TEMPLATES
                .iter()
                .find(|(builtin, _)| *builtin == name)
                .map(|(_, source)| *source))
        });
        for (name, source) in templates {
            env.add_template_owned(name.clone(), source)
                .map_err(|source| RenderError::Template { name, source })?;
        }
        Ok(Self { env })
    }

    /// Parses the template [`Renderer::render`] takes for `target` in `format`
    /// now, so that the first rendering does not (a built-in one is parsed when
    /// first asked for, about 0.3 ms; given ones were parsed when loaded, and
    /// JSON has none). A caller with a core to spare asks beside other work; a
    /// template that does not parse is reported by the rendering, as before.
    pub fn prepare(&self, target: Target, format: Format) {
        if format != Format::Json {
            let _ = self.env.get_template(&template_name(target, format));
        }
    }

    /// Renders `packet` for `target` in `format`. The result ends with a newline.
    pub fn render(
        &self,
        packet: &Packet,
        target: Target,
        format: Format,
    ) -> Result<String, RenderError> {
        self.render_watching(packet, target, format).map(|r| r.text)
    }

    /// [`Renderer::render`], saying whether the text depends on the packet's
    /// `budget.used_tokens` (JSON always prints it; a template, when it read it:
    /// see `watch.rs`). A text that does not is the same for any value.
    pub fn render_watching(
        &self,
        packet: &Packet,
        target: Target,
        format: Format,
    ) -> Result<Rendering, RenderError> {
        if format == Format::Json {
            let mut s = escape_invisible(serde_json::to_string_pretty(packet)?);
            s.push('\n');
            return Ok(Rendering {
                text: s,
                reads_used_tokens: true,
            });
        }
        let name = template_name(target, format);
        let tmpl = self
            .env
            .get_template(&name)
            .map_err(|source| RenderError::Template {
                name: name.clone(),
                source,
            })?;
        let packet_value = Value::from(minijinja::value::Serde(packet));
        let items = section_items(packet, &packet_value);
        // Every section, and the same split by layer: prompt templates render the
        // hot layer first, so their output begins with the same bytes for every
        // task in one project (a client's prompt cache stays valid).
        let sections = section_views(&items, |_| true);
        let hot_sections = section_views(&items, |i| i.layer == "hot");
        let mut task_sections = section_views(&items, |i| i.layer != "hot");
        let has_task = !packet.query.task.is_empty() || !packet.query.files.is_empty();
        // A section the hot layer already opened is named apart after the task
        // line ("Working style, for this task"), so no heading is printed twice;
        // without a task that ranked them (none, or a derived one no note
        // matched), the notes are the session's ("Also relevant, for this
        // session": its recent notes).
        let apart = if has_task && !packet.query.task_unused {
            "for this task"
        } else {
            "for this session"
        };
        for t in &mut task_sections {
            if hot_sections
                .iter()
                .any(|h| h.name == t.name && !h.items.is_empty())
            {
                t.heading = format!("{}, {apart}", t.heading);
            }
        }
        let task_item_count: usize = task_sections.iter().map(|s| s.items.len()).sum();
        // Notes that matched the task and did not fit: with none shown, the
        // task did match (the budget or a cap left them out).
        let task_left_out = packet
            .budget
            .left_out
            .iter()
            .filter(|l| l.layer == "task")
            .count();
        // The most relevant retired notes by name, the others counted: a
        // broad task matched a dozen superseded notes, a line of titles the
        // session is told not to rely on (JSON lists every one the packet
        // lists).
        let retired: Vec<&cairn_assemble::Excluded> = packet
            .provenance
            .excluded
            .iter()
            .filter(|e| e.kind == "retired")
            .collect();
        let mut not_current: Vec<String> = retired
            .iter()
            .take(NOT_CURRENT_NAMED)
            .map(|e| format!("{} ({})", e.title, e.reason))
            .collect();
        if retired.len() > NOT_CURRENT_NAMED {
            // The packet lists at most `EXCLUDED_LISTED` excluded notes: a
            // full list may have left some out.
            let full = packet.provenance.excluded.len() >= cairn_assemble::EXCLUDED_LISTED;
            not_current.push(format!(
                "{}{} more",
                if full { "at least " } else { "" },
                retired.len() - NOT_CURRENT_NAMED
            ));
        }
        let mut sources: Vec<String> = Vec::new();
        for (_, items) in packet.sections() {
            sources.extend(items.iter().map(|i| i.path.clone()));
        }
        let views =
            |v: Vec<SectionView>| -> Value { v.into_iter().map(SectionView::into_value).collect() };
        let (packet_value, read) = watch::watched(packet_value);
        let ctx = minijinja::context! {
            not_current => not_current,
            sources => sources,
            packet => packet_value,
            sections => views(sections),
            hot_sections => views(hot_sections),
            task_sections => views(task_sections),
            task_item_count => task_item_count,
            task_left_out => task_left_out,
            has_task => has_task,
            project => Value::from(minijinja::value::Serde(&packet.identity.project)),
            block_tag => Value::from_safe_string(BLOCK_TAG.to_owned()),
            fence => Value::from_safe_string(FENCE.to_owned()),
            item_count => packet.item_count(),
        };
        let out = tmpl
            .render(ctx)
            .map_err(|source| RenderError::Template { name, source })?;
        Ok(Rendering {
            text: tidy(out),
            reads_used_tokens: read.load(std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// Renders the prompt hook's block for `target`: `items` (already redacted and
    /// shaped, as a packet's), each with its source, through `related/<target>.j2`.
    /// The same formatter as [`Renderer::render`] applies to every value. The result
    /// ends with a newline.
    pub fn render_related(&self, items: &[Item], target: Target) -> Result<String, RenderError> {
        let name = format!("related/{}.j2", target.as_str());
        let tmpl = self
            .env
            .get_template(&name)
            .map_err(|source| RenderError::Template {
                name: name.clone(),
                source,
            })?;
        let ctx = minijinja::context! {
            items => Value::from(minijinja::value::Serde(items)),
            block_tag => Value::from_safe_string(BLOCK_TAG.to_owned()),
            fence => Value::from_safe_string(FENCE.to_owned()),
        };
        let out = tmpl
            .render(ctx)
            .map_err(|source| RenderError::Template { name, source })?;
        Ok(tidy(out))
    }
}

/// Templates stay readable; the output has no runs of blank lines, no blank line
/// before the block's end, and ends with exactly one newline.
fn tidy(out: String) -> String {
    let mut out = collapse_blank_runs(&out);
    out = out.replace(&format!("\n\n</{BLOCK_TAG}>"), &format!("\n</{BLOCK_TAG}>"));
    while out.ends_with("\n\n") {
        out.pop();
    }
    let closing_fence = format!("\n\n{FENCE}");
    if out.trim_end().ends_with(&closing_fence) {
        let at = out.trim_end().len() - closing_fence.len();
        out.replace_range(at..at + 2, "\n");
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// `text` with every run of three or more newlines made two: one pass, where
/// replacing `\n\n\n` until none is left took one pass per halving (fitting
/// renders a packet several times).
fn collapse_blank_runs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\n') {
        out.push_str(&rest[..at]);
        let run = rest.as_bytes()[at..]
            .iter()
            .take_while(|&&b| b == b'\n')
            .count();
        out.push_str(if run >= 3 {
            "\n\n"
        } else {
            &rest[at..at + run]
        });
        rest = &rest[at + run..];
    }
    out.push_str(rest);
    out
}

/// Flattens `text` to one line ([`cairn_policy::one_line`]: every line and paragraph
/// separator and control character becomes a space, bidi controls and other
/// invisible format characters are removed) and neutralises anything that could
/// close or open a block: every `</` becomes `<\/`, the template's own tag loses its
/// `<`, and no run of three backticks (a markdown fence) is left.
pub fn neutralize(text: &str) -> String {
    let flat = cairn_policy::one_line(text).into_owned();
    // A byte search first: most values hold neither, and a template shows
    // hundreds of them per rendering (a substring search sets itself up each time).
    let fenced = flat.contains('`') && flat.contains(FENCE);
    if !fenced && !flat.contains('<') {
        return flat;
    }
    let mut s = flat.replace("</", "<\\/");
    let opener = format!("<{BLOCK_TAG}");
    if s.to_ascii_lowercase().contains(&opener) {
        s = replace_ignore_case(&s, &opener, &format!("‹{BLOCK_TAG}"));
    }
    // Repeated: one pass turns a run of four backticks into three.
    while s.contains(FENCE) {
        s = s.replace(FENCE, "``");
    }
    s
}

/// JSON text with every character that `serde_json` leaves raw but a reader would
/// see as a line break or not see at all (U+2028, U+2029, NEL and other controls
/// above ASCII, bidi controls, invisible format characters) written as a `\uXXXX`
/// escape: the same JSON value, and no such character in the text.
fn escape_invisible(json: String) -> String {
    let special = |c: char| {
        (c.is_control() && !c.is_ascii())
            || c == '\u{7F}'
            || c == '\u{2028}'
            || c == '\u{2029}'
            || cairn_policy::is_invisible(c)
    };
    if !json.chars().any(special) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if special(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn replace_ignore_case(haystack: &str, needle: &str, with: &str) -> String {
    let lower = haystack.to_ascii_lowercase();
    let mut out = String::with_capacity(haystack.len());
    let mut last = 0;
    for (i, _) in lower.match_indices(needle) {
        out.push_str(&haystack[last..i]);
        out.push_str(with);
        last = i + needle.len();
    }
    out.push_str(&haystack[last..]);
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{BUILTIN_TEMPLATES, Renderer, collapse_blank_runs};

    #[test]
    fn every_builtin_template_parses_and_an_override_replaces_it() {
        // Built-ins are parsed when first rendered: each one must parse (the
        // render tests reach most of them, this all of them).
        let r = Renderer::builtin().unwrap();
        for (name, _) in BUILTIN_TEMPLATES {
            assert!(r.env.get_template(name).is_ok(), "{name}");
        }
        let r = Renderer::with_templates([("_macros.j2".to_owned(), "mine".to_owned())]).unwrap();
        let t = r.env.get_template("_macros.j2").unwrap();
        assert_eq!(t.source(), "mine");
        assert!(r.env.get_template("prompt/nobody.j2").is_err());
    }

    /// What `tidy` did before: replace until no run of three newlines is left.
    fn replace_until_none(text: &str) -> String {
        let mut out = text.to_owned();
        while out.contains("\n\n\n") {
            out = out.replace("\n\n\n", "\n\n");
        }
        out
    }

    #[test]
    fn runs_of_newlines_become_at_most_two() {
        for (text, want) in [
            ("", ""),
            ("a", "a"),
            ("a\nb", "a\nb"),
            ("a\n\nb", "a\n\nb"),
            ("a\n\n\nb", "a\n\nb"),
            ("\n\n\n\n\n\n\n", "\n\n"),
            ("é\n\n\n\n中\n\n\n", "é\n\n中\n\n"),
        ] {
            assert_eq!(collapse_blank_runs(text), want, "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn one_pass_is_what_replacing_until_none_gives(
            parts in proptest::collection::vec(
                prop_oneof![Just("\n"), Just("\n\n\n\n"), Just("x"), Just(" "), Just("é")],
                0..40,
            )
        ) {
            let text = parts.concat();
            prop_assert_eq!(collapse_blank_runs(&text), replace_until_none(&text));
        }
    }
}
