//! cairn-git's integration tests against real repositories built by git, one
//! test binary (one link): the history and the working tree.

mod common;

mod committed;
mod history;
mod working_tree;
