//! The file's shape as serde reads it (`Raw*`), before validation; tables cairn
//! does not use are accepted and ignored.

use serde::Deserialize;

use crate::{Limits, Module, Ranking, Scene};

#[derive(Debug, Deserialize)]
pub(crate) struct RawConfig {
    pub(crate) vault: Option<RawVault>,
    #[serde(default)]
    pub(crate) developer: RawDeveloper,
    #[serde(default)]
    pub(crate) projects: Vec<RawProject>,
    #[serde(default)]
    pub(crate) scenes: Vec<Scene>,
    #[serde(default)]
    pub(crate) ranking: Ranking,
    #[serde(default)]
    pub(crate) index: RawIndex,
    #[serde(default)]
    pub(crate) profiles: RawProfiles,
    #[serde(default)]
    pub(crate) memory: RawMemory,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawMemory {
    pub(crate) global: Option<String>,
    pub(crate) user: Option<String>,
    pub(crate) personas: Option<String>,
    pub(crate) project_folder: Option<String>,
    #[serde(default)]
    pub(crate) projects: std::collections::BTreeMap<String, String>,
    pub(crate) archive_folder: Option<String>,
    pub(crate) max_note_bytes: Option<u64>,
    pub(crate) index_budget_lines: Option<usize>,
    pub(crate) nested: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawVault {
    pub(crate) root: Option<String>,
    #[serde(default)]
    pub(crate) limits: Limits,
    pub(crate) templates: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawDeveloper {
    #[serde(default)]
    pub(crate) note_roots: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RawProject {
    pub(crate) id: String,
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) repo_paths: Vec<String>,
    #[serde(default)]
    pub(crate) note_roots: Vec<String>,
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
