//! Routing equivalence over every Istio and Ingress fixture (issue #12, acceptance 3): each
//! probe that differs is reported, at a rule or at the object, and counted exactly once.

use std::path::{Path, PathBuf};

use gateway_migrate::config::Config;
use gateway_migrate::diagnostic::Code;
use gateway_migrate::pipeline::{self, Input, Request};

/// `(N probes differ; …)` in a finding's message, else 1.
fn probes_in(message: &str) -> usize {
    message
        .rsplit_once(" probes differ")
        .and_then(|(head, _)| head.rsplit_once('(')?.1.parse().ok())
        .unwrap_or(1)
}

#[test]
fn every_difference_in_the_istio_and_ingress_fixtures_is_reported() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut checked = 0;
    let mut with_differences = 0;
    for family in ["istio", "ingress"] {
        let mut dirs: Vec<_> = std::fs::read_dir(root.join(family))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            // As the fixture runner runs them: `input.yaml` as a stream, `config.yaml`.
            let config = match std::fs::read_to_string(dir.join("config.yaml")) {
                Ok(text) => Config::parse(&text).unwrap(),
                Err(_) => Config::default(),
            };
            let input = std::fs::read(dir.join("input.yaml")).unwrap();
            let request = Request::new(
                Input::Streams(vec![("input.yaml".to_string(), input)]),
                config,
            );
            let outcome = pipeline::run(request).unwrap();
            let summary = outcome
                .equivalence
                .clone()
                .expect("the equivalence check runs by default");
            let findings: Vec<_> = outcome
                .diagnostics
                .iter()
                .filter(|d| {
                    matches!(
                        d.code,
                        Code::EquivalenceChanged | Code::EquivalenceExplained
                    )
                })
                .collect();
            let reported: usize = findings.iter().map(|d| probes_in(&d.message)).sum();
            assert_eq!(
                reported,
                summary.differ,
                "{}: {} probes differ but the findings account for {reported}",
                rel(&root, &dir),
                summary.differ
            );
            for d in &findings {
                assert!(
                    d.message.contains(" → ") && d.message.contains("; Gateway API → "),
                    "{}: a finding without the request and both outcomes: {}",
                    rel(&root, &dir),
                    d.message
                );
                assert!(!d.location.file.is_empty() && d.location.line > 0);
            }
            if summary.differ > 0 {
                with_differences += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} fixtures");
    // The suite has known differences (issue #12's five cases among them): a model that
    // found none would be broken.
    assert!(with_differences >= 5, "{with_differences}");
}

fn rel(root: &Path, dir: &Path) -> String {
    dir.strip_prefix(root).unwrap_or(dir).display().to_string()
}

// End to end, translator included (it lives here because the check itself must not reach the
// translator): an authority match translated into a sibling route is compared with Istio, and
// the difference is reported at the old rule with the probe and both outcomes.
#[test]
fn run_reports_a_difference_at_the_old_rule() {
    let yaml = "
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
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: shop, namespace: shop}
spec:
  hosts: [shop.example.com]
  gateways: [istio-system/gw]
  http:
  # The two routes tie on `/checkout` and Gateway API's name order picks `shop` (the
  # translation does not layer authority routes yet).
  - match: [{uri: {prefix: /checkout}, authority: {exact: shop.example.com}}]
    route: [{destination: {host: express, port: {number: 80}}}]
  - match: [{uri: {prefix: /checkout}}]
    route: [{destination: {host: checkout, port: {number: 80}}}]
";
    let config = Config::default();
    let s = gateway_migrate::scan::scan_inputs(
        &[("t.yaml".to_string(), yaml.as_bytes().to_vec())],
        &config,
    );
    let mut results = gateway_migrate::translate::translate(&s.index, &config);
    gateway_migrate::validate::validate_results(&s.index, &[], &mut results, &config);
    let found = gateway_migrate::equivalence::run(&s.index, &results, &config);
    assert!(found.summary.probes > 0);
    let changed: Vec<_> = found
        .findings
        .iter()
        .filter(|f| f.diagnostic.code == Code::EquivalenceChanged)
        .collect();
    assert_eq!(changed.len(), 1, "{:#?}", found.findings);
    let d = &changed[0].diagnostic;
    assert_eq!(d.location.field.as_deref(), Some("spec.http[0].match[0]"));
    assert!(
        d.message
            .contains("GET http://shop.example.com/checkout: Istio → shop/express:80"),
        "{}",
        d.message
    );
}

// The parts besides routing that both models read (issue #29): a faithful translation of
// header operations, a partial mirror and a timeout (route.go: header operations, mirror
// percentage, route timeout; Gateway API HTTPHeaderFilter, RequestMirror percent, timeouts)
// compares equal on every probe, so no false alarm; the same objects with the translated
// timeout changed by hand are an `equivalence/changed` error naming the timeout on both
// sides.
#[test]
fn headers_mirrors_and_timeouts_are_compared() {
    let istio = "
apiVersion: networking.istio.io/v1
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
  - timeout: 5s
    mirror: {host: shadow, port: {number: 80}}
    mirrorPercentage: {value: 25}
    headers:
      request: {set: {x-env: prod}, add: {x-trace: 'on'}, remove: [x-debug]}
      response: {set: {cache-control: no-store}, remove: [server]}
    route: [{destination: {host: api, port: {number: 80}}}]
";
    let config = Config::default();
    let run = |yaml: &str, timeout: Option<&str>| {
        let s = gateway_migrate::scan::scan_inputs(
            &[("t.yaml".to_string(), yaml.as_bytes().to_vec())],
            &config,
        );
        let mut results = gateway_migrate::translate::translate(&s.index, &config);
        for r in &mut results {
            for g in &mut r.generated {
                if let (gateway_migrate::gwapi::Generated::HttpRoute(route), Some(t)) = (g, timeout)
                    && let Some(rule) = route.spec.rules.first_mut()
                    && let Some(timeouts) = rule.timeouts.as_mut()
                {
                    timeouts.request = Some(t.to_string());
                }
            }
        }
        gateway_migrate::validate::validate_results(&s.index, &[], &mut results, &config);
        gateway_migrate::equivalence::run(&s.index, &results, &config)
    };
    let faithful = run(istio, None);
    assert!(faithful.summary.probes > 0);
    assert_eq!(faithful.summary.differ, 0, "{:#?}", faithful.findings);
    let slower = run(istio, Some("30s"));
    let changed: Vec<_> = slower
        .findings
        .iter()
        .filter(|f| f.diagnostic.code == Code::EquivalenceChanged)
        .collect();
    assert_eq!(changed.len(), 1, "{:#?}", slower.findings);
    let message = &changed[0].diagnostic.message;
    assert!(
        message.contains("request timeout: 5000ms; Gateway API")
            && message.contains("request timeout: 30000ms"),
        "{message}"
    );
}

/// Many unrelated Ingresses spend the probe budget (issue #38): what is left out is counted
/// as not modelled and raises `equivalence/budget`, never a clean "0 differ".
#[test]
fn a_spent_probe_budget_is_counted_and_reported() {
    let mut stream = String::new();
    for i in 0..800 {
        stream.push_str(&format!(
            "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app{i}\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: app{i}.example.com\n    http:\n      paths:\n"
        ));
        for path in ["/a", "/b", "/c"] {
            stream.push_str(&format!(
                "      - path: {path}\n        pathType: Prefix\n        backend:\n          service:\n            name: app{i}\n            port:\n              number: 80\n"
            ));
        }
    }
    let request = Request::new(
        Input::Streams(vec![("many.yaml".to_string(), stream.into_bytes())]),
        Config::default(),
    );
    let outcome = pipeline::run(request).unwrap();
    let summary = outcome.equivalence.clone().unwrap();
    assert!(summary.unmodelled > 0, "{summary:?}");
    let budget: Vec<_> = outcome
        .results
        .iter()
        .flat_map(|r| &r.notes)
        .chain(outcome.diagnostics.iter())
        .filter(|d| d.code.id() == "equivalence/budget")
        .collect();
    assert_eq!(budget.len(), 1, "one warning for the one entry point");
    assert!(
        budget[0].message.contains("were not sent"),
        "{}",
        budget[0].message
    );
}
