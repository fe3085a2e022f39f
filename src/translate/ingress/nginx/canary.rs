//! Canary Ingresses (`canary: "true"` with `canary-weight[-total]`, `canary-by-header[-value|
//! -pattern]`) are merged into the route of the primary location — the non-canary Ingress
//! path of the class with the same host, path and pathType, in any namespace — as
//! ingress-nginx does: a weight splits the primary
//! rule's backends, a header adds a more specific rule (header rules beat weights, the same
//! precedence as nginx's header > weight). `canary-by-cookie` has no equivalent.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{BackendRef, HttpHeaderMatch};

use super::super::ir::{IngressPlan, Rule};
use super::super::routes;
use super::{Annotations, field};
use crate::translate::GrantRequest;

pub(crate) const KEYS: &[&str] = &[
    "canary",
    "canary-weight",
    "canary-weight-total",
    "canary-by-header",
    "canary-by-header-value",
    "canary-by-header-pattern",
    "canary-by-cookie",
];

/// The canary settings of one Ingress.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Canary {
    pub weight: Option<u32>,
    pub total: u32,
    pub header: Option<String>,
    pub header_value: Option<String>,
    pub header_pattern: Option<String>,
}

pub(crate) fn read(plan: &mut IngressPlan, ann: &Annotations) {
    if ann.flag("canary") != Some(true) {
        let stray: Vec<&str> = KEYS[1..]
            .iter()
            .copied()
            .filter(|k| ann.get(k).is_some())
            .collect();
        if !stray.is_empty() {
            plan.result.notes.push(Diagnostic::new(
                Code::NginxCanaryWithoutCanary,
                format!(
                    "{} set without canary: \"true\"; they had no effect and are not translated",
                    stray.join(", ")
                ),
            ));
        }
        return;
    }
    let number = |key: &str, notes: &mut Vec<Diagnostic>| -> Option<u32> {
        let raw = ann.get(key)?;
        match raw.parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => {
                notes.push(
                    Diagnostic::new(
                        Code::NginxCanaryWeight,
                        format!("{key} {raw:?} is not a number; ignored"),
                    )
                    .at(field(key)),
                );
                None
            }
        }
    };
    let notes = &mut plan.result.notes;
    // balancer.lua route_to_alternative_balancer: the total is 100 unless the annotation
    // says more (a smaller total is ignored).
    let total = number("canary-weight-total", notes).unwrap_or(100).max(100);
    let weight = number("canary-weight", notes).map(|w| w.min(total));
    let header = ann
        .get("canary-by-header")
        .filter(|h| !h.is_empty())
        .map(str::to_string);
    let header = match header {
        Some(h) if !valid_header_name(&h) => {
            notes.push(
                Diagnostic::new(
                    Code::NginxCanaryByHeader,
                    format!("canary-by-header {h:?} is not a valid HTTP header name; the header canary is not translated"),
                )
                .at(field("canary-by-header")),
            );
            None
        }
        other => other,
    };
    let header_pattern = ann
        .get("canary-by-header-pattern")
        .filter(|h| !h.is_empty())
        .map(str::to_string);
    let header_value = ann
        .get("canary-by-header-value")
        .filter(|h| !h.is_empty())
        .map(str::to_string);
    if ann.get("canary-by-cookie").is_some() {
        notes.push(
            Diagnostic::new(
                Code::NginxCanaryByCookie,
                "canary-by-cookie: Gateway API cannot match cookies; requests with the cookie no longer reach the canary",
            )
            .at(field("canary-by-cookie")),
        );
    }
    // balancer.lua: `ngx.re.match(value, pattern)`, an unanchored PCRE search; Gateway API
    // header regexes match the whole value, so the pattern is wrapped in `.*(?:…).*`.
    let header_pattern = match header_pattern {
        Some(p) if header.is_some() && header_value.is_none() => {
            if regex::Regex::new(&p).is_ok() {
                notes.push(
                    Diagnostic::new(
                        Code::NginxCanaryByHeaderPattern,
                        format!(
                            "canary-by-header-pattern {p:?}: nginx searched the header value (unanchored PCRE); the RegularExpression header match is .*(?:{p}).*, which matches the whole value the same way"
                        ),
                    )
                    .at(field("canary-by-header-pattern")),
                );
                Some(format!(".*(?:{p}).*"))
            } else {
                notes.push(
                    Diagnostic::new(
                        Code::NginxPcreOnlyRegex,
                        format!(
                            "canary-by-header-pattern {p:?} uses PCRE syntax that RE2-style engines (Envoy, Istio) reject (lookaround, backreferences, possessive quantifiers); the header canary is not translated, so requests with the header no longer reach the canary"
                        ),
                    )
                    .at(field("canary-by-header-pattern")),
                );
                None
            }
        }
        other => other,
    };
    let header = if header_pattern.is_none()
        && header_value.is_none()
        && ann
            .get("canary-by-header-pattern")
            .is_some_and(|p| !p.is_empty())
    {
        // A pattern RE2 rejects: nginx compared against the pattern only, never against
        // `always`/`never`.
        None
    } else {
        header
    };
    plan.canary = Some(Canary {
        weight,
        total,
        header,
        header_value,
        header_pattern,
    });
}

/// The CRD's `HeaderName` rule.
fn valid_header_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 256
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// The header rules a canary adds next to `primary`: each routes to `canary_backends`, except
/// the `never` rule, which pins the primary backends.
fn header_rules(c: &Canary, primary: &Rule, canary_backends: &[BackendRef]) -> Vec<Rule> {
    let Some(name) = &c.header else {
        return Vec::new();
    };
    let with = |type_: &str, value: &str, backends: &[BackendRef]| {
        let mut r = primary.clone();
        r.headers.push(HttpHeaderMatch {
            type_: type_.into(),
            name: name.clone(),
            value: value.into(),
        });
        r.backends = backends.to_vec();
        r
    };
    if let Some(v) = &c.header_value {
        vec![with("Exact", v, canary_backends)]
    } else if let Some(p) = &c.header_pattern {
        vec![with("RegularExpression", p, canary_backends)]
    } else {
        let mut rules = vec![with("Exact", "always", canary_backends)];
        if c.weight.is_some_and(|w| w > 0) {
            rules.push(with("Exact", "never", &primary.backends));
        }
        rules
    }
}

/// Merges every canary plan into the primary location of the same host, path and pathType,
/// in whichever Ingress and namespace of the class it is (`controller.go`
/// `mergeAlternativeBackends`; pathTypes were normalised, so ImplementationSpecific is
/// Prefix). A canary path with no such location, or a host no primary Ingress serves, was
/// ignored by ingress-nginx and is not translated.
pub(crate) fn merge(plans: &mut [IngressPlan]) {
    let order = super::servers::nginx_order(plans);
    // Canaries are merged in the order ingress-nginx reads them (store.go sortIngressSlice),
    // and a location takes only the first (balancer.lua uses alternative_backends[1]).
    let mut canaries: Vec<usize> = (0..plans.len())
        .filter(|&i| plans[i].canary.is_some())
        .collect();
    canaries.sort_by(|&a, &b| {
        super::servers::read_order(&plans[a]).cmp(&super::servers::read_order(&plans[b]))
    });
    let mut taken: std::collections::BTreeSet<(usize, Option<String>, String, String)> =
        std::collections::BTreeSet::new();
    // (primary upstream, canary, its backends, its namespace, canary plan) of every merge.
    let mut shared: Vec<(Upstream, Canary, Vec<BackendRef>, String, usize)> = Vec::new();
    for ci in canaries {
        let Some(canary) = plans[ci].canary.clone() else {
            continue;
        };
        let canary_hosts = std::mem::take(&mut plans[ci].hosts);
        let canary_ns = plans[ci].namespace.clone();
        let canary_name = plans[ci].name.clone();
        let class = plans[ci].class.controller_group();
        for host in canary_hosts {
            let host_label = host.host.clone().unwrap_or_else(|| "*".into());
            let primaries: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&pi| {
                    plans[pi].class.controller_group() == class
                        && !plans[pi].passthrough
                        && plans[pi].hosts.iter().any(|h| h.host == host.host)
                })
                .collect();
            if primaries.is_empty() {
                plans[ci].result.notes.push(
                    Diagnostic::new(
                        Code::NginxCanaryWithoutPrimary,
                        format!(
                            "canary Ingress: no primary (non-canary) Ingress of the class serves host {host_label} in the repository; ingress-nginx merges canaries only into an existing server and ignored this one, so nothing is translated for it"
                        ),
                    )
                    .at(&host.field),
                );
                continue;
            }
            let mut merged_into = std::collections::BTreeSet::new();
            for crule in &host.rules {
                let found = primaries.iter().find_map(|&pi| {
                    let hi = plans[pi].hosts.iter().position(|h| h.host == host.host)?;
                    let ri = plans[pi].hosts[hi].rules.iter().position(|r| {
                        r.source_path == crule.source_path
                            && r.source_type == crule.source_type
                            && r.headers.is_empty()
                            && r.redirect.is_none()
                    })?;
                    Some((pi, hi, ri))
                });
                let Some((pi, hi, ri)) = found else {
                    plans[ci].result.notes.push(
                        Diagnostic::new(
                            Code::NginxCanaryPathNotInPrimary,
                            format!(
                                "canary path {:?} ({}) of host {host_label} has no path of the same pathType in any primary Ingress of the class; ingress-nginx ignores it, so it is not translated",
                                crule.source_path, crule.source_type
                            ),
                        )
                        .at(&crule.field),
                    );
                    continue;
                };
                let slot = (
                    pi,
                    host.host.clone(),
                    crule.source_path.clone(),
                    crule.source_type.clone(),
                );
                if !taken.insert(slot) {
                    plans[ci].result.notes.push(
                        Diagnostic::new(
                            Code::NginxCanaryDuplicate,
                            format!(
                                "path {:?} of host {host_label} already has a canary; ingress-nginx supports one canary per path, this one is not translated",
                                crule.source_path
                            ),
                        )
                        .at(&crule.field),
                    );
                    continue;
                }
                // The primary's upstream, read before the split (which re-sorts the rules): a
                // location with one Service backend, whatever the canary splits by (weight or
                // header).
                let primary = &plans[pi].hosts[hi].rules[ri];
                let upstream = (primary.backends.len() == 1)
                    .then(|| upstream_of(&primary.backends[0], &plans[pi].namespace));
                split(&mut plans[pi], hi, ri, &canary, &crule.backends, &canary_ns);
                if let Some(up) = upstream {
                    shared.push((
                        up,
                        canary.clone(),
                        crule.backends.clone(),
                        canary_ns.clone(),
                        ci,
                    ));
                }
                merged_into.insert(pi);
            }
            let how = describe(&canary);
            for pi in merged_into {
                let primary = format!("{}/{}", plans[pi].namespace, plans[pi].name);
                plans[ci].result.notes.push(
                    Diagnostic::new(
                        Code::NginxCanaryMerged,
                        format!(
                            "canary for host {host_label} ({how}) merged into the route of primary Ingress {primary}; this Ingress produces no route of its own for it"
                        ),
                    )
                    .at(&host.field),
                );
                plans[pi].result.notes.push(Diagnostic::new(
                    Code::NginxCanaryMerged,
                    format!(
                        "host {host_label}: canary Ingress {canary_ns}/{canary_name} ({how}) merged into this route"
                    ),
                ));
            }
        }
    }
    // The canary attaches to the primary location's upstream (namespace, Service, port), not
    // to the location: every other path routed to that Service splits alike (controller.go
    // mergeAlternativeBackend appends to the upstream; balancer.lua picks by upstream).
    for (up, canary, backends, canary_ns, ci) in shared {
        let class = plans[ci].class.controller_group();
        let mut also = Vec::new();
        for (pi, plan) in plans.iter_mut().enumerate() {
            if plan.canary.is_some()
                || plan.passthrough
                || plan.class.controller_group() != class
                || !plan.class.reads_nginx_annotations()
            {
                continue;
            }
            for hi in 0..plan.hosts.len() {
                // Targets first: a split inserts header rules and re-sorts the host's rules.
                let targets: Vec<(String, String)> = plan.hosts[hi]
                    .rules
                    .iter()
                    .filter(|r| {
                        r.backends.len() == 1
                            && r.headers.is_empty()
                            && r.redirect.is_none()
                            && upstream_of(&r.backends[0], &plan.namespace) == up
                    })
                    .map(|r| (r.source_path.clone(), r.source_type.clone()))
                    .collect();
                for (source_path, source_type) in targets {
                    let slot = (
                        pi,
                        plan.hosts[hi].host.clone(),
                        source_path.clone(),
                        source_type.clone(),
                    );
                    if !taken.insert(slot) {
                        continue;
                    }
                    let Some(ri) = plan.hosts[hi].rules.iter().position(|r| {
                        r.source_path == source_path
                            && r.source_type == source_type
                            && r.headers.is_empty()
                            && r.backends.len() == 1
                    }) else {
                        continue;
                    };
                    let label = format!(
                        "{} {source_path}",
                        plan.hosts[hi].host.as_deref().unwrap_or("*")
                    );
                    split(plan, hi, ri, &canary, &backends, &canary_ns);
                    also.push((pi, label));
                }
            }
        }
        for (pi, label) in also {
            let canary_name = format!("{}/{}", plans[ci].namespace, plans[ci].name);
            plans[pi].result.notes.push(Diagnostic::new(
                Code::NginxCanaryUpstreamWide,
                format!(
                    "{label}: canary Ingress {canary_name} applies here too: ingress-nginx attaches a canary to the Service (upstream {}/{}:{}), so every path routed to it splits the same way",
                    up.0, up.1, up.2.map_or("-".to_string(), |p| p.to_string())
                ),
            ));
        }
    }
}

/// An nginx upstream: namespace, Service, port.
type Upstream = (String, String, Option<u32>);

fn upstream_of(b: &BackendRef, plan_namespace: &str) -> Upstream {
    (
        b.namespace
            .clone()
            .unwrap_or_else(|| plan_namespace.to_string()),
        b.name.clone(),
        b.port,
    )
}

/// Splits rule `ri` of host `hi` of `plan` with a canary whose backends live in
/// `canary_ns`: weights on the rule, header rules beside it; a ReferenceGrant request when
/// the namespaces differ.
fn split(
    plan: &mut IngressPlan,
    hi: usize,
    ri: usize,
    canary: &Canary,
    backends: &[BackendRef],
    canary_ns: &str,
) {
    let primary_ns = plan.namespace.clone();
    let route_kind = match plan.kind {
        super::super::ir::RouteKind::Grpc => "GRPCRoute",
        super::super::ir::RouteKind::Http => "HTTPRoute",
    };
    // The canary's Services live in the canary's namespace.
    let canary_backends: Vec<BackendRef> = backends
        .iter()
        .map(|b| {
            let mut b = b.clone();
            if primary_ns != canary_ns && b.namespace.is_none() {
                b.namespace = Some(canary_ns.to_string());
            }
            b
        })
        .collect();
    if primary_ns != canary_ns {
        for b in &canary_backends {
            plan.result.grants.push(GrantRequest {
                from_kind: route_kind.into(),
                from_namespace: primary_ns.clone(),
                to_group: b.group.clone().unwrap_or_default(),
                to_kind: b.kind.clone().unwrap_or_else(|| "Service".into()),
                to_namespace: canary_ns.to_string(),
                to_name: b.name.clone(),
            });
        }
    }
    let Some(host) = plan.hosts.get_mut(hi) else {
        return;
    };
    let Some(primary_rule) = host.rules.get(ri).cloned() else {
        return;
    };
    let extra = header_rules(canary, &primary_rule, &canary_backends);
    if let Some(w) = canary.weight.filter(|w| *w > 0) {
        let rule = &mut host.rules[ri];
        for b in &mut rule.backends {
            b.weight = Some(canary.total - w);
        }
        for b in &canary_backends {
            let mut b = b.clone();
            b.weight = Some(w);
            rule.backends.push(b);
        }
    }
    host.rules.splice(ri + 1..ri + 1, extra);
    routes::sort_rules(&mut host.rules);
}

fn describe(c: &Canary) -> String {
    let mut parts = Vec::new();
    if let Some(w) = c.weight {
        parts.push(format!("weight {w}/{}", c.total));
    }
    if let Some(h) = &c.header {
        match (&c.header_value, &c.header_pattern) {
            (Some(v), _) => parts.push(format!("header {h}: {v}")),
            (None, Some(p)) => parts.push(format!("header {h} ~ {p}")),
            (None, None) => parts.push(format!("header {h}: always|never")),
        }
    }
    if parts.is_empty() {
        "weight 0: no traffic".into()
    } else {
        parts.join(", ")
    }
}
