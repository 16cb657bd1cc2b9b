//! Near-duplicate notes: two notes whose prose shares most of its word 3-grams,
//! or a group of them joined by such pairs (one finding per group: a template
//! copied a thousand times is one finding, listing five of its notes, not half a
//! million pairs).
//!
//! Similarity is the Jaccard index of the two notes' sets of word 3-grams
//! ("shingles") over their prose (lowercased letters and digits; code blocks,
//! headings and tables left out), computed exactly for every reported pair. To stay
//! fast on large vaults, candidate pairs come from `MinHash` with locality-sensitive
//! hashing (80 hashes in 20 bands of 4): a pair at 80% similarity becomes a
//! candidate with probability above 0.9999, and a pair below 30% almost never
//! does. Notes with fewer than [`MIN_SHINGLES`] shingles are too short to judge;
//! secret, superseded and archived notes, and pairs linked by supersession, are
//! skipped. Everything is deterministic: same vault, same report.

use std::collections::{BTreeMap, BTreeSet};

use cairn_note::{Note, Sensitivity, prose_sentences};

use crate::{Ctx, Level};

/// The default similarity from which a pair is reported.
pub const DEFAULT_THRESHOLD: f64 = 0.8;
/// Notes with fewer shingles are not compared.
pub const MIN_SHINGLES: usize = 8;
const BANDS: usize = 20;
const ROWS: usize = 4;

/// FNV-1a, 64 bits: a fixed, portable hash for shingles.
fn fnv(words: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.bytes().chain(std::iter::once(0x1f)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// `SplitMix64`: turns a shingle hash and a seed into one `MinHash` row.
fn mix(x: u64, seed: u64) -> u64 {
    let mut z = x ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The word 3-gram hashes of a note's prose.
pub fn shingles(body: &str) -> BTreeSet<u64> {
    let text = prose_sentences(body).join(" ").to_lowercase();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(3).map(fnv).collect()
}

/// The Jaccard index of two shingle sets.
pub fn jaccard(a: &BTreeSet<u64>, b: &BTreeSet<u64>) -> f64 {
    let inter = a.intersection(b).count();
    let union = a.len() + b.len() - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let notes = ctx.notes();
    let threshold = ctx.opts.duplicate_threshold;
    let eligible: Vec<(usize, BTreeSet<u64>)> = notes
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_retired() && n.sensitivity != Sensitivity::Secret)
        .map(|(i, n)| (i, shingles(&n.body)))
        .filter(|(_, s)| s.len() >= MIN_SHINGLES)
        .collect();

    // LSH: notes whose signatures agree on a whole band become candidates.
    let mut buckets: BTreeMap<(usize, Vec<u64>), Vec<usize>> = BTreeMap::new();
    for (slot, (_, set)) in eligible.iter().enumerate() {
        let sig: Vec<u64> = (0..BANDS * ROWS)
            .map(|k| {
                set.iter()
                    .map(|&x| mix(x, k as u64 + 1))
                    .min()
                    .unwrap_or(u64::MAX)
            })
            .collect();
        for band in 0..BANDS {
            let key = sig[band * ROWS..(band + 1) * ROWS].to_vec();
            buckets.entry((band, key)).or_default().push(slot);
        }
    }
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    for members in buckets.values().filter(|m| m.len() > 1) {
        for (x, &a) in members.iter().enumerate() {
            for &b in &members[x + 1..] {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }

    let resolver = cairn_note::NoteNames::new(notes);
    let linked = |a: &Note, ai: usize, b: &Note, bi: usize| {
        let names = |x: &Note, y: usize| {
            x.supersedes
                .iter()
                .chain(&x.superseded_by)
                .any(|t| resolver.resolve(t, x).contains(&y))
        };
        names(a, bi) || names(b, ai)
    };
    // Pairs at the threshold join their notes into groups (a template copied
    // a thousand times is one finding, not half a million pairs). A pair whose
    // notes are already in one group is not measured again.
    let mut group = Groups::new(eligible.len());
    let mut sims: Vec<(usize, usize, f64)> = Vec::new();
    for (sa, sb) in pairs {
        if group.find(sa) == group.find(sb) {
            continue;
        }
        let (ia, set_a) = &eligible[sa];
        let (ib, set_b) = &eligible[sb];
        let sim = jaccard(set_a, set_b);
        if sim < threshold {
            continue;
        }
        let (a, b) = (&notes[*ia], &notes[*ib]);
        if linked(a, *ia, b, *ib) {
            continue;
        }
        group.join(sa, sb);
        sims.push((sa, sb, (sim * 100.0).round() / 100.0));
    }
    // Each group's notes (by path) and the lowest and highest similarity of
    // its measured pairs.
    let mut by_root: BTreeMap<usize, (Vec<&Note>, f64, f64)> = BTreeMap::new();
    for &(sa, sb, sim) in &sims {
        let entry = by_root
            .entry(group.find(sa))
            .or_insert_with(|| (Vec::new(), 1.0, 0.0));
        entry.0.push(&notes[eligible[sa].0]);
        entry.0.push(&notes[eligible[sb].0]);
        entry.1 = entry.1.min(sim);
        entry.2 = entry.2.max(sim);
    }
    let mut found: Vec<(Vec<&Note>, f64, f64)> = by_root
        .into_values()
        .map(|(mut list, low, high)| {
            list.sort_by(|a, b| a.path.cmp(&b.path));
            list.dedup_by(|a, b| a.path == b.path);
            (list, low, high)
        })
        .collect();
    found.sort_by(|a, b| a.0[0].path.cmp(&b.0[0].path));
    for (list, low, high) in found {
        // Two notes at least (one path twice would be one note).
        let [first, second, ..] = list[..] else {
            continue;
        };
        let line = first.entry_of.as_ref().map(|_| first.body_line);
        let message = if list.len() == 2 {
            format!(
                "`{}` and `{}` are {:.0}% alike (word 3-gram Jaccard); merge them, or mark one superseded",
                first.path,
                second.path,
                high * 100.0
            )
        } else {
            const LISTED: usize = 5;
            let others: Vec<String> = list[1..]
                .iter()
                .take(LISTED)
                .map(|n| format!("`{}`", n.path))
                .collect();
            let more = list.len() - 1 - others.len();
            let alike = if (high - low).abs() < f64::EPSILON {
                format!("{:.0}%", high * 100.0)
            } else {
                format!("{:.0}-{:.0}%", low * 100.0, high * 100.0)
            };
            format!(
                "`{}` and {} other notes share most of their wording (joined by pairs {alike} alike, word 3-gram Jaccard): {}{}; merge them, or keep one and mark the others superseded",
                first.path,
                list.len() - 1,
                others.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )
        };
        ctx.push(
            Level::Warning,
            "near-duplicate",
            first.file_path(),
            line,
            message,
        );
        if let Some(last) = ctx.findings.last_mut() {
            last.related = Some(second.file_path().to_owned());
            last.similarity = Some(high);
        }
    }
}

/// Groups of notes joined by near-duplicate pairs (union-find by slot).
struct Groups {
    parent: Vec<usize>,
}

impl Groups {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the groups of `a` and `b`; the smaller slot is the root, so the
    /// grouping does not depend on the order pairs come in.
    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.parent[hi] = lo;
    }
}

#[cfg(test)]
// Exact values: every figure here comes from fixed inputs and exact arithmetic.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn similarity_of_texts() {
        let a = shingles(
            "The payout worker retries failed transfers three times with exponential backoff and jitter before it gives up.",
        );
        let b = shingles(
            "The payout worker retries failed transfers three times with exponential backoff and jitter before giving up.",
        );
        let c = shingles(
            "Our map tiles are rendered by Martin from PostGIS and cached at the edge for a day.",
        );
        let sim = jaccard(&a, &b);
        assert!((0.65..0.75).contains(&sim), "{sim}");
        assert_eq!(jaccard(&a, &c), 0.0);
        assert_eq!(jaccard(&a, &a), 1.0);
    }
}
