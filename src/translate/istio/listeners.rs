//! Istio Gateway `servers[]` → Gateway API listeners: one listener per host of each server,
//! merged where Gateway API needs port + protocol + hostname to be unique.
//!
//! The plan is computed once per Istio Gateway and shared: `gateway.rs` writes it out, and the
//! VirtualService translators read it to pick the listeners (`sectionName`) a route binds to.

use std::collections::{BTreeMap, BTreeSet};

use super::names;
use super::proxy::Proxy;
use super::unknown;
use crate::config::{Config, Target};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    AllowedRoutes, FrontendValidation, LabelSelector, LabelSelectorRequirement, Listener,
    ListenerTls, ObjectReference, RouteNamespaces, SecretObjectReference,
};
use crate::index::Index;
use crate::model::istio::{Gateway, Server, ServerTls};
use crate::model::surrounding::Surrounding;
use crate::model::{SourceBody, SourceObject};
use crate::translate::GrantRequest;

/// The most listeners one Gateway may have.
pub(super) const MAX_LISTENERS: usize = 64;

/// Label every namespace carries with its own name (used for `allowedRoutes` selectors).
const NAMESPACE_NAME_LABEL: &str = "kubernetes.io/metadata.name";

#[derive(Debug, Clone)]
pub(crate) struct PlannedListener {
    pub listener: Listener,
    /// `(namespace part, host)` pairs of the Istio `hosts` this listener serves; the namespace
    /// part is `*`, `.` or a namespace name.
    pub hosts: Vec<(String, String)>,
    /// The Istio server had `tls.httpsRedirect` (the listener only redirects).
    pub https_redirect: bool,
}

impl PlannedListener {
    /// Whether this listener serves `host` to VirtualServices of namespace `vs_ns`, by Istio's
    /// rule: the server host's namespace part is `*`, the VS namespace, or `.` for the
    /// Gateway's own namespace.
    pub(crate) fn serves(&self, gateway_ns: &str, vs_ns: &str, host: &str) -> bool {
        self.hosts.iter().any(|(ns, h)| {
            let ns_ok = ns == "*" || ns == vs_ns || (ns == "." && gateway_ns == vs_ns);
            ns_ok && super::hosts::overlap(h, host)
        })
    }

    pub(crate) fn protocol(&self) -> &str {
        &self.listener.protocol
    }

    pub(crate) fn is_passthrough(&self) -> bool {
        self.listener
            .tls
            .as_ref()
            .and_then(|t| t.mode.as_deref())
            .is_some_and(|m| m == "Passthrough")
    }
}

/// What one Istio Gateway becomes.
#[derive(Debug, Clone, Default)]
pub(crate) struct GatewayPlan {
    /// Name of the generated Gateway.
    pub name: String,
    pub namespace: String,
    pub listeners: Vec<PlannedListener>,
    pub notes: Vec<Diagnostic>,
    pub grants: Vec<GrantRequest>,
    /// Client-certificate validation per port (`spec.tls.frontend.perPort`), for targets
    /// without Istio's per-listener option.
    pub frontend: BTreeMap<u32, FrontendValidation>,
    /// Ports with a SIMPLE (no client certificate) server.
    pub simple_ports: BTreeSet<u32>,
}

/// Plans the listeners of one Istio Gateway.
/// What planning reads besides the Gateway.
struct Env<'a> {
    index: &'a Index,
    config: &'a Config,
    proxy: &'a Proxy,
}

pub(super) fn plan(
    index: &Index,
    obj: &SourceObject,
    gateway: &Gateway,
    config: &Config,
    proxy: &Proxy,
) -> GatewayPlan {
    let env = Env {
        index,
        config,
        proxy,
    };
    let mut plan = GatewayPlan {
        name: names::sanitize(obj.name(), names::MAX_NAME),
        namespace: obj.namespace.clone(),
        ..Default::default()
    };
    unknown::report(&gateway.extra, "spec", &mut plan.notes);
    let mut by_key: BTreeMap<(u32, String, Option<String>), usize> = BTreeMap::new();
    let kept = kept_port_names(gateway);
    // Reserved first, so no generated name takes one of them.
    let mut taken_names: BTreeSet<String> = kept.clone();
    for (si, server) in gateway.servers.iter().enumerate() {
        plan_server(
            si,
            server,
            &env,
            &kept,
            &mut plan,
            &mut by_key,
            &mut taken_names,
        );
    }
    for pl in &mut plan.listeners {
        pl.listener.allowed_routes = Some(allowed_routes(pl, &obj.namespace));
    }
    let shared: Vec<u32> = plan
        .frontend
        .keys()
        .filter(|p| plan.simple_ports.contains(p))
        .copied()
        .collect();
    for port in shared {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioFrontendValidationPerPort,
                format!("port {port} has SIMPLE and MUTUAL servers: Gateway API validates client certificates per port, so the SIMPLE hosts on port {port} now require client certificates too (split the port or the Gateway)"),
            )
            .at("spec.servers"),
        );
    }
    if plan.listeners.len() > MAX_LISTENERS {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioTooManyListeners,
                format!(
                    "the servers need {} listeners but a Gateway holds at most {MAX_LISTENERS}; listeners after the 64th were dropped (split the Gateway or use ListenerSets)",
                    plan.listeners.len()
                ),
            )
            .at("spec.servers"),
        );
        plan.listeners.truncate(MAX_LISTENERS);
    }
    plan
}

/// Gateway API protocol and TLS of one server, or `None` (with notes) when it cannot be
/// translated.
struct ServerShape {
    protocol: String,
    tls: Option<ListenerTls>,
    https_redirect: bool,
}

/// Server `port.name`s that become listener names as they are: named by one server only,
/// that server has one host (so it makes one listener), and the name is a valid SectionName.
/// Scripts and dashboards that select a listener by the port name (`http`, `https`) keep
/// working; every other listener gets a generated name.
fn kept_port_names(gateway: &Gateway) -> BTreeSet<String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for server in &gateway.servers {
        if let Some(name) = server.port.as_ref().and_then(|p| p.name.as_deref()) {
            *count.entry(name).or_default() += 1;
        }
    }
    gateway
        .servers
        .iter()
        .filter(|s| s.hosts.len() == 1)
        .filter_map(|s| s.port.as_ref().and_then(|p| p.name.as_deref()))
        .filter(|name| count.get(name) == Some(&1) && crate::gwapi::is_dns_subdomain(name))
        .map(str::to_string)
        .collect()
}

fn plan_server(
    si: usize,
    server: &Server,
    env: &Env,
    kept: &BTreeSet<String>,
    plan: &mut GatewayPlan,
    by_key: &mut BTreeMap<(u32, String, Option<String>), usize>,
    taken_names: &mut BTreeSet<String>,
) {
    let path = format!("spec.servers[{si}]");
    unknown::report(&server.extra, &path, &mut plan.notes);
    let Some(port) = &server.port else {
        plan.notes.push(
            Diagnostic::new(Code::IstioServerPortMissing, "server has no port; skipped").at(&path),
        );
        return;
    };
    unknown::report(&port.extra, &format!("{path}.port"), &mut plan.notes);
    let Some(number) = port.number else {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerPortMissing,
                "server port has no number; skipped",
            )
            .at(format!("{path}.port")),
        );
        return;
    };
    if !(1..=65535).contains(&number) {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerPortMissing,
                format!("server port {number} is not a TCP port (1-65535); skipped"),
            )
            .at(format!("{path}.port.number")),
        );
        return;
    }
    let kept_name = port.name.as_ref().filter(|n| kept.contains(*n)).cloned();
    // Reported once per Gateway: nearly every server names its port.
    if kept_name.is_none()
        && port.name.is_some()
        && !plan.notes.iter().any(|n| n.code == Code::IstioServerName)
    {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerName,
                "a port name shared by several servers, on a server with several hosts (one listener per host), or not a valid listener name is not kept: those listeners are named '<protocol>-protocol-<namespace>-ns-<host>' (unique per Gateway); unique port names of one-host servers are kept",
            )
            .at(format!("{path}.port.name")),
        );
    }
    if port.target_port.is_some() {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerTargetPort,
                "targetPort has no Gateway API equivalent: the generated Gateway's workload listens on the listener port",
            )
            .at(format!("{path}.port.targetPort")),
        );
    }
    if let Some(name) = server.name.as_deref().filter(|n| !n.is_empty()) {
        // gateway.go `createGatewayHTTPFilterChainOpts`: the name only prefixes the Envoy
        // statistics of the server's connection manager.
        plan.notes.push(
            Diagnostic::new(
                Code::IstioStatPrefix,
                format!("server name '{name}' (the statistics prefix of its connection manager) has no Gateway API equivalent; the listener's statistics are named by the implementation"),
            )
            .at(format!("{path}.name")),
        );
    }
    if let Some(bind) = &server.bind {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerBind,
                format!("bind '{bind}' has no Gateway API equivalent; the listener accepts on all addresses"),
            )
            .at(format!("{path}.bind")),
        );
    }
    if server.default_endpoint.is_some() {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerDefaultEndpoint,
                "defaultEndpoint (sidecar ingress) has no Gateway API equivalent",
            )
            .at(format!("{path}.defaultEndpoint")),
        );
    }
    let Some(shape) = server_shape(si, server, env, plan) else {
        return;
    };
    if server.hosts.is_empty() {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerHostsMissing,
                "server has no hosts; skipped",
            )
            .at(format!("{path}.hosts")),
        );
        return;
    }
    // `sanitizeServerHostNamespace` (pilot/pkg/model/gateway.go): a `*/*` host replaces the
    // whole list with `*`, so the server admits every host from every namespace and its other
    // hosts (namespace-restricted ones included) have no effect.
    let collapsed = server.hosts.iter().position(|h| h == "*/*");
    let hosts: Vec<(usize, &String)> = match collapsed {
        Some(i) => {
            if server.hosts.len() > 1 {
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioServerHostsCollapsed,
                        "a '*/*' host makes Istio serve every host to every namespace on this server (sanitizeServerHostNamespace replaces the list with '*'): the other hosts have no effect and no listener of their own",
                    )
                    .at(format!("{path}.hosts[{i}]")),
                );
            }
            vec![(i, &server.hosts[i])]
        }
        None => server.hosts.iter().enumerate().collect(),
    };
    for (hi, raw_host) in hosts {
        let (ns, host) = match raw_host.split_once('/') {
            Some((ns, h)) => (ns.to_string(), crate::model::template::host_as_matched(h)),
            None => (
                "*".to_string(),
                crate::model::template::host_as_matched(raw_host),
            ),
        };
        let templated = crate::model::template::template_of(&host);
        let hostname = if shape.protocol == "TCP" || host == "*" {
            None
        } else if let Some(t) = templated {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioTemplatedHost,
                    format!(
                        "host '{host}' is {}: it is kept as written in the listener hostname, so the same substitution must reach it (kustomize: a varReference or replacement target for Gateway spec/listeners/hostname; Flux postBuild substitutes it as it is)",
                        t.describe()
                    ),
                )
                .at(format!("{path}.hosts[{hi}]")),
            );
            Some(host.clone())
        } else if let Some(problem) = super::hosts::hostname_problem(&host) {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioInvalidHostname,
                    format!("host '{host}' cannot be a listener hostname: {problem}; host skipped"),
                )
                .at(format!("{path}.hosts[{hi}]")),
            );
            continue;
        } else {
            Some(host.clone())
        };
        let key = (number, shape.protocol.clone(), hostname.clone());
        if let Some(&existing) = by_key.get(&key) {
            let pl = &mut plan.listeners[existing];
            if pl.listener.tls != shape.tls || pl.https_redirect != shape.https_redirect {
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioListenerConflict,
                        format!(
                            "host '{host}' on port {number} is also served by an earlier server with different TLS settings; Gateway API allows one listener per port, protocol and hostname, so the earlier listener '{}' is kept",
                            pl.listener.name
                        ),
                    )
                    .at(format!("{path}.hosts[{hi}]")),
                );
            }
            pl.hosts.push((ns, host));
            continue;
        }
        let base = listener_name(&shape.protocol, &ns, &host);
        let name = if let Some(kept) = &kept_name {
            kept.clone()
        } else if taken_names.contains(&base) {
            names::unique(&format!("{base}-{number}"), taken_names)
        } else {
            names::unique(&base, taken_names)
        };
        by_key.insert(key, plan.listeners.len());
        plan.listeners.push(PlannedListener {
            listener: Listener {
                name,
                hostname,
                port: number,
                protocol: shape.protocol.clone(),
                tls: shape.tls.clone(),
                allowed_routes: None,
            },
            hosts: vec![(ns, host)],
            https_redirect: shape.https_redirect,
        });
    }
}

/// `$PROTOCOL-protocol-$NAMESPACE-ns-$HOSTNAME`, lowercase, `*` → `wildcard`, `.` → `dot`,
/// sanitised to a valid SectionName.
pub(super) fn listener_name(protocol: &str, ns: &str, host: &str) -> String {
    let ns = match ns {
        "*" => "wildcard".to_string(),
        "." => "dot".to_string(),
        other => other.to_string(),
    };
    let host = host.replace('*', "wildcard");
    names::sanitize(
        &format!("{}-protocol-{ns}-ns-{host}", protocol.to_ascii_lowercase()),
        names::MAX_NAME,
    )
}

fn server_shape(
    si: usize,
    server: &Server,
    env: &Env,
    plan: &mut GatewayPlan,
) -> Option<ServerShape> {
    let path = format!("spec.servers[{si}]");
    let Some(istio_protocol) = server
        .port
        .as_ref()
        .and_then(|p| p.protocol.as_deref())
        .map(str::to_ascii_uppercase)
    else {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerProtocolMissing,
                "server port has no protocol; skipped",
            )
            .at(format!("{path}.port")),
        );
        return None;
    };
    let tls = server.tls.as_ref();
    if let Some(tls) = tls {
        unknown::report(&tls.extra, &format!("{path}.tls"), &mut plan.notes);
    }
    let https_redirect = tls.and_then(|t| t.https_redirect).unwrap_or(false);
    // A `tls` block that only asks for the redirect does not make the server TLS.
    let tls_configured = tls.is_some_and(|t| t.mode.is_some() || t.credential_name.is_some());
    let mode = tls.map(|t| {
        t.mode
            .as_deref()
            .map(str::to_ascii_uppercase)
            .unwrap_or_else(|| "PASSTHROUGH".into())
    });
    let passthrough = matches!(mode.as_deref(), Some("PASSTHROUGH" | "AUTO_PASSTHROUGH"));
    let protocol = match istio_protocol.as_str() {
        "HTTP" => "HTTP",
        "HTTPS" if passthrough => "TLS",
        "HTTPS" => "HTTPS",
        "TLS" => "TLS",
        "TCP" => "TCP",
        "HTTP2" | "GRPC" | "GRPC-WEB" => {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioServerProtocolMapped,
                    format!(
                        "protocol {istio_protocol} becomes {} (Gateway API has no HTTP/2 listener protocol; HTTP/2 is negotiated or taken from the backend's appProtocol)",
                        if tls_configured { "HTTPS" } else { "HTTP" }
                    ),
                )
                .at(format!("{path}.port.protocol")),
            );
            match (tls_configured, passthrough) {
                (true, true) => "TLS",
                (true, false) => "HTTPS",
                (false, _) => "HTTP",
            }
        }
        "MONGO" | "MYSQL" | "REDIS" => {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioServerProtocolMapped,
                    format!("protocol {istio_protocol} becomes TCP (Gateway API has no protocol-aware TCP listeners)"),
                )
                .at(format!("{path}.port.protocol")),
            );
            "TCP"
        }
        other => {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioServerProtocolUnsupported,
                    format!(
                        "protocol {other} has no Gateway API listener protocol; server skipped"
                    ),
                )
                .at(format!("{path}.port.protocol")),
            );
            return None;
        }
    };
    if https_redirect && protocol != "HTTP" {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioHttpsRedirectIgnored,
                "httpsRedirect only applies to plaintext HTTP servers; ignored on this server",
            )
            .at(format!("{path}.tls.httpsRedirect")),
        );
    }
    let https_redirect = https_redirect && protocol == "HTTP";
    let listener_tls = match protocol {
        "HTTP" | "TCP" => {
            if tls_configured {
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioServerTlsIgnored,
                        format!("tls settings on a {istio_protocol} server have no effect in Istio and are not translated"),
                    )
                    .at(format!("{path}.tls")),
                );
            }
            None
        }
        _ => match tls {
            None => {
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioServerTlsMissing,
                        format!("{istio_protocol} server without tls: Istio rejects it and Gateway API listeners of protocol {protocol} need TLS settings; server skipped"),
                    )
                    .at(&path),
                );
                return None;
            }
            Some(tls) => Some(listener_tls(
                si,
                server
                    .port
                    .as_ref()
                    .and_then(|p| p.number)
                    .unwrap_or_default(),
                tls,
                mode.as_deref().unwrap_or("PASSTHROUGH"),
                env,
                plan,
            )?),
        },
    };
    if let Some(t) = &listener_tls
        && t.mode.as_deref() == Some("Terminate")
        && t.certificate_refs.is_empty()
        && t.options.is_empty()
    {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerCertificateMissing,
                "TLS termination without credentialName: Gateway API needs a certificate Secret (certificateRefs); server skipped, create a kubernetes.io/tls Secret and set credentialName",
            )
            .at(format!("{path}.tls")),
        );
        return None;
    }
    Some(ServerShape {
        protocol: protocol.to_string(),
        tls: listener_tls,
        https_redirect,
    })
}

fn listener_tls(
    si: usize,
    port: u32,
    tls: &ServerTls,
    mode: &str,
    env: &Env,
    plan: &mut GatewayPlan,
) -> Option<ListenerTls> {
    let config = env.config;
    let path = format!("spec.servers[{si}].tls");
    let istio = config.target == Target::Istio;
    let mut out = ListenerTls::default();
    let terminate = match mode {
        "PASSTHROUGH" => false,
        "AUTO_PASSTHROUGH" => {
            if istio {
                out.options.insert(
                    "gateway.istio.io/listener-protocol".into(),
                    "auto-passthrough".into(),
                );
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioAutoPassthrough,
                        "AUTO_PASSTHROUGH mapped to the Istio-only listener option gateway.istio.io/listener-protocol: auto-passthrough",
                    )
                    .at(format!("{path}.mode")),
                );
            } else {
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioAutoPassthroughAsPassthrough,
                        "AUTO_PASSTHROUGH (SNI-based routing to mesh services without a route) has no portable equivalent; translated as Passthrough, which needs TLSRoutes",
                    )
                    .at(format!("{path}.mode")),
                );
            }
            false
        }
        "SIMPLE" => {
            plan.simple_ports.insert(port);
            true
        }
        "MUTUAL" | "OPTIONAL_MUTUAL" if !istio => {
            frontend_validation(port, mode, tls, &path, plan);
            true
        }
        "MUTUAL" | "OPTIONAL_MUTUAL" | "ISTIO_MUTUAL" => {
            if istio {
                out.options
                    .insert("gateway.istio.io/tls-terminate-mode".into(), mode.into());
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioClientCertificateMode,
                        format!("{mode} mapped to the Istio-only listener option gateway.istio.io/tls-terminate-mode (Gateway API client-certificate validation is per port, not per listener)"),
                    )
                    .at(format!("{path}.mode")),
                );
            } else {
                plan.notes.push(
                    Diagnostic::new(
                        Code::IstioClientCertificateModeUnsupported,
                        format!("{mode}: client-certificate verification is not translated for this target; configure Gateway spec.tls.frontend (per port) by hand"),
                    )
                    .at(format!("{path}.mode")),
                );
            }
            true
        }
        other => {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioServerTlsModeUnsupported,
                    format!("TLS mode {other} is not known; server skipped"),
                )
                .at(format!("{path}.mode")),
            );
            return None;
        }
    };
    out.mode = Some(
        if terminate {
            "Terminate"
        } else {
            "Passthrough"
        }
        .into(),
    );
    let mut credentials: Vec<&String> = tls.credential_name.iter().collect();
    credentials.extend(tls.credential_names.iter());
    if terminate {
        for cred in credentials {
            let (cred_ns, cred_name, evidence) = match cred.strip_prefix("kubernetes-gateway://") {
                Some(rest) => match rest.split_once('/') {
                    Some((ns, name)) => (
                        ns.to_string(),
                        name.to_string(),
                        "named in the kubernetes-gateway:// reference".to_string(),
                    ),
                    None => {
                        let (ns, why) = credential_namespace(env, rest);
                        (ns, rest.to_string(), why)
                    }
                },
                None => {
                    let (ns, why) = credential_namespace(env, cred);
                    (ns, cred.clone(), why)
                }
            };
            let namespace = (cred_ns != plan.namespace).then(|| cred_ns.clone());
            if namespace.is_some() {
                plan.grants.push(GrantRequest {
                    from_kind: "Gateway".into(),
                    from_namespace: plan.namespace.clone(),
                    to_group: String::new(),
                    to_kind: "Secret".into(),
                    to_namespace: cred_ns.clone(),
                    to_name: cred_name.clone(),
                });
            }
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioCredentialName,
                    format!("credentialName '{cred_name}' becomes a certificateRef to Secret {cred_ns}/{cred_name}: {evidence}"),
                )
                .at(format!("{path}.credentialName")),
            );
            out.certificate_refs.push(SecretObjectReference {
                group: None,
                kind: Some("Secret".into()),
                name: cred_name,
                namespace,
            });
        }
    } else if !credentials.is_empty() {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioPassthroughCredential,
                format!("credentialName is ignored in {mode} mode (Istio does not terminate TLS); not translated"),
            )
            .at(format!("{path}.credentialName")),
        );
    }
    if tls.credential_name.is_some() && tls.mode.is_none() {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioTlsModeDefault,
                "tls.mode is unset, which Istio treats as PASSTHROUGH although credentialName is set",
            )
            .at(format!("{path}.mode")),
        );
    }
    for (field, set) in [
        ("serverCertificate", tls.server_certificate.is_some()),
        ("privateKey", tls.private_key.is_some()),
        ("caCertificates", tls.ca_certificates.is_some()),
    ] {
        if set {
            plan.notes.push(
                Diagnostic::new(
                    if out.certificate_refs.is_empty() && terminate {
                        Code::IstioFileMountedCertificate
                    } else {
                        Code::IstioFileMountedCertificateIgnored
                    },
                    format!("{field} names a file mounted into the gateway pod; Gateway API only references Secrets (istio-agent serves file certificates over SDS, which has no Gateway API equivalent): create a Secret and use certificateRefs"),
                )
                .at(format!("{path}.{field}")),
            );
        }
    }
    let ca_used = !istio && matches!(mode, "MUTUAL" | "OPTIONAL_MUTUAL");
    if let Some(ca) = tls.ca_cert_credential_name.as_ref().filter(|_| !ca_used) {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioCaCertCredentialName,
                format!("caCertCredentialName '{ca}' is not translated; with the Istio option MUTUAL the CA is read from the certificate Secret's ca.crt (or a '<name>-cacert' Secret); portable form: Gateway spec.tls.frontend with a ConfigMap"),
            )
            .at(format!("{path}.caCertCredentialName")),
        );
    }
    for (field, set) in [
        ("subjectAltNames", !tls.subject_alt_names.is_empty()),
        (
            "verifyCertificateSpki",
            !tls.verify_certificate_spki.is_empty(),
        ),
        (
            "verifyCertificateHash",
            !tls.verify_certificate_hash.is_empty(),
        ),
        ("caCrl", tls.ca_crl.is_some()),
    ] {
        if set {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioClientCertificateCheck,
                    format!("{field} (client certificate check) has no Gateway API equivalent; not translated"),
                )
                .at(format!("{path}.{field}")),
            );
        }
    }
    for (field, set) in [
        ("minProtocolVersion", tls.min_protocol_version.is_some()),
        ("maxProtocolVersion", tls.max_protocol_version.is_some()),
    ] {
        if set {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioTlsProtocolVersion,
                    format!("{field} has no Gateway API (or Istio listener option) equivalent; the implementation default applies"),
                )
                .at(format!("{path}.{field}")),
            );
        }
    }
    if !tls.cipher_suites.is_empty() {
        if istio && terminate {
            out.options.insert(
                "gateway.istio.io/tls-cipher-suites".into(),
                tls.cipher_suites.join(","),
            );
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioCipherSuites,
                    "cipherSuites mapped to the Istio-only listener option gateway.istio.io/tls-cipher-suites",
                )
                .at(format!("{path}.cipherSuites")),
            );
        } else {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioCipherSuitesDropped,
                    "cipherSuites has no portable Gateway API equivalent; not translated",
                )
                .at(format!("{path}.cipherSuites")),
            );
        }
    }
    if tls.insecure_skip_verify.is_some() {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioServerInsecureSkipVerify,
                "insecureSkipVerify on a server has no per-listener Gateway API equivalent (closest: spec.tls.frontend validation mode AllowInsecureFallback, per port); not translated",
            )
            .at(format!("{path}.insecureSkipVerify")),
        );
    }
    Some(out)
}

/// MUTUAL / OPTIONAL_MUTUAL for targets without Istio's listener option: Gateway
/// `spec.tls.frontend.perPort` (standard since v1.5) with the CA as a ConfigMap.
/// The namespace Istio reads credential `name` from, and the evidence for it: the proxy's
/// namespace when configured or found in the repository; else the one namespace where the
/// repository has the Secret, or a cert-manager Certificate writing it; else Istio's default.
fn credential_namespace(env: &Env, name: &str) -> (String, String) {
    use super::proxy::Evidence;
    if env.proxy.evidence != Evidence::Default {
        return (
            env.proxy.namespace.clone(),
            format!(
                "Istio reads it from the gateway proxy's {}",
                env.proxy.describe()
            ),
        );
    }
    let mut found: Vec<(String, String)> = Vec::new();
    for o in &env.index.objects {
        let what = match &o.body {
            SourceBody::Secret(_) if o.name() == name => format!("Secret {}/{name}", o.namespace),
            SourceBody::Surrounding(Surrounding::Certificate { secret_name })
                if secret_name == name =>
            {
                format!(
                    "cert-manager Certificate {}/{}, which writes it",
                    o.namespace,
                    o.name()
                )
            }
            _ => continue,
        };
        if !found.iter().any(|(ns, _)| ns == &o.namespace) {
            found.push((o.namespace.clone(), what));
        }
    }
    match found.as_slice() {
        [(ns, what)] => (
            ns.clone(),
            format!(
                "no gateway workload matching the selector is in the repository; the namespace of {what} (set istioGatewayNamespace if the proxy runs elsewhere)"
            ),
        ),
        _ => (
            env.proxy.namespace.clone(),
            format!(
                "Istio reads it from the gateway proxy's {}",
                env.proxy.describe()
            ),
        ),
    }
}

fn frontend_validation(port: u32, mode: &str, tls: &ServerTls, path: &str, plan: &mut GatewayPlan) {
    let ca = tls.ca_cert_credential_name.clone().or_else(|| {
        tls.credential_name
            .as_ref()
            .or(tls.credential_names.first())
            .map(|c| format!("{c}-cacert"))
    });
    let Some(ca) = ca else {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioClientCertificateModeUnsupported,
                format!("{mode} without credentialName or caCertCredentialName: no CA to validate client certificates with; not translated"),
            )
            .at(format!("{path}.mode")),
        );
        return;
    };
    let validation = FrontendValidation {
        ca_certificate_refs: vec![ObjectReference {
            group: String::new(),
            kind: "ConfigMap".into(),
            name: ca.clone(),
            namespace: None,
        }],
        mode: (mode == "OPTIONAL_MUTUAL").then(|| "AllowInsecureFallback".to_string()),
    };
    if mode == "OPTIONAL_MUTUAL" {
        plan.notes.push(
            Diagnostic::new(
                Code::IstioFrontendValidationOptional,
                "OPTIONAL_MUTUAL becomes frontend validation mode AllowInsecureFallback, which also accepts invalid client certificates (Istio rejects them)",
            )
            .at(format!("{path}.mode")),
        );
    }
    match plan.frontend.get(&port) {
        Some(existing) if *existing != validation => plan.notes.push(
            Diagnostic::new(
                Code::IstioFrontendValidationPerPort,
                format!("another server on port {port} validates client certificates differently; Gateway API has one validation per port, the first is kept"),
            )
            .at(format!("{path}.mode")),
        ),
        Some(_) => {}
        None => {
            plan.notes.push(
                Diagnostic::new(
                    Code::IstioFrontendValidation,
                    format!("{mode} becomes Gateway spec.tls.frontend.perPort[{port}]: client certificates are validated against ConfigMap {}/{ca} (key ca.crt), which must be created from the CA Istio reads", plan.namespace),
                )
                .at(format!("{path}.mode")),
            );
            plan.frontend.insert(port, validation);
        }
    }
}

/// `allowedRoutes` from the namespace parts of the hosts: `*` admits all namespaces, `.` the
/// Gateway's own, a name that namespace (by the `kubernetes.io/metadata.name` label).
fn allowed_routes(pl: &PlannedListener, gateway_ns: &str) -> AllowedRoutes {
    let mut namespaces: BTreeSet<String> = BTreeSet::new();
    let mut all = false;
    for (ns, _) in &pl.hosts {
        match ns.as_str() {
            "*" => all = true,
            "." => {
                namespaces.insert(gateway_ns.to_string());
            }
            other => {
                namespaces.insert(other.to_string());
            }
        }
    }
    if pl.https_redirect {
        // The redirect route lives in the Gateway's namespace.
        namespaces.insert(gateway_ns.to_string());
    }
    let from = if all {
        RouteNamespaces {
            from: "All".into(),
            selector: None,
        }
    } else if namespaces.len() == 1 && namespaces.contains(gateway_ns) {
        RouteNamespaces {
            from: "Same".into(),
            selector: None,
        }
    } else {
        RouteNamespaces {
            from: "Selector".into(),
            selector: Some(LabelSelector {
                match_labels: BTreeMap::new(),
                match_expressions: vec![LabelSelectorRequirement {
                    key: NAMESPACE_NAME_LABEL.into(),
                    operator: "In".into(),
                    values: namespaces.into_iter().collect(),
                }],
            }),
        }
    };
    AllowedRoutes {
        namespaces: Some(from),
        kinds: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listener_names_follow_the_spec_scheme() {
        assert_eq!(
            listener_name("HTTP", "*", "test.com"),
            "http-protocol-wildcard-ns-test.com"
        );
        assert_eq!(
            listener_name("HTTPS", "bookinfo", "*.bookinfo.com"),
            "https-protocol-bookinfo-ns-wildcard.bookinfo.com"
        );
        assert_eq!(
            listener_name("TCP", ".", "foo.example.com"),
            "tcp-protocol-dot-ns-foo.example.com"
        );
        assert_eq!(
            listener_name("HTTP", "*", "*"),
            "http-protocol-wildcard-ns-wildcard"
        );
    }
}
