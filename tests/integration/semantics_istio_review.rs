//! Rules of the Istio model (`semantics::istio`) found by an adversarial review against
//! Istio's and Envoy's source (issue #29), each with the function it comes from. Istio at
//! `86c9f01fd735`.

use gateway_migrate::config::Config;
use gateway_migrate::semantics::istio::{Mesh, World};
use gateway_migrate::semantics::{Behaviour, Outcome, Request};

const GATEWAY: &str = "
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ['*/shop.example.com']
  - port: {number: 8080, name: http-alt, protocol: HTTP}
    hosts: ['*/shop.example.com']
";

fn answer(yaml: &str, request: &str, headers: &[(&str, &str)]) -> Behaviour {
    let scan = gateway_migrate::scan::scan_inputs(
        &[("t.yaml".to_string(), yaml.as_bytes().to_vec())],
        &Config::default(),
    );
    let world = World::new(&scan.index.objects, &Mesh::default());
    let mut r = Request::parse(request).unwrap();
    for (k, v) in headers {
        r = r.with_header(k, v);
    }
    (0..world.gateway_count())
        .map(|g| world.behaviour(g, &r))
        .find(|b| !matches!(b.outcome, Outcome::NoListener))
        .unwrap_or_else(|| Behaviour::of(Outcome::NoListener))
}

fn vs(name: &str, ns: &str, extra: &str, http: &str) -> String {
    format!(
        "---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {{name: {name}, namespace: {ns}}}\nspec:\n  hosts: [shop.example.com]\n  gateways: [istio-system/gw]\n{extra}  http:\n{http}\n"
    )
}

fn backend(b: &Behaviour) -> String {
    match &b.outcome {
        Outcome::Backends { backends, .. } => backends
            .iter()
            .map(|s| format!("{}/{}", s.namespace, s.name))
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

// push_context.go `VirtualServicesForGateway`: VirtualServices of the proxy's namespace
// exported to it, then those exported to it by name, then public ones; name order only
// within each.
#[test]
fn export_buckets_order_virtual_services_before_names() {
    let route = |to: &str| {
        format!(
            "  - match: [{{uri: {{prefix: /x}}}}]\n    route: [{{destination: {{host: {to}}}}}]"
        )
    };
    let yaml = format!(
        "{GATEWAY}{}{}",
        vs("a-public", "shop", "", &route("public")),
        vs(
            "z-exported",
            "shop",
            "  exportTo: [istio-system]\n",
            &route("exported")
        )
    );
    let b = answer(&yaml, "GET http://shop.example.com/x", &[]);
    assert_eq!(backend(&b), "shop/exported");
    let yaml = format!(
        "{GATEWAY}{}{}",
        vs("a-public", "shop", "", &route("public")),
        vs(
            "z-private",
            "istio-system",
            "  exportTo: ['.']\n",
            &route("private")
        )
    );
    let b = answer(&yaml, "GET http://shop.example.com/x", &[]);
    assert_eq!(backend(&b), "istio-system/private");
}

// gateway.go `buildGatewayHTTPRouteConfig` walks a port's servers Gateway by Gateway
// (`initGateways`: creation time, then name), each with its VirtualServices.
#[test]
fn gateways_of_one_proxy_add_their_routes_in_gateway_order() {
    let gw = |name: &str| {
        format!(
            "---\napiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata: {{name: {name}, namespace: istio-system}}\nspec:\n  selector: {{istio: ingressgateway}}\n  servers:\n  - port: {{number: 80, name: http, protocol: HTTP}}\n    hosts: ['*/shop.example.com']\n"
        )
    };
    let bound = |name: &str, gateway: &str, to: &str| {
        format!(
            "---\napiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  hosts: [shop.example.com]\n  gateways: [istio-system/{gateway}]\n  http:\n  - match: [{{uri: {{prefix: /x}}}}]\n    route: [{{destination: {{host: {to}}}}}]\n"
        )
    };
    let yaml = format!(
        "{}{}{}{}",
        gw("b-gw"),
        gw("a-gw"),
        bound("z-vs", "a-gw", "on-a"),
        bound("a-vs", "b-gw", "on-b")
    );
    let b = answer(&yaml, "GET http://shop.example.com/x", &[]);
    assert_eq!(backend(&b), "shop/on-a");
}

// gateway.go: an `httpsRedirect` server's hosts (`*/host` is `host`,
// `sanitizeServerHostNamespace`) make the port's existing virtual host redirect, whichever
// Gateway's VirtualService made it.
#[test]
fn https_redirect_of_another_gateway_applies_to_the_shared_host() {
    let yaml = format!(
        "{GATEWAY}---\napiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata: {{name: redirect, namespace: istio-system}}\nspec:\n  selector: {{istio: ingressgateway}}\n  servers:\n  - port: {{number: 80, name: http, protocol: HTTP}}\n    hosts: ['*/shop.example.com']\n    tls: {{httpsRedirect: true}}\n{}",
        vs("web", "shop", "", "  - route: [{destination: {host: web}}]")
    );
    let b = answer(&yaml, "GET http://shop.example.com/x", &[]);
    assert_eq!(location(&b), "https://shop.example.com/x");
}

// Envoy `createSslRedirectPath` keeps the Host header as sent; `newUri` takes the port only
// from `port_redirect` when the redirect names a host; Istio's `ApplyRedirect` leaves
// `port_redirect` unset for the scheme's default.
#[test]
fn redirect_locations_follow_envoys_uri_rules() {
    let yaml = format!(
        "{GATEWAY}{}",
        vs(
            "web",
            "shop",
            "",
            "  - match: [{uri: {prefix: /auth}}]
    redirect: {authority: other.example.com}
  - match: [{uri: {prefix: /https}}]
    redirect: {scheme: https}
  - match: [{uri: {prefix: /p443}}]
    redirect: {scheme: https, port: 443}"
        )
    );
    let at = |path: &str| {
        location(&answer(
            &yaml,
            &format!("GET http://shop.example.com:8080{path}"),
            &[],
        ))
    };
    assert_eq!(at("/auth"), "http://other.example.com/auth");
    assert_eq!(at("/https"), "https://shop.example.com:8080/https");
    assert_eq!(at("/p443"), "https://shop.example.com:8080/p443");
    let tls = GATEWAY.replace(
        "  - port: {number: 8080, name: http-alt, protocol: HTTP}\n    hosts: ['*/shop.example.com']\n",
        "  - port: {number: 8080, name: http-alt, protocol: HTTP}\n    hosts: ['*/shop.example.com']\n    tls: {httpsRedirect: true}\n",
    );
    let b = answer(&tls, "GET http://shop.example.com:8080/x", &[]);
    assert_eq!(location(&b), "https://shop.example.com:8080/x");
}

// route.go `TranslateHeadersOperations`: `Host` under `add` rewrites the host too;
// `translateFault`: an abort without `percentage` aborts nothing; validation.go
// `validateHTTPRedirect`: a redirect code outside 3xx refuses the whole VirtualService.
#[test]
fn host_by_add_aborts_without_percentage_and_refused_objects() {
    let yaml = format!(
        "{GATEWAY}{}",
        vs(
            "web",
            "shop",
            "",
            "  - match: [{uri: {prefix: /add}}]
    headers: {request: {add: {host: added.internal}}}
    route: [{destination: {host: web}}]
  - match: [{uri: {prefix: /abort}}]
    fault: {abort: {httpStatus: 503}}
    route: [{destination: {host: web}}]"
        )
    );
    let b = answer(&yaml, "GET http://shop.example.com/add", &[]);
    assert!(
        matches!(&b.outcome, Outcome::Backends { host, .. } if host == "added.internal"),
        "{b:?}"
    );
    let b = answer(&yaml, "GET http://shop.example.com/abort", &[]);
    assert_eq!(backend(&b), "shop/web");
    let refused = format!(
        "{GATEWAY}{}",
        vs(
            "web",
            "shop",
            "",
            "  - match: [{uri: {prefix: /tea}}]
    redirect: {uri: /pot, redirectCode: 418}
  - route: [{destination: {host: web}}]"
        )
    );
    let b = answer(&refused, "GET http://shop.example.com/", &[]);
    assert!(matches!(b.outcome, Outcome::NoRoute), "{b:?}");
}
