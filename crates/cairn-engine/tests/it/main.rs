//! The engine's integration tests, one test binary (one link) with a module per
//! area: the pipeline end to end through the library's public API.

mod caps;
mod door;
mod doubt;
mod engine;
mod entries;
mod explain_terms;
mod layers;
mod list;
mod open;
mod persistent;
mod raw_get;
mod redact_first;
mod secret_lookup;
