//! Facts found by an adversarial review of the model (issue #29), each with its source.

use serde_json::{Value, json};

use super::{Profile, World};
use crate::semantics::{Outcome, Request};

fn gateway(listeners: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
           "metadata": {"name": "gw", "namespace": "infra"},
           "spec": {"gatewayClassName": "x", "listeners": listeners}})
}

fn route(rules: Value) -> Value {
    json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
           "metadata": {"name": "r", "namespace": "infra"},
           "spec": {"parentRefs": [{"name": "gw"}], "rules": rules}})
}

fn http80() -> Value {
    json!([{"name": "http", "port": 80, "protocol": "HTTP", "allowedRoutes": {"namespaces": {"from": "All"}}}])
}

fn behaviour(objects: &[Value], profile: Profile, request: &str) -> crate::semantics::Behaviour {
    let world = World::new(objects, "default", profile);
    world.behaviour(
        &[],
        &Request::parse(request).unwrap_or_else(|e| panic!("{e}")),
    )
}

// Envoy `RedirectAction.strip_query` defaults to false; neither Istio nor Envoy Gateway sets
// it, so a redirect keeps the query.
#[test]
fn redirects_keep_the_query() {
    let objects = [
        gateway(http80()),
        route(
            json!([{"filters": [{"type": "RequestRedirect", "requestRedirect": {"scheme": "https"}}]}]),
        ),
    ];
    let b = behaviour(&objects, Profile::Istio, "GET http://x.example.com/p?a=1&b");
    assert_eq!(
        b.outcome,
        Outcome::Redirect {
            status: 302,
            location: "https://x.example.com/p?a=1&b".into()
        }
    );
}

// Conformance HTTPRouteInvalidBackendRefUnknownKind: an unsupported kind's share gets a 500.
#[test]
fn an_unknown_backend_kind_is_a_500_share() {
    let objects = [
        gateway(http80()),
        route(json!([{"backendRefs": [
            {"group": "example.com", "kind": "Thing", "name": "t"},
            {"name": "good", "port": 80}
        ]}])),
    ];
    let b = behaviour(&objects, Profile::Istio, "GET http://x.example.com/");
    let Outcome::Backends { backends, .. } = b.outcome else {
        panic!("{b:?}")
    };
    assert_eq!(backends.len(), 2);
    assert!(backends.iter().any(|s| s.name.is_empty()));
    assert!(backends.iter().any(|s| s.name == "good"));
}

// HTTPRequestMirrorFilter.BackendRef: a mirror to another namespace needs a ReferenceGrant.
#[test]
fn a_mirror_to_another_namespace_needs_a_grant() {
    let objects = [
        gateway(http80()),
        route(json!([{"backendRefs": [{"name": "svc", "port": 80}],
                      "filters": [{"type": "RequestMirror", "requestMirror": {"backendRef": {"name": "shadow", "namespace": "other", "port": 80}}}]}])),
    ];
    let b = behaviour(&objects, Profile::Istio, "GET http://x.example.com/");
    assert!(b.mirrors.is_empty(), "{b:?}");
}

// HTTPHeaderFilter: of header names equal but for case, the first entry counts.
#[test]
fn header_edits_keep_the_first_of_equal_names() {
    let objects = [
        gateway(http80()),
        route(json!([{"backendRefs": [{"name": "svc", "port": 80}],
                      "filters": [{"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [
                          {"name": "My-Header", "value": "bar"}, {"name": "my-header", "value": "baz"}]}}]}])),
    ];
    let b = behaviour(&objects, Profile::Istio, "GET http://x.example.com/");
    assert_eq!(
        b.request_headers.set,
        vec![("My-Header".to_string(), "bar".to_string())]
    );
}

// Envoy Gateway programs no conflicted listener (same port and hostname); Istio serves one.
#[test]
fn conflicted_listeners_serve_nothing_on_envoy_gateway() {
    let listeners = json!([
        {"name": "a", "port": 80, "protocol": "HTTP"},
        {"name": "b", "port": 80, "protocol": "HTTP"}
    ]);
    let objects = [
        gateway(listeners),
        route(json!([{"backendRefs": [{"name": "svc", "port": 80}]}])),
    ];
    assert_eq!(
        behaviour(&objects, Profile::EnvoyGateway, "GET http://x.example.com/").outcome,
        Outcome::NoListener
    );
    assert!(matches!(
        behaviour(&objects, Profile::Istio, "GET http://x.example.com/").outcome,
        Outcome::Backends { .. }
    ));
}

// Gateway API PathPrefix is element-wise (httproute_types.go, HTTPPathMatch).
#[test]
fn path_prefix_is_element_wise() {
    use super::path_prefix_matches;
    assert!(path_prefix_matches("/foo", "/foo"));
    assert!(path_prefix_matches("/foo/", "/foo"));
    assert!(path_prefix_matches("/foo", "/foo/bar"));
    assert!(!path_prefix_matches("/foo", "/foobar"));
    assert!(path_prefix_matches("/", "/anything"));
}

fn from(objects: &[Value], profile: Profile, request: &str, client: &str) -> Outcome {
    let world = World::new(objects, "default", profile);
    let ip = client.parse().unwrap_or_else(|e| panic!("{e}"));
    world
        .behaviour_from(
            &[],
            &Request::parse(request).unwrap_or_else(|e| panic!("{e}")),
            profile,
            Some(ip),
        )
        .outcome
}

fn security_policy(spec: Value) -> Value {
    json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "SecurityPolicy",
           "metadata": {"name": "sp", "namespace": "infra"}, "spec": spec})
}

fn forwarded(o: &Outcome) -> bool {
    matches!(o, Outcome::Backends { .. })
}

// envoyproxy/gateway api/v1alpha1/authorization_types.go: rules in order, the first match
// decides, else `defaultAction`; `clientCIDRs` match the client address.
#[test]
fn envoy_gateway_authorization_decides_by_client_address() {
    let objects = [
        gateway(http80()),
        route(json!([{"backendRefs": [{"name": "app", "port": 80}]}])),
        security_policy(json!({
            "targetRefs": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "r"}],
            "authorization": {"defaultAction": "Deny", "rules": [
                {"action": "Deny", "principal": {"clientCIDRs": ["10.0.99.0/24"]}},
                {"action": "Allow", "principal": {"clientCIDRs": ["10.0.0.0/16"]}}]}})),
    ];
    let get = "GET http://x.example.com/";
    let o = from(&objects, Profile::EnvoyGateway, get, "10.0.1.2");
    assert!(forwarded(&o), "{o:?}");
    assert!(matches!(
        from(&objects, Profile::EnvoyGateway, get, "10.0.99.2"),
        Outcome::Denied { status: 403, .. }
    ));
    assert!(matches!(
        from(&objects, Profile::EnvoyGateway, get, "192.0.2.1"),
        Outcome::Denied { status: 403, .. }
    ));
    // Istio does not read Envoy Gateway's policies.
    assert!(forwarded(&from(&objects, Profile::Istio, get, "192.0.2.1")));
    // Without a client address the checks are recorded, deny-list first.
    let b = behaviour(&objects, Profile::EnvoyGateway, get);
    assert!(forwarded(&b.outcome));
    assert_eq!(
        b.access,
        vec![
            crate::semantics::AccessCheck::SourceRange {
                allow: false,
                ranges: "10.0.99.0/24".into()
            },
            crate::semantics::AccessCheck::SourceRange {
                allow: true,
                ranges: "10.0.0.0/16".into()
            },
        ]
    );
}

// internal/gatewayapi/securitypolicy.go: a policy on a route rule (sectionName = the rule's
// name) wins over one on the route, which wins over one on the Gateway.
#[test]
fn envoy_gateway_the_most_specific_policy_applies() {
    let deny_all = |name: &str, target: Value| {
        let mut p = security_policy(json!({"targetRefs": [target],
            "authorization": {"defaultAction": "Deny"}}));
        p["metadata"]["name"] = json!(name);
        p
    };
    let allow_all = |name: &str, target: Value| {
        let mut p = security_policy(json!({"targetRefs": [target],
            "authorization": {"defaultAction": "Allow"}}));
        p["metadata"]["name"] = json!(name);
        p
    };
    let gw_ref = json!({"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw"});
    let rule_ref = json!({"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "r", "sectionName": "open"});
    let objects = [
        gateway(http80()),
        route(json!([
            {"name": "open", "matches": [{"path": {"type": "PathPrefix", "value": "/open"}}],
             "backendRefs": [{"name": "app", "port": 80}]},
            {"name": "closed", "backendRefs": [{"name": "app", "port": 80}]}])),
        deny_all("gateway-wide", gw_ref),
        allow_all("rule", rule_ref),
    ];
    assert!(forwarded(&from(
        &objects,
        Profile::EnvoyGateway,
        "GET http://x.example.com/open",
        "192.0.2.1"
    )));
    assert!(matches!(
        from(
            &objects,
            Profile::EnvoyGateway,
            "GET http://x.example.com/other",
            "192.0.2.1"
        ),
        Outcome::Denied { .. }
    ));
}

// istio/api security/v1beta1/authorization.proto: DENY rules refuse what they match; a rule
// matches when a `from` and a `to` entry hold; matcher/header.go `HostMatcher` compares the
// Host header exactly (a port included), matcher/path.go `PathMatcher` a trailing `*` as a
// prefix.
#[test]
fn istio_deny_rules_scope_by_host_and_path() {
    let policy = json!({"apiVersion": "security.istio.io/v1", "kind": "AuthorizationPolicy",
        "metadata": {"name": "office", "namespace": "infra"},
        "spec": {"targetRefs": [{"group": "gateway.networking.k8s.io", "kind": "Gateway", "name": "gw"}],
            "action": "DENY",
            "rules": [{"from": [{"source": {"notRemoteIpBlocks": ["10.0.0.0/8"]}}],
                       "to": [{"operation": {"hosts": ["x.example.com", "x.example.com:*"],
                                              "notPaths": ["/public", "/public/*"]}}]}]}});
    let objects = [
        gateway(http80()),
        route(json!([{"backendRefs": [{"name": "app", "port": 80}]}])),
        policy,
    ];
    let p = Profile::Istio;
    assert!(forwarded(&from(
        &objects,
        p,
        "GET http://x.example.com/admin",
        "10.1.2.3"
    )));
    assert!(matches!(
        from(&objects, p, "GET http://x.example.com/admin", "192.0.2.1"),
        Outcome::Denied { status: 403, .. }
    ));
    assert!(matches!(
        from(
            &objects,
            p,
            "GET http://x.example.com:80/admin",
            "192.0.2.1"
        ),
        Outcome::Denied { .. }
    ));
    assert!(forwarded(&from(
        &objects,
        p,
        "GET http://x.example.com/public/a",
        "192.0.2.1"
    )));
    assert!(forwarded(&from(
        &objects,
        p,
        "GET http://y.example.com/admin",
        "192.0.2.1"
    )));
    // Envoy Gateway does not read Istio's policies.
    assert!(forwarded(&from(
        &objects,
        Profile::EnvoyGateway,
        "GET http://x.example.com/admin",
        "192.0.2.1"
    )));
}

// ext_auth_types.go: `pathOverride` replaces the request's path, `path` is put before it.
#[test]
fn envoy_gateway_external_auth_is_recorded_with_the_path_it_calls() {
    let ext = |http: Value| {
        [
            gateway(http80()),
            route(json!([{"backendRefs": [{"name": "app", "port": 80}]}])),
            security_policy(json!({
                "targetRefs": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "r"}],
                "extAuth": {"http": http}})),
        ]
    };
    let url = |http: Value| match behaviour(
        &ext(http),
        Profile::EnvoyGateway,
        "GET http://x.example.com/a/b",
    )
    .access
    .as_slice()
    {
        [crate::semantics::AccessCheck::ExternalAuth { url }] => url.clone(),
        other => panic!("{other:?}"),
    };
    let backend = json!([{"name": "auth", "namespace": "sec", "port": 9000}]);
    assert_eq!(
        url(json!({"backendRefs": backend, "pathOverride": "/verify"})),
        "http://auth.sec.svc.cluster.local:9000/verify"
    );
    assert_eq!(
        url(json!({"backendRefs": backend, "path": "/verify"})),
        "http://auth.sec.svc.cluster.local:9000/verify/a/b"
    );
    assert_eq!(
        url(json!({"backendRefs": backend})),
        "http://auth.sec.svc.cluster.local:9000/a/b"
    );
}

// envoyproxy/gateway internal/xds/translator/route.go `getEffectiveRequestTimeout`: the
// route's own `timeouts.request`, else a BackendTrafficPolicy's `requestTimeout`, else none on
// the Envoy route, where Envoy's default (15 s) applies. Istio disables it (`setTimeout`).
#[test]
fn envoy_gateway_request_timeouts_default_to_15s() {
    let timeout = |objects: &[Value], profile: Profile| {
        behaviour(objects, profile, "GET http://x.example.com/")
            .timeouts
            .and_then(|t| t.request)
    };
    let plain = [
        gateway(http80()),
        route(json!([{"backendRefs": [{"name": "app", "port": 80}]}])),
    ];
    assert_eq!(
        timeout(&plain, Profile::EnvoyGateway).as_deref(),
        Some("15s")
    );
    assert_eq!(timeout(&plain, Profile::Istio), None);
    let btp = json!({"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "BackendTrafficPolicy",
        "metadata": {"name": "t", "namespace": "infra"},
        "spec": {"targetRefs": [{"group": "gateway.networking.k8s.io", "kind": "HTTPRoute", "name": "r"}],
                 "timeout": {"http": {"requestTimeout": "0s"}}}});
    let with_policy = [plain[0].clone(), plain[1].clone(), btp.clone()];
    assert_eq!(
        timeout(&with_policy, Profile::EnvoyGateway).as_deref(),
        Some("0s")
    );
    let own = [
        gateway(http80()),
        route(
            json!([{"backendRefs": [{"name": "app", "port": 80}], "timeouts": {"request": "30s"}}]),
        ),
        btp,
    ];
    assert_eq!(timeout(&own, Profile::EnvoyGateway).as_deref(), Some("30s"));
}
