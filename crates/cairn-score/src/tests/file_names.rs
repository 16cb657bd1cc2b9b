//! Ranking cases on the names of a task's files: a file's name as its words,
//! and the titles that name a file.

use super::*;

/// A file's name as the words it is made of, generic ones left out; fewer
/// than two is no name to point at a note with.
#[test]
fn a_file_s_name_is_its_topical_words() {
    let check = |file: &str, words: Option<&str>| {
        let want = words.map(|w| cairn_index::analyze(w).into_iter().collect::<BTreeSet<_>>());
        assert_eq!(name_terms(file), want, "{file}");
    };
    check(
        "packages/core/src/adr/domain/AdrSlug.test.ts",
        Some("adr slug"),
    );
    check("src/payout_lock.rs", Some("payout lock"));
    check("src/HTTPServerConfig.java", Some("http server"));
    check("tests/test_retry_policy.py", Some("retry policy"));
    check("deploy/docker-compose.yml", Some("docker compose"));
    check("web/SearchBox.stories.tsx", Some("search box"));
    check("src/flask/sessions.py", None);
    check("lib/index.ts", None);
    check("src/mod00/file0011.rs", None);
    check(".eslintrc.js", None);
    check("src/utils/test_helpers.py", None);
    check("v2_api.go", None);
    check("s3_upload.py", Some("s3 upload"));
}

/// A note the text search found whose title says every word of a task file's
/// name is pointed at by it (anchored, a signal, a reason); a title with one
/// of the words, a note the search did not find, and a confidential note are
/// not.
#[test]
fn a_title_that_names_a_file_points_at_its_note() {
    let titled =
        |path: &str, title: &str, extra: &str| note(path, &format!("title: {title}{extra}"));
    let notes = vec![
        titled("slug.md", "Use the ADR slug as its unique ID", ""),
        titled("policies.md", "Retry policies", ""),
        titled("accents.md", "Réessayer: retry policies", ""),
        titled("hyphen.md", "E-mail sender retries", ""),
        titled("dying.md", "Dying workers", ""),
        titled("half.md", "Slug rules", ""),
        titled("unfound.md", "ADR slug history", ""),
        titled("conf.md", "ADR slug secrets", "\nsensitivity: confidential"),
    ];
    let mut c = Ctx::new("prefix the slug");
    c.files = vec!["packages/core/src/adr/domain/AdrSlug.ts".into()];
    let hits = [
        hit("slug.md", 2.0),
        hit("half.md", 1.0),
        hit("conf.md", 1.0),
    ];
    let s = score(&notes, &hits, &c.ctx());
    let get = |p: &str| s.iter().find(|x| x.path == p).unwrap();
    let slug = get("slug.md");
    assert!(slug.anchored && (slug.signals - 0.3).abs() < 1e-9);
    assert!(
        slug.reasons()
            .iter()
            .any(|r| r == "its title names packages/core/src/adr/domain/AdrSlug.ts (adr slug)"),
        "{:?}",
        slug.reasons()
    );
    for p in ["half.md", "unfound.md", "conf.md"] {
        assert!(!get(p).anchored && get(p).signals.abs() < 1e-9, "{p}");
    }
    // A word the index stems to another ending (`policy`, `policies`: polici)
    // is found, in a plain title and one with accents.
    let mut c = Ctx::new("retry");
    c.files = vec!["src/retry_policy.py".into()];
    let hits = [hit("policies.md", 1.0), hit("accents.md", 1.0)];
    let s = score(&notes, &hits, &c.ctx());
    for p in ["policies.md", "accents.md"] {
        assert!(s.iter().find(|x| x.path == p).unwrap().anchored, "{p}");
    }
    // A hyphenated word the index joins (`e-mail`), a stem that changes more
    // than an ending (`dying` is `die`).
    for (file, p) in [
        ("src/email_sender.ts", "hyphen.md"),
        ("src/die_worker.go", "dying.md"),
    ] {
        let mut c = Ctx::new("");
        c.files = vec![file.into()];
        let s = score(&notes, &[hit(p, 1.0)], &c.ctx());
        assert!(s.iter().find(|x| x.path == p).unwrap().anchored, "{p}");
    }
}

/// A title that writes a task file's name as a word of its own names the file,
/// generic words and all (`adr-config`, `test_helper`); the words apart, the
/// name inside a longer one, a short join (`lib_io`), a date or a version do
/// not.
#[test]
fn a_title_that_writes_a_file_s_name_points_at_its_note() {
    let check = |file: &str, title: &str, named: bool| {
        let notes = vec![note("n.md", &format!("title: {title}"))];
        let mut c = Ctx::new("");
        c.files = vec![file.into()];
        let s = score(&notes, &[hit("n.md", 1.0)], &c.ctx());
        let n = &s[0];
        assert_eq!(n.anchored, named, "{file} in {title:?}");
        if named {
            assert!(
                n.reasons()
                    .iter()
                    .any(|r| *r == format!("its title writes the name of {file}")),
                "{:?}",
                n.reasons()
            );
        }
    };
    check(
        "src/adr-config",
        "Invoke adr-config executable to get configuration",
        true,
    );
    check(
        "src/adr-config",
        "Invoke ADR_CONFIG to get configuration",
        true,
    );
    check(
        "test/test_helper.rb",
        "Why test_helper loads fixtures",
        true,
    );
    check("src/AdrConfig.java", "AdrConfig holds the defaults", true);
    check("src/adr-config.sh", "adr-config.sh exits early", true);
    check("src/adr-config", "ADR config defaults", false);
    check("src/adr-config", "adr-config-extra options", false);
    check("src/adr-config", "myadr-config options", false);
    check("src/lib_io.c", "Libio wrappers", false);
    check(
        "db/migrations/2024-01-15.sql",
        "Deploy of 2024-01-15",
        false,
    );
    check("docs/v1-2-3.md", "What v1-2-3 changed", false);
    check(
        "db/migrations/add_index_0042.sql",
        "add_index_0042 locks",
        true,
    );
    check("src/config.rs", "Config loading", false);
}

/// A file's name of one topical word (`Picture.tsx`) names the note whose
/// title says that word and nothing else but the project's names ("Pictures
/// in DCR", a held-out trial: guardian/dotcom-rendering, on a branch named
/// for an issue); a title with another word, a short word (`db.rs`) and a
/// confidential note do not.
#[test]
fn a_title_that_is_a_one_word_file_name_points_at_its_note() {
    let check = |file: &str, title: &str, extra: &str, named: bool| {
        let notes = vec![note("n.md", &format!("title: {title}{extra}"))];
        let mut c = Ctx::new("");
        c.files = vec![file.into()];
        let own = vec!["dotcom-rendering".to_owned()];
        let mut ctx = c.ctx();
        ctx.project_id = Some("dcr");
        ctx.own_names = &own;
        let s = score(&notes, &[hit("n.md", 1.0)], &ctx);
        assert_eq!(s[0].anchored, named, "{file} in {title:?}");
        if named {
            assert!(
                s[0].reasons()
                    .iter()
                    .any(|r| *r == format!("its title is the name of {file}")),
                "{:?}",
                s[0].reasons()
            );
        }
    };
    check("src/components/Picture.tsx", "Pictures in DCR", "", true);
    check("src/components/Picture.tsx", "Pictures", "", true);
    check(
        "src/components/Picture.tsx",
        "Dotcom rendering: pictures",
        "",
        true,
    );
    check("src/components/Picture.tsx", "Picture sizes", "", false);
    check("src/components/Picture.tsx", "Ledger", "", false);
    check("src/db.rs", "DB", "", false);
    check(
        "src/components/Picture.tsx",
        "Pictures",
        "\nsensitivity: confidential",
        false,
    );
}
