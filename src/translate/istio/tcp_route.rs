//! VirtualService `tcp[]` → one TCPRoute per entry (v1 by default, v1alpha2 for Istio 1.30).

use super::destination::From;
use super::parent_refs::RouteKind;
use super::tls_route::l4_match_notes;
use super::{Ctx, l4, unknown};
use crate::config::TcpRouteVersion;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{self, Generated, L4RouteRule, Metadata, Object, TcpRouteSpec};
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
        kind: "TCPRoute",
        namespace: &obj.namespace,
    };
    let api_version = match ctx.config.tcp_route_version {
        TcpRouteVersion::V1 => gwapi::V1,
        TcpRouteVersion::V1alpha2 => gwapi::V1ALPHA2,
    };
    let mut bound: Vec<Vec<crate::gwapi::ParentReference>> = Vec::new();
    for (i, tcp) in vs.tcp.iter().enumerate() {
        let path = format!("spec.tcp[{i}]");
        unknown::report(&tcp.extra, &path, &mut result.notes);
        let match_gateways: Vec<&Vec<String>> = tcp.matches.iter().map(|m| &m.gateways).collect();
        let split = l4::match_groups(&obj.namespace, &vs.gateways, &match_gateways);
        for (mi, m) in tcp.matches.iter().enumerate() {
            let mpath = format!("{path}.match[{mi}]");
            unknown::report(&m.extra, &mpath, &mut result.notes);
            l4_match_notes(
                &mpath,
                [
                    ("destinationSubnets", !m.destination_subnets.is_empty()),
                    ("sourceLabels", !m.source_labels.is_empty()),
                    ("sourceNamespace", m.source_namespace.is_some()),
                    ("sourceSubnet", m.source_subnet.is_some()),
                ],
                &mut result.notes,
            );
        }
        l4::unbound_match_notes(&path, &split, &mut result.notes);
        if split.mesh {
            result.notes.push(Diagnostic::new(Code::IstioMeshL4Route, "mesh TCP routing (sidecars) is not translated: GAMMA covers HTTP and gRPC routes only").at(path.clone()));
        }
        let several = split.groups.len() > 1;
        for group in &split.groups {
            let ports: std::collections::BTreeSet<u32> = group
                .matches
                .iter()
                .filter_map(|&mi| tcp.matches.get(mi)?.port)
                .collect();
            let restriction = l4::restriction(&ports, &group.gateways);
            if ports.len() > 1 {
                result.notes.push(Diagnostic::new(Code::IstioL4Ports, "matches on several ports: the route binds to every TCP listener of the Gateway").at(format!("{path}.match")));
            }
            let hosts: Vec<String> = if vs.hosts.is_empty() {
                vec!["*".into()]
            } else {
                vs.hosts
                    .iter()
                    .map(|h| {
                        super::hosts::expand_short(h, &obj.namespace, &ctx.config.cluster_domain)
                    })
                    .collect()
            };
            let Some(parents) = l4::gateway_parents(
                ctx,
                obj,
                vs,
                RouteKind::Tcp,
                &hosts,
                &restriction,
                &path,
                &mut result.notes,
            ) else {
                continue;
            };
            let shares_listener =
                |p: &crate::gwapi::ParentReference, q: &crate::gwapi::ParentReference| {
                    p.name == q.name
                        && p.namespace == q.namespace
                        && (p.section_name == q.section_name
                            || p.section_name.is_none()
                            || q.section_name.is_none())
                };
            if bound
                .iter()
                .flatten()
                .any(|p| parents.iter().any(|q| shares_listener(p, q)))
            {
                result.notes.push(Diagnostic::new(Code::IstioTcpRouteOrder, "this entry binds to a listener an earlier tcp entry also binds to: Istio falls through entries in order, Gateway API gives a TCP listener's traffic to the oldest TCPRoute only").at(path.clone()));
            }
            bound.push(parents.clone());
            let Some(backends) = l4::route_backends(
                ctx,
                &from,
                &tcp.route,
                &path,
                &mut result.notes,
                &mut result.grants,
            ) else {
                continue;
            };
            let name = l4::route_name(obj.name(), "tcp", vs.tcp.len(), i, several.then_some(group));
            result.generated.push(Generated::TcpRoute(Object::new(
                api_version,
                "TCPRoute",
                Metadata::new(name, obj.namespace.clone()),
                TcpRouteSpec {
                    parent_refs: parents,
                    rules: vec![L4RouteRule {
                        name: None,
                        backend_refs: backends,
                    }],
                },
            )));
        }
    }
}
