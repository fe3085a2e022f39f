//! The ingress-nginx controllers that served the repository's Ingresses, and where each one's
//! configuration comes from: the controller's workload and ConfigMap in the repository, a Helm
//! release of the `ingress-nginx` chart (Flux `HelmRelease`, Argo CD `Application`), the
//! configuration file's `controllers:` or `--controller-config`. A controller none of these
//! describes runs with ingress-nginx's defaults, which the run names once per class
//! (`ingress-nginx/controller-config-assumed`).
//!
//! Invariant: one [`NginxController`] per controller class (`spec.controller` of the
//! IngressClasses it serves); configuration the user gives replaces what the repository says.
//!
//! Chart facts are from `kubernetes/ingress-nginx` at `dbb11b92ddb77bee9c35e462479129354c84f939`
//! (v1.15.1): `charts/ingress-nginx/templates/_params.tpl` (`ingress-nginx.params`, the
//! controller's arguments), `controller-configmap.yaml` (the ConfigMap's data),
//! `controller-ingressclass.yaml` and `values.yaml` (the defaults).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::config::{Config, ControllerConfig};
use crate::model::surrounding::Surrounding;
use crate::model::{SourceBody, SourceObject};

/// ingress-nginx's `--controller-class` default (`pkg/flags/flags.go`), which is also the
/// chart's `controller.ingressClassResource.controllerValue`.
pub(crate) const DEFAULT_NGINX_CONTROLLER: &str = "k8s.io/ingress-nginx";

/// Where a controller's configuration was read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum ConfigSource {
    /// The controller's workload (its arguments) and the ConfigMap its `--configmap` names.
    Manifests { file: String },
    /// A Helm release of the `ingress-nginx` chart: the values the repository gives it.
    HelmRelease { file: String, object: String },
    /// `controllers.<class>` of the configuration file, or `--controller-config`.
    Configuration { class: String },
    /// Nothing describes the controller: ingress-nginx's defaults.
    Assumed,
}

/// An ingress-nginx controller as the run used it for one IngressClass (the report's
/// `controllers`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ControllerUse {
    /// The IngressClass (`None`: Ingresses without a class).
    pub class: Option<String>,
    /// Its controller class (`spec.controller`).
    pub controller: String,
    pub source: ConfigSource,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    #[serde(rename = "configMap", skip_serializing_if = "BTreeMap::is_empty")]
    pub config_map: BTreeMap<String, String>,
    /// With [`ConfigSource::Assumed`]: the defaults that matter most ([`ASSUMED_SETTINGS`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub assumed: BTreeMap<String, String>,
}

impl ControllerUse {
    /// The use of `controller` (as the index knows it, `None`: assumed) for `class`.
    pub fn new(class: Option<String>, controller: String, known: Option<&NginxController>) -> Self {
        match known {
            Some(c) => ControllerUse {
                class,
                controller,
                source: c.source.clone(),
                flags: c.flags.clone(),
                config_map: c.config.clone(),
                assumed: BTreeMap::new(),
            },
            None => ControllerUse {
                class,
                controller,
                source: ConfigSource::Assumed,
                flags: Vec::new(),
                config_map: BTreeMap::new(),
                assumed: assumed_defaults()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            },
        }
    }
}

/// An ingress-nginx controller: its flags (with `$(POD_NAMESPACE)` expanded) and the data of
/// its ConfigMap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NginxController {
    pub flags: Vec<String>,
    #[serde(rename = "configMap")]
    pub config: BTreeMap<String, String>,
    pub source: ConfigSource,
}

/// The settings whose defaults matter most when a controller's configuration is not known,
/// named in `ingress-nginx/controller-config-assumed` and listed in the report: ConfigMap
/// keys first, then flags (defaults from [`crate::semantics::ingress_nginx::settings`]).
pub const ASSUMED_SETTINGS: &[&str] = &[
    "hsts",
    "hsts-max-age",
    "hsts-include-subdomains",
    "ssl-redirect",
    "no-tls-redirect-locations",
    "proxy-connect-timeout",
    "proxy-read-timeout",
    "proxy-send-timeout",
    "proxy-body-size",
    "annotations-risk-level",
    "allow-snippet-annotations",
    "whitelist-source-range",
    "global-auth-url",
    "--annotations-prefix",
    "--enable-ssl-passthrough",
    "--default-ssl-certificate",
    "--watch-ingress-without-class",
];

/// [`ASSUMED_SETTINGS`] with their defaults, as a ConfigMap or command line writes them
/// (`""`: empty, or a flag not given).
pub fn assumed_defaults() -> impl Iterator<Item = (&'static str, &'static str)> {
    ASSUMED_SETTINGS.iter().map(|name| {
        (
            *name,
            crate::semantics::ingress_nginx::settings::default_of(name).unwrap_or(""),
        )
    })
}

/// The values of a Helm release of the `ingress-nginx` chart, merged as Helm merges them: a
/// Flux `HelmRelease`'s `spec.values`; an Argo CD `Application`'s `helm.values` (a YAML
/// string), then `helm.valuesObject` over it, then `helm.parameters` (dotted names). `None`
/// when the object installs another chart. Values files and `valuesFrom` are not read.
pub fn chart_values(api_version: &str, kind: &str, doc: &Value) -> Option<Value> {
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
fn to_string(v: &Value) -> String {
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
pub fn chart_ingress_class(values: &Value) -> Option<(String, String, bool)> {
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
        chart_controller_class(values),
        truthy(value(values, "controller.ingressClassResource.default")),
    ))
}

/// `controller.ingressClassResource.controllerValue` (`--controller-class`).
fn chart_controller_class(values: &Value) -> String {
    value(values, "controller.ingressClassResource.controllerValue")
        .map(to_string)
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| DEFAULT_NGINX_CONTROLLER.into())
}

/// The controller's flags and ConfigMap data the chart renders from `values`
/// (`_params.tpl` and `controller-configmap.yaml`; only what changes a request is kept).
fn from_chart(values: &Value) -> (Vec<String>, BTreeMap<String, String>) {
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
    flags.push(format!(
        "--controller-class={}",
        chart_controller_class(values)
    ));
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

/// The value of `--name=value` among `flags` (the last one wins, as with Go's `flag`).
fn flag_value<'a>(flags: &'a [String], name: &str) -> Option<&'a str> {
    flags
        .iter()
        .rev()
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
}

/// Every ingress-nginx controller of the run, by controller class: from the repository's
/// manifests (the first controller of a class read wins), else its Helm releases; then the
/// configuration's `controllers:` (keyed by IngressClass name) replaces what it names.
pub(crate) fn nginx_controllers(
    objects: &[SourceObject],
    config: &Config,
) -> BTreeMap<String, NginxController> {
    let mut config_maps: BTreeMap<(&str, &str), &BTreeMap<String, String>> = BTreeMap::new();
    for obj in objects {
        if let SourceBody::Surrounding(Surrounding::ConfigMap { data }) = &obj.body {
            config_maps
                .entry((obj.namespace.as_str(), obj.meta.name.as_str()))
                .or_insert(data);
        }
    }
    let mut out: BTreeMap<String, NginxController> = BTreeMap::new();
    for obj in objects {
        let SourceBody::Surrounding(Surrounding::NginxController { args }) = &obj.body else {
            continue;
        };
        let flags: Vec<String> = args
            .iter()
            .filter(|a| a.starts_with("--"))
            .map(|a| a.replace("$(POD_NAMESPACE)", &obj.namespace))
            .collect();
        let class = flag_value(&flags, "--controller-class")
            .unwrap_or(DEFAULT_NGINX_CONTROLLER)
            .to_string();
        let data = flag_value(&flags, "--configmap")
            .and_then(|r| r.split_once('/'))
            .and_then(|(ns, name)| config_maps.get(&(ns, name)))
            .map(|d| (*d).clone())
            .unwrap_or_default();
        out.entry(class).or_insert(NginxController {
            flags,
            config: data,
            source: ConfigSource::Manifests {
                file: obj.source.file.clone(),
            },
        });
    }
    for obj in objects {
        let SourceBody::Surrounding(Surrounding::NginxHelmRelease { values }) = &obj.body else {
            continue;
        };
        let (flags, data) = from_chart(values);
        let flags = flags
            .into_iter()
            .map(|a| a.replace("$(POD_NAMESPACE)", &obj.namespace))
            .collect();
        out.entry(chart_controller_class(values))
            .or_insert(NginxController {
                flags,
                config: data,
                source: ConfigSource::HelmRelease {
                    file: obj.source.file.clone(),
                    object: format!("{}/{}", obj.kind, obj.meta.name),
                },
            });
    }
    for (class, given) in &config.controllers {
        if class == crate::config::ANY_INGRESS_CLASS {
            continue;
        }
        let controller_class = controller_class_of(objects, class);
        let previous = out.remove(&controller_class);
        out.insert(
            controller_class.clone(),
            configured(class, &controller_class, given, previous),
        );
    }
    out
}

/// `--controller-config`: a controller's configuration as `kubectl get ... -o yaml` prints
/// it. Every ConfigMap's `data` (in a `List` too) becomes `configMap` (later ones override
/// earlier keys); the arguments of a workload running ingress-nginx's controller become
/// `flags`. A file with neither is an error, so that a wrong file does not pass for the
/// defaults.
pub fn read_controller_file(text: &str) -> Result<ControllerConfig, String> {
    let mut out = ControllerConfig::default();
    let mut found = false;
    let bytes = text.as_bytes();
    let mut docs = Vec::new();
    for span in crate::load::split::split(bytes) {
        let piece = String::from_utf8_lossy(span.slice(bytes));
        match crate::yaml::parse_document(&piece) {
            Ok(Some(doc)) => docs.push(doc),
            Ok(None) => {}
            Err(e) => {
                return Err(format!(
                    "line {}: {}",
                    span.line + e.line.unwrap_or(1) - 1,
                    e.message
                ));
            }
        }
    }
    while let Some(doc) = docs.pop() {
        let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
        if kind == "List" || kind.ends_with("List") {
            if let Some(Value::Array(items)) = doc.get("items") {
                docs.extend(items.iter().rev().cloned());
            }
            continue;
        }
        if kind == "ConfigMap" {
            found = true;
            if let Some(Value::Object(data)) = doc.get("data") {
                for (k, v) in data {
                    out.config_map.insert(k.clone(), to_string(v));
                }
            }
            continue;
        }
        let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        if let Some(Surrounding::NginxController { args }) =
            crate::model::surrounding::decode(api_version, kind, &doc)
        {
            found = true;
            out.flags = args.into_iter().filter(|a| a.starts_with("--")).collect();
        }
    }
    if !found {
        return Err("no ConfigMap and no ingress-nginx controller workload in it".into());
    }
    Ok(out)
}

/// `controllers."*"`: the controller every ingress-nginx class runs with when nothing else
/// describes it.
pub(crate) fn any_nginx_controller(config: &Config) -> Option<NginxController> {
    let given = config.controllers.get(crate::config::ANY_INGRESS_CLASS)?;
    let mut c = configured(
        crate::config::ANY_INGRESS_CLASS,
        DEFAULT_NGINX_CONTROLLER,
        given,
        None,
    );
    // The controller class is the one asked for, not the default's.
    c.flags.retain(|f| !f.starts_with("--controller-class"));
    Some(c)
}

/// The controller a configured class names: its IngressClass's `spec.controller`, else
/// ingress-nginx's default.
fn controller_class_of(objects: &[SourceObject], class: &str) -> String {
    objects
        .iter()
        .find_map(|o| match &o.body {
            SourceBody::IngressClass(c) if o.meta.name == class => c.controller.clone(),
            _ => None,
        })
        .unwrap_or_else(|| DEFAULT_NGINX_CONTROLLER.into())
}

/// A controller as `controllers.<class>` describes it: its flags when given (else the ones the
/// repository shows, else only the controller class), its ConfigMap data when given (else
/// none: the defaults).
fn configured(
    class: &str,
    controller_class: &str,
    given: &ControllerConfig,
    previous: Option<NginxController>,
) -> NginxController {
    let mut flags = if given.flags.is_empty() {
        previous.map(|p| p.flags).unwrap_or_default()
    } else {
        given.flags.clone()
    };
    if flag_value(&flags, "--controller-class").is_none() {
        flags.push(format!("--controller-class={controller_class}"));
    }
    NginxController {
        flags,
        config: given.config_map.clone(),
        source: ConfigSource::Configuration {
            class: class.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flux_and_argo_releases_of_the_chart_give_its_values() {
        let flux = json!({"spec": {"chart": {"spec": {"chart": "ingress-nginx"}},
            "values": {"controller": {"config": {"hsts": false}}}}});
        let v = chart_values("helm.toolkit.fluxcd.io/v2", "HelmRelease", &flux).unwrap();
        assert_eq!(v.pointer("/controller/config/hsts"), Some(&json!(false)));
        let other = json!({"spec": {"chart": {"spec": {"chart": "podinfo"}}}});
        assert!(chart_values("helm.toolkit.fluxcd.io/v2", "HelmRelease", &other).is_none());
        // Argo CD: values (a string), valuesObject over it, parameters over both.
        let argo = json!({"spec": {"sources": [{"path": "apps"}, {"chart": "ingress-nginx",
            "helm": {"values": "controller:\n  config:\n    a: '1'\n    b: '1'\n",
                     "valuesObject": {"controller": {"config": {"b": "2"}}},
                     "parameters": [{"name": "controller.config.c", "value": "3"}]}}]}});
        let v = chart_values("argoproj.io/v1alpha1", "Application", &argo).unwrap();
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
        let (flags, config) = from_chart(&values);
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
            chart_ingress_class(&values),
            Some(("public".into(), "k8s.io/public".into(), true))
        );
        // Defaults: class `nginx` of `k8s.io/ingress-nginx`, annotation validation on.
        let (flags, config) = from_chart(&json!({}));
        assert_eq!(
            flags,
            [
                "--controller-class=k8s.io/ingress-nginx",
                "--ingress-class=nginx"
            ]
        );
        assert!(config.is_empty());
        assert_eq!(
            chart_ingress_class(&json!({})),
            Some(("nginx".into(), DEFAULT_NGINX_CONTROLLER.into(), false))
        );
        let off = json!({"controller": {"ingressClassResource": {"enabled": false}}});
        assert_eq!(chart_ingress_class(&off), None);
    }
}
