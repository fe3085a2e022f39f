//! VirtualService `http[]` → HTTPRoutes.
//!
//! One HTTPRoute per VirtualService (not one per entry as the peer does), so the entries keep
//! their relative order as rule order; rules whose matches need a different hostname
//! (`authority`) or listener (`port`, `scheme`) go to a sibling route, and routes over the
//! Gateway API limits (16 rules, 128 matches, 16 hostnames) are split.

mod cors;
mod delegate;
mod fault;
mod headers;
mod layering;
pub(super) mod matches;
mod mirror;
mod order;
pub(super) mod precedence;
mod redirect;
mod retries;
mod rewrite;
mod rule;
mod source;
mod timeout;

use super::Ctx;
use super::destination::From;
use super::parent_refs::{self, Restriction, RouteKind};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, Generated, HttpRouteRule, HttpRouteSpec, Metadata, Object, ParentReference,
};
use crate::model::SourceObject;
use crate::model::istio::VirtualService;
use crate::translate::SourceResult;
use crate::translate::istio::names;

/// Most rules per HTTPRoute.
const MAX_RULES: usize = 16;
/// Most matches across the rules of one HTTPRoute.
const MAX_ROUTE_MATCHES: usize = 128;
/// Most hostnames per HTTPRoute.
const MAX_HOSTNAMES: usize = 16;

/// Which route a rule belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct RouteKey {
    /// From `match.authority.exact`: the route's only hostname.
    pub authority: Option<String>,
    pub restriction: Restriction,
}

/// A rule and the route it belongs to.
#[derive(Debug, Clone)]
pub(super) struct KeyedRule {
    pub key: RouteKey,
    /// The entry routed somewhere, and every destination was dropped in translation.
    pub lost_destinations: bool,
    pub rule: HttpRouteRule,
}

/// Translates the http entries of `vs` into `result`; `hostnames` are the VS hosts that are
/// valid Gateway API hostnames (empty when the VS serves `*`).
pub(super) fn translate(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    hostnames: &[String],
    result: &mut SourceResult,
) {
    let mut entries = delegate::flatten(ctx, obj, vs, &mut result.notes);
    let dead = source::decide(ctx, obj, vs, &mut entries, &mut result.notes);
    order::drop_after_catch_all(&mut entries, &dead, &mut result.notes);
    let from = From {
        kind: "HTTPRoute",
        namespace: &obj.namespace,
    };
    let mut per_entry: Vec<(String, Vec<KeyedRule>)> = Vec::new();
    for (path, http) in &entries {
        let rules = rule::translate(
            ctx,
            &from,
            http,
            dead.get(path),
            path,
            &mut result.notes,
            &mut result.grants,
        );
        per_entry.push((path.clone(), rules));
    }
    let mut keys: Vec<RouteKey> = Vec::new();
    for (_, rules) in &per_entry {
        for r in rules {
            if !keys.contains(&r.key) {
                keys.push(r.key.clone());
            }
        }
    }
    // Parents per route; identical binding notes of several routes are merged later.
    let mut bindings: Vec<(RouteKey, Vec<ParentReference>, bool)> = Vec::new();
    let mut never_applied: Vec<RouteKey> = Vec::new();
    let vs_hosts: Vec<String> = vs
        .hosts
        .iter()
        .map(|h| super::hosts::expand_short(h, &obj.namespace, &ctx.config.cluster_domain))
        .collect();
    for key in &keys {
        // Istio picks the virtual host by the Host header first: an authority outside the
        // VirtualService's hosts can never be the request's, so those matches are dead
        // (route.go BuildHTTPRoutesForVirtualService builds them into this VS's virtual hosts).
        if let Some(a) = &key.authority
            && !vs_hosts.iter().any(|h| super::hosts::overlap(h, a))
        {
            result.notes.push(
                Diagnostic::new(
                    Code::IstioAuthorityOutsideHosts,
                    format!("authority '{a}' is none of the VirtualService's hosts: Istio chooses the virtual host by the Host header first, so these matches never applied; not translated (a route for '{a}' would make them live)"),
                )
                .at("spec.hosts"),
            );
            continue;
        }
        let route_hosts: Vec<String> = match &key.authority {
            Some(a) => vec![a.clone()],
            None => vs_hosts.clone(),
        };
        let mesh = parent_refs::binds_mesh_for(vs, &key.restriction);
        let has_gateways = !parent_refs::gateway_keys_for(obj, vs, &key.restriction).is_empty();
        let mut parents = Vec::new();
        if has_gateways {
            let before = result.notes.len();
            parents.extend(parent_refs::gateway_parent_refs(
                ctx,
                obj,
                vs,
                RouteKind::Http,
                &route_hosts,
                &key.restriction,
                &mut result.notes,
            ));
            // Every Gateway left out because Istio never applied the rules there (no server
            // serves the hosts to this namespace on that port, or exportTo hides them from
            // the proxy): no route is what Istio had too.
            let skipped = &result.notes[before..];
            if parents.is_empty()
                && !skipped.is_empty()
                && skipped.iter().all(|n| {
                    matches!(
                        n.code,
                        Code::IstioNoListenerMatch | Code::IstioExportToHidden
                    )
                })
            {
                never_applied.push(key.clone());
            }
        }
        let mut mesh_only = false;
        if mesh {
            let refs = parent_refs::mesh_parent_refs(
                ctx,
                obj,
                vs,
                key.restriction.port,
                &mut result.notes,
            );
            mesh_only = parents.is_empty();
            parents.extend(refs);
        }
        bindings.push((key.clone(), parents, mesh_only));
    }

    let layering = layering::apply(ctx, &obj.namespace, &mut bindings);

    // Precedence: every pair of entries whose mesh routes can serve the same request. Routes
    // on Gateways are compared request by request by the routing equivalence model
    // (`crate::equivalence`), which also sees rules of other VirtualServices competing; the
    // mesh is outside that model, so this pairwise check stays for mesh routes.
    let mesh_bindings: Vec<(&RouteKey, Vec<ParentReference>)> = bindings
        .iter()
        .map(|(key, parents, _)| {
            let mesh = parents
                .iter()
                .filter(|p| p.group.as_deref() == Some(""))
                .cloned()
                .collect();
            (key, mesh)
        })
        .filter(|(_, mesh): &(&RouteKey, Vec<ParentReference>)| !mesh.is_empty())
        .collect();
    let mut prec: Vec<precedence::Entry> = Vec::new();
    for (path, rules) in &per_entry {
        for (key, parents) in &mesh_bindings {
            let key = *key;
            let matches: Vec<_> = rules
                .iter()
                .filter(|r| &r.key == key)
                .flat_map(|r| {
                    if r.rule.matches.is_empty() {
                        vec![None]
                    } else {
                        r.rule.matches.iter().map(Some).collect()
                    }
                })
                .collect();
            if !matches.is_empty() {
                prec.push(precedence::Entry {
                    path,
                    key,
                    parents,
                    matches,
                });
            }
        }
    }
    precedence::check(&prec, &mut result.notes);

    let base = names::sanitize(obj.name(), names::MAX_NAME);
    let any_bound = bindings.iter().any(|(_, parents, _)| !parents.is_empty());
    // Notes about entry order, once each however many routes share the entries.
    let mut order_notes: Vec<Diagnostic> = Vec::new();
    for (key, mut parents, mesh_only) in bindings {
        let key = &key;
        let keyed: Vec<&KeyedRule> = per_entry
            .iter()
            .flat_map(|(_, rules)| rules.iter())
            .filter(|r| &r.key == key)
            .collect();
        // An authority only a wildcard host covers gets a virtual host of its own in Gateway
        // API implementations (an exact hostname outranks the wildcard route as a whole), so
        // its route also carries the VirtualService's other rules, in Istio's order: Istio
        // kept them all in one virtual host.
        let authority_alone = key
            .authority
            .as_ref()
            .is_some_and(|a| !vs_hosts.iter().any(|h| h.eq_ignore_ascii_case(a)));
        let layered = layering.layered.contains(key);
        // A layered route also carries the unrestricted rules, in Istio's order.
        let belongs = |r: &KeyedRule| {
            &r.key == key
                || (authority_alone
                    && r.key.authority.is_none()
                    && r.key.restriction == key.restriction)
                || (layered && r.key == RouteKey::default())
        };
        // The route's rules per entry, in Istio's order: what one listener and host sees.
        // First-match order is kept there, across the restricted and unrestricted rules alike.
        let mut in_route: Vec<(String, Vec<KeyedRule>)> = per_entry
            .iter()
            .map(|(path, rules)| {
                (
                    path.clone(),
                    rules
                        .iter()
                        .filter(|r| belongs(r))
                        .cloned()
                        .collect::<Vec<_>>(),
                )
            })
            .filter(|(_, rules)| !rules.is_empty())
            .collect();
        order::truncate_after_catch_all(&mut in_route, &mut order_notes);
        order::carry(&mut in_route, &mut order_notes);
        let rules: Vec<HttpRouteRule> = in_route
            .into_iter()
            .flat_map(|(_, rules)| rules)
            .map(|r| r.rule)
            .collect();
        if !keyed.is_empty()
            && keyed.iter().all(|r| r.lost_destinations)
            && parents.iter().any(is_service_parent)
        {
            // Without the route, mesh traffic still reaches the Service itself; with a route
            // whose rules have no backends, every mesh request to it would get 500.
            parents.retain(|p| !is_service_parent(p));
            result.notes.push(
                Diagnostic::new(
                    Code::IstioMeshRouteNoBackends,
                    "every destination of these mesh rules was dropped: no GAMMA route is written, since one without backends would answer 500 to all mesh traffic for the Service; mesh traffic now goes to the Service itself instead of the VirtualService's destinations",
                )
                .at("spec.http"),
            );
            if parents.is_empty() {
                // No route at all: the per-rule "answers 500" notes no longer hold.
                let paths: Vec<&String> = per_entry
                    .iter()
                    .filter(|(_, rules)| rules.iter().any(|r| &r.key == key))
                    .map(|(path, _)| path)
                    .collect();
                result.notes.retain(|n| {
                    n.code != Code::IstioNoBackends
                        || !n
                            .location
                            .field
                            .as_deref()
                            .is_some_and(|f| paths.iter().any(|p| f == format!("{p}.route")))
                });
                continue;
            }
        }
        if parents.is_empty() && *key == RouteKey::default() && layering.base_emptied {
            continue;
        }
        if parents.is_empty() {
            // Stays with Istio (not-ingress Gateways), or mesh-only with hosts that are not
            // Services: notes already say so for each binding.
            let mesh_only_key = parent_refs::gateway_keys_for(obj, vs, &key.restriction).is_empty()
                && parent_refs::binds_mesh_for(vs, &key.restriction);
            if mesh_only_key
                || parent_refs::only_not_ingress(ctx, obj, vs, &key.restriction)
                || (never_applied.contains(key)
                    && !parent_refs::binds_mesh_for(vs, &key.restriction))
            {
                continue;
            }
            let message = if any_bound {
                let mut bound_to = Vec::new();
                if let Some(a) = &key.authority {
                    bound_to.push(format!("authority {a}"));
                }
                if let Some(p) = key.restriction.port {
                    bound_to.push(format!("port {p}"));
                }
                if let Some(p) = &key.restriction.protocol {
                    bound_to.push(format!("scheme {}", p.to_ascii_lowercase()));
                }
                if !key.restriction.gateways.is_empty() {
                    bound_to.push(format!("gateways {}", key.restriction.gateways.join(", ")));
                }
                format!(
                    "the HTTP rules bound to {} have no Gateway listener or Service to attach to; no HTTPRoute for them (the other rules are translated)",
                    if bound_to.is_empty() {
                        "their match".to_string()
                    } else {
                        bound_to.join(", ")
                    }
                )
            } else {
                "no Gateway listener or Service this VirtualService's HTTP rules can attach to; no HTTPRoute generated".to_string()
            };
            result
                .notes
                .push(Diagnostic::new(Code::IstioRouteUnbound, message).at("spec.gateways"));
            continue;
        }
        // GAMMA: hostnames are not used for mesh routes.
        let hosts: Vec<String> = if mesh_only {
            Vec::new()
        } else {
            match &key.authority {
                Some(a) => vec![a.clone()],
                None => hostnames.to_vec(),
            }
        };
        let mut stem = base.clone();
        if let Some(a) = &key.authority {
            stem = format!("{stem}-{}", names::sanitize(a, 63));
        }
        if let Some(p) = key.restriction.port {
            stem = format!("{stem}-port-{p}");
        }
        if let Some(p) = &key.restriction.protocol {
            stem = format!("{stem}-{}", p.to_ascii_lowercase());
        }
        if !key.restriction.gateways.is_empty() {
            stem = format!(
                "{stem}-{}",
                names::sanitize(&key.restriction.gateways.join("-"), 63)
            );
        }
        let rule_chunks = chunk_rules(rules);
        let host_chunks: Vec<Vec<String>> = if hosts.is_empty() {
            vec![Vec::new()]
        } else {
            hosts
                .chunks(MAX_HOSTNAMES)
                .map(<[String]>::to_vec)
                .collect()
        };
        let total = rule_chunks.len() * host_chunks.len();
        if total > 1 {
            result.notes.push(Diagnostic::new(Code::IstioRouteSplit, format!("rules/hostnames exceed the HTTPRoute limits (16 rules, 128 matches, 16 hostnames): written as {total} HTTPRoutes; ties between equally specific matches in different routes are broken by creation time, not by Istio order")));
        }
        let mut n = 0;
        for hosts in &host_chunks {
            for rules in &rule_chunks {
                n += 1;
                let name = if n == 1 {
                    stem.clone()
                } else {
                    format!("{stem}-{n}")
                };
                let spec = HttpRouteSpec {
                    parent_refs: parents.clone(),
                    hostnames: hosts.clone(),
                    rules: unique_rule_names(rules.clone()),
                };
                result.generated.push(Generated::HttpRoute(Object::new(
                    gwapi::V1,
                    "HTTPRoute",
                    Metadata::new(
                        names::sanitize(&name, names::MAX_NAME),
                        obj.namespace.clone(),
                    ),
                    spec,
                )));
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for note in order_notes {
        if seen.insert((note.code, note.message.clone(), note.location.field.clone())) {
            result.notes.push(note);
        }
    }
}

fn is_service_parent(p: &ParentReference) -> bool {
    p.kind.as_deref() == Some("Service")
}

fn chunk_rules(rules: Vec<HttpRouteRule>) -> Vec<Vec<HttpRouteRule>> {
    let mut chunks: Vec<Vec<HttpRouteRule>> = vec![Vec::new()];
    let mut matches = 0;
    for r in rules {
        let m = r.matches.len().max(1);
        let full = chunks.last().is_some_and(|c| {
            c.len() >= MAX_RULES || (matches + m > MAX_ROUTE_MATCHES && !c.is_empty())
        });
        if full {
            chunks.push(Vec::new());
            matches = 0;
        }
        matches += m;
        if let Some(c) = chunks.last_mut() {
            c.push(r);
        }
    }
    chunks
}

/// Rule names must be unique within a route (experimental CRD rule, standard spec rule).
fn unique_rule_names(mut rules: Vec<HttpRouteRule>) -> Vec<HttpRouteRule> {
    let mut taken = std::collections::BTreeSet::new();
    for r in &mut rules {
        if let Some(n) = &r.name {
            r.name = Some(names::unique(n, &mut taken));
        }
    }
    rules
}
