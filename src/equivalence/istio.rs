//! How Istio's gateway proxy routes a request, from the repository's Gateways and
//! VirtualServices. Sources (istio/istio at the commit `docs/equivalence.md` names):
//!
//! - `pilot/pkg/networking/core/gateway.go` `buildGatewayHTTPRouteConfig`: the HTTP servers
//!   of one port share a route configuration; each VirtualService bound to the Gateway adds
//!   its routes to a virtual host per intersecting host, in VirtualService order; a server
//!   with `tls.httpsRedirect` makes its hosts redirect plain HTTP with 301.
//! - `pilot/pkg/model/push_context.go` / `config.go` `sortConfigByCreationTime`:
//!   VirtualServices are ordered by creation time, then name, then namespace; `exportTo` is
//!   judged against the proxy's namespace.
//! - `pilot/pkg/networking/core/route/route.go`: `BuildHTTPRoutesForVirtualService` (first
//!   match wins, nothing after a catch-all, `match.port` and `match.gateways` filter),
//!   `TranslateRouteMatch` (string prefixes, `ignoreUriCase` for exact and prefix only,
//!   regex `*` means present, `withoutHeaders` treats a missing header as empty),
//!   `SortVHostRoutes` (catch-all routes of merged VirtualServices go last), weights (a
//!   destination without weight next to weighted ones gets none of the traffic), redirect
//!   (default 301) and rewrite (`prefix_rewrite` replaces the matched prefix).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use regex::Regex;

use super::matching::{
    Matcher, host_matches, host_rank, intersect, literal_prefix, path_prefix_matches,
};
use super::probes::{Seeds, Shape};
use super::{Backend, Decision, Frontend, OldFrontend, Origin, Outcome, Probe, Scheme, shares};
use crate::config::{Config, DEFAULT_ISTIO_GATEWAY_NAMESPACE};
use crate::gwapi::Generated;
use crate::index::Index;
use crate::model::SourceBody;
use crate::model::istio::{HttpMatchRequest, HttpRoute, StringMatch, VirtualService};
use crate::translated::SourceResult;

struct Server {
    port: u32,
    scheme: Scheme,
    /// `(namespace filter, host)`: `None` for `*/host` and plain `host`.
    hosts: Vec<(Option<String>, String)>,
    /// Hosts written without a namespace (`httpsRedirect` creates a virtual host for them).
    plain_hosts: Vec<String>,
    https_redirect: bool,
}

struct Gateway {
    object: usize,
    namespace: String,
    name: String,
    /// Where the Gateway's proxy runs (`translate::istio::proxy`): `exportTo` and
    /// `sourceNamespace` are judged against it.
    proxy_namespace: String,
    selector: BTreeMap<String, String>,
    servers: Vec<Server>,
}

#[derive(Debug, Clone)]
enum Uri {
    Exact,
    Prefix(usize),
    Regex,
}

struct Match<'a> {
    index: usize,
    uri: Option<(Uri, Matcher)>,
    headers: Vec<(String, Matcher)>,
    without: Vec<(String, Matcher)>,
    query: Vec<(String, Matcher)>,
    method: Option<Matcher>,
    authority: Option<Matcher>,
    scheme: Option<Matcher>,
    port: Option<u32>,
    gateways: Vec<(String, String)>,
    raw: &'a HttpMatchRequest,
    catch_all: bool,
}

struct Http<'a> {
    route: &'a HttpRoute,
    matches: Vec<Match<'a>>,
}

struct VirtualServiceModel<'a> {
    object: usize,
    namespace: String,
    name: String,
    hosts: Vec<String>,
    gateways: Vec<(String, String)>,
    raw: &'a VirtualService,
    http: Vec<Http<'a>>,
}

/// A route of a virtual host: VirtualService, `http[]` entry, match.
#[derive(Debug, Clone, Copy)]
struct Entry {
    vs: usize,
    http: usize,
    matched: Option<usize>,
    catch_all: bool,
}

/// Virtual hosts of one route configuration: domain → (routes, require TLS).
type VirtualHosts = BTreeMap<String, (Vec<Entry>, bool)>;

/// The servers of one route configuration, as `(gateway, server)` positions.
type ServerSet = Vec<(usize, usize)>;

pub(crate) struct Model<'a> {
    gateways: Vec<Gateway>,
    virtual_services: Vec<VirtualServiceModel<'a>>,
    domain: String,
    /// For each Gateway, the Gateways of its proxy (same selector; itself alone without one).
    proxies: Vec<Vec<usize>>,
    /// Route configurations already built, by their servers.
    tables: RefCell<HashMap<ServerSet, Rc<VirtualHosts>>>,
}

/// A destination host as a backend: a short name is a Service of the VirtualService's
/// namespace; `name.ns.svc[.domain]` a Service of `ns`; anything else stays a host.
fn resolve_destination(host: &str, namespace: &str, domain: &str, port: Option<u32>) -> Backend {
    let service = |ns: &str, name: &str| Backend {
        namespace: ns.to_string(),
        name: name.to_string(),
        port,
    };
    if !host.contains('.') {
        return service(namespace, host);
    }
    let trimmed = host
        .strip_suffix(&format!(".svc.{domain}"))
        .or_else(|| host.strip_suffix(".svc"));
    if let Some(rest) = trimmed
        && let Some((name, ns)) = rest.split_once('.')
        && !ns.contains('.')
    {
        return service(ns, name);
    }
    Backend {
        namespace: String::new(),
        name: host.to_string(),
        port,
    }
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

fn compile_match<'a>(index: usize, m: &'a HttpMatchRequest, namespace: &str) -> Match<'a> {
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
            .filter_map(|g| resolve_gateway(g, namespace))
            .collect(),
        raw: m,
        catch_all,
    }
}

impl Match<'_> {
    /// Route.go `TranslateRouteMatch`: every condition must hold.
    fn test(&self, probe: &Probe) -> Option<bool> {
        if let Some((_, m)) = &self.uri
            && !m.test(Some(&probe.path))?
        {
            return Some(false);
        }
        for (name, m) in &self.headers {
            // Envoy matches the pseudo-headers too: `:method` is the request's method,
            // `:authority` its Host, `:path` its path.
            let value = match name.as_str() {
                ":method" => Some(probe.method.clone()),
                ":authority" => Some(probe.authority()),
                ":path" => Some(format!("{}{}", probe.path, probe.query_string())),
                ":scheme" => Some(probe.scheme.as_str().to_string()),
                _ => probe.header(name).map(str::to_string),
            };
            if !m.test(value.as_deref())? {
                return Some(false);
            }
        }
        for (name, m) in &self.without {
            // Inverted; a missing header counts as empty unless the match is "present".
            let hit = match m {
                Matcher::Present => probe.header(name).is_some(),
                _ => m.test(Some(probe.header(name).unwrap_or("")))?,
            };
            if hit {
                return Some(false);
            }
        }
        for (name, m) in &self.query {
            if !m.test(probe.query_param(name))? {
                return Some(false);
            }
        }
        for (m, value) in [
            (&self.method, probe.method.clone()),
            (&self.authority, probe.authority()),
            (&self.scheme, probe.scheme.as_str().to_string()),
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

impl<'a> Model<'a> {
    pub(crate) fn build(index: &'a Index, config: &Config) -> Self {
        let mut gateways = Vec::new();
        let mut virtual_services = Vec::new();
        let mut proxy_namespaces: HashMap<BTreeMap<String, String>, String> = HashMap::new();
        for (position, obj) in index.objects.iter().enumerate() {
            match &obj.body {
                SourceBody::IstioGateway(g) => {
                    let servers = g
                        .servers
                        .iter()
                        .filter_map(|s| {
                            let port = s.port.as_ref()?;
                            let scheme = scheme_of(
                                port.protocol.as_deref()?,
                                s.tls.as_ref().map(|t| t.mode.as_deref()),
                            )?;
                            let hosts = s
                                .hosts
                                .iter()
                                .map(|h| match h.split_once('/') {
                                    Some(("*", host)) => (None, host.to_ascii_lowercase()),
                                    Some((".", host)) => {
                                        (Some(obj.namespace.clone()), host.to_ascii_lowercase())
                                    }
                                    Some((ns, host)) => {
                                        (Some(ns.to_string()), host.to_ascii_lowercase())
                                    }
                                    None => (None, h.to_ascii_lowercase()),
                                })
                                .collect();
                            Some(Server {
                                port: port.number?,
                                scheme,
                                hosts,
                                plain_hosts: s
                                    .hosts
                                    .iter()
                                    .filter(|h| !h.contains('/'))
                                    .map(|h| h.to_ascii_lowercase())
                                    .collect(),
                                https_redirect: s
                                    .tls
                                    .as_ref()
                                    .and_then(|t| t.https_redirect)
                                    .unwrap_or(false),
                            })
                        })
                        .collect();
                    gateways.push(Gateway {
                        object: position,
                        namespace: obj.namespace.clone(),
                        name: obj.meta.name.clone(),
                        proxy_namespace: proxy_namespaces
                            .entry(g.selector.clone())
                            .or_insert_with(|| proxy_namespace(index, config, &g.selector))
                            .clone(),
                        selector: g.selector.clone(),
                        servers,
                    });
                }
                SourceBody::VirtualService(vs) => {
                    virtual_services.push(Self::virtual_service(
                        position,
                        &obj.namespace,
                        &obj.meta.name,
                        vs,
                        &config.cluster_domain,
                    ));
                }
                _ => {}
            }
        }
        // Creation time is unknown offline: objects applied together share a second, and
        // Istio then orders by name, then namespace.
        virtual_services.sort_by(|a, b| (&a.name, &a.namespace).cmp(&(&b.name, &b.namespace)));
        let proxies = (0..gateways.len())
            .map(|g| {
                let selector = &gateways[g].selector;
                if selector.is_empty() {
                    return vec![g];
                }
                (0..gateways.len())
                    .filter(|&i| &gateways[i].selector == selector)
                    .collect()
            })
            .collect();
        Model {
            proxies,
            gateways,
            virtual_services,
            domain: config.cluster_domain.clone(),
            tables: RefCell::default(),
        }
    }

    fn virtual_service(
        object: usize,
        namespace: &str,
        name: &str,
        vs: &'a VirtualService,
        domain: &str,
    ) -> VirtualServiceModel<'a> {
        let gateways = if vs.gateways.is_empty() {
            Vec::new()
        } else {
            vs.gateways
                .iter()
                .filter_map(|g| resolve_gateway(g, namespace))
                .collect()
        };
        // Short hosts are Services of the VirtualService's namespace
        // (virtualservice.go `resolveVirtualServiceShortnames`).
        let hosts = vs
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
            .collect();
        VirtualServiceModel {
            object,
            namespace: namespace.to_string(),
            name: name.to_string(),
            hosts,
            gateways,
            raw: vs,
            http: vs
                .http
                .iter()
                .map(|route| Http {
                    route,
                    matches: route
                        .matches
                        .iter()
                        .enumerate()
                        .map(|(i, m)| compile_match(i, m, namespace))
                        .collect(),
                })
                .collect(),
        }
    }

    /// One entry point per gateway proxy (Istio Gateways with the same selector share one)
    /// whose Gateways were translated to Gateway API Gateways.
    pub(crate) fn frontends(&self, results: &[SourceResult]) -> Vec<Frontend> {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for i in 0..self.gateways.len() {
            let proxy = self.proxy(i);
            if !seen.insert(proxy.clone()) {
                continue;
            }
            let mut gateways: Vec<(String, String)> = Vec::new();
            for &g in &proxy {
                let object = self.gateways[g].object;
                for r in results.iter().filter(|r| r.object == object) {
                    gateways.extend(
                        r.generated
                            .iter()
                            .filter(|o| matches!(o, Generated::Gateway(_)))
                            .map(|o| (o.namespace().to_string(), o.name().to_string())),
                    );
                }
            }
            let serves = proxy.iter().any(|&g| !self.gateways[g].servers.is_empty());
            if !gateways.is_empty() && serves {
                out.push(Frontend {
                    old_name: "Istio",
                    old: OldFrontend::Istio(i),
                    gateways,
                    anchor: self.gateways[i].object,
                });
            }
        }
        out
    }

    /// The Gateways served by the same proxy as `gateway` (same selector).
    fn proxy(&self, gateway: usize) -> Vec<usize> {
        self.proxies.get(gateway).cloned().unwrap_or_default()
    }

    /// The VirtualServices bound to a Gateway that the proxy can see, in Istio's order.
    fn bound(&self, gateway: usize) -> impl Iterator<Item = (usize, &VirtualServiceModel<'a>)> {
        let g = &self.gateways[gateway];
        self.virtual_services
            .iter()
            .enumerate()
            .filter(move |(_, vs)| {
                exported_to(vs.raw, &vs.namespace, &g.proxy_namespace)
                    && vs
                        .gateways
                        .iter()
                        .any(|(ns, name)| ns == &g.namespace && name == &g.name)
            })
    }

    pub(crate) fn seeds(&self, gateway: usize, seeds: &mut Seeds) {
        for g in self.proxy(gateway) {
            for s in &self.gateways[g].servers {
                seeds.listener(s.scheme, s.port);
                for (_, h) in &s.hosts {
                    seeds.host(h);
                }
            }
            for (_, vs) in self.bound(g) {
                for host in &vs.hosts {
                    seeds.host(host);
                    for http in &vs.http {
                        for m in &http.matches {
                            add_match_seeds(m, host, seeds);
                        }
                    }
                }
            }
        }
    }

    /// The routes a VirtualService contributes to a server of `gateway` on `port`
    /// (route.go `BuildHTTPRoutesForVirtualService`).
    fn routes(&self, vs_index: usize, port: u32, gateway: usize) -> Vec<Entry> {
        let vs = &self.virtual_services[vs_index];
        let g = &self.gateways[gateway];
        let mut out = Vec::new();
        for (h, http) in vs.http.iter().enumerate() {
            if http.matches.is_empty() {
                out.push(Entry {
                    vs: vs_index,
                    http: h,
                    matched: None,
                    catch_all: true,
                });
                break;
            }
            let mut catch_all = false;
            for m in &http.matches {
                if m.port.is_some_and(|p| p != port) {
                    continue;
                }
                // A match naming only `mesh` applies to sidecars, never on a gateway.
                let source_ok = if !m.raw.gateways.is_empty() {
                    m.gateways
                        .iter()
                        .any(|(ns, name)| ns == &g.namespace && name == &g.name)
                } else {
                    m.raw
                        .source_labels
                        .iter()
                        .all(|(k, v)| g.selector.get(k) == Some(v))
                        && m.raw
                            .source_namespace
                            .as_deref()
                            .is_none_or(|ns| ns == g.proxy_namespace)
                };
                if !source_ok {
                    continue;
                }
                out.push(Entry {
                    vs: vs_index,
                    http: h,
                    matched: Some(m.index),
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

    /// The virtual hosts of a route configuration made of these servers (`(gateway,
    /// server)`): domain → (routes, require TLS), in the order Istio builds them. Built once
    /// per set of servers.
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
                        if let Some(h) = intersect(sh, vh)
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

    /// How many Istio Gateways the model holds (for the upstream fact tables).
    #[cfg(test)]
    pub(crate) fn gateway_count(&self) -> usize {
        self.gateways.len()
    }

    pub(crate) fn evaluate(&self, gateway: usize, probe: &Probe) -> Decision {
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
            .filter(|(_, s)| s.port == probe.port && s.scheme == probe.scheme)
            .collect();
        if probe.scheme == Scheme::Https {
            // Each HTTPS server is its own filter chain, chosen by SNI: the most specific
            // host wins.
            let best = servers
                .iter()
                .flat_map(|(_, s)| s.hosts.iter())
                .filter(|(_, h)| host_matches(h, &probe.host))
                .map(|(_, h)| host_rank(h))
                .max();
            let Some(best) = best else {
                return Decision::new(Outcome::NoListener, None);
            };
            servers.retain(|(_, s)| {
                s.hosts
                    .iter()
                    .any(|(_, h)| host_matches(h, &probe.host) && host_rank(h) == best)
            });
            servers.truncate(1);
        }
        if servers.is_empty() {
            return Decision::new(Outcome::NoListener, None);
        }
        let key: Vec<(usize, usize)> = servers.iter().map(|(id, _)| *id).collect();
        let vhosts = self.virtual_hosts(&key);
        let chosen = vhosts.get(&probe.host).or_else(|| {
            vhosts
                .iter()
                .filter(|(d, _)| d.starts_with("*.") && host_matches(d, &probe.host))
                .max_by_key(|(d, _)| d.len())
                .map(|(_, v)| v)
                .or_else(|| vhosts.get("*"))
        });
        let Some((entries, require_tls)) = chosen else {
            return Decision::new(Outcome::NotFound, None);
        };
        if *require_tls && probe.scheme == Scheme::Http {
            return Decision::new(
                Outcome::Redirect {
                    status: 301,
                    location: Probe::url(
                        "https",
                        &probe.host,
                        None,
                        &format!("{}{}", probe.path, probe.query_string()),
                    ),
                },
                None,
            );
        }
        // SortVHostRoutes: catch-all routes of every VirtualService go last.
        let ordered = entries
            .iter()
            .filter(|e| !e.catch_all)
            .chain(entries.iter().filter(|e| e.catch_all));
        for e in ordered {
            let vs = &self.virtual_services[e.vs];
            let http = &vs.http[e.http];
            let m = e.matched.map(|i| &http.matches[i]);
            let hit = match m {
                Some(m) => m.test(probe),
                None => Some(true),
            };
            match hit {
                None => return Decision::unmodelled_regex(),
                Some(false) => continue,
                Some(true) => {
                    let field = match m {
                        Some(m) => format!("spec.http[{}].match[{}]", e.http, m.index),
                        None => format!("spec.http[{}]", e.http),
                    };
                    let mut decision = Decision::new(
                        self.action(vs, http.route, m, probe),
                        Some(Origin {
                            object: vs.object,
                            field,
                        }),
                    );
                    if let Some((_, Matcher::Prefix { value, fold })) =
                        m.and_then(|m| m.uri.as_ref())
                    {
                        let path = if *fold {
                            probe.path.to_ascii_lowercase()
                        } else {
                            probe.path.clone()
                        };
                        let value = if *fold {
                            value.to_ascii_lowercase()
                        } else {
                            value.clone()
                        };
                        decision.string_prefix = !path_prefix_matches(&value, &path);
                    }
                    return decision;
                }
            }
        }
        Decision::new(Outcome::NotFound, None)
    }

    fn action(
        &self,
        vs: &VirtualServiceModel,
        route: &HttpRoute,
        m: Option<&Match>,
        probe: &Probe,
    ) -> Outcome {
        let uri = m.and_then(|m| m.uri.as_ref()).map(|(kind, _)| kind.clone());
        if let Some(r) = &route.redirect {
            let scheme = r
                .scheme
                .clone()
                .unwrap_or_else(|| probe.scheme.as_str().to_string());
            let host = r.authority.clone().unwrap_or_else(|| probe.host.clone());
            let port = match (r.port, r.derive_port.as_deref()) {
                (Some(p), _) => Some(p),
                (None, Some("FROM_PROTOCOL_DEFAULT")) => None,
                // The request's port, shown unless it is the redirect scheme's default
                // (`http://h/` redirected to https keeps `:80`).
                (None, Some("FROM_REQUEST_PORT")) => Some(probe.port),
                // The Host header keeps a non-default port; a default one is not sent.
                _ => (probe.port != u32::from(probe.scheme.default_port())).then_some(probe.port),
            };
            let path = match (&r.uri, &r.prefix_rewrite) {
                (Some(u), _) if !u.is_empty() => u.clone(),
                (_, Some(p)) if !p.is_empty() => replace_prefix(&probe.path, uri.as_ref(), p),
                _ => probe.path.clone(),
            };
            return Outcome::Redirect {
                status: r.redirect_code.unwrap_or(301),
                location: Probe::url(
                    &scheme,
                    &host,
                    port,
                    &format!("{path}{}", probe.query_string()),
                ),
            };
        }
        if let Some(direct) = &route.direct_response {
            let status = direct
                .get("status")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(200);
            return Outcome::Respond {
                status: status as u32,
            };
        }
        if route.delegate.is_some() {
            return Outcome::Unmodelled("delegate VirtualService".into());
        }
        // `route.go` `translateFault`: an abort answers its status instead of routing, for
        // the percentage of requests it names (a delay only slows the request down).
        if let Some(abort) = route.fault.as_ref().and_then(|f| f.get("abort")) {
            let percent = abort
                .pointer("/percentage/value")
                .and_then(serde_json::Value::as_f64);
            let status = abort
                .get("httpStatus")
                .and_then(serde_json::Value::as_u64)
                .and_then(|s| u32::try_from(s).ok());
            return match (status, percent) {
                (Some(status), Some(p)) if p >= 100.0 => Outcome::Respond { status },
                (_, Some(p)) if p <= 0.0 => self.forward(vs, route, uri.as_ref(), probe),
                _ => Outcome::Unmodelled("a fault abort for part of the requests".into()),
            };
        }
        self.forward(vs, route, uri.as_ref(), probe)
    }

    /// The request proxied to the route's destinations.
    fn forward(
        &self,
        vs: &VirtualServiceModel,
        route: &HttpRoute,
        uri: Option<&Uri>,
        probe: &Probe,
    ) -> Outcome {
        if route.route.is_empty() {
            return Outcome::Unmodelled("rule without route, redirect or response".into());
        }
        let single = route.route.len() == 1;
        let weighted = route
            .route
            .iter()
            .filter_map(|d| {
                let dest = d.destination.as_ref()?;
                let backend = resolve_destination(
                    dest.host.as_deref()?,
                    &vs.namespace,
                    &self.domain,
                    dest.port.as_ref().and_then(|p| p.number),
                );
                let weight = if single {
                    100
                } else {
                    d.weight.unwrap_or(0).max(0) as u64
                };
                Some((backend, weight))
            })
            .collect();
        let backends = shares(weighted);
        if backends.is_empty() {
            return Outcome::Unmodelled("every destination has weight 0".into());
        }
        let mut path = probe.path.clone();
        let mut host = None;
        if let Some(rw) = &route.rewrite {
            if let Some(rr) = &rw.uri_regex_rewrite {
                let (Some(pattern), Some(sub)) = (&rr.pattern, &rr.rewrite) else {
                    return Outcome::Unmodelled("incomplete uriRegexRewrite".into());
                };
                let Ok(re) = Regex::new(pattern) else {
                    return Outcome::Unmodelled("a regex the model cannot compile".into());
                };
                path = re
                    .replace_all(&path, envoy_substitution(sub).as_str())
                    .into_owned();
            } else if let Some(u) = rw.uri.as_deref().filter(|u| !u.is_empty()) {
                path = replace_prefix(&probe.path, uri, u);
            }
            host = rw.authority.clone();
        }
        // `route.go`: a `Host` or `:authority` set among the request headers rewrites the
        // host, the route's before its destinations' (which must agree to be one answer).
        let set_host = |h: Option<&crate::model::istio::Headers>| {
            h?.request
                .as_ref()?
                .set
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("host") || k.as_str() == ":authority")
                .map(|(_, v)| v.clone())
        };
        if host.is_none() {
            host = set_host(route.headers.as_ref()).or_else(|| {
                let per: Vec<Option<String>> = route
                    .route
                    .iter()
                    .map(|d| set_host(d.headers.as_ref()))
                    .collect();
                per.first()
                    .cloned()
                    .flatten()
                    .filter(|first| per.iter().all(|h| h.as_ref() == Some(first)))
            });
        }
        Outcome::Forward {
            backends,
            path,
            host,
        }
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

/// Seeds from one match: its path (or a path its regex accepts) and, when it has other
/// conditions, the request shape that satisfies them.
fn add_match_seeds(m: &Match, host: &str, seeds: &mut Seeds) {
    let path = match (&m.uri, m.raw.uri.as_ref()) {
        (Some((Uri::Regex, matcher)), Some(u)) => matcher
            .sample()
            .unwrap_or_else(|| literal_prefix(u.regex.as_deref().unwrap_or("/"))),
        (_, Some(u)) => u
            .exact
            .clone()
            .or_else(|| u.prefix.clone())
            .unwrap_or_else(|| "/".into()),
        _ => "/".into(),
    };
    if let Some(Matcher::Exact { value, .. }) = &m.authority {
        seeds.host(value.split(':').next().unwrap_or(value));
    }
    let sample = |pairs: &[(String, Matcher)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.sample()?)))
            .collect()
    };
    let mut headers = sample(&m.headers);
    headers.extend(sample(&m.without));
    seeds.shape(
        host,
        Shape {
            path,
            method: m.method.as_ref().and_then(Matcher::sample),
            headers,
            query: sample(&m.query),
        },
    );
}

/// The Gateway a VirtualService's `gateways` entry names (`pilot/pkg/model/virtualservice.go`
/// `resolveGatewayName`): `mesh` names none; `ns/name` (`./name`: the VirtualService's own
/// namespace); the legacy `name.ns` and `name.ns.svc.cluster.local` forms; a short name is in
/// the VirtualService's namespace.
fn resolve_gateway(reference: &str, namespace: &str) -> Option<(String, String)> {
    if reference == "mesh" {
        return None;
    }
    if let Some((ns, name)) = reference.split_once('/') {
        let ns = if ns == "." { namespace } else { ns };
        return Some((ns.to_string(), name.to_string()));
    }
    match reference.split_once('.') {
        Some((name, rest)) => {
            let ns = rest.split('.').next().unwrap_or(rest);
            Some((ns.to_string(), name.to_string()))
        }
        None => Some((namespace.to_string(), reference.to_string())),
    }
}

/// Whether a VirtualService is visible to a gateway proxy in `proxy_ns`
/// (`pilot/pkg/model/push_context.go` `initVirtualServices`, `exportTo`): no `exportTo`
/// (the mesh default `*`), `*`, the proxy's namespace, or `.` when it is the
/// VirtualService's own.
fn exported_to(vs: &VirtualService, vs_ns: &str, proxy_ns: &str) -> bool {
    vs.export_to.is_empty()
        || vs
            .export_to
            .iter()
            .any(|e| e == "*" || e == proxy_ns || (e == "." && proxy_ns == vs_ns))
}

/// The namespace of the gateway proxy a selector picks, which decides what the proxy sees
/// through `exportTo`: the configured gateway namespace, else that of the workloads in the
/// repository whose pod labels carry the selector (`istio-system` first when several), else
/// Istio's default `istio-system` (the proxy installed outside the repository).
fn proxy_namespace(index: &Index, config: &Config, selector: &BTreeMap<String, String>) -> String {
    if let Some(ns) = &config.istio_gateway_namespace {
        return ns.clone();
    }
    let mut namespaces: Vec<&str> = index
        .workloads()
        .filter_map(|(_, o, s)| match s {
            crate::model::surrounding::Surrounding::Workload { pod_labels }
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
    if namespaces.is_empty() || namespaces.contains(&DEFAULT_ISTIO_GATEWAY_NAMESPACE) {
        return DEFAULT_ISTIO_GATEWAY_NAMESPACE.to_string();
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
        assert_eq!(r("gw"), Some(("app".into(), "gw".into())));
        assert_eq!(r("./gw"), Some(("app".into(), "gw".into())));
        assert_eq!(
            r("istio-system/gw"),
            Some(("istio-system".into(), "gw".into()))
        );
        assert_eq!(
            r("gw.istio-system.svc.cluster.local"),
            Some(("istio-system".into(), "gw".into()))
        );
        assert_eq!(r("mesh"), None);
    }

    #[test]
    fn destinations_resolve_to_services() {
        let b = resolve_destination("reviews", "app", "cluster.local", Some(9080));
        assert_eq!((b.namespace.as_str(), b.name.as_str()), ("app", "reviews"));
        let b = resolve_destination("r.prod.svc.cluster.local", "app", "cluster.local", None);
        assert_eq!((b.namespace.as_str(), b.name.as_str()), ("prod", "r"));
        let b = resolve_destination("api.example.com", "app", "cluster.local", None);
        assert_eq!(
            (b.namespace.as_str(), b.name.as_str()),
            ("", "api.example.com")
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
}
