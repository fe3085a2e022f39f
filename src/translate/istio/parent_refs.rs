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

/// Whether a route of the VS serves the mesh: its gateways (the match's own, else the VS's)
/// are empty or name `mesh`.
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

/// Whether every Gateway the route binds to is left to Istio (egress, Knative): then the
/// route stays with Istio as a whole, which `istio/not-ingress-binding` already says.
pub(super) fn only_not_ingress(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    r: &Restriction,
) -> bool {
    let keys = gateway_keys_for(obj, vs, r);
    !keys.is_empty()
        && keys
            .iter()
            .all(|(ns, name)| ctx.not_ingress(ns, name).is_some())
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
pub(crate) fn exported_to(vs: &VirtualService, vs_ns: &str, proxy_ns: &str) -> bool {
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
        // Istio's validation refuses such a reference too (`validateGatewayNames`: the
        // namespace must be a DNS label); a parentRef to it would be refused.
        if !crate::gwapi::is_dns_label(&gw_ns) || !crate::gwapi::is_dns_subdomain(&gw_name) {
            notes.push(
                Diagnostic::new(
                    Code::IstioInvalidGatewayReference,
                    format!("gateway reference {gw_ns}/{gw_name} is not a valid namespace/name; no parentRef"),
                )
                .at(&field),
            );
            continue;
        }
        if let Some(why) = ctx.not_ingress(&gw_ns, &gw_name) {
            notes.push(
                Diagnostic::new(
                    Code::IstioNotIngressBinding,
                    format!("bound to Gateway {gw_ns}/{gw_name}, which is not migrated ({}); this binding stays with Istio, no parentRef", why.reason()),
                )
                .at(&field),
            );
            continue;
        }
        let namespace = (gw_ns != obj.namespace).then(|| gw_ns.clone());
        // Istio judges exportTo against the namespace of the gateway *proxy* (the workload
        // the Gateway's selector picks), not of the Gateway object: pilot/pkg/model
        // push_context.go `virtualServiceIndex` / `VirtualServicesForGateway` look
        // VirtualServices up by the proxy's ConfigNamespace.
        let proxy = ctx.proxy(&gw_ns, &gw_name);
        let default_proxy;
        let proxy = match proxy {
            Some(p) => p,
            None => {
                default_proxy =
                    super::proxy::of_selector(ctx.index, ctx.config, &Default::default());
                &default_proxy
            }
        };
        let proxy_ns = &proxy.namespace;
        if !exported_to(vs, &obj.namespace, proxy_ns) {
            notes.push(
                Diagnostic::new(
                    Code::IstioExportToHidden,
                    format!("exportTo does not include the gateway proxy's {}, so Istio's proxy never sees this VirtualService for Gateway {gw_ns}/{gw_name}; no parentRef generated", proxy.describe()),
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
        if !crate::gwapi::is_dns_label(&name) || !crate::gwapi::is_dns_label(&namespace) {
            notes.push(
                Diagnostic::new(
                    Code::IstioInvalidHostname,
                    format!("mesh host '{host}' names Service {namespace}/{name}, which is not a valid Service name; no parentRef"),
                )
                .at(format!("spec.hosts[{hi}]")),
            );
            continue;
        }
        if let Some(message) = mesh_scope_change(obj, vs, &namespace, &name) {
            notes.push(
                Diagnostic::new(Code::IstioMeshRouteScope, message).at(format!("spec.hosts[{hi}]")),
            );
        }
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

/// How the clients a GAMMA route reaches differ from the sidecars Istio applied the mesh
/// VirtualService to, or `None` when they are the same.
///
/// Istio: a VirtualService applies to the sidecars of every namespace it is exported to
/// (`exportTo`, all by default; `.` is its own namespace; istio/istio
/// pilot/pkg/model/push_context.go, `initVirtualServices` indexes by `exportTo`). Gateway API
/// (kubernetes-sigs/gateway-api geps/gep-1294/index.md, producer and consumer routes;
/// conformance/tests/mesh/mesh-consumer-route.go): a route in the Service's
/// namespace is a producer route for every client; one in another namespace is a consumer
/// route for clients in the route's namespace only.
fn mesh_scope_change(
    obj: &SourceObject,
    vs: &VirtualService,
    service_namespace: &str,
    service: &str,
) -> Option<String> {
    let own = obj.namespace.as_str();
    let exported_everywhere = vs.export_to.is_empty() || vs.export_to.iter().any(|e| e == "*");
    let exported_own_only =
        !vs.export_to.is_empty() && vs.export_to.iter().all(|e| e == "." || e == own);
    let exported = if exported_everywhere {
        "every namespace".to_string()
    } else {
        let list: Vec<&str> = vs
            .export_to
            .iter()
            .map(|e| if e == "." { own } else { e.as_str() })
            .collect();
        let noun = if list.len() == 1 {
            "namespace"
        } else {
            "namespaces"
        };
        format!("{noun} {}", list.join(", "))
    };
    if service_namespace == own {
        if exported_everywhere {
            return None;
        }
        Some(format!(
            "Istio applied this mesh VirtualService to sidecars in {exported} (exportTo); the HTTPRoute for Service {service_namespace}/{service} is a producer route in the Service's namespace and applies to clients in every namespace: the scope widens"
        ))
    } else {
        if exported_own_only {
            return None;
        }
        Some(format!(
            "Istio applied this mesh VirtualService to sidecars in {exported}; the HTTPRoute in {own} for Service {service_namespace}/{service} is a consumer route and applies only to clients in {own}: the scope narrows (a route in {service_namespace} would reach every client)"
        ))
    }
}
