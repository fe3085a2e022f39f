//! Progress on a terminal: one line on stderr naming the phase the run is in (scan,
//! translate, validate, plan, render, check, write), with a bar where the amount of work is
//! known. Hidden unless asked for and stderr is a terminal; the command layer does not ask
//! in CI or with `--quiet`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A handle on the progress line; clones share it. The default draws nothing.
#[derive(Debug, Clone, Default)]
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// Progress drawn on stderr when `wanted` and stderr is a terminal.
    pub fn new(wanted: bool) -> Progress {
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::new_spinner();
        // The spinner turns on its own, so a long phase never looks like a hang.
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress(Some(bar))
    }

    /// Starts a phase: `message`, and a bar of `len` steps when the amount is known.
    pub fn phase(&self, message: &str, len: Option<usize>) {
        let Some(bar) = &self.0 else {
            return;
        };
        let template = match len {
            Some(_) => "{spinner} {msg} {pos}/{len} {wide_bar} {elapsed}",
            None => "{spinner} {msg} {elapsed}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_length(len.map_or(0, |l| l as u64));
        bar.set_position(0);
        bar.reset_elapsed();
        bar.set_message(message.to_string());
    }

    /// One step of the current phase done (thread-safe).
    pub fn step(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    /// Removes the line.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
