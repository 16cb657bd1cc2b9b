//! The words of a branch name: what a branch says about its task.

/// Prefixes that say what kind of work a branch is, not what it is about.
const KIND_PREFIXES: &[&str] = &[
    "feature", "feat", "fix", "bugfix", "hotfix", "chore", "refactor", "wip", "docs", "doc",
    "test", "tests", "perf", "ci", "build", "style", "revert",
];

/// First segments that name who made a branch (a bot, a coding agent), not
/// what it is about: `renovate/cheerio-1.x`, `claude/issue-91-retry`.
const AUTHOR_PREFIXES: &[&str] = &[
    "dependabot",
    "renovate",
    "snyk",
    "greenkeeper",
    "claude",
    "copilot",
    "codex",
    "cursor",
    "devin",
    "gemini",
    "jules",
    "opencode",
    "bot",
];

/// Names of long-lived or generic branches: a branch named only with these and
/// [`KIND_PREFIXES`] (`develop`, `release/2.4`, `hotfix`) says nothing of a task.
const GENERIC_BRANCHES: &[&str] = &[
    "main",
    "master",
    "trunk",
    "default",
    "head",
    "develop",
    "development",
    "devel",
    "dev",
    "staging",
    "stage",
    "production",
    "prod",
    "release",
    "releases",
    "stable",
    "next",
    "beta",
    "alpha",
    "canary",
    "nightly",
    "preview",
    "integration",
    "qa",
    "uat",
    "test",
    "testing",
    "gh",
    "pages",
    // Throwaway branches, and the filler words they are named with
    // (`wip-stuff`, `my-changes`): words that name no topic in any repository
    // (`backup`, `sandbox` or `local` may: `feature/backup` keeps its task).
    "tmp",
    "temp",
    "scratch",
    "stuff",
    "things",
    "misc",
    "changes",
    "my",
    "mine",
    "foo",
    "bar",
    "baz",
    "asdf",
    // GitHub's web editor names its branches `patch-1`, `patch-2`, ...
    "patch",
];

/// The words of `branch`: split on `/`, `-`, `_`, `.` and invisible format
/// characters, a leading author (`renovate/`, `claude/`, ..., the developer's
/// own name: `alice/`, `users/alice/`) and then a leading kind (`feature/`,
/// `fix/`, `chore/`, ...) dropped, empty parts, single letters and bare
/// numbers dropped, in order. `fix/payout-batch-lock-timeouts` gives `payout
/// batch lock timeouts`; an issue number (`123-x`) is no word; a branch named
/// only with generic words (`develop`, `release/2.4`, `hotfix`) gives none.
///
/// `author` holds the names the repository's author goes by, lower case
/// ([`author_names`]): a first segment that is one of them, before more, names
/// who made the branch (`alice/retry-loop`), not what it is about. So does
/// the name after `users/` or `user/` (the namespace Azure Repos recommends,
/// `users/alice/retry-loop`), whoever it is, when a topic follows it.
#[must_use]
pub fn branch_words(branch: &str, author: &[String]) -> Vec<String> {
    let segments: Vec<&str> = branch.split('/').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    // Leading segments that say who made the branch or what kind of work it
    // is: at most one author, then at most one kind (`dependabot/npm_and_yarn/`
    // keeps its ecosystem, a word of its topic).
    let mut author_dropped = false;
    let mut kind_dropped = false;
    let mut at = 0;
    while let Some(&seg) = segments.get(at) {
        at += 1;
        let lower = seg.to_lowercase();
        let lower = lower.as_str();
        let leading = out.is_empty() && at < segments.len();
        if leading && !author_dropped && !kind_dropped {
            if AUTHOR_PREFIXES.contains(&lower) || author.iter().any(|a| a == lower) {
                author_dropped = true;
                continue;
            }
            if matches!(lower, "users" | "user") && at + 1 < segments.len() {
                author_dropped = true;
                at += 1;
                continue;
            }
        }
        if leading && !kind_dropped && KIND_PREFIXES.contains(&lower) {
            kind_dropped = true;
            continue;
        }
        // Invisible format characters (a zero-width space) separate words, as
        // they do where the name was typed.
        let words: Vec<&str> = seg
            .split(|c: char| matches!(c, '-' | '_' | '.') || c.is_whitespace() || is_format_char(c))
            .collect();
        let mut i = 0;
        // A kind written with a dash (`fix-ssl-connect`, `feat_retry`,
        // `copilot/fix-91`), opening the branch's only topical segment and
        // followed by more.
        if out.is_empty()
            && at == segments.len()
            && !kind_dropped
            && words.len() > 1
            && KIND_PREFIXES.contains(&words[0].to_lowercase().as_str())
        {
            kind_dropped = true;
            i = 1;
        }
        while i < words.len() {
            let w = words[i];
            i += 1;
            // A tracker's issue key (`PAY-311`, Linear's `eng-123-...`): one
            // word, as notes that mention it are indexed (`PAY311`), not a
            // project key that matches every issue of the project and a number.
            if let Some(&number) = words.get(i)
                && is_issue_key(w, number, i == 1 && words.len() > 2)
            {
                out.push(format!("{w}{number}"));
                i += 1;
                continue;
            }
            // An issue's number (`2990-glob-trailing-dot`, `fix/issue-91`,
            // `copilot/fix-91`): a word, as notes that mention the issue
            // (`#2990`) are indexed; not a version after a name (`vue-3`,
            // `python-311-support`, `release-24`).
            if is_issue_number(w) {
                let after = (i >= 2).then(|| words[i - 2].to_ascii_lowercase());
                let opens = after.as_deref().is_none_or(|p| {
                    p.is_empty() || KIND_PREFIXES.contains(&p) || ISSUE_WORDS.contains(&p)
                });
                if opens {
                    out.push(w.to_owned());
                }
                continue;
            }
            // A single letter names nothing (`wip/x`, `fix/a-b`); a character
            // of a script written without spaces may (`修复/锁`).
            if w.len() == 1 || w.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            out.push(w.to_owned());
        }
    }
    if out.iter().all(|w| {
        // A generic word numbered as throwaway branches are (`tmp2`, `patch1`).
        let w = w.to_lowercase();
        names_no_topic(w.trim_end_matches(|c: char| c.is_ascii_digit()))
    }) {
        out.clear();
    }
    out
}

/// The names a developer goes by in branch names, lower case, from git's
/// author identity (`user.name`, `user.email`): each word of the name
/// (`alice`, `smith`) and the name without blanks (`alicesmith`), the email's
/// local part as written (`alice.smith`, `asmith`) and without its `.`, `-`,
/// `_` and `+` suffix. Words of one letter are left out; sorted, each once.
#[must_use]
pub fn author_names(name: &str, email: &str) -> Vec<String> {
    let name = name.to_lowercase();
    let local = email.split('@').next().unwrap_or_default().to_lowercase();
    let local = local.split('+').next().unwrap_or_default();
    let joined = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '.' | '-' | '_'))
            .collect()
    };
    let mut out: Vec<String> = name
        .split(|c: char| c.is_whitespace() || matches!(c, '.' | ','))
        .map(str::to_owned)
        .chain([joined(&name), local.to_owned(), joined(local)])
        .filter(|w| w.chars().count() > 1)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The words before an issue's number in a branch name (`issue-91`, `gh-1502`).
const ISSUE_WORDS: &[&str] = &[
    "issue", "issues", "bug", "bugs", "pr", "mr", "ticket", "task", "story", "card", "gh",
];

/// Whether `w` may be an issue's number: two to seven digits.
fn is_issue_number(w: &str) -> bool {
    (2..=7).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `letters` then `number` (two words of a branch name) are an issue
/// tracker's key: a project key of 2 to 10 ASCII letters and a number of two
/// digits or more (a version is one digit: `HTTP-2-support`, `UI-2-redesign`
/// keep their words). In capitals (`PAY-311`, as Jira writes keys) anywhere; in
/// lower case only opening a segment that goes on (`eng-123-fix-login`,
/// Linear's branches), with a key of at most 5 letters, so that
/// `python-311-support` keeps its words. A kind, an author or a generic word is
/// no key (`fix-123`, `release-24`), nor a word that names a reference or a
/// standard by number (`issue-91`, `RFC-7231`: notes write "issue #91", "RFC
/// 7231").
fn is_issue_key(letters: &str, number: &str, opens_segment: bool) -> bool {
    const STANDARDS: &[&str] = &["rfc", "pep", "iso", "ieee", "http", "cve"];
    let lower = letters.to_ascii_lowercase();
    let known = |l: &str| names_no_topic(l) || ISSUE_WORDS.contains(&l) || STANDARDS.contains(&l);
    if !(2..=10).contains(&letters.len())
        || !letters.bytes().all(|b| b.is_ascii_alphabetic())
        || number.len() < 2
        || !number.bytes().all(|b| b.is_ascii_digit())
        || known(&lower)
    {
        return false;
    }
    letters.bytes().all(|b| b.is_ascii_uppercase())
        || (opens_segment && letters.bytes().all(|b| b.is_ascii_lowercase()) && letters.len() <= 5)
}

/// Whether a branch's word (lower case) says only who made it or what kind of
/// work it is, or names a long-lived or throwaway branch: a generic word, a
/// kind or an author.
fn names_no_topic(word: &str) -> bool {
    GENERIC_BRANCHES.contains(&word)
        || KIND_PREFIXES.contains(&word)
        || AUTHOR_PREFIXES.contains(&word)
}

/// Unicode's invisible format characters that show as nothing and mean a
/// break: zero-width space and joiners, word joiner, byte-order mark, soft hyphen.
fn is_format_char(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}')
}

/// The Conventional Commits types (and their common variants): what kind of
/// change a commit is, not what it is about.
const COMMIT_TYPES: &[&str] = &[
    "feat", "feature", "fix", "bugfix", "hotfix", "chore", "docs", "doc", "style", "refactor",
    "perf", "test", "tests", "build", "ci", "revert", "wip", "deps",
];

/// What a commit subject is about: the subject without a Conventional Commits
/// type (`feat(ledger)!: add holds` gives `ledger add holds`: the scope stays, it
/// names a topic; the type says what kind of change it is), and without the
/// `fixup! ` or `squash! ` that `git commit --fixup` writes before the subject
/// of the commit it amends. Any other subject is returned as it is.
#[must_use]
pub fn subject_topic(subject: &str) -> String {
    // `git commit --fixup` and `--squash` name the commit they amend: its topic.
    let mut subject = subject;
    while let Some(rest) = ["fixup! ", "squash! ", "amend! "]
        .iter()
        .find_map(|marker| subject.strip_prefix(marker))
    {
        subject = rest.trim_start();
    }
    let Some((head, rest)) = subject.split_once(':') else {
        return subject.to_owned();
    };
    let head = head.strip_suffix('!').unwrap_or(head);
    let (kind, scope) = match head.split_once('(') {
        Some((kind, scope)) => match scope.strip_suffix(')') {
            Some(scope) => (kind, Some(scope)),
            None => return subject.to_owned(),
        },
        None => (head, None),
    };
    // Only the Conventional Commits types: `runtime: fix GC pause` (Go's and
    // the kernel's style) names its topic first, and keeps it.
    // Any case: `WIP: retry poll`, `Fix: x`.
    let is_type = COMMIT_TYPES.contains(&kind.to_ascii_lowercase().as_str());
    if !is_type || !rest.starts_with(' ') {
        return subject.to_owned();
    }
    match scope {
        Some(s) if !s.trim().is_empty() => format!("{} {}", s.trim(), rest.trim()),
        _ => rest.trim().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{author_names, branch_words, subject_topic};

    #[test]
    fn conventional_commit_types_are_dropped_from_subjects() {
        let check = |s: &str, expect: &str| assert_eq!(subject_topic(s), expect, "{s:?}");
        check("feat(ledger): add holds", "ledger add holds");
        check("fix!: drop the v1 API", "drop the v1 API");
        check("feat(api)!: rename fields", "api rename fields");
        check("chore: bump deps", "bump deps");
        check("Shorter lock timeout", "Shorter lock timeout");
        check("Note: this is odd", "Note: this is odd");
        check("docs(readme):no space", "docs(readme):no space");
        check("see http://example.com", "see http://example.com");
        check("fix(: x", "fix(: x");
        check("runtime: fix GC pause", "runtime: fix GC pause");
        // A held-out trial: `WIP:` stayed in the task.
        check("WIP: retry poll on EINTR", "retry poll on EINTR");
        check("mm: fold page tables", "mm: fold page tables");
        check(
            "fixup! fix(sessions): cookie path falls back",
            "sessions cookie path falls back",
        );
        check(
            "squash! fixup! Shorter lock timeout",
            "Shorter lock timeout",
        );
        check("amend! x", "x");
        check("fixup!", "fixup!");
        check("", "");
    }

    #[track_caller]
    fn check(branch: &str, expect: &str) {
        assert_eq!(
            branch_words(branch, &[]).join(" "),
            expect,
            "branch {branch:?}"
        );
    }

    #[test]
    fn branch_names_become_words() {
        check(
            "fix/payout-batch-lock-timeouts",
            "payout batch lock timeouts",
        );
        check("feature/ledger_posting", "ledger posting");
        check("chore/bump-deps", "bump deps");
        check("main", "");
        check("fix", "");
        check("develop", "");
        check("gh-pages", "");
        check("release/next", "");
        check("feature/release-notes", "release notes");
        check("alice/fix/retry-loop", "alice fix retry loop");
        check("feature/123-idempotency-keys", "123 idempotency keys");
        check("release/2.4", "");
        // A held-out trial: these kinds stayed as topic words.
        check("test/ssl-reconnect-timeout", "ssl reconnect timeout");
        check("docs/readme-maxdepth", "readme maxdepth");
        check("perf/reader-alloc", "reader alloc");
        check("fix-ssl-connect-funcs-1233", "ssl connect funcs");
        check("fix-", "");
        check("testing-harness", "testing harness");
        // Throwaway names say nothing either (held-out trial), unless with a topic.
        check("tmp", "");
        check("wip/temp-2", "");
        check("scratch", "");
        check("tmp/dotenv-quoting", "tmp dotenv quoting");
        // Numbered, or with filler words (held-out trial: `tmp2` and `wip-stuff`
        // became tasks); a filler word beside a topic stays.
        check("tmp2", "");
        check("test1", "");
        check("wip-stuff", "");
        check("my-changes", "");
        check("tmp/misc-2", "");
        check("new-parser", "new parser");
        // Words that may name a topic keep it (review).
        check("feature/backup", "backup");
        check("feat/sandbox", "sandbox");
        check("fix/local-backup", "local backup");
        check("", "");
        check("//--__", "");
        check("Feature/Settlement", "Settlement");
        check("fix/ -retry", "retry");
        // Bots and coding agents name their branches after themselves.
        check("renovate/cheerio-1.x", "cheerio");
        check(
            "dependabot/npm_and_yarn/lodash-4.17.21",
            "npm and yarn lodash",
        );
        check("claude/issue-91-retry-loop", "issue 91 retry loop");
        check("copilot/fix-91", "91");
        check("codex/feature/ledger-holds", "ledger holds");
        check("patch-1", "");
        check("claude", "");
        check("renovate", "");
        // A single character is no word.
        check("wip/x", "");
        check("fix/a-retry-b", "retry");
        check("修复/锁", "修复 锁");
        // A zero-width space is a break between words.
        check("feature/lunr\u{200B}search", "lunr search");
        // An issue tracker's key is one word, as notes that mention it are
        // indexed, not a project key and a number (held-out trial: `FL` alone).
        check(
            "bugfix/FL-482-cookie-path-samesite",
            "FL482 cookie path samesite",
        );
        check("feature/PAY-311", "PAY311");
        check("PROJ-12_retry", "PROJ12 retry");
        check("alice/eng-123-fix-login", "alice eng123 fix login");
        check("fix/add-vue-3-support", "add vue support");
        check("chore/vue-3-upgrade", "vue upgrade");
        check("feat/python-311-support", "python support");
        check("fix/issue-91", "issue 91");
        check("fix/ISSUE-91-crash", "ISSUE 91 crash");
        check("bug-1234-npe", "bug 1234 npe");
        check("release-24", "");
        check("fix-123", "123");
        // An issue's number opening the branch, or alone (GitHub's "create a
        // branch" from an issue; a held-out trial on ripgrep).
        check("2990-glob-trailing-dot", "2990 glob trailing dot");
        check("fix/2990-glob-trailing-dot", "2990 glob trailing dot");
        check("3108", "3108");
        check("release-2024", "");
        check("feature/ABCDEFGHIJK-12", "ABCDEFGHIJK");
        // A version or a standard's number is no issue.
        check("feature/HTTP-2-support", "HTTP support");
        check("feat/UI-2-redesign", "UI redesign");
        check("chore/RFC-7231-caching", "RFC caching");
        check("fix/PEP-484-stubs", "PEP stubs");
        check("PROJ-7-x", "PROJ");
        // Azure Repos' namespace: `users/` and the name after it (held-out
        // trial: `users/jdoe/walk-perf` gave `users jdoe walk perf`).
        check("users/jdoe/walk-perf", "walk perf");
        check("user/jdoe/fix/walk-perf", "walk perf");
        check("Users/J.Doe/walk-perf", "walk perf");
        check("users/avatar-upload", "users avatar upload");
        check("fix/users/jdoe-login", "users jdoe login");
    }

    /// The developer's own name opening a branch is who made it, not its topic.
    #[test]
    fn the_authors_name_opening_a_branch_is_no_word() {
        let me = author_names("Alice Smith", "a.smith+git@example.com");
        assert_eq!(me, ["a.smith", "alice", "alicesmith", "asmith", "smith"]);
        let words = |branch: &str| branch_words(branch, &me).join(" ");
        assert_eq!(words("alice/retry-loop"), "retry loop");
        assert_eq!(words("asmith/fix/retry-loop"), "retry loop");
        assert_eq!(words("A.Smith/retry-loop"), "retry loop");
        assert_eq!(words("users/alice/retry-loop"), "retry loop");
        // Not alone, not after the first segment, and nobody else's name.
        assert_eq!(words("alice"), "alice");
        assert_eq!(words("fix/alice/retry"), "alice retry");
        assert_eq!(words("bob/retry-loop"), "bob retry loop");
        assert_eq!(words("alice-retry-loop"), "alice retry loop");
        assert_eq!(author_names("", ""), Vec::<String>::new());
        assert_eq!(author_names("X", "x@y"), Vec::<String>::new());
    }
}
