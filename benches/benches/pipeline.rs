//! The pipeline's stages on synthetic vaults of 1k and 10k notes (100k with
//! `CAIRN_BENCH_100K=1`): scan (list + parse), index build (in RAM), a routed
//! search, a wake-up packet on an opened vault (warm), and open + wake-up (cold,
//! what a session-start hook pays without a persistent index). Then the persistent
//! index's warm path: listing the vault by walking it or from the last walk's
//! record (`relist`), and open + wake-up from a current persistent index (what
//! every `cairn wakeup` process pays once the index exists). Last, credential
//! redaction over the 1k vault's note files (`redact`).
//!
//! Run: `cargo bench -p cairn-benches` (release build; see docs/BENCHMARKS.md).

#![allow(clippy::unwrap_used)] // benchmark set-up fails loudly

use std::hint::black_box;
use std::time::Duration;

use cairn_benches::{Spec, sizes, vault};
use cairn_engine::config::Config;
use cairn_engine::{
    Engine, Format, IndexMode, OpenOptions, PersistentOptions, Ranking, SearchRequest, SearchScope,
    Target, WakeupRequest,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn open(root: &std::path::Path) -> Engine {
    let config = Config::load(&root.join("cairn.toml"), None).unwrap();
    Engine::open(config, &OpenOptions::default()).unwrap()
}

fn wakeup_request(root: &std::path::Path, cwd: &str, task: &str) -> WakeupRequest {
    WakeupRequest {
        cwd: root.join(cwd),
        project: None,
        task: task.to_owned(),
        files: Vec::new(),
        profile: None,
        target: Target::Claude,
        format: Format::Prompt,
        budget: None,
        now: "2026-11-22T09:00:00Z".parse().unwrap(),
        ranking: Ranking::Full,
        source: cairn_engine::SessionSource::Startup,
        limit: None,
        caps: cairn_engine::OutputCaps::NONE,
    }
}

fn stages(c: &mut Criterion) {
    for n in sizes() {
        let root = vault(n).unwrap();
        let config = Config::load(&root.join("cairn.toml"), None).unwrap();
        let tasks = cairn_synth::tasks(&Spec::new(n));
        let slow = n >= 10_000;

        let mut g = c.benchmark_group("scan");
        g.throughput(Throughput::Elements(n as u64));
        if slow {
            g.sample_size(10).measurement_time(Duration::from_secs(20));
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &config, |b, cfg| {
            b.iter(|| cairn_scan::scan(&cfg.vault.root, &[String::new()], &cfg.vault.limits));
        });
        g.finish();

        let notes =
            cairn_scan::scan(&config.vault.root, &[String::new()], &config.vault.limits).notes;
        let mut g = c.benchmark_group("index_build");
        g.throughput(Throughput::Elements(n as u64));
        if slow {
            g.sample_size(10).measurement_time(Duration::from_secs(30));
        }
        g.bench_with_input(BenchmarkId::from_parameter(n), &notes, |b, notes| {
            b.iter(|| cairn_index::NoteIndex::build_in_ram(black_box(notes)).unwrap());
        });
        g.finish();
        drop(notes);

        let engine = open(&root);
        let mut g = c.benchmark_group("query");
        let mut i = 0;
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                let (cwd, task) = &tasks[i % tasks.len()];
                i += 1;
                engine
                    .search(&SearchRequest {
                        query: task.clone(),
                        cwd: Some(root.join(cwd)),
                        project: None,
                        files: Vec::new(),
                        scope: SearchScope::Routed,
                        limit: 10,
                        ranking: Ranking::Full,
                        today: "2026-11-22".parse().unwrap(),
                    })
                    .unwrap()
            });
        });
        g.finish();

        let mut g = c.benchmark_group("wakeup_warm");
        let mut i = 0;
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                let (cwd, task) = &tasks[i % tasks.len()];
                i += 1;
                engine.wakeup(&wakeup_request(&root, cwd, task)).unwrap()
            });
        });
        g.finish();
        drop(engine);

        let listing = cairn_scan::list(&config.vault.root, &[String::new()], &config.vault.limits);
        let listed: Vec<&str> = listing.files.iter().map(|f| f.path.as_str()).collect();
        let mut g = c.benchmark_group("list");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("walk", n), &config, |b, cfg| {
            b.iter(|| cairn_scan::list(&cfg.vault.root, &[String::new()], &cfg.vault.limits));
        });
        // The generated vault is older than the racy window by the time it is benched
        // again; on a fresh vault the record is not settled and relist declines.
        if listing.walk.is_settled() {
            g.bench_with_input(BenchmarkId::new("relist", n), &config, |b, cfg| {
                b.iter(|| {
                    cairn_scan::relist(
                        &cfg.vault.root,
                        &[String::new()],
                        &cfg.vault.limits,
                        &listing.walk,
                        &listed,
                    )
                    .unwrap()
                });
            });
        }
        g.finish();

        let index_dir = root.join(".bench-index");
        let persistent = OpenOptions {
            index: IndexMode::Persistent(PersistentOptions {
                dir: Some(index_dir),
                ..PersistentOptions::default()
            }),
            ..OpenOptions::default()
        };
        let open_persistent = || {
            let config = Config::load(&root.join("cairn.toml"), None).unwrap();
            Engine::open(config, &persistent).unwrap()
        };
        drop(open_persistent()); // builds (or refreshes) the index once
        let mut g = c.benchmark_group("wakeup_persistent_warm");
        let (cwd, task) = &tasks[0];
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                open_persistent()
                    .wakeup(&wakeup_request(&root, cwd, task))
                    .unwrap()
            });
        });
        g.finish();

        let mut g = c.benchmark_group("wakeup_cold");
        g.sample_size(10);
        if slow {
            g.measurement_time(Duration::from_secs(60));
        }
        let (cwd, task) = &tasks[0];
        g.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                open(&root)
                    .wakeup(&wakeup_request(&root, cwd, task))
                    .unwrap()
            });
        });
        g.finish();
    }
}

/// Credential redaction over the 1k vault's note files, front matter and body
/// (a wake-up redacts the bodies and fields of the notes it shows): the
/// prefilter's pass over every byte, and the rules it enables. Throughput in
/// bytes.
fn redaction(c: &mut Criterion) {
    fn notes(dir: &std::path::Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                notes(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let root = vault(1_000).unwrap();
    let mut texts = Vec::new();
    notes(&root, &mut texts);
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut g = c.benchmark_group("redact");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("vault_1k_files", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| cairn_policy::find_credentials(black_box(t)).len())
                .sum::<usize>()
        });
    });
    g.finish();
}

criterion_group!(benches, stages, redaction);
criterion_main!(benches);
