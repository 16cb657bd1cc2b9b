//! The engine is the only door: the front ends (the CLI, the session-start hook,
//! the MCP server) neither depend on nor call the stages below the engine that
//! read the vault (scan, index, cache), so there is one way to open, refresh and
//! rank a vault.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

const BELOW_THE_DOOR: &[&str] = &["cairn-scan", "cairn-index", "cairn-cache"];
const FRONT_ENDS: &[&str] = &["cairn-cli", "cairn-hooks", "cairn-mcp"];

fn crate_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name)
}

/// The names under `[dependencies]` of a manifest (dev-dependencies may switch on
/// a test feature below the engine; they are not part of the door).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && let Some((name, _)) = line.split_once(['=', '.']) {
            names.push(name.trim().to_owned());
        }
    }
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn front_ends_neither_depend_on_nor_call_what_lies_below_the_engine() {
    for front in FRONT_ENDS {
        let manifest = std::fs::read_to_string(crate_dir(front).join("Cargo.toml")).unwrap();
        let deps = dependencies(&manifest);
        assert!(
            deps.iter().any(|d| d == "cairn-engine"),
            "{front}: {deps:?}"
        );
        for below in BELOW_THE_DOOR {
            assert!(
                !deps.iter().any(|d| d == below),
                "{front} depends on {below}"
            );
        }
        let mut files = Vec::new();
        rust_files(&crate_dir(front).join("src"), &mut files);
        assert!(!files.is_empty(), "{front}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for below in BELOW_THE_DOOR {
                let path = format!("{}::", below.replace('-', "_"));
                let via_engine = format!("cairn_engine::{}::", &below["cairn-".len()..]);
                assert!(
                    !text.contains(&path) && !text.contains(&via_engine),
                    "{} calls {below} directly",
                    file.display()
                );
            }
        }
    }
}
