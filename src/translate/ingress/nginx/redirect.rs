//! Redirect annotations: `permanent-redirect` / `temporal-redirect` (with their codes) turn
//! every rule into a `RequestRedirect`; `app-root` adds an `Exact /` rule redirecting to the
//! root; `ssl-redirect` / `force-ssl-redirect` are recorded on the plan and become a redirect
//! route on the HTTP listener when the routes are attached (`emit`).

use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpPathMatch, HttpPathModifier, HttpRequestRedirectFilter};

use super::super::ir::{IngressPlan, Rule};
use super::super::routes::{self, EXACT};
use super::super::wildcard;
use super::{Annotations, field};

pub(crate) const KEYS: &[&str] = &[
    "permanent-redirect",
    "permanent-redirect-code",
    "temporal-redirect",
    "temporal-redirect-code",
    "app-root",
    "ssl-redirect",
    "force-ssl-redirect",
];

/// Status codes `RequestRedirect` accepts.
const CODES: &[u32] = &[301, 302, 303, 307, 308];

/// A redirect target URL split into the parts `RequestRedirect` can set.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Target {
    pub scheme: Option<String>,
    pub hostname: Option<String>,
    pub port: Option<u32>,
    pub path: String,
    pub query: bool,
}

/// Parses `scheme://host[:port][/path][?query]` (or a bare path).
pub(crate) fn parse_target(url: &str) -> Option<Target> {
    if url.contains('$') {
        return None;
    }
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (Some(s.to_ascii_lowercase()), r),
        None if url.starts_with('/') => (None, url),
        None => return None,
    };
    if scheme
        .as_deref()
        .is_some_and(|s| s != "http" && s != "https")
    {
        return None;
    }
    let (authority, path_query) = match (scheme.is_some(), rest.find('/')) {
        (false, _) => ("", rest),
        (true, Some(i)) => (&rest[..i], &rest[i..]),
        (true, None) => (rest, ""),
    };
    let (authority, query_in_authority) = match authority.split_once('?') {
        Some((a, _)) => (a, true),
        None => (authority, false),
    };
    let (path, query) = match path_query.split_once('?') {
        Some((p, _)) => (p, true),
        None => (path_query, query_in_authority),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (h, Some(p.parse::<u32>().ok()?)),
        None => (authority, None),
    };
    let hostname = (!host.is_empty()).then(|| host.to_ascii_lowercase());
    if hostname
        .as_deref()
        .is_some_and(|h| !wildcard::valid_hostname(h) || h.starts_with('*'))
    {
        return None;
    }
    let path = if path.is_empty() { "/" } else { path };
    if !routes::valid_gateway_path(path) {
        return None;
    }
    Some(Target {
        scheme,
        hostname,
        port,
        path: path.to_string(),
        query,
    })
}

/// A redirect status as ingress-nginx reads it (`annotations/redirect` `Parse`): a number
/// outside `range` falls back to `default`. A value that is not a number never gets here: it
/// fails annotation validation, which rejects the whole Ingress (`validation.rs`).
fn code(
    ann: &Annotations,
    key: &str,
    default: u32,
    range: std::ops::RangeInclusive<u32>,
    notes: &mut Vec<Diagnostic>,
) -> u32 {
    let Some(raw) = ann.get(key) else {
        return default;
    };
    let Ok(number) = raw.parse::<i64>() else {
        return default;
    };
    let nginx = u32::try_from(number)
        .ok()
        .filter(|c| range.contains(c))
        .unwrap_or(default);
    if i64::from(nginx) != number {
        notes.push(
            Diagnostic::new(
                Code::NginxRedirectCodeOutOfRange,
                format!(
                    "{key} {raw:?} is outside {}–{}: ingress-nginx used {nginx}, and so does the translation",
                    range.start(),
                    range.end()
                ),
            )
            .at(field(key)),
        );
    }
    if CODES.contains(&nginx) {
        return nginx;
    }
    notes.push(
        Diagnostic::new(
            Code::NginxRedirectCode,
            format!(
                "{key} {raw:?}: ingress-nginx answered {nginx} with the URL as the body (nginx redirects only with 301, 302, 303, 307 and 308); RequestRedirect cannot answer that, {default} is used"
            ),
        )
        .at(field(key)),
    );
    default
}

pub(crate) fn apply(plan: &mut IngressPlan, ann: &Annotations) {
    // The annotation overrides the controller's ConfigMap value (already on the plan).
    plan.force_ssl_redirect = ann
        .flag("force-ssl-redirect")
        .unwrap_or(plan.force_ssl_redirect);
    plan.ssl_redirect_disabled = ann.flag("ssl-redirect") == Some(false);
    if ann.flag("ssl-redirect") == Some(true) {
        plan.ssl_redirect_default = true;
    }
    redirect_all(plan, ann);
    app_root(plan, ann);
}

/// Whether ingress-nginx's `isValidURL` accepts a `temporal-redirect` URL: it parses and its
/// scheme starts with `http`.
pub(crate) fn nginx_accepts_temporal_url(url: &str) -> bool {
    url.split_once("://").is_some_and(|(scheme, rest)| {
        scheme.to_ascii_lowercase().starts_with("http") && !rest.is_empty()
    })
}

/// `temporal-redirect` (read first, as in ingress-nginx) or `permanent-redirect`.
fn redirect_all(plan: &mut IngressPlan, ann: &Annotations) {
    let temporal = ann.get("temporal-redirect").filter(|u| !u.is_empty());
    let (key, code_key, default, range) = if temporal.is_some() {
        (
            "temporal-redirect",
            "temporal-redirect-code",
            302,
            300..=307,
        )
    } else if ann.get("permanent-redirect").is_some_and(|u| !u.is_empty()) {
        (
            "permanent-redirect",
            "permanent-redirect-code",
            301,
            300..=308,
        )
    } else {
        return;
    };
    let url = ann.get(key).unwrap_or_default();
    // annotations/redirect: a temporal URL without an http(s) scheme is a parse error; the
    // Ingress then has no redirect at all (the permanent one is not read either).
    if temporal.is_some() && !nginx_accepts_temporal_url(url) {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxRedirectIgnored,
                format!(
                    "temporal-redirect {url:?} has no http:// or https:// scheme: ingress-nginx rejected it and redirected nothing; requests reach the backends, as before"
                ),
            )
            .at(field(key)),
        );
        return;
    }
    let status = code(ann, code_key, default, range, &mut plan.result.notes);
    let Some(target) = parse_target(url) else {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxRedirectUrlUnsupported,
                format!(
                    "{key} {url:?} is not an http(s) URL RequestRedirect can express (nginx variables, other schemes); not translated: requests reach the backends"
                ),
            )
            .at(field(key)),
        );
        return;
    };
    if target.query {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxRedirectQueryDropped,
                format!("{key} {url:?}: RequestRedirect cannot set a query string; it is dropped"),
            )
            .at(field(key)),
        );
    }
    let filter = HttpRequestRedirectFilter {
        scheme: target.scheme.clone(),
        hostname: target.hostname.clone(),
        path: Some(HttpPathModifier::full_path(target.path.clone())),
        port: target.port,
        status_code: Some(status),
    };
    for rule in plan.hosts.iter_mut().flat_map(|h| h.rules.iter_mut()) {
        rule.redirect = Some(filter.clone());
        rule.rewrite_path = None;
        rule.rewrite_host = None;
    }
    plan.result.notes.push(
        Diagnostic::new(
            Code::NginxRedirect,
            format!("{key}: every rule redirects to {url} with status {status}"),
        )
        .at(field(key)),
    );
}

/// `app-root`: requests for `/` are redirected (302) to the application root.
fn app_root(plan: &mut IngressPlan, ann: &Annotations) {
    let Some(root) = ann.get("app-root") else {
        return;
    };
    if !root.starts_with('/') || !routes::valid_gateway_path(root) {
        plan.result.notes.push(
            Diagnostic::new(
                Code::NginxAppRootNotAPath,
                format!(
                    "app-root {root:?} is not a path (ingress-nginx accepts only paths); not translated"
                ),
            )
            .at(field("app-root")),
        );
        return;
    }
    let redirect = HttpRequestRedirectFilter {
        path: Some(HttpPathModifier::full_path(root)),
        status_code: Some(302),
        ..Default::default()
    };
    let root_match = HttpPathMatch {
        type_: EXACT.into(),
        value: "/".into(),
    };
    for host in &mut plan.hosts {
        if let Some(existing) = host
            .rules
            .iter_mut()
            .find(|r| r.path == root_match && r.headers.is_empty())
        {
            existing.redirect = Some(redirect.clone());
            // nginx answers app-root only for `/` itself, whatever its locations.
            existing.fixed_path = true;
        } else {
            host.rules.push(Rule {
                path: root_match.clone(),
                source_path: "/".into(),
                source_type: "Exact".into(),
                redirect: Some(redirect.clone()),
                fixed_path: true,
                ..Default::default()
            });
            routes::sort_rules(&mut host.rules);
        }
    }
    plan.result.notes.push(
        Diagnostic::new(
            Code::NginxAppRoot,
            format!("app-root {root}: an Exact / rule redirects (302) to {root}"),
        )
        .at(field("app-root")),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_urls_are_split() {
        assert_eq!(
            parse_target("https://www.google.com:8443/search?q=1"),
            Some(Target {
                scheme: Some("https".into()),
                hostname: Some("www.google.com".into()),
                port: Some(8443),
                path: "/search".into(),
                query: true,
            })
        );
        assert_eq!(
            parse_target("https://example.com").map(|t| t.path),
            Some("/".into())
        );
        assert_eq!(parse_target("https://$host/x"), None);
        assert_eq!(parse_target("ftp://x.com/"), None);
    }
}
