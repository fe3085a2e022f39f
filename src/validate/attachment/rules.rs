//! Route rules Envoy Gateway refuses although the CRDs admit them (implementation-specific,
//! so only with `--target envoy-gateway`), from `internal/gatewayapi/filters.go`,
//! `helpers.go` and `route.go`:
//! - a filter type it does not implement, or an `ExtensionRef` to another kind than its
//!   `HTTPRouteFilter` (`ValidateHTTPRouteFilter`, `ValidateGRPCRouteFilter`);
//! - two `URLRewrite` or two `RequestRedirect` filters in one rule; a redirect scheme other
//!   than http/https or a status other than 301/302 (`processRedirectFilter`);
//! - a header modifier entry with an empty name, a name with `/` or `:` or `Host`, or a
//!   value outside `^[!-~]+([\t ]?[!-~]+)*$`; the filter fails as a whole when no entry is
//!   left (`processRequestHeaderModifierFilter`, `processResponseHeaderModifierFilter`);
//! - a regular expression in a path, header or query match that does not compile
//!   (`processHTTPRouteRule`);
//! - on a backendRef, any filter but the two header modifiers and a URLRewrite of the
//!   hostname (`validateBackendRefFilters`: `ResolvedRefs=False UnsupportedRefValue`);
//! - a TCPRoute or UDPRoute with other than one rule (`InvalidRule`).
//!
//! A rule with a problem is dropped: when every rule is, the route is `Accepted=False`;
//! otherwise it is `Accepted` and `PartiallyInvalid=True` with the same reason.

use serde_json::Value;

use super::{items, str_of};

/// What the rules of one route do to its status.
#[derive(Debug, Default)]
pub(crate) struct RuleVerdict {
    /// `(reason, message)` of the rules dropped, and whether every rule was.
    pub dropped: Option<(String, String, bool)>,
    /// `(path, reason, message)` of backendRefs refused for their filters.
    pub refused_backends: Vec<(String, String, String)>,
    /// Rules whose backends are never resolved (a match that does not compile).
    pub backends_skipped: Vec<usize>,
}

const HTTP_FILTERS: &[&str] = &[
    "RequestMirror",
    "URLRewrite",
    "RequestRedirect",
    "RequestHeaderModifier",
    "ResponseHeaderModifier",
    "CORS",
];
const GRPC_FILTERS: &[&str] = &[
    "RequestMirror",
    "RequestHeaderModifier",
    "ResponseHeaderModifier",
];

fn header_value_ok(v: &str) -> bool {
    // ^[!-~]+([\t ]?[!-~]+)*$ : visible ASCII words separated by one space or tab.
    let visible = |c: char| ('!'..='~').contains(&c);
    !v.is_empty()
        && v.starts_with(visible)
        && v.ends_with(visible)
        && v.chars().all(|c| visible(c) || c == ' ' || c == '\t')
        && !v.contains("  ")
        && !v.contains("\t\t")
        && !v.contains(" \t")
        && !v.contains("\t ")
}

fn modifiable(name: &str) -> bool {
    !name.contains('/') && !name.contains(':') && !name.eq_ignore_ascii_case("host")
}

/// Problems of one header modifier filter, or `None`.
fn header_modifier_problem(m: &Value, direction: &str) -> Option<String> {
    let list = |k: &str| {
        m.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut errors = Vec::new();
    let mut kept = 0;
    let mut configured = false;
    for op in ["add", "set"] {
        for h in list(op) {
            configured = true;
            let name = str_of(&h, "name").unwrap_or_default();
            let value = str_of(&h, "value").unwrap_or_default();
            if name.is_empty() {
                errors.push(format!("cannot {op} a header with an empty name"));
            } else if !modifiable(name) {
                errors.push(format!(
                    "cannot {op} header {name:?} (Host, or a name with / or :)"
                ));
            } else if !header_value_ok(value) {
                errors.push(format!("cannot {op} header {name:?} with an invalid value"));
            } else {
                kept += 1;
            }
        }
    }
    for h in list("remove") {
        configured = true;
        let name = h.as_str().unwrap_or_default();
        if name.is_empty() {
            errors.push("cannot remove a header with an empty name".to_string());
        } else if !modifiable(name) {
            errors.push(format!(
                "cannot remove header {name:?} (Host, or a name with / or :)"
            ));
        } else {
            kept += 1;
        }
    }
    if kept == 0 && configured {
        return Some(format!(
            "the {direction}HeaderModifier filter configures no valid header ({})",
            errors.join("; ")
        ));
    }
    (!errors.is_empty()).then(|| format!("{direction}HeaderModifier: {}", errors.join("; ")))
}

/// Envoy Gateway's hostname check (`validate.go` validateHostname): a DNS-1123 subdomain,
/// not an IP address, labels of at most 63 characters.
fn hostname_problem(h: &str) -> Option<String> {
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && l.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && l.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    if h.len() > 253 || !h.split('.').all(label_ok) {
        return Some(format!("hostname {h:?} is not a DNS name"));
    }
    h.parse::<std::net::IpAddr>()
        .is_ok()
        .then(|| format!("hostname {h:?} is an IP address"))
}

/// A path modifier whose type and value disagree (`processURLRewriteFilter`).
fn path_modifier_problem(p: &Value) -> Option<String> {
    let full = p.get("replaceFullPath").is_some();
    let prefix = p.get("replacePrefixMatch").is_some();
    match str_of(p, "type").unwrap_or_default() {
        "ReplaceFullPath" if prefix || !full => Some(
            "path type ReplaceFullPath needs replaceFullPath and no replacePrefixMatch".to_string(),
        ),
        "ReplacePrefixMatch" if full || !prefix => Some(
            "path type ReplacePrefixMatch needs replacePrefixMatch and no replaceFullPath"
                .to_string(),
        ),
        "ReplaceFullPath" | "ReplacePrefixMatch" => None,
        other => Some(format!("path type {other:?} is not supported")),
    }
}

/// The first problem of a rule's filters (Envoy Gateway stops at an invalid filter).
fn filter_problem(route_kind: &str, filters: &[Value]) -> Option<(&'static str, String)> {
    let known = if route_kind == "GRPCRoute" {
        GRPC_FILTERS
    } else {
        HTTP_FILTERS
    };
    let (mut rewrites, mut redirects) = (0, 0);
    let mut mirror = false;
    let mut answers = false;
    for f in filters {
        let t = str_of(f, "type").unwrap_or_default();
        if t == "ExtensionRef" {
            let r = f.get("extensionRef").unwrap_or(&Value::Null);
            let (group, kind) = (
                str_of(r, "group").unwrap_or_default(),
                str_of(r, "kind").unwrap_or_default(),
            );
            if (group, kind) != ("gateway.envoyproxy.io", "HTTPRouteFilter") {
                return Some((
                    "UnsupportedValue",
                    format!("invalid filter ExtensionRef: unknown kind {group}/{kind}"),
                ));
            }
            continue;
        }
        if !known.contains(&t) {
            return Some((
                "UnsupportedValue",
                format!("invalid filter {t}: not supported on {route_kind}"),
            ));
        }
        match t {
            "URLRewrite" => {
                rewrites += 1;
                if rewrites > 1 {
                    return Some((
                        "UnsupportedValue",
                        "more than one URLRewrite filter in a rule".to_string(),
                    ));
                }
                let r = f.get("urlRewrite").unwrap_or(&Value::Null);
                if let Some(h) = str_of(r, "hostname").and_then(hostname_problem) {
                    return Some(("UnsupportedValue", format!("rewrite {h}")));
                }
                if let Some(p) = r.get("path").and_then(path_modifier_problem) {
                    return Some(("UnsupportedValue", format!("rewrite {p}")));
                }
            }
            "RequestRedirect" => {
                redirects += 1;
                answers = true;
                if redirects > 1 {
                    return Some((
                        "UnsupportedValue",
                        "more than one RequestRedirect filter in a rule".to_string(),
                    ));
                }
                let r = f.get("requestRedirect").unwrap_or(&Value::Null);
                if let Some(s) = str_of(r, "scheme").filter(|s| !matches!(*s, "http" | "https")) {
                    return Some((
                        "UnsupportedValue",
                        format!("redirect scheme {s} is not supported (http, https)"),
                    ));
                }
                if let Some(h) = str_of(r, "hostname").and_then(hostname_problem) {
                    return Some(("UnsupportedValue", format!("redirect {h}")));
                }
                if let Some(code) = r
                    .get("statusCode")
                    .and_then(Value::as_i64)
                    .filter(|c| !matches!(c, 301 | 302 | 303 | 307 | 308))
                {
                    return Some((
                        "UnsupportedValue",
                        format!("redirect status {code} is not supported"),
                    ));
                }
            }
            "RequestHeaderModifier" | "ResponseHeaderModifier" => {
                let (key, direction) = if t == "RequestHeaderModifier" {
                    ("requestHeaderModifier", "Request")
                } else {
                    ("responseHeaderModifier", "Response")
                };
                if let Some(p) = f
                    .get(key)
                    .and_then(|m| header_modifier_problem(m, direction))
                {
                    return Some(("UnsupportedValue", p));
                }
            }
            "RequestMirror" => mirror = true,
            _ => {}
        }
    }
    if mirror && answers {
        return Some((
            "IncompatibleFilters",
            "RequestMirror cannot be combined with a redirect or a direct response".to_string(),
        ));
    }
    None
}

/// A regular expression of a match that does not compile.
fn match_problem(rule: &Value) -> Option<String> {
    for m in rule
        .get("matches")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let mut patterns: Vec<&str> = Vec::new();
        if str_of(m.get("path").unwrap_or(&Value::Null), "type") == Some("RegularExpression") {
            patterns.extend(m.pointer("/path/value").and_then(Value::as_str));
        }
        for list in ["headers", "queryParams"] {
            for h in m.get(list).and_then(Value::as_array).into_iter().flatten() {
                if str_of(h, "type") == Some("RegularExpression") {
                    patterns.extend(str_of(h, "value"));
                }
            }
        }
        if str_of(m.get("method").unwrap_or(&Value::Null), "type") == Some("RegularExpression") {
            patterns.extend(m.pointer("/method/service").and_then(Value::as_str));
            patterns.extend(m.pointer("/method/method").and_then(Value::as_str));
        }
        if let Some(bad) = patterns.into_iter().find(|p| regex::Regex::new(p).is_err()) {
            return Some(format!("regular expression {bad:?} does not compile"));
        }
    }
    None
}

/// The verdict on `route`'s rules.
pub(crate) fn verdict(route_kind: &str, route: &Value) -> RuleVerdict {
    let rules: Vec<&Value> = items(route, "/spec/rules").collect();
    let mut out = RuleVerdict::default();
    if matches!(route_kind, "TCPRoute" | "UDPRoute") {
        if rules.len() != 1 {
            out.dropped = Some((
                "InvalidRule".to_string(),
                format!(
                    "a {route_kind} takes exactly one rule, it has {}",
                    rules.len()
                ),
                true,
            ));
        }
        return out;
    }
    if !matches!(route_kind, "HTTPRoute" | "GRPCRoute") {
        return out;
    }
    let mut dropped: Vec<(usize, &'static str, String)> = Vec::new();
    for (ri, rule) in rules.iter().enumerate() {
        let filters: Vec<Value> = rule
            .get("filters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some((reason, message)) = filter_problem(route_kind, &filters) {
            dropped.push((ri, reason, message));
        }
        if let Some(message) = match_problem(rule) {
            // The rule is given up before its backends are looked at.
            dropped.push((ri, "UnsupportedValue", message));
            out.backends_skipped.push(ri);
        }
        for (bi, b) in rule
            .get("backendRefs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let bad = b
                .get("filters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find(|f| match str_of(f, "type").unwrap_or_default() {
                    "RequestHeaderModifier" | "ResponseHeaderModifier" => false,
                    "URLRewrite" if route_kind == "HTTPRoute" => {
                        f.pointer("/urlRewrite/path").is_some()
                    }
                    "ExtensionRef" if route_kind == "HTTPRoute" => false,
                    _ => true,
                });
            if let Some(f) = bad {
                out.refused_backends.push((
                    format!("spec.rules[{ri}].backendRefs[{bi}]"),
                    "UnsupportedRefValue".to_string(),
                    format!("a backendRef filter {} is not supported here (header modifiers and a hostname URLRewrite are)", str_of(f, "type").unwrap_or_default()),
                ));
            }
        }
    }
    if !dropped.is_empty() {
        let mut reasons: Vec<&str> = dropped.iter().map(|(_, r, _)| *r).collect();
        reasons.sort_unstable();
        reasons.dedup();
        let message = dropped
            .iter()
            .map(|(i, _, m)| format!("rule {i}: {m}"))
            .collect::<Vec<_>>()
            .join("; ");
        let mut rules_dropped: Vec<usize> = dropped.iter().map(|(i, _, _)| *i).collect();
        rules_dropped.dedup();
        out.dropped = Some((
            reasons.join(","),
            message,
            rules_dropped.len() == rules.len(),
        ));
    }
    out
}
