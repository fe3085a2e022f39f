//! `docs/targets.md` is generated from the target profiles and the translators' tables
//! (issue #31): this test fails when the file is stale; `BLESS=1` rewrites it.

#[test]
fn docs_targets_md_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/targets.md");
    let generated = gateway_migrate::translate::targets_markdown();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == generated,
        "docs/targets.md is out of date (BLESS=1 cargo test --test integration targets_docs)"
    );
    // Every access-control annotation has a row, and every target a column in it.
    for key in [
        "allowlist-source-range",
        "whitelist-source-range",
        "denylist-source-range",
        "auth-type",
        "auth-url",
        "auth-tls-secret",
    ] {
        let row = generated
            .lines()
            .find(|l| l.starts_with(&format!("| `{key}` |")))
            .unwrap_or_else(|| panic!("{key} has no row"));
        assert_eq!(row.matches(" | ").count(), 4, "{row}");
    }
}
