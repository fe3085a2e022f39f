//! Every input the fuzzers found (`fuzz/regressions/TARGET/*`, kept when a crash or a broken
//! invariant was fixed) is replayed through the same function its target calls
//! (`gateway_migrate::fuzz`), so that the bug stays fixed. See CONTRIBUTING.md.

use std::path::Path;

type Target = fn(&[u8]);

fn translate(data: &[u8]) {
    gateway_migrate::fuzz::translate(data);
}

const TARGETS: &[(&str, Target)] = &[
    ("split", gateway_migrate::fuzz::split),
    ("load", gateway_migrate::fuzz::load),
    ("translate_istio", translate),
    ("translate_ingress", translate),
    ("kustomize_edit", gateway_migrate::fuzz::kustomize_edit),
    ("inplace_regions", gateway_migrate::fuzz::inplace_regions),
    ("report", gateway_migrate::fuzz::report),
];

#[test]
fn every_kept_fuzz_input_passes_its_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue; // README.md
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some((_, target)) = TARGETS.iter().find(|(t, _)| *t == name) else {
            panic!("fuzz/regressions/{name} names no fuzz target");
        };
        for input in crate::common::files_under(&dir) {
            let bytes = std::fs::read(&input).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&bytes));
            assert!(outcome.is_ok(), "{} fails again", input.display());
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no input kept under {}", root.display());
}

/// The fuzz crate's targets are the ones this test knows, so a new target cannot be added
/// without its regressions being replayed.
#[test]
fn the_fuzz_targets_are_the_replayed_ones() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/Cargo.toml"))
            .unwrap();
    let declared: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|n| *n != "gateway-migrate-fuzz")
        .collect();
    let known: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(declared, known);
}

/// The targets' invariants hold on every real manifest of the shared corpus (the fuzzers'
/// seeds), kustomizations through the editor.
#[test]
fn every_fuzz_target_holds_on_the_real_world_corpus() {
    let corpus = crate::common::corpus();
    if !crate::common::required(corpus.is_dir(), "../shared/corpus", "the corpus fuzz seeds") {
        return;
    }
    let files: Vec<_> = crate::common::files_under(&corpus)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    assert!(files.len() > 300, "{} files", files.len());
    let mut kustomizations = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let name = file.display().to_string();
        for (target, run) in [
            ("split", gateway_migrate::fuzz::split as Target),
            ("load", gateway_migrate::fuzz::load),
            ("inplace_regions", gateway_migrate::fuzz::inplace_regions),
            ("translate", translate),
        ] {
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{target} fails on {name}");
        }
        if name.ends_with("kustomization.yaml") || name.ends_with("kustomization.yml") {
            kustomizations += 1;
            let outcome =
                std::panic::catch_unwind(|| gateway_migrate::fuzz::kustomize_edit(&bytes));
            assert!(outcome.is_ok(), "kustomize_edit fails on {name}");
        }
    }
    assert!(kustomizations > 10, "{kustomizations} kustomizations");
}
