//! Progress on a terminal: one line on stderr naming the phase the run is in (scan,
//! translate, validate, plan, render, check, write), with a bar where the amount of work is
//! known. Hidden unless asked for and stderr is a terminal; the command layer does not ask
//! in CI or with `--quiet`.
//!
//! With `GATEWAY_MIGRATE_TIMINGS` set in the environment, each phase's wall time is also
//! printed on stderr when it ends (`bench/run` and profiling use it), whatever the terminal.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// A handle on the progress line; clones share it. The default draws nothing.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    bar: Option<ProgressBar>,
    /// The phase running and when it started, when timings were asked for.
    timings: Option<Arc<Mutex<Option<RunningPhase>>>>,
}

/// A phase's name and when it started.
type RunningPhase = (String, Instant);

/// The environment variable that turns phase timings on.
pub const TIMINGS_ENV: &str = "GATEWAY_MIGRATE_TIMINGS";

impl Progress {
    /// Progress drawn on stderr when `wanted` and stderr is a terminal.
    pub fn new(wanted: bool) -> Progress {
        let timings = std::env::var_os(TIMINGS_ENV).map(|_| Arc::new(Mutex::new(None)));
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress { bar: None, timings };
        }
        let bar = ProgressBar::new_spinner();
        // The spinner turns on its own, so a long phase never looks like a hang.
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress {
            bar: Some(bar),
            timings,
        }
    }

    /// Ends the running phase's timing and starts `next`'s (none: the run ends).
    fn time(&self, next: Option<&str>) {
        let Some(timings) = &self.timings else {
            return;
        };
        let mut running = timings.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((phase, started)) = running.take() {
            eprintln!(
                "timing: {:>8.1} ms  {:>6} MB resident at the end  {phase}",
                started.elapsed().as_secs_f64() * 1000.0,
                resident_mb().map_or("?".to_string(), |mb| mb.to_string()),
            );
        }
        *running = next.map(|n| (n.to_string(), Instant::now()));
    }

    /// Starts a phase: `message`, and a bar of `len` steps when the amount is known.
    pub fn phase(&self, message: &str, len: Option<usize>) {
        self.time(Some(message));
        let Some(bar) = &self.bar else {
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
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// Removes the line.
    pub fn finish(&self) {
        self.time(None);
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The process's resident memory in MB (Linux `/proc/self/status`), for timings.
fn resident_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
