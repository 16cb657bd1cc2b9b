//! Rendering's integration tests, one test binary (one link): every template,
//! and untrusted text in every value.

mod render;
mod untrusted;
