//! The policy's integration tests, one test binary (one link) with a module per
//! area: the labelled credential corpus, the policy itself, untrusted text.

mod corpus;
mod leaks;
mod policy;
mod untrusted;
