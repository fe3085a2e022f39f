//! Acceptance: every Ingress of the shared corpus is translated, in both modes, without panic,
//! and every generated object validates against the vendored Gateway API CRD schemas.

mod common;

use std::path::Path;

use gateway_migrate::config::{Config, IngressMode};
use gateway_migrate::model::SourceBody;
use gateway_migrate::pipeline;

use common::ingress_crd_schema::CrdSchemas;

const SOURCES: &[&str] = &[
    "ingress-nginx",
    "ingress-nginx-2019-extensions-v1beta1",
    "ingress2gateway-history",
    "ingress2gateway",
    "argocd-example-apps",
    "istio",
];

#[test]
fn every_corpus_ingress_translates_to_schema_valid_objects() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let schemas = CrdSchemas::load();
    let mut ingresses = 0;
    let mut objects = 0;
    let mut failures = Vec::new();
    for source in SOURCES {
        for mode in [IngressMode::Migrate, IngressMode::Mount] {
            let config = Config {
                ingress_mode: mode,
                ..Config::default()
            };
            let scan = pipeline::scan_repo(&corpus.join(source), &config, 1).unwrap();
            let count = scan
                .index
                .objects
                .iter()
                .filter(|o| matches!(o.body, SourceBody::Ingress(_)))
                .count();
            let results = pipeline::translate(&scan, &config);
            let translated = results
                .iter()
                .filter(|r| matches!(scan.index.objects[r.object].body, SourceBody::Ingress(_)))
                .count();
            assert_eq!(
                translated, count,
                "{source} {mode:?}: one result per Ingress"
            );
            if mode == IngressMode::Migrate {
                ingresses += count;
            }
            for r in &results {
                for g in &r.generated {
                    objects += 1;
                    for e in schemas.errors("standard", g) {
                        failures.push(format!(
                            "{source} {mode:?} {} {}/{}: {e}",
                            g.kind(),
                            g.namespace(),
                            g.name()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        ingresses >= 80,
        "only {ingresses} Ingresses found in the corpus"
    );
    assert!(objects > 100, "only {objects} objects generated");
    assert!(
        failures.is_empty(),
        "{} schema errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("corpus: {ingresses} Ingresses, {objects} generated objects, all schema-valid");
}

/// The schema check itself must be able to fail.
#[test]
fn the_schema_check_rejects_invalid_objects() {
    use gateway_migrate::gwapi::{
        self, Generated, HttpPathMatch, HttpRouteMatch, HttpRouteRule, HttpRouteSpec, Metadata,
        Object,
    };
    let schemas = CrdSchemas::load();
    let bad = Generated::HttpRoute(Object::new(
        gwapi::V1,
        "HTTPRoute",
        Metadata::new("Bad_Name", "ns"),
        HttpRouteSpec {
            hostnames: vec!["10.0.0.1:80".into()],
            rules: vec![HttpRouteRule {
                matches: vec![HttpRouteMatch {
                    path: Some(HttpPathMatch {
                        type_: "Glob".into(),
                        value: "/x".into(),
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            ..Default::default()
        },
    ));
    let errors = schemas.errors("standard", &bad);
    // A misspelt field is pruned by the API server, so the check must report it.
    let misspelt = serde_json::json!({
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "BackendTLSPolicy",
        "metadata": {"name": "p", "namespace": "ns"},
        "spec": {
            "targetRefs": [{"group": "", "kind": "Service", "name": "s"}],
            "validation": {"wellKnownCaCertificates": "System", "hostname": "s.ns.svc"}
        }
    });
    let json_errors = schemas.json_errors("standard", &misspelt);
    assert!(
        json_errors
            .iter()
            .any(|e| e.contains("wellKnownCaCertificates: unknown field")),
        "{json_errors:?}"
    );
    assert!(errors.iter().any(|e| e.contains("Glob")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("hostnames")), "{errors:?}");
}
