//! The code registry is the single source of truth: the docs are generated from it, every code
//! the tool emits on real repositories is in it with its severity, and no code is written as a
//! string anywhere else in the source.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `codes --format json`: code → severity.
fn registry() -> BTreeMap<String, String> {
    let out = bin()
        .args(["codes", "--format", "json"])
        .output()
        .expect("run codes");
    assert!(out.status.success());
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    list.as_array()
        .expect("an array")
        .iter()
        .map(|c| {
            (
                c["code"].as_str().expect("code").to_string(),
                c["severity"].as_str().expect("severity").to_string(),
            )
        })
        .collect()
}

#[test]
fn docs_codes_md_is_generated_from_the_registry() {
    let out = bin()
        .args(["codes", "--format", "markdown"])
        .output()
        .expect("run codes");
    assert!(out.status.success());
    let generated = String::from_utf8(out.stdout).expect("UTF-8");
    let path = root().join("docs/codes.md");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write docs/codes.md");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/codes.md is stale: run `cargo run -- codes --format markdown > docs/codes.md`"
    );
    // Every code has its own section.
    for code in registry().keys() {
        assert!(
            generated.contains(&format!("### `{code}`")),
            "{code} has no section"
        );
    }
}

#[test]
fn explain_prints_one_entry_and_rejects_unknown_codes() {
    let out = bin().args(["explain", "istio/retries"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("istio/retries (warning)"), "{text}");
    let out = bin()
        .args(["explain", "istio/no-such-code"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gateway-migrate codes"));
}

#[test]
fn every_code_emitted_on_the_corpus_is_registered_with_its_severity() {
    let corpus = root().join("../shared/corpus");
    if !crate::common::required(
        corpus.is_dir(),
        "../shared/corpus",
        "registration of the corpus's codes",
    ) {
        return;
    }
    let registry = registry();
    assert!(registry.len() > 300, "{} codes", registry.len());
    let out = bin()
        .args(["plan", "--format", "json", "-j", "2"])
        .arg(&corpus)
        .output()
        .expect("run plan");
    assert_eq!(out.status.code(), Some(1), "changes needed");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert!(
        diagnostics.len() > 1_000,
        "{} diagnostics",
        diagnostics.len()
    );
    let mut families = std::collections::BTreeSet::new();
    for d in diagnostics {
        let code = d["code"].as_str().expect("code");
        let severity = d["severity"].as_str().expect("severity");
        assert_eq!(
            registry.get(code).map(String::as_str),
            Some(severity),
            "{code} emitted as {severity}: {d}"
        );
        families.insert(code.split('/').next().unwrap_or_default().to_string());
    }
    for family in [
        "istio",
        "ingress",
        "ingress-nginx",
        "attach",
        "load",
        "walk",
    ] {
        assert!(
            families.contains(family),
            "no {family}/* diagnostic in the corpus"
        );
    }
}

/// Codes are values of one enum: an identifier written as a string outside the registry
/// would be a code the registry does not know, or a comparison by string.
#[test]
fn no_code_is_spelled_as_a_string_outside_the_registry() {
    let families = [
        "istio",
        "ingress",
        "ingress-nginx",
        "validate",
        "attach",
        "load",
        "walk",
        "plan",
        "check",
        "gateway-api",
    ];
    let mut offenders = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.ends_with("diagnostic/registry.rs") || path.ends_with("diagnostic/docs.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source");
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for family in families {
                    let needle = format!("\"{family}/");
                    if let Some(i) = line.find(&needle) {
                        let rest = &line[i + needle.len()..];
                        let name: String = rest
                            .chars()
                            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                            .collect();
                        if !name.is_empty() && rest[name.len()..].starts_with('"') {
                            offenders.push(format!(
                                "{}:{}: {}",
                                path.display(),
                                n + 1,
                                line.trim()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "codes spelled as strings:\n{}",
        offenders.join("\n")
    );
}

/// Each example of the registry is true: translating `before` (as `convert` does) emits the
/// code, and the generated YAML contains `after`; `explain` and `docs/codes.md` show both.
#[test]
fn every_example_emits_its_code_and_shows_its_output() {
    use gateway_migrate::config::Config;
    use gateway_migrate::diagnostic::{docs, examples};
    use gateway_migrate::pipeline::{self, Input, Request};
    let mut count = 0;
    for code in examples::codes_with_examples() {
        let example = examples::example(code).expect("listed");
        let outcome = pipeline::run(Request::new(
            Input::Streams(vec![(
                "example.yaml".into(),
                example.before.as_bytes().to_vec(),
            )]),
            Config::default(),
        ))
        .expect("a stream run");
        assert!(
            outcome.diagnostics.iter().any(|d| d.code == code),
            "{code}: the example does not emit it: {:?}",
            outcome.diagnostics
        );
        let yaml = gateway_migrate::plan::render_stream(outcome.generated());
        assert!(
            yaml.contains(example.after),
            "{code}: the output does not contain `after`:\n{yaml}"
        );
        assert!(docs::markdown().contains(example.after));
        assert!(docs::explain(code).contains("Before:"));
        count += 1;
    }
    assert!(count >= 6);
}
