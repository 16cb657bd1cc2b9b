//! Lines that describe the sensitivity levels rather than mark a note: a run of
//! lines each heading with a level, naming all four (`PUBLIC: shown`,
//! `INTERNAL: shown`, `CONFIDENTIAL: listed, withheld`, `SECRET: never shown`),
//! as a note about the policy or a log's `## Sensitivity levels` section
//! writes. Fewer levels may be marks with their content (`Public: list prices`,
//! `Internal: discount bands`, `SECRET: the signing key is …`): they count.
//! The banners among them mark nothing; the mark readers (`marks::body_marks`,
//! an entry's marks) drop them here.

use crate::marks::BANNER_KEY;
use crate::model::Sensitivity;

/// The level a line names first, as a label before a separator (`SECRET:
/// never shown`, `- **Confidential** — listed, withheld`, `PUBLIC`): what a
/// note describing the levels writes, line by line.
fn level_label(line: &str) -> Option<Sensitivity> {
    crate::marks::with_plain_line(line, |_, s| {
        let (head, _) = crate::banners::segments(s.trim_matches(crate::banners::is_trim))[0];
        // One of the four levels, not a synonym (`Private: …`).
        match crate::banners::words_of(head)[..] {
            [ref w] => Sensitivity::ALL.iter().copied().find(|l| l.as_str() == w),
            _ => None,
        }
    })
}

/// Drops the banners inside a run of lines that each head with a level, naming
/// all four levels: they describe the levels (`PUBLIC: shown`,
/// `CONFIDENTIAL: listed, withheld`, `SECRET: never shown`), as a table's
/// column does, and mark nothing. Not the run's first line (a banner above a
/// list of visibilities: `CONFIDENTIAL` then `- Public: /v1/pay`, `- Internal:
/// /admin`), nor a banner with a handling warning. `text` holds the lines the
/// marks were read from, the first of them at `first_line`.
pub(crate) fn drop_level_descriptions(
    out: &mut Vec<crate::marks::LineMark>,
    text: &[&str],
    first_line: usize,
    is_code: impl Fn(usize) -> bool,
) {
    if !out.iter().any(|m| m.mark.key == BANNER_KEY) {
        return;
    }
    let labels: Vec<(usize, Sensitivity)> = text
        .iter()
        .enumerate()
        .filter(|&(i, _)| !is_code(i))
        .filter_map(|(i, l)| Some((first_line + i, level_label(l)?)))
        .collect();
    // Runs: label lines at most two lines apart (a blank line between).
    let mut runs: Vec<&[(usize, Sensitivity)]> = Vec::new();
    let mut from = 0;
    for k in 1..=labels.len() {
        if k == labels.len() || labels[k].0 > labels[k - 1].0 + 2 {
            runs.push(&labels[from..k]);
            from = k;
        }
    }
    let describes = |line: usize| {
        runs.iter().any(|run| {
            let mut levels: Vec<Sensitivity> = run.iter().map(|&(_, l)| l).collect();
            levels.sort_unstable();
            levels.dedup();
            levels.len() == Sensitivity::ALL.len() && run.iter().skip(1).any(|&(l, _)| l == line)
        }) && !text
            .get(line - first_line)
            .is_some_and(|t| crate::banners::warned(t))
    };
    out.retain(|m| m.mark.key != BANNER_KEY || !describes(m.line));
}
