//! How Istio's gateway proxy treats a request, from Gateways and VirtualServices. Sources
//! (istio/istio at `86c9f01fd735`); the facts are checked in `tests/semantics/istio/`:
//!
//! - `pilot/pkg/networking/core/gateway.go` `buildGatewayHTTPRouteConfig`: the HTTP servers
//!   of one port share a route configuration; each VirtualService bound to the Gateway adds
//!   its routes to a virtual host per intersecting host, in VirtualService order; a server
//!   with `tls.httpsRedirect` makes its hosts redirect plain HTTP with 301. The port in the
//!   `Host` header does not choose the virtual host (Istio's integration suite,
//!   `routing.go` `gatewayCases`).
//! - `pilot/pkg/model/push_context.go` / `config.go` `sortConfigByCreationTime`:
//!   VirtualServices are ordered by creation time, then name, then namespace; `exportTo` is
//!   judged against the proxy's namespace.
//! - `pilot/pkg/model/virtualservice_controller.go` `mergeVirtualServices` and
//!   `virtualservice.go`: a VirtualService without `hosts` is a delegate and is never bound
//!   itself; roots take their delegates' routes ([`delegate`]). Short names resolve in the
//!   namespace of the object that wrote them (`ResolveVirtualServiceShortnames`).
//! - `pilot/pkg/networking/core/route/route.go`: `BuildHTTPRoutesForVirtualService` (first
//!   match wins, nothing after a catch-all, `match.port` and `match.gateways` filter),
//!   `TranslateRouteMatch` (string prefixes, `ignoreUriCase` for exact and prefix only,
//!   regex `*` means present, `withoutHeaders` treats a missing header as empty),
//!   `SortVHostRoutes` (catch-all routes of merged VirtualServices go last), weights (a
//!   destination without weight next to weighted ones gets none of the traffic), redirect
//!   (default 301), rewrite (`prefix_rewrite` replaces the matched prefix), header
//!   operations (`Host`/`:authority` among them rewrite the host), fault aborts, mirrors and
//!   the route timeout.
//!
//! Recorded without being decided (`Behaviour::unevaluated`): retries, CORS, fault delays.
//! Not read: the mesh config beyond the cluster domain, EnvoyFilters, gateway TLS settings
//! other than the certificate.

mod delegate;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use regex::Regex;
use serde_json::Value;

use super::matcher::Matcher;
use super::{
    Behaviour, HeaderEdits, Matched, Mirror, Outcome, Request, Scheme, Share, Timeouts, Tls,
    hostname,
};
use crate::model::SourceBody;
use crate::model::SourceObject;
use crate::model::istio::{
    Destination, HeaderOperations, HttpMatchRequest, HttpRoute, StringMatch, VirtualService,
};
use crate::model::surrounding::Surrounding;

/// Istio's namespace for its own components, where an ingress gateway runs by default.
pub const DEFAULT_GATEWAY_NAMESPACE: &str = "istio-system";

/// What the model needs to know about the mesh besides the objects.
#[derive(Debug, Clone)]
pub struct Mesh {
    /// `meshConfig` trust domain's cluster suffix (`cluster.local`).
    pub cluster_domain: String,
    /// The namespace every gateway proxy runs in, when known; else it is found from the
    /// workloads carrying a Gateway's selector, else [`DEFAULT_GATEWAY_NAMESPACE`].
    pub gateway_namespace: Option<String>,
}

impl Default for Mesh {
    fn default() -> Self {
        Mesh {
            cluster_domain: "cluster.local".into(),
            gateway_namespace: None,
        }
    }
}

struct Server {
    port: u32,
    /// `name` of the server, else `port <number>`.
    label: String,
    scheme: Scheme,
    /// `(namespace filter, host)`: `None` for `*/host` and plain `host`.
    hosts: Vec<(Option<String>, String)>,
    /// Hosts without a namespace, or with `*/` (`httpsRedirect` makes their virtual hosts,
    /// existing or new, redirect).
    plain_hosts: Vec<String>,
    https_redirect: bool,
    /// The Secret `credentialName` names, in the proxy's namespace.
    credential: Option<String>,
}

struct Gateway {
    /// Position of the object in the input.
    object: usize,
    namespace: String,
    name: String,
    /// Where the Gateway's proxy runs: `exportTo` and `sourceNamespace` are judged against it.
    proxy_namespace: String,
    selector: BTreeMap<String, String>,
    /// Pod labels of the workloads the selector picks, when the input holds them: the
    /// proxy's labels besides the selector's, for `sourceLabels`.
    pod_labels: Vec<BTreeMap<String, String>>,
    servers: Vec<Server>,
}

impl Gateway {
    /// `sourceMatchHTTP`'s `SubsetOf(proxyLabels)`: the selector's labels are the proxy's;
    /// others count when every selected workload's pods carry them.
    fn proxy_has(&self, labels: &BTreeMap<String, String>) -> bool {
        let all_in =
            |have: &BTreeMap<String, String>| labels.iter().all(|(k, v)| have.get(k) == Some(v));
        all_in(&self.selector)
            || (!self.pod_labels.is_empty() && self.pod_labels.iter().all(all_in))
    }
}

#[derive(Debug, Clone)]
enum Uri {
    Exact,
    Prefix(usize),
    Regex,
}

struct Match {
    /// The match's position in the `match` list its object wrote (`None`: a delegate entry
    /// without match, taking its root's).
    index: Option<usize>,
    uri: Option<(Uri, Matcher)>,
    /// The text of the path condition, for decision points.
    uri_text: Option<String>,
    headers: Vec<(String, Matcher)>,
    without: Vec<(String, Matcher)>,
    query: Vec<(String, Matcher)>,
    method: Option<Matcher>,
    authority: Option<Matcher>,
    scheme: Option<Matcher>,
    port: Option<u32>,
    /// Resolved `namespace/name` of the match's gateways (`mesh` left out); `has_gateways`
    /// says whether the match named any (a match naming only `mesh` applies to sidecars).
    gateways: Vec<String>,
    has_gateways: bool,
    source_labels: BTreeMap<String, String>,
    source_namespace: Option<String>,
    catch_all: bool,
}

/// One `http[]` entry after delegates are merged.
struct Route {
    http: HttpRoute,
    matches: Vec<Match>,
    /// Position of the object that wrote the entry (the delegate for a merged entry), its
    /// `Kind namespace/name`, and the entry's position there.
    object: usize,
    written_by: String,
    index: usize,
    /// Short destination names resolve here: the namespace of the object that wrote them.
    namespace: String,
    /// The root VirtualService of a delegated entry.
    root: Option<(usize, String)>,
}

struct VirtualServiceModel {
    namespace: String,
    name: String,
    /// `metadata.creationTimestamp`, when the input has it.
    created: Option<String>,
    hosts: Vec<String>,
    gateways: Vec<String>,
    export_to: Vec<String>,
    routes: Vec<Route>,
}

/// A route of a virtual host: VirtualService, route, match.
#[derive(Debug, Clone, Copy)]
struct Entry {
    vs: usize,
    route: usize,
    matched: Option<usize>,
    catch_all: bool,
}

/// Virtual hosts of one route configuration: domain → (routes, require TLS).
type VirtualHosts = BTreeMap<String, (Vec<Entry>, bool)>;

/// The servers of one route configuration, as `(gateway, server)` positions.
type ServerSet = Vec<(usize, usize)>;

/// A request shape at which Istio's answer can change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionPoint {
    pub host: String,
    pub path: String,
    pub method: Option<String>,
    pub headers: Vec<(String, String)>,
    pub query: Vec<(String, String)>,
}

/// What [`World::answer`] adds to the [`Behaviour`] for the equivalence check: positions of
/// the objects in the input, and whether only a string prefix matched.
#[derive(Debug, Clone)]
pub struct Answer {
    pub behaviour: Behaviour,
    /// The object and field of the rule that decided.
    pub origin: Option<(usize, String)>,
    /// Other objects that took part (the root of a delegated route).
    pub also: Vec<usize>,
    /// The matched prefix took the path only as a string prefix (`/api` taking `/apix`).
    pub string_prefix: bool,
    /// Another VirtualService (`namespace/name`) matches the request too and would answer
    /// otherwise, and which of the two Istio tries first depends on creation times the input
    /// does not give (`configCompareByCreationTime`): the answer assumed name order.
    pub order_unknown: Option<String>,
}

/// The Gateways and VirtualServices of a mesh.
pub struct World {
    gateways: Vec<Gateway>,
    virtual_services: Vec<VirtualServiceModel>,
    domain: String,
    /// For each Gateway, the Gateways of its proxy (same selector; itself alone without one).
    proxies: Vec<Vec<usize>>,
    /// Route configurations already built, by their servers.
    tables: RefCell<HashMap<ServerSet, Rc<VirtualHosts>>>,
}

impl World {
    /// The world of `objects` (positions in answers are positions in this sequence).
    pub fn new<'a>(objects: impl IntoIterator<Item = &'a SourceObject>, mesh: &Mesh) -> World {
        let objects: Vec<&SourceObject> = objects.into_iter().collect();
        let mut gateways = Vec::new();
        let mut proxy_namespaces: HashMap<BTreeMap<String, String>, String> = HashMap::new();
        for (position, obj) in objects.iter().enumerate() {
            if let SourceBody::IstioGateway(g) = &obj.body {
                let proxy_namespace = proxy_namespaces
                    .entry(g.selector.clone())
                    .or_insert_with(|| proxy_namespace(&objects, mesh, &g.selector))
                    .clone();
                gateways.push(Gateway {
                    object: position,
                    namespace: obj.namespace.clone(),
                    name: obj.meta.name.clone(),
                    proxy_namespace,
                    selector: g.selector.clone(),
                    pod_labels: objects
                        .iter()
                        .filter_map(|o| match &o.body {
                            SourceBody::Surrounding(Surrounding::Workload { pod_labels })
                                if !g.selector.is_empty()
                                    && g.selector
                                        .iter()
                                        .all(|(k, v)| pod_labels.get(k) == Some(v)) =>
                            {
                                Some(pod_labels.clone())
                            }
                            _ => None,
                        })
                        .collect(),
                    servers: g
                        .servers
                        .iter()
                        .filter_map(|s| server(s, &obj.namespace))
                        .collect(),
                });
            }
        }
        // Delegates: VirtualServices without hosts, by `(namespace, name)`; one admission
        // refuses never exists, and its roots' entries find no delegate.
        let mut delegates: HashMap<(&str, &str), (usize, &VirtualService)> = HashMap::new();
        for (position, obj) in objects.iter().enumerate() {
            if let SourceBody::VirtualService(vs) = &obj.body
                && vs.hosts.is_empty()
                && refused_by_admission(vs).is_none()
            {
                delegates
                    .entry((obj.namespace.as_str(), obj.meta.name.as_str()))
                    .or_insert((position, vs));
            }
        }
        let mut virtual_services = Vec::new();
        for (position, obj) in objects.iter().enumerate() {
            if let SourceBody::VirtualService(vs) = &obj.body
                && !vs.hosts.is_empty()
                && refused_by_admission(vs).is_none()
            {
                virtual_services.push(virtual_service(
                    position,
                    obj,
                    vs,
                    &delegates,
                    &mesh.cluster_domain,
                ));
            }
        }
        // `configCompareByCreationTime`: creation time, then name, then namespace. Without a
        // timestamp the object is taken as applied now, after those that have one; objects
        // applied together share a second and go by name ([`Answer::order_unknown`] says
        // where that guess decided).
        virtual_services.sort_by(|a, b| {
            (a.created.is_none(), &a.created, &a.name, &a.namespace).cmp(&(
                b.created.is_none(),
                &b.created,
                &b.name,
                &b.namespace,
            ))
        });
        // A proxy's Gateways in Istio's order (`initGateways`, `sortConfigByCreationTime`:
        // creation time, then name, then namespace): its route configurations take the
        // servers, and so the VirtualServices' routes, Gateway by Gateway in that order.
        let proxies = (0..gateways.len())
            .map(|g| {
                let selector = &gateways[g].selector;
                if selector.is_empty() {
                    return vec![g];
                }
                let mut members: Vec<usize> = (0..gateways.len())
                    .filter(|&i| &gateways[i].selector == selector)
                    .collect();
                members.sort_by(|&a, &b| {
                    (&gateways[a].name, &gateways[a].namespace)
                        .cmp(&(&gateways[b].name, &gateways[b].namespace))
                });
                members
            })
            .collect();
        World {
            proxies,
            gateways,
            virtual_services,
            domain: mesh.cluster_domain.clone(),
            tables: RefCell::default(),
        }
    }

    /// How many Gateways the world holds; [`World::behaviour`] takes one's position.
    pub fn gateway_count(&self) -> usize {
        self.gateways.len()
    }

    /// The input position of Gateway `gateway`.
    pub fn gateway_object(&self, gateway: usize) -> Option<usize> {
        self.gateways.get(gateway).map(|g| g.object)
    }

    /// The Gateways served by the same proxy as `gateway` (same selector), itself included.
    pub fn proxy(&self, gateway: usize) -> Vec<usize> {
        self.proxies.get(gateway).cloned().unwrap_or_default()
    }

    /// Whether Gateway `gateway` has a server the model routes HTTP on.
    pub fn serves_http(&self, gateway: usize) -> bool {
        self.gateways
            .get(gateway)
            .is_some_and(|g| !g.servers.is_empty())
    }

    /// The VirtualServices bound to a Gateway that the proxy can see, in Istio's order
    /// (`push_context.go` `VirtualServicesForGateway`, from `initVirtualServices`' indexes):
    /// those of the proxy's namespace exported to it, then those of other namespaces
    /// exported to it by name, then the public ones; creation order within each.
    fn bound(&self, gateway: usize) -> Vec<(usize, &VirtualServiceModel)> {
        let g = &self.gateways[gateway];
        let key = format!("{}/{}", g.namespace, g.name);
        let mut out: Vec<(usize, &VirtualServiceModel)> = self
            .virtual_services
            .iter()
            .enumerate()
            .filter(|(_, vs)| {
                exported_to(&vs.export_to, &vs.namespace, &g.proxy_namespace)
                    && vs.gateways.contains(&key)
            })
            .collect();
        let bucket = |vs: &VirtualServiceModel| {
            if vs.export_to.is_empty() || vs.export_to.iter().any(|e| e == "*") {
                2
            } else if vs.namespace == g.proxy_namespace {
                0
            } else {
                1
            }
        };
        out.sort_by_key(|(i, vs)| (bucket(vs), *i));
        out
    }

    /// The listeners (`scheme`, port) of `gateway`'s proxy.
    pub fn listeners(&self, gateway: usize) -> Vec<(Scheme, u32)> {
        let mut out: Vec<(Scheme, u32)> = self
            .proxy(gateway)
            .into_iter()
            .flat_map(|g| self.gateways[g].servers.iter())
            .map(|s| (s.scheme, s.port))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Where the answer can change on `gateway`'s proxy: every server host and, for each
    /// VirtualService host, every match's path (or a path its regex accepts) with the
    /// method, headers and query parameters its other conditions need.
    pub fn decision_points(&self, gateway: usize) -> Vec<DecisionPoint> {
        let mut out = Vec::new();
        for g in self.proxy(gateway) {
            for s in &self.gateways[g].servers {
                for (_, h) in &s.hosts {
                    out.push(DecisionPoint {
                        host: h.clone(),
                        path: "/".into(),
                        method: None,
                        headers: Vec::new(),
                        query: Vec::new(),
                    });
                }
            }
            for (_, vs) in self.bound(g) {
                for host in &vs.hosts {
                    out.push(DecisionPoint {
                        host: host.clone(),
                        path: "/".into(),
                        method: None,
                        headers: Vec::new(),
                        query: Vec::new(),
                    });
                    for route in &vs.routes {
                        for m in &route.matches {
                            out.extend(match_points(m, host));
                        }
                    }
                }
            }
        }
        out
    }

    /// The routes a VirtualService contributes to a server of `gateway` on `port`
    /// (route.go `BuildHTTPRoutesForVirtualService`).
    fn routes(&self, vs_index: usize, port: u32, gateway: usize) -> Vec<Entry> {
        let vs = &self.virtual_services[vs_index];
        let g = &self.gateways[gateway];
        let key = format!("{}/{}", g.namespace, g.name);
        let mut out = Vec::new();
        for (r, route) in vs.routes.iter().enumerate() {
            if route.matches.is_empty() {
                out.push(Entry {
                    vs: vs_index,
                    route: r,
                    matched: None,
                    catch_all: true,
                });
                break;
            }
            let mut catch_all = false;
            for (mi, m) in route.matches.iter().enumerate() {
                if m.port.is_some_and(|p| p != port) {
                    continue;
                }
                let source_ok = if m.has_gateways {
                    m.gateways.contains(&key)
                } else {
                    g.proxy_has(&m.source_labels)
                        && m.source_namespace
                            .as_deref()
                            .is_none_or(|ns| ns == g.proxy_namespace)
                };
                if !source_ok {
                    continue;
                }
                out.push(Entry {
                    vs: vs_index,
                    route: r,
                    matched: Some(mi),
                    catch_all: m.catch_all,
                });
                if m.catch_all {
                    catch_all = true;
                    break;
                }
            }
            if catch_all {
                break;
            }
        }
        out
    }

    /// The virtual hosts of a route configuration made of these servers, in the order
    /// Istio builds them. Built once per set of servers.
    fn virtual_hosts(&self, servers: &[(usize, usize)]) -> Rc<VirtualHosts> {
        if let Some(table) = self.tables.borrow().get(servers) {
            return Rc::clone(table);
        }
        let mut vhosts: VirtualHosts = BTreeMap::new();
        for &(g, si) in servers {
            let server = &self.gateways[g].servers[si];
            for (vs_index, vs) in self.bound(g) {
                let mut hosts: Vec<String> = Vec::new();
                for (filter, sh) in &server.hosts {
                    if filter.as_ref().is_some_and(|ns| ns != &vs.namespace) {
                        continue;
                    }
                    for vh in &vs.hosts {
                        if let Some(h) = hostname::intersect(sh, Some(vh))
                            && !hosts.contains(&h)
                        {
                            hosts.push(h);
                        }
                    }
                }
                if hosts.is_empty() {
                    continue;
                }
                let routes = self.routes(vs_index, server.port, g);
                if routes.is_empty() {
                    continue;
                }
                for h in hosts {
                    let vhost = vhosts.entry(h).or_default();
                    vhost.0.extend(routes.iter().copied());
                    vhost.1 |= server.https_redirect;
                }
            }
            if server.https_redirect {
                for h in &server.plain_hosts {
                    vhosts.entry(h.clone()).or_default().1 = true;
                }
            }
        }
        let table = Rc::new(vhosts);
        self.tables
            .borrow_mut()
            .insert(servers.to_vec(), Rc::clone(&table));
        table
    }

    /// What `gateway`'s proxy does with `request`.
    pub fn behaviour(&self, gateway: usize, request: &Request) -> Behaviour {
        self.answer(gateway, request).behaviour
    }

    /// [`World::behaviour`] with where the answer came from.
    pub fn answer(&self, gateway: usize, request: &Request) -> Answer {
        let bare = |outcome: Outcome| Answer {
            behaviour: Behaviour::of(outcome),
            origin: None,
            also: Vec::new(),
            string_prefix: false,
            order_unknown: None,
        };
        let port = u32::from(request.port);
        let mut servers: Vec<((usize, usize), &Server)> = self
            .proxy(gateway)
            .into_iter()
            .flat_map(|g| {
                self.gateways[g]
                    .servers
                    .iter()
                    .enumerate()
                    .map(move |(i, s)| ((g, i), s))
            })
            .filter(|(_, s)| s.port == port && s.scheme == request.scheme)
            .collect();
        if request.scheme == Scheme::Https {
            // Each HTTPS server is its own filter chain, chosen by SNI: the most specific
            // host wins.
            let best = servers
                .iter()
                .flat_map(|(_, s)| s.hosts.iter())
                .filter(|(_, h)| hostname::matches(h, &request.host))
                .map(|(_, h)| hostname::specificity(h))
                .max();
            let Some(best) = best else {
                return bare(Outcome::NoListener);
            };
            servers.retain(|(_, s)| {
                s.hosts.iter().any(|(_, h)| {
                    hostname::matches(h, &request.host) && hostname::specificity(h) == best
                })
            });
            servers.truncate(1);
        }
        let Some(&((first_gateway, _), first_server)) = servers.first() else {
            return bare(Outcome::NoListener);
        };
        let g = &self.gateways[first_gateway];
        let matched = |object: Option<String>, rule, m| Matched {
            gateway: format!("{}/{}", g.namespace, g.name),
            listener: first_server.label.clone(),
            object,
            rule,
            r#match: m,
            also: Vec::new(),
        };
        let tls = (request.scheme == Scheme::Https).then(|| Tls {
            certificate: first_server
                .credential
                .as_ref()
                .map(|c| format!("{}/{c}", g.proxy_namespace)),
        });
        let key: Vec<(usize, usize)> = servers.iter().map(|(id, _)| *id).collect();
        let vhosts = self.virtual_hosts(&key);
        // The virtual host is chosen by the Host header without its port.
        let authority = request.authority();
        let (vhost_name, _) = hostname::split_authority(&authority);
        let vhost_name = vhost_name.to_ascii_lowercase();
        let chosen = vhosts.get(&vhost_name).or_else(|| {
            vhosts
                .iter()
                .filter(|(d, _)| d.starts_with("*.") && hostname::matches(d, &vhost_name))
                .max_by_key(|(d, _)| d.len())
                .map(|(_, v)| v)
                .or_else(|| vhosts.get("*"))
        });
        let mut answer = bare(Outcome::NoRoute);
        answer.behaviour.matched = Some(matched(None, None, None));
        answer.behaviour.tls = tls.clone();
        let Some((entries, require_tls)) = chosen else {
            return answer;
        };
        if *require_tls && request.scheme == Scheme::Http {
            // Envoy `createSslRedirectPath`: `https://` and the Host header as sent, port
            // included.
            answer.behaviour.outcome = Outcome::Redirect {
                status: 301,
                location: format!(
                    "https://{}{}{}",
                    authority,
                    request.path,
                    request.query_string()
                ),
            };
            return answer;
        }
        // SortVHostRoutes: catch-all routes of every VirtualService go last.
        let ordered: Vec<&Entry> = entries
            .iter()
            .filter(|e| !e.catch_all)
            .chain(entries.iter().filter(|e| e.catch_all))
            .collect();
        for (position, e) in ordered.iter().enumerate() {
            let vs = &self.virtual_services[e.vs];
            let route = &vs.routes[e.route];
            let m = e.matched.map(|i| &route.matches[i]);
            let hit = match m {
                Some(m) => m.test(request),
                None => Some(true),
            };
            match hit {
                None => {
                    answer.behaviour.outcome = Outcome::NotModelled {
                        reason: "a regex the model cannot compile".into(),
                    };
                    return answer;
                }
                Some(false) => continue,
                Some(true) => {}
            }
            let index = m.and_then(|m| m.index);
            let field = match index {
                Some(i) => format!("spec.http[{}].match[{i}]", route.index),
                None => format!("spec.http[{}]", route.index),
            };
            let mut behaviour = self.action(route, m, request);
            let mut found = matched(Some(route.written_by.clone()), Some(route.index), index);
            if let Some((_, root)) = &route.root {
                found.also.push(root.clone());
            }
            behaviour.matched = Some(found);
            behaviour.tls = tls;
            let string_prefix = match m.and_then(|m| m.uri.as_ref()) {
                Some((_, Matcher::Prefix { value, fold })) => {
                    let (path, value) = if *fold {
                        (
                            request.path.to_ascii_lowercase(),
                            value.to_ascii_lowercase(),
                        )
                    } else {
                        (request.path.clone(), value.clone())
                    };
                    !super::gateway_api::path_prefix_matches(&value, &path)
                }
                _ => false,
            };
            let order_unknown = self.rival(
                first_gateway,
                e,
                &ordered[position + 1..],
                request,
                &behaviour,
            );
            return Answer {
                behaviour,
                origin: Some((route.object, field)),
                also: route.root.iter().map(|(p, _)| *p).collect(),
                string_prefix,
                order_unknown,
            };
        }
        answer
    }

    /// A VirtualService after `chosen`'s in `rest` that also matches `request` and would
    /// answer otherwise, where only creation times the input lacks put `chosen`'s first:
    /// same `exportTo` tier and catch-all group, and either lacks a timestamp.
    fn rival(
        &self,
        gateway: usize,
        chosen: &Entry,
        rest: &[&Entry],
        request: &Request,
        behaviour: &Behaviour,
    ) -> Option<String> {
        let g = &self.gateways[gateway];
        let tier = |vs: &VirtualServiceModel| {
            if vs.export_to.is_empty() || vs.export_to.iter().any(|e| e == "*") {
                2
            } else if vs.namespace == g.proxy_namespace {
                0
            } else {
                1
            }
        };
        let first = &self.virtual_services[chosen.vs];
        for e in rest {
            if e.vs == chosen.vs || e.catch_all != chosen.catch_all {
                continue;
            }
            let other = &self.virtual_services[e.vs];
            if tier(other) != tier(first) || (first.created.is_some() && other.created.is_some()) {
                continue;
            }
            let route = &other.routes[e.route];
            let m = e.matched.map(|i| &route.matches[i]);
            if m.is_some_and(|m| m.test(request) != Some(true)) {
                continue;
            }
            if self.action(route, m, request).outcome != behaviour.outcome {
                return Some(format!("{}/{}", other.namespace, other.name));
            }
        }
        None
    }

    fn action(&self, route: &Route, m: Option<&Match>, request: &Request) -> Behaviour {
        let http = &route.http;
        let uri = m.and_then(|m| m.uri.as_ref()).map(|(kind, _)| kind.clone());
        let mut b = Behaviour::of(Outcome::NoRoute);
        // `route.go` `TranslateRoute` attaches the fault to every route, redirects and direct
        // responses included, and Envoy's fault filter runs before the router: an abort
        // answers its status before anything else, for the percentage of requests it names
        // (a delay only slows the request down).
        if let Some(fault) = &http.fault {
            if let Some(delay) = fault.get("delay") {
                b.unevaluated.push(("fault.delay".into(), delay.clone()));
            }
            let shares = fault_shares(fault);
            if shares.abort_percent >= 100.0 {
                match shares.abort {
                    Some(AbortWith::Http(status)) => {
                        b.outcome = Outcome::Direct { status };
                        return b;
                    }
                    _ => {
                        b.outcome = Outcome::NotModelled {
                            reason: "a gRPC fault abort".into(),
                        };
                        return b;
                    }
                }
            } else if shares.abort_percent > 0.0 {
                b.outcome = Outcome::NotModelled {
                    reason: "a fault abort for part of the requests".into(),
                };
                return b;
            }
        }
        if let Some(r) = &http.redirect {
            let scheme = r
                .scheme
                .clone()
                .unwrap_or_else(|| request.scheme.as_str().to_string());
            // route.go `ApplyRedirect`: a redirect code Envoy has no action for leaves the
            // route without one, and Envoy refuses the whole route configuration.
            if let Some(code) = r.redirect_code
                && !matches!(code, 0 | 301 | 302 | 303 | 307 | 308)
            {
                b.outcome = Outcome::NotModelled {
                    reason: format!(
                        "redirect code {code}: Istio writes a route without action, which Envoy refuses with the port's whole route configuration"
                    ),
                };
                return b;
            }
            // The port Istio gives Envoy (`port_redirect`): the redirect's `port`, or for
            // FROM_REQUEST_PORT the server's port, none when it is the scheme's default.
            let default_of = |scheme: &str| if scheme == "https" { 443 } else { 80 };
            let port_redirect = match (r.port, r.derive_port.as_deref()) {
                (Some(p), _) => Some(p),
                (None, Some("FROM_REQUEST_PORT")) => Some(u32::from(request.port)),
                _ => None,
            }
            .filter(|&p| p != 0 && p != default_of(&scheme));
            // Envoy `newUri`: the redirect's host with only `port_redirect`; else the Host
            // header, whose port `processRequestHost` drops when a port is set or when the
            // scheme changes and it was the old scheme's default, then `port_redirect`.
            let authority = request.authority();
            let host = match &r.authority {
                Some(a) => a.clone(),
                None => {
                    let (name, port) = hostname::split_authority(&authority);
                    let drop_port = port_redirect.is_some()
                        || (scheme != request.scheme.as_str()
                            && port
                                .is_some_and(|p| p == request.scheme.default_port().to_string()));
                    match port {
                        Some(p) if !drop_port => format!("{name}:{p}"),
                        _ => name.to_string(),
                    }
                }
            };
            let port = port_redirect.map(|p| p.to_string());
            let path = match (&r.uri, &r.prefix_rewrite) {
                (Some(u), _) if !u.is_empty() => u.clone(),
                (_, Some(p)) if !p.is_empty() => replace_prefix(&request.path, uri.as_ref(), p),
                _ => request.path.clone(),
            };
            b.outcome = Outcome::Redirect {
                status: r
                    .redirect_code
                    .and_then(|c| u16::try_from(c).ok())
                    .unwrap_or(301),
                location: match port {
                    Some(p) => format!("{scheme}://{host}:{p}{path}{}", request.query_string()),
                    None => format!("{scheme}://{host}{path}{}", request.query_string()),
                },
            };
            return b;
        }
        self.edits(route, &mut b);
        if let Some(direct) = &http.direct_response {
            let status = direct
                .get("status")
                .and_then(Value::as_u64)
                .and_then(|s| u16::try_from(s).ok())
                .unwrap_or(200);
            b.outcome = Outcome::Direct { status };
            return b;
        }
        if http.delegate.is_some() {
            // A delegate inside a delegate: Istio's validation refuses it.
            b.outcome = Outcome::NotModelled {
                reason: "a delegate VirtualService that delegates again".into(),
            };
            return b;
        }
        b.outcome = self.forward(route, uri.as_ref(), request);
        b
    }

    /// Header edits, mirrors, the timeout and what the model records without deciding.
    fn edits(&self, route: &Route, b: &mut Behaviour) {
        let http = &route.http;
        if let Some(h) = &http.headers {
            b.request_headers = header_edits(h.request.as_ref());
            b.response_headers = header_edits(h.response.as_ref());
        }
        let mut mirror = |d: &Destination, percent: Option<f64>| {
            let Some(host) = d.host.as_deref() else {
                return;
            };
            let (namespace, name) = resolve_destination(host, &route.namespace, &self.domain);
            b.mirrors.push(Mirror {
                namespace,
                name,
                port: d.port.as_ref().and_then(|p| p.number),
                percent: percent.map_or(100, |p| p.clamp(0.0, 100.0).round() as u32),
            });
        };
        if let Some(d) = &http.mirror {
            let percent = http
                .mirror_percentage
                .as_ref()
                .and_then(|p| p.value)
                .or(http.mirror_percent.map(f64::from))
                // The proto field's own name: Istio's CRD schema lists it too, and protojson
                // reads it.
                .or_else(|| http.extra.get("mirror_percent").and_then(Value::as_f64));
            mirror(d, percent);
        }
        for m in &http.mirrors {
            if let Some(d) = &m.destination {
                mirror(d, m.percentage.as_ref().and_then(|p| p.value));
            }
        }
        if let Some(t) = &http.timeout {
            b.timeouts = Some(Timeouts {
                request: Some(t.clone()),
                backend_request: None,
            });
        }
        if let Some(r) = &http.retries {
            b.unevaluated
                .push(("retries".into(), Value::String(format!("{r:?}"))));
        }
        if let Some(c) = &http.cors_policy {
            b.unevaluated
                .push(("corsPolicy".into(), Value::String(format!("{c:?}"))));
        }
    }

    /// The request proxied to the route's destinations.
    fn forward(&self, route: &Route, uri: Option<&Uri>, request: &Request) -> Outcome {
        let http = &route.http;
        if http.route.is_empty() {
            return Outcome::NotModelled {
                reason: "rule without route, redirect or response".into(),
            };
        }
        let single = http.route.len() == 1;
        let backends: Vec<Share> = http
            .route
            .iter()
            .filter_map(|d| {
                let dest = d.destination.as_ref()?;
                let (namespace, name) =
                    resolve_destination(dest.host.as_deref()?, &route.namespace, &self.domain);
                let weight = if single {
                    100
                } else {
                    d.weight.unwrap_or(0).max(0) as u64
                };
                let (request_headers, response_headers) = d
                    .headers
                    .as_ref()
                    .map(|h| {
                        (
                            header_edits(h.request.as_ref()),
                            header_edits(h.response.as_ref()),
                        )
                    })
                    .unwrap_or_default();
                Some(Share {
                    namespace,
                    name,
                    port: dest.port.as_ref().and_then(|p| p.number),
                    weight,
                    request_headers,
                    response_headers,
                })
            })
            .collect();
        if backends.iter().all(|s| s.weight == 0) {
            return Outcome::NotModelled {
                reason: "every destination has weight 0".into(),
            };
        }
        let mut path = request.path.clone();
        let mut host = None;
        if let Some(rw) = &http.rewrite {
            if let Some(rr) = &rw.uri_regex_rewrite {
                let (Some(pattern), Some(sub)) = (&rr.pattern, &rr.rewrite) else {
                    return Outcome::NotModelled {
                        reason: "incomplete uriRegexRewrite".into(),
                    };
                };
                let Ok(re) = Regex::new(pattern) else {
                    return Outcome::NotModelled {
                        reason: "a regex the model cannot compile".into(),
                    };
                };
                path = re
                    .replace_all(&path, envoy_substitution(sub).as_str())
                    .into_owned();
            } else if let Some(u) = rw.uri.as_deref().filter(|u| !u.is_empty()) {
                path = replace_prefix(&request.path, uri, u);
            }
            host = rw.authority.clone();
        }
        // `route.go`: a `Host` or `:authority` set among the request headers rewrites the
        // host, the route's before its destinations' (which must agree to be one answer).
        // `TranslateHeadersOperations`: an authority among `set`, else among `add`.
        let set_host = |h: Option<&crate::model::istio::Headers>| {
            let ops = h?.request.as_ref()?;
            let find = |m: &BTreeMap<String, String>| {
                m.iter()
                    .find(|(k, _)| is_host_header(k))
                    .map(|(_, v)| v.clone())
            };
            find(&ops.set).or_else(|| find(&ops.add))
        };
        if host.is_none() {
            host = set_host(http.headers.as_ref()).or_else(|| {
                let per: Vec<Option<String>> = http
                    .route
                    .iter()
                    .map(|d| set_host(d.headers.as_ref()))
                    .collect();
                per.first()
                    .cloned()
                    .flatten()
                    .filter(|first| per.iter().all(|h| h.as_ref() == Some(first)))
            });
            // `processWeightedDestination`: a destination's own authority applies to its
            // share only, which one answer cannot say.
            let per: Vec<Option<String>> = http
                .route
                .iter()
                .map(|d| set_host(d.headers.as_ref()))
                .collect();
            if host.is_none() && per.iter().any(Option::is_some) {
                return Outcome::NotModelled {
                    reason: "destinations that rewrite the host differently".into(),
                };
            }
        }
        Outcome::Backends {
            backends,
            path,
            // Not rewritten: the request's host, as the other models give it (the port of the
            // Host header goes along unchanged).
            host: host.unwrap_or_else(|| request.host.clone()),
        }
    }
}

fn is_host_header(name: &str) -> bool {
    name.eq_ignore_ascii_case("host") || name == ":authority"
}

/// Istio's header operations as edits; a `Host`/`:authority` rewrites the host instead
/// (route.go), so it is not an edit. Envoy removes first, then sets, then adds
/// (`header_parser.cc` `evaluateHeaders`); [`HeaderEdits`] applies set, add, remove, so a
/// name both removed and set or added is written as set, not removed.
fn header_edits(ops: Option<&HeaderOperations>) -> HeaderEdits {
    let Some(ops) = ops else {
        return HeaderEdits::default();
    };
    let removed = |name: &str| ops.remove.iter().any(|r| r.eq_ignore_ascii_case(name));
    let mut set: Vec<(String, String)> = ops
        .set
        .iter()
        .filter(|(k, _)| !is_host_header(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut add = Vec::new();
    for (k, v) in ops.add.iter().filter(|(k, _)| !is_host_header(k)) {
        let also_set = set.iter().any(|(s, _)| s.eq_ignore_ascii_case(k));
        if removed(k) && !also_set {
            // Removed, then added: the added value alone.
            set.push((k.clone(), v.clone()));
        } else {
            add.push((k.clone(), v.clone()));
        }
    }
    let remove = ops
        .remove
        .iter()
        .filter(|r| {
            !set.iter().any(|(s, _)| s.eq_ignore_ascii_case(r))
                && !add.iter().any(|(a, _)| a.eq_ignore_ascii_case(r))
        })
        .cloned()
        .collect();
    HeaderEdits { set, add, remove }
}

/// The server as the model needs it; `None` for what is not HTTP routing.
fn server(s: &crate::model::istio::Server, namespace: &str) -> Option<Server> {
    let port = s.port.as_ref()?;
    let scheme = scheme_of(
        port.protocol.as_deref()?,
        s.tls.as_ref().map(|t| t.mode.as_deref()),
    )?;
    let number = port.number?;
    let hosts = s
        .hosts
        .iter()
        .map(|h| match h.split_once('/') {
            Some(("*", host)) => (None, host.to_ascii_lowercase()),
            Some((".", host)) => (Some(namespace.to_string()), host.to_ascii_lowercase()),
            Some((ns, host)) => (Some(ns.to_string()), host.to_ascii_lowercase()),
            None => (None, h.to_ascii_lowercase()),
        })
        .collect();
    Some(Server {
        port: number,
        label: s.name.clone().unwrap_or_else(|| format!("port {number}")),
        scheme,
        hosts,
        // `sanitizeServerHostNamespace`: `*/host` is `host` (`*/*` is `*`); `ns/host` keeps
        // its namespace and never names a virtual host of its own.
        plain_hosts: s
            .hosts
            .iter()
            .filter_map(|h| match h.split_once('/') {
                None => Some(h.to_ascii_lowercase()),
                Some(("*", rest)) => Some(rest.to_ascii_lowercase()),
                Some(_) => None,
            })
            .collect(),
        https_redirect: s
            .tls
            .as_ref()
            .and_then(|t| t.https_redirect)
            .unwrap_or(false),
        credential: s.tls.as_ref().and_then(|t| {
            t.credential_name
                .clone()
                .or_else(|| t.credential_names.first().cloned())
        }),
    })
}

/// What a fault abort answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbortWith {
    Http(u16),
    Grpc,
}

/// How much of the traffic a `fault` touches (istio/istio `route.go` `TranslateFault`,
/// `translatePercentToFractionalPercent`; istio/api `HTTPFaultInjection`: without
/// `percentage` no request is aborted or delayed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaultShares {
    /// Percent of requests aborted (parts per million, rounded down as Istio converts them);
    /// 0 when the abort has no status (Istio builds no abort then).
    pub abort_percent: f64,
    pub abort: Option<AbortWith>,
    /// Percent of requests delayed; 0 for an exponential delay, which Istio does not build.
    pub delay_percent: f64,
}

/// The shares of `fault` (the VirtualService's `http[].fault` object).
pub fn fault_shares(fault: &Value) -> FaultShares {
    let percent = |v: &Value| {
        v.pointer("/percentage/value")
            .and_then(Value::as_f64)
            .map(|p| ((p * 10_000.0).floor() / 10_000.0).clamp(0.0, 100.0))
    };
    let abort = fault.get("abort").and_then(|a| {
        if let Some(s) = a.get("httpStatus").and_then(Value::as_u64) {
            u16::try_from(s).ok().map(AbortWith::Http)
        } else if a.get("grpcStatus").and_then(Value::as_str).is_some() {
            Some(AbortWith::Grpc)
        } else {
            None
        }
    });
    let abort_percent = match abort {
        Some(_) => fault.get("abort").and_then(percent).unwrap_or(0.0),
        None => 0.0,
    };
    let delay_percent = fault
        .get("delay")
        .filter(|d| d.get("fixedDelay").is_some())
        .map(|d| {
            // The deprecated integer `percent` counts when `percentage` is absent.
            percent(d).unwrap_or_else(|| {
                d.get("percent")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0)
                    .clamp(0.0, 100.0)
            })
        })
        .unwrap_or(0.0);
    FaultShares {
        abort_percent,
        abort,
        delay_percent,
    }
}

/// Why Istio's validating webhook refuses a VirtualService (`pkg/config/validation/
/// validation.go` `ValidateVirtualService`, `virtualservice.go` `validateHTTPRoute`): such an
/// object is never stored, so it routes nothing. The rules read so far: a delegate (no
/// `hosts`) with `gateways`, `tls` or `tcp`, or with an entry that delegates again; a
/// redirect code outside 3xx (`validateHTTPRedirect`).
pub fn refused_by_admission(vs: &VirtualService) -> Option<String> {
    if vs.hosts.is_empty() {
        if !vs.gateways.is_empty() {
            return Some("a delegate VirtualService must have no gateways".into());
        }
        if !vs.tls.is_empty() || !vs.tcp.is_empty() {
            return Some("a delegate VirtualService must have no tls or tcp routes".into());
        }
        if vs.http.iter().any(|h| h.delegate.is_some()) {
            return Some("a delegate HTTP route cannot delegate again".into());
        }
    }
    for h in &vs.http {
        if let Some(code) = h.redirect.as_ref().and_then(|r| r.redirect_code)
            && code != 0
            && !(300..=399).contains(&code)
        {
            return Some(format!("{code} is not a valid redirect code (3xx)"));
        }
    }
    None
}

/// What Istio makes of one root `http[]` entry that names a delegate
/// (`virtualservice_controller.go` `mergeVirtualServices`, `virtualservice.go`
/// `MergeHTTPRoutes`). The translator inlines exactly this, and the model routes with it.
#[derive(Debug, Clone)]
pub enum Delegation {
    /// The named VirtualService has `hosts`, so it is a root, not a delegate: Istio finds no
    /// delegate of that name and drops the root's entry.
    HasHosts,
    /// The delegate's `exportTo` hides it from the root's namespace: the entry is dropped.
    NotExported,
    /// Istio's admission refuses the delegate (the reason): it never exists, the entry is
    /// dropped.
    Refused(String),
    /// One outcome per delegate entry, in the delegate's order.
    Merged(Vec<MergedEntry>),
}

/// One delegate entry after the merge.
#[derive(Debug, Clone)]
pub enum MergedEntry {
    /// Merged with the root entry: root conditions under the delegate's, root settings the
    /// delegate leaves unset. Short names are resolved in the namespace that wrote them.
    Kept(Box<HttpRoute>),
    /// A match of the entry does not fit under any root match (`hasConflict`): Istio drops
    /// the whole entry.
    Conflict,
}

/// Whether a VirtualService in `namespace` with `export_to` is visible from `viewer`'s
/// namespace (what `mergeVirtualServices` asks of a delegate).
pub fn visible_from(export_to: &[String], namespace: &str, viewer: &str) -> bool {
    exported_to(export_to, namespace, viewer)
}

/// Istio's merge of the root entry `root` (of a VirtualService in `root_namespace`) with the
/// delegate `delegate` (in `delegate_namespace`).
pub fn delegation(
    root: &HttpRoute,
    root_namespace: &str,
    delegate: &VirtualService,
    delegate_namespace: &str,
) -> Delegation {
    if !delegate.hosts.is_empty() {
        return Delegation::HasHosts;
    }
    if let Some(why) = refused_by_admission(delegate) {
        return Delegation::Refused(why);
    }
    if !exported_to(&delegate.export_to, delegate_namespace, root_namespace) {
        return Delegation::NotExported;
    }
    let root = resolved(root, root_namespace);
    Delegation::Merged(
        delegate
            .http
            .iter()
            .map(
                |leaf| match delegate::merge_route(&root, &resolved(leaf, delegate_namespace)) {
                    Some((merged, _)) => MergedEntry::Kept(Box::new(merged)),
                    None => MergedEntry::Conflict,
                },
            )
            .collect(),
    )
}

/// A VirtualService with hosts, its delegates merged in.
fn virtual_service(
    position: usize,
    obj: &SourceObject,
    vs: &VirtualService,
    delegates: &HashMap<(&str, &str), (usize, &VirtualService)>,
    domain: &str,
) -> VirtualServiceModel {
    let namespace = obj.namespace.as_str();
    let written_by = format!("VirtualService {namespace}/{}", obj.meta.name);
    let mut routes = Vec::new();
    for (index, http) in vs.http.iter().enumerate() {
        let http = resolved(http, namespace);
        let Some(reference) = &http.delegate else {
            let matches = http
                .matches
                .iter()
                .enumerate()
                .map(|(i, m)| compile_match(Some(i), m))
                .collect();
            routes.push(route(
                http,
                matches,
                position,
                &written_by,
                index,
                namespace,
                None,
            ));
            continue;
        };
        let delegate_ns = reference
            .namespace
            .as_deref()
            .filter(|n| !n.is_empty())
            .unwrap_or(namespace);
        let Some(name) = reference.name.as_deref() else {
            continue;
        };
        let Some(&(d_position, d_vs)) = delegates.get(&(delegate_ns, name)) else {
            continue;
        };
        if !exported_to(&d_vs.export_to, delegate_ns, namespace) {
            continue;
        }
        let d_written_by = format!("VirtualService {delegate_ns}/{name}");
        for (d_index, d_http) in d_vs.http.iter().enumerate() {
            let leaf = resolved(d_http, delegate_ns);
            let Some((merged, positions)) = delegate::merge_route(&http, &leaf) else {
                continue;
            };
            let matches = merged
                .matches
                .iter()
                .zip(positions)
                .map(|(m, i)| compile_match(i, m))
                .collect();
            routes.push(route(
                merged,
                matches,
                d_position,
                &d_written_by,
                d_index,
                delegate_ns,
                Some((position, written_by.clone())),
            ));
        }
    }
    VirtualServiceModel {
        namespace: namespace.to_string(),
        name: obj.meta.name.clone(),
        created: obj.meta.creation_timestamp.clone(),
        // Short hosts are Services of the VirtualService's namespace
        // (`ResolveVirtualServiceShortnames`).
        hosts: vs
            .hosts
            .iter()
            .map(|h| {
                let h = h.to_ascii_lowercase();
                if h.contains('.') || h == "*" {
                    h
                } else {
                    format!("{h}.{namespace}.svc.{domain}")
                }
            })
            .collect(),
        gateways: vs
            .gateways
            .iter()
            .filter_map(|g| resolve_gateway(g, namespace))
            .collect(),
        export_to: vs.export_to.clone(),
        routes,
    }
}

/// The entry with its match-level gateway names resolved in `namespace` (mesh kept), as
/// `ResolveVirtualServiceShortnames` does before any merge.
fn resolved(http: &HttpRoute, namespace: &str) -> HttpRoute {
    let mut out = http.clone();
    for m in &mut out.matches {
        m.gateways = m
            .gateways
            .iter()
            .map(|g| resolve_gateway(g, namespace).unwrap_or_else(|| g.clone()))
            .collect();
    }
    out
}

fn route(
    http: HttpRoute,
    matches: Vec<Match>,
    object: usize,
    written_by: &str,
    index: usize,
    namespace: &str,
    root: Option<(usize, String)>,
) -> Route {
    Route {
        http,
        matches,
        object,
        written_by: written_by.to_string(),
        index,
        namespace: namespace.to_string(),
        root,
    }
}

/// A destination host as `(namespace, name)`: a short name is a Service of `namespace`;
/// `name.ns.svc[.domain]` a Service of `ns`; anything else stays a host (empty namespace).
fn resolve_destination(host: &str, namespace: &str, domain: &str) -> (String, String) {
    if !host.contains('.') {
        return (namespace.to_string(), host.to_string());
    }
    let trimmed = host
        .strip_suffix(&format!(".svc.{domain}"))
        .or_else(|| host.strip_suffix(".svc"));
    if let Some(rest) = trimmed
        && let Some((name, ns)) = rest.split_once('.')
        && !ns.contains('.')
    {
        return (ns.to_string(), name.to_string());
    }
    (String::new(), host.to_string())
}

/// Istio's `StringMatch` as a condition: an empty match and regex `*` mean "present"
/// (route.go `canBeConvertedToPresentMatch`).
fn condition(m: &StringMatch, fold: bool) -> Matcher {
    if let Some(v) = &m.exact {
        Matcher::exact(v, fold)
    } else if let Some(v) = &m.prefix {
        Matcher::prefix(v, fold)
    } else if let Some(v) = &m.regex {
        if v == "*" {
            Matcher::Present
        } else {
            Matcher::full_regex(v)
        }
    } else {
        Matcher::Present
    }
}

/// A match whose gateway names are already resolved (`namespace/name`, or `mesh`).
fn compile_match(index: Option<usize>, m: &HttpMatchRequest) -> Match {
    let fold = m.ignore_uri_case.unwrap_or(false);
    let uri = m.uri.as_ref().map(|u| {
        if let Some(v) = &u.exact {
            (Uri::Exact, Matcher::exact(v, fold))
        } else if let Some(v) = &u.prefix {
            (Uri::Prefix(v.len()), Matcher::prefix(v, fold))
        } else if let Some(v) = &u.regex {
            // ignoreUriCase does not apply to safe_regex (Envoy `case_sensitive`).
            (Uri::Regex, Matcher::full_regex(v))
        } else {
            (Uri::Prefix(1), Matcher::prefix("/", false))
        }
    });
    let pairs = |map: &BTreeMap<String, StringMatch>| -> Vec<(String, Matcher)> {
        map.iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), condition(v, false)))
            .collect()
    };
    let headers = pairs(&m.headers);
    let without = pairs(&m.without_headers);
    let query: Vec<(String, Matcher)> = m
        .query_params
        .iter()
        .map(|(k, v)| (k.clone(), condition(v, false)))
        .collect();
    let catch_all = match &m.uri {
        None => true,
        Some(u) => u.prefix.as_deref() == Some("/") || u.regex.as_deref() == Some(".*"),
    } && headers.is_empty()
        && without.is_empty()
        && query.is_empty()
        && m.method.is_none()
        && m.authority.is_none()
        && m.scheme.is_none();
    Match {
        index,
        uri,
        uri_text: m.uri.as_ref().and_then(|u| {
            u.exact
                .clone()
                .or_else(|| u.prefix.clone())
                .or_else(|| u.regex.clone())
        }),
        headers,
        without,
        query,
        method: m.method.as_ref().map(|v| condition(v, false)),
        authority: m.authority.as_ref().map(|v| condition(v, false)),
        scheme: m.scheme.as_ref().map(|v| condition(v, false)),
        port: m.port,
        gateways: m
            .gateways
            .iter()
            .filter(|g| *g != "mesh")
            .cloned()
            .collect(),
        has_gateways: !m.gateways.is_empty(),
        source_labels: m.source_labels.clone(),
        source_namespace: m.source_namespace.clone(),
        catch_all,
    }
}

impl Match {
    /// route.go `TranslateRouteMatch`: every condition must hold; `None` when one cannot be
    /// evaluated.
    fn test(&self, request: &Request) -> Option<bool> {
        if let Some((_, m)) = &self.uri
            && !m.test(Some(&request.path))?
        {
            return Some(false);
        }
        for (name, m) in &self.headers {
            // Envoy matches the pseudo-headers too: `:method` is the request's method,
            // `:authority` its Host, `:path` its path.
            let value = match name.as_str() {
                ":method" => Some(request.method.clone()),
                ":authority" => Some(request.authority()),
                ":path" => Some(format!("{}{}", request.path, request.query_string())),
                ":scheme" => Some(request.scheme.as_str().to_string()),
                _ => request.header(name),
            };
            if !m.test(value.as_deref())? {
                return Some(false);
            }
        }
        for (name, m) in &self.without {
            // Inverted; a missing header counts as empty unless the match is "present".
            let value = request.header(name);
            let hit = match m {
                Matcher::Present => value.is_some(),
                _ => m.test(Some(value.as_deref().unwrap_or("")))?,
            };
            if hit {
                return Some(false);
            }
        }
        for (name, m) in &self.query {
            if !m.test(request.query_param(name))? {
                return Some(false);
            }
        }
        for (m, value) in [
            (&self.method, request.method.clone()),
            (&self.authority, request.authority()),
            (&self.scheme, request.scheme.as_str().to_string()),
        ] {
            if let Some(m) = m
                && !m.test(Some(&value))?
            {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// Decision points of one match on `host`: its path (or a path its regex accepts) with
/// what its other conditions need, and the host its authority condition names.
fn match_points(m: &Match, host: &str) -> Vec<DecisionPoint> {
    let path = match (&m.uri, &m.uri_text) {
        (Some((Uri::Regex, matcher)), Some(text)) => matcher
            .sample()
            .unwrap_or_else(|| crate::pattern::literal_prefix(text)),
        (_, Some(text)) => text.clone(),
        _ => "/".into(),
    };
    let sample = |pairs: &[(String, Matcher)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.sample()?)))
            .collect()
    };
    let mut headers = sample(&m.headers);
    headers.extend(sample(&m.without));
    let mut out = vec![DecisionPoint {
        host: host.to_string(),
        path: path.clone(),
        method: m.method.as_ref().and_then(Matcher::sample),
        headers,
        query: sample(&m.query),
    }];
    if let Some(Matcher::Exact { value, .. }) = &m.authority {
        out.push(DecisionPoint {
            host: value.split(':').next().unwrap_or(value).to_string(),
            path,
            method: None,
            headers: Vec::new(),
            query: Vec::new(),
        });
    }
    out
}

/// The scheme a server accepts. HTTPS terminates TLS; HTTP2 and gRPC servers with a TLS mode
/// do too (the i2gw and Istio docs' `protocol: GRPC` + `tls: {mode: SIMPLE}`); an HTTP server
/// with `tls` only carries `httpsRedirect`. Passthrough is not HTTP routing.
fn scheme_of(protocol: &str, tls_mode: Option<Option<&str>>) -> Option<Scheme> {
    let mode = tls_mode.flatten().map(str::to_ascii_uppercase);
    let passthrough = matches!(
        mode.as_deref(),
        Some("PASSTHROUGH") | Some("AUTO_PASSTHROUGH")
    );
    match protocol.to_ascii_uppercase().as_str() {
        "HTTP" => Some(Scheme::Http),
        "HTTP2" | "GRPC" | "GRPC-WEB" if mode.is_none() => Some(Scheme::Http),
        "HTTP2" | "GRPC" | "GRPC-WEB" | "HTTPS" if !passthrough => Some(Scheme::Https),
        _ => None,
    }
}

/// Envoy `prefix_rewrite`: the matched prefix (or the whole path for exact and regex
/// matches) is replaced; without a uri match the matched prefix is `/`.
fn replace_prefix(path: &str, uri: Option<&Uri>, replacement: &str) -> String {
    match uri {
        Some(Uri::Prefix(len)) => format!("{replacement}{}", path.get(*len..).unwrap_or("")),
        Some(Uri::Exact) | Some(Uri::Regex) => replacement.to_string(),
        None => format!("{replacement}{}", path.get(1..).unwrap_or("")),
    }
}

/// Envoy's `\1` substitution syntax in the `regex` crate's `${1}` form.
fn envoy_substitution(sub: &str) -> String {
    let mut out = String::new();
    let mut chars = sub.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push_str("${");
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    out.push(d);
                    chars.next();
                }
                out.push('}');
            }
            '$' => out.push_str("$$"),
            _ => out.push(c),
        }
    }
    out
}

/// The Gateway a `gateways` entry names, as `namespace/name` (`pilot/pkg/model/
/// virtualservice.go` `resolveGatewayName`): `mesh` names none; `ns/name` (`./name`: the
/// VirtualService's own namespace); the legacy `name.ns` and `name.ns.svc.cluster.local`
/// forms; a short name is in the VirtualService's namespace.
fn resolve_gateway(reference: &str, namespace: &str) -> Option<String> {
    if reference == "mesh" {
        return None;
    }
    if let Some((ns, name)) = reference.split_once('/') {
        let ns = if ns == "." { namespace } else { ns };
        return Some(format!("{ns}/{name}"));
    }
    match reference.split_once('.') {
        Some((name, rest)) => {
            let ns = rest.split('.').next().unwrap_or(rest);
            Some(format!("{ns}/{name}"))
        }
        None => Some(format!("{namespace}/{reference}")),
    }
}

/// Whether an object with `export_to` in `namespace` is visible from `viewer`
/// (`push_context.go` `initVirtualServices`, `virtualservice_controller.go`
/// `convertExportToSet`): no `exportTo` (the mesh default `*`), `*`, the viewer's namespace,
/// or `.` when it is the object's own.
fn exported_to(export_to: &[String], namespace: &str, viewer: &str) -> bool {
    export_to.is_empty()
        || export_to
            .iter()
            .any(|e| e == "*" || e == viewer || (e == "." && viewer == namespace))
}

/// The namespace of the gateway proxy a selector picks, which decides what the proxy sees
/// through `exportTo`: the configured gateway namespace, else that of the workloads among
/// the objects whose pod labels carry the selector (`istio-system` first when several),
/// else Istio's default `istio-system` (the proxy installed elsewhere).
fn proxy_namespace(
    objects: &[&SourceObject],
    mesh: &Mesh,
    selector: &BTreeMap<String, String>,
) -> String {
    if let Some(ns) = &mesh.gateway_namespace {
        return ns.clone();
    }
    let mut namespaces: Vec<&str> = objects
        .iter()
        .filter_map(|o| match &o.body {
            SourceBody::Surrounding(Surrounding::Workload { pod_labels })
                if !selector.is_empty()
                    && selector.iter().all(|(k, v)| pod_labels.get(k) == Some(v)) =>
            {
                Some(o.namespace.as_str())
            }
            _ => None,
        })
        .collect();
    namespaces.sort_unstable();
    namespaces.dedup();
    if namespaces.is_empty() || namespaces.contains(&DEFAULT_GATEWAY_NAMESPACE) {
        return DEFAULT_GATEWAY_NAMESPACE.to_string();
    }
    namespaces[0].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    // pilot/pkg/model/config.go resolveGatewayName: `./gw` is the VirtualService's namespace, the
    // FQDN form names `gw.ns`.
    #[test]
    fn gateway_references_resolve_like_istio() {
        let r = |s| resolve_gateway(s, "app");
        assert_eq!(r("gw").as_deref(), Some("app/gw"));
        assert_eq!(r("./gw").as_deref(), Some("app/gw"));
        assert_eq!(r("istio-system/gw").as_deref(), Some("istio-system/gw"));
        assert_eq!(
            r("gw.istio-system.svc.cluster.local").as_deref(),
            Some("istio-system/gw")
        );
        assert_eq!(r("mesh"), None);
    }

    #[test]
    fn destinations_resolve_to_services() {
        let r = |h| resolve_destination(h, "app", "cluster.local");
        assert_eq!(r("reviews"), ("app".into(), "reviews".into()));
        assert_eq!(r("r.prod.svc.cluster.local"), ("prod".into(), "r".into()));
        assert_eq!(
            r("api.example.com"),
            (String::new(), "api.example.com".into())
        );
    }

    // Envoy prefix_rewrite (route_entry: "the matched prefix (or path) should be swapped").
    #[test]
    fn prefix_rewrite_replaces_the_matched_prefix() {
        assert_eq!(
            replace_prefix("/api/x", Some(&Uri::Prefix(4)), "/v2"),
            "/v2/x"
        );
        assert_eq!(replace_prefix("/api", Some(&Uri::Exact), "/v2"), "/v2");
        assert_eq!(replace_prefix("/foo", None, "/v2/"), "/v2/foo");
        assert_eq!(envoy_substitution(r"/\2"), "/${2}");
    }

    // Envoy header_parser.cc evaluateHeaders: remove, then overwrite, then append.
    #[test]
    fn header_operations_remove_before_they_set_and_add() {
        let ops = HeaderOperations {
            set: [("x-a".to_string(), "1".to_string())].into(),
            add: [
                ("x-b".to_string(), "2".to_string()),
                ("x-a".to_string(), "3".to_string()),
            ]
            .into(),
            remove: vec!["X-A".into(), "x-b".into(), "x-c".into()],
            ..Default::default()
        };
        let sent = header_edits(Some(&ops)).apply(&[
            ("x-a".into(), "old".into()),
            ("x-b".into(), "old".into()),
            ("x-c".into(), "old".into()),
        ]);
        let value = |n: &str| -> Vec<&str> {
            sent.iter()
                .filter(|(k, _)| k == n)
                .map(|(_, v)| v.as_str())
                .collect()
        };
        assert_eq!(value("x-a"), ["1", "3"]);
        assert_eq!(value("x-b"), ["2"]);
        assert!(value("x-c").is_empty());
    }

    #[test]
    fn export_to_is_judged_from_the_viewer() {
        assert!(exported_to(&[], "a", "b"));
        assert!(exported_to(&[".".into()], "a", "a"));
        assert!(!exported_to(&[".".into()], "a", "b"));
        assert!(exported_to(&["b".into()], "a", "b"));
    }
}
