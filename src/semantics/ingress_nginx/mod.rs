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

mod annotations;
mod locations;
pub mod settings;

use std::collections::BTreeMap;
use std::net::IpAddr;

use serde_json::Value;

use super::{
    AccessCheck, Behaviour, HeaderEdits, Matched, Outcome, Request, Scheme, Share, Tls, hostname,
};
use locations::{Location, Server};

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

    /// A boolean ConfigMap key as `ReadConfig`'s weakly typed decode reads it: the empty
    /// string is false, a value `strconv.ParseBool` refuses keeps the default.
    fn setting_bool(&self, key: &str, default: bool) -> bool {
        match self.setting(key) {
            None => default,
            Some("") => false,
            Some(v) => parse_bool(v).unwrap_or(default),
        }
    }

    /// The value of `--name=value` (the last one given wins, as with Go's `flag`).
    fn flag_value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
    }

    /// The value `--ingress-class` gives the legacy `kubernetes.io/ingress.class`
    /// annotation: the flag, else the controller's class.
    fn class(&self) -> &str {
        self.flag_value("--ingress-class").unwrap_or(&self.class)
    }

    /// `--controller-class`: IngressClasses naming it in `spec.controller` are served
    /// (`store.go` `ingressClassEventHandler`).
    fn controller_class(&self) -> &str {
        self.flag_value("--controller-class")
            .unwrap_or("k8s.io/ingress-nginx")
    }

    /// A boolean flag: given bare, or with a value Go's `strconv.ParseBool` reads as true.
    fn flag(&self, name: &str) -> bool {
        // The last occurrence wins (pflag sets the value once per occurrence).
        self.flags
            .iter()
            .rev()
            .find_map(|f| {
                if f == name {
                    Some(true)
                } else {
                    let v = f.strip_prefix(name)?.strip_prefix('=')?;
                    Some(parse_bool(v) == Some(true))
                }
            })
            .unwrap_or(false)
    }

    /// `--http-port` / `--https-port`: the ports nginx listens on.
    fn port(&self, scheme: Scheme) -> u16 {
        let (flag, default) = match scheme {
            Scheme::Http => ("--http-port", 80),
            Scheme::Https => ("--https-port", 443),
        };
        self.flag_value(flag)
            .and_then(|p| p.parse().ok())
            .unwrap_or(default)
    }

    /// `--annotations-prefix`: the prefix every annotation is read under.
    fn annotations_prefix(&self) -> String {
        format!(
            "{}/",
            self.flag_value("--annotations-prefix")
                .unwrap_or(annotations::DEFAULT_PREFIX)
        )
    }
}

/// The annotation (full key) and value whose validator makes ingress-nginx refuse the whole
/// Ingress (`annotations.go` `Extract`, where the parser passes the validation error on),
/// risk levels aside; `annotations` are the Ingress's, full keys, `prefix` without `/`.
pub(crate) fn invalid_annotation(
    annotations: &BTreeMap<String, String>,
    prefix: &str,
) -> Option<(String, String)> {
    match annotations::rejection(annotations, prefix, annotations::Risk::Critical)? {
        annotations::Rejection::Invalid { key, value } => Some((key, value)),
        annotations::Rejection::TooRisky { .. } => None,
    }
}

/// Whether ingress-nginx's validator for annotation `key` (short key or alias) accepts
/// `value` (`parser.checkAnnotation`; the empty value and unknown keys are not checked).
pub(crate) fn annotation_value_valid(key: &str, value: &str) -> bool {
    value.is_empty() || annotations::spec(key).is_none_or(|s| s.validator.accepts(value))
}

/// The risk level ingress-nginx declares for an annotation (short key or alias):
/// `Low`, `Medium`, `High` or `Critical`; `None` for a key it does not know.
pub(crate) fn annotation_risk(key: &str) -> Option<&'static str> {
    annotations::spec(key).map(|s| match s.risk {
        annotations::Risk::Low => "Low",
        annotations::Risk::Medium => "Medium",
        annotations::Risk::High => "High",
        annotations::Risk::Critical => "Critical",
    })
}

/// `parser.StringToURL`, which `ReadConfig` applies to `global-auth-url` (a URL it refuses is
/// dropped with a warning): a scheme, a host, and no `..` in the host.
fn valid_auth_url(url: &str) -> bool {
    let Some((scheme, rest)) = url.split_once("://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !scheme.is_empty() && !host.is_empty() && !host.contains("..")
}

/// Go's `strconv.ParseBool`, which ingress-nginx's annotation and flag parsers use.
pub(crate) fn parse_bool(value: &str) -> Option<bool> {
    match value {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// One Ingress as the model reads it.
#[derive(Debug, Clone)]
pub(crate) struct Ingress {
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) annotations: BTreeMap<String, String>,
    /// The controller's annotation prefix, with its `/`.
    pub(crate) prefix: String,
    pub(crate) created: Option<String>,
    pub(crate) spec: Value,
}

impl Ingress {
    /// The value as written, when its validator accepts it. An Ingress still loaded with a
    /// refused value is one whose parser falls back to the default (or denies the location,
    /// see [`Ingress::denied`]): for the model, the annotation is absent.
    fn valid(&self, key: &str) -> Option<&str> {
        let raw = self.annotations.get(&format!("{}{key}", self.prefix))?;
        let accepted =
            annotations::spec(key).is_none_or(|spec| raw.is_empty() || spec.validator.accepts(raw));
        accepted.then_some(raw.as_str())
    }

    /// A string annotation as `parser.GetStringAnnotation` reads it: trimmed; empty is
    /// absent.
    pub(crate) fn annotation(&self, key: &str) -> Option<&str> {
        self.valid(key).map(str::trim).filter(|v| !v.is_empty())
    }

    /// A boolean annotation as `parser.GetBoolAnnotation` reads it (Go's `ParseBool` of the
    /// value as written; one it cannot read is absent).
    pub(crate) fn flag(&self, key: &str) -> Option<bool> {
        self.valid(key).and_then(parse_bool)
    }

    /// The annotation whose refused value makes its parser deny every location of the
    /// Ingress (`annotations.go` `Extract`: a `LocationDenied` error; nginx.tmpl answers 503).
    pub(crate) fn denied(&self) -> Option<String> {
        self.annotations.iter().find_map(|(full, raw)| {
            let key = full.strip_prefix(&self.prefix)?;
            let spec = annotations::spec(key)?;
            (spec.on_invalid == annotations::OnInvalid::Deny
                && !raw.is_empty()
                && !spec.validator.accepts(raw))
            .then(|| full.clone())
        })
    }

    fn is_canary(&self) -> bool {
        self.flag("canary") == Some(true)
    }
}

/// A request shape at which ingress-nginx's answer can change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionPoint {
    /// `None`: the catch-all server (a host no Ingress names).
    pub host: Option<String>,
    pub path: String,
    /// `path` is a case-insensitive regex anchored at the start.
    pub regex: bool,
    /// Headers to send (canary headers and cookies).
    pub headers: Vec<(String, String)>,
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
        let objects: Vec<&Value> = objects.into_iter().collect();
        // The IngressClasses this controller serves: its own class, and every IngressClass
        // naming its `--controller-class` (or, with `--ingress-class-by-name`, named like
        // its `--ingress-class`). The API server's DefaultIngressClass admission gives an
        // Ingress without a class (and without the legacy annotation) the default
        // IngressClass's name when it is created.
        let mut served = vec![controller.class.clone()];
        let mut default_class = None;
        for v in objects
            .iter()
            .filter(|v| str_at(v, "/kind") == Some("IngressClass"))
        {
            let name = str_at(v, "/metadata/name").unwrap_or_default();
            if str_at(v, "/spec/controller") == Some(controller.controller_class())
                || (controller.flag("--ingress-class-by-name") && name == controller.class())
            {
                served.push(name.to_string());
            }
            if super::string_map(v, "/metadata/annotations")
                .get("ingressclass.kubernetes.io/is-default-class")
                .is_some_and(|d| d == "true")
            {
                default_class = Some(name.to_string());
            }
        }
        let prefix = controller.annotations_prefix();
        let validating = controller
            .flag_value("--enable-annotation-validation")
            .and_then(parse_bool)
            != Some(false);
        let max_risk = annotations::risk_from_setting(
            controller
                .setting("annotations-risk-level")
                .unwrap_or(annotations::DEFAULT_RISK_SETTING),
        );
        let mut ingresses = Vec::new();
        for v in objects {
            if str_at(v, "/kind") != Some("Ingress") {
                continue;
            }
            let annotations = super::string_map(v, "/metadata/annotations");
            // store.go `GetIngressClass`: `spec.ingressClassName` must name a served
            // IngressClass; else the legacy annotation must equal `--ingress-class`; else
            // `--watch-ingress-without-class` takes it.
            let legacy = annotations.get("kubernetes.io/ingress.class");
            let class_name = str_at(v, "/spec/ingressClassName")
                .map(str::to_string)
                .or_else(|| legacy.is_none().then(|| default_class.clone()).flatten());
            let served_here = match (&class_name, legacy) {
                (Some(name), _) => served.contains(name),
                (None, Some(value)) => value == controller.class(),
                (None, None) => controller.flag("--watch-ingress-without-class"),
            };
            if !served_here {
                continue;
            }
            // `annotations.go` `Extract`: an annotation above the risk level, or a value its
            // validator refuses (where the parser passes the error on), and `syncIngress`
            // ignores the whole Ingress.
            // `--enable-annotation-validation=false` (`parser.EnableAnnotationValidation`)
            // leaves only the risk check (which `rejection` runs first).
            if annotations::rejection(&annotations, prefix.trim_end_matches('/'), max_risk)
                .is_some_and(|r| validating || matches!(r, annotations::Rejection::TooRisky { .. }))
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
                prefix: prefix.clone(),
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
    ///
    /// nginx's `server_name` order: exact names (hosts and aliases), then the longest
    /// leading `*.` wildcard alias (any depth), then regexes in order: a wildcard rule host,
    /// which `template.go` `buildServerName` writes as `~^(?<subdomain>[\w-]+)\.rest$`
    /// (exactly one label), and `~` aliases; then the catch-all.
    fn server_for(&self, host: &str) -> Option<&Server> {
        let named = || self.servers.iter().filter(|s| s.host != "_");
        named()
            .find(|s| s.host == host || s.aliases.iter().any(|a| a == host))
            .or_else(|| {
                named()
                    .flat_map(|s| s.aliases.iter().map(move |a| (s, a)))
                    .filter(|(_, a)| a.starts_with("*.") && hostname::matches(a, host))
                    .max_by_key(|(_, a)| a.len())
                    .map(|(s, _)| s)
            })
            .or_else(|| {
                named().find(|s| {
                    s.host.strip_prefix("*.").is_some_and(|rest| {
                        host.strip_suffix(rest)
                            .and_then(|h| h.strip_suffix('.'))
                            .is_some_and(|label| {
                                !label.is_empty()
                                    && label
                                        .chars()
                                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
                            })
                    }) || s.aliases.iter().any(|a| {
                        a.strip_prefix('~')
                            .and_then(|re| regex::Regex::new(re.trim()).ok())
                            .is_some_and(|re| re.is_match(host))
                    })
                })
            })
            .or_else(|| self.servers.iter().find(|s| s.host == "_"))
    }

    fn prefix(&self) -> String {
        self.controller.annotations_prefix()
    }

    /// The CA Secret of the first Ingress of `host` (in the controller's order) that asks
    /// for client certificates (`auth-tls-secret`).
    fn server_client_ca(&self, host: &str) -> Option<String> {
        self.ingresses
            .iter()
            .filter(|i| !i.is_canary())
            .filter(|i| {
                i.spec
                    .get("rules")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .any(|r| r.get("host").and_then(Value::as_str) == Some(host))
            })
            .find_map(|i| i.annotation("auth-tls-secret").map(str::to_string))
    }

    /// Where the answer can change: every server's host (`None`: the catch-all server, for
    /// hosts no Ingress names), each location's path (a regex's when the server is in regex
    /// mode), the headers and cookies a canary reads, and the paths the controller treats
    /// specially (`no-tls-redirect-locations`).
    pub fn decision_points(&self) -> Vec<DecisionPoint> {
        let exempt = self
            .controller
            .setting("no-tls-redirect-locations")
            .unwrap_or("/.well-known/acme-challenge")
            .to_string();
        let mut out = Vec::new();
        for server in &self.servers {
            let host = (server.host != "_").then(|| server.host.clone());
            let mut points: Vec<DecisionPoint> = Vec::new();
            for location in &server.locations {
                let point = DecisionPoint {
                    host: host.clone(),
                    path: location.path.clone(),
                    regex: server.regex_mode,
                    headers: Vec::new(),
                };
                if let Some(upstream) = &location.backend
                    && let Some(canary) = canary_for(&self.servers, upstream)
                {
                    for headers in canary.deciding_headers() {
                        points.push(DecisionPoint {
                            headers,
                            ..point.clone()
                        });
                    }
                }
                points.push(point);
            }
            for path in exempt
                .split(',')
                .map(str::trim)
                .filter(|p| p.starts_with('/'))
            {
                points.push(DecisionPoint {
                    host: host.clone(),
                    path: format!("{}/probe", path.trim_end_matches('/')),
                    regex: false,
                    headers: Vec::new(),
                });
            }
            out.extend(points);
        }
        out
    }

    /// `certificate.lua` `configured_for_current_request`: the server has a certificate (its
    /// Ingress's `tls` section gave it one, the default one included), or the wildcard
    /// server one label up has one (`get_pem_cert_uid`).
    fn certificate_configured(&self, server_host: &str, host: &str) -> bool {
        let has = |name: &str| self.servers.iter().any(|s| s.host == name && s.tls);
        has(server_host)
            || host
                .split_once('.')
                .is_some_and(|(_, rest)| has(&format!("*.{rest}")))
    }

    /// The certificate presented for `host` (its SNI): the host's server's Secret, else the
    /// Secret of the wildcard server one label up (`certificate.lua` `get_pem_cert_uid`),
    /// else `--default-ssl-certificate`, else the controller's self-signed one.
    fn certificate(&self, host: &str) -> Tls {
        let own = |name: &str| {
            self.servers
                .iter()
                .find(|s| s.host == name)
                .and_then(|s| s.certificate.clone())
        };
        let wildcard = host
            .split_once('.')
            .and_then(|(_, rest)| own(&format!("*.{rest}")));
        Tls {
            certificate: own(host).or(wildcard).or_else(|| {
                self.controller
                    .flag_value("--default-ssl-certificate")
                    .map(str::to_string)
            }),
        }
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
        let mut b = self.answer(request, source);
        // lua_ingress.lua `header`, every location's header filter: on a connection to
        // nginx's HTTPS port, the HSTS header (its certificate check is never called, so it
        // holds for every host).
        if request.scheme == Scheme::Https
            && !matches!(b.outcome, Outcome::NotModelled { .. } | Outcome::NoListener)
            && let Some(value) = self.hsts()
        {
            b.response_headers
                .set
                .push(("Strict-Transport-Security".into(), value));
        }
        b
    }

    /// The HSTS header value (`hsts`, `hsts-max-age`, `hsts-include-subdomains`,
    /// `hsts-preload`; `config.go` `NewDefault`: on, one year, subdomains, no preload).
    fn hsts(&self) -> Option<String> {
        // mapstructure's weak decoding: empty is false, unreadable keeps the default.
        let on = |value: Option<&str>, default: bool| match value {
            None => default,
            Some("") => false,
            Some(v) => parse_bool(v).unwrap_or(default),
        };
        if !on(self.controller.setting("hsts"), true) {
            return None;
        }
        let subdomains = on(self.controller.setting("hsts-include-subdomains"), true);
        let preload = on(self.controller.setting("hsts-preload"), false);
        Some(format!(
            "max-age={}{}{}",
            self.controller
                .setting("hsts-max-age")
                .unwrap_or("31536000"),
            if subdomains {
                "; includeSubDomains"
            } else {
                ""
            },
            if preload { "; preload" } else { "" },
        ))
    }

    /// [`World::behaviour`] before the response headers every answer gets.
    fn answer(&self, request: &Request, source: Option<IpAddr>) -> Behaviour {
        let not_modelled = |reason: String| Behaviour::of(Outcome::NotModelled { reason });
        // Keys the model reads (`settings.rs`), and keys that cannot change what it answers
        // for the requests it models.
        let settings_read = |key: &str| {
            settings::MODELLED_SETTINGS.contains(&key)
                || [
                    "service-upstream",
                    "allow-snippet-annotations",
                    "use-http2",
                    "global-allowed-response-headers",
                ]
                .contains(&key)
        };
        // A setting that can change the answer and that the model does not read: the answer
        // is not predicted (logging and performance settings, and keys ingress-nginx does
        // not know, change nothing; `settings.rs`).
        if let Some(key) = self
            .controller
            .config_map
            .keys()
            .find(|k| !settings_read(k) && settings::setting_changes_answers(k))
        {
            return not_modelled(format!("ConfigMap key {key}"));
        }
        if let Some(flag) = self.controller.flags.iter().find(|f| {
            let name = f.split_once('=').map_or(f.as_str(), |(n, _)| n);
            !settings::MODELLED_FLAGS.contains(&name) && settings::flag_changes_answers(name)
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
        // Only the ports nginx listens on answer.
        if request.port != self.controller.port(request.scheme) {
            return Behaviour::of(Outcome::NoListener);
        }
        // nginx's `ngx_http_validate_host` drops a trailing dot before the server lookup.
        let host = request.host.trim_end_matches('.');
        let Some(server) = self.server_for(host) else {
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
        let tls = (request.scheme == Scheme::Https).then(|| self.certificate(&request.host));
        // `--enable-ssl-passthrough`: a TCP proxy in front of nginx hands the TLS stream of a
        // host with `ssl-passthrough` to its backend by SNI; nginx never sees the request.
        if tls.is_some() && server.passthrough && self.controller.flag("--enable-ssl-passthrough") {
            return not_modelled("ssl-passthrough (the TLS stream goes to the backend)".into());
        }
        // Locations are chosen on the normalised URI (`ngx_http_parse_complex_uri`:
        // percent-decoded, slashes merged, dot segments resolved); the backend still gets
        // the request's URI unless a rewrite replaces it.
        let uri = normalised_uri(&request.path);
        if server.auto_redirects(&uri) {
            let mut b = Behaviour::of(Outcome::Redirect {
                status: 301,
                location: format!(
                    "{}://{}{uri}/{}",
                    request.scheme.as_str(),
                    host,
                    request.query_string()
                ),
            });
            b.tls = tls;
            return b;
        }
        let Some(location) = server.choose(&uri) else {
            let mut b = Behaviour::of(Outcome::NoRoute);
            b.tls = tls;
            return b;
        };
        let mut b = self.location_behaviour(server, location, request, client, forwarded);
        // controller.go `getBackendServers`: the first Ingress of the host with a client
        // certificate check sets it on the server (nginx.tmpl `ssl_verify_client` in the
        // server block), so every HTTPS request to the host must present one.
        if request.scheme == Scheme::Https
            && !matches!(b.outcome, Outcome::NotModelled { .. })
            && let Some(secret) = self.server_client_ca(&server.host)
        {
            let check = AccessCheck::ClientCertificate { secret };
            if !b.access.contains(&check) {
                b.access.push(check);
            }
        }
        b.tls = tls;
        b.matched = Some(Matched {
            gateway: format!("IngressClass {}", self.controller.class),
            listener: server.host.clone(),
            // The generated root location of a host belongs to no rule unless it carries
            // the Ingress's defaultBackend.
            object: location
                .ingress
                .filter(|_| location.rule.is_some() || location.backend.is_some())
                .map(|i| {
                    format!(
                        "Ingress {}/{}",
                        self.ingresses[i].namespace, self.ingresses[i].name
                    )
                }),
            rule: location.rule.map(|(r, _)| r),
            r#match: location.rule.map(|(_, p)| p),
            also: location
                .backend
                .as_ref()
                .and_then(|upstream| canary_for(&self.servers, upstream))
                .map(|c| {
                    let i = &self.ingresses[c.ingress];
                    format!("Ingress {}/{}", i.namespace, i.name)
                })
                .into_iter()
                .collect(),
        });
        b
    }

    fn location_behaviour<'w>(
        &'w self,
        server: &Server,
        location: &Location,
        request: &Request,
        client: Option<IpAddr>,
        forwarded: bool,
    ) -> Behaviour {
        let not_modelled = |reason: String| Behaviour::of(Outcome::NotModelled { reason });
        let ingress = location.ingress.map(|i| &self.ingresses[i]);
        let annotation = |key: &str| ingress.and_then(|i| i.annotation(key));
        // Snippets are nginx configuration of the user's own: anything can happen.
        for key in ["configuration-snippet", "server-snippet"] {
            if annotation(key).is_some() {
                return not_modelled(format!("annotation {}{key}", self.prefix()));
            }
        }
        // CORS answers a preflight itself (nginx.tmpl `cors.tmpl`: `if ($request_method =
        // 'OPTIONS') { … return 204; }`); other requests only get response headers.
        if ingress.and_then(|i| i.flag("enable-cors")) == Some(true) && request.method == "OPTIONS"
        {
            return not_modelled("a CORS preflight (enable-cors)".into());
        }
        let mut unevaluated = Vec::new();
        for key in [
            "enable-cors",
            "custom-http-errors",
            "default-backend",
            "custom-headers",
            "affinity",
            "satisfy",
        ] {
            if let Some(v) = annotation(key) {
                unevaluated.push((format!("{}{key}", self.prefix()), Value::from(v)));
            }
        }
        // Server level, so before any location: `app-root` (nginx.tmpl: `if ($uri = /) { return 302 … }`).
        if let Some(root) = &server.app_root
            && request.path == "/"
        {
            return Behaviour::of(Outcome::Redirect {
                status: 302,
                location: format!("{}://{}{}", request.scheme.as_str(), request.host, root),
            });
        }
        // A location whose Ingress has an annotation its parser refused with a denial
        // (nginx.tmpl: `return 503` before anything else in the location).
        if let Some(key) = ingress.and_then(Ingress::denied) {
            let mut b = Behaviour::of(Outcome::Direct { status: 503 });
            b.unevaluated
                .push((key, Value::from("refused value denies the location")));
            return b;
        }
        // `annotations/redirect` `Parse`: `temporal-redirect` first (its code outside
        // 300-307 is 302; a URL whose scheme does not start with `http` leaves the location
        // without a redirect), else `permanent-redirect` (its code outside 300-308 is 301).
        // A code that is not a number fails validation, which drops the whole Ingress
        // (`annotations.rs`).
        let code = |key: &str, default: u16, max: u16| {
            annotation(key)
                .and_then(|c| c.parse::<i64>().ok())
                .and_then(|c| u16::try_from(c).ok())
                .filter(|c| (300..=max).contains(c))
                .unwrap_or(default)
        };
        // `use-port-in-redirects` (annotation, else the ConfigMap key): redirects carry the
        // port (nginx.tmpl `port_in_redirect`; lua_ingress.lua's HTTPS redirect).
        let use_port = ingress
            .and_then(|i| i.flag("use-port-in-redirects"))
            .unwrap_or_else(|| self.controller.setting_bool("use-port-in-redirects", false));
        if let Some(url) = annotation("temporal-redirect") {
            if url
                .split_once(':')
                .is_some_and(|(scheme, _)| scheme.starts_with("http"))
            {
                return Behaviour::of(Outcome::Redirect {
                    status: code("temporal-redirect-code", 302, 307),
                    location: url.to_string(),
                });
            }
        } else if let Some(url) = annotation("permanent-redirect") {
            // `return 301 /new;`: nginx makes a relative target absolute (`absolute_redirect`
            // is on unless `relative-redirects`; `server_name_in_redirect off`: the request's
            // host; `port_in_redirect` only with `use-port-in-redirects`).
            let location = if url.starts_with('/') {
                let port = if use_port && request.port != request.scheme.default_port() {
                    format!(":{}", request.port)
                } else {
                    String::new()
                };
                format!("{}://{}{port}{url}", request.scheme.as_str(), request.host)
            } else {
                url.to_string()
            };
            return Behaviour::of(Outcome::Redirect {
                status: code("permanent-redirect-code", 301, 308),
                location,
            });
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
            let ssl = ingress
                .and_then(|i| i.flag("ssl-redirect"))
                .unwrap_or_else(|| self.controller.setting_bool("ssl-redirect", true));
            let force = ingress
                .and_then(|i| i.flag("force-ssl-redirect"))
                .unwrap_or_else(|| self.controller.setting_bool("force-ssl-redirect", false));
            if !exempt
                && ((self.certificate_configured(&server.host, &request.host) && ssl) || force)
            {
                let status = self
                    .controller
                    .setting("http-redirect-code")
                    .and_then(|c| c.parse::<u16>().ok())
                    .filter(|c| [301, 302, 307, 308].contains(c))
                    .unwrap_or(308);
                let mut uri = request_uri(request);
                if ingress.and_then(|i| i.flag("preserve-trailing-slash")) != Some(true)
                    && uri.ends_with('/')
                {
                    uri.pop();
                }
                let port = if use_port {
                    format!(":{}", self.controller.port(Scheme::Https))
                } else {
                    String::new()
                };
                return Behaviour::of(Outcome::Redirect {
                    status,
                    location: format!("https://{}{port}{uri}", forwarded_host(request, forwarded)),
                });
            }
        }
        // nginx's access phase comes after the rewrite phase, where every redirect above
        // returned: `block-cidrs` (an http-level `deny`), the Ingress's source ranges, then
        // authentication.
        let mut access = Vec::new();
        // Access lists (`allowlist-source-range`, formerly `whitelist-`; `denylist-`).
        // `ipallowlist`/`ipdenylist` `Parse`: without the annotation, the ConfigMap's
        // `whitelist-source-range`/`denylist-source-range` (the default backend's) apply.
        let set = |v: Option<&'w str>| v.filter(|v| !v.trim().is_empty());
        let allow = annotation("allowlist-source-range")
            .or_else(|| annotation("whitelist-source-range"))
            .or_else(|| set(self.controller.setting("whitelist-source-range")));
        let deny = annotation("denylist-source-range")
            .or_else(|| set(self.controller.setting("denylist-source-range")));
        // `block-cidrs` is an http-level `deny` (nginx.tmpl); nginx's access module gives a
        // location the rules of the level above only when it has none of its own
        // (`ngx_http_access_merge_loc_conf`), so a location with an allow- or deny-list does
        // not inherit it.
        let block = set(self.controller.setting("block-cidrs"))
            .filter(|_| allow.is_none() && deny.is_none());
        // `satisfy any` (nginx.tmpl, `satisfy` annotation): the address rules or the
        // authentication may let the request through; `all` (the default) needs both.
        let satisfy_any = annotation("satisfy") == Some("any");
        let mut refused: Option<&str> = None;
        let mut address_checked = false;
        for (list, deny_inside, reason) in [
            (block, true, "block-cidrs"),
            (deny, true, "denylist-source-range"),
            (allow, false, "allowlist-source-range"),
        ] {
            let Some(list) = list else { continue };
            let Some(ip) = client else {
                // The client address is not known: the check is recorded, not decided.
                access.push(AccessCheck::source_range(!deny_inside, list));
                continue;
            };
            address_checked = true;
            if super::cidr::in_any(list, ip) == deny_inside {
                if !satisfy_any {
                    return Behaviour::of(Outcome::Denied {
                        status: 403,
                        reason: reason.into(),
                    });
                }
                refused = refused.or(Some(reason));
            }
        }
        let before_auth = access.len();
        // Authentication: recorded, not decided (it depends on the credentials sent and on
        // another service's answer).
        if let Some(url) = annotation("auth-url") {
            access.push(AccessCheck::external_auth(url));
        } else if let Some(url) = set(self.controller.setting("global-auth-url"))
            && valid_auth_url(url)
            && ingress.and_then(|i| i.flag("enable-global-auth")) != Some(false)
            && !self
                .controller
                .setting("no-auth-locations")
                .unwrap_or("/.well-known/acme-challenge")
                .split(',')
                .map(str::trim)
                .any(|p| !p.is_empty() && location.path.starts_with(p))
        {
            // template.go `shouldApplyGlobalAuth`: a location without its own auth-url, unless
            // its Ingress turns global auth off.
            access.push(AccessCheck::external_auth(url));
        }
        // auth/main.go `Parse`: `authTypeRegex` (`basic|digest`) is matched anywhere in the
        // value; nginx.tmpl writes `auth_basic` when the type is exactly `basic`, else
        // `auth_digest`.
        if let Some(kind) =
            annotation("auth-type").filter(|t| t.contains("basic") || t.contains("digest"))
        {
            // auth/main.go `Parse`: `auth-secret` is `namespace/name` or a name in the
            // Ingress's namespace.
            let secret = annotation("auth-secret").unwrap_or_default();
            let secret = match (secret.contains('/'), ingress) {
                (false, Some(i)) => format!("{}/{secret}", i.namespace),
                _ => secret.to_string(),
            };
            access.push(AccessCheck::BasicAuth {
                scheme: if kind == "basic" { "basic" } else { "digest" }.to_string(),
                secret,
            });
        }
        if satisfy_any && address_checked {
            match refused {
                // The address let it through: no credentials are asked for.
                None => access.truncate(before_auth),
                // Refused by address, and no authentication could let it through.
                Some(reason) if access.len() == before_auth => {
                    return Behaviour::of(Outcome::Denied {
                        status: 403,
                        reason: reason.into(),
                    });
                }
                // Refused by address: the credentials decide.
                Some(_) => {}
            }
        }
        // The server's check (`locations::Server::client_certificate`): only `on` refuses a
        // client without a valid certificate, and only over TLS (`ssl_verify_client` is a TLS
        // directive: plain HTTP to the same server is not checked).
        if let Some((secret, verify)) = &server.client_certificate
            && verify == "on"
            && request.scheme == super::Scheme::Https
        {
            access.push(AccessCheck::ClientCertificate {
                secret: secret.clone(),
            });
        }
        let Some((namespace, name, port)) = location.backend.clone() else {
            // The default backend: 404, once the access checks let the request through.
            let mut b = Behaviour::of(Outcome::NoRoute);
            b.access = access;
            b.unevaluated = unevaluated;
            return b;
        };
        let mut path = request.path.clone();
        if let Some(target) = &location.rewrite {
            match locations::rewrite(&location.path, target, &normalised_uri(&request.path)) {
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
        b.access = access;
        b.unevaluated = unevaluated;
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
        let upstream = (
            primary.namespace.clone(),
            primary.name.clone(),
            primary.port,
        );
        let backends = match canary_for(&self.servers, &upstream) {
            None => vec![primary],
            Some(canary) => match canary.decide(request) {
                Ok(Some(true)) => vec![Share {
                    weight: 100,
                    ..canary.share.clone()
                }],
                Ok(Some(false)) => vec![primary],
                Ok(None) => {
                    let mut p = primary;
                    // balancer.lua `route_to_alternative_balancer`: the total is 100
                    // unless the annotation gives a larger one.
                    let total = canary.weight_total.max(100);
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

/// The canary of `primary`'s upstream, wherever it was declared: `mergeAlternativeBackends`
/// attaches a canary to the upstream (namespace, Service, port), and `balancer.lua` picks
/// it by upstream, so every location proxying to that upstream splits alike, on any host.
fn canary_for<'s>(
    servers: &'s [Server],
    upstream: &locations::Upstream,
) -> Option<&'s locations::Canary> {
    servers
        .iter()
        .flat_map(|s| &s.canaries)
        .find(|c| &c.primary == upstream)
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
/// The URI nginx matches locations against: `%XX` decoded, `//` merged (`merge_slashes` on),
/// `.` and `..` segments resolved (`ngx_http_parse_complex_uri`).
fn normalised_uri(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = path.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            decoded.push(b);
            i += 3;
            continue;
        }
        decoded.push(bytes[i]);
        i += 1;
    }
    let decoded = String::from_utf8_lossy(&decoded);
    let mut segments: Vec<&str> = Vec::new();
    for segment in decoded.split('/').skip(1) {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    let mut out = format!("/{}", segments.join("/"));
    let last = decoded.rsplit('/').next().unwrap_or("");
    if out != "/" && (decoded.ends_with('/') || last == "." || last == "..") {
        out.push('/');
    }
    out
}

fn request_uri(request: &Request) -> String {
    format!("{}{}", request.path, request.query_string())
}
