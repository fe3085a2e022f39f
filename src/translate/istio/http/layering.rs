//! Rules restricted to some listeners (`match.port`, `match.scheme`, `match.gateways`) next to
//! unrestricted ones.
//!
//! Istio evaluates a VirtualService's `http` entries in order, first match wins
//! (istio/istio pilot/pkg/networking/core/route/route.go, `BuildHTTPRoutesForVirtualService`;
//! port and scheme are conditions of the match, `TranslateRouteMatch`). The translation puts
//! restricted rules in a sibling route bound to those listeners only. Left at that, the
//! unrestricted route is bound to the same listeners too, and where a restricted and an
//! unrestricted rule match the same requests equally, Gateway API breaks the tie between the
//! two routes by creation time, then `namespace/name` (apis/v1/httproute_types.go,
//! `HTTPRouteRule.Matches`), not by Istio's order: `shop` beats `shop-http`.
//!
//! So on a listener a restricted route is bound to, that route carries the unrestricted rules
//! as well, in Istio's order (within one route, equally specific matches are decided by rule
//! order), and the unrestricted route is bound only to the other listeners.

use std::collections::{BTreeMap, BTreeSet};

use super::RouteKey;
use crate::gwapi::ParentReference;
use crate::translate::istio::Ctx;

/// `(namespace as written, Gateway name)` → listener names.
type Listeners = BTreeMap<(Option<String>, String), BTreeSet<String>>;

/// The listeners a set of Gateway parentRefs binds to; `None` when one of them cannot be
/// expanded (its Gateway is not in the repository).
fn listeners_of(ctx: &Ctx, route_ns: &str, parents: &[ParentReference]) -> Option<Listeners> {
    let mut out: Listeners = BTreeMap::new();
    for p in parents.iter().filter(|p| is_gateway(p)) {
        let ns = p.namespace.clone().unwrap_or_else(|| route_ns.to_string());
        let plan = ctx.plan_generated(&ns, &p.name)?;
        let names: BTreeSet<String> = match &p.section_name {
            Some(s) => BTreeSet::from([s.clone()]),
            None => plan
                .listeners
                .iter()
                .map(|l| l.listener.name.clone())
                .collect(),
        };
        out.entry((p.namespace.clone(), p.name.clone()))
            .or_default()
            .extend(names);
    }
    Some(out)
}

fn is_gateway(p: &ParentReference) -> bool {
    p.kind.as_deref().is_none_or(|k| k == "Gateway")
}

/// What layering decided: the keys whose routes also carry the unrestricted rules.
pub(super) struct Layering {
    pub layered: BTreeSet<RouteKey>,
    /// Every Gateway listener of the unrestricted route went to restricted routes (and it has
    /// no Service parent): it is not written, and that is not a binding problem.
    pub base_emptied: bool,
}

/// Rebinds the unrestricted route away from listeners a restricted route is bound to, and
/// returns the restricted keys that must carry the unrestricted rules too.
pub(super) fn apply(
    ctx: &Ctx,
    route_ns: &str,
    bindings: &mut [(RouteKey, Vec<ParentReference>, bool)],
) -> Layering {
    let mut layering = Layering {
        layered: BTreeSet::new(),
        base_emptied: false,
    };
    let Some(base) = bindings
        .iter()
        .position(|(k, _, _)| *k == RouteKey::default())
    else {
        return layering;
    };
    let Some(base_listeners) = listeners_of(ctx, route_ns, &bindings[base].1) else {
        return layering;
    };
    let mut candidates: Vec<(&RouteKey, Listeners)> = Vec::new();
    for (i, (key, parents, _)) in bindings.iter().enumerate() {
        if i == base || key.authority.is_some() {
            continue;
        }
        let Some(own) = listeners_of(ctx, route_ns, parents) else {
            continue;
        };
        let within_base = !own.is_empty()
            && own.iter().all(|(gw, names)| {
                base_listeners
                    .get(gw)
                    .is_some_and(|all| names.is_subset(all))
            });
        if within_base {
            candidates.push((key, own));
        }
    }
    let overlaps = |a: &Listeners, b: &Listeners| {
        a.iter()
            .any(|(gw, names)| b.get(gw).is_some_and(|other| !names.is_disjoint(other)))
    };
    let mut claimed: Listeners = BTreeMap::new();
    for (i, (key, own)) in candidates.iter().enumerate() {
        // Per-match `gateways` (route.go `sourceMatchHTTP`) layer like a port or scheme, as
        // long as no other restricted route shares their listeners: one route per listener
        // can hold Istio's order, two cannot.
        if !key.restriction.gateways.is_empty()
            && candidates
                .iter()
                .enumerate()
                .any(|(j, (_, other))| i != j && overlaps(own, other))
        {
            continue;
        }
        layering.layered.insert((*key).clone());
        for (gw, names) in own {
            claimed
                .entry(gw.clone())
                .or_default()
                .extend(names.iter().cloned());
        }
    }
    if claimed.is_empty() {
        return layering;
    }
    // The unrestricted route keeps its Service parents and the listeners nobody claimed.
    let (_, parents, _) = &mut bindings[base];
    let mut kept: Vec<ParentReference> =
        parents.iter().filter(|p| !is_gateway(p)).cloned().collect();
    for ((namespace, name), names) in &base_listeners {
        let taken = claimed.get(&(namespace.clone(), name.clone()));
        for listener in names {
            if taken.is_some_and(|t| t.contains(listener)) {
                continue;
            }
            kept.push(ParentReference {
                name: name.clone(),
                namespace: namespace.clone(),
                section_name: Some(listener.clone()),
                ..Default::default()
            });
        }
    }
    layering.base_emptied = kept.is_empty();
    *parents = kept;
    layering
}
