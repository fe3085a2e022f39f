//! The official Gateway API v1.6.1 CRDs, three Istio policy CRDs and three Envoy Gateway policy CRDs, embedded at build time
//! (`crds/`, unmodified, embedded in their JSON form from `crds/json/`), parsed once per
//! channel on first use.
//!
//! For every `(apiVersion, kind)` a channel defines we keep the version's `openAPIV3Schema`,
//! whether the version is served, and a compiled JSON-schema validator (built lazily: the
//! schemas are large and most runs touch a handful of kinds).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

use crate::config::Channel;

// The JSON form of each CRD (`crds/json/<channel>/<file>.json`, made from `crds/<channel>/<file>`
// by `BLESS=1 cargo test crd_json`, kept in step by that test): the catalog is read on every
// run, and parsing 2.7 MB of YAML took about 55 ms of each one, JSON about 5.
macro_rules! crd_files {
    ($channel:literal: $($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/crds/json/", $channel, "/", $file, ".json")))),*]
    };
}

/// `(file name, YAML text)` of every CRD of the standard channel.
const STANDARD: &[(&str, &str)] = crd_files!("standard":
    "gateway.networking.k8s.io_backendtlspolicies.yaml",
    "gateway.networking.k8s.io_gatewayclasses.yaml",
    "gateway.networking.k8s.io_gateways.yaml",
    "gateway.networking.k8s.io_grpcroutes.yaml",
    "gateway.networking.k8s.io_httproutes.yaml",
    "gateway.networking.k8s.io_listenersets.yaml",
    "gateway.networking.k8s.io_referencegrants.yaml",
    "gateway.networking.k8s.io_tcproutes.yaml",
    "gateway.networking.k8s.io_tlsroutes.yaml",
    "gateway.networking.k8s.io_udproutes.yaml",
);

/// Istio policy CRDs (istio/istio commit 86c9f01f, unmodified): the `istio` target writes
/// copies of the policies that selected the ingress workload, retargeted with `targetRefs` at
/// the new Gateway, and they are validated like every generated object.
const ISTIO: &[(&str, &str)] = crd_files!("istio":
    "security.istio.io_authorizationpolicies.yaml",
    "security.istio.io_requestauthentications.yaml",
    "telemetry.istio.io_telemetries.yaml",
);

/// Envoy Gateway's policy CRDs (envoyproxy/gateway v1.9.0, commit 39763b1c,
/// `charts/gateway-helm/charts/crds/crds/generated/`, unmodified): the `envoy-gateway` target
/// writes SecurityPolicies (and, later, traffic policies) for what the Standard API lacks.
const ENVOY_GATEWAY: &[(&str, &str)] = crd_files!("envoy-gateway":
    "gateway.envoyproxy.io_backendtrafficpolicies.yaml",
    "gateway.envoyproxy.io_clienttrafficpolicies.yaml",
    "gateway.envoyproxy.io_securitypolicies.yaml",
);

/// `(file name, YAML text)` of every CRD of the experimental channel.
const EXPERIMENTAL: &[(&str, &str)] = crd_files!("experimental":
    "gateway.networking.k8s.io_backendtlspolicies.yaml",
    "gateway.networking.k8s.io_gatewayclasses.yaml",
    "gateway.networking.k8s.io_gateways.yaml",
    "gateway.networking.k8s.io_grpcroutes.yaml",
    "gateway.networking.k8s.io_httproutes.yaml",
    "gateway.networking.k8s.io_listenersets.yaml",
    "gateway.networking.k8s.io_referencegrants.yaml",
    "gateway.networking.k8s.io_tcproutes.yaml",
    "gateway.networking.k8s.io_tlsroutes.yaml",
    "gateway.networking.k8s.io_udproutes.yaml",
    "gateway.networking.x-k8s.io_xbackends.yaml",
    "gateway.networking.x-k8s.io_xbackendtrafficpolicies.yaml",
    "gateway.networking.x-k8s.io_xmeshes.yaml",
);

/// The raw embedded CRD files of a channel, `(file name, YAML)`.
pub fn files(channel: Channel) -> &'static [(&'static str, &'static str)] {
    match channel {
        Channel::Standard => STANDARD,
        Channel::Experimental => EXPERIMENTAL,
    }
}

/// One version of one CRD.
#[derive(Debug)]
pub struct CrdVersion {
    pub group: String,
    pub kind: String,
    pub version: String,
    pub served: bool,
    /// The version's `openAPIV3Schema`.
    pub schema: Value,
    validator: OnceLock<Option<jsonschema::Validator>>,
}

impl CrdVersion {
    pub fn api_version(&self) -> String {
        format!("{}/{}", self.group, self.version)
    }

    /// The compiled validator; `None` if the schema does not compile (never for the embedded
    /// CRDs: a test compiles every one).
    pub fn validator(&self) -> Option<&jsonschema::Validator> {
        self.validator
            .get_or_init(|| {
                jsonschema::options()
                    .with_draft(jsonschema::Draft::Draft4)
                    .should_validate_formats(true)
                    .build(&self.schema)
                    .ok()
            })
            .as_ref()
    }
}

/// Every CRD version of one channel, by `(apiVersion, kind)`.
#[derive(Debug, Default)]
pub struct Catalog {
    pub versions: BTreeMap<(String, String), CrdVersion>,
}

impl Catalog {
    pub fn get(&self, api_version: &str, kind: &str) -> Option<&CrdVersion> {
        self.versions
            .get(&(api_version.to_string(), kind.to_string()))
    }

    /// Whether the channel defines `kind` in `group` at all (any version).
    pub fn has_kind(&self, group: &str, kind: &str) -> bool {
        self.versions
            .values()
            .any(|v| v.group == group && v.kind == kind)
    }
}

/// The catalog of a channel, parsed on first use.
pub fn catalog(channel: Channel) -> &'static Catalog {
    static STANDARD_CATALOG: OnceLock<Catalog> = OnceLock::new();
    static EXPERIMENTAL_CATALOG: OnceLock<Catalog> = OnceLock::new();
    let cell = match channel {
        Channel::Standard => &STANDARD_CATALOG,
        Channel::Experimental => &EXPERIMENTAL_CATALOG,
    };
    cell.get_or_init(|| {
        let mut all: Vec<(&str, &str)> = files(channel).to_vec();
        all.extend_from_slice(ISTIO);
        all.extend_from_slice(ENVOY_GATEWAY);
        build(&all)
    })
}

fn build(files: &[(&str, &str)]) -> Catalog {
    let mut catalog = Catalog::default();
    for (_, text) in files {
        // The embedded files are fixed at build time; `crd_files_parse` tests every one.
        let Ok(Some(crd)) = crate::yaml::parse_document(text) else {
            continue;
        };
        let group = str_at(&crd, "/spec/group");
        let kind = str_at(&crd, "/spec/names/kind");
        let Some(versions) = crd.pointer("/spec/versions").and_then(Value::as_array) else {
            continue;
        };
        for v in versions {
            let version = str_at(v, "/name");
            let served = v.get("served").and_then(Value::as_bool).unwrap_or(false);
            let schema = v
                .pointer("/schema/openAPIV3Schema")
                .cloned()
                .unwrap_or(Value::Null);
            catalog.versions.insert(
                (format!("{group}/{version}"), kind.clone()),
                CrdVersion {
                    group: group.clone(),
                    kind: kind.clone(),
                    version,
                    served,
                    schema,
                    validator: OnceLock::new(),
                },
            );
        }
    }
    catalog
}

fn str_at(v: &Value, pointer: &str) -> String {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_crd_parses_and_every_schema_compiles() {
        for channel in [Channel::Standard, Channel::Experimental] {
            for (file, text) in files(channel) {
                let doc = crate::yaml::parse_document(text);
                assert!(matches!(doc, Ok(Some(_))), "{file} does not parse");
            }
            let cat = catalog(channel);
            assert!(cat.versions.len() >= 10, "{channel:?}");
            for v in cat.versions.values() {
                assert!(v.validator().is_some(), "{} {}", v.api_version(), v.kind);
            }
        }
    }

    #[test]
    fn served_versions_match_the_release_notes() {
        let std = catalog(Channel::Standard);
        assert!(
            std.get("gateway.networking.k8s.io/v1", "TCPRoute")
                .is_some_and(|v| v.served)
        );
        assert!(
            std.get("gateway.networking.k8s.io/v1alpha2", "TCPRoute")
                .is_some_and(|v| !v.served)
        );
        let exp = catalog(Channel::Experimental);
        assert!(
            exp.get("gateway.networking.k8s.io/v1alpha2", "TCPRoute")
                .is_some_and(|v| v.served)
        );
        assert!(
            std.get(
                "gateway.networking.x-k8s.io/v1alpha1",
                "XBackendTrafficPolicy"
            )
            .is_none()
        );
    }
}

#[cfg(test)]
mod json_tests {
    use super::*;

    /// The embedded JSON is exactly the YAML it was made from. `BLESS=1` writes it again
    /// after a CRD under `crds/` changed.
    #[test]
    fn crd_json_is_the_parse_of_the_yaml() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crds");
        let bless = std::env::var_os("BLESS").is_some();
        for (channel, files) in [
            ("standard", STANDARD),
            ("experimental", EXPERIMENTAL),
            ("istio", ISTIO),
            ("envoy-gateway", ENVOY_GATEWAY),
        ] {
            for (file, json) in files {
                let yaml = std::fs::read_to_string(root.join(channel).join(file))
                    .unwrap_or_else(|e| panic!("{channel}/{file}: {e}"));
                let parsed = crate::yaml::parse_document(&yaml)
                    .ok()
                    .flatten()
                    .unwrap_or_else(|| panic!("{channel}/{file} does not parse"));
                if bless {
                    let out = root.join("json").join(channel).join(format!("{file}.json"));
                    std::fs::create_dir_all(out.parent().unwrap_or(&root)).ok();
                    let text = serde_json::to_string(&parsed).unwrap_or_default();
                    std::fs::write(&out, text + "\n").unwrap_or_else(|e| panic!("{e}"));
                    continue;
                }
                let embedded: Value = serde_json::from_str(json)
                    .unwrap_or_else(|e| panic!("{channel}/{file}.json: {e}"));
                assert!(
                    embedded == parsed,
                    "crds/json/{channel}/{file}.json is stale: run BLESS=1 cargo test crd_json"
                );
            }
        }
    }
}
