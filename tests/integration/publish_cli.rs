//! `gateway-migrate pr` as a process, configured through GitHub Actions' environment.

use crate::common::scenarios;

#[test]
fn close_stale_prints_json_and_step_outputs() {
    scenarios::cli_close_stale_json();
}

#[test]
fn nothing_to_change_prints_none() {
    scenarios::cli_none_text();
}

#[test]
fn failures_exit_2_with_a_hint() {
    // Its last step pushes over HTTP.
    if !crate::common::http_git::available() {
        return;
    }
    scenarios::cli_failures();
}

/// A token too short to be GitHub's is refused before anything is scanned: masking it in
/// output would garble ordinary words ("re" in "repository").
#[test]
fn a_short_token_is_refused_before_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    // Not a git repository and not a manifest tree: `pr` must fail on the token first.
    let out = assert_cmd::Command::cargo_bin("gateway-migrate")
        .unwrap()
        .args(["pr"])
        .arg(dir.path())
        .env("GITHUB_TOKEN", "re")
        .env("GITHUB_REPOSITORY", "o/r")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 characters long"), "{err}");
    assert!(!err.contains("***"), "{err}");
}

/// The clone is checked before the scan: a directory outside any git repository, or a
/// clone without the remote, fails at once. A kustomize stand-in that leaves a mark when run
/// proves nothing was scanned or rendered.
#[test]
fn the_git_repository_and_remote_are_checked_before_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    crate::common::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo-repo"),
        &root,
    );
    let mark = dir.path().join("rendered");
    let fake = dir.path().join("kustomize");
    std::fs::write(&fake, format!("#!/bin/sh\ntouch '{}'\n", mark.display())).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let pr = |extra: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("gateway-migrate")
            .unwrap()
            .arg("pr")
            .arg(&root)
            .arg("--kustomize")
            .arg(&fake)
            .args(extra)
            .env("GITHUB_TOKEN", "ghp_0123456789abcdefghijklmnopqrstuvwxyz")
            .env_remove("GITHUB_REPOSITORY")
            .env("GATEWAY_MIGRATE_CACHE_DIR", "")
            .env("GIT_CEILING_DIRECTORIES", dir.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = pr(&[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("git"), "{err}");
    git2::Repository::init(&root).unwrap();
    let (code, err) = pr(&[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("origin"), "names the missing remote: {err}");
    let (code, err) = pr(&["--remote", "upstream"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("upstream"), "{err}");
    assert!(
        !mark.exists(),
        "kustomize ran: the scan started before the checks"
    );
}

/// A token found in the repository's content is masked in every report `pr` writes (its
/// `--output` files), not only in the pull request body.
#[test]
fn a_token_in_the_repository_is_masked_in_every_output() {
    use crate::common::{Fixture, TOKEN, commit_all, write};
    let fx = Fixture::new();
    // Files whose names are the token, as written and lowercased (the report lowercases
    // host names; a token's case can be recovered from its checksum): their paths are in
    // every report.
    for name in [TOKEN.to_string(), TOKEN.to_ascii_lowercase()] {
        write(
            &fx.work,
            &format!("apps/web/{name}.yaml"),
            &std::fs::read_to_string(fx.work.join("apps/web/app.yaml")).unwrap(),
        );
    }
    commit_all(&fx.work_repo(), "a file named after the token");
    // No route mounted: the publish step fails after the reports are written.
    let gh = crate::common::FakeGitHub::start();
    let md = fx.dir.path().join("report.md");
    let json = fx.dir.path().join("report.json");
    let mut t = scenarios::Transcript::default();
    let run = scenarios::run_cli(
        &fx,
        &gh.uri(),
        Some(TOKEN),
        &[
            "--no-render",
            "--output",
            &format!("markdown={}", md.display()),
            "--output",
            &format!("json={}", json.display()),
        ],
        &mut t,
    );
    for file in [&md, &json] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            !text
                .to_ascii_lowercase()
                .contains(&TOKEN.to_ascii_lowercase()),
            "{}: {text}",
            file.display()
        );
        assert!(
            text.contains("apps/web/***.yaml"),
            "{}: {text}",
            file.display()
        );
    }
    assert!(!run.stdout.contains(TOKEN) && !run.stderr.contains(TOKEN));
}

/// A token holding a line break (a pasted CR/LF) is refused cleanly, before anything is
/// scanned or sent, and not shown: in a clone whose remote and repository are fine, it used to
/// reach the HTTP client, which panicked on the header.
#[test]
fn a_token_with_a_line_break_is_refused_cleanly() {
    let fx = crate::common::Fixture::new();
    let gh = crate::common::FakeGitHub::start();
    for token in [
        "ghp_0123456789abcdef\r\nX-Injected: 1",
        "ghp_0123456789\nabcdef0123",
        "ghp_0123456789\u{7f}abcdef0123",
    ] {
        let mut t = scenarios::Transcript::default();
        let run = scenarios::run_cli(&fx, &gh.uri(), Some(token), &["--no-render"], &mut t);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains("control character"), "{}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        assert!(!run.stderr.contains("0123456789"), "{}", run.stderr);
    }
    let requests = gh
        .rt
        .block_on(gh.server.received_requests())
        .unwrap_or_default();
    assert!(requests.is_empty(), "a request was sent: {requests:?}");
}
