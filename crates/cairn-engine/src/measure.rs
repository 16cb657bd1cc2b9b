//! What a measuring harness (`cairn-eval`, the benchmarks) needs beside the front
//! ends' requests: the vault read apart from indexing, so that each can be timed,
//! and the ids a search ranks before it is presented.

use cairn_config::Config;
use cairn_policy::Visibility;

use crate::{Engine, EngineError, SearchRequest};

pub use cairn_scan::Scan;

/// Lists and parses every note of the configured vault, without indexing them:
/// hand the result to [`Engine::from_notes`]. What [`Engine::open`] does in
/// memory, in two steps a harness can time apart.
pub fn scan_vault(config: &Config) -> Scan {
    cairn_scan::scan(&config.vault.root, &[String::new()], &config.vault.limits)
}

impl Engine {
    /// The ids of the notes [`Engine::search`] ranks for `req`, best first: the same
    /// routing, ranking and policy, notes hidden by policy left out (withheld ones
    /// kept), at most `req.limit`, without snippets. For measuring a ranking
    /// against expected ids; the ids are the notes' own, not redacted.
    pub fn ranked_ids(&self, req: &SearchRequest) -> Result<Vec<String>, EngineError> {
        let ranked = self.rank(req)?;
        Ok(ranked
            .scored
            .iter()
            .filter(|(_, v)| *v != Visibility::Hidden)
            .take(req.limit)
            .filter_map(|(s, _)| self.note(&s.path))
            .map(|n| n.id.clone())
            .collect())
    }
}
