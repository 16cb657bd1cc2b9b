//! The sensitivity levels the parser reads, one line per markdown file under
//! the folders given: `path<TAB>level` (an entry file's notes' levels joined by
//! `,`), in path order. Run before and after a change to the mark reader and
//! compare the outputs (docs/BENCHMARKS.md, "Reading banners"):
//!
//! ```sh
//! cargo run --release -q -p cairn-note --example levels -- DIR... > levels.txt
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    let mut files = Vec::new();
    for dir in std::env::args().skip(1) {
        walk(Path::new(&dir), &mut files);
    }
    files.sort();
    let mut out = std::io::stdout().lock();
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let shown = path.display().to_string();
        let parsed = cairn_note::parse_file(&shown, &bytes);
        let levels: Vec<String> = parsed
            .notes
            .iter()
            .map(|n| format!("{:?}", n.sensitivity))
            .collect();
        // A closed pipe (`| head`) ends the report.
        if writeln!(out, "{shown}\t{}", levels.join(",")).is_err() {
            return;
        }
    }
}

/// The markdown files under `dir` (not following links, skipping `.git`).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && entry.file_name() != ".git" {
            walk(&path, out);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}
