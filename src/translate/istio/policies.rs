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
//! other targets, are errors naming the policy.

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
    if found.is_empty() {
        vec![gateway.selector.clone()]
    } else {
        found
    }
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
    for (policy, surrounding) in ctx.index.surroundings() {
        let Surrounding::IstioPolicy {
            selector: Some(selector),
            has_target_refs: false,
            spec,
        } = surrounding
        else {
            continue;
        };
        if selector.is_empty()
            || (policy.namespace != proxy.namespace && policy.namespace != ROOT_NAMESPACE)
            || !pods
                .iter()
                .any(|l| selector.iter().all(|(k, v)| l.get(k) == Some(v)))
        {
            continue;
        }
        let kind = policy.kind.as_str();
        let what = format!(
            "{kind} {}/{} ({}:{})",
            policy.namespace,
            policy.name(),
            policy.source.file,
            policy.source.line
        );
        let labels: Vec<String> = selector.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let lost = effect(kind, spec);
        if ctx.config.target == Target::Istio && RETARGETABLE.contains(&kind) {
            let copy = retargeted(policy, spec, gateway_name, &obj.namespace);
            result.notes.push(Diagnostic::new(Code::IstioPolicyRetargeted, format!("{what} selects the gateway workload ({}); the new Gateway's pods match none of it, so {lost}: written as {kind} {}/{} with targetRefs naming Gateway {gateway_name} (delete the original when the Istio Gateway goes)", labels.join(","), copy.metadata.namespace.as_deref().unwrap_or_default(), copy.metadata.name)).at("spec.selector"));
            result.generated.push(Generated::IstioPolicy(copy));
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
        }
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
