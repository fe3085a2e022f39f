//! Every note code the Istio translator can emit is explained in `docs/notes.md` (## Istio).

use std::path::Path;

use regex::Regex;

#[test]
fn every_istio_note_code_is_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/notes.md")).expect("docs/notes.md");
    let section = doc.split("## Istio").nth(1).expect("## Istio section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let code = Regex::new(r#""(istio/[a-z0-9-]+)""#).unwrap();
    let mut missing = Vec::new();
    let mut seen = 0;
    let mut stack = vec![root.join("src/translate/istio")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for c in code.captures_iter(&text) {
                seen += 1;
                if !section.contains(&format!("`{}`", &c[1])) {
                    missing.push(format!("{} ({})", &c[1], path.display()));
                }
            }
        }
    }
    assert!(seen > 100, "only {seen} codes found");
    assert!(missing.is_empty(), "undocumented note codes: {missing:?}");
}
