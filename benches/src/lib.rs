//! Shared set-up of the benchmarks: which vault sizes to run and a cached
//! synthetic vault per size (generated once by `cairn-synth`, reused while its
//! spec is unchanged).

use std::path::PathBuf;

pub use cairn_synth::Spec;

/// Vault sizes: 1k and 10k notes, plus 100k with `CAIRN_BENCH_100K=1` (it takes
/// long: generating, scanning and indexing 300 MB).
pub fn sizes() -> Vec<usize> {
    let mut s = vec![1_000, 10_000];
    if std::env::var("CAIRN_BENCH_100K").is_ok_and(|v| v == "1") {
        s.push(100_000);
    }
    s
}

/// The generated vault of `notes` notes (root folder holding `cairn.toml`), made on
/// first use under the system temp folder.
pub fn vault(notes: usize) -> Result<PathBuf, cairn_synth::SynthError> {
    let spec = Spec::new(notes);
    let dir = std::env::temp_dir().join(format!(
        "cairn-bench-{}-{}-{}",
        spec.notes, spec.seed, spec.projects
    ));
    let marker = dir.join(".complete");
    if !marker.is_file() {
        cairn_synth::generate(&dir, &spec)?;
        std::fs::write(&marker, format!("{spec:?}")).map_err(|source| {
            cairn_synth::SynthError::Io {
                path: marker.clone(),
                source,
            }
        })?;
    }
    Ok(dir)
}
