//! Objects around an Istio ingress that are not translated but change what a migration means:
//! the gateway workloads, Istio policies that select them, certificates, controllers that
//! write VirtualServices themselves, external hosts, and installed CRDs. Only the facts the
//! checks need are kept.

use std::collections::BTreeMap;

use serde_json::Value;

/// Istio policy kinds that select workloads by label (`selector.matchLabels`, EnvoyFilter's
/// `workloadSelector.labels`).
pub const ISTIO_POLICY_KINDS: [&str; 6] = [
    "AuthorizationPolicy",
    "RequestAuthentication",
    "PeerAuthentication",
    "EnvoyFilter",
    "WasmPlugin",
    "Telemetry",
];

#[derive(Debug, Clone)]
pub enum Surrounding {
    /// A Deployment, StatefulSet or DaemonSet: the labels of its pods.
    Workload {
        pod_labels: BTreeMap<String, String>,
    },
    /// An Istio policy of one of [`ISTIO_POLICY_KINDS`].
    IstioPolicy {
        /// `None`: no selector (the policy applies to the whole namespace, or the mesh in
        /// the root namespace).
        selector: Option<BTreeMap<String, String>>,
        /// Set when the policy already uses `targetRef`/`targetRefs`.
        has_target_refs: bool,
        /// The whole `spec`, to write a copy that targets a Gateway API Gateway.
        spec: Value,
    },
    /// A cert-manager `Certificate`: the Secret it writes.
    Certificate { secret_name: String },
    /// A Flagger `Canary`.
    FlaggerCanary {
        target: String,
        /// `spec.service.gateways` (Istio provider) and whether `gatewayRefs` is set.
        gateways: Vec<String>,
        has_gateway_refs: bool,
    },
    /// An Argo Rollouts `Rollout` with `trafficRouting.istio`.
    RolloutIstio {
        virtual_services: Vec<String>,
        has_gateway_api_plugin: bool,
    },
    /// An Istio `ServiceEntry`: hosts outside the cluster (`MESH_EXTERNAL`, the default).
    ServiceEntry { hosts: Vec<String>, external: bool },
    /// A `CustomResourceDefinition`: its API group (read without a parse,
    /// `load::prefilter::crd_group`).
    Crd { group: String },
    /// A workload running ingress-nginx's controller (its image is ingress-nginx's
    /// `controller`, or it runs `/nginx-ingress-controller`): that container's `command`
    /// and `args`, in the order it runs them.
    NginxController { args: Vec<String> },
    /// A ConfigMap that may configure ingress-nginx: its data.
    ConfigMap { data: BTreeMap<String, String> },
    /// A Helm release of the `ingress-nginx` chart (Flux `HelmRelease`, Argo CD
    /// `Application`): the values it gives the chart (`model::helm_chart::release`).
    /// Istio's mesh configuration as an `IstioOperator` (`spec.meshConfig`) or a Helm release
    /// of the `istiod` chart (`meshConfig` of its values) gives it.
    IstioMeshConfig { mesh: Value },
    NginxHelmRelease {
        values: Value,
        /// Sources of values the release names that are not read (`spec.valuesFrom`,
        /// `helm.valueFiles`).
        unread: Vec<String>,
    },
}

/// The arguments of the container that runs ingress-nginx's controller, if one does.
fn nginx_controller_args(doc: &Value) -> Option<Vec<String>> {
    let containers = doc.pointer("/spec/template/spec/containers")?.as_array()?;
    containers.iter().find_map(|c| {
        let image = c.get("image").and_then(Value::as_str).unwrap_or("");
        let args = strings(c.get("args"));
        // `registry.k8s.io/ingress-nginx/controller:v1.15.1`, or a mirror of it.
        let segments: Vec<&str> = image.split('/').collect();
        let runs = segments
            .windows(2)
            .any(|w| w[0] == "ingress-nginx" && w[1].starts_with("controller"))
            || args
                .first()
                .is_some_and(|a| a.ends_with("/nginx-ingress-controller"))
            || strings(c.get("command"))
                .iter()
                .any(|a| a.ends_with("/nginx-ingress-controller"));
        // The container runs `command` followed by `args`; the controller's flags may be in
        // either.
        runs.then(|| {
            let mut all = strings(c.get("command"));
            all.extend(args);
            // The kubelet expands `$(NAME)` in command and args from the container's
            // environment; literal values are known here (`POD_NAMESPACE` comes from the
            // pod and is expanded by the index), `$$` escapes.
            let env: Vec<(String, String)> = c
                .get("env")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|e| {
                    Some((
                        e.get("name")?.as_str()?.to_string(),
                        e.get("value")?.as_str()?.to_string(),
                    ))
                })
                .collect();
            all.into_iter()
                .map(|a| {
                    env.iter().fold(a, |a, (name, value)| {
                        a.replace(&format!("$({name})"), value)
                    })
                })
                .collect()
        })
    })
}

fn labels(v: Option<&Value>) -> BTreeMap<String, String> {
    v.and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
        .collect()
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// The surrounding object `doc` is, if any.
pub fn decode(api_version: &str, kind: &str, doc: &Value) -> Option<Surrounding> {
    let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let spec = doc.get("spec");
    let at = |p: &str| doc.pointer(p);
    match (group, kind) {
        ("apps", "Deployment" | "StatefulSet" | "DaemonSet") => {
            Some(match nginx_controller_args(doc) {
                Some(args) => Surrounding::NginxController { args },
                None => Surrounding::Workload {
                    pod_labels: labels(at("/spec/template/metadata/labels")),
                },
            })
        }
        // Any ConfigMap can be the one a controller's `--configmap` names (the load stage's
        // prefilter keeps those that name nginx or are small).
        ("", "ConfigMap") => Some(Surrounding::ConfigMap {
            data: labels(at("/data")),
        }),
        (
            "security.istio.io"
            | "networking.istio.io"
            | "extensions.istio.io"
            | "telemetry.istio.io",
            k,
        ) if ISTIO_POLICY_KINDS.contains(&k) => {
            let selector = if k == "EnvoyFilter" {
                at("/spec/workloadSelector/labels")
            } else {
                at("/spec/selector/matchLabels")
            };
            Some(Surrounding::IstioPolicy {
                selector: selector.map(|s| labels(Some(s))),
                has_target_refs: at("/spec/targetRef").is_some()
                    || at("/spec/targetRefs").is_some(),
                spec: spec.cloned().unwrap_or(Value::Null),
            })
        }
        ("networking.istio.io", "ServiceEntry") => Some(Surrounding::ServiceEntry {
            hosts: strings(at("/spec/hosts")),
            external: at("/spec/location").and_then(Value::as_str) != Some("MESH_INTERNAL"),
        }),
        ("install.istio.io", "IstioOperator") => Some(Surrounding::IstioMeshConfig {
            mesh: at("/spec/meshConfig").cloned().unwrap_or(Value::Null),
        }),
        ("cert-manager.io", "Certificate") => Some(Surrounding::Certificate {
            secret_name: at("/spec/secretName")?.as_str()?.to_string(),
        }),
        ("flagger.app", "Canary") => Some(Surrounding::FlaggerCanary {
            target: at("/spec/targetRef/name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            gateways: strings(at("/spec/service/gateways")),
            has_gateway_refs: at("/spec/service/gatewayRefs").is_some(),
        }),
        ("argoproj.io", "Rollout") => {
            let routing = at("/spec/strategy/canary/trafficRouting")?;
            let istio = routing.get("istio")?;
            let mut virtual_services: Vec<String> = istio
                .pointer("/virtualService/name")
                .and_then(Value::as_str)
                .map(str::to_string)
                .into_iter()
                .collect();
            for vs in istio
                .get("virtualServices")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(n) = vs.get("name").and_then(Value::as_str) {
                    virtual_services.push(n.to_string());
                }
            }
            Some(Surrounding::RolloutIstio {
                virtual_services,
                has_gateway_api_plugin: routing
                    .pointer("/plugins")
                    .and_then(Value::as_object)
                    .is_some_and(|p| {
                        p.keys()
                            .any(|k| k.to_ascii_lowercase().contains("gatewayapi"))
                    }),
            })
        }
        _ => None,
    }
}

/// Kinds [`decode`] reads besides [`ISTIO_POLICY_KINDS`].
const OTHER_KINDS: [&str; 10] = [
    "ConfigMap",
    "HelmRelease",
    "IstioOperator",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ServiceEntry",
    "Certificate",
    "Canary",
    "Rollout",
];

/// Whether [`decode`] may read an object of `kind` (the load stage's prefilter asks).
pub fn is_read_kind(kind: &str) -> bool {
    ISTIO_POLICY_KINDS.contains(&kind) || OTHER_KINDS.contains(&kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_facts_each_kind_needs() {
        let d = serde_json::json!({"spec": {"template": {"metadata": {"labels": {"istio": "ingressgateway"}}}}});
        assert!(matches!(decode("apps/v1", "Deployment", &d),
            Some(Surrounding::Workload { pod_labels }) if pod_labels.get("istio").map(String::as_str) == Some("ingressgateway")));
        let p = serde_json::json!({"spec": {"workloadSelector": {"labels": {"app": "gw"}}}});
        assert!(
            matches!(decode("networking.istio.io/v1alpha3", "EnvoyFilter", &p),
            Some(Surrounding::IstioPolicy { selector: Some(s), has_target_refs: false, .. }) if s.len() == 1)
        );
        let a = serde_json::json!({"spec": {"action": "DENY"}});
        assert!(matches!(
            decode("security.istio.io/v1", "AuthorizationPolicy", &a),
            Some(Surrounding::IstioPolicy { selector: None, .. })
        ));
        let r = serde_json::json!({"spec": {"strategy": {"canary": {}}}});
        assert!(decode("argoproj.io/v1alpha1", "Rollout", &r).is_none());
        // ingress-nginx's controller: by image, or by the binary it runs (the chart's args).
        let c = serde_json::json!({"spec": {"template": {"spec": {"containers": [
            {"name": "sidecar", "image": "busybox"},
            {"name": "controller", "image": "example.com/mirror/controller:v1",
             "args": ["/nginx-ingress-controller", "--configmap=$(POD_NAMESPACE)/cm"]}]}}}});
        assert!(matches!(decode("apps/v1", "Deployment", &c),
            Some(Surrounding::NginxController { args }) if args.len() == 2));
        let m = serde_json::json!({"metadata": {"name": "ingress-nginx-controller"}, "data": {"ssl-redirect": "false"}});
        assert!(matches!(decode("v1", "ConfigMap", &m),
            Some(Surrounding::ConfigMap { data }) if data.get("ssl-redirect").map(String::as_str) == Some("false")));
        // Any ConfigMap may be the one a controller's `--configmap` names, whatever its name.
        let other =
            serde_json::json!({"metadata": {"name": "controller-settings"}, "data": {"a": "b"}});
        assert!(matches!(decode("v1", "ConfigMap", &other),
            Some(Surrounding::ConfigMap { data }) if data.len() == 1));
        let e = serde_json::json!({"spec": {"hosts": ["api.example.com"], "location": "MESH_INTERNAL"}});
        assert!(matches!(
            decode("networking.istio.io/v1", "ServiceEntry", &e),
            Some(Surrounding::ServiceEntry {
                external: false,
                ..
            })
        ));
    }
}
