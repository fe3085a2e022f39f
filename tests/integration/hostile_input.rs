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
    doc.push_str(&anchors(4));
    doc.push_str("b: [*a3, *a3, *a3, *a3]\n");
    doc
}

/// `a0` to `a{depth-1}`: each anchor a list of nine aliases of the one before (9^depth leaves).
fn anchors(depth: usize) -> String {
    let mut text = String::from("a0: &a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n");
    for i in 1..depth {
        let prev = format!("*a{}", i - 1);
        text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![prev; 9].join(",")));
    }
    text
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
        .filter(|d| d.code.id() == "load/parse-budget")
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
        .filter(|d| d.code.id() == "load/parse-budget")
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
    doc.push_str(&anchors(5));
    assert_diagnosed("replay.yaml", doc.as_bytes());
}

/// `plan --format json` on a directory; its diagnostics as (code, file, line).
fn plan_diagnostics(dir: &std::path::Path) -> Vec<(String, String, u64)> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["plan", ".", "--no-render", "--format", "json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap_or("").to_string(),
                d["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

const VIRTUAL_SERVICE: &str = "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: web\nspec:\n  hosts: [web.example.com]\n  gateways: [istio-system/public]\n  http:\n  - route:\n    - destination: {host: web}\n";

/// UTF-16 and UTF-32 files (kubectl reads them) are reported as not read, with a reason, at
/// line 1, as a warning: their objects are deployed and would not be translated.
#[test]
fn utf16_and_utf32_files_are_reported_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let utf16le: Vec<u8> = VIRTUAL_SERVICE
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let utf16be: Vec<u8> = VIRTUAL_SERVICE
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    let utf32le: Vec<u8> = VIRTUAL_SERVICE
        .chars()
        .flat_map(|c| (c as u32).to_le_bytes())
        .collect();
    let with_bom = |bom: &[u8], body: &[u8]| [bom, body].concat();
    let files: [(&str, Vec<u8>); 4] = [
        ("bom16le.yaml", with_bom(&[0xFF, 0xFE], &utf16le)),
        ("bom16be.yaml", with_bom(&[0xFE, 0xFF], &utf16be)),
        ("plain16le.yaml", utf16le.clone()),
        ("plain32le.yaml", utf32le),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let diagnostics = plan_diagnostics(dir.path());
    for (name, _) in &files {
        assert!(
            diagnostics
                .iter()
                .any(|(code, file, line)| code == "walk/encoding" && file == name && *line == 1),
            "{name}: {diagnostics:?}"
        );
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["explain", "walk/encoding"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("UTF-16"));
}

/// An object of a group the tool reads in a version it does not know is reported, not
/// passed over in silence; a known version of the same object is translated.
#[test]
fn unknown_api_versions_of_known_groups_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    for (file, version) in [("v9.yaml", "v9"), ("upper.yaml", "V1"), ("ok.yaml", "v1")] {
        std::fs::write(
            dir.path().join(file),
            VIRTUAL_SERVICE
                .replace(
                    "networking.istio.io/v1",
                    &format!("networking.istio.io/{version}"),
                )
                .replace(
                    "name: web",
                    &format!("name: web-{}", version.to_lowercase()),
                ),
        )
        .unwrap();
    }
    std::fs::write(
        dir.path().join("ingress.yaml"),
        "apiVersion: networking.k8s.io/v2\nkind: Ingress\nmetadata:\n  name: i\nspec:\n  rules:\n  - host: a.example.com\n",
    )
    .unwrap();
    let diagnostics = plan_diagnostics(dir.path());
    let reported: Vec<&str> = diagnostics
        .iter()
        .filter(|(code, _, line)| code == "load/unknown-api-version" && *line == 1)
        .map(|(_, file, _)| file.as_str())
        .collect();
    assert_eq!(reported.len(), 3, "{diagnostics:?}");
    for file in ["v9.yaml", "upper.yaml", "ingress.yaml"] {
        assert!(reported.contains(&file), "{file}: {diagnostics:?}");
    }
}

/// Documents each just over the per-document replay limit cost that work before they are
/// refused: they are charged to the file's budget too, so a file of many of them is not
/// parsed to the end (each would take its share of time and memory).
#[test]
fn documents_over_the_replay_limit_spend_the_files_budget() {
    let mut doc = String::from("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n");
    doc.push_str(&anchors(5));
    let file: String = (0..100).map(|_| format!("---\n{doc}")).collect();
    let load = load_bytes("over.yaml", file.as_bytes());
    let count = |code: &str| {
        load.diagnostics
            .iter()
            .filter(|d| d.code.id() == code)
            .count()
    };
    // 200,000 nodes per file at 50,000 per refused document: four are parsed (and refused).
    assert_eq!(count("load/invalid-yaml"), 4, "{:?}", load.diagnostics);
    assert_eq!(count("load/parse-budget"), 96);
    assert!(load.objects.is_empty());
}

/// A tag, an anchor or an alias on `kind` (kustomize and kubectl read them) does not hide
/// the object from the prefilter: it is read like any other.
#[test]
fn tags_and_aliases_on_kind_do_not_hide_an_object() {
    let variants = [
        VIRTUAL_SERVICE.replace("kind: VirtualService", "kind: !!str VirtualService"),
        VIRTUAL_SERVICE
            .replace(
                "apiVersion: networking.istio.io/v1",
                "apiVersion: !!str networking.istio.io/v1",
            )
            .replace("kind: VirtualService", "kind: !!str VirtualService"),
        VIRTUAL_SERVICE.replace("kind: VirtualService", "kind: &k VirtualService"),
        format!(
            "x-kind: &k VirtualService\n{}",
            VIRTUAL_SERVICE.replace("kind: VirtualService", "kind: *k")
        ),
        VIRTUAL_SERVICE.replace("kind: VirtualService", "kind: \"Virtual\\x53ervice\""),
    ];
    for doc in variants {
        let load = load_bytes("vs.yaml", doc.as_bytes());
        assert_eq!(load.objects.len(), 1, "{doc}\n{:?}", load.diagnostics);
        assert_eq!(load.objects[0].kind, "VirtualService", "{doc}");
    }
}

/// A document of more nodes than one document may have (a VirtualService carrying a list of
/// 150,000 items) is refused: its parse would hold them all.
#[test]
fn a_document_over_the_node_budget_is_refused() {
    let items = "a,".repeat(150_000);
    let doc = format!("{VIRTUAL_SERVICE}  extra: [{items}a]\n");
    assert_diagnosed("wide.yaml", doc.as_bytes());
}

/// Repository text (a file name with a terminal escape sequence, a carriage return, a
/// bidirectional override) never reaches the text or concise report raw: a clipboard write
/// or a line erase would otherwise run in the reader's terminal.
#[test]
fn terminal_control_sequences_never_reach_the_text_report() {
    let dir = tempfile::tempdir().unwrap();
    let name = "web\u{1b}]52;c;Y3VybA==\u{7}\r\u{1b}[2K\u{202E}.yaml";
    std::fs::write(
        dir.path().join(name),
        VIRTUAL_SERVICE.replace("istio-system/public", "missing/gw"),
    )
    .unwrap();
    for format in ["text", "concise"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
            .args(["plan", ".", "--no-render", "-v", "--format", format])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("web\\u{1B}]52"), "{format}: {text}");
        for c in ['\u{1b}', '\u{7}', '\r', '\u{202E}'] {
            assert!(!text.contains(c), "{format}: {c:?} in {text:?}");
        }
    }
}

/// Files a kustomization lists are what kustomize deploys: those the walk passes over (another
/// extension, a hidden directory, a git-ignored path) are read too, so their objects are
/// migrated and `check` judges them, instead of "nothing to migrate".
#[test]
fn files_a_kustomization_lists_are_read_whatever_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let vs = |name: &str| VIRTUAL_SERVICE.replace("name: web", &format!("name: {name}"));
    let files = [
        ("app/routes.txt", vs("from-txt")),
        ("app/.hidden/routes.yaml", vs("from-hidden")),
        ("app/ignored/routes.yaml", vs("from-ignored")),
        ("app/UPPER.YAML", vs("from-upper")),
    ];
    for (path, text) in &files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    std::fs::write(dir.path().join(".gitignore"), "ignored/\n").unwrap();
    std::fs::write(
        dir.path().join("app/kustomization.yaml"),
        "resources:\n- routes.txt\n- .hidden/routes.yaml\n- ignored/routes.yaml\n- UPPER.YAML\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["plan", ".", "--no-render", "--format", "json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    for name in ["from-txt", "from-hidden", "from-ignored", "from-upper"] {
        assert!(report.contains(&format!("\"{name}\"")), "{name}: {report}");
    }
}

/// What Argo CD or Flux deploys from a hidden directory is read too: otherwise `check` would
/// say "nothing to migrate".
#[test]
fn deployed_files_are_read_even_where_the_walk_skips() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    };
    write(
        ".deploy/routes.yaml",
        &VIRTUAL_SERVICE.replace("name: web", "name: from-argo-path"),
    );
    write(
        "argo/app.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: app\nspec:\n  source:\n    repoURL: https://example.com/repo.git\n    path: .deploy\n",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args(["plan", ".", "--no-render", "--format", "json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("\"from-argo-path\""), "{report}");
}

/// A file a kustomization lists is still left out when the user's `--exclude` says so.
#[test]
fn listed_files_the_user_excludes_stay_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("app/.hidden")).unwrap();
    std::fs::write(
        dir.path().join("app/.hidden/routes.yaml"),
        VIRTUAL_SERVICE.replace("name: web", "name: excluded-x9"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("app/kustomization.yaml"),
        "resources:\n- .hidden/routes.yaml\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gateway-migrate"))
        .args([
            "plan",
            ".",
            "--no-render",
            "--format",
            "json",
            "--exclude",
            "app/.hidden/**",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!report.contains("excluded-x9"), "{report}");
}
