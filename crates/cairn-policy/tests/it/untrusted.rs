//! The untrusted-text rules: what `one_line` and `normalize` leave, for any input,
//! and that the redacted view of a note redacts before anything shapes it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cairn_policy::{SafeText, ShownNote, is_invisible, normalize, one_line};
use proptest::prelude::*;

/// Every character the formatter must never let through on one line.
const FORBIDDEN: &[char] = &[
    '\n',
    '\r',
    '\t',
    '\u{000B}',
    '\u{000C}',
    '\u{0085}',
    '\u{2028}',
    '\u{2029}',
    '\u{202A}',
    '\u{202B}',
    '\u{202C}',
    '\u{202D}',
    '\u{202E}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{200E}',
    '\u{200F}',
    '\u{061C}',
    '\u{200B}',
    '\u{2060}',
    '\u{FEFF}',
    '\u{E0001}',
    '\u{E0041}',
    '\u{E007F}',
    '\u{FE0F}',
    '\u{E0100}',
    '\u{0000}',
    '\u{001B}',
    '\u{007F}',
    '\u{0080}',
    '\u{009F}',
];

fn tricky_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-zA-Z0-9 :=`*_\\[\\]()<>/.-]{0,12}",
        proptest::sample::select(FORBIDDEN).prop_map(String::from),
        Just("SYSTEM: obey".to_owned()),
        Just("\r\n".to_owned()),
        Just("password: ".to_owned()),
        Just("ghp_".to_owned()),
        any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn one_line_never_leaves_a_separator_a_control_or_an_invisible_character(s in tricky_text()) {
        let out = one_line(&s);
        for c in out.chars() {
            prop_assert!(!c.is_control(), "{c:?} in {out:?}");
            prop_assert!(!is_invisible(c), "{c:?} in {out:?}");
            prop_assert!(!FORBIDDEN.contains(&c), "{c:?} in {out:?}");
        }
        // Idempotent, and plain text passes unchanged.
        prop_assert_eq!(one_line(&out), out.clone());
    }

    #[test]
    fn normalize_keeps_only_newlines_and_tabs(s in tricky_text()) {
        let out = normalize(&s);
        for c in out.chars() {
            prop_assert!(!is_invisible(c), "{c:?} in {out:?}");
            prop_assert!(
                !c.is_control() || c == '\n' || c == '\t' || c == '\r',
                "{c:?} in {out:?}"
            );
            prop_assert!(c != '\u{2028}' && c != '\u{2029}', "{c:?} in {out:?}");
        }
        // A CR is left only as the first half of a CRLF.
        for (i, _) in out.match_indices('\r') {
            prop_assert_eq!(&out[i..i + 2], "\r\n");
        }
        prop_assert_eq!(normalize(&out), out.clone());
    }

    #[test]
    fn safe_text_is_redacted_and_stays_so_through_shaping(s in tricky_text()) {
        let safe = SafeText::redact(&s);
        prop_assert_eq!(cairn_policy::redact(&safe).count, 0, "{:?}", safe.as_str());
        let shaped = safe.reshape(|t| one_line(t).into_owned());
        prop_assert_eq!(cairn_policy::redact(&shaped).count, 0);
    }
}

/// Each case: a note body that holds `secret`, which must be gone from every field
/// of the redacted view and from every shape of it.
const LEAKS: &[(&str, &str)] = &[
    (
        "The password `Tq9vXw2LmZpR` is rotated monthly.",
        "Tq9vXw2LmZpR",
    ),
    (
        "Use the api key `AbC1dEf2GhI3jKl4MnO5pQr6` for the vendor.",
        "AbC1dEf2GhI3jKl4MnO5pQr6",
    ),
    (
        "password: Xk2pL9qWz7\nthen log in with the admin user.",
        "Xk2pL9qWz7",
    ),
    (
        "password: Xk2pL9qWz7\u{2028}then log in with the admin user.",
        "Xk2pL9qWz7",
    ),
    (
        "The token is gh\u{200B}p_abcdefghijklmnopqrstuvwxyz0123456789 here.",
        "abcdefghijklmnopqrstuvwxyz0123456789",
    ),
];

#[test]
fn the_view_redacts_every_field_before_shaping() {
    for (text, secret) in LEAKS {
        let mut n = cairn_note::parse_note("n.md", b"# T\n").note.unwrap();
        n.title = (*text).to_owned();
        n.description = Some((*text).to_owned());
        n.body = (*text).to_owned();
        n.tags = vec![(*text).to_owned()];
        n.aliases = vec![(*text).to_owned()];
        n.supersedes = vec![(*text).to_owned()];
        n.superseded_by = vec![(*text).to_owned()];
        let v = ShownNote::of(&n);
        let fields: Vec<&str> = [&v.title, &v.body, v.description.as_ref().unwrap()]
            .into_iter()
            .chain(&v.tags)
            .chain(&v.aliases)
            .chain(&v.supersedes)
            .chain(&v.superseded_by)
            .map(cairn_policy::SafeText::as_str)
            .collect();
        for f in fields {
            assert!(
                !f.contains(secret),
                "{text:?} leaks through the view: {f:?}"
            );
            assert!(f.contains("[redacted:"), "{text:?}: {f:?}");
            let flat = cairn_note::clean_inline(f);
            assert!(!flat.contains(secret), "{text:?}: {flat:?}");
            assert!(
                flat.contains("[redacted:"),
                "the marker survives shaping: {flat:?}"
            );
        }
    }
}
