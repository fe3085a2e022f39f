//! Every note code the Ingress translator can emit is explained in docs/notes-ingress.md.

use std::path::Path;

use gateway_migrate::translate::ingress::nginx::other::CATALOG;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_ingress_note_code_is_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/notes-ingress.md")).unwrap();
    let code = regex::Regex::new(r#""(ingress(?:-nginx)?/[a-z0-9-]+)""#).unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("src/translate/ingress"), &mut files);
    let mut missing = Vec::new();
    let mut seen = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for c in code.captures_iter(&text) {
            seen += 1;
            if !docs.contains(&format!("`{}`", &c[1])) {
                missing.push(c[1].to_string());
            }
        }
    }
    for (key, _, _) in CATALOG {
        if !docs.contains(&format!("`ingress-nginx/{key}`")) {
            missing.push(format!("ingress-nginx/{key}"));
        }
    }
    assert!(seen > 50, "only {seen} codes found");
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "undocumented note codes: {missing:?}");
}
