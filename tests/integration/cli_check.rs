//! The binary's `plan`, `apply` and `check` on small repositories: exit codes, formats, and
//! staleness of generated files found by their header.

use assert_cmd::Command;

use crate::common::write;

fn bin() -> Command {
    Command::cargo_bin("gateway-migrate").unwrap()
}

const SERVICE: &str =
    "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]\n";

#[test]
fn a_tree_without_sources_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "app/svc.yaml", SERVICE);
    bin().arg("plan").arg(dir.path()).assert().code(0);
    bin().arg("apply").arg(dir.path()).assert().code(0);
    bin().arg("check").arg(dir.path()).assert().code(0);
    assert_eq!(
        std::fs::read_dir(dir.path().join("app")).unwrap().count(),
        1,
        "nothing written"
    );
}

/// A generated file whose source is gone: `check` fails in every format, `--fix` does not
/// delete it (the reviewer does), `plan` does not count it as a change.
#[test]
fn an_orphaned_generated_file_fails_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "app/svc.yaml", SERVICE);
    let header = gateway_migrate::header::render("app/routes.yaml", b"gone");
    write(
        root,
        "app/routes.gateway-api.yaml",
        &format!(
            "{header}---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\nspec: {{}}\n"
        ),
    );
    let out = bin().arg("check").arg(root).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("app/routes.gateway-api.yaml:1: error[check/orphaned]"),
        "{stdout}"
    );

    let out = bin()
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["diagnostics"][0]["code"], "check/orphaned");
    assert_eq!(json["summary"]["notes"]["error"], 1);

    let out = bin()
        .args(["check", "--format", "sarif"])
        .arg(root)
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "check/orphaned");

    let out = bin()
        .args(["check", "--format", "github"])
        .arg(root)
        .output()
        .unwrap();
    let github = String::from_utf8(out.stdout).unwrap();
    assert!(
        github.contains(
            "::error file=app/routes.gateway-api.yaml,line=1,title=gateway-migrate check/orphaned::"
        ),
        "{github}"
    );

    let out = bin()
        .args(["check", "--format", "markdown"])
        .arg(root)
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("`check/orphaned`"), "{md}");
    assert!(
        md.trim_end().ends_with("changes nothing in the cluster."),
        "{md}"
    );

    bin().args(["check", "--fix"]).arg(root).assert().code(1);
    assert!(root.join("app/routes.gateway-api.yaml").is_file());
    bin().arg("plan").arg(root).assert().code(0);
}

#[test]
fn generated_files_are_not_translated_again() {
    // A generated file holding an Ingress-looking object must not feed the translation.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "app/svc.yaml", SERVICE);
    let header = gateway_migrate::header::render("app/svc.yaml", SERVICE.as_bytes());
    write(
        root,
        "app/svc.gateway-api.yaml",
        &format!(
            "{header}---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec: {{}}\n"
        ),
    );
    let out = bin()
        .args(["plan", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["summary"]["objects"]
            .get("networking.k8s.io/Ingress")
            .is_none(),
        "{json}"
    );
    assert_eq!(json["summary"]["files_scanned"], 2);
}

#[test]
fn unknown_format_is_a_usage_error() {
    bin()
        .args(["plan", "--format", "yaml", "."])
        .assert()
        .code(2);
}

/// No progress bar when stderr is not a terminal, even on a run long enough to show one.
#[test]
fn no_progress_bar_without_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..2_100 {
        write(dir.path(), &format!("d{}/f{i}.yaml", i % 20), SERVICE);
    }
    let out = bin().arg("plan").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_missing_path_or_a_file_as_path_is_a_usage_error_that_says_what_to_do() {
    let out = bin().args(["plan", "/nonexistent/repo"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/repo does not exist"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vs.yaml");
    std::fs::write(&file, "kind: VirtualService\n").unwrap();
    let out = bin().arg("check").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a file") && err.contains("gateway-migrate convert"),
        "{err}"
    );
}
