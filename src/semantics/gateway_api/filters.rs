//! What a matched rule does. kubernetes-sigs/gateway-api `apis/v1/httproute_types.go`:
//! `HTTPRouteFilter` (`RequestHeaderModifier`, `ResponseHeaderModifier`, `RequestRedirect`,
//! `URLRewrite`, `RequestMirror`), `HTTPPathModifier` (`ReplaceFullPath`,
//! `ReplacePrefixMatch` element-wise), `HTTPRequestRedirectFilter` (status 302 by default;
//! without a port, the scheme's well-known port when a scheme is given, else the
//! listener's; no port in `Location` for http:80 and https:443), `HTTPBackendRef` (weight 1
//! by default, 0 takes no traffic; a rule without backends, or whose backends are all
//! invalid, answers 500; an invalid backend's share answers 500), `HTTPRouteTimeouts`.
//! Cross-namespace backends need a ReferenceGrant (`apis/v1beta1/referencegrant_types.go`).

use serde_json::Value;

use super::precedence::PathKind;
use super::{Listener, Profile, Route, RouteMatch, Rule, World, list, str_of};
use crate::semantics::{Behaviour, HeaderEdits, Mirror, Outcome, Request, Share, Timeouts};

pub(super) fn apply(
    world: &World,
    (route, rule, m): (&Route, &Rule, &RouteMatch),
    listener: &Listener,
    request: &Request,
    profile: Profile,
) -> Behaviour {
    let mut path = request.path.clone();
    let mut host = request.host.clone();
    let mut b = Behaviour::of(Outcome::NoRoute);
    let mut redirect = None;
    for f in list(&rule.raw, "filters") {
        match str_of(f, "type") {
            Some("RequestHeaderModifier") => {
                edits(&mut b.request_headers, f.get("requestHeaderModifier"));
            }
            Some("ResponseHeaderModifier") => {
                edits(&mut b.response_headers, f.get("responseHeaderModifier"));
            }
            Some("RequestRedirect") => {
                let r = f.get("requestRedirect").unwrap_or(&Value::Null);
                redirect = Some(redirect_outcome(r, m, listener, request, profile));
            }
            Some("URLRewrite") => {
                let r = f.get("urlRewrite").unwrap_or(&Value::Null);
                if let Some(p) = r.get("path") {
                    path = modify_path(p, m, &request.path, profile);
                }
                if let Some(h) = str_of(r, "hostname") {
                    host = h.to_string();
                }
            }
            Some("RequestMirror") => {
                let r = f.get("requestMirror").unwrap_or(&Value::Null);
                let backend = r.get("backendRef").unwrap_or(&Value::Null);
                let percent = match (r.get("percent"), r.get("fraction")) {
                    (Some(p), _) => {
                        u32::try_from(p.as_u64().unwrap_or(100).min(100)).unwrap_or(100)
                    }
                    (None, Some(fr)) => {
                        let num = fr.get("numerator").and_then(Value::as_u64).unwrap_or(0);
                        let den = fr.get("denominator").and_then(Value::as_u64).unwrap_or(100);
                        let percent = num.saturating_mul(100).checked_div(den).unwrap_or(0);
                        u32::try_from(percent.min(100)).unwrap_or(100)
                    }
                    (None, None) => 100,
                };
                let namespace = str_of(backend, "namespace").unwrap_or(&route.key.0);
                let name = str_of(backend, "name").unwrap_or_default();
                // A mirror to another namespace needs a ReferenceGrant like any backend
                // (`HTTPRequestMirrorFilter.BackendRef`); without one it is not configured.
                if namespace != route.key.0 && !granted(world, route, namespace, name) {
                    continue;
                }
                b.mirrors.push(Mirror {
                    namespace: namespace.to_string(),
                    name: str_of(backend, "name").unwrap_or_default().to_string(),
                    port: backend
                        .get("port")
                        .and_then(Value::as_u64)
                        .map(|p| p as u32),
                    percent,
                });
            }
            // An extension filter does what its implementation says, and an unresolved one
            // must answer an error rather than be skipped (`HTTPRouteFilter`): either way the
            // model cannot tell.
            Some("ExtensionRef") => {
                b.outcome = Outcome::NotModelled {
                    reason: "an ExtensionRef filter".to_string(),
                };
                return b;
            }
            Some(other) => {
                b.unevaluated.push((format!("filter {other}"), f.clone()));
            }
            None => {}
        }
    }
    for key in ["retry", "sessionPersistence"] {
        if let Some(v) = rule.raw.get(key) {
            b.unevaluated.push((key.to_string(), v.clone()));
        }
    }
    if let Some(t) = rule.raw.get("timeouts") {
        b.timeouts = Some(Timeouts {
            request: str_of(t, "request").map(str::to_string),
            backend_request: str_of(t, "backendRequest").map(str::to_string),
        });
    }
    if let Some(r) = redirect {
        b.outcome = r;
        return b;
    }
    let mut shares = Vec::new();
    for (i, backend) in list(&rule.raw, "backendRefs").enumerate() {
        let weight = backend.get("weight").and_then(Value::as_u64).unwrap_or(1);
        if weight == 0 {
            continue;
        }
        let (mut request_headers, mut response_headers) = Default::default();
        for f in list(backend, "filters") {
            match str_of(f, "type") {
                Some("RequestHeaderModifier") => {
                    edits(&mut request_headers, f.get("requestHeaderModifier"));
                }
                Some("ResponseHeaderModifier") => {
                    edits(&mut response_headers, f.get("responseHeaderModifier"));
                }
                _ => b
                    .unevaluated
                    .push((format!("backendRefs[{i}].filters"), f.clone())),
            }
        }
        let (namespace, name, port) = match resolve(world, route, backend, profile) {
            Resolved::Backend(namespace, name, port) => (namespace, name, port),
            Resolved::Invalid => Default::default(),
            Resolved::Unknown(reason) => {
                b.outcome = Outcome::NotModelled { reason };
                return b;
            }
        };
        shares.push(Share {
            namespace,
            name,
            port,
            weight,
            request_headers,
            response_headers,
        });
    }
    b.outcome = if shares.is_empty() || shares.iter().all(|s| s.name.is_empty()) {
        Outcome::Direct { status: 500 }
    } else {
        Outcome::Backends {
            backends: shares,
            path,
            host,
        }
    };
    b
}

enum Resolved {
    /// `namespace`, `name`, port: a Service, or an Istio `Hostname` (empty namespace).
    Backend(String, String, Option<u32>),
    /// An unresolved reference: its share of the traffic gets a 500.
    Invalid,
    /// A kind this profile's implementation may resolve in ways the model does not know.
    Unknown(String),
}

/// What a backend reference resolves to. A Service, unless it is in another namespace and no
/// ReferenceGrant allows it, or the input holds every Service and not this one (or not its
/// port). Istio also resolves `networking.istio.io/Hostname` (a host of its registry: istio
/// `pilot/pkg/config/kube/gateway/conversion.go` `buildDestination`); Envoy Gateway its
/// `Backend` kind (not modelled); any other kind is invalid.
fn resolve(world: &World, route: &Route, b: &Value, profile: Profile) -> Resolved {
    let group = str_of(b, "group").unwrap_or("");
    let kind = str_of(b, "kind").unwrap_or("Service");
    let port = b.get("port").and_then(Value::as_u64);
    let Some(name) = str_of(b, "name").map(str::to_string) else {
        return Resolved::Invalid;
    };
    match (group, kind) {
        ("", "Service") => {}
        ("networking.istio.io", "Hostname") if profile == Profile::Istio => {
            return Resolved::Backend(
                String::new(),
                name,
                port.and_then(|p| u32::try_from(p).ok()),
            );
        }
        // Envoy Gateway's own backend kind: resolved in ways the model does not follow.
        ("gateway.envoyproxy.io", "Backend") if profile == Profile::EnvoyGateway => {
            return Resolved::Unknown(format!("backend kind {group}/{kind}"));
        }
        // A kind the implementation does not support: `InvalidKind`, and its share of the
        // traffic gets a 500 (conformance HTTPRouteInvalidBackendRefUnknownKind).
        _ => return Resolved::Invalid,
    }
    let namespace = str_of(b, "namespace").unwrap_or(&route.key.0).to_string();
    if namespace != route.key.0 && !granted(world, route, &namespace, &name) {
        return Resolved::Invalid;
    }
    if world.services_complete {
        let Some(ports) = world.services.get(&(namespace.clone(), name.clone())) else {
            return Resolved::Invalid;
        };
        if port.is_none_or(|p| !ports.iter().any(|&sp| u64::from(sp) == p)) {
            return Resolved::Invalid;
        }
    }
    Resolved::Backend(namespace, name, port.and_then(|p| u32::try_from(p).ok()))
}

fn granted(world: &World, route: &Route, namespace: &str, name: &str) -> bool {
    world.grants.iter().any(|(grant_ns, spec)| {
        grant_ns == namespace
            && list(spec, "from").any(|f| {
                str_of(f, "group") == Some("gateway.networking.k8s.io")
                    && str_of(f, "kind") == Some(route.kind.as_str())
                    && str_of(f, "namespace") == Some(route.key.0.as_str())
            })
            && list(spec, "to").any(|t| {
                str_of(t, "group").unwrap_or("").is_empty()
                    && str_of(t, "kind") == Some("Service")
                    && str_of(t, "name").is_none_or(|n| n == name)
            })
    })
}

fn edits(out: &mut HeaderEdits, modifier: Option<&Value>) {
    let Some(m) = modifier else { return };
    let pairs = |key: &str| -> Vec<(String, String)> {
        list(m, key)
            .map(|h| {
                (
                    str_of(h, "name").unwrap_or_default().to_string(),
                    str_of(h, "value").unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    // `HTTPHeaderFilter`: of names equal but for case, only the first entry counts.
    let first_of_each = |pairs: Vec<(String, String)>| {
        let mut seen: Vec<String> = Vec::new();
        pairs
            .into_iter()
            .filter(|(n, _)| {
                let lower = n.to_ascii_lowercase();
                let new = !seen.contains(&lower);
                seen.push(lower);
                new
            })
            .collect::<Vec<_>>()
    };
    out.set.extend(first_of_each(pairs("set")));
    out.add.extend(first_of_each(pairs("add")));
    out.remove.extend(
        list(m, "remove")
            .filter_map(Value::as_str)
            .map(str::to_string),
    );
}

/// `ReplaceFullPath` / `ReplacePrefixMatch` applied to `path`.
///
/// The spec replaces whole segments. Both Istio and Envoy Gateway give the PathPrefix `/`
/// to Envoy as the plain prefix `/` and the replacement without its trailing `/` as
/// `prefix_rewrite` (istio/istio `pilot/pkg/config/kube/gateway/conversion.go`
/// `createURIMatch`, `createRewriteFilter`; envoyproxy/gateway `internal/xds/translator/
/// route.go` `buildXdsURLRewriteAction`, which uses a regex only for the replacement `/`), so
/// under `/` the replacement is glued to the rest: `/x` + `/foo` gives `/xfoo` (and `/x/`,
/// trimmed first, gives `/xfoo` too).
fn modify_path(modifier: &Value, m: &RouteMatch, path: &str, profile: Profile) -> String {
    match str_of(modifier, "type") {
        Some("ReplaceFullPath") => str_of(modifier, "replaceFullPath")
            .unwrap_or("/")
            .to_string(),
        Some("ReplacePrefixMatch") => {
            if m.path.kind != PathKind::Prefix {
                return path.to_string();
            }
            let replacement = str_of(modifier, "replacePrefixMatch").unwrap_or("/");
            if profile != Profile::Generic
                && m.path.value.trim_end_matches('/').is_empty()
                && !replacement.trim_end_matches('/').is_empty()
            {
                let rest = path.strip_prefix('/').unwrap_or(path);
                return format!("{}{rest}", replacement.trim_end_matches('/'));
            }
            let prefix = m.path.value.trim_end_matches('/');
            let rest = path.get(prefix.len()..).unwrap_or("");
            let base = str_of(modifier, "replacePrefixMatch")
                .unwrap_or("/")
                .trim_end_matches('/');
            let out = format!("{base}{rest}");
            if out.is_empty() { "/".into() } else { out }
        }
        _ => path.to_string(),
    }
}

fn redirect_outcome(
    r: &Value,
    m: &RouteMatch,
    listener: &Listener,
    request: &Request,
    profile: Profile,
) -> Outcome {
    let scheme = str_of(r, "scheme");
    let port = match (r.get("port").and_then(Value::as_u64), scheme) {
        (Some(p), _) => u16::try_from(p).ok(),
        (None, Some("http")) => Some(80),
        (None, Some("https")) => Some(443),
        (None, _) => listener.port,
    };
    let path = r
        .get("path")
        .map(|p| modify_path(p, m, &request.path, profile))
        .unwrap_or_else(|| request.path.clone());
    Outcome::Redirect {
        status: r
            .get("statusCode")
            .and_then(Value::as_u64)
            .and_then(|s| u16::try_from(s).ok())
            .unwrap_or(302),
        // The query is kept: Envoy's `RedirectAction.strip_query` is false unless set, and
        // neither Istio (`conversion.go`) nor Envoy Gateway sets it.
        location: Request::url(
            scheme.unwrap_or(request.scheme.as_str()),
            str_of(r, "hostname").unwrap_or(&request.host),
            port,
            &format!("{path}{}", request.query_string()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn prefix(value: &str) -> RouteMatch {
        RouteMatch::of(&json!({"path": {"type": "PathPrefix", "value": value}}))
    }

    // httproute_types.go HTTPPathModifier: the table of ReplacePrefixMatch results.
    #[test]
    fn prefix_replacement_follows_the_specification_table() {
        let cases = [
            ("/foo", "/foo/bar", "/xyz", "/xyz/bar"),
            ("/foo", "/foo/bar", "/xyz/", "/xyz/bar"),
            ("/foo/", "/foo/bar", "/xyz", "/xyz/bar"),
            ("/foo/", "/foo/bar", "/xyz/", "/xyz/bar"),
            ("/foo", "/foo", "/xyz", "/xyz"),
            ("/foo", "/foo/", "/xyz", "/xyz/"),
            ("/foo/", "/foo", "/xyz", "/xyz"),
            ("/foo", "/foo/bar", "/", "/bar"),
            ("/foo", "/foo", "/", "/"),
            ("/", "/foo", "/xyz", "/xyz/foo"),
        ];
        for (matched, path, replacement, want) in cases {
            let modifier = json!({"type": "ReplacePrefixMatch", "replacePrefixMatch": replacement});
            assert_eq!(
                modify_path(&modifier, &prefix(matched), path, Profile::Generic),
                want,
                "{matched} {path} {replacement}"
            );
        }
    }
}
