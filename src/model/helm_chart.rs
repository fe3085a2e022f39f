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

/// A Helm release of the `ingress-nginx` chart: the values the repository gives it, and the
/// sources of values it names that are not read (they may change what the chart renders).
#[derive(Debug, Clone, PartialEq)]
pub struct Release {
    pub values: Value,
    pub unread: Vec<String>,
}

/// The release of the `ingress-nginx` chart an object makes, if it makes one: a Flux
/// `HelmRelease`'s `spec.values` (`spec.valuesFrom`, `spec.chart.spec.valuesFiles` and
/// `spec.postRenderers` are not read); an Argo CD `Application`'s
/// `helm.valuesObject`, else its `helm.values` (a YAML string: Argo CD's `ValuesYAML` uses the
/// object when there is one, not both), then `helm.parameters` (dotted names, as `--set`);
/// `helm.valueFiles` are not read.
pub fn release(api_version: &str, kind: &str, doc: &Value) -> Option<Release> {
    let group = api_version.split('/').next().unwrap_or("");
    let is_chart = |name: Option<&Value>| name.and_then(Value::as_str) == Some("ingress-nginx");
    let empty = || Value::Object(Default::default());
    match (group, kind) {
        ("helm.toolkit.fluxcd.io", "HelmRelease") => {
            if !is_chart(doc.pointer("/spec/chart/spec/chart")) {
                return None;
            }
            let unread = [
                "/spec/valuesFrom",
                "/spec/chart/spec/valuesFiles",
                "/spec/postRenderers",
            ]
            .iter()
            .filter(|p| {
                doc.pointer(p)
                    .and_then(Value::as_array)
                    .is_some_and(|v| !v.is_empty())
            })
            .map(|p| p.trim_start_matches('/').replace('/', "."))
            .collect();
            Some(Release {
                values: doc.pointer("/spec/values").cloned().unwrap_or_else(empty),
                unread,
            })
        }
        ("argoproj.io", "Application") => {
            let mut sources: Vec<&Value> = doc.pointer("/spec/source").into_iter().collect();
            if let Some(Value::Array(more)) = doc.pointer("/spec/sources") {
                sources.extend(more);
            }
            let source = sources.into_iter().find(|s| is_chart(s.get("chart")))?;
            let helm = source.get("helm");
            let mut values = match helm.and_then(|h| h.get("valuesObject")) {
                Some(object) if object.is_object() => object.clone(),
                _ => helm
                    .and_then(|h| h.get("values"))
                    .and_then(Value::as_str)
                    .and_then(|text| crate::yaml::from_str::<Value>(text).ok())
                    .filter(Value::is_object)
                    .unwrap_or_else(empty),
            };
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
            let unread = helm
                .and_then(|h| h.get("valueFiles"))
                .and_then(Value::as_array)
                .filter(|v| !v.is_empty())
                .map(|_| vec!["helm.valueFiles".to_string()])
                .unwrap_or_default();
            Some(Release { values, unread })
        }
        _ => None,
    }
}

/// The `meshConfig` a Helm release of Istio's `istiod` chart gives (Flux `HelmRelease`
/// `spec.values.meshConfig`; Argo CD `helm.valuesObject`, else `helm.values`, `.meshConfig`).
pub fn istiod_mesh(api_version: &str, kind: &str, doc: &Value) -> Option<Value> {
    let group = api_version.split('/').next().unwrap_or("");
    let is_chart = |name: Option<&Value>| name.and_then(Value::as_str) == Some("istiod");
    let values = match (group, kind) {
        ("helm.toolkit.fluxcd.io", "HelmRelease") => {
            if !is_chart(doc.pointer("/spec/chart/spec/chart")) {
                return None;
            }
            doc.pointer("/spec/values").cloned()
        }
        ("argoproj.io", "Application") => {
            let mut sources: Vec<&Value> = doc.pointer("/spec/source").into_iter().collect();
            if let Some(Value::Array(more)) = doc.pointer("/spec/sources") {
                sources.extend(more);
            }
            let helm = sources
                .into_iter()
                .find(|s| is_chart(s.get("chart")))?
                .get("helm");
            match helm.and_then(|h| h.get("valuesObject")) {
                Some(object) if object.is_object() => Some(object.clone()),
                _ => helm
                    .and_then(|h| h.get("values"))
                    .and_then(Value::as_str)
                    .and_then(|text| crate::yaml::from_str::<Value>(text).ok()),
            }
        }
        _ => return None,
    };
    Some(
        values
            .and_then(|v| v.get("meshConfig").cloned())
            .unwrap_or(Value::Null),
    )
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

/// Helm's `tpl` for the templates a value is likely to hold: text with `{{ .Values.a.b }}`
/// actions (with `-` trim markers or not). `None` for any other action, which is not
/// rendered here.
fn tpl(text: &str, values: &Value) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let end = rest[start..].find("}}")? + start;
        let mut before = &rest[..start];
        let action = &rest[start + 2..end];
        let mut after = &rest[end + 2..];
        let mut inner = action;
        if let Some(trimmed) = inner.strip_prefix('-') {
            before = before.trim_end();
            inner = trimmed;
        }
        if let Some(trimmed) = inner.strip_suffix('-') {
            after = after.trim_start();
            inner = trimmed;
        }
        let path = inner.trim().strip_prefix(".Values.")?;
        if !path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
        {
            return None;
        }
        out.push_str(before);
        // A missing value renders as `<no value>`, as Go's text/template prints it.
        out.push_str(&value(values, path).map_or("<no value>".into(), to_string));
        rest = after;
    }
    out.push_str(rest);
    Some(out)
}

/// A value as Helm's `toString` writes it into the ConfigMap. Helm reads values through JSON,
/// so every number is a Go `float64`, and `toString` prints it with `%v`: `31536000`
/// becomes `3.1536e+07` ([`go_float`]).
pub(crate) fn to_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), go_float),
        other => other.to_string(),
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` (what `%v` prints for a `float64`): the
/// shortest digits, in exponent form when the exponent is below -4 or at least the
/// precision (6, or the number of digits when they are more and reach the decimal point).
pub(crate) fn go_float(f: f64) -> String {
    if f == 0.0 || !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f.is_infinite() {
            if f > 0.0 {
                "+Inf".into()
            } else {
                "-Inf".into()
            }
        } else {
            "0".into()
        };
    }
    let sign = if f < 0.0 { "-" } else { "" };
    // Rust's `{:e}` is the shortest round-tripping form too: `3.1536e7`.
    let exp_form = format!("{:e}", f.abs());
    let (mantissa, exp) = exp_form.split_once('e').unwrap_or((exp_form.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let nd = i32::try_from(digits.len()).unwrap_or(i32::MAX);
    let dp = exp + 1;
    let eprec = if 6 > nd && nd >= dp { nd } else { 6 };
    if exp < -4 || exp >= eprec {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{rest}e{esign}{:02}", exp.abs());
    }
    let body = if dp <= 0 {
        format!(
            "0.{}{digits}",
            "0".repeat(usize::try_from(-dp).unwrap_or(0))
        )
    } else if dp >= nd {
        format!(
            "{digits}{}",
            "0".repeat(usize::try_from(dp - nd).unwrap_or(0))
        )
    } else {
        let (a, b) = digits.split_at(usize::try_from(dp).unwrap_or(0));
        format!("{a}.{b}")
    };
    format!("{sign}{body}")
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

/// What the chart renders for the controller from `values`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    pub flags: Vec<String>,
    pub config: BTreeMap<String, String>,
    /// ConfigMap keys whose value is a template this does not render.
    pub unrendered: Vec<String>,
}

/// The controller's flags and ConfigMap data the chart renders from `values`
/// (`_params.tpl` and `controller-configmap.yaml`; only what changes a request is kept).
pub fn rendered(values: &Value) -> Rendered {
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
    let mut unrendered = Vec::new();
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
        // A null value deletes the key when Helm merges the values (`chartutil.CoalesceValues`).
        for (k, v) in data.iter().filter(|(_, v)| !v.is_null()) {
            // `tpl (toString $value) $`: the value is itself a template over the values.
            match tpl(&to_string(v), values) {
                Some(text) => {
                    config.insert(k.clone(), text);
                }
                None => unrendered.push(k.clone()),
            }
        }
    }
    Rendered {
        flags,
        config,
        unrendered,
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
        let v = release("helm.toolkit.fluxcd.io/v2", "HelmRelease", &flux)
            .unwrap()
            .values;
        assert_eq!(v.pointer("/controller/config/hsts"), Some(&json!(false)));
        let other = json!({"spec": {"chart": {"spec": {"chart": "podinfo"}}}});
        assert!(release("helm.toolkit.fluxcd.io/v2", "HelmRelease", &other).is_none());
        // Argo CD: valuesObject instead of values (not merged), parameters over it.
        let argo = json!({"spec": {"sources": [{"path": "apps"}, {"chart": "ingress-nginx",
            "helm": {"values": "controller:\n  config:\n    a: '1'\n    b: '1'\n",
                     "valuesObject": {"controller": {"config": {"b": "2"}}},
                     "parameters": [{"name": "controller.config.c", "value": "3"}],
                     "valueFiles": ["values-prod.yaml"]}}]}});
        let r = release("argoproj.io/v1alpha1", "Application", &argo).unwrap();
        assert_eq!(
            r.values.pointer("/controller/config"),
            Some(&json!({"b": "2", "c": "3"}))
        );
        assert_eq!(r.unread, ["helm.valueFiles"]);
        // values alone is read.
        let only = json!({"spec": {"source": {"chart": "ingress-nginx",
            "helm": {"values": "controller:\n  config:\n    a: '1'\n"}}}});
        let r = release("argoproj.io/v1alpha1", "Application", &only).unwrap();
        assert_eq!(r.values.pointer("/controller/config/a"), Some(&json!("1")));
        assert!(r.unread.is_empty());
    }

    // Go's `fmt.Sprint(float64(x))`, which Helm's `toString` gives a number of the values.
    #[test]
    fn numbers_print_as_go_prints_a_float64() {
        for (f, go) in [
            (31536000.0, "3.1536e+07"),
            (600.0, "600"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (21.0, "21"),
            (0.5, "0.5"),
            (1.5, "1.5"),
            (0.00001, "1e-05"),
            (-42.0, "-42"),
            (0.0, "0"),
        ] {
            assert_eq!(go_float(f), go, "{f}");
        }
        let values = json!({"controller": {"config": {"hsts-max-age": 31536000, "gone": null}}});
        let config = rendered(&values).config;
        assert_eq!(
            config.get("hsts-max-age").map(String::as_str),
            Some("3.1536e+07")
        );
        assert!(!config.contains_key("gone"));
        // `tpl`: `.Values` references render; anything else is left unrendered.
        let values = json!({"hstsEnabled": false, "controller": {"config": {
            "hsts": "{{ .Values.hstsEnabled }}", "x": "{{ include \"t\" . }}", "y": "a {{- .Values.no -}} b", "z": "a-{{ .Values.hstsEnabled }}-b"}}});
        let r = rendered(&values);
        assert_eq!(r.config.get("hsts").map(String::as_str), Some("false"));
        assert_eq!(r.config.get("y").map(String::as_str), Some("a<no value>b"));
        assert_eq!(r.config.get("z").map(String::as_str), Some("a-false-b"));
        assert_eq!(r.unrendered, ["x"]);
    }

    #[test]
    fn the_chart_renders_flags_config_and_ingress_class_as_its_templates_do() {
        let values = json!({"controller": {
            "config": {"hsts": false, "proxy-body-size": "8m", "worker-processes": 4},
            "extraArgs": {"enable-ssl-passthrough": "", "default-ssl-certificate": "ns/cert"},
            "watchIngressWithoutClass": true,
            "allowSnippetAnnotations": true,
            "ingressClassResource": {"name": "public", "controllerValue": "k8s.io/public", "default": true}}});
        let Rendered { flags, config, .. } = rendered(&values);
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
        let Rendered { flags, config, .. } = rendered(&json!({}));
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
