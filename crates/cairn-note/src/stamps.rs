//! The vocabulary of stamps: the phrases a banner is made of and the level
//! each gives ([`STAMPS`], with how it counts by its case), the nouns that may
//! follow one and the handling warnings that make an ambiguous one count.
//! How a line is cut into a stamp and what follows it is `banners`'.

use crate::model::Sensitivity;

const SECRET: Sensitivity = Sensitivity::Secret;
const CONFIDENTIAL: Sensitivity = Sensitivity::Confidential;

/// Stamps: the words (lowercase; `&` is read as `and`, see `banners::words_of`), the
/// level they give, and how they count by their case.
#[rustfmt::skip]
pub(crate) const STAMPS: &[(&[&str], Sensitivity, Case)] = &[
    (&["top", "secret"],                      SECRET, Case::Any),
    (&["secret"],                             SECRET, Case::Capitals),
    (&["classified"],                         SECRET, Case::Capitals),
    (&["eyes", "only"],                       SECRET, Case::Any),
    (&["for", "your", "eyes", "only"],        SECRET, Case::Any),
    (&["confidential"],                       CONFIDENTIAL, Case::Any),
    (&["strictly", "confidential"],           CONFIDENTIAL, Case::Any),
    (&["highly", "confidential"],             CONFIDENTIAL, Case::Any),
    (&["company", "confidential"],            CONFIDENTIAL, Case::Any),
    (&["personal", "and", "confidential"],    CONFIDENTIAL, Case::Any),
    (&["private", "and", "confidential"],     CONFIDENTIAL, Case::Any),
    (&["internal", "and", "confidential"],    CONFIDENTIAL, Case::Any),
    (&["proprietary", "and", "confidential"], CONFIDENTIAL, Case::Any),
    (&["confidential", "and", "proprietary"], CONFIDENTIAL, Case::Any),
    (&["privileged", "and", "confidential"],  CONFIDENTIAL, Case::Any),
    (&["attorney", "client", "privileged"],   CONFIDENTIAL, Case::Any),
    (&["confidentiality", "notice"],          CONFIDENTIAL, Case::Capitals),
    (&["restricted"],                         CONFIDENTIAL, Case::Capitals),
    (&["sensitive"],                          CONFIDENTIAL, Case::Capitals),
    (&["private"],                            CONFIDENTIAL, Case::Warned),
    (&["strictly", "private"],                CONFIDENTIAL, Case::Warned),
    (&["under", "nda"],                       CONFIDENTIAL, Case::Capitals),
    (&["do", "not", "share"],                 CONFIDENTIAL, Case::Any),
    (&["do", "not", "distribute"],            CONFIDENTIAL, Case::Any),
    (&["do", "not", "forward"],               CONFIDENTIAL, Case::Any),
    (&["not", "for", "distribution"],         CONFIDENTIAL, Case::Any),
    // German, French, Spanish and Portuguese, Italian, Dutch.
    (&["vertraulich"],                        CONFIDENTIAL, Case::Any),
    (&["streng", "vertraulich"],              CONFIDENTIAL, Case::Any),
    (&["geheim"],                             SECRET, Case::Capitals),
    (&["streng", "geheim"],                   SECRET, Case::Capitals),
    (&["confidentiel"],                       CONFIDENTIAL, Case::Any),
    (&["strictement", "confidentiel"],        CONFIDENTIAL, Case::Any),
    (&["confidencial"],                       CONFIDENTIAL, Case::Any),
    (&["estrictamente", "confidencial"],      CONFIDENTIAL, Case::Any),
    (&["estritamente", "confidencial"],       CONFIDENTIAL, Case::Any),
    (&["secreto"],                            SECRET, Case::Capitals),
    (&["sigiloso"],                           CONFIDENTIAL, Case::Capitals),
    (&["confidenziale"],                      CONFIDENTIAL, Case::Any),
    (&["strettamente", "confidenziale"],      CONFIDENTIAL, Case::Any),
    (&["segreto"],                            SECRET, Case::Capitals),
    (&["vertrouwelijk"],                      CONFIDENTIAL, Case::Any),
    (&["strikt", "vertrouwelijk"],            CONFIDENTIAL, Case::Any),
];

/// How a stamp counts by its case (see `banners`' header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    /// In capitals (`SECRET`, `RESTRICTED`); in ordinary case only before a
    /// handling warning (`Secret — do not share`): `Secret`, `Restricted`,
    /// `Sensitive` or `Classified` alone name a Kubernetes kind, a section or an
    /// outcome as often.
    Capitals,
    /// Unambiguous: in ordinary case too, as a label alone or before a
    /// separator (`Confidential: Q3 plan`, `Do not share`).
    Any,
    /// Only before a handling warning, in capitals too: `PRIVATE` heads build
    /// files' sections (`## PRIVATE`) as often as it marks a note.
    Warned,
}

/// Words that may follow a stamp (`CONFIDENTIAL INFORMATION`, `Confidential
/// draft`, `Confidential info below`): at most two.
pub(crate) const STAMP_NOUNS: &[&str] = &[
    "information",
    "info",
    "document",
    "documents",
    "doc",
    "note",
    "notes",
    "material",
    "data",
    "memo",
    "draft",
    "only",
    "below",
    "inside",
    "content",
    "contents",
];

/// Handling warnings after a stamp (lowercase, at the start of what follows it).
pub(crate) const WARNINGS: &[&str] = &[
    "do not share",
    "do not distribute",
    "do not forward",
    "do not disclose",
    "do not circulate",
    "do not copy",
    "do not publish",
    "do not repost",
    "do not reproduce",
    "don't share",
    "don't distribute",
    "don't forward",
    "never share",
    "not for distribution",
    "not for sharing",
    "not for publication",
    "not for release",
    "not for circulation",
    "not for external",
    "not for public",
    "not to be shared",
    "not to be distributed",
    "no sharing",
    "no distribution",
    "internal only",
    "internal use only",
    "for internal use only",
    "eyes only",
    "for your eyes only",
    "need to know",
    "need-to-know",
    // A fifth red-team list: warnings a banner carries as often.
    "don't copy",
    "don't disclose",
    "don't circulate",
    "don't publish",
    "don't post",
    "do not post",
    "do not send",
    "don't send",
    "do not leak",
    "don't leak",
    "authorized personnel only",
    "authorised personnel only",
    "staff only",
    "limited distribution",
    "restricted distribution",
    "for internal distribution",
];

/// Whether `line` holds a handling warning (`do not share`, `internal use
/// only`…), in any case.
pub(crate) fn warned(line: &str) -> bool {
    let lower = line.to_lowercase().replace('’', "'");
    WARNINGS.iter().any(|w| lower.contains(w))
}

/// The level and case of the stamp `words` are (with at most two nouns after it).
pub(crate) fn stamp_words(words: &[String]) -> Option<(Sensitivity, Case)> {
    let find = |phrase: &[String]| {
        STAMPS
            .iter()
            .find(|(w, _, _)| w.len() == phrase.len() && w.iter().zip(phrase).all(|(a, b)| a == b))
            .map(|&(_, level, case)| (level, case))
    };
    let nouns = words
        .iter()
        .rev()
        .take(2)
        .take_while(|w| STAMP_NOUNS.contains(&w.as_str()))
        .count();
    (0..=nouns)
        .filter(|&n| n < words.len())
        .find_map(|n| find(&words[..words.len() - n]))
}
