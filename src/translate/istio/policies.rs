//! Istio policies that select the ingress gateway workload by label.
//!
//! An AuthorizationPolicy, RequestAuthentication, PeerAuthentication, EnvoyFilter, WasmPlugin
//! or Telemetry with a `selector` (EnvoyFilter: `workloadSelector`) applies to the pods whose
//! labels it names, in its namespace, or in every namespace from Istio's root namespace
//! (istio/api security/v1beta1/authorization.proto, type/v1beta1/selector.proto
//! `WorkloadSelector`). The pods of a Gateway API Gateway carry none of the old gateway's
//! labels, so a deny-all becomes "allow all", an ext-authz or JWT requirement disappears.
//!
//! For the `istio` target, AuthorizationPolicy, RequestAuthentication and Telemetry accept
//! `targetRefs` naming a Gateway API Gateway in the policy's namespace (istio/api
//! type/v1beta1/selector.proto `PolicyTargetReference`; istio/istio
//! pkg/config/validation/validation.go `validatePolicyTargetReference`): a copy of the policy
//! is written that way. PeerAuthentication has no `targetRefs`, and EnvoyFilter/WasmPlugin
//! patch proxy internals that differ for Gateway API deployments: those, and every policy for
//! other targets, are errors naming the policy. An access control lost that way (an
//! AuthorizationPolicy that allows, denies or calls an authorizer; a RequestAuthentication)
//! closes the new Gateway: its routes are written without backends
//! (`translate::target::close_gateways`), so nothing it refused gets through.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Ctx;
use super::names;
use super::proxy::Proxy;
use crate::config::Target;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{self, Generated, Metadata, Object};
use crate::model::SourceObject;
use crate::model::istio::Gateway;
use crate::model::surrounding::Surrounding;
use crate::translate::SourceResult;

/// Istio's root namespace (MeshConfig `rootNamespace` default): policies there apply mesh-wide.
const ROOT_NAMESPACE: &str = "istio-system";

/// Kinds the `istio` target can retarget with `targetRefs`.
const RETARGETABLE: [&str; 3] = ["AuthorizationPolicy", "RequestAuthentication", "Telemetry"];

/// What losing the policy does to the gateway's traffic.
fn effect(kind: &str, spec: &Value) -> String {
    match kind {
        "AuthorizationPolicy" => {
            let action = spec
                .get("action")
                .and_then(Value::as_str)
                .unwrap_or("ALLOW");
            match action {
                "DENY" => "its DENY rules stop applying: requests it refused are let through".into(),
                "CUSTOM" => "its external authorization (CUSTOM) stops applying: requests are no longer checked by the provider".into(),
                "AUDIT" => "its audit rules stop applying".into(),
                _ => "its ALLOW rules stop applying: the gateway no longer restricts who may call it".into(),
            }
        }
        "RequestAuthentication" => "JWT validation disappears: tokens are no longer verified (and rules that require a principal see none)".into(),
        "PeerAuthentication" => "its mTLS mode no longer applies to the gateway's pods".into(),
        "EnvoyFilter" => "its Envoy patches no longer apply".into(),
        "WasmPlugin" => "its Wasm extension no longer runs".into(),
        _ => "its telemetry settings no longer apply".into(),
    }
}

/// The labels the old gateway's pods are known to carry: those of the workloads found, else
/// the Gateway's selector (which they carry by definition).
fn known_pod_labels(ctx: &Ctx, proxy: &Proxy, gateway: &Gateway) -> Vec<BTreeMap<String, String>> {
    let found: Vec<BTreeMap<String, String>> = proxy
        .workloads
        .iter()
        .filter_map(|&i| ctx.index.objects.get(i))
        .filter_map(|o| match &o.body {
            crate::model::SourceBody::Surrounding(Surrounding::Workload { pod_labels }) => {
                Some(pod_labels.clone())
            }
            _ => None,
        })
        .collect();
    if !found.is_empty() {
        return found;
    }
    // Without the workload: the selector's labels, plus what the Services in front of the
    // pods select (the pods carry those too), plus the `app` label Istio's ingress chart gives
    // the pods its `istio: ingressgateway` selector picks (istio/istio
    // manifests/charts/gateways/istio-ingress/values.yaml: `app: istio-ingressgateway`).
    let mut labels = gateway.selector.clone();
    for (_, service) in proxy.service_objects(ctx.index) {
        if let Some(selector) = service.spec.as_ref().and_then(|s| s.selector.as_ref()) {
            labels.extend(selector.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    if gateway.selector.get("istio").map(String::as_str) == Some("ingressgateway") {
        labels
            .entry("app".into())
            .or_insert_with(|| "istio-ingressgateway".into());
    }
    vec![labels]
}

/// Notes and retargeted copies for every policy that selected the old gateway's pods.
pub(super) fn translate(
    ctx: &Ctx,
    obj: &SourceObject,
    gateway: &Gateway,
    gateway_name: &str,
    result: &mut SourceResult,
) {
    if gateway.selector.is_empty() {
        return;
    }
    let Some(proxy) = ctx.proxy(&obj.namespace, obj.name()) else {
        return;
    };
    let pods = known_pod_labels(ctx, proxy, gateway);
    for (position, policy, surrounding) in ctx.index.surroundings() {
        let Surrounding::IstioPolicy {
            selector,
            has_target_refs: false,
            spec,
        } = surrounding
        else {
            continue;
        };
        let Some(selector) = selector.as_ref().filter(|s| !s.is_empty()) else {
            namespace_wide(
                ctx.config.target,
                policy,
                spec,
                proxy,
                (obj, gateway_name),
                result,
            );
            continue;
        };
        // Where the gateway's pods run is only Istio's default when nothing in the repository
        // shows it: a policy of another namespace whose selector picks the gateway's labels
        // may then be theirs (`pilot/pkg/model/policyattachment.go`: a policy applies to the
        // pods of its own namespace it selects), and is taken to be, so it is not lost.
        let namespace_unknown = matches!(proxy.evidence, super::proxy::Evidence::Default);
        if (policy.namespace != proxy.namespace
            && policy.namespace != ROOT_NAMESPACE
            && !namespace_unknown)
            || !pods
                .iter()
                .any(|l| selector.iter().all(|(k, v)| l.get(k) == Some(v)))
        {
            continue;
        }
        let kind = policy.kind.as_str();
        let what = describe(policy);
        let labels: Vec<String> = selector.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let lost = effect(kind, spec);
        if ctx.config.target == Target::Istio && RETARGETABLE.contains(&kind) {
            let copy = retargeted(policy, spec, gateway_name, &obj.namespace);
            if mentions_ports(spec) {
                result.notes.push(Diagnostic::new(Code::IstioPolicyPorts, format!("{what} names ports in its rules: on the old gateway those are the pod's ports (8080/8443 with Istio's charts), while the new Gateway's pods listen on the listener ports; check the ports of the copy {}/{} before applying it (an ALLOW rule on the wrong port refuses everything, a DENY rule lets everything through)", copy.metadata.namespace.as_deref().unwrap_or_default(), copy.metadata.name)).at("spec.selector"));
            }
            result.notes.push(Diagnostic::new(Code::IstioPolicyRetargeted, format!("{what} selects the gateway workload ({}); the new Gateway's pods match none of it, so {lost}: written as {kind} {}/{} with targetRefs naming Gateway {gateway_name} (delete the original when the Istio Gateway goes)", labels.join(","), copy.metadata.namespace.as_deref().unwrap_or_default(), copy.metadata.name)).at("spec.selector"));
            // Written next to the policy: an overlay or Component that adds the policy is what
            // deploys its copy, not every build of the Gateway.
            result.elsewhere.push((position, Generated::Policy(copy)));
        } else {
            let how = if ctx.config.target == Target::Istio {
                match kind {
                    "PeerAuthentication" => {
                        "PeerAuthentication has no targetRefs: give the Gateway's pods a label it selects (spec.infrastructure.labels) or set the mode mesh-wide"
                    }
                    _ => {
                        "rewrite it for the Gateway API deployment (targetRefs naming the Gateway) and check its patches against that deployment"
                    }
                }
            } else {
                "recreate it with this implementation's own policy resources before switching traffic"
            };
            result.notes.push(Diagnostic::new(Code::IstioPolicyWorkload, format!("{what} selects the gateway workload ({}); the new Gateway's pods match none of it, so {lost}: {how}", labels.join(","))).at("spec.selector"));
            if checks_access(kind, spec) {
                result.closed_gateways.push((
                    obj.namespace.clone(),
                    gateway_name.to_string(),
                    format!("{what} checked its requests and is not carried over, so {lost}"),
                ));
            }
        }
    }
}

/// "Kind ns/name (file:line)", how notes name a policy.
fn describe(policy: &SourceObject) -> String {
    format!(
        "{} {}/{} ({}:{})",
        policy.kind,
        policy.namespace,
        policy.name(),
        policy.source.file,
        policy.source.line
    )
}

/// Whether the policy's rules name ports (`to.operation.ports`/`notPorts` of an
/// AuthorizationPolicy, and the like).
fn mentions_ports(spec: &Value) -> bool {
    match spec {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| k == "ports" || k == "notPorts" || mentions_ports(v)),
        Value::Array(items) => items.iter().any(mentions_ports),
        _ => false,
    }
}

/// A policy without selector applies to every workload of its namespace (all namespaces from
/// the root namespace). When the new Gateway's pods run in another namespace than the old
/// gateway's, such a policy of either namespace changes who it applies to.
fn namespace_wide(
    target: Target,
    policy: &SourceObject,
    spec: &Value,
    proxy: &Proxy,
    (gateway, gateway_name): (&SourceObject, &str),
    result: &mut SourceResult,
) {
    let new_ns = &gateway.namespace;
    let kind = policy.kind.as_str();
    let what = describe(policy);
    // Other targets run no Istio proxy: no Istio policy applies to them at all, a mesh-wide
    // one (in the root namespace) included.
    if policy.namespace == ROOT_NAMESPACE {
        if target != Target::Istio {
            let lost = effect(kind, spec);
            result.notes.push(
                Diagnostic::new(
                    Code::IstioPolicyWorkload,
                    format!("{what} applies to every workload of the mesh (Istio's root namespace), the old gateway included; the new Gateway runs no Istio proxy, so {lost}: recreate it with this implementation's own policy resources before switching traffic"),
                )
                .at("metadata.namespace"),
            );
            if checks_access(kind, spec) {
                result.closed_gateways.push((
                    new_ns.clone(),
                    gateway_name.to_string(),
                    format!(
                        "{what} checked every request of the mesh and no longer applies, so {lost}"
                    ),
                ));
            }
        }
        return;
    }
    let moves = target != Target::Istio || proxy.namespace != *new_ns;
    if !moves {
        return;
    }
    let message = if policy.namespace == proxy.namespace {
        format!(
            "{what} applies to every workload of namespace {}, where the old gateway runs; the new Gateway's pods do not (they run in {new_ns}, or are not Istio proxies), so {}",
            proxy.namespace,
            effect(kind, spec)
        )
    } else if policy.namespace == *new_ns && target == Target::Istio {
        format!(
            "{what} applies to every workload of namespace {new_ns}, where the new Gateway's pods will run: it now applies to the gateway too, which it did not (the old gateway runs in {}); an ALLOW or deny-all policy there refuses the gateway's traffic",
            proxy.namespace
        )
    } else {
        return;
    };
    result
        .notes
        .push(Diagnostic::new(Code::IstioPolicyWorkload, message).at("metadata.namespace"));
    if policy.namespace == proxy.namespace && checks_access(kind, spec) {
        result.closed_gateways.push((
            gateway.namespace.clone(),
            gateway_name.to_string(),
            format!(
                "{what} checked every request of the old gateway's namespace and no longer applies, so {}",
                effect(kind, spec)
            ),
        ));
    }
}

/// Whether losing the policy lets requests through that it refused: an AuthorizationPolicy
/// that allows, denies or sends to an external authorizer, or a RequestAuthentication (which
/// refuses invalid tokens).
fn checks_access(kind: &str, spec: &Value) -> bool {
    match kind {
        "AuthorizationPolicy" => spec.get("action").and_then(Value::as_str) != Some("AUDIT"),
        "RequestAuthentication" => true,
        _ => false,
    }
}

/// The policy with `selector` replaced by `targetRefs` to Gateway `gateway_name`, in the
/// Gateway's namespace (targetRefs must be local).
fn retargeted(
    policy: &SourceObject,
    spec: &Value,
    gateway_name: &str,
    gateway_namespace: &str,
) -> Object<Value> {
    let mut spec = spec.clone();
    if let Value::Object(map) = &mut spec {
        map.remove("selector");
        map.insert(
            "targetRefs".into(),
            serde_json::json!([{
                "group": gwapi::GROUP,
                "kind": "Gateway",
                "name": gateway_name,
            }]),
        );
    }
    let name = names::sanitize(
        &format!("{}-{gateway_name}", policy.name()),
        names::MAX_NAME,
    );
    Object::new(
        &policy.api_version,
        &policy.kind,
        Metadata::new(name, gateway_namespace.to_string()),
        spec,
    )
}
