//! Shared by TLSRoute and TCPRoute: `route[]` → backendRefs.

use super::Ctx;
use super::destination::{self, From};
use super::unknown;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::BackendRef;
use crate::model::istio::RouteDestination;
use crate::translate::GrantRequest;

fn backends(
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

/// Matches of one `tls[]`/`tcp[]` entry that apply on the same Gateways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MatchGroup {
    /// Positions of the matches in the entry (empty: the entry has no matches).
    pub matches: Vec<usize>,
    /// The [`super::parent_refs::Restriction`] gateways: empty when no match of the entry
    /// names its own (the VirtualService's apply).
    pub gateways: Vec<String>,
}

/// How the matches of an entry split over Gateways.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct MatchGroups {
    pub groups: Vec<MatchGroup>,
    /// Matches naming only gateways the VirtualService is not bound to: never applied.
    pub unbound: Vec<usize>,
    /// Some match applies to sidecars (`mesh`).
    pub mesh: bool,
}

/// Splits an entry's matches by the Gateways they apply on. A match's `gateways` replaces the
/// VirtualService's for that match, but only among the VirtualService's own `gateways`: the
/// VirtualService is indexed under those alone, so a match naming another gateway never
/// applies. Each match's SNI hosts and port hold on its own gateways only, so matches for
/// different gateways make different routes. Source: istio/api
/// networking/v1alpha3/virtual_service.proto (`L4MatchAttributes.gateways`,
/// `TLSMatchAttributes.gateways`); istio/istio pilot/pkg/networking/core/gateway.go
/// (`l4MultiMatch`/`l4SingleMatch`: a match without gateways matches on every gateway the
/// VirtualService is bound to); pilot/pkg/model/push_context.go (`getGatewayNames`: the index
/// uses the top-level `gateways`).
pub(super) fn match_groups(
    namespace: &str,
    vs_gateways: &[String],
    match_gateways: &[&Vec<String>],
) -> MatchGroups {
    let vs_mesh = vs_gateways.is_empty() || vs_gateways.iter().any(|g| g == "mesh");
    let mut out = MatchGroups::default();
    if match_gateways.iter().all(|g| g.is_empty()) {
        out.mesh = vs_mesh;
        out.groups.push(MatchGroup {
            matches: (0..match_gateways.len()).collect(),
            gateways: Vec::new(),
        });
        return out;
    }
    let key = |g: &str| super::parent_refs::resolve_gateway(g, namespace);
    let bound: Vec<(String, String)> = vs_gateways.iter().filter_map(|g| key(g)).collect();
    for (mi, own) in match_gateways.iter().enumerate() {
        let (mesh, gateways): (bool, Vec<String>) = if own.is_empty() {
            (
                vs_mesh,
                vs_gateways
                    .iter()
                    .filter(|g| *g != "mesh")
                    .cloned()
                    .collect(),
            )
        } else {
            (
                vs_mesh && own.iter().any(|g| g == "mesh"),
                own.iter()
                    .filter(|g| *g != "mesh")
                    .filter(|g| key(g).is_some_and(|k| bound.contains(&k)))
                    .cloned()
                    .collect(),
            )
        };
        out.mesh |= mesh;
        if gateways.is_empty() {
            if !mesh {
                out.unbound.push(mi);
            }
            continue;
        }
        let mut resolved: Vec<(String, String)> = gateways.iter().filter_map(|g| key(g)).collect();
        resolved.sort();
        resolved.dedup();
        match out.groups.iter_mut().find(|grp| {
            let mut k: Vec<(String, String)> = grp.gateways.iter().filter_map(|g| key(g)).collect();
            k.sort();
            k.dedup();
            k == resolved
        }) {
            Some(grp) => grp.matches.push(mi),
            None => out.groups.push(MatchGroup {
                matches: vec![mi],
                gateways,
            }),
        }
    }
    out
}

/// The Gateway parentRefs of one TLS/TCP route, or `None` (with a note where one is due) when
/// it has none: sidecars only (reported as a mesh route), Gateways left to Istio (reported per
/// binding), or no listener that fits.
#[allow(clippy::too_many_arguments)]
pub(super) fn gateway_parents(
    ctx: &Ctx,
    obj: &crate::model::SourceObject,
    vs: &crate::model::istio::VirtualService,
    kind: super::parent_refs::RouteKind,
    hosts: &[String],
    restriction: &super::parent_refs::Restriction,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<Vec<crate::gwapi::ParentReference>> {
    use super::parent_refs;
    if parent_refs::gateway_keys_for(obj, vs, restriction).is_empty() {
        return None;
    }
    let parents = parent_refs::gateway_parent_refs(ctx, obj, vs, kind, hosts, restriction, notes);
    if !parents.is_empty() {
        return Some(parents);
    }
    if !parent_refs::only_not_ingress(ctx, obj, vs, restriction) {
        let (listener, route) = match kind {
            parent_refs::RouteKind::Tcp => ("TCP", "TCPRoute"),
            _ => ("TLS", "TLSRoute"),
        };
        notes.push(
            Diagnostic::new(
                Code::IstioRouteUnbound,
                format!("no {listener} listener this entry can attach to; no {route} generated"),
            )
            .at(path.to_string()),
        );
    }
    None
}

/// Where a group of TLS/TCP matches binds: the one port they all name (several ports bind to
/// every listener of the kind), and the gateways the group names.
pub(super) fn restriction(
    ports: &std::collections::BTreeSet<u32>,
    gateways: &[String],
) -> super::parent_refs::Restriction {
    super::parent_refs::Restriction {
        port: (ports.len() == 1)
            .then(|| ports.iter().next().copied())
            .flatten(),
        protocol: None,
        gateways: gateways.to_vec(),
    }
}

/// The backendRefs of one TLS/TCP route, or `None` with a note when no destination could be
/// translated (an L4 route needs at least one).
pub(super) fn route_backends(
    ctx: &Ctx,
    from: &From,
    route: &[RouteDestination],
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Option<Vec<BackendRef>> {
    let backends = backends(ctx, from, route, path, notes, grants);
    if backends.is_empty() {
        notes.push(Diagnostic::new(Code::IstioNoBackends, format!("no destination could be translated; {} needs at least one backendRef, none generated", from.kind)).at(format!("{path}.route")));
        return None;
    }
    Some(backends)
}

/// The name of the route made from entry `i` of `entries` (`<vs>-tls`, `<vs>-tcp-1`), with
/// the group's gateways appended when the entry's matches split over several.
pub(super) fn route_name(
    vs_name: &str,
    suffix: &str,
    entries: usize,
    i: usize,
    split: Option<&MatchGroup>,
) -> String {
    let mut name = if entries == 1 {
        format!("{vs_name}-{suffix}")
    } else {
        format!("{vs_name}-{suffix}-{i}")
    };
    if let Some(group) = split {
        name = format!("{name}-{}", group.gateways.join("-"));
    }
    super::names::sanitize(&name, super::names::MAX_NAME)
}

/// A note for each match that names only gateways the VirtualService is not bound to.
pub(super) fn unbound_match_notes(path: &str, split: &MatchGroups, notes: &mut Vec<Diagnostic>) {
    for mi in &split.unbound {
        notes.push(
            Diagnostic::new(
                Code::IstioMatchGatewayNotBound,
                "this match names only gateways the VirtualService's `gateways` does not list: Istio indexes the VirtualService under its own gateways, so the match never applies; not translated",
            )
            .at(format!("{path}.match[{mi}].gateways")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn matches_split_by_their_gateways_within_the_virtual_service_s() {
        let vs = v(&["gw", "istio-system/gw2", "mesh"]);
        let (a, b, c, d) = (
            v(&["gw"]),
            v(&["istio-system/gw2"]),
            v(&["mesh"]),
            v(&["other"]),
        );
        let groups = match_groups("app", &vs, &[&a, &b, &c, &d, &a]);
        assert_eq!(groups.groups.len(), 2);
        assert_eq!(groups.groups[0].matches, vec![0, 4]);
        assert_eq!(groups.groups[1].matches, vec![1]);
        assert_eq!(groups.unbound, vec![3]);
        assert!(groups.mesh);
        // No per-match gateways: one group, the VirtualService's gateways.
        let none = Vec::new();
        let one = match_groups("app", &vs, &[&none, &none]);
        assert_eq!(
            one.groups,
            vec![MatchGroup {
                matches: vec![0, 1],
                gateways: Vec::new()
            }]
        );
    }
}
