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
use crate::diagnostic::{Code, Severity};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0-rtm.5.json";

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

pub fn render(report: &Report) -> String {
    let mut out = serde_json::to_string_pretty(&to_value(report)).unwrap_or_else(|_| "{}".into());
    out.push('\n');
    out
}

pub fn to_value(report: &Report) -> Value {
    // Rules: one per code that occurs, with the registry's severity as its default.
    let mut rules: BTreeMap<Code, ()> = BTreeMap::new();
    for d in &report.diagnostics {
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
                "help": {"text": format!("gateway-migrate explain {}", entry.id)},
                "defaultConfiguration": {"level": level(entry.severity)},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .diagnostics
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
        }]
    })
}
