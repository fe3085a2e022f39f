//! docs/security.md names a test for every claim; each named test must exist, so the page
//! cannot point at a test that was renamed or removed.

use std::path::Path;

/// `file.rs::function` references in backticks.
fn references(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for piece in doc.split('`').skip(1).step_by(2) {
        if let Some((file, function)) = piece.split_once(".rs::")
            && !file.contains(' ')
            && function
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push((format!("{file}.rs"), function.to_string()));
        }
    }
    out
}

#[test]
fn every_test_docs_security_md_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/security.md")).unwrap();
    let refs = references(&doc);
    assert!(refs.len() >= 30, "only {} references", refs.len());
    let mut sources = crate::common::files_under(&root.join("src"));
    sources.extend(crate::common::files_under(&root.join("tests/integration")));
    for (file, function) in refs {
        let candidates: Vec<_> = sources
            .iter()
            // `walk.rs`, or a path's tail where the name alone is ambiguous (`load/mod.rs`).
            .filter(|p| p.ends_with(&file))
            .collect();
        assert!(
            !candidates.is_empty(),
            "docs/security.md names {file}, which does not exist"
        );
        // A test: `#[test]` on one of the three lines above `fn NAME(`.
        let defined = candidates.iter().any(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            lines.iter().enumerate().any(|(i, l)| {
                l.contains(&format!("fn {function}("))
                    && lines[i.saturating_sub(3)..i]
                        .iter()
                        .any(|a| a.contains("#[test]"))
            })
        });
        assert!(
            defined,
            "docs/security.md names {file}::{function}, which does not exist"
        );
    }
}

/// docs/security.md's table of the configuration file says what each key may do: every key
/// the configuration reads is in it, and nothing else.
#[test]
fn docs_security_md_says_what_every_configuration_key_may_do() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/security.md")).unwrap();
    let section = doc
        .split("\n## The repository's configuration file\n")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let mut listed = std::collections::BTreeSet::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let first_cell = row.split(" | ").next().unwrap_or_default();
        for key in first_cell.split('`').skip(1).step_by(2) {
            listed.insert(key.to_string());
        }
    }
    let value = serde_json::to_value(gateway_migrate::config::Config::default()).unwrap();
    let keys: std::collections::BTreeSet<String> =
        value.as_object().unwrap().keys().cloned().collect();
    assert_eq!(listed, keys);
}
