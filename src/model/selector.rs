//! Kubernetes label selectors (`matchLabels`, `matchExpressions`) evaluated against a label
//! map. Shared by Ingress `mount` mode (which listeners admit a namespace) and the validator
//! (predicted `NotAllowedByListeners`), so both decide the same way.

use std::collections::BTreeMap;

use serde_json::Value;

/// Whether `selector` (JSON, as written in a manifest) selects an object with `labels`.
/// An empty selector selects everything; an unknown operator selects nothing.
pub fn matches(selector: &Value, labels: &BTreeMap<String, String>) -> bool {
    let labels_ok = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .all(|(k, v)| labels.get(k).map(String::as_str) == v.as_str());
    let expressions_ok = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .all(|e| {
            let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
            let values: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let have = labels.get(key).map(String::as_str);
            match e
                .get("operator")
                .and_then(Value::as_str)
                .unwrap_or_default()
            {
                "In" => have.is_some_and(|h| values.contains(&h)),
                "NotIn" => have.is_none_or(|h| !values.contains(&h)),
                "Exists" => have.is_some(),
                "DoesNotExist" => have.is_none(),
                _ => false,
            }
        });
    labels_ok && expressions_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn match_labels_and_expressions() {
        let labels: BTreeMap<String, String> = [
            ("team".to_string(), "a".to_string()),
            (
                "kubernetes.io/metadata.name".to_string(),
                "apps".to_string(),
            ),
        ]
        .into();
        assert!(matches(&json!({}), &labels));
        assert!(matches(&json!({"matchLabels": {"team": "a"}}), &labels));
        assert!(!matches(&json!({"matchLabels": {"team": "b"}}), &labels));
        assert!(matches(
            &json!({"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["apps", "x"]}]}),
            &labels
        ));
        assert!(!matches(
            &json!({"matchExpressions": [{"key": "team", "operator": "NotIn", "values": ["a"]}]}),
            &labels
        ));
        assert!(matches(
            &json!({"matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]}),
            &labels
        ));
        assert!(matches(
            &json!({"matchExpressions": [{"key": "team", "operator": "Exists"}]}),
            &labels
        ));
        assert!(!matches(
            &json!({"matchExpressions": [{"key": "env", "operator": "Exists"}]}),
            &labels
        ));
        assert!(matches(
            &json!({"matchExpressions": [{"key": "env", "operator": "DoesNotExist"}]}),
            &labels
        ));
        assert!(!matches(
            &json!({"matchExpressions": [{"key": "team", "operator": "Gt", "values": ["1"]}]}),
            &labels
        ));
    }
}
