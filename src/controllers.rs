//! The ingress-nginx controllers that served the repository's Ingresses, and where each one's
//! configuration comes from: the controller's workload and ConfigMap in the repository, a Helm
//! release of the `ingress-nginx` chart (Flux `HelmRelease`, Argo CD `Application`), the
//! configuration file's `controllers:` or `--controller-config`. A controller none of these
//! describes runs with ingress-nginx's defaults, which the run names once per class
//! (`ingress-nginx/controller-config-assumed`).
//!
//! Invariant: one [`NginxController`] per controller class (`spec.controller` of the
//! IngressClasses it serves); configuration the user gives wins over what the repository says
//! (ConfigMap keys merged over it, flags replacing it); whatever is known only in part is a
//! caveat the run names (`ingress-nginx/controller-config-incomplete`), never a silent guess.
//!
//! Istio's mesh configuration ([`IstioMesh`]) is found here too. What the `ingress-nginx`
//! chart renders from a release's values is `model::helm_chart`.

use std::collections::{BTreeMap, BTreeSet};

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
    /// What keeps a known configuration from being complete.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub caveats: Vec<String>,
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
                caveats: c.caveats.clone(),
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
                caveats: Vec::new(),
            },
        }
    }
}

impl NginxController {
    /// The value of `--name=value` (the last one given wins).
    pub fn flag_value(&self, name: &str) -> Option<&str> {
        flag_value(&self.flags, name)
    }

    /// A boolean flag: its last occurrence, bare (true) or `=value` (`strconv.ParseBool`).
    pub fn flag(&self, name: &str) -> bool {
        self.flags
            .iter()
            .rev()
            .find_map(|f| {
                if f == name {
                    Some(true)
                } else {
                    let v = f.strip_prefix(name)?.strip_prefix('=')?;
                    Some(crate::semantics::ingress_nginx::parse_bool(v) == Some(true))
                }
            })
            .unwrap_or(false)
    }

    /// Whether the controller watches `namespace` (`--watch-namespace`, one namespace;
    /// `--watch-namespace-selector`, a label selector on namespaces, `labels`). `None`: the
    /// selector is not one this reads (only `key`, `!key`, `key=value`, `key==value`,
    /// `key!=value` terms).
    pub fn watches(
        &self,
        namespace: &str,
        labels: Option<&BTreeMap<String, String>>,
    ) -> Option<bool> {
        if let Some(only) = self
            .flag_value("--watch-namespace")
            .filter(|n| !n.is_empty())
        {
            return Some(only == namespace);
        }
        let Some(selector) = self
            .flag_value("--watch-namespace-selector")
            .filter(|s| !s.is_empty())
        else {
            return Some(true);
        };
        let empty = BTreeMap::new();
        let labels = labels.unwrap_or(&empty);
        let mut all = true;
        for term in selector.split(',').map(str::trim) {
            let holds = if let Some((k, v)) = term.split_once("!=") {
                labels.get(k.trim()).map(String::as_str) != Some(v.trim())
            } else if let Some((k, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
                labels.get(k.trim()).map(String::as_str) == Some(v.trim())
            } else if let Some(k) = term.strip_prefix('!') {
                !labels.contains_key(k.trim())
            } else if term.contains(' ') || term.contains('(') {
                return None;
            } else {
                labels.contains_key(term)
            };
            all &= holds;
        }
        Some(all)
    }
}

impl ConfigSource {
    /// Where the configuration came from, for messages.
    pub fn describe(&self) -> String {
        match self {
            ConfigSource::Manifests { file } => format!("the controller workload in {file}"),
            ConfigSource::HelmRelease { file, object } => {
                format!("the Helm release {object} in {file}")
            }
            ConfigSource::Configuration { class } => {
                format!("controllers.{class} of the configuration (or --controller-config)")
            }
            ConfigSource::Assumed => "ingress-nginx's defaults".into(),
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
    /// What keeps the configuration from being known in full (values not read, a ConfigMap
    /// not found, another installation of the same class), each named by
    /// `ingress-nginx/controller-config-incomplete`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub caveats: Vec<String>,
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

/// The ConfigMap keys the Ingress translation applies (or reports with a code of its own),
/// read by the translator (`translate::ingress`); a test checks each is read there.
pub const TRANSLATED_SETTINGS: &[&str] = &[
    "allow-cross-namespace-resources",
    "allow-snippet-annotations",
    "annotation-value-word-blocklist",
    "annotations-risk-level",
    "block-cidrs",
    "denylist-source-range",
    "enable-real-ip",
    "force-ssl-redirect",
    "global-auth-url",
    "hsts",
    "hsts-include-subdomains",
    "hsts-max-age",
    "hsts-preload",
    "http-redirect-code",
    "no-auth-locations",
    "no-tls-redirect-locations",
    "ssl-redirect",
    "use-forwarded-headers",
    "use-proxy-protocol",
    "whitelist-source-range",
];

/// The controller flags the Ingress translation applies, checked the same way.
pub const TRANSLATED_FLAGS: &[&str] = &[
    "--annotations-prefix",
    "--controller-class",
    "--default-ssl-certificate",
    "--disable-catch-all",
    "--enable-annotation-validation",
    "--enable-ssl-passthrough",
    "--ingress-class",
    "--ingress-class-by-name",
    "--watch-ingress-without-class",
    "--watch-namespace",
    "--watch-namespace-selector",
];

impl NginxController {
    /// The settings this controller sets away from their defaults that change what a client
    /// gets and that the translation does not apply: `key=value` for ConfigMap keys, the
    /// flag as given for flags. Named by `ingress-nginx/controller-setting`.
    pub fn untranslated_settings(&self) -> Vec<String> {
        use crate::semantics::ingress_nginx::settings;
        let mut out: Vec<String> = self
            .config
            .iter()
            .filter(|(k, v)| {
                settings::setting_changes_answers(k)
                    && !TRANSLATED_SETTINGS.contains(&k.as_str())
                    && settings::default_of(k) != Some(v.as_str())
            })
            .map(|(k, v)| format!("{k}={v:?}"))
            .collect();
        let mut seen = BTreeSet::new();
        for f in self.flags.iter().rev() {
            let (name, value) = f.split_once('=').unwrap_or((f.as_str(), "true"));
            if !seen.insert(name)
                || !settings::flag_changes_answers(name)
                || TRANSLATED_FLAGS.contains(&name)
                || settings::default_of(name) == Some(value)
            {
                continue;
            }
            out.push(f.clone());
        }
        out
    }
}

/// Where the run does not assume the default for a controller nothing describes: the
/// annotations the repository's Ingresses use are taken to have taken effect (a controller
/// that refused them would have made their authors remove them), so the risk level admits
/// every annotation, snippets load, and `ssl-passthrough` works. The equivalence check's
/// model runs with the same assumption.
pub const ASSUMED_AS_USED: &[(&str, &str)] = &[
    ("annotations-risk-level", "Critical"),
    ("allow-snippet-annotations", "true"),
    ("--enable-ssl-passthrough", "true"),
];

/// [`ASSUMED_SETTINGS`] with the values the run assumes, as a ConfigMap or command line
/// writes them (`""`: empty, or a flag not given): ingress-nginx's defaults, except
/// [`ASSUMED_AS_USED`].
pub fn assumed_defaults() -> impl Iterator<Item = (&'static str, &'static str)> {
    ASSUMED_SETTINGS.iter().map(|name| {
        let value = ASSUMED_AS_USED
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .or_else(|| crate::semantics::ingress_nginx::settings::default_of(name))
            .unwrap_or("");
        (*name, value)
    })
}

/// The value of `--name=value` among `flags` (the last one wins, as with Go's `flag`).
pub(crate) fn flag_value<'a>(flags: &'a [String], name: &str) -> Option<&'a str> {
    flags
        .iter()
        .rev()
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
}

/// Istio's mesh configuration, as the repository gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IstioMesh {
    pub source: ConfigSource,
    /// The `MeshConfig` (`istio.mesh.v1alpha1`), as JSON.
    pub mesh: Value,
}

impl IstioMesh {
    /// `defaultHttpRetryPolicy`: the retries of every route that sets none
    /// (`pilot/pkg/networking/core/route/route.go`; `retry.go` `ConvertPolicy`: attempts 0
    /// turns them off). Without it, Istio's own: 2 attempts on
    /// `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes`
    /// (`retry.go` `defaultRetryOn`, `defaultNumRetries`).
    pub fn default_retries(&self) -> Option<(u64, String)> {
        match self.mesh.get("defaultHttpRetryPolicy") {
            None | Some(Value::Null) => Some((2, ISTIO_DEFAULT_RETRY_ON.into())),
            Some(policy) => {
                let attempts = policy.get("attempts").and_then(Value::as_u64).unwrap_or(0);
                let on = policy
                    .get("retryOn")
                    .and_then(Value::as_str)
                    .unwrap_or(ISTIO_DEFAULT_RETRY_ON);
                (attempts > 0).then(|| (attempts, on.to_string()))
            }
        }
    }

    /// `pathNormalization.normalization`: `NONE`, `BASE` (the default), `MERGE_SLASHES` or
    /// `DECODE_AND_MERGE_SLASHES` (`pilot/pkg/networking/core/listener_builder.go`).
    pub fn path_normalization(&self) -> String {
        self.mesh
            .pointer("/pathNormalization/normalization")
            .and_then(Value::as_str)
            .filter(|n| *n != "DEFAULT")
            .unwrap_or("BASE")
            .to_string()
    }
}

/// Istio's default `retryOn` (`pilot/pkg/networking/core/route/retry/retry.go`).
pub const ISTIO_DEFAULT_RETRY_ON: &str =
    "connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes";

/// The mesh configuration among `objects`: the `istio` ConfigMap's `mesh` key (what istiod
/// reads; `istio-<revision>` too), else an `IstioOperator`'s `spec.meshConfig`, else an
/// `istiod` Helm release's `meshConfig`. `None`: the repository does not say (Istio's
/// defaults hold).
pub(crate) fn istio_mesh(objects: &[SourceObject]) -> Option<IstioMesh> {
    let from_config_map = objects.iter().find_map(|o| {
        let SourceBody::Surrounding(Surrounding::ConfigMap { data }) = &o.body else {
            return None;
        };
        let name = o.meta.name.as_str();
        if name != "istio" && !name.starts_with("istio-") {
            return None;
        }
        let mesh = crate::yaml::from_str::<Value>(data.get("mesh")?).ok()?;
        Some(IstioMesh {
            source: ConfigSource::Manifests {
                file: o.source.file.clone(),
            },
            mesh,
        })
    });
    from_config_map.or_else(|| {
        let mut found: Vec<(u8, &SourceObject, &Value)> = objects
            .iter()
            .filter_map(|o| match &o.body {
                SourceBody::Surrounding(Surrounding::IstioMeshConfig { mesh }) => {
                    Some((u8::from(o.kind != "IstioOperator"), o, mesh))
                }
                _ => None,
            })
            .collect();
        found.sort_by_key(|(rank, _, _)| *rank);
        let (_, o, mesh) = found.into_iter().next()?;
        Some(IstioMesh {
            source: if o.kind == "IstioOperator" {
                ConfigSource::Manifests {
                    file: o.source.file.clone(),
                }
            } else {
                ConfigSource::HelmRelease {
                    file: o.source.file.clone(),
                    object: format!("{}/{}", o.kind, o.meta.name),
                }
            },
            mesh: mesh.clone(),
        })
    })
}

/// The mesh settings gateway-migrate reads, and what it does with each, for
/// `docs/controllers.md`.
pub const MESH_SETTINGS: &[(&str, &str)] = &[
    (
        "defaultHttpRetryPolicy",
        "Istio applies it to HTTPRoutes as to VirtualServices (`conversion.go` leaves retries unset, so the mesh default holds). With `envoy-gateway`, each VirtualService's BackendTrafficPolicy gets the same `retry` (`target/retries-kept`; `istio/mesh-default-retries` where some of its routes set retries of their own and one policy cannot cover the rest). For `generic`, `istio/mesh-default-retries` names the retries the routes lose.",
    ),
    (
        "pathNormalization",
        "Applies to every listener of an Istio gateway, Gateway API ones included. For other targets, `istio/mesh-path-normalization` names how the target normalizes paths differently (Envoy Gateway merges slashes and unescapes then redirects `%2F` by default: `internal/gatewayapi/listener.go`).",
    ),
];

/// `docs/controllers.md`: every ingress-nginx ConfigMap key and flag with what the behaviour
/// model and the translation do with it, then the Istio mesh settings read.
pub fn markdown() -> String {
    crate::semantics::ingress_nginx::settings::markdown(TRANSLATED_SETTINGS, TRANSLATED_FLAGS)
        + &mesh_markdown()
}

/// The Istio part of `docs/controllers.md`.
pub fn mesh_markdown() -> String {
    let mut out = String::from(
        "\n## Istio mesh settings\n\nRead from the `istio` ConfigMap's `mesh` key, else an `IstioOperator`'s `spec.meshConfig`, else a\nHelm release of the `istiod` chart (`meshConfig`), at istio/istio `86c9f01fd735`. Mesh settings apply\nequally to VirtualServices and to the HTTPRoutes Istio converts, so with the `istio` target they change\nnothing a migration does; with another target, the ones below are reported.\n\n| mesh setting | in gateway-migrate |\n|---|---|\n",
    );
    for (name, what) in MESH_SETTINGS {
        out.push_str(&format!("| {name} | {what} |\n"));
    }
    out
}

/// A controller's command line as pflag (`pkg/flags/flags.go`) reads it: each flag as
/// `--name=value` or, for a boolean given bare, `--name`; a non-boolean flag's value may be
/// the next argument (`--annotations-prefix custom.io`); `-name` is taken as `--name`;
/// arguments that are not flags (the binary) are dropped and `--` ends the flags.
/// `$(POD_NAMESPACE)` is the workload's namespace, as the container's environment has it.
pub(crate) fn normalize_flags(args: &[String], namespace: &str) -> Vec<String> {
    let is_bool = |name: &str| {
        crate::semantics::ingress_nginx::settings::default_of(name)
            .is_some_and(|d| d == "true" || d == "false")
    };
    let mut out = Vec::new();
    let mut rest = args.iter().peekable();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            break;
        }
        let Some(body) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
            continue;
        };
        if body.is_empty() {
            continue;
        }
        let flag = if body.contains('=') {
            format!("--{body}")
        } else {
            let name = format!("--{body}");
            match rest.peek() {
                Some(next) if !is_bool(&name) && !next.starts_with('-') => {
                    let value = rest.next().map(String::as_str).unwrap_or_default();
                    format!("{name}={value}")
                }
                _ => name,
            }
        };
        out.push(flag.replace("$(POD_NAMESPACE)", namespace));
    }
    out
}

/// Every ingress-nginx controller of the run, by controller class: from the repository's
/// manifests (the first controller of a class read wins; another one is a caveat), else its
/// Helm releases; then the configuration's `controllers:` (keyed by IngressClass name)
/// overrides what it names, and `controllers."*"` every other controller.
pub(crate) fn nginx_controllers(
    objects: &[SourceObject],
    config: &Config,
) -> BTreeMap<String, NginxController> {
    let mut config_maps: BTreeMap<(&str, &str), &BTreeMap<String, String>> = BTreeMap::new();
    // Files defining each ConfigMap: several (kustomize overlays patching it, copies per
    // environment) means the one read may not be the one deployed.
    let mut defined_in: BTreeMap<(&str, &str), BTreeSet<&str>> = BTreeMap::new();
    for obj in objects {
        if let SourceBody::Surrounding(Surrounding::ConfigMap { data }) = &obj.body {
            let key = (obj.namespace.as_str(), obj.meta.name.as_str());
            config_maps.entry(key).or_insert(data);
            defined_in
                .entry(key)
                .or_default()
                .insert(obj.source.file.as_str());
        }
    }
    let mut out: BTreeMap<String, NginxController> = BTreeMap::new();
    let add = |found: NginxController, out: &mut BTreeMap<String, NginxController>| {
        let class = flag_value(&found.flags, "--controller-class")
            .unwrap_or(DEFAULT_NGINX_CONTROLLER)
            .to_string();
        match out.get_mut(&class) {
            Some(first) => first.caveats.push(format!(
                "{} also installs a controller of class {class} (both serve its IngressClasses; the first read is used)",
                found.source.describe()
            )),
            None => {
                out.insert(class, found);
            }
        }
    };
    for obj in objects {
        let SourceBody::Surrounding(Surrounding::NginxController { args }) = &obj.body else {
            continue;
        };
        let flags = normalize_flags(args, &obj.namespace);
        let mut caveats = Vec::new();
        let data = match flag_value(&flags, "--configmap") {
            None => BTreeMap::new(),
            Some(reference) => {
                let found = reference
                    .split_once('/')
                    .and_then(|(ns, name)| config_maps.get(&(ns, name)));
                let files = reference
                    .split_once('/')
                    .and_then(|key| defined_in.get(&key))
                    .filter(|files| files.len() > 1);
                if let Some(files) = files {
                    caveats.push(format!(
                        "its ConfigMap {reference} is defined in {} (overlays or copies: the first is used; a rendered build may deploy another)",
                        files.iter().copied().collect::<Vec<_>>().join(", ")
                    ));
                }
                match found {
                    Some(d) => (*d).clone(),
                    None => {
                        caveats.push(format!(
                            "its --configmap names {reference}, which is not in the repository (or is a ConfigMap too large to read): its settings are unknown and the defaults are assumed"
                        ));
                        BTreeMap::new()
                    }
                }
            }
        };
        add(
            NginxController {
                flags,
                config: data,
                source: ConfigSource::Manifests {
                    file: obj.source.file.clone(),
                },
                caveats,
            },
            &mut out,
        );
    }
    for obj in objects {
        let SourceBody::Surrounding(Surrounding::NginxHelmRelease { values, unread }) = &obj.body
        else {
            continue;
        };
        let rendered = helm_chart::rendered(values);
        let source = ConfigSource::HelmRelease {
            file: obj.source.file.clone(),
            object: format!("{}/{}", obj.kind, obj.meta.name),
        };
        let mut caveats: Vec<String> = unread
            .iter()
            .map(|u| {
                format!(
                    "{} takes values from {u} too, which are not read",
                    source.describe()
                )
            })
            .collect();
        if !rendered.unrendered.is_empty() {
            caveats.push(format!(
                "the templates in controller.config {} are not rendered",
                rendered.unrendered.join(", ")
            ));
        }
        // `$(POD_NAMESPACE)` is the release's namespace, or the chart's `namespaceOverride`
        // (`_helpers.tpl` `ingress-nginx.namespace`).
        let namespace = values
            .get("namespaceOverride")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
            .unwrap_or(&obj.namespace);
        add(
            NginxController {
                flags: normalize_flags(&rendered.flags, namespace),
                config: rendered.config,
                source,
                caveats,
            },
            &mut out,
        );
    }
    let named: BTreeSet<String> = config
        .controllers
        .keys()
        .filter(|c| *c != crate::config::ANY_INGRESS_CLASS)
        .map(|c| controller_class_of(objects, c))
        .collect();
    if let Some(any) = config.controllers.get(crate::config::ANY_INGRESS_CLASS) {
        for (controller_class, found) in out.iter_mut() {
            if !named.contains(controller_class) {
                *found = configured(
                    crate::config::ANY_INGRESS_CLASS,
                    controller_class,
                    any,
                    Some(found.clone()),
                );
            }
        }
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

/// `--controller-config`: one controller's configuration as `kubectl get cm,deploy -o yaml`
/// prints it (a `List` too). With the workload running the controller, its arguments are the
/// flags and the ConfigMap its `--configmap` names is the data (the file must hold it); with
/// no workload, the file's one ConfigMap is the data (the cluster's `kube-root-ca.crt` left
/// out). Several controllers, several candidate ConfigMaps, or neither is an error, so that a
/// wrong file does not pass for the configuration.
pub fn read_controller_file(text: &str) -> Result<ControllerConfig, String> {
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
    let mut config_maps: Vec<(String, String, BTreeMap<String, String>)> = Vec::new();
    let mut controllers: Vec<(String, Vec<String>)> = Vec::new();
    let text_at = |doc: &Value, p: &str| {
        doc.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    docs.reverse();
    while let Some(doc) = docs.pop() {
        let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
        if kind == "List" || kind.ends_with("List") {
            if let Some(Value::Array(items)) = doc.get("items") {
                docs.extend(items.iter().rev().cloned());
            }
            continue;
        }
        let namespace = text_at(&doc, "/metadata/namespace");
        if kind == "ConfigMap" {
            let data = doc
                .get("data")
                .and_then(Value::as_object)
                .map(|d| {
                    d.iter()
                        .map(|(k, v)| (k.clone(), helm_chart::to_string(v)))
                        .collect()
                })
                .unwrap_or_default();
            config_maps.push((namespace, text_at(&doc, "/metadata/name"), data));
            continue;
        }
        let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        if let Some(Surrounding::NginxController { args }) =
            crate::model::surrounding::decode(api_version, kind, &doc)
        {
            controllers.push((namespace, args));
        }
    }
    match controllers.as_slice() {
        [] => {
            let candidates: Vec<_> = config_maps
                .into_iter()
                .filter(|(_, name, _)| name != "kube-root-ca.crt")
                .collect();
            match <[_; 1]>::try_from(candidates) {
                Ok([(_, _, data)]) => Ok(ControllerConfig {
                    config_map: data,
                    flags: Vec::new(),
                }),
                Err(none) if none.is_empty() => {
                    Err("no ConfigMap and no ingress-nginx controller workload in it".into())
                }
                Err(many) => Err(format!(
                    "{} ConfigMaps ({}) and no controller workload: give the controller's ConfigMap alone, or its workload too (its --configmap says which)",
                    many.len(),
                    many.iter()
                        .map(|(ns, n, _)| format!("{ns}/{n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        [(namespace, args)] => {
            let flags = normalize_flags(args, namespace);
            let config_map = match flag_value(&flags, "--configmap") {
                None => BTreeMap::new(),
                Some(reference) => config_maps
                    .into_iter()
                    .find(|(ns, name, _)| format!("{ns}/{name}") == reference)
                    .map(|(_, _, data)| data)
                    .ok_or_else(|| {
                        format!("the controller's --configmap names {reference}, which the file does not hold")
                    })?,
            };
            Ok(ControllerConfig { config_map, flags })
        }
        many => Err(format!(
            "{} ingress-nginx controller workloads: give each with its own --controller-config CLASS=FILE",
            many.len()
        )),
    }
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

/// A controller as `controllers.<class>` describes it, over what the repository says
/// (`previous`): its flags when given (else the repository's, else only the controller
/// class); its ConfigMap data key by key over the repository's (a key given wins). Caveats
/// about the repository's installation are dropped: the configuration speaks for it.
fn configured(
    class: &str,
    controller_class: &str,
    given: &ControllerConfig,
    previous: Option<NginxController>,
) -> NginxController {
    let (mut flags, mut config) = previous.map(|p| (p.flags, p.config)).unwrap_or_default();
    if !given.flags.is_empty() {
        flags = normalize_flags(&given.flags, "");
    }
    if flag_value(&flags, "--controller-class").is_none() {
        flags.push(format!("--controller-class={controller_class}"));
    }
    config.extend(given.config_map.clone());
    NginxController {
        flags,
        config,
        source: ConfigSource::Configuration {
            class: class.to_string(),
        },
        caveats: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    // pflag (`pkg/flags/flags.go`): `--flag value` for a non-boolean flag, `-flag`, `--`.
    #[test]
    fn flags_are_read_as_pflag_reads_them() {
        let args = strings(&[
            "/nginx-ingress-controller",
            "--annotations-prefix",
            "custom.io",
            "--enable-ssl-passthrough",
            "--configmap=$(POD_NAMESPACE)/cm",
            "-watch-ingress-without-class=true",
            "--",
            "--ignored",
        ]);
        assert_eq!(
            normalize_flags(&args, "edge"),
            [
                "--annotations-prefix=custom.io",
                "--enable-ssl-passthrough",
                "--configmap=edge/cm",
                "--watch-ingress-without-class=true",
            ]
        );
        // A boolean flag does not take the next argument as its value.
        let args = strings(&["--enable-ssl-passthrough", "x"]);
        assert_eq!(normalize_flags(&args, ""), ["--enable-ssl-passthrough"]);
    }

    #[test]
    fn the_last_occurrence_of_a_boolean_flag_wins() {
        let controller = |flags: &[&str]| NginxController {
            flags: strings(flags),
            config: BTreeMap::new(),
            source: ConfigSource::Assumed,
            caveats: Vec::new(),
        };
        let on = "--enable-ssl-passthrough";
        assert!(controller(&[on]).flag(on));
        assert!(!controller(&[on, "--enable-ssl-passthrough=false"]).flag(on));
        assert!(controller(&["--enable-ssl-passthrough=false", on]).flag(on));
        assert!(controller(&["--enable-ssl-passthrough=1"]).flag(on));
        assert!(!controller(&[]).flag(on));
        // Namespaces watched.
        let labels = BTreeMap::from([("team".to_string(), "a".to_string())]);
        assert_eq!(
            controller(&["--watch-namespace=team-a"]).watches("web", None),
            Some(false)
        );
        assert_eq!(controller(&[]).watches("web", None), Some(true));
        let selected = controller(&["--watch-namespace-selector=team=a,!legacy"]);
        assert_eq!(selected.watches("web", Some(&labels)), Some(true));
        assert_eq!(selected.watches("web", None), Some(false));
        let set_based = controller(&["--watch-namespace-selector=team in (a,b)"]);
        assert_eq!(set_based.watches("web", Some(&labels)), None);
    }

    // The mesh configuration istiod reads first; Istio's defaults without one
    // (`retry.go` `ConvertPolicy`, `listener_builder.go`).
    #[test]
    fn the_mesh_configuration_and_its_defaults() {
        let defaults = IstioMesh {
            source: ConfigSource::Assumed,
            mesh: Value::Null,
        };
        assert_eq!(
            defaults.default_retries(),
            Some((2, ISTIO_DEFAULT_RETRY_ON.to_string()))
        );
        assert_eq!(defaults.path_normalization(), "BASE");
        let off = IstioMesh {
            source: ConfigSource::Assumed,
            mesh: serde_json::json!({"defaultHttpRetryPolicy": {"attempts": 0},
                                      "pathNormalization": {"normalization": "NONE"}}),
        };
        assert_eq!(off.default_retries(), None);
        assert_eq!(off.path_normalization(), "NONE");
        let load = |text: &str| crate::load::load_bytes("m.yaml", text.as_bytes()).objects;
        let mut objects = load(
            "apiVersion: install.istio.io/v1alpha1\nkind: IstioOperator\nmetadata:\n  name: io\nspec:\n  meshConfig:\n    pathNormalization:\n      normalization: NONE\n",
        );
        let found = istio_mesh(&objects).unwrap();
        assert_eq!(found.path_normalization(), "NONE");
        objects.extend(load(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: istio\n  namespace: istio-system\ndata:\n  mesh: |-\n    pathNormalization:\n      normalization: MERGE_SLASHES\n",
        ));
        let found = istio_mesh(&objects).unwrap();
        assert_eq!(found.path_normalization(), "MERGE_SLASHES");
        assert!(matches!(found.source, ConfigSource::Manifests { .. }));
    }

    // The kubelet's `$(NAME)` expansion from literal env values; several definitions of the
    // controller's ConfigMap (kustomize overlays) are a caveat, not a silent choice.
    #[test]
    fn env_values_expand_and_duplicate_configmaps_are_named() {
        let load = |path: &str, text: &str| crate::load::load_bytes(path, text.as_bytes()).objects;
        let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c\n  namespace: edge\nspec:\n  template:\n    spec:\n      containers:\n      - name: controller\n        image: registry.k8s.io/ingress-nginx/controller:v1.15.1\n        env:\n        - name: PREFIX\n          value: corp.example.com\n        args: [--annotations-prefix=$(PREFIX), --configmap=$(POD_NAMESPACE)/settings]\n";
        let cm = |v: &str| {
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: edge\ndata:\n  hsts: \"{v}\"\n"
            )
        };
        let mut objects = load("base/deploy.yaml", deployment);
        objects.extend(load("base/cm.yaml", &cm("true")));
        objects.extend(load("overlays/prod/cm.yaml", &cm("false")));
        let controllers = nginx_controllers(&objects, &Config::default());
        let found = &controllers[DEFAULT_NGINX_CONTROLLER];
        assert_eq!(
            found.flag_value("--annotations-prefix"),
            Some("corp.example.com")
        );
        assert_eq!(found.flag_value("--configmap"), Some("edge/settings"));
        assert!(
            found
                .caveats
                .iter()
                .any(|c| c.contains("base/cm.yaml, overlays/prod/cm.yaml")),
            "{:?}",
            found.caveats
        );
    }

    // The "translated" lists say what the translator reads: each name is a string literal
    // of the Ingress translator's sources (or of this module, which resolves the flags it
    // needs for it).
    #[test]
    fn the_translated_lists_are_what_the_translator_reads() {
        let translator = [
            include_str!("translate/ingress/mod.rs"),
            include_str!("translate/ingress/class.rs"),
            include_str!("translate/ingress/emit.rs"),
            include_str!("translate/ingress/nginx/mod.rs"),
            include_str!("translate/ingress/nginx/access.rs"),
            include_str!("index.rs"),
        ]
        .concat();
        for name in TRANSLATED_SETTINGS.iter().chain(TRANSLATED_FLAGS) {
            let literal = format!("\"{name}\"");
            let in_controllers_code = code_of(include_str!("controllers.rs")).contains(&literal);
            assert!(
                translator.contains(&literal) || in_controllers_code,
                "{name} is listed as translated but no translator source reads it"
            );
            assert!(
                crate::semantics::ingress_nginx::settings::default_of(name).is_some(),
                "{name} is not an ingress-nginx setting"
            );
        }
    }

    /// A source without its tests and its `&[&str]` constant lists (which name settings
    /// without reading them).
    fn code_of(source: &str) -> String {
        let mut code = source.split("#[cfg(test)]").next().unwrap_or_default();
        let mut out = String::new();
        while let Some(start) = code.find(": &[&str] = &[") {
            out.push_str(&code[..start]);
            code = code[start..].split_once("];").map_or("", |(_, rest)| rest);
        }
        out.push_str(code);
        out
    }

    const CONTROLLER: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c\n  namespace: edge\nspec:\n  template:\n    spec:\n      containers:\n      - name: controller\n        image: registry.k8s.io/ingress-nginx/controller:v1.15.1\n        args: [--configmap=$(POD_NAMESPACE)/edge-settings, --enable-ssl-passthrough]\n";

    #[test]
    fn a_dump_gives_the_controllers_own_configmap_and_flags() {
        let cm = |ns: &str, name: &str, key: &str| {
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: {ns}\ndata:\n  {key}: \"false\"\n"
            )
        };
        let dump = format!(
            "{}---\n{}---\n{CONTROLLER}",
            cm("edge", "kube-root-ca.crt", "x"),
            cm("edge", "edge-settings", "hsts")
        );
        let read = read_controller_file(&dump).unwrap();
        assert_eq!(
            read.config_map,
            BTreeMap::from([("hsts".to_string(), "false".to_string())])
        );
        assert_eq!(
            read.flags,
            ["--configmap=edge/edge-settings", "--enable-ssl-passthrough"]
        );
        // The workload's ConfigMap missing from the dump, two controllers, two candidate
        // ConfigMaps without a workload, nothing at all: errors.
        assert!(
            read_controller_file(CONTROLLER)
                .unwrap_err()
                .contains("edge/edge-settings")
        );
        let two = format!("{CONTROLLER}---\n{CONTROLLER}");
        assert!(
            read_controller_file(&two)
                .unwrap_err()
                .contains("2 ingress-nginx controller")
        );
        let maps = format!("{}---\n{}", cm("a", "one", "x"), cm("a", "two", "y"));
        assert!(
            read_controller_file(&maps)
                .unwrap_err()
                .contains("a/one, a/two")
        );
        assert!(read_controller_file("kind: Secret\n").is_err());
        // One ConfigMap alone (the cluster's CA bundle aside) is the data.
        let one = format!(
            "{}---\n{}",
            cm("kube-system", "kube-root-ca.crt", "x"),
            cm("a", "one", "hsts")
        );
        assert_eq!(read_controller_file(&one).unwrap().config_map.len(), 1);
    }
}
