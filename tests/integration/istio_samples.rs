//! Acceptance 4: Istio ships several samples in both APIs (`samples/*/gateway-api/`). We
//! translate the Istio-API version and compare with Istio's own Gateway API version: the
//! hostnames, matches, backends (name, namespace, port) and weights of every route must be
//! equal, and each route must attach to the same parents (kind and name).
//!
//! Differences this test allows, and why:
//! - route and listener names, `sectionName` and parentRef `port`: naming is ours (the
//!   spec's listener scheme; TCPRoutes are named `<vs>-tcp`), and Istio's samples add a
//!   Service parentRef `port: 9080` where the VirtualService has no port match (a route
//!   without port applies to every port of the Service, which is what the VS did);
//! - Gateway listeners (port, allowedRoutes) are not compared: the samples' Gateway API
//!   Gateways are new deployments (bookinfo listens on 80 instead of the Istio ingress
//!   pod's 8080) and Istio's samples use `from: Same` where the Istio host `*` means all
//!   namespaces;
//! - the TCPRoute apiVersion: the samples still use v1alpha2, we write v1 by default;
//! - a weight on a lone backend (both mean 100 %);
//! - helloworld: the Gateway API sample splits /hello 90/10 over helloworld-v1/v2 (it ships
//!   per-version Services), while the Istio sample sends it to the helloworld Service; the
//!   two sample files are not the same configuration, so only hostnames, matches and parents
//!   are compared there.
//!
//! bookinfo's `platform/kube/bookinfo.yaml` (its Services) is not in the corpus: the
//! Services the mesh routes need (all on port 9080, as in bookinfo.yaml) are declared here.

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::pipeline;
use serde_json::{Value, json};

const BOOKINFO_SERVICES: &str = "
apiVersion: v1
kind: Service
metadata: {name: productpage}
spec: {ports: [{name: http, port: 9080}]}
---
apiVersion: v1
kind: Service
metadata: {name: reviews}
spec: {ports: [{name: http, port: 9080}]}
---
apiVersion: v1
kind: Service
metadata: {name: ratings}
spec: {ports: [{name: http, port: 9080}]}
---
apiVersion: v1
kind: Service
metadata: {name: details}
spec: {ports: [{name: http, port: 9080}]}
";

fn samples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/istio/samples")
}

/// Our routes for the Istio-API files, as JSON.
fn translate(files: &[&str], extra: &str) -> Vec<Value> {
    let mut inputs: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| (f.to_string(), std::fs::read(samples().join(f)).expect(f)))
        .collect();
    inputs.push(("services.yaml".into(), extra.as_bytes().to_vec()));
    let config = Config::default();
    let request = pipeline::Request::new(pipeline::Input::Streams(inputs), config);
    let outcome = pipeline::run(request).expect("run");
    outcome
        .results
        .iter()
        .flat_map(|r| r.generated.iter().map(|g| g.to_json()))
        .filter(|g| g["kind"].as_str().is_some_and(|k| k.ends_with("Route")))
        .collect()
}

/// Istio's Gateway API routes in `file`.
fn expected(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(samples().join(file)).expect(file);
    text.split("\n---")
        .filter_map(|doc| gateway_migrate::yaml::parse_document(doc).ok().flatten())
        .filter(|d| d["kind"].as_str().is_some_and(|k| k.ends_with("Route")))
        .collect()
}

fn parents(route: &Value) -> Vec<Value> {
    let mut out: Vec<Value> = route["spec"]["parentRefs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| json!({"kind": p["kind"].as_str().unwrap_or("Gateway"), "name": p["name"]}))
        .collect();
    out.sort_by_key(|v| v.to_string());
    out.dedup();
    out
}

fn hostnames(route: &Value) -> Vec<String> {
    let mut h: Vec<String> = route["spec"]["hostnames"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h.as_str().map(str::to_string))
        .collect();
    h.sort();
    h
}

/// Per rule: (matches, backends as (name, namespace, port, weight)).
fn rules(route: &Value, with_backends: bool) -> Vec<Value> {
    route["spec"]["rules"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let backends: Vec<&Value> = r["backendRefs"].as_array().into_iter().flatten().collect();
            let lone = backends.len() == 1;
            let backends: Vec<Value> = backends
                .iter()
                .map(|b| {
                    json!({
                        "name": b["name"], "namespace": b["namespace"], "port": b["port"],
                        "weight": if lone { Value::Null } else { b["weight"].clone() },
                    })
                })
                .collect();
            let matches = r.get("matches").cloned().unwrap_or(json!([]));
            if with_backends {
                json!({"matches": matches, "backends": backends})
            } else {
                json!({"matches": matches})
            }
        })
        .collect()
}

fn compare(istio_files: &[&str], gateway_api_file: &str, with_backends: bool) -> usize {
    let ours = translate(istio_files, BOOKINFO_SERVICES);
    let theirs = expected(gateway_api_file);
    assert!(!theirs.is_empty(), "{gateway_api_file}: no routes");
    for want in &theirs {
        let kind = want["kind"].as_str().unwrap_or_default();
        let name = want["metadata"]["name"].as_str().unwrap_or_default();
        let got = ours
            .iter()
            .find(|g| {
                g["kind"] == kind
                    && [
                        name.to_string(),
                        format!("{name}-tcp"),
                        format!("{name}-tls"),
                    ]
                    .iter()
                    .any(|n| g["metadata"]["name"] == n.as_str())
            })
            .unwrap_or_else(|| panic!("{gateway_api_file}: no {kind} for {name} among {ours:#?}"));
        assert_eq!(
            parents(got),
            parents(want),
            "{gateway_api_file} {name}: parents"
        );
        assert_eq!(
            hostnames(got),
            hostnames(want),
            "{gateway_api_file} {name}: hostnames"
        );
        assert_eq!(
            rules(got, with_backends),
            rules(want, with_backends),
            "{gateway_api_file} {name}: rules"
        );
    }
    theirs.len()
}

#[test]
fn bookinfo_gateway_matches_istio_sample() {
    assert_eq!(
        compare(
            &["bookinfo/networking/bookinfo-gateway.yaml"],
            "bookinfo/gateway-api/bookinfo-gateway.yaml",
            true
        ),
        1
    );
}

#[test]
fn bookinfo_mesh_routes_match_istio_samples() {
    let pairs = [
        (
            "bookinfo/networking/virtual-service-all-v1.yaml",
            "bookinfo/gateway-api/route-all-v1.yaml",
            4,
        ),
        (
            "bookinfo/networking/virtual-service-all-v1.yaml",
            "bookinfo/gateway-api/route-reviews-v1.yaml",
            1,
        ),
        (
            "bookinfo/networking/virtual-service-reviews-v3.yaml",
            "bookinfo/gateway-api/route-reviews-v3.yaml",
            1,
        ),
        (
            "bookinfo/networking/virtual-service-reviews-50-v3.yaml",
            "bookinfo/gateway-api/route-reviews-50-v3.yaml",
            1,
        ),
        (
            "bookinfo/networking/virtual-service-reviews-90-10.yaml",
            "bookinfo/gateway-api/route-reviews-90-10.yaml",
            1,
        ),
    ];
    for (istio, gateway_api, routes) in pairs {
        assert_eq!(
            compare(&[istio], gateway_api, true),
            routes,
            "{gateway_api}"
        );
    }
}

#[test]
fn httpbin_matches_istio_sample() {
    assert_eq!(
        compare(
            &["httpbin/httpbin-gateway.yaml"],
            "httpbin/gateway-api/httpbin-gateway.yaml",
            true
        ),
        1
    );
}

#[test]
fn tcp_echo_matches_istio_samples() {
    assert_eq!(
        compare(
            &["tcp-echo/tcp-echo-all-v1.yaml"],
            "tcp-echo/gateway-api/tcp-echo-all-v1.yaml",
            true
        ),
        1
    );
    assert_eq!(
        compare(
            &["tcp-echo/tcp-echo-20-v2.yaml"],
            "tcp-echo/gateway-api/tcp-echo-20-v2.yaml",
            true
        ),
        1
    );
}

#[test]
fn helloworld_matches_istio_sample_except_the_version_split() {
    assert_eq!(
        compare(
            &["helloworld/helloworld-gateway.yaml"],
            "helloworld/gateway-api/helloworld-route.yaml",
            false
        ),
        1
    );
    // The backends differ by design of the samples (see the module comment); ours is the
    // Istio sample's destination.
    let ours = translate(&["helloworld/helloworld-gateway.yaml"], "");
    assert_eq!(
        ours[0]["spec"]["rules"][0]["backendRefs"],
        json!([{"name": "helloworld", "port": 5000}])
    );
}

/// The comparison is strict: helloworld's backends do differ, and comparing them fails.
#[test]
#[should_panic(expected = "rules")]
fn comparison_detects_backend_differences() {
    compare(
        &["helloworld/helloworld-gateway.yaml"],
        "helloworld/gateway-api/helloworld-route.yaml",
        true,
    );
}
