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
