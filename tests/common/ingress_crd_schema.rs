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
}

impl CrdSchemas {
    pub fn load() -> CrdSchemas {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/crds/gateway-api-v1.6.1");
        let mut validators = BTreeMap::new();
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
                let group = crd["spec"]["group"].as_str().unwrap_or_default().to_string();
                let kind = crd["spec"]["names"]["kind"].as_str().unwrap_or_default().to_string();
                for version in crd["spec"]["versions"].as_array().into_iter().flatten() {
                    let name = version["name"].as_str().unwrap_or_default();
                    let schema = &version["schema"]["openAPIV3Schema"];
                    let validator = jsonschema::validator_for(schema).unwrap_or_else(|e| {
                        panic!("{}: {kind} {name}: bad schema: {e}", file.display())
                    });
                    validators.insert(
                        (channel.to_string(), format!("{group}/{name}"), kind.clone()),
                        validator,
                    );
                }
            }
        }
        assert!(!validators.is_empty(), "no CRD schema loaded");
        CrdSchemas { validators }
    }

    /// The schema errors of `object` in `channel` (`standard` or `experimental`); an unknown
    /// apiVersion/kind is an error too.
    pub fn errors(&self, channel: &str, object: &Generated) -> Vec<String> {
        let key = (
            channel.to_string(),
            object.api_version().to_string(),
            object.kind().to_string(),
        );
        let Some(v) = self.validators.get(&key) else {
            return vec![format!("no {channel} CRD serves {} {}", key.1, key.2)];
        };
        let json = object.to_json();
        v.iter_errors(&json)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect()
    }
}
