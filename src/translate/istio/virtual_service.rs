//! VirtualService → HTTPRoutes, TLSRoutes and TCPRoutes.

use super::{Ctx, hosts, http, parent_refs, tcp_route, tls_route, unknown};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::SourceObject;
use crate::model::istio::VirtualService;
use crate::translate::SourceResult;

pub(super) fn translate(
    ctx: &Ctx,
    position: usize,
    obj: &SourceObject,
    vs: &VirtualService,
) -> SourceResult {
    let mut result = SourceResult::new(position);
    // A VirtualService with hosts is a root even when another names it as a delegate
    // (Istio only looks delegates up among those without hosts).
    if vs.hosts.is_empty()
        && let Some((root_ns, root_name)) = ctx.delegate_root(&obj.namespace, obj.name())
    {
        match crate::semantics::istio::refused_by_admission(vs) {
            // Reported at the root's entry too (`istio/delegate-nested`).
            Some(why) => result.notes.push(Diagnostic::new(Code::IstioDelegateNested, format!("delegate VirtualService refused by Istio's admission ({why}): it never existed, and {root_ns}/{root_name} gets none of its rules"))),
            None if !crate::semantics::istio::visible_from(&vs.export_to, &obj.namespace, root_ns) => result.notes.push(Diagnostic::new(Code::IstioDelegateSkipped, format!("delegate VirtualService not exported to namespace {root_ns} (exportTo): {root_ns}/{root_name} never gets its rules, so nothing is translated"))),
            None => result.notes.push(Diagnostic::new(Code::IstioDelegateFlattened, format!("delegate VirtualService: its rules are inlined into the routes of {root_ns}/{root_name}; no separate route"))),
        }
        return result;
    }
    unknown::report(&vs.extra, "spec", &mut result.notes);
    if vs.hosts.is_empty() {
        result.notes.push(Diagnostic::new(Code::IstioNoHosts, "VirtualService has no hosts and no other VirtualService delegates to it; nothing translated").at("spec.hosts"));
        return result;
    }
    if !vs.export_to.is_empty() {
        result.notes.push(Diagnostic::new(Code::IstioExportTo, "exportTo has no Gateway API equivalent; it only decides which Gateways get a parentRef (attachment is governed by the listeners' allowedRoutes)").at("spec.exportTo"));
    }
    // Hostnames of gateway-bound routes.
    let mut hostnames = Vec::new();
    let mut wildcard = false;
    for (i, raw) in vs.hosts.iter().enumerate() {
        let h = hosts::expand_short(raw, &obj.namespace, &ctx.config.cluster_domain);
        if !raw.contains('.')
            && raw != "*"
            && crate::model::template::template_of(raw).is_none()
            && !parent_refs::gateway_keys(obj, vs).is_empty()
        {
            result.notes.push(
                Diagnostic::new(
                    Code::IstioShortHost,
                    format!(
                        "short host '{raw}' is matched by Istio as '{h}'; written as that hostname"
                    ),
                )
                .at(format!("spec.hosts[{i}]")),
            );
        }
        if h == "*" {
            wildcard = true;
            continue;
        }
        if let Some(t) = crate::model::template::template_of(&h) {
            result.notes.push(
                Diagnostic::new(
                    Code::IstioTemplatedHost,
                    format!(
                        "host '{h}' is {}: it is kept as written in the route's hostnames, so the same substitution must reach them (kustomize: a varReference or replacement target for HTTPRoute spec/hostnames; Flux postBuild substitutes it as it is)",
                        t.describe()
                    ),
                )
                .at(format!("spec.hosts[{i}]")),
            );
            if !hostnames.contains(&h) {
                hostnames.push(h);
            }
            continue;
        }
        match hosts::hostname_problem(&h) {
            None => {
                if !hostnames.contains(&h) {
                    hostnames.push(h);
                }
            }
            Some(problem) => result.notes.push(
                Diagnostic::new(
                    Code::IstioInvalidHostname,
                    format!("host '{h}' cannot be a route hostname: {problem}; dropped"),
                )
                .at(format!("spec.hosts[{i}]")),
            ),
        }
    }
    if wildcard {
        if !hostnames.is_empty() {
            result.notes.push(Diagnostic::new(Code::IstioWildcardHost, "hosts include '*': the routes carry no hostnames (they match every host of their listeners)").at("spec.hosts"));
        }
        hostnames.clear();
    } else if hostnames.is_empty() && !vs.http.is_empty() {
        result.notes.push(Diagnostic::new(Code::IstioNoValidHostnames, "no host is a valid Gateway API hostname; without hostnames the route would match every host, so no HTTPRoute is generated").at("spec.hosts"));
        return result;
    }
    if !vs.http.is_empty() {
        http::translate(ctx, obj, vs, &hostnames, &mut result);
    }
    tls_route::translate(ctx, obj, vs, &mut result);
    tcp_route::translate(ctx, obj, vs, &mut result);
    result
}
