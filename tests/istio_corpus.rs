//! Acceptance 3: every Istio object of the Istio corpora is translated without panic, gets a
//! result, and every generated object validates against the Gateway API CRD schema of its
//! channel and breaks none of the CEL rules written out in `common/cel_rules.rs`.

mod common;

use std::path::Path;

use common::cel_rules;
use common::crd_schema::CrdSchemas;
use gateway_migrate::config::{Channel, Config, TcpRouteVersion};
use gateway_migrate::model::SourceBody;
use gateway_migrate::pipeline;

fn corpus(dir: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(dir)
}

fn configs() -> Vec<(&'static str, Config)> {
    let standard = Config::default();
    let experimental = Config {
        channel: Channel::Experimental,
        tcp_route_version: TcpRouteVersion::V1alpha2,
        keep_load_balancer: true,
        ..Config::default()
    };
    vec![("standard", standard), ("experimental", experimental)]
}

/// Translates `dir` as one repository; returns (Istio objects, results, invalid objects).
fn check_dir(dir: &str) -> (usize, usize) {
    let mut istio_objects = 0;
    let mut generated = 0;
    let mut failures = Vec::new();
    for (channel, config) in configs() {
        let schemas = CrdSchemas::load(channel);
        let scan = pipeline::scan_repo(&corpus(dir), &config, 1).expect("scan");
        let results = pipeline::translate(&scan, &config);
        let expected: Vec<usize> = scan
            .index
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                matches!(
                    o.body,
                    SourceBody::IstioGateway(_)
                        | SourceBody::VirtualService(_)
                        | SourceBody::DestinationRule(_)
                )
            })
            .map(|(i, _)| i)
            .collect();
        let istio_results: Vec<usize> = results
            .iter()
            .filter(|r| expected.contains(&r.object))
            .map(|r| r.object)
            .collect();
        assert_eq!(
            istio_results, expected,
            "{dir}: one result per Istio object, in order"
        );
        istio_objects = expected.len();
        for r in &results {
            let src = &scan.index.objects[r.object];
            for g in &r.generated {
                generated += 1;
                let mut errors = schemas.errors(&g.to_json());
                errors.extend(cel_rules::violations(&g.to_json()));
                if !errors.is_empty() {
                    failures.push(format!(
                        "[{channel}] {} ({}/{}) → {} {}/{}: {}",
                        src.source.file,
                        src.kind,
                        src.meta.name,
                        g.kind(),
                        g.namespace(),
                        g.name(),
                        errors.join("; ")
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} invalid objects:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (istio_objects, generated)
}

#[test]
fn istio_repository_corpus_translates_to_valid_objects() {
    let (objects, generated) = check_dir("istio");
    assert!(
        objects > 200,
        "expected the whole istio corpus, got {objects} objects"
    );
    assert!(generated > 100, "only {generated} objects generated");
}

#[test]
fn istio_api_docs_corpus_translates_to_valid_objects() {
    let (objects, generated) = check_dir("istio-api-docs");
    assert!(
        objects > 40,
        "expected the whole istio-api-docs corpus, got {objects} objects"
    );
    assert!(generated > 20, "only {generated} objects generated");
}

#[test]
fn peer_fixtures_translate_to_valid_objects() {
    let (objects, generated) = check_dir("ingress2gateway");
    assert!(objects >= 9, "{objects}");
    assert!(generated > 10, "{generated}");
    let (objects, _) = check_dir("ingress2gateway-history/234cb14");
    assert_eq!(objects, 1);
}

#[test]
fn cel_helper_rejects_invalid_objects() {
    let route = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"},
        "spec": {"rules": [{
            "matches": [{"headers": [{"name": "a", "value": "b"}]}],
            "filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/x"}}}],
            "backendRefs": [{"name": "s"}]
        }]}
    });
    let v = cel_rules::violations(&route);
    assert!(
        v.iter().any(|m| m.contains("exactly one PathPrefix")),
        "{v:?}"
    );
    assert!(v.iter().any(|m| m.contains("Must have port")), "{v:?}");
    let gateway = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway", "metadata": {"name": "g"},
        "spec": {"gatewayClassName": "istio", "listeners": [
            {"name": "a", "port": 443, "protocol": "HTTPS", "tls": {"mode": "Passthrough"}},
            {"name": "a", "port": 1, "protocol": "TCP", "hostname": "x.com"}
        ]}
    });
    let v = cel_rules::violations(&gateway);
    assert_eq!(v.len(), 3, "{v:?}");
}

#[test]
fn schema_helper_rejects_invalid_objects() {
    let schemas = CrdSchemas::load("standard");
    let valid = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
        "metadata": {"name": "r"},
        "spec": {"rules": [{"backendRefs": [{"name": "s", "port": 80}]}]}
    });
    assert!(
        schemas.errors(&valid).is_empty(),
        "{:?}",
        schemas.errors(&valid)
    );
    // retry is experimental-only: unknown to the standard schema.
    let mut experimental = valid.clone();
    experimental["spec"]["rules"][0]["retry"] = serde_json::json!({"attempts": 2});
    assert!(!schemas.errors(&experimental).is_empty());
    assert!(
        CrdSchemas::load("experimental")
            .errors(&experimental)
            .is_empty()
    );
    let tls = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "TLSRoute",
        "metadata": {"name": "r"},
        "spec": {"rules": [{"backendRefs": [{"name": "s", "port": 443}]}]}
    });
    assert!(
        !schemas.errors(&tls).is_empty(),
        "TLSRoute without hostnames must fail"
    );
    let alpha = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1alpha2", "kind": "TCPRoute",
        "metadata": {"name": "r"},
        "spec": {"rules": [{"backendRefs": [{"name": "s", "port": 1}]}]}
    });
    assert!(
        !schemas.errors(&alpha).is_empty(),
        "v1alpha2 TCPRoute is not served by standard"
    );
    let policy = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1", "kind": "BackendTLSPolicy",
        "metadata": {"name": "p"},
        "spec": {"targetRefs": [{"group": "", "kind": "Service", "name": "s"}],
                 "validation": {"wellKnownCaCertificates": "System", "hostname": "s"}}
    });
    assert!(
        !schemas.errors(&policy).is_empty(),
        "misspelt field must fail"
    );
}

/// Every fixture's output validates against the CRDs of the channel its config selects.
#[test]
fn fixture_outputs_validate_against_their_channel() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/istio");
    let standard = CrdSchemas::load("standard");
    let experimental = CrdSchemas::load("experimental");
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).expect("fixtures/istio") {
        let dir = entry.expect("entry").path();
        let Ok(input) = std::fs::read(dir.join("input.yaml")) else {
            continue;
        };
        let config = match std::fs::read_to_string(dir.join("config.yaml")) {
            Ok(text) => Config::parse(&text).expect("config"),
            Err(_) => Config::default(),
        };
        let schemas = if config.channel == Channel::Experimental
            || config.tcp_route_version == TcpRouteVersion::V1alpha2
        {
            &experimental
        } else {
            &standard
        };
        let scan = pipeline::scan_inputs(&[("input.yaml".to_string(), input)], &config);
        for r in pipeline::translate(&scan, &config) {
            for g in &r.generated {
                checked += 1;
                let mut errors = schemas.errors(&g.to_json());
                errors.extend(cel_rules::violations(&g.to_json()));
                if !errors.is_empty() {
                    failures.push(format!(
                        "{}: {} {}: {}",
                        dir.display(),
                        g.kind(),
                        g.name(),
                        errors.join("; ")
                    ));
                }
            }
        }
    }
    assert!(checked > 80, "only {checked} objects checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
