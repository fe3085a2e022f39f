//! The composite action (`action.yml`) run locally, step by step, the way the runner runs it:
//! each `run:` step with `bash --noprofile --norc -eo pipefail`, its `env:` expressions
//! evaluated from the inputs, the `github`/`runner` contexts and earlier steps' outputs, a
//! fresh `$GITHUB_OUTPUT` per step, and one `$GITHUB_STEP_SUMMARY` and `$GITHUB_PATH` per
//! job. `uses:` steps (the cache) are skipped: the release path does not take them. The
//! release asset and its checksum are served from 127.0.0.1.
//!
//! The evaluator knows only the expressions the action uses and panics on any other, so the
//! action cannot grow an expression this test does not run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::common::{FakeGitHub, ok_json};

const REF: &str = "v9.8.7";
const TARGET: &str = "x86_64-unknown-linux-musl";

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn action() -> serde_json::Value {
    gateway_migrate::yaml::from_str(
        &std::fs::read_to_string(manifest().join("action.yml")).unwrap(),
    )
    .unwrap()
}

/// One job's run of the action.
struct Job {
    inputs: BTreeMap<String, String>,
    env: BTreeMap<String, String>,
    temp: PathBuf,
    summary: PathBuf,
    github_path: PathBuf,
    steps: BTreeMap<String, BTreeMap<String, String>>,
    log: String,
}

impl Job {
    fn new(dir: &Path, workspace: &Path, inputs: &[(&str, &str)]) -> Job {
        let temp = dir.join("runner-temp");
        std::fs::create_dir_all(&temp).unwrap();
        let summary = dir.join("step-summary.md");
        let github_path = dir.join("github-path");
        std::fs::write(&summary, "").unwrap();
        std::fs::write(&github_path, "").unwrap();
        let mut env = BTreeMap::new();
        for (k, v) in [
            ("GITHUB_ACTIONS", "true".to_string()),
            ("GITHUB_ACTION_PATH", manifest().display().to_string()),
            ("GITHUB_WORKSPACE", workspace.display().to_string()),
            ("GITHUB_STEP_SUMMARY", summary.display().to_string()),
            ("GITHUB_PATH", github_path.display().to_string()),
            ("RUNNER_OS", "Linux".into()),
            ("RUNNER_ARCH", "X64".into()),
            ("RUNNER_TEMP", temp.display().to_string()),
            ("GATEWAY_MIGRATE_CACHE_DIR", String::new()),
        ] {
            env.insert(k.to_string(), v);
        }
        Job {
            inputs: inputs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            env,
            temp,
            summary,
            github_path,
            steps: BTreeMap::new(),
            log: String::new(),
        }
    }

    /// `${{ expr }}` for the expressions the action uses.
    fn eval(&self, expr: &str) -> String {
        let expr = expr.trim();
        let parts: Vec<&str> = expr.split('.').collect();
        match parts.as_slice() {
            ["inputs", name] => match self.inputs.get(*name) {
                Some(v) => v.clone(),
                None => {
                    let default = action()["inputs"][*name]["default"]
                        .as_str()
                        .unwrap_or_else(|| panic!("no input {name}"))
                        .to_string();
                    self.substitute(&default)
                }
            },
            ["github", "action_ref"] => REF.into(),
            ["github", "action_repository"] => "gateway-migrate/gateway-migrate".into(),
            ["github", "token"] => "ghp_default_token_of_the_job_0123456789".into(),
            ["runner", "os"] => "Linux".into(),
            ["runner", "arch"] => "X64".into(),
            ["runner", "temp"] => self.temp.display().to_string(),
            ["steps", id, "outputs", name] => self
                .steps
                .get(*id)
                .and_then(|o| o.get(*name))
                .cloned()
                .unwrap_or_default(),
            _ => panic!("action.yml uses an expression this runner does not know: {expr}"),
        }
    }

    fn substitute(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").unwrap() + start;
            out.push_str(&self.eval(&rest[start + 3..end]));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// `if:` conditions: `steps.ID.outputs.NAME == 'VALUE'`.
    fn condition(&self, cond: &str) -> bool {
        let (left, right) = cond
            .split_once("==")
            .unwrap_or_else(|| panic!("unsupported if: {cond}"));
        self.eval(left) == right.trim().trim_matches('\'')
    }

    /// Runs every step; the exit code of the first failing step, or 0.
    fn run(&mut self) -> i32 {
        let action = action();
        assert_eq!(action["runs"]["using"], "composite");
        for step in action["runs"]["steps"].as_array().unwrap() {
            let name = step["name"].as_str().unwrap_or("step");
            if let Some(cond) = step["if"].as_str()
                && !self.condition(cond)
            {
                self.log.push_str(&format!("skipped (if): {name}\n"));
                continue;
            }
            if step["uses"].is_string() {
                self.log.push_str(&format!("skipped (uses): {name}\n"));
                continue;
            }
            assert_eq!(step["shell"], "bash", "{name}: every run step uses bash");
            let script = self.temp.join("step.sh");
            std::fs::write(&script, step["run"].as_str().unwrap()).unwrap();
            let output_file = self.temp.join("step-output");
            std::fs::write(&output_file, "").unwrap();
            let mut cmd = std::process::Command::new("bash");
            cmd.args(["--noprofile", "--norc", "-eo", "pipefail"])
                .arg(&script)
                .current_dir(&self.env["GITHUB_WORKSPACE"])
                .envs(&self.env)
                .env("GITHUB_OUTPUT", &output_file);
            if let Some(env) = step["env"].as_object() {
                for (k, v) in env {
                    cmd.env(k, self.substitute(v.as_str().unwrap()));
                }
            }
            let out = cmd.output().unwrap();
            self.log.push_str(&format!(
                "== {name}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
            let outputs: BTreeMap<String, String> = std::fs::read_to_string(&output_file)
                .unwrap()
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            if let Some(id) = step["id"].as_str() {
                self.steps.insert(id.to_string(), outputs);
            }
            if !out.status.success() {
                return out.status.code().unwrap_or(-1);
            }
        }
        0
    }

    /// The action's outputs, from `outputs.*.value`.
    fn outputs(&self) -> BTreeMap<String, String> {
        action()["outputs"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), self.substitute(v["value"].as_str().unwrap())))
            .collect()
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The release asset: this build's binary in the archive the release workflow makes.
fn release_asset(dir: &Path) -> Vec<u8> {
    let stage = dir.join("stage");
    std::fs::create_dir_all(&stage).unwrap();
    std::fs::copy(
        env!("CARGO_BIN_EXE_gateway-migrate"),
        stage.join("gateway-migrate"),
    )
    .unwrap();
    let archive = dir.join("asset.tar.gz");
    let status = std::process::Command::new("tar")
        .arg("-C")
        .arg(&stage)
        .arg("-czf")
        .arg(&archive)
        .arg("gateway-migrate")
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read(archive).unwrap()
}

/// Serves the asset and `checksum` as release `REF` (GET and HEAD).
fn serve_release(server: &FakeGitHub, asset: Vec<u8>, checksum: String) {
    let name = format!("/download/{REF}/gateway-migrate-{TARGET}.tar.gz");
    for verb in ["GET", "HEAD"] {
        server.mount(
            Mock::given(method(verb))
                .and(path(name.clone()))
                .respond_with(ResponseTemplate::new(200).set_body_bytes(asset.clone())),
        );
        server.mount(
            Mock::given(method(verb))
                .and(path(format!("{name}.sha256")))
                .respond_with(ResponseTemplate::new(200).set_body_string(checksum.clone())),
        );
    }
}

/// Serves the release asset built from this binary with its correct checksum.
fn serve_verified_release(server: &FakeGitHub, dir: &Path) {
    let asset = release_asset(dir);
    let checksum = format!("{}  gateway-migrate-{TARGET}.tar.gz\n", sha256_hex(&asset));
    serve_release(server, asset, checksum);
}

fn demo_workspace(dir: &Path) -> PathBuf {
    let ws = dir.join("workspace");
    crate::common::copy_dir(&manifest().join("fixtures/demo-repo"), &ws);
    let git = |args: &[&str]| {
        assert!(
            std::process::Command::new("git")
                .args(args)
                .current_dir(&ws)
                .status()
                .unwrap()
                .success()
        );
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@e",
        "commit",
        "-qm",
        "demo",
    ]);
    ws
}

#[test]
fn a_wrong_checksum_fails_the_install_and_installs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ws = demo_workspace(dir.path());
    let server = FakeGitHub::start();
    let asset = release_asset(dir.path());
    let wrong = sha256_hex(b"something else");
    serve_release(
        &server,
        asset,
        format!("{wrong}  gateway-migrate-{TARGET}.tar.gz\n"),
    );
    let mut job = Job::new(dir.path(), &ws, &[("command", "check")]);
    job.env
        .insert("GM_RELEASE_URL".into(), server.uri() + "/download");
    let code = job.run();
    assert_ne!(code, 0, "{}", job.log);
    assert!(job.log.contains("checksum mismatch"), "{}", job.log);
    assert_eq!(job.steps["resolve"]["mode"], "release", "{}", job.log);
    assert!(!job.log.contains("== Run gateway-migrate"), "{}", job.log);
    assert!(
        !job.temp
            .join(format!("gateway-migrate-{REF}/bin/gateway-migrate"))
            .exists()
    );
    assert_eq!(std::fs::read_to_string(&job.github_path).unwrap(), "");
}

#[test]
fn check_installs_the_verified_binary_and_reports_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let ws = demo_workspace(dir.path());
    let server = FakeGitHub::start();
    serve_verified_release(&server, dir.path());
    let mut job = Job::new(
        dir.path(),
        &ws,
        &[("command", "check"), ("args", "--no-render")],
    );
    job.env
        .insert("GM_RELEASE_URL".into(), server.uri() + "/download");
    let code = job.run();
    // The demo needs translating and has errors: the step fails (fail-on error).
    assert_eq!(code, 1, "{}", job.log);
    assert!(
        job.log
            .contains("skipped (if): Cache the build from source")
    );

    // The installed binary is the served one, on the job's PATH.
    let bin = PathBuf::from(&job.steps["install"]["bin"]);
    assert_eq!(
        sha256_hex(&std::fs::read(&bin).unwrap()),
        sha256_hex(&std::fs::read(env!("CARGO_BIN_EXE_gateway-migrate")).unwrap())
    );
    assert_eq!(
        std::fs::read_to_string(&job.github_path).unwrap().trim(),
        bin.parent().unwrap().display().to_string()
    );

    // Annotations in the log, at the source lines; the job summary; the SARIF file.
    assert!(
        job.log.contains("::group::gateway-migrate report"),
        "{}",
        job.log
    );
    assert!(
        job.log.contains(
            "::error file=shop/routes.yaml,line=33,endLine=35,title=gateway-migrate istio/direct-response-dropped::"
        ),
        "{}",
        job.log
    );
    let summary = std::fs::read_to_string(&job.summary).unwrap();
    assert!(
        summary.starts_with("<!-- gateway-migrate:report -->"),
        "{summary}"
    );
    let outputs = job.outputs();
    let sarif_path = PathBuf::from(&outputs["sarif-file"]);
    assert!(sarif_path.starts_with(&job.temp), "{sarif_path:?}");
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif_path).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");

    // Each output, against the same run's JSON report.
    let report = std::process::Command::new(&bin)
        .args(["check", "--no-render", "--format", "json", "--exit-zero"])
        .arg(&ws)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(outputs["changed"], "true");
    assert_eq!(
        outputs["objects-translated"],
        report["objects"].as_array().unwrap().len().to_string()
    );
    assert_eq!(outputs["objects-translated"], "3");
    assert_eq!(
        outputs["errors"],
        report["summary"]["notes"]["error"].to_string()
    );
    assert_eq!(
        outputs["warnings"],
        report["summary"]["notes"]["warning"].to_string()
    );
    assert_eq!(
        sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .len()
            .to_string(),
        (report["summary"]["notes"]["error"].as_u64().unwrap()
            + report["summary"]["notes"]["warning"].as_u64().unwrap())
        .to_string()
    );
    for pr_output in [
        "pull-request-number",
        "pull-request-url",
        "pull-request-operation",
    ] {
        assert_eq!(outputs[pr_output], "", "{pr_output} is for `pr` only");
    }

    // fail-on never: a report-only run passes.
    let mut job = Job::new(
        dir.path(),
        &ws,
        &[
            ("command", "check"),
            ("args", "--no-render"),
            ("fail-on", "never"),
        ],
    );
    job.env
        .insert("GM_RELEASE_URL".into(), server.uri() + "/download");
    assert_eq!(job.run(), 0, "{}", job.log);
}

/// `pr` through the action: the token input reaches the tool, and the pull request outputs
/// come back (here: nothing left to migrate, so `--close-stale` closes the open one).
#[test]
fn pr_sets_the_pull_request_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let fx = crate::common::Fixture::new();
    let gh = FakeGitHub::start();
    let open = crate::common::pr_json(7, "Migrate to the Gateway API", "body", &[]);
    let mut closed = open.clone();
    closed["state"] = serde_json::json!("closed");
    gh.mount(
        crate::common::list_prs()
            .respond_with(ok_json(200, serde_json::json!([open])))
            .expect(1),
    );
    gh.mount(
        crate::common::patch_pr(7, serde_json::json!({"state": "closed"}))
            .respond_with(ok_json(200, closed))
            .expect(1),
    );
    serve_verified_release(&gh, dir.path());
    let mut job = Job::new(
        dir.path(),
        &fx.work,
        &[
            ("command", "pr"),
            ("token", crate::common::TOKEN),
            ("branch", crate::common::BRANCH),
            ("labels", "gateway-api, migration"),
            ("args", "--close-stale --no-render"),
        ],
    );
    job.env
        .insert("GM_RELEASE_URL".into(), gh.uri() + "/download");
    job.env.insert("GITHUB_API_URL".into(), gh.uri());
    job.env.insert(
        "GITHUB_REPOSITORY".into(),
        format!("{}/{}", crate::common::OWNER, crate::common::REPO),
    );
    assert_eq!(job.run(), 0, "{}", job.log);
    gh.verify();
    let outputs = job.outputs();
    assert_eq!(outputs["pull-request-operation"], "closed", "{}", job.log);
    assert_eq!(outputs["pull-request-number"], "7");
    assert_eq!(
        outputs["pull-request-url"],
        "https://github.com/acme/deploy/pull/7"
    );
    assert_eq!(outputs["changed"], "false");
    assert!(
        !job.log.contains(crate::common::TOKEN),
        "the token never shows"
    );
}

/// `command: install` puts the verified binary on the job's PATH and runs nothing else (the
/// fleet workflow of docs/bulk.md calls `gateway-migrate bulk` in later steps).
#[test]
fn install_only_puts_the_binary_on_path() {
    let dir = tempfile::tempdir().unwrap();
    let ws = demo_workspace(dir.path());
    let server = FakeGitHub::start();
    serve_verified_release(&server, dir.path());
    let mut job = Job::new(dir.path(), &ws, &[("command", "install")]);
    job.env
        .insert("GM_RELEASE_URL".into(), server.uri() + "/download");
    let code = job.run();
    assert_eq!(code, 0, "{}", job.log);
    assert!(
        job.log
            .contains(&format!("gateway-migrate {}", env!("CARGO_PKG_VERSION"))),
        "{}",
        job.log
    );
    let path = std::fs::read_to_string(&job.github_path).unwrap();
    assert!(
        path.contains(&format!("gateway-migrate-{REF}/bin")),
        "{path}"
    );
    assert!(
        !job.log.contains("::error") && !job.log.contains("::warning"),
        "nothing was checked: {}",
        job.log
    );
    assert_eq!(job.outputs().get("changed").map(String::as_str), Some(""));
}
