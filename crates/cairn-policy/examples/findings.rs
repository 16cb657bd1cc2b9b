//! Every credential finding in the markdown files under the given folders, one
//! per line (`path:line Kind xy… (n bytes)`, never the secret), in path order: run it before and after a
//! change to the rules and diff the two, to see what a rule newly flags on
//! real collections (the labelled corpus in `fixtures/credentials/` measures
//! recall and false positives; this shows them on text nobody labelled).
//!
//! `cargo run -q -p cairn-policy --example findings -- DIR...`

#![allow(clippy::print_stdout)] // an example prints its findings

fn main() {
    let mut files = Vec::new();
    for root in std::env::args().skip(1) {
        let mut stack = vec![std::path::PathBuf::from(root)];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                // Not through symlinks: a link to a folder above loops.
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    stack.push(path);
                } else if kind.is_file() && path.extension().is_some_and(|x| x == "md") {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for found in cairn_policy::find_credentials_markdown(&text) {
            // Never the secret itself: its first two characters and its length,
            // enough to tell a finding from another when diffing two runs
            // (open the file at the line to judge it).
            let found_text = &text[found.start..found.end];
            let head: String = found_text.chars().take(2).collect();
            println!(
                "{}:{} {:?} {head}… ({} bytes)",
                file.display(),
                found.line,
                found.kind,
                found_text.len()
            );
        }
    }
}
