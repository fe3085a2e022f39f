//! The predicted status of a Gateway and its listeners, in Envoy Gateway's order of checks
//! (`internal/gatewayapi/listener.go` ProcessListeners and `validate.go`):
//! 1. each listener's own specification (`validateListenerSpec`): a `Selector` namespace
//!    rule needs a valid selector; the protocol must be supported and `allowedRoutes.kinds`
//!    must name kinds it carries (`InvalidRouteKinds`); TLS settings must suit the protocol
//!    and the certificate references must resolve to usable TLS Secrets; TCP and UDP
//!    listeners take no hostname;
//! 2. conflicts among the listeners whose specification is valid ([`listeners::conflicts`]);
//! 3. the final conditions (`validateListenerConditions`): a listener with no problem is
//!    `Accepted`, `ResolvedRefs` and `Programmed`; one whose only problem is an invalid
//!    certificate is `Accepted` but not programmed; any other problem leaves it without an
//!    `Accepted` condition (Envoy Gateway's reading of gateway-api#4425), `Programmed=False`;
//! 4. overlapping TLS configuration among valid HTTPS listeners (`checkOverlappingTLSConfig`).

use serde_json::Value;

use crate::config::Target;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::GROUP;
use crate::model::certificate::TlsContents;
use crate::model::{attach, selector};

use super::super::listeners;
use super::super::status::{GatewayStatus, ListenerStatus, PredictedCondition};
use super::{Status, World, items, namespace_of, str_of};

/// Conditions keyed by type: a later condition of a type replaces the earlier
/// (`status/conditions.go` MergeConditions).
#[derive(Default)]
struct Conditions(Vec<PredictedCondition>);

impl Conditions {
    fn set(
        &mut self,
        type_: &'static str,
        status: Status,
        reason: &str,
        message: impl Into<String>,
    ) {
        let c = PredictedCondition::new(type_, status, reason, message);
        match self.0.iter_mut().find(|o| o.type_ == type_) {
            Some(o) => *o = c,
            None => self.0.push(c),
        }
    }

    fn get(&self, type_: &str) -> Option<&PredictedCondition> {
        self.0.iter().find(|c| c.type_ == type_)
    }

    fn invalid(&mut self, message: impl Into<String>) -> &mut Self {
        self.set("Programmed", Status::False, "Invalid", message);
        self
    }
}

/// What one certificate reference resolved to.
enum CertificateRef {
    /// Its DNS names and key algorithm (when the repository holds its data).
    Valid(Vec<String>, Option<Vec<u8>>),
    /// The Secret, or the ReferenceGrants of its namespace, are not in the repository:
    /// `(reason it would fail with, message)`.
    Unknown(&'static str, String),
    /// `(reason, message)`.
    Failed(&'static str, String),
}

impl World<'_> {
    /// The conditions of `gateway` and of each of its listeners.
    pub(crate) fn gateway_status(&self, gateway: &Value) -> GatewayStatus {
        let namespace = namespace_of(gateway, &self.config.default_namespace);
        let name = gateway
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let class = gateway
            .pointer("/spec/gatewayClassName")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let specs: Vec<&Value> = items(gateway, "/spec/listeners").collect();
        let mut checked: Vec<(Conditions, Vec<String>, Vec<String>)> = specs
            .iter()
            .map(|l| self.listener_spec(l, gateway, &namespace, class))
            .collect();
        // Only the specification's problems keep a listener out of conflict checks; a
        // partially invalid certificate list does not.
        let spec_valid: Vec<bool> = checked
            .iter()
            .map(|(c, _, _)| {
                c.0.iter().all(|c| {
                    c.reason == "PartiallyInvalidCertificateRef" || c.status == Status::Unknown
                })
            })
            .collect();
        for c in listeners::conflicts(gateway, &spec_valid) {
            for l in &c.conflicted {
                if let Some((conditions, _, _)) = checked.get_mut(l.0) {
                    conditions.set("Conflicted", Status::True, c.reason(), c.message());
                }
            }
        }
        for (conditions, _, _) in &mut checked {
            finish(conditions);
        }
        if self.implementation(class) == Target::EnvoyGateway {
            overlapping_tls(&specs, &mut checked);
        }
        let listeners = specs
            .iter()
            .zip(checked)
            .map(|(l, (conditions, kinds, _))| ListenerStatus {
                name: str_of(l, "name").unwrap_or_default().to_string(),
                conditions: conditions.0,
                supported_kinds: kinds,
            })
            .collect();
        GatewayStatus {
            conditions: self.gateway_conditions(gateway, &namespace),
            namespace,
            name,
            listeners,
        }
    }

    /// Step 1 for one listener: its conditions so far, the kinds it supports and the DNS
    /// names of its valid certificates.
    fn listener_spec(
        &self,
        l: &Value,
        gateway: &Value,
        gateway_ns: &str,
        class: &str,
    ) -> (Conditions, Vec<String>, Vec<String>) {
        let target = self.implementation(class);
        let mut c = Conditions::default();
        let protocol = str_of(l, "protocol").unwrap_or_default();
        let allowed = l.get("allowedRoutes").unwrap_or(&Value::Null);
        if allowed.pointer("/namespaces/from").and_then(Value::as_str) == Some("Selector") {
            match allowed.pointer("/namespaces/selector") {
                None => {
                    c.invalid("allowedRoutes.namespaces.from is Selector but no selector is given: no namespace is admitted");
                }
                Some(s) => {
                    if let Some(why) = selector::invalid(s) {
                        c.invalid(format!("the namespace selector does not parse ({why}): no namespace is admitted"));
                    }
                }
            }
        }
        let mode = l.pointer("/tls/mode").and_then(Value::as_str);
        let supported: Vec<String> = if self.protocol_supported(protocol, class) {
            let carried = attach::protocol_kinds(protocol, mode);
            match allowed.get("kinds").and_then(Value::as_array) {
                Some(kinds) if !kinds.is_empty() => {
                    let mut out = Vec::new();
                    for k in kinds {
                        let group = str_of(k, "group").unwrap_or(GROUP);
                        let kind = str_of(k, "kind").unwrap_or_default();
                        if group != GROUP {
                            c.set(
                                "ResolvedRefs",
                                Status::False,
                                "InvalidRouteKinds",
                                format!(
                                    "group {group:?} is not supported; route kinds must be in {GROUP}"
                                ),
                            );
                        } else if !carried.contains(&kind) {
                            c.set("ResolvedRefs", Status::False, "InvalidRouteKinds", format!("{kind} is not supported on a {protocol} listener, which carries {}", carried.join(", ")));
                        } else if !out.iter().any(|o| o == kind) {
                            out.push(kind.to_string());
                        }
                    }
                    out
                }
                _ => carried.iter().map(|k| (*k).to_string()).collect(),
            }
        } else {
            c.set(
                "Accepted",
                Status::False,
                "UnsupportedProtocol",
                format!(
                    "protocol {protocol} is not supported by the target ({:?})",
                    target
                ),
            );
            Vec::new()
        };
        let tls = l.get("tls").filter(|t| !t.is_null());
        let refs: Vec<&Value> = items(l, "/tls/certificateRefs").collect();
        let mut names = Vec::new();
        match (protocol, tls) {
            ("HTTP" | "TCP" | "UDP", Some(_)) => {
                c.invalid(format!(
                    "a listener of protocol {protocol} must not have tls"
                ));
            }
            ("HTTPS" | "TLS", None) => {
                c.invalid(format!("a listener of protocol {protocol} must have tls"));
            }
            ("HTTPS", Some(_)) if mode.is_some_and(|m| m != "Terminate") => {
                c.set(
                    "Programmed",
                    Status::False,
                    "UnsupportedTLSMode",
                    "an HTTPS listener terminates TLS: mode Passthrough is not supported",
                );
            }
            ("HTTPS", Some(_)) | ("TLS", Some(_))
                if protocol == "HTTPS" || mode == Some("Terminate") =>
            {
                // Istio terminates with `tls.options` alone (ISTIO_MUTUAL, as the CRD's
                // "certificateRefs or options" rule allows); Envoy Gateway needs a
                // certificate (validateTerminateModeAndGetTLSSecrets).
                let has_options = l
                    .pointer("/tls/options")
                    .and_then(Value::as_object)
                    .is_some_and(|o| !o.is_empty());
                if refs.is_empty() && (target == Target::EnvoyGateway || !has_options) {
                    c.invalid("a listener that terminates TLS needs at least one certificateRef");
                } else if !refs.is_empty() {
                    names = self.certificates(&refs, gateway_ns, target, &mut c);
                }
            }
            ("TLS", Some(_)) if mode == Some("Passthrough") && !refs.is_empty() => {
                c.invalid("a TLS Passthrough listener must not have certificateRefs");
            }
            _ => {}
        }
        if protocol == "HTTPS" {
            let port = l.get("port").and_then(Value::as_i64);
            if let Some((reason, message)) = self.frontend_problem(gateway, gateway_ns, port) {
                let reason = match reason {
                    "InvalidKind" => "InvalidCACertificateKind",
                    other => other,
                };
                let message = format!(
                    "invalid caCertificateRef for client certificate validation: {message}"
                );
                c.set("ResolvedRefs", Status::False, reason, message.clone());
                c.set("Programmed", Status::False, reason, message.clone());
                c.set("Accepted", Status::False, "NoValidCACertificate", message);
            }
        }
        if matches!(protocol, "TCP" | "UDP") && str_of(l, "hostname").is_some() {
            c.invalid(format!(
                "a listener of protocol {protocol} must not have a hostname"
            ));
        }
        (c, supported, names)
    }

    /// The problem of the client certificate validation (`spec.tls.frontend`) that applies
    /// to `port` (a `perPort` entry, else `default`; `None` for any port), as Envoy Gateway
    /// resolves it (listener.go ProcessGatewayTLS).
    fn frontend_problem(
        &self,
        gateway: &Value,
        gateway_ns: &str,
        port: Option<i64>,
    ) -> Option<super::backend_tls::CaProblem> {
        let frontend = gateway.pointer("/spec/tls/frontend")?;
        let per_port: Vec<&Value> = frontend
            .get("perPort")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .collect();
        let validations: Vec<&Value> = match port {
            Some(p) => match per_port
                .iter()
                .find(|e| e.get("port").and_then(Value::as_i64) == Some(p))
            {
                Some(entry) => entry.pointer("/tls/validation").into_iter().collect(),
                None => frontend
                    .pointer("/default/validation")
                    .into_iter()
                    .collect(),
            },
            None => frontend
                .pointer("/default/validation")
                .into_iter()
                .chain(per_port.iter().filter_map(|e| e.pointer("/tls/validation")))
                .collect(),
        };
        validations.into_iter().find_map(|v| {
            let refs: Vec<&Value> = v
                .get("caCertificateRefs")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .collect();
            self.ca_refs_problem(&refs, gateway_ns, Some(gateway_ns))
        })
    }

    /// The implementation whose choices predict a Gateway of `class`: the target for the
    /// class the tool generates and for classes it does not know; for a GatewayClass of the
    /// repository, the implementation of its `controllerName` (none that the tool models:
    /// spec rules only); for Istio's own class names, Istio.
    pub(crate) fn implementation(&self, class: &str) -> Target {
        if class == self.config.gateway_class() {
            return self.config.target;
        }
        match self.class_controllers.get(class).map(String::as_str) {
            Some("gateway.envoyproxy.io/gatewayclass-controller") => Target::EnvoyGateway,
            Some(c) if c.starts_with("istio.io/") => Target::Istio,
            Some(_) => Target::Generic,
            None if matches!(
                class,
                "istio" | "istio-waypoint" | "istio-east-west" | "istio-remote"
            ) =>
            {
                Target::Istio
            }
            None => self.config.target,
        }
    }

    /// Whether the target implementation serves a listener protocol: Envoy Gateway HTTP,
    /// HTTPS, TLS, TCP and UDP (`isSupportedListenerProtocol`); Istio HTTP, HTTPS, TLS, TCP,
    /// and HBONE on its waypoint and east-west classes (conversion.go
    /// listenerProtocolToIstio). Without a target, any protocol may be an implementation's.
    fn protocol_supported(&self, protocol: &str, class: &str) -> bool {
        match self.implementation(class) {
            Target::EnvoyGateway => matches!(protocol, "HTTP" | "HTTPS" | "TLS" | "TCP" | "UDP"),
            Target::Istio => {
                matches!(protocol, "HTTP" | "HTTPS" | "TLS" | "TCP")
                    || protocol == "HBONE" && matches!(class, "istio-waypoint" | "istio-east-west")
            }
            Target::Generic => true,
        }
    }

    /// Resolves a terminating listener's certificate references
    /// (`validateTerminateModeAndGetTLSSecrets`); returns the DNS names of the valid ones.
    fn certificates(
        &self,
        refs: &[&Value],
        gateway_ns: &str,
        target: Target,
        c: &mut Conditions,
    ) -> Vec<String> {
        let resolved = self.resolve_certificates(refs, gateway_ns, target);
        let valid: Vec<&Vec<String>> = resolved
            .iter()
            .filter_map(|r| match r {
                CertificateRef::Valid(n, _) => Some(n),
                _ => None,
            })
            .collect();
        let failed: Vec<(&str, &String)> = resolved
            .iter()
            .filter_map(|r| match r {
                CertificateRef::Failed(reason, message) => Some((*reason, message)),
                _ => None,
            })
            .collect();
        let unknown: Vec<&String> = resolved
            .iter()
            .filter_map(|r| match r {
                CertificateRef::Unknown(_, m) => Some(m),
                _ => None,
            })
            .collect();
        let messages = || {
            failed
                .iter()
                .map(|(_, m)| m.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        };
        if failed.is_empty() {
            if valid.is_empty() && !unknown.is_empty() {
                c.set(
                    "ResolvedRefs",
                    Status::Unknown,
                    "InvalidCertificateRef",
                    unknown
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join("; "),
                );
            }
        } else if valid.is_empty() && unknown.is_empty() {
            let reason = if failed.iter().all(|(r, _)| *r == "RefNotPermitted") {
                "RefNotPermitted"
            } else {
                "InvalidCertificateRef"
            };
            c.set(
                "ResolvedRefs",
                Status::False,
                reason,
                format!("no valid certificate: {}", messages()),
            );
        } else {
            c.set(
                "ResolvedRefs",
                Status::False,
                "PartiallyInvalidCertificateRef",
                format!("some certificates are invalid: {}", messages()),
            );
        }
        valid.into_iter().flatten().cloned().collect()
    }

    /// Each reference resolved; with Envoy Gateway, a certificate whose key algorithm and a
    /// name repeat an earlier one's is refused (`tls.go` parseCertsFromTLSSecretsData: one
    /// certificate per algorithm and domain on a listener).
    fn resolve_certificates(
        &self,
        refs: &[&Value],
        gateway_ns: &str,
        target: Target,
    ) -> Vec<CertificateRef> {
        let mut served: Vec<(Vec<u8>, String)> = Vec::new();
        refs.iter()
            .map(|r| {
                let resolved = self.certificate(r, gateway_ns, target);
                let CertificateRef::Valid(names, Some(algorithm)) = &resolved else {
                    return resolved;
                };
                if target != Target::EnvoyGateway {
                    return resolved;
                }
                let mut unique = names.clone();
                unique.dedup();
                if let Some(name) = unique
                    .iter()
                    .find(|n| served.iter().any(|(a, s)| a == algorithm && s == *n))
                {
                    return CertificateRef::Failed(
                        "InvalidCertificateRef",
                        format!(
                            "Secret {}/{} serves {name} with the same key algorithm as an earlier certificate of the listener, which wins",
                            str_of(r, "namespace").unwrap_or(gateway_ns),
                            str_of(r, "name").unwrap_or_default()
                        ),
                    );
                }
                served.extend(unique.into_iter().map(|n| (algorithm.clone(), n)));
                resolved
            })
            .collect()
    }

    fn certificate(&self, r: &Value, gateway_ns: &str, target: Target) -> CertificateRef {
        let group = str_of(r, "group").unwrap_or("");
        let kind = str_of(r, "kind").unwrap_or("Secret");
        let name = str_of(r, "name").unwrap_or_default();
        let ns = str_of(r, "namespace").unwrap_or(gateway_ns);
        if !group.is_empty() || kind != "Secret" {
            return CertificateRef::Failed(
                "InvalidCertificateRef",
                format!("certificateRef {group}/{kind} {name} is not a core Secret"),
            );
        }
        if ns != gateway_ns && !self.granted_from(ns, "Gateway", gateway_ns, "", "Secret", name) {
            let message = format!(
                "no ReferenceGrant in namespace {ns} lets Gateways of {gateway_ns} use Secret {name}"
            );
            if !self.namespace_known(ns) && !self.config.strict {
                return CertificateRef::Unknown("RefNotPermitted", message);
            }
            return CertificateRef::Failed("RefNotPermitted", message);
        }
        let Some(secret) = self.index.secret(ns, name) else {
            // Secrets are often kept out of Git (sealed or external secrets).
            let message = format!("Secret {ns}/{name} is not in the repository");
            if self.config.strict {
                return CertificateRef::Failed(
                    "InvalidCertificateRef",
                    format!("Secret {ns}/{name} does not exist"),
                );
            }
            return CertificateRef::Unknown("InvalidCertificateRef", message);
        };
        // Envoy Gateway takes only kubernetes.io/tls Secrets and refuses expired
        // certificates (validate.go, tls.go validateServingCertificateChain); Istio also
        // reads `cert`/`key` from any Secret and only parses the pair
        // (conversion.go buildSecretReference: ExtractCertInfo, tls.X509KeyPair).
        let envoy = target == Target::EnvoyGateway;
        if envoy && secret.type_.as_deref() != Some("kubernetes.io/tls") {
            return CertificateRef::Failed(
                "InvalidCertificateRef",
                format!("Secret {ns}/{name} is not of type kubernetes.io/tls"),
            );
        }
        if secret.keys.is_empty() {
            // A Secret without data in Git is a placeholder that cert-manager or an
            // external-secrets controller fills in the cluster: it exists, its contents
            // are not the repository's (even with `--strict`, which is about objects).
            return CertificateRef::Valid(Vec::new(), None);
        }
        let has = |k: &str| secret.keys.iter().any(|o| o == k);
        let istio_pair = !envoy && has("cert") && has("key");
        let failed = |why: &str| {
            CertificateRef::Failed("InvalidCertificateRef", format!("Secret {ns}/{name} {why}"))
        };
        match secret.tls.as_deref() {
            Some(TlsContents::Valid {
                outside_validity: true,
                ..
            }) if envoy => failed("has a certificate that is expired or not yet valid"),
            Some(TlsContents::Valid {
                foreign_blocks: true,
                ..
            }) if envoy => failed("has a tls.crt with PEM blocks that are not certificates"),
            Some(TlsContents::Valid {
                dns_names,
                key_algorithm,
                ..
            }) => CertificateRef::Valid(dns_names.clone(), Some(key_algorithm.clone())),
            None if istio_pair => CertificateRef::Valid(Vec::new(), None),
            Some(TlsContents::Invalid(problem)) => failed(problem.describe()),
            None => failed(crate::model::certificate::CertificateProblem::MissingKeys.describe()),
        }
    }

    /// Gateway-level conditions the repository decides: `spec.addresses` types and the
    /// backend client certificate (`translator.go` GetRelevantGateways, `listener.go`
    /// ProcessGatewayTLS).
    fn gateway_conditions(&self, gateway: &Value, gateway_ns: &str) -> Vec<PredictedCondition> {
        let mut c = Conditions::default();
        let unsupported = items(gateway, "/spec/addresses")
            .filter_map(|a| str_of(a, "type"))
            .find(|t| !matches!(*t, "IPAddress" | "Hostname"));
        if let Some(t) = unsupported {
            c.set(
                "Accepted",
                Status::False,
                "UnsupportedAddress",
                format!("address type {t} is not supported"),
            );
        }
        let frontend = gateway.pointer("/spec/tls/frontend").is_some();
        if let Some((_, message)) = self.frontend_problem(gateway, gateway_ns, None) {
            c.set(
                "ResolvedRefs",
                Status::False,
                "InvalidParameters",
                format!("client certificate validation: {message}"),
            );
        } else if frontend {
            c.set(
                "ResolvedRefs",
                Status::True,
                "ResolvedRefs",
                "the Gateway's TLS references resolve",
            );
        }
        if let Some(r) = gateway.pointer("/spec/tls/backend/clientCertificateRef") {
            let group = str_of(r, "group").unwrap_or("");
            let kind = str_of(r, "kind").unwrap_or("Secret");
            let name = str_of(r, "name").unwrap_or_default();
            let ns = str_of(r, "namespace").unwrap_or(gateway_ns);
            let failure = if !group.is_empty() || kind != "Secret" {
                Some((
                    Status::False,
                    "InvalidClientCertificateRef",
                    format!("client certificate reference {group}/{kind} is not a core Secret"),
                ))
            } else if ns != gateway_ns
                && !self.granted_from(ns, "Gateway", gateway_ns, "", "Secret", name)
            {
                let status = if self.namespace_known(ns) || self.config.strict {
                    Status::False
                } else {
                    Status::Unknown
                };
                Some((
                    status,
                    "RefNotPermitted",
                    format!(
                        "no ReferenceGrant in namespace {ns} lets Gateways of {gateway_ns} use Secret {name}"
                    ),
                ))
            } else {
                match self.index.secret(ns, name) {
                    None if self.config.strict => Some((
                        Status::False,
                        "InvalidClientCertificateRef",
                        format!("Secret {ns}/{name} does not exist"),
                    )),
                    None => Some((
                        Status::Unknown,
                        "InvalidClientCertificateRef",
                        format!("Secret {ns}/{name} is not in the repository"),
                    )),
                    Some(s)
                        if !(s.keys.iter().any(|k| k == "tls.crt")
                            && s.keys.iter().any(|k| k == "tls.key")) =>
                    {
                        Some((
                            Status::False,
                            "InvalidClientCertificateRef",
                            format!("Secret {ns}/{name} does not contain both tls.crt and tls.key"),
                        ))
                    }
                    Some(_) => None,
                }
            };
            match failure {
                Some((status, reason, message)) => c.set("ResolvedRefs", status, reason, message),
                None => c.set(
                    "ResolvedRefs",
                    Status::True,
                    "ResolvedRefs",
                    "the Gateway's TLS references resolve",
                ),
            }
        }
        c.0
    }
}

/// Step 3 (`validateListenerConditions`).
fn finish(c: &mut Conditions) {
    if c.0.iter().all(|c| c.status == Status::Unknown) {
        c.set(
            "Programmed",
            Status::True,
            "Programmed",
            "listener programmed",
        );
        c.set("Accepted", Status::True, "Accepted", "listener accepted");
        if c.get("ResolvedRefs").is_none() {
            c.set(
                "ResolvedRefs",
                Status::True,
                "ResolvedRefs",
                "references resolved",
            );
        }
        return;
    }
    if c.0.len() == 1 && c.0[0].type_ == "ResolvedRefs" {
        match c.0[0].reason.as_str() {
            "PartiallyInvalidCertificateRef" => {
                c.set("Accepted", Status::True, "Accepted", "listener accepted");
                c.set(
                    "Programmed",
                    Status::True,
                    "Programmed",
                    "listener programmed with its valid certificates",
                );
                return;
            }
            "InvalidCertificateRef" => {
                c.set("Accepted", Status::True, "Accepted", "listener accepted");
                c.invalid("no valid certificate");
                return;
            }
            _ => {}
        }
    }
    if c.get("Programmed").is_none() {
        c.invalid("listener is invalid, see the other conditions");
    }
    if c.get("ResolvedRefs").is_none() {
        c.set(
            "ResolvedRefs",
            Status::True,
            "ResolvedRefs",
            "references resolved",
        );
    }
}

/// Step 4: HTTPS listeners of one port whose hostnames, or whose certificates' names,
/// overlap (`checkOverlappingHostnames`, `checkOverlappingCertificates`).
fn overlapping_tls(specs: &[&Value], checked: &mut [(Conditions, Vec<String>, Vec<String>)]) {
    let healthy = |c: &Conditions| {
        !c.0.iter().any(|c| {
            matches!(c.type_, "Programmed" | "Accepted") && c.status == Status::False
                || c.type_ == "ResolvedRefs"
                    && c.status == Status::False
                    && c.reason != "PartiallyInvalidCertificateRef"
        })
    };
    let candidates: Vec<usize> = (0..specs.len())
        .filter(|&i| str_of(specs[i], "protocol") == Some("HTTPS") && healthy(&checked[i].0))
        .collect();
    let port = |i: usize| specs[i].get("port").and_then(Value::as_i64);
    let host = |i: usize| str_of(specs[i], "hostname").filter(|h| !h.is_empty());
    let mut paired = vec![false; specs.len()];
    for (n, &a) in candidates.iter().enumerate() {
        for &b in &candidates[n + 1..] {
            if paired[a] || paired[b] || port(a) != port(b) {
                continue;
            }
            if overlap(host(a), host(b)) {
                paired[a] = true;
                paired[b] = true;
                let message = format!(
                    "hostname {} overlaps hostname {} of listener {}",
                    host(a).unwrap_or("(any)"),
                    host(b).unwrap_or("(any)"),
                    str_of(specs[b], "name").unwrap_or_default()
                );
                mark_overlap(checked, [a, b], "OverlappingHostnames", &message);
            }
        }
    }
    for (n, &a) in candidates.iter().enumerate() {
        for &b in &candidates[n + 1..] {
            if port(a) != port(b) {
                continue;
            }
            let shared = checked[a].2.iter().find(|x| {
                checked[b]
                    .2
                    .iter()
                    .any(|y| overlap(Some(x.as_str()), Some(y.as_str())))
            });
            if let Some(name) = shared.cloned() {
                let message = format!(
                    "the certificates of listeners {} and {} both cover {name}; clients may reuse a connection across them",
                    str_of(specs[a], "name").unwrap_or_default(),
                    str_of(specs[b], "name").unwrap_or_default()
                );
                mark_overlap(checked, [a, b], "OverlappingCertificates", &message);
            }
        }
    }
}

/// `OverlappingTLSConfig=True` with `reason` on both listeners of a pair.
fn mark_overlap(
    checked: &mut [(Conditions, Vec<String>, Vec<String>)],
    pair: [usize; 2],
    reason: &str,
    message: &str,
) {
    for i in pair {
        checked[i]
            .0
            .set("OverlappingTLSConfig", Status::True, reason, message);
    }
}

/// Envoy Gateway's overlap of two names: an absent one overlaps everything, equal names
/// overlap, and `*.x.com` overlaps the names one label below `x.com`.
fn overlap(a: Option<&str>, b: Option<&str>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return true;
    };
    let under = |wild: &str, name: &str| {
        wild.strip_prefix("*.").is_some_and(|suffix| {
            name.split_once('.')
                .is_some_and(|(label, rest)| !label.is_empty() && rest == suffix)
        })
    };
    a == b || under(a, b) || under(b, a)
}

/// Messages `finish` writes: they restate other conditions, so no finding of their own.
const RESTATED: &[&str] = &[
    "listener is invalid, see the other conditions",
    "no valid certificate",
];

impl World<'_> {
    /// Notes about a Gateway and its listeners, each with the status reason it stands for:
    /// every listener condition that is not as it should be.
    pub(crate) fn gateway_findings(&self, gateway: &Value) -> Vec<(Diagnostic, String)> {
        if str_of(gateway, "kind") != Some("Gateway") {
            return Vec::new();
        }
        let status = self.gateway_status(gateway);
        let what = format!("Gateway {}/{}", status.namespace, status.name);
        let mut out = Vec::new();
        for c in &status.conditions {
            let code = match (c.type_, c.status, c.reason.as_str()) {
                ("Accepted", Status::False, _) => Code::AttachUnsupportedAddress,
                ("ResolvedRefs", Status::False, "InvalidParameters") => {
                    Code::AttachClientValidationInvalid
                }
                ("ResolvedRefs", Status::False | Status::Unknown, _) => {
                    Code::AttachInvalidClientCertificateRef
                }
                _ => continue,
            };
            let field = match code {
                Code::AttachUnsupportedAddress => "spec.addresses",
                Code::AttachClientValidationInvalid => "spec.tls.frontend",
                _ => "spec.tls.backend.clientCertificateRef",
            };
            let d = Diagnostic::new(
                code,
                format!(
                    "{what} would be {}={} ({}): {}",
                    c.type_,
                    status_word(c.status),
                    c.reason,
                    c.message
                ),
            )
            .at(field);
            out.push((d.strict(self.config.strict), c.reason.clone()));
        }
        for (i, l) in status.listeners.iter().enumerate() {
            for c in &l.conditions {
                let code = match (c.type_, c.status, c.reason.as_str()) {
                    ("Conflicted", Status::True, "ProtocolConflict") => {
                        Code::ValidateListenerProtocolConflict
                    }
                    ("Conflicted", Status::True, _) => Code::ValidateListenerHostnameConflict,
                    ("OverlappingTLSConfig", Status::True, _) => Code::AttachOverlappingTls,
                    ("Accepted", Status::False, "NoValidCACertificate") => {
                        Code::AttachClientValidationInvalid
                    }
                    ("Accepted", Status::False, _) => Code::AttachListenerUnsupportedProtocol,
                    // Restates the client validation problem the Accepted condition names.
                    (
                        "Programmed" | "ResolvedRefs",
                        Status::False,
                        "InvalidCACertificateRef" | "InvalidCACertificateKind" | "RefNotPermitted",
                    ) if l
                        .conditions
                        .iter()
                        .any(|o| o.reason == "NoValidCACertificate") =>
                    {
                        continue;
                    }
                    ("ResolvedRefs", Status::False, "InvalidRouteKinds") => {
                        Code::AttachInvalidRouteKinds
                    }
                    ("ResolvedRefs", Status::False | Status::Unknown, _) => {
                        out.extend(self.certificate_findings(gateway, &what, i, &l.name, c));
                        continue;
                    }
                    ("Programmed", Status::False, _) if !RESTATED.contains(&c.message.as_str()) => {
                        Code::AttachListenerInvalid
                    }
                    _ => continue,
                };
                let message = if c.type_ == "Conflicted" {
                    format!("{what}: {}", c.message)
                } else {
                    format!(
                        "{what} listener {} would be {}={} ({}): {}",
                        l.name,
                        c.type_,
                        status_word(c.status),
                        c.reason,
                        c.message
                    )
                };
                let d = Diagnostic::new(code, message).at(format!("spec.listeners[{i}]"));
                out.push((d.strict(self.config.strict), c.reason.clone()));
            }
        }
        out
    }
}

impl World<'_> {
    /// One note per certificate reference of listener `index` that does not resolve, at
    /// the reference, with the listener condition it leads to.
    fn certificate_findings(
        &self,
        gateway: &Value,
        what: &str,
        index: usize,
        listener: &str,
        condition: &PredictedCondition,
    ) -> Vec<(Diagnostic, String)> {
        let gateway_ns = namespace_of(gateway, &self.config.default_namespace);
        let refs: Vec<&Value> = items(
            gateway,
            &format!("/spec/listeners/{index}/tls/certificateRefs"),
        )
        .collect();
        let mut out = Vec::new();
        let class = gateway
            .pointer("/spec/gatewayClassName")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let target = self.implementation(class);
        for (j, resolved) in self
            .resolve_certificates(&refs, &gateway_ns, target)
            .into_iter()
            .enumerate()
        {
            let (code, reason, message) = match resolved {
                CertificateRef::Valid(..) => continue,
                CertificateRef::Unknown(reason, m) => {
                    let d = Diagnostic::new(
                        Code::AttachCertificateUnknown,
                        format!(
                            "{what} listener {listener}: {m}; unless the cluster has it, the listener is ResolvedRefs=False ({reason})"
                        ),
                    )
                    .at(format!("spec.listeners[{index}].tls.certificateRefs[{j}]"))
                    .strict(self.config.strict);
                    out.push((d, reason.to_string()));
                    continue;
                }
                CertificateRef::Failed("RefNotPermitted", m) => {
                    (Code::AttachCertificateRefNotPermitted, "RefNotPermitted", m)
                }
                CertificateRef::Failed(reason, m) => (Code::AttachInvalidCertificateRef, reason, m),
            };
            let d = Diagnostic::new(
                code,
                format!(
                    "{what} listener {listener}: {message}; the listener would be ResolvedRefs={} ({})",
                    status_word(condition.status),
                    condition.reason
                ),
            )
            .at(format!("spec.listeners[{index}].tls.certificateRefs[{j}]"))
            .strict(self.config.strict);
            out.push((d, reason.to_string()));
        }
        out
    }
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::True => "True",
        Status::False => "False",
        Status::Unknown => "Unknown",
    }
}
