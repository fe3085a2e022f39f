//! parentRefs of the routes made from a VirtualService: one per Istio Gateway the VS names
//! (visible through `exportTo`, with overlapping hosts), with `sectionName` where only some
//! listeners serve the route; Service parentRefs (GAMMA) for mesh VirtualServices.

use super::Ctx;
use super::hosts::{self, HostKind};
use super::listeners::PlannedListener;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::ParentReference;
use crate::model::SourceObject;
use crate::model::istio::VirtualService;

/// Most parentRefs a route may have.
const MAX_PARENT_REFS: usize = 32;

/// The route kind parentRefs are computed for: it decides which listeners fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RouteKind {
    Http,
    Tls,
    Tcp,
}

/// Extra listener restrictions that come from a route's matches.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Restriction {
    /// Only listeners on this port (`match.port`).
    pub port: Option<u32>,
    /// Only listeners of this protocol (`match.scheme.exact`: `HTTP` or `HTTPS`).
    pub protocol: Option<String>,
    /// `match.gateways`: replaces the VirtualService's `gateways` for this match.
    pub gateways: Vec<String>,
}

/// The gateways a route binds to: the match's own list, else the VirtualService's.
fn effective<'a>(vs: &'a VirtualService, r: &'a Restriction) -> &'a [String] {
    if r.gateways.is_empty() {
        &vs.gateways
    } else {
        &r.gateways
    }
}

/// Whether the VS declares the mesh: no `gateways`, or `mesh` among them.
pub(super) fn binds_mesh(vs: &VirtualService) -> bool {
    binds_mesh_for(vs, &Restriction::default())
}

/// [`binds_mesh`] for routes whose matches name their own gateways.
pub(super) fn binds_mesh_for(vs: &VirtualService, r: &Restriction) -> bool {
    let g = effective(vs, r);
    g.is_empty() || g.iter().any(|g| g == "mesh")
}

/// `(namespace, name)` of each Istio Gateway the VS names (not `mesh`).
pub(super) fn gateway_keys(obj: &SourceObject, vs: &VirtualService) -> Vec<(String, String)> {
    gateway_keys_for(obj, vs, &Restriction::default())
}

/// [`gateway_keys`] for routes whose matches name their own gateways.
pub(super) fn gateway_keys_for(
    obj: &SourceObject,
    vs: &VirtualService,
    r: &Restriction,
) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = Vec::new();
    for key in effective(vs, r)
        .iter()
        .filter_map(|g| resolve_gateway(g, &obj.namespace))
    {
        // `[gw, app/gw]` name one Gateway: one parentRef (duplicates are CEL-invalid).
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// Resolves a gateway reference of a VirtualService (`gw`, `ns/gw`, `./gw`,
/// `gw.ns.svc.cluster.local`) to `(namespace, name)`; `None` for `mesh`. Source: istio
/// `pilot/pkg/model/config.go` `resolveGatewayName`: a short name is in the VirtualService's
/// namespace, `.` before the slash is that namespace, and a dotted name is `name.namespace…`.
pub(crate) fn resolve_gateway(reference: &str, namespace: &str) -> Option<(String, String)> {
    if reference == "mesh" {
        return None;
    }
    if let Some((ns, name)) = reference.split_once('/') {
        let ns = if ns == "." { namespace } else { ns };
        return Some((ns.to_string(), name.to_string()));
    }
    let mut labels = reference.split('.');
    match (labels.next(), labels.next()) {
        (Some(name), Some(ns)) => Some((ns.to_string(), name.to_string())),
        _ => Some((namespace.to_string(), reference.to_string())),
    }
}

/// Whether the VirtualService is visible in `proxy_ns`: `*`, that namespace, or `.` when it
/// is the VirtualService's own.
fn exported_to(vs: &VirtualService, vs_ns: &str, proxy_ns: &str) -> bool {
    vs.export_to.is_empty()
        || vs
            .export_to
            .iter()
            .any(|e| e == "*" || e == proxy_ns || (e == "." && proxy_ns == vs_ns))
}

fn fits(kind: RouteKind, l: &PlannedListener) -> bool {
    match kind {
        RouteKind::Http => match l.protocol() {
            "HTTP" => !l.https_redirect,
            "HTTPS" => true,
            _ => false,
        },
        RouteKind::Tls => l.protocol() == "TLS",
        // Istio (and Envoy Gateway) still accept TCPRoutes on TLS listeners that terminate.
        RouteKind::Tcp => l.protocol() == "TCP" || (l.protocol() == "TLS" && !l.is_passthrough()),
    }
}

/// Gateway parentRefs for a route of `kind` serving `hosts`.
pub(super) fn gateway_parent_refs(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    kind: RouteKind,
    hosts: &[String],
    restriction: &Restriction,
    notes: &mut Vec<Diagnostic>,
) -> Vec<ParentReference> {
    let mut refs = Vec::new();
    for (gi, (gw_ns, gw_name)) in gateway_keys_for(obj, vs, restriction)
        .into_iter()
        .enumerate()
    {
        let field = if restriction.gateways.is_empty() {
            format!("spec.gateways[{gi}]")
        } else {
            "match.gateways".to_string()
        };
        let namespace = (gw_ns != obj.namespace).then(|| gw_ns.clone());
        // Istio judges exportTo against the namespace of the gateway *proxy* (the workload
        // the Gateway's selector picks), not of the Gateway object: pilot/pkg/model
        // push_context.go `virtualServiceIndex` / `VirtualServicesForGateway` look
        // VirtualServices up by the proxy's ConfigNamespace.
        let proxy_ns = &ctx.config.istio_gateway_namespace;
        if !exported_to(vs, &obj.namespace, proxy_ns) {
            notes.push(
                Diagnostic::new(
                    Code::IstioExportToHidden,
                    format!("exportTo does not include namespace {proxy_ns}, where the gateway proxy runs (istioGatewayNamespace), so Istio's proxy never sees this VirtualService for Gateway {gw_ns}/{gw_name}; no parentRef generated"),
                )
                .at("spec.exportTo"),
            );
            continue;
        }
        let Some(plan) = ctx.plan(&gw_ns, &gw_name) else {
            notes.push(
                Diagnostic::new(
                    Code::IstioGatewayNotFound,
                    format!("Gateway {gw_ns}/{gw_name} is not in the repository: parentRef generated without sectionName; check that a Gateway API Gateway of that name exists and that its listeners admit namespace {}", obj.namespace),
                )
                .at(&field),
            );
            refs.push(ParentReference {
                name: super::names::sanitize(&gw_name, super::names::MAX_NAME),
                namespace,
                port: restriction.port,
                ..Default::default()
            });
            continue;
        };
        let matching: Vec<&PlannedListener> = plan
            .listeners
            .iter()
            .filter(|l| fits(kind, l))
            .filter(|l| restriction.port.is_none_or(|p| l.listener.port == p))
            .filter(|l| {
                restriction
                    .protocol
                    .as_deref()
                    .is_none_or(|p| l.protocol() == p)
            })
            .filter(|l| hosts.iter().any(|h| l.serves(&gw_ns, &obj.namespace, h)))
            .collect();
        if matching.is_empty() {
            notes.push(
                Diagnostic::new(
                    Code::IstioNoListenerMatch,
                    format!("no {} server of Gateway {gw_ns}/{gw_name}{} serves hosts [{}] to namespace {}; no parentRef generated", kind_label(kind), restriction_label(restriction), hosts.join(", "), obj.namespace),
                )
                .at(&field),
            );
            continue;
        }
        if kind == RouteKind::Tcp && matching.iter().any(|l| l.protocol() == "TLS") {
            notes.push(
                Diagnostic::new(
                    Code::IstioTcpRouteOnTlsListener,
                    format!("a TCPRoute binds to a TLS listener that terminates (Istio TLS server in SIMPLE/MUTUAL mode): Istio and Envoy Gateway accept this, but Gateway API v1.5 removed TCPRoute from TLS listeners (Gateway {gw_ns}/{gw_name})"),
                )
                .at(&field),
            );
        }
        if matching.len() == plan.listeners.len() {
            refs.push(ParentReference {
                name: plan.name.clone(),
                namespace,
                ..Default::default()
            });
        } else {
            for l in matching {
                refs.push(ParentReference {
                    name: plan.name.clone(),
                    namespace: namespace.clone(),
                    section_name: Some(l.listener.name.clone()),
                    ..Default::default()
                });
            }
        }
    }
    if refs.len() > MAX_PARENT_REFS {
        notes.push(Diagnostic::new(
            Code::IstioTooManyParentRefs,
            format!("the route would bind to {} listeners but Gateway API allows {MAX_PARENT_REFS} parentRefs; the rest were dropped", refs.len()),
        ));
        refs.truncate(MAX_PARENT_REFS);
    }
    refs
}

fn kind_label(kind: RouteKind) -> &'static str {
    match kind {
        RouteKind::Http => "HTTP/HTTPS",
        RouteKind::Tls => "TLS",
        RouteKind::Tcp => "TCP",
    }
}

fn restriction_label(r: &Restriction) -> String {
    let mut out = String::new();
    if let Some(p) = r.port {
        out.push_str(&format!(" on port {p}"));
    }
    if let Some(p) = &r.protocol {
        out.push_str(&format!(" with protocol {p}"));
    }
    out
}

/// Service parentRefs (GAMMA) for a mesh VirtualService: one per host that is a Service.
pub(super) fn mesh_parent_refs(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    port: Option<u32>,
    notes: &mut Vec<Diagnostic>,
) -> Vec<ParentReference> {
    let mut refs: Vec<ParentReference> = Vec::new();
    for (hi, host) in vs.hosts.iter().enumerate() {
        let service = match hosts::classify(host, &obj.namespace, &ctx.config.cluster_domain) {
            HostKind::Service { name, namespace } => Some((name, namespace)),
            HostKind::Ambiguous { name, namespace }
                if ctx.index.service(&namespace, &name).is_some() =>
            {
                Some((name, namespace))
            }
            _ => None,
        };
        let Some((name, namespace)) = service else {
            notes.push(
                Diagnostic::new(
                    Code::IstioMeshHostNotService,
                    format!("mesh host '{host}' is not a Kubernetes Service; GAMMA routes attach to Services only, so this host is not covered (ServiceEntry parentRefs are Istio-only)"),
                )
                .at(format!("spec.hosts[{hi}]")),
            );
            continue;
        };
        let r = ParentReference {
            group: Some(String::new()),
            kind: Some("Service".into()),
            name,
            namespace: (namespace != obj.namespace).then_some(namespace),
            port,
            ..Default::default()
        };
        if !refs.contains(&r) {
            refs.push(r);
        }
    }
    refs
}
