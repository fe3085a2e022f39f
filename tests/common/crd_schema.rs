//! Test helper: validates generated objects against the `openAPIV3Schema` of the vendored
//! Gateway API v1.6.1 CRDs (`../shared/crds`). Every object schema that lists `properties` is
//! closed (`additionalProperties: false`) so that a field the channel does not define is an
//! error, as it would be under strict field validation. CEL rules are not evaluated here.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

pub struct CrdSchemas {
    /// `(kind, version)` → (served, validator).
    validators: BTreeMap<(String, String), (bool, jsonschema::Validator)>,
}

/// Closes object schemas, except the branches of `oneOf`/`anyOf`/`allOf`/`not`, which only
/// constrain some properties of an object described by their parent.
fn close_objects(schema: &mut Value) {
    close(schema, true)
}

fn close(schema: &mut Value, closable: bool) {
    match schema {
        Value::Object(map) => {
            if closable
                && map.contains_key("properties")
                && !map.contains_key("additionalProperties")
            {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            for (k, v) in map.iter_mut() {
                let branch = matches!(k.as_str(), "oneOf" | "anyOf" | "allOf" | "not");
                close(v, !branch);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| close(v, closable)),
        _ => {}
    }
}

impl CrdSchemas {
    /// Loads the CRDs of `channel` (`standard` or `experimental`).
    pub fn load(channel: &str) -> CrdSchemas {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/crds/gateway-api-v1.6.1")
            .join(channel);
        let mut validators = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("crd dir") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("read crd");
            let Ok(Some(doc)) = gateway_migrate::yaml::parse_document(&text) else {
                continue;
            };
            if doc["kind"] != "CustomResourceDefinition" {
                continue;
            }
            let kind = doc["spec"]["names"]["kind"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            for version in doc["spec"]["versions"].as_array().into_iter().flatten() {
                let name = version["name"].as_str().unwrap_or_default().to_string();
                let served = version["served"].as_bool().unwrap_or(false);
                let mut schema = version["schema"]["openAPIV3Schema"].clone();
                close_objects(&mut schema);
                // metadata is validated by the API server, not the CRD schema.
                if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
                    props.insert("metadata".into(), serde_json::json!({"type": "object"}));
                }
                let validator = jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft4)
                    .build(&schema)
                    .unwrap_or_else(|e| panic!("{}: {kind} {name}: {e}", path.display()));
                validators.insert((kind.clone(), name), (served, validator));
            }
        }
        assert!(!validators.is_empty(), "no CRDs found in {}", dir.display());
        CrdSchemas { validators }
    }

    /// Errors of `obj` (a generated object as JSON) against its CRD; empty when valid.
    pub fn errors(&self, obj: &Value) -> Vec<String> {
        let kind = obj["kind"].as_str().unwrap_or_default();
        let api_version = obj["apiVersion"].as_str().unwrap_or_default();
        let version = api_version.rsplit('/').next().unwrap_or_default();
        let Some((served, validator)) = self
            .validators
            .get(&(kind.to_string(), version.to_string()))
        else {
            return vec![format!("no CRD for {kind} {api_version}")];
        };
        let mut errors: Vec<String> = validator
            .iter_errors(obj)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        if !served {
            errors.push(format!(
                "{kind} {api_version} is not served by this channel"
            ));
        }
        errors
    }
}
