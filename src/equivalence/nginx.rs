//! How ingress-nginx routes a request, from the repository's Ingresses of an ingress-nginx
//! class. Sources (kubernetes/ingress-nginx at the commit `docs/equivalence.md` names):
//!
//! - `internal/ingress/controller/store/store.go` `sortIngressSlice`: Ingresses are read
//!   oldest first; equal creation times (objects applied together) by `namespace/name`
//!   descending.
//! - `internal/ingress/controller/controller.go` `createServers`: one server per host across
//!   every Ingress; its root location is the default backend of the first Ingress naming the
//!   host; an Ingress with a defaultBackend and no rules configures the catch-all server; a
//!   host of an Ingress with any TLS section gets a certificate (the default one when its
//!   secret is not named for the host). `getBackendServers`: locations from every Ingress; a
//!   path already present with the same type keeps the first Ingress; locations sorted by
//!   path length, then path, descending; canaries merge onto the location of the same host
//!   and path.
//! - `internal/k8s/main.go` `SetDefaultNGINXPathType`: a path that is not Exact is Prefix
//!   (ImplementationSpecific and unset included).
//! - `internal/ingress/controller/location.go` `updateServerLocations`: a Prefix path `/p`
//!   (without rewrite or regex) becomes the location `/p/` plus an exact `= /p`.
//! - `internal/ingress/controller/template/template.go` `enforceRegexModifier`,
//!   `buildLocation`, `buildProxyPass`: when any location of a server uses `use-regex` or a
//!   `rewrite-target` different from its path, every location of the server is a
//!   case-insensitive regex anchored at the start (`~* "^path"`), tried in order; the
//!   rewrite is `rewrite "(?i)path" target break`.
//! - `rootfs/etc/nginx/lua/lua_ingress.lua` `redirect_to_https`: plain HTTP is redirected
//!   (308) when the location's Ingress keeps `ssl-redirect` (default true) and the host has
//!   a certificate, or with `force-ssl-redirect`. `nginx.tmpl`: `permanent-redirect`,
//!   `temporal-redirect` and `app-root` return before that.

use std::collections::BTreeMap;

use regex::Regex;

use super::gateway_api::Model as NewModel;
use super::matching::host_matches;
use super::probes::{Seeds, UNLISTED_HOST};
use super::{Backend, Decision, Frontend, OldFrontend, Origin, Outcome, Probe, Scheme, shares};
use crate::config::Config;
use crate::gwapi::Generated;
use crate::index::Index;
use crate::model::SourceBody;
use crate::model::ingress::{Ingress, IngressServiceBackend};
use crate::translate::SourceResult;
use crate::translate::ingress::nginx::parse_bool;
use crate::translate::ingress::nginx::redirect::nginx_accepts_temporal_url;
use crate::translate::ingress::nginx::servers::read_order_of;
use crate::translate::ingress::wildcard::certificate_fallback;

const PREFIX: &str = "nginx.ingress.kubernetes.io/";
/// The name ingress-nginx gives the catch-all server.
const CATCH_ALL: &str = "_";

/// annotations/parser `BasicCharsRegex`: the characters `canary-by-header` may hold; any
/// other value is invalid and ignored.
fn basic_chars(value: &str) -> bool {
    value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._~/:".contains(c))
}

/// What a location's Ingress annotations decide about routing.
#[derive(Debug, Clone, Default)]
struct Behaviour {
    rewrite_target: Option<String>,
    use_regex: bool,
    ssl_redirect: bool,
    force_ssl_redirect: bool,
    /// `(URL, status)` of `permanent-redirect` or `temporal-redirect`.
    redirect: Option<(String, u32)>,
    app_root: Option<String>,
    /// Set for Ingresses whose routing the model does not follow.
    unmodelled: Option<String>,
    /// `ssl-passthrough`: the host's TLS goes to the backend as a stream (port 443 only;
    /// plain HTTP still reaches the location, proxied to the backend over HTTPS).
    passthrough: bool,
}

fn annotation<'a>(ing: &'a Ingress, key: &str) -> Option<&'a str> {
    ing.metadata
        .annotations
        .as_ref()?
        .get(&format!("{PREFIX}{key}"))
        .map(|v| v.trim())
}

fn behaviour(ing: &Ingress) -> Behaviour {
    let flag =
        |key: &str, default: bool| annotation(ing, key).and_then(parse_bool).unwrap_or(default);
    // annotations/redirect `Parse`: a status outside the range falls back to the default; one
    // that is not a number is a parse error (`None`).
    let code = |key: &str, default: u32, range: std::ops::RangeInclusive<u32>| match annotation(
        ing, key,
    ) {
        None => Some(default),
        Some(c) => c.parse::<i64>().ok().map(|n| {
            u32::try_from(n)
                .ok()
                .filter(|c| range.contains(c))
                .unwrap_or(default)
        }),
    };
    // temporal-redirect is read first; an invalid URL or status there is an error that
    // leaves the Ingress without any redirect.
    let redirect = match annotation(ing, "temporal-redirect").filter(|u| !u.is_empty()) {
        Some(url) => code("temporal-redirect-code", 302, 300..=307)
            .filter(|_| nginx_accepts_temporal_url(url))
            .map(|c| (url.to_string(), c)),
        None => annotation(ing, "permanent-redirect")
            .filter(|u| !u.is_empty())
            .and_then(|u| {
                code("permanent-redirect-code", 301, 300..=308).map(|c| (u.to_string(), c))
            }),
    };
    let mut unmodelled = None;
    for key in ["canary-by-cookie", "canary-by-header-pattern"] {
        if annotation(ing, key).is_some() {
            unmodelled = Some(key.to_string());
        }
    }
    Behaviour {
        rewrite_target: annotation(ing, "rewrite-target").map(str::to_string),
        use_regex: flag("use-regex", false),
        ssl_redirect: flag("ssl-redirect", true),
        force_ssl_redirect: flag("force-ssl-redirect", false),
        redirect,
        // annotations/rewrite: app-root must be a path (an absolute URL is ignored).
        app_root: annotation(ing, "app-root")
            .filter(|r| r.starts_with('/'))
            .map(str::to_string),
        unmodelled,
        passthrough: flag("ssl-passthrough", false),
    }
}

#[derive(Debug, Clone)]
struct Canary {
    backend: Backend,
    weight: u64,
    total: u64,
    header: Option<String>,
    header_value: Option<String>,
}

#[derive(Debug, Clone)]
struct Location {
    path: String,
    /// `Exact`, `Prefix`, `ImplementationSpecific`.
    path_type: String,
    /// `= path` (outside regex servers).
    exact: bool,
    /// `None`: the default backend (404).
    backend: Option<Backend>,
    is_default: bool,
    origin: Option<Origin>,
    behaviour: Behaviour,
    canary: Option<Canary>,
}

impl Location {
    fn needs_rewrite(&self) -> bool {
        self.behaviour
            .rewrite_target
            .as_ref()
            .is_some_and(|t| !t.is_empty() && t != &self.path)
    }
}

#[derive(Debug, Default)]
struct Server {
    locations: Vec<Location>,
    has_cert: bool,
    enforce_regex: bool,
    /// Compiled `~* ^path` per location when `enforce_regex`.
    regexes: Vec<Option<Regex>>,
}

struct IngressRef<'a> {
    object: usize,
    namespace: String,
    name: String,
    ingress: &'a Ingress,
    behaviour: Behaviour,
    canary: bool,
}

pub(crate) struct Model {
    /// class → host → server.
    classes: BTreeMap<String, BTreeMap<String, Server>>,
    /// class → the Ingress objects of the class.
    members: BTreeMap<String, Vec<usize>>,
}

fn service_backend(svc: &IngressServiceBackend, namespace: &str) -> Backend {
    Backend {
        namespace: namespace.to_string(),
        name: svc.name.clone(),
        port: svc
            .port
            .as_ref()
            .and_then(|p| p.number)
            .and_then(|n| u32::try_from(n).ok()),
    }
}

impl Model {
    pub(crate) fn build(index: &Index, config: &Config) -> Self {
        let mut by_class: BTreeMap<String, Vec<IngressRef>> = BTreeMap::new();
        for (position, obj) in index.objects.iter().enumerate() {
            let SourceBody::Ingress(ing) = &obj.body else {
                continue;
            };
            let mut notes = Vec::new();
            let class = crate::translate::ingress::class::resolve(index, config, ing, &mut notes);
            if !class.reads_nginx_annotations() {
                continue;
            }
            // annotations.go Extract / store.go: an invalid annotation value drops the Ingress.
            let annotations = crate::translate::ingress::nginx::Annotations::of(ing);
            if crate::translate::ingress::nginx::validation::rejection(&annotations).is_some() {
                continue;
            }
            let behaviour = behaviour(ing);
            let canary = annotation(ing, "canary").and_then(parse_bool) == Some(true);
            by_class
                .entry(class.name.unwrap_or_default())
                .or_default()
                .push(IngressRef {
                    object: position,
                    namespace: obj.namespace.clone(),
                    name: obj.meta.name.clone(),
                    ingress: ing,
                    behaviour,
                    canary,
                });
        }
        let mut classes = BTreeMap::new();
        let mut members = BTreeMap::new();
        for (class, mut ingresses) in by_class {
            // store.go sortIngressSlice: oldest first (creationTimestamp when the manifest has
            // one; without, created together), then namespace/name descending.
            ingresses.sort_by_cached_key(|i| {
                read_order_of(
                    i.ingress.metadata.creation_timestamp.as_ref(),
                    &i.namespace,
                    &i.name,
                )
            });
            members.insert(class.clone(), ingresses.iter().map(|i| i.object).collect());
            classes.insert(class, servers(&ingresses));
        }
        Model { classes, members }
    }

    /// One entry point per ingress-nginx class whose Ingresses produced routes.
    pub(crate) fn frontends(&self, results: &[SourceResult], new: &NewModel) -> Vec<Frontend> {
        let _ = new;
        self.members
            .iter()
            .filter_map(|(class, objects)| {
                let mut gateways: Vec<(String, String)> = Vec::new();
                for r in results.iter().filter(|r| objects.contains(&r.object)) {
                    for g in &r.generated {
                        let parents = match g {
                            Generated::Gateway(_) => {
                                gateways.push((g.namespace().to_string(), g.name().to_string()));
                                continue;
                            }
                            Generated::HttpRoute(o) => &o.spec.parent_refs,
                            Generated::GrpcRoute(o) => &o.spec.parent_refs,
                            _ => continue,
                        };
                        for p in parents {
                            if p.kind.as_deref().unwrap_or("Gateway") != "Gateway" {
                                continue;
                            }
                            let ns = p.namespace.as_deref().unwrap_or(g.namespace());
                            gateways.push((ns.to_string(), p.name.clone()));
                        }
                    }
                }
                gateways.sort();
                gateways.dedup();
                let anchor = *objects.first()?;
                (!gateways.is_empty()).then(|| Frontend {
                    old_name: "ingress-nginx",
                    old: OldFrontend::Nginx(class.clone()),
                    gateways,
                    anchor,
                })
            })
            .collect()
    }

    pub(crate) fn seeds(&self, class: &str, seeds: &mut Seeds) {
        seeds.listener(Scheme::Http, 80);
        seeds.listener(Scheme::Https, 443);
        for (host, server) in self.classes.get(class).into_iter().flatten() {
            let host = if host == CATCH_ALL {
                UNLISTED_HOST
            } else {
                host
            };
            seeds.host(host);
            for loc in &server.locations {
                let path = if loc.path_type != "Exact"
                    && (loc.behaviour.use_regex || loc.needs_rewrite())
                {
                    super::matching::literal_prefix(&loc.path)
                } else {
                    loc.path.clone()
                };
                seeds.path(host, &path);
                if let Some(c) = &loc.canary
                    && let Some(h) = &c.header
                {
                    let value = c.header_value.clone().unwrap_or_else(|| "always".into());
                    seeds.shape(
                        host,
                        super::probes::Shape {
                            path: path.clone(),
                            headers: vec![(h.to_ascii_lowercase(), value)],
                            ..Default::default()
                        },
                    );
                }
            }
        }
    }

    pub(crate) fn evaluate(&self, class: &str, probe: &Probe) -> Decision {
        let Some(servers) = self.classes.get(class) else {
            return Decision::new(Outcome::NoListener, None);
        };
        if probe.port != u32::from(probe.scheme.default_port()) {
            return Decision::new(Outcome::NoListener, None);
        }
        // server_name: exact, then the longest wildcard, then the catch-all server.
        let server = servers.get(&probe.host).or_else(|| {
            // Wildcard server names sort together (`*` before letters).
            servers
                .range::<str, _>((
                    std::ops::Bound::Included("*."),
                    std::ops::Bound::Excluded("*/"),
                ))
                .filter(|(h, _)| host_matches(h, &probe.host))
                .max_by_key(|(h, _)| h.len())
                .map(|(_, s)| s)
                .or_else(|| servers.get(CATCH_ALL))
        });
        let Some(server) = server else {
            return Decision::new(Outcome::NotFound, None);
        };
        // A host without a certificate is served over HTTPS with the controller's default
        // certificate, which clients reject (unless the controller was given a real one with
        // --default-ssl-certificate, which the repository does not show): not served.
        if probe.scheme == Scheme::Https && !server.has_cert {
            return Decision::new(Outcome::NoListener, None);
        }
        // ssl-passthrough on any location hands the host's whole TLS stream to one backend
        // before nginx's HTTP server sees it (the model does not follow TLS streams).
        if probe.scheme == Scheme::Https && server.locations.iter().any(|l| l.behaviour.passthrough)
        {
            return Decision::new(Outcome::Unmodelled("ssl-passthrough".into()), None);
        }
        let Some(chosen) = select(server, &probe.path) else {
            return Decision::new(
                Outcome::Unmodelled("a location regex the model cannot compile".into()),
                None,
            );
        };
        let loc = &server.locations[chosen];
        if let Some(why) = &loc.behaviour.unmodelled {
            return Decision::new(Outcome::Unmodelled(why.clone()), None);
        }
        let origin = loc.origin.clone();
        let b = &loc.behaviour;
        // Rewrite-phase `return`s come before the Lua HTTPS redirect. app-root is written at
        // server level (nginx.tmpl: `if ($uri = /)` outside the location blocks): the first
        // location that sets it decides for the whole host.
        let app_root = server
            .locations
            .iter()
            .find_map(|l| l.behaviour.app_root.as_ref());
        if let Some(root) = app_root
            && probe.path == "/"
        {
            return Decision::new(
                Outcome::Redirect {
                    status: 302,
                    location: format!("{}://{}{root}", probe.scheme.as_str(), probe.authority()),
                },
                origin,
            );
        }
        if let Some((url, status)) = &b.redirect {
            if url.contains('$') {
                return Decision::new(
                    Outcome::Unmodelled("redirect with variables".into()),
                    origin,
                );
            }
            return Decision::new(
                Outcome::Redirect {
                    status: *status,
                    location: url.clone(),
                },
                origin,
            );
        }
        if probe.scheme == Scheme::Http
            && (b.force_ssl_redirect || (b.ssl_redirect && server.has_cert))
        {
            return Decision::new(
                Outcome::Redirect {
                    status: 308,
                    location: format!(
                        "https://{}{}{}",
                        probe.host,
                        probe.path,
                        probe.query_string()
                    ),
                },
                origin,
            );
        }
        let Some(primary) = &loc.backend else {
            return Decision::new(Outcome::NotFound, origin);
        };
        let mut weighted = vec![(primary.clone(), 100)];
        if let Some(c) = &loc.canary {
            let by_header = c.header.as_ref().and_then(|h| {
                let value = probe.header(h)?;
                match &c.header_value {
                    Some(expected) => (value == expected).then_some(true),
                    None => match value {
                        "always" => Some(true),
                        "never" => Some(false),
                        _ => None,
                    },
                }
            });
            weighted = match by_header {
                Some(true) => vec![(c.backend.clone(), 1)],
                Some(false) => vec![(primary.clone(), 1)],
                None => vec![
                    (primary.clone(), c.total.saturating_sub(c.weight)),
                    (c.backend.clone(), c.weight.min(c.total)),
                ],
            };
        }
        let backends = shares(weighted);
        if backends.is_empty() {
            return Decision::new(Outcome::Respond { status: 503 }, origin);
        }
        let mut path = probe.path.clone();
        if loc.needs_rewrite()
            && let Some(target) = &b.rewrite_target
        {
            let Ok(re) = Regex::new(&format!("(?i){}", loc.path)) else {
                return Decision::new(
                    Outcome::Unmodelled("a rewrite regex the model cannot compile".into()),
                    origin,
                );
            };
            if let Some(caps) = re.captures(&probe.path) {
                let mut out = String::new();
                caps.expand(&nginx_substitution(target), &mut out);
                path = out;
            }
        }
        Decision::new(
            Outcome::Forward {
                backends,
                path,
                host: None,
            },
            origin,
        )
    }
}

/// nginx's `$1` captures in the `regex` crate's `${1}` form.
fn nginx_substitution(target: &str) -> String {
    let mut out = String::new();
    let mut chars = target.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push_str("${");
            while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                out.push(d);
                chars.next();
            }
            out.push('}');
        } else if c == '$' {
            out.push_str("$$");
        } else {
            out.push(c);
        }
    }
    out
}

/// The location nginx picks; `None` when a regex does not compile.
fn select(server: &Server, path: &str) -> Option<usize> {
    if server.enforce_regex {
        for (i, re) in server.regexes.iter().enumerate() {
            if re.as_ref()?.is_match(path) {
                return Some(i);
            }
        }
        // The root location `^/` matches every path.
        return server.locations.iter().position(|l| l.path == "/");
    }
    if let Some(i) = server
        .locations
        .iter()
        .position(|l| l.exact && l.path == path)
    {
        return Some(i);
    }
    server
        .locations
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.exact && path.starts_with(l.path.as_str()))
        .max_by_key(|(_, l)| l.path.len())
        .map(|(i, _)| i)
}

/// An Ingress path as ingress-nginx stores it: `/` for an empty path, and every pathType that
/// is not Exact as Prefix (`internal/k8s/main.go` `SetDefaultNGINXPathType`).
fn location_of(path: &crate::model::ingress::HTTPIngressPath) -> (String, String) {
    let nginx_path = path
        .path
        .clone()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "/".into());
    let path_type = if path.path_type == "Exact" {
        "Exact"
    } else {
        "Prefix"
    };
    (nginx_path, path_type.to_string())
}

/// The rules of an Ingress.
fn rules_of(ing: &Ingress) -> Vec<crate::model::ingress::IngressRule> {
    ing.spec
        .as_ref()
        .and_then(|s| s.rules.clone())
        .unwrap_or_default()
}

/// The server a rule belongs to: its host, or the catch-all server without one.
fn server_name(rule: &crate::model::ingress::IngressRule) -> String {
    match rule.host.as_deref().filter(|h| !h.is_empty()) {
        Some(h) => h.to_ascii_lowercase(),
        None => CATCH_ALL.to_string(),
    }
}

/// The servers of one class, built as ingress-nginx builds them.
fn servers(ingresses: &[IngressRef]) -> BTreeMap<String, Server> {
    let mut servers: BTreeMap<String, Server> = BTreeMap::new();
    servers.insert(
        CATCH_ALL.into(),
        Server {
            locations: vec![root_location(None, None, Behaviour::default())],
            ..Default::default()
        },
    );
    // createServers.
    for ing in ingresses.iter().filter(|i| !i.canary) {
        let spec = ing.ingress.spec.as_ref();
        let rules = spec
            .map(|s| s.rules.clone().unwrap_or_default())
            .unwrap_or_default();
        let default = spec
            .and_then(|s| s.default_backend.as_ref())
            .and_then(|b| b.service.as_ref())
            .map(|svc| service_backend(svc, &ing.namespace));
        if let Some(backend) = &default
            && rules.is_empty()
            && let Some(catch_all) = servers.get_mut(CATCH_ALL)
            && catch_all.locations[0].is_default
        {
            let root = &mut catch_all.locations[0];
            root.backend = Some(backend.clone());
            root.is_default = false;
            root.origin = Some(Origin {
                object: ing.object,
                field: "spec.defaultBackend".into(),
            });
        }
        for rule in &rules {
            let host = server_name(rule);
            servers.entry(host).or_insert_with(|| Server {
                locations: vec![root_location(
                    default.clone(),
                    default.as_ref().map(|_| Origin {
                        object: ing.object,
                        field: "spec.defaultBackend".into(),
                    }),
                    ing.behaviour.clone(),
                )],
                ..Default::default()
            });
        }
        let has_tls = spec
            .and_then(|s| s.tls.as_ref())
            .is_some_and(|t| !t.is_empty());
        if has_tls {
            for rule in &rules {
                if let Some(h) = rule.host.as_deref().filter(|h| !h.is_empty())
                    && let Some(server) = servers.get_mut(&h.to_ascii_lowercase())
                {
                    server.has_cert = true;
                }
            }
        }
    }
    // certificate.lua get_pem_cert_uid: a host without a certificate of its own is served
    // with the certificate of the wildcard server `*.<rest of the host>` when there is one.
    let wildcard_certs: Vec<String> = servers
        .iter()
        .filter(|(h, s)| h.starts_with("*.") && s.has_cert)
        .map(|(h, _)| h.clone())
        .collect();
    for (host, server) in servers.iter_mut() {
        if !server.has_cert
            && certificate_fallback(host).is_some_and(|w| wildcard_certs.contains(&w))
        {
            server.has_cert = true;
        }
    }
    // getBackendServers: locations.
    for ing in ingresses.iter().filter(|i| !i.canary) {
        let rules = rules_of(ing.ingress);
        for (r, rule) in rules.iter().enumerate() {
            let host = server_name(rule);
            let Some(server) = servers.get_mut(&host) else {
                continue;
            };
            let Some(http) = &rule.http else { continue };
            for (p, path) in http.paths.iter().enumerate() {
                // Resource backends are skipped: the request falls through.
                let Some(svc) = &path.backend.service else {
                    continue;
                };
                let (nginx_path, path_type) = location_of(path);
                let origin = Origin {
                    object: ing.object,
                    field: format!("spec.rules[{r}].http.paths[{p}]"),
                };
                let backend = service_backend(svc, &ing.namespace);
                let mut add = true;
                for loc in &mut server.locations {
                    if loc.path != nginx_path {
                        continue;
                    }
                    if loc.path_type != path_type {
                        break;
                    }
                    add = false;
                    if loc.is_default {
                        loc.backend = Some(backend.clone());
                        loc.is_default = false;
                        loc.origin = Some(origin.clone());
                        loc.behaviour = ing.behaviour.clone();
                    }
                    break;
                }
                if add {
                    server.locations.push(Location {
                        path: nginx_path,
                        path_type,
                        exact: false,
                        backend: Some(backend),
                        is_default: false,
                        origin: Some(origin),
                        behaviour: ing.behaviour.clone(),
                        canary: None,
                    });
                }
            }
        }
    }
    // Canaries merge onto the location of the same host and path (ImplementationSpecific
    // counts as Prefix), but attach to that location's upstream (namespace, Service, port):
    // mergeAlternativeBackend appends to the upstream's AlternativeBackends, and balancer.lua
    // picks the canary by upstream, so every location of that upstream splits alike.
    let mut by_upstream: Vec<(Backend, Canary, Option<String>)> = Vec::new();
    for ing in ingresses.iter().filter(|i| i.canary) {
        let weight = annotation(ing.ingress, "canary-weight")
            .and_then(|w| w.parse::<u64>().ok())
            .unwrap_or(0);
        // balancer.lua: a total below 100 is 100.
        let total = annotation(ing.ingress, "canary-weight-total")
            .and_then(|w| w.parse::<u64>().ok())
            .unwrap_or(100)
            .max(100);
        let header = annotation(ing.ingress, "canary-by-header")
            .filter(|h| !h.is_empty() && basic_chars(h))
            .map(str::to_string);
        let header_value = annotation(ing.ingress, "canary-by-header-value").map(str::to_string);
        let rules = rules_of(ing.ingress);
        for rule in &rules {
            let host = server_name(rule);
            let Some(server) = servers.get_mut(&host) else {
                continue;
            };
            let Some(http) = &rule.http else { continue };
            for path in &http.paths {
                let Some(svc) = &path.backend.service else {
                    continue;
                };
                let (p, path_type) = location_of(path);
                if let Some(loc) = server
                    .locations
                    .iter_mut()
                    .find(|l| l.path == p && !l.is_default && l.path_type == path_type)
                    && loc.canary.is_none()
                {
                    let canary = Canary {
                        backend: service_backend(svc, &ing.namespace),
                        weight,
                        total,
                        header: header.clone(),
                        header_value: header_value.clone(),
                    };
                    loc.canary = Some(canary.clone());
                    if let Some(why) = &ing.behaviour.unmodelled {
                        loc.behaviour.unmodelled = Some(why.clone());
                    }
                    if let Some(primary) = &loc.backend {
                        by_upstream.push((
                            primary.clone(),
                            canary,
                            ing.behaviour.unmodelled.clone(),
                        ));
                    }
                }
            }
        }
    }
    for (primary, canary, unmodelled) in by_upstream {
        for loc in servers.values_mut().flat_map(|s| s.locations.iter_mut()) {
            if loc.canary.is_none() && !loc.is_default && loc.backend.as_ref() == Some(&primary) {
                loc.canary = Some(canary.clone());
                if let Some(why) = &unmodelled {
                    loc.behaviour.unmodelled = Some(why.clone());
                }
            }
        }
    }
    for server in servers.values_mut() {
        server.locations.sort_by(|a, b| b.path.cmp(&a.path));
        server
            .locations
            .sort_by_key(|l| std::cmp::Reverse(l.path.len()));
        server.locations = update_locations(std::mem::take(&mut server.locations));
        server.enforce_regex = server
            .locations
            .iter()
            .any(|l| l.needs_rewrite() || l.behaviour.use_regex);
        if server.enforce_regex {
            server.regexes = server
                .locations
                .iter()
                .map(|l| Regex::new(&format!("(?i)^{}", l.path)).ok())
                .collect();
        } else {
            for l in &mut server.locations {
                l.exact = l.path_type == "Exact";
            }
        }
    }
    servers
}

fn root_location(
    backend: Option<Backend>,
    origin: Option<Origin>,
    behaviour: Behaviour,
) -> Location {
    Location {
        path: "/".into(),
        path_type: "Prefix".into(),
        exact: false,
        backend,
        is_default: true,
        origin,
        behaviour,
        canary: None,
    }
}

/// location.go `updateServerLocations`: `/p` Prefix → `/p/` and `= /p`.
fn update_locations(locations: Vec<Location>) -> Vec<Location> {
    let exact: Vec<String> = locations
        .iter()
        .filter(|l| l.path_type == "Exact")
        .map(|l| l.path.clone())
        .collect();
    let mut out = Vec::with_capacity(locations.len());
    for mut loc in locations {
        if loc.path == "/"
            || loc.path_type != "Prefix"
            || loc.needs_rewrite()
            || loc.behaviour.use_regex
        {
            out.push(loc);
            continue;
        }
        let original = loc.clone();
        if !loc.path.ends_with('/') {
            loc.path.push('/');
        }
        out.push(loc);
        if !exact.contains(&original.path) && !original.path.ends_with('/') {
            let mut e = original;
            e.path_type = "Exact".into();
            out.push(e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // strconv.ParseBool, used by ingress-nginx's parser.GetBoolAnnotation.
    #[test]
    fn booleans_parse_like_go() {
        for t in ["1", "t", "T", "TRUE", "true", "True"] {
            assert_eq!(parse_bool(t), Some(true));
        }
        for f in ["0", "f", "F", "FALSE", "false", "False"] {
            assert_eq!(parse_bool(f), Some(false));
        }
        assert_eq!(parse_bool("yes"), None);
    }

    #[test]
    fn captures_use_nginx_syntax() {
        assert_eq!(nginx_substitution("/$2"), "/${2}");
        assert_eq!(nginx_substitution("/a$b"), "/a$$b");
    }
}
