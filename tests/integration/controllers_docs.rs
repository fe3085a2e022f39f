//! `docs/controllers.md` is generated from the code's table of ingress-nginx settings and of
//! the Istio mesh settings read (issue #30): this test fails when they disagree; `BLESS=1`
//! rewrites the file.

#[test]
fn docs_controllers_md_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/controllers.md");
    let generated = gateway_migrate::controllers::markdown();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == generated,
        "docs/controllers.md is out of date (BLESS=1 cargo test --test integration controllers_docs)"
    );
    // Every ConfigMap key and flag upstream declares is a row (counts read from
    // config.go/defaults/main.go json tags plus ReadConfig's own keys, and flags.go).
    assert_eq!(generated.matches("\n| `--").count(), 72);
    assert_eq!(generated.matches("\n| `").count() - 72, 198);
}
