//! Policies that check a request before a Gateway API data plane forwards it, for the
//! implementation whose profile reads them:
//!
//! - Envoy Gateway `SecurityPolicy` (`gateway.envoyproxy.io/v1alpha1`; envoyproxy/gateway
//!   v1.9.0 `api/v1alpha1/securitypolicy_types.go`, `authorization_types.go`,
//!   `basic_auth_types.go`, `ext_auth_types.go`). One policy applies to a request: the one
//!   targeting the matched route rule (`sectionName` = the rule's name) before the one
//!   targeting the route, before the one targeting the listener (`sectionName` = listener)
//!   before the one targeting the Gateway (`internal/gatewayapi/securitypolicy.go`: "a Policy
//!   targeting the most specific scope wins"); among equals the oldest, then by name.
//!   `authorization` evaluates its rules in order, the first matching decides, else
//!   `defaultAction` (Deny when unset); `basicAuth` checks the users of a Secret; `extAuth`
//!   asks a service, at `pathOverride`, or at `path` followed by the request's path, or at
//!   the request's path.
//! - Istio `AuthorizationPolicy` with `targetRefs` naming a Gateway (istio/api
//!   `security/v1beta1/authorization.proto`): it applies to every request the Gateway's proxy
//!   takes. DENY rules deny the requests they match; when ALLOW policies exist, a request
//!   matching none of their rules is denied; CUSTOM rules send the request to an extension
//!   provider. A rule matches when one `from` entry and one `to` entry (each: all its fields)
//!   match. Hosts match the `Host` header exactly, without case, or by a leading or trailing
//!   `*` (`pilot/pkg/security/authz/matcher/header.go` `HostMatcher`); paths exactly, by a
//!   leading or trailing `*`, `*` for any (`matcher/path.go` `PathMatcher`).
//!
//! - Envoy Gateway `BackendTrafficPolicy`, for its `timeout.http.requestTimeout` only
//!   (`api/v1alpha1/timeout_types.go`), with the same precedence.
//!
//! With the client address known the source checks are decided; without, they are recorded
//! as [`AccessCheck`]s. Anything else a policy asks (JWT, OIDC, CORS, other principals) is
//! listed as unevaluated.

use std::net::IpAddr;

use serde_json::Value;

use super::{Key, Profile, list, name_of, namespace_of, str_of};
use crate::semantics::cidr::{self, Cidr};
use crate::semantics::{AccessCheck, Request, auth_endpoint};

/// What one policy targets: a kind, a name in the policy's namespace, and a section.
#[derive(Debug, Clone)]
struct TargetRef {
    kind: String,
    name: String,
    section: Option<String>,
}

/// One policy the model reads.
#[derive(Debug, Clone)]
pub(crate) struct Policy {
    kind: PolicyKind,
    namespace: String,
    name: String,
    created: Option<String>,
    targets: Vec<TargetRef>,
    spec: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PolicyKind {
    EnvoySecurity,
    /// Envoy Gateway `BackendTrafficPolicy`: read for its request timeout.
    EnvoyTraffic,
    IstioAuthorization,
}

/// What the policies make of one request.
#[derive(Debug, Default)]
pub(crate) struct Verdict {
    /// Denied outright, with the reason.
    pub(crate) denied: Option<String>,
    pub(crate) checks: Vec<AccessCheck>,
    pub(crate) unevaluated: Vec<(String, Value)>,
}

/// Where a request was matched, for policy targeting.
pub(crate) struct Place<'a> {
    pub(crate) gateway: &'a Key,
    pub(crate) listener: &'a str,
    /// Kind and `namespace/name` of the route, and the matched rule's name.
    pub(crate) route: Option<(&'a str, &'a Key, Option<&'a str>)>,
}

impl Policy {
    /// The policy `v` is, when it is a kind the model reads.
    pub(crate) fn of(v: &Value, default_namespace: &str) -> Option<Policy> {
        let group = str_of(v, "apiVersion")?.rsplit_once('/')?.0;
        let kind = match (group, str_of(v, "kind")?) {
            ("gateway.envoyproxy.io", "SecurityPolicy") => PolicyKind::EnvoySecurity,
            ("gateway.envoyproxy.io", "BackendTrafficPolicy") => PolicyKind::EnvoyTraffic,
            ("security.istio.io", "AuthorizationPolicy") => PolicyKind::IstioAuthorization,
            _ => return None,
        };
        let spec = v.get("spec").cloned().unwrap_or(Value::Null);
        let refs = list(&spec, "targetRefs").chain(spec.get("targetRef"));
        let targets = refs
            .filter(|r| str_of(r, "group").unwrap_or_default() == "gateway.networking.k8s.io")
            .map(|r| TargetRef {
                kind: str_of(r, "kind").unwrap_or_default().to_string(),
                name: str_of(r, "name").unwrap_or_default().to_string(),
                section: str_of(r, "sectionName").map(str::to_string),
            })
            .collect();
        Some(Policy {
            kind,
            namespace: namespace_of(v, default_namespace),
            name: name_of(v),
            created: v
                .pointer("/metadata/creationTimestamp")
                .and_then(Value::as_str)
                .map(str::to_string),
            targets,
            spec,
        })
    }

    fn label(&self) -> String {
        let kind = match self.kind {
            PolicyKind::EnvoySecurity => "SecurityPolicy",
            PolicyKind::EnvoyTraffic => "BackendTrafficPolicy",
            PolicyKind::IstioAuthorization => "AuthorizationPolicy",
        };
        format!("{kind} {}/{}", self.namespace, self.name)
    }

    /// How specifically the policy targets `place` (higher wins), `None` when it does not.
    fn specificity(&self, place: &Place) -> Option<u8> {
        self.targets
            .iter()
            .filter_map(|t| {
                if let Some((kind, key, rule)) = place.route
                    && t.kind == kind
                    && (self.namespace.as_str(), t.name.as_str())
                        == (key.0.as_str(), key.1.as_str())
                {
                    return match &t.section {
                        None => Some(3),
                        Some(s) if Some(s.as_str()) == rule => Some(4),
                        Some(_) => None,
                    };
                }
                if t.kind == "Gateway"
                    && (self.namespace.as_str(), t.name.as_str())
                        == (place.gateway.0.as_str(), place.gateway.1.as_str())
                {
                    return match &t.section {
                        None => Some(1),
                        Some(s) if s == place.listener => Some(2),
                        Some(_) => None,
                    };
                }
                None
            })
            .max()
    }
}

/// The most specific Envoy Gateway policy of `kind` targeting `place` (among equals the
/// oldest, then by name).
fn envoy_policy<'p>(policies: &'p [Policy], kind: PolicyKind, place: &Place) -> Option<&'p Policy> {
    policies
        .iter()
        .filter(|p| p.kind == kind)
        .filter_map(|p| Some((p.specificity(place)?, p)))
        .max_by(|(sa, a), (sb, b)| {
            sa.cmp(sb)
                // Older first, then by name: the reverse wins `max_by`.
                .then_with(|| b.created.cmp(&a.created))
                .then_with(|| (&b.namespace, &b.name).cmp(&(&a.namespace, &a.name)))
        })
        .map(|(_, p)| p)
}

/// The request timeout an Envoy Gateway BackendTrafficPolicy gives the route at `place`
/// (`timeout.http.requestTimeout`; `internal/xds/translator/route.go`
/// `getEffectiveRequestTimeout` takes the route's own `timeouts.request` first).
pub(crate) fn envoy_request_timeout(policies: &[Policy], place: &Place) -> Option<String> {
    envoy_policy(policies, PolicyKind::EnvoyTraffic, place)?
        .spec
        .pointer("/timeout/http/requestTimeout")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// What `policies` make of `request`, matched at `place`, under `profile`.
pub(crate) fn verdict(
    policies: &[Policy],
    place: &Place,
    request: &Request,
    client: Option<IpAddr>,
    profile: Profile,
) -> Verdict {
    let mut out = Verdict::default();
    match profile {
        Profile::EnvoyGateway => {
            if let Some(p) = envoy_policy(policies, PolicyKind::EnvoySecurity, place) {
                envoy_security(p, request, client, &mut out);
            }
        }
        Profile::Istio => {
            let applying: Vec<&Policy> = policies
                .iter()
                .filter(|p| p.kind == PolicyKind::IstioAuthorization)
                .filter(|p| {
                    p.targets.iter().any(|t| t.kind == "Gateway") && p.specificity(place).is_some()
                })
                .collect();
            istio_authorization(&applying, request, client, &mut out);
        }
        Profile::Generic => {}
    }
    out
}

/// One Envoy Gateway SecurityPolicy's checks.
fn envoy_security(p: &Policy, request: &Request, client: Option<IpAddr>, out: &mut Verdict) {
    let label = p.label();
    for feature in ["apiKeyAuth", "cors", "csrf", "jwt", "oidc"] {
        if let Some(v) = p.spec.get(feature) {
            out.unevaluated
                .push((format!("{label} {feature}"), v.clone()));
        }
    }
    // `internal/xds/translator/httpfilters.go` `newOrderedHTTPFilter`: external
    // authorization (6) and basic authentication (8) run before the RBAC filter of
    // `authorization` (301), so a client the address rules refuse is asked for credentials
    // first: its answer depends on them, and the refusal is recorded, not decided.
    let credentials_first = p.spec.get("basicAuth").is_some() || p.spec.get("extAuth").is_some();
    if let Some(authz) = p.spec.get("authorization") {
        envoy_authorization(&label, authz, client, out);
        if out.denied.is_some() && credentials_first {
            out.denied = None;
            envoy_authorization(&label, authz, None, out);
        }
        if out.denied.is_some() {
            return;
        }
    }
    if let Some(basic) = p.spec.get("basicAuth") {
        let secret = basic.get("users").unwrap_or(&Value::Null);
        let ns = str_of(secret, "namespace").unwrap_or(&p.namespace);
        out.checks.push(AccessCheck::BasicAuth {
            scheme: "basic".into(),
            secret: format!("{ns}/{}", str_of(secret, "name").unwrap_or_default()),
        });
    }
    if let Some(ext) = p.spec.get("extAuth") {
        match ext_auth_url(ext, &p.namespace, &request.path) {
            Some(url) => out.checks.push(AccessCheck::ExternalAuth { url }),
            None => out
                .unevaluated
                .push((format!("{label} extAuth"), ext.clone())),
        }
    }
}

/// The URL Envoy Gateway's external authorization calls for a request to `path`.
fn ext_auth_url(ext: &Value, namespace: &str, path: &str) -> Option<String> {
    let (scheme, service) = match (ext.get("http"), ext.get("grpc")) {
        (Some(http), _) => ("http", http),
        (None, Some(grpc)) => ("grpc", grpc),
        _ => return None,
    };
    let backend = list(service, "backendRefs")
        .next()
        .or_else(|| service.get("backendRef"))?;
    let kind = str_of(backend, "kind").unwrap_or("Service");
    if kind != "Service" || !str_of(backend, "group").unwrap_or_default().is_empty() {
        return None;
    }
    let ns = str_of(backend, "namespace").unwrap_or(namespace);
    let port = backend.get("port")?.as_u64()?;
    let name = str_of(backend, "name")?;
    if scheme == "grpc" {
        return Some(format!("grpc://{name}.{ns}.svc.cluster.local:{port}"));
    }
    let target = match (str_of(service, "pathOverride"), str_of(service, "path")) {
        (Some(o), _) => o.to_string(),
        (None, Some(prefix)) => format!("{}{path}", prefix.trim_end_matches('/')),
        (None, None) => path.to_string(),
    };
    Some(auth_endpoint(&format!(
        "http://{name}.{ns}.svc.cluster.local:{port}{target}"
    )))
}

/// Envoy Gateway `authorization`: the first rule whose conditions hold decides.
fn envoy_authorization(label: &str, authz: &Value, client: Option<IpAddr>, out: &mut Verdict) {
    let default_allow = str_of(authz, "defaultAction") == Some("Allow");
    // Per rule: whether it allows, and its client ranges (`None`: any client).
    let mut rules: Vec<(bool, Option<Vec<Cidr>>)> = Vec::new();
    for rule in list(authz, "rules") {
        let allow = str_of(rule, "action") == Some("Allow");
        let principal = rule.get("principal");
        let other_principal = principal
            .and_then(Value::as_object)
            .is_some_and(|m| m.keys().any(|k| k != "clientCIDRs"));
        if rule.get("operation").is_some() || rule.get("cel").is_some() || other_principal {
            out.unevaluated
                .push((format!("{label} authorization"), authz.clone()));
            return;
        }
        let ranges = principal
            .and_then(|p| p.get("clientCIDRs"))
            .and_then(Value::as_array)
            .map(|a| cidr::parse_list(a.iter().filter_map(Value::as_str)));
        rules.push((allow, ranges));
    }
    decide_ranges(label, &rules, default_allow, client, out);
}

/// Decides (client known) or records (unknown) an ordered list of range rules ending in a
/// default: the shapes that are one allow-list or one deny-list become one check each.
fn decide_ranges(
    label: &str,
    rules: &[(bool, Option<Vec<Cidr>>)],
    default_allow: bool,
    client: Option<IpAddr>,
    out: &mut Verdict,
) {
    if let Some(ip) = client {
        let allowed = rules
            .iter()
            .find(|(_, r)| r.as_ref().is_none_or(|r| r.iter().any(|c| c.contains(ip))))
            .map_or(default_allow, |(allow, _)| *allow);
        if !allowed {
            out.denied = Some(label.to_string());
        }
        return;
    }
    // Rules before the first unconditional one; what follows it never runs.
    let mut decisive = Vec::new();
    let mut fallback = default_allow;
    for (allow, ranges) in rules {
        match ranges {
            Some(r) => decisive.push((*allow, r)),
            None => {
                fallback = *allow;
                break;
            }
        }
    }
    let denies: Vec<Cidr> = decisive
        .iter()
        .filter(|(a, _)| !a)
        .flat_map(|(_, r)| r.iter().copied())
        .collect();
    let allows: Vec<Cidr> = decisive
        .iter()
        .filter(|(a, _)| *a)
        .flat_map(|(_, r)| r.iter().copied())
        .collect();
    // Deny rules after an allow rule can only matter for clients the allow rule missed; the
    // two-list shape (denies first) is the one ingress-nginx has.
    let denies_first = decisive.iter().skip_while(|(a, _)| !a).all(|(a, _)| *a);
    if !denies_first {
        out.unevaluated.push((
            format!("{label} authorization"),
            Value::from("allow and deny rules interleaved"),
        ));
        return;
    }
    if !denies.is_empty() {
        out.checks.push(AccessCheck::SourceRange {
            allow: false,
            ranges: cidr::text(&sorted(denies)),
        });
    }
    match (fallback, allows.is_empty()) {
        // Everyone left is allowed: the allow rules change nothing.
        (true, _) => {}
        (false, false) => out.checks.push(AccessCheck::SourceRange {
            allow: true,
            ranges: cidr::text(&sorted(allows)),
        }),
        (false, true) => out.denied = Some(format!("{label}: every client is denied")),
    }
}

fn sorted(mut v: Vec<Cidr>) -> Vec<Cidr> {
    v.sort();
    v.dedup();
    v
}

/// Istio AuthorizationPolicies applying to the Gateway's proxy: CUSTOM, then DENY, then
/// ALLOW (`security/v1beta1/authorization.proto`, "Authorization Policy" evaluation order).
fn istio_authorization(
    policies: &[&Policy],
    request: &Request,
    client: Option<IpAddr>,
    out: &mut Verdict,
) {
    let action = |p: &Policy| str_of(&p.spec, "action").unwrap_or("ALLOW").to_string();
    for p in policies.iter().filter(|p| action(p) == "CUSTOM") {
        for rule in rules_of(p) {
            if operation_matches(rule, request) == Some(true) {
                let provider = p
                    .spec
                    .pointer("/provider/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                out.checks.push(AccessCheck::ExternalAuth {
                    url: format!("istio extension provider {provider}"),
                });
                break;
            }
        }
    }
    for p in policies.iter().filter(|p| action(p) == "DENY") {
        let label = p.label();
        for rule in rules_of(p) {
            match operation_matches(rule, request) {
                Some(false) => continue,
                None => {
                    out.unevaluated
                        .push((format!("{label} rule"), rule.clone()));
                    continue;
                }
                Some(true) => {}
            }
            match source_condition(rule) {
                Source::Any => {
                    out.denied = Some(label);
                    return;
                }
                Source::Ranges { inside, ranges } => match client {
                    Some(ip) if ranges.iter().any(|c| c.contains(ip)) == inside => {
                        out.denied = Some(label);
                        return;
                    }
                    Some(_) => {}
                    // Denied inside the ranges: only clients outside get through.
                    None => out.checks.push(AccessCheck::SourceRange {
                        allow: !inside,
                        ranges: cidr::text(&ranges),
                    }),
                },
                Source::Other => out
                    .unevaluated
                    .push((format!("{label} rule"), rule.clone())),
            }
        }
    }
    let allows: Vec<&&Policy> = policies.iter().filter(|p| action(p) == "ALLOW").collect();
    if allows.is_empty() {
        return;
    }
    let mut matched = false;
    for p in &allows {
        for rule in rules_of(p) {
            match (operation_matches(rule, request), source_condition(rule)) {
                (Some(true), Source::Any) => return,
                (
                    Some(true),
                    Source::Ranges {
                        inside: true,
                        ranges,
                    },
                ) => match client {
                    Some(ip) if ranges.iter().any(|c| c.contains(ip)) => return,
                    Some(_) => {}
                    None => {
                        out.checks.push(AccessCheck::SourceRange {
                            allow: true,
                            ranges: cidr::text(&ranges),
                        });
                        matched = true;
                    }
                },
                (Some(false), _) => {}
                _ => {
                    out.unevaluated
                        .push((format!("{} rule", p.label()), rule.clone()));
                    matched = true;
                }
            }
        }
    }
    if !matched {
        out.denied = Some("no ALLOW AuthorizationPolicy rule matches".into());
    }
}

fn rules_of(p: &Policy) -> impl Iterator<Item = &Value> {
    list(&p.spec, "rules")
}

enum Source {
    /// No `from`: every client.
    Any,
    /// Clients inside (or outside) these ranges.
    Ranges { inside: bool, ranges: Vec<Cidr> },
    /// Conditions the model does not read (principals, namespaces, several entries).
    Other,
}

/// The client condition of a rule, when it is at most one range list.
fn source_condition(rule: &Value) -> Source {
    let from: Vec<&Value> = list(rule, "from").collect();
    if rule.get("when").is_some() {
        return Source::Other;
    }
    match from.as_slice() {
        [] => Source::Any,
        [one] => {
            let Some(source) = one.get("source").and_then(Value::as_object) else {
                return Source::Other;
            };
            let entries = |v: &Value| {
                cidr::parse_list(v.as_array().into_iter().flatten().filter_map(Value::as_str))
            };
            match source.iter().collect::<Vec<_>>().as_slice() {
                [(k, v)] if k.as_str() == "remoteIpBlocks" => Source::Ranges {
                    inside: true,
                    ranges: entries(v),
                },
                [(k, v)] if k.as_str() == "notRemoteIpBlocks" => Source::Ranges {
                    inside: false,
                    ranges: entries(v),
                },
                _ => Source::Other,
            }
        }
        _ => Source::Other,
    }
}

/// Whether the rule's `to` holds for `request` (`None`: it tests what the model does not
/// read).
fn operation_matches(rule: &Value, request: &Request) -> Option<bool> {
    let to: Vec<&Value> = list(rule, "to").collect();
    if to.is_empty() {
        return Some(true);
    }
    let authority = request.authority();
    let mut any = false;
    for entry in to {
        let op = entry.get("operation").unwrap_or(&Value::Null);
        let strings = |key: &str| -> Option<Vec<&str>> {
            op.get(key)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
        };
        if op.get("ports").is_some() || op.get("notPorts").is_some() {
            return None;
        }
        let host_ok = |h: &str| host_matches(h, &authority);
        let path_ok = |p: &str| path_matches(p, &request.path);
        let method_ok = |m: &str| m == request.method;
        let holds = strings("hosts").is_none_or(|v| v.iter().any(|h| host_ok(h)))
            && strings("notHosts").is_none_or(|v| !v.iter().any(|h| host_ok(h)))
            && strings("paths").is_none_or(|v| v.iter().any(|p| path_ok(p)))
            && strings("notPaths").is_none_or(|v| !v.iter().any(|p| path_ok(p)))
            && strings("methods").is_none_or(|v| v.iter().any(|m| method_ok(m)))
            && strings("notMethods").is_none_or(|v| !v.iter().any(|m| method_ok(m)));
        any |= holds;
    }
    Some(any)
}

/// `HostMatcher`: `*` any; `*suffix`, `prefix*`, else exact; all without ASCII case.
fn host_matches(pattern: &str, authority: &str) -> bool {
    let (p, a) = (pattern.to_ascii_lowercase(), authority.to_ascii_lowercase());
    if p == "*" {
        true
    } else if let Some(suffix) = p.strip_prefix('*') {
        a.ends_with(suffix)
    } else if let Some(prefix) = p.strip_suffix('*') {
        a.starts_with(prefix)
    } else {
        a == p
    }
}

/// `PathMatcher`: `*` any; `*suffix`, `prefix*`, else exact.
fn path_matches(pattern: &str, path: &str) -> bool {
    if pattern == "*" {
        true
    } else if let Some(suffix) = pattern.strip_prefix('*') {
        path.ends_with(suffix)
    } else if let Some(prefix) = pattern.strip_suffix('*') {
        path.starts_with(prefix)
    } else {
        path == pattern
    }
}
