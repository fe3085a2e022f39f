//! Contract of the Istio translation: one result per Istio object in index order, kustomize
//! patches skipped, delegates reported as flattened, generated objects in the source's
//! effective namespace.

use gateway_migrate::config::Config;
use gateway_migrate::pipeline::{self, Outcome};

fn run(files: &[(&str, &str)]) -> Outcome {
    let inputs: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
        .collect();
    pipeline::run(pipeline::Request::new(
        pipeline::Input::Streams(inputs),
        Config::default(),
    ))
    .expect("run")
}

const KUSTOMIZATION: &str = "
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: shop
resources: [routes.yaml]
patches:
- path: patch.yaml
";

const ROUTES: &str = "
apiVersion: networking.istio.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  servers:
  - port: {number: 80, name: http, protocol: HTTP}
    hosts: ['*']
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: root}
spec:
  hosts: [shop.example.com]
  gateways: [gw]
  http:
  - match: [{uri: {prefix: /cart}}]
    delegate: {name: cart}
  - route: [{destination: {host: web, port: {number: 80}}}]
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: cart}
spec:
  http:
  - route: [{destination: {host: cart, port: {number: 80}}}]
---
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: web}
spec:
  host: web
  subsets: [{name: v1, labels: {version: v1}}]
";

const PATCH: &str = "
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: root}
spec:
  hosts: [other.example.com]
";

#[test]
fn one_result_per_istio_object_with_patches_skipped_and_delegates_flattened() {
    let outcome = run(&[
        ("app/kustomization.yaml", KUSTOMIZATION),
        ("app/routes.yaml", ROUTES),
        ("app/patch.yaml", PATCH),
    ]);
    let (scan, results) = (&outcome.scan, &outcome.results);
    let objects: Vec<(String, String)> = results
        .iter()
        .map(|r| {
            let o = &scan.index.objects[r.object];
            (o.source.file.clone(), o.meta.name.clone())
        })
        .collect();
    assert_eq!(
        objects,
        vec![
            ("app/patch.yaml".to_string(), "root".to_string()),
            ("app/routes.yaml".to_string(), "gw".to_string()),
            ("app/routes.yaml".to_string(), "root".to_string()),
            ("app/routes.yaml".to_string(), "cart".to_string()),
            ("app/routes.yaml".to_string(), "web".to_string()),
        ]
    );
    assert!(results[0].skipped.is_some(), "patch file is skipped");
    assert!(results[0].generated.is_empty());

    let root = &results[2];
    let route = root
        .generated
        .iter()
        .find(|g| g.kind() == "HTTPRoute")
        .expect("root route");
    assert_eq!(route.namespace(), "shop", "kustomization namespace applies");
    let json = route.to_json();
    let rules = json["spec"]["rules"].as_array().unwrap();
    assert_eq!(
        rules.len(),
        2,
        "delegate rule inlined before the default rule"
    );
    assert_eq!(rules[0]["backendRefs"][0]["name"], "cart");
    assert_eq!(rules[0]["matches"][0]["path"]["value"], "/cart");

    let delegate = &results[3];
    assert!(
        delegate.generated.is_empty(),
        "delegate has no route of its own"
    );
    assert!(
        outcome
            .diagnostics_of(delegate.object)
            .any(|n| n.code.id() == "istio/delegate-flattened" && n.message.contains("shop/root"))
    );

    let dr = &results[4];
    assert!(
        outcome
            .diagnostics_of(dr.object)
            .any(|n| n.code.id() == "istio/subset" && n.message.contains("shop/web-v1"))
    );
}
