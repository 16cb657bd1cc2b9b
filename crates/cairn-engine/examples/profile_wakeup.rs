//! Times the warm wake-up path in one process, phase by phase, for profiling
//! (`perf record` on this binary sees only the engine, not process start-up).
//!
//! `cargo run --release -p cairn-engine --example profile_wakeup -- CONFIG CWD INDEX_DIR [RUNS] [TASK]`
//!
//! TASK defaults to a fixed task; an empty TASK (`""`) takes the task the
//! working tree of CWD gives (the session-start hook's path, git read included).
//! With `PROFILE_ANSWER_ONLY=1` the engine opens once and only the answer is
//! repeated (what `perf` should see when the answer is being profiled).

#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::time::Instant;

use cairn_engine::config::Config;
use cairn_engine::{
    Engine, Format, IndexMode, OpenOptions, PersistentOptions, Ranking, Target, WakeupRequest,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: profile_wakeup CONFIG CWD INDEX_DIR [RUNS] [TASK]");
        std::process::exit(2);
    }
    let runs: usize = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(20);
    let req = WakeupRequest {
        cwd: PathBuf::from(&args[2]),
        project: None,
        task: args
            .get(5)
            .cloned()
            .unwrap_or_else(|| "fix payout retry idempotency".into()),
        files: Vec::new(),
        profile: None,
        target: Target::Generic,
        format: Format::Prompt,
        budget: None,
        now: chrono::Utc::now(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    };
    let opts = || OpenOptions {
        profiles_dir: None,
        index: IndexMode::Persistent(PersistentOptions {
            dir: Some(PathBuf::from(&args[3])),
            ..PersistentOptions::default()
        }),
    };
    if std::env::var_os("PROFILE_ANSWER_ONLY").is_some() {
        let Ok(config) = Config::load(std::path::Path::new(&args[1]), None) else {
            eprintln!("bad config");
            std::process::exit(2);
        };
        let Ok(engine) = Engine::open_for_wakeup(config, &opts(), &req, None) else {
            eprintln!("open failed");
            std::process::exit(1);
        };
        let mut answer_ms = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            if answer(&engine, &req).is_err() {
                eprintln!("wakeup failed");
                std::process::exit(1);
            }
            answer_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        answer_ms.sort_by(f64::total_cmp);
        println!("median of {runs}: answer {:.2} ms", answer_ms[runs / 2]);
        return;
    }
    let mut open_ms = Vec::new();
    let mut answer_ms = Vec::new();
    for _ in 0..runs {
        let Ok(config) = Config::load(std::path::Path::new(&args[1]), None) else {
            eprintln!("bad config");
            std::process::exit(2);
        };
        let t = Instant::now();
        let Ok(engine) = Engine::open_for_wakeup(config, &opts(), &req, None) else {
            eprintln!("open failed");
            std::process::exit(1);
        };
        open_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        if answer(&engine, &req).is_err() {
            eprintln!("wakeup failed");
            std::process::exit(1);
        }
        answer_ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "median of {runs}: open {:.1} ms, answer {:.1} ms",
        median(&mut open_ms),
        median(&mut answer_ms)
    );
}

/// The wake-up for `req`: the working tree's task when it has none.
fn answer(
    engine: &Engine,
    req: &WakeupRequest,
) -> Result<cairn_engine::WakeupOutput, cairn_engine::EngineError> {
    if req.task.is_empty() {
        engine.wakeup_with_git(req)
    } else {
        engine.wakeup(req)
    }
}
