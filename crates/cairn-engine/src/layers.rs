//! The layers of a packet before assembly: the hot layer (task-independent) and,
//! with no query at all, the recently edited and most linked notes after it; then
//! the candidates they make with every other visible scored note (the task layer).

use std::collections::{HashMap, HashSet};

use cairn_assemble::{Candidate, HotKind, Layer, Origin, Profile};
use cairn_note::Note;
use cairn_policy::Visibility;
use cairn_score::Scored;

use crate::Engine;
use crate::hot::{self, HotInput};
use crate::wakeup::{Selection, WakeupRequest};

impl Engine {
    /// The hot layer (chosen with the selection) and, with no query at all, the
    /// recently edited notes after it. `budget` is the packet's requested token
    /// budget (`None`: the profile's).
    pub(crate) fn layers<'e>(
        &'e self,
        sel: &Selection<'e>,
        req: &WakeupRequest,
        budget: Option<usize>,
    ) -> Layers<'e> {
        let profile = sel.profile;
        let project = sel.route.project_id.as_deref();
        let mut picks: Vec<(&'e Note, Layer)> = sel
            .hot
            .iter()
            .map(|&(n, kind)| (n, Layer::Hot(kind)))
            .collect();
        if sel.query.is_empty() {
            let hot_paths: HashSet<&str> = picks.iter().map(|(n, _)| n.path.as_str()).collect();
            let mut roots = sel.primary_roots.clone();
            roots.extend(sel.secondary_roots.iter().cloned());
            // Another project's notes, by their `project_id` or by name, never.
            let in_profile = sel
                .scored
                .iter()
                .filter(|s| s.other_project.is_none())
                .filter_map(|s| {
                    let n = *sel.notes.get(s.path.as_str())?;
                    sel.in_the_no_task_list(n).then_some(n)
                });
            let limit = req.limit.unwrap_or_else(|| {
                let default = profile.budget_for(req.format.as_str());
                let budget = budget.or(default).unwrap_or_default();
                cairn_assemble::scale_to_budget(profile.hot.recent, budget, default)
            });
            let hubs: HashMap<&str, u32> = self
                .notes
                .hubs()
                .iter()
                .map(|(p, k)| (p.as_str(), *k))
                .collect();
            let recent = hot::recent(
                in_profile,
                &hot::RecentInput {
                    hot: &hot_paths,
                    roots: &roots,
                    project_ids: &sel.owners.ids,
                    project_id: project,
                    visible: &visible,
                    hubs: &hubs,
                    is_log_intro: &|n| self.is_log_intro(n),
                    own: &|n| sel.origin.get(n.path.as_str()) == Some(&profile.primary),
                    limit,
                },
            );
            picks.extend(recent.into_iter().map(|(n, links)| {
                (
                    n,
                    match links {
                        Some(k) => Layer::Hub(k),
                        None => Layer::Recent,
                    },
                )
            }));
        }
        // Every in-scope note was scored; the others get a neutral score.
        let neutral = picks
            .iter()
            .filter(|(n, _)| !sel.notes.contains_key(n.path.as_str()))
            .map(|(n, _)| cairn_score::Scored {
                path: n.path.clone(),
                score: 0.0,
                bm25: 0.0,
                relevance: 0.0,
                signals: 0.0,
                coverage: 0.0,
                part_coverage: None,
                anchored: false,
                successor_of: None,
                marked_stale: false,
                binding: false,
                factors: Vec::new(),
                retired: false,
                other_project: None,
                pinned: n.pinned,
            })
            .collect();
        Layers {
            picks,
            pins_over: sel.pins_over.clone(),
            neutral,
        }
    }

    /// The hot layer (see `hot.rs`): the developer's profile, the project's
    /// working context, pins and the last session, whatever the task; and the
    /// pins over the cap. `primary` and `secondary`: the profile's notes, as the
    /// selection listed them.
    pub(crate) fn hot_picks<'e>(
        &'e self,
        profile: &Profile,
        project: Option<&str>,
        project_ids: &[String],
        primary: &[&'e Note],
        secondary: &[&'e Note],
        req: &WakeupRequest,
    ) -> (Vec<(&'e Note, HotKind)>, Vec<&'e Note>) {
        let developer_roots = &self.config.developer.note_roots;
        let project_roots = self.roots(Origin::Project, project);
        let listed = |source: Origin, roots: &[String]| -> Vec<&'e Note> {
            if profile.primary == source {
                primary.to_vec()
            } else if profile.secondary == Some(source) {
                secondary.to_vec()
            } else {
                self.under_roots(roots).collect()
            }
        };
        let developer = listed(Origin::Developer, developer_roots);
        let project_notes = listed(Origin::Project, &project_roots);
        let identity_roots = match &self.config.developer.identity_roots {
            Some(roots) => roots.clone(),
            None => hot::default_identity_roots(developer_roots),
        };
        let (_, shared) = self.own_and_other_roots(project);
        let project_names = project
            .and_then(|id| self.config.project(id))
            .map(|p| crate::owners::project_names(p, &shared))
            .unwrap_or_default();
        hot::hot_layer(&HotInput {
            developer: &developer,
            project: &project_notes,
            identity_roots: &identity_roots,
            project_roots: &project_roots,
            project_id: project,
            project_names: &project_names,
            project_ids,
            today: req.now.date_naive(),
            // A task that asks to carry on the last session's work is a resumed
            // session's (`continue where I left off`).
            source: if req.source == hot::SessionSource::Startup
                && crate::resume::asks_to_resume(&req.task)
            {
                hot::SessionSource::Resume
            } else {
                req.source
            },
            rules: profile.hot,
            visible: &visible,
        })
    }
}

impl Selection<'_> {
    /// Whether the no-task list may hold `n`: the profile's primary folders'
    /// notes, and those of its secondary types from elsewhere, not of a type it
    /// excludes (then only the most recent and most linked are listed).
    pub(crate) fn in_the_no_task_list(&self, n: &Note) -> bool {
        let p = self.profile;
        let typed = n
            .memory_type
            .is_some_and(|t| p.secondary_types.contains(&t));
        let excluded = n.memory_type.is_some_and(|t| p.exclude_types.contains(&t));
        let primary = self.origin.get(n.path.as_str()) == Some(&p.primary);
        (primary || typed) && !excluded
    }
}

/// Whether a note shows in full without a task (the hot and no-task layers).
fn visible(n: &Note) -> bool {
    cairn_policy::visibility(n.sensitivity, false) == Visibility::Full
}

/// The hot layer and the no-task layer of one request.
pub(crate) struct Layers<'e> {
    /// Hot notes, then (with no query) recently edited ones, in packet order.
    pub picks: Vec<(&'e Note, Layer)>,
    /// Pinned notes past the hot layer's cap.
    pub pins_over: Vec<&'e Note>,
    /// Scores for the picked notes the profile's scope did not score.
    neutral: Vec<Scored>,
}

/// The packet's candidates: the hot and no-task notes first, each with the
/// profile's score (one pass over the scored notes), else a neutral one; then every
/// other visible scored note, in the task layer.
pub(crate) fn candidates<'e>(sel: &'e Selection<'e>, layers: &'e Layers<'e>) -> Vec<Candidate<'e>> {
    let profile = sel.profile;
    let picked: HashMap<&str, Layer> = layers
        .picks
        .iter()
        .map(|(n, layer)| (n.path.as_str(), *layer))
        .collect();
    let scores: HashMap<&str, &Scored> = sel
        .scored
        .iter()
        .chain(&layers.neutral)
        .filter(|s| picked.contains_key(s.path.as_str()))
        .map(|s| (s.path.as_str(), s))
        .collect();
    let mut candidates: Vec<Candidate<'e>> = layers
        .picks
        .iter()
        .filter_map(|&(note, layer)| {
            Some(Candidate {
                note,
                scored: scores.get(note.path.as_str())?,
                origin: sel
                    .origin
                    .get(note.path.as_str())
                    .copied()
                    .unwrap_or(profile.primary),
                withheld: false,
                layer,
            })
        })
        .collect();
    candidates.extend(sel.scored.iter().filter_map(|s| {
        if picked.contains_key(s.path.as_str()) {
            return None;
        }
        let note = *sel.notes.get(s.path.as_str())?;
        let v = *sel.visibility.get(s.path.as_str())?;
        let origin = *sel.origin.get(s.path.as_str())?;
        (v != Visibility::Hidden).then_some(Candidate {
            note,
            scored: s,
            origin,
            withheld: v == Visibility::Withheld,
            layer: Layer::Task,
        })
    }));
    candidates
}
