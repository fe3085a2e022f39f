//! The repository's own `.gateway-migrate.yaml` is untrusted (issue #38): its paths stay
//! inside the repository and say nothing about what exists outside it, its output suffix
//! names a file beside its source, and its limits only tighten (raising one takes a
//! command-line flag). Each test runs the real binary on a temporary repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::write;
use crate::untrusted::INGRESS;

const GATEWAY: &str = "apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: outside-gateway-7f3a
  namespace: infra
spec:
  gatewayClassName: istio
  listeners:
    - name: http
      port: 80
      protocol: HTTP
";

/// `tmp/repo` with an Ingress and the given configuration, and `tmp/outside` with a Gateway.
fn case(config: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    write(&repo, "app/ingress.yaml", INGRESS);
    write(&repo, ".gateway-migrate.yaml", config);
    write(&tmp.path().join("outside"), "gw.yaml", GATEWAY);
    (tmp, repo)
}

fn run(repo: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(args)
        .current_dir(repo)
        .env("GATEWAY_MIGRATE_CACHE_DIR", "")
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn mount_gateways_cannot_read_outside_the_repository() {
    let outside = |tmp: &tempfile::TempDir| tmp.path().join("outside/gw.yaml");
    for mount in ["../outside/gw.yaml", "app/../../outside/gw.yaml"] {
        let (_tmp, repo) = case(&format!("ingressMode: mount\nmountGateways: {mount}\n"));
        let out = run(&repo, &["plan", ".", "--no-render"]);
        assert_eq!(out.status.code(), Some(2), "{mount}: {}", text(&out));
        assert!(text(&out).contains("mountGateways"), "{}", text(&out));
        assert!(
            !text(&out).contains("outside-gateway-7f3a"),
            "{}",
            text(&out)
        );
    }
    // An absolute path.
    let (tmp, repo) = case("ingressMode: mount\n");
    let config = format!(
        "ingressMode: mount\nmountGateways: {}\n",
        outside(&tmp).display()
    );
    write(&repo, ".gateway-migrate.yaml", &config);
    let out = run(&repo, &["plan", ".", "--no-render"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(!text(&out).contains("outside-gateway-7f3a"));
    // Through a symlink inside the repository, to a file and to a directory.
    for (link, target, mount) in [
        ("gw-link.yaml", "../outside/gw.yaml", "gw-link.yaml"),
        ("gws", "../outside", "gws/gw.yaml"),
        ("gws", "../outside", "gws"),
    ] {
        let (_tmp, repo) = case(&format!("ingressMode: mount\nmountGateways: {mount}\n"));
        std::os::unix::fs::symlink(target, repo.join(link)).unwrap();
        let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
        assert_eq!(out.status.code(), Some(2), "{mount}: {}", text(&out));
        assert!(text(&out).contains("symlink"), "{}", text(&out));
        assert!(
            !text(&out).contains("outside-gateway-7f3a"),
            "{}",
            text(&out)
        );
    }
}

#[test]
fn mount_gateways_does_not_tell_whether_an_outside_path_exists() {
    let message = |mount: &str| {
        let (tmp, repo) = case(&format!("ingressMode: mount\nmountGateways: {mount}\n"));
        let out = run(&repo, &["plan", ".", "--no-render"]);
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr)
            .replace(mount, "PATH")
            .replace(&tmp.path().display().to_string(), "TMP")
    };
    assert_eq!(
        message("../outside/gw.yaml"),
        message("../outside/missing.yaml")
    );
    assert_eq!(message("/etc/passwd"), message("/etc/no-such-file-3d9"));
}

#[test]
fn mount_gateways_inside_the_repository_still_works() {
    let (_tmp, repo) = case("ingressMode: mount\nmountGateways: ./infra//gw.yaml\n");
    write(&repo, "infra/gw.yaml", GATEWAY);
    let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out));
    assert!(
        text(&out).contains("outside-gateway-7f3a"),
        "{}",
        text(&out)
    );
}

#[test]
fn output_suffix_names_a_file_beside_its_source() {
    for suffix in ["../../escape", "a/b", "..", ".hidden", "x\\ny", ""] {
        let (tmp, repo) = case(&format!("outputSuffix: {suffix:?}\n"));
        let out = run(&repo, &["plan", ".", "--no-render", "--diff"]);
        assert_eq!(out.status.code(), Some(2), "{suffix:?}: {}", text(&out));
        assert!(text(&out).contains("outputSuffix"), "{}", text(&out));
        assert!(
            !text(&out).contains("+++"),
            "a diff was printed: {}",
            text(&out)
        );
        let out = run(&repo, &["apply", ".", "--no-render"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert_eq!(
            crate::common::files_under(tmp.path()).len(),
            3,
            "a file was written"
        );
    }
    // The flag is checked the same way.
    let (_tmp, repo) = case("");
    let out = run(
        &repo,
        &["plan", ".", "--no-render", "--output-suffix", "../x"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--output-suffix"), "{}", text(&out));
    let out = run(
        &repo,
        &["plan", ".", "--no-render", "--output-suffix", "gw.v1"],
    );
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out));
}

#[test]
fn max_file_size_in_the_repository_only_tightens() {
    // An Ingress padded past the default limit of 10 MiB.
    let big = format!("{INGRESS}{}", "# padding\n".repeat(1_100_000));
    let (_tmp, repo) = case("maxFileSize: 100000000\n");
    write(&repo, "app/ingress.yaml", &big);
    let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--max-file-size"), "{}", text(&out));
    // Lowering works, and so does the flag.
    write(&repo, ".gateway-migrate.yaml", "maxFileSize: 1000\n");
    let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
    assert!(text(&out).contains("walk/too-large"), "{}", text(&out));
    let out = run(
        &repo,
        &[
            "plan",
            ".",
            "--no-render",
            "--format",
            "json",
            "--max-file-size",
            "20000000",
        ],
    );
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out));
    assert!(!text(&out).contains("walk/too-large"), "{}", text(&out));
    assert!(text(&out).contains("HTTPRoute"), "{}", text(&out));
}

/// A `.gateway-migrate.yaml` that is a symlink is refused, not followed: otherwise its target
/// (anywhere) would be read, echoed in the parse error, and applied; and whether the target
/// exists would show.
#[test]
fn a_symlinked_configuration_is_refused_not_followed() {
    let mut messages = Vec::new();
    for target in ["../outside/secret.yaml", "../outside/missing.yaml"] {
        let (tmp, repo) = case("");
        write(
            &tmp.path().join("outside"),
            "secret.yaml",
            "AWS_SECRET_ACCESS_KEY_wJalrXUtnFEMI: 1\n",
        );
        std::fs::remove_file(repo.join(".gateway-migrate.yaml")).unwrap();
        std::os::unix::fs::symlink(target, repo.join(".gateway-migrate.yaml")).unwrap();
        let out = run(&repo, &["plan", ".", "--no-render"]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains("symbolic link"), "{}", text(&out));
        assert!(!text(&out).contains("wJalrXUtnFEMI"), "{}", text(&out));
        messages.push(
            String::from_utf8_lossy(&out.stderr).replace(&tmp.path().display().to_string(), "TMP"),
        );
    }
    assert_eq!(messages[0], messages[1]);
}

const VIRTUAL_SERVICE: &str = "apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: NAME
spec:
  hosts: [NAME.example.com]
  gateways: [istio-system/public]
  http:
  - route:
    - destination: {host: web}
";

/// `include` narrows the scan; it never brings back what the walk skips (hidden paths, what
/// git ignores, `.git` itself), so `apply` never writes into `.git`.
#[test]
fn include_globs_only_narrow_the_scan() {
    for include in ["\"**\"", "\"*\"", "\"/**\"", "\"**/*\"", "\"**/*.yaml\""] {
        let (_tmp, repo) = case(&format!("include: [{include}]\n"));
        let vs = |name: &str| VIRTUAL_SERVICE.replace("NAME", name);
        write(&repo, ".git/vs.yaml", &vs("in-git-x1"));
        write(&repo, ".hidden/vs.yaml", &vs("hidden-x2"));
        write(&repo, "ignored/vs.yaml", &vs("ignored-x3"));
        write(&repo, ".gitignore", "ignored/\n");
        write(&repo, "apps/vs.yaml", &vs("visible"));
        let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
        let report = text(&out);
        assert!(report.contains("visible"), "{include}: {report}");
        for hidden in ["in-git-x1", "hidden-x2", "ignored-x3"] {
            assert!(
                !report.contains(hidden),
                "{include}: {hidden} was scanned: {report}"
            );
        }
        let out = run(&repo, &["apply", ".", "--no-render"]);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out));
        assert!(!repo.join(".git/vs.gateway-api.yaml").exists(), "{include}");
    }
    // A narrower include still narrows.
    let (_tmp, repo) = case("include: [\"apps/**\"]\n");
    write(
        &repo,
        "apps/vs.yaml",
        &VIRTUAL_SERVICE.replace("NAME", "kept"),
    );
    write(
        &repo,
        "other/vs.yaml",
        &VIRTUAL_SERVICE.replace("NAME", "left-out"),
    );
    let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
    assert!(text(&out).contains("\"kept\""), "{}", text(&out));
    assert!(!text(&out).contains("left-out"));
}

/// `mountGateways` reads only what the scan would read: not `.git`, not hidden paths, not
/// what git ignores.
#[test]
fn mount_gateways_reads_only_what_the_scan_would() {
    for (mount, place, ignore) in [
        (".git/config", ".git/config", None),
        (".infra/gw.yaml", ".infra/gw.yaml", None),
        ("infra/gw.yaml", "infra/gw.yaml", Some("infra/gw.yaml\n")),
        ("secret/gw.yaml", "secret/gw.yaml", Some("secret/\n")),
    ] {
        let (_tmp, repo) = case(&format!("ingressMode: mount\nmountGateways: {mount}\n"));
        write(&repo, place, GATEWAY);
        if let Some(rules) = ignore {
            write(&repo, ".gitignore", rules);
        }
        let out = run(&repo, &["plan", ".", "--no-render", "--format", "json"]);
        assert_eq!(out.status.code(), Some(2), "{mount}: {}", text(&out));
        assert!(
            !text(&out).contains("outside-gateway-7f3a"),
            "{mount}: {}",
            text(&out)
        );
    }
}
