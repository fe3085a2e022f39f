//! Hostile YAML yields a diagnostic, within bounded time and memory, never a crash.

use std::time::{Duration, Instant};

use gateway_migrate::load::load_bytes;

fn assert_diagnosed(name: &str, input: &[u8]) {
    let started = Instant::now();
    let load = load_bytes(name, input);
    let elapsed = started.elapsed();
    // A hang detector, not a speed test (budgets are measured in bench/): generous enough
    // for a loaded 2-core machine, far below what an unbounded alias expansion would take.
    assert!(elapsed < Duration::from_secs(60), "{name} took {elapsed:?}");
    assert!(
        load.objects.is_empty(),
        "{name}: hostile input produced objects"
    );
    assert!(!load.diagnostics.is_empty(), "{name}: no diagnostic");
    for d in &load.diagnostics {
        assert_eq!(d.location.file, name);
        assert!(d.location.line >= 1);
    }
}

#[test]
fn alias_bomb_is_refused() {
    let mut doc = String::from("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n  labels:\n");
    doc.push_str(
        "a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut bomb = String::from("apiVersion: v1\nkind: Service\n");
    bomb.push_str("a0: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n");
    for i in 1..10 {
        let prev = format!("*a{}", i - 1);
        bomb.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 9].join(",")));
    }
    assert_diagnosed("bomb.yaml", bomb.as_bytes());
}

#[test]
fn deep_nesting_is_refused() {
    let depth = 100_000;
    let doc = format!(
        "apiVersion: v1\nkind: Service\nspec: {}{}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert_diagnosed("deep.yaml", doc.as_bytes());
    let block: String = (0..2_000)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    let doc = format!("apiVersion: v1\nkind: Service\nspec:\n{block}");
    assert_diagnosed("deep-block.yaml", doc.as_bytes());
}

#[test]
fn invalid_utf8_is_a_diagnostic_with_its_line() {
    let mut doc = b"apiVersion: v1\nkind: Service\nmetadata:\n  name: \xff\xfe\n".to_vec();
    doc.extend_from_slice(b"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: ok\n");
    let load = load_bytes("bad-utf8.yaml", &doc);
    assert_eq!(load.diagnostics.len(), 1, "{:?}", load.diagnostics);
    assert_eq!(load.diagnostics[0].location.line, 4);
    assert_eq!(load.diagnostics[0].code.id(), "load/invalid-utf8");
    // The next document is still read.
    assert_eq!(load.objects.len(), 1);
    assert_eq!(load.objects[0].meta.name, "ok");
}

#[test]
fn duplicate_keys_are_a_diagnostic() {
    let doc = b"apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  name: b\n";
    assert_diagnosed("dup.yaml", doc);
}

/// A document whose aliases expand to about 38,000 nodes: under the per-document replay
/// limit, so only the file's and the run's budgets stop a file of many of them.
fn medium_bomb(name: &str) -> String {
    let mut doc = format!("apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n");
    doc.push_str("a0: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n");
    for i in 1..4 {
        let prev = format!("*a{}", i - 1);
        doc.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 9].join(",")));
    }
    doc.push_str("b: [*a3, *a3, *a3, *a3]\n");
    doc
}

#[test]
fn a_file_of_many_alias_documents_spends_its_budget_and_the_rest_is_not_parsed() {
    let file: String = (0..200)
        .map(|i| format!("---\n{}", medium_bomb(&format!("s{i}"))))
        .collect();
    let started = Instant::now();
    let load = load_bytes("bombs.yaml", file.as_bytes());
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
    let refused: Vec<_> = load
        .diagnostics
        .iter()
        .filter(|d| d.code.id() == "load/expansion-budget")
        .collect();
    // 200,000 nodes per file: five documents of about 38,000 fit, the sixth goes over.
    assert_eq!(load.objects.len(), 5, "{:?}", load.diagnostics);
    assert_eq!(refused.len(), 195);
    assert!(
        refused[0].message.contains("per-file budget"),
        "{}",
        refused[0].message
    );
    // Each refusal names its document's line.
    let lines: std::collections::BTreeSet<usize> =
        refused.iter().map(|d| d.location.line).collect();
    assert_eq!(lines.len(), 195);
}

#[test]
fn alias_documents_across_files_spend_the_runs_budget() {
    let inputs: Vec<(String, Vec<u8>)> = (0..40)
        .map(|f| {
            let text: String = (0..2)
                .map(|i| format!("---\n{}", medium_bomb(&format!("f{f}-{i}"))))
                .collect();
            (format!("f{f}.yaml"), text.into_bytes())
        })
        .collect();
    let scan = gateway_migrate::scan::scan_inputs(&inputs, &Default::default());
    let refused: Vec<_> = scan
        .diagnostics
        .iter()
        .filter(|d| d.code.id() == "load/expansion-budget")
        .collect();
    // 80 documents of about 38,000 nodes against 1,000,000 for the run: 26 are read.
    assert_eq!(refused.len(), 80 - 26, "{refused:?}");
    assert!(refused.iter().all(|d| d.message.contains("per-run budget")));
}

#[test]
fn one_document_may_replay_only_so_many_alias_events() {
    // About 66,000 replayed events in one document (nine aliases of a 7,381-event anchor),
    // within the old default of 1,000,000.
    let mut doc = String::from("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n");
    doc.push_str("a0: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n");
    for i in 1..5 {
        let prev = format!("*a{}", i - 1);
        doc.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 9].join(",")));
    }
    assert_diagnosed("replay.yaml", doc.as_bytes());
}
