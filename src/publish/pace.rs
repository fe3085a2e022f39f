//! Spacing of GitHub's mutating requests, shared by every client that writes with one token.
//!
//! GitHub asks integrators to leave at least a second between content-creating requests
//! ("Best practices for using the REST API": avoid concurrent requests, wait one second
//! between mutations). One `pr` run uses one client; `bulk run` publishes many repositories
//! with one token, so the clients of all of them share one [`Pacer`] and the spacing holds
//! across repositories.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// When the last mutating request was answered. Clones share the same clock.
#[derive(Debug, Clone, Default)]
pub struct Pacer {
    last: Arc<Mutex<Option<Instant>>>,
}

impl Pacer {
    pub fn new() -> Pacer {
        Pacer::default()
    }

    /// How long to wait before the next mutation may be sent, `interval` after the last one.
    pub fn wait_needed(&self, interval: Duration) -> Duration {
        match *self.last.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(last) => interval.saturating_sub(last.elapsed()),
            None => Duration::ZERO,
        }
    }

    /// Records that a mutation was just sent and answered.
    pub fn mark(&self) {
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_clock() {
        let a = Pacer::new();
        let b = a.clone();
        assert_eq!(b.wait_needed(Duration::from_secs(1)), Duration::ZERO);
        a.mark();
        let left = b.wait_needed(Duration::from_secs(1));
        assert!(left > Duration::from_millis(900), "{left:?}");
        assert_eq!(b.wait_needed(Duration::ZERO), Duration::ZERO);
    }
}
