//! The predicted status of the repository's Gateway API objects, as typed data: the
//! conditions (type, status, reason) a cluster running the target implementation would set
//! on each Gateway and listener, each route parentRef and each BackendTLSPolicy ancestor.
//! `check` turns the failures into diagnostics; the table test against Envoy Gateway's
//! translator test data (`tests/integration/status_envoy_gateway.rs`) compares these
//! conditions with the implementation's own.

use serde_json::Value;

use crate::config::Config;
use crate::index::Index;
use crate::model::SourceBody;

pub use super::attachment::Status;
use super::attachment::World;

/// One condition, as in a `status.conditions` entry (without times and generation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredictedCondition {
    /// `Accepted`, `ResolvedRefs`, `Programmed`, `Conflicted`, `OverlappingTLSConfig`.
    pub type_: &'static str,
    pub status: Status,
    pub reason: String,
    pub message: String,
}

impl PredictedCondition {
    pub(crate) fn new(
        type_: &'static str,
        status: Status,
        reason: &str,
        message: impl Into<String>,
    ) -> Self {
        PredictedCondition {
            type_,
            status,
            reason: reason.to_string(),
            message: message.into(),
        }
    }

    /// The condition that says all is well: status `True` and the type as reason.
    pub(crate) fn ok(type_: &'static str, message: impl Into<String>) -> Self {
        PredictedCondition::new(type_, Status::True, type_, message)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenerStatus {
    pub name: String,
    pub conditions: Vec<PredictedCondition>,
    /// The route kinds the listener supports (`status.listeners[].supportedKinds`).
    pub supported_kinds: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayStatus {
    pub namespace: String,
    pub name: String,
    /// Gateway-level conditions the repository decides (`ResolvedRefs` of
    /// `spec.tls.backend.clientCertificateRef`, `Accepted` of `spec.addresses`); conditions
    /// that depend on the cluster (addresses assigned) are not predicted.
    pub conditions: Vec<PredictedCondition>,
    pub listeners: Vec<ListenerStatus>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteParentStatus {
    /// The parentRef as written.
    pub parent_ref: Value,
    pub conditions: Vec<PredictedCondition>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteStatus {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub parents: Vec<RouteParentStatus>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyAncestorStatus {
    /// The ancestor (a Gateway) as a parentRef.
    pub ancestor_ref: Value,
    pub conditions: Vec<PredictedCondition>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyStatus {
    pub namespace: String,
    pub name: String,
    pub ancestors: Vec<PolicyAncestorStatus>,
}

/// Everything predicted about a repository's Gateway API objects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PredictedStatus {
    pub gateways: Vec<GatewayStatus>,
    pub routes: Vec<RouteStatus>,
    pub backend_tls_policies: Vec<PolicyStatus>,
}

/// Predicts the status of every Gateway, route and BackendTLSPolicy of `index`, against the
/// repository plus `generated` (objects this run generates, as JSON).
pub fn predict(index: &Index, generated: &[Value], config: &Config) -> PredictedStatus {
    let world = World::new(index, generated.iter(), config);
    let mut out = PredictedStatus::default();
    let objects = index
        .objects
        .iter()
        .filter(|o| !index.is_patch_file(&o.source.file))
        .filter_map(|o| match &o.body {
            SourceBody::GatewayApi(v) => Some(v),
            _ => None,
        })
        .chain(generated.iter());
    let objects: Vec<&Value> = objects.collect();
    let routes: Vec<&Value> = objects
        .iter()
        .copied()
        .filter(|v| world.predict(v).is_some())
        .collect();
    for value in &objects {
        match value.get("kind").and_then(Value::as_str) {
            Some("Gateway") => out.gateways.push(world.gateway_status(value)),
            Some("BackendTLSPolicy") => out
                .backend_tls_policies
                .push(world.policy_status(value, &routes)),
            _ => {
                if let Some(p) = world.predict(value) {
                    out.routes.push(p.route_status(value));
                }
            }
        }
    }
    out
}
