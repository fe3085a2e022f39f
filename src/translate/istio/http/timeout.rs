//! Istio `timeout` → `timeouts.request` (GEP-2257 duration format).

use crate::note::Note;
use crate::translate::istio::duration;

/// The Gateway API form of the route timeout, or `None` (with a note) when it is not a duration.
pub fn request_timeout(timeout: &str, path: &str, notes: &mut Vec<Note>) -> Option<String> {
    match duration::to_gateway(timeout) {
        Some(d) => {
            if d != timeout {
                notes.push(
                    Note::info(
                        "istio/timeout-format",
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
                Note::error(
                    "istio/invalid-duration",
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
