//! Gateway API attachment rules shared by everything that decides where a route may attach:
//! Ingress `mount` mode chooses listeners with them, the validator predicts `Accepted` with
//! them. Pure functions of a listener's fields and the route's namespace and kind.
//!
//! Facts from the Gateway API v1.6.1 CRDs (`crds/`): `allowedRoutes.namespaces.from` defaults
//! to `Same`; `Selector` matches the labels of the route's Namespace; `allowedRoutes.kinds`,
//! when empty, means the kinds the listener's protocol supports (HTTP/HTTPS: HTTPRoute and
//! GRPCRoute; TLS: TLSRoute, and TCPRoute unless the mode is Passthrough; TCP: TCPRoute; UDP:
//! UDPRoute).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::gwapi::GROUP;

/// Whether a listener admits something, as far as the repository can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    Admitted,
    Refused,
    /// Depends on labels of a Namespace the repository does not define.
    Unknown,
}

/// `allowedRoutes.namespaces` of a listener (`allowed_routes` is the `allowedRoutes` object,
/// or null) for a route in `route_ns`; `labels` are the route Namespace's labels and
/// `labels_known` whether the repository defines that Namespace.
pub fn namespaces_admit(
    allowed_routes: &Value,
    gateway_ns: &str,
    route_ns: &str,
    labels: &BTreeMap<String, String>,
    labels_known: bool,
) -> Admission {
    let from = allowed_routes
        .pointer("/namespaces/from")
        .and_then(Value::as_str)
        .unwrap_or("Same");
    match from {
        "All" => Admission::Admitted,
        "Same" if gateway_ns == route_ns => Admission::Admitted,
        "Selector" => {
            // Without a selector, or with one that does not parse, a listener admits no
            // namespace (Envoy Gateway: validate.go validateAllowedNamespaces leaves the
            // selector nil and AllowsNamespace refuses; the spec requires a selector).
            let Some(selector) = allowed_routes.pointer("/namespaces/selector") else {
                return Admission::Refused;
            };
            if super::selector::invalid(selector).is_some() {
                return Admission::Refused;
            }
            let selector = selector.clone();
            match (super::selector::matches(&selector, labels), labels_known) {
                (true, _) => Admission::Admitted,
                (false, true) => Admission::Refused,
                (false, false) => Admission::Unknown,
            }
        }
        _ => Admission::Refused,
    }
}

/// The route kinds a listener's protocol (and TLS mode) supports.
pub fn protocol_kinds(protocol: &str, tls_mode: Option<&str>) -> &'static [&'static str] {
    match (protocol, tls_mode.unwrap_or("Terminate")) {
        ("HTTP" | "HTTPS", _) => &["HTTPRoute", "GRPCRoute"],
        ("TLS", "Passthrough") => &["TLSRoute"],
        ("TLS", _) => &["TLSRoute", "TCPRoute"],
        ("TCP", _) => &["TCPRoute"],
        ("UDP", _) => &["UDPRoute"],
        _ => &[],
    }
}

/// Whether `allowedRoutes.kinds` lets `route_kind` attach (an absent or empty list lets
/// every kind the protocol supports; see [`protocol_kinds`]).
pub fn kinds_admit(allowed_routes: &Value, route_kind: &str) -> bool {
    match allowed_routes.get("kinds").and_then(Value::as_array) {
        Some(kinds) if !kinds.is_empty() => kinds.iter().any(|k| {
            k.get("group").and_then(Value::as_str).unwrap_or(GROUP) == GROUP
                && k.get("kind").and_then(Value::as_str) == Some(route_kind)
        }),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn namespaces_default_to_same_and_selector_reads_labels() {
        let none = BTreeMap::new();
        assert_eq!(
            namespaces_admit(&Value::Null, "gw", "gw", &none, true),
            Admission::Admitted
        );
        assert_eq!(
            namespaces_admit(&Value::Null, "gw", "app", &none, true),
            Admission::Refused
        );
        let all = json!({"namespaces": {"from": "All"}});
        assert_eq!(
            namespaces_admit(&all, "gw", "app", &none, false),
            Admission::Admitted
        );
        let sel =
            json!({"namespaces": {"from": "Selector", "selector": {"matchLabels": {"team": "a"}}}});
        let a = labels(&[("team", "a")]);
        let b = labels(&[("team", "b")]);
        assert_eq!(
            namespaces_admit(&sel, "gw", "app", &a, true),
            Admission::Admitted
        );
        assert_eq!(
            namespaces_admit(&sel, "gw", "app", &b, true),
            Admission::Refused
        );
        assert_eq!(
            namespaces_admit(&sel, "gw", "app", &none, false),
            Admission::Unknown
        );
        let bogus = json!({"namespaces": {"from": "Elsewhere"}});
        assert_eq!(
            namespaces_admit(&bogus, "gw", "gw", &none, true),
            Admission::Refused
        );
    }

    #[test]
    fn kinds_follow_protocol_and_allowed_list() {
        assert!(protocol_kinds("HTTPS", None).contains(&"GRPCRoute"));
        assert_eq!(protocol_kinds("TLS", Some("Passthrough")), ["TLSRoute"]);
        assert!(protocol_kinds("TLS", None).contains(&"TCPRoute"));
        assert!(protocol_kinds("SCTP", None).is_empty());
        assert!(kinds_admit(&Value::Null, "HTTPRoute"));
        let only_grpc = json!({"kinds": [{"kind": "GRPCRoute"}]});
        assert!(kinds_admit(&only_grpc, "GRPCRoute"));
        assert!(!kinds_admit(&only_grpc, "HTTPRoute"));
        let other_group = json!({"kinds": [{"group": "example.com", "kind": "HTTPRoute"}]});
        assert!(!kinds_admit(&other_group, "HTTPRoute"));
    }
}
