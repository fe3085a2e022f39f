//! gateway-migrate: rewrite GitOps repositories from Istio and Ingress to the Gateway API.
//!
//! The pipeline is one module per stage:
//! `walk → load → index → translate → validate → plan → write → report → publish`.
//! See `ARCHITECTURE.md` for the invariant each module keeps.

pub mod bulk;
pub mod cli;
pub mod config;
pub mod controllers;
pub mod deploy;
pub mod diagnostic;
pub mod equivalence;
pub mod fuzz;
pub mod gwapi;
pub mod header;
pub(crate) mod index;
pub mod isolate;
pub mod load;
pub mod model;
pub(crate) mod pattern;
pub mod pipeline;
pub mod plan;
pub mod progress;
pub mod publish;
pub mod render;
pub mod report;
pub mod scan;
pub mod semantics;
pub mod suppress;
pub mod target;
pub mod translate;
pub mod translated;
pub mod validate;
pub mod vcs;
pub mod walk;
pub mod write;
pub mod yaml;
