//! How the ingress-nginx controllers' configuration reaches a run from outside the
//! repository (issue #30): without any, one `controller-config-assumed` warning per class and
//! the assumed values in the JSON report; with `--controller-config`, a `kubectl get -o yaml`
//! dump of the controller's ConfigMap and Deployment replaces the assumption.

use assert_cmd::Command;
use serde_json::Value;

/// Two classes: `nginx` (two Ingresses, one with TLS and `ssl-passthrough`) and `internal`.
const REPO: &str = r#"apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
spec:
  controller: k8s.io/ingress-nginx
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: internal
spec:
  controller: k8s.io/internal-nginx
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
  namespace: shop
spec:
  ingressClassName: nginx
  tls:
  - hosts: [shop.example.com]
    secretName: shop-tls
  rules:
  - host: shop.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service: {name: web, port: {number: 80}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: vault
  namespace: shop
  annotations:
    nginx.ingress.kubernetes.io/ssl-passthrough: "true"
spec:
  ingressClassName: nginx
  tls:
  - hosts: [vault.example.com]
    secretName: vault-tls
  rules:
  - host: vault.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service: {name: vault, port: {number: 443}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: admin
  namespace: ops
spec:
  ingressClassName: internal
  rules:
  - host: admin.internal.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service: {name: admin, port: {number: 80}}
"#;

/// `kubectl get cm,deploy -n ingress-nginx -o yaml` of the `nginx` class's controller: HSTS
/// off, no `--enable-ssl-passthrough`.
const DUMP: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: ingress-nginx-controller
    namespace: ingress-nginx
  data:
    hsts: "false"
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: ingress-nginx-controller
    namespace: ingress-nginx
  spec:
    template:
      spec:
        containers:
        - name: controller
          image: registry.k8s.io/ingress-nginx/controller:v1.15.1
          args:
          - /nginx-ingress-controller
          - --controller-class=k8s.io/ingress-nginx
          - --configmap=$(POD_NAMESPACE)/ingress-nginx-controller
"#;

fn plan(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    run(dir, &["--format", "json"], extra)
}

/// `plan --diff`'s text output.
fn diff(dir: &std::path::Path, extra: &[&str]) -> String {
    let out = run(dir, &["--format", "text", "--diff"], extra);
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn run(dir: &std::path::Path, format: &[&str], extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("gateway-migrate")
        .unwrap()
        .current_dir(dir)
        .args(["plan", ".", "--no-render", "--no-equivalence"])
        .args(format)
        .args(extra)
        .output()
        .unwrap()
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn assumed_warnings(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "ingress-nginx/controller-config-assumed")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ingresses.yaml"), REPO).unwrap();
    dir
}

#[test]
fn without_configuration_each_class_gets_one_warning_and_the_report_lists_the_defaults() {
    let dir = repo();
    let report = json(&plan(dir.path(), &[]));
    let warnings = assumed_warnings(&report);
    // Two classes, three Ingresses: one warning per class.
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("IngressClass nginx") && w.contains("hsts=true")),
        "{warnings:#?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("IngressClass internal") && w.contains("(k8s.io/internal-nginx)")),
        "{warnings:#?}"
    );
    let controllers = report["controllers"].as_array().unwrap();
    assert_eq!(controllers.len(), 2, "{controllers:#?}");
    for c in controllers {
        assert_eq!(c["source"]["from"], "assumed", "{c:#}");
        assert_eq!(c["assumed"]["hsts"], "true", "{c:#}");
        assert_eq!(c["assumed"]["ssl-redirect"], "true", "{c:#}");
        assert_eq!(c["assumed"]["proxy-body-size"], "1m", "{c:#}");
        // The annotations the Ingresses use are taken to have taken effect.
        assert_eq!(c["assumed"]["--enable-ssl-passthrough"], "true", "{c:#}");
        assert_eq!(c["assumed"]["annotations-risk-level"], "Critical", "{c:#}");
    }
}

#[test]
fn a_kubectl_dump_given_with_controller_config_replaces_the_assumption() {
    let dir = repo();
    // Outside the repository: inside, the scan would read it as the installed controller.
    let outside = tempfile::tempdir().unwrap();
    let dump = outside.path().join("dump.yaml");
    std::fs::write(&dump, DUMP).unwrap();
    let given = format!("nginx={}", dump.display());
    // Without the dump: HSTS on the HTTPS route, a TLSRoute for vault.
    let before = diff(dir.path(), &[]);
    assert!(before.contains("Strict-Transport-Security"), "{before}");
    assert!(before.contains("kind: TLSRoute"), "{before}");

    let out = plan(dir.path(), &["--controller-config", given.as_str()]);
    let report = json(&out);
    let warnings = assumed_warnings(&report);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(
        warnings[0].contains("IngressClass internal"),
        "{warnings:#?}"
    );
    let nginx = report["controllers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["class"] == "nginx")
        .unwrap()
        .clone();
    assert_eq!(nginx["source"]["from"], "configuration", "{nginx:#}");
    assert_eq!(nginx["configMap"]["hsts"], "false", "{nginx:#}");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(
        codes.contains(&"ingress-nginx/ssl-passthrough-disabled"),
        "{codes:?}"
    );
    let after = diff(dir.path(), &["--controller-config", given.as_str()]);
    assert!(!after.contains("Strict-Transport-Security"), "{after}");
    assert!(!after.contains("kind: TLSRoute"), "{after}");
}

#[test]
fn a_missing_or_wrong_controller_config_file_is_a_usage_error() {
    let dir = repo();
    let out = plan(dir.path(), &["--controller-config", "absent.yaml"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("absent.yaml"), "{err}");
    std::fs::write(
        dir.path().join("secret.yaml"),
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\n",
    )
    .unwrap();
    let out = plan(dir.path(), &["--controller-config", "secret.yaml"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("secret.yaml") && err.contains("no ConfigMap"),
        "{err}"
    );
}
