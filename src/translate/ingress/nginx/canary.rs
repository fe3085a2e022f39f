//! Canary Ingresses (`canary: "true"` with `canary-weight[-total]`, `canary-by-header[-value|
//! -pattern]`) are merged into the route of their primary Ingress — the non-canary Ingress in
//! the same namespace with the same host — as ingress-nginx does: a weight splits the primary
//! rule's backends, a header adds a more specific rule (header rules beat weights, the same
//! precedence as nginx's header > weight). `canary-by-cookie` has no equivalent.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{BackendRef, HttpHeaderMatch};

use super::super::ir::{IngressPlan, Rule};
use super::super::routes;
use super::{Annotations, field};

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
    let total = number("canary-weight-total", notes)
        .filter(|t| *t > 0)
        .unwrap_or(100);
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
    if header.is_some() && header_pattern.is_some() && header_value.is_none() {
        notes.push(
            Diagnostic::new(
                Code::NginxCanaryByHeaderPattern,
                "canary-by-header-pattern: matched as a RegularExpression header match, whose dialect is implementation-specific (nginx uses PCRE)",
            )
            .at(field("canary-by-header-pattern")),
        );
    }
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

/// Merges every canary plan into its primary. Canary hosts without a primary stay on the
/// canary's own route, with the header conditions applied, and are reported.
pub(crate) fn merge(plans: &mut [IngressPlan]) {
    for ci in 0..plans.len() {
        let Some(canary) = plans[ci].canary.clone() else {
            continue;
        };
        let canary_hosts = std::mem::take(&mut plans[ci].hosts);
        let mut kept = Vec::new();
        for host in canary_hosts {
            let primary = plans.iter().position(|p| {
                p.canary.is_none()
                    && p.namespace == plans[ci].namespace
                    && !p.passthrough
                    && p.hosts.iter().any(|h| h.host == host.host)
            });
            let host_label = host.host.clone().unwrap_or_else(|| "*".into());
            let Some(pi) = primary else {
                let mut standalone = host.clone();
                let mut rules = Vec::new();
                // Without a primary there is nothing for a `never` header or a weight to
                // fall back to.
                let alone = Canary {
                    weight: None,
                    ..canary.clone()
                };
                for r in &standalone.rules {
                    let header = header_rules(&alone, r, &r.backends);
                    if header.is_empty() {
                        rules.push(r.clone());
                    } else {
                        rules.extend(header);
                    }
                }
                standalone.rules = rules;
                routes::sort_rules(&mut standalone.rules);
                plans[ci].result.notes.push(
                    Diagnostic::new(
                        Code::NginxCanaryWithoutPrimary,
                        format!(
                            "canary Ingress has no primary (non-canary) Ingress for host {host_label} in namespace {} in the repository; its rules are translated on their own route",
                            plans[ci].namespace
                        ),
                    )
                    .at(&host.field),
                );
                kept.push(standalone);
                continue;
            };
            let primary_name = plans[pi].name.clone();
            let mut merged = 0;
            let mut notes = Vec::new();
            for crule in &host.rules {
                let Some(phost) = plans[pi].hosts.iter_mut().find(|h| h.host == host.host) else {
                    continue;
                };
                let Some(ppos) = phost
                    .rules
                    .iter()
                    .position(|r| r.path == crule.path && r.headers.is_empty())
                else {
                    notes.push(
                        Diagnostic::new(
                            Code::NginxCanaryPathNotInPrimary,
                            format!(
                                "canary path {:?} of host {host_label} has no matching path in primary Ingress {primary_name}; ingress-nginx ignores it, so it is not translated",
                                crule.source_path
                            ),
                        )
                        .at(&host.field),
                    );
                    continue;
                };
                if phost.rules[ppos].backends.len() > 1 {
                    notes.push(
                        Diagnostic::new(
                            Code::NginxCanaryDuplicate,
                            format!(
                                "path {:?} of host {host_label} already has a canary; ingress-nginx supports one canary per path, this one is not translated",
                                crule.source_path
                            ),
                        )
                        .at(&host.field),
                    );
                    continue;
                }
                let primary_rule = phost.rules[ppos].clone();
                let extra = header_rules(&canary, &primary_rule, &crule.backends);
                if let Some(w) = canary.weight.filter(|w| *w > 0) {
                    let rule = &mut phost.rules[ppos];
                    for b in &mut rule.backends {
                        b.weight = Some(canary.total - w);
                    }
                    for b in &crule.backends {
                        let mut b = b.clone();
                        b.weight = Some(w);
                        rule.backends.push(b);
                    }
                }
                phost.rules.splice(ppos + 1..ppos + 1, extra);
                routes::sort_rules(&mut phost.rules);
                merged += 1;
            }
            plans[ci].result.notes.extend(notes);
            if merged > 0 {
                let how = describe(&canary);
                plans[ci].result.notes.push(
                    Diagnostic::new(
                        Code::NginxCanaryMerged,
                        format!(
                            "canary for host {host_label} ({how}) merged into the route of primary Ingress {}/{primary_name}; this Ingress produces no route of its own for it",
                            plans[ci].namespace
                        ),
                    )
                    .at(&host.field),
                );
                let canary_name = plans[ci].name.clone();
                plans[pi].result.notes.push(Diagnostic::new(
                    Code::NginxCanaryMerged,
                    format!(
                        "host {host_label}: canary Ingress {canary_name} ({how}) merged into this route"
                    ),
                ));
            }
        }
        plans[ci].hosts = kept;
    }
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
