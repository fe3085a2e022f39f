//! Notes about objects around the translated ones that change what the migration means,
//! though nothing of theirs is translated: controllers that write Istio routing at runtime
//! (Flagger, Argo Rollouts), and Gateway API CRDs the cluster must have first.
//!
//! Pure, like translation; the pipeline places each note at the object it names (or the
//! GitOps deployer file) and counts it like any other.

mod crds;
mod flagger;
mod rollouts;

use crate::diagnostic::Diagnostic;
use crate::index::Index;
use crate::load::Deployer;
use crate::translate::SourceResult;

/// A note and where it belongs.
#[derive(Debug, Clone)]
pub enum Placed {
    /// About the index object at this position.
    Object(usize, Diagnostic),
    /// About a file (a deployer, which is not an index object): file, document, line.
    File(String, usize, usize, Diagnostic),
}

/// Every note about the surroundings of the translated objects.
pub fn notes(index: &Index, deployers: &[Deployer], results: &[SourceResult]) -> Vec<Placed> {
    let mut out = Vec::new();
    flagger::notes(index, &mut out);
    rollouts::notes(index, results, &mut out);
    crds::notes(index, deployers, results, &mut out);
    out
}
