//! The fixture runner: every `fixtures/<source>/<case>/input.yaml` is translated as one stream
//! (the objects in it are the whole index) and the result is compared with `expected.yaml`.
//!
//! Optional files in a case directory:
//! - `config.yaml`: a `.gateway-migrate.yaml` for the case;
//! - `notes.txt`: the expected notes, one `severity code field` line each, in order.
//!
//! `BLESS=1 cargo test --test integration fixtures::` rewrites the expected files from the
//! current output. Blessed output must be read and judged before it is committed.

use std::path::{Path, PathBuf};

use gateway_migrate::config::Config;
use gateway_migrate::{pipeline, validate};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut cases = Vec::new();
    for source in ["istio", "ingress"] {
        let Ok(entries) = std::fs::read_dir(root.join(source)) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().join("input.yaml").is_file() {
                cases.push(entry.path());
            }
        }
    }
    cases.sort();
    cases
}

/// Translates one case: the YAML stream of the generated objects and the notes lines.
fn run_case(dir: &Path) -> (String, String) {
    let config = match std::fs::read_to_string(dir.join("config.yaml")) {
        Ok(text) => Config::parse(&text)
            .unwrap_or_else(|e| panic!("{}: bad config.yaml: {e}", dir.display())),
        Err(_) => Config::default(),
    };
    let input = std::fs::read(dir.join("input.yaml")).expect("read input.yaml");
    let scan = pipeline::scan_inputs(&[("input.yaml".to_string(), input)], &config);
    assert!(
        scan.diagnostics.is_empty(),
        "{}: input has load diagnostics: {:?}",
        dir.display(),
        scan.diagnostics
    );
    let results = pipeline::translate(&scan, &config);
    let mut generated: Vec<_> = results.iter().flat_map(|r| r.generated.iter()).collect();
    generated.sort_by_key(|g| g.sort_key());
    // Expected output is what `apply` would write, so it must pass the validator (CRD schema
    // and CEL rules of the configured channel) as it stands.
    for g in &generated {
        let violations = validate::validate_object(&g.to_json(), config.channel);
        assert!(
            violations.is_empty(),
            "{}: generated {} {}/{} is invalid: {violations:?}",
            dir.display(),
            g.kind(),
            g.namespace(),
            g.name()
        );
    }
    let yaml = pipeline::render_stream(generated);
    let mut notes = String::new();
    for r in &results {
        let obj = &scan.index.objects[r.object];
        for n in &r.notes {
            notes.push_str(&format!(
                "{}/{} {} {} {}\n",
                obj.kind,
                obj.meta.name,
                n.severity.as_str(),
                n.code,
                n.field.as_deref().unwrap_or("-")
            ));
        }
    }
    (yaml, notes)
}

#[test]
fn fixtures_translate_to_their_expected_output() {
    let bless = std::env::var_os("BLESS").is_some();
    let cases = cases();
    let mut failures = Vec::new();
    for dir in &cases {
        let (yaml, notes) = run_case(dir);
        let expected_path = dir.join("expected.yaml");
        let notes_path = dir.join("notes.txt");
        if bless {
            std::fs::write(&expected_path, &yaml).expect("write expected.yaml");
            std::fs::write(&notes_path, &notes).expect("write notes.txt");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != yaml {
            failures.push(format!(
                "{}: output differs from expected.yaml\n--- expected\n{expected}\n--- actual\n{yaml}",
                dir.display()
            ));
        }
        if let Ok(expected_notes) = std::fs::read_to_string(&notes_path)
            && expected_notes != notes
        {
            failures.push(format!(
                "{}: notes differ from notes.txt\n--- expected\n{expected_notes}\n--- actual\n{notes}",
                dir.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixture cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
