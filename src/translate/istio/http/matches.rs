//! Istio `HTTPMatchRequest` → Gateway API `HTTPRouteMatch`, plus the parts of a match that
//! decide where the rule goes rather than what it matches (`authority`, `port`, `scheme`).

use std::sync::LazyLock;

use regex::Regex;

use super::RouteKey;
use crate::diagnostic::locate::key_step;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpHeaderMatch, HttpPathMatch, HttpRouteMatch};
use crate::model::istio::{HttpMatchRequest, StringMatch};
use crate::translate::istio::unknown;

/// Methods Gateway API's `HTTPMethod` enum accepts.
pub(crate) const METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
];

static PATH_CHARS: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(r"^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|%[0-9a-fA-F]{2})+$")
});

static HEADER_NAME: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::constant(r"^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$"));

/// Why `path` cannot be an `Exact`/`PathPrefix` value (the CRD's CEL rules), or `None`.
pub(crate) fn path_problem(path: &str) -> Option<&'static str> {
    if !path.starts_with('/') {
        return Some("does not start with '/'");
    }
    if path.len() > 1024 {
        return Some("longer than 1024 characters");
    }
    for bad in ["//", "/./", "/../", "%2f", "%2F", "#"] {
        if path.contains(bad) {
            return Some(
                "contains a sequence Gateway API forbids ('//', '/./', '/../', '%2f', '#')",
            );
        }
    }
    if path.ends_with("/..") || path.ends_with("/.") {
        return Some("ends with '/.' or '/..'");
    }
    if !PATH_CHARS.is_match(path) {
        return Some("contains characters Gateway API does not accept in paths");
    }
    None
}

pub(crate) fn valid_header_name(name: &str) -> bool {
    name.len() <= 256 && HEADER_NAME.is_match(name)
}

/// One translated match and where it must be routed.
#[derive(Debug, Clone)]
pub(crate) struct TranslatedMatch {
    /// `None`: matches everything.
    pub matched: Option<HttpRouteMatch>,
    pub key: RouteKey,
    /// The Istio `uri.prefix`, whatever the emitted path type (a case-insensitive prefix is
    /// a regex): a prefix rewrite keeps its prefix meaning.
    pub uri_prefix: Option<String>,
    /// `…match[i].uri`, where notes about the path match are.
    pub uri_field: String,
}

/// Translates one Istio match; method prefix/regex matches expand to one match per method.
/// `refusal`: the entry refuses what it matches (a 4xx/5xx direct response, an abort of every
/// request). Failing closed then means the opposite of a route's: a condition that cannot be
/// expressed is left out, so the refusal covers more requests, never fewer.
pub(crate) fn translate(
    m: &HttpMatchRequest,
    refusal: bool,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Vec<TranslatedMatch> {
    unknown::report(&m.extra, path, notes);
    let mut out = HttpRouteMatch::default();
    let mut key = RouteKey::default();
    let uri_prefix = m.uri.as_ref().and_then(|u| u.prefix.clone());
    let uri_field = format!("{path}.uri");
    if let Some(uri) = &m.uri {
        out.path = uri_match(
            uri,
            m.ignore_uri_case.unwrap_or(false),
            &format!("{path}.uri"),
            notes,
        );
    } else if m.ignore_uri_case.is_some() {
        notes.push(
            Diagnostic::new(
                Code::IstioIgnoreUriCaseNoEffect,
                "ignoreUriCase without a uri match has no effect",
            )
            .at(format!("{path}.ignoreUriCase")),
        );
    }
    // Istio routes on JWT claims (`@request.auth.claims.<claim>`, gateways only, after a
    // RequestAuthentication validated the token: pilot/pkg/networking/core/route/route.go
    // `translateMetadataMatch`). Gateway API cannot see claims; dropping the condition would
    // open the rule to every request, so the whole match goes (fail closed).
    let claims: Vec<&String> = m
        .headers
        .keys()
        .chain(m.without_headers.keys())
        .filter(|n| n.starts_with("@request.auth.claims"))
        .collect();
    if !claims.is_empty() && refusal {
        notes.push(
            Diagnostic::new(
                Code::IstioJwtClaimMatch,
                format!(
                    "match on JWT claims ({}) needs Istio's RequestAuthentication claim routing, which Gateway API cannot express; this entry refuses, so the claim conditions are left out and it refuses every request its other conditions match (more than before, never fewer): route on a header your authentication layer sets instead",
                    claims.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
            .at(path.to_string()),
        );
    } else if !claims.is_empty() {
        notes.push(
            Diagnostic::new(
                Code::IstioJwtClaimMatch,
                format!(
                    "match on JWT claims ({}) needs Istio's RequestAuthentication claim routing, which Gateway API cannot express; the match is dropped rather than widened to every request (with no other match the rule goes too): route on a header your authentication layer sets instead",
                    claims.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
            .at(path.to_string()),
        );
        return Vec::new();
    }
    // Every key is a literal header name (route.go `TranslateRouteMatch`): `uri`, `method`
    // and the like included, whatever istio/api's comment says about ignoring them.
    let is_claim = |name: &str| name.starts_with("@request.auth.claims");
    for name in m.headers.keys().filter(|n| !is_claim(n)) {
        if !valid_header_name(name) && refusal {
            notes.push(
                Diagnostic::new(Code::IstioInvalidHeaderName, format!("'{name}' is not a valid Gateway API header name; this entry refuses, so the condition is left out and it refuses more requests, never fewer"))
                    .at(format!("{path}.headers{}", key_step(name))),
            );
        } else if !valid_header_name(name) {
            notes.push(
                Diagnostic::new(Code::IstioInvalidHeaderName, format!("'{name}' is not a valid Gateway API header name; the match is dropped rather than widened to requests without that header (with no other match the rule goes too)"))
                    .at(format!("{path}.headers{}", key_step(name))),
            );
            return Vec::new();
        }
    }
    for (name, sm) in m.headers.iter().filter(|(n, _)| !is_claim(n)) {
        if refusal && !valid_header_name(name) {
            continue;
        }
        if let Some(h) = string_match(
            name,
            sm,
            "header",
            &format!("{path}.headers{}", key_step(name)),
            notes,
        ) {
            out.headers.push(h);
        }
    }
    for (name, sm) in &m.query_params {
        if let Some(q) = string_match(
            name,
            sm,
            "query parameter",
            &format!("{path}.queryParams{}", key_step(name)),
            notes,
        ) {
            out.query_params.push(q);
        }
    }
    for (label, len) in [
        ("headers", out.headers.len()),
        ("queryParams", out.query_params.len()),
    ] {
        if len > 16 {
            notes.push(
                Diagnostic::new(Code::IstioTooManyConditions, format!("more than 16 {label} conditions in one match; Gateway API allows 16, the rest were dropped"))
                    .at(format!("{path}.{label}")),
            );
        }
    }
    out.headers.truncate(16);
    out.query_params.truncate(16);
    for (port, field) in [
        (m.port, "port"),
        (
            m.authority
                .as_ref()
                .and_then(|a| a.exact.as_deref())
                .and_then(|e| e.rsplit_once(':'))
                .and_then(|(_, p)| p.parse::<u32>().ok()),
            "authority",
        ),
    ] {
        if let Some(p) = port.filter(|p| !(1..=65535).contains(p)) {
            notes.push(
                Diagnostic::new(
                    Code::IstioInvalidPort,
                    format!("port {p} is not a TCP port (1-65535): Istio refuses it and it matches nothing; the match is dropped"),
                )
                .at(format!("{path}.{field}")),
            );
            return Vec::new();
        }
    }
    if let Some(auth) = &m.authority {
        let (host, port) = authority(auth, &format!("{path}.authority"), notes);
        key.authority = host;
        if let Some(port) = port {
            // Envoy's :authority carries a non-default port, so `host:8080` matches only
            // requests sent to port 8080: the rule binds to the listeners on that port.
            match (m.port, key.restriction.port) {
                (Some(p), _) | (None, Some(p)) if p != port => {
                    notes.push(
                        Diagnostic::new(Code::IstioAuthorityPort, format!("authority port {port} contradicts the match's port {p}: Istio never matched this; the match is dropped"))
                            .at(format!("{path}.authority")),
                    );
                    return Vec::new();
                }
                _ => {
                    key.restriction.port = Some(port);
                    notes.push(
                        Diagnostic::new(Code::IstioAuthorityPort, format!("authority port {port}: the route binds to the listeners on port {port} (Gateway API hostnames have no port)"))
                            .at(format!("{path}.authority")),
                    );
                }
            }
        }
    }
    if let Some(port) = m.port {
        key.restriction.port = Some(port);
        notes.push(
            Diagnostic::new(Code::IstioPortMatch, format!("port {port} match becomes the route's binding to the listeners on port {port} (sectionName), or the Service parentRef port for mesh routes"))
                .at(format!("{path}.port")),
        );
    }
    if let Some(scheme) = &m.scheme {
        match scheme.exact.as_deref().map(str::to_ascii_lowercase).as_deref() {
            Some("http") | Some("https") => {
                let proto = scheme.exact.as_deref().unwrap_or_default().to_ascii_uppercase();
                notes.push(
                    Diagnostic::new(Code::IstioSchemeMatch, format!("scheme match becomes a binding to the {proto} listeners only (sectionName)"))
                        .at(format!("{path}.scheme")),
                );
                key.restriction.protocol = Some(proto);
            }
            _ => notes.push(
                Diagnostic::new(Code::IstioSchemeMatchDropped, "scheme match other than exact http/https has no Gateway API equivalent; dropped (the rule matches more requests)")
                    .at(format!("{path}.scheme")),
            ),
        }
    }
    if !m.without_headers.is_empty() {
        notes.push(
            Diagnostic::new(Code::IstioWithoutHeaders, format!("withoutHeaders ({}) has no Gateway API equivalent (no negative matches); dropped, so the rule now also matches requests carrying those headers", m.without_headers.keys().cloned().collect::<Vec<_>>().join(", ")))
                .at(format!("{path}.withoutHeaders")),
        );
    }
    if !m.source_labels.is_empty() {
        notes.push(
            Diagnostic::new(
                Code::IstioSourceLabels,
                "sourceLabels (client workload selector) has no Gateway API equivalent; dropped",
            )
            .at(format!("{path}.sourceLabels")),
        );
    }
    if m.source_namespace.is_some() {
        notes.push(
            Diagnostic::new(Code::IstioSourceNamespace, "sourceNamespace has no Gateway API equivalent (a GAMMA consumer route in that namespace comes close); dropped")
                .at(format!("{path}.sourceNamespace")),
        );
    }
    if !m.gateways.is_empty() {
        notes.push(
            Diagnostic::new(
                Code::IstioMatchGateways,
                "per-match gateways: the match goes to a route bound to those gateways only",
            )
            .at(format!("{path}.gateways")),
        );
        let mut gateways = m.gateways.clone();
        gateways.sort();
        gateways.dedup();
        key.restriction.gateways = gateways;
    }
    if m.stat_prefix.is_some() {
        notes.push(
            Diagnostic::new(
                Code::IstioStatPrefix,
                "statPrefix (Envoy statistics) has no Gateway API equivalent; dropped",
            )
            .at(format!("{path}.statPrefix")),
        );
    }
    if m.name.is_some() {
        notes.push(
            Diagnostic::new(
                Code::IstioMatchName,
                "match names have no Gateway API equivalent (HTTPRouteMatch has no name); dropped",
            )
            .at(format!("{path}.name")),
        );
    }
    let methods = m
        .method
        .as_ref()
        .map(|sm| methods(sm, &format!("{path}.method"), notes))
        .unwrap_or_default();
    let empty = out == HttpRouteMatch::default();
    if empty && methods.is_empty() && key == RouteKey::default() && has_conditions(m) && refusal {
        notes.push(
            Diagnostic::new(Code::IstioMatchDropped, "no condition of this match can be expressed in Gateway API; this entry refuses, so it now refuses every request (fail closed) instead of being dropped")
                .at(path.to_string()),
        );
    } else if empty && methods.is_empty() && key == RouteKey::default() && has_conditions(m) {
        notes.push(
            Diagnostic::new(Code::IstioMatchDropped, "no condition of this match can be expressed in Gateway API; the match is dropped rather than widened to match every request")
                .at(path.to_string()),
        );
        return Vec::new();
    }
    let matched = if empty { None } else { Some(out) };
    if methods.is_empty() {
        return vec![TranslatedMatch {
            matched,
            key,
            uri_prefix,
            uri_field,
        }];
    }
    methods
        .into_iter()
        .map(|method| {
            let mut m = matched.clone().unwrap_or_default();
            m.method = Some(method.to_string());
            TranslatedMatch {
                matched: Some(m),
                key: key.clone(),
                uri_prefix: uri_prefix.clone(),
                uri_field: uri_field.clone(),
            }
        })
        .collect()
}

/// Whether the Istio match restricts requests at all.
fn has_conditions(m: &HttpMatchRequest) -> bool {
    m.uri.is_some()
        || m.scheme.is_some()
        || m.method.is_some()
        || m.authority.is_some()
        || !m.headers.is_empty()
        || m.port.is_some()
        || !m.source_labels.is_empty()
        || !m.query_params.is_empty()
        || !m.without_headers.is_empty()
        || m.source_namespace.is_some()
        || !m.gateways.is_empty()
}

fn uri_match(
    sm: &StringMatch,
    ignore_case: bool,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<HttpPathMatch> {
    unknown::report(&sm.extra, path, notes);
    let regex = |value: String| HttpPathMatch {
        type_: "RegularExpression".into(),
        value,
    };
    if let Some(exact) = &sm.exact {
        if ignore_case {
            notes.push(case_note(path));
            return Some(regex(format!("(?i)^{}$", regex::escape(exact))));
        }
        if let Some(problem) = path_problem(exact) {
            notes.push(
                Diagnostic::new(Code::IstioPathAsRegex, format!("exact path '{exact}' {problem}; emitted as an equivalent RE2 regular expression (implementation-specific)"))
                    .at(format!("{path}.exact")),
            );
            return Some(regex(format!("^{}$", regex::escape(exact))));
        }
        return Some(HttpPathMatch {
            type_: "Exact".into(),
            value: exact.clone(),
        });
    }
    if let Some(prefix) = &sm.prefix {
        if ignore_case {
            notes.push(case_note(path));
            return Some(regex(format!("(?i)^{}.*", regex::escape(prefix))));
        }
        if let Some(problem) = path_problem(prefix) {
            notes.push(
                Diagnostic::new(Code::IstioPathAsRegex, format!("prefix '{prefix}' {problem}; emitted as an equivalent RE2 regular expression (implementation-specific)"))
                    .at(format!("{path}.prefix")),
            );
            return Some(regex(format!("^{}.*", regex::escape(prefix))));
        }
        if prefix != "/" {
            let message = if prefix.ends_with('/') {
                format!(
                    "Istio prefix '{prefix}' is a string prefix; Gateway API PathPrefix matches whole path segments and ignores the trailing '/', so '{}' now matches too",
                    prefix.trim_end_matches('/')
                )
            } else {
                format!(
                    "Istio prefix '{prefix}' is a string prefix ('{prefix}x' matched); Gateway API PathPrefix matches whole path segments, so only '{prefix}' and '{prefix}/...' match now"
                )
            };
            notes.push(
                Diagnostic::new(Code::IstioPrefixSemantics, message).at(format!("{path}.prefix")),
            );
        }
        return Some(HttpPathMatch {
            type_: "PathPrefix".into(),
            value: prefix.clone(),
        });
    }
    if let Some(re) = &sm.regex {
        notes.push(
            Diagnostic::new(Code::IstioRegexMatch, "regex path match emitted as RegularExpression: its dialect (Istio: RE2, full match) and its precedence against prefixes are implementation-specific")
                .at(format!("{path}.regex")),
        );
        // Envoy's `case_sensitive` (what Istio sets from ignoreUriCase) does not apply to
        // safe_regex paths: the regex stays case-sensitive (route.go `TranslateRouteMatch`).
        if ignore_case {
            notes.push(
                Diagnostic::new(
                    Code::IstioIgnoreUriCaseNoEffect,
                    "ignoreUriCase has no effect on a regex uri match in Istio (Envoy ignores case_sensitive for regex paths); the regex stays case-sensitive",
                )
                .at(format!("{path}.regex")),
            );
        }
        return Some(regex(re.clone()));
    }
    None
}

fn case_note(path: &str) -> Diagnostic {
    Diagnostic::new(Code::IstioIgnoreUriCase, "case-insensitive path match has no portable equivalent; emitted as an RE2 (?i) regular expression (implementation-specific)")
        .at(path.to_string())
}

/// A header or query-parameter condition.
fn string_match(
    name: &str,
    sm: &StringMatch,
    what: &str,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> Option<HttpHeaderMatch> {
    unknown::report(&sm.extra, path, notes);
    if what == "header" && !valid_header_name(name) {
        notes.push(
            Diagnostic::new(Code::IstioInvalidHeaderName, format!("'{name}' is not a valid Gateway API header name; condition dropped (the rule matches more requests)"))
                .at(path.to_string()),
        );
        return None;
    }
    let (type_, value) = if let Some(exact) = &sm.exact {
        if exact.is_empty() {
            ("RegularExpression", "^$".to_string())
        } else {
            ("Exact", exact.clone())
        }
    } else if let Some(prefix) = &sm.prefix {
        notes.push(
            Diagnostic::new(Code::IstioPrefixAsRegex, format!("{what} prefix match has no Core Gateway API equivalent; emitted as RegularExpression (implementation-specific)"))
                .at(format!("{path}.prefix")),
        );
        ("RegularExpression", format!("^{}.*", regex::escape(prefix)))
    } else if let Some(re) = sm.regex.as_ref().filter(|re| re.as_str() != "*") {
        notes.push(
            Diagnostic::new(Code::IstioRegexMatch, format!("{what} regex match emitted as RegularExpression (dialect is implementation-specific; Istio uses RE2 full match)"))
                .at(format!("{path}.regex")),
        );
        ("RegularExpression", re.clone())
    } else if sm.regex.is_some() {
        // `regex: "*"` is not RE2: Istio makes it a present match
        // (route.go `canBeConvertedToPresentMatch`).
        notes.push(
            Diagnostic::new(Code::IstioPresenceMatch, format!("{what} regex \"*\" means \"present\" in Istio; emitted as RegularExpression '.*', which matches any value of a present {what}"))
                .at(format!("{path}.regex")),
        );
        ("RegularExpression", ".*".to_string())
    } else {
        notes.push(
            Diagnostic::new(Code::IstioPresenceMatch, format!("{what} presence match emitted as RegularExpression '.*' (Gateway API requires a value)"))
                .at(path.to_string()),
        );
        ("RegularExpression", ".*".to_string())
    };
    Some(HttpHeaderMatch {
        type_: type_.into(),
        name: name.to_string(),
        value,
    })
}

/// The Gateway API methods a method match selects (empty when it selects none or cannot be
/// expanded: the condition is then dropped with a note).
fn methods(sm: &StringMatch, path: &str, notes: &mut Vec<Diagnostic>) -> Vec<&'static str> {
    unknown::report(&sm.extra, path, notes);
    let selected: Vec<&'static str> = if let Some(exact) = &sm.exact {
        METHODS
            .iter()
            .copied()
            .filter(|m| *m == exact.as_str())
            .collect()
    } else if let Some(prefix) = &sm.prefix {
        METHODS
            .iter()
            .copied()
            .filter(|m| m.starts_with(prefix.as_str()))
            .collect()
    } else if let Some(re) = &sm.regex {
        match Regex::new(&format!("^(?:{re})$")) {
            Ok(r) => METHODS.iter().copied().filter(|m| r.is_match(m)).collect(),
            Err(_) => Vec::new(),
        }
    } else {
        Vec::new()
    };
    if selected.is_empty() {
        notes.push(
            Diagnostic::new(Code::IstioMethodMatchDropped, "method match selects no method Gateway API can match (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH); condition dropped (the rule matches more requests)")
                .at(path.to_string()),
        );
    } else if sm.exact.is_none() {
        notes.push(
            Diagnostic::new(
                Code::IstioMethodMatch,
                format!(
                    "method prefix/regex match expanded to one match per method: {}",
                    selected.join(", ")
                ),
            )
            .at(path.to_string()),
        );
    }
    selected
}

/// `authority` → the hostname of a separate route; `None` (with a note) when not expressible.
/// An `authority.exact` as `(hostname, port)`; `(None, None)` when it cannot be expressed.
fn authority(
    sm: &StringMatch,
    path: &str,
    notes: &mut Vec<Diagnostic>,
) -> (Option<String>, Option<u32>) {
    unknown::report(&sm.extra, path, notes);
    if let Some(exact) = &sm.exact {
        let (host, port) = match exact.rsplit_once(':') {
            Some((h, p)) => match p.parse::<u32>() {
                Ok(p) => (h, Some(p)),
                Err(_) => (exact.as_str(), None),
            },
            None => (exact.as_str(), None),
        };
        let host = host.to_ascii_lowercase();
        if crate::translate::istio::hosts::hostname_problem(&host).is_none() {
            notes.push(
                Diagnostic::new(
                    Code::IstioAuthorityMatch,
                    format!("authority match becomes a separate HTTPRoute with hostname '{host}'"),
                )
                .at(path.to_string()),
            );
            return (Some(host), port);
        }
    }
    notes.push(
        Diagnostic::new(Code::IstioAuthorityMatchDropped, "authority prefix/regex match (or an authority that is not a valid hostname) has no portable Gateway API equivalent; dropped (the rule matches more hosts)")
            .at(path.to_string()),
    );
    (None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_rules_follow_the_crd() {
        assert!(path_problem("/api/v1").is_none());
        assert!(path_problem("api").is_some());
        assert!(path_problem("/a//b").is_some());
        assert!(path_problem("/a b").is_some());
        assert!(path_problem("/a/..").is_some());
    }

    #[test]
    fn method_regex_expands() {
        let mut notes = Vec::new();
        let sm = StringMatch {
            regex: Some("P.*".into()),
            ..Default::default()
        };
        assert_eq!(methods(&sm, "m", &mut notes), vec!["POST", "PUT", "PATCH"]);
    }
}
