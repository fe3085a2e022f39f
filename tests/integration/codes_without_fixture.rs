//! Diagnostic codes that no fixture can produce (`NOT_REACHABLE_FROM_FIXTURES` in
//! `tests/fixtures.rs` says why), each exercised here at the stage that emits it.

use std::path::Path;

use gateway_migrate::config::Config;
use gateway_migrate::diagnostic::{Code, Severity};
use gateway_migrate::pipeline::{self, Input, Request};
use gateway_migrate::plan::{self, Layout};
use gateway_migrate::scan;
use gateway_migrate::translate::{self, SourceResult};

use crate::common::write;

const INGRESS: &str = "apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: web
spec:
  ingressClassName: nginx
  rules:
  - host: www.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              number: 80
";

fn walk_unreadable(outcome: &pipeline::Outcome) -> Vec<&gateway_migrate::diagnostic::Diagnostic> {
    outcome
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::WalkUnreadable)
        .collect()
}

fn generates_an_httproute(outcome: &pipeline::Outcome) -> bool {
    outcome
        .results
        .iter()
        .any(|r| r.generated.iter().any(|g| g.kind() == "HTTPRoute"))
}

fn check(root: &Path) -> pipeline::Outcome {
    let mut request = Request::new(Input::Repository(root.to_path_buf()), Config::default());
    request.jobs = 1;
    request.check = true;
    pipeline::run(request).unwrap_or_else(|e| panic!("the run failed: {e}"))
}

/// `walk/unreadable`: a directory the walk cannot list (here: nested deeper than the
/// system's path length limit, which stops root too) is skipped and reported; the rest of
/// the repository is still translated.
#[cfg(unix)]
#[test]
fn a_directory_the_walk_cannot_list_is_reported_as_walk_unreadable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "apps/web/ingress.yaml", INGRESS);
    // Each component is short enough; together they exceed PATH_MAX (4096 on Linux, 1024 on
    // macOS). Only relative steps can create such a tree, so a shell does it.
    let component = "d".repeat(200);
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "cd apps && i=0 && while [ $i -lt 25 ]; do mkdir {component} && cd -P {component} || exit 1; i=$((i + 1)); done"
        ))
        .current_dir(root)
        .status()
        .expect("sh");
    assert!(status.success());
    let outcome = check(root);
    let unreadable = walk_unreadable(&outcome);
    assert_eq!(unreadable.len(), 1, "{:#?}", outcome.diagnostics);
    assert!(
        unreadable[0].message.contains("cannot read"),
        "{}",
        unreadable[0].message
    );
    assert!(
        generates_an_httproute(&outcome),
        "the rest of the repository is still translated"
    );
}

/// `walk/unreadable`, the common case: a manifest the user running the tool cannot read.
/// Permission bits do not stop root, so under root there is nothing to check.
#[cfg(unix)]
#[test]
fn an_unreadable_manifest_is_reported_as_walk_unreadable() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "apps/web/ingress.yaml", INGRESS);
    write(
        root,
        "apps/web/secret.yaml",
        "apiVersion: v1\nkind: Secret\n",
    );
    let locked = root.join("apps/web/secret.yaml");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    if std::fs::read(&locked).is_ok() {
        eprintln!("permission bits are not enforced for this user (root): nothing to test here");
        return;
    }
    let outcome = check(root);
    let unreadable = walk_unreadable(&outcome);
    assert_eq!(unreadable.len(), 1, "{:#?}", outcome.diagnostics);
    assert_eq!(unreadable[0].location.file, "apps/web/secret.yaml");
    assert!(
        generates_an_httproute(&outcome),
        "the rest of the repository is still translated"
    );
}

/// `plan/unreadable-source`: the planner reads a source again (for the header hash, or to
/// replace its documents in place). The scan keeps the text of every file it translates, so
/// only a file that vanishes from disk after the scan and was not kept can fail that read.
#[test]
fn a_source_that_cannot_be_read_again_is_reported_and_not_planned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(root, "apps/web/ingress.yaml", INGRESS);
    let config = Config::default();
    let mut scan = scan::scan_repo(root, &config, 1).expect("scan");
    let results = translate::translate(&scan.index, &config);
    assert!(results.iter().any(|r| !r.generated.is_empty()));
    scan.sources.clear();
    std::fs::remove_file(root.join("apps/web/ingress.yaml")).expect("remove");
    for layout in [Layout::Alongside, Layout::InPlace] {
        let plan = plan::build(root, &scan, &results, &config, layout);
        let unreadable: Vec<_> = plan
            .notes
            .iter()
            .filter(|d| d.code == Code::PlanUnreadableSource)
            .collect();
        assert!(!unreadable.is_empty(), "{layout:?}: {:#?}", plan.notes);
        for d in unreadable {
            assert_eq!(d.location.file, "apps/web/ingress.yaml");
            assert_eq!(d.severity, Severity::Error);
        }
        assert!(plan.edits.is_empty(), "{layout:?}: {:#?}", plan.edits);
    }
}

/// `plan/kustomize-patch`: the planner marks results of kustomize patch documents as
/// skipped. Both translators already skip such documents themselves (without a
/// diagnostic), so through the pipeline the planner never finds one; its guard is tested on
/// a result no translator marked.
#[test]
fn patch_documents_are_skipped_before_the_planner_and_by_its_guard() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "kustomization.yaml",
        "resources:\n- ingress.yaml\npatches:\n- path: ingress-patch.yaml\n",
    );
    write(root, "ingress.yaml", INGRESS);
    write(
        root,
        "ingress-patch.yaml",
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\n  namespace: web\n  annotations:\n    nginx.ingress.kubernetes.io/ssl-redirect: \"false\"\n",
    );
    let outcome = check(root);
    let index = &outcome.scan.index;
    let patch = index
        .objects
        .iter()
        .position(|o| o.source.file == "ingress-patch.yaml")
        .expect("the patch is loaded");
    let translated = outcome
        .results
        .iter()
        .find(|r| r.object == patch)
        .expect("a result for the patch");
    assert!(translated.skipped.is_some());
    assert!(translated.generated.is_empty());
    assert!(
        !outcome
            .diagnostics
            .iter()
            .any(|d| d.code == Code::PlanKustomizePatch)
    );

    let mut results = vec![SourceResult::new(patch)];
    plan::skip_patch_documents(index, &mut results);
    assert_eq!(
        results[0].skipped.as_deref(),
        Some("used as a kustomize patch")
    );
    let codes: Vec<Code> = results[0].notes.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::PlanKustomizePatch]);
}
