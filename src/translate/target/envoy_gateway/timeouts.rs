//! Envoy Gateway's route timeouts (envoyproxy/gateway v1.9.0). A rule without
//! `timeouts.request` gets no timeout on its Envoy route (`internal/xds/translator/route.go`
//! `getEffectiveRequestTimeout`), so Envoy's `RouteAction.timeout` default, 15 s, cuts every
//! request still running then; ingress-nginx and Istio had no request timeout (nginx limits
//! the time between two reads or writes; Istio's `setTimeout` disables the route timeout).
//!
//! So every rule that forwards and sets no request timeout gets `timeouts.request: 0s`
//! (Gateway API `HTTPRouteTimeouts`: zero disables the timeout), and the source's routes get
//! one `BackendTrafficPolicy` (`api/v1alpha1/timeout_types.go`) with `requestTimeout: 0s`
//! (a GRPCRoute has no `timeouts` field; a route's own timeout comes first anyway). A disabled
//! request timeout also disables the route's stream idle timeout (`route.go` `idleTimeout`),
//! so the policy restores the source's: ingress-nginx's `proxy-read-timeout` /
//! `proxy-send-timeout` (60 s by default; nginx's limit between two reads or writes is what
//! an idle stream is); Istio's gateways have none (`pilot/pkg/networking/core/
//! listener_builder.go` `buildHTTPConnectionManager` sets `StreamIdleTimeout` to 0 unless the
//! proxy's connection settings say otherwise), so nothing is restored for them;
//! and ingress-nginx's `proxy-connect-timeout` (5 s by default; Envoy Gateway's is 10 s) as
//! `timeout.tcp.connectTimeout`.

use serde::Serialize;

use super::super::{ExistingPolicy, Namer, RouteScope};
use super::{API_VERSION, TargetRef};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{Generated, HttpRouteTimeouts, Metadata, Object};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    target_refs: Vec<TargetRef>,
    timeout: Timeout,
}

#[derive(Debug, Serialize)]
struct Timeout {
    #[serde(skip_serializing_if = "Option::is_none")]
    tcp: Option<TcpTimeout>,
    http: HttpTimeout,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TcpTimeout {
    connect_timeout: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct HttpTimeout {
    request_timeout: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_idle_timeout: Option<String>,
}

/// What the source's data plane did where Envoy Gateway would differ.
pub(crate) struct SourceTimeouts<'a> {
    /// Who had them, for the note (`ingress-nginx`, `Istio`).
    pub(crate) data_plane: &'a str,
    /// How long a forwarded request could sit with no byte either way (`None`: no limit, as
    /// Envoy Gateway then has none either).
    pub(crate) stream_idle: Option<String>,
    /// How long connecting to a backend could take, when it differs from Envoy Gateway's.
    pub(crate) connect: Option<String>,
}

/// Disables the 15 s default on the forwarding rules of `generated` (all from the source
/// named `source` in its namespace) and, with `names` (Envoy Gateway's own resources may be
/// written), the BackendTrafficPolicy keeping the source's other timeouts; the note says what
/// was kept. The portable output (`generic`) gets the rules' `0s` only: implementations that
/// honour it (Envoy Gateway among them) then keep no request timeout either.
pub(crate) fn keep(
    generated: &mut Vec<Generated>,
    source: &str,
    kept: &SourceTimeouts,
    names: Option<&mut Namer>,
    existing: &[ExistingPolicy],
) -> Option<Diagnostic> {
    let routes: Vec<RouteScope> = generated.iter().filter_map(RouteScope::of).collect();
    let namespace = routes.first()?.namespace.clone();
    let mut disabled = 0;
    for g in generated.iter_mut() {
        let Generated::HttpRoute(o) = g else { continue };
        for rule in &mut o.spec.rules {
            if rule.backend_refs.is_empty() {
                continue;
            }
            let timeouts = rule.timeouts.get_or_insert_with(HttpRouteTimeouts::default);
            if timeouts.request.is_none() {
                timeouts.request = Some("0s".into());
                disabled += 1;
            }
        }
    }
    let Some(names) = names else {
        return (disabled > 0).then(|| {
            Diagnostic::new(
                Code::TargetTimeoutsKept,
                format!(
                    "{} set no request timeout: {disabled} rule(s) get timeouts.request 0s, which disables it (some implementations, Envoy Gateway among them, end a request after 15 s without it; Envoy Gateway then also stops timing idle streams)",
                    kept.data_plane
                ),
            )
        });
    };
    // One BackendTrafficPolicy per route: Envoy Gateway keeps the oldest and marks a second
    // Conflicted (`internal/gatewayapi/backendtrafficpolicy.go`), so with one of the
    // repository's on a route none is written; the rules' 0s holds either way.
    if let Some(p) = existing
        .iter()
        .find(|p| p.kind == "BackendTrafficPolicy" && routes.iter().any(|r| p.on_route(r)))
    {
        return Some(Diagnostic::new(
            Code::TargetTimeoutsKept,
            format!(
                "Envoy Gateway would end every request after 15 s (its route default), where {} set no request timeout: {disabled} rule(s) get timeouts.request 0s; BackendTrafficPolicy {}/{} of the repository already targets {} {}, so no other is written: give it the source's idle ({}) and connect timeouts if it lacks them",
                kept.data_plane,
                p.namespace,
                p.name,
                p.target_kind,
                p.target_name,
                kept.stream_idle.as_deref().unwrap_or("none")
            ),
        ));
    }
    let name = names(&namespace, "BackendTrafficPolicy", source);
    let spec = Spec {
        target_refs: routes
            .iter()
            .filter(|r| r.namespace == namespace)
            .map(TargetRef::route)
            .collect(),
        timeout: Timeout {
            tcp: kept
                .connect
                .clone()
                .map(|connect_timeout| TcpTimeout { connect_timeout }),
            http: HttpTimeout {
                request_timeout: "0s".into(),
                stream_idle_timeout: kept.stream_idle.clone(),
            },
        },
    };
    generated.push(Generated::Policy(Object::new(
        API_VERSION,
        "BackendTrafficPolicy",
        Metadata::new(name.clone(), namespace.clone()),
        serde_json::to_value(&spec).unwrap_or_default(),
    )));
    Some(Diagnostic::new(
        Code::TargetTimeoutsKept,
        format!(
            "Envoy Gateway would end every request after 15 s (its route default), where {} set no request timeout: {disabled} rule(s) get timeouts.request 0s, and BackendTrafficPolicy {namespace}/{name} keeps {}{}",
            kept.data_plane,
            kept.stream_idle.as_ref().map_or(
                "no stream idle timeout, as before".to_string(),
                |t| format!("the stream idle timeout at {t}")
            ),
            kept.connect
                .as_ref()
                .map(|c| format!(" and the connect timeout at {c}"))
                .unwrap_or_default()
        ),
    ))
}
