//! `migrate` mode: one Gateway per IngressClass — or several when its hosts need more than 64
//! listeners (`<name>`, `<name>-2`, ...) — (named after the class, or `ingressGatewayName`;
//! in the namespace of the class's first Ingress, or `ingressGatewayNamespace`), with a
//! listener per host on port 80 and, for hosts in `spec.tls`, on 443 with `certificateRefs`;
//! TLS `Passthrough` listeners for `ssl-passthrough` hosts; a catch-all `http` listener for
//! rules without a host and for `defaultBackend`. Listeners admit routes from every namespace
//! whose Ingresses use them (`allowedRoutes` Selector on `kubernetes.io/metadata.name`).

use std::collections::{BTreeMap, BTreeSet};

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, AllowedRoutes, GatewaySpec, Generated, HttpPathMatch, LabelSelector,
    LabelSelectorRequirement, Listener, ListenerTls, Metadata, Object, RouteNamespaces,
    SecretObjectReference,
};
use crate::translate::GrantRequest;

use super::emit::{Attachment, PlanAttachments, parent_ref};
use super::ir::{IngressPlan, Rule};
use super::names::{self, NameAllocator};
use super::routes;
use super::tls;

/// Most listeners a Gateway may have.
const MAX_LISTENERS: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Proto {
    Http,
    Https,
    TlsPassthrough,
}

#[derive(Debug)]
struct ListenerBuild {
    name: String,
    hostname: Option<String>,
    proto: Proto,
    /// Secrets as `(namespace, name)`.
    certs: BTreeSet<(String, String)>,
    namespaces: BTreeSet<String>,
}

#[derive(Debug)]
struct GatewayBuild {
    name: String,
    namespace: String,
    class: Option<String>,
    /// `gatewayClassName` chosen for the IngressClass.
    gateway_class_name: String,
    /// Plan (position in `plans`) that carries the Gateway in its result.
    owner: usize,
    listeners: Vec<ListenerBuild>,
    listener_names: NameAllocator,
}

impl GatewayBuild {
    fn find(&self, hostname: Option<&str>, proto: Proto) -> Option<usize> {
        self.listeners
            .iter()
            .position(|l| l.hostname.as_deref() == hostname && l.proto == proto)
    }

    fn ensure(&mut self, hostname: Option<&str>, proto: Proto, ns: &str) -> usize {
        let i = match self.find(hostname, proto) {
            Some(i) => i,
            None => {
                let suffix = match proto {
                    Proto::Http => "http",
                    Proto::Https => "https",
                    Proto::TlsPassthrough => "passthrough",
                };
                let wanted = match hostname {
                    None => suffix.to_string(),
                    Some(h) => format!("{}-{suffix}", names::host_part(Some(h))),
                };
                let name = self
                    .listener_names
                    .allocate("", "Listener", &wanted, names::MAX_NAME);
                self.listeners.push(ListenerBuild {
                    name,
                    hostname: hostname.map(str::to_string),
                    proto,
                    certs: BTreeSet::new(),
                    namespaces: BTreeSet::new(),
                });
                self.listeners.len() - 1
            }
        };
        self.listeners[i].namespaces.insert(ns.to_string());
        i
    }
}

/// Splits a Gateway that needs more than [`MAX_LISTENERS`] listeners into several, each within
/// the limit: all listeners of one hostname stay on one Gateway (so a host's HTTP→HTTPS
/// redirect and its routes share a parent), catch-all listeners stay on the first. The first
/// keeps the name; the others are `<name>-2`, `<name>-3`, ... Each gets its own address.
fn split_listeners(gw: GatewayBuild) -> Vec<GatewayBuild> {
    if gw.listeners.len() <= MAX_LISTENERS {
        return vec![gw];
    }
    let GatewayBuild {
        name,
        namespace,
        class,
        gateway_class_name,
        owner,
        listeners,
        ..
    } = gw;
    // Group by hostname, catch-all first, then hostnames in order.
    let mut groups: BTreeMap<(bool, Option<String>), Vec<ListenerBuild>> = BTreeMap::new();
    for l in listeners {
        groups
            .entry((l.hostname.is_some(), l.hostname.clone()))
            .or_default()
            .push(l);
    }
    let mut shards: Vec<Vec<ListenerBuild>> = vec![Vec::new()];
    for (_, group) in groups {
        let fits = shards
            .last()
            .is_some_and(|last| last.len() + group.len() <= MAX_LISTENERS);
        if !fits {
            shards.push(Vec::new());
        }
        if let Some(last) = shards.last_mut() {
            last.extend(group);
        }
    }
    shards
        .into_iter()
        .enumerate()
        .map(|(i, listeners)| GatewayBuild {
            name: if i == 0 {
                name.clone()
            } else {
                let suffix = format!("-{}", i + 1);
                format!(
                    "{}{suffix}",
                    names::fit(&name, names::MAX_GATEWAY_NAME - suffix.len())
                )
            },
            namespace: namespace.clone(),
            class: class.clone(),
            gateway_class_name: gateway_class_name.clone(),
            owner,
            listeners,
            // Names were allocated while listeners were added; none are allocated after.
            listener_names: NameAllocator::default(),
        })
        .collect()
}

/// The Gateway key of a plan: its class, `None` for class-less Ingresses.
fn gateway_name(class: Option<&str>, classes: usize, config: &Config) -> String {
    let class_part = class.map(names::dns_label_chars);
    let wanted = match (&config.ingress_gateway_name, class_part) {
        (Some(n), Some(c)) if classes > 1 => format!("{n}-{c}"),
        (Some(n), _) => n.clone(),
        (None, Some(c)) => c,
        (None, None) => "ingress".into(),
    };
    names::fit(&wanted, names::MAX_GATEWAY_NAME)
}

/// Whether the Ingress's `defaultBackend` answers hosts no rule names. ingress-nginx gives
/// it the catch-all server only when the Ingress has no rules (and the first such Ingress
/// wins: `controller.go` `createServers`); other controllers (GKE) serve it for everything
/// unmatched.
fn serves_unknown_hosts(plan: &IngressPlan) -> bool {
    !plan.class.reads_nginx_annotations() || (!plan.has_rules && !plan.default_backend_shadowed)
}

/// ingress-nginx serves an Ingress's `defaultBackend` for paths of its hosts that no rule
/// matches, on the hosts whose server that Ingress created and where no Ingress names `/`
/// (`host.owns_root`): such a host route gets a `/` rule to the default backend (a regex
/// `(?i)/.*` on a regex host, so it keeps the root's place last).
fn default_backend_rules(plan: &mut IngressPlan) {
    let Some(backend) = plan.default_backend.clone() else {
        return;
    };
    if plan.passthrough {
        return;
    }
    for host in &mut plan.hosts {
        let has_root = host
            .rules
            .iter()
            .any(|r| r.source_path == "/" && r.source_type != "Exact" && r.headers.is_empty());
        // ingress-nginx creates the server of a rule without paths too (createServers loops
        // over every rule), with this Ingress's defaultBackend as its root.
        let routed = !host.rules.is_empty() || plan.class.reads_nginx_annotations();
        if !has_root && routed && host.owns_root {
            let mut rule = Rule {
                path: HttpPathMatch {
                    type_: routes::PATH_PREFIX.into(),
                    value: "/".into(),
                },
                source_path: "/".into(),
                source_type: "Prefix".into(),
                field: "spec.defaultBackend".into(),
                backends: vec![backend.clone()],
                ..Default::default()
            };
            if host.regex {
                rule.path = super::nginx::rewrite::regex_path(&rule);
            }
            host.rules.push(rule);
            routes::sort_rules(&mut host.rules);
        }
    }
}

/// Creates the Gateways (on the owner plans' results) and returns each plan's attachments.
pub(crate) fn attach(plans: &mut [IngressPlan], config: &Config) -> Vec<PlanAttachments> {
    for plan in plans.iter_mut() {
        default_backend_rules(plan);
    }
    let classes: BTreeSet<Option<String>> = plans
        .iter()
        .filter(|p| !p.hosts.is_empty() || p.default_backend.is_some())
        .map(|p| p.class.name.clone())
        .collect();
    let mut gateways: BTreeMap<Option<String>, GatewayBuild> = BTreeMap::new();
    // ingress-nginx (certificate.lua get_pem_cert_uid) serves a host without a certificate
    // of its own with the certificate of `*.<rest of the host>` from any Ingress it reads.
    let wildcard_tls: Vec<(Option<String>, String, String, String)> = plans
        .iter()
        .filter(|p| p.class.reads_nginx_annotations())
        .flat_map(|p| {
            p.tls.iter().filter_map(move |(host, secret)| {
                let host = host.as_ref().filter(|h| h.starts_with("*."))?;
                Some((
                    p.class.controller_group(),
                    host.clone(),
                    p.namespace.clone(),
                    secret.clone()?,
                ))
            })
        })
        .collect();
    // Pass 1: listeners.
    for (pi, plan) in plans.iter_mut().enumerate() {
        if plan.hosts.is_empty() && plan.default_backend.is_none() {
            continue;
        }
        let gw = gateways
            .entry(plan.class.name.clone())
            .or_insert_with(|| GatewayBuild {
                name: gateway_name(plan.class.name.as_deref(), classes.len(), config),
                namespace: config
                    .ingress_gateway_namespace
                    .clone()
                    .unwrap_or_else(|| plan.namespace.clone()),
                class: plan.class.name.clone(),
                gateway_class_name: plan.class.gateway_class_name.clone(),
                owner: pi,
                listeners: Vec::new(),
                listener_names: NameAllocator::default(),
            });
        let ns = plan.namespace.clone();
        for host in &plan.hosts {
            let h = host.host.as_deref();
            if plan.passthrough {
                if h.is_some() {
                    gw.ensure(h, Proto::TlsPassthrough, &ns);
                }
                continue;
            }
            gw.ensure(h, Proto::Http, &ns);
            if host.passthrough_elsewhere {
                continue;
            }
            let Some(named) = tls::certificates(&plan.tls, h) else {
                let borrowed = h
                    .filter(|_| plan.class.reads_nginx_annotations())
                    .and_then(super::wildcard::certificate_fallback)
                    .and_then(|pattern| {
                        let group = plan.class.controller_group();
                        wildcard_tls
                            .iter()
                            .find(|(g, p, _, _)| *g == group && *p == pattern)
                    });
                if let Some((_, pattern, secret_ns, secret)) = borrowed {
                    let li = gw.ensure(h, Proto::Https, &ns);
                    gw.listeners[li]
                        .certs
                        .insert((secret_ns.clone(), secret.clone()));
                    plan.result.notes.push(
                        Diagnostic::new(
                            Code::NginxWildcardCertificate,
                            format!(
                                "host {}: no certificate of its own; ingress-nginx served its HTTPS with the {pattern} certificate ({secret_ns}/{secret}) of another Ingress, so the host gets an HTTPS listener with it",
                                h.unwrap_or("*")
                            ),
                        )
                        .at(&host.field),
                    );
                } else if let Some(cert) = &plan.default_certificate {
                    default_certificate_listener(
                        gw,
                        &mut plan.result.notes,
                        h,
                        &ns,
                        &host.field,
                        cert,
                    );
                }
                continue;
            };
            if named.is_empty() {
                if let Some(cert) = &plan.default_certificate {
                    default_certificate_listener(
                        gw,
                        &mut plan.result.notes,
                        h,
                        &ns,
                        &host.field,
                        cert,
                    );
                    continue;
                }
                plan.result.notes.push(
                    Diagnostic::new(
                        Code::IngressTlsWithoutSecret,
                        format!(
                            "host {}: spec.tls names no secretName (the controller's default certificate served it); an HTTPS listener needs certificateRefs, so none is created",
                            h.unwrap_or("*")
                        ),
                    )
                    .at("spec.tls"),
                );
                continue;
            }
            let li = gw.ensure(h, Proto::Https, &ns);
            for s in named {
                gw.listeners[li].certs.insert((ns.clone(), s));
            }
        }
        if plan.default_backend.is_some() && serves_unknown_hosts(plan) {
            gw.ensure(None, Proto::Http, &ns);
        }
        tls::note_unused_entries(plan);
    }
    // Gateways over the listener limit become several Gateways.
    let gateways: BTreeMap<Option<String>, Vec<GatewayBuild>> = gateways
        .into_iter()
        .map(|(class, gw)| {
            let needed = gw.listeners.len();
            let shards = split_listeners(gw);
            if shards.len() > 1 {
                let first = &shards[0];
                plans[first.owner].result.notes.push(Diagnostic::new(
                    Code::IngressListenerLimit,
                    format!(
                        "IngressClass {} needs {needed} listeners and a Gateway holds at most {MAX_LISTENERS}: its hosts are split over {} Gateways ({}), each with its own address; point each host's DNS at the Gateway that holds it",
                        first.class.as_deref().unwrap_or("(none)"),
                        shards.len(),
                        crate::diagnostic::list_some(&shards.iter().map(|g| format!("{}/{}", g.namespace, g.name)).collect::<Vec<_>>(), 5)
                    ),
                ));
            }
            (class, shards)
        })
        .collect();
    // Pass 2: attachments.
    let mut out = Vec::with_capacity(plans.len());
    for plan in plans.iter() {
        let Some(shards) = gateways.get(&plan.class.name) else {
            out.push(PlanAttachments {
                hosts: plan.hosts.iter().map(|_| None).collect(),
                default_backend: None,
            });
            continue;
        };
        // The parentRef to the listener for (hostname, protocol), on whichever Gateway holds it.
        let pref = |h: Option<&str>, proto: Proto| -> Vec<_> {
            shards
                .iter()
                .find_map(|gw| gw.find(h, proto).map(|i| (gw, i)))
                .map(|(gw, i)| {
                    parent_ref(
                        &gw.name,
                        &gw.namespace,
                        &gw.listeners[i].name,
                        &plan.namespace,
                    )
                })
                .into_iter()
                .collect()
        };
        let hosts = plan
            .hosts
            .iter()
            .map(|host| {
                let h = host.host.as_deref();
                Some(Attachment {
                    http: pref(h, Proto::Http),
                    https: pref(h, Proto::Https),
                    tls: pref(h, Proto::TlsPassthrough),
                    narrowed_to: Vec::new(),
                })
            })
            .collect();
        let default_backend = plan
            .default_backend
            .as_ref()
            .filter(|_| serves_unknown_hosts(plan))
            .map(|_| Attachment {
                http: pref(None, Proto::Http),
                https: pref(None, Proto::Https),
                tls: Vec::new(),
                narrowed_to: Vec::new(),
            });
        out.push(PlanAttachments {
            hosts,
            default_backend,
        });
    }
    // The Gateways, on their owner plans.
    for gw in gateways.into_values().flatten() {
        if gw.listeners.is_empty() {
            continue;
        }
        let (gateway, grants, notes) = build_gateway(&gw);
        let owner = &mut plans[gw.owner];
        owner.result.notes.extend(notes);
        owner.result.grants.extend(grants);
        owner.result.generated.push(Generated::Gateway(gateway));
    }
    for plan in plans.iter_mut() {
        if let Some(backend) = &plan.default_backend {
            let message = if plan.default_backend_shadowed {
                format!(
                    "defaultBackend {}: another Ingress without rules already gave ingress-nginx its catch-all backend (the first one read wins), so this one had no effect and is not translated",
                    backend.name
                )
            } else if serves_unknown_hosts(plan) {
                format!(
                    "defaultBackend {} → catch-all HTTPRoute {}-default-backend on the hostless listener (hosts no other listener names){}",
                    backend.name,
                    plan.name,
                    if plan.has_rules {
                        ", and a / rule on each host route of this Ingress without one"
                    } else {
                        ""
                    }
                )
            } else {
                format!(
                    "defaultBackend {} → a / rule on the routes of the hosts whose nginx server this Ingress created and where no Ingress names /; ingress-nginx did not use it for other hosts (only an Ingress without rules configures the catch-all server), so no catch-all route is made",
                    backend.name
                )
            };
            plan.result.notes.push(
                Diagnostic::new(Code::IngressDefaultBackend, message).at("spec.defaultBackend"),
            );
        }
    }
    out
}

/// ingress-nginx answers HTTPS for a host without a certificate of its own with the
/// controller's `--default-ssl-certificate` (`certificate.lua` `call`: no certificate for the
/// SNI name falls back to the default one; `controller.go` `createServers` gives every
/// server without a usable `tls` Secret the default certificate): the host gets an HTTPS
/// listener with it.
fn default_certificate_listener(
    gw: &mut GatewayBuild,
    notes: &mut Vec<Diagnostic>,
    host: Option<&str>,
    ns: &str,
    field: &str,
    (secret_ns, secret): &(String, String),
) {
    let li = gw.ensure(host, Proto::Https, ns);
    gw.listeners[li]
        .certs
        .insert((secret_ns.clone(), secret.clone()));
    notes.push(
        Diagnostic::new(
            Code::NginxDefaultCertificate,
            format!(
                "host {}: no certificate of its own; ingress-nginx answered its HTTPS with the controller's --default-ssl-certificate ({secret_ns}/{secret}), so the host gets an HTTPS listener with it",
                host.unwrap_or("*")
            ),
        )
        .at(field),
    );
}

fn build_gateway(gw: &GatewayBuild) -> (Object<GatewaySpec>, Vec<GrantRequest>, Vec<Diagnostic>) {
    let mut notes = Vec::new();
    let mut grants = Vec::new();
    let mut listeners = Vec::new();
    let mut order: Vec<&ListenerBuild> = gw.listeners.iter().collect();
    // Stable, readable order: by hostname (catch-all last), then HTTP, HTTPS, passthrough.
    order.sort_by(|a, b| {
        (a.hostname.is_none(), &a.hostname, a.proto).cmp(&(
            b.hostname.is_none(),
            &b.hostname,
            b.proto,
        ))
    });
    for l in order {
        let (port, protocol, tls) = match l.proto {
            Proto::Http => (80, "HTTP", None),
            Proto::Https => {
                let refs = l
                    .certs
                    .iter()
                    .map(|(ns, name)| {
                        if *ns != gw.namespace {
                            grants.push(GrantRequest {
                                from_kind: "Gateway".into(),
                                from_namespace: gw.namespace.clone(),
                                to_group: String::new(),
                                to_kind: "Secret".into(),
                                to_namespace: ns.clone(),
                                to_name: name.clone(),
                            });
                        }
                        SecretObjectReference {
                            name: name.clone(),
                            namespace: (*ns != gw.namespace).then(|| ns.clone()),
                            ..Default::default()
                        }
                    })
                    .collect();
                (
                    443,
                    "HTTPS",
                    Some(ListenerTls {
                        mode: Some("Terminate".into()),
                        certificate_refs: refs,
                        ..Default::default()
                    }),
                )
            }
            Proto::TlsPassthrough => (
                443,
                "TLS",
                Some(ListenerTls {
                    mode: Some("Passthrough".into()),
                    ..Default::default()
                }),
            ),
        };
        let foreign: Vec<String> = l
            .namespaces
            .iter()
            .filter(|ns| **ns != gw.namespace)
            .cloned()
            .collect();
        let allowed_routes = (!foreign.is_empty()).then(|| AllowedRoutes {
            namespaces: Some(RouteNamespaces {
                from: "Selector".into(),
                selector: Some(LabelSelector {
                    match_expressions: vec![LabelSelectorRequirement {
                        key: "kubernetes.io/metadata.name".into(),
                        operator: "In".into(),
                        values: l.namespaces.iter().cloned().collect(),
                    }],
                    ..Default::default()
                }),
            }),
            kinds: Vec::new(),
        });
        listeners.push(Listener {
            name: l.name.clone(),
            hostname: l.hostname.clone(),
            port,
            protocol: protocol.into(),
            tls,
            allowed_routes,
        });
    }
    let hosts = gw
        .listeners
        .iter()
        .filter_map(|l| l.hostname.as_deref())
        .collect::<BTreeSet<_>>()
        .len();
    notes.push(Diagnostic::new(
        Code::IngressGatewayCreated,
        format!(
            "Gateway {}/{} (gatewayClassName {}) created for IngressClass {}: {} listeners for {hosts} hosts; it is shared by every Ingress of that class",
            gw.namespace,
            gw.name,
            gw.gateway_class_name,
            gw.class.as_deref().unwrap_or("(none)"),
            listeners.len()
        ),
    ));
    let gateway = Object::new(
        gwapi::V1,
        "Gateway",
        Metadata::new(gw.name.clone(), gw.namespace.clone()),
        GatewaySpec {
            gateway_class_name: gw.gateway_class_name.clone(),
            listeners,
            ..Default::default()
        },
    );
    (gateway, grants, notes)
}
