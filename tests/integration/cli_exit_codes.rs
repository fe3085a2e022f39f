//! The exit-code contract (docs/exit-codes.md) as a matrix: command × repository state ×
//! threshold, on the demo repository in a temporary git repository. `0`: nothing left to do
//! and no diagnostic at or above `--fail-on`; `1`: otherwise; `2`: usage or fatal error.
//!
//! The matrix runs with `--no-render` (dozens of runs; the render stage is not what it is
//! about); the demo acceptance below runs with rendering, as a user does.

use std::path::Path;

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("gateway-migrate").unwrap()
}

fn demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo"),
        dir.path(),
    );
    git(dir.path(), &["init", "-q"]);
    commit_all(dir.path());
    dir
}

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// Commits everything, as a user does after `apply` (`check` reports generated files a
/// commit would leave out).
fn commit_all(dir: &Path) {
    git(dir, &["add", "-A"]);
    git(
        dir,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            "commit",
            "--allow-empty",
        ],
    );
}

/// Runs `command` on `dir` with `extra` flags; the exit code.
fn status(dir: &Path, command: &str, extra: &[&str]) -> i32 {
    let out = bin()
        .arg(command)
        .arg(dir)
        .args(["--quiet", "--no-render"])
        .args(extra)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    out.status.code().unwrap_or(-1)
}

/// The demo's errors and warnings (from the registry, so a new demo diagnostic shows up as a
/// failing row rather than a silently different state).
// `equivalence/changed`: the blog Ingress's paths are case-insensitive regexes in ingress-nginx
// (rewrite-target), case-sensitive PathPrefix in the output.
const DEMO_ERRORS: &[&str] = &[
    "attach/backend-not-found",
    "equivalence/changed",
    "istio/direct-response-dropped",
];
const DEMO_WARNINGS: &[&str] = &[
    "attach/certificate-unknown",
    "ingress/class-choice",
    "istio/prefix-semantics",
    "istio/retries",
    "ingress-nginx/proxy-body-size",
    "ingress-nginx/controller-config-assumed",
];

fn suppress(dir: &Path, codes: &[&str]) {
    let rules: String = codes
        .iter()
        .map(|c| format!("  - codes: [{c}]\n    reason: accepted in review\n"))
        .collect();
    std::fs::write(
        dir.join(".gateway-migrate.yaml"),
        format!("ignore:\n{rules}"),
    )
    .unwrap();
}

#[test]
fn the_exit_code_matrix() {
    // (state, command, flags, expected)
    let thresholds: &[(&str, &[&str])] = &[
        ("default", &[]),
        ("warning", &["--fail-on", "warning"]),
        ("never", &["--fail-on", "never"]),
        ("exit-zero", &["--exit-zero"]),
    ];
    let mut failures = Vec::new();
    let mut check = |state: &str, dir: &Path, expected: &[(&str, [i32; 4])]| {
        for (command, codes) in expected {
            for ((name, flags), want) in thresholds.iter().zip(codes) {
                // `apply` writes: run it on a copy so the state stays what the row says.
                let got = if *command == "apply" {
                    let copy = tempfile::tempdir().unwrap();
                    crate::common::copy_dir(dir, copy.path());
                    status(copy.path(), command, flags)
                } else {
                    status(dir, command, flags)
                };
                if got != *want {
                    failures.push(format!(
                        "{state}: {command} --fail-on {name}: got {got}, want {want}"
                    ));
                }
            }
        }
    };
    // Untranslated: plan and check have changes to make; apply makes them and leaves the
    // errors (and warnings).
    let fresh = demo();
    check(
        "untranslated",
        fresh.path(),
        &[
            ("plan", [1, 1, 1, 0]),
            ("check", [1, 1, 1, 0]),
            ("apply", [1, 1, 0, 0]),
        ],
    );
    // Applied: nothing left to write; the errors and warnings remain.
    let applied = demo();
    assert_eq!(status(applied.path(), "apply", &["--exit-zero"]), 0);
    commit_all(applied.path());
    check(
        "applied",
        applied.path(),
        &[
            ("plan", [1, 1, 0, 0]),
            ("check", [1, 1, 0, 0]),
            ("apply", [1, 1, 0, 0]),
        ],
    );
    // Errors accepted: the default passes, --fail-on warning does not.
    suppress(applied.path(), DEMO_ERRORS);
    commit_all(applied.path());
    check(
        "applied, errors suppressed",
        applied.path(),
        &[
            ("plan", [0, 1, 0, 0]),
            ("check", [0, 1, 0, 0]),
            ("apply", [0, 1, 0, 0]),
        ],
    );
    // Everything accepted: only info is left.
    let all: Vec<&str> = DEMO_ERRORS.iter().chain(DEMO_WARNINGS).copied().collect();
    suppress(applied.path(), &all);
    commit_all(applied.path());
    check(
        "applied, all suppressed",
        applied.path(),
        &[
            ("plan", [0, 0, 0, 0]),
            ("check", [0, 0, 0, 0]),
            ("apply", [0, 0, 0, 0]),
        ],
    );
    assert_eq!(
        status(applied.path(), "check", &["--fail-on", "info"]),
        1,
        "info notes fail --fail-on info"
    );
    // A stale file fails check whatever the threshold (only --exit-zero hides it).
    std::fs::remove_file(applied.path().join("shop/routes.gateway-api.yaml")).unwrap();
    check(
        "applied, a generated file deleted",
        applied.path(),
        &[("plan", [1, 1, 1, 0]), ("check", [1, 1, 1, 0])],
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn convert_fails_on_diagnostics_at_the_threshold_only() {
    let vs = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo/shop/routes.yaml"),
    )
    .unwrap();
    let run = |flags: &[&str]| {
        bin()
            .arg("convert")
            .args(flags)
            .write_stdin(vs.clone())
            .output()
            .unwrap()
            .status
            .code()
    };
    // directResponse is dropped: an error.
    assert_eq!(run(&[]), Some(1));
    assert_eq!(run(&["--fail-on", "never"]), Some(0));
    assert_eq!(run(&["--select", "istio/retries"]), Some(0));
    assert_eq!(
        run(&["--select", "istio/retries", "--fail-on", "warning"]),
        Some(1)
    );
    assert_eq!(
        run(&["--min-severity", "error", "--fail-on", "warning"]),
        Some(1)
    );
}

#[test]
fn usage_and_fatal_errors_exit_2() {
    let dir = demo();
    let root = dir.path();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["plan".into(), "--no-such-flag".into()],
            "unexpected argument",
        ),
        (
            vec!["plan".into(), root.join("missing").display().to_string()],
            "does not exist",
        ),
        (
            vec![
                "plan".into(),
                root.display().to_string(),
                "--config".into(),
                root.join("nope.yaml").display().to_string(),
            ],
            "config file",
        ),
        (
            vec![
                "check".into(),
                root.display().to_string(),
                "--select".into(),
                "istio/retrys".into(),
            ],
            "did you mean `istio/retries`?",
        ),
        (
            vec![
                "plan".into(),
                root.display().to_string(),
                "--output".into(),
                "yaml=x".into(),
            ],
            "unknown format",
        ),
        // convert takes no repository options.
        (
            vec!["convert".into(), "--include".into(), "x".into()],
            "unexpected argument",
        ),
        (
            vec![
                "pr".into(),
                root.display().to_string(),
                "--format".into(),
                "sarif".into(),
            ],
            "--output FORMAT=PATH",
        ),
    ];
    for (args, says) in cases {
        let out = bin()
            .args(&args)
            .env("GITHUB_TOKEN", "ghp_0123456789abcdefghijklmnopqrstuvwxyz")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
    let missing_config = bin()
        .args(["plan", "--config"])
        .arg(root.join("nope.yaml"))
        .arg(root)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&missing_config.stderr).contains("nope.yaml does not exist"),
        "{missing_config:?}"
    );
}

/// Acceptance: the demo repository after `apply`, with its diagnostics suppressed (inline
/// and in the configuration), gives 0 for `plan`, `apply` and `check`, rendering included.
#[test]
fn the_demo_after_apply_with_its_diagnostics_suppressed_exits_0() {
    if crate::render::kubectl().is_none() {
        return;
    }
    let dir = demo();
    let root = dir.path();
    let run = |command: &str| {
        let out = bin()
            .arg(command)
            .arg(root)
            .env("GATEWAY_MIGRATE_CACHE_DIR", "")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    assert_eq!(run("apply").0, 1, "errors are left after the first apply");
    commit_all(root);
    // One error accepted inline, on its field; the rest in the configuration.
    let routes = root.join("shop/routes.yaml");
    let text = std::fs::read_to_string(&routes).unwrap();
    let accepted = text.replacen(
        "    directResponse:",
        "    directResponse: # gateway-migrate: ignore[istio/direct-response-dropped] the health answer moves to the app",
        1,
    );
    assert_ne!(accepted, text, "the demo has a directResponse");
    std::fs::write(&routes, accepted).unwrap();
    let rest: Vec<&str> = DEMO_ERRORS
        .iter()
        .chain(DEMO_WARNINGS)
        .copied()
        .filter(|c| *c != "istio/direct-response-dropped")
        .collect();
    suppress(root, &rest);
    // The edited source makes its generated file outdated: apply brings it up to date.
    let (code, out) = run("plan");
    assert_eq!(code, 1, "the edited source must be re-applied: {out}");
    let (code, out) = run("apply");
    assert_eq!(code, 0, "apply: {out}");
    commit_all(root);
    for command in ["apply", "plan", "check"] {
        let (code, out) = run(command);
        assert_eq!(code, 0, "{command}: {out}");
        assert!(
            out.starts_with("0 errors, 0 warnings, "),
            "{command}: {out}"
        );
        assert!(
            out.lines().next().unwrap().contains("; 10 suppressed"),
            "{command}: {out}"
        );
    }
}
