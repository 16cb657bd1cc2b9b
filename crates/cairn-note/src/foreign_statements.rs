//! Statements that a note is confidential or secret, written in German, French,
//! Spanish, Portuguese, Italian or Dutch (`Dieses Dokument ist vertraulich.`,
//! `Cette note est strictement confidentielle.`, `Este documento es
//! confidencial.`, `Questo documento è riservato.`, `Deze notitie is
//! vertrouwelijk.`), as `banners::statement` reads them in English: at a
//! sentence's start, a demonstrative, a word for the note or document (or
//! none: `Dies ist vertraulich`), a verb for "is", an intensifier or two, and a
//! level that ends the sentence. A level said of anything else (`Dieser
//! Schlüssel ist geheim`: a key, not the note) is no statement.

use crate::model::Sensitivity;

/// Demonstratives that open a statement (`this`, `these`).
const DEMONSTRATIVES: &[&str] = &[
    // German
    "dies", "diese", "dieses", "dieser", // French
    "ce", "cette", "ces", "ceci", // Spanish, Portuguese
    "este", "esta", "esto", "estos", "estas", "isto", // Italian
    "questo", "questa", "questi", "queste", // Dutch
    "dit", "deze",
];

/// Words for the note, the document or its content.
const NOUNS: &[&str] = &[
    // German
    "dokument",
    "notiz",
    "notizen",
    "seite",
    "datei",
    "inhalt",
    "eintrag",
    "abschnitt",
    "information",
    "informationen",
    // French
    "document",
    "note",
    "notes",
    "page",
    "fichier",
    "contenu",
    "section",
    // Spanish, Portuguese, Italian
    "documento",
    "documentos",
    "nota",
    "notas",
    "página",
    "pagina",
    "archivo",
    "arquivo",
    "contenido",
    "conteúdo",
    "contenuto",
    "sección",
    "seção",
    "sezione",
    "informazioni",
    "información",
    "informação",
    // Dutch
    "notitie",
    "notities",
    "bestand",
    "inhoud",
];

/// The verb: "is", "are".
const VERBS: &[&str] = &[
    "ist", "sind", "est", "sont", "es", "son", "é", "são", "è", "sono", "is", "zijn",
];

/// Words between the verb and the level (`streng`, `strictement`, `als`).
const INTENSIFIERS: &[&str] = &[
    "streng",
    "absolut",
    "strictement",
    "hautement",
    "estrictamente",
    "altamente",
    "estritamente",
    "strettamente",
    "strikt",
    "zeer",
    "als",
    "comme",
    "como",
    "come",
];

/// Level words, with their gender and number forms.
pub(crate) const LEVELS: &[(&str, Sensitivity)] = &[
    ("vertraulich", Sensitivity::Confidential),
    ("geheim", Sensitivity::Secret),
    ("confidentiel", Sensitivity::Confidential),
    ("confidentielle", Sensitivity::Confidential),
    ("confidentiels", Sensitivity::Confidential),
    ("confidentielles", Sensitivity::Confidential),
    ("secret", Sensitivity::Secret),
    ("secrète", Sensitivity::Secret),
    ("secrets", Sensitivity::Secret),
    ("confidencial", Sensitivity::Confidential),
    ("confidenciales", Sensitivity::Confidential),
    ("confidenciais", Sensitivity::Confidential),
    ("secreto", Sensitivity::Secret),
    ("secreta", Sensitivity::Secret),
    ("secretos", Sensitivity::Secret),
    ("secretas", Sensitivity::Secret),
    ("sigiloso", Sensitivity::Confidential),
    ("sigilosa", Sensitivity::Confidential),
    ("confidenziale", Sensitivity::Confidential),
    ("confidenziali", Sensitivity::Confidential),
    ("riservato", Sensitivity::Confidential),
    ("riservata", Sensitivity::Confidential),
    ("riservati", Sensitivity::Confidential),
    ("riservate", Sensitivity::Confidential),
    ("segreto", Sensitivity::Secret),
    ("segreta", Sensitivity::Secret),
    ("vertrouwelijk", Sensitivity::Confidential),
];

/// Words that may follow the level in the same sentence (`… vertraulich und
/// darf nicht …`, `… confidentiel et ne doit pas …`).
const ENDS: &[&str] = &["und", "et", "y", "e", "en", "bitte", "merci"];

/// The level a statement among the first words of `s` gives (see the module
/// header).
pub(crate) fn statement(s: &str) -> Option<Sensitivity> {
    crate::banners::at_sentence_starts(s, |words, i| {
        if !DEMONSTRATIVES.contains(&bare(words[i])) {
            return None;
        }
        let mut k = i + 1;
        // `Dies ist …`, `Ceci est …` name no noun; the others need one.
        if !matches!(bare(words[i]), "dies" | "ceci" | "esto" | "isto") {
            if !words.get(k).is_some_and(|w| NOUNS.contains(&bare(w))) {
                return None;
            }
            k += 1;
        }
        if !words.get(k).is_some_and(|w| VERBS.contains(&bare(w))) {
            return None;
        }
        k += 1;
        while words
            .get(k)
            .is_some_and(|w| INTENSIFIERS.contains(&bare(w)))
        {
            k += 1;
        }
        let word = words.get(k)?;
        let level = LEVELS
            .iter()
            .find(|(w, _)| *w == bare(word))
            .map(|&(_, l)| l)?;
        let punctuated = bare(word).len() < word.len();
        let ends = punctuated || words.get(k + 1).is_none_or(|n| ENDS.contains(&bare(n)));
        ends.then_some(level)
    })
}

/// A word without the punctuation around it.
fn bare(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::statement;
    use crate::model::Sensitivity::{Confidential, Secret};

    #[test]
    fn statements_in_six_languages() {
        for (line, level) in [
            ("Dieses Dokument ist vertraulich.", Confidential),
            (
                "Diese Notiz ist streng vertraulich und darf nicht geteilt werden.",
                Confidential,
            ),
            ("Dies ist geheim.", Secret),
            ("Cette note est strictement confidentielle.", Confidential),
            ("Ce document est confidentiel", Confidential),
            ("Ce document est secret.", Secret),
            ("Este documento es confidencial.", Confidential),
            ("Esta nota es secreta.", Secret),
            ("Este documento é confidencial.", Confidential),
            ("Questo documento è riservato.", Confidential),
            ("Questa nota è strettamente confidenziale.", Confidential),
            ("Dit document is vertrouwelijk.", Confidential),
            ("Deze notitie is strikt vertrouwelijk.", Confidential),
            ("Hinweis: Dieses Dokument ist vertraulich.", Confidential),
        ] {
            assert_eq!(statement(line), Some(level), "{line:?}");
        }
    }

    #[test]
    fn a_level_said_of_something_else_or_mid_sentence_is_no_statement() {
        for line in [
            "Dieser Schlüssel ist geheim.",
            "Ce mot de passe est secret.",
            "Esta clave es secreta.",
            "Wir wissen, dass dieses Dokument ist vertraulich.",
            "Dieses Dokument ist vertraulicher als das andere.",
            "Ce document est confidentiel pour les clients de la banque.",
            "Dit bestand is geheim genoeg.",
            "This note is fine.",
            "",
        ] {
            assert_eq!(statement(line), None, "{line:?}");
        }
    }
}
