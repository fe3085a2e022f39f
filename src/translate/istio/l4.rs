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
