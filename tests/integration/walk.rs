//! What the walk reads and what it skips, on real temporary directories.

use std::fs;
use std::path::Path;

use gateway_migrate::walk::walk;

const SVC: &str = "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n";

fn write(root: &Path, rel: &str, contents: &[u8]) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, contents).unwrap();
}

fn rels(
    root: &Path,
    include: &[&str],
    exclude: &[&str],
    max: u64,
) -> (Vec<String>, Vec<(String, String)>) {
    let inc: Vec<String> = include.iter().map(|s| s.to_string()).collect();
    let exc: Vec<String> = exclude.iter().map(|s| s.to_string()).collect();
    let w = walk(root, &inc, &exc, max).unwrap();
    (
        w.files.into_iter().map(|f| f.rel).collect(),
        w.skipped.into_iter().map(|s| (s.path, s.reason)).collect(),
    )
}

#[test]
fn honours_gitignore_and_git_info_exclude_without_a_git_binary() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.yaml", SVC.as_bytes());
    write(root, "b.yml", SVC.as_bytes());
    write(root, "c.json", b"{}");
    write(root, "notes.txt", b"kind: Service");
    write(root, "ignored/x.yaml", SVC.as_bytes());
    write(root, "local.yaml", SVC.as_bytes());
    write(root, ".gitignore", b"ignored/\n");
    write(root, ".git/info/exclude", b"local.yaml\n");
    write(root, "base/Kustomization", b"resources: []\n");
    let (files, _) = rels(root, &[], &[], 1 << 20);
    assert_eq!(
        files,
        vec!["a.yaml", "b.yml", "base/Kustomization", "c.json"]
    );
}

#[test]
fn include_and_exclude_globs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "prod/a.yaml", SVC.as_bytes());
    write(root, "prod/secret.yaml", SVC.as_bytes());
    write(root, "dev/b.yaml", SVC.as_bytes());
    let (files, _) = rels(root, &["prod/**"], &["**/secret.yaml"], 1 << 20);
    assert_eq!(files, vec!["prod/a.yaml"]);
}

#[test]
fn skips_and_reports_charts_symlinks_and_large_files() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "chart/Chart.yaml", b"name: c\n");
    write(
        root,
        "chart/templates/svc.yaml",
        b"kind: {{ .Values.kind }}\n",
    );
    write(root, "big.yaml", &vec![b'#'; 2048]);
    write(root, "ok.yaml", SVC.as_bytes());
    write(outside.path(), "secret.yaml", SVC.as_bytes());
    std::os::unix::fs::symlink(outside.path().join("secret.yaml"), root.join("escape.yaml"))
        .unwrap();
    std::os::unix::fs::symlink(root.join("ok.yaml"), root.join("alias.yaml")).unwrap();
    // A symlinked directory leading outside, holding a manifest: reported, never entered.
    std::os::unix::fs::symlink(outside.path(), root.join("linked")).unwrap();
    let (files, skipped) = rels(root, &[], &[], 1024);
    assert_eq!(files, vec!["ok.yaml"]);
    let reason = |p: &str| {
        skipped
            .iter()
            .find(|(path, _)| path == p)
            .map(|(_, r)| r.clone())
            .unwrap_or_default()
    };
    assert!(reason("chart").contains("Helm chart"), "{skipped:?}");
    assert!(
        reason("big.yaml").contains("over the 1024-byte limit"),
        "{skipped:?}"
    );
    assert!(
        reason("escape.yaml").contains("outside the repository"),
        "{skipped:?}"
    );
    assert!(
        reason("alias.yaml").contains("inside the repository"),
        "{skipped:?}"
    );
    assert!(
        reason("linked").contains("symlinked directory pointing outside"),
        "{skipped:?}"
    );
}

#[test]
fn binary_files_are_skipped_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ok.yaml", SVC.as_bytes());
    write(
        dir.path(),
        "blob.yaml",
        b"\x00\x01kind: Ingress\x00\xff\xfe",
    );
    let scan = gateway_migrate::scan::scan_repo(
        dir.path(),
        &gateway_migrate::config::Config::default(),
        1,
    )
    .unwrap();
    let skipped: Vec<(String, String)> = scan
        .skipped
        .iter()
        .map(|s| (s.path.clone(), s.reason.clone()))
        .collect();
    assert!(
        skipped.contains(&("blob.yaml".to_string(), "binary file".to_string())),
        "{skipped:?}"
    );
    assert_eq!(
        scan.stats.files_scanned, 1,
        "only ok.yaml is read as a manifest"
    );
}

#[test]
fn a_missing_root_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(walk(&dir.path().join("nope"), &[], &[], 1024).is_err());
}
