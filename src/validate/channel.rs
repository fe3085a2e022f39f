//! Channel awareness. Which fields exist only in the experimental channel is not listed by
//! hand: an object is validated against both channels' CRDs, and a schema violation that the
//! standard CRD reports but the experimental CRD does not (an unknown field, an enum value, a
//! whole kind or version) is a field or value that only exists in experimental.

use serde_json::Value;

use super::{Violation, structural_violations};
use crate::config::Channel;

/// Re-labels the standard-channel violations the experimental channel does not have.
pub(crate) fn classify(value: &Value, standard: Vec<Violation>) -> Vec<Violation> {
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
#[cfg(test)]
pub(crate) fn experimental_only_versions() -> Vec<(String, String)> {
    use super::crd;
    let std = crd::catalog(Channel::Standard);
    crd::catalog(Channel::Experimental)
        .versions
        .iter()
        .filter(|(key, v)| v.served && !std.get(&key.0, &key.1).is_some_and(|s| s.served))
        .map(|(key, _)| key.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate_object;
    use serde_json::json;

    fn route(rule: serde_json::Value) -> Value {
        json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": "r", "namespace": "web"},
            "spec": {"rules": [rule]}})
    }

    #[test]
    fn experimental_fields_and_values_are_errors_on_standard_only() {
        let cases = [
            (
                route(
                    json!({"retry": {"attempts": 2}, "backendRefs": [{"name": "s", "port": 80}]}),
                ),
                "spec.rules[0].retry",
            ),
            (
                route(
                    json!({"sessionPersistence": {"sessionName": "s"}, "backendRefs": [{"name": "s", "port": 80}]}),
                ),
                "spec.rules[0].sessionPersistence",
            ),
            (
                route(
                    json!({"filters": [{"type": "ExternalAuth", "externalAuth": {"protocol": "HTTP", "http": {"path": "/auth"},
                "backendRef": {"name": "auth", "port": 80}}}], "backendRefs": [{"name": "s", "port": 80}]}),
                ),
                "spec.rules[0].filters[0].externalAuth",
            ),
        ];
        for (obj, path) in cases {
            let std = validate_object(&obj, Channel::Standard);
            assert!(!std.is_empty(), "{path}");
            assert!(
                std.iter().all(|v| v.rule == "channel/experimental-only"),
                "{path}: {std:#?}"
            );
            assert!(std.iter().any(|v| v.path == path), "{path}: {std:#?}");
            assert_eq!(
                validate_object(&obj, Channel::Experimental),
                vec![],
                "{path}"
            );
        }
    }

    #[test]
    fn a_real_error_stays_a_schema_error_on_standard() {
        let obj = route(json!({"backendRefs": [{"name": "s", "port": 70000}]}));
        let std = validate_object(&obj, Channel::Standard);
        assert_eq!(std.len(), 1, "{std:#?}");
        assert_eq!(std[0].rule, "schema/maximum");
    }

    #[test]
    fn kinds_served_only_by_experimental_are_derived() {
        let only = experimental_only_versions();
        assert!(only.contains(&(
            "gateway.networking.k8s.io/v1alpha2".into(),
            "TCPRoute".into()
        )));
        assert!(only.contains(&(
            "gateway.networking.x-k8s.io/v1alpha1".into(),
            "XBackendTrafficPolicy".into()
        )));
        assert!(
            !only
                .iter()
                .any(|(v, _)| v == "gateway.networking.k8s.io/v1")
        );
    }
}
