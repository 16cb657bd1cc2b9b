//! Notes as people actually write them: TOML and JSON front matter (Hugo, Zola),
//! Obsidian properties, tags, titles and summaries. Each table row is an input and
//! what the parser must make of it; a property test checks that no TOML or JSON
//! block makes the parser panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_note::*;
use proptest::prelude::*;

fn parse_at(path: &str, text: &str) -> (Note, Vec<Diagnostic>) {
    let p = parse_note(path, text.as_bytes());
    (p.note.expect("note"), p.diagnostics)
}

/// What a note's front matter must give.
#[derive(Default)]
struct Front {
    title: &'static str,
    description: Option<&'static str>,
    tags: &'static [&'static str],
    aliases: &'static [&'static str],
    links: &'static [&'static str],
    created: Option<&'static str>,
    updated: Option<&'static str>,
    extra: &'static [&'static str],
    /// Diagnostic codes, sorted.
    codes: &'static [&'static str],
}

fn check(input: &str, e: Front) {
    let (n, d) = parse_at("posts/my-post.md", input);
    assert_eq!(n.title, e.title, "title of {input:?}");
    assert_eq!(
        n.description.as_deref(),
        e.description,
        "description of {input:?}"
    );
    assert_eq!(n.tags, e.tags, "tags of {input:?}");
    assert_eq!(n.aliases, e.aliases, "aliases of {input:?}");
    assert_eq!(n.wikilinks, e.links, "links of {input:?}");
    assert_eq!(
        n.created.map(|d| d.to_string()).as_deref(),
        e.created,
        "created of {input:?}"
    );
    assert_eq!(
        n.updated.map(|d| d.to_string()).as_deref(),
        e.updated,
        "updated of {input:?}"
    );
    for k in e.extra {
        assert!(
            n.extra.contains_key(*k),
            "extra `{k}` of {input:?}: {:?}",
            n.extra
        );
    }
    let codes: Vec<&str> = d.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, e.codes, "diagnostics of {input:?}: {d:?}");
    if !e.codes.contains(&"frontmatter-unclosed") {
        assert!(
            !n.body.starts_with("+++") && !n.body.starts_with('{'),
            "{input:?}"
        );
    }
}

/// Zola accepts a page's own keys only under `[extra]`, Hugo's newer sites keep
/// them under `params`: cairn's keys there are read as at the top (held-out
/// trial: `[extra] memory_type = "constraint"` made a plain note, so the
/// constraint lost its section and its gate), while a key at the top wins.
#[test]
fn cairn_s_keys_under_extra_or_params_are_read() {
    let (n, d) = parse_at(
        "notes/latency.md",
        "+++\ntitle = \"p99 latency budget\"\ndate = 2026-02-20\n[extra]\nmemory_type = \"constraint\"\nstatus = \"superseded\"\nrelated_files = [\"src/check.go\"]\ntriggers = [\"latency\"]\n+++\n\nUnder 50 ms.\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(n.memory_type, Some(MemoryType::Constraint));
    assert_eq!(n.status, Status::Superseded);
    assert_eq!(n.related_files, ["src/check.go"]);
    let (n, _) = parse_at(
        "notes/hugo.md",
        "---\ntitle: Hugo page\nparams:\n  memory_type: decision\n  retrieval_priority: high\n---\nBody.\n",
    );
    assert_eq!(n.memory_type, Some(MemoryType::Decision));
    assert_eq!(n.retrieval_priority, Some(Priority::High));
    let (n, _) = parse_at(
        "notes/both.md",
        "+++\ntitle = \"Both\"\nmemory_type = \"incident\"\n[extra]\nmemory_type = \"decision\"\n+++\nBody.\n",
    );
    assert_eq!(n.memory_type, Some(MemoryType::Incident));
}

/// Dendron writes `created` and `updated` as Unix times in milliseconds (held-
/// out trial: 2,022 "is not a date" warnings on its own docs, every note dated
/// by its file); seconds read too, the day in UTC; other numbers are no date.
#[test]
fn unix_times_in_front_matter_are_dates() {
    let (n, d) = parse_at(
        "dendron.topic.lookup.md",
        "---\nid: 4a1f\ntitle: Lookup\ndesc: ''\nupdated: 1659715122710\ncreated: 1595952505038\n---\nBody.\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        n.created.map(|d| d.to_string()).as_deref(),
        Some("2020-07-28")
    );
    assert_eq!(
        n.updated.map(|d| d.to_string()).as_deref(),
        Some("2022-08-05")
    );
    let (n, _) = parse_at("s.md", "---\ncreated: 1700000000\n---\nBody.\n");
    assert_eq!(
        n.created.map(|d| d.to_string()).as_deref(),
        Some("2023-11-14")
    );
    for not in ["12345", "123456789012", "99999999999999"] {
        let (n, d) = parse_at("x.md", &format!("---\ncreated: {not}\n---\nBody.\n"));
        assert_eq!(n.created, None, "{not}");
        assert_eq!(d.len(), 1, "{not}: {d:?}");
    }
}

/// A Logseq page keeps its properties in its first lines (held-out trial on
/// Logseq's docs: `title::` ignored, the file name `New to Logseq%3F` the
/// title, `alias::` and `tags::` unread, and 117 `description::` lines never
/// a summary).
#[test]
fn a_logseq_page_s_properties_are_its_front_matter() {
    let (n, d) = parse_at(
        "pages/Query function.md",
        "title:: Query function\ntype:: [[Feature]]\nalias:: Result transform, [[Aggregations]]\ntags:: #query, [[Advanced]]\ndescription:: This runs custom transformations on a query's results\ninitial-version:: 0.2.6\n\n- The body, in blocks.\n",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(n.title, "Query function");
    assert_eq!(n.aliases, ["Result transform", "Aggregations"]);
    assert_eq!(n.tags, ["advanced", "query"]);
    assert_eq!(
        n.description.as_deref(),
        Some("This runs custom transformations on a query's results")
    );
    let (n, _) = parse_at(
        "pages/New to Logseq%3F.md",
        "- Head over to [[Start here]]\n",
    );
    assert_eq!(n.title, "New to Logseq?");
    let (n, _) = parse_at("pages/setting___theme modes.md", "- Three modes.\n");
    assert_eq!(n.title, "setting/theme modes");
    // Front matter wins; properties below other text are no page's.
    let (n, _) = parse_at(
        "a.md",
        "---\ntitle: From YAML\n---\ntitle:: From the body\n",
    );
    assert_eq!(n.title, "From YAML");
    let (n, _) = parse_at("b.md", "# Heading\n\ntitle:: Not a page property\n");
    assert_eq!(n.title, "Heading");
}

#[test]
fn toml_front_matter_reads_like_yaml() {
    // Zola: taxonomies and extra.
    check(
        "+++\ntitle = \"Announcing Rust 1.80\"\ndescription = \"Lazy cells.\"\ndate = 2024-07-25\nupdated = 2024-07-26T10:00:00Z\n\n[taxonomies]\ntags = [\"Release\", \"#compiler\"]\n\n[extra]\nteam = \"The Release Team\"\ntags = [\"lang\"]\n+++\n\nBody text.\n",
        Front {
            title: "Announcing Rust 1.80",
            description: Some("Lazy cells."),
            tags: &["compiler", "lang", "release"],
            created: Some("2024-07-25"),
            updated: Some("2024-07-26"),
            extra: &["taxonomies", "extra"],
            ..Front::default()
        },
    );
    // Hugo: summary, lastmod, aliases, tags, trailing blanks on the delimiters.
    check(
        "+++   \ntitle = 'Hugo post'\nsummary = \"What it is about.\"\nlastmod = 2023-02-03\naliases = [\"/old/url\"]\ntags = [\"go\", \"web\"]\ndraft = false\n+++  \n# Heading\n",
        Front {
            title: "Hugo post",
            description: Some("What it is about."),
            tags: &["go", "web"],
            aliases: &["/old/url"],
            updated: Some("2023-02-03"),
            extra: &["draft", "summary", "lastmod"],
            ..Front::default()
        },
    );
    // Broken TOML: the body is still read, the title falls back to the H1.
    check(
        "+++\ntitle = \"unclosed\n+++\n# From the body\ntext\n",
        Front {
            title: "From the body",
            codes: &["frontmatter-toml"],
            ..Front::default()
        },
    );
    // Never closed: the whole file is text.
    check(
        "+++\ntitle = \"x\"\n\n# Heading\n",
        Front {
            title: "Heading",
            codes: &["frontmatter-unclosed"],
            ..Front::default()
        },
    );
}

#[test]
fn json_front_matter_reads_like_yaml() {
    check(
        "{\n  \"title\": \"JSON post\",\n  \"date\": \"2022-05-06\",\n  \"tags\": [\"a\", \"b\"],\n  \"categories\": [\"x\"]\n}\n\nBody.\n",
        Front {
            title: "JSON post",
            tags: &["a", "b"],
            created: Some("2022-05-06"),
            extra: &["categories"],
            ..Front::default()
        },
    );
    check(
        "{\n  \"title\": \"x\",,\n}\n# H\n",
        Front {
            title: "H",
            codes: &["frontmatter-json"],
            ..Front::default()
        },
    );
    // A lone `{{<` shortcode or `{%` tag opens nothing.
    let (n, d) = parse_at("a.md", "{{< figure src=\"x\" >}}\n# T\n");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(n.title, "T");
}

#[test]
fn obsidian_properties() {
    check(
        "---\ntitle: Weekly review\nstatus: [[Active]]\nrelated: [\"[[Project X]]\", \"[[Person Y|Y]]\"]\nup: [[Reviews]]\ntags: \"review, #weekly 2024-review\"\naliases: Week 12\ncssclasses:\n  - wide\n---\nSee [[Body Link]].\n",
        Front {
            title: "Weekly review",
            tags: &["2024-review", "review", "weekly"],
            aliases: &["Week 12"],
            // Property links (in key order: related, status, up), then the body's.
            links: &["Project X", "Person Y", "Active", "Reviews", "Body Link"],
            extra: &["cssclasses", "related", "up"],
            ..Front::default()
        },
    );
    // Template placeholders are values not filled in yet: no warning.
    check(
        "---\ntitle: {{title}}\ndate: {{date}}\ncreated: \"{{date:YYYY-MM-DD}}\"\nupdated: <% tp.date.now() %>\nmemory_type: \"{{type}}\"\ntags: [{{tag}}]\npinned: {{pinned}}\n---\n# {{title}}\n",
        Front {
            title: "{{title}}",
            ..Front::default()
        },
    );
    // A date format where the date goes is a placeholder too; a bare year or a
    // year and month is a date (its first day).
    check(
        "---\ndate: YYYY-MM-DD\ncreated: 2015\nupdated: 2024-07\n---\nx\n",
        Front {
            title: "my-post",
            created: Some("2015-01-01"),
            updated: Some("2024-07-01"),
            ..Front::default()
        },
    );
    check(
        "---\ncreated: 2024-13\nupdated: 20150\n---\nx\n",
        Front {
            title: "my-post",
            codes: &["frontmatter-value", "frontmatter-value"],
            ..Front::default()
        },
    );
    // Another tool's `metadata.type` is read when it is one of cairn's types,
    // quietly when it is not; cairn's own `memory_type` still says so.
    let (n, d) = parse_at("l/x.md", "---\nmetadata:\n  type: learning\n---\nx\n");
    assert_eq!((n.memory_type, d.len()), (None, 0), "{d:?}");
    let (n, d) = parse_at("l/x.md", "---\nmetadata:\n  type: decision\n---\nx\n");
    assert_eq!((n.memory_type, d.len()), (Some(MemoryType::Decision), 0));
    let (_, d) = parse_at("l/x.md", "---\nmemory_type: learning\n---\nx\n");
    assert_eq!(d.len(), 1, "{d:?}");
    // A top-level `type` (an Obsidian property) too: it was ignored, and a
    // `type: constraint` note was a plain note (held-out trial). `memory_type`
    // wins over it; a type of another kind (`article`) is quietly none.
    for (front, want) in [
        ("type: constraint", Some(MemoryType::Constraint)),
        ("type: Decision", Some(MemoryType::Decision)),
        ("type: \"[[Incident]]\"", Some(MemoryType::Incident)),
        ("type: article", None),
        // A contact is no profile, and a vault's structure no overview or log
        // (review: `type: person` contacts became the developer's identity).
        ("type: person", None),
        ("type: project", None),
        ("type: session", None),
        (
            "type: person\nmemory_type: person",
            Some(MemoryType::Person),
        ),
        (
            "type: constraint\nmemory_type: decision",
            Some(MemoryType::Decision),
        ),
        (
            "type: article\nmetadata:\n  type: pattern",
            Some(MemoryType::Pattern),
        ),
    ] {
        let (n, d) = parse_at("l/x.md", &format!("---\n{front}\n---\nx\n"));
        assert_eq!((n.memory_type, d.len()), (want, 0), "{front}: {d:?}");
    }
    // Related files: a Windows path is `/`-separated, a glob its folder; a
    // glob without one or a path from a home folder or a drive warns (they
    // matched nothing, silently; held-out trial); a path from the root is a
    // repository path, quietly.
    let (n, d) = parse_at(
        "l/x.md",
        "---\nrelated_files: ['src\\platform\\windows.rs', ./src/a.rs, /src/b.rs, 'src/platform/*.rs', 'tiles/**/x?.sql', 'app/[id]/page.tsx', '[slug].tsx']\n---\nx\n",
    );
    // Brackets are literal (Next.js routes), not a pattern (review).
    assert_eq!(
        n.related_files,
        [
            "src/platform/windows.rs",
            "src/a.rs",
            "/src/b.rs",
            "src/platform/",
            "tiles/",
            "app/[id]/page.tsx",
            "[slug].tsx"
        ]
    );
    assert!(d.is_empty(), "{d:?}");
    for (value, says) in [
        ("'**/*.rs'", "is a glob pattern with no folder"),
        (
            "'~/code/just/src/lib.rs'",
            "is not a path from the repository's root",
        ),
        (
            "'C:\\code\\just\\src\\lib.rs'",
            "is not a path from the repository's root",
        ),
        // The root matched nothing, silently (held-out trial).
        ("'.'", "names the repository's root"),
        ("'./'", "names the repository's root"),
        ("/", "names the repository's root"),
    ] {
        let (n, d) = parse_at(
            "l/x.md",
            &format!("---\nrelated_files: [{value}]\n---\nx\n"),
        );
        assert_eq!(n.related_files.len(), 1, "{value}");
        assert!(
            d.len() == 1
                && d[0].message.contains(says)
                && d[0].message.starts_with("`related_files`"),
            "{value}: {d:?}"
        );
    }
    // Tags as a list with `#`, one tag as a string, the `tag` key.
    check(
        "---\ntags:\n  - \"#Project/Alpha\"\n  - notes\ntag: single\n---\nx\n",
        Front {
            title: "my-post",
            tags: &["notes", "project/alpha", "single"],
            ..Front::default()
        },
    );
}

/// `text` → the note's inline tags (front matter tags none).
fn check_tags(text: &str, expect: &[&str]) {
    let (n, _) = parse_at("t.md", text);
    assert_eq!(n.tags, expect, "tags of {text:?}");
}

#[test]
fn tags_are_words_in_prose_only() {
    let cases: &[(&str, &[&str])] = &[
        (
            "See [the summary](#summary) and [motivation](#motivation).",
            &[],
        ),
        ("- [Summary](#summary)\n  - [Goals](#goals)\n", &[]),
        ("Use `#include` and `#[derive]`.", &[]),
        ("```c\n#include <x.h>\n#define X\n```\n", &[]),
        ("    #indented code\n", &[]),
        ("<!-- #hidden tag -->\nText.", &[]),
        (
            "Link <https://x.test/#frag> and https://y.test/#frag too.",
            &[],
        ),
        (
            "Issue #42 and #2024 but #2024-review and #v2.",
            &["2024-review", "v2"],
        ),
        (
            "#project/alpha at the start, then (#in-parens).",
            &["in-parens", "project/alpha"],
        ),
        ("## Heading with #rust\n", &["rust"]),
        ("Text#notatag and C# and F#.", &[]),
        ("[#notatag](http://x) and #yes", &["yes"]),
    ];
    for (text, expect) in cases {
        check_tags(text, expect);
    }
}

/// `path` and `text` → the note's title.
fn check_title(path: &str, text: &str, expect: &str) {
    let (n, _) = parse_at(path, text);
    assert_eq!(n.title, expect, "title of {path}: {text:?}");
}

#[test]
fn titles() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "a/x.md",
            "---\ntitle: From front\n---\n# H1\n",
            "From front",
        ),
        (
            "a/x.md",
            "+++\ntitle = \"From TOML\"\n+++\n# H1\n",
            "From TOML",
        ),
        (
            "a/x.md",
            "# [KEP-4815](https://github.com/x/y): DRA *partitionable* devices\n",
            "KEP-4815: DRA partitionable devices",
        ),
        ("a/x.md", "# The `Box<T>` type\n", "The Box<T> type"),
        (
            "a/x.md",
            "```\n# not a title\n```\n\n# Real title\n",
            "Real title",
        ),
        ("a/x.md", "    # indented code\n\n# Real\n", "Real"),
        ("a/x.md", "<!--\n# commented out\n-->\n# Real\n", "Real"),
        (
            "a/x.md",
            "Setext title\n============\n\ntext\n",
            "Setext title",
        ),
        ("a/x.md", "## Only an H2\n\ntext\n", "x"),
        ("a/x.md", "# Title {#custom-id}\n", "Title"),
        ("a/x.md", "# ![logo](l.png) Project\n", "Project"),
        (
            "keps/sig-node/4815-dra-partitionable/README.md",
            "## Summary\n\ntext\n",
            "4815 dra partitionable",
        ),
        (
            "content/blog/_index.md",
            "+++\nsort_by = \"date\"\n+++\n",
            "Blog",
        ),
        (
            "docs/getting_started/index.md",
            "text only\n",
            "Getting started",
        ),
        ("README.md", "text only\n", "README"),
        ("a/README.md", "# Its own H1\n", "Its own H1"),
    ];
    for (path, text, expect) in cases {
        check_title(path, text, expect);
    }
}

/// `body` → the first sentence of its lead (what a summary starts with).
fn check_lead(body: &str, expect: &str) {
    let p = prose(body);
    let first = p.lead_first().next().map_or("", String::as_str);
    assert_eq!(first, expect, "lead of {body:?}: {:?}", p.sentences);
}

#[test]
fn summaries_start_with_prose() {
    let cases: &[(&str, &str)] = &[
        // A KEP: the TOC comment, the TOC, the checklist; the Summary section wins.
        (
            "# KEP-1: Thing\n\n<!-- toc -->\n- [Release Signoff Checklist](#release-signoff-checklist)\n- [Summary](#summary)\n  - [Goals](#goals)\n<!-- /toc -->\n\n## Release Signoff Checklist\n\nItems marked with (R) are required.\n\n## Summary\n\nThis KEP adds a thing. It matters.\n",
            "This KEP adds a thing.",
        ),
        // Badges, an embed and a link reference definition are not prose.
        (
            "[![CI](https://img.shields.io/x.svg)](https://ci) ![crates](https://img.shields.io/y.svg)\n\n![[Dashboard.base]]\n\n[ref]: https://example.com\n\nThe real first paragraph.\n",
            "The real first paragraph.",
        ),
        // A sentence that introduces code is not a summary.
        (
            "Run this:\n\n```sh\nmake\n```\n\nThen it works.\n",
            "Then it works.",
        ),
        // Code spans keep their text; emphasis is removed correctly.
        (
            "A `*mut T` pointer makes _progress_ and **bold** __strong__ claims.\n",
            "A *mut T pointer makes progress and bold strong claims.",
        ),
        // Tables and headings are not prose; HTML is not either.
        (
            "# Title\n\n| a | b |\n|---|---|\n| c | d |\n\n<div align=\"center\">centered</div>\n\nAfter the table.\n",
            "After the table.",
        ),
        // An Obsidian callout reads as its text; its title is a label, as a
        // heading is (a real vault's `> [!note] Definición` began every
        // summary), unless the title is all it says.
        (
            "> [!note] Definición\n> Las lógicas descriptivas son lenguajes formales.\n",
            "Las lógicas descriptivas son lenguajes formales.",
        ),
        ("> [!tip]\n> Use the cache.\n", "Use the cache."),
        ("> [!note] Título\n>\n> El texto.\n", "El texto."),
        (
            "> [!warning] Never deploy on Fridays\n\nThe pipeline freezes then.\n",
            "Never deploy on Fridays",
        ),
        // A callout titled as a section of sources ends no section: the note's
        // own text after it is prose.
        (
            "> [!quote] Source\n> Kleppmann, chapter 7.\n\nTransactions group reads and writes.\n",
            "Kleppmann, chapter 7.",
        ),
        // Wikilinks read as their alias or target.
        (
            "See [[Other Note|the other]] and [[Plain#Section]] and [[Topics/K3s/K3s Production.md]].\n",
            "See the other and Plain and K3s Production.",
        ),
        // An introduction and its code, then a link: the introduction, no colon.
        (
            "You can list commands with `git-help`:\n\n```\n$ git help -a\n```\n\n[Source](http://x)\n",
            "You can list commands with git-help",
        ),
        // A paragraph of links only is not prose.
        ("[Home](../README.md) | [Next](next.md)\n\nText.\n", "Text."),
        // Nor is a bare address under the title (a source line).
        (
            "# AWS ADR process\n\nhttps://docs.aws.amazon.com/x/adr-process.html\n\nAn ADR is a document.\n",
            "An ADR is a document.",
        ),
        // A bookmark, whose only text is its address, keeps it.
        (
            "# Useful link\n\nhttps://example.com/guide\n",
            "https://example.com/guide",
        ),
        // A sentence that mentions an address is prose.
        (
            "See https://example.com for details.\n",
            "See https://example.com for details.",
        ),
        // A list of ordinary items is prose.
        ("- first item\n- second item\n", "first item"),
        // A paragraph before list items: RFC-style field lists are not a lead.
        (
            "- Feature Name: `x`\n- Start Date: 2015-11-09\n\n## Motivation\n\nWhy we do it.\n",
            "Why we do it.",
        ),
        // A heading that starts with a summary word.
        (
            "# KEP\n\nChecklist intro.\n\n## Summary and Motivation\n\nThe gist.\n",
            "The gist.",
        ),
        // A line of tags alone is not prose.
        (
            "#daily #journal\n\n- Called the bank.\n",
            "Called the bank.",
        ),
        // A summary section whose only sentence introduces code: the next paragraph.
        (
            "## Summary\n\nRun:\n\n```\nx\n```\n\n## Details\n\nDetails here.\n",
            "Details here.",
        ),
    ];
    for (body, expect) in cases {
        check_lead(body, expect);
    }
}

#[test]
fn toml_sensitivity_fails_closed() {
    use Sensitivity::{Confidential, Internal, Public, Secret};
    // (block, sensitivity, doubt line)
    let cases: &[(&str, Sensitivity, Option<usize>)] = &[
        ("sensitivity = \"public\"", Public, None),
        ("Sensitivity = \"SECRET\"", Secret, None),
        (
            "[extra]\nsensitivity = \"confidential\"",
            Confidential,
            None,
        ),
        ("extra.sensitivity = \"private\"", Confidential, None),
        ("extra = { sensitivity = \"internal\" }", Internal, None),
        ("sensitivity = \"top-secret\"", Secret, Some(2)),
        ("sensitivity = [\"secret\"]", Secret, Some(2)),
        ("sensitivity = 3", Secret, Some(2)),
        (
            "sensitivity = \"public\"\nclassification = \"internal\"",
            Secret,
            Some(3),
        ),
        ("[sensitivity]\nlevel = \"public\"", Secret, Some(2)),
        // Broken blocks naming the key are secret, whatever its value.
        (
            "title = \"x\"\ntitle = \"y\"\nsensitivity = \"public\"",
            Secret,
            Some(4),
        ),
        ("title = [\nsensitivity = \"public\"", Secret, Some(3)),
        // A multi-line string that reads like the key.
        (
            "description = \"\"\"\nsensitivity = \"public\"\n\"\"\"",
            Secret,
            Some(3),
        ),
        // Broken blocks without it keep the default.
        ("title = \"x\"\ntitle = \"y\"", Internal, None),
        ("# sensitivity = \"secret\"\ntitle = 'x'", Internal, None),
    ];
    for &(front, expect, line) in cases {
        for text in [
            format!("+++\n{front}\n+++\n# Qz9CANARY\n"),
            format!(
                "\u{feff}+++\r\n{}\r\n+++\r\n# Qz9CANARY\r\n",
                front.replace('\n', "\r\n")
            ),
        ] {
            let (n, d) = parse_at("n.md", &text);
            assert_eq!(n.sensitivity, expect, "{front:?}: {d:?}");
            let doubts: Vec<Option<usize>> = d
                .iter()
                .filter(|d| d.code == "sensitivity-doubt")
                .map(|d| d.line)
                .collect();
            assert_eq!(
                doubts,
                line.map(Some).into_iter().collect::<Vec<_>>(),
                "{front:?}"
            );
            let r = read_sensitivity(&text);
            assert_eq!(r.sensitivity, expect, "{front:?}");
            if expect == Secret {
                assert!(d.iter().all(|d| !d.message.contains("Qz9CANARY")), "{d:?}");
            }
        }
    }
    // JSON: the same rule.
    let json: &[(&str, Sensitivity)] = &[
        ("\"sensitivity\": \"public\"", Public),
        ("\"meta\": {\"Sensitivity\": \"secret\"}", Secret),
        ("\"sensitivity\": \"nope\"", Secret),
        ("\"sensitivity\": \"public\",,", Secret),
        ("\"title\": \"x\",,", Internal),
    ];
    for &(front, expect) in json {
        let text = format!("{{\n{front}\n}}\nbody\n");
        assert_eq!(parse_at("n.md", &text).0.sensitivity, expect, "{front:?}");
        assert_eq!(read_sensitivity(&text).sensitivity, expect, "{front:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn toml_and_json_blocks_never_panic(
        front in "[ -~\n]{0,200}",
        body in "[ -~\n\\[\\]#`]{0,200}",
        json in any::<bool>(),
    ) {
        let text = if json {
            format!("{{\n{front}\n}}\n{body}")
        } else {
            format!("+++\n{front}\n+++\n{body}")
        };
        let p = parse_note("x.md", text.as_bytes());
        if let Some(n) = p.note {
            prop_assert!(!n.title.is_empty());
        }
        let _ = read_sensitivity(&text);
        let _ = prose(&text);
    }

    #[test]
    fn toml_shaped_blocks_never_panic(lines in proptest::collection::vec(
        prop_oneof![
            Just("[extra]".to_owned()), Just("[[a.b]]".to_owned()), Just("sensitivity = \"x\"".to_owned()),
            Just("a.b.c = 1".to_owned()), Just("x = { y = [1, {z = 2}] }".to_owned()),
            Just("d = 1979-05-27T07:32:00Z".to_owned()), Just("s = \"\"\"".to_owned()),
            "[a-z]{1,5} = \\PC{0,12}",
        ], 0..12)) {
        let text = format!("+++\n{}\n+++\nbody", lines.join("\n"));
        let _ = parse_note("x.md", text.as_bytes());
        let _ = read_sensitivity(&text);
    }
}

#[test]
fn other_tools_statuses_keep_a_note_in_force_quietly_and_retiring_words_retire_it() {
    for (status, expect) in [
        ("implementable", Status::Active),
        ("draft", Status::Active),
        ("published", Status::Active),
        ("withdrawn", Status::Archived),
        ("deprecated", Status::Superseded),
        ("obsolete", Status::Superseded),
    ] {
        let (n, d) = parse_at("keps/x.md", &format!("---\nstatus: {status}\n---\n# X\n"));
        assert_eq!(n.status, expect, "{status}");
        assert!(d.is_empty(), "{status}: {d:?}");
    }
    for key in [
        "superseded_by",
        "superseded-by",
        "replaced_by",
        "replaced-by",
    ] {
        let (n, _) = parse_at("a.md", &format!("---\n{key}: \"[[ADR-9]]\"\n---\n# A\n"));
        assert_eq!(n.superseded_by, ["ADR-9"], "{key}");
        assert!(n.extra.is_empty(), "{key}: {:?}", n.extra);
    }
}

/// Decision records as ADR tools write them, without front matter: the status
/// and date live in the body, and a superseded record must read as superseded.
#[test]
fn decision_records_keep_status_and_date_in_the_body() {
    // (file, text, status, status word, created, superseded_by, supersedes)
    type Row<'a> = (
        &'a str,
        &'a str,
        Status,
        &'a str,
        &'a str,
        &'a [&'a str],
        &'a [&'a str],
    );
    let rows: &[Row<'_>] = &[
        (
            // Nygard's template, as adr-tools writes it.
            "doc/adr/0002-use-a-queue.md",
            "# 2. Use a queue\n\nDate: 2019-01-02\n\n## Status\n\nSuperseded by [7. Use a log](0007-use-a-log.md)\n\n## Context\n\nWe need to decouple.\n",
            Status::Superseded,
            "superseded",
            "2019-01-02",
            &["0007-use-a-log.md"],
            &[],
        ),
        (
            "doc/adr/0007-use-a-log.md",
            "# 7. Use a log\n\nDate: 2019-03-04\n\n## Status\n\nAccepted\n\nSupersedes [2. Use a queue](0002-use-a-queue.md)\n\n## Decision\n\nAppend to a log.\n",
            Status::Active,
            "accepted",
            "2019-03-04",
            &[],
            &["0002-use-a-queue.md"],
        ),
        (
            // MADR 2 (log4brains).
            "docs/adr/20200926-use-the-adr-number.md",
            "# Use the ADR number as its unique ID\n\n- Status: superseded by [20201016-use-the-adr-slug](20201016-use-the-adr-slug.md)\n- Date: 2020-09-26\n\n## Context and Problem Statement\n\nIds.\n",
            Status::Superseded,
            "superseded",
            "2020-09-26",
            &["20201016-use-the-adr-slug.md"],
            &[],
        ),
        (
            "docs/adr/0003-deprecated.md",
            "# Old cache\n\n**Status:** Deprecated\n**Date:** 2021-04-01\n\nDo not use.\n",
            Status::Superseded,
            "deprecated",
            "2021-04-01",
            &[],
            &[],
        ),
    ];
    for (path, text, status, word, created, by, replaces) in rows {
        let (n, d) = parse_at(path, text);
        assert_eq!(n.status, *status, "status of {path}");
        assert_eq!(n.status_word.as_deref(), Some(*word), "word of {path}");
        assert_eq!(
            n.created.map(|c| c.to_string()).as_deref(),
            Some(*created),
            "date of {path}"
        );
        assert_eq!(n.superseded_by, *by, "superseded_by of {path}");
        assert_eq!(n.supersedes, *replaces, "supersedes of {path}");
        assert!(d.is_empty(), "{path}: {d:?}");
    }
    // The front matter's keys win over the body's.
    let (n, _) = parse_at(
        "a.md",
        "---\nstatus: active\ndate: 2024-01-01\n---\n# A\n\nDate: 2019-01-01\n\n## Status\n\nSuperseded by [B](b.md)\n",
    );
    assert_eq!(n.status, Status::Active);
    assert_eq!(n.created.unwrap().to_string(), "2024-01-01");
    // The configured list decides a body's word as it does front matter's.
    let (mut n, _) = parse_at("r.md", "# R\n\n- Status: rejected\n");
    assert_eq!(n.status, Status::Active);
    n.retire_by(&["rejected".to_owned()]);
    assert_eq!(n.status, Status::Archived);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn record_fields_in_bodies_never_panic(lines in proptest::collection::vec(
        prop_oneof![
            Just("## Status".to_owned()), Just("# Title".to_owned()), Just("```".to_owned()),
            Just("- Status: superseded by [x](y.md)".to_owned()), Just("Date: 2020-02-30".to_owned()),
            Just("**Status:** **".to_owned()), Just("Superseded by ](".to_owned()),
            Just("Supersedes [[a|b]]".to_owned()), Just("* Date:".to_owned()),
            "\\PC{0,16}",
        ], 0..20)) {
        let text = lines.join("\n");
        if let Some(n) = parse_note("x.md", text.as_bytes()).note {
            prop_assert!(n.superseded_by.iter().all(|s| !s.is_empty()));
        }
    }
}
