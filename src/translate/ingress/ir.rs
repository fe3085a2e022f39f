//! The intermediate form between an Ingress and the routes written for it: per host, the
//! rules with their backends and the actions annotations add. Annotation handlers edit it;
//! `emit` turns it into Gateway API objects once the parents are known.

use crate::gwapi::{
    BackendRef, HttpCorsFilter, HttpHeader, HttpHeaderMatch, HttpPathMatch, HttpPathModifier,
    HttpRequestRedirectFilter, HttpRouteTimeouts,
};
use crate::translate::SourceResult;

use super::class::ClassInfo;

/// One routing rule: one path (plus header conditions) and what to do with matching requests.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Rule {
    pub path: HttpPathMatch,
    /// The Ingress path as written and its `pathType`, for annotations that reinterpret it.
    pub source_path: String,
    pub source_type: String,
    /// `spec.rules[i].http.paths[j]`, for notes.
    pub field: String,
    pub headers: Vec<HttpHeaderMatch>,
    pub backends: Vec<BackendRef>,
    pub rewrite_path: Option<HttpPathModifier>,
    pub rewrite_host: Option<String>,
    pub redirect: Option<HttpRequestRedirectFilter>,
    pub set_headers: Vec<HttpHeader>,
    /// Headers set on the response the client gets.
    pub response_set_headers: Vec<HttpHeader>,
    pub cors: Option<HttpCorsFilter>,
    pub timeouts: Option<HttpRouteTimeouts>,
    /// The match is not an nginx location (`app-root`'s `Exact /`, a strip-prefix rewrite's
    /// `PathPrefix`): the host-wide regex pass leaves it as it is.
    pub fixed_path: bool,
}

/// The rules of one Ingress for one host (`None`: rules without a host).
#[derive(Debug, Clone)]
pub(crate) struct HostRoutes {
    pub host: Option<String>,
    pub rules: Vec<Rule>,
    /// The first `spec.rules[i]` with this host, for notes.
    pub field: String,
    /// What the other Ingresses of the host decide (ingress-nginx builds one server per
    /// host from all of them; `nginx::servers`). Plain HTTP to this Ingress's paths is
    /// redirected to HTTPS.
    pub ssl_redirect: bool,
    /// Another Ingress of the host does not redirect: the redirect route carries this
    /// Ingress's own matches instead of the whole host.
    pub redirect_own_paths: bool,
    /// This Ingress created the host's server, so its `defaultBackend` (and `ssl-redirect`)
    /// decide for paths no Ingress names.
    pub owns_root: bool,
    /// Another Ingress of the host passes TLS through (`ssl-passthrough`): nginx terminated
    /// no TLS for the host, so no HTTPS listener serves it.
    pub passthrough_elsewhere: bool,
    /// ingress-nginx matched every path of the host as a case-insensitive regex.
    pub regex: bool,
}

impl HostRoutes {
    pub(crate) fn new(host: Option<String>, field: String) -> Self {
        HostRoutes {
            host,
            rules: Vec::new(),
            field,
            ssl_redirect: false,
            redirect_own_paths: false,
            owns_root: true,
            passthrough_elsewhere: false,
            regex: false,
        }
    }
}

/// Which route kind the Ingress's HTTP rules become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum RouteKind {
    #[default]
    Http,
    /// `backend-protocol: GRPC|GRPCS`.
    Grpc,
}

/// Everything decided about one Ingress before its routes are attached to Gateways.
#[derive(Debug)]
pub(crate) struct IngressPlan {
    pub name: String,
    pub namespace: String,
    /// `metadata.creationTimestamp`, when the manifest carries one (exported objects):
    /// ingress-nginx reads Ingresses oldest first.
    pub created: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::Time>,
    /// The source's naming scope (see `SourceObject::naming_scope`).
    pub naming_scope: String,
    pub class: ClassInfo,
    pub hosts: Vec<HostRoutes>,
    pub kind: RouteKind,
    /// `ssl-passthrough`: hosts become TLSRoutes (to the backend of their `/` path) instead of
    /// HTTP routes.
    pub passthrough: bool,
    pub default_backend: Option<BackendRef>,
    /// Whether `spec.rules` is not empty: ingress-nginx serves a `defaultBackend` for unknown
    /// hosts only from an Ingress without rules.
    pub has_rules: bool,
    /// ingress-nginx: another Ingress without rules configured the catch-all server first, so
    /// this one's `defaultBackend` had no effect.
    pub default_backend_shadowed: bool,
    /// `spec.tls`: (host, secret name) pairs; a `None` host means "every host of the Ingress".
    pub tls: Vec<(Option<String>, Option<String>)>,
    /// Redirect plain HTTP to HTTPS (`force-ssl-redirect`, or `ssl-redirect` with TLS).
    pub force_ssl_redirect: bool,
    pub ssl_redirect_disabled: bool,
    /// Whether a missing `ssl-redirect` annotation means "redirect when TLS" (ingress-nginx).
    pub ssl_redirect_default: bool,
    /// `use-regex` or `rewrite-target`: ingress-nginx then matches every path of the Ingress's
    /// hosts — in every Ingress — as a regex.
    pub regex_paths: bool,
    /// The `Strict-Transport-Security` value ingress-nginx adds to every HTTPS answer (the
    /// controller's `hsts*` keys; `None` with `hsts: "false"` or outside ingress-nginx).
    pub hsts: Option<String>,
    /// The status of the HTTPS redirect (`http-redirect-code`, default 308).
    pub http_redirect_code: u16,
    /// `no-tls-redirect-locations`: locations whose path starts with one of these are never
    /// redirected to HTTPS (`config.go` `NewDefault`: `/.well-known/acme-challenge`).
    pub no_tls_redirect: Vec<String>,
    /// The controller's `--default-ssl-certificate` (namespace, name), when known: the
    /// certificate ingress-nginx answers HTTPS with for hosts without one of their own.
    pub default_certificate: Option<(String, String)>,
    /// Seconds nginx let a proxied request sit without a byte either way, and connecting to
    /// a backend take (`nginx::timeouts::read_settings`; 60 and 5 by default).
    pub idle_timeout: u64,
    pub connect_timeout: u64,
    /// What this Ingress's annotations say about its upstreams' balancing
    /// (`nginx::balancing::read`), and the balancing its routes get once every Ingress's is
    /// known (`nginx::balancing::resolve`); both only for a target that writes them.
    pub upstream: super::nginx::balancing::Upstream,
    pub balancing: Option<crate::translate::target::backend::BalancingPlan>,
    /// How nginx retried the Ingress's requests (`nginx::retries`), for a target that writes it.
    pub retry: Option<crate::translate::target::backend::Retry>,
    /// nginx's per-client request rate limit (`nginx::rate_limits`), for a target that writes it.
    pub rate_limit: Option<crate::translate::target::backend::RateLimit>,
    /// The access controls of the Ingress's locations (`nginx::access`), written for the
    /// target by `translate::target` once the routes exist.
    pub access: Vec<crate::translate::target::Control>,
    /// Set for canary Ingresses (merged into their primary by `nginx::canary`).
    pub canary: Option<super::nginx::canary::Canary>,
    pub result: SourceResult,
}

impl IngressPlan {
    /// The key generated names are unique under: the namespace, plus the naming scope when
    /// the source names no namespace.
    pub(crate) fn name_scope(&self) -> String {
        if self.naming_scope.is_empty() {
            self.namespace.clone()
        } else {
            format!("{}\u{1f}{}", self.namespace, self.naming_scope)
        }
    }

    /// Whether the Ingress's own `spec.tls` covers `host`.
    pub(crate) fn tls_covers(&self, host: Option<&str>) -> bool {
        super::tls::certificates(&self.tls, host).is_some()
    }

    /// Whether plain-HTTP requests for `host` are redirected to HTTPS.
    pub(crate) fn wants_ssl_redirect(&self, host: Option<&str>) -> bool {
        self.force_ssl_redirect
            || (self.ssl_redirect_default && !self.ssl_redirect_disabled && self.tls_covers(host))
    }
}
