//! Rules every library and binary source file of the workspace keeps: it opens
//! with a `//!` header saying its one job, and it has at most 800 lines, not
//! counting its `#[cfg(test)]` module. Big files are split by what they do.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 800;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Every `crates/*/src/**/*.rs`, sorted.
fn source_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for krate in std::fs::read_dir(workspace().join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            walk(&src, &mut out);
        }
    }
    out.sort();
    out
}

/// The lines of `text` outside its top-level `#[cfg(test)]` (or
/// `#[cfg(all(test, …))]`) modules.
fn lines_outside_tests(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut count = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let is_test_attr = line.starts_with("#[cfg(test)]") || line.starts_with("#[cfg(all(test");
        let module_follows = lines
            .iter()
            .skip(i + 1)
            .take(3)
            .find(|l| !l.starts_with("#["))
            .is_some_and(|l| l.starts_with("mod ") && l.trim_end().ends_with('{'));
        if is_test_attr && module_follows {
            // Skip to the module's closing brace at column 0.
            while i < lines.len() && lines[i] != "}" {
                i += 1;
            }
            i += 1;
            continue;
        }
        count += 1;
        i += 1;
    }
    count
}

#[test]
fn no_source_file_is_over_800_lines_outside_its_tests() {
    let root = workspace();
    let too_long: Vec<String> = source_files()
        .iter()
        .filter_map(|p| {
            let n = lines_outside_tests(&std::fs::read_to_string(p).unwrap());
            (n > MAX_LINES)
                .then(|| format!("{} ({n} lines)", p.strip_prefix(&root).unwrap().display()))
        })
        .collect();
    assert!(
        too_long.is_empty(),
        "split these by what they do (at most {MAX_LINES} lines outside #[cfg(test)]):\n{}",
        too_long.join("\n")
    );
}

#[test]
fn every_source_file_opens_with_a_header() {
    let root = workspace();
    let bare: Vec<String> = source_files()
        .iter()
        .filter(|p| !std::fs::read_to_string(p).unwrap().starts_with("//!"))
        .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    assert!(bare.is_empty(), "no `//!` header:\n{}", bare.join("\n"));
}

#[test]
fn the_counter_skips_test_modules_only() {
    let text = "//! x\nfn a() {}\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\nfn c() {}\n";
    assert_eq!(lines_outside_tests(text), 3);
}
