//! Structural-schema checks of one object against its CRD version's `openAPIV3Schema`:
//! defaulting (as the API server does before validation), JSON-schema keywords (types, enums,
//! patterns, min/max, maxItems, required), unknown fields (rejected by strict field
//! validation, which `kubectl apply` uses by default) and the parts of `metadata` the API
//! server checks (the CRD schema says only `type: object` there).

use serde_json::Value;

use super::Violation;
use super::crd::CrdVersion;

/// Drops `null` values of fields that are not `nullable: true`, recursively: the API server
/// prunes them before defaulting and validation.
pub(crate) fn prune_nulls(schema: &Value, value: &mut Value) {
    match value {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|s| s.is_object());
            map.retain(|key, child| {
                let sub = props.and_then(|p| p.get(key)).or(additional);
                !(child.is_null()
                    && sub.and_then(|s| s.get("nullable")).and_then(Value::as_bool) != Some(true))
            });
            for (key, child) in map.iter_mut() {
                if let Some(sub) = props.and_then(|p| p.get(key)).or(additional) {
                    prune_nulls(sub, child);
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items") {
                for child in items {
                    prune_nulls(sub, child);
                }
            }
        }
        _ => {}
    }
}

/// Fills in every `default` of `schema` missing from `value`, recursively, the way the API
/// server defaults a custom resource before validating it.
pub(crate) fn apply_defaults(schema: &Value, value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (key, sub) in props {
                    if !map.contains_key(key)
                        && let Some(default) = sub.get("default")
                    {
                        map.insert(key.clone(), default.clone());
                    }
                }
                for (key, child) in map.iter_mut() {
                    if let Some(sub) = props.get(key) {
                        apply_defaults(sub, child);
                    }
                }
            } else if let Some(sub) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                for child in map.values_mut() {
                    apply_defaults(sub, child);
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items") {
                for child in items {
                    apply_defaults(sub, child);
                }
            }
        }
        _ => {}
    }
}

/// JSON-schema violations of `value` (already defaulted). `status` is ignored: it is never
/// written by a client.
pub(crate) fn keyword_violations(crd: &CrdVersion, value: &Value) -> Vec<Violation> {
    let Some(validator) = crd.validator() else {
        return Vec::new();
    };
    let mut out: Vec<Violation> = validator
        .iter_errors(value)
        .map(|e| {
            let path = pointer_to_path(e.instance_path().as_str());
            Violation {
                rule: format!("schema/{}", e.kind().keyword()),
                message: e.to_string(),
                path,
            }
        })
        .filter(|v| !(v.path == "status" || v.path.starts_with("status.")))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Paths of fields the schema does not define (outside `metadata` and `status`).
pub(crate) fn unknown_fields(schema: &Value, value: &Value, path: &str, out: &mut Vec<Violation>) {
    match value {
        Value::Object(map) => {
            if schema
                .get("x-kubernetes-preserve-unknown-fields")
                .and_then(Value::as_bool)
                == Some(true)
            {
                return;
            }
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|s| s.is_object());
            for (key, child) in map {
                let child_path = join(path, key);
                // The API server knows these at the root of every object, whether the CRD's
                // schema lists them (Gateway API's do) or not (Istio's do not).
                if path.is_empty()
                    && matches!(key.as_str(), "apiVersion" | "kind" | "metadata" | "status")
                {
                    continue;
                }
                match (props.and_then(|p| p.get(key)), additional) {
                    (Some(sub), _) | (None, Some(sub)) => {
                        unknown_fields(sub, child, &child_path, out)
                    }
                    (None, None) if props.is_some() => out.push(Violation {
                        rule: "schema/unknown-field".into(),
                        message: format!("unknown field \"{child_path}\""),
                        path: child_path,
                    }),
                    // A schema without `properties` (e.g. `metadata: {type: object}`) says
                    // nothing about the keys.
                    (None, None) => {}
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items") {
                for (i, child) in items.iter().enumerate() {
                    unknown_fields(sub, child, &format!("{path}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

/// Kubernetes list semantics: `x-kubernetes-list-type: map` lists must not repeat their key
/// fields, `set` lists must not repeat items (the API server rejects both as duplicates).
pub(crate) fn list_type_violations(
    schema: &Value,
    value: &Value,
    path: &str,
    out: &mut Vec<Violation>,
) {
    match value {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|s| s.is_object());
            for (key, child) in map {
                if path.is_empty() && key == "status" {
                    continue;
                }
                if let Some(sub) = props.and_then(|p| p.get(key)).or(additional) {
                    list_type_violations(sub, child, &join(path, key), out);
                }
            }
        }
        Value::Array(items) => {
            let list_type = schema.get("x-kubernetes-list-type").and_then(Value::as_str);
            let keys: Vec<&str> = schema
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let item_schema = schema.get("items").unwrap_or(&Value::Null);
            let mut seen: Vec<Value> = Vec::new();
            for (i, child) in items.iter().enumerate() {
                let identity = match list_type {
                    Some("map") => {
                        let mut defaulted = child.clone();
                        apply_defaults(item_schema, &mut defaulted);
                        Value::Array(
                            keys.iter()
                                .map(|k| defaulted.get(*k).cloned().unwrap_or(Value::Null))
                                .collect(),
                        )
                    }
                    Some("set") => child.clone(),
                    _ => Value::Null,
                };
                if !identity.is_null() {
                    if seen.contains(&identity) {
                        out.push(Violation {
                            rule: "schema/list-type".into(),
                            message: format!(
                                "Duplicate value: {identity} ({path} is a list of type {} keyed by [{}])",
                                list_type.unwrap_or_default(),
                                keys.join(", ")
                            ),
                            path: format!("{path}[{i}]"),
                        });
                    } else {
                        seen.push(identity);
                    }
                }
                list_type_violations(item_schema, child, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// `metadata` checks the CRD schema leaves to the API server: a name is required and must be
/// a DNS subdomain (RFC 1123, ≤ 253); a namespace must be a DNS label.
pub(crate) fn metadata_violations(value: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    let name = value.pointer("/metadata/name").and_then(Value::as_str);
    match name {
        None | Some("") => out.push(Violation {
            rule: "schema/metadata".into(),
            message: "metadata.name is required".into(),
            path: "metadata.name".into(),
        }),
        Some(n) if !crate::gwapi::is_dns_subdomain(n) => out.push(Violation {
            rule: "schema/metadata".into(),
            message: format!(
                "metadata.name \"{n}\" must be a lowercase RFC 1123 subdomain of at most 253 characters"
            ),
            path: "metadata.name".into(),
        }),
        Some(_) => {}
    }
    if let Some(ns) = value.pointer("/metadata/namespace").and_then(Value::as_str)
        && !is_dns_label(ns)
    {
        out.push(Violation {
            rule: "schema/metadata".into(),
            message: format!(
                "metadata.namespace \"{ns}\" must be a lowercase RFC 1123 label of at most 63 characters"
            ),
            path: "metadata.namespace".into(),
        });
    }
    out
}

fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// `/spec/listeners/0/name` → `spec.listeners[0].name`.
pub(crate) fn pointer_to_path(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            out = join(&out, &seg);
        }
    }
    out
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_become_dotted_paths() {
        assert_eq!(
            pointer_to_path("/spec/listeners/0/name"),
            "spec.listeners[0].name"
        );
        assert_eq!(pointer_to_path(""), "");
    }

    #[test]
    fn defaults_fill_missing_fields_only() {
        let schema = json!({"properties": {"a": {"default": 1}, "b": {"default": 2},
            "l": {"items": {"properties": {"k": {"default": "Service"}}}}}});
        let mut v = json!({"b": 5, "l": [{}, {"k": "X"}]});
        apply_defaults(&schema, &mut v);
        assert_eq!(
            v,
            json!({"b": 5, "l": [{"k": "Service"}, {"k": "X"}], "a": 1})
        );
    }

    #[test]
    fn nulls_are_pruned_unless_nullable() {
        let schema = json!({"properties": {"a": {}, "b": {"nullable": true},
            "l": {"items": {"properties": {"k": {}}}}}});
        let mut v = json!({"a": null, "b": null, "l": [{"k": null}]});
        prune_nulls(&schema, &mut v);
        assert_eq!(v, json!({"b": null, "l": [{}]}));
    }

    #[test]
    fn metadata_names_are_checked() {
        assert!(metadata_violations(&json!({"metadata": {"name": "ok.name"}})).is_empty());
        assert_eq!(
            metadata_violations(&json!({"metadata": {"name": "Bad_Name"}})).len(),
            1
        );
        assert_eq!(metadata_violations(&json!({"metadata": {}})).len(), 1);
    }
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn subdomain_parts_may_exceed_a_dns_label() {
        let long = "a".repeat(65);
        assert!(crate::gwapi::is_dns_subdomain(&long));
        assert!(crate::gwapi::is_dns_subdomain("a.b-c.d"));
        assert!(!crate::gwapi::is_dns_subdomain(&"a".repeat(254)));
        assert!(!crate::gwapi::is_dns_subdomain("a..b"));
        assert!(!crate::gwapi::is_dns_subdomain("-a"));
        assert!(!crate::gwapi::is_dns_subdomain("A"));
        assert!(!is_dns_label(&long));
    }
}
