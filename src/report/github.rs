//! GitHub workflow annotations: `::error file=…,line=…,title=…::message`.
//!
//! GitHub shows at most 10 annotations of each level per step and drops the rest without a
//! word, so findings are ranked (errors first, then by file and line) and at most 10 per level
//! are emitted; when any were left out, a final `::notice` says how many (and the notices
//! themselves stop at 9 to leave room for it). The complete text report is printed first,
//! folded in a group, with workflow commands stopped so that nothing quoted from the
//! repository's YAML can run as a command.

use std::fmt::Write;

use sha2::{Digest, Sha256};

use super::{Report, ReportedDiagnostic};
use crate::diagnostic::Severity;

/// Annotations GitHub displays per level and step.
pub const PER_LEVEL_LIMIT: usize = 10;

/// One diagnostic with a place in the repository.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Annotation {
    pub severity: Severity,
    pub file: String,
    pub line: usize,
    pub column: Option<usize>,
    pub end_line: Option<usize>,
    pub title: String,
    pub message: String,
}

/// Every diagnostic of the report as an annotation at its field, ranked.
pub fn annotations(report: &Report) -> Vec<Annotation> {
    let mut all: Vec<Annotation> = report
        .diagnostics
        .iter()
        .map(|d| Annotation {
            severity: d.severity,
            file: d.file.clone(),
            line: d.line,
            column: d.column,
            end_line: d.end_line,
            title: format!("gateway-migrate {}", d.code),
            message: message(d),
        })
        .collect();
    all.sort();
    all.dedup();
    all
}

/// `Kind ns/name: message (field)`, plus the rule broken when the message does not already
/// say it (a CEL finding's message is its rule). Shared with the SARIF renderer.
pub(super) fn message(d: &ReportedDiagnostic) -> String {
    let mut message = match &d.subject {
        Some(_) => format!("{}: {}", d.subject_name(), d.message),
        None => d.message.clone(),
    };
    match (&d.field, &d.generated_field) {
        (Some(f), _) => {
            let _ = write!(message, " ({f})");
        }
        (None, Some(g)) => {
            let _ = write!(message, " (generated {g})");
        }
        (None, None) => {}
    }
    if let Some(rule) = d
        .rule
        .as_deref()
        .filter(|r| !r.is_empty() && *r != d.message)
    {
        let _ = write!(message, " [rule: {rule}]");
    }
    message
}

/// Escapes the message part of a workflow command.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`file=`, `title=`) of a workflow command.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let log = super::text::render(report, &super::text::Options::verbose());
    // A token the repository's content cannot predict: it depends on the whole log.
    let token: String = Sha256::digest(log.as_bytes())
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect();
    let _ = writeln!(out, "::group::gateway-migrate report");
    let _ = writeln!(out, "::stop-commands::{token}");
    out.push_str(&log);
    if !log.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "::{token}::");
    let _ = writeln!(out, "::endgroup::");

    let all = annotations(report);
    let count = |s: Severity| all.iter().filter(|a| a.severity == s).count();
    let omitted_errors = count(Severity::Error).saturating_sub(PER_LEVEL_LIMIT);
    let omitted_warnings = count(Severity::Warning).saturating_sub(PER_LEVEL_LIMIT);
    let notices = count(Severity::Info);
    let needs_summary = omitted_errors + omitted_warnings > 0 || notices > PER_LEVEL_LIMIT;
    let notice_cap = if needs_summary {
        PER_LEVEL_LIMIT - 1
    } else {
        PER_LEVEL_LIMIT
    };
    let omitted_notices = notices.saturating_sub(notice_cap);
    let mut emitted = [0usize; 3];
    for a in &all {
        let (slot, cap) = match a.severity {
            Severity::Error => (0, PER_LEVEL_LIMIT),
            Severity::Warning => (1, PER_LEVEL_LIMIT),
            Severity::Info => (2, notice_cap),
        };
        if emitted[slot] >= cap {
            continue;
        }
        emitted[slot] += 1;
        let mut place = format!("file={},line={}", escape_property(&a.file), a.line.max(1));
        if let Some(end) = a.end_line.filter(|e| *e > a.line) {
            let _ = write!(place, ",endLine={end}");
        } else if let Some(col) = a.column {
            // GitHub takes a column only for a single-line annotation.
            let _ = write!(place, ",col={col}");
        }
        let _ = writeln!(
            out,
            "::{} {place},title={}::{}",
            command(a.severity),
            escape_property(&a.title),
            escape_data(&a.message)
        );
    }
    if needs_summary {
        let _ = writeln!(
            out,
            "::notice title=gateway-migrate::{}",
            escape_data(&format!(
                "{} more annotations were not shown (GitHub shows {PER_LEVEL_LIMIT} per level): {omitted_errors} errors, {omitted_warnings} warnings, {omitted_notices} notices. The log above and the job summary list them all.",
                omitted_errors + omitted_warnings + omitted_notices
            ))
        );
    }
    out
}

/// Step outputs (`name=value` lines for `$GITHUB_OUTPUT`) that describe the run: whether
/// files changed (or would), how many objects were translated, the error and warning counts.
pub fn step_outputs(report: &Report, changed: bool) -> String {
    format!(
        "changed={changed}\nobjects-translated={}\nerrors={}\nwarnings={}\n",
        report.objects.len(),
        report.summary.notes.error,
        report.summary.notes.warning
    )
}
