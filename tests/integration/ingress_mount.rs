//! Acceptance 4: mount mode over a small repository with an exact-host HTTPS Gateway, a
//! wildcard Gateway and a catch-all Gateway in another namespace admitting namespaces by
//! label: every Ingress host lands on the right listener, and a host refused by
//! `allowedRoutes` is reported by name.

use gateway_migrate::config::{Config, IngressMode};
use gateway_migrate::gwapi::Generated;
use gateway_migrate::pipeline;

use crate::common::write;

const GATEWAYS: &str = r#"
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
  labels:
    gateway-access: "true"
---
apiVersion: v1
kind: Namespace
metadata:
  name: team-b
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: shop
  namespace: team-a
spec:
  gatewayClassName: istio
  listeners:
  - name: shop-http
    hostname: shop.example.com
    port: 80
    protocol: HTTP
  - name: shop-https
    hostname: shop.example.com
    port: 443
    protocol: HTTPS
    tls:
      certificateRefs:
      - name: shop-tls
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: apps
  namespace: team-a
spec:
  gatewayClassName: istio
  listeners:
  - name: apps-wildcard
    hostname: "*.apps.example.com"
    port: 80
    protocol: HTTP
    allowedRoutes:
      namespaces:
        from: All
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: shared
  namespace: infra
spec:
  gatewayClassName: istio
  listeners:
  - name: catch-all
    port: 80
    protocol: HTTP
    allowedRoutes:
      namespaces:
        from: Selector
        selector:
          matchLabels:
            gateway-access: "true"
"#;

fn ingress(name: &str, ns: &str, hosts: &[&str]) -> String {
    let mut rules = String::new();
    for h in hosts {
        rules.push_str(&format!(
            "  - host: {h}\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: web\n            port:\n              number: 80\n"
        ));
    }
    format!(
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  ingressClassName: nginx\n  rules:\n{rules}"
    )
}

/// `(route name, hostnames, parentRefs as gateway-ns/gateway/section)` of every HTTPRoute.
fn routes(
    results: &[gateway_migrate::translate::SourceResult],
) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    for r in results {
        for g in &r.generated {
            if let Generated::HttpRoute(route) = g {
                let parents = route
                    .spec
                    .parent_refs
                    .iter()
                    .map(|p| {
                        format!(
                            "{}/{}/{}",
                            p.namespace
                                .clone()
                                .unwrap_or_else(|| g.namespace().to_string()),
                            p.name,
                            p.section_name.clone().unwrap_or_default()
                        )
                    })
                    .collect();
                out.push((g.name().to_string(), route.spec.hostnames.clone(), parents));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn mount_mode_attaches_each_host_to_the_right_listener_and_reports_refusals() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    write(root, "infra/gateways.yaml", GATEWAYS);
    write(
        root,
        "apps/team-a/shop.yaml",
        &ingress(
            "shop",
            "team-a",
            &[
                "shop.example.com",
                "blog.apps.example.com",
                "other.example.com",
            ],
        ),
    );
    write(
        root,
        "apps/team-b/tools.yaml",
        &ingress(
            "tools",
            "team-b",
            &["wiki.apps.example.com", "tools.example.com"],
        ),
    );
    write(root, ".gateway-migrate.yaml", "ingressMode: mount\n");
    let config = Config::load(root, None).unwrap();
    assert_eq!(config.ingress_mode, IngressMode::Mount);
    let mut request =
        pipeline::Request::new(pipeline::Input::Repository(root.to_path_buf()), config);
    request.jobs = 1;
    let outcome = pipeline::run(request).unwrap();
    let results = &outcome.results;

    // No Gateway is created or changed in mount mode.
    assert!(
        results
            .iter()
            .flat_map(|r| &r.generated)
            .all(|g| !matches!(g, Generated::Gateway(_))),
        "mount mode generated a Gateway"
    );

    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        routes(results),
        vec![
            // Wildcard listener, from another namespace (All).
            (
                "shop-blog-apps-example-com".to_string(),
                s(&["blog.apps.example.com"]),
                s(&["team-a/apps/apps-wildcard"])
            ),
            // No exact or wildcard listener: the catch-all admits team-a by its label.
            (
                "shop-other-example-com".to_string(),
                s(&["other.example.com"]),
                s(&["infra/shared/catch-all"])
            ),
            // Exact hostname: both the HTTP and the HTTPS listener, with sectionName.
            (
                "shop-shop-example-com".to_string(),
                s(&["shop.example.com"]),
                s(&["team-a/shop/shop-http", "team-a/shop/shop-https"])
            ),
            (
                "tools-wiki-apps-example-com".to_string(),
                s(&["wiki.apps.example.com"]),
                s(&["team-a/apps/apps-wildcard"])
            ),
        ]
    );

    // tools.example.com only matches the catch-all, whose Selector refuses team-b.
    let refusals: Vec<&str> = outcome
        .diagnostics
        .iter()
        .filter(|n| n.code.id() == "ingress/mount-no-gateway")
        .map(|n| n.message.as_str())
        .collect();
    assert_eq!(refusals.len(), 1, "{refusals:?}");
    assert!(
        refusals[0].contains("host tools.example.com"),
        "{}",
        refusals[0]
    );
    assert!(
        refusals[0].contains("infra/shared listener catch-all: allowedRoutes.namespaces.from Selector does not admit namespace team-b"),
        "{}",
        refusals[0]
    );
}
