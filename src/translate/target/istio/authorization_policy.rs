//! Istio `AuthorizationPolicy` (`security.istio.io/v1`, istio/api
//! `security/v1beta1/authorization.proto`) for client address lists: one per source object
//! and Gateway, in the Gateway's namespace (`targetRefs` name objects of the policy's own
//! namespace; Istio's webhook accepts no HTTPRoute as target), `action: DENY`.
//!
//! A deny-list is a rule denying clients in `remoteIpBlocks`; an allow-list one denying
//! clients in `notRemoteIpBlocks` (`remoteIpBlocks` is the client address Istio reads, from
//! X-Forwarded-For with `numTrustedProxies`, else the peer). DENY rather than ALLOW: an ALLOW
//! policy on the Gateway would refuse every request to every other route that matches none of
//! its rules.
//!
//! Both rules are scoped to the requests of the source's routes with `to.operation`: `hosts`
//! match the Host header exactly or by a leading `*` and never ignore a port
//! (`pilot/pkg/security/authz/matcher/header.go` `HostMatcher`), so an exact host is written
//! with `host:*` too; `paths` are exact or prefix (`*` at the end; `matcher/path.go`
//! `PathMatcher`), so a `PathPrefix` `/api` is `/api` and `/api/*`. Each path of the source's
//! routes is one operation, leaving out (`notPaths`) the more specific paths other routes take
//! on the same host and Gateway, as nginx gives a request to the longest matching location.
//! What cannot be scoped that
//! way (a wildcard host, which a port would slip past; a route without hostname; a regular
//! expression; a gRPC method) is scoped wider, to the whole host or the whole Gateway: the
//! policy then refuses more than the source did, never less, and a warning says so.

use serde::Serialize;
use std::collections::BTreeMap;

use super::super::{Control, Detail, Namer, PathScope, Protection, RouteScope};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{Generated, Metadata, Object};
use crate::target::Control as Kind;

const API_VERSION: &str = "security.istio.io/v1";

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    target_refs: Vec<TargetRef>,
    action: &'static str,
    rules: Vec<Rule>,
}

#[derive(Debug, Serialize)]
struct TargetRef {
    group: &'static str,
    kind: &'static str,
    name: String,
}

#[derive(Debug, Serialize)]
struct Rule {
    from: Vec<From>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    to: Vec<To>,
}

#[derive(Debug, Serialize)]
struct From {
    source: Source,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Source {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    remote_ip_blocks: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_remote_ip_blocks: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct To {
    operation: Operation,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
struct Operation {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    hosts: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    paths: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_paths: Vec<String>,
}

/// `/api` and `/api/*` for a `PathPrefix` `/api` (nothing for `/`: every path); a path as
/// is for `Exact`.
fn expand(p: &PathScope) -> Vec<String> {
    match p {
        PathScope::Exact(v) => vec![v.clone()],
        PathScope::Prefix(v) => {
            let base = v.trim_end_matches('/');
            if base.is_empty() {
                Vec::new()
            } else {
                vec![base.to_string(), format!("{base}/*")]
            }
        }
        PathScope::Any => Vec::new(),
    }
}

/// Whether `inner` is a strictly more specific path than the prefix `outer`, so a request
/// under `inner` goes to the route naming it.
fn under(inner: &PathScope, outer: &PathScope) -> bool {
    let PathScope::Prefix(o) = outer else {
        return false;
    };
    let o = o.trim_end_matches('/');
    let (value, exact) = match inner {
        PathScope::Exact(v) => (v.as_str(), true),
        PathScope::Prefix(v) => (v.trim_end_matches('/'), false),
        PathScope::Any => return false,
    };
    if value == o && !exact {
        return false;
    }
    o.is_empty() || value == o || value.strip_prefix(o).is_some_and(|r| r.starts_with('/'))
}

/// The operations covering the requests of `route` on `gateway`, leaving out the more
/// specific paths `others` route there; what was scoped wider goes to `wider`. `None`: the
/// whole Gateway.
fn operations(
    route: &RouteScope,
    gateway: &(String, String),
    others: &[&RouteScope],
    wider: &mut Vec<String>,
) -> Option<Vec<To>> {
    let label = format!("{} {}", route.kind, route.name);
    let hosts: Vec<String> = if route.hostnames.is_empty() {
        wider.push(format!(
            "{label} has no hostname: its paths on every host of the Gateway"
        ));
        Vec::new()
    } else if let Some(w) = route.hostnames.iter().find(|h| h.starts_with('*')) {
        wider.push(format!(
            "{label} serves the wildcard host {w}, which a port in the Host header would slip past: its paths on every host of the Gateway"
        ));
        Vec::new()
    } else {
        route
            .hostnames
            .iter()
            .flat_map(|h| [h.clone(), format!("{h}:*")])
            .collect()
    };
    let neighbours: Vec<&PathScope> = others
        .iter()
        .filter(|o| {
            o.gateways.contains(gateway)
                && (o.hostnames.iter().any(|h| route.hostnames.contains(h))
                    || (o.hostnames.is_empty() && route.hostnames.is_empty()))
        })
        .flat_map(|o| &o.paths)
        .collect();
    let mut out = Vec::new();
    for p in &route.paths {
        if *p == PathScope::Any {
            wider.push(format!(
                "{label} has a path the policy cannot name (a regular expression or a gRPC method): every path of its hosts"
            ));
            out.push(Operation {
                hosts: hosts.clone(),
                paths: Vec::new(),
                not_paths: Vec::new(),
            });
            continue;
        }
        let mut not_paths: Vec<String> = neighbours
            .iter()
            .filter(|q| under(q, p))
            .flat_map(|q| expand(q))
            .collect();
        not_paths.sort();
        not_paths.dedup();
        if neighbours.contains(&&PathScope::Any) && matches!(p, PathScope::Prefix(_)) {
            wider.push(format!(
                "another route on the hosts of {label} has regular-expression paths, which cannot be left out: requests they take under its paths are covered too"
            ));
        }
        out.push(Operation {
            hosts: hosts.clone(),
            paths: expand(p),
            not_paths,
        });
    }
    out.sort();
    out.dedup();
    // An operation with no condition at all covers every request of the Gateway.
    if out
        .iter()
        .any(|o| o.hosts.is_empty() && o.paths.is_empty() && o.not_paths.is_empty())
    {
        return None;
    }
    Some(out.into_iter().map(|operation| To { operation }).collect())
}

/// The AuthorizationPolicies for `controls` on `routes`, or the controls they cannot carry.
pub(crate) fn write(
    controls: &[Control],
    routes: &[RouteScope],
    others: &[&RouteScope],
    (source, normalization): ((&str, &str), &str),
    names: &mut Namer,
) -> Result<Protection, Vec<(usize, String)>> {
    let mut denies: Vec<String> = Vec::new();
    let mut allow: Option<Vec<String>> = None;
    let mut refused = Vec::new();
    for (i, c) in controls.iter().enumerate() {
        match (&c.kind, &c.detail) {
            (Kind::SourceDenyList, Detail::Ranges(r)) => denies.extend(r.iter().cloned()),
            (Kind::SourceAllowList, Detail::Ranges(r)) => allow = Some(r.clone()),
            _ => refused.push((i, format!("Istio has no field for {}", c.kind.describe()))),
        }
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    denies.sort();
    denies.dedup();
    let no_gateway: Vec<(usize, String)> = routes
        .iter()
        .filter(|r| r.gateways.is_empty())
        .map(|r| {
            (
                0,
                format!(
                    "{} {} has no Gateway parent to attach an AuthorizationPolicy to",
                    r.kind, r.name
                ),
            )
        })
        .collect();
    if !no_gateway.is_empty() {
        return Err(no_gateway);
    }
    // The requests of the routes, per Gateway.
    let mut per_gateway: BTreeMap<(String, String), Option<Vec<To>>> = BTreeMap::new();
    let mut wider = Vec::new();
    for r in routes {
        for g in &r.gateways {
            let ops = operations(r, g, others, &mut wider);
            let entry = per_gateway.entry(g.clone()).or_insert(Some(Vec::new()));
            match (entry.as_mut(), &ops) {
                (Some(list), Some(more)) => list.extend(more.iter().cloned()),
                // One route covering everything makes the policy cover the whole Gateway.
                _ => *entry = None,
            }
        }
    }
    let mut out = Protection::default();
    let mut written = Vec::new();
    let mut by_path = false;
    for ((gw_ns, gw_name), ops) in per_gateway {
        let mut to = ops.unwrap_or_default();
        to.sort();
        to.dedup();
        by_path |= to
            .iter()
            .any(|t| !t.operation.paths.is_empty() || !t.operation.not_paths.is_empty());
        let mut rules = Vec::new();
        if !denies.is_empty() {
            rules.push(Rule {
                from: vec![From {
                    source: Source {
                        remote_ip_blocks: denies.clone(),
                        not_remote_ip_blocks: Vec::new(),
                    },
                }],
                to: to.clone(),
            });
        }
        if let Some(allowed) = &allow {
            // An empty allow-list admits no client: a rule without `from` denies everyone.
            rules.push(Rule {
                from: if allowed.is_empty() {
                    Vec::new()
                } else {
                    vec![From {
                        source: Source {
                            remote_ip_blocks: Vec::new(),
                            not_remote_ip_blocks: allowed.clone(),
                        },
                    }]
                },
                to: to.clone(),
            });
        }
        if rules.is_empty() {
            continue;
        }
        let name = names(
            &gw_ns,
            "AuthorizationPolicy",
            &format!("{}-{}", source.0, source.1),
        );
        written.push(format!("AuthorizationPolicy {gw_ns}/{name}"));
        let spec = Spec {
            target_refs: vec![TargetRef {
                group: crate::gwapi::GROUP,
                kind: "Gateway",
                name: gw_name,
            }],
            action: "DENY",
            rules,
        };
        out.generated.push(Generated::Policy(Object::new(
            API_VERSION,
            "AuthorizationPolicy",
            Metadata::new(name, gw_ns),
            serde_json::to_value(&spec).unwrap_or_default(),
        )));
    }
    let origins: Vec<&str> = controls.iter().map(|c| c.origin.as_str()).collect();
    out.notes.push(Diagnostic::new(
        Code::TargetAccessPolicy,
        format!(
            "{} written as {} (action DENY, targetRefs the Gateway, scoped to the routes' hosts and paths)",
            origins.join(", "),
            written.join(", ")
        ),
    ));
    // nginx merges slashes and decodes the URI before it picks a location; Istio matches
    // `paths` against the path as its normalization leaves it
    // (`pilot/pkg/networking/core/listener_builder.go`: BASE normalizes `..` only, MERGE_SLASHES
    // also merges, DECODE_AND_MERGE_SLASHES also decodes `%2F`).
    if by_path && normalization != "DECODE_AND_MERGE_SLASHES" {
        out.notes.push(
            Diagnostic::new(
                Code::TargetPathNormalization,
                format!(
                    "{} names paths, which Istio matches after its path normalization ({normalization}), while nginx merged slashes and decoded %2F before it chose the location: a request for //admin or /x/..%2Fadmin can reach a protected backend through an open route without the check; set meshConfig.pathNormalization.normalization to DECODE_AND_MERGE_SLASHES",
                    written.join(", ")
                ),
            )
            .at(controls[0].field.clone()),
        );
    }
    if !wider.is_empty() {
        wider.sort();
        wider.dedup();
        out.notes.push(
            Diagnostic::new(
                Code::TargetAccessScope,
                format!(
                    "{} applies to more requests than {} did (refused clients are refused there too, never let through): {}",
                    written.join(", "),
                    origins.join(", "),
                    wider.join("; ")
                ),
            )
            .at(controls[0].field.clone()),
        );
    }
    Ok(out)
}
