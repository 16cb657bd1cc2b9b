//! MCP resources: every note an agent may read in full, as `cairn://note/<id>`
//! (markdown), so a client can offer them for mention (Claude Code's
//! `@cairn:cairn://note/…`) and read them.
//!
//! Only public and internal notes are resources: never a secret one, a confidential
//! one or one whose sensitivity is in doubt (read as secret). `resources/list`
//! walks the whole vault by path through the engine's listing (the policy's
//! redacted ids and titles), a page at a time (the cursor is the next page's
//! offset). `resources/read` resolves the id exactly, through the same lookup and
//! policy as `memory_get`; an id that names no note, a withheld note or a secret
//! note all get the same "no such resource" error, which echoes the request only
//! redacted, so a read cannot tell a secret note from a missing one.

use cairn_engine::{Engine, ListRequest, ListScope, SecretLookup};
use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};

/// Every note's URI starts with this; the rest is its id, percent-encoded.
pub const NOTE_URI_PREFIX: &str = "cairn://note/";
/// The template of a note's URI.
pub const NOTE_URI_TEMPLATE: &str = "cairn://note/{id}";
/// Notes per `resources/list` page.
pub const PAGE_SIZE: usize = 100;
/// What a note is.
const MARKDOWN: &str = "text/markdown";

/// A note's URI: `cairn://note/` and its id, every byte but unreserved characters
/// and `/` percent-encoded (spaces, `#` of an entry's id, non-ASCII).
#[must_use]
pub fn note_uri(id: &str) -> String {
    let mut out = String::with_capacity(NOTE_URI_PREFIX.len() + id.len());
    out.push_str(NOTE_URI_PREFIX);
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The id a note URI names (percent-decoded; `%2F` and `/` alike), or `None` for a URI
/// that is not a note's or does not decode to UTF-8.
#[must_use]
pub fn note_id(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix(NOTE_URI_PREFIX)?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    let id = String::from_utf8(out).ok()?;
    (!id.is_empty()).then_some(id)
}

/// One page of the vault's readable notes, by path, from the offset `cursor` holds.
pub(crate) fn list(
    engine: &Engine,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<ListResourcesResult, ErrorData> {
    let offset = match cursor {
        None => 0,
        Some(c) => c.parse::<usize>().map_err(|_| {
            ErrorData::invalid_params(
                "invalid cursor: pass the nextCursor of the previous resources/list page",
                None,
            )
        })?,
    };
    let res = engine
        .list(&ListRequest {
            cwd: None,
            project: None,
            scope: ListScope::Vault,
            memory_type: None,
            limit: page_size.max(1),
            offset,
        })
        .map_err(|e| crate::server::engine_failure(&e))?;
    let next = offset + res.notes.len();
    let resources = res
        .notes
        .into_iter()
        .map(|n| {
            let description = match (&n.memory_type, &n.date) {
                (Some(t), Some(d)) => format!("{t} note, {d}"),
                (Some(t), None) => format!("{t} note"),
                (None, Some(d)) => format!("note, {d}"),
                (None, None) => "note".to_owned(),
            };
            Resource::new(note_uri(&n.id), crate::server::line(&n.id))
                .with_title(crate::server::line(&n.title))
                .with_description(description)
                .with_mime_type(MARKDOWN)
        })
        .collect();
    let mut out = ListResourcesResult::with_all_items(resources);
    out.next_cursor = (next < res.total).then(|| next.to_string());
    Ok(out)
}

/// The one template: a note by id.
pub(crate) fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        ResourceTemplate::new(NOTE_URI_TEMPLATE, "note")
            .with_title("A note of the vault, by id")
            .with_description(
                "A public or internal note by its id (its vault-relative path without .md, \
                 as memory_search and memory_list give it); credentials redacted.",
            )
            .with_mime_type(MARKDOWN),
    ])
}

/// The note `uri` names, in full, credentials redacted; or the one "no such
/// resource" error, whatever the reason.
pub(crate) fn read(engine: &Engine, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let missing = || {
        ErrorData::resource_not_found(
            format!(
                "no readable note at `{}`: no public or internal note has this id (secret and confidential notes are never resources); list them with resources/list or find one with memory_search",
                crate::server::line(&cairn_engine::policy::SafeText::redact(uri))
            ),
            None,
        )
    };
    let id = note_id(uri).ok_or_else(missing)?;
    // The lookup an agent's memory_get uses: a secret note is missing by every name.
    let got = engine
        .get_with(&id, SecretLookup::AsMissing)
        .map_err(|_| missing())?;
    // The id exactly (not a title or a prefix), and the content in full.
    if got.withheld || got.id != id {
        return Err(missing());
    }
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(got.content, note_uri(&got.id)).with_mime_type(MARKDOWN),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_ids_with_spaces_entries_and_unicode() {
        for id in [
            "10-Projects/ledger/Decisions/ADR-008 Retry payouts with capped exponential backoff",
            "memory/decisions#use-cents",
            "Notizen/Größe & 100%",
            "a+b?c=d",
        ] {
            let uri = note_uri(id);
            assert!(uri.starts_with(NOTE_URI_PREFIX), "{uri}");
            let rest = &uri[NOTE_URI_PREFIX.len()..];
            assert!(
                rest.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
                "{uri}"
            );
            assert_eq!(note_id(&uri).as_deref(), Some(id));
        }
        // A template expanded by a client encodes `/` too.
        assert_eq!(
            note_id("cairn://note/10-Projects%2Fledger%2FLedger%20overview").as_deref(),
            Some("10-Projects/ledger/Ledger overview")
        );
        for bad in [
            "cairn://note/",
            "cairn://other/x",
            "file:///etc/passwd",
            "cairn://note/%zz",
            "cairn://note/%4",
            "cairn://note/%FF",
        ] {
            assert_eq!(note_id(bad), None, "{bad}");
        }
    }
}
