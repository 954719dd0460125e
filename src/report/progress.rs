//! The live progress bar: shown only when stderr is a terminal, outside CI (the rule of
//! [`crate::terminal::progress`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether to draw live progress: [`crate::terminal::progress`].
pub fn wanted() -> bool {
    crate::terminal::progress()
}

/// A bar of `len` steps with `label`, hidden when [`wanted`] is false.
pub fn bar(len: u64, label: &str) -> ProgressBar {
    if !wanted() {
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(label.to_string());
    bar
}

/// A counter without a known end (stress testing), hidden when [`wanted`] is false.
pub fn counter(label: &str) -> ProgressBar {
    if !wanted() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix} {pos} {msg}") {
        bar.set_style(style);
    }
    bar.set_prefix(label.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}
