//! `docs/istio-fields.md` is generated from the translator's Istio field table (issue #32):
//! the table must list exactly the fields of the Istio networking protos at the pinned
//! istio/api commit, restated in `tests/data/istio-api-fields.tsv` (message, YAML field
//! name, proto type, istio/istio function, note; extracted from
//! `networking/v1alpha3/{virtual_service,gateway,destination_rule}.proto`), and name the
//! Istio function behind each field. `BLESS=1` rewrites the document.

use std::collections::BTreeSet;

use gateway_migrate::translate::istio_fields::{FIELDS, ISTIO_API_COMMIT, markdown};

fn upstream() -> (String, BTreeSet<(String, String)>) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/istio-api-fields.tsv");
    let text = std::fs::read_to_string(path).expect("tests/data/istio-api-fields.tsv");
    let header = text.lines().next().unwrap_or_default().to_string();
    let fields = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            (
                cols.next().unwrap_or_default().to_string(),
                cols.next().unwrap_or_default().to_string(),
            )
        })
        .collect();
    (header, fields)
}

#[test]
fn the_table_has_every_field_of_the_pinned_protos_and_no_other() {
    let (header, upstream) = upstream();
    assert!(
        header.contains(ISTIO_API_COMMIT),
        "the field list and the table must name the same istio/api commit: {header}"
    );
    let table: BTreeSet<(String, String)> = FIELDS
        .iter()
        .map(|f| (f.message.to_string(), f.field.to_string()))
        .collect();
    assert_eq!(table.len(), FIELDS.len(), "a field is listed twice");
    let missing: Vec<_> = upstream.difference(&table).collect();
    let extra: Vec<_> = table.difference(&upstream).collect();
    assert!(
        missing.is_empty(),
        "fields of the protos missing from the table: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "fields in the table that the protos do not have: {extra:?}"
    );
}

#[test]
fn every_field_names_the_istio_function_that_gives_it_meaning() {
    for f in FIELDS {
        assert!(
            f.istio.contains(".go "),
            "{}.{} names no Istio file and function: {}",
            f.message,
            f.field,
            f.istio
        );
    }
}

#[test]
fn docs_istio_fields_md_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/istio-fields.md");
    let generated = markdown();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write docs/istio-fields.md");
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == generated,
        "docs/istio-fields.md is out of date (BLESS=1 cargo test --test integration istio_fields)"
    );
}
