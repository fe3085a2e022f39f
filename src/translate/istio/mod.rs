//! Istio `Gateway`, `VirtualService` and `DestinationRule` → Gateway API.
//! Spec: `docs/` and the Istio provider spec; one file per feature.

use crate::config::Config;
use crate::index::Index;
use crate::translate::SourceResult;

/// Translates every Istio object of the index.
pub fn translate(_index: &Index, _config: &Config) -> Vec<SourceResult> {
    Vec::new()
}
