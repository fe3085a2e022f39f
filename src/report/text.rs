//! Text renderer for terminals: readable without colour, one line per finding.

use std::fmt::Write;

use super::{Report, ReportedDiagnostic, Verdict};
use crate::diagnostic::Severity;

pub fn render(report: &Report, verbose: bool) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let _ = writeln!(
        out,
        "Scanned {} files, {} documents.",
        s.files_scanned, s.documents
    );
    let translatable: usize = report.objects.len();
    let _ = writeln!(out, "Objects to migrate: {translatable}");
    for (kind, n) in &s.objects {
        let _ = writeln!(out, "  {kind}: {n}");
    }
    if !s.generated.is_empty() {
        let _ = writeln!(out, "Generated:");
        for (kind, n) in &s.generated {
            let _ = writeln!(out, "  {kind}: {n}");
        }
    }
    for (position, obj) in report.objects.iter().enumerate() {
        let src = &obj.source;
        let show = verbose || obj.verdict != Verdict::Translated;
        if !show {
            continue;
        }
        let _ = writeln!(
            out,
            "{}:{}: {} {}/{}: {}",
            src.file,
            src.line,
            src.kind,
            src.namespace,
            src.name,
            obj.verdict.as_str()
        );
        for note in report.notes_of(position) {
            if !verbose && note.severity == Severity::Info {
                continue;
            }
            let _ = writeln!(
                out,
                "  {}:{}: {}[{}]{}: {}",
                note.file,
                position_of(note),
                note.severity.as_str(),
                note.code,
                field_of(note),
                one_line(&note.message)
            );
        }
    }
    for d in report.file_diagnostics() {
        // Skipped paths have their own lines below.
        if d.code.family() == "walk" {
            continue;
        }
        let _ = writeln!(
            out,
            "{}:{}: {}[{}]: {}",
            d.file,
            position_of(d),
            d.severity.as_str(),
            d.code,
            one_line(&d.message)
        );
    }
    for f in report.findings() {
        if !verbose && f.severity == Severity::Info {
            continue;
        }
        let _ = writeln!(
            out,
            "{}:{}: {}[{}]{}: {}: {}",
            f.file,
            position_of(f),
            f.severity.as_str(),
            f.code,
            field_of(f),
            f.subject_name(),
            one_line(&f.message)
        );
    }
    for skip in &report.skipped {
        let _ = writeln!(out, "skipped {}: {}", skip.path, one_line(&skip.reason));
    }
    if !report.builds.is_empty() {
        let _ = writeln!(
            out,
            "Builds ({}): {}",
            report.builds.len(),
            report.build_counts()
        );
        for b in &report.builds {
            let _ = writeln!(out, "  {} {}", b.status, b.build);
        }
    }
    if !report.files.is_empty() {
        let _ = writeln!(out, "Files ({}):", report.files.len());
        for f in &report.files {
            let _ = writeln!(out, "  {} {}", f.action, f.path);
        }
    }
    let _ = writeln!(
        out,
        "Notes: {} errors, {} warnings, {} info.",
        s.notes.error, s.notes.warning, s.notes.info
    );
    out
}

/// Keeps one finding on one line: line breaks inside a message become spaces.
fn one_line(text: &str) -> String {
    text.split(['\r', '\n'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `line` or `line:column`.
fn position_of(d: &ReportedDiagnostic) -> String {
    match d.column {
        Some(c) => format!("{}:{c}", d.line),
        None => d.line.to_string(),
    }
}

/// ` (field)`, naming the generated object's field when the source has none.
fn field_of(d: &ReportedDiagnostic) -> String {
    match (&d.field, &d.generated_field) {
        (Some(f), _) => format!(" ({f})"),
        (None, Some(g)) => format!(" (generated {g})"),
        (None, None) => String::new(),
    }
}
