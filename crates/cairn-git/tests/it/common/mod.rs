//! Real repositories for the tests (`cairn_synth::git`: the `git` binary with a
//! fixed identity and commits at fixed dates).

pub(crate) use cairn_synth::git::{Repo, git_in};
