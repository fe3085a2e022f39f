//! Translation: pure functions from the index to Gateway API objects and notes. No IO.
//!
//! Each source kind has its own module (`istio`, `ingress`) with one file per feature. A
//! translator returns one [`SourceResult`] per source object it looked at. Cross-object
//! outputs (ReferenceGrants) are requested with [`GrantRequest`] and merged here, per
//! namespace pair, so two sources never overwrite each other's grant.

pub mod around;
pub(crate) mod grants;
pub(crate) mod ingress;
pub(crate) mod istio;
pub(crate) mod target;
/// The Istio field table (`docs/istio-fields.md`).
pub mod istio_fields {
    pub use super::istio::fields::{
        FIELDS, Handling, ISTIO_API_COMMIT, ISTIO_COMMIT, IstioField, markdown,
    };
}

/// `docs/targets.md`: what each `--target` writes, fails closed on, or reports.
pub fn targets_markdown() -> String {
    target::docs::markdown()
}

use crate::config::Config;
use crate::index::Index;

pub use crate::translated::{GrantRequest, SourceResult};

/// The ingress-nginx controllers the index's Ingresses were served by, with the configuration
/// the translation used for each (`controllers`).
pub fn nginx_controllers_in_use(
    index: &Index,
    config: &Config,
) -> Vec<crate::controllers::ControllerUse> {
    ingress::controllers_in_use(index, config)
}

/// Translates every Istio and Ingress object of the index.
/// Moves each result's `elsewhere` objects to the result of the object they belong with
/// (created when that object had none), keeping `results` ordered by object position.
fn relocate(results: &mut Vec<SourceResult>) {
    let moved: Vec<(usize, crate::gwapi::Generated)> = results
        .iter_mut()
        .flat_map(|r| std::mem::take(&mut r.elsewhere))
        .collect();
    for (position, g) in moved {
        crate::translated::place(results, position, g);
    }
}

pub fn translate(index: &Index, config: &Config) -> Vec<SourceResult> {
    use crate::model::SourceBody;
    // Istio objects are isolated one by one inside `istio::translate`; what they share (every
    // Gateway's listeners, the proxies) and what ingress-nginx decides per host from every
    // Ingress of the class are not, so a panic there costs every object of that translator.
    let is_istio = |b: &SourceBody| {
        matches!(
            b,
            SourceBody::IstioGateway(_)
                | SourceBody::VirtualService(_)
                | SourceBody::DestinationRule(_)
        )
    };
    let is_ingress = |b: &SourceBody| matches!(b, SourceBody::Ingress(_));
    // The two translators share nothing but the (read-only) index: side by side.
    let (istio, ingress) = rayon::join(
        || {
            crate::isolate::catch("translating the Istio objects", || {
                istio::translate(index, config)
            })
        },
        || {
            crate::isolate::catch("translating the Ingress objects", || {
                ingress::translate(index, config)
            })
        },
    );
    let mut results = istio.unwrap_or_else(|d| crashed(index, &is_istio, &d));
    results.extend(ingress.unwrap_or_else(|d| crashed(index, &is_ingress, &d)));
    results.sort_by_key(|r| r.object);
    let granted = crate::isolate::catch("merging ReferenceGrants", || {
        grants::attach_reference_grants(index, &mut results)
    });
    if let Err(d) = granted {
        // Without their grants, cross-namespace references would not resolve, and a partial
        // merge cannot be trusted: nothing is generated, every translated object says why.
        for r in &mut results {
            r.generated.clear();
            r.elsewhere.clear();
            r.notes.push((*d).clone());
        }
    }
    target::close_gateways(&mut results);
    target::unique_policy_names(&mut results);
    relocate(&mut results);
    results
}

/// One result per object `of_kind` (patch files excepted, as the translators skip them),
/// each with the panic's diagnostic.
fn crashed(
    index: &Index,
    of_kind: &dyn Fn(&crate::model::SourceBody) -> bool,
    d: &crate::diagnostic::Diagnostic,
) -> Vec<SourceResult> {
    index
        .objects
        .iter()
        .enumerate()
        .filter(|(_, o)| of_kind(&o.body) && !index.is_patch_file(&o.source.file))
        .map(|(position, _)| {
            let mut r = SourceResult::new(position);
            r.notes.push(d.clone());
            r
        })
        .collect()
}
