//! The progress bar of a long index build: on stderr, shown only when the build
//! has taken more than a second and stderr is a terminal.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use cairn_engine::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on stderr that appears only when a build has taken more than a
/// second and stderr is a terminal.
pub(crate) struct Bar {
    inner: ProgressBar,
    started: Instant,
    shown: AtomicBool,
    tty: bool,
}

impl Bar {
    pub(crate) fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("cairn: {msg} {wide_bar} {pos}/{len} ({eta})")
        {
            bar.set_style(style);
        }
        Self {
            inner: bar,
            started: Instant::now(),
            shown: AtomicBool::new(false),
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn maybe_show(&self) {
        if self.tty
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() >= Duration::from_secs(1)
        {
            self.shown.store(true, Ordering::Relaxed);
            self.inner.set_draw_target(ProgressDrawTarget::stderr());
            self.inner.enable_steady_tick(Duration::from_millis(200));
        }
    }
}

impl Progress for Bar {
    fn begin(&self, total: u64, phase: &str) {
        if total > 0 {
            self.inner.set_length(total);
            self.inner.set_position(0);
        }
        self.inner.set_message(phase.to_owned());
        self.maybe_show();
    }

    fn advance(&self, n: u64) {
        self.inner.inc(n);
        self.maybe_show();
    }

    fn end(&self) {
        self.inner.finish_and_clear();
    }
}
