//! Diagnostics about user data. They are data, not errors: a run collects them and reports them.

use serde::Serialize;

/// How much a note matters to the reviewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was lost or is invalid; a human must act before merging.
    Error,
    /// Translated with a behaviour difference the reviewer should know about.
    Warning,
    /// Context: what was done and why.
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// One finding about one source object (or one file).
///
/// `code` is stable (`istio/fault-injection`, `ingress-nginx/auth-url`, ...) and documented in
/// `docs/notes.md`; `field` is the path of the input field it is about, when there is one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Note {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl Note {
    pub fn new(severity: Severity, code: impl Into<String>, message: impl Into<String>) -> Self {
        Note {
            code: code.into(),
            severity,
            message: message.into(),
            field: None,
        }
    }

    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Note::new(Severity::Error, code, message)
    }

    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Note::new(Severity::Warning, code, message)
    }

    pub fn info(code: impl Into<String>, message: impl Into<String>) -> Self {
        Note::new(Severity::Info, code, message)
    }

    /// Names the input field the note is about, e.g. `spec.http[0].fault`.
    pub fn at(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}
