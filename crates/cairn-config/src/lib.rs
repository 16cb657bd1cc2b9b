//! `cairn.toml`: where the vault is, which folders hold developer-wide notes, which
//! repositories belong to which project, and the knobs of ranking and caching.
//!
//! The file shape is the one spool-memory users already have (`[vault]`,
//! `[developer]`, `[[projects]]`, `[[projects.modules]]`, `[[scenes]]`), so a spool
//! config works unchanged: keys cairn does not use (`[output]`, `[embedding]`, ...)
//! are accepted and ignored.
//!
//! This crate only reads and validates. It knows nothing of notes, indexes or
//! packets. Every error names the file, the line (when the file has one) and the
//! key, on one line, so the CLI can print it as is.

mod cache_root;
mod discovery;
mod error;
mod model;
mod parse;
mod raw;

pub use cache_root::cache_root;
pub use discovery::Discovery;
pub use error::ConfigError;
pub use model::{
    Config, DEFAULT_HALF_LIFE_DAYS, DEFAULT_INDEX_BUDGET_LINES, DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, DEFAULT_MAX_NOTE_BYTES, DEFAULT_MAX_TOTAL_BYTES,
    Derive, Developer, GitConfig, Limits, MemoryConfig, Module, Project, Ranking, Scene, Vault,
};
pub use parse::resolve;

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// Each `(tail, key, line)`: `base` followed by `tail` fails to load, naming
    /// `key` at `line`.
    fn assert_config_errors(dir: &Path, base: &str, cases: &[(&str, &str, usize)]) {
        for (i, (tail, key, line)) in cases.iter().enumerate() {
            let path = write(dir, &format!("bad{i}.toml"), &format!("{base}{tail}"));
            let e = Config::load(&path, None).unwrap_err();
            assert_eq!(e.key.as_deref(), Some(*key), "{tail}: {e}");
            assert_eq!(e.line, Some(*line), "{tail}: {e}");
        }
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn spool_config_loads_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("vault")).unwrap();
        let text = r#"
[vault]
root = "vault"
ledger_dir = ".spool"
[vault.limits]
max_files = 5000
[output]
default_format = "prompt"
max_chars = 12000
[developer]
note_roots = ["00-Identity"]
[[projects]]
id = "spool"
name = "Spool"
repo_paths = ["/src/spool"]
note_roots = ["10-Projects"]
default_tags = ["rust"]
[[projects.modules]]
id = "routing"
path_prefixes = ["src/engine"]
keywords = ["route"]
[[scenes]]
id = "planning"
keywords = ["design"]
preferred_notes = ["10-Projects/spool/Overview.md"]
[embedding]
enabled = false
"#;
        let path = write(dir.path(), "spool.toml", text);
        let c = Config::load(&path, None).unwrap();
        assert_eq!(c.vault.limits.max_files, 5000);
        assert_eq!(c.vault.limits.max_depth, DEFAULT_MAX_DEPTH);
        assert_eq!(c.projects[0].modules[0].keywords, vec!["route"]);
        assert_eq!(c.scenes[0].id, "planning");
        assert!(c.vault.root.is_absolute());
    }

    #[test]
    fn errors_name_file_line_and_key() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("vault")).unwrap();
        let text = "[vault]\nroot = \"vault\"\n\n[[projects]]\nid = \"a\"\nrepo_paths = 7\n";
        let path = write(dir.path(), "c.toml", text);
        let e = Config::load(&path, None).unwrap_err();
        assert_eq!(e.line, Some(6), "{e}");
        assert_eq!(e.key.as_deref(), Some("projects[0].repo_paths"));
        let shown = e.to_string();
        assert!(
            shown.contains("c.toml:6: key `projects[0].repo_paths`"),
            "{shown}"
        );
        assert!(!shown.contains('\n'));
    }

    /// Note roots behind a hidden folder are the walk's extra roots (a walk of
    /// the vault skips hidden folders), sorted, once each.
    #[test]
    fn hidden_note_roots_are_collected() {
        let text = "[vault]\nroot = \"vault\"\n[developer]\nnote_roots = [\"me\", \".me\"]\n\
                    [[projects]]\nid = \"a\"\nnote_roots = [\"repo/.notes\", \"repo\", \".me\"]\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("vault")).unwrap();
        let c = Config::load(&write(dir.path(), "c.toml", text), None).unwrap();
        assert_eq!(c.vault.limits.hidden_roots, [".me", "repo/.notes"]);
    }

    #[test]
    fn a_templates_folder_is_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("vault")).unwrap();
        let ok = "[vault]\nroot = \"vault\"\ntemplates = \"_meta/Templates/\"\n";
        let c = Config::load(&write(dir.path(), "ok.toml", ok), None).unwrap();
        assert_eq!(c.vault.limits.templates.as_deref(), Some("_meta/Templates"));
        let bad = "[vault]\nroot = \"vault\"\ntemplates = \"../x\"\n";
        let e = Config::load(&write(dir.path(), "bad.toml", bad), None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("vault.templates"), "{e}");
        assert_eq!(e.line, Some(3), "{e}");
    }

    #[test]
    fn syntax_error_has_a_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "c.toml",
            "[vault]\nroot = \"v\"\nbroken = = 3\n",
        );
        let e = Config::load(&path, None).unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
    }

    #[test]
    fn missing_vault_root_folder_is_an_error_on_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "c.toml", "# hi\n[vault]\nroot = \"nope\"\n");
        let e = Config::load(&path, None).unwrap_err();
        assert_eq!(
            (e.line, e.key.as_deref()),
            (Some(3), Some("vault.root")),
            "{e}"
        );
    }

    #[test]
    fn an_error_names_the_line_of_the_value_not_of_an_earlier_mention() {
        // A substring search would stop at the comments.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let cases = [
            (
                "# root: the vault, e.g. root = \"nope\"\n[vault]\nroot = \"nope\"\n",
                "vault.root",
                3,
            ),
            (
                "[vault]\nroot='v'\n# '../x' would escape\n[developer]\nnote_roots = [\n  'a',\n  '../x',\n]\n",
                "developer.note_roots[1]",
                7,
            ),
            (
                "[vault]\nroot='v'\n# half_life_days must be positive\n[ranking]\nhalf_life_days = 0\n",
                "ranking.half_life_days",
                5,
            ),
            (
                "[vault]\nroot='v'\n[[projects]]\nid = 'a' # not 'b'\n[[projects]]\nid = 'b'\n[[projects]]\nid = 'a'\n",
                "projects[2].id",
                8,
            ),
        ];
        for (i, (text, key, line)) in cases.iter().enumerate() {
            let path = write(dir.path(), &format!("c{i}.toml"), text);
            let e = Config::load(&path, None).unwrap_err();
            assert_eq!((e.key.as_deref(), e.line), (Some(*key), Some(*line)), "{e}");
        }
    }

    #[test]
    fn duplicate_and_escaping_entries_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let dup = "[vault]\nroot='v'\n[[projects]]\nid=\"a\"\n[[projects]]\nid=\"a\"\n";
        let e = Config::load(&write(dir.path(), "d.toml", dup), None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("projects[1].id"));
        let esc = "[vault]\nroot='v'\n[developer]\nnote_roots=['../x']\n";
        let e = Config::load(&write(dir.path(), "e.toml", esc), None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("developer.note_roots[0]"));
        assert_eq!(e.line, Some(4));
    }

    #[test]
    fn relative_paths_resolve_against_the_file_and_tilde_against_home() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("cfg/v")).unwrap();
        let text = "[vault]\nroot='v'\n[[projects]]\nid='p'\nrepo_paths=['../repo','~/code/x']\n";
        let path = write(&dir.path().join("cfg"), "c.toml", text);
        let c = Config::load(&path, Some(Path::new("/home/u"))).unwrap();
        let root = dir.path().join("cfg/v").canonicalize().unwrap();
        assert_eq!(c.vault.root, root);
        assert_eq!(c.projects[0].repo_paths[1], PathBuf::from("/home/u/code/x"));
        assert!(c.projects[0].repo_paths[0].ends_with("repo"));
        assert_eq!(c.projects[0].name, "p");
    }

    #[test]
    fn discovery_order_is_flag_env_user() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("xdg/cairn");
        std::fs::create_dir_all(&user).unwrap();
        std::fs::write(user.join("config.toml"), "").unwrap();
        let env_file = write(dir.path(), "env.toml", "");
        let xdg = dir.path().join("xdg").display().to_string();
        let envf = env_file.display().to_string();
        let env = |k: &str| match k {
            "XDG_CONFIG_HOME" => Some(xdg.clone()),
            "CAIRN_CONFIG" => Some(envf.clone()),
            _ => None,
        };
        let d = Discovery::new(Some("flag.toml".into()), env);
        assert_eq!(d.locate().unwrap(), Some(PathBuf::from("flag.toml")));
        let d = Discovery::new(None, env);
        assert_eq!(d.locate().unwrap(), Some(env_file.clone()));
        let d = Discovery::new(None, |k| (k == "XDG_CONFIG_HOME").then(|| xdg.clone()));
        assert_eq!(d.locate().unwrap(), Some(user.join("config.toml")));
        let d = Discovery::new(None, |k| (k == "HOME").then(|| "/nonexistent".to_owned()));
        assert_eq!(d.locate().unwrap(), None);
        let d = Discovery::new(None, |k| {
            (k == "CAIRN_CONFIG").then(|| "/nope.toml".to_owned())
        });
        assert_eq!(d.locate().unwrap_err().key.as_deref(), Some("CAIRN_CONFIG"));
    }

    #[test]
    fn zero_config_is_one_unscoped_vault() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config::for_vault(dir.path()).unwrap();
        assert_eq!(c.developer.note_roots, vec![String::new()]);
        assert!(c.projects.is_empty());
        assert!(Config::for_vault(&dir.path().join("missing")).is_err());
    }

    #[test]
    fn memory_defaults_follow_the_note_roots() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let text = "[vault]\nroot='v'\n[developer]\nnote_roots=['00-Identity/', '30-Workflows']\n[[projects]]\nid='p'\nnote_roots=['10-Projects/p']\n[[projects]]\nid='bare'\n";
        let c = Config::load(&write(dir.path(), "c.toml", text), None).unwrap();
        let m = &c.memory;
        assert_eq!(m.global, "00-Identity/memory/global");
        assert_eq!(m.user, "00-Identity/memory/user");
        assert_eq!(m.personas, "00-Identity/memory/personas");
        assert_eq!(
            m.project_dir(&c.projects[0]).as_deref(),
            Some("10-Projects/p/memory")
        );
        assert_eq!(m.project_dir(&c.projects[1]), None);
        assert_eq!(m.max_note_bytes, DEFAULT_MAX_NOTE_BYTES);
        assert_eq!(m.index_budget_lines, DEFAULT_INDEX_BUDGET_LINES);
        assert_eq!(m.archive_folder, ".archive");
        assert!(!m.nested);
        let zero = Config::for_vault(dir.path()).unwrap();
        assert_eq!(zero.memory.global, "memory/global");
    }

    #[test]
    fn memory_table_overrides_and_validation() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let base = "[vault]\nroot='v'\n[[projects]]\nid='p'\nnote_roots=['P']\n";
        let ok = format!(
            "{base}[memory]\nglobal='M/g'\nuser='M/u/'\npersonas='M/personas'\nproject_folder='agent'\nmax_note_bytes=2048\nindex_budget_lines=20\nnested=true\narchive_folder='_old'\n[memory.projects]\np='Elsewhere/p'\n"
        );
        let c = Config::load(&write(dir.path(), "ok.toml", &ok), None).unwrap();
        assert_eq!(c.memory.global, "M/g");
        assert_eq!(c.memory.user, "M/u");
        assert_eq!(
            c.memory.project_dir(&c.projects[0]).as_deref(),
            Some("Elsewhere/p")
        );
        assert_eq!(
            (
                c.memory.max_note_bytes,
                c.memory.index_budget_lines,
                c.memory.nested
            ),
            (2048, 20, true)
        );
        assert_eq!(c.memory.archive_folder, "_old");

        let cases = [
            ("[memory]\nglobal='../out'\n", "memory.global", 7),
            ("[memory]\nuser='/abs'\n", "memory.user", 7),
            ("[memory]\nmax_note_bytes=0\n", "memory.max_note_bytes", 7),
            (
                "[memory]\nindex_budget_lines=0\n",
                "memory.index_budget_lines",
                7,
            ),
            (
                "[memory]\narchive_folder='a/b'\n",
                "memory.archive_folder",
                7,
            ),
            ("[memory]\nglobal=''\n", "memory.global", 7),
            ("[memory.projects]\nnope='X'\n", "memory.projects.nope", 7),
            ("[memory]\nnested='yes'\n", "memory.nested", 7),
        ];
        assert_config_errors(dir.path(), base, &cases);
    }

    #[test]
    fn git_table_and_project_remotes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("v")).unwrap();
        let base = "[vault]\nroot='v'\n[[projects]]\nid='p'\nremotes=['github.com/org/ledger', 'git@gitlab.com:org/ledger.git']\n";
        let c = Config::load(&write(dir.path(), "d.toml", base), None).unwrap();
        assert_eq!(c.git, GitConfig::default());
        assert_eq!(c.git.derive, Derive::WhenRouted);
        assert_eq!(
            c.projects[0].remotes,
            ["github.com/org/ledger", "git@gitlab.com:org/ledger.git"]
        );
        let ok = format!(
            "{base}[git]\nderive=false\ncommits=2\nchanged_files=3\ntimeout_ms=50\ncode_changed_deboost=1.0\nhistory_commits=10\nhistory_days=30\ndate_notes=false\n"
        );
        let c = Config::load(&write(dir.path(), "ok.toml", &ok), None).unwrap();
        assert_eq!(
            c.git,
            GitConfig {
                derive: Derive::Never,
                commits: 2,
                changed_files: 3,
                timeout_ms: 50,
                code_changed_deboost: 1.0,
                history_commits: 10,
                history_days: 30,
                date_notes: false,
            }
        );
        let cases = [
            ("[git]\ntimeout_ms=0\n", "git.timeout_ms", 7),
            (
                "[git]\ncode_changed_deboost=0.0\n",
                "git.code_changed_deboost",
                7,
            ),
            (
                "[git]\ncode_changed_deboost=1.5\n",
                "git.code_changed_deboost",
                7,
            ),
            ("[git]\nhistory_days=0\n", "git.history_days", 7),
            ("[git]\nderive='no'\n", "git.derive", 7),
        ];
        assert_config_errors(dir.path(), base, &cases);
        let empty = "[vault]\nroot='v'\n[[projects]]\nid='p'\nremotes=['  ']\n";
        let e = Config::load(&write(dir.path(), "e.toml", empty), None).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("projects[0].remotes[0]"), "{e}");
    }
}
