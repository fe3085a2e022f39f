//! Every object the Ingress fixtures generate validates against the Gateway API CRD schemas.

mod common;

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::pipeline;

use common::ingress_crd_schema::CrdSchemas;

#[test]
fn ingress_fixture_outputs_are_schema_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ingress");
    let schemas = CrdSchemas::load();
    let mut cases = 0;
    let mut objects = 0;
    let mut failures = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let Ok(input) = std::fs::read(dir.join("input.yaml")) else {
            continue;
        };
        cases += 1;
        let config = std::fs::read_to_string(dir.join("config.yaml"))
            .map(|t| Config::parse(&t).unwrap())
            .unwrap_or_default();
        let scan = pipeline::scan_inputs(&[("input.yaml".to_string(), input)], &config);
        for r in pipeline::translate(&scan, &config) {
            for g in &r.generated {
                objects += 1;
                for e in schemas.errors("standard", g) {
                    failures.push(format!("{}: {} {}: {e}", dir.display(), g.kind(), g.name()));
                }
            }
        }
    }
    assert!(cases >= 30, "only {cases} Ingress fixture cases");
    assert!(
        objects >= cases,
        "only {objects} objects from {cases} cases"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
