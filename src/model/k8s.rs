//! Core Kubernetes objects the index needs: Services (ports), Secret metadata, Namespaces.

use std::collections::BTreeMap;

pub use k8s_openapi::api::core::v1::ServicePort;

/// What the tool reads of a Service: its type, selector and ports, deserialised with the
/// API's types; the rest of the object is skipped, not kept (a repository holds tens of
/// thousands of Services, and the full API type made each about 2 KB in memory).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
pub struct Service {
    #[serde(default)]
    pub spec: Option<ServiceSpec>,
}

/// The fields of a Service's `spec` the tool reads (field names as in `k8s_openapi`).
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
pub struct ServiceSpec {
    #[serde(default, rename = "type")]
    pub type_: Option<String>,
    #[serde(default)]
    pub selector: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub ports: Option<Vec<ServicePort>>,
    /// Client ranges a cloud load balancer admits (`LoadBalancer` Services).
    #[serde(default, rename = "loadBalancerSourceRanges")]
    pub load_balancer_source_ranges: Option<Vec<String>>,
    /// `Local` keeps the client's address (and drops traffic to nodes without a pod).
    #[serde(default, rename = "externalTrafficPolicy")]
    pub external_traffic_policy: Option<String>,
}

/// A Secret without its data: the translator and validator need to know it exists, what type
/// it has, which keys it holds and, for TLS Secrets, what [`certificate::check`] found. Secret
/// values are never kept beyond the parse.
///
/// [`certificate::check`]: super::certificate::check
#[derive(Debug, Clone, Default)]
pub struct SecretMeta {
    pub type_: Option<String>,
    /// Keys of `data` and `stringData` with a non-empty value.
    pub keys: Vec<String>,
    /// The verdict on `tls.crt`/`tls.key`, when the Secret holds either.
    pub tls: Option<Box<super::certificate::TlsContents>>,
}

/// The port of `service` that a route would reach with `port`, by number.
pub fn find_port(service: &Service, number: i32) -> Option<&ServicePort> {
    service
        .spec
        .as_ref()?
        .ports
        .as_ref()?
        .iter()
        .find(|p| p.port == number)
}

/// The port of `service` named `name`.
pub fn find_named_port<'a>(service: &'a Service, name: &str) -> Option<&'a ServicePort> {
    service
        .spec
        .as_ref()?
        .ports
        .as_ref()?
        .iter()
        .find(|p| p.name.as_deref() == Some(name))
}

/// The only port of a single-port Service.
pub fn single_port(service: &Service) -> Option<&ServicePort> {
    let ports = service.spec.as_ref()?.ports.as_ref()?;
    match ports.as_slice() {
        [only] => Some(only),
        _ => None,
    }
}
