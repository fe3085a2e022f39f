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
