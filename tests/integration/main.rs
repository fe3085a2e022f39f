//! The integration tests, as one test binary (one link, one process, tests of all files run in
//! parallel): one module per area, `common` holds the helpers they share.
//! Run one area with `cargo test --test integration <module>::`, e.g.
//! `cargo test --test integration fixtures::`.

// A test reports failure by panicking, so unwrap and expect are how it says "this must hold";
// helpers are shared between modules with `pub`, which is all the reach they need.
#![allow(clippy::unwrap_used, clippy::expect_used, unreachable_pub)]

mod common;

mod action;
mod architecture;
mod bulk;
mod cli_check;
mod cli_completions;
mod cli_exit_codes;
mod codes;
mod codes_without_fixture;
mod config_docs;
mod controllers_cli;
mod controllers_docs;
mod equivalence;
mod fixtures;
mod fuzz_regressions;
mod hostile_input;
mod ingress_cli;
mod ingress_compat_i2gw;
mod ingress_corpus;
mod ingress_listener_split;
mod ingress_mount;
mod ingress_patch;
mod istio_corpus;
mod istio_fields;
mod istio_samples;
mod istio_translate;
mod load_spans;
mod locations;
mod precommit;
mod properties;
mod publish_cli;
mod publish_github;
mod publish_http;
mod publish_redaction;
mod render;
mod report_renderers;
mod robustness;
mod scan_corpus;
mod security_docs;
mod semantics_gateway_api;
mod semantics_ingress_nginx;
mod semantics_ingress_nginx_review;
mod semantics_istio;
mod semantics_istio_review;
mod status_envoy_gateway;
mod target_access;
mod targets_docs;
mod trace_cli;
mod untrusted;
mod untrusted_config;
mod validate_attachment;
mod validate_check;
mod validate_jsonschema;
mod walk;
mod write_corpus;
mod write_plan;
