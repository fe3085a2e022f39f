//! Envoy Gateway `SecurityPolicy` (`gateway.envoyproxy.io/v1alpha1`, envoyproxy/gateway
//! v1.9.0 `api/v1alpha1/securitypolicy_types.go`): one per source object, in its routes'
//! namespace, with `targetRefs` naming each of its forwarding routes (a policy on a route
//! applies to every rule of it).
//!
//! - Allow- and deny-lists become `authorization` (`authorization_types.go`): the deny
//!   lists' `Deny` rules first, then one `Allow` rule, `defaultAction: Deny` when there is an
//!   allow-list (else `Allow`): rules are evaluated in order and the first match decides, as
//!   nginx's `deny`/`allow`/`deny all` lines. `clientCIDRs` must be CIDRs (the `CIDR` type's
//!   pattern), so a bare address is written as its `/32` or `/128`.
//! - Basic authentication becomes `basicAuth.users` naming the same Secret
//!   (`basic_auth_types.go`). Envoy Gateway reads key `.htpasswd` with `{SHA}` hashes only;
//!   a Secret without it makes the policy invalid, and Envoy Gateway then answers 500 on the
//!   routes (`internal/gatewayapi/securitypolicy.go`: "return a 500 direct response to avoid
//!   unauthorized access"), so a missing key fails closed. A warning says what to add.
//! - External authentication becomes `extAuth.http` (`ext_auth_types.go`) calling the
//!   cluster Service the URL names, at `pathOverride` = the URL's path (`path` would add the
//!   request's own path after it), with `auth-response-headers` as `headersToBackend`. Only
//!   Host, Method, Path, Content-Length and Authorization reach the service unless
//!   `headersToExtAuth` names more, where nginx forwarded every request header: `cookie` is
//!   added (session cookies are what authentication services read), and a warning lists the
//!   rest. A URL that does not name a cluster Service over plain HTTP is refused: reaching
//!   anything else needs a `Backend` resource or a BackendTLSPolicy this tool cannot write.

use serde::Serialize;

use super::super::{Control, Detail, Namer, Protection, RouteScope};
use super::{API_VERSION, TargetRef};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{Generated, Metadata, Object};
use crate::target::Control as Kind;
use crate::translated::GrantRequest;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    target_refs: Vec<TargetRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    authorization: Option<Authorization>,
    #[serde(skip_serializing_if = "Option::is_none")]
    basic_auth: Option<BasicAuth>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ext_auth: Option<ExtAuth>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Authorization {
    default_action: &'static str,
    rules: Vec<AuthorizationRule>,
}

#[derive(Debug, Serialize)]
struct AuthorizationRule {
    name: String,
    action: &'static str,
    principal: Principal,
}

#[derive(Debug, Serialize)]
struct Principal {
    #[serde(rename = "clientCIDRs")]
    client_cidrs: Vec<String>,
}

#[derive(Debug, Serialize)]
struct BasicAuth {
    users: SecretRef,
}

#[derive(Debug, Serialize)]
struct SecretRef {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExtAuth {
    http: HttpExtAuth,
    headers_to_ext_auth: Vec<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct HttpExtAuth {
    backend_refs: Vec<ServiceRef>,
    path_override: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    headers_to_backend: Vec<String>,
}

#[derive(Debug, Serialize)]
struct ServiceRef {
    group: &'static str,
    kind: &'static str,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<String>,
    port: u32,
}

/// A cluster Service an authentication URL names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct AuthService {
    pub(crate) name: String,
    pub(crate) namespace: String,
    pub(crate) port: u32,
    pub(crate) path: String,
}

/// The Service of `http://name.namespace.svc[.cluster.local][:port]/path`, or why the URL
/// cannot be called that way.
pub(crate) fn auth_service(url: &str) -> Result<AuthService, String> {
    if url.contains('$') {
        return Err(format!(
            "{url:?} uses nginx variables, which Envoy Gateway cannot expand"
        ));
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return Err(format!(
            "{url:?} is not a plain-HTTP URL; Envoy Gateway calls a service over TLS only with a BackendTLSPolicy for it, which this tool cannot write (it needs the service's CA and name)"
        ));
    };
    let split = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, target) = rest.split_at(split);
    if target.contains(['?', '#']) {
        return Err(format!(
            "{url:?} has a query, which extAuth's pathOverride cannot carry"
        ));
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => match p.parse::<u32>() {
            Ok(port) if (1..=65535).contains(&port) => (h, port),
            _ => return Err(format!("{url:?} has no valid port")),
        },
        None => (authority, 80),
    };
    let host = host.to_ascii_lowercase();
    let service = host
        .strip_suffix(".svc.cluster.local")
        .or_else(|| host.strip_suffix(".svc"));
    let Some((name, namespace)) = service.and_then(|s| s.split_once('.')) else {
        return Err(format!(
            "{host:?} is not written as a cluster Service (name.namespace.svc or name.namespace.svc.cluster.local); Envoy Gateway reaches other hosts only through a Backend resource, which needs its Backend API enabled"
        ));
    };
    if name.is_empty() || namespace.is_empty() || namespace.contains('.') {
        return Err(format!("{host:?} does not name one Service"));
    }
    Ok(AuthService {
        name: name.to_string(),
        namespace: namespace.to_string(),
        port,
        path: if target.is_empty() {
            "/".to_string()
        } else {
            target.to_string()
        },
    })
}

/// The SecurityPolicy for `controls` on `routes`, or the controls it cannot carry (by
/// position in `controls`) and why.
pub(crate) fn write(
    controls: &[Control],
    routes: &[RouteScope],
    source: (&str, &str),
    names: &mut Namer,
) -> Result<Protection, Vec<(usize, String)>> {
    let namespace = routes[0].namespace.clone();
    let mut refused = Vec::new();
    let mut denies: Vec<(String, Vec<String>)> = Vec::new();
    let mut allow: Option<Vec<String>> = None;
    let mut basic = None;
    let mut ext = None;
    for (i, c) in controls.iter().enumerate() {
        match (&c.kind, &c.detail) {
            (Kind::SourceDenyList, Detail::Ranges(r)) => denies.push((c.origin.clone(), r.clone())),
            (Kind::SourceAllowList, Detail::Ranges(r)) => allow = Some(r.clone()),
            (
                Kind::BasicAuth,
                Detail::Secret {
                    namespace,
                    name,
                    secret_type,
                },
            ) => basic = Some((c, namespace, name, secret_type)),
            (
                Kind::ExternalAuth,
                Detail::Endpoint {
                    url,
                    response_headers,
                },
            ) => match auth_service(url) {
                Ok(s) => ext = Some((c, s, response_headers)),
                Err(why) => refused.push((i, why)),
            },
            _ => refused.push((
                i,
                format!("Envoy Gateway has no field for {}", c.kind.describe()),
            )),
        }
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    let name = names(&namespace, "SecurityPolicy", source.1);
    let mut out = Protection::default();
    let mut rules: Vec<AuthorizationRule> = denies
        .iter()
        .enumerate()
        .filter(|(_, (_, r))| !r.is_empty())
        .map(|(i, (_, r))| AuthorizationRule {
            name: if i == 0 {
                "deny".into()
            } else {
                format!("deny-{}", i + 1)
            },
            action: "Deny",
            principal: Principal {
                client_cidrs: r.clone(),
            },
        })
        .collect();
    // An empty allow-list is no allow rule: every client is refused by the default.
    if let Some(r) = allow.as_ref().filter(|r| !r.is_empty()) {
        rules.push(AuthorizationRule {
            name: "allow".into(),
            action: "Allow",
            principal: Principal {
                client_cidrs: r.clone(),
            },
        });
    }
    let authorization = (!rules.is_empty() || allow.is_some()).then(|| Authorization {
        default_action: if allow.is_some() { "Deny" } else { "Allow" },
        rules,
    });
    let basic_auth = basic.map(|(c, secret_ns, secret, secret_type)| {
        if *secret_ns != namespace {
            out.grants.push(grant(&namespace, "Secret", secret_ns, secret));
        }
        out.notes.push(
            Diagnostic::new(
                Code::TargetBasicAuthSecret,
                format!(
                    "Envoy Gateway reads the users of SecurityPolicy {namespace}/{name} from key .htpasswd of Secret {secret_ns}/{secret}, with {{SHA}} password hashes only; ingress-nginx read {}: add a .htpasswd key with {{SHA}} hashes (htpasswd -s) before cutting over. Until it is there Envoy Gateway answers 500 on these routes rather than let a request through",
                    if secret_type == "auth-map" {
                        "one key per user (auth-secret-type auth-map)".to_string()
                    } else {
                        "key auth (an htpasswd file, any hash)".to_string()
                    }
                ),
            )
            .at(c.field.clone()),
        );
        BasicAuth {
            users: SecretRef {
                name: secret.clone(),
                namespace: (*secret_ns != namespace).then(|| secret_ns.clone()),
            },
        }
    });
    let ext_auth = ext.map(|(c, service, response_headers)| {
        if service.namespace != namespace {
            out.grants
                .push(grant(&namespace, "Service", &service.namespace, &service.name));
        }
        out.notes.push(
            Diagnostic::new(
                Code::TargetExtAuthRequest,
                format!(
                    "SecurityPolicy {namespace}/{name} sends each check to Service {}/{} port {} at {} with the request's Host, method, path, Content-Length, Authorization and Cookie headers; ingress-nginx sent every request header, Host {}.{}.svc…, and X-Original-URL, X-Original-Method, X-Auth-Request-Redirect, X-Forwarded-For: add the names the service reads to extAuth.headersToExtAuth",
                    service.namespace, service.name, service.port, service.path, service.name, service.namespace
                ),
            )
            .at(c.field.clone()),
        );
        ExtAuth {
            http: HttpExtAuth {
                backend_refs: vec![ServiceRef {
                    group: "",
                    kind: "Service",
                    name: service.name.clone(),
                    namespace: (service.namespace != namespace).then(|| service.namespace.clone()),
                    port: service.port,
                }],
                path_override: service.path.clone(),
                headers_to_backend: response_headers.clone(),
            },
            headers_to_ext_auth: vec!["cookie".into()],
        }
    });
    let spec = Spec {
        target_refs: routes.iter().map(TargetRef::route).collect(),
        authorization,
        basic_auth,
        ext_auth,
    };
    if spec.authorization.is_some() && (spec.basic_auth.is_some() || spec.ext_auth.is_some()) {
        // internal/xds/translator/httpfilters.go `newOrderedHTTPFilter`: ext_authz (6) and
        // basic_auth (8) run before RBAC (301); nginx's access phase ran `allow`/`deny` first.
        out.notes.push(Diagnostic::new(
            Code::TargetAccessOrder,
            format!(
                "SecurityPolicy {namespace}/{name} checks credentials before the client address (Envoy Gateway runs external and basic authentication before authorization): a client outside the address list is asked for credentials (401) or sent to the authentication service instead of refused with 403, and can tell a right password from a wrong one; ingress-nginx refused it first"
            ),
        ));
    }
    let origins: Vec<&str> = controls.iter().map(|c| c.origin.as_str()).collect();
    out.notes.push(Diagnostic::new(
        Code::TargetAccessPolicy,
        format!(
            "{} written as SecurityPolicy {namespace}/{name} on {}",
            origins.join(", "),
            routes
                .iter()
                .map(|r| format!("{} {}", r.kind, r.name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ));
    out.generated.push(Generated::Policy(Object::new(
        API_VERSION,
        "SecurityPolicy",
        Metadata::new(name, namespace),
        serde_json::to_value(&spec).unwrap_or_default(),
    )));
    Ok(out)
}

fn grant(from_namespace: &str, kind: &str, to_namespace: &str, to_name: &str) -> GrantRequest {
    GrantRequest {
        from_kind: "SecurityPolicy".into(),
        from_namespace: from_namespace.to_string(),
        to_group: String::new(),
        to_kind: kind.to_string(),
        to_namespace: to_namespace.to_string(),
        to_name: to_name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auth_urls_name_cluster_services() {
        assert_eq!(
            auth_service("http://oauth2-proxy.auth.svc.cluster.local:4180/oauth2/auth"),
            Ok(AuthService {
                name: "oauth2-proxy".into(),
                namespace: "auth".into(),
                port: 4180,
                path: "/oauth2/auth".into()
            })
        );
        assert_eq!(
            auth_service("http://authz.security.svc").map(|s| (s.port, s.path)),
            Ok((80, "/".into()))
        );
        for bad in [
            "https://authz.security.svc/check",
            "http://auth.example.com/check",
            "http://authz.svc/check",
            "http://authz.security.svc/check?rd=1",
            "http://authz.security.svc:0/check",
            "http://$host/auth",
        ] {
            assert!(auth_service(bad).is_err(), "{bad}");
        }
    }
}
