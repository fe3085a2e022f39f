//! Text renderer for terminals: readable without colour, one line per finding.

use std::fmt::Write;

use super::{Report, Verdict};

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
    for obj in &report.objects {
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
        for note in &obj.notes {
            if !verbose && note.severity == crate::note::Severity::Info {
                continue;
            }
            let field = note
                .field
                .as_deref()
                .map(|f| format!(" ({f})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}[{}]{}: {}",
                note.severity.as_str(),
                note.code,
                field,
                one_line(&note.message)
            );
        }
    }
    for d in &report.diagnostics {
        let _ = writeln!(
            out,
            "{}:{}: {}[{}]: {}",
            d.file,
            d.line,
            d.severity.as_str(),
            d.code,
            one_line(&d.message)
        );
    }
    for f in &report.findings {
        if !verbose && f.severity == crate::note::Severity::Info {
            continue;
        }
        let field = if f.path.is_empty() {
            String::new()
        } else {
            format!(" ({})", f.path)
        };
        let _ = writeln!(
            out,
            "{}:{}: {}[{}]{}: {} {}/{}: {}",
            f.file,
            f.line,
            f.severity.as_str(),
            f.code,
            field,
            f.kind,
            f.namespace,
            f.name,
            f.message
        );
    }
    for skip in &report.skipped {
        let _ = writeln!(out, "skipped {}: {}", skip.path, one_line(&skip.reason));
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
