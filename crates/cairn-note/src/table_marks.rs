//! Sensitivity marks in a markdown table's column: a table whose header names
//! a sensitivity key (`| Date | Entry | Sensitivity |`) marks the text with
//! each row's value, unless its rows name three levels or more (a list of notes
//! and their levels, not a mark of this one).

use crate::marks::{Mark, is_decoration, key_of, levels_named, weak_value};
use crate::plain_text::latin_text;

/// A markdown table whose header names a sensitivity column (`| Date | Entry |
/// Sensitivity |`): each row's cell in that column is that row's mark, unless
/// the rows name three levels or more (a list of notes and their levels, not a
/// mark of this one).
#[derive(Debug, Default)]
pub(crate) struct TableColumn {
    column: Option<(usize, &'static str)>,
    rows: Vec<(usize, Mark)>,
}

impl TableColumn {
    /// Reads line `i` (the next of the text); gives the marks of a table that
    /// `line` ends.
    pub(crate) fn push(&mut self, i: usize, line: &str) -> Vec<(usize, Mark)> {
        let t = line.trim();
        if !t.starts_with('|') {
            return self.finish();
        }
        let cells: Vec<&str> = t.trim_matches('|').split('|').map(str::trim).collect();
        let Some((col, key)) = self.column else {
            self.column = cells
                .iter()
                .enumerate()
                .find_map(|(i, c)| Some((i, key_of(c.trim_matches(is_decoration))?)));
            return Vec::new();
        };
        if let Some(value) = cells.get(col).and_then(|c| weak_value(&latin_text(c))) {
            let mark = Mark {
                key,
                value,
                dataview: false,
            };
            self.rows.push((i, mark));
        }
        Vec::new()
    }

    /// The marks of the table read so far; the table ends.
    pub(crate) fn finish(&mut self) -> Vec<(usize, Mark)> {
        self.column = None;
        let rows = std::mem::take(&mut self.rows);
        let values: Vec<&str> = rows.iter().map(|(_, m)| m.value.as_str()).collect();
        if levels_named(&values.join(" ")) >= 3 {
            return Vec::new();
        }
        rows
    }
}
