//! `--ingress-mode` chooses the Ingress mode on the command line (overriding the config file).

use assert_cmd::Command;

const INPUT: &str = r#"apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: existing
spec:
  gatewayClassName: istio
  listeners:
  - name: web
    hostname: web.example.com
    port: 80
    protocol: HTTP
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  ingressClassName: nginx
  rules:
  - host: web.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
"#;

fn convert(mode: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.yaml");
    std::fs::write(&file, INPUT).unwrap();
    let out = Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["convert", "--ingress-mode", mode, "-q"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{out:?}"
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn ingress_mode_flag_selects_migrate_or_mount() {
    let migrate = convert("migrate");
    assert!(
        migrate.contains("kind: Gateway\nmetadata:\n  name: nginx"),
        "{migrate}"
    );
    assert!(
        migrate.contains("sectionName: web-example-com-http"),
        "{migrate}"
    );

    let mount = convert("mount");
    assert!(!mount.contains("kind: Gateway\n"), "{mount}");
    assert!(
        mount.contains("- name: existing\n    sectionName: web\n"),
        "{mount}"
    );
}
