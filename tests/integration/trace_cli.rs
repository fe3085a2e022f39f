//! `gateway-migrate trace` through the real binary (issue #29): both sides and their
//! difference on the demo repository, and the new side alone on Gateway API objects from
//! the conformance suite, checked against the backend each case expects.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn trace(args: &[&str], cwd: &Path) -> (Option<i32>, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .arg("trace")
        .args(args)
        .args(["--format", "json"])
        .current_dir(cwd)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    (out.status.code(), json, stderr)
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// ingress-nginx matches `/blog(/|$)(.*)` case-insensitively once `rewrite-target` makes the
/// host's paths regexes (`nginx.tmpl`: `location ~* "^/blog(/|$)(.*)"`); Gateway API's
/// RegularExpression is case-sensitive, so `/BLOG` finds no route.
#[test]
fn the_demo_shows_both_sides_and_the_difference() {
    let (code, t, stderr) = trace(
        &[
            "fixtures/demo-repo",
            "--request",
            "GET https://blog.example.com/BLOG",
        ],
        root(),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(t["request"], "GET https://blog.example.com/BLOG");
    assert_eq!(t["old"]["model"], "ingress-nginx");
    assert_eq!(t["old"]["behaviour"]["kind"], "backends", "{t}");
    assert_eq!(t["old"]["behaviour"]["backends"][0]["name"], "blog");
    assert_eq!(t["old"]["matched"]["file"], "blog/ingress.yaml");
    assert_eq!(t["old"]["matched"]["line"], 20, "the path's line: {t}");
    assert_eq!(t["new"]["model"], "Gateway API");
    assert_eq!(t["new"]["behaviour"]["kind"], "no-route", "{t}");
    assert_eq!(t["differences"][0]["part"], "routing");
    // The same request in lower case reaches the same backend on both sides.
    let (code, t, _) = trace(
        &[
            "fixtures/demo-repo",
            "--request",
            "GET https://blog.example.com/blog/x",
        ],
        root(),
    );
    assert_eq!(code, Some(0));
    assert_eq!(t["differences"], serde_json::json!([]));
    assert_eq!(t["new"]["behaviour"]["path"], "/x");
}

/// Only Gateway API objects: no old side. The conformance suite's path-match-order cases
/// (tests/semantics/gateway-api) give the expected backend for each request.
#[test]
fn a_conformance_manifest_traces_to_the_expected_backends() {
    let dir = root().join("tests/semantics/gateway-api");
    let suite_text = std::fs::read_to_string(dir.join("httproute-path-match-order.yaml")).unwrap();
    let suite = gateway_migrate::yaml::parse_document(&suite_text)
        .unwrap()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(dir.join("_infra.yaml"), tmp.path().join("infra.yaml")).unwrap();
    std::fs::write(
        tmp.path().join("routes.yaml"),
        suite["objects"].as_str().unwrap(),
    )
    .unwrap();
    let cases = suite["cases"].as_array().unwrap();
    assert!(cases.len() >= 6);
    for case in cases {
        let request = case["request"].as_str().unwrap();
        let (code, t, stderr) = trace(
            &[
                "infra.yaml",
                "routes.yaml",
                "--request",
                request,
                "--gateway",
                suite["gateway"].as_str().unwrap(),
            ],
            tmp.path(),
        );
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(t["old"], Value::Null);
        let want = case["backend"].as_str().unwrap();
        let got = &t["new"]["behaviour"]["backends"][0];
        assert_eq!(
            format!(
                "{}/{}",
                got["namespace"].as_str().unwrap(),
                got["name"].as_str().unwrap()
            ),
            want,
            "{request}: {t}"
        );
    }
}

#[test]
fn a_malformed_request_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args([
            "trace",
            "fixtures/demo-repo",
            "--request",
            "GET shop.example.com/",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("http:// or https://"), "{stderr}");
}

/// When both sides reach the same backend, `differences` lists the parts both models read:
/// Istio sends a header with an empty value (route.go header operations), which Gateway API
/// cannot carry (the translator drops it, `istio/empty-header-value`).
#[test]
fn a_lost_header_is_a_headers_difference() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("istio.yaml"),
        "apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ['*/shop.example.com']
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [istio-system/gw]
  http:
  - headers:
      request: {set: {x-empty: '', x-env: prod}}
    route: [{destination: {host: web, port: {number: 80}}}]
",
    )
    .unwrap();
    let path = dir.path().to_string_lossy().into_owned();
    let (_, t, stderr) = trace(
        &[&path, "--request", "GET http://shop.example.com/"],
        root(),
    );
    assert_eq!(t["old"]["behaviour"]["kind"], "backends", "{t} {stderr}");
    assert_eq!(t["new"]["behaviour"]["kind"], "backends", "{t}");
    let differences = t["differences"].as_array().unwrap();
    assert_eq!(differences.len(), 1, "{t}");
    assert_eq!(differences[0]["part"], "headers");
    assert_eq!(
        differences[0]["old"],
        "request headers the backend gets: x-empty: \"\""
    );
    assert_eq!(
        differences[0]["new"],
        "request headers the backend gets: nothing more"
    );
}
