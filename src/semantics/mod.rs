//! Executable models of the data planes: for a set of objects and one request, what happens
//! to the request. One model per data plane, each answering
//! `behaviour(&World, &Request) -> Behaviour`:
//!
//! - [`gateway_api`]: Gateway API as specified (listener selection and isolation, attachment,
//!   hostname intersection, match precedence with its tie-breaks, filters, weights), with a
//!   [`gateway_api::Profile`] per implementation for what the specification leaves to it.
//! - [`ingress_nginx`]: ingress-nginx (class ownership, annotation validation, servers and
//!   locations across Ingresses, canaries, redirects, access checks, certificates).
//! - [`istio`]: Istio's gateway proxy (servers per selector, VirtualService binding and
//!   order, delegates, first match, redirects, rewrites, header operations, faults, mirrors).
//!
//! *Pure, and independent of the translator: nothing here imports `translate`, so a mistake
//! made while translating is not made again while checking (the module-graph test enforces
//! it). Every rule cites the upstream file it comes from; the models are checked against facts
//! from the upstreams' own test suites (`tests/semantics/`).*

pub mod cidr;
pub mod gateway_api;
pub mod hostname;
pub mod ingress_nginx;
pub mod istio;
pub(crate) mod matcher;
mod request;

pub use request::{Request, RequestError, Scheme, query_string};

use std::collections::BTreeMap;

use serde::Serialize;

/// The string entries of the object at `pointer` in `v` (labels, annotations); values that
/// are not strings are left out, as the API server refuses them.
pub(crate) fn string_map(v: &serde_json::Value, pointer: &str) -> BTreeMap<String, String> {
    v.pointer(pointer)
        .and_then(serde_json::Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// A backend and the part of the traffic it gets.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Share {
    pub namespace: String,
    pub name: String,
    pub port: Option<u32>,
    /// This backend's weight; the share is `weight / total` (the sum over the list).
    pub weight: u64,
    /// Header edits of this backend's own filters, after the rule's.
    #[serde(skip_serializing_if = "HeaderEdits::is_empty")]
    pub request_headers: HeaderEdits,
    #[serde(skip_serializing_if = "HeaderEdits::is_empty")]
    pub response_headers: HeaderEdits,
}

/// What the data plane does with the request, as the client and the backends see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// Forwarded: to these backends by weight, with this path and `Host`. A share with an
    /// empty `name` stands for a backend that cannot be resolved: that part of the traffic
    /// gets a 500 (Gateway API `BackendRef`: "requests … MUST receive a 500").
    Backends {
        backends: Vec<Share>,
        path: String,
        host: String,
    },
    Redirect {
        status: u16,
        location: String,
    },
    /// Answered by the data plane itself with this status.
    Direct {
        status: u16,
    },
    Denied {
        status: u16,
        reason: String,
    },
    /// A listener took the request but no rule matched (404).
    NoRoute,
    /// No listener serves the request's port, protocol and host (the connection or the TLS
    /// handshake fails, or the proxy answers 404 without any route).
    NoListener,
    /// The model cannot tell; the reason says which rule it lacks.
    NotModelled {
        reason: String,
    },
}

/// Header edits in the order they apply: `set` replaces, `add` appends a value, `remove`
/// drops every value of the name (names compared without ASCII case).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct HeaderEdits {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
}

impl HeaderEdits {
    pub fn is_empty(&self) -> bool {
        self.set.is_empty() && self.add.is_empty() && self.remove.is_empty()
    }

    /// `headers` after these edits (Gateway API `HTTPHeaderFilter`: set, then add, then
    /// remove; an added value joins an existing one as another value of the same name).
    pub fn apply(&self, headers: &[(String, String)]) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = headers.to_vec();
        for (name, value) in &self.set {
            out.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            out.push((name.clone(), value.clone()));
        }
        for (name, value) in &self.add {
            out.push((name.clone(), value.clone()));
        }
        for name in &self.remove {
            out.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        }
        out
    }
}

/// A request copied elsewhere (its response is discarded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mirror {
    pub namespace: String,
    pub name: String,
    pub port: Option<u32>,
    /// Percentage of requests mirrored, 100 when unset.
    pub percent: u32,
}

/// Timeouts as durations in Gateway API's `Duration` form (`10s`, `500ms`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Timeouts {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_request: Option<String>,
}

/// A check a request must pass before it is forwarded, which the model records rather than
/// decides: the answer depends on credentials, on another service, or on the client address
/// when it is not known.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AccessCheck {
    /// A subrequest to an authentication service decides (2xx lets the request through).
    ExternalAuth { url: String },
    /// HTTP basic or digest authentication against the users of a Secret.
    BasicAuth { scheme: String, secret: String },
    /// The client must present a certificate signed by the CA of a Secret.
    ClientCertificate { secret: String },
    /// Clients in (`allow`) or outside (`!allow`) these ranges only.
    SourceRange { allow: bool, ranges: String },
}

impl AccessCheck {
    /// Clients in (`allow`) or outside these comma-separated ranges, in the canonical form
    /// of [`cidr::text`].
    pub fn source_range(allow: bool, list: &str) -> AccessCheck {
        AccessCheck::SourceRange {
            allow,
            ranges: cidr::text(&cidr::parse_list([list])),
        }
    }

    /// A subrequest to `url`, named as [`auth_endpoint`] gives it.
    pub fn external_auth(url: &str) -> AccessCheck {
        AccessCheck::ExternalAuth {
            url: auth_endpoint(url),
        }
    }
}

/// An authentication endpoint as the data plane calls it, so the models' answers compare:
/// `scheme://host:port/path?query` with the port explicit (80 or 443 when the URL has none),
/// a cluster Service's host in its long form (`name.namespace.svc` and
/// `name.namespace.svc.cluster.local` both become the latter) and an empty path as `/`. A URL
/// that does not have this shape (nginx variables, no scheme) is kept as written.
pub fn auth_endpoint(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return url.to_string(),
    };
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, target) = rest.split_at(split);
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
            (h, p.parse::<u32>().unwrap_or(0))
        }
        Some(_) => return url.to_string(),
        None => (authority, default_port),
    };
    if host.is_empty() || host.contains(['$', '@']) || target.contains('$') {
        return url.to_string();
    }
    let host = host.to_ascii_lowercase();
    let host = match host.strip_suffix(".svc") {
        Some(service) if service.split('.').count() == 2 => format!("{host}.cluster.local"),
        _ => host,
    };
    let target = if target.starts_with('/') {
        target.to_string()
    } else {
        format!("/{target}")
    };
    format!("{}://{host}:{port}{target}", scheme.to_ascii_lowercase())
}

/// The TLS side of a request sent over HTTPS.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tls {
    /// The certificate Secret (`namespace/name`) presented; `None`: the data plane's own
    /// default certificate, which clients do not trust.
    pub certificate: Option<String>,
}

/// Where the request was matched, for `trace` and for findings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Matched {
    /// `namespace/name` of the Gateway (or gateway proxy) and the listener (or server).
    pub gateway: String,
    pub listener: String,
    /// `Kind namespace/name` of the object whose rule matched, `None` when none did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The rule's position in the object, and the match's within the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#match: Option<usize>,
    /// Other objects that took part in the answer (`Kind namespace/name`: the canary
    /// Ingress of the matched location's upstream).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// The whole observable result of one request. Parts a model does not read are left at
/// their defaults, and the model lists them in its documentation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Behaviour {
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<Matched>,
    /// Edits to the request before it is forwarded (after rewrites).
    #[serde(skip_serializing_if = "HeaderEdits::is_empty")]
    pub request_headers: HeaderEdits,
    /// Edits to the response the client gets.
    #[serde(skip_serializing_if = "HeaderEdits::is_empty")]
    pub response_headers: HeaderEdits,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mirrors: Vec<Mirror>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeouts: Option<Timeouts>,
    /// Anything else the matched rule carries that changes the request's fate and the model
    /// does not evaluate (CORS, retries, session persistence, extension filters), by name,
    /// so a difference there is still seen.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unevaluated: Vec<(String, serde_json::Value)>,
    /// Checks the request must pass that the model records without deciding.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub access: Vec<AccessCheck>,
    /// For HTTPS: the certificate presented.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<Tls>,
}

impl Behaviour {
    pub fn of(outcome: Outcome) -> Self {
        Behaviour {
            outcome,
            matched: None,
            request_headers: HeaderEdits::default(),
            response_headers: HeaderEdits::default(),
            mirrors: Vec::new(),
            timeouts: None,
            unevaluated: Vec::new(),
            access: Vec::new(),
            tls: None,
        }
    }
}

#[cfg(test)]
mod auth_endpoint_tests {
    use super::auth_endpoint;

    #[test]
    fn endpoints_are_canonical() {
        assert_eq!(
            auth_endpoint("http://oauth2-proxy.auth.svc:4180/oauth2/auth"),
            "http://oauth2-proxy.auth.svc.cluster.local:4180/oauth2/auth"
        );
        assert_eq!(
            auth_endpoint("HTTP://Auth.Example.com"),
            "http://auth.example.com:80/"
        );
        assert_eq!(
            auth_endpoint("https://auth.example.com/verify?rd=1"),
            "https://auth.example.com:443/verify?rd=1"
        );
        // nginx variables and other schemes are kept as written.
        assert_eq!(auth_endpoint("http://$host/auth"), "http://$host/auth");
        assert_eq!(auth_endpoint("ftp://x/y"), "ftp://x/y");
    }
}
