//! Synthetic vaults for benchmarks: a seeded, deterministic generator of developer
//! memory (about 3 KB a note, realistic frontmatter, several projects, every memory
//! type and sensitivity, pins, superseded and stale notes) plus the `cairn.toml`
//! and stand-in repositories that route to its projects.
//!
//! The same [`Spec`] always gives the same bytes: every note is drawn from its own
//! `SplitMix64` stream seeded by the spec's seed and the note's number, so note *n*
//! does not depend on how many notes come before or after it.
//!
//! Layout of a generated vault:
//! ```text
//! cairn.toml
//! repos/<project>/README.md
//! vault/00-Identity/…            developer-wide: person, preference, workflow
//! vault/20-Areas/<area>/…        developer-wide: pattern, reference, constraint, workflow
//! vault/10-Projects/<project>/…  one overview per project, then every other type
//! ```

pub mod git;
mod rng;
mod vocabulary;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

pub use crate::rng::Rng;
use crate::vocabulary::{
    ADJECTIVES, AREAS, GENERAL_NOUNS, PEOPLE, PROJECTS, REASONS, TYPES, VERBS,
};

/// Generation failures.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// Writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Number of notes.
    pub notes: usize,
    /// Seed; the same seed gives the same vault.
    pub seed: u64,
    /// Number of projects (1 to `PROJECTS.len()`).
    pub projects: usize,
}

impl Spec {
    /// `notes` notes over six projects with the default seed.
    pub fn new(notes: usize) -> Self {
        Spec {
            notes,
            seed: 42,
            projects: 6,
        }
    }

    fn project_count(&self) -> usize {
        self.projects.clamp(1, PROJECTS.len())
    }
}

/// What was generated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The `cairn.toml` written.
    pub config: PathBuf,
    /// The vault folder.
    pub vault: PathBuf,
    /// Notes written.
    pub notes: usize,
    /// Bytes of notes written.
    pub bytes: u64,
    /// Project ids, in config order.
    pub projects: Vec<String>,
}

/// Where a note lives.
enum Home {
    Identity,
    Area(&'static str),
    Project(usize),
}

/// The path (relative to the vault) and text of note `i`.
pub fn note(spec: &Spec, i: usize) -> (String, String) {
    let mut rng = Rng::new(spec.seed, i as u64);
    let projects = spec.project_count();
    // The first notes are the projects' overviews, so every vault has them.
    let (home, kind) = if i < projects {
        (Home::Project(i), "project")
    } else {
        let home = match rng.below(100) {
            0..=4 => Home::Identity,
            5..=19 => Home::Area(rng.word(AREAS)),
            _ => Home::Project(rng.below(projects)),
        };
        let kind = match home {
            Home::Identity => *rng.pick(&["person", "preference", "workflow"]),
            _ => loop {
                let k = rng.weighted(TYPES);
                if k != "project" {
                    break k;
                }
            },
        };
        (home, kind)
    };
    let project = match home {
        Home::Project(p) => Some(&PROJECTS[p]),
        _ => None,
    };
    let nouns: Vec<&str> = project
        .map(|p| p.nouns.to_vec())
        .unwrap_or_default()
        .into_iter()
        .chain(GENERAL_NOUNS.iter().copied())
        .collect();
    let noun = |rng: &mut Rng| *rng.pick(&nouns);

    let (a, b) = (noun(&mut rng), noun(&mut rng));
    let title = match kind {
        "project" => format!("{} overview", project.map_or("Project", |p| p.name)),
        "decision" => format!(
            "ADR-{:03} {} the {a} for {b}",
            1 + i % 997,
            cap(rng.word(VERBS))
        ),
        "incident" => format!("{} {} {a} broke {b}", rng.date(), cap(rng.word(ADJECTIVES))),
        "person" => format!(
            "{} ({})",
            rng.pick(PEOPLE),
            rng.pick(&["lead", "peer", "manager", "client"])
        ),
        "preference" => format!("Preference - {} {a} before {b}", cap(rng.word(VERBS))),
        "constraint" => format!("No {} {a} in {b}", rng.pick(ADJECTIVES)),
        "session" => format!("Session {} - {a} and {b}", rng.date()),
        "workflow" => format!("How to {} the {a}", rng.pick(VERBS)),
        "pattern" => format!("{} {a} with {b}", cap(rng.word(VERBS))),
        _ => format!("{} reference: {a}", cap(b)),
    };
    let slug: String = title
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let folder = match (&home, kind) {
        (Home::Identity, _) => "00-Identity".to_owned(),
        (Home::Area(area), _) => format!("20-Areas/{area}"),
        (Home::Project(p), "project") => format!("10-Projects/{}", PROJECTS[*p].id),
        (Home::Project(p), k) => format!("10-Projects/{}/{k}s", PROJECTS[*p].id),
    };
    let path = format!("{folder}/{slug}-{i}.md");

    // Frontmatter.
    let mut fm = String::new();
    let _ = writeln!(fm, "title: \"{title}\"");
    let _ = writeln!(
        fm,
        "description: \"{} the {a} because {}.\"",
        cap(rng.word(VERBS)),
        rng.pick(REASONS)
    );
    let _ = writeln!(fm, "memory_type: {kind}");
    if let Some(p) = project {
        let _ = writeln!(fm, "project_id: {}", p.id);
        let _ = writeln!(fm, "scope: project");
    } else {
        let _ = writeln!(fm, "scope: developer");
    }
    let sensitivity = match rng.below(100) {
        0..=19 => "public",
        20..=89 => "internal",
        90..=96 => "confidential",
        _ => "secret",
    };
    let _ = writeln!(fm, "sensitivity: {sensitivity}");
    let freshness = match rng.below(100) {
        0..=19 => "evergreen",
        20..=84 => "active",
        _ => "stale",
    };
    let _ = writeln!(fm, "freshness: {freshness}");
    if rng.chance(10) || kind == "project" {
        let _ = writeln!(fm, "source_of_truth: true");
    }
    match rng.below(100) {
        0..=14 => {
            let _ = writeln!(fm, "retrieval_priority: high");
        }
        15..=24 => {
            let _ = writeln!(fm, "retrieval_priority: low");
        }
        _ => {}
    }
    if kind == "project" || rng.chance(1) {
        let _ = writeln!(fm, "pinned: true");
    }
    if kind == "decision" && rng.chance(20) {
        let _ = writeln!(fm, "status: superseded");
        let _ = writeln!(fm, "superseded_by: [\"[[ADR-{:03}]]\"]", 1 + (i + 7) % 997);
    } else if rng.chance(2) {
        let _ = writeln!(fm, "status: archived");
    }
    let _ = writeln!(fm, "triggers: [\"{a}\", \"{} {b}\"]", rng.pick(ADJECTIVES));
    if let Some(p) = project {
        let (_, prefix) = rng.pick(p.modules);
        let file = a.replace(' ', "_");
        let _ = writeln!(fm, "related_files: [\"{prefix}/{file}.rs\"]");
    }
    let tags: Vec<String> = (0..2 + rng.below(3))
        .map(|_| noun(&mut rng).replace(' ', "-"))
        .collect();
    let _ = writeln!(fm, "tags: [{}]", tags.join(", "));
    let created = rng.date();
    let _ = writeln!(fm, "created: {created}");
    if rng.chance(60) {
        let _ = writeln!(fm, "updated: {}", rng.date().max(created));
    }
    if rng.chance(10) {
        let _ = writeln!(fm, "review_after: {}", rng.date());
    }

    // Body: sections of sentences until about 3 KB.
    let target = 2300 + rng.below(600);
    let mut body = format!("# {title}\n\n");
    let headings: &[&str] = match kind {
        "decision" => &["Context", "Decision", "Consequences", "Alternatives"],
        "incident" => &["Summary", "Timeline", "Root cause", "Follow-ups"],
        "workflow" => &["When", "Steps", "Checks", "Pitfalls"],
        _ => &["Background", "Details", "Notes", "Links"],
    };
    let mut h = 0;
    while body.len() < target {
        let _ = writeln!(body, "## {}\n", headings[h % headings.len()]);
        h += 1;
        for _ in 0..2 {
            let mut para = String::new();
            for _ in 0..3 + rng.below(3) {
                let (x, y) = (noun(&mut rng), noun(&mut rng));
                let s = match rng.below(5) {
                    0 => format!(
                        "We {} the {x} before touching the {y}, because {}. ",
                        rng.pick(VERBS),
                        rng.pick(REASONS)
                    ),
                    1 => format!(
                        "The {} {x} showed up again after the {y} change; {} owns the fix. ",
                        rng.pick(ADJECTIVES),
                        rng.pick(PEOPLE)
                    ),
                    2 => format!(
                        "Do not {} the {x} without checking the {y} dashboards first. ",
                        rng.pick(VERBS)
                    ),
                    3 => format!(
                        "See [[{} {x}]] for how the {y} is configured in production. ",
                        cap(rng.word(VERBS))
                    ),
                    _ => format!(
                        "A {} {x} costs us more than a {} {y}; measure both. ",
                        rng.pick(ADJECTIVES),
                        rng.pick(ADJECTIVES)
                    ),
                };
                para.push_str(&s);
            }
            body.push_str(para.trim_end());
            body.push_str("\n\n");
        }
        if rng.chance(15) {
            let _ = writeln!(
                body,
                "```sh\ncairn search \"{}\" --limit 5\n```\n",
                noun(&mut rng)
            );
        }
    }
    (path, format!("---\n{fm}---\n\n{body}"))
}

/// Session-start tasks for benchmarks: (repository folder relative to the generated
/// root, task), one per project, in project order.
pub fn tasks(spec: &Spec) -> Vec<(String, String)> {
    PROJECTS[..spec.project_count()]
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut rng = Rng::new(spec.seed, u64::MAX - i as u64);
            let task = format!(
                "fix the {} {} and {} the {}",
                rng.pick(ADJECTIVES),
                rng.pick(p.nouns),
                rng.pick(VERBS),
                rng.pick(GENERAL_NOUNS)
            );
            (format!("repos/{}", p.id), task)
        })
        .collect()
}

/// The `cairn.toml` of a generated vault.
pub fn config_text(spec: &Spec) -> String {
    let mut s = String::from(
        "# Generated by cairn-synth: a synthetic vault for benchmarks.\n\n[vault]\nroot = \"vault\"\n\n[developer]\nnote_roots = [\"00-Identity\", \"20-Areas\"]\n",
    );
    for p in &PROJECTS[..spec.project_count()] {
        let _ = write!(
            s,
            "\n[[projects]]\nid = \"{id}\"\nname = \"{name}\"\nrepo_paths = [\"repos/{id}\"]\nnote_roots = [\"10-Projects/{id}\"]\n",
            id = p.id,
            name = p.name
        );
        for (m, prefix) in p.modules {
            let _ = write!(
                s,
                "\n[[projects.modules]]\nid = \"{m}\"\npath_prefixes = [\"{prefix}\"]\nkeywords = [\"{m}\"]\n"
            );
        }
    }
    s
}

/// Writes the vault of `spec` under `out` (created if needed; existing files with the
/// same names are replaced).
pub fn generate(out: &Path, spec: &Spec) -> Result<Generated, SynthError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SynthError::Io { path, source }
    };
    let vault = out.join("vault");
    std::fs::create_dir_all(&vault).map_err(io(&vault))?;
    let config = out.join("cairn.toml");
    std::fs::write(&config, config_text(spec)).map_err(io(&config))?;
    let mut projects = Vec::new();
    for p in &PROJECTS[..spec.project_count()] {
        let dir = out.join("repos").join(p.id);
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        let readme = dir.join("README.md");
        std::fs::write(&readme, format!("# {}\n\nA stand-in checkout.\n", p.name))
            .map_err(io(&readme))?;
        projects.push(p.id.to_owned());
    }
    let mut bytes = 0u64;
    let mut made_dirs = std::collections::HashSet::new();
    for i in 0..spec.notes {
        let (rel, text) = note(spec, i);
        let path = vault.join(&rel);
        if let Some(dir) = path.parent()
            && made_dirs.insert(dir.to_path_buf())
        {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        let mut f = std::fs::File::create(&path).map_err(io(&path))?;
        f.write_all(text.as_bytes()).map_err(io(&path))?;
        bytes += text.len() as u64;
    }
    Ok(Generated {
        config,
        vault,
        notes: spec.notes,
        bytes,
        projects,
    })
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Appends a dated paragraph to `count` notes of the vault at `vault`, chosen by
/// `seed` (the same seed picks the same notes); returns their paths, sorted. Used
/// to measure and test incremental index refreshes.
pub fn edit(vault: &Path, count: usize, seed: u64) -> Result<Vec<PathBuf>, SynthError> {
    let mut files = Vec::new();
    collect_md(vault, &mut files)?;
    files.sort();
    let mut rng = Rng::new(seed, 0xED17);
    let mut picked = Vec::new();
    // A partial Fisher-Yates shuffle: `count` distinct files.
    let take = count.min(files.len());
    for k in 0..take {
        let j = k + rng.below(files.len() - k);
        files.swap(k, j);
        picked.push(files[k].clone());
    }
    picked.sort();
    for p in &picked {
        let io = |source| SynthError::Io {
            path: p.clone(),
            source,
        };
        let mut text = std::fs::read_to_string(p).map_err(io)?;
        let _ = std::fmt::Write::write_fmt(
            &mut text,
            format_args!(
                "\n\nEdit {seed} on {}: {} the {} {} again.\n",
                rng.date(),
                cap(rng.word(VERBS)),
                rng.word(ADJECTIVES),
                rng.word(AREAS)
            ),
        );
        std::fs::write(p, text).map_err(io)?;
    }
    Ok(picked)
}

fn collect_md(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), SynthError> {
    let io = |source| SynthError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for e in std::fs::read_dir(dir).map_err(io)? {
        let e = e.map_err(io)?;
        let p = e.path();
        if e.file_type().map_err(io)?.is_dir() {
            collect_md(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_spec_same_notes_and_notes_do_not_depend_on_the_count() {
        let a = Spec::new(50);
        let b = Spec { notes: 500, ..a };
        for i in 0..50 {
            assert_eq!(note(&a, i), note(&b, i));
        }
        let other = Spec { seed: 7, ..a };
        assert_ne!(note(&a, 10), note(&other, 10));
    }

    #[test]
    fn notes_are_about_three_kilobytes_with_frontmatter() {
        let spec = Spec::new(300);
        let mut kinds = std::collections::BTreeSet::new();
        let mut sizes = Vec::new();
        for i in 0..spec.notes {
            let (path, text) = note(&spec, i);
            assert!(path.ends_with(".md"));
            assert!(text.starts_with("---\ntitle: "));
            let kind = text
                .lines()
                .find_map(|l| l.strip_prefix("memory_type: "))
                .unwrap();
            kinds.insert(kind.to_owned());
            sizes.push(text.len());
        }
        assert_eq!(kinds.len(), TYPES.len(), "{kinds:?}");
        let mean = sizes.iter().sum::<usize>() / sizes.len();
        assert!((2800..3800).contains(&mean), "{mean}");
        let paths: std::collections::HashSet<_> =
            (0..spec.notes).map(|i| note(&spec, i).0).collect();
        assert_eq!(paths.len(), spec.notes, "paths are unique");
    }

    #[test]
    fn generate_writes_config_repos_and_notes() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            notes: 40,
            seed: 1,
            projects: 3,
        };
        let g = generate(dir.path(), &spec).unwrap();
        assert_eq!(g.projects, vec!["orbit", "ledger", "harbor"]);
        assert!(g.config.is_file());
        assert!(dir.path().join("repos/ledger/README.md").is_file());
        assert!(g.bytes > 40 * 2500);
        let text = std::fs::read_to_string(&g.config).unwrap();
        assert!(text.contains("note_roots = [\"10-Projects/harbor\"]"));
        assert_eq!(tasks(&spec).len(), 3);
    }
}
