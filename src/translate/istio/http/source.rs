//! `sourceLabels`, `sourceNamespace` and per-match `gateways` at a gateway. Istio decides
//! them per proxy when it builds the routes (istio/istio `pilot/pkg/networking/core/route/
//! route.go` `sourceMatchHTTP`): a match that names `gateways` applies on those gateways and
//! its source conditions are not read at all; otherwise `sourceLabels` must be a subset of
//! the proxy's own labels and `sourceNamespace` its namespace. At a gateway the "source" is
//! the gateway proxy itself, never the client, so each condition is decided here, per
//! Gateway the VirtualService binds to:
//!
//! - true at every Gateway: the condition is left out (it never filtered anything);
//! - false at every Gateway: the match never applied and is dropped (an entry left without
//!   matches is dropped), so nothing is opened;
//! - true at some: the match is bound to those Gateways only (per-match `gateways`);
//! - not decidable from the repository: the match is dropped with a warning (fail closed).
//!
//! The proxy's labels are the Gateway's `selector` (the proxy carries them by definition)
//! and the pod labels of the workloads it selects, when the repository holds them. Mesh
//! VirtualServices are left alone: there the source is each client sidecar.

use std::collections::{BTreeMap, BTreeSet};

use super::super::parent_refs::{self, Restriction};
use crate::diagnostic::{Code, Diagnostic};
use crate::model::SourceBody;
use crate::model::SourceObject;
use crate::model::istio::{HttpMatchRequest, HttpRoute, VirtualService};
use crate::model::surrounding::Surrounding;
use crate::translate::istio::Ctx;

/// Whether a source condition holds at one gateway proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Holds,
    Fails,
    Unknown,
}

/// Match positions to leave out, per entry path.
pub(super) type DeadMatches = BTreeMap<String, BTreeSet<usize>>;

fn has_source(m: &HttpMatchRequest) -> bool {
    !m.source_labels.is_empty() || m.source_namespace.as_deref().is_some_and(|n| !n.is_empty())
}

/// Whether `m`'s source conditions hold at the proxy of Istio Gateway `gateway`.
fn verdict(ctx: &Ctx, gateway: &(String, String), m: &HttpMatchRequest) -> Verdict {
    let Some((_, gw)) = ctx.index.istio_gateway(&gateway.0, &gateway.1) else {
        return Verdict::Unknown;
    };
    let proxy = ctx.proxy(&gateway.0, &gateway.1);
    let labels = if m
        .source_labels
        .iter()
        .all(|(k, v)| gw.selector.get(k) == Some(v))
    {
        Verdict::Holds
    } else {
        // Pod labels of the selected workloads, when the repository has them.
        let pods: Vec<&BTreeMap<String, String>> = proxy
            .map(|p| p.workloads.as_slice())
            .unwrap_or_default()
            .iter()
            .filter_map(|&i| match &ctx.index.objects.get(i)?.body {
                SourceBody::Surrounding(Surrounding::Workload { pod_labels }) => Some(pod_labels),
                _ => None,
            })
            .collect();
        let carries = |pod: &&BTreeMap<String, String>| {
            m.source_labels.iter().all(|(k, v)| pod.get(k) == Some(v))
        };
        if pods.is_empty() {
            Verdict::Unknown
        } else if pods.iter().all(carries) {
            Verdict::Holds
        } else if !pods.iter().any(carries) {
            Verdict::Fails
        } else {
            Verdict::Unknown
        }
    };
    let namespace = match m.source_namespace.as_deref().filter(|n| !n.is_empty()) {
        None => Verdict::Holds,
        Some(ns) => match proxy {
            Some(p) if p.namespace == ns => Verdict::Holds,
            Some(p) if p.evidence != super::super::proxy::Evidence::Default => Verdict::Fails,
            _ => Verdict::Unknown,
        },
    };
    match (labels, namespace) {
        (Verdict::Fails, _) | (_, Verdict::Fails) => Verdict::Fails,
        (Verdict::Holds, Verdict::Holds) => Verdict::Holds,
        _ => Verdict::Unknown,
    }
}

fn strip(m: &mut HttpMatchRequest) {
    m.source_labels.clear();
    m.source_namespace = None;
}

/// Decides the source conditions of `entries` (module doc); returns the matches to leave
/// out. Entries whose every match is left out are removed.
pub(super) fn decide(
    ctx: &Ctx,
    obj: &SourceObject,
    vs: &VirtualService,
    entries: &mut Vec<(String, HttpRoute)>,
    notes: &mut Vec<Diagnostic>,
) -> DeadMatches {
    let mut dead = DeadMatches::new();
    let mesh = parent_refs::binds_mesh_for(vs, &Restriction::default());
    let gateways = parent_refs::gateway_keys(obj, vs);
    entries.retain_mut(|(path, http)| {
        let mut dropped = BTreeSet::new();
        for (i, m) in http.matches.iter_mut().enumerate() {
            if !has_source(m) {
                continue;
            }
            let field = format!("{path}.match[{i}]");
            if !m.gateways.is_empty() {
                strip(m);
                notes.push(Diagnostic::new(Code::IstioSourceMatchDecided, "the match names gateways, so Istio does not read its sourceLabels or sourceNamespace (sourceMatchHTTP): left out, nothing changes").at(field));
                continue;
            }
            if mesh || gateways.is_empty() {
                // Sidecars judge the client: reported where the match is translated.
                continue;
            }
            let verdicts: Vec<((String, String), Verdict)> = gateways
                .iter()
                .map(|g| (g.clone(), verdict(ctx, g, m)))
                .collect();
            let holds: Vec<String> = verdicts
                .iter()
                .filter(|(_, v)| *v == Verdict::Holds)
                .map(|((ns, name), _)| format!("{ns}/{name}"))
                .collect();
            if verdicts.iter().any(|(_, v)| *v == Verdict::Unknown) {
                let code = if m.source_labels.is_empty() {
                    Code::IstioSourceNamespace
                } else {
                    Code::IstioSourceLabels
                };
                notes.push(Diagnostic::new(code, "at a gateway Istio compares sourceLabels and sourceNamespace with the gateway proxy itself (sourceMatchHTTP), and the repository does not say whether the proxy carries them: the match is dropped rather than widened (fail closed); if the gateway's pods carry these labels and run in that namespace, remove the conditions").at(field));
                dropped.insert(i);
            } else if holds.len() == verdicts.len() {
                strip(m);
                notes.push(Diagnostic::new(Code::IstioSourceMatchDecided, format!("sourceLabels/sourceNamespace describe the gateway proxy itself at {} (sourceMatchHTTP compares them with the proxy), so they always hold there: left out, nothing changes", holds.join(", "))).at(field));
            } else if holds.is_empty() {
                notes.push(Diagnostic::new(Code::IstioSourceMatchDecided, "sourceLabels/sourceNamespace do not describe the gateway proxy (sourceMatchHTTP compares them with the proxy, not the client), so Istio never applied this match at the gateway: dropped").at(field));
                dropped.insert(i);
            } else {
                strip(m);
                notes.push(Diagnostic::new(Code::IstioSourceMatchDecided, format!("sourceLabels/sourceNamespace hold only at the proxy of {} (sourceMatchHTTP compares them with the proxy): the match is bound to those gateways only", holds.join(", "))).at(field));
                m.gateways = holds;
            }
        }
        if dropped.is_empty() {
            return true;
        }
        if dropped.len() == http.matches.len() {
            notes.push(Diagnostic::new(Code::IstioSourceMatchDecided, "no match of this entry applies at the gateway: the entry is dropped").at(path.clone()));
            return false;
        }
        dead.insert(path.clone(), dropped);
        true
    });
    dead
}
