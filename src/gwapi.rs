//! Gateway API v1.6.1 objects the tool writes.
//!
//! These are our own serde types rather than the `gateway-api` crate's: that crate tracks
//! v1.5.1 (no TCPRoute v1) and has separate Rust types for the experimental channel, while we
//! emit one shape and let the validator enforce the channel. Field order is the order of the
//! struct fields, so output is deterministic; `None` and empty lists are never written.

use std::collections::BTreeMap;

use serde::Serialize;

pub const GROUP: &str = "gateway.networking.k8s.io";
pub const V1: &str = "gateway.networking.k8s.io/v1";
pub const V1BETA1: &str = "gateway.networking.k8s.io/v1beta1";
pub const V1ALPHA2: &str = "gateway.networking.k8s.io/v1alpha2";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Metadata {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

impl Metadata {
    pub fn new(name: impl Into<String>, namespace: impl Into<String>) -> Self {
        Metadata {
            name: name.into(),
            namespace: Some(namespace.into()),
            ..Default::default()
        }
    }
}

/// A Kubernetes object: `apiVersion`, `kind`, `metadata`, `spec`, in that order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Object<S> {
    pub api_version: String,
    pub kind: String,
    pub metadata: Metadata,
    pub spec: S,
}

impl<S> Object<S> {
    pub fn new(api_version: &str, kind: &str, metadata: Metadata, spec: S) -> Self {
        Object {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
            metadata,
            spec,
        }
    }
}

/// Kubernetes' `IsDNS1123Subdomain`, the rule for object names and for a `SectionName`: at most 253 characters in all, dot-separated parts of
/// lowercase alphanumerics and `-` that start and end alphanumeric. Unlike a DNS label, a part
/// may be longer than 63 characters (the API server does not limit parts).
pub fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !part.starts_with('-')
                && !part.ends_with('-')
        })
}

/// Kubernetes' `IsDNS1123Label`, the rule for namespace names: at most 63 lowercase
/// alphanumerics and `-`, starting and ending alphanumeric.
pub fn is_dns_label(s: &str) -> bool {
    s.len() <= 63 && !s.contains('.') && is_dns_subdomain(s)
}

/// Every kind of object the translators generate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Generated {
    Gateway(Object<GatewaySpec>),
    HttpRoute(Object<HttpRouteSpec>),
    GrpcRoute(Object<GrpcRouteSpec>),
    TlsRoute(Object<TlsRouteSpec>),
    TcpRoute(Object<TcpRouteSpec>),
    ReferenceGrant(Object<ReferenceGrantSpec>),
    BackendTlsPolicy(Object<BackendTlsPolicySpec>),
    /// A policy resource of the target implementation, attached with `targetRefs`: an Istio
    /// policy (AuthorizationPolicy, RequestAuthentication, Telemetry) retargeted at a
    /// generated Gateway (its spec is the original's, minus `selector`), or a policy written
    /// for what the Standard API cannot say (`translate::target`: Envoy Gateway
    /// SecurityPolicy, Istio AuthorizationPolicy). Each writer types its own spec and hands
    /// it over as JSON.
    Policy(Object<serde_json::Value>),
}

impl Generated {
    pub fn metadata(&self) -> &Metadata {
        match self {
            Generated::Gateway(o) => &o.metadata,
            Generated::HttpRoute(o) => &o.metadata,
            Generated::GrpcRoute(o) => &o.metadata,
            Generated::TlsRoute(o) => &o.metadata,
            Generated::TcpRoute(o) => &o.metadata,
            Generated::ReferenceGrant(o) => &o.metadata,
            Generated::BackendTlsPolicy(o) => &o.metadata,
            Generated::Policy(o) => &o.metadata,
        }
    }

    pub fn kind(&self) -> &str {
        match self {
            Generated::Gateway(o) => &o.kind,
            Generated::HttpRoute(o) => &o.kind,
            Generated::GrpcRoute(o) => &o.kind,
            Generated::TlsRoute(o) => &o.kind,
            Generated::TcpRoute(o) => &o.kind,
            Generated::ReferenceGrant(o) => &o.kind,
            Generated::BackendTlsPolicy(o) => &o.kind,
            Generated::Policy(o) => &o.kind,
        }
    }

    pub fn api_version(&self) -> &str {
        match self {
            Generated::Gateway(o) => &o.api_version,
            Generated::HttpRoute(o) => &o.api_version,
            Generated::GrpcRoute(o) => &o.api_version,
            Generated::TlsRoute(o) => &o.api_version,
            Generated::TcpRoute(o) => &o.api_version,
            Generated::ReferenceGrant(o) => &o.api_version,
            Generated::BackendTlsPolicy(o) => &o.api_version,
            Generated::Policy(o) => &o.api_version,
        }
    }

    pub fn name(&self) -> &str {
        &self.metadata().name
    }

    pub fn namespace(&self) -> &str {
        self.metadata().namespace.as_deref().unwrap_or("")
    }

    /// The object as JSON, for validation and for the JSON report.
    pub fn to_json(&self) -> serde_json::Value {
        // Serialising these plain structs to a Value cannot fail: no maps with non-string keys.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The sort key that gives generated files a stable object order.
    pub fn sort_key(&self) -> (u8, String, String) {
        let rank = match self {
            Generated::Gateway(_) => 0,
            Generated::HttpRoute(_) => 1,
            Generated::GrpcRoute(_) => 2,
            Generated::TlsRoute(_) => 3,
            Generated::TcpRoute(_) => 4,
            Generated::BackendTlsPolicy(_) => 5,
            Generated::ReferenceGrant(_) => 6,
            Generated::Policy(_) => 7,
        };
        (rank, self.namespace().to_string(), self.name().to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// Gateway

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewaySpec {
    pub gateway_class_name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<GatewayAddress>,
    pub listeners: Vec<Listener>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<GatewayTls>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayAddress {
    #[serde(rename = "type")]
    pub type_: String,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listener {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    pub port: u32,
    pub protocol: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<ListenerTls>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_routes: Option<AllowedRoutes>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenerTls {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub certificate_refs: Vec<SecretObjectReference>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretObjectReference {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AllowedRoutes {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespaces: Option<RouteNamespaces>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<RouteGroupKind>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteNamespaces {
    /// `All`, `Same` or `Selector`.
    pub from: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub match_labels: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteGroupKind {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub kind: String,
}

/// `Gateway.spec.tls`: frontend client-certificate validation (standard since v1.5).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayTls {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontend: Option<FrontendTls>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrontendTls {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<TlsConfig>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_port: Vec<TlsPortConfig>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsPortConfig {
    pub port: u32,
    pub tls: TlsConfig,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<FrontendValidation>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrontendValidation {
    pub ca_certificate_refs: Vec<ObjectReference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    pub group: String,
    pub kind: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Shared route parts

#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParentReference {
    /// `None` means `gateway.networking.k8s.io`; `Some("")` is the core group (Service).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<u32>,
}

/// A backendRef of any route kind (the HTTP-only `filters` stay empty for the others).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackendRef {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<u32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<HttpRouteFilter>,
}

// ---------------------------------------------------------------------------------------------
// HTTPRoute

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteSpec {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parent_refs: Vec<ParentReference>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<String>,
    pub rules: Vec<HttpRouteRule>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteRule {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<HttpRouteMatch>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<HttpRouteFilter>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub backend_refs: Vec<BackendRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeouts: Option<HttpRouteTimeouts>,
    /// Experimental channel only (GEP-1731).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<HttpRouteRetry>,
    /// Experimental channel only (GEP-1619).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_persistence: Option<SessionPersistence>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteMatch {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<HttpPathMatch>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<HttpHeaderMatch>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub query_params: Vec<HttpQueryParamMatch>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpPathMatch {
    /// `Exact`, `PathPrefix` or `RegularExpression`.
    #[serde(rename = "type")]
    pub type_: String,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpHeaderMatch {
    /// `Exact` or `RegularExpression`.
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub value: String,
}

pub type HttpQueryParamMatch = HttpHeaderMatch;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteFilter {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_header_modifier: Option<HttpHeaderFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_header_modifier: Option<HttpHeaderFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_mirror: Option<HttpRequestMirrorFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_redirect: Option<HttpRequestRedirectFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url_rewrite: Option<HttpUrlRewriteFilter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cors: Option<HttpCorsFilter>,
}

impl HttpRouteFilter {
    pub fn request_header_modifier(f: HttpHeaderFilter) -> Self {
        HttpRouteFilter {
            type_: "RequestHeaderModifier".into(),
            request_header_modifier: Some(f),
            ..Default::default()
        }
    }
    pub fn response_header_modifier(f: HttpHeaderFilter) -> Self {
        HttpRouteFilter {
            type_: "ResponseHeaderModifier".into(),
            response_header_modifier: Some(f),
            ..Default::default()
        }
    }
    pub fn request_mirror(f: HttpRequestMirrorFilter) -> Self {
        HttpRouteFilter {
            type_: "RequestMirror".into(),
            request_mirror: Some(f),
            ..Default::default()
        }
    }
    pub fn request_redirect(f: HttpRequestRedirectFilter) -> Self {
        HttpRouteFilter {
            type_: "RequestRedirect".into(),
            request_redirect: Some(f),
            ..Default::default()
        }
    }
    pub fn url_rewrite(f: HttpUrlRewriteFilter) -> Self {
        HttpRouteFilter {
            type_: "URLRewrite".into(),
            url_rewrite: Some(f),
            ..Default::default()
        }
    }
    pub fn cors(f: HttpCorsFilter) -> Self {
        HttpRouteFilter {
            type_: "CORS".into(),
            cors: Some(f),
            ..Default::default()
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpHeaderFilter {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<HttpHeader>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<HttpHeader>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
}

impl HttpHeaderFilter {
    pub fn is_empty(&self) -> bool {
        self.set.is_empty() && self.add.is_empty() && self.remove.is_empty()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct HttpHeader {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRequestMirrorFilter {
    pub backend_ref: BackendRef,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction: Option<Fraction>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Fraction {
    pub numerator: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denominator: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRequestRedirectFilter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<HttpPathModifier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_code: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpUrlRewriteFilter {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<HttpPathModifier>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpPathModifier {
    /// `ReplaceFullPath` or `ReplacePrefixMatch`.
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_full_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_prefix_match: Option<String>,
}

impl HttpPathModifier {
    pub fn full_path(path: impl Into<String>) -> Self {
        HttpPathModifier {
            type_: "ReplaceFullPath".into(),
            replace_full_path: Some(path.into()),
            replace_prefix_match: None,
        }
    }
    pub fn prefix_match(path: impl Into<String>) -> Self {
        HttpPathModifier {
            type_: "ReplacePrefixMatch".into(),
            replace_full_path: None,
            replace_prefix_match: Some(path.into()),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpCorsFilter {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allow_origins: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_credentials: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allow_methods: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allow_headers: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expose_headers: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_age: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteTimeouts {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_request: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteRetry {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub codes: Vec<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backoff: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionPersistence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absolute_timeout: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cookie_config: Option<CookieConfig>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CookieConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifetime_type: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// GRPCRoute

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrpcRouteSpec {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parent_refs: Vec<ParentReference>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<String>,
    pub rules: Vec<GrpcRouteRule>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrpcRouteRule {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<GrpcRouteMatch>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<HttpRouteFilter>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub backend_refs: Vec<BackendRef>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrpcRouteMatch {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<GrpcMethodMatch>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<HttpHeaderMatch>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrpcMethodMatch {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// TLSRoute, TCPRoute

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsRouteSpec {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parent_refs: Vec<ParentReference>,
    pub hostnames: Vec<String>,
    pub rules: Vec<L4RouteRule>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TcpRouteSpec {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parent_refs: Vec<ParentReference>,
    pub rules: Vec<L4RouteRule>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct L4RouteRule {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub backend_refs: Vec<BackendRef>,
}

// ---------------------------------------------------------------------------------------------
// ReferenceGrant, BackendTLSPolicy

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReferenceGrantSpec {
    pub from: Vec<ReferenceGrantFrom>,
    pub to: Vec<ReferenceGrantTo>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ReferenceGrantFrom {
    pub group: String,
    pub kind: String,
    pub namespace: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ReferenceGrantTo {
    pub group: String,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackendTlsPolicySpec {
    pub target_refs: Vec<PolicyTargetReference>,
    pub validation: BackendTlsValidation,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyTargetReference {
    pub group: String,
    pub kind: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section_name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackendTlsValidation {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ca_certificate_refs: Vec<LocalObjectReference>,
    #[serde(
        rename = "wellKnownCACertificates",
        skip_serializing_if = "Option::is_none"
    )]
    pub well_known_ca_certificates: Option<String>,
    pub hostname: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subject_alt_names: Vec<SubjectAltName>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LocalObjectReference {
    pub group: String,
    pub kind: String,
    pub name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubjectAltName {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hostname: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}
