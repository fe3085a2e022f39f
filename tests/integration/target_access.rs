//! Issue #31, "never wider": every access control a source has, for every target, is either
//! carried by a written policy (the behaviour models of both sides then give each probe the
//! same answer and the same checks) or its routes are not published open (the new side does
//! not forward, and `target/access-fails-closed` says why). Probes come from a client outside
//! the allow-lists and inside the deny-lists, and from an unknown client.
//!
//! The Istio side's model does not read AuthorizationPolicies: for the Istio source, the
//! client in the blocked range must be refused or closed out on the new side.
//!
//! Facts: ingress-nginx `nginx.tmpl` (deny, allow, `deny all`, then authentication),
//! `internal/ingress/annotations/{ipallowlist,ipdenylist,auth,authreq,authtls}`; Envoy Gateway
//! v1.9.0 `api/v1alpha1/securitypolicy_types.go`; istio/api `authorization.proto`.

use gateway_migrate::config::{Config, Target};
use gateway_migrate::diagnostic::Code;
use gateway_migrate::equivalence::Probe;
use gateway_migrate::pipeline::{self, Input, Request};
use gateway_migrate::semantics::Scheme;

const CONTROLLER: &str = "
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingress-nginx-controller, namespace: ingress-nginx}
spec:
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: controller
        image: registry.k8s.io/ingress-nginx/controller:v1.15.1
        args: [/nginx-ingress-controller, --controller-class=k8s.io/ingress-nginx,
               --configmap=$(POD_NAMESPACE)/ingress-nginx-controller]
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
---
";

fn ingress(annotations: &str) -> String {
    format!(
        "apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: app
  namespace: web
  annotations:
{annotations}
spec:
  ingressClassName: nginx
  rules:
  - host: app.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service: {{name: app, port: {{number: 80}}}}
"
    )
}

fn configmap(data: &str) -> String {
    format!(
        "{CONTROLLER}apiVersion: v1
kind: ConfigMap
metadata: {{name: ingress-nginx-controller, namespace: ingress-nginx}}
data:
{data}
---
{}",
        ingress("    example.com/none: \"\"")
    )
}

/// Every access control ingress-nginx has, one source each.
fn cases() -> Vec<(&'static str, String)> {
    let a = |lines: &str| ingress(lines);
    vec![
        (
            "allowlist",
            a("    nginx.ingress.kubernetes.io/allowlist-source-range: \"10.0.0.0/8\""),
        ),
        (
            "whitelist alias",
            a("    nginx.ingress.kubernetes.io/whitelist-source-range: \"10.0.0.0/8, 192.0.2.1\""),
        ),
        (
            "denylist",
            a("    nginx.ingress.kubernetes.io/denylist-source-range: \"198.51.100.0/24\""),
        ),
        (
            "both lists",
            a(
                "    nginx.ingress.kubernetes.io/allowlist-source-range: \"198.51.0.0/16\"\n    nginx.ingress.kubernetes.io/denylist-source-range: \"198.51.100.0/24\"",
            ),
        ),
        (
            "basic auth",
            a(
                "    nginx.ingress.kubernetes.io/auth-type: basic\n    nginx.ingress.kubernetes.io/auth-secret: users",
            ),
        ),
        (
            "digest auth",
            a(
                "    nginx.ingress.kubernetes.io/auth-type: digest\n    nginx.ingress.kubernetes.io/auth-secret: users",
            ),
        ),
        (
            "basic auth, secret elsewhere",
            a(
                "    nginx.ingress.kubernetes.io/auth-type: basic\n    nginx.ingress.kubernetes.io/auth-secret: other/users",
            ),
        ),
        (
            "external auth in cluster",
            a(
                "    nginx.ingress.kubernetes.io/auth-url: \"http://auth.sec.svc.cluster.local:8080/check\"",
            ),
        ),
        (
            "external auth outside",
            a("    nginx.ingress.kubernetes.io/auth-url: \"https://auth.example.com/check\""),
        ),
        (
            "client certificate",
            a("    nginx.ingress.kubernetes.io/auth-tls-secret: web/ca"),
        ),
        (
            "allowlist and basic auth",
            a(
                "    nginx.ingress.kubernetes.io/allowlist-source-range: \"10.0.0.0/8\"\n    nginx.ingress.kubernetes.io/auth-type: basic\n    nginx.ingress.kubernetes.io/auth-secret: users",
            ),
        ),
        (
            "controller allow-list",
            configmap("  whitelist-source-range: \"10.0.0.0/8\""),
        ),
        (
            "controller deny-list",
            configmap("  denylist-source-range: \"198.51.100.0/24\""),
        ),
        (
            "controller block-cidrs",
            configmap("  block-cidrs: \"198.51.100.0/24\""),
        ),
        (
            "controller global auth",
            configmap("  global-auth-url: \"http://auth.sec.svc.cluster.local:8080/check\""),
        ),
        (
            "v4-mapped deny-list",
            a("    nginx.ingress.kubernetes.io/denylist-source-range: \"::ffff:198.51.100.0/120\""),
        ),
        ("istio workload policy", ISTIO_POLICY.to_string()),
    ]
}

/// An Istio gateway whose pods an AuthorizationPolicy guards (istio/api authorization.proto:
/// `selector` picks the pods by label), in front of `app.example.com`.
const ISTIO_POLICY: &str = "
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: public, namespace: istio-system}
spec:
  selector: {istio: ingressgateway}
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: [app.example.com]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: block, namespace: istio-system}
spec:
  selector:
    matchLabels: {istio: ingressgateway}
  action: DENY
  rules:
  - from:
    - source: {remoteIpBlocks: [\"198.51.100.0/24\"]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: app, namespace: web}
spec:
  hosts: [app.example.com]
  gateways: [istio-system/public]
  http:
  - route:
    - destination: {host: app.web.svc.cluster.local, port: {number: 80}}
";

fn probe(scheme: Scheme, client: Option<&str>) -> Probe {
    let mut p = Probe::new(
        scheme,
        "app.example.com",
        u32::from(scheme.default_port()),
        "/x",
    );
    p.client = client.map(|c| c.parse().unwrap());
    p
}

#[test]
fn no_access_control_is_published_wider_on_any_target() {
    let mut checked = 0;
    for target in [Target::Istio, Target::EnvoyGateway, Target::Generic] {
        for (name, yaml) in cases() {
            // Each target's own GatewayClass: a Gateway of another implementation's class
            // would make every policy fail closed.
            let config = Config {
                target,
                gateway_class_name: if target == Target::EnvoyGateway {
                    "eg".into()
                } else {
                    "istio".into()
                },
                ..Config::default()
            };
            let request = Request::new(
                Input::Streams(vec![("input.yaml".into(), yaml.into_bytes())]),
                config.clone(),
            );
            let outcome = pipeline::run(request).expect("a stream run");
            let closed = outcome
                .diagnostics
                .iter()
                .any(|d| d.code == Code::TargetAccessFailsClosed);
            for client in [
                None,
                Some("203.0.113.50"),
                Some("198.51.100.7"),
                Some("10.1.2.3"),
            ] {
                let p = probe(Scheme::Http, client);
                let t = gateway_migrate::equivalence::trace::trace(
                    &outcome.scan,
                    &outcome.results,
                    &config,
                    &p,
                    None,
                );
                let new = t
                    .new
                    .as_ref()
                    .unwrap_or_else(|| panic!("{target:?} {name}: no new side"));
                let forwards = new.behaviour["kind"] == "backends";
                // Forwarding is only right when both models agree on the answer and on
                // every check in front of it; or, where the implementation asks for
                // credentials before it checks the address (Envoy Gateway's filter order,
                // `target/access-order`), when the address check the old side refused this
                // client with is still in front of it.
                let checks: Vec<&str> = new.behaviour["access"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str())
                    .collect();
                let old_refused = t
                    .old
                    .as_ref()
                    .is_some_and(|o| o.behaviour["kind"] != "backends");
                let address_kept = checks.iter().any(|c| c.starts_with("clients "))
                    && outcome
                        .diagnostics
                        .iter()
                        .any(|d| d.code == Code::TargetAccessOrder);
                assert!(
                    !forwards || t.differences.is_empty() || (old_refused && address_kept),
                    "{target:?} {name} {p}: the new side forwards with {:?} and checks {checks:?}",
                    t.differences
                );
                if matches!(name, "istio workload policy" | "v4-mapped deny-list")
                    && client == Some("198.51.100.7")
                {
                    assert!(
                        !forwards,
                        "{target:?} {name} {p}: the blocked client gets through: {:?}",
                        new.behaviour
                    );
                }
                if !forwards
                    && t.old
                        .as_ref()
                        .is_some_and(|o| o.behaviour["kind"] == "backends")
                {
                    assert!(
                        closed || new.behaviour["kind"] == "denied",
                        "{target:?} {name} {p}: the route is closed without an error: {:?}",
                        new.behaviour
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * cases().len() * 4);
}
