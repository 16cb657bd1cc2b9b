//! Deterministic synthetic vaults: the same seed and size always write the same
//! bytes, so benchmarks and cache tests can be repeated on any machine.
//!
//! A generated vault looks like a real Obsidian vault kept by one developer: an
//! identity folder, developer-wide areas and workflows, and several projects, each
//! with decisions, constraints, incidents, patterns, references and session logs
//! (about 3 KB each) carrying the frontmatter cairn reads (`memory_type`,
//! `project_id`, `tags`, `triggers`, `related_files`, dates, a few pins, a few
//! confidential, secret and superseded notes). A `cairn.toml` beside the vault
//! routes `repos/<project>` to each project.
//!
//! [`edit`] changes a deterministic handful of notes, for "N notes edited since the
//! last run" measurements. The official generator (the eval suite's) may replace
//! this one; this one exists so the cache's benchmarks and tests have data.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Number of notes.
    pub notes: usize,
    /// Seed of the generator.
    pub seed: u64,
    /// Number of projects (1 to 12).
    pub projects: usize,
    /// Target body size in bytes (about).
    pub body_bytes: usize,
}

impl Default for Spec {
    fn default() -> Self {
        Self {
            notes: 2000,
            seed: 42,
            projects: 6,
            body_bytes: 2800,
        }
    }
}

/// What [`generate`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The `cairn.toml` written.
    pub config: PathBuf,
    /// The vault folder.
    pub vault: PathBuf,
    /// The project ids, in config order.
    pub projects: Vec<String>,
    /// Notes written.
    pub notes: usize,
    /// Bytes of notes written.
    pub bytes: u64,
}

const PROJECTS: &[(&str, &str, &[&str])] = &[
    (
        "ledger",
        "Ledger",
        &[
            "payout",
            "settlement",
            "journal",
            "reconciliation",
            "currency",
            "idempotency",
            "ledger",
            "posting",
        ],
    ),
    (
        "atlas",
        "Atlas",
        &[
            "tile", "layer", "mapbox", "viewport", "style", "geojson", "cluster", "zoom",
        ],
    ),
    (
        "hearth",
        "Hearth",
        &[
            "backup",
            "restic",
            "cluster",
            "ingress",
            "terraform",
            "helm",
            "snapshot",
            "dns",
        ],
    ),
    (
        "quill",
        "Quill",
        &[
            "editor",
            "cursor",
            "selection",
            "undo",
            "collaboration",
            "crdt",
            "markdown",
            "toolbar",
        ],
    ),
    (
        "beacon",
        "Beacon",
        &[
            "alert",
            "metric",
            "dashboard",
            "threshold",
            "pager",
            "scrape",
            "retention",
            "histogram",
        ],
    ),
    (
        "forge",
        "Forge",
        &[
            "pipeline", "runner", "artifact", "cache", "matrix", "release", "signing", "deploy",
        ],
    ),
    (
        "harbor",
        "Harbor",
        &[
            "container",
            "registry",
            "image",
            "layer",
            "scan",
            "manifest",
            "pull",
            "quota",
        ],
    ),
    (
        "tally",
        "Tally",
        &[
            "invoice",
            "tax",
            "subscription",
            "dunning",
            "proration",
            "coupon",
            "plan",
            "receipt",
        ],
    ),
    (
        "relay",
        "Relay",
        &[
            "webhook",
            "delivery",
            "retry",
            "signature",
            "queue",
            "backoff",
            "endpoint",
            "replay",
        ],
    ),
    (
        "prism",
        "Prism",
        &[
            "query",
            "planner",
            "index",
            "partition",
            "vacuum",
            "replica",
            "migration",
            "schema",
        ],
    ),
    (
        "sprout",
        "Sprout",
        &[
            "onboarding",
            "signup",
            "experiment",
            "funnel",
            "email",
            "template",
            "locale",
            "consent",
        ],
    ),
    (
        "orbit",
        "Orbit",
        &[
            "satellite",
            "telemetry",
            "orbit",
            "ground",
            "antenna",
            "pass",
            "uplink",
            "downlink",
        ],
    ),
];

const COMMON: &[&str] = &[
    "the",
    "service",
    "request",
    "latency",
    "error",
    "retry",
    "timeout",
    "database",
    "transaction",
    "lock",
    "queue",
    "worker",
    "config",
    "deploy",
    "rollback",
    "test",
    "flaky",
    "integration",
    "contract",
    "schema",
    "migration",
    "index",
    "cache",
    "invalidation",
    "memory",
    "leak",
    "thread",
    "async",
    "runtime",
    "log",
    "trace",
    "span",
    "metric",
    "alert",
    "incident",
    "owner",
    "review",
    "approval",
    "feature",
    "flag",
    "rollout",
    "canary",
    "budget",
    "quota",
    "limit",
    "throttle",
    "batch",
    "stream",
    "consumer",
    "producer",
    "offset",
    "partition",
    "replica",
    "failover",
    "backup",
    "restore",
    "encryption",
    "token",
    "session",
    "auth",
    "permission",
    "audit",
    "compliance",
    "customer",
    "support",
    "ticket",
    "runbook",
    "oncall",
    "handoff",
    "estimate",
    "deadline",
    "scope",
    "tradeoff",
    "benchmark",
    "profile",
    "allocation",
    "throughput",
    "p99",
    "regression",
    "dependency",
    "upgrade",
    "version",
    "compatibility",
    "api",
    "endpoint",
    "payload",
    "serialization",
    "validation",
    "parser",
    "input",
    "output",
    "format",
    "storage",
    "bucket",
    "object",
    "lifecycle",
    "cleanup",
    "cron",
    "schedule",
    "window",
];

const VERBS: &[&str] = &[
    "keeps",
    "breaks",
    "needs",
    "avoids",
    "requires",
    "retries",
    "blocks",
    "drops",
    "duplicates",
    "delays",
    "protects",
    "measures",
    "limits",
    "replaces",
    "validates",
    "caches",
    "logs",
    "reports",
    "owns",
    "splits",
];

const CONNECT: &[&str] = &[
    "because",
    "unless",
    "so that",
    "while",
    "after",
    "before",
    "when",
    "until",
    "even though",
    "whenever",
];

const AREAS: &[&str] = &[
    "rust",
    "postgres",
    "kafka",
    "typescript",
    "security",
    "testing",
    "observability",
    "career",
];

const FILES: &[&str] = &[
    "src/lib.rs",
    "src/main.rs",
    "src/api/handlers.rs",
    "src/db/pool.rs",
    "src/jobs/worker.rs",
    "src/config.rs",
    "migrations",
    "tests/integration",
    "web/src/App.tsx",
    "deploy/helm/values.yaml",
];

/// Kinds of project notes: (folder, memory_type, title prefix, weight).
const KINDS: &[(&str, &str, &str, u32)] = &[
    ("Decisions", "decision", "ADR", 12),
    ("Constraints", "constraint", "Constraint", 6),
    ("Incidents", "incident", "Incident", 8),
    ("Patterns", "pattern", "Pattern", 8),
    ("Reference", "reference", "Reference", 16),
    ("Sessions", "session", "Session", 40),
    ("Runbooks", "workflow", "Runbook", 6),
    ("Notes", "", "Note", 4),
];

/// Writes a vault of `spec.notes` notes and its `cairn.toml` into `dir` (created if
/// needed; existing files with the same names are overwritten).
pub fn generate(dir: &Path, spec: &Spec) -> io::Result<Summary> {
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let nproj = spec.projects.clamp(1, PROJECTS.len());
    let projects = &PROJECTS[..nproj];
    let vault = dir.join("vault");
    std::fs::create_dir_all(&vault)?;
    write_config(dir, projects)?;

    let mut written = 0usize;
    let mut bytes = 0u64;
    let mut emit = |rel: String, text: String| -> io::Result<()> {
        let path = vault.join(&rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        bytes += text.len() as u64;
        written += 1;
        std::fs::write(path, text)
    };

    // Identity and developer-wide notes: about 10% of the vault.
    let identity = 2.min(spec.notes);
    for i in 0..identity {
        let (title, text) = identity_note(&mut rng, i, spec.body_bytes);
        emit(format!("00-Identity/{title}.md"), text)?;
    }
    let developer = (spec.notes / 10).saturating_sub(identity);
    for i in 0..developer {
        let area = AREAS[i % AREAS.len()];
        let (folder, title, text) = developer_note(&mut rng, i, area, spec.body_bytes);
        emit(format!("{folder}/{title}.md"), text)?;
    }
    // Projects share the rest.
    let rest = spec.notes.saturating_sub(identity + developer);
    let total_weight: u32 = KINDS.iter().map(|k| k.3).sum();
    for i in 0..rest {
        let (pid, pname, words) = projects[i % nproj];
        let mut pick = rng.random_range(0..total_weight);
        let kind = KINDS
            .iter()
            .find(|k| {
                if pick < k.3 {
                    true
                } else {
                    pick -= k.3;
                    false
                }
            })
            .unwrap_or(&KINDS[0]);
        let n = i / nproj;
        let (title, text) = project_note(&mut rng, n, pid, words, kind, spec.body_bytes);
        let year = 2022 + (n % 5);
        emit(
            format!("10-Projects/{pname}/{}/{year}/{title}.md", kind.0),
            text,
        )?;
    }
    Ok(Summary {
        config: dir.join("cairn.toml"),
        vault,
        projects: projects.iter().map(|p| p.0.to_owned()).collect(),
        notes: written,
        bytes,
    })
}

/// Appends a dated paragraph to `count` notes of the vault at `vault` chosen by
/// `seed` (the same seed picks the same notes); returns their paths, sorted.
pub fn edit(vault: &Path, count: usize, seed: u64) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    collect_md(vault, &mut files)?;
    files.sort();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut picked: Vec<PathBuf> = files
        .choose_multiple(&mut rng, count.min(files.len()))
        .cloned()
        .collect();
    picked.sort();
    for p in &picked {
        let mut text = std::fs::read_to_string(p)?;
        let _ = write!(
            text,
            "\n\nEdit {seed}: {}.\n",
            sentence(&mut rng, &["edit", "followup"])
        );
        std::fs::write(p, text)?;
    }
    Ok(picked)
}

fn collect_md(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            collect_md(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
    Ok(())
}

fn write_config(dir: &Path, projects: &[(&str, &str, &[&str])]) -> io::Result<()> {
    let mut s = String::from(
        "# Synthetic vault written by cairn-synth (deterministic).\n\n[vault]\nroot = \"vault\"\n\n[developer]\nnote_roots = [\"00-Identity\", \"20-Areas\", \"30-Workflows\"]\n",
    );
    for (id, name, words) in projects {
        std::fs::create_dir_all(dir.join("repos").join(id))?;
        let _ = write!(
            s,
            "\n[[projects]]\nid = \"{id}\"\nname = \"{name}\"\nrepo_paths = [\"repos/{id}\"]\nnote_roots = [\"10-Projects/{name}\"]\ndefault_tags = [\"{}\"]\n\n[[projects.modules]]\nid = \"{}\"\npath_prefixes = [\"src/{}\"]\nkeywords = [\"{}\", \"{}\"]\n",
            words[0], words[0], words[0], words[0], words[1]
        );
    }
    s.push_str(
        "\n[[scenes]]\nid = \"debugging\"\nkeywords = [\"bug\", \"debug\", \"flaky\", \"error\", \"crash\", \"regression\"]\n\n[[scenes]]\nid = \"release\"\nkeywords = [\"release\", \"deploy\", \"rollout\", \"changelog\"]\n",
    );
    std::fs::write(dir.join("cairn.toml"), s)
}

fn sentence(rng: &mut ChaCha8Rng, topic: &[&str]) -> String {
    let pick = |rng: &mut ChaCha8Rng| -> &str {
        if rng.random_bool(0.35) {
            topic.choose(rng).copied().unwrap_or("note")
        } else {
            COMMON.choose(rng).copied().unwrap_or("note")
        }
    };
    let mut s = String::new();
    let a = pick(rng);
    let mut first = a.chars();
    if let Some(c) = first.next() {
        s.extend(c.to_uppercase());
        s.push_str(first.as_str());
    }
    let _ = write!(
        s,
        " {} {} {} {} {} {} the {}",
        pick(rng),
        VERBS.choose(rng).copied().unwrap_or("needs"),
        pick(rng),
        pick(rng),
        CONNECT.choose(rng).copied().unwrap_or("when"),
        pick(rng),
        pick(rng)
    );
    if rng.random_bool(0.3) {
        let _ = write!(s, " in `{}`", FILES.choose(rng).copied().unwrap_or("src"));
    }
    s
}

fn body(rng: &mut ChaCha8Rng, title: &str, topic: &[&str], bytes: usize) -> String {
    let mut s = format!("# {title}\n\n");
    let headings = ["Context", "Details", "Consequences", "Follow-up", "Notes"];
    let mut h = 0;
    while s.len() < bytes {
        if s.len() > (h + 1) * bytes / 4 && h < headings.len() {
            let _ = write!(s, "## {}\n\n", headings[h]);
            h += 1;
        }
        let n = rng.random_range(2..6);
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&sentence(rng, topic));
            s.push('.');
        }
        s.push_str("\n\n");
        if rng.random_bool(0.15) {
            let _ = write!(
                s,
                "- {}\n- {}\n\n",
                sentence(rng, topic),
                sentence(rng, topic)
            );
        }
    }
    s
}

fn date(rng: &mut ChaCha8Rng) -> String {
    format!(
        "{}-{:02}-{:02}",
        rng.random_range(2022..=2026),
        rng.random_range(1..=12),
        rng.random_range(1..=28)
    )
}

fn title_words(rng: &mut ChaCha8Rng, topic: &[&str]) -> String {
    let a = topic.choose(rng).copied().unwrap_or("note");
    let b = COMMON.choose(rng).copied().unwrap_or("note");
    let c = COMMON.choose(rng).copied().unwrap_or("note");
    format!("{a} {b} {c}")
}

fn identity_note(rng: &mut ChaCha8Rng, i: usize, bytes: usize) -> (String, String) {
    let (title, ty) = if i == 0 {
        ("About me", "person")
    } else {
        ("How I like to work", "preference")
    };
    let text = format!(
        "---\ntitle: {title}\nmemory_type: {ty}\nscope: user\npinned: true\nfreshness: evergreen\ntags: [identity]\ncreated: 2023-01-0{}\n---\n\n{}",
        i + 1,
        body(rng, title, &["review", "test", "tradeoff"], bytes / 2)
    );
    (title.to_owned(), text)
}

fn developer_note(
    rng: &mut ChaCha8Rng,
    i: usize,
    area: &str,
    bytes: usize,
) -> (String, String, String) {
    let (folder, ty) = match i % 5 {
        0 => ("30-Workflows".to_owned(), "workflow"),
        1 | 2 => (format!("20-Areas/{area}"), "preference"),
        _ => (format!("20-Areas/{area}"), "reference"),
    };
    let topic = [area, "tooling", "habit"];
    let title = format!("{} {i:05} {}", capitalise(area), title_words(rng, &topic));
    let mut fm = format!(
        "---\ntitle: {title}\nmemory_type: {ty}\ntags: [{area}]\ncreated: {}\n",
        date(rng)
    );
    if rng.random_bool(0.2) {
        let _ = writeln!(fm, "retrieval_priority: high");
    }
    if rng.random_bool(0.1) {
        let _ = writeln!(fm, "freshness: evergreen");
    }
    fm.push_str("---\n\n");
    let text = fm + &body(rng, &title, &topic, bytes);
    (folder, title, text)
}

fn project_note(
    rng: &mut ChaCha8Rng,
    n: usize,
    pid: &str,
    words: &[&str],
    kind: &(&str, &str, &str, u32),
    bytes: usize,
) -> (String, String) {
    let (_, ty, prefix, _) = *kind;
    let title = format!("{prefix} {n:05} {}", title_words(rng, words));
    let mut fm = format!("---\ntitle: {title}\n");
    if !ty.is_empty() {
        let _ = writeln!(fm, "memory_type: {ty}");
    }
    let _ = writeln!(fm, "project_id: {pid}");
    let tags: Vec<&str> = words.choose_multiple(rng, 2).copied().collect();
    let _ = writeln!(fm, "tags: [{}]", tags.join(", "));
    let _ = writeln!(fm, "created: {}", date(rng));
    if rng.random_bool(0.4) {
        let _ = writeln!(fm, "updated: {}", date(rng));
    }
    let r: f64 = rng.random();
    if r < 0.02 {
        let _ = writeln!(fm, "sensitivity: confidential");
    } else if r < 0.03 {
        let _ = writeln!(fm, "sensitivity: secret");
    } else if r < 0.2 {
        let _ = writeln!(fm, "sensitivity: public");
    }
    if ty == "decision" && rng.random_bool(0.15) {
        let _ = writeln!(fm, "status: superseded");
    }
    if rng.random_bool(0.005) {
        let _ = writeln!(fm, "pinned: true");
    }
    if rng.random_bool(0.1) {
        let _ = writeln!(fm, "source_of_truth: true");
    }
    if rng.random_bool(0.3) {
        let p = ["high", "medium", "low"]
            .choose(rng)
            .copied()
            .unwrap_or("medium");
        let _ = writeln!(fm, "retrieval_priority: {p}");
    }
    if rng.random_bool(0.3) {
        let t: Vec<&str> = words.choose_multiple(rng, 2).copied().collect();
        let _ = writeln!(fm, "triggers: [\"{}\", \"{}\"]", t[0], t[1..].join(" "));
    }
    if rng.random_bool(0.3) {
        let f = FILES.choose(rng).copied().unwrap_or("src");
        let _ = writeln!(fm, "related_files: [\"{f}\"]");
    }
    fm.push_str("---\n\n");
    let mut text = fm + &body(rng, &title, words, bytes);
    if rng.random_bool(0.3) {
        let _ = writeln!(
            text,
            "See also [[{prefix} {:05}]].",
            rng.random_range(0..n + 1)
        );
    }
    (title, text)
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        collect_md(dir, &mut files).unwrap();
        files.sort();
        files
            .into_iter()
            .map(|p| {
                let b = std::fs::read(&p).unwrap();
                (p.strip_prefix(dir).unwrap().to_path_buf(), b)
            })
            .collect()
    }

    #[test]
    fn same_seed_same_bytes_other_seed_other_bytes() {
        let spec = Spec {
            notes: 120,
            ..Spec::default()
        };
        let tmp = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            tmp.path().join("a"),
            tmp.path().join("b"),
            tmp.path().join("c"),
        );
        let sa = generate(&a, &spec).unwrap();
        generate(&b, &spec).unwrap();
        generate(
            &c,
            &Spec {
                seed: 7,
                ..spec.clone()
            },
        )
        .unwrap();
        assert_eq!(sa.notes, 120);
        assert_eq!(digest(&a), digest(&b));
        assert_ne!(digest(&a), digest(&c));
        let avg = sa.bytes / sa.notes as u64;
        assert!((2000..4500).contains(&avg), "average note size {avg}");
        let edited = edit(&sa.vault, 5, 1).unwrap();
        assert_eq!(edited.len(), 5);
        assert_ne!(digest(&a), digest(&b));
    }
}
