//! Ingresses in kustomize patch files are partial objects: they are reported as skipped,
//! never translated on their own.

use gateway_migrate::config::Config;
use gateway_migrate::pipeline;

#[test]
fn ingress_patches_are_skipped_with_a_reason() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    std::fs::write(
        root.join("kustomization.yaml"),
        "resources:\n- ingress.yaml\npatches:\n- path: ingress-patch.yaml\n",
    )
    .unwrap();
    let ingress = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: web.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: web\n            port:\n              number: 80\n";
    std::fs::write(root.join("ingress.yaml"), ingress).unwrap();
    std::fs::write(
        root.join("ingress-patch.yaml"),
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n  annotations:\n    nginx.ingress.kubernetes.io/ssl-redirect: \"false\"\n",
    )
    .unwrap();
    let config = Config::default();
    let mut request =
        pipeline::Request::new(pipeline::Input::Repository(root.to_path_buf()), config);
    request.jobs = 1;
    let outcome = pipeline::run(request).unwrap();
    let (scan, results) = (&outcome.scan, &outcome.results);
    assert_eq!(results.len(), 2);
    for r in results {
        let file = &scan.index.objects[r.object].source.file;
        if file == "ingress-patch.yaml" {
            assert!(r.skipped.as_deref().is_some_and(|s| s.contains("patch")));
            assert!(r.generated.is_empty());
        } else {
            assert_eq!(file, "ingress.yaml");
            assert!(r.skipped.is_none());
            assert!(r.generated.iter().any(|g| g.kind() == "HTTPRoute"));
        }
    }
}
