//! Fitting a rendered packet to a client's caps through the token budget.
//!
//! The engine renders a packet within a token budget by dropping its least valuable
//! items whole ([`cairn_engine`]'s `Packet::drop_lowest`). Clients cap characters or
//! bytes, not cairn's tokens, so when a rendering is too long this derives a smaller
//! token budget from the measured ratio and renders again, until the text fits. Text is
//! never cut.

use cairn_render::estimate_tokens;

use crate::client::ContextLimits;

/// One rendering of the packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The text.
    pub text: String,
    /// The token budget it was rendered within (the profile's when none was asked for).
    pub budget: usize,
}

/// Why no rendering fits.
#[derive(Debug, thiserror::Error)]
pub enum FitError<E: std::error::Error + 'static> {
    /// Rendering failed (for instance the budget cannot hold even an empty packet).
    #[error(transparent)]
    Render(E),
    /// Budgets kept shrinking without the text fitting.
    #[error("the packet does not fit in {max_chars} characters at any token budget")]
    NoFit {
        /// The character cap.
        max_chars: usize,
    },
}

/// Most renderings tried before giving up (each shrinks the budget by at least 5%).
const MAX_ATTEMPTS: usize = 24;

/// Renders with `render(budget)` (`None` = the profile's budget) and shrinks the budget
/// until the text is within `limits`. `requested` is the caller's budget, if any.
pub fn fit_to_limits<E: std::error::Error + 'static>(
    limits: ContextLimits,
    requested: Option<usize>,
    mut render: impl FnMut(Option<usize>) -> Result<Rendered, E>,
) -> Result<Rendered, FitError<E>> {
    let cap = |b: usize| limits.max_tokens.map_or(b, |m| b.min(m));
    let mut out = render(requested.map(cap)).map_err(FitError::Render)?;
    for _ in 0..MAX_ATTEMPTS {
        if let Some(max) = limits.max_tokens
            && out.budget > max
        {
            out = render(Some(max)).map_err(FitError::Render)?;
            continue;
        }
        let chars = out.text.chars().count();
        let bytes = out.text.len();
        if chars <= limits.max_chars && bytes <= limits.max_bytes {
            return Ok(out);
        }
        let ratio = (limits.max_chars as f64 / chars as f64)
            .min(limits.max_bytes as f64 / bytes.max(1) as f64);
        let measured = estimate_tokens(&out.text).min(out.budget);
        let next = ((measured as f64 * ratio * 0.95).floor() as usize)
            .min(out.budget.saturating_sub(1).max(1) * 95 / 100);
        if next == 0 {
            break;
        }
        out = render(Some(next)).map_err(FitError::Render)?;
    }
    Err(FitError::NoFit {
        max_chars: limits.max_chars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("budget {0} too small")]
    struct TooSmall(usize);

    /// A fake packet: whole items, best first, dropped from the end to fit the budget.
    fn renderer(
        items: Vec<String>,
        default_budget: usize,
        calls: &mut Vec<Option<usize>>,
    ) -> impl FnMut(Option<usize>) -> Result<Rendered, TooSmall> + '_ {
        move |b| {
            calls.push(b);
            let budget = b.unwrap_or(default_budget);
            let header = "<cairn-memory>\n";
            if estimate_tokens(header) > budget {
                return Err(TooSmall(budget));
            }
            let mut text = header.to_owned();
            for it in &items {
                let next = format!("{text}- {it}\n");
                if estimate_tokens(&next) > budget {
                    break;
                }
                text = next;
            }
            Ok(Rendered { text, budget })
        }
    }

    fn items(n: usize, width: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("item{i:03} {}", "lorem ipsum dolor ".repeat(width)))
            .collect()
    }

    #[test]
    fn a_rendering_within_the_caps_is_kept_as_is() {
        let mut calls = Vec::new();
        let out = fit_to_limits(
            crate::Client::Claude.limits(),
            None,
            renderer(items(5, 2), 1500, &mut calls),
        )
        .unwrap();
        assert_eq!(calls, vec![None]);
        assert_eq!(out.budget, 1500);
    }

    #[test]
    fn characters_bind_before_tokens_and_items_stay_whole() {
        for client in crate::Client::ALL {
            let all = items(200, 6);
            let mut calls = Vec::new();
            let out = fit_to_limits(
                client.limits(),
                Some(20_000),
                renderer(all.clone(), 1500, &mut calls),
            )
            .unwrap();
            let limits = client.limits();
            assert!(out.text.chars().count() <= limits.max_chars, "{client}");
            assert!(out.text.len() <= limits.max_bytes, "{client}");
            if let Some(m) = limits.max_tokens {
                assert!(estimate_tokens(&out.text) <= m, "{client}");
            }
            // Whole items only, in order, and the budget was not wasted.
            let lines: Vec<&str> = out.text.lines().skip(1).collect();
            for (line, item) in lines.iter().zip(&all) {
                assert_eq!(*line, format!("- {item}"));
            }
            assert!(
                out.text.chars().count() > limits.max_chars * 3 / 4,
                "{client}: only {} chars",
                out.text.chars().count()
            );
            assert!(calls.len() <= 6, "{client}: {calls:?}");
        }
    }

    #[test]
    fn codex_token_cap_applies_to_the_profile_budget() {
        let mut calls = Vec::new();
        let out = fit_to_limits(
            crate::Client::Codex.limits(),
            None,
            renderer(items(3, 1), 6000, &mut calls),
        )
        .unwrap();
        assert_eq!(calls, vec![None, Some(2400)]);
        assert_eq!(out.budget, 2400);
    }

    #[test]
    fn impossible_caps_are_errors_not_cut_text() {
        let limits = |max_chars| ContextLimits {
            max_chars,
            max_bytes: usize::MAX,
            max_tokens: None,
        };
        // The shrunk budget cannot hold the packet's frame: the renderer's error.
        let mut calls = Vec::new();
        let err =
            fit_to_limits(limits(20), None, renderer(items(3, 1), 1500, &mut calls)).unwrap_err();
        assert!(matches!(err, FitError::Render(TooSmall(_))), "{err}");
        // No budget left to try at all.
        let mut calls = Vec::new();
        let err =
            fit_to_limits(limits(3), None, renderer(items(3, 1), 1500, &mut calls)).unwrap_err();
        assert!(matches!(err, FitError::NoFit { max_chars: 3 }), "{err}");
    }
}
