//! Istio's policy resources for Gateway API Gateways (`targetRefs`; istio/api
//! `type/v1beta1/selector.proto` `PolicyTargetReference`).

pub(crate) mod authorization_policy;
