//! Memory names (slugs): what a caller may name a note, checked before any path is
//! built from it. A slug that passes is a relative file name (or, when nested
//! folders are allowed, a `/`-separated relative path) that means the same file
//! on Linux, macOS and Windows and cannot climb out of its scope folder. Names
//! are kept in Unicode NFC (so `café` typed composed or decomposed is one note),
//! and characters that make a name look like another (zero-width, bidi controls,
//! no-break spaces) are refused.

use unicode_normalization::UnicodeNormalization;

use crate::error::MemoryError;

/// Longest slug, in bytes (file names stop at 255 on most file systems).
pub const MAX_SLUG_BYTES: usize = 160;

/// A validated memory name: `/`-separated segments, without the `.md` extension.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slug(String);

impl Slug {
    /// Validates `raw` (a trailing `.md` is accepted and dropped). Refuses empty
    /// names, absolute paths, `.`/`..` segments, `\` and (unless `nested`) `/`,
    /// control characters, characters invalid in Windows file names (`<>:"|?*`),
    /// characters that break wikilinks (`#^[]|`), URL-encoded escapes (`%2e`),
    /// a leading `~` or `.` (home expansion, hidden files cairn never scans),
    /// trailing dots or spaces, reserved Windows device names (`CON`, `NUL`, ...),
    /// and invisible or look-alike characters (zero-width, bidi controls, no-break
    /// spaces). The name is normalised to NFC.
    pub fn parse(raw: &str, nested: bool) -> Result<Slug, MemoryError> {
        let refuse = |reason: &str| MemoryError::InvalidSlug {
            slug: visible(raw),
            reason: reason.to_owned(),
        };
        if let Some((c, what)) = raw.chars().find_map(|c| invisible(c).map(|w| (c, w))) {
            return Err(refuse(&format!(
                "it contains {what} (U+{:04X}), which makes a name look like another",
                u32::from(c)
            )));
        }
        let normalised: String = raw.nfc().collect();
        let raw = normalised.as_str();
        let s = raw
            .strip_suffix(".md")
            .or_else(|| raw.strip_suffix(".MD"))
            .unwrap_or(raw);
        if s.trim().is_empty() {
            return Err(refuse("it is empty"));
        }
        if s.len() > MAX_SLUG_BYTES {
            return Err(refuse(&format!("it is longer than {MAX_SLUG_BYTES} bytes")));
        }
        if let Some(c) = s.chars().find(|c| c.is_control()) {
            return Err(refuse(&format!(
                "it contains a control character (U+{:04X})",
                u32::from(c)
            )));
        }
        if s.starts_with('/') || s.starts_with('\\') || has_drive_prefix(s) {
            return Err(refuse(
                "it is an absolute path; give a name inside the scope",
            ));
        }
        if s.contains('\\') {
            return Err(refuse("it contains `\\`; use plain names"));
        }
        if let Some(c) = s
            .chars()
            .find(|c| matches!(c, '<' | '>' | ':' | '"' | '|' | '?' | '*'))
        {
            return Err(refuse(&format!(
                "`{c}` is not allowed in file names on Windows"
            )));
        }
        if let Some(c) = s.chars().find(|c| matches!(c, '#' | '^' | '[' | ']')) {
            return Err(refuse(&format!("`{c}` breaks [[wikilinks]] to the note")));
        }
        if looks_url_encoded(s) {
            return Err(refuse(
                "it contains a URL-encoded escape (`%2e`, `%2f`, ...)",
            ));
        }
        if s.starts_with('~') {
            return Err(refuse("it starts with `~`"));
        }
        let segments: Vec<&str> = s.split('/').collect();
        for seg in &segments {
            if seg.is_empty() {
                return Err(refuse(
                    "it has an empty path segment (`//` or a trailing `/`)",
                ));
            }
            if *seg == "." || *seg == ".." {
                return Err(refuse("`.` and `..` segments are not allowed"));
            }
            if seg.starts_with('.') {
                return Err(refuse("it starts with `.`; hidden files are never scanned"));
            }
            if seg.ends_with('.') || seg.ends_with(' ') || seg.starts_with(' ') {
                return Err(refuse(
                    "a name may not start with a space or end with `.` or a space",
                ));
            }
            if is_reserved_windows_name(seg) {
                return Err(refuse(&format!(
                    "`{seg}` is a reserved device name on Windows"
                )));
            }
        }
        if segments.len() > 1 && !nested {
            return Err(refuse(
                "it contains `/`; sub-folders are off ([memory] nested = true allows them)",
            ));
        }
        if segments
            .last()
            .is_some_and(|l| l.eq_ignore_ascii_case("MEMORY"))
        {
            return Err(refuse("MEMORY.md is the scope's generated index"));
        }
        Ok(Slug(s.to_owned()))
    }

    /// The name, `/`-separated, without `.md`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The scope-relative file name: the slug plus `.md`.
    pub fn file_name(&self) -> String {
        format!("{}.md", self.0)
    }

    /// The segments of the slug.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    /// The last segment.
    pub fn leaf(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// A readable title from the name: `retry-policy` → `Retry policy`.
    pub fn default_title(&self) -> String {
        let words = self.leaf().replace(['-', '_'], " ");
        let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut chars = words.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => self.0.clone(),
        }
    }
}

impl std::fmt::Display for Slug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What an invisible or look-alike character is, if `c` is one.
fn invisible(c: char) -> Option<&'static str> {
    match c {
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{180E}' => {
            Some("a zero-width character")
        }
        '\u{200E}'
        | '\u{200F}'
        | '\u{061C}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => Some("a bidirectional control"),
        '\u{00A0}' | '\u{202F}' | '\u{2007}' => Some("a no-break space"),
        _ => None,
    }
}

/// `raw` with control, invisible and look-alike characters written as `\u{...}`,
/// so a refusal shows the name as it is.
fn visible(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            if c.is_control() || invisible(c).is_some() {
                format!("\\u{{{:04X}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn has_drive_prefix(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

fn looks_url_encoded(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    ["%2e", "%2f", "%5c", "%00", "%25"]
        .iter()
        .any(|p| lower.contains(p))
}

fn is_reserved_windows_name(seg: &str) -> bool {
    let stem = seg
        .split('.')
        .next()
        .unwrap_or(seg)
        .trim_end()
        .to_ascii_uppercase();
    matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit()
            && stem.as_bytes()[3] != b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_names() {
        for (raw, nested, want) in [
            ("retry-policy", false, "retry-policy"),
            ("retry-policy.md", false, "retry-policy"),
            ("Preference - Small PRs", false, "Preference - Small PRs"),
            ("topic/sub note", true, "topic/sub note"),
            ("écrire", false, "écrire"),
            ("v1.2 notes", false, "v1.2 notes"),
            ("com10", false, "com10"),
        ] {
            assert_eq!(Slug::parse(raw, nested).unwrap().as_str(), want, "{raw}");
        }
    }

    #[test]
    fn refused_names_say_why() {
        let cases = [
            ("", "empty"),
            ("   ", "empty"),
            ("../x", "`..`"),
            ("..", "`..`"),
            ("a/../b", "`..`"),
            ("/etc/passwd", "absolute"),
            ("C:evil", "absolute"),
            ("a\\b", "`\\`"),
            ("a\u{7}b", "control"),
            ("line\nbreak", "control"),
            ("what?", "Windows"),
            ("ab:c", "Windows"),
            ("x|y", "Windows"),
            ("note#1", "wikilinks"),
            ("[x]", "wikilinks"),
            ("%2e%2e", "URL-encoded"),
            ("~root", "`~`"),
            (".hidden", "hidden"),
            ("trailing.", "end with"),
            ("CON", "reserved"),
            ("nul.txt", "reserved"),
            ("lpt1", "reserved"),
            ("MEMORY", "index"),
            ("memory.md", "index"),
            ("a/b", "sub-folders"),
        ];
        for (raw, why) in cases {
            let e = Slug::parse(raw, false).unwrap_err().to_string();
            assert!(e.contains(why), "{raw:?}: {e}");
        }
        assert!(
            Slug::parse("a//b", true)
                .unwrap_err()
                .to_string()
                .contains("empty path")
        );
        assert!(Slug::parse(&"x".repeat(200), false).is_err());
    }

    #[test]
    fn names_are_nfc_and_invisible_characters_are_refused() {
        let nfc = Slug::parse("caf\u{e9}", false).unwrap();
        let nfd = Slug::parse("cafe\u{301}.md", false).unwrap();
        assert_eq!(nfc, nfd);
        assert_eq!(nfd.as_str(), "caf\u{e9}");
        for (raw, why) in [
            ("a\u{200B}b", "zero-width"),
            ("a\u{200C}b", "zero-width"),
            ("a\u{200D}b", "zero-width"),
            ("a\u{2060}b", "zero-width"),
            ("\u{FEFF}ab", "zero-width"),
            ("ab\u{202E}dm.exe", "bidirectional"),
            ("a\u{2066}b", "bidirectional"),
            ("a\u{200F}b", "bidirectional"),
            ("a\u{00A0}b", "no-break space"),
            ("a\u{202F}b", "no-break space"),
            ("a\u{2007}b", "no-break space"),
        ] {
            let e = Slug::parse(raw, false).unwrap_err().to_string();
            assert!(e.contains(why), "{raw:?}: {e}");
            // The refusal shows the character as an escape, never raw.
            assert!(e.contains("\\u{"), "{raw:?}: {e}");
            assert!(!e.chars().any(|c| invisible(c).is_some()), "{raw:?}: {e}");
        }
    }

    #[test]
    fn default_titles() {
        let s = Slug::parse("retry-policy_v2", false).unwrap();
        assert_eq!(s.default_title(), "Retry policy v2");
        assert_eq!(s.file_name(), "retry-policy_v2.md");
    }

    proptest::proptest! {
        #[test]
        fn a_valid_slug_never_escapes(raw in "\\PC{0,40}") {
            if let Ok(s) = Slug::parse(&raw, true) {
                let p = std::path::Path::new(s.as_str());
                proptest::prop_assert!(p.is_relative());
                proptest::prop_assert!(p.components().all(|c| matches!(c, std::path::Component::Normal(_))));
                proptest::prop_assert!(!s.as_str().contains(['\\', ':', '\0']));
            }
        }
    }
}
