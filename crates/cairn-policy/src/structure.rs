//! Credentials that span lines or depend on the shape around them: PEM blocks,
//! YAML block scalars (`password: |`), the values of a Kubernetes `Secret`
//! (YAML and JSON), and markdown tables with a credential key or column. Each
//! function gets the position of its rule's match and returns byte ranges.

use crate::CredentialKind;
use crate::benign::{self, Quote};
use crate::code_shapes;

/// The lines of `text` from byte `from` on: `(start, end)` without the line
/// break (`\n` or `\r\n`).
fn lines_from(text: &str, from: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut pos = from;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let start = pos;
        let (end, next) = match text[start..].find('\n') {
            Some(i) => (start + i, start + i + 1),
            None => (text.len(), text.len()),
        };
        pos = next;
        let end = if text[start..end].ends_with('\r') {
            end - 1
        } else {
            end
        };
        Some((start, end))
    })
}

/// The byte after the end of the line that contains `pos` (or the text's end).
fn next_line_start(text: &str, pos: usize) -> usize {
    text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1)
}

/// Leading spaces and tabs.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// A line that separates documents: YAML `---`/`...`, or a markdown fence.
fn is_boundary(line: &str) -> bool {
    let t = line.trim();
    t == "---"
        || t == "..."
        || t.starts_with("--- ")
        || t.starts_with("```")
        || t.starts_with("~~~")
}

/// Where a PEM block whose BEGIN line ends at `from` ends: after its END line,
/// or at the end of the text when there is none.
pub(crate) fn pem_end(text: &str, label: &str, from: usize) -> usize {
    let end_line = format!("-----END {label}-----");
    match text[from..].find(&end_line) {
        Some(at) => from + at + end_line.len(),
        None => text.len(),
    }
}

/// The content of a block scalar whose key line ends at `key_end` and is
/// indented by `indent`: every following line indented deeper (blank lines
/// inside included), from its first character to the end of the last one.
pub(crate) fn block_scalar(text: &str, indent: usize, key_end: usize) -> Option<(usize, usize)> {
    let mut span: Option<(usize, usize)> = None;
    for (start, end) in lines_from(text, next_line_start(text, key_end)) {
        let line = &text[start..end];
        if line.trim().is_empty() {
            continue;
        }
        if indent_of(line) <= indent {
            break;
        }
        let first = start + indent_of(line);
        span = Some(span.map_or((first, end), |(s, _)| (s, end)));
    }
    let (start, end) = span?;
    let body = &text[start..end];
    let benign = body.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || benign::is_markers(l)
    }) || (!body.contains('\n')
        && benign::is_benign_value(body.trim(), Quote::Double, ""));
    (!benign).then_some((start, end))
}

/// The bounds of the document around `pos`: between the nearest boundary lines
/// (`---`, a markdown fence) before and after it.
fn document_around(text: &str, pos: usize) -> (usize, usize) {
    let mut start = 0;
    for (s, e) in lines_from(text, 0) {
        if s > pos {
            break;
        }
        if is_boundary(&text[s..e]) && e <= pos {
            start = e;
        }
    }
    let end = lines_from(text, next_line_start(text, pos))
        .find(|&(s, e)| is_boundary(&text[s..e]))
        .map_or(text.len(), |(s, _)| s);
    (start, end)
}

/// Whether the YAML document around `pos` says `kind: Secret`.
fn in_yaml_secret(text: &str, pos: usize) -> bool {
    let (start, end) = document_around(text, pos);
    text[start..end].lines().any(|line| {
        line.trim().strip_prefix("kind:").is_some_and(|v| {
            // A comment after the value (`kind: Secret # Opaque`) is not the value.
            let v = v
                .split_once(" #")
                .or_else(|| v.split_once("\t#"))
                .map_or(v, |(value, _)| value);
            v.trim().trim_matches(['"', '\'']) == "Secret"
        })
    })
}

/// A value found by [`kubernetes_yaml`] unless it is a placeholder or empty.
fn push_value(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
    let mut value = (start, end);
    let raw = &text[start..end];
    for q in ['"', '\''] {
        if raw.len() >= 2 && raw.starts_with(q) && raw.ends_with(q) {
            value = (start + 1, end - 1);
        }
    }
    let v = &text[value.0..value.1];
    if !v.trim().is_empty() && !benign::is_benign_value(v, Quote::Double, "") {
        out.push(value);
    }
}

/// Every value under the `data:`/`stringData:` line that ends at `line_end` and
/// is indented by `indent`, when its document is a `kind: Secret`; block
/// values (`key: |`) included.
pub(crate) fn kubernetes_yaml(
    text: &str,
    indent: usize,
    line_end: usize,
    out: &mut Vec<(usize, usize)>,
) {
    if !in_yaml_secret(text, line_end) {
        return;
    }
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut child = None;
    // Whether the last entry opened a block value (`key: |`), and whether it has
    // a line yet.
    let mut block: Option<bool> = None;
    for (start, end) in lines_from(text, next_line_start(text, line_end)) {
        let line = &text[start..end];
        if line.trim().is_empty() {
            continue;
        }
        let ind = indent_of(line);
        if ind <= indent || is_boundary(line) {
            break;
        }
        let level = *child.get_or_insert(ind);
        if ind > level {
            // A line of a block value (`key: |`) or of a nested map.
            match block {
                Some(true) => {
                    if let Some(last) = found.last_mut() {
                        last.1 = end;
                    }
                }
                Some(false) => {
                    found.push((start + ind, end));
                    block = Some(true);
                }
                None => {}
            }
            continue;
        }
        if ind < level {
            break;
        }
        block = None;
        let entry = &line[ind..];
        let Some(colon) = entry.find(':') else {
            continue;
        };
        let after = &entry[colon + 1..];
        let value = after.trim_start();
        let value_start = start + ind + colon + 1 + (after.len() - value.len());
        if value.starts_with(['|', '>']) {
            block = Some(false);
            continue;
        }
        let value = value.split(" #").next().unwrap_or("").trim_end();
        found.push((value_start, value_start + value.len()));
    }
    for (start, end) in found {
        push_value(text, start, end, out);
    }
}

/// Every value of the JSON object that opens at `brace` (`"data": {`), when the
/// document around it has `"kind": "Secret"`.
pub(crate) fn kubernetes_json(text: &str, brace: usize, out: &mut Vec<(usize, usize)>) {
    let (start, end) = document_around(text, brace);
    let doc = &text[start..end];
    let is_secret = doc.match_indices("\"kind\"").any(|(i, k)| {
        let rest = doc[i + k.len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().starts_with("\"Secret\""))
    });
    if !is_secret {
        return;
    }
    let bytes = text.as_bytes();
    let mut pos = brace + 1;
    let skip_ws = |mut p: usize| {
        while p < bytes.len() && (bytes[p].is_ascii_whitespace() || bytes[p] == b',') {
            p += 1;
        }
        p
    };
    // A JSON string starting at `p` (a `"`): the bytes inside the quotes.
    let string_at = |p: usize| -> Option<(usize, usize)> {
        if bytes.get(p) != Some(&b'"') {
            return None;
        }
        let mut q = p + 1;
        while q < bytes.len() {
            match bytes[q] {
                b'\\' => q += 2,
                b'"' => return Some((p + 1, q)),
                _ => q += 1,
            }
        }
        None
    };
    loop {
        pos = skip_ws(pos);
        let Some((_, key_end)) = string_at(pos) else {
            return;
        };
        pos = skip_ws(key_end + 1);
        if bytes.get(pos) != Some(&b':') {
            return;
        }
        pos = skip_ws(pos + 1);
        let Some((v_start, v_end)) = string_at(pos) else {
            return;
        };
        push_value(text, v_start, v_end, out);
        pos = v_end + 1;
    }
}

/// The kind of credential a table key cell names (`Password`, `**DB password**`,
/// `API key`, `client_secret`), if any.
fn key_cell_kind(cell: &str) -> Option<CredentialKind> {
    let key = cell
        .trim()
        .trim_matches(['*', '_', '`'])
        .trim_end_matches(':')
        .trim()
        .to_lowercase();
    // A command-line flag (`--password`, `-p`): the cell beside it says what
    // the flag is for, as a CLI reference's table does.
    if key.starts_with('-') {
        return None;
    }
    let ends_with_word = |word: &str| {
        key.strip_suffix(word)
            .is_some_and(|head| head.is_empty() || head.ends_with([' ', '_', '-', '.']))
    };
    let password = [
        "password",
        "passwd",
        "passphrase",
        "passwort",
        "kennwort",
        "pwd",
        "pin",
        "pass",
    ];
    let api = [
        "token",
        "api key",
        "api_key",
        "apikey",
        "api-key",
        "access key",
    ];
    if password.iter().any(|w| ends_with_word(w)) {
        Some(CredentialKind::PasswordAssignment)
    } else if api.iter().any(|w| ends_with_word(w)) {
        Some(CredentialKind::ApiKeyAssignment)
    } else if ends_with_word("secret") || ends_with_word("secret key") {
        Some(CredentialKind::GenericSecretAssignment)
    } else {
        None
    }
}

/// The cells of a table row, trimmed, as byte ranges of `text`.
fn cells(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let line = &text[start..end];
    let inner_start = start + line.find('|').map_or(0, |i| i + 1);
    let inner_end = start + line.trim_end().rfind('|').unwrap_or(line.len());
    if inner_end <= inner_start {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut cell_start = inner_start;
    let bytes = text.as_bytes();
    for i in inner_start..=inner_end {
        if i == inner_end || (bytes[i] == b'|' && bytes.get(i.wrapping_sub(1)) != Some(&b'\\')) {
            let cell = &text[cell_start..i];
            let lead = cell.len() - cell.trim_start().len();
            out.push((cell_start + lead, cell_start + lead + cell.trim().len()));
            cell_start = i + 1;
        }
    }
    out
}

/// The secret in a value cell, if it holds one: code spans and quotes are
/// literals; a bare cell must not be a word (header and description cells are).
fn value_cell(text: &str, (mut start, mut end): (usize, usize)) -> Option<(usize, usize)> {
    for wrap in ["**", "__"] {
        let cell = &text[start..end];
        if cell.len() > 4 && cell.starts_with(wrap) && cell.ends_with(wrap) {
            start += 2;
            end -= 2;
        }
    }
    let cell = &text[start..end];
    for q in ['`', '"', '\''] {
        if cell.len() >= 2 && cell.starts_with(q) && cell.ends_with(q) {
            let (s, e) = (start + 1, end - 1);
            let inner = &text[s..e];
            let quote = if q == '`' {
                Quote::Backtick
            } else {
                Quote::Double
            };
            let code = q == '`' && (benign::is_constant_name(inner) || code_shapes::is_code(inner));
            return (!benign::is_benign_value(inner, quote, "") && !code).then_some((s, e));
        }
    }
    if cell.contains(char::is_whitespace) {
        return benign::passphrase_len(cell, 4).map(|_| (start, end));
    }
    let benign = benign::is_benign_value(cell, Quote::None, "") || benign::is_word(cell);
    (!benign).then_some((start, end))
}

/// Whether a line is a table's header separator (`|---|:--:|`).
fn is_separator_row(line: &str) -> bool {
    let t = line.trim();
    t.contains('-')
        && t.contains('|')
        && t.bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// Credentials in the table row at `row_start..`: the cell after each key
/// cell, and, when the row is a header, the key columns of every row below.
pub(crate) fn table(text: &str, row_start: usize, out: &mut Vec<(CredentialKind, usize, usize)>) {
    let Some((start, end)) = lines_from(text, row_start).next() else {
        return;
    };
    let row = cells(text, start, end);
    let keys: Vec<(usize, CredentialKind)> = row
        .iter()
        .enumerate()
        .filter_map(|(i, &(s, e))| key_cell_kind(&text[s..e]).map(|k| (i, k)))
        .collect();
    for &(i, kind) in &keys {
        if let Some(&cell) = row.get(i + 1)
            && let Some((s, e)) = value_cell(text, cell)
        {
            out.push((kind, s, e));
        }
    }
    let mut below = lines_from(text, next_line_start(text, end));
    match below.next() {
        Some((s, e)) if is_separator_row(&text[s..e]) => {}
        _ => return,
    }
    for (s, e) in below {
        if !text[s..e].trim_start().starts_with('|') {
            break;
        }
        let row = cells(text, s, e);
        for &(i, kind) in &keys {
            if let Some(&cell) = row.get(i)
                && let Some((vs, ve)) = value_cell(text, cell)
            {
                out.push((kind, vs, ve));
            }
        }
    }
}

/// Labels of a credential list's lines whose values are no secret: who, where,
/// when and how (`- user: alice`, `- Ticket: SEC-1234`, `- Expires: …`,
/// `- Hash: argon2id`), the whole label (`- Work email: x` is a password).
const NOT_SECRET_LABELS: &[&str] = &[
    "user",
    "username",
    "login",
    "email",
    "mail",
    "account",
    "host",
    "hostname",
    "server",
    "url",
    "link",
    "port",
    "owner",
    "ticket",
    "issue",
    "where",
    "location",
    "expires",
    "expiry",
    "rotation",
    "rotated",
    "created",
    "updated",
    "storage",
    "note",
    "notes",
    "hint",
    "manager",
    "provider",
    "type",
    "method",
    "hash",
    "algorithm",
    "policy",
    "length",
    "cost",
    "format",
    "scheme",
];

/// Whether a value is an issue key (`SEC-1234`, `ENG-12`).
fn is_issue_key(v: &str) -> bool {
    v.split_once('-').is_some_and(|(project, number)| {
        project.len() >= 2
            && project.starts_with(|c: char| c.is_ascii_uppercase())
            && project
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            && !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The values under a heading that names credentials, which ends at `from`:
/// each line of the list or lines below it (up to the next heading, a fence or
/// a paragraph after a blank line that ends the list) that reads `label: value` (also `label = value`,
/// `label → value`, a list marker before it), whose value is one as a table's
/// value cell is ([`value_cell`]: a code span or quotes, or a bare value that
/// is no word). A `- gmail: Tr0ub4dor&3` under `# Passwords` is a password
/// though no key says so.
pub(crate) fn credential_list(text: &str, from: usize, out: &mut Vec<(usize, usize)>) {
    // The heading's level: a heading below it (`## Work`) goes on with the list.
    let heading_start = text[..from].rfind('\n').map_or(0, |i| i + 1);
    let level = heading_level(text[heading_start..from].trim_start()).unwrap_or(1);
    let mut listed = false;
    let mut after_blank = false;
    for (s, e) in lines_from(text, next_line_start(text, from)) {
        let line = &text[s..e];
        let t = line.trim();
        if t.is_empty() {
            after_blank = true;
            continue;
        }
        let blank_before = std::mem::take(&mut after_blank);
        if heading_level(t).is_some_and(|l| l <= level) || is_boundary(t) {
            break;
        }
        if t.starts_with('#') {
            // A lower heading or a line of tags (`#private`).
            continue;
        }
        let body = ["- ", "* ", "+ "]
            .iter()
            .find_map(|m| t.strip_prefix(m))
            .map(str::trim_start);
        let item = body.is_some();
        // A paragraph after the list (a blank line, then a line that is no
        // item and no `label: value` of one word).
        let one_value = t
            .split_once(": ")
            .is_some_and(|(_, v)| !v.trim().contains(char::is_whitespace));
        if !item && listed && indent_of(line) == 0 && blank_before && !one_value {
            break;
        }
        listed |= item;
        let body = body.unwrap_or(t);
        let Some((sep, len)) = [": ", " = ", " → ", " -> ", " – ", " — "]
            .iter()
            .filter_map(|sep| body.find(sep).map(|at| (at, sep.len())))
            .min()
        else {
            continue;
        };
        let label = body[..sep].trim_matches(['*', '_', ' ']);
        if label.is_empty()
            || label.chars().count() > 60
            || NOT_SECRET_LABELS.contains(&label.to_lowercase().as_str())
        {
            continue;
        }
        let start = s + (line.len() - line.trim_start().len()) + (t.len() - body.len()) + sep + len;
        list_value(text, start, e, out);
    }
}

/// The level of an ATX heading line (`## x`: 2).
fn heading_level(t: &str) -> Option<usize> {
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    ((1..=6).contains(&hashes) && (t.len() == hashes || t[hashes..].starts_with([' ', '\t'])))
        .then_some(hashes)
}

/// The secrets in a credential list's value at `start..end`: the value as a
/// table's value cell is; or, for a user and a password (`admin / Tr0ub4dor&3`,
/// `alice@example.com / Tr0ub4dor&3`) or a value and a note in brackets
/// (`` `hunter2` (guest) ``, `Tr0ub4dor&3 (old)`), each part that is one word
/// and no word of a language, address, handle or issue key. Any other value
/// with blanks is prose (`pulls from 1Password with op read`).
fn list_value(text: &str, start: usize, end: usize, out: &mut Vec<(usize, usize)>) {
    let raw = &text[start..end];
    let value = raw.trim();
    if value.is_empty() {
        return;
    }
    let value_start = start + (raw.len() - raw.trim_start().len());
    // A note in brackets at the end is no part of the value.
    let value = match value.rfind(" (") {
        Some(at) if value.ends_with(')') => value[..at].trim_end(),
        _ => value,
    };
    let quoted = ['`', '"', '\'']
        .iter()
        .any(|q| value.len() >= 2 && value.starts_with(*q) && value.ends_with(*q));
    // A user and a password: a word among them is the user.
    let pair = value.contains(" / ");
    let parts: Vec<&str> = if quoted {
        vec![value]
    } else {
        value.split(" / ").collect()
    };
    if parts.len() > 3
        || parts
            .iter()
            .any(|p| !quoted && p.trim().contains(char::is_whitespace))
    {
        return;
    }
    let mut at = value_start;
    for part in parts {
        let part = part.trim();
        let part_start = at + text[at..].find(part).unwrap_or(0);
        at = part_start + part.len();
        if part.is_empty() || names_something(part) || (pair && benign::is_word(part)) {
            continue;
        }
        if let Some(found) = value_cell(text, (part_start, part_start + part.len())) {
            out.push(found);
        }
    }
}

/// Whether a value names someone or something rather than being a secret: a
/// handle (`@priya`), an address (`alice@example.com`), an issue key.
fn names_something(v: &str) -> bool {
    let handle = v.strip_prefix('@').is_some_and(|h| {
        !h.is_empty()
            && h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    });
    let address = v.split_once('@').is_some_and(|(user, host)| {
        let tld = host.rsplit('.').next().unwrap_or("");
        !user.is_empty()
            && user
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-'))
            && host.contains('.')
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
            && tld.len() >= 2
            && tld.bytes().all(|b| b.is_ascii_alphabetic())
    });
    handle || address || is_issue_key(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(text: &'a str, spans: &[(usize, usize)]) -> Vec<&'a str> {
        spans.iter().map(|&(s, e)| &text[s..e]).collect()
    }

    #[test]
    fn only_a_secret_document_has_its_data_read() {
        let text = "kind: ConfigMap\ndata:\n  LOG_LEVEL: info\n---\nkind: Secret\ndata:\n  KEY: czNj # b64\n  PEM: |\n    line one\n    line two\n  EMPTY: \"\"\nother: x\n";
        let mut out = Vec::new();
        let first = text.find("data:").unwrap() + "data:".len();
        kubernetes_yaml(text, 0, first, &mut out);
        assert!(out.is_empty());
        let second = text.rfind("data:").unwrap() + "data:".len();
        kubernetes_yaml(text, 0, second, &mut out);
        assert_eq!(texts(text, &out), ["czNj", "line one\n    line two"]);
    }

    #[test]
    fn json_secret_values_are_read_inside_their_quotes() {
        let text = r#"{"kind": "Secret", "data": {"a": "eHl6", "b": "\"q\""}}"#;
        let mut out = Vec::new();
        kubernetes_json(text, text.find("{\"a\"").unwrap(), &mut out);
        assert_eq!(texts(text, &out), ["eHl6", "\\\"q\\\""]);
        out.clear();
        let not_secret = r#"{"kind": "ConfigMap", "data": {"a": "eHl6"}}"#;
        kubernetes_json(not_secret, not_secret.find("{\"a\"").unwrap(), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn tables_by_row_and_by_column() {
        let text = "| host | password | notes |\n|---|---|---|\n| db | Xk9fakePw2 | prod |\n| cache | `REDIS_PW_VAR` | none |\n\n| token | abc123def |\n";
        let mut out = Vec::new();
        table(text, 0, &mut out);
        let found: Vec<&str> = out.iter().map(|&(_, s, e)| &text[s..e]).collect();
        assert_eq!(found, ["Xk9fakePw2"]);
        out.clear();
        table(text, text.find("| token").unwrap(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, CredentialKind::ApiKeyAssignment);
        assert_eq!(&text[out[0].1..out[0].2], "abc123def");
    }

    #[test]
    fn a_list_under_a_heading_of_credentials() {
        let text = "# Passwords\n\n- gmail: Tr0ub4dor&3\n- router admin: `hunter2`\n- bank: see 1Password\n- **NAS** = Qw9!zzPx\n  continued line\nwifi guest: Guest2024!\n\nA paragraph: after the list.\n- later: Zz9zz9zz\n";
        let mut out = Vec::new();
        credential_list(text, "# Passwords".len(), &mut out);
        assert_eq!(
            texts(text, &out),
            ["Tr0ub4dor&3", "hunter2", "Qw9!zzPx", "Guest2024!"]
        );
        out.clear();
        // Review: sub-headings, tag lines, labels ending in a word of the
        // list above, values with a note or a user beside them.
        let text = "# Passwords\n#private\n## Work\n- Work email: Tr0ub4dor&3\n- gmail: Summer@2024.\n- router: admin / Rt9!pass (old)\n- bank: `hunter2` (guest)\n- user: alice\n- me: alice@example.com / Zx8$word\n- GitHub: @alice\n# Other\n- x: Qq9!qq9q\n";
        credential_list(text, "# Passwords".len(), &mut out);
        assert_eq!(
            texts(text, &out),
            [
                "Tr0ub4dor&3",
                "Summer@2024.",
                "Rt9!pass",
                "hunter2",
                "Zx8$word"
            ]
        );
        out.clear();
        let text = "## Secrets\n\n```\nx: Tr0ub4dor&3\n```\n";
        credential_list(text, "## Secrets".len(), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn block_scalars_end_where_the_indentation_does() {
        let text = "db:\n  password: |\n    s3cr3t-one\n\n    s3cr3t-two\n  user: bob\n";
        let key_end = text.find('|').unwrap() + 1;
        let (s, e) = block_scalar(text, 2, key_end).unwrap();
        assert_eq!(&text[s..e], "s3cr3t-one\n\n    s3cr3t-two");
        assert_eq!(
            block_scalar("password: |\n  [redacted:password]\n", 0, 11),
            None
        );
        assert_eq!(
            block_scalar("password: |\n  {{ .Values.pw }}\n", 0, 11),
            None
        );
    }
}
