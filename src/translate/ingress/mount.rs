//! `mount` mode (spec: ingress-mounting-controller): routes attach to Gateways already in the
//! repository; none is created or changed. Per Ingress host and listener protocol the best
//! hostname match wins — exact listener hostname, then wildcard, then catch-all, then (for a
//! wildcard host) the listeners inside it, Gateway API's hostname intersection — among
//! listeners whose
//! `allowedRoutes` admit the Ingress's namespace (`Same`, `All`, or a `Selector` on the labels
//! of the Namespace as the repository defines it) and the route kind. On the chosen Gateways
//! the route attaches to the best HTTP and the best HTTPS listeners (`sectionName`), which may
//! be on different Gateways.
//! A host no listener accepts is reported with the reasons.

use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::attach::{self, Admission};
use crate::semantics::hostname;

use super::emit::{Attachment, PlanAttachments, parent_ref};
use super::ir::{IngressPlan, RouteKind};

/// One listener of a Gateway found in the repository.
#[derive(Debug, Clone)]
pub(crate) struct MountListener {
    pub gateway: String,
    pub namespace: String,
    pub name: String,
    pub hostname: Option<String>,
    pub protocol: String,
    pub tls_mode: Option<String>,
    pub allowed_routes: Value,
}

/// Every listener of every Gateway in the index, in index order.
pub(crate) fn listeners(index: &Index) -> Vec<MountListener> {
    let mut out = Vec::new();
    for (obj, doc) in index.gateway_api("Gateway") {
        let Some(ls) = doc.pointer("/spec/listeners").and_then(Value::as_array) else {
            continue;
        };
        for l in ls {
            let Some(name) = l.get("name").and_then(Value::as_str) else {
                continue;
            };
            out.push(MountListener {
                gateway: obj.meta.name.clone(),
                namespace: obj.namespace.clone(),
                name: name.to_string(),
                hostname: l
                    .get("hostname")
                    .and_then(Value::as_str)
                    .map(str::to_ascii_lowercase),
                protocol: l
                    .get("protocol")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                tls_mode: l
                    .pointer("/tls/mode")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| l.get("tls").map(|_| "Terminate".to_string())),
                allowed_routes: l.get("allowedRoutes").cloned().unwrap_or(Value::Null),
            });
        }
    }
    out
}

/// How well a listener hostname matches a host: 4 exact, 3 a listener wildcard covering the
/// host, 2 catch-all, 1 a listener hostname inside the host's wildcard (Gateway API's
/// hostname intersection: the route attaches and serves only the listener's names), 0 none.
fn hostname_rank(listener: Option<&str>, host: Option<&str>) -> u8 {
    match (listener, host) {
        (None, _) => CATCH_ALL,
        (Some(_), None) => 0,
        (Some(l), Some(h)) if l == h => 4,
        (Some(l), Some(h)) if hostname::covers(l, h) => 3,
        (Some(l), Some(h)) if hostname::covers(h, l) => 1,
        _ => 0,
    }
}

/// The rank of a listener without hostname.
const CATCH_ALL: u8 = 2;
/// The rank at which only part of a wildcard host is served.
const NARROWER: u8 = 1;

/// Why `listener` refuses a route of `kind` from namespace `ns`, or `None` if it admits it.
fn refusal(index: &Index, l: &MountListener, ns: &str, kind: &str) -> Option<String> {
    let from = l
        .allowed_routes
        .pointer("/namespaces/from")
        .and_then(Value::as_str)
        .unwrap_or("Same");
    let (labels, defined) = index.namespace_selector_labels(ns);
    // Mount mode only attaches where admission is certain: an unknown Namespace's labels
    // refuse.
    let ns_ok = attach::namespaces_admit(&l.allowed_routes, &l.namespace, ns, &labels, defined)
        == Admission::Admitted;
    if !ns_ok {
        let known = if from != "Selector" || index.namespace_labels(ns).is_some() {
            ""
        } else {
            " (the Namespace is not defined in the repository, so only its kubernetes.io/metadata.name label is known)"
        };
        return Some(format!(
            "allowedRoutes.namespaces.from {from} does not admit namespace {ns}{known}"
        ));
    }
    if !attach::kinds_admit(&l.allowed_routes, kind) {
        return Some(format!("allowedRoutes.kinds does not include {kind}"));
    }
    None
}

/// Which listener protocols serve a route kind: 0 for HTTP, 1 for HTTPS, 2 for TLS passthrough.
///
/// The validator also accepts a TLSRoute on a `Terminate` TLS listener, as Gateway API v1.6.1
/// does (Extended support; the TLSRoute CRD's `parentRefs` description covers it, core
/// support is Passthrough only, see the Gateway CRD's listener description). Mount mode asks a
/// narrower question: an `ssl-passthrough` Ingress sends the client's TLS to the backend
/// untouched, and only a Passthrough listener keeps that.
fn slot(l: &MountListener, kind: &str) -> Option<usize> {
    match (kind, l.protocol.as_str()) {
        ("TLSRoute", "TLS") if l.tls_mode.as_deref() == Some("Passthrough") => Some(2),
        ("TLSRoute", _) => None,
        (_, "HTTP") => Some(0),
        (_, "HTTPS") => Some(1),
        _ => None,
    }
}

/// Selects the listeners for one host; `Err` carries the reasons when none accepts it.
pub(crate) fn select(
    index: &Index,
    all: &[MountListener],
    host: Option<&str>,
    ns: &str,
    kind: &str,
) -> Result<Attachment, Vec<String>> {
    let mut admitted: Vec<(u8, usize, &MountListener)> = Vec::new();
    let mut refused = Vec::new();
    for l in all {
        let Some(s) = slot(l, kind) else { continue };
        let rank = hostname_rank(l.hostname.as_deref(), host);
        if rank == 0 || (host.is_none() && rank != CATCH_ALL) {
            continue;
        }
        match refusal(index, l, ns, kind) {
            None => admitted.push((rank, s, l)),
            Some(why) => refused.push(format!(
                "{}/{} listener {}: {why}",
                l.namespace, l.gateway, l.name
            )),
        }
    }
    if admitted.is_empty() {
        return Err(refused);
    }
    // Per protocol, the best-matching listeners of any Gateway: the HTTP listener for a host
    // and the HTTPS one (often a wildcard on a shared Gateway) need not be on one Gateway.
    let mut att = Attachment::default();
    for s in 0..3 {
        let candidates: Vec<&(u8, usize, &MountListener)> =
            admitted.iter().filter(|(_, ls, _)| *ls == s).collect();
        let Some(top) = candidates.iter().map(|(r, _, _)| *r).max() else {
            continue;
        };
        for (_, _, l) in candidates.into_iter().filter(|(r, _, _)| *r == top) {
            let p = parent_ref(&l.gateway, &l.namespace, &l.name, ns);
            let list = match s {
                0 => &mut att.http,
                1 => &mut att.https,
                _ => &mut att.tls,
            };
            if top == NARROWER
                && let Some(name) = &l.hostname
            {
                let proto = ["HTTP", "HTTPS", "TLS"][s.min(2)];
                let entry = format!("{name} ({proto})");
                if !att.narrowed_to.contains(&entry) {
                    att.narrowed_to.push(entry);
                }
            }
            if !list.contains(&p) {
                list.push(p);
            }
        }
    }
    Ok(att)
}

/// Attaches every plan's hosts to the repository's Gateways.
pub(crate) fn attach(plans: &mut [IngressPlan], index: &Index) -> Vec<PlanAttachments> {
    let all = listeners(index);
    let mut out = Vec::with_capacity(plans.len());
    for plan in plans.iter_mut() {
        let kind = if plan.passthrough {
            "TLSRoute"
        } else if plan.kind == RouteKind::Grpc {
            "GRPCRoute"
        } else {
            "HTTPRoute"
        };
        let mut hosts = Vec::with_capacity(plan.hosts.len());
        for host in &plan.hosts {
            let h = host.host.as_deref();
            match select(index, &all, h, &plan.namespace, kind) {
                Ok(a) => {
                    if !a.narrowed_to.is_empty() {
                        plan.result.notes.push(
                            Diagnostic::new(
                                Code::IngressMountNarrowed,
                                format!(
                                    "host {}: no listener of that protocol covers the whole wildcard; the route attaches to the listeners for {} (Gateway API hostname intersection), so other names under the wildcard are not served there",
                                    h.unwrap_or("*"),
                                    a.narrowed_to.join(", ")
                                ),
                            )
                            .at(&host.field),
                        );
                    }
                    if kind != "TLSRoute" && a.https.is_empty() && plan.tls_covers(h) {
                        plan.result.notes.push(
                            Diagnostic::new(
                                Code::IngressMountNoHttps,
                                format!(
                                    "host {}: the Ingress has TLS for it, but the selected Gateway has no HTTPS listener that accepts it; it is served over HTTP only",
                                    h.unwrap_or("*")
                                ),
                            )
                            .at(&host.field),
                        );
                    }
                    hosts.push(Some(a));
                }
                Err(reasons) => {
                    let why = if reasons.is_empty() {
                        format!(
                            "no {} listener of any Gateway in the repository matches that hostname",
                            kind_protocols(kind)
                        )
                    } else {
                        reasons.join("; ")
                    };
                    plan.result.notes.push(
                        Diagnostic::new(
                            Code::IngressMountNoGateway,
                            format!(
                                "host {}: no Gateway listener accepts {kind}s for it ({why}); no route is written for this host",
                                h.unwrap_or("(none)")
                            ),
                        )
                        .at(&host.field),
                    );
                    hosts.push(None);
                }
            }
        }
        if !plan.tls.is_empty() {
            let secrets: Vec<&str> = plan.tls.iter().filter_map(|(_, s)| s.as_deref()).collect();
            plan.result.notes.push(
                Diagnostic::new(
                    Code::IngressMountTls,
                    format!(
                        "spec.tls (secrets: {}) is not translated: in mount mode TLS is configured by the Gateway's owner on its listeners",
                        if secrets.is_empty() { "-".to_string() } else { secrets.join(", ") }
                    ),
                )
                .at("spec.tls"),
            );
        }
        if let Some(b) = &plan.default_backend {
            plan.result.notes.push(
                Diagnostic::new(
                    Code::IngressDefaultBackendNotMounted,
                    format!(
                        "defaultBackend {} is not translated in mount mode: the Gateway's owner decides where unmatched requests go",
                        b.name
                    ),
                )
                .at("spec.defaultBackend"),
            );
        }
        out.push(PlanAttachments {
            hosts,
            default_backend: None,
        });
    }
    out
}

fn kind_protocols(kind: &str) -> &'static str {
    if kind == "TLSRoute" {
        "TLS Passthrough"
    } else {
        "HTTP or HTTPS"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostname_ranks_prefer_exact_then_wildcard_then_catch_all() {
        let h = Some("a.example.com");
        assert_eq!(hostname_rank(Some("a.example.com"), h), 4);
        assert_eq!(hostname_rank(Some("*.example.com"), h), 3);
        assert_eq!(hostname_rank(None, h), 2);
        assert_eq!(hostname_rank(Some("b.example.com"), h), 0);
        assert_eq!(hostname_rank(Some("a.example.com"), None), 0);
        // Gateway API hostname intersection: a wildcard route host attaches to a listener
        // for one name under it (HTTPRoute spec, `hostnames`).
        assert_eq!(
            hostname_rank(Some("a.example.com"), Some("*.example.com")),
            NARROWER
        );
        assert_eq!(
            hostname_rank(Some("*.a.example.com"), Some("*.example.com")),
            NARROWER
        );
    }
}
