//! Acceptance 3: our `migrate` output against the early ingress2gateway ingress-nginx goldens
//! (`../shared/corpus/ingress2gateway-history/3f915a9`). What must agree (listeners, route
//! hostnames, matches and backends) is asserted equal; every difference listed in
//! docs/compat-ingress2gateway-ingress.md is asserted to be exactly what we produce.

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::gwapi::Generated;
use gateway_migrate::pipeline;
use serde_json::{Value, json};

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/ingress2gateway-history/3f915a9/pkg/cmd/testdata")
}

/// Our objects for one golden input, as JSON.
fn ours(case: &str) -> Vec<Value> {
    let input = std::fs::read(dir().join(format!("in/from-ingress-to-{case}-gwapi.yaml"))).unwrap();
    let config = Config::default();
    let request = pipeline::Request::new(
        pipeline::Input::Streams(vec![("in.yaml".to_string(), input)]),
        config,
    );
    let outcome = pipeline::run(request).unwrap();
    outcome
        .generated()
        .into_iter()
        .map(Generated::to_json)
        .collect()
}

/// The golden `.all.yaml`: `{Gateways: [...], HTTPRoutes: [...]}`.
fn golden(case: &str) -> (Vec<Value>, Vec<Value>) {
    let text =
        std::fs::read_to_string(dir().join(format!("out/from-ingress-to-{case}-gwapi.all.yaml")))
            .unwrap();
    let v: Value = serde_saphyr::from_str(&text).unwrap();
    let list = |k: &str| v[k].as_array().cloned().unwrap_or_default();
    (list("Gateways"), list("HTTPRoutes"))
}

fn of_kind<'a>(objects: &'a [Value], kind: &str) -> Vec<&'a Value> {
    objects.iter().filter(|o| o["kind"] == kind).collect()
}

/// Listeners as `(name, hostname, port, protocol)`.
fn listeners(gw: &Value) -> Vec<Value> {
    gw["spec"]["listeners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| json!([l["name"], l["hostname"], l["port"], l["protocol"]]))
        .collect()
}

/// Route content without names and parents: hostnames and rules (matches, backendRefs).
fn content(route: &Value) -> Value {
    let rules: Vec<Value> = route["spec"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!({"matches": r["matches"], "backendRefs": r["backendRefs"]}))
        .collect();
    json!({"hostnames": route["spec"]["hostnames"], "rules": rules})
}

#[test]
fn multi_gateway_golden_matches_except_documented_differences() {
    let ours = ours("multi-gateways");
    let (gws, routes) = golden("multi-gateways");
    let our_gws = of_kind(&ours, "Gateway");
    let our_routes = of_kind(&ours, "HTTPRoute");
    assert_eq!(our_gws.len(), gws.len());
    assert_eq!(our_routes.len(), routes.len());
    for (o, g) in our_gws.iter().zip(&gws) {
        // Same: one Gateway per class, named after the class, same listeners.
        assert_eq!(o["metadata"]["name"], g["metadata"]["name"]);
        assert_eq!(listeners(o), listeners(g));
        // Documented: gatewayClassName is the configured implementation, not the Ingress class.
        assert_eq!(o["spec"]["gatewayClassName"], "istio");
        assert_eq!(g["spec"]["gatewayClassName"], g["metadata"]["name"]);
        // Documented: v1 instead of v1beta1; namespace written.
        assert_eq!(o["apiVersion"], "gateway.networking.k8s.io/v1");
        assert_eq!(g["apiVersion"], "gateway.networking.k8s.io/v1beta1");
        assert_eq!(o["metadata"]["namespace"], "default");
    }
    for (o, g) in our_routes.iter().zip(&routes) {
        assert_eq!(content(o), content(g));
        // Documented: `<ingress>-<host>` instead of `<host>`; sectionName on the parentRef.
        let host = g["spec"]["hostnames"][0].as_str().unwrap();
        assert_eq!(g["metadata"]["name"], host);
        assert!(
            o["metadata"]["name"]
                .as_str()
                .unwrap()
                .ends_with(&format!("-{host}"))
        );
        assert_eq!(
            o["spec"]["parentRefs"][0]["name"],
            g["spec"]["parentRefs"][0]["name"]
        );
        assert_eq!(
            o["spec"]["parentRefs"][0]["sectionName"],
            format!("{host}-http")
        );
        assert!(g["spec"]["parentRefs"][0].get("sectionName").is_none());
    }
}

#[test]
fn simple_golden_matches_except_documented_differences() {
    let ours = ours("simple");
    let (gws, routes) = golden("simple");
    let o = of_kind(&ours, "Gateway");
    assert_eq!(o.len(), 1);
    assert_eq!(listeners(o[0]), listeners(&gws[0]));
    // Documented: a class-less Ingress gets Gateway `ingress` (+ warning); the golden named
    // the Gateway and its class after the Ingress.
    assert_eq!(o[0]["metadata"]["name"], "ingress");
    assert_eq!(gws[0]["metadata"]["name"], "hello-world");
    let r = of_kind(&ours, "HTTPRoute");
    assert_eq!(r.len(), 1);
    assert_eq!(content(r[0]), content(&routes[0]));
    assert_eq!(r[0]["metadata"]["name"], "hello-world-foo-bar-com");
    assert_eq!(routes[0]["metadata"]["name"], "foo-bar-com");
}

#[test]
fn canary_golden_differs_as_documented() {
    let ours = ours("canary");
    let (gws, routes) = golden("canary");
    // The golden has no primary Ingress and merges the three canaries into one route.
    // ingress-nginx merges canaries only into a server a primary Ingress created, so it
    // served none of these rules: we write nothing and warn once per canary Ingress.
    assert_eq!(gws.len(), 1);
    assert_eq!(routes.len(), 1);
    assert!(of_kind(&ours, "HTTPRoute").is_empty(), "{ours:#?}");
    assert!(of_kind(&ours, "Gateway").is_empty(), "{ours:#?}");
    let input = std::fs::read(dir().join("in/from-ingress-to-canary-gwapi.yaml")).unwrap();
    let request = pipeline::Request::new(
        pipeline::Input::Streams(vec![("in.yaml".to_string(), input)]),
        Config::default(),
    );
    let outcome = pipeline::run(request).unwrap();
    let warned = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == gateway_migrate::diagnostic::Code::NginxCanaryWithoutPrimary)
        .count();
    assert_eq!(warned, 3);
}
