//! Istio `Destination` (host, subset, port) → Gateway API backendRef.
//!
//! Host resolution follows Istio's short-name rule (see `hosts::classify`); the port comes from
//! the destination or, when Istio omitted it, from the Service manifest in the repository
//! (Gateway API requires a port on Service references).

use super::Ctx;
use super::hosts::{self, HostKind};
use super::unknown;
use crate::config::Target;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::BackendRef;
use crate::model::istio::Destination;
use crate::model::k8s;
use crate::translate::GrantRequest;

/// Where a resolved backend is used from: the route's kind and namespace.
pub(super) struct From<'a> {
    pub kind: &'a str,
    pub namespace: &'a str,
}

/// Resolves `dest` to a backendRef, or `None` (with an error note) when it cannot be
/// referenced validly.
pub(super) fn backend_ref(
    ctx: &Ctx,
    from: &From,
    dest: &Destination,
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Option<BackendRef> {
    unknown::report(&dest.extra, path, notes);
    if let Some(port) = &dest.port {
        unknown::report(&port.extra, &format!("{path}.port"), notes);
    }
    let Some(host) = dest.host.as_deref().filter(|h| !h.is_empty()) else {
        notes.push(
            Diagnostic::new(
                Code::IstioDestinationHostMissing,
                "destination has no host; dropped",
            )
            .at(path),
        );
        return None;
    };
    let port = dest.port.as_ref().and_then(|p| p.number);
    if let Some(p) = port.filter(|p| !(1..=65535).contains(p)) {
        notes.push(
            Diagnostic::new(
                Code::IstioBackendPortUnknown,
                format!("destination port {p} is not a TCP port (1-65535); backend dropped"),
            )
            .at(format!("{path}.port.number")),
        );
        return None;
    }
    let service = match hosts::classify(host, from.namespace, &ctx.config.cluster_domain) {
        HostKind::Service { name, namespace } => Some((name, namespace)),
        HostKind::Ambiguous { name, namespace } => {
            if ctx.index.service(&namespace, &name).is_some() {
                notes.push(
                    Diagnostic::new(
                        Code::IstioAmbiguousHost,
                        format!("host '{host}' is not a short name or a full '<name>.<namespace>.svc.{}' name; Istio matches it literally, but Service {namespace}/{name} exists in the repository, so it is referenced", ctx.config.cluster_domain),
                    )
                    .at(format!("{path}.host")),
                );
                Some((name, namespace))
            } else {
                None
            }
        }
        HostKind::External => None,
    };
    let Some((name, namespace)) = service else {
        return external_ref(ctx, host, port, path, notes);
    };
    let templated = crate::model::template::template_of(host);
    if let Some(t) = templated {
        notes.push(
            Diagnostic::new(
                Code::IstioTemplatedHost,
                format!(
                    "host '{host}' is {}: it names Service {namespace}/{name}, kept as written in the backendRef, so the same substitution must reach it (kustomize: a varReference or replacement target for HTTPRoute spec/rules/backendRefs; Flux postBuild substitutes it as it is){}",
                    t.describe(),
                    if namespace != from.namespace {
                        "; if the substituted namespace is another than the route's, a ReferenceGrant there must allow the reference"
                    } else {
                        ""
                    }
                ),
            )
            .at(format!("{path}.host")),
        );
    } else if let Some(domain) = hosts::service_domain(host, &ctx.config.cluster_domain) {
        notes.push(
            Diagnostic::new(
                Code::IstioServiceDomain,
                format!(
                    "host '{host}' names Service {namespace}/{name} under the cluster domain {domain}, not the configured clusterDomain {}; referenced as that Service (set clusterDomain: {domain} if that is the cluster's domain: Istio matches the host against it)",
                    ctx.config.cluster_domain
                ),
            )
            .at(format!("{path}.host")),
        );
    }
    // Istio would find no such Service either; a reference to it would be refused. A templated
    // part is what its substitution gives.
    let label = |part: &str| {
        crate::gwapi::is_dns_label(part) || crate::model::template::template_of(part).is_some()
    };
    if !label(&name) || !label(&namespace) {
        notes.push(
            Diagnostic::new(
                Code::IstioInvalidHostname,
                format!("destination host '{host}' names Service {namespace}/{name}, which is not a valid Service name; backend dropped"),
            )
            .at(format!("{path}.host")),
        );
        return None;
    }
    let port = match port {
        Some(p) => p,
        None => match ctx.index.service(&namespace, &name) {
            Some(svc) => match k8s::single_port(svc).filter(|p| (1..=65535).contains(&p.port)) {
                Some(p) => {
                    notes.push(
                        Diagnostic::new(
                            Code::IstioPortFromService,
                            format!("destination has no port; port {} taken from Service {namespace}/{name} in the repository", p.port),
                        )
                        .at(path),
                    );
                    p.port as u32
                }
                None => {
                    notes.push(
                        Diagnostic::new(
                            Code::IstioBackendPortUnknown,
                            format!("destination has no port and Service {namespace}/{name} has several ports; Gateway API requires a port: backend dropped, add port.number"),
                        )
                        .at(path),
                    );
                    return None;
                }
            },
            None => {
                notes.push(
                    Diagnostic::new(
                        Code::IstioBackendPortUnknown,
                        format!("destination has no port and Service {namespace}/{name} is not in the repository; Gateway API requires a port: backend dropped, add port.number"),
                    )
                    .at(path),
                );
                return None;
            }
        },
    };
    let name = match &dest.subset {
        Some(subset) => {
            let versioned = super::names::sanitize(&format!("{name}-{subset}"), 63);
            notes.push(
                Diagnostic::new(
                    Code::IstioSubset,
                    format!("subset '{subset}' has no Gateway API equivalent: create Service {namespace}/{versioned} (selector of {name} plus the subset's labels, same ports), as Istio's migration guide recommends; the backendRef points to it"),
                )
                .at(format!("{path}.subset")),
            );
            versioned
        }
        None => name,
    };
    // A templated namespace is not known: its note says a ReferenceGrant may be needed.
    if namespace != from.namespace && crate::model::template::template_of(&namespace).is_none() {
        grants.push(GrantRequest {
            from_kind: from.kind.into(),
            from_namespace: from.namespace.into(),
            to_group: String::new(),
            to_kind: "Service".into(),
            to_namespace: namespace.clone(),
            to_name: name.clone(),
        });
    }
    Some(BackendRef {
        name,
        namespace: (namespace != from.namespace).then_some(namespace),
        port: Some(port),
        ..Default::default()
    })
}

/// A host that is not a Service of the repository's cluster: Istio's `Hostname` backend kind
/// (ServiceEntry hosts) when the target is Istio, else nothing.
fn external_ref(
    ctx: &Ctx,
    host: &str,
    port: Option<u32>,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<BackendRef> {
    // An object name (the Hostname backend's name) holds at most 253 characters.
    if host.len() > 253 {
        notes.push(
            Diagnostic::new(
                Code::IstioInvalidHostname,
                format!("destination host '{host}' is longer than 253 characters; backend dropped"),
            )
            .at(format!("{path}.host")),
        );
        return None;
    }
    if ctx.config.target != Target::Istio {
        notes.push(
            Diagnostic::new(
                Code::IstioExternalHostDropped,
                format!("host '{host}' is not a Kubernetes Service (ServiceEntry or external name); the portable Gateway API has no backend for it: dropped"),
            )
            .at(format!("{path}.host")),
        );
        return None;
    }
    let Some(port) = port else {
        notes.push(
            Diagnostic::new(
                Code::IstioBackendPortUnknown,
                format!("host '{host}' is not a Kubernetes Service and the destination has no port; Istio's Hostname backend requires one: dropped"),
            )
            .at(path),
        );
        return None;
    };
    notes.push(
        Diagnostic::new(
            Code::IstioExternalHost,
            format!("host '{host}' is not a Kubernetes Service of this cluster: referenced with the Istio-only backend kind networking.istio.io/Hostname (it must be a ServiceEntry host)"),
        )
        .at(format!("{path}.host")),
    );
    Some(BackendRef {
        group: Some("networking.istio.io".into()),
        kind: Some("Hostname".into()),
        name: host.to_ascii_lowercase(),
        port: Some(port),
        ..Default::default()
    })
}

/// Sets weights: none on a lone destination (Gateway API weight 0 would mean no traffic), the
/// Istio weight otherwise. Next to weighted destinations, one without weight gets weight 0:
/// Istio skips weight-0 clusters when a route has several (pilot/pkg/networking/core/route/
/// route.go, the weighted-cluster loop), where Gateway API's default weight 1 would give it a
/// share. When no destination has a weight, they keep Gateway API's default (equal shares).
pub(super) fn apply_weights(
    backends: &mut [(BackendRef, Option<i64>)],
    path: &str,
    notes: &mut Vec<Diagnostic>,
) {
    let lone = backends.len() == 1;
    let weighted = backends.iter().any(|(_, w)| w.is_some_and(|w| w > 0));
    for (i, (backend, weight)) in backends.iter_mut().enumerate() {
        backend.weight = if lone {
            None
        } else if weighted && weight.is_none_or(|w| w <= 0) {
            if weight.is_none() {
                notes.push(
                    Diagnostic::new(
                        Code::IstioUnweightedDestination,
                        format!(
                            "destination {} has no weight next to weighted ones: Istio sends it no traffic; written with weight 0",
                            backend.name
                        ),
                    )
                    .at(format!("{path}.route[{i}]")),
                );
            }
            Some(0)
        } else {
            weight.map(|w| w.clamp(0, 1_000_000) as u32)
        };
    }
}
