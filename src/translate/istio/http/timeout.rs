//! Istio `timeout` → `timeouts.request` (GEP-2257 duration format).

use crate::diagnostic::{Code, Diagnostic};
use crate::translate::istio::duration;

/// The Gateway API form of the route timeout, or `None` (with a note) when it is not a duration.
pub(super) fn request_timeout(
    timeout: &str,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<String> {
    match duration::to_gateway(timeout) {
        Some(d) => {
            if d != timeout {
                notes.push(
                    Diagnostic::new(
                        Code::IstioTimeoutFormat,
                        format!(
                            "timeout '{timeout}' written as '{d}' (Gateway API duration format)"
                        ),
                    )
                    .at(path.to_string()),
                );
            }
            Some(d)
        }
        None => {
            notes.push(
                Diagnostic::new(
                    Code::IstioInvalidDuration,
                    format!(
                        "timeout '{timeout}' is not a duration Gateway API can express; dropped"
                    ),
                )
                .at(path.to_string()),
            );
            None
        }
    }
}
