//! The file's shape as serde reads it (`Raw*`), before validation; tables cairn
//! does not use are accepted and ignored. Every value a later check can refuse is
//! read with its place in the file (`toml::Spanned`), so the error names its line.

use serde::Deserialize;
use toml::Spanned;

use crate::{Limits, Module, Scene};

#[derive(Debug, Deserialize)]
pub(crate) struct RawConfig {
    pub(crate) vault: Option<Spanned<RawVault>>,
    #[serde(default)]
    pub(crate) developer: RawDeveloper,
    #[serde(default)]
    pub(crate) projects: Vec<RawProject>,
    #[serde(default)]
    pub(crate) scenes: Vec<Scene>,
    #[serde(default)]
    pub(crate) ranking: RawRanking,
    #[serde(default)]
    pub(crate) index: RawIndex,
    #[serde(default)]
    pub(crate) profiles: RawProfiles,
    #[serde(default)]
    pub(crate) memory: RawMemory,
    #[serde(default)]
    pub(crate) git: RawGit,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawGit {
    pub(crate) derive: Option<bool>,
    pub(crate) commits: Option<usize>,
    pub(crate) changed_files: Option<usize>,
    pub(crate) timeout_ms: Option<Spanned<u64>>,
    pub(crate) code_changed_deboost: Option<Spanned<f64>>,
    pub(crate) history_commits: Option<Spanned<usize>>,
    pub(crate) history_days: Option<Spanned<u32>>,
    pub(crate) date_notes: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawMemory {
    pub(crate) global: Option<Spanned<String>>,
    pub(crate) user: Option<Spanned<String>>,
    pub(crate) personas: Option<Spanned<String>>,
    pub(crate) project_folder: Option<Spanned<String>>,
    #[serde(default)]
    pub(crate) projects: std::collections::BTreeMap<Spanned<String>, Spanned<String>>,
    pub(crate) archive_folder: Option<Spanned<String>>,
    pub(crate) max_note_bytes: Option<Spanned<u64>>,
    pub(crate) index_budget_lines: Option<Spanned<usize>>,
    pub(crate) nested: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawVault {
    pub(crate) root: Option<Spanned<String>>,
    pub(crate) limits: Option<Spanned<Limits>>,
    pub(crate) templates: Option<Spanned<String>>,
    pub(crate) retiring_statuses: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawDeveloper {
    #[serde(default)]
    pub(crate) note_roots: Vec<Spanned<String>>,
    #[serde(default)]
    pub(crate) identity_roots: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawRanking {
    pub(crate) half_life_days: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawProject {
    pub(crate) id: Spanned<String>,
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) repo_paths: Vec<String>,
    #[serde(default)]
    pub(crate) remotes: Vec<Spanned<String>>,
    #[serde(default)]
    pub(crate) note_roots: Vec<Spanned<String>>,
    #[serde(default)]
    pub(crate) default_tags: Vec<String>,
    #[serde(default)]
    pub(crate) modules: Vec<Module>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawIndex {
    pub(crate) dir: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawProfiles {
    pub(crate) dir: Option<String>,
}
