//! Fields the typed model does not know (`extra`): each becomes a note, so nothing in the input
//! is dropped silently.

use crate::diagnostic::{Code, Diagnostic};
use crate::model::istio::Extra;

/// One `istio/unknown-field` warning per field in `extra`, at `path.<field>`.
pub(super) fn report(extra: &Extra, path: &str, notes: &mut Vec<Diagnostic>) {
    report_except(extra, path, &[], notes);
}

/// Like [`report`], for objects whose `extra` may hold fields the caller handles itself.
pub(super) fn report_except(
    extra: &Extra,
    path: &str,
    handled: &[&str],
    notes: &mut Vec<Diagnostic>,
) {
    for key in extra.keys().filter(|k| !handled.contains(&k.as_str())) {
        notes.push(
            Diagnostic::new(
                Code::IstioUnknownField,
                format!("field '{key}' is not part of the Istio API this tool knows; it was not translated"),
            )
            .at(format!("{path}.{key}")),
        );
    }
}
