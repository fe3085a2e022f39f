//! The binary's `plan`, `apply` and `check` on small repositories: exit codes, formats, and
//! staleness of generated files found by their header.

use assert_cmd::Command;

use crate::common::write;

fn bin() -> Command {
    Command::cargo_bin("gateway-migrate").unwrap()
}

const SERVICE: &str =
    "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports: [{port: 80}]\n";

#[test]
fn a_tree_without_sources_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "app/svc.yaml", SERVICE);
    bin().arg("plan").arg(dir.path()).assert().code(0);
    bin().arg("apply").arg(dir.path()).assert().code(0);
    bin().arg("check").arg(dir.path()).assert().code(0);
    assert_eq!(
        std::fs::read_dir(dir.path().join("app")).unwrap().count(),
        1,
        "nothing written"
    );
}

/// A generated file whose source is gone: `check` fails in every format, `--fix` does not
/// delete it (the reviewer does), `plan` does not count it as a change.
#[test]
fn an_orphaned_generated_file_fails_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "app/svc.yaml", SERVICE);
    let header = gateway_migrate::header::render("app/routes.yaml", b"gone");
    write(
        root,
        "app/routes.gateway-api.yaml",
        &format!(
            "{header}---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: web\nspec: {{}}\n"
        ),
    );
    let out = bin().arg("check").arg(root).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("app/routes.gateway-api.yaml:1: error[check/orphaned]"),
        "{stdout}"
    );

    let out = bin()
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["diagnostics"][0]["code"], "check/orphaned");
    assert_eq!(json["summary"]["notes"]["error"], 1);

    let out = bin()
        .args(["check", "--format", "sarif"])
        .arg(root)
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "check/orphaned");

    let out = bin()
        .args(["check", "--format", "github"])
        .arg(root)
        .output()
        .unwrap();
    let github = String::from_utf8(out.stdout).unwrap();
    assert!(
        github.contains(
            "::error file=app/routes.gateway-api.yaml,line=1,title=gateway-migrate check/orphaned::"
        ),
        "{github}"
    );

    let out = bin()
        .args(["check", "--format", "markdown"])
        .arg(root)
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("`check/orphaned`"), "{md}");
    assert!(
        md.trim_end().ends_with("changes nothing in the cluster."),
        "{md}"
    );

    bin().args(["check", "--fix"]).arg(root).assert().code(1);
    assert!(root.join("app/routes.gateway-api.yaml").is_file());
    bin().arg("plan").arg(root).assert().code(0);
}

#[test]
fn generated_files_are_not_translated_again() {
    // A generated file holding an Ingress-looking object must not feed the translation.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "app/svc.yaml", SERVICE);
    let header = gateway_migrate::header::render("app/svc.yaml", SERVICE.as_bytes());
    write(
        root,
        "app/svc.gateway-api.yaml",
        &format!(
            "{header}---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec: {{}}\n"
        ),
    );
    let out = bin()
        .args(["plan", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["summary"]["objects"]
            .get("networking.k8s.io/Ingress")
            .is_none(),
        "{json}"
    );
    assert_eq!(json["summary"]["files_scanned"], 2);
}

#[test]
fn unknown_format_is_a_usage_error() {
    bin()
        .args(["plan", "--format", "yaml", "."])
        .assert()
        .code(2);
}

/// No progress bar when stderr is not a terminal, even on a run long enough to show one.
#[test]
fn no_progress_bar_without_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..2_100 {
        write(dir.path(), &format!("d{}/f{i}.yaml", i % 20), SERVICE);
    }
    let out = bin().arg("plan").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// On a terminal the progress line follows every phase, not just the scan; with `CI` set it
/// stays off. util-linux `script` gives the run a pseudo-terminal.
#[test]
fn progress_follows_every_phase_on_a_terminal_and_not_in_ci() {
    let script = std::process::Command::new("script")
        .arg("--version")
        .output();
    if !crate::common::required(
        script.is_ok_and(|o| o.status.success()),
        "`script` (util-linux)",
        "progress on a terminal",
    ) {
        return;
    }
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo");
    let bin = assert_cmd::cargo::cargo_bin("gateway-migrate");
    let run = |ci: Option<&str>| {
        let inner = format!(
            "{} plan {} --no-render --exit-zero >/dev/null",
            bin.display(),
            demo.display()
        );
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-qec", &inner, "/dev/null"]);
        match ci {
            Some(v) => cmd.env("CI", v),
            None => cmd.env_remove("CI"),
        };
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let terminal = run(None);
    for phase in [
        "scanning files",
        "translating",
        "validating the generated objects",
        "planning the files",
    ] {
        assert!(terminal.contains(phase), "no {phase:?} in {terminal:?}");
    }
    let ci = run(Some("true"));
    assert!(!ci.contains("scanning files"), "{ci:?}");
}

#[test]
fn a_missing_path_or_a_file_as_path_is_a_usage_error_that_says_what_to_do() {
    let out = bin().args(["plan", "/nonexistent/repo"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/repo does not exist"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vs.yaml");
    std::fs::write(&file, "kind: VirtualService\n").unwrap();
    let out = bin().arg("check").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a file") && err.contains("gateway-migrate convert"),
        "{err}"
    );
}

/// One scan, several reports: `--output FORMAT=PATH` beside the stdout format, and the job
/// summary written when a GitHub format runs inside a workflow.
#[test]
fn several_outputs_from_one_run_and_the_job_summary() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo");
    let out_dir = tempfile::tempdir().unwrap();
    let o = |name: &str| out_dir.path().join(name);
    let summary = o("step-summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let out = bin()
        .args(["plan", "--no-render", "--format", "github"])
        .arg(&demo)
        .arg("--output")
        .arg(format!("json={}", o("r.json").display()))
        .arg("--output")
        .arg(format!("sarif={}", o("r.sarif").display()))
        .arg("--output")
        .arg(format!("concise={}", o("r.txt").display()))
        .arg("--output")
        .arg(format!("MARKDOWN={}", o("r.md").display()))
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("::group::gateway-migrate report"),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(o("r.json")).unwrap()).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap().len();
    assert!(diagnostics > 5);
    let concise = std::fs::read_to_string(o("r.txt")).unwrap();
    assert_eq!(
        concise.lines().count(),
        diagnostics,
        "one line per diagnostic"
    );
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(o("r.sarif")).unwrap()).unwrap();
    let notes = &json["summary"]["notes"];
    assert_eq!(
        sarif["runs"][0]["results"].as_array().unwrap().len() as u64,
        notes["error"].as_u64().unwrap() + notes["warning"].as_u64().unwrap(),
        "SARIF leaves info out"
    );
    let markdown = std::fs::read_to_string(o("r.md")).unwrap();
    assert!(
        markdown.starts_with("<!-- gateway-migrate:report -->"),
        "{markdown}"
    );
    // Appended to what earlier steps wrote.
    let job = std::fs::read_to_string(&summary).unwrap();
    assert!(
        job.starts_with("earlier step\n<!-- gateway-migrate:report -->"),
        "{job}"
    );
}

/// In a git repository, `check` reports generated files (and kustomizations listing them)
/// that a commit would leave out, with the `git add` to run; once added, it passes.
#[test]
fn check_reports_generated_files_a_commit_would_leave_out() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    crate::common::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/precommit/repo"),
        root,
    );
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(root)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "manifests"]);
    let check = || {
        let out = bin()
            .args(["check", "--format", "concise", "--no-render"])
            .arg(root)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    bin()
        .args(["apply", "--quiet", "--no-render"])
        .arg(root)
        .assert()
        .code(0);
    let (code, out) = check();
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("apps/web/ingress.gateway-api.yaml:1: error[check/untracked-generated] apps/web/ingress.gateway-api.yaml is untracked: a commit would leave it out; run `git add -- apps/web/ingress.gateway-api.yaml` (from "),
        "{out}"
    );
    assert!(
        out.contains("apps/web/kustomization.yaml has changes that are not staged"),
        "{out}"
    );
    // A file a commit would leave out is a change, not a diagnostic: `--fail-on never`
    // (diagnostics never fail the run, changes do; docs/exit-codes.md) still fails, and so
    // does the pre-commit `git add -u` case below.
    let check_never = || {
        bin()
            .args(["check", "--quiet", "--no-render", "--fail-on", "never"])
            .arg(root)
            .output()
            .unwrap()
    };
    let never = check_never();
    assert_eq!(never.status.code(), Some(1), "{never:?}");
    git(&["add", "-u"]);
    let (code, out) = check();
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("kustomization.yaml has changes"), "{out}");
    let never = check_never();
    assert_eq!(never.status.code(), Some(1), "{never:?}");
    git(&["add", "-A"]);
    let (code, out) = check();
    assert_eq!(code, Some(0), "{out}");
    // Outside git, nothing is asked.
    let plain = tempfile::tempdir().unwrap();
    crate::common::copy_dir(root, plain.path());
    std::fs::remove_dir_all(plain.path().join(".git")).unwrap();
    bin()
        .args(["check", "--quiet", "--no-render"])
        .arg(plain.path())
        .assert()
        .code(0);
}
