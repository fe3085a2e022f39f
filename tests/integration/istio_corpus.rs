//! Acceptance 3: every Istio object of the Istio corpora is translated without panic, gets a
//! result, and every generated object passes the validator (the Gateway API v1.6.1 CRD schema
//! and CEL rules of its channel). Fixture outputs are validated by
//! `tests/integration/fixtures.rs`.

use std::path::Path;

use gateway_migrate::config::{Channel, Config, TcpRouteVersion};
use gateway_migrate::model::SourceBody;
use gateway_migrate::{pipeline, validate};

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
        let mut request =
            pipeline::Request::new(pipeline::Input::Repository(corpus(dir)), config.clone());
        request.jobs = 1;
        let outcome = pipeline::run(request).expect("run");
        let (scan, results) = (&outcome.scan, &outcome.results);
        // The pipeline removes what the validator rejects; each removal is a `validate/*`
        // error on its source.
        for d in outcome
            .diagnostics
            .iter()
            .filter(|d| d.code.family() == "validate")
        {
            failures.push(format!(
                "[{channel}] {}: {} {}",
                d.location.file, d.code, d.message
            ));
        }
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
        for r in results {
            let src = &scan.index.objects[r.object];
            for g in &r.generated {
                generated += 1;
                let errors: Vec<String> = validate::validate_object(&g.to_json(), config.channel)
                    .iter()
                    .map(|v| format!("{} {}: {}", v.rule, v.path, v.message))
                    .collect();
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
