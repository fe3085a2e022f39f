//! Rules of the ingress-nginx model (`semantics::ingress_nginx`) found by an adversarial review
//! against ingress-nginx's and nginx's source (issue #29), each with where it comes from.
//! ingress-nginx at `dbb11b92` (v1.15.1).

use gateway_migrate::semantics::ingress_nginx::{Controller, World};
use gateway_migrate::semantics::{AccessCheck, Behaviour, Outcome, Request};

use crate::common::yaml_documents;

fn ingress(name: &str, annotations: &str, host: &str, paths: &[(&str, &str, &str)]) -> String {
    let mut out = format!(
        "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: default\n  annotations: {{{annotations}}}\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: '{host}'\n    http:\n      paths:\n"
    );
    for (path, kind, service) in paths {
        out.push_str(&format!(
            "      - path: '{path}'\n        pathType: {kind}\n        backend: {{service: {{name: {service}, port: {{number: 80}}}}}}\n"
        ));
    }
    out
}

fn answer(yaml: &str, request: &str) -> Behaviour {
    let objects = yaml_documents(yaml);
    let world = World::new(&objects, "default", Controller::new("nginx"));
    world.behaviour(&Request::parse(request).unwrap(), None)
}

fn backend(b: &Behaviour) -> String {
    match &b.outcome {
        Outcome::Backends { backends, .. } => backends
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
            .join(","),
        other => format!("{other:?}"),
    }
}

fn location(b: &Behaviour) -> String {
    match &b.outcome {
        Outcome::Redirect { location, .. } => location.clone(),
        other => format!("{other:?}"),
    }
}

// nginx `ngx_http_core_find_static_location`: `proxy_pass` in a location whose name ends in
// `/` sets `auto_redirect`; a request for the name without the slash gets 301 (controller.go
// quotes the rule above `updateServerLocations`).
#[test]
fn a_location_ending_in_a_slash_redirects_the_name_without_it() {
    for kind in ["Prefix", "Exact"] {
        let yaml = ingress("a", "", "shop.example.com", &[("/foo/", kind, "svc-a")]);
        let b = answer(&yaml, "GET http://shop.example.com/foo?x=1");
        assert_eq!(location(&b), "http://shop.example.com/foo/?x=1", "{kind}");
    }
}

// controller.go `createUpstreams`: a canary that is the first Ingress (in sort order) to name
// a Service marks its upstream NoServer, and `getBackendServers` skips every location using
// it (kubernetes/ingress-nginx#8004).
#[test]
fn a_canary_first_to_name_a_service_takes_its_locations_away() {
    let yaml = format!(
        "{}{}",
        ingress(
            "main",
            "",
            "shop.example.com",
            &[("/foo", "Prefix", "svc-main")]
        ),
        ingress(
            "zcanary",
            "nginx.ingress.kubernetes.io/canary: 'true', nginx.ingress.kubernetes.io/canary-weight: '50'",
            "shop.example.com",
            &[("/foo", "Prefix", "svc-main")]
        )
    );
    let b = answer(&yaml, "GET http://shop.example.com/foo");
    assert!(matches!(b.outcome, Outcome::NoRoute), "{b:?}");
}

// template.go `buildServerName`: a wildcard rule host is the regex `^(?<subdomain>[\w-]+)\.…$`,
// one label; a `server-alias` is written verbatim (`*.` any depth, `~` a regex), and only the
// first Ingress of the host (in sort order) gives aliases (controller.go `createServers`).
#[test]
fn wildcard_hosts_take_one_label_and_aliases_are_server_names() {
    let yaml = ingress("a", "", "*.example.com", &[("/", "Prefix", "svc-a")]);
    assert_eq!(
        backend(&answer(&yaml, "GET http://x.example.com/")),
        "svc-a"
    );
    assert!(matches!(
        answer(&yaml, "GET http://a.b.example.com/").outcome,
        Outcome::NoRoute
    ));
    let aliased = format!(
        "{}{}",
        ingress(
            "a",
            "nginx.ingress.kubernetes.io/server-alias: '*.example.org'",
            "shop.example.com",
            &[("/a", "Prefix", "svc-a")]
        ),
        ingress(
            "b",
            "nginx.ingress.kubernetes.io/server-alias: '~^shop\\d+\\.example\\.com$'",
            "shop.example.com",
            &[("/b", "Prefix", "svc-b")]
        )
    );
    // `b` sorts first (names descending): its alias counts, `a`'s does not.
    assert_eq!(
        backend(&answer(&aliased, "GET http://shop12.example.com/b")),
        "svc-b"
    );
    assert!(matches!(
        answer(&aliased, "GET http://a.b.example.org/a").outcome,
        Outcome::NoRoute
    ));
}

// controller.go `createServers`: the host's root location takes the first Ingress's
// annotations, access checks included; `getBackendServers` sets a client certificate check
// on the whole server (nginx.tmpl `ssl_verify_client` in the server block).
#[test]
fn access_checks_reach_the_default_location_and_client_certificates_the_server() {
    let yaml = ingress(
        "a",
        "nginx.ingress.kubernetes.io/auth-type: basic, nginx.ingress.kubernetes.io/auth-secret: ba",
        "shop.example.com",
        &[("/foo", "Prefix", "svc-a")],
    );
    let b = answer(&yaml, "GET http://shop.example.com/other");
    assert!(matches!(b.outcome, Outcome::NoRoute), "{b:?}");
    assert!(
        b.access
            .iter()
            .any(|a| matches!(a, AccessCheck::BasicAuth { .. })),
        "{b:?}"
    );
    let yaml = format!(
        "{}{}",
        ingress(
            "a",
            "nginx.ingress.kubernetes.io/auth-tls-secret: default/ca, nginx.ingress.kubernetes.io/auth-tls-verify-client: 'on'",
            "shop.example.com",
            &[("/secure", "Prefix", "svc-sec")]
        ),
        ingress(
            "b",
            "",
            "shop.example.com",
            &[("/public", "Prefix", "svc-pub")]
        )
    );
    let b = answer(&yaml, "GET https://shop.example.com/public");
    assert_eq!(backend(&b), "svc-pub");
    assert!(
        b.access.contains(&AccessCheck::ClientCertificate {
            secret: "default/ca".into()
        }),
        "{b:?}"
    );
}

// nginx `ngx_http_parse_complex_uri` (merge_slashes on, %XX decoded, dot segments) before
// the location lookup; `ngx_http_validate_host` drops a trailing dot.
#[test]
fn locations_match_the_normalised_uri_and_hosts_lose_a_trailing_dot() {
    let yaml = ingress("a", "", "shop.example.com", &[("/foo", "Exact", "svc-a")]);
    for path in ["//foo", "/fo%6F", "/x/../foo"] {
        let b = answer(&yaml, &format!("GET http://shop.example.com{path}"));
        assert_eq!(backend(&b), "svc-a", "{path}");
    }
    assert_eq!(
        backend(&answer(&yaml, "GET http://shop.example.com./foo")),
        "svc-a"
    );
}

// lua_ingress.lua `rewrite`: `use-port-in-redirects` puts the HTTPS port in the redirect;
// nginx makes a relative `return 301 /new` absolute (`absolute_redirect` on,
// `server_name_in_redirect` and `port_in_redirect` off).
#[test]
fn redirects_are_absolute_and_carry_the_port_when_asked() {
    let mut yaml = ingress(
        "a",
        "nginx.ingress.kubernetes.io/use-port-in-redirects: 'true'",
        "shop.example.com",
        &[("/", "Prefix", "svc-a")],
    );
    yaml.push_str("  tls:\n  - hosts: [shop.example.com]\n    secretName: shop-tls\n");
    assert_eq!(
        location(&answer(&yaml, "GET http://shop.example.com/x")),
        "https://shop.example.com:443/x"
    );
    let yaml = ingress(
        "a",
        "nginx.ingress.kubernetes.io/permanent-redirect: /new",
        "shop.example.com",
        &[("/", "Prefix", "svc-a")],
    );
    assert_eq!(
        location(&answer(&yaml, "GET http://shop.example.com/x")),
        "http://shop.example.com/new"
    );
}
