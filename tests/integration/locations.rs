//! Diagnostics point at their field: the `line` and `column` of every diagnostic that names a
//! source `field` are checked against the file's text (the key of a mapping entry starts
//! there; a list item's `-` or flow separator precedes it), over the demo repository, the
//! attachment fixture and the whole corpus, as `check --format json` reports them. A note
//! about a field that is absent (`spec.gateways` of a VirtualService without one) points at
//! the deepest part of the path that exists; the test accepts that only for an ancestor of
//! the field, and counts exact hits separately.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn check_json(dir: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["check", "--format", "json", "-j", "2"])
        .arg(dir)
        .output()
        .expect("run check");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

/// The last step of a field path: a key (`retries`, `nginx.ingress.kubernetes.io/x`) or an
/// index (`None`).
fn last_key(field: &str) -> Option<String> {
    if let Some(stripped) = field.strip_suffix("\"]") {
        let start = stripped.rfind("[\"")?;
        return Some(stripped[start + 2..].to_string());
    }
    if field.ends_with(']') {
        return None;
    }
    Some(field.rsplit(['.', ']']).next()?.to_string())
}

/// Whether `line` (the file's text at the reported line) has `field`'s last step at the
/// 1-based character `column`.
fn points_at(line: &str, column: usize, field: &str) -> bool {
    step_at(line, column, field)
}

/// `field` itself, then each ancestor path (`a.b[0].c` → `a.b[0]`, `a.b`, `a`).
fn ancestors(field: &str) -> Vec<String> {
    let mut out = vec![field.to_string()];
    let mut rest = field.to_string();
    while let Some(cut) = rest.rfind(['.', '[']) {
        // Do not cut inside a quoted key: `x["a.b"]` is one step.
        if rest[..cut].matches('"').count() % 2 == 1 {
            let Some(open) = rest[..cut].rfind("[\"") else {
                break;
            };
            rest.truncate(open);
        } else {
            rest.truncate(cut);
        }
        if rest.is_empty() {
            break;
        }
        out.push(rest.clone());
    }
    out
}

fn step_at(line: &str, column: usize, field: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    let Some(at) = column.checked_sub(1).filter(|c| *c < chars.len()) else {
        return false;
    };
    let rest: String = chars[at..].iter().collect();
    match last_key(field) {
        Some(key) => {
            rest.starts_with(&key)
                || rest.starts_with(&format!("\"{key}\""))
                || rest.starts_with(&format!("'{key}'"))
        }
        // A list item: what precedes it on the line is `- `, `[` or `, ` (flow style).
        None => {
            let before: String = chars[..at].iter().collect();
            let before = before.trim_end();
            before.ends_with('-') || before.ends_with('[') || before.ends_with(',')
        }
    }
}

/// Checks every located diagnostic of `report` (files relative to `root`); returns the number
/// checked per code family and the failures.
fn check_report(root: &Path, report: &Value) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut checked: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut texts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for d in report["diagnostics"].as_array().expect("diagnostics") {
        let (Some(field), Some(column)) = (d["field"].as_str(), d["column"].as_u64()) else {
            continue;
        };
        let file = d["file"].as_str().expect("file");
        let line = d["line"].as_u64().expect("line") as usize;
        let lines = texts.entry(file.to_string()).or_insert_with(|| {
            String::from_utf8_lossy(&std::fs::read(root.join(file)).expect("read file"))
                .lines()
                .map(str::to_string)
                .collect()
        });
        let text = lines.get(line.wrapping_sub(1)).cloned().unwrap_or_default();
        let code = d["code"].as_str().expect("code");
        let family = code.split('/').next().unwrap_or_default().to_string();
        if points_at(&text, column as usize, field) {
            *checked.entry(family).or_default() += 1;
        } else if ancestors(field)
            .iter()
            .skip(1)
            .any(|a| points_at(&text, column as usize, a))
        {
            *checked
                .entry(format!("{family} (at an ancestor)"))
                .or_default() += 1;
        } else {
            failures.push(format!("{file}:{line}:{column} {code} {field}: {text:?}"));
        }
    }
    (checked, failures)
}

#[test]
fn the_demo_repositorys_retries_note_is_at_retries() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo");
    let report = check_json(&root);
    let retries: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "istio/retries")
        .collect();
    assert_eq!(retries.len(), 1, "{retries:?}");
    let d = retries[0];
    assert_eq!(d["file"], "shop/routes.yaml");
    let text = std::fs::read_to_string(root.join("shop/routes.yaml")).expect("routes.yaml");
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("retries:"))
        .expect("the demo has a retries: line");
    let column = line.len() - line.trim_start().len() + 1;
    assert_eq!(d["line"].as_u64(), Some(n as u64 + 1));
    assert_eq!(d["column"].as_u64(), Some(column as u64));
    assert!(d["end_line"].as_u64() > d["line"].as_u64(), "{d}");
}

#[test]
fn diagnostics_of_every_kind_point_at_their_field() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut roots = vec![
        manifest.join("fixtures/demo-repo"),
        manifest.join("fixtures/validate/attachment"),
    ];
    let corpus = manifest.join("../shared/corpus");
    if crate::common::required(
        corpus.is_dir(),
        "../shared/corpus",
        "locating the corpus's diagnostics",
    ) {
        roots.push(corpus);
    }
    for root in &roots {
        let (checked, failed) = check_report(root, &check_json(root));
        for (family, n) in checked {
            *total.entry(family).or_default() += n;
        }
        failures.extend(failed);
    }
    assert!(
        failures.is_empty(),
        "{} diagnostics do not point at their field:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let exact: usize = total
        .iter()
        .filter(|(k, _)| !k.contains("ancestor"))
        .map(|(_, n)| n)
        .sum();
    assert!(
        exact >= 20,
        "only {exact} diagnostics checked at their field: {total:?}"
    );
    eprintln!("diagnostics checked at their field, by family: {total:?}");
    for family in ["istio", "ingress-nginx", "validate", "attach"] {
        assert!(
            total.get(family).copied().unwrap_or(0) > 0,
            "no {family}/* diagnostic checked: {total:?}"
        );
    }
}

#[test]
fn load_errors_point_at_the_parser_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("bad.yaml"),
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: x\nspec:\n  hosts: [a, b\n  http: []\n",
    )
    .expect("write");
    let report = check_json(dir.path());
    let d = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "load/invalid-yaml")
        .unwrap_or_else(|| panic!("no load diagnostic: {report}"));
    assert_eq!(d["file"], "bad.yaml");
    // The flow sequence opened on line 6 is never closed: the parser stops in it.
    let line = d["line"].as_u64().expect("line");
    assert!((6..=8).contains(&line), "{d}");
    assert!(d["column"].as_u64().is_some(), "{d}");
}

#[test]
fn the_location_check_itself_rejects_wrong_columns() {
    assert!(points_at("    retries:", 5, "spec.http[0].retries"));
    assert!(!points_at("    retries:", 4, "spec.http[0].retries"));
    assert!(points_at("  - name: a", 5, "spec.servers[0]"));
    assert!(!points_at("  - name: a", 3, "spec.servers[0]"));
    assert!(points_at(
        "    nginx.ingress.kubernetes.io/x: y",
        5,
        "metadata.annotations[\"nginx.ingress.kubernetes.io/x\"]"
    ));
    assert_eq!(
        ancestors(r#"m.annotations["a.b/c"].x"#),
        [
            r#"m.annotations["a.b/c"].x"#,
            r#"m.annotations["a.b/c"]"#,
            "m.annotations",
            "m"
        ]
    );
    assert_eq!(last_key("a.b[2]"), None);
    assert_eq!(last_key("a.b[2].c"), Some("c".into()));
}
