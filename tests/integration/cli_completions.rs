//! Shell completions and the man page, generated from the clap definitions.

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("gateway-migrate").unwrap()
}

#[test]
fn completions_are_generated_for_four_shells() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef gateway-migrate"),
        ("fish", "complete -c gateway-migrate"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = bin().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(marker), "{shell} script lacks {marker:?}");
        // Every command and a global option are completed.
        for word in ["plan", "apply", "check", "convert", "explain", "no-render"] {
            assert!(text.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn the_man_page_renders_with_man() {
    let out = bin().arg("man").output().unwrap();
    assert!(out.status.success());
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("gateway-migrate.1");
    std::fs::write(&page, &out.stdout).unwrap();
    let rendered = match std::process::Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
    {
        Ok(o) => o,
        Err(_) => {
            crate::common::required(false, "`man` (man-db)", "rendering the man page");
            return;
        }
    };
    assert!(rendered.status.success(), "{rendered:?}");
    let text = String::from_utf8_lossy(&rendered.stdout);
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "SUBCOMMANDS"] {
        assert!(text.contains(section), "man page lacks {section}:\n{text}");
    }
    assert!(text.contains("gateway-migrate-plan"), "{text}");
}
