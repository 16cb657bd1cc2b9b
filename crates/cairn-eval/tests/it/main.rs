//! The evaluation's integration tests, one test binary (one link): the
//! retrieval suite's floors and the devmem packet tasks.

mod devmem_packets;
mod eval;
