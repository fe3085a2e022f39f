//! The integration tests, as one test binary (one link, one process, tests of all files run in
//! parallel): one module per area, `common` holds the helpers they share.
//! Run one area with `cargo test --test integration <module>::`, e.g.
//! `cargo test --test integration fixtures::`.

mod common;

mod cli_check;
mod fixtures;
mod hostile_input;
mod ingress_cli;
mod ingress_compat_i2gw;
mod ingress_corpus;
mod ingress_docs;
mod ingress_listener_split;
mod ingress_mount;
mod ingress_patch;
mod istio_corpus;
mod istio_notes_doc;
mod istio_samples;
mod istio_translate;
mod load_spans;
mod publish_cli;
mod publish_github;
mod publish_http;
mod publish_redaction;
mod report_renderers;
mod scan_corpus;
mod validate_attachment;
mod validate_cel_rules;
mod validate_check;
mod validate_jsonschema;
mod walk;
mod write_corpus;
mod write_plan;
