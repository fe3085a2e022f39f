//! Acceptance 2: `gateway-migrate check` on the peer's (ingress2gateway) expected Istio
//! outputs flags the rules they break, names each rule, reports them in every format and
//! exits 1.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/ingress2gateway")
}

const ISTIO_OUTPUT: &str = "pkg/i2gw/providers/istio/fixtures/output/";

/// The findings of a JSON report: diagnostics about a repository object that is not a
/// translated source (`subject` without `object`).
fn findings_of(report: &Value) -> Vec<&Value> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d.get("subject").is_some() && d.get("object").is_none())
        .collect()
}

/// `(file, kind/name, rule)` of every error finding about the peer's Istio outputs.
fn json_findings() -> (Vec<(String, String, String)>, i32) {
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(corpus())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = findings_of(&report)
        .into_iter()
        .filter(|f| f["file"].as_str().unwrap().starts_with(ISTIO_OUTPUT))
        .filter(|f| f["severity"] == "error")
        .map(|f| {
            (
                f["file"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches(ISTIO_OUTPUT)
                    .to_string(),
                format!(
                    "{}/{}",
                    f["subject"]["kind"].as_str().unwrap(),
                    f["subject"]["name"].as_str().unwrap()
                ),
                f["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (findings, out.status.code().unwrap_or(-1))
}

fn has(findings: &[(String, String, String)], file: &str, object: &str, rule: &str) -> bool {
    findings
        .iter()
        .any(|f| f.0 == file && f.1 == object && f.2 == rule)
}

#[test]
fn check_flags_the_peers_istio_outputs_and_exits_1() {
    let (findings, code) = json_findings();
    assert_eq!(code, 1);
    let gw = ("1-gateway.yaml", "Gateway/my-gateway");
    for rule in [
        "Listener name must be unique within the Gateway",
        "Combination of port, protocol and hostname must be unique for each listener",
        "hostname must not be specified for protocols ['TCP', 'UDP']",
        "certificateRefs or options must be specified when mode is Terminate",
        "tls mode must be set for protocol TLS",
    ] {
        assert!(
            has(&findings, gw.0, gw.1, rule),
            "missing {rule}: {findings:#?}"
        );
    }
    // The API server rejects this Gateway (the CEL rules above), so it never gets a
    // listener status: no conflict is predicted on it (the duplicate hostnames are the CEL
    // rule "Combination of port, protocol and hostname must be unique").
    assert!(
        !has(&findings, gw.0, gw.1, "HostnameConflict"),
        "{findings:#?}"
    );
    let route = ("2-virtualservice-http.yaml", "HTTPRoute/reviews-route-v2");
    for rule in [
        "RequestRedirect filter must not be used together with backendRefs",
        "Must have port for Service reference",
    ] {
        assert!(
            has(&findings, route.0, route.1, rule),
            "missing {rule}: {findings:#?}"
        );
    }
    assert!(has(
        &findings,
        "3-virtualservice-tls.yaml",
        "TLSRoute/reviews-route-idx-0",
        "Must have port for Service reference"
    ));
    // v1alpha2 TCPRoute is not served by the standard channel any more.
    assert!(has(
        &findings,
        "4-virtualservice-tcp.yaml",
        "TCPRoute/bookinfo-mongo-idx-0",
        "channel/experimental-only"
    ));
}

#[test]
fn text_report_names_the_rules_with_file_and_line() {
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["check", "--verbose"])
        .arg(corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "pkg/i2gw/providers/istio/fixtures/output/1-gateway.yaml:8:3: error[validate/cel] Gateway test/my-gateway: Listener name must be unique within the Gateway (spec.listeners)"
    ), "{text}");
    assert!(text.contains(
        "pkg/i2gw/providers/istio/fixtures/output/2-virtualservice-http.yaml:11:5: error[validate/cel] HTTPRoute test/reviews-route-v2: RequestRedirect filter must not be used together with backendRefs (spec.rules[0])"
    ), "{text}");
}

/// `check --format <format>` on `dir`: exit code and stdout.
fn check_output(dir: &Path, format: &str) -> (i32, String) {
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["check", "--format", format])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

const LISTENER_RULE: &str = "Listener name must be unique within the Gateway";

#[test]
fn sarif_report_has_the_findings_as_results_with_their_rule() {
    // Info findings too, so that every finding of the JSON report has its result.
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["check", "--format", "sarif", "--min-severity", "info"])
        .arg(corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let log: Value = serde_json::from_str(&stdout).unwrap();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    let listener = results
        .iter()
        .find(|r| r["properties"]["rule"] == LISTENER_RULE)
        .unwrap_or_else(|| panic!("no result for {LISTENER_RULE}: {stdout}"));
    assert_eq!(listener["ruleId"], "validate/cel");
    assert_eq!(listener["level"], "error");
    assert_eq!(
        listener["message"]["text"],
        format!("Gateway test/my-gateway: {LISTENER_RULE} (spec.listeners)")
    );
    let loc = &listener["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        format!("{ISTIO_OUTPUT}1-gateway.yaml")
    );
    // At the field: `listeners:` on line 8, column 3, through the end of its value.
    assert_eq!(loc["region"]["startLine"], 8);
    assert_eq!(loc["region"]["startColumn"], 3);
    assert_eq!(loc["region"]["endLine"], 61);
    let index = listener["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(run["tool"]["driver"]["rules"][index]["id"], "validate/cel");
    // Every finding of the JSON report is a result (findings carry `properties.rule`).
    let report: Value = serde_json::from_str(&check_output(&corpus(), "json").1).unwrap();
    let findings = findings_of(&report).len();
    let finding_results = results
        .iter()
        .filter(|r| r["properties"]["rule"].is_string())
        .count();
    assert!(findings > 0);
    assert_eq!(finding_results, findings);
}

#[test]
fn github_annotations_include_the_findings_within_the_cap() {
    // The whole directory: the findings are ranked with the notes and the ones past
    // GitHub's 10 errors are counted in the final notice.
    let (code, stdout) = check_output(&corpus(), "github");
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&check_output(&corpus(), "json").1).unwrap();
    let errors = report["summary"]["notes"]["error"].as_u64().unwrap();
    let finding_errors = findings_of(&report)
        .into_iter()
        .filter(|f| f["severity"] == "error")
        .count() as u64;
    assert!(finding_errors > 0);
    let annotations: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("::endgroup::"))
        .skip(1)
        .collect();
    assert_eq!(
        annotations
            .iter()
            .filter(|l| l.starts_with("::error "))
            .count(),
        10
    );
    let last = annotations.last().unwrap();
    assert!(
        last.contains(&format!("{} errors,", errors - 10)),
        "the omitted errors count the findings too ({finding_errors} of {errors}): {last}"
    );
    // The peer's Istio outputs alone: the Gateway's findings are among the first 10 errors.
    let (code, stdout) = check_output(&corpus().join(ISTIO_OUTPUT), "github");
    assert_eq!(code, 1);
    assert!(
        stdout.contains(&format!(
            "\n::error file=1-gateway.yaml,line=8,endLine=61,title=gateway-migrate validate/cel::Gateway test/my-gateway: {LISTENER_RULE} (spec.listeners)\n"
        )),
        "{stdout}"
    );
}

#[test]
fn markdown_report_lists_the_findings_and_fits_the_limit() {
    let limit = gateway_migrate::report::markdown::GITHUB_BODY_LIMIT;
    let (code, md) = check_output(&corpus(), "markdown");
    assert_eq!(code, 1);
    assert!(md.chars().count() <= limit);
    assert!(
        md.contains(&format!(
            "<details><summary>error <code>validate/cel</code> — {LISTENER_RULE}: 1</summary>"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            "- `{ISTIO_OUTPUT}1-gateway.yaml:8` Gateway test/my-gateway: `{LISTENER_RULE}` (`spec.listeners`)"
        )),
        "{md}"
    );
    // The whole corpus holds far more than fits: the report is cut, never over the limit,
    // and the pointer names `check` (the findings are not in `plan`'s report).
    let whole = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let (_, md) = check_output(&whole, "markdown");
    let len = md.chars().count();
    assert!(len <= limit, "{len}");
    assert!(md.contains("| Findings in existing Gateway API objects |"));
    assert!(md.contains("run `gateway-migrate check --verbose` locally for the full report"));
    assert!(md.contains("### Next steps for the reviewer"));
}

#[test]
fn check_passes_a_valid_hand_written_repository() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("gw.yaml"),
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: gw\n  namespace: web\nspec:\n  gatewayClassName: istio\n  listeners:\n  - name: http\n    port: 80\n    protocol: HTTP\n",
    )
    .unwrap();
    Command::cargo_bin("gateway-migrate")
        .unwrap()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(0);
}

#[test]
fn experimental_fields_fail_on_standard_and_pass_on_experimental() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("route.yaml"),
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n  namespace: web\nspec:\n  rules:\n  - retry:\n      attempts: 2\n    backendRefs:\n    - name: svc\n      port: 80\n",
    )
    .unwrap();
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = findings_of(&report)[0];
    assert_eq!(f["code"], "validate/experimental-only");
    assert_eq!(f["field"], "spec.rules[0].retry");
    // `retry:` on line 8, column 5.
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(8), Some(5))
    );
    Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["check", "--channel", "experimental"])
        .arg(dir.path())
        .assert()
        .code(0);
}

/// `check` reads the TLS Secrets' contents (fixtures/repo/status-certificates) and reports
/// what is wrong with them, but no part of a Secret's data reaches any report format.
#[test]
fn secret_contents_never_reach_a_report() {
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/repo/status-certificates/tree");
    let secrets = std::fs::read_to_string(tree.join("platform/secrets.yaml")).unwrap();
    // Every base64 value of the Secrets, and pieces of it long enough to be recognised.
    let values: Vec<&str> = secrets
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("tls.crt: ")
                .or(l.trim().strip_prefix("tls.key: "))
        })
        .collect();
    assert!(values.len() >= 8, "{values:?}");
    for format in ["json", "text", "sarif", "markdown", "github"] {
        let out = Command::cargo_bin("gateway-migrate")
            .unwrap()
            .args(["check", "--no-render", "--verbose", "--format", format])
            .arg(&tree)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains("does not match its tls.crt"),
            "{format}: {text}"
        );
        assert!(!text.contains("BEGIN"), "{format}");
        for v in &values {
            for piece in v
                .as_bytes()
                .chunks(24)
                .map(|c| String::from_utf8_lossy(c).to_string())
            {
                assert!(!text.contains(&piece), "{format} prints Secret data");
            }
        }
    }
}
