//! Turns a plan and its attachment into routes: one HTTPRoute (or GRPCRoute, or TLSRoute for
//! passthrough) per Ingress host named `{ingress}-{host}`, split every 16 rules; an HTTPS
//! redirect route on the HTTP listeners when the Ingress redirects to HTTPS; the catch-all
//! route for `defaultBackend` in migrate mode.

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    self, BackendRef, Generated, GrpcRouteSpec, HttpPathMatch, HttpRequestRedirectFilter,
    HttpRouteSpec, L4RouteRule, Metadata, Object, ParentReference, TlsRouteSpec,
};

use super::ir::{HostRoutes, IngressPlan, RouteKind, Rule};
use super::names::{self, NameAllocator};
use super::routes::{self, MAX_RULES, PATH_PREFIX};

/// The listeners one host's routes attach to, by listener protocol.
#[derive(Debug, Clone, Default)]
pub(crate) struct Attachment {
    pub http: Vec<ParentReference>,
    pub https: Vec<ParentReference>,
    /// TLS listeners in Passthrough mode (for `ssl-passthrough`).
    pub tls: Vec<ParentReference>,
    /// mount: the listener hostnames a wildcard host is narrowed to (hostname intersection).
    pub narrowed_to: Vec<String>,
}

impl Attachment {
    fn http_and_https(&self) -> Vec<ParentReference> {
        self.http.iter().chain(&self.https).cloned().collect()
    }
}

/// Attachments of one plan: per host (same order as `plan.hosts`; `None`: nothing accepts
/// the host, already reported) and for the default backend.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlanAttachments {
    pub hosts: Vec<Option<Attachment>>,
    pub default_backend: Option<Attachment>,
}

/// A parentRef to listener `section` of Gateway `gw_ns/gw_name`, from a route in `route_ns`.
pub(crate) fn parent_ref(
    gw_name: &str,
    gw_ns: &str,
    section: &str,
    route_ns: &str,
) -> ParentReference {
    ParentReference {
        name: gw_name.to_string(),
        namespace: (gw_ns != route_ns).then(|| gw_ns.to_string()),
        section_name: Some(section.to_string()),
        ..Default::default()
    }
}

pub(crate) fn emit(plan: &mut IngressPlan, att: &PlanAttachments, names: &mut NameAllocator) {
    let hosts = std::mem::take(&mut plan.hosts);
    for (host, a) in hosts.iter().zip(&att.hosts) {
        let Some(a) = a else { continue };
        if host.rules.is_empty() {
            continue;
        }
        if plan.passthrough {
            tls_route(plan, host, a, names);
        } else if host.passthrough_elsewhere {
            // nginx never terminated TLS for the host: plain HTTP only.
            let http_only = Attachment {
                http: a.http.clone(),
                ..Default::default()
            };
            match plan.kind {
                RouteKind::Grpc => grpc_routes(plan, host, &http_only, names),
                RouteKind::Http => http_routes(plan, host, &http_only, names),
            }
        } else {
            match plan.kind {
                RouteKind::Grpc => grpc_routes(plan, host, a, names),
                RouteKind::Http => http_routes(plan, host, a, names),
            }
        }
    }
    plan.hosts = hosts;
    if let (Some(backend), Some(a)) = (plan.default_backend.clone(), &att.default_backend) {
        let rule = Rule {
            path: HttpPathMatch {
                type_: PATH_PREFIX.into(),
                value: "/".into(),
            },
            source_path: "/".into(),
            source_type: "Prefix".into(),
            backends: vec![backend],
            ..Default::default()
        };
        let name = names.allocate(
            &plan.name_scope(),
            "HTTPRoute",
            &format!("{}-default-backend", plan.name),
            names::MAX_NAME,
        );
        let rules = with_hsts(plan, &[rule], a);
        push_http(plan, name, None, a.http_and_https(), &rules);
    }
}

fn base_name(plan: &IngressPlan, host: &HostRoutes) -> String {
    format!("{}-{}", plan.name, names::host_part(host.host.as_deref()))
}

fn push_http(
    plan: &mut IngressPlan,
    name: String,
    host: Option<&str>,
    parents: Vec<ParentReference>,
    rules: &[Rule],
) {
    let spec = HttpRouteSpec {
        parent_refs: parents,
        hostnames: host.map(str::to_string).into_iter().collect(),
        rules: routes::render_http(rules),
    };
    plan.result.generated.push(Generated::HttpRoute(Object::new(
        gwapi::V1,
        "HTTPRoute",
        Metadata::new(name, plan.namespace.clone()),
        spec,
    )));
}

/// Allocates one name per chunk of at most 16 rules: `base`, `base-2`, ...
fn chunk_names(
    plan: &mut IngressPlan,
    kind: &str,
    base: &str,
    count: usize,
    names: &mut NameAllocator,
) -> Vec<String> {
    let chunks = count.div_ceil(MAX_RULES).max(1);
    if chunks > 1 {
        plan.result.notes.push(Diagnostic::new(
            Code::IngressRouteSplit,
            format!(
                "{count} rules for one host exceed the 16 rules a {kind} may hold: split into {chunks} {kind}s ({base}, {base}-2, ...)"
            ),
        ));
    }
    (0..chunks)
        .map(|i| {
            let wanted = if i == 0 {
                base.to_string()
            } else {
                format!("{base}-{}", i + 1)
            };
            names.allocate(&plan.name_scope(), kind, &wanted, names::MAX_NAME)
        })
        .collect()
}

fn http_routes(
    plan: &mut IngressPlan,
    host: &HostRoutes,
    a: &Attachment,
    names: &mut NameAllocator,
) {
    let h = host.host.as_deref();
    let wants_redirect = host.ssl_redirect;
    // With passthrough elsewhere on the host, HTTPS belongs to the TLSRoute: plain HTTP is
    // only redirected there, as nginx did.
    let https_served = !a.https.is_empty() || host.passthrough_elsewhere;
    let split = wants_redirect && https_served && !a.http.is_empty();
    if wants_redirect && !https_served {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxSslRedirectNoHttps,
                format!(
                    "host {}: the Ingress redirects HTTP to HTTPS, but no HTTPS listener serves this host; the route stays on HTTP without a redirect",
                    h.unwrap_or("*")
                ),
            )
            .at(&host.field),
        );
    }
    let main_parents = if split {
        a.https.clone()
    } else {
        a.http_and_https()
    };
    let base = base_name(plan, host);
    if !main_parents.is_empty() {
        let rules = with_hsts(plan, &host.rules, a);
        let route_names = chunk_names(plan, "HTTPRoute", &base, rules.len(), names);
        for (chunk, name) in rules.chunks(MAX_RULES).zip(route_names) {
            push_http(plan, name, h, main_parents.clone(), chunk);
        }
    }
    if split {
        ssl_redirect_route(plan, host, a, &base, names);
    }
}

/// `rules` with ingress-nginx's `Strict-Transport-Security` header on their responses when
/// the routes are served over HTTPS (`IngressPlan::hsts`). On a route attached to the HTTP
/// listener too, the header also reaches plain-HTTP answers, where browsers ignore it (RFC
/// 6797 section 8.1).
fn with_hsts(plan: &IngressPlan, rules: &[Rule], a: &Attachment) -> Vec<Rule> {
    let mut rules = rules.to_vec();
    if let Some(value) = plan.hsts.as_ref().filter(|_| !a.https.is_empty()) {
        for r in &mut rules {
            r.response_set_headers.push(gwapi::HttpHeader {
                name: STS.into(),
                value: value.clone(),
            });
        }
    }
    rules
}

/// The response header HSTS is sent in.
const STS: &str = "Strict-Transport-Security";

/// The route on the HTTP listener that answers 308 (`http-redirect-code`) to https for the
/// whole host: ingress-nginx
/// redirects every location of a host with a certificate (the root location included, so
/// paths no Ingress names too), in its Lua rewrite phase before any location content
/// (`rootfs/etc/nginx/lua/lua_ingress.lua` `redirect_to_https`).
fn ssl_redirect_route(
    plan: &mut IngressPlan,
    host: &HostRoutes,
    a: &Attachment,
    base: &str,
    names: &mut NameAllocator,
) {
    let h = host.host.as_deref();
    let redirect = HttpRequestRedirectFilter {
        scheme: Some("https".into()),
        status_code: Some(u32::from(plan.http_redirect_code)),
        ..Default::default()
    };
    let root = Rule {
        path: HttpPathMatch {
            type_: PATH_PREFIX.into(),
            value: "/".into(),
        },
        redirect: Some(redirect.clone()),
        ..Default::default()
    };
    // Locations under `no-tls-redirect-locations` (the ACME HTTP-01 challenge path by
    // default) are served over plain HTTP as they are (lua_ingress.lua `redirect_to_https`
    // checks `force_no_ssl_redirect` first).
    // A location's own redirect (`permanent-redirect`, `temporal-redirect`, `app-root`) is an
    // nginx `return` in the rewrite phase, before the Lua HTTPS redirect: plain HTTP gets it
    // as it is too.
    let exempt = |r: &Rule| {
        r.redirect.is_some()
            || plan
                .no_tls_redirect
                .iter()
                .any(|p| r.source_path.starts_with(p.as_str()))
    };
    let exempt_rules: Vec<Rule> = host.rules.iter().filter(|r| exempt(r)).cloned().collect();
    // When another Ingress of the host keeps plain HTTP, only this Ingress's own locations
    // (and the root, when this Ingress created the server) redirect.
    let mut rules: Vec<Rule> = if host.redirect_own_paths {
        let mut own: Vec<Rule> = host
            .rules
            .iter()
            .map(|r| Rule {
                path: r.path.clone(),
                headers: r.headers.clone(),
                redirect: Some(redirect.clone()),
                ..Default::default()
            })
            .collect();
        let has_root = own
            .iter()
            .any(|r| r.path == root.path && r.headers.is_empty());
        if host.owns_root && !has_root {
            own.push(root);
        }
        own.dedup_by(|a, b| a.path == b.path && a.headers == b.headers);
        own
    } else {
        vec![root]
    };
    // An exempt location takes the place of the redirect with the same match.
    rules.retain(|r| {
        !exempt_rules
            .iter()
            .any(|e| e.path == r.path && e.headers == r.headers)
    });
    rules.extend(exempt_rules);
    let redirect_names = chunk_names(
        plan,
        "HTTPRoute",
        &format!("{base}-ssl-redirect"),
        rules.len(),
        names,
    );
    // The redirect rules made here carry no source path; the exempt ones are copies.
    let exempt_paths: Vec<String> = rules
        .iter()
        .filter(|r| !r.source_path.is_empty())
        .map(|r| r.source_path.clone())
        .collect();
    for (chunk, name) in rules.chunks(MAX_RULES).zip(redirect_names) {
        push_http(plan, name, h, a.http.clone(), chunk);
    }
    let except = if exempt_paths.is_empty() {
        String::new()
    } else {
        format!(
            " except {}, answered over plain HTTP as before (their own redirect, or no-tls-redirect-locations)",
            exempt_paths.join(", ")
        )
    };
    plan.result.notes.push(
        Diagnostic::new(
            Code::NginxSslRedirect,
            format!(
                "host {}: the route is attached to the HTTPS listener; a redirect route on the HTTP listener answers {} to https for {}{except} (ingress-nginx's {})",
                h.unwrap_or("*"),
                plan.http_redirect_code,
                if host.redirect_own_paths {
                    "this Ingress's paths (another Ingress of the host keeps plain HTTP)"
                } else {
                    "every path of the host"
                },
                if plan.force_ssl_redirect {
                    "force-ssl-redirect"
                } else {
                    "default ssl-redirect for TLS hosts"
                }
            ),
        )
        .at(&host.field),
    );
}

fn grpc_routes(
    plan: &mut IngressPlan,
    host: &HostRoutes,
    a: &Attachment,
    names: &mut NameAllocator,
) {
    let base = base_name(plan, host);
    // gRPC over plain HTTP is redirected like any request of a TLS host.
    let split = host.ssl_redirect
        && (!a.https.is_empty() || host.passthrough_elsewhere)
        && !a.http.is_empty();
    let parents = if split {
        a.https.clone()
    } else {
        a.http_and_https()
    };
    let route_names = if parents.is_empty() {
        Vec::new()
    } else {
        chunk_names(plan, "GRPCRoute", &base, host.rules.len(), names)
    };
    let rules = with_hsts(plan, &host.rules, a);
    for (chunk, name) in rules.chunks(MAX_RULES).zip(route_names) {
        let mut notes = Vec::new();
        let spec = GrpcRouteSpec {
            parent_refs: parents.clone(),
            hostnames: host.host.clone().into_iter().collect(),
            rules: routes::render_grpc(chunk, &mut notes),
        };
        plan.result
            .notes
            .extend(notes.into_iter().map(|n| n.at(&host.field)));
        plan.result.generated.push(Generated::GrpcRoute(Object::new(
            gwapi::V1,
            "GRPCRoute",
            Metadata::new(name, plan.namespace.clone()),
            spec,
        )));
    }
    if split {
        ssl_redirect_route(plan, host, a, &base, names);
    }
    if host.rules.iter().any(|r| {
        r.redirect.is_some()
            || r.rewrite_path.is_some()
            || r.rewrite_host.is_some()
            || r.cors.is_some()
            || r.timeouts.is_some()
    }) {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxGrpcFilters,
                "redirects, rewrites, CORS and timeouts are not available on GRPCRoute; they are not translated for this gRPC host",
            )
            .at(&host.field),
        );
    }
}

fn tls_route(plan: &mut IngressPlan, host: &HostRoutes, a: &Attachment, names: &mut NameAllocator) {
    let Some(h) = host.host.clone() else {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxSslPassthroughNoHost,
                "ssl-passthrough routes by SNI, which needs a host; this rule has none and is not translated",
            )
            .at(&host.field),
        );
        return;
    };
    let root = host
        .rules
        .iter()
        .find(|r| r.source_path == "/")
        .or_else(|| host.rules.first());
    let backends: Vec<BackendRef> = root.map(|r| r.backends.clone()).unwrap_or_default();
    if backends.is_empty() {
        return;
    }
    if host.rules.len() > 1 {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxSslPassthroughPaths,
                format!(
                    "host {h}: passthrough cannot route by path; only the backend of path {:?} is kept",
                    root.map(|r| r.source_path.as_str()).unwrap_or("/")
                ),
            )
            .at(&host.field),
        );
    }
    let name = names.allocate(
        &plan.name_scope(),
        "TLSRoute",
        &base_name(plan, host),
        names::MAX_NAME,
    );
    plan.result.generated.push(Generated::TlsRoute(Object::new(
        gwapi::V1,
        "TLSRoute",
        Metadata::new(name, plan.namespace.clone()),
        TlsRouteSpec {
            parent_refs: a.tls.clone(),
            hostnames: vec![h],
            rules: vec![L4RouteRule {
                name: None,
                backend_refs: backends,
            }],
        },
    )));
}
