//! Character and byte caps on a wake-up (`WakeupRequest::caps`): fitting once in the
//! engine gives exactly what the hook's old loop gave (one whole wake-up per budget
//! tried, up to 24 of them), on the demo vault and on a synthetic vault far larger
//! than any cap.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use cairn_engine::config::Config;
use cairn_engine::*;
use cairn_render::estimate_tokens;

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/demo")
        .canonicalize()
        .unwrap()
}

fn request(cwd: PathBuf, target: Target, budget: Option<usize>, caps: OutputCaps) -> WakeupRequest {
    WakeupRequest {
        cwd,
        project: None,
        task: String::new(),
        files: Vec::new(),
        profile: None,
        target,
        format: Format::Prompt,
        budget,
        now: "2026-11-22T00:00:00Z".parse().unwrap(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps,
    }
}

/// The hook's loop before the caps moved into the request (`cairn-hooks/src/fit.rs`),
/// kept here as the reference: a whole wake-up per budget tried.
fn old_loop(engine: &Engine, base: &WakeupRequest) -> Result<String, String> {
    let caps = base.caps;
    let max_chars = caps.max_chars.unwrap_or(usize::MAX);
    let max_bytes = caps.max_bytes.unwrap_or(usize::MAX);
    let render = |budget: Option<usize>| {
        let r = WakeupRequest {
            budget,
            caps: OutputCaps::NONE,
            ..base.clone()
        };
        engine
            .wakeup(&r)
            .map(|o| (o.rendered, o.packet.budget.limit_tokens))
            .map_err(|e| e.to_string())
    };
    let cap = |b: usize| caps.max_tokens.map_or(b, |m| b.min(m));
    let (mut text, mut budget) = render(base.budget.map(cap))?;
    for _ in 0..24 {
        if let Some(max) = caps.max_tokens
            && budget > max
        {
            (text, budget) = render(Some(max))?;
            continue;
        }
        let chars = text.chars().count();
        let bytes = text.len();
        if chars <= max_chars && bytes <= max_bytes {
            return Ok(text);
        }
        let ratio = (max_chars as f64 / chars as f64).min(max_bytes as f64 / bytes.max(1) as f64);
        let measured = estimate_tokens(&text).min(budget);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let next = ((measured as f64 * ratio * 0.95).floor() as usize)
            .min(budget.saturating_sub(1).max(1) * 95 / 100);
        if next == 0 {
            break;
        }
        (text, budget) = render(Some(next))?;
    }
    Err(format!(
        "the packet does not fit in {max_chars} characters at any token budget"
    ))
}

fn caps_to_try() -> Vec<OutputCaps> {
    let chars = |c: usize| OutputCaps {
        max_chars: Some(c),
        max_bytes: Some(usize::MAX),
        max_tokens: None,
    };
    vec![
        chars(9_000),
        OutputCaps {
            max_chars: Some(9_600),
            max_bytes: Some(9_600),
            max_tokens: Some(2_400),
        },
        OutputCaps {
            max_chars: Some(2_000),
            max_bytes: Some(2_000),
            max_tokens: Some(300),
        },
        chars(1_500),
        chars(700),
        chars(40),
        OutputCaps {
            max_chars: Some(100_000),
            max_bytes: Some(3_000),
            max_tokens: None,
        },
    ]
}

fn same_as_the_old_loop(engine: &Engine, cwds: &[PathBuf]) -> usize {
    let mut shrunk = 0;
    for cwd in cwds {
        for target in [Target::Claude, Target::Codex] {
            for budget in [None, Some(50_000), Some(400)] {
                for caps in caps_to_try() {
                    let req = request(cwd.clone(), target, budget, caps);
                    let new = engine
                        .wakeup(&req)
                        .map(|o| o.rendered)
                        .map_err(|e| e.to_string());
                    let old = old_loop(engine, &req);
                    assert_eq!(new, old, "{} {target:?} {budget:?} {caps:?}", cwd.display());
                    let uncapped = engine
                        .wakeup(&WakeupRequest {
                            caps: OutputCaps::NONE,
                            ..req.clone()
                        })
                        .map(|o| o.rendered);
                    if new.is_ok() && uncapped.ok() != new.ok() {
                        shrunk += 1;
                    }
                }
            }
        }
    }
    shrunk
}

#[test]
fn caps_in_the_request_render_what_the_old_loop_rendered_on_the_demo_vault() {
    let config = Config::load(&demo_dir().join("cairn.toml"), None).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let repos = demo_dir().join("repos");
    let shrunk = same_as_the_old_loop(&engine, &[repos.join("ledger"), demo_dir()]);
    assert!(shrunk > 5, "the caps were exercised: {shrunk}");
}

#[test]
fn caps_in_the_request_render_what_the_old_loop_rendered_on_a_large_vault() {
    let dir = tempfile::tempdir().unwrap();
    let spec = cairn_synth::Spec::new(300);
    cairn_synth::generate(dir.path(), &spec).unwrap();
    let config = Config::for_vault(dir.path()).unwrap();
    let engine = Engine::open(config, &OpenOptions::default()).unwrap();
    let shrunk = same_as_the_old_loop(&engine, &[dir.path().to_path_buf()]);
    assert!(shrunk > 5, "the caps were exercised: {shrunk}");
}
