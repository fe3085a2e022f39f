//! ingress-nginx's access controls, read into the [`Control`]s `translate::target` writes as
//! the target's policy (or fails closed on): per Ingress, in the order nginx's access phase
//! runs them (`rootfs/etc/nginx/template/nginx.tmpl`: the ConfigMap's `block-cidrs` as an
//! http-level `deny`, then the location's `deny` lines, its `allow` lines and `deny all`,
//! then authentication).
//!
//! - `allowlist-source-range` (alias `whitelist-source-range`; `ipallowlist/main.go`
//!   `Parse`), else the ConfigMap's `whitelist-source-range`; `denylist-source-range`
//!   (`ipdenylist`), else the ConfigMap's. Entries are split at `,`, trimmed, read as CIDRs or
//!   bare addresses (`internal/net/ipnet.go` `ParseIPNets`); one that is neither denies the
//!   location (`LocationDeniedError`).
//! - `auth-type` (`basic`/`digest`), `auth-secret` (`namespace/name` or a name in the
//!   Ingress's namespace; another namespace only with `allow-cross-namespace-resources`),
//!   `auth-secret-type` (`auth-file`: key `auth` holds an htpasswd file; `auth-map`: a key per
//!   user), `auth-realm` (`auth/main.go` `Parse`).
//! - `auth-url` with `auth-response-headers` (`authreq/main.go` `Parse`: the names split at
//!   `,` and trimmed), else the ConfigMap's `global-auth-url` unless the Ingress sets
//!   `enable-global-auth: "false"` (template.go `shouldApplyGlobalAuth`).
//! - `auth-tls-secret` with `auth-tls-verify-client` `on` (the default; `authtls/main.go`
//!   `Parse`): clients without a certificate the CA signed are refused.

use std::collections::BTreeMap;

use crate::target::Control as Kind;
use crate::translate::target::{Control, Detail};

use super::super::ir::IngressPlan;
use super::{Annotations, PREFIX, field};

/// The annotations read here, each with the control it is (or is part of): the coverage
/// table of `docs/targets.md` is generated from it.
pub(crate) const ANNOTATIONS: &[(&str, Kind)] = &[
    ("allowlist-source-range", Kind::SourceAllowList),
    ("whitelist-source-range", Kind::SourceAllowList),
    ("denylist-source-range", Kind::SourceDenyList),
    ("auth-type", Kind::BasicAuth),
    ("auth-secret", Kind::BasicAuth),
    ("auth-secret-type", Kind::BasicAuth),
    ("auth-realm", Kind::BasicAuth),
    ("auth-url", Kind::ExternalAuth),
    ("auth-response-headers", Kind::ExternalAuth),
    ("auth-tls-secret", Kind::ClientCertificate),
];

/// The controller's ConfigMap keys read here, with their control.
pub(crate) const SETTINGS: &[(&str, Kind)] = &[
    ("whitelist-source-range", Kind::SourceAllowList),
    ("denylist-source-range", Kind::SourceDenyList),
    ("block-cidrs", Kind::SourceDenyList),
    ("global-auth-url", Kind::ExternalAuth),
];

/// Whether this module reads annotation `key`.
pub(crate) fn reads(key: &str) -> bool {
    ANNOTATIONS.iter().any(|(k, _)| *k == key)
}

/// The access controls of the plan's locations.
pub(crate) fn read(
    plan: &mut IngressPlan,
    ann: &Annotations,
    settings: Option<&BTreeMap<String, String>>,
) {
    // SSL passthrough is proxied at the TCP level: no location, so no access phase.
    if plan.passthrough {
        return;
    }
    let setting = |key: &str| {
        settings
            .and_then(|s| s.get(key))
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    };
    let mut controls = Vec::new();
    // `block-cidrs` is an http-level `deny`: a location with an allow- or deny-list of its own
    // (annotation or ConfigMap default) does not inherit it (`ngx_http_access_merge_loc_conf`).
    let own_lists = [
        "allowlist-source-range",
        "whitelist-source-range",
        "denylist-source-range",
    ]
    .iter()
    .any(|k| ann.get(k).is_some())
        || setting("whitelist-source-range").is_some()
        || setting("denylist-source-range").is_some();
    if let Some(cidrs) = setting("block-cidrs").filter(|_| !own_lists) {
        controls.push(ranges(
            Kind::SourceDenyList,
            cidrs,
            "the controller's ConfigMap block-cidrs",
            "spec",
        ));
    }
    match ann.get("denylist-source-range") {
        Some(v) => controls.push(ranges(
            Kind::SourceDenyList,
            v,
            &format!("{PREFIX}denylist-source-range"),
            &field("denylist-source-range"),
        )),
        None => {
            if let Some(v) = setting("denylist-source-range") {
                controls.push(ranges(
                    Kind::SourceDenyList,
                    v,
                    "the controller's ConfigMap denylist-source-range",
                    "spec",
                ));
            }
        }
    }
    // `parser.GetStringAnnotation`: an empty value is missing, so the alias is read.
    let allow_key = ["allowlist-source-range", "whitelist-source-range"]
        .into_iter()
        .find(|k| ann.get(k).is_some_and(|v| !v.trim().is_empty()));
    match allow_key {
        Some(key) => controls.push(ranges(
            Kind::SourceAllowList,
            ann.get(key).unwrap_or_default(),
            &format!("{PREFIX}{key}"),
            &field(key),
        )),
        None => {
            if let Some(v) = setting("whitelist-source-range") {
                controls.push(ranges(
                    Kind::SourceAllowList,
                    v,
                    "the controller's ConfigMap whitelist-source-range",
                    "spec",
                ));
            }
        }
    }
    if let Some(kind) = ann.get("auth-type") {
        controls.push(basic_or_digest(plan, ann, kind, settings));
    }
    if let Some(url) = ann.get("auth-url") {
        let headers = ann
            .get("auth-response-headers")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(str::to_string)
            .collect();
        controls.push(Control {
            kind: Kind::ExternalAuth,
            detail: Detail::Endpoint {
                url: url.to_string(),
                response_headers: headers,
            },
            origin: format!("{PREFIX}auth-url"),
            field: field("auth-url"),
        });
    } else if let Some(url) = setting("global-auth-url").filter(|u| super::valid_auth_url(u))
        && ann.flag("enable-global-auth") != Some(false)
        && !every_path_exempt(plan, setting("no-auth-locations"))
    {
        controls.push(Control {
            kind: Kind::ExternalAuth,
            detail: Detail::Endpoint {
                url: url.to_string(),
                response_headers: Vec::new(),
            },
            origin: "the controller's ConfigMap global-auth-url".into(),
            field: "spec".into(),
        });
        let exempt = exempt_paths(plan, setting("no-auth-locations"));
        if !exempt.is_empty() {
            plan.result.notes.push(
                crate::diagnostic::Diagnostic::new(
                    crate::diagnostic::Code::TargetAccessScope,
                    format!(
                        "ingress-nginx ran no global external auth on {} (no-auth-locations), but a policy covers every path of the Ingress's routes: those paths now need it too (refused clients stay refused); move them to an Ingress of their own to keep them open",
                        exempt.join(", ")
                    ),
                )
                .at("spec"),
            );
        }
    }
    // authtls/main.go `Parse`: `auth-tls-verify-client` defaults to `on`, and a value other
    // than on|off|optional|optional_no_ca is `on` too; only `on` refuses clients without a
    // valid certificate.
    if let Some(secret) = ann.get("auth-tls-secret") {
        let verify = ann.get("auth-tls-verify-client").unwrap_or("on");
        let verify = if ["on", "off", "optional", "optional_no_ca"].contains(&verify) {
            verify
        } else {
            "on"
        };
        if verify == "on" {
            controls.push(Control {
                kind: Kind::ClientCertificate,
                detail: Detail::Secret {
                    namespace: secret
                        .split_once('/')
                        .map_or(plan.namespace.clone(), |(ns, _)| ns.to_string()),
                    name: secret
                        .split_once('/')
                        .map_or(secret, |(_, n)| n)
                        .to_string(),
                    secret_type: "ca.crt".into(),
                },
                origin: format!("{PREFIX}auth-tls-secret"),
                field: field("auth-tls-secret"),
            });
        }
    }
    // The policies written for the new Gateway check the address of whatever connects to it
    // (a load balancer) unless its client IP detection is set up to match, which the tool
    // does not write yet.
    if let Some(key) = super::forwarded_client_address(settings) {
        for c in controls.iter_mut().filter(|c| {
            matches!(c.kind, Kind::SourceAllowList | Kind::SourceDenyList)
                && matches!(c.detail, Detail::Ranges(_))
        }) {
            c.detail = Detail::NotCarried(format!(
                "the controller's {key} made nginx check the forwarded client address, while the new Gateway's policy would check the address of whatever connects to it (a load balancer's) until its client IP detection is configured to match (Envoy Gateway ClientTrafficPolicy clientIPDetection, Istio numTrustedProxies)"
            ));
        }
    }
    plan.access = controls;
}

/// One range list; an entry that is neither a CIDR nor an address denies the location.
fn ranges(kind: Kind, value: &str, origin: &str, field: &str) -> Control {
    let mut cidrs = Vec::new();
    let mut bad = None;
    for entry in value.split(',').map(str::trim) {
        match cidr(entry) {
            Some(c) => cidrs.push(c),
            None => {
                bad.get_or_insert(entry.to_string());
            }
        }
    }
    cidrs.sort();
    cidrs.dedup();
    Control {
        kind,
        detail: match bad {
            Some(entry) => Detail::NotCarried(format!(
                "{entry:?} is neither an address nor a CIDR, so ingress-nginx denied every request to these paths"
            )),
            None => Detail::Ranges(cidrs),
        },
        origin: origin.to_string(),
        field: field.to_string(),
    }
}

/// An entry as a CIDR with its prefix length (a bare address is the host's `/32` or
/// `/128`), host bits kept as written: the writers' CRDs accept them and the data planes
/// mask them.
pub(crate) fn cidr(entry: &str) -> Option<String> {
    let (addr, bits) = match entry.split_once('/') {
        Some((a, b)) => (a, Some(b)),
        None => (entry, None),
    };
    let ip: std::net::IpAddr = addr.parse().ok()?;
    let max: u8 = if ip.is_ipv4() { 32 } else { 128 };
    let bits: u8 = match bits {
        None => max,
        Some(b) if !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()) => b.parse().ok()?,
        Some(_) => return None,
    };
    if bits > max {
        return None;
    }
    // Go's `net.ParseCIDR` and `ParseIP` give an IPv4-mapped address (`::ffff:10.0.0.0/104`)
    // as IPv4 (`10.0.0.0/8`), which is how ingress-nginx wrote it; an IPv6 range would never
    // match an IPv4 client on the new Gateway.
    if let std::net::IpAddr::V6(v6) = ip
        && let Some(v4) = v6.to_ipv4_mapped()
        && bits >= 96
    {
        return Some(format!("{v4}/{}", bits - 96));
    }
    Some(format!("{ip}/{bits}"))
}

fn basic_or_digest(
    plan: &IngressPlan,
    ann: &Annotations,
    kind: &str,
    settings: Option<&BTreeMap<String, String>>,
) -> Control {
    let origin = format!("{PREFIX}auth-type");
    let unreadable = |why: String| Control {
        kind: Kind::BasicAuth,
        detail: Detail::NotCarried(why),
        origin: origin.clone(),
        field: field("auth-type"),
    };
    // `authTypeRegex` (`basic|digest`) is matched anywhere in the value, and nginx.tmpl
    // writes `auth_basic` only for exactly `basic`: any other accepted value is digest.
    let digest = kind != "basic";
    if !kind.contains("basic") && !kind.contains("digest") {
        return unreadable(format!(
            "auth-type {kind:?} is neither basic nor digest, so ingress-nginx denied every request to these paths"
        ));
    }
    let Some(secret) = ann.get("auth-secret").filter(|s| !s.is_empty()) else {
        return unreadable(
            "auth-type is set without auth-secret, so ingress-nginx denied every request to these paths"
                .into(),
        );
    };
    let (namespace, name) = match secret.split_once('/') {
        Some((ns, name)) if !ns.is_empty() => (ns.to_string(), name.to_string()),
        Some((_, name)) => (plan.namespace.clone(), name.to_string()),
        None => (plan.namespace.clone(), secret.to_string()),
    };
    let cross_allowed = settings
        .and_then(|s| s.get("allow-cross-namespace-resources"))
        .is_some_and(|v| super::parse_bool(v) == Some(true));
    if namespace != plan.namespace && !cross_allowed {
        return unreadable(format!(
            "auth-secret {secret:?} is in another namespace and the controller does not allow-cross-namespace-resources, so ingress-nginx denied every request to these paths"
        ));
    }
    let secret_type = ann
        .get("auth-secret-type")
        .unwrap_or("auth-file")
        .to_string();
    Control {
        kind: if digest {
            Kind::DigestAuth
        } else {
            Kind::BasicAuth
        },
        detail: Detail::Secret {
            namespace,
            name,
            secret_type,
        },
        origin,
        field: field("auth-type"),
    }
}

/// The plan's paths that start with one of `no-auth-locations` (default
/// `/.well-known/acme-challenge`; template.go `isLocationInLocationList`: a string prefix),
/// where global auth does not run.
fn exempt_paths(plan: &IngressPlan, no_auth: Option<&str>) -> Vec<String> {
    let exempt: Vec<&str> = no_auth
        .unwrap_or("/.well-known/acme-challenge")
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let mut out: Vec<String> = plan
        .hosts
        .iter()
        .flat_map(|h| h.rules.iter().map(|r| r.source_path.as_str()))
        .filter(|p| exempt.iter().any(|e| p.starts_with(e)))
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether global auth runs on none of the plan's paths.
fn every_path_exempt(plan: &IngressPlan, no_auth: Option<&str>) -> bool {
    let paths: std::collections::BTreeSet<&str> = plan
        .hosts
        .iter()
        .flat_map(|h| h.rules.iter().map(|r| r.source_path.as_str()))
        .collect();
    !paths.is_empty() && exempt_paths(plan, no_auth).len() == paths.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    // ingress-nginx internal/net/ipnet_test.go: addresses and networks, trimmed.
    #[test]
    fn entries_become_cidrs() {
        assert_eq!(cidr("10.0.0.0/8").as_deref(), Some("10.0.0.0/8"));
        assert_eq!(cidr("192.168.0.1").as_deref(), Some("192.168.0.1/32"));
        assert_eq!(cidr("2001:db8::1").as_deref(), Some("2001:db8::1/128"));
        assert_eq!(cidr("10.0.0.0/33"), None);
        assert_eq!(cidr("::ffff:10.0.0.0/104").as_deref(), Some("10.0.0.0/8"));
        assert_eq!(cidr("::ffff:192.0.2.1").as_deref(), Some("192.0.2.1/32"));
        assert_eq!(cidr("10.0.0.0/"), None);
        assert_eq!(cidr("example.com"), None);
        let c = ranges(Kind::SourceAllowList, " 10.0.0.0/8 , 192.168.0.1", "o", "f");
        assert_eq!(
            c.detail,
            Detail::Ranges(vec!["10.0.0.0/8".into(), "192.168.0.1/32".into()])
        );
        let bad = ranges(Kind::SourceAllowList, "10.0.0.0/8, nope", "o", "f");
        assert!(matches!(bad.detail, Detail::NotCarried(_)));
    }
}
