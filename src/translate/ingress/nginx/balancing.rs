//! ingress-nginx's choice of backend endpoint, for a target that carries it (Envoy Gateway's
//! BackendTrafficPolicy `loadBalancer`; elsewhere the annotations are reported): session
//! affinity by cookie, `upstream-hash-by`, and the `load-balance` algorithm.
//!
//! These are settings of the *upstream* (one per Service and port of a namespace), not of the
//! Ingress (`controller/controller.go`): `createUpstreams` takes `load-balance` (else the
//! ConfigMap's) and `upstream-hash-by` from the first Ingress, in nginx's read order, that
//! names the Service; `getBackendServers` takes the affinity type and mode from the first
//! Ingress that sets them and the cookie's settings from the last one with `affinity: cookie`.
//! So another Ingress's annotations can decide how this one's requests are balanced.
//!
//! `rootfs/etc/nginx/lua/balancer.lua` `get_implementation` picks, in this order: a sticky
//! cookie (`affinity: cookie`; `balancer/sticky.lua`), a consistent hash of
//! `upstream-hash-by` (`chash`, or `chashsubset` with `upstream-hash-by-subset`), else the
//! algorithm (`round_robin` by default, or `ewma`).
//!
//! The sticky cookie (`sticky.lua` `set_cookie`): named `session-cookie-name` (default
//! `INGRESSCOOKIE`, `annotations/sessionaffinity/main.go`), `Path` the `session-cookie-path` or
//! the location's path, `HttpOnly`, `Secure` when `session-cookie-secure` says so (unset: when
//! the request came over HTTPS), `SameSite`, `Domain`, `Expires` and `Max-Age` from the
//! annotations; no `Expires`/`Max-Age` makes it a session cookie. Envoy's consistent hash on a
//! cookie with a `ttl` sets such a cookie itself (`0s`: a session cookie), always `HttpOnly`.

use std::collections::BTreeMap;

use crate::diagnostic::{Code, Diagnostic};
use crate::translate::target::backend::{Balancing, BalancingPlan};

use super::super::ir::IngressPlan;
use super::{Annotations, PREFIX, field};

pub(crate) const KEYS: &[&str] = &[
    "affinity",
    "affinity-mode",
    "session-cookie-name",
    "session-cookie-path",
    "session-cookie-expires",
    "session-cookie-max-age",
    "session-cookie-secure",
    "session-cookie-samesite",
    "session-cookie-domain",
    "load-balance",
    "upstream-hash-by",
];

/// The ConfigMap keys read here.
pub(crate) const SETTINGS: &[&str] = &["load-balance"];

/// The sticky cookie's settings, as one Ingress's annotations give them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Cookie {
    name: String,
    path: Option<String>,
    expires: Option<String>,
    max_age: Option<String>,
    secure: Option<bool>,
    samesite: Option<String>,
    domain: Option<String>,
    conditional_samesite_none: bool,
    change_on_failure: bool,
}

/// What one Ingress's annotations say about its upstreams.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Upstream {
    /// `load-balance`, else the ConfigMap's (`None`: ingress-nginx's `round_robin`).
    load_balance: Option<String>,
    hash_by: Option<String>,
    hash_subset: bool,
    /// `affinity` (only `cookie` exists) and `affinity-mode` (`balanced`, `persistent`).
    affinity: Option<String>,
    mode: Option<String>,
    cookie: Option<Cookie>,
    /// The ConfigMap key that made `$remote_addr` the forwarded client address
    /// ([`super::forwarded_client_address`]).
    forwarded: Option<&'static str>,
}

/// The value of annotation `key` as ingress-nginx's parser reads it: set, not empty, and
/// accepted by its validator (a refused value falls back to the default,
/// `annotations/sessionaffinity/main.go`, `loadbalancing`, `upstreamhashby`).
fn valid<'a>(ann: &'a Annotations, key: &str) -> Option<&'a str> {
    ann.get(key)
        .filter(|v| !v.is_empty())
        .filter(|v| crate::semantics::ingress_nginx::annotation_value_valid(key, v))
}

/// This Ingress's view of its upstreams.
pub(crate) fn read(ann: &Annotations, settings: Option<&BTreeMap<String, String>>) -> Upstream {
    let affinity = valid(ann, "affinity").map(str::to_string);
    let cookie = (affinity.as_deref() == Some("cookie")).then(|| Cookie {
        name: valid(ann, "session-cookie-name")
            .unwrap_or("INGRESSCOOKIE")
            .to_string(),
        path: valid(ann, "session-cookie-path").map(str::to_string),
        expires: valid(ann, "session-cookie-expires").map(str::to_string),
        max_age: valid(ann, "session-cookie-max-age").map(str::to_string),
        secure: valid(ann, "session-cookie-secure").and_then(super::parse_bool),
        samesite: valid(ann, "session-cookie-samesite").map(str::to_string),
        domain: valid(ann, "session-cookie-domain").map(str::to_string),
        conditional_samesite_none: valid(ann, "session-cookie-conditional-samesite-none")
            .and_then(super::parse_bool)
            .unwrap_or(false),
        change_on_failure: valid(ann, "session-cookie-change-on-failure")
            .and_then(super::parse_bool)
            .unwrap_or(false),
    });
    Upstream {
        load_balance: valid(ann, "load-balance")
            .or_else(|| {
                settings
                    .and_then(|s| s.get("load-balance"))
                    .map(String::as_str)
                    .filter(|v| !v.is_empty())
            })
            .map(str::to_string),
        hash_by: valid(ann, "upstream-hash-by").map(str::to_string),
        hash_subset: valid(ann, "upstream-hash-by-subset")
            .and_then(super::parse_bool)
            .unwrap_or(false),
        mode: valid(ann, "affinity-mode").map(str::to_string),
        affinity,
        cookie,
        forwarded: super::forwarded_client_address(settings),
    }
}

/// A backend's upstream key: namespace, Service, port.
type UpstreamKey = (String, String, Option<u32>);

/// The upstreams ingress-nginx builds from every plan, each plan's own settings merged as
/// `controller.go` does (module docs).
fn upstreams(plans: &[IngressPlan]) -> BTreeMap<UpstreamKey, Upstream> {
    let mut out: BTreeMap<UpstreamKey, Upstream> = BTreeMap::new();
    for i in super::servers::nginx_order(plans) {
        let plan = &plans[i];
        for key in backends(plan) {
            let up = out.entry(key).or_insert_with(|| Upstream {
                load_balance: plan.upstream.load_balance.clone(),
                hash_by: plan.upstream.hash_by.clone(),
                hash_subset: plan.upstream.hash_subset,
                forwarded: plan.upstream.forwarded,
                ..Default::default()
            });
            if up.affinity.is_none() {
                up.affinity = plan.upstream.affinity.clone();
            }
            if up.mode.is_none() {
                up.mode = plan.upstream.mode.clone();
            }
            if plan.upstream.cookie.is_some() {
                up.cookie = plan.upstream.cookie.clone();
            }
        }
    }
    out
}

/// The Services (and ports) the plan's rules forward to.
fn backends(plan: &IngressPlan) -> Vec<UpstreamKey> {
    let mut out: Vec<UpstreamKey> = plan
        .hosts
        .iter()
        .flat_map(|h| &h.rules)
        .flat_map(|r| &r.backends)
        .filter(|b| b.kind.as_deref().is_none_or(|k| k == "Service"))
        .map(|b| {
            (
                b.namespace
                    .clone()
                    .unwrap_or_else(|| plan.namespace.clone()),
                b.name.clone(),
                b.port,
            )
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Sets each plan's balancing from its upstreams, for a target that writes it; a note says
/// what cannot be kept.
pub(crate) fn resolve(plans: &mut [IngressPlan]) {
    let upstreams = upstreams(plans);
    for plan in plans.iter_mut() {
        if !plan.class.reads_nginx_annotations() || plan.canary.is_some() {
            continue;
        }
        let mine: Vec<&Upstream> = backends(plan)
            .iter()
            .filter_map(|k| upstreams.get(k))
            .collect();
        let Some(first) = mine.first() else { continue };
        if mine.iter().any(|u| u != first) {
            plan.result.notes.push(Diagnostic::new(
                Code::NginxLoadBalance,
                "the balancing of this Ingress's backends is not written: ingress-nginx balanced its Services differently (each one's affinity, upstream-hash-by and load-balance come from the first Ingress naming it), and one policy covers the whole route"
                    .to_string(),
            ));
            continue;
        }
        let paths: Vec<String> = plan
            .hosts
            .iter()
            .flat_map(|h| &h.rules)
            .map(|r| r.source_path.clone())
            .collect();
        let decided_elsewhere = **first != plan.upstream;
        match balancing(first, &paths, !plan.tls.is_empty()) {
            Ok(Some(mut b)) => {
                if decided_elsewhere {
                    b.differences.push("ingress-nginx took these settings from another Ingress naming the same Service (the first it reads; the last with affinity for the cookie), so this Ingress's own annotations did not decide them".into());
                }
                plan.balancing = Some(b);
            }
            Ok(None) => {}
            Err((key, why)) => plan.result.notes.push(
                Diagnostic::new(
                    code_of(key),
                    format!("{PREFIX}{key}: not translated: {why}"),
                )
                .at(field(key)),
            ),
        }
    }
}

fn code_of(key: &str) -> Code {
    match key {
        "upstream-hash-by" => Code::NginxUpstreamHashBy,
        "upstream-hash-by-subset" => Code::NginxUpstreamHashBySubset,
        _ => Code::NginxLoadBalance,
    }
}

/// Seconds as nginx's Lua reads a cookie's `expires`/`max-age` (`tonumber`).
fn seconds(v: &str) -> Option<i64> {
    v.trim().parse::<i64>().ok()
}

/// How the upstream chose endpoints, for the target (`Ok(None)`: its default, nothing to
/// write), or the annotation that cannot be kept and why. `paths` are the plan's locations,
/// `tls` whether it serves HTTPS.
fn balancing(
    up: &Upstream,
    paths: &[String],
    tls: bool,
) -> Result<Option<BalancingPlan>, (&'static str, String)> {
    let mut differences = Vec::new();
    if let (Some("cookie"), Some(c)) = (up.affinity.as_deref(), &up.cookie) {
        let ttl = match c.max_age.as_deref().or(c.expires.as_deref()).map(seconds) {
            None => "0s".to_string(),
            Some(Some(s)) if s > 0 => super::timeouts::duration(s.unsigned_abs()),
            Some(_) => {
                differences.push("the cookie's Expires/Max-Age was not a positive number of seconds: Envoy sets a session cookie".into());
                "0s".to_string()
            }
        };
        let mut attributes = Vec::new();
        match (&c.path, paths) {
            (Some(p), _) => attributes.push(("Path".to_string(), p.clone())),
            (None, [one]) => attributes.push(("Path".to_string(), one.clone())),
            (None, _) => differences.push("nginx set each location's own path as the cookie's Path, Envoy's cookie has none (the browser scopes it to the request's directory, unless session-cookie-path is set)".into()),
        }
        if let Some(d) = &c.domain {
            attributes.push(("Domain".to_string(), d.clone()));
        }
        if let Some(s) = &c.samesite {
            attributes.push(("SameSite".to_string(), s.clone()));
        }
        match c.secure {
            Some(true) => attributes.push(("Secure".to_string(), String::new())),
            Some(false) => {}
            None if tls => differences.push("nginx marked the cookie Secure on HTTPS requests, Envoy's is never Secure (unless session-cookie-secure is \"true\", for hosts every client reaches over HTTPS)".into()),
            None => {}
        }
        if c.conditional_samesite_none {
            differences.push("SameSite=None is sent to every browser (nginx left it out for browsers that mishandle it)".into());
        }
        if c.change_on_failure {
            differences.push("a session whose endpoint fails is not moved to a new one for good (session-cookie-change-on-failure)".into());
        }
        if up.mode.as_deref() == Some("persistent") {
            differences.push("persistent mode kept each session on its endpoint when endpoints were added, Envoy's consistent hash moves some sessions when the endpoints change (as balanced mode did)".into());
        }
        return Ok(Some(BalancingPlan {
            slow_start: None,
            source: format!("a sticky session cookie {} (affinity: cookie)", c.name),
            balancing: Balancing::HashCookie {
                name: c.name.clone(),
                ttl: Some(ttl),
                attributes,
            },
            differences,
        }));
    }
    if let Some(by) = &up.hash_by {
        if up.hash_subset {
            return Err((
                "upstream-hash-by-subset",
                "Envoy Gateway has no subset hashing (a hash choosing a group of endpoints, then one at random)".into(),
            ));
        }
        let balancing = match by.as_str() {
            "$remote_addr" | "$binary_remote_addr" if up.forwarded.is_some() => {
                return Err((
                    "upstream-hash-by",
                    format!(
                        "the controller's {} made {by} the forwarded client address, while Envoy Gateway would hash the address of whatever connects to it (a load balancer's: every client on one endpoint) until its client IP detection is configured to match",
                        up.forwarded.unwrap_or_default()
                    ),
                ));
            }
            "$remote_addr" | "$binary_remote_addr" => Balancing::HashSourceIp,
            v => match v.strip_prefix('$').and_then(|v| v.split_once('_')) {
                Some(("http", h)) if is_name(h) => Balancing::HashHeader(h.replace('_', "-")),
                Some(("cookie", c)) if is_name(c) => Balancing::HashCookie {
                    name: c.to_string(),
                    ttl: None,
                    attributes: Vec::new(),
                },
                Some(("arg", a)) if is_name(a) => Balancing::HashQueryParam(a.to_string()),
                _ => {
                    return Err((
                        "upstream-hash-by",
                        format!(
                            "Envoy Gateway hashes the client address, one header, cookie or query parameter, not {by}"
                        ),
                    ));
                }
            },
        };
        if !matches!(balancing, Balancing::HashSourceIp) {
            differences.push("a request without the hashed value was sent to one endpoint by nginx (a hash of the empty string) and is balanced normally by Envoy".to_string());
        }
        return Ok(Some(BalancingPlan {
            slow_start: None,
            source: format!("a consistent hash of {by} (upstream-hash-by)"),
            balancing,
            differences,
        }));
    }
    match up.load_balance.as_deref() {
        Some("round_robin") => Ok(Some(BalancingPlan {
            slow_start: None,
            source: "round robin (load-balance)".into(),
            balancing: Balancing::RoundRobin,
            differences,
        })),
        Some("ewma") => Ok(Some(BalancingPlan {
            slow_start: None,
            source: "EWMA, the endpoint with the lowest latency-weighted load (load-balance)"
                .into(),
            balancing: Balancing::LeastRequest,
            differences: vec!["Envoy Gateway has no EWMA: least request (the endpoint with the fewest requests in flight) is the closest".into()],
        })),
        // Not set: ingress-nginx's round robin (`balancer.lua` `DEFAULT_LB_ALG`), where Envoy
        // Gateway would pick least request.
        None => Ok(Some(BalancingPlan {
            slow_start: None,
            source: "round robin (ingress-nginx's default)".into(),
            balancing: Balancing::RoundRobin,
            differences,
        })),
        // `loadbalancing/main.go` accepts `chash`; without `upstream-hash-by` its key is empty.
        Some("chash") => Err((
            "load-balance",
            "chash hashes upstream-hash-by, which this upstream does not set (every request gets the same key)".into(),
        )),
        Some(other) => Err((
            "load-balance",
            format!("ingress-nginx does not know the algorithm {other:?}"),
        )),
    }
}

/// The rest of an nginx variable's name after its prefix (`$http_x_user` → `x_user`).
fn is_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up(affinity: bool) -> Upstream {
        Upstream {
            affinity: affinity.then(|| "cookie".to_string()),
            cookie: affinity.then(|| Cookie {
                name: "INGRESSCOOKIE".into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    // sticky.lua set_cookie: a session cookie on the location's path.
    #[test]
    fn affinity_is_a_generated_session_cookie_on_the_location_path() {
        let b = balancing(&up(true), &["/api".into()], false)
            .unwrap()
            .unwrap();
        assert_eq!(
            b.balancing,
            Balancing::HashCookie {
                name: "INGRESSCOOKIE".into(),
                ttl: Some("0s".into()),
                attributes: vec![("Path".into(), "/api".into())],
            }
        );
        assert!(b.differences.is_empty());
        // Two locations: no one Path; over HTTPS nginx also set Secure.
        let b = balancing(&up(true), &["/a".into(), "/b".into()], true)
            .unwrap()
            .unwrap();
        assert_eq!(b.differences.len(), 2, "{:?}", b.differences);
    }

    // balancer.lua get_implementation: the cookie wins over the hash, the hash over the
    // algorithm.
    #[test]
    fn affinity_then_hash_then_algorithm() {
        let mut u = up(true);
        u.hash_by = Some("$remote_addr".into());
        u.load_balance = Some("ewma".into());
        assert!(matches!(
            balancing(&u, &[], false).unwrap().unwrap().balancing,
            Balancing::HashCookie { .. }
        ));
        u.affinity = None;
        assert_eq!(
            balancing(&u, &[], false).unwrap().unwrap().balancing,
            Balancing::HashSourceIp
        );
        u.hash_by = None;
        assert_eq!(
            balancing(&u, &[], false).unwrap().unwrap().balancing,
            Balancing::LeastRequest
        );
        u.load_balance = None;
        assert_eq!(
            balancing(&u, &[], false).unwrap().unwrap().balancing,
            Balancing::RoundRobin
        );
    }

    #[test]
    fn hash_variables() {
        let hash = |v: &str| {
            let u = Upstream {
                hash_by: Some(v.into()),
                ..Default::default()
            };
            balancing(&u, &[], false).map(|b| b.map(|b| b.balancing))
        };
        assert_eq!(
            hash("$http_x_user_id"),
            Ok(Some(Balancing::HashHeader("x-user-id".into())))
        );
        assert_eq!(
            hash("$arg_session"),
            Ok(Some(Balancing::HashQueryParam("session".into())))
        );
        assert!(matches!(
            hash("$cookie_sid"),
            Ok(Some(Balancing::HashCookie { ttl: None, .. }))
        ));
        assert!(hash("$request_uri").is_err());
        assert!(hash("$host$request_uri").is_err());
    }
}
