//! Acceptance: every Ingress of the shared corpus is translated, in both modes, without panic,
//! and every generated object passes the validator (CRD schema and CEL rules).

use gateway_migrate::config::{Config, IngressMode};
use gateway_migrate::model::SourceBody;
use gateway_migrate::{pipeline, validate};

use crate::common;

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
    let corpus = common::corpus();
    let mut ingresses = 0;
    let mut objects = 0;
    let mut failures = Vec::new();
    for source in SOURCES {
        for mode in [IngressMode::Migrate, IngressMode::Mount] {
            let config = Config {
                ingress_mode: mode,
                ..Config::default()
            };
            let mut request = pipeline::Request::new(
                pipeline::Input::Repository(corpus.join(source)),
                config.clone(),
            );
            request.jobs = 1;
            let outcome = pipeline::run(request).unwrap();
            let scan = &outcome.scan;
            let count = scan
                .index
                .objects
                .iter()
                .filter(|o| matches!(o.body, SourceBody::Ingress(_)))
                .count();
            let results = &outcome.results;
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
            // The pipeline removes what the validator rejects; each removal is a `validate/*`
            // error on the source.
            for d in outcome
                .diagnostics
                .iter()
                .filter(|d| d.code.family() == "validate")
            {
                failures.push(format!(
                    "{source} {mode:?} {}: {} {}",
                    d.location.file, d.code, d.message
                ));
            }
            for r in results {
                for g in &r.generated {
                    objects += 1;
                    for e in validate::validate_generated(&g.to_json(), config.channel) {
                        failures.push(format!(
                            "{source} {mode:?} {} {}/{}: {} {}: {}",
                            g.kind(),
                            g.namespace(),
                            g.name(),
                            e.rule,
                            e.path,
                            e.message
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
