//! Generated notes for the "doubt means secret" property tests: front matter with
//! sensitivity-like keys in varied case, quoting and nesting, values known,
//! unknown, empty, lists and mappings, duplicates and broken YAML lines, around
//! canaries planted in title, description, tags, aliases and body; and, worked out
//! independently of the parser, the sensitivity each note must get.
//!
//! Shared by `cairn-engine`'s library-level test and `cairn-cli`'s binary run
//! (included there by path).

use cairn_note::Sensitivity;
use proptest::prelude::*;

/// How a key or a word is quoted.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Quote {
    Bare,
    Double,
    Single,
}

/// A sensitivity-like key's value.
#[derive(Debug, Clone)]
pub(crate) enum Val {
    Word(&'static str, Quote),
    EmptyString,
    Null,
    List(&'static str),
    Map,
    Number,
    Bool,
}

/// Where the key sits.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Nest {
    /// `key: v`
    Top,
    /// `metaN:` then `  key: v`
    Block,
    /// `metaN: {key: v}`
    Flow,
    /// `itemsN:` then `  - key: v`
    List,
}

/// A line that breaks the YAML block.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Noise {
    BrokenFlow,
    BadColon,
    DuplicateKey,
}

/// One sensitivity-like key.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: &'static str,
    pub key_quote: Quote,
    pub nest: Nest,
    pub val: Val,
}

/// One generated front matter.
#[derive(Debug, Clone)]
pub(crate) struct Front {
    pub entries: Vec<Entry>,
    pub noise: Option<(Noise, usize)>,
}

const KEYS: &[&str] = &[
    "sensitivity",
    "Sensitivity",
    "SENSITIVITY",
    "classification",
    "Classification",
    "confidentiality",
    "data_classification",
    "Sensitivity-Level",
];

const WORDS: &[&str] = &[
    "public",
    "internal",
    "confidential",
    "secret",
    "PUBLIC",
    "Internal",
    "Secret",
    "CONFIDENTIAL",
    "private",
    "Restricted",
    "top-secret",
    "none",
    "high",
    "TopSecret",
    "pub lic",
    "internal-only",
];

fn quote() -> impl Strategy<Value = Quote> {
    prop_oneof![Just(Quote::Bare), Just(Quote::Double), Just(Quote::Single)]
}

fn val() -> impl Strategy<Value = Val> {
    prop_oneof![
        6 => (prop::sample::select(WORDS), quote()).prop_map(|(w, q)| Val::Word(w, q)),
        1 => Just(Val::EmptyString),
        1 => Just(Val::Null),
        1 => prop::sample::select(WORDS).prop_map(Val::List),
        1 => Just(Val::Map),
        1 => Just(Val::Number),
        1 => Just(Val::Bool),
    ]
}

fn entry() -> impl Strategy<Value = Entry> {
    (
        prop::sample::select(KEYS),
        quote(),
        prop_oneof![
            3 => Just(Nest::Top),
            1 => Just(Nest::Block),
            1 => Just(Nest::Flow),
            1 => Just(Nest::List),
        ],
        val(),
    )
        .prop_map(|(key, key_quote, nest, val)| Entry {
            key,
            key_quote,
            nest,
            val,
        })
}

/// Zero to three sensitivity-like keys; a broken line one time in three.
pub(crate) fn front() -> impl Strategy<Value = Front> {
    (
        prop::collection::vec(entry(), 0..4),
        prop_oneof![
            2 => Just(None),
            1 => (
                prop_oneof![
                    Just(Noise::BrokenFlow),
                    Just(Noise::BadColon),
                    Just(Noise::DuplicateKey),
                ],
                0..8usize,
            )
                .prop_map(Some),
        ],
    )
        .prop_map(|(entries, noise)| Front { entries, noise })
}

fn quoted(s: &str, q: Quote) -> String {
    match q {
        Quote::Bare => s.to_owned(),
        Quote::Double => format!("\"{s}\""),
        Quote::Single => format!("'{s}'"),
    }
}

fn value_text(v: &Val) -> String {
    match v {
        Val::Word(w, q) => quoted(w, *q),
        Val::EmptyString => "\"\"".to_owned(),
        Val::Null => "~".to_owned(),
        Val::List(w) => format!("[{w}]"),
        Val::Map => "{level: public}".to_owned(),
        Val::Number => "3".to_owned(),
        Val::Bool => "true".to_owned(),
    }
}

impl Front {
    /// The note's text, with `canary` in its title, description, tags, aliases and
    /// body (`canary` is one word of letters and digits).
    pub(crate) fn note(&self, canary: &str) -> String {
        let lower = canary.to_lowercase();
        // Top-level items, each one or more lines.
        let mut items: Vec<String> = vec![
            format!("title: {canary} title"),
            format!("description: {canary} described"),
            format!("tags: [{lower}tag, other]"),
            format!("aliases: [{canary} alias]"),
        ];
        for (i, e) in self.entries.iter().enumerate() {
            let k = quoted(e.key, e.key_quote);
            let v = value_text(&e.val);
            items.push(match e.nest {
                Nest::Top => format!("{k}: {v}"),
                Nest::Block => format!("meta{i}:\n  {k}: {v}"),
                Nest::Flow => format!("meta{i}: {{{k}: {v}}}"),
                Nest::List => format!("items{i}:\n  - {k}: {v}"),
            });
        }
        if let Some((noise, at)) = self.noise {
            let line = match noise {
                Noise::BrokenFlow => "broken: [oops".to_owned(),
                Noise::BadColon => "odd: : bar".to_owned(),
                Noise::DuplicateKey => "dup: 1\ndup: 2".to_owned(),
            };
            let at = at % (items.len() + 1);
            items.insert(at, line);
        }
        format!(
            "---\n{}\n---\n# {canary} heading\n\nThe {canary} body, about zebras and ledgers.\n",
            items.join("\n")
        )
    }

    /// Whether the block cannot parse: a broken line, or two top-level keys that
    /// are the same once unquoted.
    pub(crate) fn broken(&self) -> bool {
        let mut top: Vec<&str> = self
            .entries
            .iter()
            .filter(|e| matches!(e.nest, Nest::Top))
            .map(|e| e.key)
            .collect();
        let n = top.len();
        top.sort_unstable();
        top.dedup();
        self.noise.is_some() || top.len() < n
    }

    /// The sensitivity the note must get, by the documented rule.
    pub(crate) fn expected(&self) -> Sensitivity {
        if self.entries.is_empty() {
            return Sensitivity::Internal;
        }
        if self.broken() {
            return Sensitivity::Secret;
        }
        let mut level = None;
        for e in &self.entries {
            let this = match &e.val {
                Val::Word(w, _) => match w.to_ascii_lowercase().as_str() {
                    "public" => Sensitivity::Public,
                    "internal" => Sensitivity::Internal,
                    "confidential" | "private" | "restricted" => Sensitivity::Confidential,
                    "secret" => Sensitivity::Secret,
                    _ => return Sensitivity::Secret,
                },
                _ => return Sensitivity::Secret,
            };
            match level {
                Some(l) if l != this => return Sensitivity::Secret,
                _ => level = Some(this),
            }
        }
        level.unwrap_or(Sensitivity::Internal)
    }
}
