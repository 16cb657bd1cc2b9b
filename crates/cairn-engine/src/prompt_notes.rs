//! `prompt_notes`: the few notes that match one prompt and were not given earlier in
//! the session (the prompt hook's answer). A prompt of filler and chat words only
//! ("continue", "yes please", "thanks, go ahead") asks for nothing. The prompt is the task: redacted first,
//! then routed, ranked and cleared by policy exactly as a wake-up's task is
//! ([`Engine::select_with`]); only notes that pass the packet's absolute relevance
//! gate, are fully visible (never a secret or confidential note), in force and of
//! the routed project enter; they are assembled and redacted as a packet's task
//! layer, then rendered through the `related/<target>.j2` templates within a
//! character cap, dropping the lowest-scored note until the block fits.

use std::collections::{BTreeSet, HashSet};

use cairn_assemble::{Candidate, Item, Layer, QueryEcho, Request, RouteInfo};
use cairn_policy::{SafeText, Visibility};
use cairn_render::{Format, TOKENIZER_NAME};

use crate::wakeup::{WakeupRequest, route_method};
use crate::{Engine, EngineError};

/// Words of conversation that say nothing of a topic ("yes, go ahead", "thanks, looks
/// good"): a prompt made only of them and of the task filler asks for no note.
const CHAT_WORDS: &str = "yes yeah yep no nope ok okay sure thanks thank great good fine cool \
     right agree agreed proceed done again same above previous lgtm ahead nice perfect wait";

/// What the prompt hook asks for.
#[derive(Debug, Clone)]
pub struct PromptNotesRequest {
    /// The session's directory, target, "now" and profile; `task` is the prompt's
    /// text (redacted before anything reads it). Format, caps and limit are ignored.
    pub wakeup: WakeupRequest,
    /// Ids of the notes already given in this session (never given again).
    pub given: BTreeSet<String>,
    /// At most this many notes.
    pub max_notes: usize,
    /// At most this many characters of rendered text.
    pub max_chars: usize,
}

/// The notes for one prompt.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptNotes {
    /// The rendered block; empty when no note qualifies.
    pub rendered: String,
    /// The ids of the notes in it, best first.
    pub ids: Vec<String>,
}

impl Engine {
    /// The notes that match `req`'s prompt and were not given yet, rendered for its
    /// target within its caps (see the module's documentation). Never reads git.
    pub fn prompt_notes(&self, req: &PromptNotesRequest) -> Result<PromptNotes, EngineError> {
        // Redacted, and without the markers: a credential in the prompt is no
        // query word, and neither is its marker's (`redacted github token`),
        // which would weigh against every note's share of the query.
        let task = cairn_policy::without_markers(&cairn_policy::redact(&req.wakeup.task).text);
        // A prompt of filler only ("continue", "yes please", "ok, go ahead") is about
        // nothing: a note that happens to hold those words would pass the gate.
        let chat = cairn_index::analyze(CHAT_WORDS);
        let topical = cairn_index::analyze(&task)
            .into_iter()
            .any(|t| !crate::wakeup::TASK_FILLER.contains(&t.as_str()) && !chat.contains(&t));
        if req.max_notes == 0 || !topical {
            return Ok(PromptNotes::default());
        }
        let wreq = WakeupRequest {
            task,
            format: Format::Prompt,
            files: Vec::new(),
            limit: Some(req.max_notes),
            ..req.wakeup.clone()
        };
        let sel = self.select_with(&wreq, None, &[])?;
        let profile = sel.profile;
        let given: HashSet<&str> = req.given.iter().map(String::as_str).collect();
        let mut candidates: Vec<Candidate<'_>> = Vec::new();
        for s in &sel.scored {
            let path = s.path.as_str();
            let (Some(&note), Some(&origin)) = (sel.notes.get(path), sel.origin.get(path)) else {
                continue;
            };
            let visible = sel.visibility.get(path) == Some(&Visibility::Full);
            if !visible
                || s.retired
                || s.other_project.is_some()
                || !s.passes_gate(profile.min_coverage)
                || given.contains(note.id.as_str())
                || given.contains(SafeText::redact(&note.id).as_str())
            {
                continue;
            }
            candidates.push(Candidate {
                note,
                scored: s,
                origin,
                withheld: false,
                layer: Layer::Task,
            });
        }
        if candidates.is_empty() {
            return Ok(PromptNotes::default());
        }
        let request = Request {
            profile,
            target: wreq.target.as_str(),
            generated_at: wreq.now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            query: QueryEcho {
                task: wreq.task.clone(),
                cwd: sel.route.cwd.display().to_string(),
                ..QueryEcho::default()
            },
            project: None,
            route: RouteInfo {
                method: route_method(sel.route.method).to_owned(),
                project_id: sel.route.project_id.clone(),
                reasons: Vec::new(),
            },
            query_terms: &sel.task_terms,
            selection_basis: Vec::new(),
            suppressed: 0,
            withheld_notice: cairn_policy::WITHHELD_NOTICE,
            budget_format: Format::Prompt.as_str().to_owned(),
            budget_limit: profile.budget_for("prompt").unwrap_or(1500),
            tokenizer: TOKENIZER_NAME.to_owned(),
            scan_diagnostics: 0,
            partial: false,
            default_budget: profile.budget_for("prompt"),
            limit: Some(req.max_notes),
        };
        // As in a wake-up: the shown notes get their bodies, for their summaries.
        let (mut packet, _) =
            self.assemble_with_bodies(&request, &mut candidates, |_| BTreeSet::new());
        // Second line of defence, as for a packet: every string redacted again.
        packet.redact_texts();
        let mut items: Vec<Item> = packet
            .sections()
            .into_iter()
            .flat_map(|(_, items)| items.iter().cloned())
            .collect();
        items.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.path.cmp(&b.path))
        });
        items.truncate(req.max_notes);
        while !items.is_empty() {
            let rendered = self.renderer.render_related(&items, wreq.target)?;
            if rendered.chars().count() <= req.max_chars {
                let ids = items.into_iter().map(|i| i.id).collect();
                return Ok(PromptNotes { rendered, ids });
            }
            items.pop();
        }
        Ok(PromptNotes::default())
    }
}
