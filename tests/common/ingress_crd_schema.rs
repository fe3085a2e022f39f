//! Validates generated objects against the `openAPIV3Schema` of the vendored Gateway API
//! v1.6.1 CRDs (standard and experimental). CEL rules are not evaluated here; the translator
//! avoids the ones it can break by construction.

use std::collections::BTreeMap;
use std::path::Path;

use gateway_migrate::gwapi::Generated;
use serde_json::Value;

/// Schemas by `(channel, apiVersion, kind)`.
pub struct CrdSchemas {
    validators: BTreeMap<(String, String, String), jsonschema::Validator>,
    /// The raw schemas, for the unknown-field check (the API server prunes unknown fields
    /// silently, so a misspelt field is lost, not rejected).
    raw: BTreeMap<(String, String, String), Value>,
}

/// Fields of `value` that `schema` does not declare, as JSON paths.
fn unknown_fields(schema: &Value, value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if schema["x-kubernetes-preserve-unknown-fields"] == true {
                return;
            }
            let Some(props) = schema["properties"].as_object() else {
                // `metadata` and free-form maps declare no properties.
                return;
            };
            let props = Some(props);
            for (k, v) in map {
                match props.and_then(|p| p.get(k)) {
                    Some(s) => unknown_fields(s, v, &format!("{path}/{k}"), out),
                    None if schema.get("additionalProperties").is_some() => unknown_fields(
                        &schema["additionalProperties"],
                        v,
                        &format!("{path}/{k}"),
                        out,
                    ),
                    None => out.push(format!("{path}/{k}: unknown field")),
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                unknown_fields(&schema["items"], v, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

impl CrdSchemas {
    pub fn load() -> CrdSchemas {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/crds/gateway-api-v1.6.1");
        let mut validators = BTreeMap::new();
        let mut raw = BTreeMap::new();
        for channel in ["standard", "experimental"] {
            let dir = root.join(channel);
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                let Ok(crd) = serde_saphyr::from_str::<Value>(&text) else {
                    continue;
                };
                if crd["kind"] != "CustomResourceDefinition" {
                    continue;
                }
                let group = crd["spec"]["group"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let kind = crd["spec"]["names"]["kind"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                for version in crd["spec"]["versions"].as_array().into_iter().flatten() {
                    let name = version["name"].as_str().unwrap_or_default();
                    let schema = &version["schema"]["openAPIV3Schema"];
                    let validator = jsonschema::validator_for(schema).unwrap_or_else(|e| {
                        panic!("{}: {kind} {name}: bad schema: {e}", file.display())
                    });
                    let key = (channel.to_string(), format!("{group}/{name}"), kind.clone());
                    raw.insert(key.clone(), schema.clone());
                    validators.insert(key, validator);
                }
            }
        }
        assert!(!validators.is_empty(), "no CRD schema loaded");
        CrdSchemas { validators, raw }
    }

    /// The schema errors of `object` in `channel` (`standard` or `experimental`); an unknown
    /// apiVersion/kind is an error too.
    pub fn errors(&self, channel: &str, object: &Generated) -> Vec<String> {
        self.json_errors(channel, &object.to_json())
    }

    /// The schema and unknown-field errors of a JSON object.
    pub fn json_errors(&self, channel: &str, json: &Value) -> Vec<String> {
        let key = (
            channel.to_string(),
            json["apiVersion"].as_str().unwrap_or_default().to_string(),
            json["kind"].as_str().unwrap_or_default().to_string(),
        );
        let Some(v) = self.validators.get(&key) else {
            return vec![format!("no {channel} CRD serves {} {}", key.1, key.2)];
        };
        let mut errors: Vec<String> = v
            .iter_errors(json)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        if let Some(schema) = self.raw.get(&key) {
            unknown_fields(schema, json, "", &mut errors);
        }
        errors
    }
}
