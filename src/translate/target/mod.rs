//! What the Standard Gateway API cannot say, written for the target implementation
//! (`--target`, [`crate::target`]): one file per resource and implementation. Today: the
//! access controls (allow- and deny-lists, basic and external authentication), written as an
//! Envoy Gateway SecurityPolicy or an Istio AuthorizationPolicy.
//!
//! *Never wider*: when the target has no resource for one of a route's access controls, or
//! the source's value cannot be carried over, nothing is written for the route and its rules
//! lose their backends and mirrors (Gateway API: a rule without backends answers 500), with
//! an error naming the control. A policy that covers more requests than the source's control
//! (Istio's, scoped by host and path on the whole Gateway) is written with a warning.

pub(crate) mod backend;
pub(crate) mod docs;
pub(crate) mod envoy_gateway;
pub(crate) mod istio;

use crate::config::{Config, Target};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{Generated, HttpRouteFilter};
use crate::target::{self as profiles, Support};
use crate::translated::{GrantRequest, SourceResult};

/// Gives each generated policy a name no other source's policy of the same kind has in its
/// namespace: the Istio and Ingress translators name theirs after their sources (a
/// VirtualService and an Ingress may share a name) and run apart, and a second object of the
/// same name would replace the first on apply. Policies are referenced by nothing, so a later
/// one (in source order) is renamed, with a note.
pub(crate) fn unique_policy_names(results: &mut [SourceResult]) {
    use crate::translate::ingress::names::{MAX_NAME, NameAllocator};
    use std::collections::BTreeSet;
    let key = |o: &crate::gwapi::Object<serde_json::Value>| {
        (
            o.metadata.namespace.clone().unwrap_or_default(),
            o.kind.clone(),
            o.metadata.name.clone(),
        )
    };
    // Every name in use is reserved, so a renamed policy takes none of them.
    let mut names = NameAllocator::default();
    for g in results.iter().flat_map(|r| &r.generated) {
        if let Generated::Policy(o) = g {
            let (ns, kind, name) = key(o);
            names.reserve(&ns, &kind, &name);
        }
    }
    let mut seen: BTreeSet<(String, String, String)> = BTreeSet::new();
    for r in results.iter_mut() {
        let mut renamed = Vec::new();
        for g in &mut r.generated {
            let Generated::Policy(o) = g else { continue };
            let (ns, kind, base) = key(o);
            if seen.insert((ns.clone(), kind.clone(), base.clone())) {
                continue;
            }
            let name = names.allocate(&ns, &kind, &base, MAX_NAME);
            seen.insert((ns.clone(), kind.clone(), name.clone()));
            o.metadata.name = name.clone();
            renamed.push(format!("{kind} {ns}/{base} → {name}"));
        }
        for what in renamed {
            r.notes.push(Diagnostic::new(
                Code::TargetPolicyRenamed,
                format!(
                    "{what}: another source's policy of that kind and name is generated in the same namespace"
                ),
            ));
        }
    }
}

/// One access control of a source object.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Control {
    pub(crate) kind: profiles::Control,
    pub(crate) detail: Detail,
    /// Where it comes from, for messages (`nginx.ingress.kubernetes.io/auth-url`, "the
    /// controller's ConfigMap whitelist-source-range").
    pub(crate) origin: String,
    /// The source field notes point at.
    pub(crate) field: String,
}

/// What the source says about one control.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Detail {
    /// Client ranges as `address/bits`, sorted.
    Ranges(Vec<String>),
    /// The Secret holding the users, and how they are stored there (`auth-file`: an
    /// htpasswd file under key `auth`; `auth-map`: a key per user).
    Secret {
        namespace: String,
        name: String,
        secret_type: String,
    },
    /// The authentication service's URL and the response headers passed to the backend.
    Endpoint {
        url: String,
        response_headers: Vec<String>,
    },
    /// What the source's data plane did cannot be carried by any target, and why (it could
    /// not read the value and denied every request; it checked another address than the new
    /// Gateway would).
    NotCarried(String),
}

/// How a route's paths are matched, for policies scoped by path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum PathScope {
    Exact(String),
    /// Gateway API `PathPrefix`: element-wise.
    Prefix(String),
    /// Anything the policy cannot scope by (a regular expression, a gRPC method).
    Any,
}

/// A generated route that forwards somewhere, as the policies need it.
#[derive(Debug, Clone)]
pub(crate) struct RouteScope {
    pub(crate) kind: String,
    pub(crate) namespace: String,
    pub(crate) name: String,
    /// `(namespace, name)` of the Gateways its parentRefs name.
    pub(crate) gateways: Vec<(String, String)>,
    pub(crate) hostnames: Vec<String>,
    pub(crate) paths: Vec<PathScope>,
}

impl RouteScope {
    /// The scope of a generated HTTPRoute or GRPCRoute with at least one backend.
    pub(crate) fn of(g: &Generated) -> Option<RouteScope> {
        let (kind, meta, parents, hostnames, paths, forwards) = match g {
            Generated::HttpRoute(o) => (
                "HTTPRoute",
                &o.metadata,
                &o.spec.parent_refs,
                &o.spec.hostnames,
                o.spec
                    .rules
                    .iter()
                    .flat_map(|r| {
                        let all = r
                            .matches
                            .is_empty()
                            .then_some(PathScope::Prefix("/".into()));
                        r.matches
                            .iter()
                            .map(|m| match &m.path {
                                Some(p) if p.type_ == "Exact" => PathScope::Exact(p.value.clone()),
                                Some(p) if p.type_ == "PathPrefix" => {
                                    PathScope::Prefix(p.value.clone())
                                }
                                Some(_) => PathScope::Any,
                                None => PathScope::Prefix("/".into()),
                            })
                            .chain(all)
                    })
                    .collect::<Vec<_>>(),
                o.spec.rules.iter().any(|r| !r.backend_refs.is_empty()),
            ),
            Generated::GrpcRoute(o) => (
                "GRPCRoute",
                &o.metadata,
                &o.spec.parent_refs,
                &o.spec.hostnames,
                vec![PathScope::Any],
                o.spec.rules.iter().any(|r| !r.backend_refs.is_empty()),
            ),
            _ => return None,
        };
        if !forwards {
            return None;
        }
        let namespace = meta.namespace.clone().unwrap_or_default();
        let mut gateways: Vec<(String, String)> = parents
            .iter()
            .filter(|p| p.kind.as_deref().is_none_or(|k| k == "Gateway"))
            .map(|p| {
                (
                    p.namespace.clone().unwrap_or_else(|| namespace.clone()),
                    p.name.clone(),
                )
            })
            .collect();
        gateways.sort();
        gateways.dedup();
        let mut paths = paths;
        paths.sort();
        paths.dedup();
        Some(RouteScope {
            kind: kind.to_string(),
            namespace,
            name: meta.name.clone(),
            gateways,
            hostnames: hostnames.clone(),
            paths,
        })
    }
}

/// What protecting one source object's routes produced.
#[derive(Debug, Default)]
pub(crate) struct Protection {
    pub(crate) generated: Vec<Generated>,
    pub(crate) notes: Vec<Diagnostic>,
    pub(crate) grants: Vec<GrantRequest>,
    /// The routes must not forward: the controls could not be written.
    pub(crate) fail_closed: bool,
}

/// Which GatewayClass each Gateway the routes may name has, and which controller serves
/// each GatewayClass the repository defines: a policy for a Gateway another implementation
/// serves is enforced by nobody.
#[derive(Debug, Default)]
pub(crate) struct Served {
    pub(crate) gateway_classes: std::collections::BTreeMap<(String, String), String>,
    pub(crate) class_controllers: std::collections::BTreeMap<String, String>,
    /// The repository's own Envoy Gateway policies and what they target.
    pub(crate) envoy_policies: Vec<ExistingPolicy>,
    /// Istio's `meshConfig.pathNormalization.normalization` (`BASE` unless the repository
    /// sets it).
    pub(crate) istio_path_normalization: String,
}

/// An Envoy Gateway policy the repository holds, by one of its `targetRefs`.
#[derive(Debug, Clone)]
pub(crate) struct ExistingPolicy {
    pub(crate) kind: String,
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) target_kind: String,
    pub(crate) target_name: String,
}

/// The repository's Envoy Gateway SecurityPolicies and BackendTrafficPolicies, one entry per
/// target.
pub(crate) fn envoy_policies(index: &crate::index::Index) -> Vec<ExistingPolicy> {
    let mut out = Vec::new();
    for obj in &index.objects {
        let crate::model::SourceBody::GatewayApi(doc) = &obj.body else {
            continue;
        };
        if !matches!(obj.kind.as_str(), "SecurityPolicy" | "BackendTrafficPolicy") {
            continue;
        }
        let spec = doc.get("spec");
        let refs = spec
            .and_then(|s| s.get("targetRefs"))
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .chain(spec.and_then(|s| s.get("targetRef")));
        for r in refs {
            let text = |k: &str| {
                r.get(k)
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
            };
            out.push(ExistingPolicy {
                kind: obj.kind.clone(),
                namespace: obj.namespace.clone(),
                name: obj.meta.name.clone(),
                target_kind: text("kind").to_string(),
                target_name: text("name").to_string(),
            });
        }
    }
    out
}

impl ExistingPolicy {
    /// Whether this policy targets route `r` itself.
    pub(crate) fn on_route(&self, r: &RouteScope) -> bool {
        self.namespace == r.namespace && self.target_kind == r.kind && self.target_name == r.name
    }

    /// Whether this policy targets Gateway `g`.
    pub(crate) fn on_gateway(&self, g: &(String, String)) -> bool {
        self.target_kind == "Gateway" && self.namespace == g.0 && self.target_name == g.1
    }
}

impl Served {
    /// Why the target would not enforce a policy on Gateway `key`, if it would not.
    fn not_served(&self, key: &(String, String), profile: &profiles::Profile) -> Option<String> {
        let class = self.gateway_classes.get(key)?;
        let gateway = format!("Gateway {}/{} (gatewayClassName {class})", key.0, key.1);
        match self.class_controllers.get(class) {
            Some(controller) if !profile.controllers.contains(&controller.as_str()) => {
                Some(format!(
                    "{gateway} is served by {controller}, not {}, which would ignore the policy",
                    profile.name
                ))
            }
            Some(_) => None,
            // Istio creates and serves its own class `istio` where the repository says nothing.
            None if class == "istio" && profile.own_class != Some("istio") => Some(format!(
                "{gateway} is Istio's own class, not {}'s, so the policy would not be enforced; set gatewayClassName (--gateway-class) to the class {} serves",
                profile.name, profile.name
            )),
            None => None,
        }
    }
}

/// Allocates a unique name: `(namespace, kind, wanted) -> name`.
pub(crate) type Namer<'a> = dyn FnMut(&str, &str, &str) -> String + 'a;

/// The target's policies for `controls` on `routes` (all from one source object, `source`
/// is its namespace and name), or the routes failing closed. `others` are other sources'
/// routes on the same hosts: a policy scoped by path leaves their more specific paths out.
pub(crate) fn protect(
    config: &Config,
    controls: &[Control],
    (routes, others): (&[RouteScope], &[&RouteScope]),
    served: &Served,
    source: (&str, &str),
    names: &mut Namer,
) -> Protection {
    let mut out = Protection::default();
    if controls.is_empty() || routes.is_empty() {
        return out;
    }
    let profile = profiles::profile(config.target);
    // Every control must be carried for the routes to open.
    let mut refused: Vec<(&Control, String)> = Vec::new();
    // Envoy Gateway attaches the oldest of two SecurityPolicies on one route and marks the
    // other Conflicted (internal/gatewayapi/securitypolicy.go
    // `resolveSecurityPolicyRouteTargetRef`): a policy written next to one the repository
    // already has on the route might never apply.
    let conflicting: Vec<String> = if config.target == Target::EnvoyGateway {
        served
            .envoy_policies
            .iter()
            .filter(|p| p.kind == "SecurityPolicy" && routes.iter().any(|r| p.on_route(r)))
            .map(|p| format!("SecurityPolicy {}/{} already targets {} {}, and Envoy Gateway applies only the oldest policy on a route", p.namespace, p.name, p.target_kind, p.target_name))
            .collect()
    } else {
        Vec::new()
    };
    let unserved: Vec<String> = routes
        .iter()
        .flat_map(|r| &r.gateways)
        .filter_map(|g| served.not_served(g, profile))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for c in controls {
        if let Detail::NotCarried(why) = &c.detail {
            refused.push((c, why.clone()));
            continue;
        }
        if !unserved.is_empty() && matches!(profile.support(c.kind), Support::Policy { .. }) {
            refused.push((c, unserved.join("; ")));
            continue;
        }
        if !conflicting.is_empty() && matches!(profile.support(c.kind), Support::Policy { .. }) {
            refused.push((c, conflicting.join("; ")));
            continue;
        }
        if let Support::FailsClosed { why } = profile.support(c.kind) {
            refused.push((
                c,
                format!(
                    "{} (--target {}) cannot keep {}: {why}",
                    profile.name,
                    profile.id,
                    c.kind.describe()
                ),
            ));
        }
    }
    if refused.is_empty() {
        let written = match config.target {
            Target::EnvoyGateway => {
                envoy_gateway::security_policy::write(controls, routes, source, names)
            }
            Target::Istio => istio::authorization_policy::write(
                controls,
                routes,
                others,
                (source, &served.istio_path_normalization),
                names,
            ),
            Target::Generic => Err(Vec::new()),
        };
        match written {
            Ok(mut p) => {
                p.notes
                    .extend(policy_caveats(config, routes, served, profile));
                return p;
            }
            Err(why) => refused = why.into_iter().map(|(i, w)| (&controls[i], w)).collect(),
        }
    }
    let names: Vec<String> = routes
        .iter()
        .map(|r| format!("{} {}/{}", r.kind, r.namespace, r.name))
        .collect();
    for (c, why) in refused {
        out.notes.push(
            Diagnostic::new(
                Code::TargetAccessFailsClosed,
                format!(
                    "{} ({}) is not written: {why}; so that access does not widen, {} {} written without backends (every request gets 500) until the control is carried over by hand",
                    c.origin,
                    c.kind.describe(),
                    names.join(", "),
                    if names.len() == 1 { "is" } else { "are" }
                ),
            )
            .at(c.field.clone()),
        );
    }
    out.fail_closed = true;
    out
}

/// What may still keep a written policy from applying as the source's control did: a
/// GatewayClass the repository does not define (nothing shows the target serves it), and
/// for Envoy Gateway a Gateway-level SecurityPolicy, which a route's own replaces on these
/// routes (`securitypolicy.go`: the most specific policy wins; without `mergeType` nothing
/// of the Gateway's is kept).
fn policy_caveats(
    config: &Config,
    routes: &[RouteScope],
    served: &Served,
    profile: &profiles::Profile,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let gateways: std::collections::BTreeSet<&(String, String)> =
        routes.iter().flat_map(|r| &r.gateways).collect();
    for g in &gateways {
        if let Some(class) = served.gateway_classes.get(*g)
            && !served.class_controllers.contains_key(class)
            && profile.own_class != Some(class.as_str())
        {
            out.push(Diagnostic::new(
                Code::TargetGatewayClassUnknown,
                format!(
                    "the policy holds only if {} serves Gateway {}/{}'s class {class}, and the repository does not define GatewayClass {class}: check its controllerName",
                    profile.name, g.0, g.1
                ),
            ));
        }
        if config.target == Target::EnvoyGateway {
            for p in served
                .envoy_policies
                .iter()
                .filter(|p| p.kind == "SecurityPolicy" && p.on_gateway(g))
            {
                out.push(Diagnostic::new(
                    Code::TargetGatewayPolicyOverridden,
                    format!(
                        "SecurityPolicy {}/{} targets Gateway {}/{}: Envoy Gateway applies only the most specific policy, so the routes' own SecurityPolicy replaces it for them; copy what it checks into the routes' policy",
                        p.namespace, p.name, g.0, g.1
                    ),
                ));
            }
        }
    }
    out
}

/// Takes the backends and mirrors out of every rule of the named routes in `generated`:
/// the rules still match, redirect and rewrite, but forward nothing.
pub(crate) fn close(generated: &mut [Generated], routes: &[RouteScope]) {
    let named = |kind: &str, ns: Option<&String>, name: &str| {
        routes
            .iter()
            .any(|r| r.kind == kind && Some(&r.namespace) == ns && r.name == name)
    };
    let keep = |f: &HttpRouteFilter| f.request_mirror.is_none();
    for g in generated {
        match g {
            Generated::HttpRoute(o)
                if named("HTTPRoute", o.metadata.namespace.as_ref(), &o.metadata.name) =>
            {
                for r in &mut o.spec.rules {
                    r.backend_refs.clear();
                    r.filters.retain(keep);
                }
            }
            Generated::GrpcRoute(o)
                if named("GRPCRoute", o.metadata.namespace.as_ref(), &o.metadata.name) =>
            {
                for r in &mut o.spec.rules {
                    r.backend_refs.clear();
                    r.filters.retain(keep);
                }
            }
            _ => {}
        }
    }
}

/// Every route attached to a Gateway some result closed (`SourceResult::closed_gateways`: an
/// Istio policy on the old gateway's pods the target cannot carry) loses its backends; an L4
/// route, which cannot be without them, is not written. Each route's source gets the error.
pub(crate) fn close_gateways(results: &mut [SourceResult]) {
    let closed: Vec<(String, String, String)> = results
        .iter()
        .flat_map(|r| r.closed_gateways.iter().cloned())
        .collect();
    if closed.is_empty() {
        return;
    }
    let why_closed = |ns: &str, parents: &[crate::gwapi::ParentReference]| {
        parents.iter().find_map(|p| {
            let pns = p.namespace.as_deref().unwrap_or(ns);
            closed
                .iter()
                .find(|(cns, cname, _)| cns == pns && *cname == p.name)
                .map(|(cns, cname, why)| format!("Gateway {cns}/{cname}: {why}"))
        })
    };
    for r in results.iter_mut() {
        let mut notes = Vec::new();
        let keep = |f: &HttpRouteFilter| f.request_mirror.is_none();
        r.generated.retain_mut(|g| {
            let ns = g.namespace().to_string();
            let label = format!("{} {ns}/{}", g.kind(), g.name());
            let why = match g {
                Generated::HttpRoute(o) => why_closed(&ns, &o.spec.parent_refs).inspect(|_| {
                    for rule in &mut o.spec.rules {
                        rule.backend_refs.clear();
                        rule.filters.retain(keep);
                    }
                }),
                Generated::GrpcRoute(o) => why_closed(&ns, &o.spec.parent_refs).inspect(|_| {
                    for rule in &mut o.spec.rules {
                        rule.backend_refs.clear();
                        rule.filters.retain(keep);
                    }
                }),
                Generated::TlsRoute(o) => why_closed(&ns, &o.spec.parent_refs),
                Generated::TcpRoute(o) => why_closed(&ns, &o.spec.parent_refs),
                _ => None,
            };
            let Some(why) = why else {
                return true;
            };
            let l4 = matches!(g, Generated::TlsRoute(_) | Generated::TcpRoute(_));
            notes.push(Diagnostic::new(
                Code::TargetAccessFailsClosed,
                format!(
                    "{label} attaches to {why}; so that access does not widen, {}",
                    if l4 {
                        "it is not written (a TCP or TLS route cannot be without backends)"
                    } else {
                        "it is written without backends (every request gets 500) until the check is carried over by hand"
                    }
                ),
            ).at("spec"));
            !l4
        });
        r.notes.extend(notes);
    }
}
