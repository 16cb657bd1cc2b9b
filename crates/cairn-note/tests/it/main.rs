//! The note parser's integration tests, one test binary (one link) with a module
//! per area: entries, front matter, parsing, real vaults' shapes, sensitivity.

mod entries;
mod frontmatter;
mod marks;
mod parse;
mod real_vaults;
mod sensitivity;
