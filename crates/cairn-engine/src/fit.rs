//! Fitting the rendered packet: to its token budget by dropping the least valuable
//! items whole ([`Packet::drop_lowest`]), and to a client's character and byte caps
//! ([`OutputCaps`]) by deriving a smaller token budget from the measured ratio.
//!
//! ```text
//! ranked candidates (once) ─▶ assemble at budget B ─▶ render ─▶ within the caps? ─▶ done
//!                                     ▲                                │ no
//!                                     └──── B' = measured × ratio × 0.95
//! ```
//! The ranking is done once per request; only assembly and rendering are repeated,
//! each time with a budget at least 5% smaller. Text is never cut.

use std::collections::BTreeSet;

use cairn_assemble::Packet;
use cairn_render::{Format, Target, estimate_tokens};

use crate::{Engine, EngineError};

/// Caps on the rendered output beyond its token budget: a client's context limits.
/// The default caps nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutputCaps {
    /// Characters (Unicode scalar values) of the rendered text.
    pub max_chars: Option<usize>,
    /// Bytes of the rendered text.
    pub max_bytes: Option<usize>,
    /// Tokens by cairn's estimate: the budget never exceeds this.
    pub max_tokens: Option<usize>,
}

impl OutputCaps {
    /// No cap beyond the token budget.
    pub const NONE: OutputCaps = OutputCaps {
        max_chars: None,
        max_bytes: None,
        max_tokens: None,
    };

    /// Whether characters or bytes are capped (then fitting may render more than once).
    pub(crate) fn caps_text(&self) -> bool {
        self.max_chars.is_some() || self.max_bytes.is_some()
    }

    /// `budget`, lowered to the token cap.
    pub(crate) fn cap_budget(&self, budget: usize) -> usize {
        self.max_tokens.map_or(budget, |m| budget.min(m))
    }

    /// What a failure to fit names: the character cap, else the byte cap.
    pub(crate) fn describe(&self) -> String {
        match (self.max_chars, self.max_bytes) {
            (Some(c), _) => format!("{c} characters"),
            (None, Some(b)) => format!("{b} bytes"),
            (None, None) => "the caps".to_owned(),
        }
    }
}

/// Most renderings tried for the character and byte caps (each shrinks the budget
/// by at least 5%).
pub(crate) const MAX_FIT_ATTEMPTS: usize = 24;

/// What to do with a rendering under `caps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shrink {
    /// Within the caps.
    Fits,
    /// Too long: render again within this token budget.
    To(usize),
    /// Too long, and no smaller budget is left to try.
    Never,
}

/// Whether `text`, rendered within `budget` tokens, is within `caps`, and if not,
/// the next budget to try: the estimated tokens of `text` scaled by how far it is
/// over the tighter cap, less 5%, and always at least 5% below `budget`.
pub(crate) fn shrink(text: &str, budget: usize, caps: &OutputCaps) -> Shrink {
    let max_chars = caps.max_chars.unwrap_or(usize::MAX);
    let max_bytes = caps.max_bytes.unwrap_or(usize::MAX);
    let chars = text.chars().count();
    let bytes = text.len();
    if chars <= max_chars && bytes <= max_bytes {
        return Shrink::Fits;
    }
    let ratio = (max_chars as f64 / chars as f64).min(max_bytes as f64 / bytes.max(1) as f64);
    let measured = estimate_tokens(text).min(budget);
    // A non-negative token count below `budget`: it fits in a usize.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let next = ((measured as f64 * ratio * 0.95).floor() as usize)
        .min(budget.saturating_sub(1).max(1) * 95 / 100);
    if next == 0 {
        Shrink::Never
    } else {
        Shrink::To(next)
    }
}

/// How far over the limit a rendering may be and still fit once its `used_tokens`
/// and content hash are final: 16 hex digits estimate at 3 to 16 tokens, a count
/// at 1 or 2, plus the estimate's 5%.
pub(crate) const FIT_SLACK_TOKENS: usize = 32;

impl Engine {
    /// Renders, dropping the least valuable items until the output fits `limit`
    /// tokens (see [`fit`]).
    pub(crate) fn fit_tokens(
        &self,
        packet: &mut Packet,
        target: Target,
        format: Format,
        limit: usize,
    ) -> Result<String, EngineError> {
        // Whether the last rendering read `used_tokens` (see `settle`).
        let reads = std::cell::Cell::new(true);
        let render = |p: &Packet| {
            self.renderer
                .render_watching(p, target, format)
                .map(|made| {
                    reads.set(made.reads_used_tokens);
                    made.text
                })
        };
        match fit(packet, render, format, limit, &|| reads.get())? {
            Some(out) => Ok(out),
            None => Err(EngineError::BudgetTooSmall {
                budget: limit,
                needed: packet.budget.used_tokens,
                format: format.as_str().to_owned(),
            }),
        }
    }

    /// [`sure_drops`] with this engine's renderer, as [`fit`] renders.
    pub(crate) fn sure_drops(
        &self,
        packet: &Packet,
        target: Target,
        format: Format,
        within: usize,
    ) -> BTreeSet<String> {
        let render = |p: &Packet| self.renderer.render(p, target, format);
        sure_drops(packet, fitting_render(render, format), within)
    }
}

/// Whether `format` prints the list of left-out notes: JSON does, the templates
/// print only its count.
fn prints_left_out(format: Format) -> bool {
    format == Format::Json
}

/// The rendering the items are fitted to: `render`'s, but without the list of
/// left-out notes where the format prints it (their count stays). The list is
/// filled after the items are fitted ([`fit`]), so it never pushes a note out of
/// the packet.
fn fitting_render<E>(
    render: impl Fn(&Packet) -> Result<String, E>,
    format: Format,
) -> impl Fn(&Packet) -> Result<String, E> {
    move |p: &Packet| {
        if prints_left_out(format) && !p.budget.left_out.is_empty() {
            let mut bare = p.clone();
            bare.budget.left_out.clear();
            render(&bare)
        } else {
            render(p)
        }
    }
}

/// Renders `packet` by `render` within `limit` tokens: drops the least valuable
/// items until the rendering fits, then (where the format prints them) lists as
/// many left-out notes as still fit, the most relevant first. `None` when every item is dropped and
/// the rendering is still over.
///
/// `last_reads_used` says whether the text `render` made last depends on the
/// packet's `used_tokens` (`|| true` when that is not known).
fn fit<E>(
    packet: &mut Packet,
    render: impl Fn(&Packet) -> Result<String, E>,
    format: Format,
    limit: usize,
    last_reads_used: &dyn Fn() -> bool,
) -> Result<Option<String>, E> {
    let Some(fitted) = fit_items(
        packet,
        fitting_render(&render, format),
        limit,
        last_reads_used,
    )?
    else {
        return Ok(None);
    };
    let fitted = if prints_left_out(format) {
        list_left_out(packet, &render, limit, fitted, last_reads_used)?
    } else {
        fitted
    };
    // The real hash costs at most the fitting one's tokens: the packet still
    // fits, and only its `used_tokens` may be fewer.
    packet.update_content_hash();
    if packet.content_hash == FITTING_HASH {
        return Ok(Some(fitted));
    }
    let (out, fits) = settle(packet, &render, limit, None, last_reads_used)?;
    Ok(fits.then_some(out))
}

/// The content hash a packet is fitted with: the hexadecimal string of its
/// length that the estimate counts the most tokens for (a run of one character
/// each). Fitting with the real hash made which items fit depend on its digits
/// (an item at the budget's edge came and went with the working folder's name,
/// which the hash covers); the real one, set after, never costs more.
const FITTING_HASH: &str = "a0a0a0a0a0a0a0a0";

/// Drops the least valuable items until `packet`'s rendering fits `limit`
/// tokens, with its `used_tokens` and content hash final; `None` when nothing is
/// left to drop.
fn fit_items<E>(
    packet: &mut Packet,
    render: impl Fn(&Packet) -> Result<String, E>,
    limit: usize,
    last_reads_used: &dyn Fn() -> bool,
) -> Result<Option<String>, E> {
    loop {
        // A hash of the costliest digits (see [`FITTING_HASH`]): which items
        // fit does not depend on the real one's.
        packet.content_hash.clear();
        packet.content_hash.push_str(FITTING_HASH);
        // A text well over the limit stays over whatever its `used_tokens` and
        // content hash say (each changes it by a few characters): drop as many
        // items as it takes, without the fixed point below.
        let made = render(packet)?;
        let used = estimate_tokens(&made);
        if used > limit + FIT_SLACK_TOKENS
            && let Some(fewer) = fewest_drops(packet, &render, used, limit + FIT_SLACK_TOKENS)?
        {
            *packet = fewer;
            continue;
        }
        let (out, fits) = settle(packet, &render, limit, Some(made), last_reads_used)?;
        if fits {
            return Ok(Some(out));
        }
        if !packet.drop_lowest() {
            return Ok(None);
        }
    }
}

/// `used_tokens` is part of the output: renders `packet` until it is its
/// rendering's estimate (at most four renderings, `made` the first when given,
/// the last one made). A text that does not read `used_tokens`
/// (`last_reads_used`) is the same for the new value: it is not made again.
/// The last rendering, and whether it is settled within `limit`.
fn settle<E>(
    packet: &mut Packet,
    render: impl Fn(&Packet) -> Result<String, E>,
    limit: usize,
    made: Option<String>,
    last_reads_used: &dyn Fn() -> bool,
) -> Result<(String, bool), E> {
    let mut reuse = made;
    let mut out = String::new();
    for _ in 0..4 {
        out = match reuse.take() {
            Some(made) => made,
            None => render(packet)?,
        };
        let used = estimate_tokens(&out);
        if used == packet.budget.used_tokens {
            break;
        }
        packet.budget.used_tokens = used;
        if !last_reads_used() {
            break;
        }
    }
    let used = estimate_tokens(&out);
    Ok((out, used <= limit && used == packet.budget.used_tokens))
}

/// Lists, after the items were fitted without them, as many of `packet`'s
/// left-out notes as its rendering still holds within `limit` tokens: the first
/// ones of its list (the most relevant first). `fitted` is the rendering
/// without the list, settled.
fn list_left_out<E>(
    packet: &mut Packet,
    render: impl Fn(&Packet) -> Result<String, E>,
    limit: usize,
    fitted: String,
    last_reads_used: &dyn Fn() -> bool,
) -> Result<String, E> {
    let list = std::mem::take(&mut packet.budget.left_out);
    if list.is_empty() {
        return Ok(fitted);
    }
    // The packet listing the first `k`, settled, when it fits.
    let listing = |k: usize| -> Result<Option<(Packet, String)>, E> {
        let mut p = packet.clone();
        p.budget.left_out = list[..k].to_vec();
        let (out, fits) = settle(&mut p, &render, limit, None, last_reads_used)?;
        Ok(fits.then_some((p, out)))
    };
    let mut best = listing(list.len())?;
    if best.is_none() {
        // Zero fits (the fitted packet), the whole list does not: bisect.
        let (mut lo, mut hi) = (0, list.len());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            match listing(mid)? {
                Some(found) => {
                    lo = mid;
                    best = Some(found);
                }
                None => hi = mid,
            }
        }
    }
    Ok(match best {
        Some((p, out)) => {
            *packet = p;
            out
        }
        None => fitted,
    })
}

/// The paths of the items that fitting `packet` to `within` tokens drops
/// whatever their summaries turn out to be, for `packet` assembled from notes
/// without bodies: a summary is either the note's description (the same with a
/// body) or, without one, the title as the bodiless fallback, which the body
/// will replace. With those emptied and every text redacted as the packet's will
/// be, the packet renders shorter than with any summaries (and than with its
/// final `used_tokens`, content hash, code changes and left-out pins), so the
/// drops it needs are needed anyway. Lets a packet of cached notes skip reading
/// the bodies of notes it drops.
fn sure_drops<E>(
    packet: &Packet,
    render: impl Fn(&Packet) -> Result<String, E>,
    within: usize,
) -> BTreeSet<String> {
    let mut bare = packet.clone();
    for (_, items) in bare.sections_mut() {
        for item in items.iter_mut() {
            // The title, perhaps clipped: the summary of a note without a body.
            let stem = item.summary.trim_end_matches('…').trim_end();
            if item.title.starts_with(stem) {
                item.summary.clear();
            }
        }
    }
    // As the packet will be before fitting: a credential in the task or a path
    // is a marker there, of another length.
    bare.redact_texts();
    let Ok(made) = render(&bare) else {
        return BTreeSet::new();
    };
    let used = estimate_tokens(&made);
    if used <= within {
        return BTreeSet::new();
    }
    let Ok(Some(fewer)) = fewest_drops(&bare, render, used, within) else {
        return BTreeSet::new();
    };
    // Every item `fewer` lost, by its path (drops never touch the rest).
    let kept: BTreeSet<&str> = fewer
        .sections()
        .iter()
        .flat_map(|(_, items)| items.iter().map(|i| i.path.as_str()))
        .collect();
    bare.sections()
        .iter()
        .flat_map(|(_, items)| items.iter())
        .filter(|i| !kept.contains(i.path.as_str()))
        .map(|i| i.path.clone())
        .collect()
}

/// `packet` after the fewest drops ([`Packet::drop_lowest`], in its order) whose
/// rendering by `render` is within `within` tokens, or after every drop when none
/// is; `None` when nothing can be dropped. The same packet as dropping one item
/// per rendering gives, found in a few renderings.
///
/// Each drop takes an item's line away, so the rendering shrinks, except where
/// a section or the task layer becomes empty: a template may then print what it
/// did not (`No note matches the task`). Between two such counts the rendering
/// only shrinks, so each stretch is searched on its own, in order. A guess
/// counts each item's title, summary and path against the excess (`used` −
/// `within`); in its stretch it is rendered first, and when it fits, so does
/// the rest of the stretch, and a second guess, which shares what the first
/// one's rendering lost beyond its texts' estimate equally among its drops,
/// narrows the search. Otherwise the stretch's last count tells whether any of
/// it fits. The first that does is bisected for.
fn fewest_drops<E>(
    packet: &Packet,
    render: impl Fn(&Packet) -> Result<String, E>,
    used: usize,
    within: usize,
) -> Result<Option<Packet>, E> {
    // What the packet's shape is made of, kept up to date as the walk below
    // drops items: the items in each section, the task-layer items.
    let mut per_section: std::collections::BTreeMap<&str, usize> = packet
        .sections()
        .iter()
        .map(|(name, items)| (*name, items.len()))
        .collect();
    let mut task_items = packet
        .sections()
        .iter()
        .map(|(_, v)| v.iter().filter(|i| i.layer != "hot").count())
        .sum::<usize>();
    let shape = |per_section: &std::collections::BTreeMap<&str, usize>, task_items: usize| {
        let sections = per_section.values().filter(|&&n| n > 0).count();
        (sections, task_items > 0)
    };
    // The drop order, walked once: the guess, and the counts after which the
    // packet's shape changes (each starts a stretch).
    let mut guess = None;
    let mut gone = 0;
    // The estimate's tokens gone after `k` drops, at `k`.
    let mut gone_after = vec![0];
    let mut most = 0;
    let mut starts = vec![1];
    let mut before = shape(&per_section, task_items);
    for (name, _, item) in packet.drop_order() {
        gone += estimate_tokens(&item.title)
            + estimate_tokens(&item.summary)
            + estimate_tokens(&item.path);
        if let Some(n) = per_section.get_mut(name) {
            *n -= 1;
        }
        if item.layer != "hot" {
            task_items -= 1;
        }
        most += 1;
        gone_after.push(gone);
        if guess.is_none() && gone >= used.saturating_sub(within) {
            guess = Some(most);
        }
        let now = shape(&per_section, task_items);
        if now != before && most > 1 {
            starts.push(most);
        }
        before = now;
    }
    if most == 0 {
        return Ok(None);
    }
    starts.dedup();
    let after = |k: usize| {
        let mut p = packet.clone();
        p.drop_lowest_n(k);
        p
    };
    let tokens = |k: usize| -> Result<usize, E> { Ok(estimate_tokens(&render(&after(k))?)) };
    let fits = |k: usize| -> Result<bool, E> { Ok(tokens(k)? <= within) };
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(most, |next| next - 1);
        // `lo` is known not to fit (the stretch before ended over, or 0 is
        // over: the caller measured it); `hi` fits.
        let mut lo = start - 1;
        // The guess is rendered first: when it fits, so does the stretch's end
        // (within a stretch the rendering only shrinks), unrendered.
        let guessed = match guess.filter(|g| (start..end).contains(g)) {
            Some(g) => Some((g, tokens(g)?)),
            None => None,
        };
        let mut hi = match guessed {
            Some((g, used_g)) if used_g <= within => g,
            _ if fits(end)? => end,
            _ => continue,
        };
        if let Some((g, used_g)) = guessed {
            if used_g <= within {
                // A second guess, from what the first one measured: each drop
                // takes its texts' estimate and an equal share of the rest
                // (its line's marks, its reasons) off the rendering.
                let rest = used.saturating_sub(used_g).saturating_sub(gone_after[g]);
                let excess = used.saturating_sub(within);
                if let Some(k) = (lo + 1..g).find(|&k| gone_after[k] + rest * k / g >= excess) {
                    if fits(k)? {
                        hi = k;
                    } else {
                        lo = k;
                    }
                }
                let mut step = 1;
                while hi - lo > 1 {
                    let k = hi.saturating_sub(step).max(lo + 1);
                    if fits(k)? {
                        hi = k;
                        step *= 2;
                    } else {
                        lo = k;
                        break;
                    }
                }
            } else {
                lo = g;
                let mut step = 1;
                while hi - lo > 1 {
                    let k = (lo + step).min(hi - 1);
                    if fits(k)? {
                        hi = k;
                        break;
                    }
                    lo = k;
                    step *= 2;
                }
            }
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid)? {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return Ok(Some(after(hi)));
    }
    Ok(Some(after(most)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_synth::Rng;

    const CLAUDE: OutputCaps = OutputCaps {
        max_chars: Some(9_500),
        max_bytes: Some(9_500),
        max_tokens: None,
    };

    #[test]
    fn text_within_the_caps_fits() {
        assert_eq!(shrink("short", 1500, &CLAUDE), Shrink::Fits);
        assert_eq!(
            shrink(&"x".repeat(50_000), 1500, &OutputCaps::NONE),
            Shrink::Fits
        );
    }

    #[test]
    fn the_next_budget_follows_the_measured_ratio_and_always_shrinks() {
        let text = "lorem ipsum dolor ".repeat(1_000); // 18,000 chars
        let Shrink::To(next) = shrink(&text, 20_000, &CLAUDE) else {
            panic!("too long");
        };
        let expect = (estimate_tokens(&text) as f64 * (9_500.0 / 18_000.0) * 0.95).floor();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let expect = expect as usize;
        assert_eq!(next, expect);
        // A budget that the text does not use up still shrinks by 5%.
        let Shrink::To(next) = shrink(&text, 100, &CLAUDE) else {
            panic!("too long");
        };
        assert!(next <= 94, "{next}");
    }

    #[test]
    fn the_tighter_cap_decides_and_no_budget_left_is_never() {
        let text = "é".repeat(6_000); // 6,000 chars, 12,000 bytes
        let bytes_only = OutputCaps {
            max_bytes: Some(6_000),
            ..OutputCaps::NONE
        };
        assert!(matches!(shrink(&text, 5_000, &bytes_only), Shrink::To(_)));
        assert_eq!(
            shrink(
                &text,
                5_000,
                &OutputCaps {
                    max_chars: Some(6_000),
                    ..OutputCaps::NONE
                }
            ),
            Shrink::Fits
        );
        let tiny = OutputCaps {
            max_chars: Some(3),
            ..OutputCaps::NONE
        };
        assert_eq!(shrink(&"word ".repeat(10), 1, &tiny), Shrink::Never);
    }

    /// A packet of `sizes.len()` items (item i: a summary of `sizes[i]` words,
    /// score i; every third one hot) in the sections they cycle through.
    fn packet(sizes: &[usize]) -> Packet {
        let mut p = Packet::default();
        for (i, &n) in sizes.iter().enumerate() {
            let item = cairn_assemble::Item {
                id: format!("n{i}"),
                title: format!("Note {i}"),
                summary: "word ".repeat(n).trim_end().to_owned(),
                path: format!("notes/n{i}.md"),
                score: f64::from(u32::try_from(i).unwrap_or(0)),
                layer: if i % 3 == 2 { "hot" } else { "task" }.to_owned(),
                ..cairn_assemble::Item::default()
            };
            match i % 4 {
                0 => p.decisions.push(item),
                1 => p.constraints.push(item),
                2 => p.working_style.push(item),
                _ => p.recommended_notes.push(item),
            }
        }
        p
    }

    /// A rendering the size of the items' words, with a header per section that
    /// holds an item, a footer that counts the items left out, and a line that
    /// appears when no task item is left (so a drop can make it longer).
    #[allow(clippy::unnecessary_wraps)] // the shape of a renderer, which can fail
    fn render(p: &Packet) -> Result<String, ()> {
        let mut out = String::new();
        for (name, items) in p.sections() {
            if !items.is_empty() {
                out.push_str(&format!("## {name}\n"));
            }
            for i in items {
                out.push_str(&format!("- {}: {} [{}]\n", i.title, i.summary, i.path));
            }
        }
        if !p
            .sections()
            .iter()
            .any(|(_, v)| v.iter().any(|i| i.layer == "task"))
        {
            out.push_str("No note matches the task: the notes above are the ones every session starts with, whatever it is about.\n");
        }
        out.push_str(&format!("{} left out\n", p.budget.left_out_count));
        Ok(out)
    }

    /// Dropping one item per rendering: what `fewest_drops` must give.
    fn one_by_one<E: std::fmt::Debug>(
        mut p: Packet,
        render: impl Fn(&Packet) -> Result<String, E>,
        within: usize,
    ) -> Packet {
        while estimate_tokens(&render(&p).unwrap()) > within && p.drop_lowest() {}
        p
    }

    /// Checks `fewest_drops` against [`one_by_one`] for `p` at each of `withins`
    /// (budgets under what `p` renders to); returns how many were checked.
    fn agrees_with_one_by_one<E: std::fmt::Debug>(
        p: &Packet,
        render: impl Fn(&Packet) -> Result<String, E> + Copy,
        withins: impl Iterator<Item = usize>,
        what: &str,
    ) -> usize {
        let used = estimate_tokens(&render(p).unwrap());
        let mut seen = 0;
        for within in withins {
            let Ok(Some(got)) = fewest_drops(p, render, used, within) else {
                panic!("nothing to drop");
            };
            let want = one_by_one(p.clone(), render, within);
            assert_eq!(got, want, "{what} within {within}");
            seen += 1;
        }
        seen
    }

    #[test]
    fn fewest_drops_gives_what_one_drop_per_rendering_gives() {
        let mut seen = 0;
        for sizes in [
            vec![5, 40, 3, 80, 12, 0, 33, 7, 150, 2, 9, 60],
            vec![1; 30],
            vec![300, 1, 1, 1],
            vec![2, 500],
            vec![10],
            vec![1, 1, 0, 2, 0, 1],
        ] {
            let p = packet(&sizes);
            let used = estimate_tokens(&render(&p).unwrap());
            seen += agrees_with_one_by_one(&p, render, 0..used, &format!("sizes {sizes:?}"));
        }
        assert!(seen > 500, "{seen}");
        assert_eq!(fewest_drops(&Packet::default(), render, 10, 5), Ok(None));
    }

    #[test]
    fn fewest_drops_matches_one_drop_per_rendering_with_every_template() {
        let renderer = cairn_render::Renderer::builtin().unwrap();
        let mut rng = Rng::new(7, 0);
        let mut seen = 0;
        for _ in 0..8 {
            let n = 1 + rng.below(14);
            let sizes: Vec<usize> = (0..n).map(|_| rng.below(40)).collect();
            let mut p = packet(&sizes);
            p.query.task = "a task".to_owned();
            for target in Target::ALL {
                for format in Format::ALL {
                    let render = |p: &Packet| renderer.render(p, target, format);
                    let used = estimate_tokens(&render(&p).unwrap());
                    seen += agrees_with_one_by_one(
                        &p,
                        render,
                        (0..used).step_by(1 + used / 60),
                        &format!("{target:?} {format:?} {sizes:?}"),
                    );
                }
            }
        }
        assert!(seen > 3_000, "{seen}");
    }

    /// Fitting that knows which renderings do not read `used_tokens` makes the
    /// same text and packet as fitting that renders again to settle it, with
    /// fewer renderings for the prompt templates.
    #[test]
    fn settling_without_rendering_again_gives_the_same_output() {
        let renderer = cairn_render::Renderer::builtin().unwrap();
        let mut rng = Rng::new(13, 0);
        let mut saved = 0;
        for _ in 0..6 {
            let sizes: Vec<usize> = (0..2 + rng.below(16)).map(|_| rng.below(40)).collect();
            let mut start = packet(&sizes);
            start.query.task = "a task".to_owned();
            for target in Target::ALL {
                for format in Format::ALL {
                    let full = estimate_tokens(&renderer.render(&start, target, format).unwrap());
                    for limit in (full / 3..=full + 10).step_by(1 + full / 7) {
                        let count = std::cell::Cell::new(0);
                        let reads = std::cell::Cell::new(true);
                        let watching = |p: &Packet| {
                            count.set(count.get() + 1);
                            renderer.render_watching(p, target, format).map(|m| {
                                reads.set(m.reads_used_tokens);
                                m.text
                            })
                        };
                        let mut known = start.clone();
                        let out =
                            fit(&mut known, watching, format, limit, &|| reads.get()).unwrap();
                        let fewer = count.replace(0);
                        let rendering = |p: &Packet| {
                            count.set(count.get() + 1);
                            renderer.render(p, target, format)
                        };
                        let mut settled = start.clone();
                        let again = fit(&mut settled, rendering, format, limit, &|| true).unwrap();
                        let what = format!("{target:?} {format:?} {sizes:?} {limit}");
                        assert_eq!(out, again, "{what}");
                        assert_eq!(
                            serde_json::to_value(&known).unwrap(),
                            serde_json::to_value(&settled).unwrap(),
                            "{what}"
                        );
                        assert!(fewer <= count.get(), "{what}");
                        if format == Format::Prompt && out.is_some() {
                            assert!(fewer < count.get(), "{what}");
                        }
                        saved += count.get() - fewer;
                    }
                }
            }
        }
        assert!(saved > 100, "{saved}");
    }

    #[test]
    fn fewest_drops_renders_a_few_times_for_a_long_packet() {
        // A packet of 36 items of varied length, fitted to budgets that drop
        // from a few to most of them: the two guesses leave little to search.
        let renderer = cairn_render::Renderer::builtin().unwrap();
        let mut rng = Rng::new(11, 0);
        let (mut renders, mut fits) = (0, 0);
        for _ in 0..6 {
            let sizes: Vec<usize> = (0..36).map(|_| 5 + rng.below(30)).collect();
            let mut p = packet(&sizes);
            p.query.task = "a task".to_owned();
            let count = std::cell::Cell::new(0);
            let render = |p: &Packet| {
                count.set(count.get() + 1);
                renderer.render(p, Target::Claude, Format::Markdown)
            };
            let used = estimate_tokens(&render(&p).unwrap());
            for within in (used / 5..used * 9 / 10).step_by(used / 20) {
                count.set(0);
                let got = fewest_drops(&p, render, used, within).unwrap().unwrap();
                renders += count.get();
                fits += 1;
                assert_eq!(got, one_by_one(p.clone(), render, within));
            }
        }
        // 4.6 here; with the first guess alone (and the stretch's end always
        // rendered) it was 6.1.
        let mean = f64::from(renders) / f64::from(fits);
        assert!(mean <= 5.0, "{mean} renderings per fit over {fits} fits");
    }

    #[test]
    fn sure_drops_are_drops_whatever_the_bodies_say() {
        let renderer = cairn_render::Renderer::builtin().unwrap();
        let mut rng = Rng::new(3, 0);
        let (mut sure, mut cases) = (0, 0);
        for _ in 0..24 {
            let n = 2 + rng.below(20);
            let sizes: Vec<usize> = (0..n).map(|_| rng.below(30)).collect();
            // As assembled without bodies: a description, or the title.
            let mut bodiless = packet(&sizes);
            bodiless.query.task = format!("a task with a key AKIA{}", "Z".repeat(16));
            for (_, items) in bodiless.sections_mut() {
                for i in items.iter_mut() {
                    if rng.below(2) == 0 {
                        i.summary.clone_from(&i.title);
                    }
                }
            }
            // With bodies: each title fallback becomes what a body gives, short
            // or long; the task is redacted as before fitting.
            let mut full = bodiless.clone();
            for (_, items) in full.sections_mut() {
                for i in items.iter_mut() {
                    if i.summary == i.title {
                        i.summary = "said ".repeat(rng.below(25)).trim_end().to_owned();
                    }
                }
            }
            full.redact_texts();
            for target in [Target::Claude, Target::Generic] {
                for format in Format::ALL {
                    let render =
                        fitting_render(|p: &Packet| renderer.render(p, target, format), format);
                    let used = estimate_tokens(&render(&full).unwrap());
                    for within in (0..used).step_by(1 + used / 25) {
                        let dropped = sure_drops(&bodiless, &render, within);
                        let kept = one_by_one(full.clone(), &render, within);
                        for path in &dropped {
                            assert!(
                                !kept
                                    .sections()
                                    .iter()
                                    .any(|(_, v)| v.iter().any(|i| &i.path == path)),
                                "{path} is kept: {target:?} {format:?} within {within}"
                            );
                        }
                        sure += dropped.len();
                        cases += 1;
                    }
                }
            }
        }
        assert!(
            cases > 600 && sure > 600,
            "{cases} cases, {sure} sure drops"
        );
    }

    /// `packet(sizes)` with `listed` notes left out by section caps, listed.
    fn with_left_out(sizes: &[usize], listed: usize) -> Packet {
        let mut p = packet(sizes);
        for i in 0..listed {
            p.budget.left_out_count += 1;
            p.budget.left_out.push(cairn_assemble::LeftOut {
                path: format!("notes/left-out-{i}.md"),
                title: format!("A note left out by a section cap, number {i}"),
                section: "decisions".to_owned(),
                reason: "section cap (6)".to_owned(),
                score: 0.5,
                layer: "task".to_owned(),
            });
        }
        p
    }

    #[test]
    fn which_items_fit_does_not_depend_on_the_content_hash() {
        // Two working folders of one length and one token cost: two hashes.
        // An item at the budget's edge came and went with the hash's digits
        // (devmem's eval on two copies of one vault differed in one packet).
        let renderer = cairn_render::Renderer::builtin().unwrap();
        let render = |p: &Packet| renderer.render(p, Target::Claude, Format::Json);
        let mut rng = Rng::new(5, 0);
        let mut compared = 0;
        for _ in 0..30 {
            let sizes: Vec<usize> = (0..4 + rng.below(24)).map(|_| rng.below(30)).collect();
            let start = with_left_out(&sizes, 0);
            let full = estimate_tokens(&render(&start).unwrap());
            for limit in (full / 3..=full).step_by(1 + full / 40) {
                let fitted = |cwd: &str| {
                    let mut p = start.clone();
                    p.query.cwd = cwd.to_owned();
                    fit(&mut p, render, Format::Json, limit, &|| true)
                        .unwrap()
                        .map(|out| (p, out))
                };
                let (Some((a, out)), Some((b, _))) = (fitted("/tmp/x/aaaa"), fitted("/tmp/x/bbbb"))
                else {
                    continue;
                };
                assert_ne!(a.content_hash, b.content_hash);
                assert!(estimate_tokens(&out) <= limit);
                let items = |p: &Packet| -> Vec<String> {
                    p.sections()
                        .iter()
                        .flat_map(|(_, v)| v.iter().map(|i| i.path.clone()))
                        .collect()
                };
                assert_eq!(items(&a), items(&b), "limit {limit}");
                compared += 1;
            }
        }
        assert!(compared > 200, "{compared}");
    }

    #[test]
    fn a_json_list_of_left_out_notes_never_pushes_a_note_out() {
        let renderer = cairn_render::Renderer::builtin().unwrap();
        let render = |p: &Packet| renderer.render(p, Target::Claude, Format::Json);
        let mut rng = Rng::new(11, 0);
        let (mut trimmed, mut kept_more) = (0, 0);
        for _ in 0..30 {
            let sizes: Vec<usize> = (0..4 + rng.below(24)).map(|_| rng.below(30)).collect();
            let listed = rng.below(cairn_assemble::LEFT_OUT_LISTED + 1);
            let start = with_left_out(&sizes, listed);
            let full = estimate_tokens(&render(&start).unwrap());
            for limit in (full / 4..=full).step_by(1 + full / 12) {
                let mut p = start.clone();
                let Ok(Some(out)) = fit(&mut p, render, Format::Json, limit, &|| true) else {
                    continue;
                };
                assert!(estimate_tokens(&out) <= limit, "over {limit}");
                assert_eq!(out, render(&p).unwrap(), "the packet is what was rendered");
                assert_eq!(estimate_tokens(&out), p.budget.used_tokens);
                // The items are those fitting keeps with no list at all.
                let mut without = start.clone();
                without.budget.left_out.clear();
                assert!(
                    fit(&mut without, render, Format::Json, limit, &|| true)
                        .unwrap()
                        .is_some()
                );
                let items = |p: &Packet| -> Vec<String> {
                    p.sections()
                        .iter()
                        .flat_map(|(_, v)| v.iter().map(|i| i.path.clone()))
                        .collect()
                };
                assert_eq!(items(&p), items(&without), "limit {limit}");
                // The list: the first entries of the whole list (the notes the
                // fitting dropped, then those the caps left out), as many as fit.
                let mut whole = start.clone();
                while items(&whole).len() > items(&p).len() {
                    whole.drop_lowest();
                }
                let n = p.budget.left_out.len();
                assert_eq!(p.budget.left_out[..], whole.budget.left_out[..n]);
                if n < whole.budget.left_out.len() {
                    trimmed += 1;
                    // (measured as fitting measures: with the costliest hash)
                    let mut one_more = p.clone();
                    one_more.budget.left_out = whole.budget.left_out[..=n].to_vec();
                    one_more.content_hash = FITTING_HASH.to_owned();
                    assert!(
                        estimate_tokens(&render(&one_more).unwrap()) > limit,
                        "one more entry would have fit within {limit}"
                    );
                }
                if items(&p).len() > items(&one_by_one(start.clone(), render, limit)).len() {
                    kept_more += 1;
                }
            }
        }
        assert!(
            trimmed > 20 && kept_more > 20,
            "{trimmed} lists trimmed, {kept_more} packets kept more notes"
        );
    }

    #[test]
    fn the_token_cap_lowers_the_budget() {
        let codex = OutputCaps {
            max_tokens: Some(2_400),
            ..CLAUDE
        };
        assert_eq!(codex.cap_budget(6_000), 2_400);
        assert_eq!(codex.cap_budget(1_500), 1_500);
        assert_eq!(CLAUDE.cap_budget(6_000), 6_000);
    }
}
