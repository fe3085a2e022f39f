//! Panic isolation: a bug triggered by one file, object or build must cost that file, object
//! or build, not the run. [`catch`] runs a piece of work and turns a panic into an
//! `internal/panic` diagnostic that names what was being processed and asks for a report.
//!
//! The default panic hook still prints the panic's location on stderr, which is what a bug
//! report needs. The work must not leave shared state half-updated: every caller passes work
//! that only produces a value (loading one file, translating one object).

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::diagnostic::{Code, Diagnostic};

/// Runs `work`; a panic becomes an `internal/panic` diagnostic about `what` ("loading
/// apps/web.yaml").
pub fn catch<T>(what: &str, work: impl FnOnce() -> T) -> Result<T, Box<Diagnostic>> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        Box::new(Diagnostic::new(
            Code::InternalPanic,
            format!(
                "internal error while {what}: {message}. This is a bug in gateway-migrate; \
                 please report it (https://github.com/gateway-migrate/gateway-migrate/issues) \
                 with this file or a reduced copy. The rest of the run went on without it."
            ),
        ))
    })
}

/// Debug builds only (tests; not fuzzing builds, where a fuzzer could find the marker):
/// panics when `haystack` holds the marker of `stage`
/// (`gateway-migrate-test-panic-load`, `-translate`, `-build`), so that tests can check that
/// a panic there is isolated. Release builds compile this to nothing.
#[inline]
pub fn test_trigger(stage: &str, haystack: &[u8]) {
    #[cfg(all(debug_assertions, not(fuzzing)))]
    {
        let marker = format!("gateway-migrate-test-panic-{stage}");
        if haystack
            .windows(marker.len())
            .any(|w| w == marker.as_bytes())
        {
            panic!("test panic in {stage} (debug builds only)");
        }
    }
    #[cfg(not(all(debug_assertions, not(fuzzing))))]
    {
        let _ = (stage, haystack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_diagnostic_naming_the_work() {
        let ok = catch("adding", || 1 + 1);
        assert_eq!(ok.ok(), Some(2));
        let d = catch("loading a.yaml", || -> u8 { panic!("boom {}", 7) }).unwrap_err();
        assert_eq!(d.code, Code::InternalPanic);
        assert!(
            d.message.contains("while loading a.yaml: boom 7"),
            "{}",
            d.message
        );
        let d = catch("x", || std::panic::panic_any(42u8)).unwrap_err();
        assert!(d.message.contains("no message"));
    }

    #[test]
    #[cfg(debug_assertions)]
    fn the_test_trigger_fires_only_on_its_marker() {
        test_trigger("load", b"nothing here");
        let caught = catch("t", || {
            test_trigger("load", b"# gateway-migrate-test-panic-load")
        });
        assert!(caught.is_err());
        test_trigger("translate", b"# gateway-migrate-test-panic-load");
    }
}
