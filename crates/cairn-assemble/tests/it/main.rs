//! Assembly's integration tests, one test binary (one link): packets from
//! candidates, and real collections' note shapes read as their authors meant.

mod assemble;
mod realworld;
