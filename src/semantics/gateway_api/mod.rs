//! Gateway API as specified, for one request: which listener takes it, which routes are
//! attached there, which match wins, and what the matched rule does. Sources, all in
//! kubernetes-sigs/gateway-api `apis/v1/`:
//!
//! - `gateway_types.go` `Listener`: a request is taken by the listener of its port and
//!   protocol whose hostname matches it most specifically (listener isolation: "requests
//!   SHOULD be matched against the most specific listener hostname").
//! - `shared_types.go` `ParentReference`: `sectionName` and `port` narrow the listeners a
//!   route may attach to; a listener admits a route when `allowedRoutes` admits its namespace
//!   and kind and, for routes with hostnames, at least one hostname intersects the
//!   listener's ([`attach`]).
//! - `httproute_types.go`: hostname precedence between routes, match precedence
//!   ([`precedence`]), filters and weights ([`filters`]).
//!
//! Not modelled (the `Behaviour` says `not-modelled` or lists the field as unevaluated):
//! backend-level filters, CORS, retries, session persistence, `ExtensionRef` filters, the
//! creation time of objects not in the input (ties then go by `namespace/name`).

mod attach;
mod filters;
mod policies;
pub mod precedence;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::{Behaviour, Matched, Outcome, Request, Scheme, hostname};
use precedence::MatchShape;

pub use attach::Attachment;
pub use precedence::PathKind;

/// What the specification leaves to the implementation, per implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    /// Only what the specification says: where implementations differ (RegularExpression
    /// precedence), the answer is "not modelled" unless Istio's and Envoy Gateway's agree.
    Generic,
    Istio,
    EnvoyGateway,
}

/// `namespace/name`.
pub type Key = (String, String);

/// A listener of a Gateway.
#[derive(Debug, Clone)]
pub(crate) struct Listener {
    pub(crate) name: String,
    pub(crate) port: Option<u16>,
    pub(crate) protocol: String,
    pub(crate) tls_mode: Option<String>,
    pub(crate) hostname: Option<String>,
    pub(crate) allowed_routes: Value,
}

impl Listener {
    fn of(v: &Value) -> Listener {
        Listener {
            name: str_of(v, "name").unwrap_or_default().to_string(),
            port: v
                .get("port")
                .and_then(Value::as_u64)
                .and_then(|p| u16::try_from(p).ok()),
            protocol: str_of(v, "protocol").unwrap_or_default().to_string(),
            tls_mode: v
                .pointer("/tls/mode")
                .and_then(Value::as_str)
                .map(str::to_string),
            hostname: str_of(v, "hostname").map(str::to_ascii_lowercase),
            allowed_routes: v.get("allowedRoutes").cloned().unwrap_or(Value::Null),
        }
    }

    /// The scheme an HTTP-speaking listener serves (TLS passthrough and L4 listeners serve
    /// none a request model can follow).
    fn scheme(&self) -> Option<Scheme> {
        match (self.protocol.as_str(), self.tls_mode.as_deref()) {
            ("HTTP", _) => Some(Scheme::Http),
            ("HTTPS", None | Some("Terminate")) => Some(Scheme::Https),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Gateway {
    pub(crate) key: Key,
    pub(crate) listeners: Vec<Listener>,
}

#[derive(Debug, Clone)]
pub(crate) struct PathMatch {
    kind: PathKind,
    value: String,
}

#[derive(Debug, Clone)]
pub(crate) enum ValueMatch {
    Exact(String),
    /// The pattern as written, and compiled (`None` when it does not compile).
    Regex(String, Option<regex::Regex>),
}

impl ValueMatch {
    fn of(m: &Value) -> ValueMatch {
        let value = str_of(m, "value").unwrap_or_default();
        match str_of(m, "type") {
            Some("RegularExpression") => ValueMatch::Regex(value.to_string(), full_regex(value)),
            _ => ValueMatch::Exact(value.to_string()),
        }
    }

    /// `None` when the pattern is not one this model can evaluate.
    fn test(&self, value: Option<&str>) -> Option<bool> {
        let Some(value) = value else {
            return Some(false);
        };
        match self {
            ValueMatch::Exact(v) => Some(v == value),
            ValueMatch::Regex(_, Some(r)) => Some(r.is_match(value)),
            ValueMatch::Regex(_, None) => None,
        }
    }
}

/// A whole-value regular expression (RE2 syntax, which the `regex` crate shares for what
/// Gateway API implementations accept); `None` when it does not compile.
fn full_regex(pattern: &str) -> Option<regex::Regex> {
    regex::Regex::new(&format!("^(?:{pattern})$")).ok()
}

#[derive(Debug, Clone)]
pub(crate) struct RouteMatch {
    path: PathMatch,
    path_regex: Option<regex::Regex>,
    method: Option<String>,
    headers: Vec<(String, ValueMatch)>,
    query: Vec<(String, ValueMatch)>,
}

impl RouteMatch {
    fn of(m: &Value) -> RouteMatch {
        let path = match m.get("path") {
            Some(p) => PathMatch {
                kind: match str_of(p, "type") {
                    Some("Exact") => PathKind::Exact,
                    Some("RegularExpression") => PathKind::Regex,
                    _ => PathKind::Prefix,
                },
                value: str_of(p, "value").unwrap_or("/").to_string(),
            },
            None => PathMatch {
                kind: PathKind::Prefix,
                value: "/".to_string(),
            },
        };
        let pairs = |key: &str| -> Vec<(String, ValueMatch)> {
            list(m, key)
                .map(|h| {
                    (
                        str_of(h, "name").unwrap_or_default().to_string(),
                        ValueMatch::of(h),
                    )
                })
                .collect()
        };
        RouteMatch {
            path_regex: (path.kind == PathKind::Regex)
                .then(|| full_regex(&path.value))
                .flatten(),
            path,
            method: str_of(m, "method").map(str::to_string),
            headers: pairs("headers"),
            query: pairs("queryParams"),
        }
    }

    /// A GRPCRoute match as the HTTP/2 path it stands for (`/service/method`),
    /// `grpcroute_types.go` `GRPCMethodMatch`.
    fn grpc(m: &Value) -> RouteMatch {
        let service = m.pointer("/method/service").and_then(Value::as_str);
        let method = m.pointer("/method/method").and_then(Value::as_str);
        let regex = m.pointer("/method/type").and_then(Value::as_str) == Some("RegularExpression");
        let path = match (service, method, regex) {
            (Some(s), Some(me), false) => PathMatch {
                kind: PathKind::Exact,
                value: format!("/{s}/{me}"),
            },
            (Some(s), None, false) => PathMatch {
                kind: PathKind::Prefix,
                value: format!("/{s}"),
            },
            (None, None, _) => PathMatch {
                kind: PathKind::Prefix,
                value: "/".to_string(),
            },
            (s, me, _) => PathMatch {
                kind: PathKind::Regex,
                value: format!("/{}/{}", s.unwrap_or("[^/]+"), me.unwrap_or("[^/]+")),
            },
        };
        RouteMatch {
            path_regex: (path.kind == PathKind::Regex)
                .then(|| full_regex(&path.value))
                .flatten(),
            path,
            method: None,
            headers: list(m, "headers")
                .map(|h| {
                    (
                        str_of(h, "name").unwrap_or_default().to_string(),
                        ValueMatch::of(h),
                    )
                })
                .collect(),
            query: Vec::new(),
        }
    }

    fn shape(&self) -> MatchShape {
        MatchShape {
            path_kind: self.path.kind.clone(),
            path: self.path.value.clone(),
            method: self.method.is_some(),
            headers: self.headers.len(),
            query: self.query.len(),
        }
    }

    /// Whether the request meets every condition; `None` when one cannot be evaluated.
    fn test(&self, request: &Request) -> Option<bool> {
        let path_ok = match self.path.kind {
            PathKind::Exact => request.path == self.path.value,
            PathKind::Prefix => path_prefix_matches(&self.path.value, &request.path),
            PathKind::Regex => self.path_regex.as_ref()?.is_match(&request.path),
        };
        if !path_ok {
            return Some(false);
        }
        if self
            .method
            .as_ref()
            .is_some_and(|m| !m.eq_ignore_ascii_case(&request.method))
        {
            return Some(false);
        }
        for (name, m) in &self.headers {
            if !m.test(request.header(name).as_deref())? {
                return Some(false);
            }
        }
        for (name, m) in &self.query {
            if !m.test(request.query_param(name))? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// Listener isolation (`gateway_types.go` `Listener`): of listeners on one port (their
/// hostnames, `None` for none), the position of the one that takes requests for `host`: the
/// most specific hostname that matches it; of equally specific ones (a conflict the
/// validator reports, or Gateways merged into one entry point by a caller), the last.
pub fn most_specific_listener<'a>(
    hostnames: impl IntoIterator<Item = Option<&'a str>>,
    host: &str,
) -> Option<usize> {
    let mut best: Option<((bool, usize), usize)> = None;
    for (i, h) in hostnames.into_iter().enumerate() {
        let pattern = h.unwrap_or("*");
        if !hostname::matches(pattern, host) {
            continue;
        }
        let rank = hostname::specificity(pattern);
        if best.is_none_or(|(b, _)| rank >= b) {
            best = Some((rank, i));
        }
    }
    best.map(|(_, i)| i)
}

/// `PathPrefix`: element-wise, a trailing `/` of the prefix ignored (`/foo` matches `/foo`,
/// `/foo/` and `/foo/bar`, not `/foobar`). `httproute_types.go` `HTTPPathMatch`.
pub fn path_prefix_matches(prefix: &str, path: &str) -> bool {
    let p = prefix.trim_end_matches('/');
    if p.is_empty() {
        return path.starts_with('/');
    }
    path == p
        || path
            .strip_prefix(p)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[derive(Debug, Clone)]
pub(crate) struct Rule {
    matches: Vec<RouteMatch>,
    raw: Value,
}

#[derive(Debug, Clone)]
pub(crate) struct Route {
    pub(crate) kind: String,
    pub(crate) key: Key,
    pub(crate) created: Option<String>,
    pub(crate) hostnames: Vec<String>,
    pub(crate) parent_refs: Vec<Value>,
    rules: Vec<Rule>,
}

/// The objects a Gateway API data plane acts on.
#[derive(Debug)]
pub struct World {
    pub(crate) profile: Profile,
    pub(crate) gateways: BTreeMap<Key, Gateway>,
    pub(crate) routes: Vec<Route>,
    /// Namespace → labels, for the namespaces the input defines.
    pub(crate) namespaces: BTreeMap<String, BTreeMap<String, String>>,
    /// `namespace/name` → ports, of the Services the input defines.
    pub(crate) services: BTreeMap<Key, Vec<u16>>,
    /// Whether every Service a route may name is in the input (so a missing one is an
    /// unresolved reference, not merely one deployed elsewhere).
    pub(crate) services_complete: bool,
    pub(crate) grants: Vec<(String, Value)>,
    /// The implementations' policies that check requests ([`policies`]).
    policies: Vec<policies::Policy>,
    /// Per route, the listeners it is accepted on.
    attachments: Vec<Vec<Attachment>>,
    /// Gateway and listener name → the routes accepted there.
    by_listener: HashMap<(Key, String), Vec<usize>>,
    /// The competing `(route, rule, match)` positions per listener, host and profile, in
    /// precedence order: requests to one host differ only in what the matches test.
    competing: Mutex<HashMap<CompetingKey, Competing>>,
}

/// Gateway, listener name, host, profile.
type CompetingKey = (Key, String, String, Profile);
/// `(route, rule, match)` positions in precedence order.
type Competing = Arc<Vec<(usize, usize, usize)>>;

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

fn list<'v>(v: &'v Value, key: &str) -> impl Iterator<Item = &'v Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn namespace_of(v: &Value, default_namespace: &str) -> String {
    v.pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or(default_namespace)
        .to_string()
}

fn name_of(v: &Value) -> String {
    v.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

impl World {
    /// The world of `objects` (whole Kubernetes objects as JSON; an object without
    /// `metadata.namespace` is in `default_namespace`). Kinds the model does not act on are
    /// ignored.
    pub fn new<'a>(
        objects: impl IntoIterator<Item = &'a Value>,
        default_namespace: &str,
        profile: Profile,
    ) -> World {
        let mut world = World {
            profile,
            gateways: BTreeMap::new(),
            routes: Vec::new(),
            namespaces: BTreeMap::new(),
            services: BTreeMap::new(),
            services_complete: false,
            grants: Vec::new(),
            policies: Vec::new(),
            attachments: Vec::new(),
            by_listener: HashMap::new(),
            competing: Mutex::new(HashMap::new()),
        };
        for v in objects {
            let ns = namespace_of(v, default_namespace);
            let group = str_of(v, "apiVersion")
                .and_then(|a| a.rsplit_once('/'))
                .map_or("", |(g, _)| g);
            if let Some(p) = policies::Policy::of(v, default_namespace) {
                world.policies.push(p);
                continue;
            }
            match (group, str_of(v, "kind").unwrap_or_default()) {
                ("", "Namespace") => {
                    let labels = super::string_map(v, "/metadata/labels");
                    world.namespaces.insert(name_of(v), labels);
                }
                ("", "Service") => {
                    let ports = v
                        .pointer("/spec/ports")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|p| p.get("port")?.as_u64()?.try_into().ok())
                        .collect();
                    world.services.insert((ns, name_of(v)), ports);
                }
                ("gateway.networking.k8s.io", "Gateway") => {
                    let key = (ns, name_of(v));
                    let listeners = v
                        .pointer("/spec/listeners")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .map(Listener::of)
                        .collect();
                    world
                        .gateways
                        .insert(key.clone(), Gateway { key, listeners });
                }
                ("gateway.networking.k8s.io", "ReferenceGrant") => {
                    world
                        .grants
                        .push((ns, v.get("spec").cloned().unwrap_or(Value::Null)));
                }
                ("gateway.networking.k8s.io", kind @ ("HTTPRoute" | "GRPCRoute")) => {
                    let grpc = kind == "GRPCRoute";
                    let spec = v.get("spec").unwrap_or(&Value::Null);
                    let rules = list(spec, "rules")
                        .map(|r| {
                            let matches: Vec<RouteMatch> = list(r, "matches")
                                .map(|m| {
                                    if grpc {
                                        RouteMatch::grpc(m)
                                    } else {
                                        RouteMatch::of(m)
                                    }
                                })
                                .collect();
                            Rule {
                                matches: if matches.is_empty() {
                                    vec![RouteMatch::of(&Value::Null)]
                                } else {
                                    matches
                                },
                                raw: r.clone(),
                            }
                        })
                        .collect();
                    world.routes.push(Route {
                        kind: kind.to_string(),
                        key: (ns, name_of(v)),
                        created: v
                            .pointer("/metadata/creationTimestamp")
                            .and_then(Value::as_str)
                            .map(str::to_string),
                        hostnames: list(spec, "hostnames")
                            .filter_map(Value::as_str)
                            .map(str::to_ascii_lowercase)
                            .collect(),
                        parent_refs: list(spec, "parentRefs").cloned().collect(),
                        rules,
                    });
                }
                _ => {}
            }
        }
        // The last object of a kind and name wins, as the API server keeps the last applied.
        let mut by_name: BTreeMap<(String, Key), Route> = BTreeMap::new();
        for r in std::mem::take(&mut world.routes) {
            by_name.insert((r.kind.clone(), r.key.clone()), r);
        }
        world.routes = by_name.into_values().collect();
        world.attachments = world
            .routes
            .iter()
            .map(|r| attach::attachments(&world, r))
            .collect();
        for (i, attachments) in world.attachments.iter().enumerate() {
            for a in attachments {
                world
                    .by_listener
                    .entry((a.gateway.clone(), a.listener.clone()))
                    .or_default()
                    .push(i);
            }
        }
        world
    }

    /// Declares that every Service routes may name is in the input: a backend naming another
    /// is then unresolved (its share of the traffic gets a 500).
    pub fn with_complete_services(mut self) -> World {
        self.services_complete = true;
        self
    }

    /// The listeners each route is accepted on, by route `namespace/name`.
    pub fn attachments(&self) -> impl Iterator<Item = (&Key, &[Attachment])> {
        self.routes
            .iter()
            .zip(&self.attachments)
            .map(|(r, a)| (&r.key, a.as_slice()))
    }

    /// The Gateways, by `namespace/name`.
    pub fn gateway_keys(&self) -> impl Iterator<Item = &Key> {
        self.gateways.keys()
    }

    /// The listener of `gateways` that takes `request`: same port, a protocol serving the
    /// request's scheme, and of those whose hostname matches the host the most specific one
    /// (listener isolation).
    fn listener_for<'w>(
        &'w self,
        gateways: &[Key],
        request: &Request,
        profile: Profile,
    ) -> Option<(&'w Gateway, &'w Listener)> {
        // Listeners of one Gateway on the same port with the same hostname are conflicted:
        // Envoy Gateway programs none of them (`validateConflictedLayer7Listeners`), and the
        // specification leaves no winner; Istio does not check and serves one.
        let conflicted = |g: &Gateway, l: &Listener| {
            profile != Profile::Istio
                && g.listeners
                    .iter()
                    .any(|o| !std::ptr::eq(o, l) && o.port == l.port && o.hostname == l.hostname)
        };
        let candidates: Vec<(&Gateway, &Listener)> = gateways
            .iter()
            .filter_map(|k| self.gateways.get(k))
            .flat_map(|g| g.listeners.iter().map(move |l| (g, l)))
            .filter(|(g, l)| {
                l.port == Some(request.port)
                    && l.scheme() == Some(request.scheme)
                    && !conflicted(g, l)
            })
            .collect();
        let chosen = most_specific_listener(
            candidates.iter().map(|(_, l)| l.hostname.as_deref()),
            &request.host,
        )?;
        candidates.get(chosen).copied()
    }

    /// What the data plane serving `gateways` (one address: the Gateways merged there; all
    /// Gateways when empty) does with `request`.
    pub fn behaviour(&self, gateways: &[Key], request: &Request) -> Behaviour {
        let all = self.all_if_empty(gateways);
        let gateways = all.as_deref().unwrap_or(gateways);
        match self.profile {
            Profile::Generic => {
                let istio = self.behaviour_with(gateways, request, Profile::Istio, None);
                let envoy = self.behaviour_with(gateways, request, Profile::EnvoyGateway, None);
                if istio == envoy {
                    istio
                } else {
                    let mut b = Behaviour::of(Outcome::NotModelled {
                        reason: "implementations rank RegularExpression paths differently (Istio below every PathPrefix, Envoy Gateway above); choose a --target".to_string(),
                    });
                    b.matched = istio.matched;
                    b
                }
            }
            p => self.behaviour_with(gateways, request, p, None),
        }
    }

    /// [`World::behaviour`] with the given profile's precedence (for a caller that compares
    /// implementations itself).
    pub fn behaviour_as(&self, gateways: &[Key], request: &Request, profile: Profile) -> Behaviour {
        self.behaviour_with(gateways, request, profile, None)
    }

    /// [`World::behaviour_as`] for a request from `client` (all Gateways when `gateways` is
    /// empty): the policies' source checks are decided instead of recorded.
    pub fn behaviour_from(
        &self,
        gateways: &[Key],
        request: &Request,
        profile: Profile,
        client: Option<std::net::IpAddr>,
    ) -> Behaviour {
        let all = self.all_if_empty(gateways);
        self.behaviour_with(all.as_deref().unwrap_or(gateways), request, profile, client)
    }

    /// Every Gateway when `gateways` names none (one address serving them all).
    fn all_if_empty(&self, gateways: &[Key]) -> Option<Vec<Key>> {
        gateways
            .is_empty()
            .then(|| self.gateways.keys().cloned().collect())
    }

    /// The matches competing for `host` on a listener, in precedence order, as `(route,
    /// rule, match)` positions.
    fn competing(
        &self,
        gateway: &Gateway,
        listener: &Listener,
        host: &str,
        profile: Profile,
    ) -> Competing {
        let cache_key = (
            gateway.key.clone(),
            listener.name.clone(),
            host.to_string(),
            profile,
        );
        if let Some(found) = self
            .competing
            .lock()
            .ok()
            .and_then(|c| c.get(&cache_key).cloned())
        {
            return found;
        }
        // Routes attached here, with their most specific hostname that matches the host.
        let mut candidates: Vec<(usize, (bool, usize))> = Vec::new();
        let attached = self
            .by_listener
            .get(&(gateway.key.clone(), listener.name.clone()))
            .map(Vec::as_slice)
            .unwrap_or_default();
        for &i in attached {
            let route = &self.routes[i];
            let effective: Vec<String> = if route.hostnames.is_empty() {
                vec![listener.hostname.clone().unwrap_or_else(|| "*".into())]
            } else {
                route
                    .hostnames
                    .iter()
                    .filter_map(|h| hostname::intersect(h, listener.hostname.as_deref()))
                    .collect()
            };
            if let Some(score) = effective
                .iter()
                .filter(|h| hostname::matches(h, host))
                .map(|h| hostname::specificity(h))
                .max()
            {
                candidates.push((i, score));
            }
        }
        // httproute_types.go `Hostnames`: rules of the route with the most specific matching
        // hostname take precedence; the others do not compete for this host at all.
        let best = candidates.iter().map(|(_, s)| *s).max();
        let entries: Vec<(usize, usize, usize)> = candidates
            .iter()
            .filter(|(_, s)| Some(*s) == best)
            .flat_map(|&(i, _)| {
                self.routes[i]
                    .rules
                    .iter()
                    .enumerate()
                    .flat_map(move |(ru, rule)| (0..rule.matches.len()).map(move |m| (i, ru, m)))
            })
            .collect();
        // Each match's precedence key, computed once rather than per comparison.
        let mut ranked: Vec<(_, (usize, usize, usize))> = entries
            .into_iter()
            .map(|(r, ru, m)| {
                let shape = self.routes[r].rules[ru].matches[m].shape();
                (precedence::key(&shape, profile), (r, ru, m))
            })
            .collect();
        ranked.sort_by(|(ka, (ra, rua, ma)), (kb, (rb, rub, mb))| {
            let (a, b) = (&self.routes[*ra], &self.routes[*rb]);
            kb.cmp(ka)
                .then_with(|| match (&a.created, &b.created) {
                    (Some(x), Some(y)) => x.cmp(y),
                    _ => std::cmp::Ordering::Equal,
                })
                .then_with(|| a.key.cmp(&b.key))
                .then_with(|| rua.cmp(rub))
                .then_with(|| ma.cmp(mb))
        });
        let entries: Vec<(usize, usize, usize)> = ranked.into_iter().map(|(_, e)| e).collect();
        let entries = Arc::new(entries);
        if let Ok(mut cache) = self.competing.lock() {
            cache.insert(cache_key, Arc::clone(&entries));
        }
        entries
    }

    fn behaviour_with(
        &self,
        gateways: &[Key],
        request: &Request,
        profile: Profile,
        client: Option<std::net::IpAddr>,
    ) -> Behaviour {
        let Some((gateway, listener)) = self.listener_for(gateways, request, profile) else {
            return Behaviour::of(Outcome::NoListener);
        };
        let matched = |object: Option<String>, rule: Option<usize>, m: Option<usize>| Matched {
            gateway: format!("{}/{}", gateway.key.0, gateway.key.1),
            listener: listener.name.clone(),
            object,
            rule,
            r#match: m,
            also: Vec::new(),
        };
        let entries = self.competing(gateway, listener, &request.host, profile);
        for &(r, ru, m) in entries.iter() {
            let route = &self.routes[r];
            let rule = &route.rules[ru];
            let object = Some(format!("{} {}/{}", route.kind, route.key.0, route.key.1));
            match rule.matches[m].test(request) {
                None => {
                    let mut b = Behaviour::of(Outcome::NotModelled {
                        reason: "a RegularExpression this model cannot evaluate".to_string(),
                    });
                    b.matched = Some(matched(object, Some(ru), Some(m)));
                    return b;
                }
                Some(false) => continue,
                Some(true) => {
                    let mut b = filters::apply(
                        self,
                        (route, rule, &rule.matches[m]),
                        listener,
                        request,
                        profile,
                    );
                    b.matched = Some(matched(object, Some(ru), Some(m)));
                    let place = policies::Place {
                        gateway: &gateway.key,
                        listener: &listener.name,
                        route: Some((&route.kind, &route.key, str_of(&rule.raw, "name"))),
                    };
                    let verdict =
                        policies::verdict(&self.policies, &place, request, client, profile);
                    if let Some(reason) = verdict.denied {
                        let matched = b.matched.take();
                        b = Behaviour::of(Outcome::Denied {
                            status: 403,
                            reason,
                        });
                        b.matched = matched;
                    }
                    b.access.extend(verdict.checks);
                    b.unevaluated.extend(verdict.unevaluated);
                    if profile == Profile::EnvoyGateway {
                        envoy_gateway_timeout(&mut b, &self.policies, &place);
                    }
                    return b;
                }
            }
        }
        let mut b = Behaviour::of(Outcome::NoRoute);
        b.matched = Some(matched(None, None, None));
        b
    }
}

/// Envoy Gateway's request timeout for a rule without `timeouts.request`: a
/// BackendTrafficPolicy's `requestTimeout`, else none set on the Envoy route
/// (`internal/xds/translator/route.go`), so Envoy's `RouteAction.timeout` default, 15 s
/// (`crate::target`'s profile holds the fact).
fn envoy_gateway_timeout(
    b: &mut Behaviour,
    policies: &[policies::Policy],
    place: &policies::Place,
) {
    if !matches!(b.outcome, Outcome::Backends { .. }) {
        return;
    }
    let timeouts = b.timeouts.get_or_insert_with(Default::default);
    if timeouts.request.is_none() {
        timeouts.request = policies::envoy_request_timeout(policies, place).or_else(|| {
            crate::target::profile(crate::config::Target::EnvoyGateway)
                .default_request_timeout
                .map(str::to_string)
        });
    }
}

/// A header or query condition, as probes need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    Exact(String),
    /// A RegularExpression, whole value.
    Regex(String),
}

/// One match of a rule: where probes should go to meet it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchPoint {
    pub path_kind: PathKind,
    pub path: String,
    pub method: Option<String>,
    pub headers: Vec<(String, Condition)>,
    pub query: Vec<(String, Condition)>,
}

/// A listener that serves HTTP, the host patterns of the routes accepted there and their
/// matches: the model's decision points, for choosing probes.
#[derive(Debug, Clone)]
pub struct ListenerPoints {
    pub scheme: Scheme,
    pub port: u16,
    /// `*` when the listener has no hostname.
    pub hostname: String,
    /// Per accepted route: its hostnames (the listener's when it names none) and matches.
    pub routes: Vec<(Vec<String>, Vec<MatchPoint>)>,
}

impl World {
    /// The decision points of the listeners of `gateways`.
    pub fn decision_points(&self, gateways: &[Key]) -> Vec<ListenerPoints> {
        let condition = |m: &ValueMatch| match m {
            ValueMatch::Exact(v) => Condition::Exact(v.clone()),
            ValueMatch::Regex(raw, _) => Condition::Regex(raw.clone()),
        };
        let mut out = Vec::new();
        for g in gateways.iter().filter_map(|k| self.gateways.get(k)) {
            for l in &g.listeners {
                let (Some(scheme), Some(port)) = (l.scheme(), l.port) else {
                    continue;
                };
                let hostname = l.hostname.clone().unwrap_or_else(|| "*".into());
                let routes = self
                    .by_listener
                    .get(&(g.key.clone(), l.name.clone()))
                    .into_iter()
                    .flatten()
                    .map(|&i| {
                        let route = &self.routes[i];
                        let hosts = if route.hostnames.is_empty() {
                            vec![hostname.clone()]
                        } else {
                            route.hostnames.clone()
                        };
                        let matches = route
                            .rules
                            .iter()
                            .flat_map(|r| &r.matches)
                            .map(|m| MatchPoint {
                                path_kind: m.path.kind.clone(),
                                path: m.path.value.clone(),
                                method: m.method.clone(),
                                headers: m
                                    .headers
                                    .iter()
                                    .map(|(n, v)| (n.clone(), condition(v)))
                                    .collect(),
                                query: m
                                    .query
                                    .iter()
                                    .map(|(n, v)| (n.clone(), condition(v)))
                                    .collect(),
                            })
                            .collect();
                        (hosts, matches)
                    })
                    .collect();
                out.push(ListenerPoints {
                    scheme,
                    port,
                    hostname,
                    routes,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
