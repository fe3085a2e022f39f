//! One test per rule of each model, each citing its source (the commits are in
//! `docs/equivalence.md`). Configurations are real YAML through the scanner, so the tests
//! exercise what a repository gives the models.

use super::*;
use crate::config::Target;

fn scan(yaml: &str) -> crate::scan::Scan {
    crate::scan::scan_inputs(
        &[("t.yaml".to_string(), yaml.as_bytes().to_vec())],
        &Config::default(),
    )
}

/// `GET http://host[:port]/path[?k=v]`, with headers `name: value`.
fn probe(url: &str, headers: &[(&str, &str)]) -> Probe {
    let (scheme, rest) = url.split_once("://").unwrap_or(("http", url));
    let scheme = if scheme == "https" {
        Scheme::Https
    } else {
        Scheme::Http
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let (host, port) = match authority.split_once(':') {
        Some((h, p)) => (h, p.parse().unwrap_or(80)),
        None => (authority, u32::from(scheme.default_port())),
    };
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let mut p = Probe::new(scheme, host, port, path);
    p.query = query
        .split('&')
        .filter(|q| !q.is_empty())
        .map(|q| {
            let (k, v) = q.split_once('=').unwrap_or((q, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    p.headers = headers
        .iter()
        .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
        .collect();
    p
}

fn backend(ns: &str, name: &str, port: Option<u32>) -> Backend {
    Backend {
        namespace: ns.into(),
        name: name.into(),
        port,
    }
}

/// The single backend a forward goes to, as `ns/name`.
fn target(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Forward { backends, .. } if backends.len() == 1 => {
            format!(
                "{}/{}",
                backends[0].backend.namespace, backends[0].backend.name
            )
        }
        other => other.to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Istio

const ISTIO_GATEWAY: &str = "
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ['*/*.example.com']
  - port: {number: 443, name: https, protocol: HTTPS}
    hosts: ['*/*.example.com']
    tls: {mode: SIMPLE, credentialName: wildcard}
";

fn istio(yaml: &str, url: &str, headers: &[(&str, &str)]) -> Outcome {
    istio_with(yaml, url, headers, &Config::default())
}

fn istio_with(yaml: &str, url: &str, headers: &[(&str, &str)], config: &Config) -> Outcome {
    let text = format!("{ISTIO_GATEWAY}---{yaml}");
    let s = scan(&text);
    let model = istio::Model::build(&s.index, config);
    model.evaluate(0, &probe(url, headers)).outcome
}

fn vs(name: &str, ns: &str, extra: &str, http: &str) -> String {
    format!(
        "
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {{name: {name}, namespace: {ns}}}
spec:
  hosts: [shop.example.com]
  gateways: [istio-system/gw]
{extra}
  http:
{http}
"
    )
}

// route.go BuildHTTPRoutesForVirtualService: first match wins within a VirtualService.
#[test]
fn istio_first_match_wins() {
    let y = vs(
        "shop",
        "shop",
        "",
        "  - match: [{uri: {prefix: /api}}]
    route: [{destination: {host: api}}]
  - match: [{uri: {exact: /api/health}}]
    route: [{destination: {host: health}}]",
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/api/health", &[])),
        "shop/api"
    );
}

// route.go TranslateRouteMatch: `prefix` is Envoy's string prefix; ignoreUriCase folds it;
// regexes match the whole path and ignore ignoreUriCase.
#[test]
fn istio_uri_matching() {
    let y = vs(
        "shop",
        "shop",
        "",
        "  - match: [{uri: {prefix: /api}}]
    route: [{destination: {host: api}}]
  - match: [{uri: {prefix: /docs}, ignoreUriCase: true}]
    route: [{destination: {host: docs}}]
  - match: [{uri: {regex: '/v[0-9]'}, ignoreUriCase: true}]
    route: [{destination: {host: v}}]",
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/apix", &[])),
        "shop/api"
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/DOCS/a", &[])),
        "shop/docs"
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/v1", &[])),
        "shop/v"
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/V1", &[]),
        Outcome::NotFound
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/v1/x", &[]),
        Outcome::NotFound
    );
}

// route.go TranslateRouteMatch: headers, withoutHeaders (missing = empty), regex `*` means
// present (canBeConvertedToPresentMatch), queryParams, method, authority and scheme as
// pseudo-headers.
#[test]
fn istio_header_query_method_authority_scheme() {
    let y = vs(
        "shop",
        "shop",
        "",
        "  - match: [{headers: {x-canary: {regex: '*'}}}]
    route: [{destination: {host: canary}}]
  - match: [{withoutHeaders: {x-user: {exact: admin}}, uri: {prefix: /admin}}]
    route: [{destination: {host: public}}]
  - match: [{queryParams: {v: {exact: '2'}}}]
    route: [{destination: {host: v2}}]
  - match: [{method: {exact: POST}}]
    route: [{destination: {host: writer}}]
  - match: [{authority: {exact: 'shop.example.com:8443'}}]
    route: [{destination: {host: odd-port}}]
  - match: [{scheme: {exact: https}}]
    route: [{destination: {host: secure}}]
  - route: [{destination: {host: web}}]",
    );
    let t = |url, h: &[(&str, &str)]| target(&istio(&y, url, h));
    assert_eq!(
        t("http://shop.example.com/", &[("x-canary", "anything")]),
        "shop/canary"
    );
    assert_eq!(t("http://shop.example.com/admin", &[]), "shop/public");
    assert_eq!(
        t("http://shop.example.com/admin", &[("x-user", "admin")]),
        "shop/web"
    );
    assert_eq!(t("http://shop.example.com/?v=2", &[]), "shop/v2");
    let mut post = probe("http://shop.example.com/", &[]);
    post.method = "POST".into();
    let text = format!("{ISTIO_GATEWAY}---{y}");
    let s = scan(&text);
    let model = istio::Model::build(&s.index, &Config::default());
    assert_eq!(target(&model.evaluate(0, &post).outcome), "shop/writer");
    assert_eq!(t("https://shop.example.com/", &[]), "shop/secure");
    assert_eq!(t("http://shop.example.com/", &[]), "shop/web");
}

// route.go TranslateRoute: a match for another port is left out of this port's routes.
#[test]
fn istio_port_match() {
    let y = vs(
        "shop",
        "shop",
        "",
        "  - match: [{port: 443}]
    route: [{destination: {host: secure}}]
  - route: [{destination: {host: web}}]",
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/", &[])),
        "shop/web"
    );
    assert_eq!(
        target(&istio(&y, "https://shop.example.com/", &[])),
        "shop/secure"
    );
}

// config.go sortConfigByCreationTime (equal times: name, then namespace); gateway.go
// appends each VirtualService's routes to the host's virtual host; route.go SortVHostRoutes
// moves catch-all routes last.
#[test]
fn istio_merges_virtual_services_by_name_with_catch_alls_last() {
    let y = format!(
        "{}---{}",
        vs(
            "a-catch-all",
            "shop",
            "",
            "  - route: [{destination: {host: web}}]"
        ),
        vs(
            "b-api",
            "shop",
            "",
            "  - match: [{uri: {prefix: /api}}]
    route: [{destination: {host: api}}]"
        )
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/api", &[])),
        "shop/api"
    );
    let y = format!(
        "{}---{}",
        vs(
            "a-broad",
            "shop",
            "",
            "  - match: [{uri: {prefix: /api}}]
    route: [{destination: {host: api}}]"
        ),
        vs(
            "b-exact",
            "shop",
            "",
            "  - match: [{uri: {exact: /api/health}}]
    route: [{destination: {host: health}}]"
        )
    );
    assert_eq!(
        target(&istio(&y, "http://shop.example.com/api/health", &[])),
        "shop/api"
    );
}

// push_context.go: exportTo is judged against the proxy's namespace (istioGatewayNamespace,
// istio-system by default), not the Gateway object's.
#[test]
fn istio_export_to_is_judged_against_the_proxy_namespace() {
    let hidden = vs(
        "shop",
        "shop",
        "  exportTo: ['.']",
        "  - route: [{destination: {host: web}}]",
    );
    assert_eq!(
        istio(&hidden, "http://shop.example.com/", &[]),
        Outcome::NotFound
    );
    let visible = vs(
        "shop",
        "shop",
        "  exportTo: [istio-system]",
        "  - route: [{destination: {host: web}}]",
    );
    assert_eq!(
        target(&istio(&visible, "http://shop.example.com/", &[])),
        "shop/web"
    );
}

// gateway.go: a server host `ns/host` admits only VirtualServices of `ns`.
#[test]
fn istio_server_host_namespace_filter() {
    let gw = ISTIO_GATEWAY.replace("*/*.example.com", "team/*.example.com");
    let y = format!(
        "{gw}---{}",
        vs(
            "shop",
            "shop",
            "",
            "  - route: [{destination: {host: web}}]"
        )
    );
    let s = scan(&y);
    let model = istio::Model::build(&s.index, &Config::default());
    let p = probe("http://shop.example.com/", &[]);
    assert!(matches!(model.evaluate(0, &p).outcome, Outcome::NotFound));
}

// route.go weighted-cluster loop: with several destinations an unset weight is 0; one
// destination takes everything.
#[test]
fn istio_weights() {
    let y = vs(
        "shop",
        "shop",
        "",
        "  - route:
    - destination: {host: a}
      weight: 100
    - destination: {host: b}",
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/", &[]),
        Outcome::Forward {
            backends: vec![Share {
                backend: backend("shop", "a", None),
                permille: 1000
            }],
            path: "/".into(),
            host: None
        }
    );
}

// route.go ApplyRedirect (default 301, prefixRewrite replaces the matched prefix), rewrite
// (prefix_rewrite), directResponse; a delegate that does not exist drops only the entry that
// names it (virtualservice_controller.go mergeVirtualServices).
#[test]
fn istio_actions() {
    let y = vs(
        "shop",
        "shop",
        "",
        "  - match: [{uri: {prefix: /old}}]
    redirect: {prefixRewrite: /new, authority: new.example.com}
  - match: [{uri: {prefix: /v1}}]
    rewrite: {uri: /v2}
    route: [{destination: {host: api, port: {number: 8080}}}]
  - match: [{uri: {exact: /down}}]
    directResponse: {status: 503}
  - match: [{uri: {prefix: /team}}]
    delegate: {name: team, namespace: team}",
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/old/page", &[]),
        Outcome::Redirect {
            status: 301,
            location: "http://new.example.com/new/page".into()
        }
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/v1/items", &[]),
        Outcome::Forward {
            backends: vec![Share {
                backend: backend("shop", "api", Some(8080)),
                permille: 1000
            }],
            path: "/v2/items".into(),
            host: None
        }
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/down", &[]),
        Outcome::Respond { status: 503 }
    );
    assert_eq!(
        istio(&y, "http://shop.example.com/team", &[]),
        Outcome::NotFound
    );
}

// gateway.go: `tls.httpsRedirect` makes the server's hosts redirect plain HTTP with 301.
#[test]
fn istio_https_redirect() {
    let gw = "
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: [shop.example.com]
    tls: {httpsRedirect: true}
";
    let s = scan(gw);
    let model = istio::Model::build(&s.index, &Config::default());
    assert_eq!(
        model
            .evaluate(0, &probe("http://shop.example.com/a", &[]))
            .outcome,
        Outcome::Redirect {
            status: 301,
            location: "https://shop.example.com/a".into()
        }
    );
}

// gateway.go: Gateways with one selector are one proxy; their HTTP servers on one port
// share a route configuration, so a VirtualService bound to one serves through the other.
#[test]
fn istio_gateways_with_one_selector_share_a_proxy() {
    let other = "
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: admin, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: [admin.example.com]
";
    let y = format!(
        "{other}---{ISTIO_GATEWAY}---{}",
        vs(
            "shop",
            "shop",
            "",
            "  - route: [{destination: {host: web}}]"
        )
    );
    let s = scan(&y);
    let model = istio::Model::build(&s.index, &Config::default());
    // Gateway 0 is `admin`; the request for shop goes through the shared proxy.
    let out = model
        .evaluate(0, &probe("http://shop.example.com/", &[]))
        .outcome;
    assert_eq!(target(&out), "shop/web");
}

// ---------------------------------------------------------------------------------------
// ingress-nginx

fn ingress(name: &str, annotations: &str, host: &str, paths: &[(&str, &str, &str)]) -> String {
    let mut out = format!(
        "
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {name}
  namespace: web
  annotations: {{{annotations}}}
spec:
  ingressClassName: nginx
  rules:
  - host: {host}
    http:
      paths:
"
    );
    for (path, kind, svc) in paths {
        out.push_str(&format!(
            "      - {{path: '{path}', pathType: {kind}, backend: {{service: {{name: {svc}, port: {{number: 80}}}}}}}}\n"
        ));
    }
    out
}

fn nginx(yaml: &str, url: &str, headers: &[(&str, &str)]) -> Outcome {
    let s = scan(yaml);
    let model = nginx::Model::build(&s.index, &Config::default());
    model
        .evaluate("k8s.io/ingress-nginx", &probe(url, headers))
        .outcome
}

// location.go updateServerLocations: Prefix `/p` is `/p/` plus `= /p` (not `/px`);
// ImplementationSpecific is Prefix (internal/k8s/main.go SetDefaultNGINXPathType, applied
// when the store reads the Ingress); Exact is `=`.
#[test]
fn nginx_path_types() {
    let y = ingress(
        "a",
        "",
        "shop.example.com",
        &[
            ("/api", "Prefix", "api"),
            ("/static", "ImplementationSpecific", "static"),
            ("/exact", "Exact", "exact"),
        ],
    );
    let t = |url| target(&nginx(&y, url, &[]));
    assert_eq!(t("http://shop.example.com/api"), "web/api");
    assert_eq!(t("http://shop.example.com/api/x"), "web/api");
    assert_eq!(t("http://shop.example.com/apix"), "404 (no route)");
    assert_eq!(t("http://shop.example.com/staticx"), "404 (no route)");
    assert_eq!(t("http://shop.example.com/static/x"), "web/static");
    assert_eq!(t("http://shop.example.com/exact/x"), "404 (no route)");
}

// template.go enforceRegexModifier/buildLocation: one Ingress's use-regex makes every path
// of the host a case-insensitive regex anchored at the start, tried longest first
// (controller.go sorts by length, then path, descending).
#[test]
fn nginx_host_wide_regex() {
    let y = format!(
        "{}---{}",
        ingress(
            "a",
            "",
            "shop.example.com",
            &[("/api", "Prefix", "api"), ("/exact", "Exact", "exact")]
        ),
        ingress(
            "b",
            "nginx.ingress.kubernetes.io/use-regex: 'true'",
            "shop.example.com",
            &[("/v[0-9]+", "ImplementationSpecific", "v")]
        )
    );
    let t = |url| target(&nginx(&y, url, &[]));
    assert_eq!(t("http://shop.example.com/API/x"), "web/api");
    assert_eq!(t("http://shop.example.com/EXACT/more"), "web/exact");
    assert_eq!(t("http://shop.example.com/v12/x"), "web/v");
}

// docs/user-guide/ingress-path-matching.md, "Path Priority": the documented routing.
#[test]
fn nginx_path_priority_example() {
    let y = format!(
        "{}---{}",
        ingress(
            "test-ingress-1",
            "",
            "test.com",
            &[
                ("/foo/bar", "Prefix", "service1"),
                ("/foo/bar/", "Prefix", "service2")
            ]
        ),
        ingress(
            "test-ingress-2",
            "nginx.ingress.kubernetes.io/rewrite-target: /$1",
            "test.com",
            &[("/foo/bar/(.+)", "ImplementationSpecific", "service3")]
        )
    );
    let t = |url| target(&nginx(&y, url, &[]));
    assert_eq!(t("http://test.com/foo/bar/1"), "web/service3");
    assert_eq!(t("http://test.com/foo/bar/"), "web/service2");
    assert_eq!(t("http://test.com/foo/bar"), "web/service1");
    // template.go buildProxyPass: `rewrite "(?i)/foo/bar/(.+)" /$1 break`.
    match nginx(&y, "http://test.com/foo/bar/1", &[]) {
        Outcome::Forward { path, .. } => assert_eq!(path, "/1"),
        other => panic!("{other}"),
    }
}

// store.go sortIngressSlice (equal creation times: namespace/name descending) and
// controller.go getBackendServers (a duplicate path keeps the first Ingress read).
#[test]
fn nginx_duplicate_path_keeps_the_first_ingress_read() {
    let y = format!(
        "{}---{}",
        ingress(
            "alpha",
            "",
            "shop.example.com",
            &[("/cart", "Prefix", "alpha")]
        ),
        ingress(
            "beta",
            "",
            "shop.example.com",
            &[("/cart", "Prefix", "beta")]
        )
    );
    assert_eq!(
        target(&nginx(&y, "http://shop.example.com/cart", &[])),
        "web/beta"
    );
}

// lua_ingress.lua redirect_to_https + controller.go createServers: a certificate for the
// host (any Ingress of it with TLS) redirects every Ingress's paths of that host with 308,
// unless that path's own Ingress turns ssl-redirect off (Go ParseBool: "0" is false).
#[test]
fn nginx_ssl_redirect_is_per_host_across_ingresses() {
    let with_tls = format!(
        "{}  tls: [{{hosts: [shop.example.com], secretName: shop-tls}}]\n",
        ingress("a", "", "shop.example.com", &[("/a", "Prefix", "a")])
    );
    let y = format!(
        "{with_tls}---{}---{}",
        ingress("b", "", "shop.example.com", &[("/b", "Prefix", "b")]),
        ingress(
            "c",
            "nginx.ingress.kubernetes.io/ssl-redirect: '0'",
            "shop.example.com",
            &[("/c", "Prefix", "c")]
        )
    );
    assert_eq!(
        nginx(&y, "http://shop.example.com/b", &[]),
        Outcome::Redirect {
            status: 308,
            location: "https://shop.example.com/b".into()
        }
    );
    assert_eq!(
        target(&nginx(&y, "http://shop.example.com/c", &[])),
        "web/c"
    );
    assert_eq!(
        target(&nginx(&y, "https://shop.example.com/b", &[])),
        "web/b"
    );
}

// controller.go mergeAlternativeBackends + canary/main.go: a canary merges onto the
// primary's location; header `always`/`never` before weight.
#[test]
fn nginx_canary_merge() {
    let y = format!(
        "{}---{}",
        ingress("main", "", "shop.example.com", &[("/", "Prefix", "v1")]),
        ingress(
            "main-canary",
            "nginx.ingress.kubernetes.io/canary: 'true', nginx.ingress.kubernetes.io/canary-weight: '20', nginx.ingress.kubernetes.io/canary-by-header: x-canary",
            "shop.example.com",
            &[("/", "Prefix", "v2")]
        )
    );
    assert_eq!(
        target(&nginx(
            &y,
            "http://shop.example.com/",
            &[("x-canary", "always")]
        )),
        "web/v2"
    );
    match nginx(&y, "http://shop.example.com/", &[]) {
        Outcome::Forward { backends, .. } => {
            assert_eq!(backends.len(), 2);
            assert_eq!(backends[1].backend.name, "v2");
            assert_eq!(backends[1].permille, 200);
        }
        other => panic!("{other}"),
    }
}

// controller.go createServers: a defaultBackend with rules serves that Ingress's hosts only;
// without rules it configures the catch-all server.
#[test]
fn nginx_default_backend() {
    let with_rules = format!(
        "{}  defaultBackend: {{service: {{name: fallback, port: {{number: 80}}}}}}\n",
        ingress("a", "", "shop.example.com", &[("/a", "Prefix", "a")])
    );
    assert_eq!(
        target(&nginx(&with_rules, "http://shop.example.com/other", &[])),
        "web/fallback"
    );
    assert_eq!(
        nginx(&with_rules, "http://unknown.example.com/", &[]),
        Outcome::NotFound
    );
    let catch_all = "
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: all, namespace: web}
spec:
  ingressClassName: nginx
  defaultBackend: {service: {name: fallback, port: {number: 80}}}
";
    assert_eq!(
        target(&nginx(catch_all, "http://unknown.example.com/", &[])),
        "web/fallback"
    );
}

// ---------------------------------------------------------------------------------------
// Gateway API

const GATEWAY: &str = "
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: istio
  listeners:
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
  - {name: admin, port: 80, protocol: HTTP, hostname: admin.example.com, allowedRoutes: {namespaces: {from: All}}}
";

fn route(name: &str, hostnames: &str, rules: &str) -> String {
    format!(
        "
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {{name: {name}, namespace: web}}
spec:
  parentRefs: [{{name: gw, namespace: infra}}]
  hostnames: {hostnames}
  rules:
{rules}
"
    )
}

fn gwapi(yaml: &str, url: &str, target_impl: Target) -> Vec<Outcome> {
    let text = format!("{GATEWAY}---{yaml}");
    let s = scan(&text);
    let config = Config {
        target: target_impl,
        ..Config::default()
    };
    let model = gateway_api::Model::build(&s.index, &[], &config);
    model
        .evaluate(&[("infra".into(), "gw".into())], &probe(url, &[]))
        .into_iter()
        .map(|(_, d)| d.outcome)
        .collect()
}

fn svc_rule(matches: &str, svc: &str) -> String {
    format!("  - matches: {matches}\n    backendRefs: [{{name: {svc}, port: 80}}]\n")
}

// httproute_types.go HTTPRouteRule.Matches: Exact over the longest prefix; ties across
// routes by namespace/name (equal creation times).
#[test]
fn gateway_api_precedence_and_tie_break() {
    let y = format!(
        "{}---{}",
        route(
            "b",
            "[shop.example.com]",
            &svc_rule("[{path: {type: PathPrefix, value: /api}}]", "b")
        ),
        route(
            "a",
            "[shop.example.com]",
            &format!(
                "{}{}",
                svc_rule("[{path: {type: PathPrefix, value: /api}}]", "a"),
                svc_rule("[{path: {type: Exact, value: /api/health}}]", "health")
            )
        )
    );
    let t = |url| target(&gwapi(&y, url, Target::Istio)[0]);
    assert_eq!(t("http://shop.example.com/api/health"), "web/health");
    assert_eq!(t("http://shop.example.com/api/x"), "web/a");
    assert_eq!(t("http://shop.example.com/apix"), "404 (no route)");
}

// gateway_types.go: listener isolation; httproute_types.go Hostnames: the most specific
// hostname wins across routes.
#[test]
fn gateway_api_listener_isolation_and_hostname_precedence() {
    let y = format!(
        "{}---{}",
        route(
            "wild",
            "['*.example.com']",
            &svc_rule("[{path: {type: PathPrefix, value: /}}]", "wild")
        )
        .replace(
            "namespace: infra}]",
            "namespace: infra, sectionName: http}]"
        ),
        route(
            "exact",
            "[shop.example.com]",
            &svc_rule("[{path: {type: PathPrefix, value: /only}}]", "exact")
        )
    );
    let t = |url| target(&gwapi(&y, url, Target::Istio)[0]);
    // shop.example.com's own route takes every request for it, even unmatched ones.
    assert_eq!(t("http://shop.example.com/other"), "404 (no route)");
    assert_eq!(t("http://blog.example.com/other"), "web/wild");
    // admin.example.com has its own listener: a route bound to the catch-all listener only
    // does not serve it.
    assert_eq!(t("http://admin.example.com/"), "404 (no route)");
}

// conversion.go sortHTTPRoutes (Istio: regex below prefixes) vs Envoy Gateway sort.go
// (regex above prefixes); generic reports both when they differ.
#[test]
fn gateway_api_regex_ranking_per_target() {
    let y = route(
        "r",
        "[shop.example.com]",
        &format!(
            "{}{}",
            svc_rule("[{path: {type: PathPrefix, value: /api}}]", "prefix"),
            svc_rule(
                "[{path: {type: RegularExpression, value: '/api/v[0-9]+'}}]",
                "regex"
            )
        ),
    );
    let url = "http://shop.example.com/api/v1";
    assert_eq!(target(&gwapi(&y, url, Target::Istio)[0]), "web/prefix");
    assert_eq!(
        target(&gwapi(&y, url, Target::EnvoyGateway)[0]),
        "web/regex"
    );
    assert_eq!(gwapi(&y, url, Target::Generic).len(), 2);
}

// httproute_types.go: weights are relative; RequestRedirect defaults to 302; a rule without
// backends answers 500; ReplacePrefixMatch.
#[test]
fn gateway_api_weights_and_filters() {
    let y = route(
        "r",
        "[shop.example.com]",
        "  - matches: [{path: {type: PathPrefix, value: /split}}]
    backendRefs: [{name: a, port: 80, weight: 3}, {name: b, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /old}}]
    filters: [{type: RequestRedirect, requestRedirect: {hostname: new.example.com}}]
  - matches: [{path: {type: PathPrefix, value: /strip}}]
    filters: [{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /}}}]
    backendRefs: [{name: s, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /none}}]
",
    );
    let one = |url| gwapi(&y, url, Target::Istio).remove(0);
    match one("http://shop.example.com/split") {
        Outcome::Forward { backends, .. } => {
            assert_eq!(backends[0].permille, 750);
            assert_eq!(backends[1].permille, 250);
        }
        other => panic!("{other}"),
    }
    assert_eq!(
        one("http://shop.example.com/old/x"),
        Outcome::Redirect {
            status: 302,
            location: "http://new.example.com/old/x".into()
        }
    );
    match one("http://shop.example.com/strip/a") {
        Outcome::Forward { path, .. } => assert_eq!(path, "/a"),
        other => panic!("{other}"),
    }
    assert_eq!(
        one("http://shop.example.com/none"),
        Outcome::Respond { status: 500 }
    );
}

// ---------------------------------------------------------------------------------------
// The comparison

#[test]
fn outcomes_compare_shares_with_tolerance_and_ports_only_when_both_name_one() {
    let fwd = |port, permille| Outcome::Forward {
        backends: vec![Share {
            backend: backend("a", "b", port),
            permille,
        }],
        path: "/".into(),
        host: None,
    };
    assert!(same(&fwd(None, 1000), &fwd(Some(80), 1000)));
    assert!(!same(&fwd(Some(81), 1000), &fwd(Some(80), 1000)));
    assert!(same(&fwd(None, 333), &fwd(None, 334)));
    assert!(!same(&fwd(None, 300), &fwd(None, 500)));
    assert!(same(&Outcome::NotFound, &Outcome::NoListener));
    assert!(same(
        &Outcome::Redirect {
            status: 302,
            location: "https://a.example".into()
        },
        &Outcome::Redirect {
            status: 302,
            location: "https://a.example/".into()
        }
    ));
}
