//! Istio `Gateway`, `VirtualService` and `DestinationRule` → Gateway API.
//!
//! Spec: the Istio provider spec with its corrections; field table and traps in the mapping
//! reference. One file per feature; every field either maps or yields a note whose code is
//! documented in `docs/codes.md` (generated from the registry).
//!
//! Shape of the output:
//! - Istio Gateway → one Gateway (listener per host of each server, `listeners.rs`), plus an
//!   `<gateway>-https-redirect` HTTPRoute for `httpsRedirect` servers; the listener plan is
//!   computed once ([`Ctx::plan`]) so VirtualServices can bind by `sectionName`.
//! - VirtualService → one HTTPRoute per VirtualService whose rules keep Istio's order (`http/`),
//!   with sibling routes only where matches need another hostname or listener; one TLSRoute /
//!   TCPRoute per `tls[]` / `tcp[]` entry. Delegates are inlined into their root.
//! - DestinationRule → BackendTLSPolicy where `tls` maps; everything else is a note.
//! - Cross-namespace backendRefs and certificateRefs request ReferenceGrants
//!   ([`crate::translate::GrantRequest`]); route → Gateway attachment uses `allowedRoutes`.

mod backend_policies;
pub(crate) mod default_retries;
mod destination;
mod destination_rule;
mod duration;
pub(crate) mod fields;
mod gateway;
mod hosts;
mod http;
mod l4;
mod listeners;
mod names;
pub(crate) mod not_ingress;
pub(crate) mod parent_refs;
mod policies;
pub(crate) mod proxy;
mod tcp_route;
mod tls_route;
mod unknown;
mod virtual_service;

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic};
use crate::index::Index;
use crate::model::SourceBody;
use crate::translate::SourceResult;

pub(crate) use listeners::GatewayPlan;

/// What every Istio translator may read: the index, the config and the facts computed once.
pub(crate) struct Ctx<'a> {
    pub index: &'a Index,
    pub config: &'a Config,
    plans: BTreeMap<(String, String), GatewayPlan>,
    proxies: BTreeMap<(String, String), proxy::Proxy>,
    /// Istio Gateways left to Istio (egress, Knative), with the reason.
    not_ingress: BTreeMap<(String, String), not_ingress::NotIngress>,
    /// delegate `(ns, name)` → the root VirtualService `(ns, name)` that inlines it.
    delegates: BTreeMap<(String, String), (String, String)>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(index: &'a Index, config: &'a Config) -> Self {
        let mut plans = BTreeMap::new();
        let mut proxies = BTreeMap::new();
        let mut finder = proxy::ProxyFinder::new(index, config);
        for (obj, gw) in index.istio_gateways() {
            if index.is_patch_file(&obj.source.file) {
                continue;
            }
            let key = (obj.namespace.clone(), obj.name().to_string());
            if plans.contains_key(&key) {
                continue;
            }
            let proxy = finder.of_selector(&gw.selector);
            plans.insert(key.clone(), listeners::plan(index, obj, gw, config, &proxy));
            proxies.insert(key, proxy);
        }
        let mut delegates = BTreeMap::new();
        for obj in &index.objects {
            let SourceBody::VirtualService(vs) = &obj.body else {
                continue;
            };
            if index.is_patch_file(&obj.source.file) {
                continue;
            }
            for http in &vs.http {
                if let Some(d) = &http.delegate {
                    let ns = d.namespace.clone().unwrap_or_else(|| obj.namespace.clone());
                    let name = d.name.clone().unwrap_or_default();
                    delegates
                        .entry((ns, name))
                        .or_insert_with(|| (obj.namespace.clone(), obj.name().to_string()));
                }
            }
        }
        Ctx {
            index,
            config,
            plans,
            proxies,
            not_ingress: not_ingress::classify(index, config),
            delegates,
        }
    }

    /// The listener plan of Istio Gateway `namespace/name`, if the repository defines it.
    pub(crate) fn plan(&self, namespace: &str, name: &str) -> Option<&GatewayPlan> {
        self.plans.get(&(namespace.to_string(), name.to_string()))
    }

    /// The listener plan whose generated Gateway is `namespace/name`.
    pub(crate) fn plan_generated(&self, namespace: &str, name: &str) -> Option<&GatewayPlan> {
        self.plans
            .values()
            .find(|p| p.namespace == namespace && p.name == name)
    }

    /// The proxy of Istio Gateway `namespace/name`, if the repository defines the Gateway.
    /// The namespaces the proxies of the migrated Istio Gateways run in.
    pub(crate) fn gateway_proxy_namespaces(&self) -> BTreeSet<&str> {
        self.proxies
            .iter()
            .filter(|(key, _)| !self.not_ingress.contains_key(*key))
            .map(|(_, p)| p.namespace.as_str())
            .collect()
    }

    pub(crate) fn proxy(&self, namespace: &str, name: &str) -> Option<&proxy::Proxy> {
        self.proxies.get(&(namespace.to_string(), name.to_string()))
    }

    /// Why Istio Gateway `namespace/name` is not migrated, when it is not ingress.
    pub(crate) fn not_ingress(
        &self,
        namespace: &str,
        name: &str,
    ) -> Option<&not_ingress::NotIngress> {
        self.not_ingress
            .get(&(namespace.to_string(), name.to_string()))
    }

    /// The root VirtualService that inlines `namespace/name`, when it is a delegate.
    pub(crate) fn delegate_root(&self, namespace: &str, name: &str) -> Option<&(String, String)> {
        self.delegates
            .get(&(namespace.to_string(), name.to_string()))
    }
}

/// Translates every Istio object of the index: one result per Istio Gateway, VirtualService
/// and DestinationRule, in index order.
pub(crate) fn translate(index: &Index, config: &Config) -> Vec<SourceResult> {
    let ctx = Ctx::new(index, config);
    let mut results = Vec::new();
    let mut seen_gateways = BTreeSet::new();
    for (position, obj) in index.objects.iter().enumerate() {
        let is_istio = matches!(
            obj.body,
            SourceBody::IstioGateway(_)
                | SourceBody::VirtualService(_)
                | SourceBody::DestinationRule(_)
        );
        if !is_istio {
            continue;
        }
        if index.is_patch_file(&obj.source.file) {
            let mut r = SourceResult::new(position);
            r.skipped = Some(
                "kustomize patch: a partial object, translated through the object it patches"
                    .into(),
            );
            results.push(r);
            continue;
        }
        let translated = crate::isolate::catch(
            &format!("translating {} {}/{}", obj.kind, obj.namespace, obj.name()),
            || {
                crate::isolate::test_trigger("translate", obj.name().as_bytes());
                translate_object(&ctx, &mut seen_gateways, position, obj)
            },
        );
        let result = match translated {
            Ok(Some(r)) => r,
            Ok(None) => continue,
            Err(d) => {
                let mut r = SourceResult::new(position);
                r.notes.push(*d);
                r
            }
        };
        results.push(result);
    }
    for r in &mut results {
        dedup_notes(&mut r.notes);
    }
    make_names_unique(index, &mut results);
    if config.target != crate::config::Target::Istio {
        backend_policies::keep(&ctx, &mut results);
    }
    results
}

/// One Istio object's translation; `None` for objects of other kinds.
fn translate_object(
    ctx: &Ctx<'_>,
    seen_gateways: &mut BTreeSet<(String, String)>,
    position: usize,
    obj: &crate::model::SourceObject,
) -> Option<SourceResult> {
    let result = match &obj.body {
        SourceBody::IstioGateway(gw) => {
            let key = (obj.namespace.clone(), obj.name().to_string());
            if !seen_gateways.contains(&key) {
                let translated = gateway::translate(ctx, position, obj, gw);
                // Only once it is translated: a Gateway whose translation panicked does not
                // make a later one of the same name a duplicate.
                seen_gateways.insert(key);
                translated
            } else {
                let mut r = SourceResult::new(position);
                r.notes.push(Diagnostic::new(
                    Code::IstioDuplicateObject,
                    format!(
                        "another Gateway {}/{} was translated first; this one is ignored",
                        obj.namespace,
                        obj.name()
                    ),
                ));
                r
            }
        }
        SourceBody::VirtualService(vs) => virtual_service::translate(ctx, position, obj, vs),
        SourceBody::DestinationRule(dr) => destination_rule::translate(ctx, position, obj, dr),
        _ => return None,
    };
    Some(result)
}

/// Drops repeated identical notes (the same binding problem is found for every route of a
/// VirtualService), keeping the first.
fn dedup_notes(notes: &mut Vec<Diagnostic>) {
    let mut seen = BTreeSet::new();
    notes.retain(|n| seen.insert(n.clone()));
}

/// Generated objects of one kind must have distinct names per namespace: later ones get `-2`,
/// `-3`, ... (Gateways keep theirs: routes refer to them by name).
///
/// Sources that name no namespace are unique within their naming scope only (their
/// directory), so an unrelated file elsewhere never renames them; every rename is a note.
fn make_names_unique(index: &Index, results: &mut [SourceResult]) {
    let scope_of = |r: &SourceResult| {
        index
            .objects
            .get(r.object)
            .map(|o| o.naming_scope.clone())
            .unwrap_or_default()
    };
    let mut taken: BTreeMap<(String, String, String), BTreeSet<String>> = BTreeMap::new();
    for r in results.iter() {
        let scope = scope_of(r);
        for g in r.generated.iter().filter(|g| g.kind() == "Gateway") {
            taken
                .entry((
                    g.kind().to_string(),
                    g.namespace().to_string(),
                    scope.clone(),
                ))
                .or_default()
                .insert(g.name().to_string());
        }
    }
    for r in results.iter_mut() {
        let scope = scope_of(r);
        let mut renamed = Vec::new();
        for g in r.generated.iter_mut() {
            if g.kind() == "Gateway" {
                continue;
            }
            let set = taken
                .entry((
                    g.kind().to_string(),
                    g.namespace().to_string(),
                    scope.clone(),
                ))
                .or_default();
            let name = names::unique(g.name(), set);
            if name != g.name() {
                renamed.push(format!(
                    "{} {}/{} is generated from another source too; this one's is named {name}",
                    g.kind(),
                    g.namespace(),
                    g.name()
                ));
                set_name(g, name);
            }
        }
        for message in renamed {
            r.notes
                .push(Diagnostic::new(Code::IstioNameCollision, message));
        }
    }
}

fn set_name(g: &mut crate::gwapi::Generated, name: String) {
    use crate::gwapi::Generated::*;
    match g {
        Gateway(o) => o.metadata.name = name,
        HttpRoute(o) => o.metadata.name = name,
        GrpcRoute(o) => o.metadata.name = name,
        TlsRoute(o) => o.metadata.name = name,
        TcpRoute(o) => o.metadata.name = name,
        ReferenceGrant(o) => o.metadata.name = name,
        BackendTlsPolicy(o) => o.metadata.name = name,
        Policy(o) => o.metadata.name = name,
    }
}
