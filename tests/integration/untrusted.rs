//! Untrusted repositories: nothing a kustomization asks for is executed, nothing outside the
//! repository is read, and nothing reaches the network. One test per way in: an exec KRM
//! function, a legacy exec plugin, a Helm chart, a `../../outside` resource, a symlinked
//! directory pointing outside, a remote URL. Each runs the real binary with the real
//! kustomize (`kubectl kustomize`), and checks markers: scripts that would create files if
//! run, a canary object outside the repository, a listener on 127.0.0.1 that counts
//! connections.

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::common::write;

const CANARY: &str = "canary-outside-5d1c";

pub const INGRESS: &str = "apiVersion: networking.k8s.io/v1
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
";

/// `tmp/repo` (an application in `repo/app`) and `tmp/outside` (a kustomization and the
/// canary Ingress).
struct Case {
    tmp: tempfile::TempDir,
}

impl Case {
    fn new(kustomization: &str) -> Case {
        let tmp = tempfile::tempdir().unwrap();
        let case = Case { tmp };
        write(&case.repo(), "app/ingress.yaml", INGRESS);
        write(&case.repo(), "app/kustomization.yaml", kustomization);
        let canary = INGRESS
            .replace("name: web", &format!("name: {CANARY}"))
            .replace("web.example.com", &format!("{CANARY}.example.com"));
        write(&case.outside(), "canary.yaml", &canary);
        write(
            &case.outside(),
            "kustomization.yaml",
            "resources:\n  - canary.yaml\n",
        );
        case
    }

    fn repo(&self) -> PathBuf {
        self.tmp.path().join("repo")
    }

    fn outside(&self) -> PathBuf {
        self.tmp.path().join("outside")
    }

    fn marker(&self, name: &str) -> PathBuf {
        self.tmp.path().join(format!("{name}-ran"))
    }

    /// An executable at `path` that creates the marker `name` when run.
    fn script(&self, path: &Path, name: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            path,
            format!("#!/bin/sh\ntouch '{}'\ncat\n", self.marker(name).display()),
        )
        .unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// `plan --format json` with `extra_path` first on PATH and `env`; the report.
    fn plan(&self, extra_path: Option<&Path>, env: &[(&str, &Path)]) -> Value {
        self.plan_with(extra_path, env, &[])
    }

    /// [`Case::plan`] with more arguments.
    fn plan_with(&self, extra_path: Option<&Path>, env: &[(&str, &Path)], args: &[&str]) -> Value {
        let mut path = std::env::var("PATH").unwrap_or_default();
        if let Some(p) = extra_path {
            path = format!("{}:{path}", p.display());
        }
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"));
        cmd.args(["plan", ".", "--format", "json"])
            .args(args)
            .current_dir(self.repo())
            .env("PATH", path)
            .env("GATEWAY_MIGRATE_CACHE_DIR", "");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
    }

    /// Nothing of the canary in the report nor in any file of the repository.
    fn assert_outside_unread(&self, report: &Value) {
        assert!(
            !report.to_string().contains(CANARY),
            "the outside file was read: {report}"
        );
        for f in crate::common::files_under(&self.repo()) {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            assert!(!text.contains(CANARY), "{} holds the canary", f.display());
        }
    }
}

fn codes(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn build_status(report: &Value, build: &str) -> Option<String> {
    report["builds"]
        .as_array()?
        .iter()
        .find(|b| b["build"] == build)
        .map(|b| b["status"].as_str().unwrap_or_default().to_string())
}

fn kustomize_here() -> bool {
    crate::render::kubectl().is_some()
}

#[test]
fn an_exec_function_is_never_run() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new("resources:\n  - ingress.yaml\ntransformers:\n  - fn.yaml\n");
    write(
        &case.repo(),
        "app/fn.yaml",
        "apiVersion: example.com/v1\nkind: Stamp\nmetadata:\n  name: stamp\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn.sh\n",
    );
    case.script(&case.repo().join("app/fn.sh"), "function");
    let report = case.plan(None, &[]);
    assert!(
        codes(&report).contains(&"render/plugin-refused".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    assert!(!case.marker("function").exists(), "the exec function ran");
}

#[test]
fn a_legacy_exec_plugin_is_never_run() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new("resources:\n  - ingress.yaml\ngenerators:\n  - gen.yaml\n");
    write(
        &case.repo(),
        "app/gen.yaml",
        "apiVersion: someteam.example.com/v1\nkind: SecretsFromVault\nmetadata:\n  name: gen\n",
    );
    // Where kustomize looks for the plugin when plugins are enabled.
    let plugins = case.repo().join("plugins");
    case.script(
        &plugins.join("someteam.example.com/v1/secretsfromvault/SecretsFromVault"),
        "plugin",
    );
    let report = case.plan(None, &[("KUSTOMIZE_PLUGIN_HOME", &plugins)]);
    assert!(
        codes(&report).contains(&"render/plugin-refused".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    assert!(!case.marker("plugin").exists(), "the plugin ran");
}

#[test]
fn a_helm_chart_is_never_inflated() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new(
        "resources:\n  - ingress.yaml\nhelmCharts:\n  - name: web\n    chartHome: charts\n    releaseName: web\n",
    );
    write(
        &case.repo(),
        "app/charts/web/Chart.yaml",
        "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    );
    let bin = case.tmp.path().join("bin");
    case.script(&bin.join("helm"), "helm");
    let report = case.plan(Some(&bin), &[]);
    assert!(
        codes(&report).contains(&"render/helm-refused".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    assert!(!case.marker("helm").exists(), "helm ran");
}

#[test]
fn a_resource_outside_the_repository_is_never_read() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new("resources:\n  - ingress.yaml\n  - ../../outside/canary.yaml\n");
    let report = case.plan(None, &[]);
    assert!(
        codes(&report).contains(&"render/outside-root".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    case.assert_outside_unread(&report);
    // The application's own file is still translated.
    assert!(report.to_string().contains("app/ingress.gateway-api.yaml"));
}

#[test]
fn a_symlinked_directory_pointing_outside_is_never_followed() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new("resources:\n  - ingress.yaml\n  - linked\n");
    std::os::unix::fs::symlink(case.outside(), case.repo().join("app/linked")).unwrap();
    // And a build root that is itself a symlink to the outside kustomization.
    std::os::unix::fs::symlink(case.outside(), case.repo().join("elsewhere")).unwrap();
    let report = case.plan(None, &[]);
    case.assert_outside_unread(&report);
    assert!(
        codes(&report).contains(&"render/outside-root".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(
        build_status(&report, "app").as_deref(),
        Some("refused"),
        "the build through the symlink was handed to kustomize: {report}"
    );
    assert_eq!(build_status(&report, "elsewhere"), None, "{report}");
    let skipped = report["skipped"].to_string();
    assert!(
        skipped.contains("elsewhere") && skipped.contains("app/linked"),
        "{skipped}"
    );
}

#[test]
fn a_remote_resource_is_never_fetched() {
    if !kustomize_here() {
        return;
    }
    // Anything that connects to this port is counted.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let case = Case::new(&format!(
        "resources:\n  - ingress.yaml\n  - http://127.0.0.1:{port}/base.yaml\n  - https://127.0.0.1:{port}/org/repo//deploy?ref=v1\n"
    ));
    let mut report = Value::Null;
    let connections =
        connections_during(port, || report = case.plan(None, &[])).expect("the port was just free");
    assert!(
        codes(&report).contains(&"render/remote-resource".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    assert_eq!(connections, 0, "something connected to the remote");
}

/// A remote base's copy in `--remote-cache` is input like the repository: a copy reaching
/// outside itself is refused before kustomize runs, and a cached directory that is a symlink
/// is not taken (it could lead anywhere); nothing connects, the canary is never read.
#[test]
fn a_remote_cache_copy_is_checked_like_the_repository() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new(
        "resources:\n  - ingress.yaml\n  - https://github.com/org/repo//base?ref=v1\n  - https://github.com/org/linked//base?ref=v1\n",
    );
    let cache = case.tmp.path().join("cache");
    // From cache/github.com/org/repo/v1/base, six levels up is the temporary directory.
    write(
        &cache,
        "github.com/org/repo/v1/base/kustomization.yaml",
        "resources:\n  - ../../../../../../outside\n",
    );
    std::fs::create_dir_all(cache.join("github.com/org/linked")).unwrap();
    std::os::unix::fs::symlink(case.tmp.path(), cache.join("github.com/org/linked/v1")).unwrap();
    write(
        case.tmp.path(),
        "base/kustomization.yaml",
        "resources:\n  - ../outside\n",
    );
    let cache_arg = cache.display().to_string();
    let report = case.plan_with(None, &[], &["--remote-cache", &cache_arg]);
    let messages: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {}", d["code"], d["message"]))
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("render/outside-root")
            && m.contains("github.com/org/repo/v1/base")),
        "{messages:#?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("render/remote-resource")
            && m.contains("github.com/org/linked//base?ref=v1")),
        "{messages:#?}"
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    case.assert_outside_unread(&report);
}

/// Splits as a YAML 1.1 parser (go-yaml in kustomize and kubectl, libyaml) splits lines.
fn yaml_lines(text: &str) -> Vec<&str> {
    text.split(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'])
        .collect()
}

/// A file name is input: one holding line breaks must not end the generated header's comment
/// and become documents that `apply` writes and kustomize deploys (issue #38, High). Names
/// with `\n`, `\r\n`, NEL, LINE SEPARATOR, `#`, `---` and other control characters, each a
/// source listed in the kustomization; the generated files hold only what was translated,
/// and the real kustomize renders no Pod.
#[test]
fn a_file_name_never_becomes_yaml() {
    const POD: &str = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: evil}\nspec: {containers: [{name: x, image: evil}]}\n";
    let names = [
        format!("web\n{POD}#.yaml"),
        format!("crlf\r\n{}#.yaml", POD.replace('\n', "\r\n")),
        format!("nel\u{85}{}#.yaml", POD.replace('\n', "\u{85}")),
        format!("ls\u{2028}{}#.yaml", POD.replace('\n', "\u{2028}")),
        "hash # --- .yaml".to_string(),
        "ctl\u{1b}[2J\u{7}\u{7f}\t.yaml".to_string(),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let mut kustomization = String::from("resources:\n");
    for (i, name) in names.iter().enumerate() {
        let ingress = INGRESS
            .replace("name: web\n", &format!("name: web{i}\n"))
            .replace("web.example.com", &format!("web{i}.example.com"));
        std::fs::create_dir_all(repo.join("app")).unwrap();
        std::fs::write(repo.join("app").join(name), ingress).unwrap();
        // JSON's escapes are YAML's, but JSON leaves NEL, LS and DEL raw, which YAML refuses.
        let quoted = serde_json::to_string(name)
            .unwrap()
            .replace('\u{85}', "\\u0085")
            .replace('\u{2028}', "\\u2028")
            .replace('\u{7f}', "\\u007f");
        kustomization.push_str(&format!("  - {quoted}\n"));
    }
    write(&repo, "app/kustomization.yaml", &kustomization);
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["apply", ".", "--format", "json"])
        .current_dir(&repo)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated: Vec<(PathBuf, String)> = crate::common::files_under(&repo)
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            text.starts_with("# Generated by gateway-migrate")
                .then_some((f, text))
        })
        .collect();
    assert!(
        generated.len() >= names.len(),
        "{} generated files for {} sources: {}",
        generated.len(),
        names.len(),
        String::from_utf8_lossy(&out.stdout)
    );
    for (f, text) in &generated {
        let lines = yaml_lines(text);
        assert!(
            lines[0].starts_with("# ") && lines[1].starts_with("# ") && lines[2] == "---",
            "{}: the header is not two comment lines: {text:?}",
            f.display()
        );
        assert!(
            !lines
                .iter()
                .any(|l| l.trim_start().starts_with("kind: Pod")),
            "{}: {text:?}",
            f.display()
        );
    }
    let Some(renderer) = crate::render::kubectl() else {
        return;
    };
    let mut render = Command::new(&renderer.program);
    if renderer.via_kubectl {
        render.arg("kustomize");
    } else {
        render.arg("build");
    }
    let rendered = render.arg("app").current_dir(&repo).output().unwrap();
    let stderr = String::from_utf8_lossy(&rendered.stderr).into_owned();
    let rendered = String::from_utf8_lossy(&rendered.stdout).into_owned();
    let kustomization = std::fs::read_to_string(repo.join("app/kustomization.yaml")).unwrap();
    assert!(
        rendered.contains("kind: HTTPRoute"),
        "{stderr}\n{kustomization}\n{rendered}"
    );
    assert!(!rendered.contains("kind: Pod"), "{rendered}");
}

/// Counts connections to 127.0.0.1:`port` while `run` runs; `None` when the port is taken.
fn connections_during(port: u16, run: impl FnOnce()) -> Option<usize> {
    let listener = TcpListener::bind(("127.0.0.1", port)).ok()?;
    listener.set_nonblocking(true).unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let counter = {
        let (connections, stop) = (connections.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                if listener.accept().is_ok() {
                    connections.fetch_add(1, Ordering::SeqCst);
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        })
    };
    run();
    stop.store(true, Ordering::SeqCst);
    counter.join().unwrap();
    Some(connections.load(Ordering::SeqCst))
}

/// Rendering makes no connection, not even kubectl's own: some kubectl builds (the Google
/// Cloud SDK's dispatcher, installed here) ask `http://localhost:8080/version` before every
/// command when no kubeconfig is set, which is what kustomize runs with.
#[test]
fn rendering_contacts_no_server() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new("resources:\n  - ingress.yaml\n");
    let mut report = Value::Null;
    let Some(count) = connections_during(8080, || report = case.plan(None, &[])) else {
        eprintln!("SKIPPED: 127.0.0.1:8080 is in use; cannot watch kubectl's version lookup");
        return;
    };
    assert_eq!(
        build_status(&report, "app").as_deref(),
        Some("verified"),
        "{report}"
    );
    assert_eq!(count, 0, "kubectl contacted 127.0.0.1:8080 while rendering");
}

/// A file git ignores (a developer's `.env`) never reaches kustomize: through a
/// `configMapGenerator` and `replacements`, its content would land in the translation and
/// the report (and so a pull request body).
#[test]
fn git_ignored_files_are_not_given_to_kustomize() {
    if !kustomize_here() {
        return;
    }
    const SECRET: &str = "secret-token-3b9e";
    let case = Case::new(
        "resources:\n  - ingress.yaml\nconfigMapGenerator:\n  - name: leak\n    envs: [.env]\nreplacements:\n  - source: {kind: ConfigMap, name: leak, fieldPath: data.TOKEN}\n    targets:\n      - select: {kind: Ingress, name: web}\n        fieldPaths: [spec.rules.0.host]\n",
    );
    write(
        &case.repo(),
        "app/.env",
        &format!("TOKEN={SECRET}.example.com\n"),
    );
    write(&case.repo(), ".gitignore", ".env\n");
    let report = case.plan(None, &[]);
    assert!(
        !report.to_string().contains(SECRET),
        "the ignored file reached the report: {report}"
    );
    assert_eq!(
        build_status(&report, "app").as_deref(),
        Some("render failed"),
        "{report}"
    );
    // Committed, the same file is the repository's and is rendered.
    std::fs::remove_file(case.repo().join(".gitignore")).unwrap();
    let report = case.plan(None, &[]);
    assert!(report.to_string().contains(SECRET), "{report}");
}

/// A generator configuration this tool cannot parse (nested past its budget) cannot be shown
/// to be a builtin, so the build is refused rather than handed to kustomize.
#[test]
fn an_unparsable_plugin_configuration_is_refused() {
    if !kustomize_here() {
        return;
    }
    let case = Case::new("resources:\n  - ingress.yaml\ntransformers:\n  - fn.yaml\n");
    let deep = format!("{}x{}", "[".repeat(200), "]".repeat(200));
    write(
        &case.repo(),
        "app/fn.yaml",
        &format!(
            "apiVersion: example.com/v1\nkind: Stamp\nmetadata:\n  name: stamp\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn.sh\nspec: {deep}\n"
        ),
    );
    case.script(&case.repo().join("app/fn.sh"), "function");
    let report = case.plan(None, &[]);
    assert!(
        codes(&report).contains(&"render/plugin-refused".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(build_status(&report, "app").as_deref(), Some("refused"));
    assert!(!case.marker("function").exists(), "the exec function ran");
}

/// A fake kustomize (`--kustomize`) that logs each call and then does what `body` says.
fn fake_kustomize(dir: &Path, body: &str) -> (PathBuf, PathBuf) {
    let log = dir.join("calls.log");
    let program = dir.join("kustomize");
    std::fs::write(
        &program,
        format!("#!/bin/sh\necho \"$2\" >> '{}'\n{body}\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    (program, log)
}

/// Eight builds whose kustomize never finishes: each is started once (a timed-out build is not
/// rendered again at a later stage), and the run's budget stops the run, visibly.
#[test]
fn a_render_that_times_out_is_not_retried_and_the_run_has_a_budget() {
    const APPS: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    for app in APPS {
        write(
            &repo,
            &format!("{app}/ingress.yaml"),
            &INGRESS.replace("web.example.com", &format!("{app}.example.com")),
        );
        write(
            &repo,
            &format!("{app}/kustomization.yaml"),
            "resources:\n  - ingress.yaml\n",
        );
    }
    let (program, log) = fake_kustomize(tmp.path(), "exec sleep 60");
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args([
            "plan",
            ".",
            "--format",
            "json",
            "-j",
            "2",
            "--render-timeout",
            "1",
            "--render-budget",
            "2",
        ])
        .arg("--kustomize")
        .arg(&program)
        .current_dir(&repo)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    // At most once per build; a budget of 2 s at two at a time leaves some unstarted.
    let mut started_builds: Vec<&str> = calls.lines().collect();
    let total = started_builds.len();
    started_builds.sort();
    started_builds.dedup();
    assert_eq!(
        total,
        started_builds.len(),
        "a build was rendered twice: {calls}"
    );
    assert!(
        total < APPS.len(),
        "every build was started despite the budget: {calls}"
    );
    assert!(
        elapsed < std::time::Duration::from_secs(30),
        "took {elapsed:?}"
    );
    assert!(
        codes(&report).contains(&"render/budget-spent".into()),
        "{:?}",
        codes(&report)
    );
    for app in APPS {
        assert_eq!(
            build_status(&report, app).as_deref(),
            Some("render failed"),
            "{app}"
        );
    }
}

/// kustomize output past 64 MiB fails the build instead of filling memory.
#[test]
fn a_render_that_prints_too_much_fails_the_build() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    write(&repo, "a/ingress.yaml", INGRESS);
    write(
        &repo,
        "a/kustomization.yaml",
        "resources:\n  - ingress.yaml\n",
    );
    let (program, _) = fake_kustomize(tmp.path(), "exec head -c 100000000 /dev/zero");
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["plan", ".", "--format", "json"])
        .arg("--kustomize")
        .arg(&program)
        .current_dir(&repo)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(build_status(&report, "a").as_deref(), Some("render failed"));
    assert!(report.to_string().contains("more than 64 MiB"), "{report}");
}

/// kustomize's loader fetches a URL wherever it loads a file, not only in `resources:`:
/// generators' `files`/`envs`/`env`, `crds`, `configurations`, `openapi.path`,
/// `replacements[].path`. Each is refused like a remote resource, and nothing connects.
#[test]
fn remote_files_in_any_field_are_never_fetched() {
    if !kustomize_here() {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = |p: &str| format!("http://127.0.0.1:{port}/{p}");
    let fields = [
        format!(
            "configMapGenerator:\n  - name: a\n    files: [{}]\n",
            url("files")
        ),
        format!(
            "configMapGenerator:\n  - name: a\n    files: [\"k={}\"]\n",
            url("keyed")
        ),
        format!(
            "configMapGenerator:\n  - name: a\n    envs: [{}]\n",
            url("envs")
        ),
        format!("secretGenerator:\n  - name: a\n    env: {}\n", url("env")),
        format!("crds: [{}]\n", url("crds")),
        format!("configurations: [{}]\n", url("configurations")),
        format!("openapi:\n  path: {}\n", url("openapi")),
        format!(
            "replacements:\n  - path: {}\n",
            url("replacements").replace("http", "HTTP")
        ),
    ];
    for field in fields {
        let case = Case::new(&format!("resources:\n  - ingress.yaml\n{field}"));
        let mut report = Value::Null;
        let count = connections_during(port, || report = case.plan(None, &[]))
            .expect("the port was just free");
        assert_eq!(count, 0, "{field}: kustomize fetched");
        assert!(
            codes(&report).contains(&"render/remote-resource".into()),
            "{field}: {:?}",
            codes(&report)
        );
        assert_eq!(
            build_status(&report, "app").as_deref(),
            Some("refused"),
            "{field}"
        );
    }
}

/// A file planted under the name of one of this tool's build fixes (here the patches file an
/// overlay needs), without the generated header, is neither replaced nor listed in the
/// kustomization: `apply` would otherwise deploy its ClusterRoleBinding under this tool's name.
#[test]
fn a_planted_fix_file_is_neither_replaced_nor_listed() {
    if !kustomize_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    crate::common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/render/overlay-ingress-host/tree"),
        &repo,
    );
    const PLANTED: &str = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: planted-admin\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\nsubjects: [{kind: ServiceAccount, name: default, namespace: default}]\n";
    let planted = repo.join("overlays/development/gateway-migrate.build-patches.yaml");
    std::fs::write(&planted, PLANTED).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["apply", ".", "--format", "json"])
        .current_dir(&repo)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        codes(&report).contains(&"plan/output-exists".into()),
        "{:?}",
        codes(&report)
    );
    assert_eq!(std::fs::read_to_string(&planted).unwrap(), PLANTED);
    let kustomization =
        std::fs::read_to_string(repo.join("overlays/development/kustomization.yaml")).unwrap();
    assert!(
        !kustomization.contains("gateway-migrate.build-patches.yaml"),
        "{kustomization}"
    );
    let rendered = Command::new("kubectl")
        .arg("kustomize")
        .arg(repo.join("overlays/development"))
        .output()
        .unwrap();
    let rendered = String::from_utf8_lossy(&rendered.stdout);
    assert!(!rendered.contains("planted-admin"), "{rendered}");
}
