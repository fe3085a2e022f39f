//! Kubernetes Ingress models. Every accepted version (`networking.k8s.io/v1`,
//! `networking.k8s.io/v1beta1`, `extensions/v1beta1`) is normalised to the `v1` shape of
//! `k8s-openapi`, so the translator sees one type.

use serde_json::{Map, Value};

pub use k8s_openapi::api::networking::v1::{
    HTTPIngressPath, Ingress, IngressBackend, IngressRule, IngressServiceBackend, IngressSpec,
    IngressTLS, ServiceBackendPort,
};

/// The IngressClass annotation that marks the cluster default.
pub const DEFAULT_CLASS_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";
/// The pre-`ingressClassName` way of choosing a class.
pub const LEGACY_CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";

#[derive(Debug, Clone, Default)]
pub struct IngressClass {
    pub controller: Option<String>,
    pub is_default: bool,
}

/// Decodes an Ingress document of any supported version.
pub fn decode_ingress(api_version: &str, mut doc: Value) -> Result<Ingress, String> {
    if api_version != "networking.k8s.io/v1" {
        upgrade_legacy(&mut doc);
        if let Some(obj) = doc.as_object_mut() {
            obj.insert("apiVersion".into(), Value::from("networking.k8s.io/v1"));
        }
    }
    serde_json::from_value(doc).map_err(|e| e.to_string())
}

/// Rewrites the `v1beta1` backend shape (`serviceName`/`servicePort`, `spec.backend`) into the
/// `v1` one (`service.name`/`service.port.{number|name}`, `spec.defaultBackend`).
fn upgrade_legacy(doc: &mut Value) {
    let Some(spec) = doc.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(backend) = spec.remove("backend") {
        spec.insert("defaultBackend".into(), upgrade_backend(backend));
    }
    if let Some(rules) = spec.get_mut("rules").and_then(Value::as_array_mut) {
        for rule in rules {
            let Some(paths) = rule
                .pointer_mut("/http/paths")
                .and_then(Value::as_array_mut)
            else {
                continue;
            };
            for path in paths {
                let Some(path) = path.as_object_mut() else {
                    continue;
                };
                if let Some(backend) = path.remove("backend") {
                    path.insert("backend".into(), upgrade_backend(backend));
                }
                // v1beta1 allowed pathType to be absent; v1 requires it. ImplementationSpecific
                // is what the API server defaulted it to.
                path.entry("pathType")
                    .or_insert_with(|| Value::from("ImplementationSpecific"));
            }
        }
    }
}

fn upgrade_backend(backend: Value) -> Value {
    let Value::Object(mut b) = backend else {
        return backend;
    };
    if b.contains_key("service") || b.contains_key("resource") {
        return Value::Object(b);
    }
    let name = b.remove("serviceName");
    let port = b.remove("servicePort");
    let mut service = Map::new();
    if let Some(name) = name {
        service.insert("name".into(), name);
    }
    if let Some(port) = port {
        let mut p = Map::new();
        match port {
            Value::Number(n) => {
                p.insert("number".into(), Value::Number(n));
            }
            Value::String(s) => match s.parse::<i64>() {
                Ok(n) => {
                    p.insert("number".into(), Value::from(n));
                }
                Err(_) => {
                    p.insert("name".into(), Value::String(s));
                }
            },
            other => {
                p.insert("name".into(), other);
            }
        }
        service.insert("port".into(), Value::Object(p));
    }
    b.insert("service".into(), Value::Object(service));
    Value::Object(b)
}

/// The Ingress's class: `spec.ingressClassName`, else the legacy annotation.
pub fn class_of(ingress: &Ingress) -> Option<String> {
    ingress
        .spec
        .as_ref()
        .and_then(|s| s.ingress_class_name.clone())
        .or_else(|| {
            ingress
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(LEGACY_CLASS_ANNOTATION).cloned())
        })
}

/// The path of a field as written in a legacy Ingress (`extensions/v1beta1`,
/// `networking.k8s.io/v1beta1`), given its path in the `networking.k8s.io/v1` form the object
/// was normalised to: `spec.backend` for `spec.defaultBackend`, `serviceName` and
/// `servicePort` for `service.name` and `service.port`.
pub fn legacy_field_path(v1_path: &str) -> String {
    let path = match v1_path.strip_prefix("spec.defaultBackend") {
        Some(rest) => format!("spec.backend{rest}"),
        None => v1_path.to_string(),
    };
    // Ingress paths have no quoted steps, so `.` separates them.
    let steps: Vec<&str> = path.split('.').collect();
    let mut out: Vec<&str> = Vec::with_capacity(steps.len());
    let mut i = 0;
    while i < steps.len() {
        let after_backend = out.last().is_some_and(|s| s.ends_with("backend"));
        if after_backend && steps[i] == "service" {
            match steps.get(i + 1).copied() {
                Some("port") => {
                    out.push("servicePort");
                    // `port.number` / `port.name` are both the one `servicePort`.
                    i += if matches!(steps.get(i + 2).copied(), Some("number" | "name")) {
                        3
                    } else {
                        2
                    };
                }
                Some("name") => {
                    out.push("serviceName");
                    i += 2;
                }
                _ => {
                    out.push("serviceName");
                    i += 1;
                }
            }
            continue;
        }
        out.push(steps[i]);
        i += 1;
    }
    out.join(".")
}

#[cfg(test)]
mod legacy_path_tests {
    use super::legacy_field_path;

    #[test]
    fn v1_paths_map_to_the_legacy_field_names() {
        assert_eq!(legacy_field_path("spec.defaultBackend"), "spec.backend");
        assert_eq!(
            legacy_field_path("spec.defaultBackend.service.port.number"),
            "spec.backend.servicePort"
        );
        assert_eq!(
            legacy_field_path("spec.rules[0].http.paths[1].backend.service.name"),
            "spec.rules[0].http.paths[1].backend.serviceName"
        );
        assert_eq!(legacy_field_path("spec.tls[0].hosts"), "spec.tls[0].hosts");
    }
}
