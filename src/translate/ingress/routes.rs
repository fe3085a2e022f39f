//! Ingress rules and paths → per-host rules; rules → HTTPRoute/GRPCRoute rules.
//!
//! Path types: `Prefix` → `PathPrefix`, `Exact` → `Exact`; `ImplementationSpecific` is what
//! the controller makes of it: in `migrate` a plain path keeps ingress-nginx's prefix meaning
//! (`PathPrefix`), a regex becomes `RegularExpression`; in `mount` it is `RegularExpression`
//! (the mounting spec). Rules are sorted deterministically: Exact, then PathPrefix, then
//! RegularExpression, longer paths first — the order Gateway API precedence uses anyway.

use std::cmp::Reverse;
use std::sync::LazyLock;

use regex::Regex;

use crate::config::{Dialect, IngressMode};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    GrpcMethodMatch, GrpcRouteMatch, GrpcRouteRule, HttpHeaderFilter, HttpPathMatch,
    HttpRouteFilter, HttpRouteMatch, HttpRouteRule, HttpUrlRewriteFilter,
};
use crate::index::Index;
use crate::model::ingress::Ingress;

use super::backends;
use super::ir::{HostRoutes, Rule};

/// Most rules an HTTPRoute or GRPCRoute may have.
pub(crate) const MAX_RULES: usize = 16;

pub(crate) const EXACT: &str = "Exact";
pub(crate) const PATH_PREFIX: &str = "PathPrefix";
pub(crate) const REGEX: &str = "RegularExpression";

/// The CRD's path character rule (`HTTPPathMatch` CEL).
static VALID_PATH_CHARS: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(r"^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|%[0-9a-fA-F]{2})+$")
});

/// Whether `path` is accepted by the CRD for `Exact` / `PathPrefix` matches.
pub(crate) fn valid_gateway_path(path: &str) -> bool {
    path.starts_with('/')
        && path.len() <= 1024
        && VALID_PATH_CHARS.is_match(path)
        && !path.contains("//")
        && !path.contains("/./")
        && !path.contains("/../")
        && !path.to_ascii_lowercase().contains("%2f")
        && !path.ends_with("/..")
        && !path.ends_with("/.")
}

/// Whether a path uses regular-expression syntax (not counting a trailing `/*` glob).
pub(crate) fn looks_like_regex(path: &str) -> bool {
    let body = path.strip_suffix("/*").unwrap_or(path);
    body.chars().any(|c| {
        matches!(
            c,
            '^' | '$' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '?' | '+' | '\\' | '*'
        )
    })
}

/// Converts one Ingress path. Returns the match and notes about approximations.
pub(crate) fn convert_path(
    path: &str,
    path_type: &str,
    mode: IngressMode,
    dialect: Option<Dialect>,
    field: &str,
    notes: &mut Vec<Diagnostic>,
) -> HttpPathMatch {
    let path = if path.is_empty() { "/" } else { path };
    let make = |t: &str, v: String| HttpPathMatch {
        type_: t.into(),
        value: v,
    };
    let path_type = nginx_path_type(path_type, mode, dialect);
    if path_type == "Prefix"
        && dialect == Some(Dialect::IngressNginx)
        && path.len() > 1
        && path.ends_with('/')
    {
        notes.push(
            Diagnostic::new(
                Code::NginxPrefixTrailingSlash,
                format!(
                    "Prefix path {path:?}: ingress-nginx's location {path} did not match {}, PathPrefix {path} does (Gateway API ignores a trailing slash)",
                    path.trim_end_matches('/')
                ),
            )
            .at(field),
        );
    }
    match path_type {
        "Exact" | "Prefix" => {
            let t = if path_type == "Exact" {
                EXACT
            } else {
                PATH_PREFIX
            };
            if valid_gateway_path(path) {
                return make(t, path.to_string());
            }
            notes.push(
                Diagnostic::new(
                    Code::IngressInvalidPath,
                    format!(
                        "path {path:?} ({path_type}) is not a valid Gateway API {t} value; it is matched as a RegularExpression (implementation-specific)"
                    ),
                )
                .at(field),
            );
            // Prefix matches whole path elements (the Ingress API; ingress-nginx's `/p/` plus
            // `= /p` split is the same): the path itself or the path followed by `/…`.
            let regex = if path_type == "Exact" {
                regex::escape(path)
            } else if path.ends_with('/') {
                format!("{}.*", regex::escape(path))
            } else {
                format!("{}(/.*)?", regex::escape(path))
            };
            make(REGEX, regex)
        }
        _ => {
            // ImplementationSpecific (also what v1beta1 paths without a pathType default to).
            if looks_like_regex(path) {
                notes.push(
                    Diagnostic::new(
                        Code::IngressImplementationSpecificRegex,
                        format!(
                            "ImplementationSpecific path {path:?} is a regular expression: emitted as RegularExpression, whose dialect and anchoring are implementation-specific"
                        ),
                    )
                    .at(field),
                );
                return make(REGEX, path.to_string());
            }
            // `/foo/*` (GKE) and `/foo` are both prefixes.
            let glob = path.ends_with("/*");
            let prefix = match path.strip_suffix("/*") {
                Some("") => "/".to_string(),
                Some(p) => p.to_string(),
                None => path.to_string(),
            };
            match mode {
                IngressMode::Migrate if valid_gateway_path(&prefix) => {
                    let change = if prefix == "/" {
                        None
                    } else if glob {
                        Some(format!(
                            "ImplementationSpecific path {path:?} is a prefix glob: emitted as PathPrefix {prefix:?}, which also matches {prefix} itself (the glob matched only below it)"
                        ))
                    } else {
                        Some(format!(
                            "ImplementationSpecific path {path:?}: its meaning was the controller's ({}); emitted as PathPrefix {prefix:?}, which matches whole path segments",
                            dialect.map_or("unknown controller", super::class::dialect_label)
                        ))
                    };
                    if let Some(message) = change {
                        notes.push(
                            Diagnostic::new(Code::IngressImplementationSpecificPath, message)
                                .at(field),
                        );
                    }
                    make(PATH_PREFIX, prefix)
                }
                _ => {
                    let value = if prefix == "/" {
                        "/.*".to_string()
                    } else {
                        format!("{}.*", regex::escape(&prefix))
                    };
                    notes.push(
                        Diagnostic::new(
                            Code::IngressImplementationSpecificRegex,
                            format!(
                                "ImplementationSpecific path {path:?} emitted as RegularExpression {value:?} (implementation-specific dialect)"
                            ),
                        )
                        .at(field),
                    );
                    make(REGEX, value)
                }
            }
        }
    }
}

/// The pathType as ingress-nginx reads it in `migrate` mode: every path that is not Exact is
/// Prefix (`internal/k8s/main.go` `SetDefaultNGINXPathType`, applied when the store reads
/// an Ingress), so ImplementationSpecific `/foo` is split into `/foo/` and `= /foo` like any
/// Prefix path and matches whole segments. `mount` keeps the mounting specification's table.
pub(crate) fn nginx_path_type(
    path_type: &str,
    mode: IngressMode,
    dialect: Option<Dialect>,
) -> &str {
    if dialect == Some(Dialect::IngressNginx)
        && mode == IngressMode::Migrate
        && path_type != "Exact"
    {
        "Prefix"
    } else {
        path_type
    }
}

/// Groups the Ingress's rules by host (in order of first appearance) and converts each path.
pub(crate) fn build_hosts(
    index: &Index,
    namespace: &str,
    ing: &Ingress,
    mode: IngressMode,
    dialect: Option<Dialect>,
    require_hostname: bool,
    notes: &mut Vec<Diagnostic>,
) -> Vec<HostRoutes> {
    let mut hosts: Vec<HostRoutes> = Vec::new();
    let Some(rules) = ing.spec.as_ref().and_then(|s| s.rules.as_ref()) else {
        return hosts;
    };
    for (i, rule) in rules.iter().enumerate() {
        let field = format!("spec.rules[{i}]");
        let host = rule
            .host
            .as_deref()
            .filter(|h| !h.is_empty())
            .map(crate::model::template::host_as_matched);
        if host.is_none() && require_hostname {
            notes.push(
                Diagnostic::new(
                    Code::IngressHostlessRuleSkipped,
                    "rule without a host skipped (requireHostname is set)",
                )
                .at(&field),
            );
            continue;
        }
        let template = host
            .as_deref()
            .and_then(crate::model::template::template_of);
        if let (Some(h), Some(t)) = (&host, template) {
            notes.push(
                Diagnostic::new(
                    Code::IngressTemplatedHost,
                    format!(
                        "host {h:?} is {}: it is kept as written in the generated listener and route hostnames, so the same substitution must reach them (kustomize: a varReference or replacement target for HTTPRoute spec.hostnames and Gateway spec.listeners.hostname; Flux postBuild substitutes them as it is)",
                        t.describe()
                    ),
                )
                .at(format!("{field}.host")),
            );
        } else if let Some(h) = &host
            && !super::wildcard::valid_hostname(h)
        {
            notes.push(
                    Diagnostic::new(
                        Code::IngressInvalidHost,
                        format!(
                            "host {h:?} is not a valid Gateway API hostname (no IP addresses, lowercase DNS names, wildcard only as the whole first label); rule not translated"
                        ),
                    )
                    .at(&field),
                );
            continue;
        }
        let slot = match hosts.iter().position(|h| h.host == host) {
            Some(p) => p,
            None => {
                hosts.push(HostRoutes::new(host.clone(), field.clone()));
                hosts.len() - 1
            }
        };
        let Some(http) = &rule.http else {
            notes.push(
                Diagnostic::new(
                    Code::IngressRuleWithoutPaths,
                    "rule has no http paths: none of its paths is routed (with a defaultBackend, ingress-nginx still served the host's unmatched paths from it when this Ingress created the host's server)",
                )
                .at(&field),
            );
            continue;
        };
        for (j, p) in http.paths.iter().enumerate() {
            let pfield = format!("{field}.http.paths[{j}]");
            if dialect == Some(Dialect::IngressNginx)
                && mode == IngressMode::Migrate
                && p.backend.resource.is_some()
            {
                // controller.go getBackendServers and mergeAlternativeBackends skip paths
                // without a Service backend: nginx has no location for them.
                notes.push(
                    Diagnostic::new(
                        Code::NginxResourceBackendSkipped,
                        format!(
                            "path {:?} has a resource backend, which ingress-nginx skips (it builds locations for Service backends only): its requests fell through to the next matching location, so the path is not translated",
                            p.path.as_deref().unwrap_or("/")
                        ),
                    )
                    .at(&pfield),
                );
                continue;
            }
            let source_path = p.path.clone().unwrap_or_else(|| "/".into());
            let path = convert_path(&source_path, &p.path_type, mode, dialect, &pfield, notes);
            let backend = backends::convert(index, namespace, &p.backend, &pfield, notes);
            let candidate = Rule {
                path,
                source_path,
                source_type: nginx_path_type(&p.path_type, mode, dialect).to_string(),
                field: pfield.clone(),
                backends: backend.into_iter().collect(),
                ..Default::default()
            };
            let existing = &mut hosts[slot].rules;
            if existing.iter().any(|r| r.path == candidate.path) {
                notes.push(
                    Diagnostic::new(
                        Code::IngressDuplicatePath,
                        format!(
                            "path {:?} appears twice for host {}; the first one wins, as in ingress-nginx",
                            candidate.source_path,
                            host.as_deref().unwrap_or("*")
                        ),
                    )
                    .at(&pfield),
                );
                continue;
            }
            existing.push(candidate);
        }
    }
    for h in &mut hosts {
        sort_rules(&mut h.rules);
    }
    hosts
}

/// The deterministic rule order (stable: rules an annotation inserted keep their place among
/// equals).
pub(crate) fn sort_rules(rules: &mut [Rule]) {
    rules.sort_by_key(|r| {
        let rank = match r.path.type_.as_str() {
            EXACT => 0,
            PATH_PREFIX => 1,
            _ => 2,
        };
        (
            rank,
            Reverse(r.path.value.len()),
            r.path.value.clone(),
            Reverse(r.headers.len()),
        )
    });
}

/// Renders rules as HTTPRoute rules: at most one filter of each type, a redirect never with
/// backendRefs or a rewrite (CEL).
pub(crate) fn render_http(rules: &[Rule]) -> Vec<HttpRouteRule> {
    rules
        .iter()
        .map(|r| {
            let mut filters = Vec::new();
            if !r.set_headers.is_empty() {
                filters.push(HttpRouteFilter::request_header_modifier(HttpHeaderFilter {
                    set: r.set_headers.clone(),
                    ..Default::default()
                }));
            }
            if !r.response_set_headers.is_empty() {
                filters.push(HttpRouteFilter::response_header_modifier(
                    HttpHeaderFilter {
                        set: r.response_set_headers.clone(),
                        ..Default::default()
                    },
                ));
            }
            if let Some(redirect) = &r.redirect {
                filters.push(HttpRouteFilter::request_redirect(redirect.clone()));
            } else if r.rewrite_path.is_some() || r.rewrite_host.is_some() {
                filters.push(HttpRouteFilter::url_rewrite(HttpUrlRewriteFilter {
                    hostname: r.rewrite_host.clone(),
                    path: r.rewrite_path.clone(),
                }));
            }
            if let Some(cors) = &r.cors {
                filters.push(HttpRouteFilter::cors(cors.clone()));
            }
            let redirecting = r.redirect.is_some();
            HttpRouteRule {
                matches: vec![HttpRouteMatch {
                    path: Some(r.path.clone()),
                    headers: r.headers.clone(),
                    ..Default::default()
                }],
                filters,
                backend_refs: if redirecting {
                    Vec::new()
                } else {
                    r.backends.clone()
                },
                timeouts: if redirecting {
                    None
                } else {
                    r.timeouts.clone()
                },
                ..Default::default()
            }
        })
        .collect()
}

/// The CRD's GRPCMethodMatch rules: a proto service name (`pkg.Service`) and method name.
fn grpc_service_ok(s: &str) -> bool {
    s.split('.').all(|part| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn grpc_method_ok(m: &str) -> bool {
    m.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Renders rules as GRPCRoute rules: `/pkg.Service/Method` paths become method matches, a
/// catch-all path matches everything; other paths cannot be expressed and are noted.
pub(crate) fn render_grpc(rules: &[Rule], notes: &mut Vec<Diagnostic>) -> Vec<GrpcRouteRule> {
    let mut out = Vec::new();
    for r in rules {
        let value = r.path.value.trim_end_matches(".*");
        let parts: Vec<&str> = value
            .trim_matches('/')
            .split('/')
            .filter(|s| !s.is_empty())
            .collect();
        let method = match (r.path.type_.as_str(), parts.as_slice()) {
            (_, []) => None,
            (EXACT, [service, method]) if grpc_service_ok(service) && grpc_method_ok(method) => {
                Some(GrpcMethodMatch {
                    type_: Some("Exact".into()),
                    service: Some((*service).to_string()),
                    method: Some((*method).to_string()),
                })
            }
            (PATH_PREFIX, [service]) if grpc_service_ok(service) => Some(GrpcMethodMatch {
                type_: Some("Exact".into()),
                service: Some((*service).to_string()),
                method: None,
            }),
            _ => {
                notes.push(Diagnostic::new(
                    Code::NginxGrpcPath,
                    format!(
                        "path {:?} is neither / nor /package.Service[/Method]: the GRPCRoute rule matches every method",
                        r.source_path
                    ),
                ));
                None
            }
        };
        let matches = if method.is_none() && r.headers.is_empty() {
            Vec::new()
        } else {
            vec![GrpcRouteMatch {
                method,
                headers: r.headers.clone(),
            }]
        };
        let mut filters = Vec::new();
        if !r.set_headers.is_empty() {
            filters.push(HttpRouteFilter::request_header_modifier(HttpHeaderFilter {
                set: r.set_headers.clone(),
                ..Default::default()
            }));
        }
        if !r.response_set_headers.is_empty() {
            filters.push(HttpRouteFilter::response_header_modifier(
                HttpHeaderFilter {
                    set: r.response_set_headers.clone(),
                    ..Default::default()
                },
            ));
        }
        out.push(GrpcRouteRule {
            matches,
            filters,
            backend_refs: r.backends.clone(),
            ..Default::default()
        });
    }
    out
}
