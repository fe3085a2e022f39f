//! ingress-nginx as it treats a request: servers per host built from every Ingress of the
//! class, locations per path, nginx's location choice, and what the location's annotations
//! and the controller's ConfigMap do. Sources (kubernetes/ingress-nginx at `dbb11b92`):
//!
//! - `internal/ingress/controller/store/store.go` `sortIngressSlice` and
//!   `internal/ingress/controller/controller.go` `getBackendServers`: Ingresses in creation
//!   order (ties by `namespace/name` descending), the first one defining a host and path wins it, canary Ingresses only add an
//!   alternative backend to the primary's upstream (`mergeAlternativeBackends`), every server
//!   gets a root location (the Ingress's `defaultBackend`, else the default backend, 404);
//!   locations sorted by path, then by path length, longest first.
//! - `internal/ingress/controller/location.go` `updateServerLocations`: a `Prefix` path
//!   without rewrite or regex becomes `path/` and an extra exact location `= path`.
//! - `internal/ingress/controller/template/template.go` `buildLocation`,
//!   `enforceRegexModifier`, `buildProxyPass`: when any location of a server has
//!   `rewrite-target` (different from its path) or `use-regex`, every location of the server
//!   is a case-insensitive regex `~* "^path"`; a rewrite replaces the whole URI with the
//!   target (`rewrite "(?i)path" target break`).
//! - nginx `ngx_http_core_module` `location`: an exact `=` match wins, then regex locations
//!   in configuration order (first match), then the longest string prefix; `server_name`
//!   picks the exact name, then the longest leading wildcard (which covers any number of
//!   labels), then the default server.
//! - `rootfs/etc/nginx/lua/balancer.lua` `route_to_alternative_balancer`: canary by header
//!   (`always`/`never`, or an exact value, or a pattern), then by cookie, then by weight.
//! - `rootfs/etc/nginx/lua/lua_ingress.lua` `force_ssl_redirect` and `nginx.tmpl`: HTTP to
//!   HTTPS redirect (`http-redirect-code`, 308) when the host has TLS (`ssl-redirect`) or
//!   `force-ssl-redirect`; `no-tls-redirect-locations`; a trailing `/` dropped unless
//!   `preserve-trailing-slash`.
//!
//! What is not evaluated makes the answer `not-modelled` when it can change the outcome
//! (authentication, CORS, snippets, custom error pages, session affinity's cookie) and is
//! listed as unevaluated otherwise.

mod locations;

use std::collections::BTreeMap;
use std::net::IpAddr;

use serde_json::Value;

use super::{Behaviour, HeaderEdits, Matched, Outcome, Request, Scheme, Share, hostname};
use locations::{Location, Server};

pub(crate) const PREFIX: &str = "nginx.ingress.kubernetes.io/";

/// The controller: its IngressClass, ConfigMap and the flags that change routing.
#[derive(Debug, Clone, Default)]
pub struct Controller {
    pub class: String,
    pub config_map: BTreeMap<String, String>,
    pub flags: Vec<String>,
}

impl Controller {
    pub fn new(class: &str) -> Controller {
        Controller {
            class: class.to_string(),
            ..Controller::default()
        }
    }

    fn setting(&self, key: &str) -> Option<&str> {
        self.config_map.get(key).map(String::as_str)
    }

    fn setting_bool(&self, key: &str, default: bool) -> bool {
        self.setting(key).map_or(default, |v| v.trim() == "true")
    }

    /// The class this controller serves: `--ingress-class`, else its configured class.
    fn class(&self) -> &str {
        self.flags
            .iter()
            .find_map(|f| f.strip_prefix("--ingress-class="))
            .unwrap_or(&self.class)
    }

    fn flag(&self, name: &str) -> bool {
        self.flags
            .iter()
            .any(|f| f == name || f == &format!("{name}=true"))
    }
}

/// One Ingress as the model reads it.
#[derive(Debug, Clone)]
pub(crate) struct Ingress {
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) annotations: BTreeMap<String, String>,
    pub(crate) created: Option<String>,
    pub(crate) spec: Value,
}

impl Ingress {
    pub(crate) fn annotation(&self, key: &str) -> Option<&str> {
        self.annotations
            .get(&format!("{PREFIX}{key}"))
            .map(|v| v.trim())
    }

    pub(crate) fn flag(&self, key: &str) -> Option<bool> {
        self.annotation(key).map(|v| v == "true")
    }

    fn is_canary(&self) -> bool {
        self.flag("canary") == Some(true)
    }

    fn tls_hosts(&self) -> Vec<String> {
        self.spec
            .get("tls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .flat_map(|t| {
                t.get("hosts")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
            })
            .filter_map(Value::as_str)
            .map(str::to_ascii_lowercase)
            .collect()
    }
}

/// The Ingresses of one controller.
#[derive(Debug)]
pub struct World {
    controller: Controller,
    ingresses: Vec<Ingress>,
    servers: Vec<Server>,
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> Option<&'v str> {
    v.pointer(pointer).and_then(Value::as_str)
}

impl World {
    /// The world of `objects` (whole objects as JSON; without `metadata.namespace` in
    /// `default_namespace`) for `controller`: the Ingresses of its class.
    pub fn new<'a>(
        objects: impl IntoIterator<Item = &'a Value>,
        default_namespace: &str,
        controller: Controller,
    ) -> World {
        let mut ingresses = Vec::new();
        for v in objects {
            if str_at(v, "/kind") != Some("Ingress") {
                continue;
            }
            let annotations = super::string_map(v, "/metadata/annotations");
            let class = str_at(v, "/spec/ingressClassName").or_else(|| {
                annotations
                    .get("kubernetes.io/ingress.class")
                    .map(String::as_str)
            });
            if class.is_some_and(|c| c != controller.class())
                || (class.is_none() && !controller.flag("--watch-ingress-without-class"))
            {
                continue;
            }
            ingresses.push(Ingress {
                namespace: str_at(v, "/metadata/namespace")
                    .unwrap_or(default_namespace)
                    .to_string(),
                name: str_at(v, "/metadata/name").unwrap_or_default().to_string(),
                created: str_at(v, "/metadata/creationTimestamp").map(str::to_string),
                annotations,
                spec: v.get("spec").cloned().unwrap_or(Value::Null),
            });
        }
        // store.go `sortIngressSlice`: oldest first; equal creation times (objects applied
        // together, or manifests without one) by `namespace/name`, descending.
        ingresses.sort_by(|a, b| {
            let key = |i: &Ingress| format!("{}/{}", i.namespace, i.name);
            a.created
                .as_deref()
                .unwrap_or("")
                .cmp(b.created.as_deref().unwrap_or(""))
                .then_with(|| key(b).cmp(&key(a)))
        });
        let servers = locations::servers(&ingresses, &controller);
        World {
            controller,
            ingresses,
            servers,
        }
    }

    /// The server `server_name` gives the request's host: exact, then the longest leading
    /// wildcard, then the catch-all.
    fn server_for(&self, host: &str) -> Option<&Server> {
        self.servers
            .iter()
            .filter(|s| s.host != "_" && hostname::matches(&s.host, host))
            .max_by_key(|s| hostname::specificity(&s.host))
            .or_else(|| self.servers.iter().find(|s| s.host == "_"))
    }

    /// The host a `from-to-www-redirect` server for `host` sends to: `host` without `www.`
    /// when an Ingress with the annotation defines the bare host, or `www.` + `host` when it
    /// defines that.
    fn www_redirect_target(&self, host: &str) -> Option<String> {
        let other = match host.strip_prefix("www.") {
            Some(bare) => bare.to_string(),
            None => format!("www.{host}"),
        };
        self.ingresses
            .iter()
            .filter(|i| !i.is_canary() && i.flag("from-to-www-redirect") == Some(true))
            .flat_map(|i| {
                i.spec
                    .get("rules")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|r| r.get("host").and_then(Value::as_str))
            })
            .any(|h| h.eq_ignore_ascii_case(&other))
            .then_some(other)
    }

    /// What ingress-nginx does with `request`; `source` is the client address, when known.
    pub fn behaviour(&self, request: &Request, source: Option<IpAddr>) -> Behaviour {
        let not_modelled = |reason: String| Behaviour::of(Outcome::NotModelled { reason });
        let settings_read = [
            "ssl-redirect",
            "force-ssl-redirect",
            "http-redirect-code",
            "use-forwarded-headers",
            "no-tls-redirect-locations",
            "block-cidrs",
            "service-upstream",
            "allow-snippet-annotations",
            "annotations-risk-level",
            "use-http2",
            "global-allowed-response-headers",
        ];
        if let Some(key) = self
            .controller
            .config_map
            .keys()
            .find(|k| !settings_read.contains(&k.as_str()))
        {
            return not_modelled(format!("ConfigMap key {key}"));
        }
        if let Some(flag) = self.controller.flags.iter().find(|f| {
            !f.starts_with("--watch-ingress-without-class")
                && !f.starts_with("--ingress-class=")
                && !f.starts_with("--disable-catch-all")
        }) {
            return not_modelled(format!("controller flag {flag}"));
        }
        let forwarded = self.controller.setting_bool("use-forwarded-headers", false);
        let client = if forwarded {
            request
                .header("X-Forwarded-For")
                .and_then(|v| v.split(',').next().map(|s| s.trim().to_string()))
                .and_then(|s| s.parse::<IpAddr>().ok())
                .or(source)
        } else {
            source
        };
        // `block-cidrs`: nginx `deny` in the http block, before any server.
        if let Some(cidrs) = self.controller.setting("block-cidrs") {
            match client {
                Some(ip) if in_any(cidrs, ip) => {
                    return Behaviour::of(Outcome::Denied {
                        status: 403,
                        reason: "block-cidrs".into(),
                    });
                }
                None => return not_modelled("block-cidrs without the client address".into()),
                _ => {}
            }
        }
        let Some(server) = self.server_for(&request.host) else {
            return Behaviour::of(Outcome::NoRoute);
        };
        // `from-to-www-redirect`: a server for the other spelling of the host, when no
        // Ingress defines it (nginx.tmpl `RedirectServers`, `ngx_srv_redirect.lua`: scheme,
        // target host, the server port, and the URI without a trailing `/`).
        if server.host == "_"
            && let Some(to) = self.www_redirect_target(&request.host)
        {
            let mut scheme = request.scheme.as_str().to_string();
            let mut port = request.port.to_string();
            if forwarded {
                if let Some(p) = request.header("X-Forwarded-Proto") {
                    scheme = p;
                }
                if let Some(p) = request.header("X-Forwarded-Port") {
                    port = p;
                }
            }
            let mut uri = request_uri(request);
            if uri.ends_with('/') {
                uri.pop();
            }
            let status = self
                .controller
                .setting("http-redirect-code")
                .and_then(|c| c.parse::<u16>().ok())
                .filter(|c| [301, 302, 307, 308].contains(c))
                .unwrap_or(308);
            return Behaviour::of(Outcome::Redirect {
                status,
                location: format!("{scheme}://{to}:{port}{uri}"),
            });
        }
        let Some(location) = server.choose(&request.path) else {
            return Behaviour::of(Outcome::NoRoute);
        };
        let mut b = self.location_behaviour(server, location, request, client, forwarded);
        b.matched = Some(Matched {
            gateway: format!("IngressClass {}", self.controller.class),
            listener: server.host.clone(),
            object: location.ingress.map(|i| {
                format!(
                    "Ingress {}/{}",
                    self.ingresses[i].namespace, self.ingresses[i].name
                )
            }),
            rule: None,
            r#match: None,
        });
        b
    }

    fn location_behaviour(
        &self,
        server: &Server,
        location: &Location,
        request: &Request,
        client: Option<IpAddr>,
        forwarded: bool,
    ) -> Behaviour {
        let not_modelled = |reason: String| Behaviour::of(Outcome::NotModelled { reason });
        let ingress = location.ingress.map(|i| &self.ingresses[i]);
        let annotation = |key: &str| ingress.and_then(|i| i.annotation(key));
        // What changes the answer and is not evaluated.
        for key in [
            "auth-type",
            "auth-url",
            "auth-tls-secret",
            "enable-cors",
            "configuration-snippet",
            "server-snippet",
            "custom-http-errors",
            "default-backend",
            "custom-headers",
            "affinity",
            "satisfy",
        ] {
            if annotation(key).is_some() {
                return not_modelled(format!("annotation {PREFIX}{key}"));
            }
        }
        // Server level: `app-root` (nginx.tmpl: `if ($uri = /) { return 302 … }`).
        if let Some(root) = &server.app_root
            && request.path == "/"
        {
            return Behaviour::of(Outcome::Redirect {
                status: 302,
                location: format!("{}://{}{}", request.scheme.as_str(), request.host, root),
            });
        }
        // Access lists (`allowlist-source-range`, formerly `whitelist-`; `denylist-`).
        let allow =
            annotation("allowlist-source-range").or_else(|| annotation("whitelist-source-range"));
        for (list, deny_inside) in [(annotation("denylist-source-range"), true), (allow, false)] {
            let Some(list) = list else { continue };
            let Some(ip) = client else {
                return not_modelled("a source range without the client address".into());
            };
            if in_any(list, ip) == deny_inside {
                return Behaviour::of(Outcome::Denied {
                    status: 403,
                    reason: if deny_inside {
                        "denylist-source-range"
                    } else {
                        "allowlist-source-range"
                    }
                    .into(),
                });
            }
        }
        // `permanent-redirect` / `temporal-redirect`: `return` in the location, with the
        // `-code` annotation when it is a redirect status (else the default).
        for (key, default) in [("permanent-redirect", 301), ("temporal-redirect", 302)] {
            if let Some(url) = annotation(key) {
                let status = annotation(&format!("{key}-code"))
                    .and_then(|c| c.parse::<u16>().ok())
                    .filter(|c| (300..=308).contains(c))
                    .unwrap_or(default);
                return Behaviour::of(Outcome::Redirect {
                    status,
                    location: url.to_string(),
                });
            }
        }
        // HTTP to HTTPS (lua_ingress.lua `force_ssl_redirect`, after the location's returns).
        let proto_https = request.scheme == Scheme::Https
            || (forwarded
                && request
                    .header("X-Forwarded-Proto")
                    .is_some_and(|p| p.eq_ignore_ascii_case("https")));
        if !proto_https {
            let exempt = self
                .controller
                .setting("no-tls-redirect-locations")
                .unwrap_or("/.well-known/acme-challenge")
                .split(',')
                .any(|p| !p.trim().is_empty() && location.path.starts_with(p.trim()));
            let ssl = annotation("ssl-redirect")
                .map(|v| v == "true")
                .unwrap_or_else(|| self.controller.setting_bool("ssl-redirect", true));
            let force = annotation("force-ssl-redirect")
                .map(|v| v == "true")
                .unwrap_or_else(|| self.controller.setting_bool("force-ssl-redirect", false));
            if !exempt && ((server.tls && ssl) || force) {
                let status = self
                    .controller
                    .setting("http-redirect-code")
                    .and_then(|c| c.parse::<u16>().ok())
                    .filter(|c| [301, 302, 307, 308].contains(c))
                    .unwrap_or(308);
                let mut uri = request_uri(request);
                if annotation("preserve-trailing-slash") != Some("true") && uri.ends_with('/') {
                    uri.pop();
                }
                return Behaviour::of(Outcome::Redirect {
                    status,
                    location: format!("https://{}{uri}", forwarded_host(request, forwarded)),
                });
            }
        }
        let Some((namespace, name, port)) = location.backend.clone() else {
            // The default backend: 404.
            return Behaviour::of(Outcome::NoRoute);
        };
        let mut path = request.path.clone();
        if let Some(target) = &location.rewrite {
            match locations::rewrite(&location.path, target, &request.path) {
                Some(p) => path = p,
                None => return not_modelled(format!("rewrite of {:?}", location.path)),
            }
        }
        // nginx.tmpl: `proxy_set_header Host $best_http_host` (X-Forwarded-Host when the
        // forwarded headers are trusted), unless `upstream-vhost` names another.
        let host = annotation("upstream-vhost")
            .map(str::to_string)
            .unwrap_or_else(|| forwarded_host(request, forwarded));
        let mut b = Behaviour::of(Outcome::NoRoute);
        b.request_headers = proxy_headers(request, client, forwarded);
        if let Some(prefix) = annotation("x-forwarded-prefix").filter(|p| !p.is_empty()) {
            b.request_headers
                .set
                .push(("X-Forwarded-Prefix".into(), prefix.to_string()));
        }
        let primary = Share {
            namespace,
            name,
            port,
            weight: 100,
            request_headers: Default::default(),
            response_headers: Default::default(),
        };
        let backends = match canary_for(server, &primary) {
            None => vec![primary],
            Some(canary) => match canary.decide(request) {
                Ok(Some(true)) => vec![canary.share.clone()],
                Ok(Some(false)) => vec![primary],
                Ok(None) => {
                    let mut p = primary;
                    let total = canary.weight_total.max(1);
                    let w = canary.weight.min(total);
                    p.weight = total - w;
                    let mut c = canary.share.clone();
                    c.weight = w;
                    vec![p, c].into_iter().filter(|s| s.weight > 0).collect()
                }
                Err(reason) => return not_modelled(reason),
            },
        };
        b.outcome = Outcome::Backends {
            backends,
            path,
            host,
        };
        b
    }
}

fn canary_for<'s>(server: &'s Server, primary: &Share) -> Option<&'s locations::Canary> {
    server.canaries.iter().find(|c| {
        c.primary
            == (
                primary.namespace.clone(),
                primary.name.clone(),
                primary.port,
            )
    })
}

/// The headers nginx.tmpl's location block sets toward every backend: the client address,
/// the forwarded host, port and scheme (the client's own values only when
/// `use-forwarded-headers` trusts them; its X-Forwarded-For and X-Forwarded-Host are kept as
/// X-Original-Forwarded-*), and `Proxy` removed (httpoxy). X-Request-ID is random and left
/// out.
fn proxy_headers(request: &Request, client: Option<IpAddr>, forwarded: bool) -> HeaderEdits {
    let mut edits = HeaderEdits::default();
    let trusted = |name: &str| forwarded.then(|| request.header(name)).flatten();
    let scheme =
        trusted("X-Forwarded-Proto").unwrap_or_else(|| request.scheme.as_str().to_string());
    let port = trusted("X-Forwarded-Port").unwrap_or_else(|| request.port.to_string());
    let host = if forwarded && request.header("X-Forwarded-Host").is_some() {
        forwarded_host(request, true)
    } else if request.port == request.scheme.default_port() {
        request.host.clone()
    } else {
        format!("{}:{}", request.host, request.port)
    };
    if let Some(ip) = client {
        edits.set.push(("X-Real-IP".into(), ip.to_string()));
        edits.set.push(("X-Forwarded-For".into(), ip.to_string()));
    }
    edits.set.push(("X-Forwarded-Host".into(), host));
    edits.set.push(("X-Forwarded-Port".into(), port));
    for name in ["X-Forwarded-Proto", "X-Forwarded-Scheme", "X-Scheme"] {
        edits.set.push((name.into(), scheme.clone()));
    }
    for (from, to) in [
        ("X-Forwarded-For", "X-Original-Forwarded-For"),
        ("X-Forwarded-Host", "X-Original-Forwarded-Host"),
    ] {
        match request.header(from) {
            Some(v) => edits.set.push((to.into(), v)),
            None => edits.remove.push(to.into()),
        }
    }
    if client.is_none() {
        // The client address is unknown: what the client sent must not pass as the answer.
        edits.remove.push("X-Forwarded-For".into());
    }
    edits.remove.push("Proxy".into());
    edits
}

/// `$best_http_host`: X-Forwarded-Host when the forwarded headers are trusted, else the Host,
/// without port.
fn forwarded_host(request: &Request, forwarded: bool) -> String {
    forwarded
        .then(|| request.header("X-Forwarded-Host"))
        .flatten()
        .and_then(|h| h.split(',').next().map(|h| h.trim().to_string()))
        .filter(|h| !h.is_empty())
        .map_or_else(|| request.host.clone(), |h| hostname::without_port(&h))
}

/// `$request_uri`: the path and the query as sent.
fn request_uri(request: &Request) -> String {
    format!("{}{}", request.path, request.query_string())
}

/// Whether `ip` is in one of the comma-separated CIDRs or addresses of `list`.
pub(crate) fn in_any(list: &str, ip: IpAddr) -> bool {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .any(|entry| {
            let (addr, bits) = match entry.split_once('/') {
                Some((a, b)) => (a, b.parse::<u32>().ok()),
                None => (entry, None),
            };
            let Ok(net) = addr.parse::<IpAddr>() else {
                return false;
            };
            match (net, ip) {
                (IpAddr::V4(n), IpAddr::V4(i)) => {
                    let bits = bits.unwrap_or(32).min(32);
                    let mask = if bits == 0 {
                        0
                    } else {
                        u32::MAX << (32 - bits)
                    };
                    u32::from(n) & mask == u32::from(i) & mask
                }
                (IpAddr::V6(n), IpAddr::V6(i)) => {
                    let bits = bits.unwrap_or(128).min(128);
                    let mask = if bits == 0 {
                        0
                    } else {
                        u128::MAX << (128 - bits)
                    };
                    u128::from(n) & mask == u128::from(i) & mask
                }
                _ => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidrs_contain_addresses() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(in_any("10.0.0.0/8, 192.168.0.1", ip("10.2.3.4")));
        assert!(in_any("10.0.0.0/8, 192.168.0.1", ip("192.168.0.1")));
        assert!(!in_any("10.0.0.0/8", ip("11.0.0.1")));
        assert!(in_any("0.0.0.0/0", ip("1.2.3.4")));
        assert!(!in_any("not-an-ip", ip("1.2.3.4")));
    }
}
