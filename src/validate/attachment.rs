//! Predicted `Accepted` / `ResolvedRefs` status of every route parentRef, computed offline from
//! the Gateways, Services, Secrets, ReferenceGrants and Namespaces the repository holds (plus
//! the objects generated in this run), following Envoy Gateway's order of checks:
//! parent → listeners by sectionName/port (`NoMatchingParent`) → allowed kinds and namespaces
//! (`NotAllowedByListeners`) → hostname intersection with listener isolation
//! (`NoMatchingListenerHostname`); backendRefs → kind (`InvalidKind`), ReferenceGrant
//! (`RefNotPermitted`), Service (`BackendNotFound`).
//!
//! What lies outside the repository is unknown: a missing Gateway or Service in a namespace
//! the repository says nothing about is reported as unknown (warning), an error with
//! `strict`. A namespace is known when the repository defines it or holds a Service in it.

mod backend_tls;
mod listener;
mod rules;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::config::{Config, Target};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::GROUP;
use crate::index::Index;
use crate::model::attach::{self, Admission};
use crate::model::{SourceBody, k8s};

const ROUTE_KINDS: &[&str] = &["HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute"];

/// Condition status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    True,
    False,
    /// Depends on objects outside the repository.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Condition {
    pub status: Status,
    /// `Accepted`, `NoMatchingParent`, `NotAllowedByListeners`, `NoMatchingListenerHostname`,
    /// `ParentNotFound`; `ResolvedRefs`, `BackendNotFound`, `RefNotPermitted`, `InvalidKind`,
    /// `PortNotFound`.
    pub reason: String,
    pub message: String,
}

impl Condition {
    fn new(status: Status, reason: &str, message: impl Into<String>) -> Self {
        Condition {
            status,
            reason: reason.to_string(),
            message: message.into(),
        }
    }
}

/// The predicted status of one parentRef of a route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParentStatus {
    pub index: usize,
    /// `namespace/name`, with `/sectionName` and `:port` when set.
    pub parent: String,
    pub accepted: Condition,
    /// Listeners that accept the route (when Accepted).
    pub listeners: Vec<String>,
    /// `(host, listener)`: a host of the route that an accepting listener serves by its
    /// wildcard, but that a more specific listener of the same Gateway and port claims
    /// (listener isolation sends those requests there).
    pub shadowed: Vec<(String, String)>,
    /// Accepted, but none of the accepting listeners is programmed: no traffic.
    pub unprogrammed: bool,
}

/// One backendRef that does not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BackendIssue {
    pub path: String,
    pub condition: Condition,
}

/// Everything predicted about one route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RoutePrediction {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub parents: Vec<ParentStatus>,
    /// The route's `ResolvedRefs` condition (the same on every parent).
    pub resolved_refs: Condition,
    /// Envoy Gateway writes no `ResolvedRefs` on a route it refuses for its rule count.
    pub resolved_refs_unset: bool,
    /// `PartiallyInvalid=True` when some rules were dropped.
    pub partially_invalid: Option<Condition>,
    pub backend_issues: Vec<BackendIssue>,
    /// Whether unknown outcomes are errors (`--strict`).
    pub strict: bool,
}

/// The code of a condition reason that makes a route or listener fail.
fn reason_code(reason: &str) -> Code {
    match reason {
        "NoMatchingParent" => Code::AttachNoMatchingParent,
        "NotAllowedByListeners" => Code::AttachNotAllowedByListeners,
        "NoMatchingListenerHostname" => Code::AttachNoMatchingListenerHostname,
        "ParentNotFound" | "ParentRejected" => Code::AttachParentNotFound,
        "RefNotPermitted" => Code::AttachRefNotPermitted,
        "InvalidKind" => Code::AttachInvalidKind,
        "PortNotFound" | "PortNotSpecified" => Code::AttachPortNotFound,
        "UnsupportedValue" | "InvalidRule" | "IncompatibleFilters" | "UnsupportedRefValue" => {
            Code::AttachRuleUnsupported
        }
        "InvalidBackendTLS" => Code::AttachBackendTlsPolicyInvalid,
        _ => Code::AttachBackendNotFound,
    }
}

impl RoutePrediction {
    /// `(parent, host, claimant)`: hosts listener isolation takes away from an accepting
    /// parentRef's listener. A host isolated away from one parentRef's listener is still
    /// served when another parentRef of the route attaches to the listener that claims it.
    fn isolated(&self) -> Vec<(&ParentStatus, &String, &String)> {
        let mut out = Vec::new();
        for p in &self.parents {
            if p.accepted.status != Status::True {
                continue;
            }
            let gateway = gateway_of(&p.parent);
            for (host, claimant) in &p.shadowed {
                let served_there = self.parents.iter().any(|q| {
                    q.accepted.status == Status::True
                        && gateway_of(&q.parent) == gateway
                        && q.listeners.contains(claimant)
                });
                if !served_there {
                    out.push((p, host, claimant));
                }
            }
        }
        out
    }

    /// The hosts requests for which reach another listener than the route's (listener
    /// isolation), for the equivalence check, which explains the 404s they get with it.
    pub(crate) fn isolated_hosts(&self) -> Vec<String> {
        self.isolated()
            .into_iter()
            .map(|(_, host, _)| host.clone())
            .collect()
    }

    /// Notes for the report, each with the status reason it stands for.
    pub(crate) fn findings(&self) -> Vec<(Diagnostic, String)> {
        let what = format!("{} {}/{}", self.kind, self.namespace, self.name);
        let mut out = Vec::new();
        if self.parents.is_empty() {
            out.push((
                Diagnostic::new(
                    Code::AttachNoParentRefs,
                    format!(
                        "{what} has no parentRefs: it attaches to no Gateway and serves no traffic"
                    ),
                )
                .at("spec.parentRefs"),
                "NoParentRefs".to_string(),
            ));
        }
        for p in &self.parents {
            let c = &p.accepted;
            let field = format!("spec.parentRefs[{}]", p.index);
            let note = match c.status {
                Status::True => Diagnostic::new(
                    Code::AttachAccepted,
                    format!(
                        "{what} parentRef {} would be Accepted=True{}, ResolvedRefs={}",
                        p.parent,
                        // A Service parent (GAMMA) has no listeners.
                        if p.listeners.is_empty() {
                            String::new()
                        } else {
                            format!(" (listeners {})", p.listeners.join(", "))
                        },
                        if self.resolved_refs.status == Status::True {
                            "True"
                        } else {
                            "False"
                        }
                    ),
                ),
                Status::False => Diagnostic::new(
                    reason_code(&c.reason),
                    format!(
                        "{what} parentRef {} would be Accepted=False ({}): {}",
                        p.parent, c.reason, c.message
                    ),
                ),
                Status::Unknown => Diagnostic::new(
                    Code::AttachParentUnknown,
                    format!("{what} parentRef {}: {}", p.parent, c.message),
                )
                .strict(self.strict),
            };
            out.push((note.at(field), c.reason.clone()));
        }
        for p in self.parents.iter().filter(|p| p.unprogrammed) {
            out.push((
                Diagnostic::new(
                    Code::AttachListenerNotProgrammed,
                    format!(
                        "{what} parentRef {} would be Accepted, but on listeners that are not programmed ({}): it serves no traffic there",
                        p.parent,
                        p.listeners.join(", ")
                    ),
                )
                .at(format!("spec.parentRefs[{}]", p.index)),
                "Programmed".to_string(),
            ));
        }
        for (p, host, claimant) in self.isolated() {
            let gateway = gateway_of(&p.parent);
            out.push((
                    Diagnostic::new(
                        Code::AttachListenerIsolation,
                        format!(
                            "{what}: requests for {host} go to listener {claimant} of Gateway {gateway}, the most specific one for that host (listener isolation), where this route is not attached: they get 404 there, though the route's wildcard listener matches them"
                        ),
                    )
                    .at(format!("spec.parentRefs[{}]", p.index)),
                    "ListenerIsolation".to_string(),
                ));
        }
        for b in &self.backend_issues {
            let c = &b.condition;
            let note = match c.status {
                Status::Unknown => Diagnostic::new(
                    Code::AttachBackendUnknown,
                    format!("{what} {}: {}", b.path, c.message),
                )
                .strict(self.strict),
                _ => Diagnostic::new(
                    reason_code(&c.reason),
                    format!(
                        "{what} {} would be ResolvedRefs=False ({}): {}",
                        b.path, c.reason, c.message
                    ),
                ),
            };
            out.push((note.at(b.path.clone()), c.reason.clone()));
        }
        out
    }
}

impl RoutePrediction {
    /// The conditions of each parentRef, in `status.parents` form.
    pub(crate) fn route_status(&self, route: &Value) -> super::status::RouteStatus {
        use super::status::{PredictedCondition, RouteParentStatus, RouteStatus};
        let refs: Vec<&Value> = items(route, "/spec/parentRefs").collect();
        let resolved = &self.resolved_refs;
        let parents = self
            .parents
            .iter()
            .map(|p| RouteParentStatus {
                parent_ref: refs.get(p.index).map(|v| (*v).clone()).unwrap_or_default(),
                conditions: std::iter::once(PredictedCondition::new(
                    "Accepted",
                    p.accepted.status,
                    &p.accepted.reason,
                    p.accepted.message.clone(),
                ))
                .chain((!self.resolved_refs_unset).then(|| {
                    PredictedCondition::new(
                        "ResolvedRefs",
                        resolved.status,
                        &resolved.reason,
                        resolved.message.clone(),
                    )
                }))
                .chain(self.partially_invalid.iter().map(|c| {
                    PredictedCondition::new(
                        "PartiallyInvalid",
                        c.status,
                        &c.reason,
                        c.message.clone(),
                    )
                }))
                .collect(),
            })
            .collect();
        RouteStatus {
            kind: self.kind.clone(),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
            parents,
        }
    }
}

/// The listeners that accept a route, and the `(host, listener)` pairs listener isolation
/// takes away from them ([`ParentStatus::shadowed`]).
type Accepting = (Vec<String>, Vec<(String, String)>);

/// `namespace/name` of a parent label (`ns/name/section:port`).
fn gateway_of(parent: &str) -> String {
    let base = parent.split(':').next().unwrap_or(parent);
    let mut parts = base.splitn(3, '/');
    match (parts.next(), parts.next()) {
        (Some(ns), Some(name)) => format!("{ns}/{name}"),
        _ => base.to_string(),
    }
}

/// The objects attachment is computed against.
pub(crate) struct World<'a> {
    index: &'a Index,
    config: &'a Config,
    /// Every definition of each Gateway: a repository may hold one per overlay or
    /// environment; a route is judged against the definition that suits it best.
    gateways: BTreeMap<(String, String), Vec<Value>>,
    /// ReferenceGrants by namespace.
    grants: BTreeMap<String, Vec<Value>>,
    backend_tls_policies: Vec<Value>,
    known_namespaces: BTreeSet<String>,
    /// Repository Gateways the API server would reject (schema or CEL): they never exist.
    rejected: BTreeSet<(String, String)>,
    /// `controllerName` of each GatewayClass of the repository.
    class_controllers: BTreeMap<String, String>,
    /// The programmed listeners of each definition of each Gateway (same order as
    /// `gateways`), computed once.
    programmed: BTreeMap<(String, String), Vec<Vec<String>>>,
}

/// The elements of the array at `pointer` in `v` (none when absent or not an array).
fn items<'v>(v: &'v Value, pointer: &str) -> impl Iterator<Item = &'v Value> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

fn namespace_of(v: &Value, default: &str) -> String {
    v.pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(default)
        .to_string()
}

impl<'a> World<'a> {
    /// The repository's objects plus `generated` (generated objects win over same-named ones).
    pub(crate) fn new<'g>(
        index: &'a Index,
        generated: impl Iterator<Item = &'g Value>,
        config: &'a Config,
    ) -> Self {
        let mut world = World {
            index,
            config,
            gateways: BTreeMap::new(),
            grants: BTreeMap::new(),
            backend_tls_policies: Vec::new(),
            known_namespaces: BTreeSet::new(),
            rejected: BTreeSet::new(),
            programmed: BTreeMap::new(),
            class_controllers: BTreeMap::new(),
        };
        for (obj, v) in index.gateway_api("Gateway") {
            if !super::validate_object(v, config.channel).is_empty() {
                world
                    .rejected
                    .insert((obj.namespace.clone(), obj.meta.name.clone()));
                continue;
            }
            world
                .gateways
                .entry((obj.namespace.clone(), obj.meta.name.clone()))
                .or_default()
                .push(v.clone());
        }
        for (obj, v) in index.gateway_api("GatewayClass") {
            if let Some(controller) = v.pointer("/spec/controllerName").and_then(Value::as_str) {
                world
                    .class_controllers
                    .insert(obj.meta.name.clone(), controller.to_string());
            }
        }
        for (_, v) in index.gateway_api("BackendTLSPolicy") {
            world.backend_tls_policies.push(v.clone());
        }
        for (obj, v) in index.gateway_api("ReferenceGrant") {
            world
                .grants
                .entry(obj.namespace.clone())
                .or_default()
                .push(v.clone());
        }
        for obj in &index.objects {
            match &obj.body {
                SourceBody::Namespace => {
                    world.known_namespaces.insert(obj.meta.name.clone());
                }
                SourceBody::Service(_) => {
                    world.known_namespaces.insert(obj.namespace.clone());
                }
                _ => {}
            }
        }
        for v in generated {
            let ns = namespace_of(v, &config.default_namespace);
            let name = v
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            match str_of(v, "kind") {
                Some("Gateway") => {
                    // A generated Gateway replaces the repository's definitions.
                    world.gateways.insert((ns, name), vec![v.clone()]);
                }
                Some("ReferenceGrant") => world.grants.entry(ns).or_default().push(v.clone()),
                Some("BackendTLSPolicy") => world.backend_tls_policies.push(v.clone()),
                _ => {}
            }
        }
        let programmed = world
            .gateways
            .iter()
            .map(|(key, definitions)| {
                let per_definition = definitions
                    .iter()
                    .map(|g| {
                        world
                            .gateway_status(g)
                            .listeners
                            .into_iter()
                            .filter(|l| {
                                l.conditions
                                    .iter()
                                    .any(|c| c.type_ == "Programmed" && c.status != Status::False)
                            })
                            .map(|l| l.name)
                            .collect()
                    })
                    .collect();
                (key.clone(), per_definition)
            })
            .collect();
        world.programmed = programmed;
        world
    }

    fn namespace_known(&self, ns: &str) -> bool {
        self.known_namespaces.contains(ns)
    }

    /// Predicts the status of every parentRef of `route`; `None` for non-route objects.
    pub(crate) fn predict(&self, route: &Value) -> Option<RoutePrediction> {
        let kind = str_of(route, "kind")?;
        if !ROUTE_KINDS.contains(&kind) {
            return None;
        }
        let ns = namespace_of(route, &self.config.default_namespace);
        let name = route
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let hostnames: Vec<String> = items(route, "/spec/hostnames")
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        let parents = items(route, "/spec/parentRefs")
            .enumerate()
            .map(|(i, p)| self.parent_status(kind, &ns, &hostnames, i, p))
            .collect();
        let mut parents: Vec<ParentStatus> = parents;
        let mut backend_issues = self.backend_issues(kind, &ns, route);
        let mut partially_invalid = None;
        let mut resolved_refs_unset = false;
        if self.config.target == Target::EnvoyGateway {
            let verdict = rules::verdict(kind, route);
            backend_issues.retain(|b| {
                !verdict
                    .backends_skipped
                    .iter()
                    .any(|ri| b.path.starts_with(&format!("spec.rules[{ri}].")))
            });
            for (path, reason, message) in verdict.refused_backends {
                backend_issues.push(BackendIssue {
                    path,
                    condition: Condition::new(Status::False, &reason, message),
                });
            }
            if let Some((reason, message, all)) = verdict.dropped {
                if all {
                    // The rules are processed for every parent of a Gateway the
                    // implementation manages, and their verdict is written last.
                    for p in parents
                        .iter_mut()
                        .filter(|p| p.accepted.reason != "ParentNotFound")
                    {
                        p.accepted = Condition::new(Status::False, &reason, message.clone());
                        p.listeners.clear();
                        p.shadowed.clear();
                        p.unprogrammed = false;
                    }
                    resolved_refs_unset = reason == "InvalidRule";
                } else {
                    partially_invalid = Some(Condition::new(Status::True, &reason, message));
                }
            }
        }
        // Several failures of one condition type are joined, sorted, as Envoy Gateway
        // writes them (status/error.go TypedErrorCollector).
        let failed: Vec<&Condition> = backend_issues
            .iter()
            .map(|b| &b.condition)
            .filter(|c| c.status == Status::False)
            .collect();
        let resolved_refs = if failed.is_empty() {
            Condition::new(Status::True, "ResolvedRefs", "all references resolved")
        } else {
            let mut reasons: Vec<&str> = failed.iter().map(|c| c.reason.as_str()).collect();
            reasons.sort_unstable();
            reasons.dedup();
            let messages: Vec<&str> = failed.iter().map(|c| c.message.as_str()).collect();
            Condition::new(Status::False, &reasons.join(","), messages.join("; "))
        };
        Some(RoutePrediction {
            kind: kind.to_string(),
            namespace: ns,
            name,
            parents,
            resolved_refs,
            resolved_refs_unset,
            partially_invalid,
            backend_issues,
            strict: self.config.strict,
        })
    }

    fn parent_status(
        &self,
        route_kind: &str,
        route_ns: &str,
        hostnames: &[String],
        index: usize,
        p: &Value,
    ) -> ParentStatus {
        let group = str_of(p, "group").unwrap_or(GROUP);
        let kind = str_of(p, "kind").unwrap_or("Gateway");
        let name = str_of(p, "name").unwrap_or_default();
        let ns = str_of(p, "namespace").unwrap_or(route_ns);
        let section = str_of(p, "sectionName");
        let port = p.get("port").and_then(Value::as_i64);
        let mut parent = format!("{ns}/{name}");
        if let Some(s) = section {
            parent.push_str(&format!("/{s}"));
        }
        if let Some(port) = port {
            parent.push_str(&format!(":{port}"));
        }
        let status = |accepted: Condition, listeners: Vec<String>| ParentStatus {
            index,
            parent: parent.clone(),
            accepted,
            listeners,
            shadowed: Vec::new(),
            unprogrammed: false,
        };
        if group.is_empty() && kind == "Service" {
            // Mesh (GAMMA) parent: attaches when the Service exists.
            return match self.index.service(ns, name) {
                Some(_) => status(
                    Condition::new(Status::True, "Accepted", "mesh Service parent"),
                    vec![],
                ),
                None if self.namespace_known(ns) || self.config.strict => status(
                    Condition::new(
                        Status::False,
                        "NoMatchingParent",
                        format!("Service {ns}/{name} does not exist"),
                    ),
                    vec![],
                ),
                None => status(
                    Condition::new(
                        Status::Unknown,
                        "ParentNotFound",
                        format!(
                            "Service {ns}/{name} is not in the repository; attachment cannot be predicted"
                        ),
                    ),
                    vec![],
                ),
            };
        }
        if group != GROUP || kind != "Gateway" {
            return status(
                Condition::new(
                    Status::Unknown,
                    "ParentNotFound",
                    format!("parent kind {group}/{kind} is not checked offline"),
                ),
                vec![],
            );
        }
        let key = (ns.to_string(), name.to_string());
        if !self.gateways.contains_key(&key) && self.rejected.contains(&key) {
            return status(
                Condition::new(
                    Status::False,
                    "ParentRejected",
                    format!(
                        "the API server would reject Gateway {ns}/{name} (see its validate findings), so the route attaches to nothing"
                    ),
                ),
                vec![],
            );
        }
        let Some(definitions) = self.gateways.get(&key) else {
            // Where the repository defines other Gateways, it manages that namespace's
            // Gateways: a missing one is a wrong name, not one kept elsewhere.
            let siblings: Vec<&str> = self
                .gateways
                .keys()
                .filter(|(gw_ns, _)| gw_ns == ns)
                .map(|(_, gw)| gw.as_str())
                .collect();
            if !siblings.is_empty() || self.config.strict {
                let why = if siblings.is_empty() {
                    format!("Gateway {ns}/{name} is not in the repository (--strict)")
                } else {
                    format!(
                        "Gateway {ns}/{name} does not exist: the repository defines the Gateways of namespace {ns} ({})",
                        siblings.join(", ")
                    )
                };
                return status(Condition::new(Status::False, "ParentNotFound", why), vec![]);
            }
            return status(
                Condition::new(
                    Status::Unknown,
                    "ParentNotFound",
                    format!(
                        "Gateway {ns}/{name} is not in the repository; attachment cannot be predicted"
                    ),
                ),
                vec![],
            );
        };
        let rank = |s: &Status| match s {
            Status::True => 0,
            Status::Unknown => 1,
            Status::False => 2,
        };
        let Some((definition, (accepted, (listeners, shadowed)))) = definitions
            .iter()
            .enumerate()
            .map(|(i, g)| {
                (
                    i,
                    self.attach_to_gateway(g, route_kind, route_ns, hostnames, ns, section, port),
                )
            })
            .min_by_key(|(_, (c, _))| rank(&c.status))
        else {
            return status(
                Condition::new(Status::Unknown, "ParentNotFound", "no definition"),
                vec![],
            );
        };
        // Envoy Gateway attaches a route to a listener that is not programmed all the same
        // (route.go processAllowedListenersForParentRefs does not look at its conditions):
        // Accepted, yet no traffic.
        let programmed = self
            .programmed
            .get(&key)
            .and_then(|p| p.get(definition))
            .map(Vec::as_slice)
            .unwrap_or_default();
        let unprogrammed = accepted.status == Status::True
            && !listeners.is_empty()
            && !listeners.iter().any(|l| programmed.contains(l));
        ParentStatus {
            shadowed,
            unprogrammed,
            ..status(accepted, listeners)
        }
    }

    /// Steps 1-3 of attachment against one Gateway definition.
    #[allow(clippy::too_many_arguments)]
    fn attach_to_gateway(
        &self,
        gateway: &Value,
        route_kind: &str,
        route_ns: &str,
        hostnames: &[String],
        ns: &str,
        section: Option<&str>,
        port: Option<i64>,
    ) -> (Condition, Accepting) {
        let status = |c: Condition, l: Vec<String>| (c, (l, Vec::new()));
        let listeners: Vec<&Value> = items(gateway, "/spec/listeners").collect();
        // 1. sectionName / port.
        let selected: Vec<&Value> = listeners
            .iter()
            .copied()
            .filter(|l| section.is_none_or(|s| str_of(l, "name") == Some(s)))
            .filter(|l| port.is_none_or(|p| l.get("port").and_then(Value::as_i64) == Some(p)))
            .collect();
        if selected.is_empty() {
            return status(
                Condition::new(
                    Status::False,
                    "NoMatchingParent",
                    "no listener matches this parentRef's sectionName/port",
                ),
                vec![],
            );
        }
        // 2. allowed kinds and namespaces.
        let mut allowed = Vec::new();
        let mut why_not = Vec::new();
        let mut unknown_namespace = false;
        for l in &selected {
            let lname = str_of(l, "name").unwrap_or_default();
            if !listener_allows_kind(l, route_kind) {
                why_not.push(format!("listener {lname} does not allow {route_kind}"));
                continue;
            }
            match self.listener_allows_namespace(l, ns, route_ns) {
                Status::True => allowed.push(*l),
                Status::False => why_not.push(format!(
                    "listener {lname} does not admit routes from namespace {route_ns}"
                )),
                Status::Unknown => unknown_namespace = true,
            }
        }
        if allowed.is_empty() {
            if unknown_namespace {
                return status(
                    Condition::new(
                        Status::Unknown,
                        "NotAllowedByListeners",
                        format!(
                            "the labels of Namespace {route_ns} are not in the repository; the listener selector cannot be evaluated"
                        ),
                    ),
                    vec![],
                );
            }
            return status(
                Condition::new(Status::False, "NotAllowedByListeners", why_not.join("; ")),
                vec![],
            );
        }
        // 3. hostnames with listener isolation.
        if !matches!(route_kind, "HTTPRoute" | "GRPCRoute" | "TLSRoute") {
            let names = allowed
                .iter()
                .map(|l| str_of(l, "name").unwrap_or_default().to_string())
                .collect();
            return status(Condition::new(Status::True, "Accepted", "accepted"), names);
        }
        let mut accepting = Vec::new();
        let mut shadowed = Vec::new();
        for l in &allowed {
            let hosts = listener_hosts(l, &listeners, hostnames);
            if !hosts.is_empty() {
                accepting.push(str_of(l, "name").unwrap_or_default().to_string());
            }
            // Hosts isolation took away: which sibling claims each.
            for h in hostnames
                .iter()
                .filter_map(|r| intersect(r, str_of(l, "hostname")))
                .filter(|h| !hosts.contains(h))
            {
                let same_port: Vec<&Value> = listeners
                    .iter()
                    .copied()
                    .filter(|o| o.get("port") == l.get("port"))
                    .collect();
                let claimant = if h.starts_with('*') {
                    same_port
                        .iter()
                        .copied()
                        .find(|o| str_of(o, "hostname") == Some(h.as_str()))
                } else {
                    crate::semantics::gateway_api::most_specific_listener(
                        same_port.iter().map(|o| str_of(o, "hostname")),
                        &h,
                    )
                    .map(|i| same_port[i])
                };
                if let Some(claimant) = claimant {
                    let pair = (
                        h.clone(),
                        str_of(claimant, "name").unwrap_or_default().to_string(),
                    );
                    if !shadowed.contains(&pair) {
                        shadowed.push(pair);
                    }
                }
            }
        }
        if accepting.is_empty() {
            return status(
                Condition::new(
                    Status::False,
                    "NoMatchingListenerHostname",
                    format!(
                        "route hostnames [{}] intersect no listener hostname (after listener isolation)",
                        hostnames.join(", ")
                    ),
                ),
                vec![],
            );
        }
        (
            Condition::new(Status::True, "Accepted", "accepted"),
            (accepting, shadowed),
        )
    }

    fn listener_allows_namespace(&self, l: &Value, gateway_ns: &str, route_ns: &str) -> Status {
        let allowed = l.get("allowedRoutes").unwrap_or(&Value::Null);
        let (labels, defined) = self.index.namespace_selector_labels(route_ns);
        match attach::namespaces_admit(allowed, gateway_ns, route_ns, &labels, defined) {
            Admission::Admitted => Status::True,
            Admission::Refused => Status::False,
            Admission::Unknown if self.config.strict => Status::False,
            Admission::Unknown => Status::Unknown,
        }
    }

    fn backend_issues(&self, route_kind: &str, route_ns: &str, route: &Value) -> Vec<BackendIssue> {
        let mut refs: Vec<(String, &Value)> = Vec::new();
        let rules = items(route, "/spec/rules").enumerate();
        for (ri, rule) in rules {
            collect_mirrors(rule.get("filters"), &format!("spec.rules[{ri}]"), &mut refs);
            for (bi, b) in rule
                .get("backendRefs")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let path = format!("spec.rules[{ri}].backendRefs[{bi}]");
                collect_mirrors(b.get("filters"), &path, &mut refs);
                refs.push((path, b));
            }
        }
        refs.into_iter()
            .filter_map(|(path, b)| {
                self.backend_condition(route_kind, route_ns, b)
                    .map(|condition| BackendIssue { path, condition })
            })
            .collect()
    }

    pub(crate) fn backend_condition(
        &self,
        route_kind: &str,
        route_ns: &str,
        b: &Value,
    ) -> Option<Condition> {
        let group = str_of(b, "group").unwrap_or("");
        let kind = str_of(b, "kind").unwrap_or("Service");
        let name = str_of(b, "name").unwrap_or_default();
        let ns = str_of(b, "namespace").unwrap_or(route_ns);
        let is_service = group.is_empty() && kind == "Service";
        let implementation_kind = match self.config.target {
            Target::Istio => group == "networking.istio.io" && kind == "Hostname",
            // Envoy Gateway checks group and kind apart (validate.go validateBackendRef):
            // any of its three groups with any of its three kinds.
            Target::EnvoyGateway => {
                matches!(
                    group,
                    "" | "multicluster.x-k8s.io" | "gateway.envoyproxy.io"
                ) && matches!(kind, "ServiceImport" | "Backend")
            }
            Target::Generic => false,
        } || (group == "multicluster.x-k8s.io"
            && kind == "ServiceImport");
        if !is_service && !implementation_kind {
            return Some(Condition::new(
                Status::False,
                "InvalidKind",
                format!(
                    "backend kind {}{kind} is not supported",
                    if group.is_empty() {
                        String::new()
                    } else {
                        format!("{group}/")
                    }
                ),
            ));
        }
        if ns != route_ns && !self.granted_from(ns, route_kind, route_ns, group, kind, name) {
            if !self.namespace_known(ns) && !self.config.strict {
                return Some(Condition::new(
                    Status::Unknown,
                    "RefNotPermitted",
                    format!(
                        "namespace {ns} is not in the repository; whether a ReferenceGrant there allows {route_kind} from {route_ns} to {kind} {name} cannot be checked"
                    ),
                ));
            }
            return Some(Condition::new(
                Status::False,
                "RefNotPermitted",
                format!(
                    "no ReferenceGrant in namespace {ns} allows {route_kind} from {route_ns} to {kind} {name}"
                ),
            ));
        }
        if !is_service {
            return None;
        }
        let Some(port) = b.get("port").and_then(Value::as_i64) else {
            return Some(Condition::new(
                Status::False,
                "PortNotSpecified",
                format!("the backendRef to Service {ns}/{name} has no port"),
            ));
        };
        // Of several definitions of the Service (independent units, examples), one that has
        // the port: which one is deployed next to this route is not known here.
        let definitions: Vec<&k8s::Service> = self.index.service_definitions(ns, name).collect();
        let chosen = definitions
            .iter()
            .copied()
            .find(|svc| {
                i32::try_from(port)
                    .ok()
                    .and_then(|p| k8s::find_port(svc, p))
                    .is_some()
            })
            .or_else(|| definitions.first().copied());
        match chosen {
            Some(svc) => {
                // The port must carry the route's transport: UDP for a UDPRoute, TCP (the
                // default) for every other kind (Envoy Gateway: validate.go
                // validateBackendRefService).
                let transport = if route_kind == "UDPRoute" {
                    "UDP"
                } else {
                    "TCP"
                };
                let found = i32::try_from(port)
                    .ok()
                    .and_then(|p| k8s::find_port(svc, p));
                // A protocol the API server would refuse (only TCP, UDP and SCTP exist) is
                // left to it.
                let carries = found.is_some_and(|p| {
                    let protocol = p.protocol.as_deref().unwrap_or("TCP");
                    !matches!(protocol, "UDP" | "SCTP" | "TCP") || protocol == transport
                });
                if !carries {
                    let why = match found {
                        Some(p) => format!(
                            "Service {ns}/{name} port {port} is {}, not {transport}",
                            p.protocol.as_deref().unwrap_or("TCP")
                        ),
                        None => format!("Service {ns}/{name} has no port {port}"),
                    };
                    return Some(Condition::new(Status::False, "PortNotFound", why));
                }
                // Envoy Gateway refuses ExternalName Services as backends
                // (validate.go validateBackendRefService, isServiceExternalName).
                let external =
                    svc.spec.as_ref().and_then(|s| s.type_.as_deref()) == Some("ExternalName");
                if external && self.config.target == Target::EnvoyGateway {
                    return Some(Condition::new(
                        Status::False,
                        "UnsupportedValue",
                        format!(
                            "Service {ns}/{name} is of type ExternalName, which Envoy Gateway does not take as a backend (use a Backend)"
                        ),
                    ));
                }
                // A backend of weight 0 is dropped before its BackendTLSPolicy is read
                // (route.go processDestination).
                if b.get("weight").and_then(Value::as_i64) == Some(0) {
                    return None;
                }
                let policy = self.backend_tls_policy(ns, name, Some(port))?;
                let (_, why) = self.ca_problem(policy)?;
                let policy_name = policy
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                Some(Condition::new(
                    Status::False,
                    "InvalidBackendTLS",
                    format!(
                        "BackendTLSPolicy {ns}/{policy_name} of Service {name} is invalid: {why}"
                    ),
                ))
            }
            None if self.namespace_known(ns) || self.config.strict => Some(Condition::new(
                Status::False,
                "BackendNotFound",
                format!("Service {ns}/{name} does not exist"),
            )),
            None => Some(Condition::new(
                Status::Unknown,
                "BackendNotFound",
                format!(
                    "Service {ns}/{name} is not in the repository; its existence cannot be checked"
                ),
            )),
        }
    }

    /// Whether a ReferenceGrant in `target_ns` lets `from_kind`s in `from_ns` refer to
    /// `group/kind name`.
    fn granted_from(
        &self,
        target_ns: &str,
        from_kind: &str,
        from_ns: &str,
        group: &str,
        kind: &str,
        name: &str,
    ) -> bool {
        self.grants.get(target_ns).into_iter().flatten().any(|g| {
            let from_ok = items(g, "/spec/from").any(|f| {
                str_of(f, "group") == Some(GROUP)
                    && str_of(f, "kind") == Some(from_kind)
                    && str_of(f, "namespace") == Some(from_ns)
            });
            let to_ok = items(g, "/spec/to").any(|t| {
                str_of(t, "group").unwrap_or("") == group
                    && str_of(t, "kind") == Some(kind)
                    && str_of(t, "name").is_none_or(|n| n.is_empty() || n == name)
            });
            from_ok && to_ok
        })
    }
}

fn collect_mirrors<'v>(filters: Option<&'v Value>, base: &str, out: &mut Vec<(String, &'v Value)>) {
    for (fi, f) in filters
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(b) = f.pointer("/requestMirror/backendRef") {
            out.push((format!("{base}.filters[{fi}].requestMirror.backendRef"), b));
        }
    }
}

/// Route kinds a listener supports: from its protocol (Envoy Gateway and Istio also take
/// TCPRoute on a TLS Terminate listener), narrowed by `allowedRoutes.kinds`.
fn listener_allows_kind(l: &Value, route_kind: &str) -> bool {
    let protocol = str_of(l, "protocol").unwrap_or_default();
    let mode = l.pointer("/tls/mode").and_then(Value::as_str);
    attach::protocol_kinds(protocol, mode).contains(&route_kind)
        && attach::kinds_admit(l.get("allowedRoutes").unwrap_or(&Value::Null), route_kind)
}

/// The hosts of `route_hosts` (all hosts when empty) that `listener` serves, minus those a
/// sibling listener on the same port names exactly (listener isolation).
pub(crate) fn listener_hosts(
    listener: &Value,
    all: &[&Value],
    route_hosts: &[String],
) -> Vec<String> {
    let lhost = str_of(listener, "hostname");
    let lport = listener.get("port").and_then(Value::as_i64);
    let lname = str_of(listener, "name");
    let mut hosts: Vec<String> = if route_hosts.is_empty() {
        vec![lhost.unwrap_or("*").to_string()]
    } else {
        route_hosts
            .iter()
            .filter_map(|r| intersect(r, lhost))
            .collect()
    };
    let same_port: Vec<&Value> = all
        .iter()
        .copied()
        .filter(|o| o.get("port").and_then(Value::as_i64) == lport)
        .collect();
    hosts.retain(|h| {
        if h.starts_with('*') {
            // A wildcard keeps the names under it a sibling does not name exactly.
            !same_port.iter().any(|other| {
                str_of(other, "name") != lname
                    && str_of(other, "hostname").is_some_and(|oh| oh == h && Some(oh) != lhost)
            })
        } else {
            // A name goes to the listener the behaviour model's isolation picks for it.
            let chosen = crate::semantics::gateway_api::most_specific_listener(
                same_port.iter().map(|o| str_of(o, "hostname")),
                h,
            );
            chosen.is_none_or(|i| {
                str_of(same_port[i], "name") == lname || str_of(same_port[i], "hostname") == lhost
            })
        }
    });
    hosts
}

// Hostname intersection has one implementation, in `semantics`.
pub(crate) use crate::semantics::hostname::intersect;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_route_without_parent_refs_is_reported() {
        let index = Index::default();
        let config = Config::default();
        let world = World::new(&index, std::iter::empty(), &config);
        let route = json!({"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
            "metadata": {"name": "r", "namespace": "web"}, "spec": {"rules": [{}]}});
        let findings = world.predict(&route).unwrap().findings();
        assert_eq!(findings.len(), 1);
        assert_eq!(
            findings[0].0.code,
            crate::diagnostic::Code::AttachNoParentRefs
        );
        assert_eq!(findings[0].0.severity, crate::diagnostic::Severity::Warning);
    }

    #[test]
    fn hostname_intersection_follows_the_spec() {
        assert_eq!(
            intersect("a.example.com", None).as_deref(),
            Some("a.example.com")
        );
        assert_eq!(
            intersect("a.example.com", Some("*.example.com")).as_deref(),
            Some("a.example.com")
        );
        assert_eq!(intersect("example.com", Some("*.example.com")), None);
        assert_eq!(
            intersect("*.example.com", Some("a.example.com")).as_deref(),
            Some("a.example.com")
        );
        assert_eq!(
            intersect("*.a.example.com", Some("*.example.com")).as_deref(),
            Some("*.a.example.com")
        );
        assert_eq!(intersect("b.other.com", Some("a.example.com")), None);
    }

    #[test]
    fn isolation_removes_hosts_a_sibling_names() {
        let wildcard = json!({"name": "wild", "port": 443, "hostname": "*.example.com"});
        let exact = json!({"name": "foo", "port": 443, "hostname": "foo.example.com"});
        let all = [&wildcard, &exact];
        assert!(listener_hosts(&wildcard, &all, &["foo.example.com".into()]).is_empty());
        assert_eq!(
            listener_hosts(&exact, &all, &["foo.example.com".into()]),
            vec!["foo.example.com"]
        );
        assert_eq!(
            listener_hosts(&wildcard, &all, &["bar.example.com".into()]),
            vec!["bar.example.com"]
        );
    }

    /// A wildcard sibling isolates too: requests for `foo.example.com` go to `*.example.com`,
    /// not to the catch-all listener (gateway_types.go, the most specific listener hostname).
    #[test]
    fn a_wildcard_sibling_takes_the_names_under_it_from_a_catch_all() {
        let any = json!({"name": "any", "port": 80});
        let wildcard = json!({"name": "wild", "port": 80, "hostname": "*.example.com"});
        let other_port = json!({"name": "alt", "port": 8080, "hostname": "*.example.com"});
        let all = [&any, &wildcard, &other_port];
        assert!(listener_hosts(&any, &all, &["foo.example.com".into()]).is_empty());
        assert_eq!(
            listener_hosts(&any, &all, &["foo.example.org".into()]),
            vec!["foo.example.org"]
        );
        assert_eq!(
            listener_hosts(&wildcard, &all, &["foo.example.com".into()]),
            vec!["foo.example.com"]
        );
    }
}
