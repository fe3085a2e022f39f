//! SARIF 2.1.0 renderer, for code scanning (opt-in: migration notes are not security alerts).
//!
//! One run; one rule per code (`ruleId` is the stable code, `helpUri` its entry in
//! `docs/codes.md`); one result per diagnostic (validator findings with the broken rule in
//! `properties.rule`) with its file and line relative to the repository root;
//! `partialFingerprints` from the code, file, object and field (not the line), so an alert
//! survives edits above it.
//!
//! Within GitHub's upload limits: at most [`MAX_RESULTS`] results and [`MAX_BYTES`] bytes; the
//! most severe are kept and what was left out is counted in the run's `properties`. Info notes
//! are left out unless asked for: they are context, not alerts.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{Report, ReportedDiagnostic};
use crate::diagnostic::{Code, Severity};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0-rtm.5.json";

/// Results GitHub code scanning accepts per run.
pub const MAX_RESULTS: usize = 25_000;
/// Size GitHub accepts per upload (10 MB; kept under, uncompressed).
pub const MAX_BYTES: usize = 10_000_000;

/// Where each code is documented: `docs/codes.md` in the project's repository.
fn help_uri(id: &str) -> String {
    format!(
        "{}/blob/main/docs/codes.md#{}",
        env!("CARGO_PKG_REPOSITORY").trim_end_matches('/'),
        crate::diagnostic::docs::anchor(id)
    )
}

/// What the SARIF file holds.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Info notes too (`--min-severity info`).
    pub include_info: bool,
    pub max_results: usize,
    pub max_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            include_info: false,
            max_results: MAX_RESULTS,
            max_bytes: MAX_BYTES,
        }
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn fingerprint(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for p in parts {
        hasher.update(p.as_bytes());
        hasher.update([0]);
    }
    hasher
        .finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The SARIF file, within `options`' limits: when the whole would exceed them, the least
/// severe results are left out (and counted) until it fits.
pub fn render(report: &Report, options: &Options) -> String {
    let mut selected: Vec<&ReportedDiagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| options.include_info || d.severity != Severity::Info)
        .collect();
    // Most severe first; within a severity the report's reading order.
    selected.sort_by_key(|d| d.severity);
    let mut keep = selected.len().min(options.max_results);
    // Pretty-printed while it fits; past the size limit the compact form holds about twice as
    // many results, so only then are results left out.
    let mut pretty = true;
    loop {
        let value = to_value(
            report,
            &selected[..keep],
            &selected[keep..],
            options.include_info,
        );
        let mut out = if pretty {
            serde_json::to_string_pretty(&value)
        } else {
            serde_json::to_string(&value)
        }
        .unwrap_or_else(|_| "{}".into());
        out.push('\n');
        if out.len() <= options.max_bytes || keep == 0 {
            return out;
        }
        if pretty {
            pretty = false;
            continue;
        }
        // Shrink in proportion, with a margin for the properties that grow as results go.
        let ratio = options.max_bytes as f64 / out.len() as f64;
        keep = ((keep as f64 * ratio * 0.98) as usize).min(keep - 1);
    }
}

fn to_value(
    report: &Report,
    results: &[&ReportedDiagnostic],
    omitted: &[&ReportedDiagnostic],
    include_info: bool,
) -> Value {
    // Rules: one per code that occurs, with the registry's severity as its default.
    let mut rules: BTreeMap<Code, ()> = BTreeMap::new();
    for d in results {
        rules.insert(d.code, ());
    }
    let rule_index: BTreeMap<Code, usize> =
        rules.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let rules_json: Vec<Value> = rules
        .keys()
        .map(|code| {
            let entry = code.entry();
            json!({
                "id": entry.id,
                "name": entry.id,
                "shortDescription": {"text": entry.summary},
                "fullDescription": {"text": entry.explanation},
                "help": {"text": format!("{}\n\nRun `gateway-migrate explain {}` for this text offline.", entry.explanation, entry.id)},
                "helpUri": help_uri(entry.id),
                "defaultConfiguration": {"level": level(entry.severity)},
            })
        })
        .collect();
    let results: Vec<Value> = results
        .iter()
        .map(|d| {
            let id = d.code.id();
            let mut region = serde_json::Map::new();
            region.insert("startLine".into(), json!(d.line.max(1)));
            if let Some(c) = d.column {
                region.insert("startColumn".into(), json!(c));
            }
            if let Some(e) = d.end_line {
                region.insert("endLine".into(), json!(e.max(d.line.max(1))));
            }
            // The field and rule, not the line or the message: an alert survives edits above
            // it, and one object can break one code's rules more than once.
            let identity = format!(
                "{}/{}/{}/{}",
                d.subject_name(),
                d.field
                    .as_deref()
                    .or(d.generated_field.as_deref())
                    .unwrap_or(""),
                d.rule.as_deref().unwrap_or(""),
                if d.subject.is_none() {
                    d.message.as_str()
                } else {
                    ""
                },
            );
            let mut result = json!({
                "ruleId": id,
                "ruleIndex": rule_index.get(&d.code).copied().unwrap_or(0),
                "level": level(d.severity),
                "message": {"text": super::github::message(d)},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": d.file, "uriBaseId": "%SRCROOT%"},
                        "region": Value::Object(region),
                    }
                }],
                "partialFingerprints": {
                    "gatewayMigrate/v1": fingerprint(&[id, &d.file, &identity]),
                },
            });
            let mut properties = serde_json::Map::new();
            if let Some(rule) = &d.rule {
                properties.insert("rule".into(), Value::String(rule.clone()));
            }
            if let Some(path) = d.field.as_ref().or(d.generated_field.as_ref()) {
                properties.insert("path".into(), Value::String(path.clone()));
            }
            if let (false, Some(obj)) = (properties.is_empty(), result.as_object_mut()) {
                obj.insert("properties".into(), Value::Object(properties));
            }
            result
        })
        .collect();
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "gateway-migrate",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "rules": rules_json,
                }
            },
            "results": results,
            "columnKind": "unicodeCodePoints",
            "properties": properties(report, omitted, include_info),
        }]
    })
}

/// The run's properties: what was left out, by severity, and why.
fn properties(report: &Report, omitted: &[&ReportedDiagnostic], include_info: bool) -> Value {
    let mut by_severity: BTreeMap<&str, usize> = BTreeMap::new();
    for d in omitted {
        *by_severity.entry(d.severity.as_str()).or_default() += 1;
    }
    json!({
        "omittedResults": omitted.len(),
        "omittedBySeverity": by_severity,
        "omittedReason": format!(
            "GitHub code scanning accepts at most {MAX_RESULTS} results and {MAX_BYTES} bytes per upload; the most severe are kept"
        ),
        "diagnostics": {
            "error": report.summary.notes.error,
            "warning": report.summary.notes.warning,
            "info": report.summary.notes.info,
        },
        // Info notes are context, not alerts: left out unless asked for.
        "infoIncluded": include_info,
        "suppressed": report.summary.suppressed,
    })
}
