//! `backend-protocol`: `GRPC` → GRPCRoute; `HTTPS` / `GRPCS` → a BackendTLSPolicy per backend
//! Service. ingress-nginx does not verify the upstream certificate unless `proxy-ssl-verify`
//! is on; BackendTLSPolicy always verifies, against `proxy-ssl-secret`'s CA (as a ConfigMap)
//! or the system CAs, for `proxy-ssl-name` or the Service's cluster DNS name.

use std::collections::BTreeSet;

use crate::config::Config;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, BackendTlsPolicySpec, BackendTlsValidation, Generated, LocalObjectReference, Metadata,
    Object, PolicyTargetReference,
};

use super::super::ir::{IngressPlan, RouteKind};
use super::super::names;
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &[
    "backend-protocol",
    "proxy-ssl-secret",
    "proxy-ssl-name",
    "proxy-ssl-verify",
    "proxy-ssl-server-name",
];

pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations, config: &Config) {
    let Some(protocol) = ann.get("backend-protocol") else {
        return;
    };
    let f = field("backend-protocol");
    match protocol.to_ascii_uppercase().as_str() {
        "HTTP" => {}
        "GRPC" => {
            plan.kind = RouteKind::Grpc;
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxBackendProtocolGrpc,
                    "backend-protocol GRPC: hosts become GRPCRoutes (paths /package.Service[/Method] become method matches)",
                )
                .at(f),
            );
        }
        "GRPCS" => {
            plan.kind = RouteKind::Grpc;
            plan.result.notes.push(
                Diagnostic::new(
                    Code::NginxBackendProtocolGrpc,
                    "backend-protocol GRPCS: hosts become GRPCRoutes, with a BackendTLSPolicy for the TLS to the backends",
                )
                .at(f),
            );
            backend_tls(plan, ann, config);
        }
        "HTTPS" => backend_tls(plan, ann, config),
        other => plan.result.notes.push(
            Diagnostic::new(
                Code::NginxBackendProtocolUnsupported,
                format!(
                    "backend-protocol {other} has no Gateway API equivalent; the backends are reached over plain HTTP"
                ),
            )
            .at(f),
        ),
    }
}

/// One BackendTLSPolicy per Service the Ingress routes to.
fn backend_tls(plan: &mut IngressPlan, ann: &Annotations, config: &Config) {
    let services: BTreeSet<String> = plan
        .hosts
        .iter()
        .flat_map(|h| h.rules.iter())
        .flat_map(|r| r.backends.iter())
        .filter(|b| b.kind.is_none())
        .map(|b| b.name.clone())
        .collect();
    let verify =
        ann.flag("proxy-ssl-verify").unwrap_or(false) || ann.get("proxy-ssl-verify") == Some("on");
    let ca = ann.get("proxy-ssl-secret").map(|s| {
        // `namespace/name`; the policy can only name an object in its own namespace.
        s.rsplit_once('/').map_or(s, |(_, n)| n).to_string()
    });
    let ns = plan.namespace.clone();
    for svc in &services {
        let hostname = ann
            .get("proxy-ssl-name")
            .map(str::to_string)
            .unwrap_or_else(|| format!("{svc}.{ns}.svc.{}", config.cluster_domain));
        let validation = match &ca {
            Some(ca) => BackendTlsValidation {
                ca_certificate_refs: vec![LocalObjectReference {
                    group: String::new(),
                    kind: "ConfigMap".into(),
                    name: ca.clone(),
                }],
                hostname: hostname.clone(),
                ..Default::default()
            },
            None => BackendTlsValidation {
                well_known_ca_certificates: Some("System".into()),
                hostname: hostname.clone(),
                ..Default::default()
            },
        };
        let name = names::fit(&format!("{svc}-backend-tls"), names::MAX_NAME);
        plan.result
            .generated
            .push(Generated::BackendTlsPolicy(Object::new(
                gwapi::V1,
                "BackendTLSPolicy",
                Metadata::new(name, ns.clone()),
                BackendTlsPolicySpec {
                    target_refs: vec![PolicyTargetReference {
                        group: String::new(),
                        kind: "Service".into(),
                        name: svc.clone(),
                        section_name: None,
                    }],
                    validation,
                    ..Default::default()
                },
            )));
        let how = match &ca {
            Some(ca) => format!(
                "against the CA in ConfigMap {ns}/{ca} (copy ca.crt from the proxy-ssl-secret Secret into it)"
            ),
            None => "against the system CAs".into(),
        };
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxBackendTlsVerification,
                format!(
                    "Service {svc}: BackendTLSPolicy verifies the backend certificate {how} for hostname {hostname}; ingress-nginx {} — a backend with a self-signed or mismatched certificate will now fail",
                    if verify {
                        "verified it too (proxy-ssl-verify on)"
                    } else {
                        "did not verify it (proxy-ssl-verify off)"
                    }
                ),
            )
            .at(field("backend-protocol")),
        );
    }
}
