//! The `ingress-nginx` Helm chart: the values a release gives it (a Flux `HelmRelease`, an
//! Argo CD `Application`) and what its templates render from them that changes a request: the
//! controller's arguments, its ConfigMap's data and the IngressClass it creates.
//!
//! Facts from `kubernetes/ingress-nginx` at `dbb11b92ddb77bee9c35e462479129354c84f939`
//! (v1.15.1): `charts/ingress-nginx/templates/_params.tpl` (`ingress-nginx.params`),
//! `controller-configmap.yaml`, `controller-ingressclass.yaml` and `values.yaml` (the
//! defaults).

use std::collections::BTreeMap;

use serde_json::Value;

/// ingress-nginx's `--controller-class` default (`pkg/flags/flags.go`), which is also the
/// chart's `controller.ingressClassResource.controllerValue`.
pub const DEFAULT_NGINX_CONTROLLER: &str = "k8s.io/ingress-nginx";

/// The values of a Helm release of the `ingress-nginx` chart, merged as Helm merges them: a
/// Flux `HelmRelease`'s `spec.values`; an Argo CD `Application`'s `helm.values` (a YAML
/// string), then `helm.valuesObject` over it, then `helm.parameters` (dotted names). `None`
/// when the object installs another chart. Values files and `valuesFrom` are not read.
pub fn release_values(api_version: &str, kind: &str, doc: &Value) -> Option<Value> {
    let group = api_version.split('/').next().unwrap_or("");
    let is_chart = |name: Option<&Value>| name.and_then(Value::as_str) == Some("ingress-nginx");
    match (group, kind) {
        ("helm.toolkit.fluxcd.io", "HelmRelease") => {
            if !is_chart(doc.pointer("/spec/chart/spec/chart")) {
                return None;
            }
            Some(
                doc.pointer("/spec/values")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Default::default())),
            )
        }
        ("argoproj.io", "Application") => {
            let mut sources: Vec<&Value> = doc.pointer("/spec/source").into_iter().collect();
            if let Some(Value::Array(more)) = doc.pointer("/spec/sources") {
                sources.extend(more);
            }
            let source = sources.into_iter().find(|s| is_chart(s.get("chart")))?;
            let helm = source.get("helm");
            let mut values = helm
                .and_then(|h| h.get("values"))
                .and_then(Value::as_str)
                .and_then(|text| crate::yaml::from_str::<Value>(text).ok())
                .filter(Value::is_object)
                .unwrap_or_else(|| Value::Object(Default::default()));
            if let Some(object) = helm.and_then(|h| h.get("valuesObject")) {
                merge(&mut values, object);
            }
            for p in helm
                .and_then(|h| h.get("parameters"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (Some(name), Some(value)) = (
                    p.get("name").and_then(Value::as_str),
                    p.get("value").and_then(Value::as_str),
                ) else {
                    continue;
                };
                set_dotted(&mut values, name, Value::String(value.to_string()));
            }
            Some(values)
        }
        _ => None,
    }
}

/// Helm's value merge: maps merge key by key, anything else is replaced.
fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(existing) if existing.is_object() && v.is_object() => merge(existing, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

/// `--set a.b.c=value` as Argo CD's `parameters` give it (no list indexes).
fn set_dotted(values: &mut Value, name: &str, value: Value) {
    let mut at = values;
    let mut parts = name.split('.').peekable();
    while let Some(part) = parts.next() {
        if !at.is_object() {
            *at = Value::Object(Default::default());
        }
        let Value::Object(map) = at else { return };
        if parts.peek().is_none() {
            map.insert(part.to_string(), value);
            return;
        }
        at = map
            .entry(part.to_string())
            .or_insert_with(|| Value::Object(Default::default()));
    }
}

/// A chart value at `path` (dots), if given.
fn value<'a>(values: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(values, |v, p| v.get(p))
}

/// Go template truthiness of a value (`{{ if .Values.x }}`): false, 0, "", empty map or list
/// and null are false.
fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// A value as Helm's `toString` writes it into the ConfigMap.
pub(crate) fn to_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A chart value with the chart's default (`values.yaml`) when not given.
fn value_or<'a>(values: &'a Value, path: &str, default: &'a Value) -> &'a Value {
    value(values, path).unwrap_or(default)
}

/// The IngressClass the chart creates (`controller-ingressclass.yaml`): its name, its
/// `spec.controller` and whether it is marked default. `None` when
/// `controller.ingressClassResource.enabled` is false.
pub fn ingress_class(values: &Value) -> Option<(String, String, bool)> {
    let enabled = value(values, "controller.ingressClassResource.enabled")
        .map(|v| truthy(Some(v)))
        .unwrap_or(true);
    if !enabled {
        return None;
    }
    let name = value(values, "controller.ingressClassResource.name")
        .map(to_string)
        .unwrap_or_else(|| "nginx".into());
    Some((
        name,
        controller_class(values),
        truthy(value(values, "controller.ingressClassResource.default")),
    ))
}

/// `controller.ingressClassResource.controllerValue` (`--controller-class`).
pub fn controller_class(values: &Value) -> String {
    value(values, "controller.ingressClassResource.controllerValue")
        .map(to_string)
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| DEFAULT_NGINX_CONTROLLER.into())
}

/// The controller's flags and ConfigMap data the chart renders from `values`
/// (`_params.tpl` and `controller-configmap.yaml`; only what changes a request is kept).
pub fn rendered(values: &Value) -> (Vec<String>, BTreeMap<String, String>) {
    let t = Value::Bool(true);
    let f = Value::Bool(false);
    let mut flags = Vec::new();
    if !truthy(Some(value_or(
        values,
        "controller.enableAnnotationValidations",
        &t,
    ))) {
        flags.push("--enable-annotation-validation=false".to_string());
    }
    if truthy(value(values, "defaultBackend.enabled")) {
        flags
            .push("--default-backend-service=$(POD_NAMESPACE)/ingress-nginx-defaultbackend".into());
    }
    flags.push(format!("--controller-class={}", controller_class(values)));
    let ingress_class = value(values, "controller.ingressClass")
        .map(to_string)
        .unwrap_or_else(|| "nginx".into());
    if !ingress_class.is_empty() {
        flags.push(format!("--ingress-class={ingress_class}"));
    }
    if truthy(value(values, "controller.scope.enabled")) {
        let ns = value(values, "controller.scope.namespace")
            .map(to_string)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "$(POD_NAMESPACE)".into());
        flags.push(format!("--watch-namespace={ns}"));
    }
    if truthy(Some(value_or(values, "controller.ingressClassByName", &f))) {
        flags.push("--ingress-class-by-name=true".into());
    }
    if truthy(Some(value_or(
        values,
        "controller.watchIngressWithoutClass",
        &f,
    ))) {
        flags.push("--watch-ingress-without-class=true".into());
    }
    // `extraArgs`: `--key` for an empty value, else `--key=value` (`eq ($value | quote | len) 2`).
    if let Some(Value::Object(extra)) = value(values, "controller.extraArgs") {
        for (k, v) in extra {
            let v = to_string(v);
            flags.push(if v.is_empty() {
                format!("--{k}")
            } else {
                format!("--{k}={v}")
            });
        }
    }
    let mut config = BTreeMap::new();
    if truthy(value(values, "controller.allowSnippetAnnotations")) {
        config.insert("allow-snippet-annotations".into(), "true".into());
    }
    if truthy(value(values, "controller.addHeaders")) {
        config.insert(
            "add-headers".into(),
            "$(POD_NAMESPACE)/ingress-nginx-custom-add-headers".into(),
        );
    }
    if truthy(value(values, "controller.proxySetHeaders")) {
        config.insert(
            "proxy-set-headers".into(),
            "$(POD_NAMESPACE)/ingress-nginx-custom-proxy-headers".into(),
        );
    }
    if let Some(Value::Object(data)) = value(values, "controller.config") {
        for (k, v) in data {
            config.insert(k.clone(), to_string(v));
        }
    }
    (flags, config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flux_and_argo_releases_of_the_chart_give_its_values() {
        let flux = json!({"spec": {"chart": {"spec": {"chart": "ingress-nginx"}},
            "values": {"controller": {"config": {"hsts": false}}}}});
        let v = release_values("helm.toolkit.fluxcd.io/v2", "HelmRelease", &flux).unwrap();
        assert_eq!(v.pointer("/controller/config/hsts"), Some(&json!(false)));
        let other = json!({"spec": {"chart": {"spec": {"chart": "podinfo"}}}});
        assert!(release_values("helm.toolkit.fluxcd.io/v2", "HelmRelease", &other).is_none());
        // Argo CD: values (a string), valuesObject over it, parameters over both.
        let argo = json!({"spec": {"sources": [{"path": "apps"}, {"chart": "ingress-nginx",
            "helm": {"values": "controller:\n  config:\n    a: '1'\n    b: '1'\n",
                     "valuesObject": {"controller": {"config": {"b": "2"}}},
                     "parameters": [{"name": "controller.config.c", "value": "3"}]}}]}});
        let v = release_values("argoproj.io/v1alpha1", "Application", &argo).unwrap();
        assert_eq!(
            v.pointer("/controller/config"),
            Some(&json!({"a": "1", "b": "2", "c": "3"}))
        );
    }

    #[test]
    fn the_chart_renders_flags_config_and_ingress_class_as_its_templates_do() {
        let values = json!({"controller": {
            "config": {"hsts": false, "proxy-body-size": "8m", "worker-processes": 4},
            "extraArgs": {"enable-ssl-passthrough": "", "default-ssl-certificate": "ns/cert"},
            "watchIngressWithoutClass": true,
            "allowSnippetAnnotations": true,
            "ingressClassResource": {"name": "public", "controllerValue": "k8s.io/public", "default": true}}});
        let (flags, config) = rendered(&values);
        assert!(flags.contains(&"--enable-ssl-passthrough".to_string()));
        assert!(flags.contains(&"--default-ssl-certificate=ns/cert".to_string()));
        assert!(flags.contains(&"--watch-ingress-without-class=true".to_string()));
        assert!(flags.contains(&"--controller-class=k8s.io/public".to_string()));
        assert!(flags.contains(&"--ingress-class=nginx".to_string()));
        assert_eq!(config.get("hsts").map(String::as_str), Some("false"));
        assert_eq!(
            config.get("worker-processes").map(String::as_str),
            Some("4")
        );
        assert_eq!(
            config.get("allow-snippet-annotations").map(String::as_str),
            Some("true")
        );
        assert_eq!(
            ingress_class(&values),
            Some(("public".into(), "k8s.io/public".into(), true))
        );
        // Defaults: class `nginx` of `k8s.io/ingress-nginx`, annotation validation on.
        let (flags, config) = rendered(&json!({}));
        assert_eq!(
            flags,
            [
                "--controller-class=k8s.io/ingress-nginx",
                "--ingress-class=nginx"
            ]
        );
        assert!(config.is_empty());
        assert_eq!(
            ingress_class(&json!({})),
            Some(("nginx".into(), DEFAULT_NGINX_CONTROLLER.into(), false))
        );
        let off = json!({"controller": {"ingressClassResource": {"enabled": false}}});
        assert_eq!(ingress_class(&off), None);
    }
}
