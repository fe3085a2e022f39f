//! Where a route is accepted. kubernetes-sigs/gateway-api `apis/v1/shared_types.go`
//! `ParentReference` (`sectionName` names one listener, `port` selects listeners by port,
//! both together must name the same one) and `gateway_types.go` `AllowedRoutes` (namespaces
//! `Same` by default, `All`, `Selector` over the route Namespace's labels; kinds default to
//! what the protocol carries); `httproute_types.go` `Hostnames` (a listener with a hostname
//! accepts a route with hostnames only when one of them intersects it).

use serde_json::Value;

use super::{Key, Listener, Route, World, str_of};
use crate::model::attach::{Admission, kinds_admit, namespaces_admit, protocol_kinds};
use crate::semantics::hostname;

/// A listener a route is accepted on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub gateway: Key,
    pub listener: String,
}

const GROUP: &str = "gateway.networking.k8s.io";

/// Every listener `route` is accepted on, over all its parent references.
pub(super) fn attachments(world: &World, route: &Route) -> Vec<Attachment> {
    let mut out = Vec::new();
    for parent in &route.parent_refs {
        let group = str_of(parent, "group").unwrap_or(GROUP);
        let kind = str_of(parent, "kind").unwrap_or("Gateway");
        if group != GROUP || kind != "Gateway" {
            continue;
        }
        let key = (
            str_of(parent, "namespace")
                .unwrap_or(&route.key.0)
                .to_string(),
            str_of(parent, "name").unwrap_or_default().to_string(),
        );
        let Some(gateway) = world.gateways.get(&key) else {
            continue;
        };
        let section = str_of(parent, "sectionName");
        let port = parent.get("port").and_then(Value::as_u64);
        for l in &gateway.listeners {
            if section.is_some_and(|s| s != l.name)
                || port.is_some_and(|p| l.port.map(u64::from) != Some(p))
            {
                continue;
            }
            if admits(world, &key, l, route) {
                let a = Attachment {
                    gateway: key.clone(),
                    listener: l.name.clone(),
                };
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
    }
    out
}

fn admits(world: &World, gateway: &Key, l: &Listener, route: &Route) -> bool {
    if !protocol_kinds(&l.protocol, l.tls_mode.as_deref()).contains(&route.kind.as_str())
        || !kinds_admit(&l.allowed_routes, &route.kind)
    {
        return false;
    }
    let known = world.namespaces.get(&route.key.0);
    // Every Namespace carries `kubernetes.io/metadata.name: <its name>`, set by the API server
    // whatever the manifest says (k8s.io/api `core/v1` `LabelMetadataName`, GA in 1.22).
    let mut labels = known.cloned().unwrap_or_default();
    labels.insert(
        "kubernetes.io/metadata.name".to_string(),
        route.key.0.clone(),
    );
    let admission = namespaces_admit(
        &l.allowed_routes,
        &gateway.0,
        &route.key.0,
        &labels,
        known.is_some(),
    );
    if admission != Admission::Admitted {
        return false;
    }
    route.hostnames.is_empty()
        || route
            .hostnames
            .iter()
            .any(|h| hostname::intersect(h, l.hostname.as_deref()).is_some())
}
