//! A table as a summary: a note that is only a table (a comparison, a catalog,
//! a log of stories) has no sentence to summarize it by, and its summary was its
//! title again (`Kafka vs RabbitMQ: Kafka vs RabbitMQ`). Its first row, each
//! cell after its column's header, says what it holds: `Kafka: Pull-based
//! model; RabbitMQ: Push-based model`.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::markdown::{options, squash};
use crate::prose::{protect_markers, restore_markers};

/// The first row of the first table of `body` with a row below its header,
/// each non-empty cell after its header (`Header: cell`, or the cell alone
/// under an empty header), joined by `; `; `None` without such a table or when
/// every cell of the row is empty. Markdown is removed as in prose (links to
/// their text, code as text, a `<br>` as a separator) and redaction markers
/// are kept whole.
#[must_use]
pub fn table_summary(body: &str) -> Option<String> {
    if !body.contains('|') {
        return None;
    }
    let (protected, found) = protect_markers(body);
    let mut header: Vec<String> = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut cell: Option<String> = None;
    let mut in_head = false;
    for event in Parser::new_ext(&protected, options()) {
        match event {
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                let text = squash(&restore_markers(&cell.take().unwrap_or_default(), found));
                if in_head {
                    header.push(text);
                } else {
                    row.push(text);
                }
            }
            Event::End(TagEnd::TableRow) => {
                if row.iter().any(|c| telling(c)) {
                    break;
                }
                row.clear();
            }
            Event::End(TagEnd::Table) => header.clear(),
            Event::Text(t) | Event::Code(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::InlineHtml(h)
                if ["<br>", "<br/>", "<br />"]
                    .iter()
                    .any(|b| h.trim().eq_ignore_ascii_case(b)) =>
            {
                if let Some(c) = cell.as_mut() {
                    c.push_str("; ");
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(c) = cell.as_mut() {
                    c.push(' ');
                }
            }
            _ => {}
        }
    }
    let parts: Vec<String> = row
        .iter()
        .enumerate()
        .filter(|(_, c)| telling(c))
        .map(|(i, c)| {
            // A list in a cell (`- a<br>- b`): its items, without their marks.
            let c = c
                .trim_start_matches(['-', ' ', ';'])
                .trim()
                .replace("; - ", "; ");
            match header.get(i).map(|h| h.trim()).filter(|h| !h.is_empty()) {
                Some(h) => format!("{h}: {c}"),
                None => c,
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// A cell that says something: a letter or a digit, not a ditto mark (`^`,
/// `"`) or a dash.
fn telling(cell: &str) -> bool {
    cell.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::table_summary;

    #[test]
    fn the_first_row_after_its_headers() {
        let body = "Tags:\n- [[Message Brokers]]\n---\n\n| Kafka | RabbitMQ |\n| --- | --- |\n| Pull-based model | Push-based model |\n| better throughput | worse performance |\n(see [[Push vs Pull]])\n";
        assert_eq!(
            table_summary(body).as_deref(),
            Some("Kafka: Pull-based model; RabbitMQ: Push-based model")
        );
        // A list in a cell (`<br>`), links and code as text, an empty header, an
        // empty cell and a ditto mark left out, a first row of dashes skipped.
        let body = "| Title | | Tags |\n|---|---|---|\n| - | - | ^ |\n| RIL project | - Y1 internship<br/>- [[ML]] with `numpy` | ^ |\n";
        assert_eq!(
            table_summary(body).as_deref(),
            Some("Title: RIL project; Y1 internship; ML with numpy")
        );
        assert_eq!(table_summary("No table | here.\n"), None);
        assert_eq!(table_summary("| a | b |\n|---|---|\n"), None);
        assert_eq!(
            table_summary("| key | value |\n|---|---|\n| token | [redacted:password] |\n")
                .as_deref(),
            Some("key: token; value: [redacted:password]")
        );
    }
}
