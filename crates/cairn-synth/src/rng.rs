//! The generator's random numbers: `SplitMix64` streams, stable across versions,
//! so a seed always gives the same vault.

/// `SplitMix64`: small, fast, and stable across versions (unlike a library's default RNG).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The stream `stream` of `seed`.
    #[must_use]
    pub fn new(seed: u64, stream: u64) -> Self {
        Rng(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n.max(1) as u64).unwrap_or(0)
    }

    pub(crate) fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    pub(crate) fn word(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }

    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub(crate) fn weighted(&mut self, xs: &[(&'static str, u32)]) -> &'static str {
        let total: u32 = xs.iter().map(|(_, w)| w).sum();
        let mut r = u32::try_from(self.next() % u64::from(total)).unwrap_or(0);
        for (x, w) in xs {
            if r < *w {
                return x;
            }
            r -= w;
        }
        xs[0].0
    }

    pub(crate) fn date(&mut self) -> String {
        let year = 2023 + self.below(4);
        format!("{year}-{:02}-{:02}", 1 + self.below(12), 1 + self.below(28))
    }
}
