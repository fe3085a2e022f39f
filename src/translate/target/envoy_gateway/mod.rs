//! Envoy Gateway's policy resources (envoyproxy/gateway v1.9.0; CRDs embedded from
//! `crds/envoy-gateway/`).

pub(crate) mod backend_traffic_policy;
pub(crate) mod security_policy;

use serde::Serialize;

/// The API version of the policies written here.
const API_VERSION: &str = "gateway.envoyproxy.io/v1alpha1";

/// A policy's `targetRefs` entry: a Gateway API object of the policy's namespace.
#[derive(Debug, Serialize)]
struct TargetRef {
    group: &'static str,
    kind: String,
    name: String,
}

impl TargetRef {
    fn route(r: &super::RouteScope) -> TargetRef {
        TargetRef {
            group: crate::gwapi::GROUP,
            kind: r.kind.clone(),
            name: r.name.clone(),
        }
    }
}
