//! Channel awareness. Which fields exist only in the experimental channel is not listed by
//! hand: an object is validated against both channels' CRDs, and a schema violation that the
//! standard CRD reports but the experimental CRD does not (an unknown field, an enum value, a
//! whole kind or version) is a field or value that only exists in experimental.

use serde_json::Value;

use super::{Violation, crd, structural_violations};
use crate::config::Channel;

/// Re-labels the standard-channel violations the experimental channel does not have.
pub fn classify(value: &Value, standard: Vec<Violation>) -> Vec<Violation> {
    if !standard.iter().any(|v| v.rule.starts_with("schema/")) {
        return standard;
    }
    let experimental = structural_violations(value, Channel::Experimental);
    standard
        .into_iter()
        .map(|v| {
            let only_experimental = v.rule.starts_with("schema/")
                && !experimental
                    .iter()
                    .any(|e| e.rule == v.rule && e.path == v.path);
            if only_experimental {
                experimental_only(v)
            } else {
                v
            }
        })
        .collect()
}

fn experimental_only(v: Violation) -> Violation {
    let what = if v.path.is_empty() {
        "this apiVersion/kind".to_string()
    } else {
        format!("`{}`", v.path)
    };
    Violation {
        rule: "channel/experimental-only".into(),
        message: format!(
            "{what} only exists in the Gateway API experimental channel (standard CRD: {})",
            v.message
        ),
        path: v.path,
    }
}

/// `(apiVersion, kind)` pairs served by the experimental channel but not the standard one.
pub fn experimental_only_versions() -> Vec<(String, String)> {
    let std = crd::catalog(Channel::Standard);
    crd::catalog(Channel::Experimental)
        .versions
        .iter()
        .filter(|(key, v)| v.served && !std.get(&key.0, &key.1).is_some_and(|s| s.served))
        .map(|(key, _)| key.clone())
        .collect()
}
