//! How a Gateway API implementation routes a request, from the generated Gateways and routes
//! and those already in the repository. Sources (kubernetes-sigs/gateway-api
//! `apis/v1/httproute_types.go`, `gateway_types.go`):
//!
//! - A request is served by the listener of its port and protocol whose hostname matches it
//!   most specifically (listener isolation); only routes attached to that listener (the one
//!   attachment model, `validate::attachment`) compete.
//! - Among routes, the most specific matching hostname wins (`Hostnames`: non-wildcard
//!   characters, then characters); their rules compete by match precedence: Exact, longest
//!   PathPrefix (element-wise), method, most headers, most query parameters; ties go to the
//!   oldest route, then `namespace/name`, then rule order. Generated routes are created
//!   together, so their creation times tie.
//! - RegularExpression precedence is implementation-specific: Istio ranks it below every
//!   prefix (`pilot/pkg/config/kube/gateway/conversion.go` `sortHTTPRoutes`), Envoy Gateway
//!   above (`internal/gatewayapi/sort.go`: Exact > RegularExpression > PathPrefix). The
//!   generic target evaluates both and reports a difference under either.
//! - `RequestRedirect` defaults to 302 and, without a port, to the scheme's well-known port
//!   or the listener's; a rule with no backend answers 500.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use serde_json::Value;

use super::matching::{Matcher, host_matches, host_rank, intersect, path_prefix_matches};
use super::probes::{Seeds, Shape};
use super::{Backend, Decision, Origin, Outcome, Probe, Scheme, shares};
use crate::config::{Config, Target};
use crate::index::Index;
use crate::translate::SourceResult;
use crate::validate::attachment::{Status, World};

#[derive(Debug, Clone)]
enum PathMatch {
    Exact(String),
    Prefix(String),
    Regex(String, Matcher),
}

struct RuleMatch {
    index: usize,
    path: PathMatch,
    headers: Vec<(String, Matcher)>,
    query: Vec<(String, Matcher)>,
    method: Option<String>,
    exact_conditions: usize,
}

struct Rule {
    index: usize,
    matches: Vec<RuleMatch>,
    filters: Vec<Value>,
    backends: Vec<(Backend, u64)>,
    /// A backend of a kind the model does not resolve.
    unmodelled: Option<String>,
}

struct Route {
    namespace: String,
    name: String,
    hostnames: Vec<String>,
    /// `(gateway namespace, gateway name, listener name)` the route is accepted on.
    listeners: Vec<(String, String, String)>,
    rules: Vec<Rule>,
    object: Option<usize>,
}

/// What routing needs of a listener.
struct Listener {
    name: String,
    port: Option<u32>,
    /// The scheme it serves (`None`: not HTTP, or TLS passthrough).
    scheme: Option<Scheme>,
    /// `*` when it has none.
    hostname: String,
}

impl Listener {
    fn of(l: &Value) -> Self {
        let scheme = match str_of(l, "protocol") {
            Some("HTTP") => Some(Scheme::Http),
            Some("HTTPS") if listener_serves(l, Scheme::Https) => Some(Scheme::Https),
            _ => None,
        };
        Listener {
            name: str_of(l, "name").unwrap_or_default().to_string(),
            port: l.get("port").and_then(Value::as_u64).map(|p| p as u32),
            scheme,
            hostname: str_of(l, "hostname").unwrap_or("*").to_ascii_lowercase(),
        }
    }
}

/// `(entry point, port, scheme)` → host → position of the chosen listener.
type ListenerCache = HashMap<(usize, u32, Scheme), HashMap<String, Option<usize>>>;

/// `(listener, ranking)` → host → competing `(route, rule, match)` positions.
type CompetingCache = HashMap<(usize, Ranking), HashMap<String, Rc<Vec<(usize, usize, usize)>>>>;

/// How an implementation orders matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Ranking {
    Istio,
    EnvoyGateway,
}

impl Ranking {
    fn label(self) -> &'static str {
        match self {
            Ranking::Istio => "Istio's ranking",
            Ranking::EnvoyGateway => "Envoy Gateway's ranking",
        }
    }
}

pub(crate) struct Model {
    /// The listeners of each Gateway.
    gateways: BTreeMap<(String, String), Vec<Listener>>,
    routes: Vec<Route>,
    /// The listener chosen per (entry point, port, scheme) and host (see
    /// [`Model::listener_for`]).
    chosen_listener: RefCell<ListenerCache>,
    /// Competing matches per (listener, ranking) and host (see [`Model::competing`]).
    competing: RefCell<CompetingCache>,
    /// Gateway `(namespace, name)` → listener → the routes accepted there.
    by_listener: HashMap<(String, String), HashMap<String, Vec<usize>>>,
    rankings: Vec<Ranking>,
}

fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

fn list<'v>(v: &'v Value, pointer: &str) -> impl Iterator<Item = &'v Value> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn value_matcher(m: &Value) -> Matcher {
    let value = str_of(m, "value").unwrap_or_default();
    match str_of(m, "type") {
        Some("RegularExpression") => Matcher::full_regex(value),
        _ => Matcher::exact(value, false),
    }
}

fn http_match(index: usize, m: &Value) -> RuleMatch {
    let path = match m.get("path") {
        Some(p) => {
            let value = str_of(p, "value").unwrap_or("/").to_string();
            match str_of(p, "type") {
                Some("Exact") => PathMatch::Exact(value),
                Some("RegularExpression") => {
                    let matcher = Matcher::full_regex(&value);
                    PathMatch::Regex(value, matcher)
                }
                _ => PathMatch::Prefix(value),
            }
        }
        None => PathMatch::Prefix("/".into()),
    };
    let pairs = |key: &str, fold: bool| -> Vec<(String, Matcher)> {
        list(m, &format!("/{key}"))
            .map(|h| {
                let name = str_of(h, "name").unwrap_or_default();
                let name = if fold {
                    name.to_ascii_lowercase()
                } else {
                    name.to_string()
                };
                (name, value_matcher(h))
            })
            .collect()
    };
    let headers = pairs("headers", true);
    let query = pairs("queryParams", false);
    let exact_conditions = headers
        .iter()
        .chain(&query)
        .filter(|(_, m)| matches!(m, Matcher::Exact { .. }))
        .count();
    RuleMatch {
        index,
        path,
        headers,
        query,
        method: str_of(m, "method").map(str::to_string),
        exact_conditions,
    }
}

/// A GRPCRoute match as the path it stands for (`/service/method`).
fn grpc_match(index: usize, m: &Value) -> RuleMatch {
    let service = m.pointer("/method/service").and_then(Value::as_str);
    let method = m.pointer("/method/method").and_then(Value::as_str);
    let regex = m.pointer("/method/type").and_then(Value::as_str) == Some("RegularExpression");
    let path = match (service, method, regex) {
        (Some(s), Some(me), false) => PathMatch::Exact(format!("/{s}/{me}")),
        (Some(s), None, false) => PathMatch::Prefix(format!("/{s}")),
        (None, None, _) => PathMatch::Prefix("/".into()),
        (s, me, _) => {
            let pattern = format!("/{}/{}", s.unwrap_or("[^/]+"), me.unwrap_or("[^/]+"));
            let matcher = Matcher::full_regex(&pattern);
            PathMatch::Regex(pattern, matcher)
        }
    };
    let mut rm = http_match(index, &Value::Null);
    rm.path = path;
    rm.headers = list(m, "/headers")
        .map(|h| {
            (
                str_of(h, "name").unwrap_or_default().to_ascii_lowercase(),
                value_matcher(h),
            )
        })
        .collect();
    rm
}

fn rule(index: usize, r: &Value, namespace: &str, grpc: bool) -> Rule {
    let matches: Vec<RuleMatch> = list(r, "/matches")
        .enumerate()
        .map(|(i, m)| {
            if grpc {
                grpc_match(i, m)
            } else {
                http_match(i, m)
            }
        })
        .collect();
    let mut backends = Vec::new();
    let mut unmodelled = None;
    for b in list(r, "/backendRefs") {
        let group = str_of(b, "group").unwrap_or("");
        let kind = str_of(b, "kind").unwrap_or("Service");
        let name = str_of(b, "name").unwrap_or_default().to_string();
        let port = b.get("port").and_then(Value::as_u64).map(|p| p as u32);
        let backend = match (group, kind) {
            ("", "Service") => Backend {
                namespace: str_of(b, "namespace").unwrap_or(namespace).to_string(),
                name,
                port,
            },
            // Istio's `Hostname` backend: a ServiceEntry host, as a VirtualService names it.
            ("networking.istio.io", "Hostname") => Backend {
                namespace: String::new(),
                name,
                port,
            },
            _ => {
                unmodelled = Some(format!("backend kind {group}/{kind}"));
                continue;
            }
        };
        backends.push((
            backend,
            b.get("weight").and_then(Value::as_u64).unwrap_or(1),
        ));
    }
    Rule {
        index,
        matches: if matches.is_empty() {
            vec![http_match(0, &Value::Null)]
        } else {
            matches
        },
        filters: list(r, "/filters").cloned().collect(),
        backends,
        unmodelled,
    }
}

/// The listener protocol a probe scheme needs.
fn listener_serves(l: &Value, scheme: Scheme) -> bool {
    match (str_of(l, "protocol"), scheme) {
        (Some("HTTP"), Scheme::Http) => true,
        (Some("HTTPS"), Scheme::Https) => {
            l.pointer("/tls/mode")
                .and_then(Value::as_str)
                .unwrap_or("Terminate")
                == "Terminate"
        }
        _ => false,
    }
}

impl Model {
    pub(crate) fn build(index: &Index, results: &[SourceResult], config: &Config) -> Self {
        let mut gateways: BTreeMap<(String, String), Value> = BTreeMap::new();
        let mut routes_json: BTreeMap<(String, String, String), (Value, Option<usize>)> =
            BTreeMap::new();
        for (obj, v) in index.gateway_api("Gateway") {
            gateways
                .entry((obj.namespace.clone(), obj.meta.name.clone()))
                .or_insert_with(|| v.clone());
        }
        let position = |obj: &crate::model::SourceObject| {
            index.objects.iter().position(|o| std::ptr::eq(o, obj))
        };
        for kind in ["HTTPRoute", "GRPCRoute"] {
            for (obj, v) in index.gateway_api(kind) {
                let mut v = v.clone();
                if v.pointer("/metadata/namespace").is_none()
                    && let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut)
                {
                    meta.insert("namespace".into(), Value::from(obj.namespace.clone()));
                }
                routes_json
                    .entry((
                        kind.to_string(),
                        obj.namespace.clone(),
                        obj.meta.name.clone(),
                    ))
                    .or_insert((v, position(obj)));
            }
        }
        let mut generated = Vec::new();
        for r in results {
            for g in &r.generated {
                let v = g.to_json();
                let key = (g.namespace().to_string(), g.name().to_string());
                match g.kind() {
                    "Gateway" => {
                        gateways.insert(key, v.clone());
                    }
                    "HTTPRoute" | "GRPCRoute" => {
                        routes_json.insert(
                            (g.kind().to_string(), key.0, key.1),
                            (v.clone(), Some(r.object)),
                        );
                    }
                    _ => {}
                }
                generated.push(v);
            }
        }
        let world = World::new(index, generated.iter(), config);
        let routes: Vec<Route> = routes_json
            .into_iter()
            .map(|((kind, namespace, name), (v, object))| {
                let grpc = kind == "GRPCRoute";
                let mut listeners = Vec::new();
                if let Some(prediction) = world.predict(&v) {
                    let refs: Vec<&Value> = list(&v, "/spec/parentRefs").collect();
                    for p in prediction.parents {
                        if p.accepted.status != Status::True {
                            continue;
                        }
                        let Some(r) = refs.get(p.index) else { continue };
                        let gw_ns = str_of(r, "namespace").unwrap_or(&namespace).to_string();
                        let gw = str_of(r, "name").unwrap_or_default().to_string();
                        for l in p.listeners {
                            listeners.push((gw_ns.clone(), gw.clone(), l));
                        }
                    }
                }
                Route {
                    hostnames: list(&v, "/spec/hostnames")
                        .filter_map(Value::as_str)
                        .map(str::to_ascii_lowercase)
                        .collect(),
                    listeners,
                    rules: list(&v, "/spec/rules")
                        .enumerate()
                        .map(|(i, r)| rule(i, r, &namespace, grpc))
                        .collect(),
                    namespace,
                    name,
                    object,
                }
            })
            .collect();
        let rankings = match config.target {
            Target::Istio => vec![Ranking::Istio],
            Target::EnvoyGateway => vec![Ranking::EnvoyGateway],
            Target::Generic => vec![Ranking::EnvoyGateway, Ranking::Istio],
        };
        let mut by_listener: HashMap<(String, String), HashMap<String, Vec<usize>>> =
            HashMap::new();
        for (i, r) in routes.iter().enumerate() {
            for (ns, gw, listener) in &r.listeners {
                by_listener
                    .entry((ns.clone(), gw.clone()))
                    .or_default()
                    .entry(listener.clone())
                    .or_default()
                    .push(i);
            }
        }
        let gateways = gateways
            .into_iter()
            .map(|(key, g)| (key, list(&g, "/spec/listeners").map(Listener::of).collect()))
            .collect();
        Model {
            chosen_listener: RefCell::default(),
            competing: RefCell::default(),
            gateways,
            routes,
            by_listener,
            rankings,
        }
    }

    fn listeners<'a>(
        &'a self,
        gateways: &'a [(String, String)],
    ) -> impl Iterator<Item = (&'a (String, String), &'a Listener)> {
        gateways.iter().flat_map(move |key| {
            self.gateways
                .get(key)
                .into_iter()
                .flatten()
                .map(move |l| (key, l))
        })
    }

    fn attached<'a>(
        &'a self,
        gateway: &'a (String, String),
        listener: &'a str,
    ) -> impl Iterator<Item = (usize, &'a Route)> {
        self.by_listener
            .get(gateway)
            .and_then(|listeners| listeners.get(listener))
            .into_iter()
            .flatten()
            .map(|&i| (i, &self.routes[i]))
    }

    pub(crate) fn seeds(&self, gateways: &[(String, String)], seeds: &mut Seeds) {
        for (key, l) in self.listeners(gateways) {
            let (Some(scheme), Some(port)) = (l.scheme, l.port) else {
                continue;
            };
            seeds.listener(scheme, port);
            let lhost = l.hostname.as_str();
            seeds.host(lhost);
            for (_, route) in self.attached(key, &l.name) {
                let hosts = if route.hostnames.is_empty() {
                    vec![lhost.to_string()]
                } else {
                    route.hostnames.clone()
                };
                for host in &hosts {
                    seeds.host(host);
                    for rule in &route.rules {
                        for m in &rule.matches {
                            let path = match &m.path {
                                PathMatch::Exact(v) | PathMatch::Prefix(v) => v.clone(),
                                PathMatch::Regex(_, matcher) => {
                                    matcher.sample().unwrap_or_else(|| "/".into())
                                }
                            };
                            let sample = |pairs: &[(String, Matcher)]| -> Vec<(String, String)> {
                                pairs
                                    .iter()
                                    .filter_map(|(k, v)| Some((k.clone(), v.sample()?)))
                                    .collect()
                            };
                            seeds.shape(
                                host,
                                Shape {
                                    path,
                                    method: m.method.clone(),
                                    headers: sample(&m.headers),
                                    query: sample(&m.query),
                                },
                            );
                        }
                    }
                }
            }
        }
    }

    /// The outcome under each ranking this target stands for (one, or two for `generic`
    /// when they disagree).
    pub(crate) fn evaluate(
        &self,
        gateways: &[(String, String)],
        probe: &Probe,
    ) -> Vec<(&'static str, Decision)> {
        let mut out: Vec<(&'static str, Decision)> = Vec::new();
        for &ranking in &self.rankings {
            let d = self.evaluate_with(gateways, probe, ranking);
            if out
                .iter()
                .all(|(_, prev)| !super::same(&prev.outcome, &d.outcome))
            {
                out.push((ranking.label(), d));
            }
        }
        out
    }

    /// The matches that compete for a request to `host` on listener `l`, in precedence
    /// order, as `(route, rule, match)` positions. Computed once per listener, host and
    /// ranking: probes of one host differ only in path and headers.
    fn competing(
        &self,
        gateway: &(String, String),
        l: &Listener,
        host: &str,
        ranking: Ranking,
    ) -> Rc<Vec<(usize, usize, usize)>> {
        // The listener's address identifies it: listeners are not moved after `build`.
        let listener_id = std::ptr::from_ref(l) as usize;
        if let Some(found) = self
            .competing
            .borrow()
            .get(&(listener_id, ranking))
            .and_then(|by_host| by_host.get(host))
        {
            return Rc::clone(found);
        }
        let lhost = l.hostname.as_str();
        let mut candidates: Vec<(usize, (bool, usize))> = Vec::new();
        for (i, route) in self.attached(gateway, &l.name) {
            let effective: Vec<String> = if route.hostnames.is_empty() {
                vec![lhost.to_string()]
            } else {
                route
                    .hostnames
                    .iter()
                    .filter_map(|h| intersect(h, lhost))
                    .collect()
            };
            if let Some(score) = effective
                .iter()
                .filter(|h| host_matches(h, host))
                .map(|h| host_rank(h))
                .max()
            {
                candidates.push((i, score));
            }
        }
        // The most specific matching hostname takes the request; less specific routes do
        // not compete at all (each hostname is its own virtual host).
        let best = candidates.iter().map(|(_, s)| *s).max();
        let mut entries: Vec<(usize, usize, usize)> = candidates
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
        let key_of = |&(r, ru, m): &(usize, usize, usize)| {
            let route = &self.routes[r];
            (route, &route.rules[ru], &route.rules[ru].matches[m])
        };
        entries.sort_by(|a, b| {
            let (ra, rua, ma) = key_of(a);
            let (rb, rub, mb) = key_of(b);
            rank(mb, ranking)
                .cmp(&rank(ma, ranking))
                .then_with(|| (&ra.namespace, &ra.name).cmp(&(&rb.namespace, &rb.name)))
                .then_with(|| rua.index.cmp(&rub.index))
                .then_with(|| ma.index.cmp(&mb.index))
        });
        let entries = Rc::new(entries);
        self.competing
            .borrow_mut()
            .entry((listener_id, ranking))
            .or_default()
            .insert(host.to_string(), Rc::clone(&entries));
        entries
    }

    /// Listener isolation: the listener of the probe's port and scheme whose hostname matches
    /// it most specifically. Looked up once per entry point, port, scheme and host.
    fn listener_for<'a>(
        &'a self,
        gateways: &'a [(String, String)],
        probe: &Probe,
    ) -> Option<(&'a (String, String), &'a Listener)> {
        let slot = (gateways.as_ptr() as usize, probe.port, probe.scheme);
        let cached = self
            .chosen_listener
            .borrow()
            .get(&slot)
            .and_then(|by_host| by_host.get(&probe.host).copied());
        let position = match cached {
            Some(p) => p,
            None => {
                let p = self
                    .listeners(gateways)
                    .enumerate()
                    .filter(|(_, (_, l))| {
                        l.port == Some(probe.port)
                            && l.scheme == Some(probe.scheme)
                            && host_matches(&l.hostname, &probe.host)
                    })
                    .max_by_key(|(_, (_, l))| host_rank(&l.hostname))
                    .map(|(i, _)| i);
                self.chosen_listener
                    .borrow_mut()
                    .entry(slot)
                    .or_default()
                    .insert(probe.host.clone(), p);
                p
            }
        };
        self.listeners(gateways).nth(position?)
    }

    fn evaluate_with(
        &self,
        gateways: &[(String, String)],
        probe: &Probe,
        ranking: Ranking,
    ) -> Decision {
        let Some((key, l)) = self.listener_for(gateways, probe) else {
            return Decision::new(Outcome::NoListener, None);
        };
        let entries = self.competing(key, l, &probe.host, ranking);
        let entries = entries.iter().map(|&(r, ru, m)| {
            let route = &self.routes[r];
            let rule = &route.rules[ru];
            (route, rule, &rule.matches[m])
        });
        for (route, rule, m) in entries {
            match test(m, probe) {
                None => return Decision::unmodelled_regex(),
                Some(false) => continue,
                Some(true) => {
                    let origin = route.object.map(|object| Origin {
                        object,
                        field: String::new(),
                    });
                    return Decision::new(action(rule, m, probe, l), origin);
                }
            }
        }
        Decision::new(Outcome::NotFound, None)
    }
}

/// Precedence key, larger first.
fn rank(m: &RuleMatch, ranking: Ranking) -> (u8, usize, bool, usize, usize, usize) {
    let (kind, len) = match (&m.path, ranking) {
        (PathMatch::Exact(v), _) => (3, v.len()),
        (PathMatch::Prefix(v), Ranking::Istio) => (2, v.len()),
        (PathMatch::Regex(v, _), Ranking::Istio) => (1, v.len()),
        (PathMatch::Regex(v, _), Ranking::EnvoyGateway) => (2, v.len()),
        // Envoy Gateway counts `/` as no path match.
        (PathMatch::Prefix(v), Ranking::EnvoyGateway) => (1, if v == "/" { 0 } else { v.len() }),
    };
    match ranking {
        Ranking::Istio => (
            kind,
            len,
            m.method.is_some(),
            m.headers.len(),
            m.query.len(),
            0,
        ),
        // Envoy Gateway: method is a header match; exact matches break ties.
        Ranking::EnvoyGateway => (
            kind,
            len,
            false,
            m.headers.len() + usize::from(m.method.is_some()),
            m.exact_conditions,
            m.query.len(),
        ),
    }
}

fn test(m: &RuleMatch, probe: &Probe) -> Option<bool> {
    let path_ok = match &m.path {
        PathMatch::Exact(v) => &probe.path == v,
        PathMatch::Prefix(v) => path_prefix_matches(v, &probe.path),
        PathMatch::Regex(_, matcher) => matcher.test(Some(&probe.path))?,
    };
    if !path_ok {
        return Some(false);
    }
    if m.method.as_ref().is_some_and(|me| me != &probe.method) {
        return Some(false);
    }
    for (name, matcher) in &m.headers {
        if !matcher.test(probe.header(name))? {
            return Some(false);
        }
    }
    for (name, matcher) in &m.query {
        if !matcher.test(probe.query_param(name))? {
            return Some(false);
        }
    }
    Some(true)
}

/// `ReplacePrefixMatch` / `ReplaceFullPath` on the request path.
fn modify_path(modifier: &Value, m: &RuleMatch, path: &str) -> String {
    match str_of(modifier, "type") {
        Some("ReplaceFullPath") => str_of(modifier, "replaceFullPath")
            .unwrap_or("/")
            .to_string(),
        Some("ReplacePrefixMatch") => {
            let replacement = str_of(modifier, "replacePrefixMatch").unwrap_or("/");
            let prefix = match &m.path {
                PathMatch::Prefix(v) => v.trim_end_matches('/'),
                _ => return path.to_string(),
            };
            let rest = path.get(prefix.len()..).unwrap_or("");
            let base = replacement.trim_end_matches('/');
            let out = format!("{base}{rest}");
            if out.is_empty() { "/".into() } else { out }
        }
        _ => path.to_string(),
    }
}

fn action(rule: &Rule, m: &RuleMatch, probe: &Probe, listener: &Listener) -> Outcome {
    let mut path = probe.path.clone();
    let mut host = None;
    for f in &rule.filters {
        match str_of(f, "type") {
            Some("RequestRedirect") => {
                let r = f.get("requestRedirect").unwrap_or(&Value::Null);
                let scheme = str_of(r, "scheme");
                let port = match (r.get("port").and_then(Value::as_u64), scheme) {
                    (Some(p), _) => Some(p as u32),
                    (None, Some(_)) => None,
                    (None, None) => listener.port,
                };
                let path = r
                    .get("path")
                    .map(|p| modify_path(p, m, &probe.path))
                    .unwrap_or_else(|| probe.path.clone());
                return Outcome::Redirect {
                    status: r.get("statusCode").and_then(Value::as_u64).unwrap_or(302) as u32,
                    location: Probe::url(
                        scheme.unwrap_or(probe.scheme.as_str()),
                        str_of(r, "hostname").unwrap_or(&probe.host),
                        port,
                        &path,
                    ),
                };
            }
            Some("URLRewrite") => {
                let r = f.get("urlRewrite").unwrap_or(&Value::Null);
                if let Some(p) = r.get("path") {
                    path = modify_path(p, m, &probe.path);
                }
                if let Some(h) = str_of(r, "hostname") {
                    host = Some(h.to_string());
                }
            }
            _ => {}
        }
    }
    if let Some(why) = &rule.unmodelled {
        return Outcome::Unmodelled(why.clone());
    }
    let backends = shares(rule.backends.clone());
    if backends.is_empty() {
        return Outcome::Respond { status: 500 };
    }
    Outcome::Forward {
        backends,
        path,
        host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(path: PathMatch) -> RuleMatch {
        let mut rm = http_match(0, &Value::Null);
        rm.path = path;
        rm
    }

    // httproute_types.go HTTPRouteRule.Matches: Exact, then the longest prefix; Istio's
    // sortHTTPRoutes puts RegularExpression last, Envoy Gateway's sort.go between them.
    #[test]
    fn regex_ranks_per_implementation() {
        let regex = m(PathMatch::Regex(
            "/v[0-9]".into(),
            Matcher::full_regex("/v[0-9]"),
        ));
        let prefix = m(PathMatch::Prefix("/v".into()));
        let exact = m(PathMatch::Exact("/v1".into()));
        assert!(rank(&prefix, Ranking::Istio) > rank(&regex, Ranking::Istio));
        assert!(rank(&regex, Ranking::EnvoyGateway) > rank(&prefix, Ranking::EnvoyGateway));
        assert!(rank(&exact, Ranking::EnvoyGateway) > rank(&regex, Ranking::EnvoyGateway));
        let long = m(PathMatch::Prefix("/api/v1".into()));
        assert!(rank(&long, Ranking::Istio) > rank(&prefix, Ranking::Istio));
    }

    // HTTPPathModifier: ReplacePrefixMatch replaces the matched prefix element-wise.
    #[test]
    fn prefix_replacement_is_element_wise() {
        let rm = m(PathMatch::Prefix("/strip".into()));
        let modifier = serde_json::json!({"type": "ReplacePrefixMatch", "replacePrefixMatch": "/"});
        assert_eq!(modify_path(&modifier, &rm, "/strip/a"), "/a");
        assert_eq!(modify_path(&modifier, &rm, "/strip"), "/");
        let modifier =
            serde_json::json!({"type": "ReplacePrefixMatch", "replacePrefixMatch": "/v2"});
        assert_eq!(modify_path(&modifier, &rm, "/strip/a"), "/v2/a");
    }
}
