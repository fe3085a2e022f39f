//! Istio Gateways that are not internet-facing ingress and must not become one: egress
//! gateways, and gateways whose routes another controller writes at runtime (Knative).
//!
//! Gateway API's standard channel has no egress gateway, and a Gateway API Gateway made from
//! an egress gateway is a new internet-facing load balancer with `allowedRoutes: All`. Such
//! Gateways are left to Istio: no Gateway, no route binding to them, no ReferenceGrant.

use std::collections::BTreeMap;

use super::hosts;
use super::parent_refs;
use crate::config::Config;
use crate::index::Index;
use crate::model::SourceBody;
use crate::model::istio::Gateway;
use crate::model::surrounding::Surrounding;

/// Why a Gateway is not migrated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NotIngress {
    Egress(String),
    Knative(String),
}

impl NotIngress {
    pub(crate) fn reason(&self) -> &str {
        match self {
            NotIngress::Egress(r) | NotIngress::Knative(r) => r,
        }
    }
}

/// Gateway names Knative's Istio ingress (net-istio) creates and writes VirtualServices for:
/// knative-extensions/net-istio `pkg/reconciler/ingress/config/istio.go` and `config/`
/// (`knative-ingress-gateway`, `knative-local-gateway`; `cluster-local-gateway` in releases
/// before 0.19).
const KNATIVE_GATEWAYS: [&str; 3] = [
    "knative-ingress-gateway",
    "knative-local-gateway",
    "cluster-local-gateway",
];

/// Every destination host of a VirtualService's routes (http, tls, tcp).
fn destination_hosts(vs: &crate::model::istio::VirtualService) -> Vec<&str> {
    let http = vs
        .http
        .iter()
        .flat_map(|h| h.route.iter())
        .filter_map(|r| r.destination.as_ref());
    let l4 = vs
        .tls
        .iter()
        .flat_map(|t| t.route.iter())
        .chain(vs.tcp.iter().flat_map(|t| t.route.iter()))
        .filter_map(|r| r.destination.as_ref());
    http.chain(l4).filter_map(|d| d.host.as_deref()).collect()
}

/// Every Istio Gateway of the index that is not ingress, by `(namespace, name)`.
pub(crate) fn classify(index: &Index, config: &Config) -> BTreeMap<(String, String), NotIngress> {
    let mut out = BTreeMap::new();
    let external_hosts: Vec<(String, String)> = index
        .surroundings()
        .filter_map(|(_, o, s)| match s {
            Surrounding::ServiceEntry {
                hosts,
                external: true,
            } => Some(
                hosts
                    .iter()
                    .map(|h| {
                        (
                            h.to_ascii_lowercase(),
                            format!("{}/{}", o.namespace, o.name()),
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    // VirtualServices bound to the mesh and to some gateway: the only ones the egress
    // pattern below can match, collected once rather than per Gateway.
    let mesh_and_gateway: Vec<(
        &crate::model::SourceObject,
        &crate::model::istio::VirtualService,
    )> = index
        .objects
        .iter()
        .filter_map(|o| match &o.body {
            SourceBody::VirtualService(vs)
                if vs.gateways.iter().any(|g| g == "mesh")
                    && vs.gateways.iter().any(|g| g != "mesh") =>
            {
                Some((o, vs))
            }
            _ => None,
        })
        .collect();
    for (obj, gw) in index.istio_gateways() {
        let key = (obj.namespace.clone(), obj.name().to_string());
        if out.contains_key(&key) {
            continue;
        }
        if let Some(why) = egress_selector(gw) {
            out.insert(key, NotIngress::Egress(why));
            continue;
        }
        if obj.namespace == "knative-serving" && KNATIVE_GATEWAYS.contains(&obj.name()) {
            out.insert(
                key,
                NotIngress::Knative(
                    "Knative's Istio ingress (net-istio) writes this Gateway's VirtualServices at runtime, one per Knative Service; migrate Knative to Gateway API with its net-gateway-api ingress (knative-extensions/net-gateway-api) instead of translating the Gateway, which would get no routes".to_string(),
                ),
            );
            continue;
        }
        // A VirtualService that sends mesh traffic for an external host through this Gateway:
        // the standard egress pattern (istio.io "Egress Gateways" task): bound to `mesh` and
        // to the Gateway, for a host of a MESH_EXTERNAL ServiceEntry, with one leg to an
        // in-cluster Service (the gateway's, from the sidecars) and one to the external host
        // itself (from the gateway). An ingress that also serves its public host to sidecars
        // routes to applications only, never to the external host.
        for &(vo, vs) in &mesh_and_gateway {
            let binds_this = vs
                .gateways
                .iter()
                .any(|g| parent_refs::resolve_gateway(g, &vo.namespace).as_ref() == Some(&key));
            if !binds_this {
                continue;
            }
            let destinations = destination_hosts(vs);
            let in_cluster = destinations.iter().any(|h| {
                !matches!(
                    hosts::classify(h, &vo.namespace, &config.cluster_domain),
                    hosts::HostKind::External
                )
            });
            if !in_cluster {
                continue;
            }
            let external = vs.hosts.iter().find_map(|h| {
                let h = h.to_ascii_lowercase();
                let is_service = !matches!(
                    hosts::classify(&h, &vo.namespace, &config.cluster_domain),
                    hosts::HostKind::External
                );
                if is_service {
                    return None;
                }
                // The gateway leg sends the host out: a destination is the host itself.
                let leaves = destinations.iter().any(|d| d.eq_ignore_ascii_case(&h));
                if !leaves {
                    return None;
                }
                external_hosts
                    .iter()
                    .find(|(e, _)| hosts::overlap(e, &h))
                    .map(|(_, se)| (h.clone(), se.clone()))
            });
            if let Some((host, entry)) = external {
                out.insert(
                    key.clone(),
                    NotIngress::Egress(format!(
                        "VirtualService {}/{} sends mesh traffic for external host {host} (ServiceEntry {entry}) through it and out to the host",
                        vo.namespace,
                        vo.name()
                    )),
                );
                break;
            }
        }
    }
    out
}

/// The selector labels that name an egress gateway workload (`istio: egressgateway`, the
/// label of Istio's egress chart: istio/istio manifests/charts/gateways/istio-egress
/// values.yaml), if any.
fn egress_selector(gw: &Gateway) -> Option<String> {
    gw.selector
        .iter()
        .find(|(k, v)| {
            let v = v.to_ascii_lowercase();
            (k.as_str() == "istio" || k.as_str() == "app" || k.ends_with("/name"))
                && v.contains("egress")
        })
        .map(|(k, v)| format!("its selector {k}={v} picks an egress gateway workload"))
}
