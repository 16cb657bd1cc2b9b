//! Front-matter keys that are not sensitivity keys but state a level plainly:
//! `security: secret`, `visibility: confidential`, `status: confidential`, `secret: true`,
//! `tags: [secret]` (and `labels`, `categories`, `cssclasses`), a title that is
//! a banner (`title: "CONFIDENTIAL — Q3 plan"`). They can only **raise** a note's level (to what they say),
//! never lower it and never make doubt: `visibility: public` or `access: team`
//! change nothing, while a person who wrote `privacy: secret` meant the note to
//! stay out of prompts.

use serde_yaml_ng::Value as Yaml;

use crate::marks::fold;
use crate::model::Sensitivity;
use crate::sensitivity::{sensitivity_word, yaml_key_text};

/// Keys (folded as the sensitivity marks are: `marks::fold`) whose value, when
/// it is a level word or a synonym, raises the note to that level. In a body's
/// line (`Status: confidential`, `**Security level:** secret`) only a plain
/// `confidential` or `secret` counts (see `marks`).
pub(crate) const LEVEL_KEYS: &[&str] = &[
    "security",
    "securitylevel",
    "visibility",
    "access",
    "accesslevel",
    "privacy",
    "privacylevel",
    "status",
];

/// Keys that, set to true (`true`, `yes`), raise the note to a level.
/// (`private: true` is not one: publishing tools use it to keep a page off a
/// site, which says nothing of prompts.)
const FLAG_KEYS: &[(&str, Sensitivity)] = &[
    ("secret", Sensitivity::Secret),
    ("confidential", Sensitivity::Confidential),
];

/// Keys that hold tags: those of Obsidian (`tags`, `cssclasses`), of blogs
/// (`categories`) and of trackers (`labels`). Not `keywords`: a page's
/// keywords name its topic (`keywords: [secret, vault]`), not its handling.
const TAG_KEYS: &[&str] = &[
    "tags",
    "tag",
    "labels",
    "label",
    "categories",
    "category",
    "cssclasses",
    "cssclass",
];

/// Tags (any case, without `#`) that raise the note to a level.
pub(crate) const LEVEL_TAGS: &[(&str, Sensitivity)] = &[
    ("secret", Sensitivity::Secret),
    ("topsecret", Sensitivity::Secret),
    ("strictlyconfidential", Sensitivity::Secret),
    ("confidential", Sensitivity::Confidential),
    ("geheim", Sensitivity::Secret),
    ("strenggeheim", Sensitivity::Secret),
    ("vertraulich", Sensitivity::Confidential),
    ("secreto", Sensitivity::Secret),
    ("confidencial", Sensitivity::Confidential),
    ("confidentiel", Sensitivity::Confidential),
    ("segreto", Sensitivity::Secret),
    ("riservato", Sensitivity::Confidential),
    ("極秘", Sensitivity::Secret),
    ("秘密", Sensitivity::Secret),
    ("機密", Sensitivity::Secret),
    ("绝密", Sensitivity::Secret),
    ("机密", Sensitivity::Secret),
    ("社外秘", Sensitivity::Confidential),
];

/// The highest level a block's top-level hint keys state, if any.
pub(crate) fn hinted_level(block: &Yaml) -> Option<Sensitivity> {
    let Yaml::Mapping(m) = untagged(block) else {
        return None;
    };
    let mut out: Option<Sensitivity> = None;
    let mut raise = |s: Sensitivity| out = Some(out.map_or(s, |o| o.max(s)));
    for (k, v) in m {
        let Some(key) = yaml_key_text(k).and_then(fold) else {
            continue;
        };
        let v = untagged(v);
        if LEVEL_KEYS.contains(&key.as_str()) {
            // The value, or the highest level word in it (`top-secret`).
            let level = yaml_key_text(v).and_then(|t| {
                level_word(t).or_else(|| {
                    t.split(|c: char| !c.is_alphanumeric())
                        .filter_map(level_word)
                        .max()
                })
            });
            if let Some(level) = level {
                raise(level);
            }
        } else if let Some(&(_, level)) = FLAG_KEYS.iter().find(|(k, _)| *k == key) {
            let set = match v {
                Yaml::Bool(b) => *b,
                Yaml::String(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "yes"),
                _ => false,
            };
            if set {
                raise(level);
            }
        } else if key == "title" {
            // A title that is a banner (`CONFIDENTIAL — Q3 plan`) marks its
            // note as the same first line of the body would.
            let level = yaml_key_text(v)
                .and_then(crate::marks::read_mark)
                .filter(|m| m.key == crate::marks::BANNER_KEY)
                .and_then(|m| m.level().ok());
            if let Some(level) = level {
                raise(level);
            }
        } else if TAG_KEYS.contains(&key.as_str()) {
            let tags: Vec<&str> = match v {
                Yaml::Sequence(seq) => seq.iter().filter_map(yaml_key_text).collect(),
                Yaml::String(s) => s.split([',', ' ']).collect(),
                _ => Vec::new(),
            };
            if let Some(level) = tags.iter().filter_map(|t| tag_level(t)).max() {
                raise(level);
            }
        } else if key == "tlp" {
            // The Traffic Light Protocol: RED is for the named recipients only,
            // AMBER for their organisation.
            if let Some(level) = yaml_key_text(v).and_then(|t| tlp_level(&format!("tlp{t}"))) {
                raise(level);
            }
        }
    }
    out
}

/// The level one tag states: `secret`, `confidential`, `top-secret`, a level
/// as a part of a nested tag (`security/secret`, `classification/confidential`,
/// `secret/infra`), the same words in a few other languages (`geheim`,
/// `vertraulich`, `極秘`), the Traffic Light Protocol's `tlp:red` and
/// `tlp:amber`. Not `secrets` or `secret-management`: a note about them.
pub(crate) fn tag_level(tag: &str) -> Option<Sensitivity> {
    tag.trim()
        .trim_start_matches('#')
        .split('/')
        .filter_map(|part| {
            let f = fold(part)?;
            tlp_level(&f).or_else(|| LEVEL_TAGS.iter().find(|(n, _)| f == *n).map(|&(_, l)| l))
        })
        .max()
}

/// The level of a folded Traffic Light Protocol label (`tlp:red`, `tlpamber`).
fn tlp_level(folded: &str) -> Option<Sensitivity> {
    let f = folded.to_lowercase().replace([':', ' ', '-', '_'], "");
    match f.as_str() {
        "tlpred" => Some(Sensitivity::Secret),
        "tlpamber" | "tlpamber+strict" => Some(Sensitivity::Confidential),
        _ => None,
    }
}

/// The level the body's own tags state (`#secret`, `#confidential`, written in
/// the text as Obsidian users tag): as a `secret` tag in the front matter, it
/// can only raise a note's level.
pub(crate) fn tags_level<'t>(tags: impl IntoIterator<Item = &'t String>) -> Option<Sensitivity> {
    tags.into_iter().filter_map(|t| tag_level(t)).max()
}

fn untagged(v: &Yaml) -> &Yaml {
    match v {
        Yaml::Tagged(t) => untagged(&t.value),
        other => other,
    }
}

/// A level word or synonym ([`sensitivity_word`]), written with look-alike or
/// invisible characters or not.
fn level_word(word: &str) -> Option<Sensitivity> {
    sensitivity_word(word).or_else(|| fold(word).as_deref().and_then(sensitivity_word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(yaml: &str, expect: Option<Sensitivity>) {
        let v: Yaml = serde_yaml_ng::from_str(yaml).unwrap();
        assert_eq!(hinted_level(&v), expect, "{yaml}");
    }

    /// Tags a red team used to mark notes that were read as internal: a
    /// level as a part of a nested tag, `top-secret`, other languages, TLP.
    #[test]
    fn tags_and_tlp_that_state_a_level_raise_it() {
        use Sensitivity::*;
        check("tags: [top-secret]", Some(Secret));
        check("tags: [security/secret]", Some(Secret));
        check("tags: [classification/confidential]", Some(Confidential));
        check("tags: [secret/infra]", Some(Secret));
        check("tags: [Geheim]", Some(Secret));
        check("tags: [tlp:red]", Some(Secret));
        check("tlp: red", Some(Secret));
        check("TLP: amber+strict", Some(Confidential));
        check("tlp: green", None);
        // A note about secrets is not one; nor one about personal data or
        // credentials (a red team tagged canaries `[pii]` and `[credentials]`,
        // but the tags name a note's topic: on 51,561 files the only notes so
        // tagged were a constraint about PII features and a runbook to rotate
        // credentials, neither holding any).
        check("tags: [secrets, secret-management, security/vault]", None);
        check("tags: [pii, credentials, credential-rotation]", None);
        assert_eq!(
            tags_level(&["#sensitivity/secret".to_owned()]),
            Some(Secret)
        );
    }

    #[test]
    fn plain_statements_of_a_level_raise_it() {
        use Sensitivity::*;
        check("security: secret", Some(Secret));
        check("Visibility: Confidential", Some(Confidential));
        check("access: restricted", Some(Confidential));
        check("privacy: secret\nsecurity: confidential", Some(Secret));
        check("secret: true", Some(Secret));
        check("confidential: yes", Some(Confidential));
        check("private: true", None);
        check("tags: [ops, Secret]", Some(Secret));
        check("tags: '#confidential, ops'", Some(Confidential));
        check("visibility: public", Some(Public));
        // Red team: a status that states a level.
        check("status: confidential", Some(Confidential));
        check("status: draft", None);
        // Nothing they do not say plainly.
        check("access: team", None);
        check("secret: false", None);
        check("tags: [secrets, vault]", None);
        check("title: Security", None);
        check("security: high", None);
        check("security: top-secret", Some(Secret));
        check(
            "classification_note: x\nprivacy: Secret//NOFORN",
            Some(Secret),
        );
        // A sixth red-team list: tags under other keys, a title that is a banner.
        check("labels: [confidential]", Some(Confidential));
        check("categories: [Secret]", Some(Secret));
        check("cssclasses: [confidential, wide]", Some(Confidential));
        check(
            "title: \"CONFIDENTIAL — Q3 rollout plan\"",
            Some(Confidential),
        );
        check("title: \"Top Secret: launch plan\"", Some(Secret));
        check("keywords: [secret, vault]", None);
        check("title: Secret management with Vault", None);
        check("title: Confidential computing overview", None);
        check("categories: [secrets]", None);
    }

    /// Keys, values and tags are compared as the sensitivity marks are
    /// (`marks::fold`): an invisible character, a full-width or Cyrillic
    /// look-alike letter or a `.` does not hide a stated level. Before, each of
    /// these left the note internal.
    #[test]
    fn look_alikes_and_invisible_characters_state_a_level_too() {
        use Sensitivity::*;
        check("\u{0455}ecurity: secret", Some(Secret));
        check("secu\u{200b}rity: secret", Some(Secret));
        check("security.level: confidential", Some(Confidential));
        check("ｓｅｃｕｒｉｔｙ: secret", Some(Secret));
        check("security: \u{0455}ecret", Some(Secret));
        check("privacy: top-\u{0455}ecret", Some(Secret));
        check("\u{0455}ecret: true", Some(Secret));
        check("tags: [ops, \u{0405}ecret]", Some(Secret));
        // Still nothing they do not say plainly.
        check("\u{0455}ecurity: high", None);
        check("tags: [\u{0455}ecrets]", None);
    }
}
