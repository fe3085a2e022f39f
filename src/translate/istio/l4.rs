//! Shared by TLSRoute and TCPRoute: `route[]` → backendRefs.

use super::Ctx;
use super::destination::{self, From};
use super::unknown;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::BackendRef;
use crate::model::istio::RouteDestination;
use crate::translate::GrantRequest;

pub(super) fn backends(
    ctx: &Ctx,
    from: &From,
    route: &[RouteDestination],
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Vec<BackendRef> {
    let mut resolved = Vec::new();
    for (j, d) in route.iter().enumerate() {
        let field = format!("{path}.route[{j}]");
        unknown::report(&d.extra, &field, notes);
        let Some(dest) = &d.destination else {
            notes.push(
                Diagnostic::new(
                    Code::IstioDestinationHostMissing,
                    "route entry without destination; dropped",
                )
                .at(field),
            );
            continue;
        };
        if let Some(b) = destination::backend_ref(
            ctx,
            from,
            dest,
            &format!("{field}.destination"),
            notes,
            grants,
        ) {
            resolved.push((b, d.weight));
        }
    }
    if resolved.len() > 16 {
        notes.push(
            Diagnostic::new(
                Code::IstioTooManyBackends,
                "more than 16 destinations; the rest were dropped",
            )
            .at(format!("{path}.route")),
        );
        resolved.truncate(16);
    }
    destination::apply_weights(&mut resolved, path, notes);
    resolved.into_iter().map(|(b, _)| b).collect()
}

/// The gateways a `tls[]`/`tcp[]` entry applies on, as a [`super::parent_refs::Restriction`]
/// list: empty when no match names its own `gateways` (the VirtualService's apply). A match's
/// `gateways` replaces the VirtualService's for that match, and an entry applies wherever
/// one of its matches does, so the list is the union over matches (a match without
/// `gateways` contributes the VirtualService's). Source: istio/api
/// networking/v1alpha3/virtual_service.proto (`L4MatchAttributes.gateways`,
/// `TLSMatchAttributes.gateways`); istio/istio pilot/pkg/networking/core/gateway.go
/// (`l4MultiMatch`/`l4SingleMatch`: a match without gateways matches on every gateway the
/// VirtualService is bound to, one with gateways only on those).
pub(super) fn entry_gateways<'a>(
    vs_gateways: &[String],
    match_gateways: impl Iterator<Item = &'a Vec<String>>,
) -> Vec<String> {
    let lists: Vec<&Vec<String>> = match_gateways.collect();
    if lists.iter().all(|g| g.is_empty()) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for list in lists {
        let list = if list.is_empty() { vs_gateways } else { list };
        for g in list {
            if !out.contains(g) {
                out.push(g.clone());
            }
        }
    }
    out
}

/// Whether a gateway list names only the mesh (so no Gateway listener serves the entry).
pub(super) fn mesh_only(gateways: &[String]) -> bool {
    !gateways.is_empty() && gateways.iter().all(|g| g == "mesh")
}
