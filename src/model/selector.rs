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

/// Why `selector` is not a valid label selector (`LabelSelectorAsSelector` in apimachinery
/// refuses it), or `None`: an unknown operator, `In`/`NotIn` without values, `Exists`/
/// `DoesNotExist` with values, or a key that is not a label key.
pub fn invalid(selector: &Value) -> Option<String> {
    for e in selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
        if !is_label_key(key) {
            return Some(format!("key {key:?} is not a valid label key"));
        }
        let values = e
            .get("values")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        match e
            .get("operator")
            .and_then(Value::as_str)
            .unwrap_or_default()
        {
            "In" | "NotIn" if values == 0 => {
                return Some(format!("operator In/NotIn on {key} needs values"));
            }
            "Exists" | "DoesNotExist" if values > 0 => {
                return Some(format!(
                    "operator Exists/DoesNotExist on {key} takes no values"
                ));
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => return Some(format!("operator {other:?} is not a selector operator")),
        }
    }
    None
}

/// A label key: an optional DNS-subdomain prefix and `/`, then a name of at most 63
/// characters, alphanumeric at both ends, with `-`, `_` and `.` inside.
fn is_label_key(key: &str) -> bool {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 63
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let prefix_ok = prefix.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 253
            && p.split('.').all(|label| {
                !label.is_empty()
                    && label.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && label.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
                    && label
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            })
    });
    name_ok && prefix_ok
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
