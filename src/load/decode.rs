//! From a parsed document (JSON-shaped) to typed source objects.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::ingress::{self, IngressClass};
use crate::model::k8s::SecretMeta;
use crate::model::kustomize::Kustomization;
use crate::model::surrounding;
use crate::model::{ObjectMeta, SourceBody, SourceObject, SourceRef};

/// What one document decodes to.
#[derive(Debug)]
pub(crate) enum Decoded {
    Object(Box<SourceObject>),
    Kustomization(Kustomization),
    /// A Flux `Kustomization` or an Argo CD `Application`: it names directories to deploy.
    Deployer(Deployer),
    /// An object of a group the tool reads, in a version it does not know (`v9`, `V1`): not
    /// read, and said so (`load/unknown-api-version`).
    UnknownVersion(String),
    /// A document of a kind the tool translates without `metadata.name`: no tool applies
    /// such a document (kubectl, kustomize, Argo CD and Flux all require a name), so it is a
    /// patch or a template, not an object (`load/partial-document`).
    Partial(String),
    /// A document of a kind the tool translates whose name or namespace is a template
    /// (`${{ values.name }}`, `${NAME}`): what it becomes depends on the substitution
    /// (`load/template-skipped`).
    Templated(String),
}

/// The versions of each API group the tool reads, and the kinds of that group it reads (empty:
/// every kind). Another version of one of those kinds is not read, and reported.
const KNOWN_VERSIONS: &[(&str, &[&str], &[&str])] = &[
    ("networking.istio.io", &["v1", "v1beta1", "v1alpha3"], &[]),
    ("security.istio.io", &["v1", "v1beta1"], &[]),
    (
        "networking.k8s.io",
        &["v1", "v1beta1"],
        &["Ingress", "IngressClass"],
    ),
    ("extensions", &["v1beta1"], &["Ingress"]),
    (
        "gateway.networking.k8s.io",
        &["v1", "v1beta1", "v1alpha2", "v1alpha3"],
        &[],
    ),
    ("gateway.networking.x-k8s.io", &["v1alpha1"], &[]),
    (
        "gateway.envoyproxy.io",
        &["v1alpha1"],
        &[
            "SecurityPolicy",
            "BackendTrafficPolicy",
            "ClientTrafficPolicy",
        ],
    ),
];

/// Why `api_version` of `kind` is not read, when its group is one the tool reads but the
/// version is not one it knows.
fn unknown_version(api_version: &str, kind: &str) -> Option<String> {
    let (group, version) = api_version.split_once('/')?;
    let (_, versions, kinds) = KNOWN_VERSIONS.iter().find(|(g, _, _)| *g == group)?;
    if versions.contains(&version) || (!kinds.is_empty() && !kinds.contains(&kind)) {
        return None;
    }
    Some(format!(
        "{kind} of apiVersion {api_version} is not read: {group} has the versions {} here (API versions are case-sensitive); if a cluster serves this one, its objects are not translated",
        versions.join(", ")
    ))
}

/// A document that has the shape of an object we read but cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecodeError {
    pub kind: String,
    pub message: String,
}

const ISTIO_VERSIONS: [&str; 3] = [
    "networking.istio.io/v1",
    "networking.istio.io/v1beta1",
    "networking.istio.io/v1alpha3",
];
const INGRESS_VERSIONS: [&str; 3] = [
    "networking.k8s.io/v1",
    "networking.k8s.io/v1beta1",
    "extensions/v1beta1",
];

/// Why the API server would refuse an object the tool translates, by its name or namespace
/// (an unexpanded `${VAR}` placeholder, a typo): translating it would only generate objects
/// that are refused too.
fn invalid_identity(body: &SourceBody, meta: &ObjectMeta) -> Option<String> {
    if !body.is_translated() {
        return None;
    }
    if let Some(ns) = meta.namespace.as_deref().filter(|n| !n.is_empty())
        && !crate::gwapi::is_dns_label(ns)
    {
        return Some(format!(
            "metadata.namespace {ns:?} is not a namespace name (at most 63 lowercase letters, digits and '-'): the API server would refuse the object, so it is not translated (substitute placeholders such as ${{NAMESPACE}} first)"
        ));
    }
    if !crate::gwapi::is_dns_subdomain(&meta.name) {
        return Some(format!(
            "metadata.name {:?} is not an object name (lowercase letters, digits, '-' and '.', at most 253 characters): the API server would refuse the object, so it is not translated",
            meta.name
        ));
    }
    None
}

/// Decodes one document. `file` is root-relative; its base name decides whether an object
/// without `apiVersion` is a kustomization. Returns nothing for kinds the tool ignores.
/// `List` documents are expanded into their items.
pub(crate) fn decode(doc: Value, source: &SourceRef, out: &mut Vec<Result<Decoded, DecodeError>>) {
    let api_version = doc
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let kind = doc
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if let Some(why) = unknown_version(&api_version, &kind) {
        out.push(Ok(Decoded::UnknownVersion(why)));
        return;
    }
    let base = source.file.rsplit('/').next().unwrap_or("");
    let is_kustomization_file = crate::model::kustomize::KUSTOMIZATION_FILES.contains(&base);

    if let Some(release) = crate::model::helm_chart::release(&api_version, &kind, &doc) {
        push_chart_release(release, &api_version, &kind, &doc, source, out);
        if kind == "HelmRelease" {
            return;
        }
    }
    if let Some(mesh) = crate::model::helm_chart::istiod_mesh(&api_version, &kind, &doc) {
        if let Some(meta) = meta_of(&doc) {
            out.push(Ok(surrounding_object(
                source,
                &api_version,
                &kind,
                meta,
                crate::model::surrounding::Surrounding::IstioMeshConfig { mesh },
            )));
        }
        if kind == "HelmRelease" {
            return;
        }
    }
    if (api_version.starts_with("kustomize.toolkit.fluxcd.io/")
        || api_version.starts_with("argoproj.io/"))
        && kind != "Rollout"
    {
        if let Some(d) = Deployer::of(&kind, &doc, source) {
            out.push(Ok(Decoded::Deployer(d)));
        }
        return;
    }
    if kind == "Kustomization"
        || (is_kustomization_file && (kind.is_empty() || kind == "Component"))
    {
        if is_kustomization_file {
            out.push(
                Kustomization::from_json(&source.file, doc)
                    .map(Decoded::Kustomization)
                    .map_err(|message| DecodeError {
                        kind: "Kustomization".into(),
                        message,
                    }),
            );
        }
        return;
    }
    if kind == "List" || (kind.ends_with("List") && doc.get("items").is_some()) {
        if let Some(Value::Array(items)) = doc.get("items").cloned() {
            for item in items {
                decode(item, source, out);
            }
        }
        return;
    }
    let body = match decode_body(&api_version, &kind, &doc) {
        Ok(Some(body)) => body,
        Ok(None) => return,
        Err(message) => {
            out.push(Err(DecodeError { kind, message }));
            return;
        }
    };
    let meta: ObjectMeta = match doc
        .get("metadata")
        .cloned()
        .map(serde_json::from_value)
        .transpose()
    {
        Ok(meta) => meta.unwrap_or_default(),
        Err(e) => {
            out.push(Err(DecodeError {
                kind,
                message: format!("metadata: {e}"),
            }));
            return;
        }
    };
    let translated = body.is_translated();
    if translated && meta.name.is_empty() {
        out.push(Ok(Decoded::Partial(kind)));
        return;
    }
    let templated = |v: &str| {
        crate::model::template::template_of(v)
            .is_some_and(crate::model::template::Template::is_syntax)
    };
    if translated && (templated(&meta.name) || meta.namespace.as_deref().is_some_and(templated)) {
        out.push(Ok(Decoded::Templated(kind)));
        return;
    }
    if let Some(message) = invalid_identity(&body, &meta) {
        out.push(Err(DecodeError { kind, message }));
        return;
    }
    out.push(Ok(Decoded::Object(Box::new(SourceObject {
        source: source.clone(),
        api_version,
        kind,
        namespace: meta.namespace.clone().unwrap_or_default(),
        naming_scope: String::new(),
        meta,
        body,
    }))));
}

/// A Helm release of the ingress-nginx chart: the release itself (its values, in the namespace
/// it installs into), and the IngressClass the chart creates (`controller-ingressclass.yaml`),
/// so that the Ingresses naming that class find its controller as they would in the cluster.
fn push_chart_release(
    release: crate::model::helm_chart::Release,
    api_version: &str,
    kind: &str,
    doc: &Value,
    source: &SourceRef,
    out: &mut Vec<Result<Decoded, DecodeError>>,
) {
    let Some(mut meta) = meta_of(doc) else {
        return;
    };
    let target = ["/spec/targetNamespace", "/spec/destination/namespace"]
        .iter()
        .find_map(|p| doc.pointer(p).and_then(Value::as_str))
        .filter(|ns| !ns.is_empty());
    if let Some(ns) = target {
        meta.namespace = Some(ns.to_string());
    }
    let crate::model::helm_chart::Release { values, unread } = release;
    if let Some((name, controller, is_default)) = crate::model::helm_chart::ingress_class(&values) {
        out.push(Ok(Decoded::Object(Box::new(SourceObject {
            source: source.clone(),
            api_version: "networking.k8s.io/v1".into(),
            kind: "IngressClass".into(),
            namespace: String::new(),
            naming_scope: String::new(),
            meta: ObjectMeta {
                name,
                ..ObjectMeta::default()
            },
            body: SourceBody::IngressClass(IngressClass {
                controller: Some(controller),
                is_default,
            }),
        }))));
    }
    out.push(Ok(surrounding_object(
        source,
        api_version,
        kind,
        meta,
        crate::model::surrounding::Surrounding::NginxHelmRelease { values, unread },
    )));
}

/// A document's `metadata` (empty when absent; `None` when it does not decode).
fn meta_of(doc: &Value) -> Option<ObjectMeta> {
    doc.get("metadata")
        .cloned()
        .map(serde_json::from_value::<ObjectMeta>)
        .transpose()
        .map(Option::unwrap_or_default)
        .ok()
}

/// A surrounding object decoded from another kind's document (a Helm release, an Argo CD
/// Application), in the namespace its metadata says.
fn surrounding_object(
    source: &SourceRef,
    api_version: &str,
    kind: &str,
    meta: ObjectMeta,
    surrounding: crate::model::surrounding::Surrounding,
) -> Decoded {
    Decoded::Object(Box::new(SourceObject {
        source: source.clone(),
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        namespace: meta.namespace.clone().unwrap_or_default(),
        naming_scope: String::new(),
        meta,
        body: SourceBody::Surrounding(surrounding),
    }))
}

fn spec(doc: &Value) -> Value {
    doc.get("spec")
        .cloned()
        .unwrap_or(Value::Object(Default::default()))
}

fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("spec: {e}"))
}

fn decode_body(api_version: &str, kind: &str, doc: &Value) -> Result<Option<SourceBody>, String> {
    let body = if ISTIO_VERSIONS.contains(&api_version) {
        match kind {
            "Gateway" => SourceBody::IstioGateway(typed(spec(doc))?),
            "VirtualService" => SourceBody::VirtualService(typed(spec(doc))?),
            "DestinationRule" => SourceBody::DestinationRule(Box::new(typed(spec(doc))?)),
            _ => {
                return Ok(surrounding::decode(api_version, kind, doc).map(SourceBody::Surrounding));
            }
        }
    } else if INGRESS_VERSIONS.contains(&api_version) && kind == "Ingress" {
        SourceBody::Ingress(Box::new(ingress::decode_ingress(api_version, doc.clone())?))
    } else if api_version.starts_with("networking.k8s.io/") && kind == "IngressClass" {
        let annotations = doc.pointer("/metadata/annotations");
        let is_default = annotations
            .and_then(|a| a.get(ingress::DEFAULT_CLASS_ANNOTATION))
            .map(|v| v.as_str() == Some("true") || v.as_bool() == Some(true))
            .unwrap_or(false);
        SourceBody::IngressClass(IngressClass {
            controller: doc
                .pointer("/spec/controller")
                .and_then(Value::as_str)
                .map(str::to_string),
            is_default,
        })
    } else if api_version == "v1" {
        match kind {
            "Service" => SourceBody::Service(Box::new(
                <crate::model::k8s::Service as serde::Deserialize>::deserialize(doc)
                    .map_err(|e| e.to_string())?,
            )),
            "Secret" => SourceBody::Secret(secret_meta(doc)),
            "Namespace" => SourceBody::Namespace,
            "ConfigMap" => {
                return Ok(surrounding::decode(api_version, kind, doc).map(SourceBody::Surrounding));
            }
            _ => return Ok(None),
        }
    } else if api_version.starts_with("gateway.networking.k8s.io/")
        || api_version.starts_with("gateway.networking.x-k8s.io/")
        // The Envoy Gateway policies the `envoy-gateway` target writes are linted against
        // their pinned CRDs like Gateway API objects, and the behaviour model reads them.
        || (api_version.starts_with("gateway.envoyproxy.io/")
            && matches!(
                kind,
                "SecurityPolicy" | "BackendTrafficPolicy" | "ClientTrafficPolicy"
            ))
    {
        SourceBody::GatewayApi(doc.clone())
    } else {
        return Ok(surrounding::decode(api_version, kind, doc).map(SourceBody::Surrounding));
    };
    Ok(Some(body))
}

/// A Secret's metadata, the keys it holds and the verdict on its TLS pair; the decoded values
/// are dropped here.
fn secret_meta(doc: &Value) -> SecretMeta {
    use base64::Engine as _;
    // `stringData` wins over `data` for one key, as the API server merges them.
    let value = |key: &str| -> Option<Vec<u8>> {
        if let Some(s) = doc
            .pointer("/stringData")
            .and_then(|d| d.get(key))
            .and_then(Value::as_str)
        {
            return Some(s.as_bytes().to_vec()).filter(|v| !v.is_empty());
        }
        let encoded = doc
            .pointer("/data")
            .and_then(|d| d.get(key))
            .and_then(Value::as_str)?;
        let compact: String = encoded.split_whitespace().collect();
        base64::engine::general_purpose::STANDARD
            .decode(compact)
            .ok()
            .filter(|v| !v.is_empty())
    };
    let mut keys: Vec<String> = ["data", "stringData"]
        .iter()
        .filter_map(|field| doc.get(*field).and_then(Value::as_object))
        .flat_map(|m| m.iter())
        .filter(|(_, v)| v.as_str().is_some_and(|s| !s.is_empty()))
        .map(|(k, _)| k.clone())
        .collect();
    keys.sort();
    keys.dedup();
    let has_pair_key = keys.iter().any(|k| k == "tls.crt" || k == "tls.key");
    let tls = has_pair_key.then(|| {
        let (cert, key) = (value("tls.crt"), value("tls.key"));
        Box::new(crate::model::certificate::check(
            cert.as_deref(),
            key.as_deref(),
            crate::model::certificate::now(),
        ))
    });
    SecretMeta {
        type_: doc.get("type").and_then(Value::as_str).map(str::to_string),
        keys,
        tls,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::SourceBody;

    fn decode_all(file: &str, doc: Value) -> Vec<Result<Decoded, DecodeError>> {
        let mut out = Vec::new();
        let source = SourceRef {
            file: file.into(),
            document: 0,
            line: 1,
        };
        decode(doc, &source, &mut out);
        out
    }

    #[test]
    fn lists_are_expanded_and_irrelevant_items_ignored() {
        let doc = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}},
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "d"}, "type": "Opaque"},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}},
            {"apiVersion": "networking.istio.io/v1beta1", "kind": "VirtualService", "metadata": {"name": "v"}, "spec": {"hosts": ["x"]}},
        ]});
        let names: Vec<String> = decode_all("l.json", doc)
            .into_iter()
            .map(|d| match d {
                Ok(Decoded::Object(o)) => o.meta.name.clone(),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(names, vec!["a", "d", "v"]);
    }

    #[test]
    fn legacy_ingress_is_upgraded_to_v1() {
        let doc = serde_json::json!({"apiVersion": "extensions/v1beta1", "kind": "Ingress",
            "metadata": {"name": "i"},
            "spec": {"backend": {"serviceName": "def", "servicePort": 80},
                     "rules": [{"host": "a.b", "http": {"paths": [{"path": "/", "backend": {"serviceName": "s", "servicePort": "http"}}]}}]}});
        let out = decode_all("i.yaml", doc);
        let Some(Ok(Decoded::Object(obj))) = out.into_iter().next() else {
            panic!()
        };
        let SourceBody::Ingress(ing) = &obj.body else {
            panic!()
        };
        let spec = ing.spec.as_ref().unwrap();
        let default = spec
            .default_backend
            .as_ref()
            .unwrap()
            .service
            .as_ref()
            .unwrap();
        assert_eq!(default.name, "def");
        assert_eq!(default.port.as_ref().unwrap().number, Some(80));
        let path = &spec.rules.as_ref().unwrap()[0].http.as_ref().unwrap().paths[0];
        assert_eq!(path.path_type, "ImplementationSpecific");
        let svc = path.backend.service.as_ref().unwrap();
        assert_eq!(svc.port.as_ref().unwrap().name.as_deref(), Some("http"));
    }

    #[test]
    fn istio_unknown_fields_are_kept() {
        let doc = serde_json::json!({"apiVersion": "networking.istio.io/v1", "kind": "VirtualService",
            "metadata": {"name": "v"}, "spec": {"hosts": ["x"], "futureField": 1, "http": [{"newThing": true}]}});
        let Some(Ok(Decoded::Object(obj))) = decode_all("v.yaml", doc).into_iter().next() else {
            panic!()
        };
        let SourceBody::VirtualService(vs) = &obj.body else {
            panic!()
        };
        assert!(vs.extra.contains_key("futureField"));
        assert!(vs.http[0].extra.contains_key("newThing"));
    }

    #[test]
    fn a_bad_typed_object_is_an_error_not_a_skip() {
        let doc = serde_json::json!({"apiVersion": "networking.istio.io/v1", "kind": "Gateway",
            "metadata": {"name": "g"}, "spec": {"servers": "not a list"}});
        let out = decode_all("g.yaml", doc);
        assert!(matches!(out.as_slice(), [Err(DecodeError { kind, .. })] if kind == "Gateway"));
    }
}

/// A GitOps object that deploys directories of this repository: a Flux `Kustomization`
/// (`spec.path`), an Argo CD `Application` (`spec.source.path`, `spec.sources[].path`) or an
/// Argo CD `ApplicationSet` (its template's paths, expanded by `deploy` over the generators).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployer {
    pub source: SourceRef,
    pub kind: String,
    pub name: String,
    /// `metadata.namespace` (Flux `dependsOn` entries default to it).
    pub namespace: Option<String>,
    /// What it deploys, paths as written (relative to the repository root; Flux writes
    /// `./apps/x`; an ApplicationSet's may hold `{{…}}` parameters).
    pub targets: Vec<DeployTarget>,
    /// Flux `spec.dependsOn` as `namespace/name` (the namespace defaults to the object's).
    pub depends_on: Vec<String>,
    /// Argo CD's `argocd.argoproj.io/sync-wave` annotation (0 when absent, Argo CD's
    /// default; `None` for Flux objects).
    pub wave: Option<i64>,
    /// An ApplicationSet's generators, in order (empty for the other kinds).
    pub generators: Vec<Generator>,
    /// An ApplicationSet's `spec.goTemplate` (`{{.path.path}}` rather than `{{path}}`).
    pub go_template: bool,
}

/// One directory a deployer deploys, with its destination where the object names one.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DeployTarget {
    pub path: String,
    /// The cluster: Argo CD `destination.server` or `destination.name`, Flux
    /// `kubeConfig.secretRef.name` (a remote cluster's kubeconfig); `None`: the cluster the
    /// controller runs in.
    pub cluster: Option<String>,
    /// Argo CD `destination.namespace`, Flux `targetNamespace`.
    pub namespace: Option<String>,
    /// Whether sub-directories are deployed too: Flux always (its generated kustomization
    /// lists every manifest below the path), Argo CD only with `directory.recurse: true`.
    pub recurse: bool,
    /// Argo CD `directory.include` / `directory.exclude` globs.
    pub include: Option<String>,
    pub exclude: Option<String>,
    /// What the object adds to a kustomize build of the path.
    pub options: BuildOptions,
}

/// What a GitOps object adds to the kustomize build it deploys: Flux `spec.namePrefix`,
/// `nameSuffix`, `components` and `patches` (kustomize-controller writes them into the
/// kustomization it builds, `fluxcd/pkg` `kustomize/kustomize_generator.go`), Argo CD
/// `source.kustomize.namePrefix`, `nameSuffix`, `namespace`, `components` and `patches`
/// (the repo server edits the kustomization before building, argo-cd `util/kustomize`).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct BuildOptions {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_prefix: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_suffix: Option<String>,
    /// Argo CD `kustomize.namespace` (the kustomization's `namespace:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Component paths, relative to the deployed path.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<String>,
    /// Patch entries (`patch`/`path` with `target`), as JSON text.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<String>,
}

impl BuildOptions {
    pub fn is_empty(&self) -> bool {
        *self == BuildOptions::default()
    }

    /// `k` as the GitOps object builds it: its prefix, suffix and namespace replace the
    /// kustomization's (components and patches only change what renders).
    pub fn apply_to(&self, k: &mut crate::model::kustomize::Kustomization) {
        if self.name_prefix.is_some() {
            k.name_prefix = self.name_prefix.clone();
        }
        if self.name_suffix.is_some() {
            k.name_suffix = self.name_suffix.clone();
        }
        if self.namespace.is_some() {
            k.namespace = self.namespace.clone();
        }
    }

    fn of(spec: Option<&Value>) -> BuildOptions {
        let text = |p: &str| {
            spec.and_then(|s| s.pointer(p))
                .and_then(Value::as_str)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        let list = |p: &str| -> Vec<&Value> {
            spec.and_then(|s| s.pointer(p))
                .and_then(Value::as_array)
                .map(|a| a.iter().collect())
                .unwrap_or_default()
        };
        BuildOptions {
            name_prefix: text("/namePrefix"),
            name_suffix: text("/nameSuffix"),
            namespace: text("/namespace"),
            components: list("/components")
                .into_iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect(),
            patches: list("/patches")
                .into_iter()
                .map(|p| p.to_string())
                .collect(),
        }
    }
}

/// An ApplicationSet generator, as far as its parameters can be known from the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Generator {
    /// `list.elements`: each element's string values are parameters.
    List(Vec<BTreeMap<String, String>>),
    /// `git.directories`: path globs, `exclude: true` ones removing matches.
    GitDirectories {
        globs: Vec<(String, bool)>,
        /// `git.pathParamPrefix`: the parameters are `<prefix>.path`, ...
        prefix: Option<String>,
        /// An idpbuilder `cnoe://DIR` repository: the directory (root-relative) the globs
        /// are matched under, `None` for this repository's root.
        base: Option<String>,
    },
    /// Any other generator (clusters, git files, SCM, pull requests, matrix, merge,
    /// plugins): its parameters come from outside the repository's tree.
    Other(String),
}

impl Deployer {
    fn of(kind: &str, doc: &Value, source: &SourceRef) -> Option<Deployer> {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        let namespace = text(doc.pointer("/metadata/namespace"));
        let mut deployer = Deployer {
            source: source.clone(),
            kind: kind.to_string(),
            name: text(doc.pointer("/metadata/name")).unwrap_or_default(),
            namespace: namespace.clone(),
            targets: Vec::new(),
            depends_on: Vec::new(),
            wave: None,
            generators: Vec::new(),
            go_template: false,
        };
        match kind {
            "Kustomization" => {
                let spec = doc.get("spec");
                let at = |p: &str| text(spec.and_then(|s| s.pointer(p)));
                // kustomize-controller builds the source's root when `path` is empty.
                let path = at("/path").unwrap_or_else(|| "./".to_string());
                deployer.targets.push(DeployTarget {
                    path,
                    // The kubeconfig Secret (or ConfigMap) lives in the Kustomization's
                    // namespace (fluxcd/pkg `apis/meta` `KubeConfigReference`).
                    cluster: at("/kubeConfig/secretRef/name")
                        .map(|n| format!("secret {}/{n}", namespace.as_deref().unwrap_or("")))
                        .or_else(|| {
                            at("/kubeConfig/configMapRef/name").map(|n| {
                                format!("configmap {}/{n}", namespace.as_deref().unwrap_or(""))
                            })
                        }),
                    namespace: at("/targetNamespace"),
                    recurse: true,
                    include: None,
                    exclude: None,
                    // `targetNamespace` is the destination, applied to what the build renders.
                    options: BuildOptions {
                        namespace: None,
                        ..BuildOptions::of(spec)
                    },
                });
                if let Some(Value::Array(deps)) = spec.and_then(|s| s.get("dependsOn")) {
                    for d in deps {
                        let Some(name) = text(d.get("name")) else {
                            continue;
                        };
                        let ns = text(d.get("namespace"))
                            .or_else(|| namespace.clone())
                            .unwrap_or_default();
                        deployer.depends_on.push(format!("{ns}/{name}"));
                    }
                }
            }
            "Application" => {
                deployer.wave = Some(sync_wave(doc));
                deployer.targets = argo_targets(doc.get("spec"), &source.file);
            }
            "ApplicationSet" => {
                let spec = doc.get("spec");
                deployer.go_template = spec
                    .and_then(|s| s.get("goTemplate"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                let template = spec.and_then(|s| s.get("template"));
                deployer.wave = Some(template.map(sync_wave).unwrap_or(0));
                deployer.targets = argo_targets(template.and_then(|t| t.get("spec")), &source.file);
                if let Some(Value::Array(gens)) = spec.and_then(|s| s.get("generators")) {
                    deployer.generators = gens.iter().map(|g| generator(g, &source.file)).collect();
                }
            }
            _ => return None,
        }
        Some(deployer)
    }
}

/// `argocd.argoproj.io/sync-wave` of an Application (or an ApplicationSet's template);
/// Argo CD's default wave is 0 (`gitops-engine` `syncwaves.Wave`).
fn sync_wave(doc: &Value) -> i64 {
    doc.pointer("/metadata/annotations/argocd.argoproj.io~1sync-wave")
        .and_then(Value::as_str)
        .and_then(|w| w.trim().parse().ok())
        .unwrap_or(0)
}

/// The paths of an Argo CD Application spec (`source` and every `sources[]` entry), with the
/// destination (`server` or `name`; `namespace`). A `cnoe://DIR` repository (idpbuilder) is
/// the directory `DIR` next to the file holding the Application (idpbuilder
/// `pkg/controllers/custompackage/controller.go` `getCNOEAbsPath`), so its paths are taken
/// from there.
fn argo_targets(spec: Option<&Value>, file: &str) -> Vec<DeployTarget> {
    let Some(spec) = spec else {
        return Vec::new();
    };
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let cluster = text(spec.pointer("/destination/server"))
        .or_else(|| text(spec.pointer("/destination/name")));
    let namespace = text(spec.pointer("/destination/namespace"));
    // With a `sourceHydrator` the Application syncs its `syncSource` (argo-cd
    // `pkg/apis/application/v1alpha1/types.go` `GetSources`), a branch Argo CD writes by
    // rendering the `drySource` path (`controller/hydrator`): the dry path is what this
    // repository holds and what reaches the cluster, rendered. Else a non-empty `sources`
    // wins over `source` (`GetSources`).
    let sources: Vec<&Value> = match (
        spec.pointer("/sourceHydrator/drySource"),
        spec.get("sources"),
    ) {
        (Some(dry), _) => vec![dry],
        (None, Some(Value::Array(many))) if !many.is_empty() => many.iter().collect(),
        _ => spec.get("source").into_iter().collect(),
    };
    sources
        .into_iter()
        .filter_map(|s| {
            let path = text(s.get("path"))?;
            let path = match text(s.get("repoURL"))
                .as_deref()
                .and_then(|u| u.strip_prefix("cnoe://"))
            {
                Some(local) => {
                    let dir = file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
                    // Left unresolved when it leaves the repository: reported as such.
                    crate::model::kustomize::join_relative(dir, local)
                        .and_then(|base| crate::model::kustomize::join_relative(&base, &path))
                        .unwrap_or_else(|| format!("{dir}/{local}/{path}"))
                }
                None => path,
            };
            Some(DeployTarget {
                path,
                cluster: cluster.clone(),
                namespace: namespace.clone(),
                recurse: s
                    .pointer("/directory/recurse")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                include: text(s.pointer("/directory/include")),
                exclude: text(s.pointer("/directory/exclude")),
                options: BuildOptions::of(s.get("kustomize")),
            })
        })
        .collect()
}

fn generator(g: &Value, file: &str) -> Generator {
    if let Some(Value::Array(elements)) = g.pointer("/list/elements") {
        return Generator::List(
            elements
                .iter()
                .map(|e| {
                    let mut params = BTreeMap::new();
                    if let Value::Object(m) = e {
                        for (k, v) in m {
                            let v = match v {
                                Value::String(s) => s.clone(),
                                Value::Number(n) => n.to_string(),
                                Value::Bool(b) => b.to_string(),
                                _ => continue,
                            };
                            params.insert(k.clone(), v);
                        }
                    }
                    params
                })
                .collect(),
        );
    }
    if let Some(Value::Array(dirs)) = g.pointer("/git/directories") {
        // idpbuilder points a `cnoe://DIR` generator at a repository holding `DIR` next to
        // the ApplicationSet's file (`pkg/controllers/custompackage/controller.go`, the git
        // generators' `RepoURL` replaced by the internal repository of that directory).
        let base = g
            .pointer("/git/repoURL")
            .and_then(Value::as_str)
            .and_then(|u| u.strip_prefix("cnoe://"))
            .map(|local| {
                let dir = file.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
                crate::model::kustomize::join_relative(dir, local)
                    .unwrap_or_else(|| format!("{dir}/{local}"))
            });
        return Generator::GitDirectories {
            globs: dirs
                .iter()
                .filter_map(|d| {
                    let path = d.get("path")?.as_str()?.to_string();
                    let exclude = d.get("exclude").and_then(Value::as_bool).unwrap_or(false);
                    Some((path, exclude))
                })
                .collect(),
            prefix: g
                .pointer("/git/pathParamPrefix")
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
                .map(str::to_string),
            base,
        };
    }
    let kind = g
        .as_object()
        .and_then(|m| m.keys().find(|k| *k != "selector" && *k != "values"))
        .cloned()
        .unwrap_or_default();
    Generator::Other(kind)
}
