//! `ARCHITECTURE.md`'s module graph is the code's: the block under "## Module graph" lists,
//! for every top-level module of `src/`, the other top-level modules it refers to
//! (`crate::x` anywhere in its files, comments excluded). The test fails when the two
//! differ, and when the graph has a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The top-level module a source file belongs to (`src/translate/istio/mod.rs` → `translate`).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "main" | "lib")).then(|| name.to_string())
}

/// `crate::x` references in one line of code (comments and strings are not parsed; a `//`
/// comment line is skipped).
fn references(line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.push(name);
        }
        rest = after;
    }
    out
}

fn code_graph(src: &Path) -> Graph {
    code_graph_of(src, true)
}

/// The graph of product code only: unit-test files (`tests.rs`, or under a `tests/`
/// directory) left out, since a test may build its input with any stage.
fn code_graph_of(src: &Path, with_tests: bool) -> Graph {
    let mut graph = Graph::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let Some(module) = module_of(rel) else {
                continue;
            };
            let is_test = rel.file_name().is_some_and(|f| f == "tests.rs")
                || rel.components().any(|c| c.as_os_str() == "tests");
            if is_test && !with_tests {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read source");
            let deps = graph.entry(module.clone()).or_default();
            for line in text.lines() {
                for r in references(line) {
                    if r != module {
                        deps.insert(r);
                    }
                }
            }
        }
    }
    graph
}

/// The `module -> dep dep …` lines of the fenced block after "## Module graph".
fn documented_graph(architecture: &str) -> Graph {
    let section = architecture
        .split("\n## Module graph")
        .nth(1)
        .expect("ARCHITECTURE.md has a '## Module graph' section");
    let block = section
        .split("```")
        .nth(1)
        .expect("the section has a fenced block");
    let mut graph = Graph::new();
    for line in block.lines().skip(1) {
        let Some((module, deps)) = line.split_once("->") else {
            continue;
        };
        graph.insert(
            module.trim().to_string(),
            deps.split_whitespace().map(str::to_string).collect(),
        );
    }
    graph
}

/// A cycle, if the graph has one (depth-first search with colours).
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|n| n == node).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for dep in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(dep, graph, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn architecture_module_graph_matches_the_code_and_has_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let code = code_graph(&root.join("src"));
    let doc_text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let documented = documented_graph(&doc_text);
    let mut report = String::new();
    for (module, deps) in &code {
        let doc = documented.get(module).cloned().unwrap_or_default();
        if &doc != deps || !documented.contains_key(module) {
            report.push_str(&format!(
                "{module} -> {}\n",
                deps.iter().cloned().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    for module in documented.keys().filter(|m| !code.contains_key(*m)) {
        report.push_str(&format!("{module}: documented but not in src/\n"));
    }
    assert!(
        report.is_empty(),
        "ARCHITECTURE.md's module graph is out of date; these lines differ:\n{report}"
    );
    assert_eq!(find_cycle(&code), None, "module cycle");
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut g = Graph::new();
    g.insert("a".into(), ["b".to_string()].into());
    g.insert("b".into(), ["c".to_string()].into());
    g.insert("c".into(), BTreeSet::new());
    assert_eq!(find_cycle(&g), None);
    g.insert("c".into(), ["a".to_string()].into());
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(
        references("use crate::plan::{self, x}; crate::diagnostic::Code"),
        ["plan", "diagnostic"]
    );
    assert!(references("  // crate::nothing").is_empty());
}

/// Every module `module` reaches through `graph`, itself excluded.
fn reachable(graph: &Graph, module: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![module.to_string()];
    while let Some(m) = todo.pop() {
        for dep in graph.get(&m).into_iter().flatten() {
            if seen.insert(dep.clone()) {
                todo.push(dep.clone());
            }
        }
    }
    seen
}

/// The behaviour models are the independent side of the equivalence check: a mistake in the
/// translator must not be made again by them, so they reach no stage (issue #29).
#[test]
fn the_behaviour_models_reach_no_stage() {
    let code = code_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let reached = reachable(&code, "semantics");
    for stage in [
        "translate",
        "equivalence",
        "validate",
        "plan",
        "render",
        "pipeline",
        "scan",
    ] {
        assert!(
            !reached.contains(stage),
            "semantics reaches {stage}: {reached:?}"
        );
    }
}

/// The equivalence check must not share the translator's logic (issue #29): a mistake made
/// while translating would be made again while checking. It reads the translation's results
/// (`translated`), never `translate` itself; its unit tests may translate their input.
#[test]
fn the_equivalence_check_does_not_use_the_translator() {
    let code = code_graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), false);
    let deps = code.get("equivalence").cloned().unwrap_or_default();
    assert!(
        !deps.contains("translate"),
        "equivalence refers to translate: {deps:?}"
    );
    let semantics = code.get("semantics").cloned().unwrap_or_default();
    assert!(
        !semantics.contains("translate"),
        "semantics refers to translate: {semantics:?}"
    );
}
