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
//! What the `ingress-nginx` chart renders from a release's values is `model::helm_chart`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::config::{Config, ControllerConfig};
use crate::model::helm_chart::{self, DEFAULT_NGINX_CONTROLLER};
use crate::model::surrounding::Surrounding;
use crate::model::{SourceBody, SourceObject};

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
        let (flags, data) = helm_chart::rendered(values);
        let flags = flags
            .into_iter()
            .map(|a| a.replace("$(POD_NAMESPACE)", &obj.namespace))
            .collect();
        out.entry(helm_chart::controller_class(values))
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
                    out.config_map.insert(k.clone(), helm_chart::to_string(v));
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
