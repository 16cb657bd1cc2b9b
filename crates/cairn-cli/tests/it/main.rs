//! The `cairn` binary's integration tests, one test binary (one link) with a
//! module per area: each module drives the real binary as a user would.

mod common;

mod cli;
mod containment;
mod credentials;
mod doubt;
mod eval_cli;
mod git_task;
mod hook_prompt;
mod hook_session_start;
mod hooks_install;
mod index;
mod lint;
mod mcp_protocol;
mod mcp_python;
mod memory;
mod memory_trust;
mod real_vaults;
mod source_files;
mod untrusted_text;
