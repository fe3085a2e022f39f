//! Istio `networking.istio.io` models (`v1`, `v1beta1`, `v1alpha3` share one schema).
//!
//! Only what the translator reads is typed; every struct keeps the fields it does not know in
//! `extra` so the translator can report them instead of dropping them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

/// Fields present in the input that the typed model does not name.
pub type Extra = BTreeMap<String, Value>;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gateway {
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub selector: BTreeMap<String, String>,
    #[serde(default)]
    pub servers: Vec<Server>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Server {
    pub port: Option<Port>,
    #[serde(default)]
    pub hosts: Vec<String>,
    pub tls: Option<ServerTls>,
    pub name: Option<String>,
    pub bind: Option<String>,
    pub default_endpoint: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    pub number: Option<u32>,
    pub protocol: Option<String>,
    pub name: Option<String>,
    pub target_port: Option<u32>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerTls {
    pub https_redirect: Option<bool>,
    pub mode: Option<String>,
    pub credential_name: Option<String>,
    #[serde(default)]
    pub credential_names: Vec<String>,
    pub server_certificate: Option<String>,
    pub private_key: Option<String>,
    pub ca_certificates: Option<String>,
    pub ca_cert_credential_name: Option<String>,
    pub ca_crl: Option<String>,
    #[serde(default)]
    pub subject_alt_names: Vec<String>,
    #[serde(default)]
    pub verify_certificate_spki: Vec<String>,
    #[serde(default)]
    pub verify_certificate_hash: Vec<String>,
    pub min_protocol_version: Option<String>,
    pub max_protocol_version: Option<String>,
    #[serde(default)]
    pub cipher_suites: Vec<String>,
    pub insecure_skip_verify: Option<bool>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VirtualService {
    #[serde(default)]
    pub hosts: Vec<String>,
    #[serde(default)]
    pub gateways: Vec<String>,
    #[serde(default)]
    pub http: Vec<HttpRoute>,
    #[serde(default)]
    pub tls: Vec<TlsRoute>,
    #[serde(default)]
    pub tcp: Vec<TcpRoute>,
    #[serde(default)]
    pub export_to: Vec<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// Istio's `StringMatch`: exactly one of `exact`, `prefix`, `regex` (an empty object means
/// "present", for headers).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StringMatch {
    pub exact: Option<String>,
    pub prefix: Option<String>,
    pub regex: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRoute {
    pub name: Option<String>,
    #[serde(default, rename = "match")]
    pub matches: Vec<HttpMatchRequest>,
    #[serde(default)]
    pub route: Vec<HttpRouteDestination>,
    pub redirect: Option<HttpRedirect>,
    pub direct_response: Option<Value>,
    pub delegate: Option<Delegate>,
    pub rewrite: Option<HttpRewrite>,
    pub timeout: Option<String>,
    pub retries: Option<HttpRetry>,
    pub fault: Option<Value>,
    pub mirror: Option<Destination>,
    pub mirror_percentage: Option<Percent>,
    /// Deprecated integer form of `mirrorPercentage`.
    pub mirror_percent: Option<u32>,
    #[serde(default)]
    pub mirrors: Vec<HttpMirrorPolicy>,
    pub cors_policy: Option<CorsPolicy>,
    pub headers: Option<Headers>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpMatchRequest {
    pub name: Option<String>,
    pub uri: Option<StringMatch>,
    pub scheme: Option<StringMatch>,
    pub method: Option<StringMatch>,
    pub authority: Option<StringMatch>,
    #[serde(default)]
    pub headers: BTreeMap<String, StringMatch>,
    /// `0` is proto3's "unset": no port condition (Istio validates ports only when non-zero).
    #[serde(default, deserialize_with = "zero_is_unset")]
    pub port: Option<u32>,
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub source_labels: BTreeMap<String, String>,
    #[serde(default)]
    pub gateways: Vec<String>,
    #[serde(default)]
    pub query_params: BTreeMap<String, StringMatch>,
    pub ignore_uri_case: Option<bool>,
    #[serde(default)]
    pub without_headers: BTreeMap<String, StringMatch>,
    pub source_namespace: Option<String>,
    pub stat_prefix: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteDestination {
    pub destination: Option<Destination>,
    pub weight: Option<i64>,
    pub headers: Option<Headers>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteDestination {
    pub destination: Option<Destination>,
    pub weight: Option<i64>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Destination {
    pub host: Option<String>,
    pub subset: Option<String>,
    pub port: Option<PortSelector>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PortSelector {
    pub number: Option<u32>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Percent {
    pub value: Option<f64>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpMirrorPolicy {
    pub destination: Option<Destination>,
    pub percentage: Option<Percent>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRedirect {
    pub uri: Option<String>,
    pub prefix_rewrite: Option<String>,
    pub authority: Option<String>,
    pub port: Option<u32>,
    pub derive_port: Option<String>,
    pub scheme: Option<String>,
    pub redirect_code: Option<u32>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRewrite {
    pub uri: Option<String>,
    pub authority: Option<String>,
    pub uri_regex_rewrite: Option<RegexRewrite>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegexRewrite {
    #[serde(rename = "match")]
    pub pattern: Option<String>,
    pub rewrite: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRetry {
    pub attempts: Option<i64>,
    pub per_try_timeout: Option<String>,
    pub retry_on: Option<String>,
    pub retry_remote_localities: Option<bool>,
    #[serde(default)]
    pub retry_ignore_previous_hosts: Option<bool>,
    pub backoff: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CorsPolicy {
    #[serde(default)]
    pub allow_origins: Vec<StringMatch>,
    /// Deprecated list of exact origins.
    #[serde(default)]
    pub allow_origin: Vec<String>,
    #[serde(default)]
    pub allow_methods: Vec<String>,
    #[serde(default)]
    pub allow_headers: Vec<String>,
    #[serde(default)]
    pub expose_headers: Vec<String>,
    pub max_age: Option<String>,
    pub allow_credentials: Option<bool>,
    pub unmatched_preflights: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Headers {
    pub request: Option<HeaderOperations>,
    pub response: Option<HeaderOperations>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderOperations {
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub set: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub add: BTreeMap<String, String>,
    #[serde(default)]
    pub remove: Vec<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delegate {
    pub name: Option<String>,
    pub namespace: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsRoute {
    #[serde(default, rename = "match")]
    pub matches: Vec<TlsMatchAttributes>,
    #[serde(default)]
    pub route: Vec<RouteDestination>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsMatchAttributes {
    #[serde(default)]
    pub sni_hosts: Vec<String>,
    #[serde(default)]
    pub destination_subnets: Vec<String>,
    /// `0` is proto3's "unset": no port condition (Istio validates ports only when non-zero).
    #[serde(default, deserialize_with = "zero_is_unset")]
    pub port: Option<u32>,
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub source_labels: BTreeMap<String, String>,
    #[serde(default)]
    pub gateways: Vec<String>,
    pub source_namespace: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TcpRoute {
    #[serde(default, rename = "match")]
    pub matches: Vec<L4MatchAttributes>,
    #[serde(default)]
    pub route: Vec<RouteDestination>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct L4MatchAttributes {
    #[serde(default)]
    pub destination_subnets: Vec<String>,
    /// `0` is proto3's "unset": no port condition (Istio validates ports only when non-zero).
    #[serde(default, deserialize_with = "zero_is_unset")]
    pub port: Option<u32>,
    pub source_subnet: Option<String>,
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub source_labels: BTreeMap<String, String>,
    #[serde(default)]
    pub gateways: Vec<String>,
    pub source_namespace: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DestinationRule {
    pub host: Option<String>,
    pub traffic_policy: Option<TrafficPolicy>,
    #[serde(default)]
    pub subsets: Vec<Subset>,
    #[serde(default)]
    pub export_to: Vec<String>,
    pub workload_selector: Option<Value>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficPolicy {
    pub tls: Option<ClientTls>,
    #[serde(default)]
    pub port_level_settings: Vec<PortTrafficPolicy>,
    /// `loadBalancer`, `connectionPool`, `outlierDetection`, ... : kept by Istio, reported.
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PortTrafficPolicy {
    pub port: Option<PortSelector>,
    pub tls: Option<ClientTls>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTls {
    pub mode: Option<String>,
    pub client_certificate: Option<String>,
    pub private_key: Option<String>,
    pub ca_certificates: Option<String>,
    pub credential_name: Option<String>,
    #[serde(default)]
    pub subject_alt_names: Vec<String>,
    pub sni: Option<String>,
    pub insecure_skip_verify: Option<bool>,
    pub ca_crl: Option<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subset {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "crate::model::meta::lenient_string_map")]
    pub labels: BTreeMap<String, String>,
    pub traffic_policy: Option<TrafficPolicy>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// A proto3 `uint32` port: `0` means the field is not set.
fn zero_is_unset<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let port: Option<u32> = serde::Deserialize::deserialize(d)?;
    Ok(port.filter(|p| *p != 0))
}
