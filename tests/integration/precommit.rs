//! The pre-commit hooks of `.pre-commit-hooks.yaml`, run by the real pre-commit against a
//! committed copy of this project (`language: rust`: pre-commit `cargo install`s it), in a
//! fixture git repository (`fixtures/precommit/repo`).
//!
//! `pre-commit try-repo` would build the project in a throwaway store on every call; `run -c
//! CONFIG` with a persistent `PRE_COMMIT_HOME` (under the target directory) tests the same
//! hooks and builds once per content of the project. The copy is committed with fixed dates,
//! so the same sources give the same revision and pre-commit reuses its environment.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        // Plain git never runs pre-commit here; if a hook did, it would land in this
        // directory, which the test checks is never created.
        .env("PRE_COMMIT_HOME", stray_pre_commit_home())
        .output()
        .unwrap()
}

fn stray_pre_commit_home() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-home-unused")
}

fn git_ok(dir: &Path, args: &[&str]) -> String {
    let out = git(dir, args);
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// What `cargo install` needs of the project, committed in a repository of its own.
fn project_copy(at: &Path) -> String {
    let _ = std::fs::remove_dir_all(at);
    std::fs::create_dir_all(at).unwrap();
    for file in ["Cargo.toml", "Cargo.lock", ".pre-commit-hooks.yaml"] {
        std::fs::copy(manifest().join(file), at.join(file)).unwrap();
    }
    for dir in ["src", "crds"] {
        crate::common::copy_dir(&manifest().join(dir), &at.join(dir));
    }
    git_ok(at, &["init", "-q"]);
    git_ok(at, &["add", "-A"]);
    git_ok(at, &["commit", "-qm", "gateway-migrate"]);
    git_ok(at, &["rev-parse", "HEAD"])
}

struct PreCommit {
    home: PathBuf,
    cargo_target: PathBuf,
}

impl PreCommit {
    fn run(&self, repo: &Path, args: &[&str]) -> Output {
        self.isolated(Command::new("pre-commit").args(args).current_dir(repo))
    }

    /// `git` with the same environment: `git commit` runs the installed hook, which is
    /// pre-commit again. Without it the hook would build into `~/.cache/pre-commit`, a full
    /// optimised build (about 1 GB) outside the test's directories on every change of the
    /// sources.
    fn git(&self, repo: &Path, args: &[&str]) -> Output {
        self.isolated(Command::new("git").args(args).current_dir(repo))
    }

    fn isolated(&self, command: &mut Command) -> Output {
        command
            .env("PRE_COMMIT_HOME", &self.home)
            // The hook's `cargo install` builds into a persistent directory, unoptimised: what
            // is tested is the hooks' behaviour, not the binary's speed.
            .env("CARGO_TARGET_DIR", &self.cargo_target)
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
            .env("GATEWAY_MIGRATE_CACHE_DIR", "")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap()
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn config(project: &Path, rev: &str, pass_filenames: bool) -> String {
    let extra = if pass_filenames {
        "\n        pass_filenames: true"
    } else {
        ""
    };
    format!(
        "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: gateway-migrate-check{extra}\n      - id: gateway-migrate{extra}\n",
        project.display()
    )
}

#[test]
fn the_hooks_fail_write_refuse_untracked_files_and_pass_once_added() {
    let available = Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !crate::common::required(available, "pre-commit", "the pre-commit hooks") {
        return;
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let project = tmp.join("pre-commit-project");
    let rev = project_copy(&project);
    let pc = PreCommit {
        home: tmp.join("pre-commit-home"),
        cargo_target: tmp.join("pre-commit-cargo"),
    };
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    crate::common::copy_dir(&manifest().join("fixtures/precommit/repo"), repo);
    std::fs::write(
        repo.join(".pre-commit-config.yaml"),
        config(&project, &rev, false),
    )
    .unwrap();
    git_ok(repo, &["init", "-q"]);
    git_ok(repo, &["add", "-A"]);
    git_ok(repo, &["commit", "-qm", "manifests"]);
    let cfg = ".pre-commit-config.yaml";

    // 1. Translation is needed: the check hook fails and writes nothing.
    let out = pc.run(
        repo,
        &["run", "-c", cfg, "gateway-migrate-check", "--all-files"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("check/missing"), "{}", text(&out));
    assert!(!repo.join("apps/web/ingress.gateway-api.yaml").exists());

    // 2. The fixing hook writes, stages nothing, and fails because it wrote.
    let out = pc.run(repo, &["run", "-c", cfg, "gateway-migrate", "--all-files"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(repo.join("apps/web/ingress.gateway-api.yaml").exists());
    let status = git_ok(repo, &["status", "--porcelain"]);
    assert!(
        status.contains("?? apps/web/ingress.gateway-api.yaml"),
        "{status}"
    );
    assert!(status.contains("M apps/web/kustomization.yaml"), "{status}");

    // 3. `git add -u` stages the kustomization but not the new file: the commit is refused.
    pc.run(repo, &["install", "-c", cfg]);
    git_ok(repo, &["add", "-u"]);
    let commit = pc.git(repo, &["commit", "-m", "half"]);
    assert!(!commit.status.success(), "{}", text(&commit));
    assert!(
        text(&commit).contains("apps/web/ingress.gateway-api.yaml is untracked"),
        "{}",
        text(&commit)
    );

    // 4. With everything added, both hooks pass and the commit goes through.
    git_ok(repo, &["add", "-A"]);
    let commit = pc.git(repo, &["commit", "-m", "migrated"]);
    assert!(commit.status.success(), "{}", text(&commit));
    let out = pc.run(repo, &["run", "-c", cfg, "--all-files"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // 5. Filenames passed by pre-commit (a configuration overriding pass_filenames): the
    // hooks check the repository holding them, and still catch a stale file.
    std::fs::write(repo.join(cfg), config(&project, &rev, true)).unwrap();
    let out = pc.run(repo, &["run", "-c", cfg, "--all-files"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let ingress = repo.join("apps/web/ingress.yaml");
    let edited = std::fs::read_to_string(&ingress)
        .unwrap()
        .replace("www.example.com", "shop.example.com");
    std::fs::write(&ingress, edited).unwrap();
    git_ok(repo, &["add", "-A"]);
    let out = pc.run(
        repo,
        &["run", "-c", cfg, "gateway-migrate-check", "--all-files"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("check/outdated"), "{}", text(&out));

    // Every pre-commit run, including the hook `git commit` starts, used the test's store.
    assert!(
        !stray_pre_commit_home().exists(),
        "a hook ran outside the test's PRE_COMMIT_HOME"
    );
}
