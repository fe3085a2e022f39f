//! SARIF 2.1.0 renderer, for code scanning (opt-in: migration notes are not security alerts).
//!
//! One run; one rule per note code (`ruleId` is the stable note code); one result per note,
//! diagnostic or validator finding (the latter with the broken rule in `properties.rule`) with
//! its file and line relative to the repository root; `partialFingerprints` from the
//! code, file, object and field (not the line), so an alert survives edits above it.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::Report;
use crate::note::Severity;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0-rtm.5.json";

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

struct Finding<'a> {
    code: &'a str,
    severity: Severity,
    message: String,
    file: &'a str,
    line: usize,
    identity: String,
    /// For the validator's findings: the rule broken (CEL message, schema keyword or status
    /// reason) and the offending field, as result properties.
    properties: Option<Value>,
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

pub fn render(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(&to_value(report)).unwrap_or_else(|_| "{}".into());
    out.push('\n');
    out
}

pub fn to_value(report: &Report) -> Value {
    let mut findings = Vec::new();
    for o in &report.objects {
        for n in &o.notes {
            let field = n.field.as_deref().unwrap_or("");
            findings.push(Finding {
                code: &n.code,
                severity: n.severity,
                message: match &n.field {
                    Some(f) => format!(
                        "{} {}/{}: {} ({f})",
                        o.source.kind, o.source.namespace, o.source.name, n.message
                    ),
                    None => format!(
                        "{} {}/{}: {}",
                        o.source.kind, o.source.namespace, o.source.name, n.message
                    ),
                },
                file: &o.source.file,
                line: o.source.line,
                identity: format!(
                    "{}/{}/{}/{field}",
                    o.source.kind, o.source.namespace, o.source.name
                ),
                properties: None,
            });
        }
    }
    for f in &report.findings {
        let mut properties = serde_json::Map::new();
        properties.insert("rule".into(), Value::String(f.rule.clone()));
        if !f.path.is_empty() {
            properties.insert("path".into(), Value::String(f.path.clone()));
        }
        findings.push(Finding {
            code: &f.code,
            severity: f.severity,
            message: super::github::finding_message(f),
            file: &f.file,
            line: f.line,
            // The rule, not the message: one object can break one code's rules more than once.
            identity: format!(
                "{}/{}/{}/{}/{}",
                f.kind, f.namespace, f.name, f.path, f.rule
            ),
            properties: Some(Value::Object(properties)),
        });
    }
    for d in &report.diagnostics {
        findings.push(Finding {
            code: &d.code,
            severity: d.severity,
            message: d.message.clone(),
            file: &d.file,
            line: d.line,
            identity: d.message.clone(),
            properties: None,
        });
    }
    // Rules: one per code, with the most severe level seen as its default.
    let mut rules: BTreeMap<&str, Severity> = BTreeMap::new();
    for f in &findings {
        let entry = rules.entry(f.code).or_insert(f.severity);
        *entry = (*entry).min(f.severity);
    }
    let rule_index: BTreeMap<&str, usize> =
        rules.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let rules_json: Vec<Value> = rules
        .iter()
        .map(|(code, severity)| {
            json!({
                "id": code,
                "name": code,
                "shortDescription": {"text": format!("gateway-migrate note {code}")},
                "fullDescription": {"text": format!("gateway-migrate note {code}: see docs/notes.md of gateway-migrate for what it means and what to do.")},
                "defaultConfiguration": {"level": level(*severity)},
            })
        })
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut result = json!({
                "ruleId": f.code,
                "ruleIndex": rule_index.get(f.code).copied().unwrap_or(0),
                "level": level(f.severity),
                "message": {"text": f.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": f.file, "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": f.line.max(1)},
                    }
                }],
                "partialFingerprints": {
                    "gatewayMigrate/v1": fingerprint(&[f.code, f.file, &f.identity]),
                },
            });
            if let (Some(properties), Some(obj)) = (&f.properties, result.as_object_mut()) {
                obj.insert("properties".into(), properties.clone());
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
        }]
    })
}
