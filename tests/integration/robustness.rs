//! Robustness against the tool's own bugs and the machine's faults: a panic costs the file,
//! object or build it happened in, not the run (debug builds panic on purpose at the markers
//! of `gateway_migrate::isolate::test_trigger`); a write that fails half-way leaves every
//! file old or new, says which, exits 2, and the next run completes.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::write;

fn vs(name: &str, host: &str) -> String {
    format!(
        "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: {name}
  namespace: web
spec:
  hosts: [{host}]
  gateways: [istio-system/public]
  http:
    - route:
        - destination:
            host: web
"
    )
}

/// `gateway-migrate ARGS` in `dir`; exit code and the JSON report on stdout (when it is one).
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(args)
        .current_dir(dir)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json_report(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}

/// `(code, file)` of every diagnostic of a JSON report.
fn codes(report: &Value) -> Vec<(String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn planned_files(report: &Value) -> Vec<String> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_panic_loading_one_file_is_a_diagnostic_on_it_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/a.yaml", &vs("a", "a.example.com"));
    write(
        dir.path(),
        "b/b.yaml",
        &format!(
            "# gateway-migrate-test-panic-load\n{}",
            vs("b", "b.example.com")
        ),
    );
    write(dir.path(), "c/c.yaml", &vs("c", "c.example.com"));
    let (code, stdout, stderr) = run(
        dir.path(),
        &["plan", ".", "--format", "json", "--no-render"],
    );
    assert_eq!(code, 1, "{stderr}");
    let report = json_report(&stdout);
    let codes = codes(&report);
    assert!(
        codes.contains(&("internal/panic".into(), "b/b.yaml".into())),
        "{codes:?}"
    );
    let message = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "internal/panic")
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        message.contains("loading b/b.yaml") && message.contains("report"),
        "{message}"
    );
    let files = planned_files(&report);
    assert!(
        files.contains(&"a/a.gateway-api.yaml".to_string()),
        "{files:?}"
    );
    assert!(
        files.contains(&"c/c.gateway-api.yaml".to_string()),
        "{files:?}"
    );
    assert!(!files.iter().any(|f| f.starts_with("b/")), "{files:?}");
}

#[test]
fn a_panic_translating_one_object_costs_that_object_only() {
    let dir = tempfile::tempdir().unwrap();
    let two = format!(
        "{}---\n{}",
        vs("gateway-migrate-test-panic-translate", "x.example.com"),
        vs("kept", "kept.example.com")
    );
    write(dir.path(), "apps/routes.yaml", &two);
    let (code, stdout, stderr) = run(
        dir.path(),
        &["plan", ".", "--format", "json", "--no-render"],
    );
    assert_eq!(code, 1, "{stderr}");
    let report = json_report(&stdout);
    let panics: Vec<&Value> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "internal/panic")
        .collect();
    assert_eq!(panics.len(), 1, "{panics:#?}");
    assert_eq!(panics[0]["file"], "apps/routes.yaml");
    assert_eq!(panics[0]["line"], 1, "placed on the object that panicked");
    // The other VirtualService of the same file is translated.
    let (_, yaml, _) = run(dir.path(), &["plan", ".", "--diff", "--no-render"]);
    assert!(yaml.contains("+  name: kept"), "{yaml}");
    assert!(
        !yaml.contains("name: gateway-migrate-test-panic-translate"),
        "{yaml}"
    );
}

#[test]
fn a_panic_in_one_build_is_reported_on_its_kustomization() {
    if crate::render::kubectl().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (build, host) in [
        ("gateway-migrate-test-panic-build", "p.example.com"),
        ("fine", "f.example.com"),
    ] {
        write(dir.path(), &format!("{build}/vs.yaml"), &vs("web", host));
        write(
            dir.path(),
            &format!("{build}/kustomization.yaml"),
            "resources:\n  - vs.yaml\n",
        );
    }
    let (code, stdout, stderr) = run(dir.path(), &["plan", ".", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    let report = json_report(&stdout);
    let codes = codes(&report);
    assert!(
        codes.contains(&(
            "internal/panic".into(),
            "gateway-migrate-test-panic-build/kustomization.yaml".into()
        )),
        "{codes:?}"
    );
    let builds: Vec<(String, String)> = report["builds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["build"].as_str().unwrap().to_string(),
                b["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        builds.contains(&("fine".into(), "verified".into())),
        "the other build is rendered and verified: {builds:?}"
    );
    // Both builds' files are still translated as they are.
    let files = planned_files(&report);
    assert!(
        files.contains(&"gateway-migrate-test-panic-build/vs.gateway-api.yaml".to_string()),
        "{files:?}"
    );
}

/// A VirtualService with `routes` prefix rules: its translation is about 150 bytes per rule.
fn big_vs(name: &str, routes: usize) -> String {
    let mut text = format!(
        "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: {name}\n  namespace: web\nspec:\n  hosts: [{name}.example.com]\n  gateways: [istio-system/public]\n  http:\n"
    );
    for i in 0..routes {
        text.push_str(&format!(
            "    - match:\n        - uri:\n            prefix: /path-{i}\n      route:\n        - destination:\n            host: svc-{i}\n"
        ));
    }
    text
}

/// Three applications, each a directory with its manifests and a kustomization: `a` and `c`
/// translate to small files, `b` to one of several kilobytes.
fn three_apps(root: &Path) {
    write(root, "a/vs.yaml", &vs("a", "a.example.com"));
    write(root, "b/vs.yaml", &big_vs("b", 100));
    write(root, "c/vs.yaml", &vs("c", "c.example.com"));
    for app in ["a", "b", "c"] {
        write(
            root,
            &format!("{app}/kustomization.yaml"),
            "resources:\n  - vs.yaml\n",
        );
    }
}

/// Every regular file under `root` with its contents.
fn tree(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    crate::common::files_under(root)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            (rel, bytes)
        })
        .collect()
}

/// Each file of `after` is as in `before` or as in `done` (never anything else), and no
/// temporary file is left.
fn old_or_new(
    before: &std::collections::BTreeMap<String, Vec<u8>>,
    after: &std::collections::BTreeMap<String, Vec<u8>>,
    done: &std::collections::BTreeMap<String, Vec<u8>>,
) {
    for path in before.keys() {
        assert!(after.contains_key(path), "{path} was deleted");
    }
    for (path, bytes) in after {
        assert!(
            before.get(path) == Some(bytes) || done.get(path) == Some(bytes),
            "{path} is neither its old nor its new contents:\n{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// The tree as a full `apply` leaves it, from a copy.
fn applied_reference(
    source: &Path,
) -> (
    tempfile::TempDir,
    std::collections::BTreeMap<String, Vec<u8>>,
) {
    let reference = tempfile::tempdir().unwrap();
    crate::common::copy_dir(source, reference.path());
    let (code, _, stderr) = run(
        reference.path(),
        &["apply", ".", "--no-render", "--fail-on", "never"],
    );
    assert_eq!(code, 0, "{stderr}");
    let done = tree(reference.path());
    (reference, done)
}

/// A full disk, as the kernel reports it to a process over its file-size limit
/// (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored: `write` fails with `EFBIG` part-way through the
/// file): the large file fails while every new file is staged beside its target, so no file
/// is replaced, no temporary file is left and every kustomization is untouched; exit 2
/// naming them; the next run completes.
#[test]
fn a_write_that_fails_half_way_leaves_every_file_old_or_new() {
    let dir = tempfile::tempdir().unwrap();
    three_apps(dir.path());
    let (_reference, done) = applied_reference(dir.path());
    let large = done["b/vs.gateway-api.yaml"].len();
    assert!(large > 4096, "the large file is large: {large} bytes");
    assert!(done["a/vs.gateway-api.yaml"].len() < 2048);
    let before = tree(dir.path());

    if !crate::common::required(
        Command::new("bash").arg("--version").output().is_ok(),
        "bash",
        "a write that fails half-way",
    ) {
        return;
    }
    let out = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 2; exec \"$0\" apply . --no-render --fail-on never")
        .arg(env!("CARGO_BIN_EXE_gateway-migrate"))
        .current_dir(dir.path())
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write b/vs.gateway-api.yaml"),
        "{stderr}"
    );
    assert!(
        stderr.contains("files written before the failure, each complete: none"),
        "{stderr}"
    );
    assert!(
        stderr.contains("not written, left as they were: b/vs.gateway-api.yaml, a/vs.gateway-api.yaml, c/vs.gateway-api.yaml, a/kustomization.yaml"),
        "{stderr}"
    );
    let after = tree(dir.path());
    old_or_new(&before, &after, &done);
    assert_eq!(after, before, "a failed staging changes no file");
    assert_eq!(
        after["a/kustomization.yaml"], before["a/kustomization.yaml"],
        "kustomizations come last"
    );
    assert!(
        !after.keys().any(|p| p.ends_with(".tmp")),
        "no temporary file left: {:?}",
        after.keys()
    );

    let (code, _, stderr) = run(
        dir.path(),
        &["apply", ".", "--no-render", "--fail-on", "never"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        tree(dir.path()),
        done,
        "the second run completes the migration"
    );
}

/// A directory the tool may not write to (run as an unprivileged user, since root writes
/// anywhere): no file can be staged there, so no file anywhere is replaced; exit 2 naming
/// them; once the directory is writable the next run completes.
#[test]
fn a_read_only_directory_fails_the_run_and_leaves_its_files_as_they_were() {
    use std::os::unix::fs::PermissionsExt;
    let root_user = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    let setpriv = Path::new("/usr/bin/setpriv").exists();
    if root_user
        && !crate::common::required(setpriv, "setpriv", "writing into a read-only directory")
    {
        return;
    }
    // Under /tmp, whose parents an unprivileged user can traverse whatever TMPDIR is.
    let dir = tempfile::tempdir_in("/tmp").unwrap();
    let repo = dir.path().join("repo");
    three_apps(&repo);
    let (_reference, done) = applied_reference(&repo);
    // A copy of the binary the unprivileged user can run, wherever the build lives.
    let bin = dir.path().join("gateway-migrate");
    std::fs::copy(env!("CARGO_BIN_EXE_gateway-migrate"), &bin).unwrap();
    let mode =
        |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    mode(dir.path(), 0o755);
    mode(&bin, 0o755);
    mode(&repo, 0o777);
    for f in crate::common::files_under(&repo) {
        mode(&f, 0o666);
    }
    for app in ["a", "c"] {
        mode(&repo.join(app), 0o777);
    }
    mode(&repo.join("b"), 0o555);
    let before = tree(&repo);
    let apply = |bin: &Path| {
        let mut cmd = if root_user {
            let mut c = Command::new("/usr/bin/setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
                .arg(bin);
            c
        } else {
            Command::new(bin)
        };
        cmd.args(["apply", ".", "--no-render", "--fail-on", "never"])
            .current_dir(&repo)
            .env("GATEWAY_MIGRATE_CACHE_DIR", "")
            .env("HOME", dir.path())
            .output()
            .unwrap()
    };
    // The unprivileged user must be able to run the tool at all (setpriv may lack the
    // capability in a container); otherwise this cannot be tested here.
    let probe = if root_user {
        Command::new("/usr/bin/setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(&bin)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    } else {
        true
    };
    if !crate::common::required(
        probe,
        "running as uid 65534 with setpriv",
        "writing into a read-only directory",
    ) {
        return;
    }
    let out = apply(&bin);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write b/vs.gateway-api.yaml"),
        "{stderr}"
    );
    assert!(stderr.contains("each complete: none"), "{stderr}");
    let after = tree(&repo);
    old_or_new(&before, &after, &done);
    assert_eq!(after, before, "a failed staging changes no file");

    mode(&repo.join("b"), 0o777);
    let out = apply(&bin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(tree(&repo), done);
}

/// A run killed between staging and renaming (SIGKILL skips every clean-up) leaves
/// `.gateway-migrate-<pid>-<hash>.tmp` files (`.<name>.gateway-migrate-<pid>.tmp` before) and
/// a render scratch directory; the next run that
/// writes removes them, when their process is gone and git does not track them.
#[test]
fn leftovers_of_a_killed_run_are_removed_by_the_next() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    crate::common::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo"),
        &root,
    );
    // No process has an id above the kernel's limit (at most 2^22).
    let dead = 99_999_999u32;
    let stale = format!("apps/.app.yaml.gateway-migrate-{dead}.tmp");
    let stale_now = format!("apps/.gateway-migrate-{dead}-0123456789abcdef.tmp");
    let committed = format!(".notes.gateway-migrate-{}.tmp", dead - 1);
    let running = format!(".live.gateway-migrate-{}.tmp", std::process::id());
    write(&root, &committed, "the repository's own file");
    let repo = git2::Repository::init(&root).unwrap();
    crate::common::commit_all(&repo, "manifests");
    write(&root, &stale, "half-written");
    write(&root, &stale_now, "half-written");
    write(&root, &running, "another run's, still going");
    let scratch_tmp = tmp.path().join("tmp");
    let old_scratch = scratch_tmp.join(format!("gateway-migrate-render-{dead}-abc123"));
    std::fs::create_dir_all(old_scratch.join("repo")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["apply", "."])
        .current_dir(&root)
        .env("TMPDIR", &scratch_tmp)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !root.join(&stale).exists(),
        "the stale temporary file is left"
    );
    assert!(root.join(&committed).exists(), "a tracked file was removed");
    assert!(
        root.join(&running).exists(),
        "a running process's file was removed"
    );
    if crate::render::kubectl().is_some() {
        assert!(!old_scratch.exists(), "the stale scratch directory is left");
    }
}

/// A source whose name is near the file system's limit (235 bytes) is migrated: the
/// temporary file `apply` stages beside its generated file has a short name of its own.
#[test]
fn a_long_source_name_does_not_block_apply() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    let source = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend: {service: {name: web, port: {number: 80}}}\n";
    let name = format!("{}.yaml", "n".repeat(230));
    write(&root, &name, source);
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["apply", ".", "--no-render"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = format!("{}.gateway-api.yaml", "n".repeat(230));
    assert!(
        root.join(&generated).is_file(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
