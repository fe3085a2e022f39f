//! Kubernetes Ingress → Gateway API, in `migrate` or `mount` mode; ingress-nginx annotations.

use crate::config::Config;
use crate::index::Index;
use crate::translate::SourceResult;

/// Translates every Ingress of the index.
pub fn translate(_index: &Index, _config: &Config) -> Vec<SourceResult> {
    Vec::new()
}
