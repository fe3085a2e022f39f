//! Every key the configuration struct reads is documented (README's example and
//! docs/configuration.md's table), nothing else is, and README's example is a valid
//! configuration.

use std::collections::BTreeSet;
use std::path::Path;

use gateway_migrate::config::Config;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// The keys the code reads: the struct's serialised field names.
fn struct_keys() -> BTreeSet<String> {
    let value = serde_json::to_value(Config::default()).unwrap();
    value.as_object().unwrap().keys().cloned().collect()
}

/// README's configuration example (the YAML block of the "Configuration" section).
fn readme_example() -> String {
    let readme = read("README.md");
    let section = readme.split("\n## Configuration\n").nth(1).unwrap();
    let block = section.split("```yaml\n").nth(1).unwrap();
    block.split("```").next().unwrap().to_string()
}

#[test]
fn config_docs_list_every_key() {
    let keys = struct_keys();
    assert!(
        keys.contains("ignore") && keys.contains("mountGateways"),
        "{keys:?}"
    );
    let example = readme_example();
    let readme_keys: BTreeSet<String> = example
        .lines()
        .filter(|l| !l.starts_with([' ', '#', '-']))
        .filter_map(|l| l.split_once(':').map(|(k, _)| k.to_string()))
        .collect();
    assert_eq!(readme_keys, keys, "README's configuration example");
    let docs = read("docs/configuration.md");
    let table = docs.split("\n## Keys\n").nth(1).unwrap();
    let docs_keys: BTreeSet<String> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k.to_string()))
        .collect();
    assert_eq!(docs_keys, keys, "docs/configuration.md's table");
    // The example is a configuration the tool accepts, and it says what the defaults are.
    let parsed = Config::parse(&example).unwrap_or_else(|e| panic!("README example: {e}"));
    assert_eq!(
        Config {
            ignore: Vec::new(),
            ..parsed
        },
        Config::default()
    );
}
