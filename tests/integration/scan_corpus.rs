//! `plan` over the real-world corpus (issue #2, acceptance 2, 4 and 5).

use crate::common;

use assert_cmd::Command;
use serde_json::Value;

fn plan_json(jobs: &str) -> (Option<i32>, Value, Vec<u8>) {
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["plan", "--format", "json", "-j", jobs])
        .arg(common::corpus())
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), json, out.stdout)
}

#[test]
fn plan_reports_the_corpus_and_skips_every_helm_chart() {
    let (code, report, _) = plan_json("2");
    assert!(matches!(code, Some(0 | 1)), "exit code {code:?}");
    assert_eq!(report["version"], 2);
    let summary = &report["summary"];
    let files = summary["files_scanned"].as_u64().unwrap();
    assert!(files >= 350, "files_scanned = {files}");
    let objects = &summary["objects"];
    let vs = objects["networking.istio.io/VirtualService"]
        .as_u64()
        .unwrap_or(0);
    assert!(vs >= 150, "VirtualServices = {vs}");
    let ingresses: u64 = ["networking.k8s.io/Ingress", "extensions/Ingress"]
        .iter()
        .map(|k| objects[*k].as_u64().unwrap_or(0))
        .sum();
    assert!(ingresses >= 60, "Ingresses = {ingresses}");

    // Every directory of the corpus holding a Chart.yaml is reported once, with a reason.
    let charts: Vec<String> = common::files_under(&common::corpus())
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "Chart.yaml"))
        .map(|p| {
            let dir = p.parent().unwrap().strip_prefix(common::corpus()).unwrap();
            dir.to_string_lossy().replace('\\', "/")
        })
        .collect();
    assert!(
        charts.len() >= 5,
        "expected Helm charts in the corpus, found {charts:?}"
    );
    let skipped = report["skipped"].as_array().unwrap();
    for chart in &charts {
        let entries: Vec<&Value> = skipped
            .iter()
            .filter(|s| s["path"] == chart.as_str())
            .collect();
        assert_eq!(
            entries.len(),
            1,
            "chart {chart} should be skipped exactly once: {entries:?}"
        );
        let reason = entries[0]["reason"].as_str().unwrap();
        assert!(
            reason.contains("Helm chart"),
            "reason for {chart}: {reason}"
        );
    }
    // No file inside a chart was scanned.
    for obj in report["objects"].as_array().unwrap() {
        let file = obj["source"]["file"].as_str().unwrap();
        assert!(
            !charts.iter().any(|c| file.starts_with(&format!("{c}/"))),
            "{file} is inside a chart"
        );
    }
}

#[test]
fn json_is_byte_identical_with_one_or_four_threads() {
    let (_, _, one) = plan_json("1");
    let (_, _, four) = plan_json("4");
    assert!(one.len() > 1000);
    assert!(one == four, "-j 1 and -j 4 reports differ");
}

#[test]
fn malformed_corpus_documents_are_diagnosed_with_file_and_line() {
    let (_, report, _) = plan_json("2");
    let diagnostics = report["diagnostics"].as_array().unwrap();
    // istio-api-docs extracted this example with a `...` placeholder line inside the mapping.
    let expected_file = "istio-api-docs/networking/v1alpha3/virtual_service--17-HTTPRedirect.yaml";
    let d = diagnostics
        .iter()
        .find(|d| d["file"] == expected_file)
        .unwrap_or_else(|| panic!("no diagnostic for {expected_file}: {diagnostics:?}"));
    assert_eq!(d["code"], "load/invalid-yaml");
    assert_eq!(d["severity"], "error");
    let text = std::fs::read_to_string(common::corpus().join(expected_file)).unwrap();
    let line = d["line"].as_u64().unwrap() as usize;
    // The reported line is the one holding the placeholder the parser stumbled on.
    assert_eq!(
        text.lines().nth(line - 1).map(str::trim),
        Some("..."),
        "line {line} of {expected_file}"
    );
    // The rest of the corpus was still processed.
    assert!(report["summary"]["files_scanned"].as_u64().unwrap() > 350);
}
