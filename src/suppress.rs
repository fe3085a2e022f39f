//! Suppressions: diagnostics a team has read and accepted.
//!
//! Two sources, both naming codes (`istio/retries`) or families (`istio/*`):
//! - an inline comment `# gateway-migrate: ignore[CODE, …] reason`, on the line of the field a
//!   diagnostic is about (or on comment lines directly above it), or on the object's first
//!   line (or the comments above it), which covers every diagnostic of that object;
//! - `ignore:` rules of the configuration, by code and path glob.
//!
//! A suppressed diagnostic leaves the run's diagnostics (so it counts for nothing, exit code
//! included) and is kept in [`Suppressed`] for the report's counts. A suppression that
//! matched nothing is reported (`suppress/unused`), unless its code belongs to a stage the
//! run did not run (rendering with `--no-render`, staleness outside `check`), and so is a
//! malformed comment (`suppress/invalid`).

use std::collections::BTreeMap;

use crate::config::Config;
use crate::diagnostic::{Code, CodePattern, Diagnostic};
use crate::scan::{Locator, Scan};

/// What marks a suppression comment.
const MARKER: &str = "gateway-migrate:";

/// A diagnostic that a suppression accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    /// `file:line` of the comment, or `config ignore[N]`.
    pub by: String,
    pub reason: Option<String>,
}

/// What applying the suppressions gave.
#[derive(Debug, Default)]
pub struct Applied {
    /// The diagnostics no suppression matched, in their order.
    pub kept: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
    /// `suppress/unused` and `suppress/invalid` diagnostics.
    pub notes: Vec<Diagnostic>,
}

/// Which diagnostics an inline comment covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Diagnostics resolved to this line.
    Line(usize),
    /// Every diagnostic of the document (counting documents with content, from 0).
    Document(usize),
}

#[derive(Debug)]
struct InlineSuppression {
    line: usize,
    column: usize,
    scope: Scope,
    patterns: Vec<(CodePattern, bool)>,
    reason: Option<String>,
}

/// Line ranges of a file's documents: `(first content line, last line)`, 1-based.
struct DocumentLines(Vec<(usize, usize)>);

impl DocumentLines {
    fn of(text: &str, lines: &[&str], spans: &[crate::load::split::Span]) -> DocumentLines {
        DocumentLines(
            spans
                .iter()
                .map(|span| {
                    let body = text.get(span.start..span.end).unwrap_or("");
                    let last = span.line + body.matches('\n').count();
                    let first = (span.line..=last)
                        .find(|&n| {
                            lines
                                .get(n - 1)
                                .is_some_and(|l| is_content(l) && l.trim() != "---")
                        })
                        .unwrap_or(span.line);
                    (first, last)
                })
                .collect(),
        )
    }

    /// The document whose first content line is `line`.
    fn starting_at(&self, line: usize) -> Option<usize> {
        self.0.iter().position(|(first, _)| *first == line)
    }

    /// The document holding `line`.
    fn holding(&self, line: usize) -> Option<usize> {
        self.0
            .iter()
            .position(|(first, last)| *first <= line && line <= *last)
    }
}

/// Neither blank nor a comment.
fn is_content(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// Reads the suppression comments of one file; malformed ones become `suppress/invalid`.
fn parse_file(
    file: &str,
    lines: &[&str],
    documents: &DocumentLines,
    notes: &mut Vec<Diagnostic>,
) -> Vec<InlineSuppression> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let number = i + 1;
        let Some(at) = line.find(MARKER) else {
            continue;
        };
        // Only in a comment: a `#` that starts the line or follows a blank.
        let before = line[..at].trim_end();
        let Some(hash) = before.strip_suffix('#').map(str::len) else {
            continue;
        };
        if hash > 0 && !line[..hash].ends_with([' ', '\t']) {
            continue;
        }
        let rest = line[at + MARKER.len()..].trim_start();
        // The generated files' header (`# gateway-migrate: source=…`) is not a suppression.
        if !rest.starts_with("ignore") {
            continue;
        }
        let invalid = |message: String| {
            Diagnostic::new(Code::SuppressInvalid, message)
                .in_file(file, number)
                .with_column(Some(hash + 1))
        };
        let Some((codes, reason)) = rest.strip_prefix("ignore[").and_then(|r| r.split_once(']'))
        else {
            notes.push(invalid(
                "a suppression reads `# gateway-migrate: ignore[CODE, …] reason`".into(),
            ));
            continue;
        };
        let mut patterns = Vec::new();
        for code in codes.split(',').map(str::trim).filter(|c| !c.is_empty()) {
            match CodePattern::parse(code) {
                Ok(p) => patterns.push((p, false)),
                Err(e) => notes.push(invalid(e)),
            }
        }
        if patterns.is_empty() {
            if !codes.split(',').any(|c| !c.trim().is_empty()) {
                notes.push(invalid(
                    "a suppression names its codes: `# gateway-migrate: ignore[istio/retries]`"
                        .into(),
                ));
            }
            continue;
        }
        let comment_only = line[..hash].trim().is_empty();
        // A comment line speaks for the next line with content; a trailing comment for its
        // own line. Either way, on an object's first line it covers the whole object.
        let target = if comment_only {
            (number + 1..=lines.len()).find(|&n| lines.get(n - 1).is_some_and(|l| is_content(l)))
        } else {
            Some(number)
        };
        let Some(target) = target else {
            notes.push(invalid(
                "this suppression comment is followed by no line it could apply to".into(),
            ));
            continue;
        };
        let scope = match documents.starting_at(target) {
            Some(d) => Scope::Document(d),
            None => Scope::Line(target),
        };
        out.push(InlineSuppression {
            line: number,
            column: hash + 1,
            scope,
            patterns,
            reason: Some(reason.trim().to_string()).filter(|r| !r.is_empty()),
        });
    }
    out
}

/// A configuration rule, ready to match.
struct ConfigRule {
    patterns: Vec<(CodePattern, bool)>,
    paths: Option<ignore::gitignore::Gitignore>,
    reason: Option<String>,
}

fn config_rules(config: &Config) -> Vec<ConfigRule> {
    config
        .ignore
        .iter()
        .map(|rule| {
            // Codes and globs were checked when the configuration was read.
            let patterns = rule
                .patterns()
                .unwrap_or_default()
                .into_iter()
                .map(|p| (p, false))
                .collect();
            // A glob that does not parse covers nothing rather than everything.
            let paths = rule
                .path_matcher()
                .unwrap_or_else(|_| Some(ignore::gitignore::Gitignore::empty()));
            ConfigRule {
                patterns,
                paths,
                reason: rule.reason.clone(),
            }
        })
        .collect()
}

impl ConfigRule {
    fn covers(&self, file: &str) -> bool {
        match &self.paths {
            None => true,
            Some(globs) => {
                !file.is_empty() && globs.matched_path_or_any_parents(file, false).is_ignore()
            }
        }
    }
}

/// Marks the first pattern matching `code` as used; whether one matched.
fn take(patterns: &mut [(CodePattern, bool)], code: Code) -> bool {
    match patterns.iter_mut().find(|(p, _)| p.matches(code)) {
        Some((_, used)) => {
            *used = true;
            true
        }
        None => false,
    }
}

/// Applies the inline comments of the scanned files and the configuration's rules to
/// `diagnostics`. `ran` says whether a family's stage ran (for unused suppressions).
pub fn apply(
    diagnostics: Vec<Diagnostic>,
    scan: &Scan,
    config: &Config,
    ran: &dyn Fn(&str) -> bool,
) -> Applied {
    let mut applied = Applied::default();
    // Inline comments, by file. Only files that hold the marker are read line by line.
    let mut inline: BTreeMap<&str, (Vec<InlineSuppression>, DocumentLines)> = BTreeMap::new();
    for (file, source) in &scan.sources {
        let Ok(text) = std::str::from_utf8(&source.bytes) else {
            continue;
        };
        if !text.contains(MARKER) {
            continue;
        }
        let lines: Vec<&str> = text.split('\n').collect();
        let documents = DocumentLines::of(text, &lines, &source.documents);
        let found = parse_file(file, &lines, &documents, &mut applied.notes);
        if !found.is_empty() {
            inline.insert(file.as_str(), (found, documents));
        }
    }
    let mut rules = config_rules(config);
    let mut locator = Locator::new(scan);
    for d in diagnostics {
        let mut by = None;
        if let Some((found, documents)) = inline.get_mut(d.location.file.as_str()) {
            let line = locator.resolve(&d).line;
            let document = d.location.document.or_else(|| documents.holding(line));
            for s in found.iter_mut() {
                let covers = match s.scope {
                    Scope::Line(l) => l == line,
                    Scope::Document(doc) => document == Some(doc),
                };
                if covers && take(&mut s.patterns, d.code) {
                    by = Some((format!("{}:{}", d.location.file, s.line), s.reason.clone()));
                    break;
                }
            }
        }
        if by.is_none() {
            for (i, rule) in rules.iter_mut().enumerate() {
                if rule.covers(&d.location.file) && take(&mut rule.patterns, d.code) {
                    by = Some((format!("config ignore[{i}]"), rule.reason.clone()));
                    break;
                }
            }
        }
        match by {
            Some((by, reason)) => applied.suppressed.push(Suppressed {
                diagnostic: d,
                by,
                reason,
            }),
            None => applied.kept.push(d),
        }
    }
    for (file, (found, _)) in &inline {
        for s in found {
            for (pattern, _) in s
                .patterns
                .iter()
                .filter(|(p, used)| !used && ran(p.family()))
            {
                applied.notes.push(
                    Diagnostic::new(
                        Code::SuppressUnused,
                        format!(
                            "`ignore[{pattern}]` suppresses nothing: no {pattern} diagnostic is on {}",
                            match s.scope {
                                Scope::Line(l) if l == s.line => "this line".to_string(),
                                Scope::Line(l) => format!("line {l}"),
                                Scope::Document(_) => "this object".to_string(),
                            }
                        ),
                    )
                    .in_file(*file, s.line)
                    .with_column(Some(s.column)),
                );
            }
        }
    }
    if let Some(origin) = &config.origin {
        for (i, rule) in rules.iter().enumerate() {
            for (j, (pattern, _)) in rule
                .patterns
                .iter()
                .enumerate()
                .filter(|(_, (p, used))| !used && ran(p.family()))
            {
                let region = crate::diagnostic::locate::locate(
                    &origin.text,
                    &crate::diagnostic::locate::parse_path(&format!("ignore[{i}].codes[{j}]")),
                );
                applied.notes.push(
                    Diagnostic::new(
                        Code::SuppressUnused,
                        format!("ignore[{i}] ({pattern}) suppressed nothing in this run"),
                    )
                    .in_file(origin.display_path.clone(), region.map_or(0, |r| r.line))
                    .with_column(region.map(|r| r.column)),
                );
            }
        }
    }
    applied
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scan::scan_texts as scan_of;

    fn diag(code: Code, file: &str, document: usize, field: &str) -> Diagnostic {
        let mut d = Diagnostic::new(code, "m").at(field);
        d.location.file = file.into();
        d.location.document = Some(document);
        d.location.line = 1;
        d
    }

    const VS: &str = "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: shop # gateway-migrate: ignore[istio/fault-injection] accepted
spec:
  hosts: [shop]
  http:
  - retries: {attempts: 3} # gateway-migrate: ignore[istio/retries] reviewed in #12
    # gateway-migrate: ignore[istio/timeout-format, istio/cors-limit]
    timeout: 5s
---
# gateway-migrate: ignore[istio/*] the whole object
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: other
";

    #[test]
    fn a_comment_covers_its_line_the_next_content_line_or_the_whole_object() {
        let scan = scan_of(&[("vs.yaml", VS)]);
        let diagnostics = vec![
            diag(Code::IstioRetries, "vs.yaml", 0, "spec.http[0].retries"),
            diag(
                Code::IstioTimeoutFormat,
                "vs.yaml",
                0,
                "spec.http[0].timeout",
            ),
            // Not on a suppressed line: kept.
            diag(
                Code::IstioFaultInjection,
                "vs.yaml",
                0,
                "spec.http[0].retries",
            ),
            diag(Code::IstioRetries, "vs.yaml", 0, "spec.hosts"),
            // The second object's first line carries a family suppression.
            diag(Code::IstioFaultInjection, "vs.yaml", 1, "metadata.name"),
        ];
        let applied = apply(diagnostics, &scan, &Config::default(), &|_| true);
        let kept: Vec<(Code, Option<String>)> = applied
            .kept
            .iter()
            .map(|d| (d.code, d.location.field.clone()))
            .collect();
        assert_eq!(
            kept,
            vec![
                (
                    Code::IstioFaultInjection,
                    Some("spec.http[0].retries".into())
                ),
                (Code::IstioRetries, Some("spec.hosts".into())),
            ]
        );
        let by: Vec<(&str, Option<&str>)> = applied
            .suppressed
            .iter()
            .map(|s| (s.by.as_str(), s.reason.as_deref()))
            .collect();
        assert_eq!(
            by,
            vec![
                ("vs.yaml:8", Some("reviewed in #12")),
                ("vs.yaml:9", None),
                ("vs.yaml:12", Some("the whole object")),
            ]
        );
        // `name: shop` is not the object's first line, and istio/cors-limit matched nothing.
        let unused: Vec<(usize, &str)> = applied
            .notes
            .iter()
            .map(|d| (d.location.line, d.message.as_str()))
            .collect();
        assert_eq!(
            unused,
            vec![
                (
                    4,
                    "`ignore[istio/fault-injection]` suppresses nothing: no istio/fault-injection diagnostic is on this line"
                ),
                (
                    9,
                    "`ignore[istio/cors-limit]` suppresses nothing: no istio/cors-limit diagnostic is on line 10"
                ),
            ]
        );
        assert!(applied.notes.iter().all(|d| d.code == Code::SuppressUnused));
    }

    #[test]
    fn malformed_comments_and_unknown_codes_are_reported_not_ignored() {
        let text = "apiVersion: networking.istio.io/v1
kind: VirtualService # gateway-migrate: ignore istio/retries
metadata:
  name: a # gateway-migrate: ignore[istio/retrys]
  namespace: b # gateway-migrate: ignore[]
";
        let scan = scan_of(&[("s.yaml", text)]);
        let applied = apply(Vec::new(), &scan, &Config::default(), &|_| true);
        let notes: Vec<(Code, usize, &str)> = applied
            .notes
            .iter()
            .map(|d| (d.code, d.location.line, d.message.as_str()))
            .collect();
        assert_eq!(
            notes,
            vec![
                (
                    Code::SuppressInvalid,
                    2,
                    "a suppression reads `# gateway-migrate: ignore[CODE, …] reason`"
                ),
                (
                    Code::SuppressInvalid,
                    4,
                    "unknown code `istio/retrys` (did you mean `istio/retries`?)"
                ),
                (
                    Code::SuppressInvalid,
                    5,
                    "a suppression names its codes: `# gateway-migrate: ignore[istio/retries]`"
                ),
            ]
        );
    }

    #[test]
    fn a_marker_inside_a_string_or_a_generated_header_is_not_a_suppression() {
        let text = "# gateway-migrate: source=a.yaml sha256=0123456789abcdef
apiVersion: v1
kind: ConfigMap
data:
  note: \"#gateway-migrate: ignore[istio/retries]\"
  url: http://x/#gateway-migrate: ignore[istio/retries]
";
        let scan = scan_of(&[("c.yaml", text)]);
        let applied = apply(Vec::new(), &scan, &Config::default(), &|_| true);
        assert!(applied.notes.is_empty(), "{:?}", applied.notes);
    }

    #[test]
    fn config_rules_match_by_code_and_path_glob_and_report_unused_ones() {
        let text = "ignore:
- codes: [istio/retries]
  paths: [apps/legacy/**]
  reason: accepted
- codes: [istio/*]
  paths: ['*.json']
- codes: [render/failed]
";
        let mut config = Config::parse(text).unwrap();
        config.origin = Some(crate::config::ConfigOrigin {
            path: ".gateway-migrate.yaml".into(),
            display_path: ".gateway-migrate.yaml".into(),
            text: text.into(),
        });
        let scan = scan_of(&[]);
        let diagnostics = vec![
            diag(Code::IstioRetries, "apps/legacy/vs.yaml", 0, ""),
            diag(Code::IstioRetries, "apps/new/vs.yaml", 0, ""),
        ];
        // render did not run: its rule is not reported unused.
        let applied = apply(diagnostics, &scan, &config, &|f| f != "render");
        assert_eq!(applied.kept.len(), 1);
        assert_eq!(applied.kept[0].location.file, "apps/new/vs.yaml");
        assert_eq!(applied.suppressed[0].by, "config ignore[0]");
        assert_eq!(applied.suppressed[0].reason.as_deref(), Some("accepted"));
        let unused: Vec<(&str, usize, &str)> = applied
            .notes
            .iter()
            .map(|d| {
                (
                    d.location.file.as_str(),
                    d.location.line,
                    d.message.as_str(),
                )
            })
            .collect();
        assert_eq!(
            unused,
            vec![(
                ".gateway-migrate.yaml",
                5,
                "ignore[1] (istio/*) suppressed nothing in this run"
            )]
        );
    }

    #[test]
    fn config_codes_and_globs_are_checked_when_read() {
        let e = Config::parse("ignore:\n- codes: [istio/retrys]\n").unwrap_err();
        assert_eq!(
            e,
            "line 2, column 11: ignore[0].codes[0]: unknown code `istio/retrys` (did you mean `istio/retries`?)"
        );
        let e = Config::parse("ignore:\n- paths: [a]\n").unwrap_err();
        assert!(e.contains("ignore[0]: an ignore rule needs `codes`"), "{e}");
        assert!(Config::parse("ignore:\n- codes: [istio]\n").is_ok());
    }
}
