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
const FIT_SLACK_TOKENS: usize = 32;

impl Engine {
    /// Renders, dropping the least valuable items until the output fits `limit` tokens.
    pub(crate) fn fit_tokens(
        &self,
        packet: &mut Packet,
        target: Target,
        format: Format,
        limit: usize,
    ) -> Result<String, EngineError> {
        // From here on the hash has its full length, whatever items are dropped.
        packet.update_content_hash();
        // Whether an item was dropped since the content hash was computed.
        let mut stale = false;
        loop {
            // A text well over the limit stays over whatever its `used_tokens` and
            // content hash say (each changes it by a few characters): drop the next
            // item on one rendering, without the fixed point below.
            let mut made = self.renderer.render(packet, target, format)?;
            if estimate_tokens(&made) > limit + FIT_SLACK_TOKENS && packet.drop_lowest() {
                stale = true;
                continue;
            }
            if stale {
                packet.update_content_hash();
                made = self.renderer.render(packet, target, format)?;
            }
            // `used_tokens` is part of the output: iterate to its fixed point, at
            // most four renderings, the first being the one just made.
            let mut reuse = Some(made);
            let mut out = String::new();
            let mut fits = false;
            for _ in 0..4 {
                out = match reuse.take() {
                    Some(made) => made,
                    None => self.renderer.render(packet, target, format)?,
                };
                let used = estimate_tokens(&out);
                fits = used <= limit;
                if used == packet.budget.used_tokens {
                    break;
                }
                packet.budget.used_tokens = used;
            }
            if fits && estimate_tokens(&out) == packet.budget.used_tokens {
                return Ok(out);
            }
            if !packet.drop_lowest() {
                return Err(EngineError::BudgetTooSmall {
                    budget: limit,
                    needed: packet.budget.used_tokens,
                    format: format.as_str().to_owned(),
                });
            }
            stale = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
