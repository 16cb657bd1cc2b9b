//! A note's title when its front matter gives none: the first real H1 (what a
//! markdown parser calls one: not in code, not in an HTML comment; setext too;
//! not a section name such as an RFC's `# Summary`),
//! then the agent-memory `name`, then a heading of any level that writes the
//! file's name in words (`## Deploying Google Terraform` in
//! `deploying-google-terraform.md`), then for a folder's index file
//! (`README.md`, `index.md`, `_index.md`) the folder's name made readable, else
//! the file stem.

use crate::model::Heading;

/// H1s that name a section of a document, not the document (an RFC's
/// `# Summary`, `# Motivation`): never a title.
const SECTION_WORDS: &[&str] = &[
    "summary",
    "abstract",
    "motivation",
    "introduction",
    "overview",
    "background",
    "contents",
    "table of contents",
    "toc",
    "notes",
    "details",
    "description",
];

/// File names (any case) that stand for their folder.
const INDEX_FILES: &[&str] = &["readme", "index", "_index"];

/// Whether the file at vault-relative `path` is a folder's index file
/// (`README.md`, `index.md`, `_index.md`, any case).
pub fn is_index_file(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    INDEX_FILES.iter().any(|i| stem.eq_ignore_ascii_case(i))
}

/// The title of a note whose front matter names none: see the module header.
/// `stem` is the file stem; `name` the agent-memory `name` field.
pub(crate) fn fallback_title(
    path: &str,
    stem: &str,
    headings: &[Heading],
    name: Option<String>,
) -> String {
    let section = |t: &str| {
        let t = t.trim().trim_end_matches(':').to_lowercase();
        SECTION_WORDS.contains(&t.as_str())
    };
    // A first H1 that names a section says the note's H1s are its sections
    // (`# Introduction`, then `# Code repository`): none names the note.
    if let Some(h) = headings
        .iter()
        .find(|h| h.level == 1)
        .filter(|h| !section(&h.text))
    {
        return h.text.clone();
    }
    if let Some(n) = name {
        return n;
    }
    // A heading that writes the file's name in words (`## Deploying Google
    // Terraform` in `deploying-google-terraform.md`) is its title, as written.
    if let Some(h) = headings
        .iter()
        .find(|h| !stem.is_empty() && words_of(&h.text) == words_of(stem))
    {
        return h.text.clone();
    }
    if is_index_file(path) {
        let mut folders = path.rsplit(['/', '\\']).skip(1);
        if let Some(folder) = folders.find(|f| !f.is_empty()) {
            let t = humanize(folder);
            if !t.is_empty() {
                return t;
            }
        }
    }
    file_name_title(stem)
}

/// A file name as the title it stands for: Logseq writes a page `a/b` as
/// `a___b` and escapes what a file name cannot hold (`New to Logseq%3F`);
/// other names as they are.
fn file_name_title(stem: &str) -> String {
    let slashed = stem.replace("___", "/");
    if !slashed.contains('%') {
        return slashed;
    }
    let bytes = slashed.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).and_then(|&b| hex(b)),
            bytes.get(i + 2).and_then(|&b| hex(b)),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push(u8::try_from(h * 16 + l).unwrap_or(b'%'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or(slashed)
}

/// The words of a name or a heading, lowercase: its runs of letters and digits.
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A folder or file name as words: `-` and `_` become spaces, runs of blanks one,
/// the first letter upper case (`kep-4815-foo-bar` → `Kep 4815 foo bar`).
pub fn humanize(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c == '-' || c == '_' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn logseq_file_names_read_as_their_pages() {
        assert_eq!(super::file_name_title("Templates___Docs"), "Templates/Docs");
        assert_eq!(super::file_name_title("New to Logseq%3F"), "New to Logseq?");
        assert_eq!(super::file_name_title("100%"), "100%");
        assert_eq!(super::file_name_title("50%off"), "50%off");
        assert_eq!(super::file_name_title("caf%C3%A9"), "café");
        assert_eq!(super::file_name_title("bad%FF"), "bad%FF");
    }

    use super::*;

    #[test]
    fn index_files_and_names() {
        assert!(is_index_file("a/README.md"));
        assert!(is_index_file("_index.md"));
        assert!(is_index_file("x/Index.markdown"));
        assert!(!is_index_file("a/readme-old.md"));
        assert_eq!(humanize("kep-4815-foo_bar"), "Kep 4815 foo bar");
        assert_eq!(humanize("__"), "");
        assert_eq!(
            fallback_title("keps/kep-1/README.md", "README", &[], None),
            "Kep 1"
        );
        assert_eq!(fallback_title("README.md", "README", &[], None), "README");
    }

    #[test]
    fn a_section_name_is_not_a_title() {
        let h1 = |text: &str, line: usize| Heading {
            level: 1,
            text: text.into(),
            line,
        };
        let rfc = [h1("Summary", 5), h1("Motivation", 9)];
        assert_eq!(
            fallback_title("rfcs/0042-x.md", "0042-x", &rfc, None),
            "0042-x"
        );
        // A note whose first H1 is a section's: its next H1 is another section
        // (a real vault: `# Introduction`, `# Code repository`), not its title.
        let doc = [h1("Introduction", 3), h1("Code repository", 9)];
        assert_eq!(
            fallback_title("n/RAG on Kubernetes.md", "RAG on Kubernetes", &doc, None),
            "RAG on Kubernetes"
        );
        let doc = [h1("Scoped threads", 1), h1("Summary", 4)];
        assert_eq!(fallback_title("d.md", "d", &doc, None), "Scoped threads");
    }

    /// Without an H1, a heading that writes the file's name in words is the
    /// title as written (a guide in alphagov/govuk-aws opens with `## Deploying
    /// Google Terraform`); one that says anything else is not.
    #[test]
    fn a_heading_that_writes_the_file_name_is_the_title() {
        let h = |level: u8, text: &str| Heading {
            level,
            text: text.into(),
            line: 1,
        };
        let stem = "deploying-google-terraform";
        let path = "guides/deploying-google-terraform.md";
        assert_eq!(
            fallback_title(path, stem, &[h(2, "Deploying Google Terraform")], None),
            "Deploying Google Terraform"
        );
        assert_eq!(
            fallback_title(
                path,
                stem,
                &[h(2, "Steps"), h(3, "Deploying Google Terraform")],
                None
            ),
            "Deploying Google Terraform"
        );
        assert_eq!(
            fallback_title(path, stem, &[h(2, "Deploying Google Cloud")], None),
            stem
        );
        assert_eq!(
            fallback_title("2024-05-06.md", "2024-05-06", &[h(2, "Standup")], None),
            "2024-05-06"
        );
    }
}
