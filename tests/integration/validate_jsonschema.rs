//! Acceptance 3: every object generated from `../shared/corpus` passes our validator, and an
//! independent validator agrees: `check-jsonschema` (PyPI; `.ci/run` installs it) checks every
//! generated object against the openAPIV3Schema of its CRD version, extracted from the
//! embedded CRDs into a temporary directory.
//!
//! The harness itself is proven on every run with known objects: the attachment fixture's
//! Gateway API objects must pass and a broken Gateway must fail, so a silently misconfigured
//! `check-jsonschema` call cannot pass the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gateway_migrate::config::{Channel, Config};
use gateway_migrate::model::SourceBody;
use gateway_migrate::pipeline;
use gateway_migrate::validate::{self, crd};
use serde_json::{Value, json};

fn check_jsonschema_available() -> bool {
    Command::new("check-jsonschema")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Writes each object to `dir` and runs `check-jsonschema` once per CRD version; returns
/// the failing runs as `(what, output)`.
fn run_check_jsonschema(dir: &Path, objects: &[Value]) -> Vec<(String, String)> {
    let catalog = crd::catalog(Channel::Standard);
    let mut by_schema: BTreeMap<(String, String), Vec<PathBuf>> = BTreeMap::new();
    for (i, obj) in objects.iter().enumerate() {
        let api_version = obj["apiVersion"].as_str().unwrap().to_string();
        let kind = obj["kind"].as_str().unwrap().to_string();
        let path = dir.join(format!("object-{i}.json"));
        std::fs::write(&path, serde_json::to_vec_pretty(obj).unwrap()).unwrap();
        by_schema.entry((api_version, kind)).or_default().push(path);
    }
    let mut failures = Vec::new();
    for ((api_version, kind), files) in by_schema {
        let version = catalog
            .get(&api_version, &kind)
            .unwrap_or_else(|| panic!("no CRD for {api_version} {kind}"));
        let mut schema = version.schema.clone();
        schema["$schema"] = json!("http://json-schema.org/draft-04/schema#");
        let schema_file = dir.join(format!(
            "{}-{kind}.schema.json",
            api_version.replace('/', "_")
        ));
        std::fs::write(&schema_file, serde_json::to_vec(&schema).unwrap()).unwrap();
        let out = Command::new("check-jsonschema")
            .arg("--schemafile")
            .arg(&schema_file)
            .args(&files)
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push((
                format!("{api_version} {kind}: {} objects", files.len()),
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            ));
        }
    }
    failures
}

/// The corpus's generated objects, and what the pipeline's validator rejected on the way
/// (`validate/*` errors; rejected objects are not among the generated ones).
fn corpus_generated() -> (Vec<Value>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let outcome = pipeline::run(pipeline::Request::new(
        pipeline::Input::Repository(root),
        Config::default(),
    ))
    .unwrap();
    let rejected = outcome
        .diagnostics
        .iter()
        .filter(|d| d.code.family() == "validate")
        .map(|d| format!("{}: {} {}", d.location.file, d.code, d.message))
        .collect();
    let generated = outcome
        .results
        .iter()
        // As the cluster sees them: templates kept as written are substituted first.
        .flat_map(|r| {
            r.generated
                .iter()
                .map(|g| validate::substituted(g.to_json()))
        })
        .collect();
    (generated, rejected)
}

#[test]
fn every_object_generated_from_the_corpus_is_valid() {
    let (generated, rejected) = corpus_generated();
    assert!(rejected.is_empty(), "the validator rejected: {rejected:#?}");
    let invalid: Vec<_> = generated
        .iter()
        .map(|g| (g, validate::validate_object(g, Channel::Standard)))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    assert!(
        invalid.is_empty(),
        "invalid generated objects: {invalid:#?}"
    );
    if generated.is_empty() {
        eprintln!("NOTE: the corpus generated no objects yet (translators not merged)");
    }
}

#[test]
fn check_jsonschema_agrees_on_every_generated_object() {
    if !crate::common::required(
        check_jsonschema_available(),
        "`check-jsonschema` (pip install check-jsonschema)",
        "validation by an independent validator",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();

    // The harness: known-good objects pass, a known-bad one fails.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate/attachment");
    let outcome = pipeline::run(pipeline::Request::new(
        pipeline::Input::Repository(fixture),
        Config::default(),
    ))
    .unwrap();
    let known_good: Vec<Value> = outcome
        .scan
        .index
        .objects
        .iter()
        .filter_map(|o| match &o.body {
            SourceBody::GatewayApi(v) => Some(v.clone()),
            _ => None,
        })
        .collect();
    assert!(known_good.len() >= 5);
    let failures = run_check_jsonschema(dir.path(), &known_good);
    assert!(failures.is_empty(), "{failures:#?}");
    let broken = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
        "metadata": {"name": "gw"},
        "spec": {"gatewayClassName": "istio", "listeners": [
            {"name": "Bad_Name", "port": 70000, "protocol": "HTTP"}]}});
    let bad_dir = tempfile::tempdir().unwrap();
    assert_eq!(run_check_jsonschema(bad_dir.path(), &[broken]).len(), 1);

    // The generated objects.
    let (generated, _) = corpus_generated();
    if generated.is_empty() {
        eprintln!(
            "\n\nNOTE: the corpus generated no objects yet; check-jsonschema checked 0 generated objects\n\n"
        );
        return;
    }
    let gen_dir = tempfile::tempdir().unwrap();
    let failures = run_check_jsonschema(gen_dir.path(), &generated);
    assert!(
        failures.is_empty(),
        "check-jsonschema rejects: {failures:#?}"
    );
    eprintln!(
        "check-jsonschema accepted {} generated objects",
        generated.len()
    );
}
