//! Planner and writer over small temporary repositories, with hand-made translation results
//! (the translators are separate; these tests pin down placement, headers, kustomize edits,
//! in-place replacement, idempotence and staleness on their own).

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::gwapi::{
    self, BackendRef, Generated, HttpRouteRule, HttpRouteSpec, Metadata, Object, ParentReference,
};
use gateway_migrate::plan::{self, EditKind, Layout, StaleReason};
use gateway_migrate::scan::{self, Scan};
use gateway_migrate::translate::SourceResult;

use crate::common::write;

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

fn route(name: &str, ns: &str, parent: ParentReference) -> Generated {
    Generated::HttpRoute(Object::new(
        gwapi::V1,
        "HTTPRoute",
        Metadata::new(name, ns),
        HttpRouteSpec {
            parent_refs: vec![parent],
            hostnames: vec!["web.example.com".into()],
            rules: vec![HttpRouteRule {
                backend_refs: vec![BackendRef {
                    name: "web".into(),
                    port: Some(80),
                    ..Default::default()
                }],
                ..Default::default()
            }],
        },
    ))
}

fn gateway_parent() -> ParentReference {
    ParentReference {
        name: "edge".into(),
        namespace: Some("istio-ingress".into()),
        ..Default::default()
    }
}

fn service_parent() -> ParentReference {
    ParentReference {
        group: Some(String::new()),
        kind: Some("Service".into()),
        name: "web".into(),
        ..Default::default()
    }
}

/// The position of the object `kind`/`name` in the index.
fn object(scan: &Scan, kind: &str, name: &str) -> usize {
    scan.index
        .objects
        .iter()
        .position(|o| o.kind == kind && o.meta.name == name)
        .unwrap_or_else(|| panic!("{kind} {name} not scanned"))
}

/// Stands in for the translators: one edge route per VirtualService (plus a mesh route for
/// the one named `mesh`), in the VirtualService's effective namespace.
fn inject(scan: &Scan) -> Vec<SourceResult> {
    let mut results = Vec::new();
    for (i, o) in scan.index.objects.iter().enumerate() {
        if o.kind != "VirtualService" {
            continue;
        }
        let mut r = SourceResult::new(i);
        let parent = if o.meta.name == "mesh" {
            service_parent()
        } else {
            gateway_parent()
        };
        r.generated.push(route(&o.meta.name, &o.namespace, parent));
        results.push(r);
    }
    results
}

const KUSTOMIZATION: &str = "\
# The web app.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: web   # every object lands here

resources:
  - deploy.yaml # the workload
  - routing.yaml

  # keep this comment
patches:
  - path: patch.yaml
";

const ROUTING: &str = "\
# Routing for web.
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: web
spec:
  hosts: [web.example.com]
  gateways: [istio-ingress/edge]
  http:
  - route:
    - destination: {host: web, port: {number: 80}}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: mesh
spec:
  hosts: [web]
  http:
  - route:
    - destination: {host: web}
";

const DEPLOY: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports: [{port: 80}]
";

const PATCH: &str = "\
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: web
spec:
  hosts: [web.example.com, www.example.com]
";

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "apps/web/kustomization.yaml", KUSTOMIZATION);
    write(dir.path(), "apps/web/routing.yaml", ROUTING);
    write(dir.path(), "apps/web/deploy.yaml", DEPLOY);
    write(dir.path(), "apps/web/patch.yaml", PATCH);
    dir
}

fn plan_of(root: &Path, config: &Config, layout: Layout) -> (Scan, plan::EditPlan) {
    let scan = scan::scan_repo(root, config, 1).unwrap();
    let mut results = inject(&scan);
    plan::skip_patch_documents(&scan.index, &mut results);
    let plan = plan::build(root, &scan, &results, config, layout);
    (scan, plan)
}

#[test]
fn apply_writes_alongside_lists_edge_files_and_is_idempotent() {
    let dir = repo();
    let root = dir.path();
    let config = Config::default();
    let (scan, plan) = plan_of(root, &config, Layout::Alongside);
    let paths: Vec<(&str, EditKind)> = plan
        .edits
        .iter()
        .map(|e| (e.path.as_str(), e.kind))
        .collect();
    assert_eq!(
        paths,
        vec![
            ("apps/web/kustomization.yaml", EditKind::Kustomization),
            ("apps/web/routing.gateway-api-mesh.yaml", EditKind::Mesh),
            ("apps/web/routing.gateway-api.yaml", EditKind::Generated),
        ]
    );
    // The patch document is not translated as a whole object.
    assert!(
        !plan
            .edits
            .iter()
            .any(|e| e.path.starts_with("apps/web/patch."))
    );
    assert_eq!(plan::staleness(&scan, &plan).len(), 3);

    gateway_migrate::write::apply(root, &plan).unwrap();

    let generated = read(root, "apps/web/routing.gateway-api.yaml");
    let hash = gateway_migrate::header::source_hash(ROUTING.as_bytes());
    assert_eq!(
        generated,
        format!(
            "# Generated by gateway-migrate from apps/web/routing.yaml. Do not edit: changes are overwritten; edit the source and re-run.\n\
             # gateway-migrate: source=apps/web/routing.yaml sha256={hash}\n\
             ---\n\
             apiVersion: gateway.networking.k8s.io/v1\n\
             kind: HTTPRoute\n\
             metadata:\n  name: web\n\
             spec:\n  parentRefs:\n  - name: edge\n    namespace: istio-ingress\n  hostnames:\n  - web.example.com\n  rules:\n  - backendRefs:\n    - name: web\n      port: 80\n"
        ),
        "namespace is left to kustomize, like the source's"
    );
    // Only the edge file is added, right after the last entry; nothing else moves.
    assert_eq!(
        read(root, "apps/web/kustomization.yaml"),
        KUSTOMIZATION.replace(
            "  - routing.yaml\n",
            "  - routing.yaml\n  - routing.gateway-api.yaml\n"
        )
    );
    assert!(read(root, "apps/web/routing.gateway-api-mesh.yaml").contains("kind: Service"));
    assert!(
        plan.notes
            .iter()
            .any(|n| n.code.id() == "plan/mesh-route-not-deployed")
    );
    for (rel, text) in [
        ("apps/web/routing.yaml", ROUTING),
        ("apps/web/deploy.yaml", DEPLOY),
        ("apps/web/patch.yaml", PATCH),
    ] {
        assert_eq!(read(root, rel), text, "{rel} must not change");
    }

    // Second run: nothing to do, nothing stale.
    let (scan, plan) = plan_of(root, &config, Layout::Alongside);
    assert!(plan.edits.is_empty(), "{:?}", plan.edits);
    assert_eq!(plan::staleness(&scan, &plan), vec![]);
    assert_eq!(scan.generated_files.len(), 2);
    assert!(
        !scan
            .index
            .objects
            .iter()
            .any(|o| o.source.file.contains("gateway-api")),
        "generated files stay out of the index"
    );
    assert_eq!(plan::header_staleness(root, &scan), vec![]);

    // kubectl builds the kustomization and deploys the edge route into the kustomize namespace.
    if let Ok(out) = std::process::Command::new("kubectl")
        .args(["kustomize", &root.join("apps/web").display().to_string()])
        .output()
    {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let built = String::from_utf8(out.stdout).unwrap();
        assert!(built.contains("kind: HTTPRoute"), "{built}");
        assert!(built.contains("namespace: web"), "{built}");
        assert_eq!(
            built.matches("kind: HTTPRoute").count(),
            1,
            "mesh route left out: {built}"
        );
    }
}

#[test]
fn editing_a_source_makes_its_output_stale() {
    let dir = repo();
    let root = dir.path();
    let config = Config::default();
    let (_, plan) = plan_of(root, &config, Layout::Alongside);
    gateway_migrate::write::apply(root, &plan).unwrap();

    write(
        root,
        "apps/web/routing.yaml",
        &format!("{ROUTING}# a comment\n"),
    );
    let (scan, plan) = plan_of(root, &config, Layout::Alongside);
    let header_stale = plan::header_staleness(root, &scan);
    assert_eq!(header_stale.len(), 2, "{header_stale:?}");
    let stale = plan::staleness(&scan, &plan);
    assert!(
        stale.iter().all(|s| s.reason == StaleReason::Outdated) && stale.len() == 2,
        "{stale:?}"
    );
    assert!(stale[0].detail.contains("changed"), "{stale:?}");

    // A missing generated file is reported as missing.
    std::fs::remove_file(root.join("apps/web/routing.gateway-api.yaml")).unwrap();
    let (scan, plan) = plan_of(root, &config, Layout::Alongside);
    let stale = plan::staleness(&scan, &plan);
    assert!(
        stale
            .iter()
            .any(|s| s.reason == StaleReason::Missing
                && s.path == "apps/web/routing.gateway-api.yaml"),
        "{stale:?}"
    );
}

#[test]
fn orphaned_output_is_stale() {
    let dir = repo();
    let root = dir.path();
    let config = Config::default();
    let (_, plan) = plan_of(root, &config, Layout::Alongside);
    gateway_migrate::write::apply(root, &plan).unwrap();
    // The source loses its VirtualServices.
    write(root, "apps/web/routing.yaml", "# nothing left\n");
    let (scan, plan) = plan_of(root, &config, Layout::Alongside);
    let stale = plan::staleness(&scan, &plan);
    assert_eq!(
        stale.iter().map(|s| s.reason).collect::<Vec<_>>(),
        vec![StaleReason::Orphaned, StaleReason::Orphaned],
        "{stale:?}"
    );
}

#[test]
fn deploy_mesh_routes_lists_the_mesh_file() {
    let dir = repo();
    let root = dir.path();
    let config = Config {
        deploy_mesh_routes: true,
        ..Config::default()
    };
    let (_, plan) = plan_of(root, &config, Layout::Alongside);
    gateway_migrate::write::apply(root, &plan).unwrap();
    let k = read(root, "apps/web/kustomization.yaml");
    assert!(
        k.contains("  - routing.gateway-api.yaml\n  - routing.gateway-api-mesh.yaml\n"),
        "{k}"
    );
}

#[test]
fn foreign_file_at_the_output_path_is_left_alone() {
    let dir = repo();
    let root = dir.path();
    write(root, "apps/web/routing.gateway-api.yaml", "# mine\n");
    let (_, plan) = plan_of(root, &Config::default(), Layout::Alongside);
    assert!(
        !plan
            .edits
            .iter()
            .any(|e| e.path == "apps/web/routing.gateway-api.yaml")
    );
    assert!(
        plan.notes
            .iter()
            .any(|n| n.code.id() == "plan/output-exists"),
        "{:?}",
        plan.notes
    );
    // And it is not added to the kustomization either.
    assert!(
        !plan.edits.iter().any(|e| e.kind == EditKind::Kustomization),
        "{:?}",
        plan.edits
    );
}

#[test]
fn in_place_replaces_only_the_translated_documents() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let source = "# header comment\r\n---\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: c}\r\n---\r\n# about the route\r\napiVersion: networking.istio.io/v1\r\nkind: VirtualService\r\nmetadata:\r\n  name: web\r\n  namespace: web\r\nspec:\r\n  hosts: [a]\r\n\r\n# trailing\r\n---\r\napiVersion: v1\r\nkind: Secret\r\nmetadata: {name: s, namespace: web}";
    write(root, "all.yaml", source);
    let config = Config::default();
    let scan = scan::scan_repo(root, &config, 1).unwrap();
    let mut r = SourceResult::new(object(&scan, "VirtualService", "web"));
    r.generated.push(route("web", "web", gateway_parent()));
    let plan = plan::build(root, &scan, &[r], &config, Layout::InPlace);
    assert_eq!(plan.edits.len(), 1);
    assert_eq!(plan.edits[0].kind, EditKind::InPlace);
    gateway_migrate::write::apply(root, &plan).unwrap();
    let new = read(root, "all.yaml");
    let (before, rest) = source.split_once("apiVersion: networking").unwrap();
    let (_, after) = rest.split_once("  hosts: [a]\r\n").unwrap();
    assert!(new.starts_with(before), "{new}");
    assert!(new.ends_with(after), "{new}");
    let middle = &new[before.len()..new.len() - after.len()];
    assert!(
        middle.starts_with("# Translated by gateway-migrate from VirtualService web/web.\r\napiVersion: gateway.networking.k8s.io/v1\r\nkind: HTTPRoute\r\n"),
        "{middle:?}"
    );
    assert!(
        middle.contains("  namespace: web\r\n"),
        "the source named its namespace"
    );
    assert!(!middle.replace("\r\n", "").contains('\n'), "CRLF kept");
    // The VirtualService is gone, so a second run has nothing to do.
    let scan = scan::scan_repo(root, &config, 1).unwrap();
    assert!(
        !scan
            .index
            .objects
            .iter()
            .any(|o| o.kind == "VirtualService")
    );
}

#[test]
fn plan_diff_is_a_unified_diff() {
    let dir = repo();
    let (_, plan) = plan_of(dir.path(), &Config::default(), Layout::Alongside);
    let diff = plan.diff();
    assert!(
        diff.contains("--- a/apps/web/kustomization.yaml\n+++ b/apps/web/kustomization.yaml\n"),
        "{diff}"
    );
    assert!(diff.contains("+  - routing.gateway-api.yaml\n"), "{diff}");
    assert!(
        diff.contains("--- /dev/null\n+++ b/apps/web/routing.gateway-api.yaml\n"),
        "{diff}"
    );
}
