//! Render-aware migration, run on the small repositories in `fixtures/render/<case>/`
//! through `pipeline::run` (the CLI's entry) with the real `kubectl kustomize`.
//!
//! Each case holds:
//! - `tree/`: the repository before apply;
//! - `expected/`: every file apply creates or changes, as it must be after apply;
//! - `diagnostics.txt`: every diagnostic of the apply run (`file:line severity code message`);
//! - `builds.txt`: each build root and its status after verification;
//! - `expect.yaml` (optional): facts checked on the real `kubectl kustomize` output of a
//!   build root after apply, independently of the tool's own verification:
//!   `- {build: DIR, kind: K, name: N, pointer: /spec/..., equals: VALUE}` (`absent: true`
//!   instead of `equals` when the object must not be rendered);
//! - `options` (optional): `no-renderer` (run as on a machine without kustomize);
//!   `remote-cache` (run with `--remote-cache <case>/remote-cache`; the real kustomize then
//!   builds a copy whose remote entries `remote-map.txt` (`URL DIR` per line, DIR relative
//!   to `remote-cache/`) replaces by the vendored directories, as the case's author read
//!   `kustomize localize`'s layout, independently of the tool's own mapping);
//! - `README.md`: the pattern and the kustomize source that defines its behaviour.
//!
//! For every case: apply, then every rendered build root is built by `kubectl kustomize` and
//! must succeed, no `render/build-differs` may remain unless `diagnostics.txt` expects it, a
//! second apply changes nothing, and `check` passes. `BLESS=1` rewrites the expected files
//! (read and judge them before committing).

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use gateway_migrate::config::Config;
use gateway_migrate::diagnostic::Code;
use gateway_migrate::pipeline::{self, Input, Request};
use gateway_migrate::render::{RenderOptions, Renderer};
use gateway_migrate::report::Report;
use serde_json::Value;

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/render");
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|e| {
            e.flatten()
                .map(|e| e.path())
                .filter(|p| p.join("tree").is_dir())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// `kubectl` for the tests, or `None` (a visible skip; a failure under `CI=true`).
pub fn kubectl() -> Option<Renderer> {
    let found = Renderer::find(None, std::env::var_os("PATH").as_deref());
    crate::common::required(
        found.is_some(),
        "kustomize or kubectl",
        "render-aware migration",
    )
    .then_some(found)
    .flatten()
}

fn files_of(dir: &Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e
                .path()
                .strip_prefix(dir)
                .ok()?
                .to_string_lossy()
                .into_owned();
            (!rel.starts_with(".git/")).then_some(rel)
        })
        .collect()
}

/// One run of `apply` (or `check`) on `repo` with rendering.
fn run(repo: &Path, renderer: Option<Renderer>, check: bool) -> pipeline::Outcome {
    run_with_cache(repo, renderer, check, None)
}

fn run_with_cache(
    repo: &Path,
    renderer: Option<Renderer>,
    check: bool,
    remote_cache: Option<&Path>,
) -> pipeline::Outcome {
    let config = Config::load(repo, None).unwrap();
    let mut request = Request::new(Input::Repository(repo.to_path_buf()), config);
    request.jobs = 2;
    request.write = !check;
    request.check = check;
    request.render = RenderOptions {
        enabled: true,
        renderer,
        allow_remote: false,
        remote_cache: remote_cache.map(gateway_migrate::render::remote::RemoteCache::at),
        cache_dir: None,
        equivalence: true,
    };
    pipeline::run(request).unwrap()
}

fn kustomize_build(repo: &Path, dir: &str) -> Result<Vec<Value>, String> {
    kustomize_build_vendored(repo, dir, (Path::new(""), &[]))
}

/// `kubectl kustomize` of `dir`, on a copy whose kustomizations name each remote URL of
/// `vendored` by its local directory instead (copied beside the repository, named relatively:
/// kustomize refuses an absolute root).
fn kustomize_build_vendored(
    repo: &Path,
    dir: &str,
    (cache, vendored): (&Path, &[(String, String)]),
) -> Result<Vec<Value>, String> {
    let copy = tempfile::tempdir().map_err(|e| e.to_string())?;
    let repo = if vendored.is_empty() {
        repo.to_path_buf()
    } else {
        let to = copy.path().join("repo");
        crate::common::copy_dir(repo, &to);
        crate::common::copy_dir(cache, &copy.path().join("vendor"));
        for f in files_of(&to) {
            if f.ends_with("kustomization.yaml") {
                let path = to.join(&f);
                let up = "../".repeat(f.matches('/').count() + 1);
                let mut text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
                for (url, local) in vendored {
                    text = text.replace(url.as_str(), &format!("{up}vendor/{local}"));
                }
                std::fs::write(&path, text).map_err(|e| e.to_string())?;
            }
        }
        to
    };
    let out = Command::new("kubectl")
        .arg("kustomize")
        .arg(repo.join(dir))
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8(out.stdout).map_err(|e| e.to_string())?;
    Ok(text
        .split("\n---\n")
        .filter_map(|d| gateway_migrate::yaml::parse_document(d).ok().flatten())
        .collect())
}

struct CaseRun {
    codes: BTreeSet<Code>,
    failures: Vec<String>,
}

fn run_case(case: &Path, renderer: &Renderer, bless: bool) -> CaseRun {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let options = std::fs::read_to_string(case.join("options")).unwrap_or_default();
    let renderer = (!options.contains("no-renderer")).then(|| renderer.clone());
    let remote_cache = options
        .contains("remote-cache")
        .then(|| case.join("remote-cache"));
    let vendored: Vec<(String, String)> = std::fs::read_to_string(case.join("remote-map.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(url, dir)| (url.to_string(), dir.to_string()))
        .collect();
    let cache_dir = case.join("remote-cache");
    let kustomize_build =
        |repo: &Path, dir: &str| kustomize_build_vendored(repo, dir, (&cache_dir, &vendored));
    let run = |repo: &Path, renderer: Option<Renderer>, check: bool| {
        run_with_cache(repo, renderer, check, remote_cache.as_deref())
    };
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    crate::common::copy_dir(&case.join("tree"), &repo);
    let before = files_of(&repo);
    let outcome = run(&repo, renderer.clone(), false);
    let report = Report::build(&outcome);
    let mut failures = Vec::new();
    let mut codes = BTreeSet::new();

    // Diagnostics and builds.
    let mut diagnostics = String::new();
    for d in &report.diagnostics {
        codes.insert(d.code);
        let _ = writeln!(
            diagnostics,
            "{}:{} {} {} {}",
            d.file,
            d.line,
            d.severity.as_str(),
            d.code,
            d.message.replace('\n', " ")
        );
    }
    let mut builds = String::new();
    for b in &report.builds {
        let _ = writeln!(builds, "{} {}", b.build, b.status);
    }
    compare(
        &case.join("diagnostics.txt"),
        &diagnostics,
        bless,
        &mut failures,
    );
    compare(&case.join("builds.txt"), &builds, bless, &mut failures);

    // The tree after apply: every created or changed file.
    let expected_dir = case.join("expected");
    if bless {
        let _ = std::fs::remove_dir_all(&expected_dir);
    }
    for f in files_of(&repo) {
        let now = std::fs::read(repo.join(&f)).unwrap();
        let was = std::fs::read(case.join("tree").join(&f)).ok();
        if was.as_deref() == Some(now.as_slice()) {
            continue;
        }
        let want = expected_dir.join(&f);
        if bless {
            std::fs::create_dir_all(want.parent().unwrap()).unwrap();
            std::fs::write(&want, &now).unwrap();
        } else if std::fs::read(&want).ok().as_deref() != Some(now.as_slice()) {
            failures.push(format!("{name}: {f} differs from expected/{f}"));
        }
    }
    for f in files_of(&expected_dir) {
        if !repo.join(&f).is_file() || before.contains(&f) && !files_of(&repo).contains(&f) {
            failures.push(format!("{name}: expected/{f} was not written"));
        }
    }

    // Every rendered build root builds with the real kustomize after apply.
    for b in &report.builds {
        if matches!(b.status, "verified" | "differs")
            && let Err(e) = kustomize_build(&repo, if b.build == "." { "" } else { &b.build })
        {
            failures.push(format!(
                "{name}: kubectl kustomize {} fails after apply: {e}",
                b.build
            ));
        }
        if b.status == "differs" && !diagnostics.contains("render/build-differs") {
            failures.push(format!("{name}: build {} differs", b.build));
        }
    }

    // Facts on the real render after apply.
    if let Ok(text) = std::fs::read_to_string(case.join("expect.yaml")) {
        let facts: Value = gateway_migrate::yaml::parse_document(&text)
            .unwrap()
            .unwrap();
        for fact in facts.as_array().unwrap() {
            let s = |k: &str| {
                fact.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            let build = s("build");
            let objects = match kustomize_build(&repo, if build == "." { "" } else { &build }) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{name}: {build} does not build: {e}"));
                    continue;
                }
            };
            let found: Vec<&Value> = objects
                .iter()
                .filter(|o| {
                    o["kind"] == s("kind").as_str()
                        && o["metadata"]["name"] == s("name").as_str()
                        && (s("namespace").is_empty()
                            || o["metadata"]["namespace"] == s("namespace").as_str())
                })
                .collect();
            if fact.get("absent").and_then(Value::as_bool) == Some(true) {
                if !found.is_empty() {
                    failures.push(format!(
                        "{name}: {build} renders {} {} but must not",
                        s("kind"),
                        s("name")
                    ));
                }
                continue;
            }
            match found.first() {
                None => failures.push(format!(
                    "{name}: {build} renders no {} {}",
                    s("kind"),
                    s("name")
                )),
                Some(o) => {
                    let got = o.pointer(&s("pointer")).cloned().unwrap_or(Value::Null);
                    if Some(&got) != fact.get("equals") {
                        failures.push(format!(
                            "{name}: {build} {} {} {}: {got} (expected {})",
                            s("kind"),
                            s("name"),
                            s("pointer"),
                            fact.get("equals").unwrap_or(&Value::Null)
                        ));
                    }
                }
            }
        }
    }

    // Idempotence: a second apply writes nothing; check passes.
    let again = run(&repo, renderer.clone(), false);
    if !again.plan.is_empty() {
        failures.push(format!(
            "{name}: the second apply changed {:?}",
            again.plan.edits.iter().map(|e| &e.path).collect::<Vec<_>>()
        ));
    }
    let check = run(&repo, renderer, true);
    if check.check_fails() && !diagnostics.contains("error") {
        failures.push(format!(
            "{name}: check fails after apply: {:?}",
            check
                .diagnostics
                .iter()
                .filter(|d| d.severity == gateway_migrate::diagnostic::Severity::Error)
                .map(|d| &d.message)
                .collect::<Vec<_>>()
        ));
    }
    CaseRun { codes, failures }
}

fn compare(path: &Path, actual: &str, bless: bool, failures: &mut Vec<String>) {
    if bless {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected != actual {
        failures.push(format!(
            "{} differs:\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        ));
    }
}

/// Runs every case; returns the codes they emitted (for the registry coverage test), `None`
/// without kustomize.
pub fn run_all(bless: bool) -> Option<BTreeSet<Code>> {
    let renderer = kubectl()?;
    let cases = cases();
    assert!(cases.len() >= 10, "only {} render cases", cases.len());
    let mut codes = BTreeSet::new();
    let mut failures = Vec::new();
    for case in &cases {
        let r = run_case(case, &renderer, bless);
        codes.extend(r.codes);
        failures.extend(r.failures);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    Some(codes)
}

/// The codes the render cases emit, from one run shared by the tests of this binary; `None`
/// without kustomize.
pub fn emitted_codes() -> Option<BTreeSet<Code>> {
    static CODES: std::sync::OnceLock<Option<BTreeSet<Code>>> = std::sync::OnceLock::new();
    CODES.get_or_init(|| run_all(false)).clone()
}

#[test]
fn render_cases_verify_after_apply() {
    if std::env::var_os("BLESS").is_some() {
        run_all(true);
    } else {
        emitted_codes();
    }
}

/// Acceptance: a kustomization with an exec function, a Helm chart and a `../../outside`
/// resource is handled with none of them executed or read. Markers prove it: the function's
/// script and a fake `helm` first on `PATH` would create files; a canary object sits outside
/// the repository.
#[test]
fn untrusted_kustomizations_run_nothing_and_read_nothing_outside() {
    let Some(renderer) = kubectl() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/render/untrusted-inputs");
    crate::common::copy_dir(&case.join("tree"), &repo);
    let exec_marker = tmp.path().join("function-ran");
    let helm_marker = tmp.path().join("helm-ran");
    let script = format!("#!/bin/sh\ntouch '{}'\ncat\n", exec_marker.display());
    std::fs::write(repo.join("app/fn.sh"), script).unwrap();
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::write(
        bin.join("helm"),
        format!("#!/bin/sh\ntouch '{}'\n", helm_marker.display()),
    )
    .unwrap();
    for f in [repo.join("app/fn.sh"), bin.join("helm")] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::create_dir(tmp.path().join("outside")).unwrap();
    std::fs::write(
        tmp.path().join("outside/canary.yaml"),
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: canary-outside-7f3e\nspec:\n  rules:\n  - host: canary-outside-7f3e.example.com\n",
    )
    .unwrap();

    let outcome = run(&repo, Some(renderer.clone()), false);
    let report = Report::build(&outcome);
    let json = gateway_migrate::report::json::render(&report);
    let codes: BTreeSet<&str> = report.diagnostics.iter().map(|d| d.code.id()).collect();
    for code in [
        "render/plugin-refused",
        "render/helm-refused",
        "render/outside-root",
        "render/unread-kustomization",
    ] {
        assert!(codes.contains(code), "{code} not reported: {codes:?}");
    }
    assert_eq!(
        report
            .builds
            .iter()
            .map(|b| (b.build.as_str(), b.status))
            .collect::<Vec<_>>(),
        vec![
            ("app", "refused"),
            ("bypass", "refused"),
            ("case", "refused")
        ]
    );
    assert!(!exec_marker.exists(), "the exec function ran");
    assert!(!helm_marker.exists(), "helm ran");
    assert!(
        !json.contains("canary-outside-7f3e"),
        "the outside file was read: {json}"
    );
    for f in files_of(&repo) {
        let text = std::fs::read_to_string(repo.join(&f)).unwrap_or_default();
        assert!(
            !text.contains("canary-outside-7f3e"),
            "{f} holds the outside canary"
        );
    }
    // The files are still translated, as they are.
    assert!(repo.join("app/ingress.gateway-api.yaml").is_file());

    // Second line of defence: kustomize itself, run the way the tool runs it on a build the
    // checks would have refused, executes nothing either.
    let scratch = tempfile::tempdir().unwrap();
    crate::common::copy_dir(&repo, scratch.path());
    std::fs::write(
        scratch.path().join("app/kustomization.yaml"),
        "resources:\n- ingress.yaml\ntransformers:\n- fn.yaml\n",
    )
    .unwrap();
    let result = renderer.render(scratch.path(), "app", renderer.timeout);
    assert!(
        result.is_err(),
        "kustomize ran the exec function's build: {result:?}"
    );
    std::fs::write(
        scratch.path().join("app/kustomization.yaml"),
        "resources:\n- ingress.yaml\nhelmCharts:\n- name: web\n  chartHome: charts\n  releaseName: web\n",
    )
    .unwrap();
    let result = renderer.render(scratch.path(), "app", renderer.timeout);
    assert!(result.is_err(), "kustomize inflated the chart: {result:?}");
    assert!(
        !exec_marker.exists(),
        "the exec function ran under kustomize"
    );
    assert!(!helm_marker.exists(), "helm ran under kustomize");
}

/// Acceptance 3: `check` fails once an overlay's Ingress patch is edited, and passes again
/// after apply.
#[test]
fn check_fails_after_an_overlay_patch_is_edited_and_passes_after_apply() {
    let Some(renderer) = kubectl() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/render/overlay-ingress-host");
    crate::common::copy_dir(&case.join("tree"), &repo);
    run(&repo, Some(renderer.clone()), false);
    assert!(!run(&repo, Some(renderer.clone()), true).check_fails());
    let patch = repo.join("overlays/development/ingress-host.yaml");
    let text = std::fs::read_to_string(&patch).unwrap();
    assert!(text.contains("development.app1.local"), "{text}");
    std::fs::write(
        &patch,
        text.replace("development.app1.local", "dev.app1.local"),
    )
    .unwrap();
    let stale = run(&repo, Some(renderer.clone()), true);
    assert!(
        stale.check_fails(),
        "check passes after the overlay's host changed"
    );
    // The overlay's generated patch no longer matches what its build needs.
    assert!(
        stale
            .diagnostics
            .iter()
            .any(|d| d.code == Code::CheckOutdated
                && d.location.file == "overlays/development/gateway-migrate.build-patches.yaml"),
        "{:#?}",
        stale.diagnostics
    );
    run(&repo, Some(renderer.clone()), false);
    let after = run(&repo, Some(renderer), true);
    assert!(!after.check_fails(), "{:#?}", after.diagnostics);
    let built = kustomize_build(&repo, "overlays/development").unwrap();
    assert!(
        built
            .iter()
            .any(|o| o["kind"] == "HTTPRoute" && o["spec"]["hostnames"][0] == "dev.app1.local")
    );
}
