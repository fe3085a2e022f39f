//! DestinationRule → BackendTLSPolicy (`trafficPolicy.tls` SIMPLE/MUTUAL) plus notes for what
//! has no Gateway API form: subsets (per-version Services), ISTIO_MUTUAL, insecureSkipVerify,
//! file-mounted certificates, load balancing and connection settings.

use super::hosts::{self, HostKind};
use super::{Ctx, names, unknown};
use crate::config::Target;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, BackendTlsPolicySpec, BackendTlsValidation, Generated, LocalObjectReference, Metadata,
    Object, PolicyTargetReference, SubjectAltName,
};
use crate::model::SourceObject;
use crate::model::istio::{ClientTls, DestinationRule, TrafficPolicy};
use crate::model::k8s;
use crate::translate::SourceResult;

pub(super) fn translate(
    ctx: &Ctx,
    position: usize,
    obj: &SourceObject,
    dr: &DestinationRule,
) -> SourceResult {
    let mut result = SourceResult::new(position);
    let notes = &mut result.notes;
    unknown::report(&dr.extra, "spec", notes);
    let Some(host) = dr.host.as_deref() else {
        notes.push(
            Diagnostic::new(
                Code::IstioDestinationRuleHostMissing,
                "DestinationRule has no host; nothing translated",
            )
            .at("spec.host"),
        );
        return result;
    };
    let service = match hosts::classify(host, &obj.namespace, &ctx.config.cluster_domain) {
        HostKind::Service { name, namespace } => Some((name, namespace)),
        HostKind::Ambiguous { name, namespace }
            if ctx.index.service(&namespace, &name).is_some() =>
        {
            Some((name, namespace))
        }
        _ => None,
    };
    if !dr.export_to.is_empty() {
        notes.push(Diagnostic::new(Code::IstioExportTo, "exportTo has no Gateway API equivalent (policies apply where their target Service is)").at("spec.exportTo"));
    }
    if dr.workload_selector.is_some() {
        notes.push(Diagnostic::new(Code::IstioWorkloadSelector, "workloadSelector (client-side scoping) has no Gateway API equivalent; a BackendTLSPolicy applies to every client of the Service").at("spec.workloadSelector"));
    }
    for (i, subset) in dr.subsets.iter().enumerate() {
        let field = format!("spec.subsets[{i}]");
        unknown::report(&subset.extra, &field, notes);
        let sname = subset.name.clone().unwrap_or_default();
        let labels: Vec<String> = subset
            .labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let target = match &service {
            Some((name, ns)) => format!(
                "Service {ns}/{}",
                names::sanitize(&format!("{name}-{sname}"), 63)
            ),
            None => format!("a Service for host {host} subset {sname}"),
        };
        notes.push(Diagnostic::new(Code::IstioSubset, format!("subset '{sname}' ({}) has no Gateway API equivalent: create {target} whose selector adds these labels; routes reference it", labels.join(","))).at(field.clone()));
        if let Some(stp) = &subset.traffic_policy {
            let fields: Vec<&str> = stp
                .extra
                .keys()
                .chain(
                    stp.port_level_settings
                        .iter()
                        .flat_map(|pl| pl.extra.keys()),
                )
                .map(String::as_str)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            if !fields.is_empty() {
                notes.push(Diagnostic::new(Code::IstioSubsetTrafficPolicy, format!("subset trafficPolicy {} is not translated: routes now send this subset's traffic to {target}, another Istio host, so write a DestinationRule for it (tls is translated to its BackendTLSPolicy)", fields.join(", "))).at(format!("{field}.trafficPolicy")));
            }
        }
    }
    // `exportTo` is judged from the client's namespace (push_context.go `destinationRule`):
    // a DestinationRule no gateway proxy can see never applied to gateway traffic, and a
    // BackendTLSPolicy would add TLS that traffic never had.
    let proxies = ctx.gateway_proxy_namespaces();
    let exported = export_to(ctx, dr);
    if !exported.is_empty()
        && !proxies.is_empty()
        && !proxies
            .iter()
            .any(|ns| crate::semantics::istio::visible_from(&exported, &obj.namespace, ns))
    {
        let listed: Vec<&str> = proxies.iter().copied().collect();
        notes.push(Diagnostic::new(Code::IstioDestinationRuleNotVisible, format!("exportTo hides this DestinationRule from the gateway proxies (namespace {}), so Istio's gateways never applied it: nothing is translated for Gateway API traffic (sidecars that see it keep using it)", listed.join(", "))).at("spec.exportTo"));
        return result;
    }
    if let Some((name, ns)) = &service
        && let [proxy_ns] = proxies.iter().copied().collect::<Vec<_>>()[..]
        && let Some(chosen) = gateway_choice(ctx, name, ns, proxy_ns)
        && !chosen.contains(&(obj.namespace.as_str(), obj.name()))
    {
        let names: Vec<String> = chosen.iter().map(|(n, m)| format!("{n}/{m}")).collect();
        let message = if names.is_empty() {
            format!(
                "the gateway proxy (namespace {proxy_ns}) applies no DestinationRule to Service {ns}/{name}: Istio looks in the proxy's namespace, then the Service's, then the root namespace, and this one is not there or not exported to the proxy; nothing is translated for Gateway API traffic"
            )
        } else {
            format!(
                "the gateway proxy (namespace {proxy_ns}) uses {} for Service {ns}/{name}, which Istio looks up before this one (proxy namespace, then the Service's, then the root namespace): nothing is translated for Gateway API traffic",
                names.join(", ")
            )
        };
        notes.push(Diagnostic::new(Code::IstioDestinationRuleNotVisible, message).at("spec.host"));
        return result;
    }
    let top = dr.traffic_policy.as_ref();
    let versioned: Vec<String> = match &service {
        Some((svc_name, _)) => dr
            .subsets
            .iter()
            .filter_map(|s| s.name.as_deref())
            .map(|sname| names::sanitize(&format!("{svc_name}-{sname}"), 63))
            .collect(),
        None => Vec::new(),
    };
    if let Some(tp) = top {
        extra_policy_notes(&tp.extra, "spec.trafficPolicy", ctx, &versioned, notes);
        // A port's own load balancer, pool and ejection replace the DestinationRule's for
        // that port (util.go `GetPortLevelTrafficPolicy`): the same story, per port.
        for (j, pl) in tp.port_level_settings.iter().enumerate() {
            let path = format!("spec.trafficPolicy.portLevelSettings[{j}]");
            extra_policy_notes(&pl.extra, &path, ctx, &versioned, notes);
        }
    }
    let has_tls = |tp: &TrafficPolicy| {
        tp.tls.is_some() || tp.port_level_settings.iter().any(|p| p.tls.is_some())
    };
    let any_tls = top.is_some_and(has_tls)
        || dr
            .subsets
            .iter()
            .filter_map(|s| s.traffic_policy.as_ref())
            .any(has_tls);
    let Some((svc_name, svc_ns)) = service else {
        if any_tls {
            notes.push(Diagnostic::new(Code::IstioDestinationRuleHost, format!("host '{host}' is not a Kubernetes Service: BackendTLSPolicy targets Services only; tls not translated")).at("spec.host"));
        }
        return result;
    };
    if let Some(tp) = top {
        let target = PolicyTarget {
            service: &svc_name,
            namespace: &svc_ns,
            sni_service: &svc_name,
            policy_name: obj.name().to_string(),
            base: true,
        };
        service_policies(ctx, obj, &target, top, None, &mut result);
        if tp.tls.is_some() && !versioned.is_empty() {
            result.notes.push(Diagnostic::new(Code::IstioSubsetTls, format!("the tls of spec.trafficPolicy applies to every subset in Istio; routes now send subset traffic to {}, so each gets its own BackendTLSPolicy (subset tls overrides it where set)", versioned.join(", "))).at("spec.trafficPolicy.tls"));
        }
    }
    // Routes send a subset's traffic to its per-version Service, which is where the subset's
    // merged tls must apply.
    for (i, subset) in dr.subsets.iter().enumerate() {
        let Some(sname) = subset.name.as_deref() else {
            continue;
        };
        let own = subset.traffic_policy.as_ref();
        if !top.is_some_and(has_tls) && !own.is_some_and(has_tls) {
            continue;
        }
        let service = names::sanitize(&format!("{svc_name}-{sname}"), 63);
        let target = PolicyTarget {
            service: &service,
            namespace: &svc_ns,
            sni_service: &svc_name,
            policy_name: format!("{}-{sname}", obj.name()),
            base: false,
        };
        service_policies(ctx, obj, &target, top, own.map(|p| (i, p)), &mut result);
    }
    result
}

/// A Service port (number, name) and the client TLS Istio uses towards it, with its field.
type PortTls = (u32, Option<String>, Option<(ClientTls, String)>);

/// The client TLS Istio uses towards `port` of the destination, and the field it comes from:
/// a port-level entry for the port replaces the whole policy (its tls, or none); then a
/// subset's port-level entry replaces that, else a subset's tls overrides it. Source: istio/istio
/// pilot/pkg/networking/util/util.go (`GetPortLevelTrafficPolicy`,
/// `MergeSubsetTrafficPolicy`), pilot/pkg/model/destination_rule.go (`MergeTrafficPolicy`).
fn effective_tls(
    top: Option<&TrafficPolicy>,
    subset: Option<(usize, &TrafficPolicy)>,
    port: u32,
) -> Option<(ClientTls, String)> {
    let at_port = |tp: &TrafficPolicy| {
        tp.port_level_settings
            .iter()
            .position(|pl| pl.port.as_ref().and_then(|p| p.number) == Some(port))
    };
    let mut tls = None;
    if let Some(tp) = top {
        tls = match at_port(tp) {
            Some(j) => tp.port_level_settings[j]
                .tls
                .clone()
                .map(|t| (t, format!("spec.trafficPolicy.portLevelSettings[{j}].tls"))),
            None => tp
                .tls
                .clone()
                .map(|t| (t, "spec.trafficPolicy.tls".to_string())),
        };
    }
    if let Some((i, sp)) = subset {
        match at_port(sp) {
            Some(j) => {
                tls = sp.port_level_settings[j].tls.clone().map(|t| {
                    (
                        t,
                        format!("spec.subsets[{i}].trafficPolicy.portLevelSettings[{j}].tls"),
                    )
                })
            }
            None => {
                if let Some(t) = &sp.tls {
                    tls = Some((t.clone(), format!("spec.subsets[{i}].trafficPolicy.tls")));
                }
            }
        }
    }
    tls.filter(|(t, _)| {
        !t.mode
            .as_deref()
            .is_none_or(|m| m.eq_ignore_ascii_case("DISABLE"))
    })
}

/// The BackendTLSPolicies of one Service (the DestinationRule's, or a per-version one): with
/// the Service's ports in the repository, the tls each port gets in Istio, one policy for the
/// whole Service when every port gets the same, else one per port (by name); without them,
/// the Service-wide tls and the port-level entries that set tls.
fn service_policies(
    ctx: &Ctx,
    obj: &SourceObject,
    target: &PolicyTarget,
    top: Option<&TrafficPolicy>,
    subset: Option<(usize, &TrafficPolicy)>,
    result: &mut SourceResult,
) {
    let ports: Vec<(u32, Option<String>)> = ctx
        .index
        .service(target.namespace, target.sni_service)
        .and_then(|s| s.spec.as_ref()?.ports.clone())
        .unwrap_or_default()
        .iter()
        .filter_map(|p| Some((u32::try_from(p.port).ok()?, p.name.clone())))
        .collect();
    if ports.is_empty() {
        let own = subset.map(|(_, p)| p);
        let own_tls = own.is_some_and(|p| p.tls.is_some() || !p.port_level_settings.is_empty());
        let merged = TrafficPolicy {
            tls: own
                .and_then(|p| p.tls.clone())
                .or_else(|| top.and_then(|p| p.tls.clone())),
            port_level_settings: match own {
                Some(p) if !p.port_level_settings.is_empty() => p.port_level_settings.clone(),
                _ => top
                    .map(|p| p.port_level_settings.clone())
                    .unwrap_or_default(),
            },
            extra: Default::default(),
        };
        let path = match subset {
            Some((i, _)) if own_tls => format!("spec.subsets[{i}].trafficPolicy"),
            _ => "spec.trafficPolicy".to_string(),
        };
        policies_for(ctx, obj, target, &merged, &path, result);
        return;
    }
    let per_port: Vec<PortTls> = ports
        .into_iter()
        .map(|(number, name)| (number, name, effective_tls(top, subset, number)))
        .collect();
    let first = per_port.first().and_then(|(_, _, t)| t.as_ref());
    let uniform = first.is_some()
        && per_port
            .iter()
            .all(|(_, _, t)| t.as_ref().map(|(_, p)| p) == first.map(|(_, p)| p));
    let notes = &mut result.notes;
    if uniform {
        if let Some((tls, path)) = first
            && let Some(p) = policy(ctx, obj, target, None, tls, path, notes)
        {
            result.generated.push(p);
        }
        return;
    }
    for (number, name, tls) in &per_port {
        let Some((tls, path)) = tls else { continue };
        let Some(section) = name else {
            notes.push(Diagnostic::new(Code::IstioPortLevelTls, format!("port {number} of Service {}/{} has no name; BackendTLSPolicy targets a port by its name (sectionName), and the ports of this Service need different tls: not translated", target.namespace, target.sni_service)).at(path.clone()));
            continue;
        };
        if let Some(p) = policy(ctx, obj, target, Some(section), tls, path, notes) {
            result.generated.push(p);
        }
    }
}

/// The Service a BackendTLSPolicy targets and how it is named.
struct PolicyTarget<'a> {
    service: &'a str,
    namespace: &'a str,
    /// The Service whose cluster name is the fallback SNI (a per-version Service serves the
    /// base Service's certificate).
    sni_service: &'a str,
    policy_name: String,
    /// The DestinationRule's own host (not a per-version Service): Istio keeps applying the
    /// DestinationRule there.
    base: bool,
}

/// BackendTLSPolicies for one Service from a (merged) trafficPolicy: one for `tls`, one per
/// port-level `tls`.
fn policies_for(
    ctx: &Ctx,
    obj: &SourceObject,
    target: &PolicyTarget,
    tp: &TrafficPolicy,
    path: &str,
    result: &mut SourceResult,
) {
    let notes = &mut result.notes;
    if let Some(tls) = &tp.tls
        && let Some(p) = policy(ctx, obj, target, None, tls, &format!("{path}.tls"), notes)
    {
        result.generated.push(p);
    }
    for (i, pl) in tp.port_level_settings.iter().enumerate() {
        let field = format!("{path}.portLevelSettings[{i}]");
        if target.base {
            extra_policy_notes(&pl.extra, &field, ctx, &[], notes);
        }
        let Some(tls) = &pl.tls else { continue };
        let number = pl.port.as_ref().and_then(|p| p.number);
        // A per-version Service has the base Service's ports.
        let section = number.and_then(|n| {
            ctx.index
                .service(target.namespace, target.sni_service)
                .and_then(|s| k8s::find_port(s, n as i32))
                .and_then(|p| p.name.clone())
        });
        let Some(section) = section else {
            notes.push(Diagnostic::new(Code::IstioPortLevelTls, format!("port {} of Service {}/{} has no name in the repository; BackendTLSPolicy targets a port by its name (sectionName): not translated", number.map(|n| n.to_string()).unwrap_or_default(), target.namespace, target.sni_service)).at(field));
            continue;
        };
        if let Some(p) = policy(
            ctx,
            obj,
            target,
            Some(&section),
            tls,
            &format!("{field}.tls"),
            notes,
        ) {
            result.generated.push(p);
        }
    }
}

fn policy(
    ctx: &Ctx,
    obj: &SourceObject,
    target: &PolicyTarget,
    section: Option<&str>,
    tls: &ClientTls,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let svc_ns = target.namespace;
    unknown::report(&tls.extra, path, notes);
    let mode = tls
        .mode
        .as_deref()
        .unwrap_or("DISABLE")
        .to_ascii_uppercase();
    match mode.as_str() {
        "DISABLE" => return None,
        "ISTIO_MUTUAL" => {
            let code = if ctx.config.target == Target::Istio {
                Code::IstioIstioMutual
            } else {
                Code::IstioIstioMutualUnsupported
            };
            let message = if code == Code::IstioIstioMutual {
                "ISTIO_MUTUAL (mesh mTLS with Istio-issued certificates) has no Gateway API equivalent; on Istio mesh mTLS applies to Gateway API traffic automatically, so nothing is generated"
            } else {
                "ISTIO_MUTUAL (mesh mTLS with Istio-issued certificates) has no Gateway API equivalent and the target is not Istio: nothing is generated, and traffic to the backend is no longer mutually authenticated unless the implementation's own mesh integration does it"
            };
            notes.push(Diagnostic::new(code, message).at(format!("{path}.mode")));
            return None;
        }
        "SIMPLE" | "MUTUAL" => {}
        other => {
            notes.push(
                Diagnostic::new(
                    Code::IstioDestinationRuleTlsMode,
                    format!("TLS mode {other} is unknown; not translated"),
                )
                .at(format!("{path}.mode")),
            );
            return None;
        }
    }
    if tls.insecure_skip_verify == Some(true) {
        notes.push(Diagnostic::new(Code::IstioInsecureSkipVerify, "insecureSkipVerify: BackendTLSPolicy always verifies the backend certificate, so no policy is generated; keep the DestinationRule (Istio) or provide the backend's CA").at(format!("{path}.insecureSkipVerify")));
        return None;
    }
    if mode == "MUTUAL" {
        notes.push(Diagnostic::new(Code::IstioBackendClientCertificate, "MUTUAL: the client certificate is not translated (Gateway API has one backend client certificate per Gateway, spec.tls.backend, which Istio does not implement); only server verification is written").at(format!("{path}.mode")));
    }
    for (field, set) in [
        ("clientCertificate", tls.client_certificate.is_some()),
        ("privateKey", tls.private_key.is_some()),
        ("caCertificates", tls.ca_certificates.is_some()),
    ] {
        if set {
            notes.push(Diagnostic::new(Code::IstioFileMountedCertificate, format!("{field} names a file mounted into the proxy (served by istio-agent over SDS); Gateway API references ConfigMaps/Secrets only: create one from the file")).at(format!("{path}.{field}")));
        }
    }
    if tls.ca_crl.is_some() {
        notes.push(
            Diagnostic::new(
                Code::IstioCaCrl,
                "caCrl has no Gateway API equivalent; revocation is not checked",
            )
            .at(format!("{path}.caCrl")),
        );
    }
    let mut validation = BackendTlsValidation::default();
    match &tls.credential_name {
        Some(cred) => {
            notes.push(Diagnostic::new(Code::IstioBackendCaConfigmap, format!("CA of credentialName '{cred}' must be provided as ConfigMap {svc_ns}/{cred} with key ca.crt (BackendTLSPolicy references ConfigMaps; Istio reads the Secret)")).at(format!("{path}.credentialName")));
            validation.ca_certificate_refs.push(LocalObjectReference {
                group: String::new(),
                kind: "ConfigMap".into(),
                name: cred.clone(),
            });
        }
        None if tls.ca_certificates.is_some() => {
            notes.push(Diagnostic::new(Code::IstioBackendCaUnknown, "the CA is a mounted file: no BackendTLSPolicy generated until it is provided as a ConfigMap").at(format!("{path}.caCertificates")));
            return None;
        }
        None => validation.well_known_ca_certificates = Some("System".into()),
    }
    validation.hostname = match &tls.sni {
        Some(sni) => sni.to_ascii_lowercase(),
        None => {
            let fqdn = format!(
                "{}.{svc_ns}.svc.{}",
                target.sni_service, ctx.config.cluster_domain
            );
            notes.push(Diagnostic::new(Code::IstioBackendTlsSni, format!("sni unset: Istio derives it per request, BackendTLSPolicy needs a fixed hostname; '{fqdn}' written, check it matches the backend certificate")).at(path.to_string()));
            fqdn
        }
    };
    for san in tls.subject_alt_names.iter().take(5) {
        validation.subject_alt_names.push(if san.contains("://") {
            SubjectAltName {
                type_: "URI".into(),
                hostname: None,
                uri: Some(san.clone()),
            }
        } else {
            SubjectAltName {
                type_: "Hostname".into(),
                hostname: Some(san.to_ascii_lowercase()),
                uri: None,
            }
        });
    }
    if tls.subject_alt_names.len() > 5 {
        notes.push(
            Diagnostic::new(
                Code::IstioBackendTlsSanLimit,
                "more than 5 subjectAltNames; BackendTLSPolicy allows 5, the rest were dropped",
            )
            .at(format!("{path}.subjectAltNames")),
        );
    }
    if svc_ns != obj.namespace {
        notes.push(Diagnostic::new(Code::IstioBackendTlsNamespace, format!("BackendTLSPolicy written to namespace {svc_ns}, the Service's (policies target local objects only)")));
    }
    if ctx.config.target == Target::Istio && target.base {
        notes.push(Diagnostic::new(Code::IstioDestinationRuleTlsDuplicate, "on Istio this DestinationRule's tls keeps applying to Gateway API traffic: remove its tls (or the DestinationRule) once the BackendTLSPolicy is applied, so the two do not conflict").at(path.to_string()));
    }
    let name = match section {
        Some(s) => format!("{}-{s}", target.policy_name),
        None => target.policy_name.clone(),
    };
    Some(Generated::BackendTlsPolicy(Object::new(
        gwapi::V1,
        "BackendTLSPolicy",
        Metadata::new(names::sanitize(&name, names::MAX_NAME), svc_ns.to_string()),
        BackendTlsPolicySpec {
            target_refs: vec![PolicyTargetReference {
                group: String::new(),
                kind: "Service".into(),
                name: target.service.to_string(),
                section_name: section.map(str::to_string),
            }],
            validation,
            options: Default::default(),
        },
    )))
}

/// Traffic-policy fields other than tls (also at port level). `versioned` are the
/// per-version Services routes now send subset traffic to: Istio sees them as other hosts, so
/// this DestinationRule no longer applies to that traffic.
/// The DestinationRules the gateway proxy in `proxy_ns` uses for Service `ns/name`, as
/// `push_context.go` `destinationRule` picks them: those of the proxy's namespace (in the
/// root namespace only those exported to `.`), else those of the Service's namespace exported
/// to the proxy, else those of the root namespace exported to it. `None` when a rule for the
/// Service names it by a wildcard (the choice is not followed then) or none applies.
/// Where a DestinationRule is visible: its `exportTo`, else the mesh's
/// `defaultDestinationRuleExportTo` (`push_context.go` `setDestinationRules`; unset: every
/// namespace).
pub(super) fn export_to(ctx: &Ctx, d: &DestinationRule) -> Vec<String> {
    if !d.export_to.is_empty() {
        return d.export_to.clone();
    }
    ctx.index
        .istio_mesh()
        .and_then(|m| m.mesh.get("defaultDestinationRuleExportTo"))
        .and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn gateway_choice<'a>(
    ctx: &'a Ctx,
    name: &str,
    ns: &str,
    proxy_ns: &str,
) -> Option<Vec<(&'a str, &'a str)>> {
    // meshConfig `rootNamespace`, Istio's default.
    let root = "istio-system";
    let mut for_service: Vec<(&SourceObject, &DestinationRule)> = Vec::new();
    for (o, d) in ctx.index.destination_rules() {
        let host = d.host.as_deref().unwrap_or_default();
        if host.contains('*') {
            return None;
        }
        match hosts::classify(host, &o.namespace, &ctx.config.cluster_domain) {
            HostKind::Service {
                name: n,
                namespace: m,
            } if n == name && m == ns => {
                for_service.push((o, d));
            }
            _ => {}
        }
    }
    let visible = |o: &SourceObject, d: &DestinationRule| {
        crate::semantics::istio::visible_from(&export_to(ctx, d), &o.namespace, proxy_ns)
    };
    let in_tier = |tier: usize, o: &SourceObject, d: &DestinationRule| match tier {
        0 => {
            o.namespace == proxy_ns
                && (proxy_ns != root || export_to(ctx, d).iter().any(|e| e == "."))
        }
        1 => o.namespace == ns && visible(o, d),
        _ => o.namespace == root && visible(o, d),
    };
    // `None` above: a wildcard host may apply, not worked out; `Some(empty)`: no rule applies.
    Some(
        (0..3)
            .find_map(|tier| {
                let chosen: Vec<(&str, &str)> = for_service
                    .iter()
                    .filter(|(o, d)| in_tier(tier, o, d))
                    .map(|(o, _)| (o.namespace.as_str(), o.name()))
                    .collect();
                (!chosen.is_empty()).then_some(chosen)
            })
            .unwrap_or_default(),
    )
}

fn extra_policy_notes(
    extra: &crate::model::istio::Extra,
    path: &str,
    ctx: &Ctx,
    versioned: &[String],
    notes: &mut Vec<Diagnostic>,
) {
    for key in extra.keys() {
        let known = matches!(
            key.as_str(),
            "loadBalancer"
                | "connectionPool"
                | "outlierDetection"
                | "tunnel"
                | "proxyProtocol"
                | "retryBudget"
        );
        if !known {
            notes.push(Diagnostic::new(Code::IstioUnknownField, format!("field '{key}' is not part of the Istio API this tool knows; it was not translated")).at(format!("{path}.{key}")));
            continue;
        }
        let (code, message) = if ctx.config.target == Target::Istio && !versioned.is_empty() {
            (
                Code::IstioTrafficPolicyLost,
                format!(
                    "{key} has no standard Gateway API equivalent; Istio keeps applying this DestinationRule to traffic for its host only: traffic routed to the per-version Services {} no longer gets it, so copy {key} into a DestinationRule for each",
                    versioned.join(", ")
                ),
            )
        } else if ctx.config.target == Target::Istio {
            (
                Code::IstioTrafficPolicyKept,
                format!(
                    "{key} has no standard Gateway API equivalent; Istio keeps applying this DestinationRule to Gateway API traffic, so keep it"
                ),
            )
        } else {
            (
                Code::IstioTrafficPolicyLost,
                format!(
                    "{key} has no standard Gateway API equivalent and the target does not read DestinationRules: traffic to this host loses it (configure the implementation's own backend policy)"
                ),
            )
        };
        notes.push(Diagnostic::new(code, message).at(format!("{path}.{key}")));
    }
}
