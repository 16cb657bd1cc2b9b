//! Rendering's integration tests, one test binary (one link): every template,
//! untrusted text in every value, and what a rendering reads of the budget.

mod render;
mod untrusted;
mod watch;
