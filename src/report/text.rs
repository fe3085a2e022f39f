//! Text renderer for terminals: readable without colour, sized for people.
//!
//! It starts with the counts (per severity, then per code), then lists errors before
//! warnings, grouped by code, at most [`Options::per_code`] lines per code and
//! [`Options::max_lines`] in all; info notes only with `--verbose`. It ends with what the run
//! did (objects, builds, files). `--verbose` lists everything; `--quiet` keeps the first line
//! and the errors. One diagnostic is always one line.

use std::fmt::Write;

use super::{Report, ReportedDiagnostic, Verdict};
use crate::diagnostic::Severity;

/// How much the text report shows.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Everything: info notes, every line of every code, every build and file.
    pub verbose: bool,
    /// The first line and the errors only.
    pub quiet: bool,
    /// Lines shown per code (unless verbose).
    pub per_code: usize,
    /// Diagnostic lines shown in all (unless verbose).
    pub max_lines: usize,
    /// Builds and files listed one by one up to this many (unless verbose).
    pub max_listed: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            verbose: false,
            quiet: false,
            per_code: 10,
            max_lines: 100,
            max_listed: 20,
        }
    }
}

impl Options {
    pub fn verbose() -> Self {
        Options {
            verbose: true,
            ..Options::default()
        }
    }
}

pub fn render(report: &Report, options: &Options) -> String {
    let mut out = String::new();
    let shown = |s: Severity| match s {
        Severity::Error => true,
        Severity::Warning => !options.quiet,
        Severity::Info => options.verbose,
    };
    let _ = writeln!(out, "{}", headline(report, options));
    let counts: Vec<_> = report
        .counts_by_code()
        .into_iter()
        .filter(|(_, s, _)| shown(*s))
        .collect();
    if !options.quiet {
        for (code, severity, n) in &counts {
            let _ = writeln!(out, "{n:>7} {:<7} {code}", severity.as_str());
        }
    }
    // The diagnostics, grouped by code in the order of the counts.
    let mut budget = if options.verbose {
        usize::MAX
    } else {
        options.max_lines
    };
    let mut left_out = 0;
    if !counts.is_empty() {
        let _ = writeln!(out);
    }
    for (code, severity, n) in &counts {
        if budget == 0 {
            left_out += n;
            continue;
        }
        let cap = if options.verbose {
            usize::MAX
        } else {
            options.per_code.min(budget)
        };
        for d in report
            .diagnostics
            .iter()
            .filter(|d| d.code == *code && d.severity == *severity)
            .take(cap)
        {
            let _ = writeln!(out, "{}", shorten(&line_of(d), options));
        }
        let printed = cap.min(*n);
        budget -= printed;
        if printed < *n {
            let _ = writeln!(
                out,
                "  … {} more {code} (--verbose lists all; --format concise prints one line each)",
                n - printed
            );
        }
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "\n… {left_out} more diagnostics of the codes above not listed (--verbose lists all)"
        );
    }
    if options.quiet {
        return out;
    }
    if !counts.is_empty() {
        let _ = writeln!(out);
    }
    if !report.objects.is_empty() {
        let _ = writeln!(out, "{}", objects_line(report));
    }
    if let Some(e) = report.summary.equivalence.as_ref().filter(|e| e.probes > 0) {
        let _ = writeln!(out, "Routing: {}", e.line());
    }
    if !report.units.is_empty() {
        let builds = report.build_counts();
        let _ = writeln!(
            out,
            "Deploy units ({}): {}{}",
            report.units.len(),
            report.unit_counts(),
            if builds.is_empty() {
                String::new()
            } else {
                format!("; builds: {builds}")
            }
        );
        for u in report.units.iter().take(list_cap(options)) {
            let _ = writeln!(out, "  {}", unit_line(u));
        }
        let more = report.units.len().saturating_sub(list_cap(options));
        if more > 0 {
            let _ = writeln!(out, "  … {more} more (--verbose lists all)");
        }
    }
    if !report.files.is_empty() {
        let _ = writeln!(
            out,
            "Files ({}): {}",
            report.files.len(),
            file_counts(report)
        );
        for f in report.files.iter().take(list_cap(options)) {
            let _ = writeln!(out, "  {} {}", f.action, f.path);
        }
        let more = report.files.len().saturating_sub(list_cap(options));
        if more > 0 {
            let _ = writeln!(out, "  … {more} more (--verbose lists all)");
        }
    }
    let s = &report.summary;
    let _ = writeln!(
        out,
        "Scanned {} files, {} documents.",
        s.files_scanned, s.documents
    );
    terminal_safe(out)
}

/// Longest line the default view prints; `--verbose` and `--format concise` print every line
/// whole.
const MAX_LINE_CHARS: usize = 400;

fn shorten(line: &str, options: &Options) -> String {
    if options.verbose || line.chars().count() <= MAX_LINE_CHARS {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(MAX_LINE_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// `kustomize apps/shop (verified) ← Application shop → (in-cluster)/shop, wave 1`.
fn unit_line(u: &super::UnitSummary) -> String {
    let mut line = format!("{} {}", u.kind.as_str(), u.unit);
    // A directory's build status says it again.
    if let Some(status) = u.status.filter(|s| *s != u.kind.as_str()) {
        let _ = write!(line, " ({status})");
    }
    let by: Vec<String> = u
        .deployed_by
        .iter()
        .map(|d| {
            let mut s = format!("{} → {}", d.label(), d.destination());
            if !d.depends_on.is_empty() {
                let _ = write!(s, ", after {}", d.depends_on.join(", "));
            }
            if let Some(w) = d.wave.filter(|w| *w != 0) {
                let _ = write!(s, ", wave {w}");
            }
            s
        })
        .collect();
    if !by.is_empty() {
        let _ = write!(line, " ← {}", crate::diagnostic::list_some(&by, 3));
    }
    line
}

fn list_cap(options: &Options) -> usize {
    if options.verbose {
        usize::MAX
    } else {
        options.max_listed
    }
}

/// The first line: the counts, what is hidden and how to see it.
fn headline(report: &Report, options: &Options) -> String {
    let n = &report.summary.notes;
    if report.objects.is_empty() && report.diagnostics.is_empty() && report.files.is_empty() {
        return format!(
            "Nothing to migrate: no Istio Gateway, VirtualService, DestinationRule or Ingress in {} files{}.",
            report.summary.files_scanned,
            suppressed_part(report)
        );
    }
    let info = if options.verbose || n.info == 0 {
        format!("{} info", n.info)
    } else {
        format!("{} info (--verbose shows them)", n.info)
    };
    format!(
        "{} errors, {} warnings, {info}{}; {} Istio and Ingress objects, {} files scanned.",
        n.error,
        n.warning,
        suppressed_part(report),
        report.objects.len(),
        report.summary.files_scanned
    )
}

fn suppressed_part(report: &Report) -> String {
    match report.summary.suppressed {
        0 => String::new(),
        k => format!("; {k} suppressed"),
    }
}

/// `Objects: 3 to migrate (Ingress 1, …): 1 translated, 2 partial → 6 generated (…)`.
fn objects_line(report: &Report) -> String {
    let mut kinds: std::collections::BTreeMap<&str, usize> = Default::default();
    let mut verdicts: std::collections::BTreeMap<&str, usize> = Default::default();
    for o in &report.objects {
        *kinds.entry(o.source.kind.as_str()).or_default() += 1;
        *verdicts.entry(o.verdict.as_str()).or_default() += 1;
    }
    let list = |m: &std::collections::BTreeMap<&str, usize>| {
        m.iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let verdict_order = [
        Verdict::Translated,
        Verdict::Partial,
        Verdict::Skipped,
        Verdict::Error,
    ];
    let verdict_list = verdict_order
        .iter()
        .filter_map(|v| {
            let n = verdicts.get(v.as_str())?;
            Some(format!("{n} {}", v.as_str()))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let generated: usize = report.summary.generated.values().sum();
    let generated_list = report
        .summary
        .generated
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Objects: {} to migrate ({}): {verdict_list}; {generated} generated ({generated_list})",
        report.objects.len(),
        list(&kinds),
    )
}

/// `2 create, 1 update`.
fn file_counts(report: &Report) -> String {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in &report.files {
        *counts.entry(f.action.as_str()).or_default() += 1;
    }
    counts
        .iter()
        .map(|(a, n)| format!("{n} {a}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `file:line:col: severity[code] Kind ns/name: message (field)`: one diagnostic, one line.
pub fn line_of(d: &ReportedDiagnostic) -> String {
    let subject = match d.subject_name() {
        s if s.is_empty() => String::new(),
        s => format!(" {s}:"),
    };
    format!(
        "{}:{}: {}[{}]{subject} {}{}",
        if d.file.is_empty() { "-" } else { &d.file },
        position_of(d),
        d.severity.as_str(),
        d.code,
        one_line(&d.message),
        field_of(d)
    )
}

/// The concise format: one line per diagnostic, `path:line:col: severity[code] message`,
/// nothing else.
pub fn concise(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let _ = writeln!(out, "{}", line_of(d));
    }
    terminal_safe(out)
}

/// `text` with every character that could drive a terminal or hide text (escape sequences,
/// carriage returns, bidirectional overrides; see [`crate::header::hides_text`]) written as
/// `\u{…}`, line breaks kept: repository content (host names, file names) reaches these
/// lines.
fn terminal_safe(text: String) -> String {
    let unsafe_char = |c: char| c != '\n' && crate::header::hides_text(c);
    if !text.chars().any(unsafe_char) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:X}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
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
