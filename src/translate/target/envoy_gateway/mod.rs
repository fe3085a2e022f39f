//! Envoy Gateway's policy resources (envoyproxy/gateway v1.9.0; CRDs embedded from
//! `crds/envoy-gateway/`).

pub(crate) mod security_policy;
pub(crate) mod timeouts;
