//! `cairn hooks install|uninstall|status` through the real binary, on sample settings
//! files in a temporary `$HOME`: existing content kept, idempotent, backups written,
//! dry runs write nothing, uninstall restores, status runs the configured hook.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::test_cairn;

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn demo_config() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/demo/cairn.toml")
        .canonicalize()
        .unwrap()
}

fn cairn(home: &Path) -> Command {
    let mut c = test_cairn();
    c.env("HOME", home)
        .env_remove("CAIRN_CONFIG")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .current_dir(home);
    c
}

fn install(home: &Path, extra: &[&str]) -> String {
    let out = cairn(home)
        .args([
            "hooks",
            "install",
            "--config",
            demo_config().to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.to_string_lossy().contains(".cairn-backup-"));
    v.sort();
    v
}

const CLAUDE_SETTINGS: &str = r#"{
  "model": "opus",
  "permissions": { "allow": ["Bash(cargo test:*)"] },
  "hooks": {
    "SessionStart": [
      { "matcher": "startup", "hooks": [ { "type": "command", "command": "echo team-banner" } ] }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] }
    ]
  }
}
"#;

const GEMINI_SETTINGS: &str = r#"{
  // my theme
  "theme": "GitHub",
  "mcpServers": {
    "github": { "command": "gh-mcp", "args": [] }
  }
}
"#;

const CURSOR_HOOKS: &str = r#"{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": "./format.sh" }]
  }
}
"#;

const CODEX_CONFIG: &str = r#"# Codex settings
model = "gpt-5-codex"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]
"#;

fn seed(home: &Path) {
    for (rel, text) in [
        (".claude/settings.json", CLAUDE_SETTINGS),
        (".gemini/settings.json", GEMINI_SETTINGS),
        (".cursor/hooks.json", CURSOR_HOOKS),
        (".codex/config.toml", CODEX_CONFIG),
    ] {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&read(p)).unwrap()
}

#[test]
fn install_merges_keeps_everything_and_backs_up() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    seed(h);
    let report = install(h, &["--client", "claude,codex,gemini,cursor"]);
    assert!(report.contains("session-start hook added"), "{report}");

    // Claude Code: the team's hooks and other keys are still there, cairn's entry added.
    let s = json(&h.join(".claude/settings.json"));
    assert_eq!(s["model"], "opus");
    assert_eq!(s["permissions"]["allow"][0], "Bash(cargo test:*)");
    assert_eq!(
        s["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "./guard.sh"
    );
    let starts = s["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(starts.len(), 2);
    assert_eq!(starts[0]["hooks"][0]["command"], "echo team-banner");
    let cmd = starts[1]["hooks"][0]["command"].as_str().unwrap();
    assert!(
        cmd.contains(" hook session-start --client claude --config "),
        "{cmd}"
    );
    assert!(cmd.contains(demo_config().to_str().unwrap()));
    // No matcher: every source (startup, resume, clear, compact, fork) runs it.
    assert!(starts[1].get("matcher").is_none(), "{s}");
    // The prompt hook: UserPromptSubmit, no matcher.
    let prompts = s["hooks"]["UserPromptSubmit"].as_array().unwrap();
    assert_eq!(prompts.len(), 1);
    let cmd = prompts[0]["hooks"][0]["command"].as_str().unwrap();
    assert!(
        cmd.contains(" hook prompt --client claude --config "),
        "{cmd}"
    );
    assert!(prompts[0].get("matcher").is_none());
    let mcp = json(&h.join(".claude.json"));
    assert_eq!(mcp["mcpServers"]["cairn"]["args"][0], "mcp");
    assert_eq!(mcp["mcpServers"]["cairn"]["type"], "stdio");

    // Gemini CLI: comments survive (the file is edited, not rewritten), both entries added.
    let g = read(&h.join(".gemini/settings.json"));
    assert!(g.contains("// my theme"), "{g}");
    assert!(
        g.contains("\"github\": { \"command\": \"gh-mcp\", \"args\": [] }"),
        "{g}"
    );
    assert!(g.contains("--client gemini"), "{g}");
    assert!(g.contains("\"cairn\""), "{g}");
    assert!(g.contains("\"BeforeAgent\""), "{g}");
    assert!(g.contains("hook prompt --client gemini"), "{g}");

    // Cursor: the other hook kept, sessionStart added (no prompt hook: Cursor's cannot
    // add context).
    let c = json(&h.join(".cursor/hooks.json"));
    assert!(!read(&h.join(".cursor/hooks.json")).contains("hook prompt"));
    assert_eq!(c["version"], 1);
    assert_eq!(c["hooks"]["afterFileEdit"][0]["command"], "./format.sh");
    assert!(
        c["hooks"]["sessionStart"][0]["command"]
            .as_str()
            .unwrap()
            .contains("--client cursor")
    );
    assert_eq!(
        json(&h.join(".cursor/mcp.json"))["mcpServers"]["cairn"]["args"][0],
        "mcp"
    );

    // Codex: hooks.json created, config.toml keeps its comment and other server.
    let hooks = json(&h.join(".codex/hooks.json"));
    assert!(
        hooks["hooks"]["SessionStart"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .contains("--client codex")
    );
    assert!(
        hooks["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .contains("hook prompt --client codex")
    );
    assert!(report.contains("codex_hooks = true"), "{report}");
    let toml = read(&h.join(".codex/config.toml"));
    assert!(toml.starts_with(CODEX_CONFIG), "{toml}");
    assert!(toml.contains("[mcp_servers.cairn]"), "{toml}");

    // Each pre-existing file was backed up, byte for byte.
    for (dir, name, original) in [
        (".claude", "settings.json", CLAUDE_SETTINGS),
        (".gemini", "settings.json", GEMINI_SETTINGS),
        (".cursor", "hooks.json", CURSOR_HOOKS),
        (".codex", "config.toml", CODEX_CONFIG),
    ] {
        let b = backups(&h.join(dir));
        let b: Vec<&PathBuf> = b
            .iter()
            .filter(|p| p.to_string_lossy().contains(name))
            .collect();
        assert_eq!(b.len(), 1, "{dir}/{name}: {b:?}");
        assert_eq!(read(b[0]), original);
    }
}

#[test]
fn installing_twice_adds_nothing() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    seed(h);
    install(h, &["--client", "claude,codex,gemini,cursor"]);
    let files = [
        ".claude/settings.json",
        ".claude.json",
        ".gemini/settings.json",
        ".cursor/hooks.json",
        ".cursor/mcp.json",
        ".codex/hooks.json",
        ".codex/config.toml",
    ];
    let before: Vec<String> = files.iter().map(|f| read(&h.join(f))).collect();
    let backups_before: usize = [".claude", ".gemini", ".cursor", ".codex"]
        .iter()
        .map(|d| backups(&h.join(d)).len())
        .sum();
    let report = install(h, &["--client", "claude,codex,gemini,cursor"]);
    assert_eq!(report.matches("already wired").count(), 4, "{report}");
    let after: Vec<String> = files.iter().map(|f| read(&h.join(f))).collect();
    assert_eq!(before, after);
    let backups_after: usize = [".claude", ".gemini", ".cursor", ".codex"]
        .iter()
        .map(|d| backups(&h.join(d)).len())
        .sum();
    assert_eq!(backups_before, backups_after);
}

#[test]
fn a_moved_binary_is_updated_in_place_not_duplicated() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    install(h, &["--client", "claude", "--bin", "/old/place/cairn"]);
    let report = install(h, &["--client", "claude", "--bin", "/new/place/cairn"]);
    assert!(report.contains("session-start hook updated"), "{report}");
    let s = json(&h.join(".claude/settings.json"));
    let starts = s["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(starts.len(), 1);
    assert!(
        starts[0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .starts_with("/new/place/cairn hook")
    );
    assert_eq!(
        json(&h.join(".claude.json"))["mcpServers"]["cairn"]["command"],
        "/new/place/cairn"
    );
}

#[test]
fn dry_run_shows_a_diff_and_writes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    seed(h);
    let report = install(h, &["--client", "claude,codex,gemini,cursor", "--dry-run"]);
    assert!(report.contains("--- a: "), "{report}");
    assert!(report.contains("+++ b: "), "{report}");
    // Codex keeps its matcher; Claude Code's entry has none.
    assert!(
        report.contains("+        \"matcher\": \"startup|resume|clear|compact\","),
        "{report}"
    );
    assert!(report.contains("\"UserPromptSubmit\""), "{report}");
    assert!(
        report.contains("(dry run: nothing was written)"),
        "{report}"
    );
    assert_eq!(read(&h.join(".claude/settings.json")), CLAUDE_SETTINGS);
    assert_eq!(read(&h.join(".gemini/settings.json")), GEMINI_SETTINGS);
    assert_eq!(read(&h.join(".cursor/hooks.json")), CURSOR_HOOKS);
    assert_eq!(read(&h.join(".codex/config.toml")), CODEX_CONFIG);
    assert!(!h.join(".claude.json").exists());
    assert!(!h.join(".codex/hooks.json").exists());
    for d in [".claude", ".gemini", ".cursor", ".codex"] {
        assert!(backups(&h.join(d)).is_empty(), "{d}");
    }
}

#[test]
fn uninstall_restores_the_original_files() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    seed(h);
    install(h, &["--client", "claude,codex,gemini,cursor"]);
    let out = cairn(h)
        .args([
            "hooks",
            "uninstall",
            "--client",
            "claude,codex,gemini,cursor",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(read(&h.join(".claude/settings.json")), CLAUDE_SETTINGS);
    assert_eq!(read(&h.join(".gemini/settings.json")), GEMINI_SETTINGS);
    assert_eq!(read(&h.join(".cursor/hooks.json")), CURSOR_HOOKS);
    assert_eq!(read(&h.join(".codex/config.toml")), CODEX_CONFIG);
    let again = cairn(h)
        .args(["hooks", "uninstall", "--client", "claude"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing of cairn's to remove"));
}

#[test]
fn project_scope_writes_in_the_project() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    install(
        home.path(),
        &[
            "--client",
            "claude,cursor",
            "--scope",
            "project",
            "--dir",
            project.path().to_str().unwrap(),
        ],
    );
    assert!(project.path().join(".claude/settings.json").is_file());
    assert!(project.path().join(".mcp.json").is_file());
    assert!(project.path().join(".cursor/hooks.json").is_file());
    assert!(!home.path().join(".claude/settings.json").exists());
}

#[test]
fn a_file_cairn_cannot_edit_safely_is_left_alone() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let p = h.join(".claude/settings.json");
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, "{ \"hooks\": \"not an object\" }\n").unwrap();
    let out = cairn(h)
        .args([
            "hooks",
            "install",
            "--client",
            "cursor,claude",
            "--config",
            demo_config().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`hooks` is not an object"), "{err}");
    assert_eq!(read(&p), "{ \"hooks\": \"not an object\" }\n");
    // Planned before writing: the other client was not half-installed either.
    assert!(!h.join(".cursor/hooks.json").exists());
}

#[test]
fn install_without_any_configuration_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let out = cairn(home.path())
        .args(["hooks", "install", "--client", "claude"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no configuration found"));
}

#[test]
fn status_runs_the_configured_hooks() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let out = cairn(h)
        .args(["hooks", "status", "--client", "claude"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("hook: not wired"), "{s}");

    install(h, &["--client", "claude,codex,gemini,cursor"]);
    let out = cairn(h).args(["hooks", "status"]).output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{s}");
    // Four session-start hooks and three prompt hooks (Cursor has none).
    assert_eq!(s.matches("ok: runs: ").count(), 7, "{s}");
    assert_eq!(s.matches("prompt hook: wired in").count(), 3, "{s}");
    for name in ["Claude Code", "Codex", "Gemini CLI", "Cursor"] {
        assert!(s.contains(&format!("valid {name} envelope")), "{name}: {s}");
    }
    assert_eq!(s.matches("MCP:  registered").count(), 4, "{s}");

    // A hook whose configuration broke delivers only a notice: status says so, exit 1.
    let settings = h.join(".claude/settings.json");
    let text = read(&settings).replace(demo_config().to_str().unwrap(), "/nonexistent/cairn.toml");
    std::fs::write(&settings, text).unwrap();
    let out = cairn(h)
        .args(["hooks", "status", "--client", "claude"])
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{s}");
    assert!(s.contains("FAILED: runs, but delivers a notice"), "{s}");
    // The reason, which the model never sees, is what status reports.
    assert!(s.contains("/nonexistent/cairn.toml"), "{s}");
}

#[test]
fn status_tells_whether_the_hooks_index_is_current() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let idx = h.join("index");
    install(
        h,
        &["--client", "claude", "--index-dir", idx.to_str().unwrap()],
    );
    assert!(
        read(&h.join(".claude/settings.json")).contains("--index-dir"),
        "the hook reads the index it was installed with"
    );
    let status = || {
        let out = cairn(h)
            .args(["hooks", "status", "--client", "claude", "--no-run"])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let s = status();
    assert!(s.contains("index: not built yet"), "{s}");
    assert!(!s.contains("  builds"), "one line, no run of spaces: {s}");
    let build_now = format!(
        "run `cairn index --config {} --index-dir {}`",
        demo_config().display(),
        idx.display()
    );
    assert!(s.contains(&build_now), "the hook's own index: {s}");
    assert!(!idx.exists(), "status writes nothing");

    let out = cairn(h)
        .args(["index", "--config", demo_config().to_str().unwrap()])
        .arg("--index-dir")
        .arg(&idx)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = status();
    assert!(s.contains("index: current ("), "{s}");
}

#[test]
fn the_prompt_hook_can_be_left_out_and_removed() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    install(h, &["--client", "claude,gemini"]);
    assert!(read(&h.join(".claude/settings.json")).contains("UserPromptSubmit"));
    // Opting out later removes the prompt hook an earlier install added.
    let report = install(h, &["--client", "claude,gemini", "--no-prompt-hook"]);
    assert!(report.contains("prompt hook removed"), "{report}");
    let s = read(&h.join(".claude/settings.json"));
    assert!(
        !s.contains("UserPromptSubmit") && s.contains("hook session-start"),
        "{s}"
    );
    assert!(!read(&h.join(".gemini/settings.json")).contains("BeforeAgent"));
    let out = cairn(h)
        .args(["hooks", "status", "--client", "claude", "--no-run"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("prompt hook: not wired"));
}

#[test]
fn claude_config_dir_is_where_claude_settings_live() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let dir = h.join("xdg/claude");
    let out = cairn(h)
        .env("CLAUDE_CONFIG_DIR", &dir)
        .args(["hooks", "install", "--client", "claude", "--config"])
        .arg(demo_config())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(read(&dir.join("settings.json")).contains("hook session-start"));
    assert!(read(&dir.join(".claude.json")).contains("\"cairn\""));
    assert!(!h.join(".claude").exists() && !h.join(".claude.json").exists());
    let out = cairn(h)
        .env("CLAUDE_CONFIG_DIR", &dir)
        .args(["hooks", "status", "--client", "claude", "--no-run"])
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(
        s.contains("hook: wired in") && s.contains("MCP:  registered"),
        "{s}"
    );
}

#[test]
fn reinstalling_drops_the_old_claude_matcher_and_keeps_three_backups() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    std::fs::create_dir_all(h.join(".claude")).unwrap();
    // What an earlier release wrote.
    std::fs::write(
        h.join(".claude/settings.json"),
        r#"{"hooks":{"SessionStart":[{"matcher":"startup|resume|clear|compact","hooks":[{"type":"command","command":"/old/cairn hook session-start --client claude","timeout":10}]}]}}"#,
    )
    .unwrap();
    let report = install(h, &["--client", "claude", "--bin", "/new/cairn"]);
    assert!(report.contains("session-start hook updated"), "{report}");
    let s = json(&h.join(".claude/settings.json"));
    let start = &s["hooks"]["SessionStart"][0];
    assert!(start.get("matcher").is_none(), "{s}");
    assert!(
        start["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .starts_with("/new/cairn hook")
    );
    // Each install that changes the file makes a backup; only the newest three stay.
    for bin in ["/a/cairn", "/b/cairn", "/c/cairn", "/d/cairn"] {
        install(h, &["--client", "claude", "--bin", bin]);
    }
    let kept: Vec<PathBuf> = backups(&h.join(".claude"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("settings.json"))
        .collect();
    assert_eq!(kept.len(), 3, "{kept:?}");
    // The newest backup holds the file as it was before the last install.
    let newest = cairn_hooks::install::backups(&h.join(".claude/settings.json"));
    assert!(read(newest.last().unwrap()).contains("/c/cairn hook"));
    assert!(!kept.iter().any(|p| read(p).contains("/old/cairn")));
}
