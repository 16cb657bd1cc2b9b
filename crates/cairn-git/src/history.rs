//! Which commits touched which files: an incremental history cache (not yet).

/// Placeholder.
#[derive(Debug, Clone, Copy, Default)]
pub struct History;
/// Placeholder.
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryLimits;
/// Placeholder.
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryUpdate;
/// Placeholder.
#[derive(Debug, Clone, Copy, Default)]
pub struct TouchCount;
/// Placeholder.
pub fn touch_counts() {}
