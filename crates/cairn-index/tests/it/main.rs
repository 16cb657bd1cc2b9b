//! The index's integration tests, one test binary (one link): indexing and
//! ranking.

mod index;
mod ranking;
