//! VirtualService `tls[]` → one TLSRoute v1 per entry (TLSRoute has exactly one rule);
//! `sniHosts` → `hostnames`.

use super::destination::From;
use super::parent_refs::RouteKind;
use super::{Ctx, hosts, l4, unknown};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{self, Generated, L4RouteRule, Metadata, Object, TlsRouteSpec};
use crate::model::SourceObject;
use crate::model::istio::VirtualService;
use crate::translate::SourceResult;

pub(super) fn translate(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    result: &mut SourceResult,
) {
    let from = From {
        kind: "TLSRoute",
        namespace: &obj.namespace,
    };
    for (i, tls) in vs.tls.iter().enumerate() {
        let path = format!("spec.tls[{i}]");
        unknown::report(&tls.extra, &path, &mut result.notes);
        let match_gateways: Vec<&Vec<String>> = tls.matches.iter().map(|m| &m.gateways).collect();
        let split = l4::match_groups(&obj.namespace, &vs.gateways, &match_gateways);
        for (mi, m) in tls.matches.iter().enumerate() {
            let mpath = format!("{path}.match[{mi}]");
            unknown::report(&m.extra, &mpath, &mut result.notes);
            l4_match_notes(
                &mpath,
                [
                    ("destinationSubnets", !m.destination_subnets.is_empty()),
                    ("sourceLabels", !m.source_labels.is_empty()),
                    ("sourceNamespace", m.source_namespace.is_some()),
                    ("sourceSubnet", false),
                ],
                &mut result.notes,
            );
        }
        l4::unbound_match_notes(&path, &split, &mut result.notes);
        if split.mesh {
            result.notes.push(Diagnostic::new(Code::IstioMeshL4Route, "mesh TLS routing (sidecars) is not translated: GAMMA covers HTTP and gRPC routes only").at(path.clone()));
        }
        let several = split.groups.len() > 1;
        for group in &split.groups {
            let matches: Vec<_> = group
                .matches
                .iter()
                .filter_map(|&mi| tls.matches.get(mi))
                .collect();
            let mut sni: Vec<String> = Vec::new();
            let mut ports = std::collections::BTreeSet::new();
            for m in &matches {
                for h in &m.sni_hosts {
                    let h = h.to_ascii_lowercase();
                    if !sni.contains(&h) {
                        sni.push(h);
                    }
                }
                if let Some(p) = m.port {
                    ports.insert(p);
                }
            }
            if sni.is_empty() {
                sni = vs
                    .hosts
                    .iter()
                    .map(|h| {
                        super::hosts::expand_short(h, &obj.namespace, &ctx.config.cluster_domain)
                    })
                    .collect();
            }
            let mut hostnames = Vec::new();
            for h in &sni {
                match hosts::hostname_problem(h) {
                    None => hostnames.push(h.clone()),
                    Some(problem) => result.notes.push(
                        Diagnostic::new(
                            Code::IstioInvalidHostname,
                            format!(
                                "SNI host '{h}' cannot be a TLSRoute hostname: {problem}; dropped"
                            ),
                        )
                        .at(format!("{path}.match")),
                    ),
                }
            }
            if hostnames.is_empty() {
                result.notes.push(Diagnostic::new(Code::IstioTlsRouteNoHostname, "TLSRoute needs at least one SNI hostname and none could be translated; no TLSRoute generated").at(path.clone()));
                continue;
            }
            let restriction = l4::restriction(&ports, &group.gateways);
            if ports.len() > 1 {
                result.notes.push(Diagnostic::new(Code::IstioL4Ports, "matches on several ports: the route binds to every TLS listener serving its hostnames").at(format!("{path}.match")));
            }
            let Some(parents) = l4::gateway_parents(
                ctx,
                obj,
                vs,
                RouteKind::Tls,
                &sni,
                &restriction,
                &path,
                &mut result.notes,
            ) else {
                continue;
            };
            // Istio's passthrough filter chain matches the entry's own sniHosts once the
            // VirtualService's hosts meet the server's (gateway.go
            // `buildGatewayNetworkFiltersFromTLSRoutes`); Gateway API routes only the part of a
            // TLSRoute hostname its listener's hostname covers.
            let covered = |h: &str| {
                parents.iter().any(|p| {
                    let ns = p.namespace.clone().unwrap_or_else(|| obj.namespace.clone());
                    ctx.plan_generated(&ns, &p.name).is_some_and(|plan| {
                        plan.listeners
                            .iter()
                            .filter(|l| {
                                p.section_name
                                    .as_ref()
                                    .is_none_or(|s| *s == l.listener.name)
                            })
                            .any(|l| match l.listener.hostname.as_deref() {
                                None => true,
                                Some(lh) => {
                                    lh == h
                                        || lh.strip_prefix('*').is_some_and(|suffix| {
                                            h.ends_with(suffix) && !h.starts_with('*')
                                        })
                                }
                            })
                    })
                })
            };
            let known = parents.iter().all(|p| {
                let ns = p.namespace.clone().unwrap_or_else(|| obj.namespace.clone());
                ctx.plan_generated(&ns, &p.name).is_some()
            });
            let outside: Vec<&String> = hostnames.iter().filter(|h| !covered(h)).collect();
            if known && !outside.is_empty() && !parents.is_empty() {
                result.notes.push(Diagnostic::new(Code::IstioSniOutsideListener, format!("SNI {} passed through in Istio (the filter chain takes the entry's sniHosts once the VirtualService's hosts meet the server's), but no listener the TLSRoute binds to covers it: Gateway API routes only what the listener hostname covers, so these connections are now refused; add the host to the server's hosts", outside.iter().map(|h| h.as_str()).collect::<Vec<_>>().join(", "))).at(format!("{path}.match")));
            }
            let Some(backends) = l4::route_backends(
                ctx,
                &from,
                &tls.route,
                &path,
                &mut result.notes,
                &mut result.grants,
            ) else {
                continue;
            };
            let name = l4::route_name(obj.name(), "tls", vs.tls.len(), i, several.then_some(group));
            result.generated.push(Generated::TlsRoute(Object::new(
                gwapi::V1,
                "TLSRoute",
                Metadata::new(name, obj.namespace.clone()),
                TlsRouteSpec {
                    parent_refs: parents,
                    hostnames,
                    rules: vec![L4RouteRule {
                        name: None,
                        backend_refs: backends,
                    }],
                },
            )));
        }
    }
}

/// Notes for the L4 match fields a gateway never reads: Istio matches a gateway's TLS and
/// TCP routes on `port` and `gateways` only (`pilot/pkg/networking/core/gateway.go`
/// `l4MultiMatch`, `l4SingleMatch`; `sniHosts` too for TLS), so leaving them out changes
/// nothing there (mesh L4 routes are not translated, `istio/mesh-l4-route`).
pub(super) fn l4_match_notes(path: &str, fields: [(&str, bool); 4], notes: &mut Vec<Diagnostic>) {
    for (field, set) in fields {
        if set {
            notes.push(Diagnostic::new(Code::IstioL4MatchField, format!("{field} is not read by Istio's gateway for TLS/TCP routes (it matches on port and gateways only): left out, nothing changes at the gateway")).at(format!("{path}.{field}")));
        }
    }
}
