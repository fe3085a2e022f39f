//! One Istio `http[]` entry → Gateway API rules. Usually one rule; more when a prefix rewrite
//! or redirect needs one rule per PathPrefix match (the CRD allows `ReplacePrefixMatch` only on
//! a rule with exactly one PathPrefix match), or when matches go to different routes
//! (authority, port, scheme).

use std::collections::BTreeSet;

use super::matches::{self, TranslatedMatch};
use super::rewrite::PathRewrite;
use super::{
    KeyedRule, RouteKey, cors, fault, headers, mirror, redirect, retries, rewrite, timeout,
};
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{
    BackendRef, HttpPathMatch, HttpPathModifier, HttpRouteFilter, HttpRouteMatch, HttpRouteRule,
    HttpRouteTimeouts,
};
use crate::model::istio::HttpRoute;
use crate::translate::GrantRequest;
use crate::translate::istio::destination::{self, From};
use crate::translate::istio::{Ctx, duration, names, unknown};

/// Most matches in one rule.
const MAX_MATCHES: usize = 64;
/// Most backendRefs in one rule.
const MAX_BACKENDS: usize = 16;

/// Matches that share a rule: the route they go to, the matches, the path modifier.
type Group = (
    RouteKey,
    Vec<Option<HttpRouteMatch>>,
    Option<HttpPathModifier>,
);

/// Adds a match to the last compatible group, or starts a new one.
fn push_shared(
    groups: &mut Vec<Group>,
    key: RouteKey,
    m: Option<HttpRouteMatch>,
    modifier: Option<HttpPathModifier>,
) {
    match groups
        .iter_mut()
        .find(|(k, ms, md)| *k == key && *md == modifier && ms.len() < MAX_MATCHES)
    {
        Some(g) => g.1.push(m),
        None => groups.push((key, vec![m], modifier)),
    }
}

/// How the path of a group of matches is modified.
enum PathMode {
    /// Istio `rewrite.uri` / `redirect.prefixRewrite`: prefix or full path by match type.
    Uri(String),
    Full(String),
    /// `uriRegexRewrite` stripping a prefix: ReplacePrefixMatch on matches of that prefix.
    StripPrefix(String, String),
    None,
}

pub(super) fn translate(
    ctx: &Ctx,
    from: &From,
    http: &HttpRoute,
    dead: Option<&BTreeSet<usize>>,
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Vec<KeyedRule> {
    // `mirror_percent` is the proto name of the deprecated field; the Istio CRD accepts it.
    unknown::report_except(&http.extra, path, &["mirror_percent"], notes);
    // A refusal fails closed by refusing more, a route by matching less (`matches`).
    let refusal = fault::refuses_all(http.fault.as_ref())
        || http.redirect.is_none()
            && http
                .direct_response
                .as_ref()
                .and_then(|d| d.get("status"))
                .and_then(|s| s.as_u64())
                .is_some_and(|s| s >= 400);
    let translated: Vec<TranslatedMatch> = if http.matches.is_empty() {
        vec![TranslatedMatch {
            matched: None,
            key: RouteKey::default(),
            uri_prefix: None,
            uri_field: String::new(),
        }]
    } else {
        http.matches
            .iter()
            .enumerate()
            .filter(|(i, _)| !dead.is_some_and(|d| d.contains(i)))
            .flat_map(|(i, m)| matches::translate(m, refusal, &format!("{path}.match[{i}]"), notes))
            .collect()
    };
    if translated.is_empty() {
        notes.push(
            Diagnostic::new(
                Code::IstioRuleDropped,
                "none of the matches of this entry can be expressed; the entry is dropped",
            )
            .at(path.to_string()),
        );
        return Vec::new();
    }

    let mut filters: Vec<HttpRouteFilter> = Vec::new();
    if let Some(h) = &http.headers {
        filters.extend(headers::filters(
            h,
            &format!("{path}.headers"),
            headers::Level::Route,
            notes,
        ));
    }
    if let Some(c) = &http.cors_policy
        && let Some(f) = cors::filter(c, &format!("{path}.corsPolicy"), notes)
    {
        filters.push(f);
    }
    filters.extend(mirror::filters(ctx, from, http, path, notes, grants));
    let base_name = http
        .name
        .as_deref()
        .map(|n| names::sanitize(n, names::MAX_NAME));
    if fault::effect(http.fault.as_ref(), path, notes) == fault::Effect::RefuseAll {
        // Envoy's fault filter answers before the router: no redirect, rewrite, mirror or
        // backend of the entry is reached.
        let mut groups: Vec<Group> = Vec::new();
        for tm in translated {
            push_shared(&mut groups, tm.key, tm.matched, None);
        }
        return groups
            .into_iter()
            .map(|(key, ms, _)| KeyedRule {
                key,
                lost_destinations: false,
                rule: HttpRouteRule {
                    name: base_name.clone(),
                    matches: if ms.iter().any(Option::is_none) {
                        Vec::new()
                    } else {
                        ms.into_iter().flatten().collect()
                    },
                    ..Default::default()
                },
            })
            .collect();
    }

    let mut backends: Vec<BackendRef> = Vec::new();
    let mut redirect_filter = None;
    let mut path_mode = PathMode::None;
    if let Some(r) = &http.redirect {
        let red = redirect::translate(r, &format!("{path}.redirect"), notes);
        if let Some(prefix) = red.prefix_rewrite {
            path_mode = PathMode::Uri(prefix);
        }
        redirect_filter = Some(red.filter);
        if http.direct_response.is_some() {
            notes.push(Diagnostic::new(Code::IstioDirectResponse, "directResponse next to redirect: Istio allows only one of them; the redirect is kept").at(format!("{path}.directResponse")));
        }
        if !http.route.is_empty() {
            notes.push(Diagnostic::new(Code::IstioRedirectWithRoute, "redirect together with route: Gateway API forbids backendRefs next to a RequestRedirect; the destinations were dropped (Istio also only redirects)").at(format!("{path}.route")));
        }
    } else if let Some(dr) = &http.direct_response {
        let status = dr.get("status").and_then(|s| s.as_u64()).unwrap_or(0);
        if status == 500 && dr.get("body").is_none() {
            notes.push(Diagnostic::new(Code::IstioDirectResponseSame, "directResponse 500 without body: written as a rule without backends, which Gateway API answers with 500 too").at(format!("{path}.directResponse")));
        } else if (500..=599).contains(&status) {
            notes.push(Diagnostic::new(Code::IstioDirectResponse, format!("directResponse {status}: written as a rule without backends, for which Gateway API answers 500 (status and body are not kept)")).at(format!("{path}.directResponse")));
        } else if (400..=499).contains(&status) {
            // A refusal (403 on /admin) must not turn into the catch-all backend serving the
            // path: keep the rule, without backends, so it still refuses.
            notes.push(Diagnostic::new(Code::IstioDirectResponseFailClosed, format!("directResponse {status}: Gateway API cannot answer {status}; the rule is kept without backends, so matching requests get 500 instead of {status} (still refused, not passed to other rules)")).at(format!("{path}.directResponse")));
        } else {
            notes.push(Diagnostic::new(Code::IstioDirectResponseDropped, format!("directResponse {status} has no Gateway API equivalent; rule dropped, so matching requests fall through to other rules")).at(format!("{path}.directResponse")));
            return Vec::new();
        }
    } else if http.route.is_empty() && http.delegate.is_none() {
        notes.push(
            Diagnostic::new(
                Code::IstioNoAction,
                "http entry has no route, redirect, directResponse or delegate; dropped",
            )
            .at(path.to_string()),
        );
        return Vec::new();
    } else {
        backends = destinations(ctx, from, http, path, notes, grants);
    }
    // Every destination was dropped (not a deliberate refusal): the rule now answers 500.
    let lost_destinations =
        redirect_filter.is_none() && !http.route.is_empty() && backends.is_empty();

    let mut url_hostname = None;
    if let Some(rw) = &http.rewrite {
        let rw_path = format!("{path}.rewrite");
        if redirect_filter.is_some() {
            notes.push(Diagnostic::new(Code::IstioRewriteWithRedirect, "rewrite together with redirect: Gateway API forbids URLRewrite next to RequestRedirect; rewrite dropped").at(rw_path));
        } else {
            let rw = rewrite::translate(rw, &rw_path, notes);
            url_hostname = rw.hostname;
            path_mode = match rw.path {
                PathRewrite::None => PathMode::None,
                PathRewrite::Uri(u) => PathMode::Uri(u),
                PathRewrite::FullPath(p) => PathMode::Full(p),
                PathRewrite::StripPrefix {
                    prefix,
                    replacement,
                } => PathMode::StripPrefix(prefix, replacement),
            };
        }
    }

    // route.go: without `rewrite.authority`, a `Host`/`:authority` among the route's request
    // header operations rewrites the host (a redirect ignores both).
    if url_hostname.is_none()
        && redirect_filter.is_none()
        && let Some(h) = &http.headers
        && let Some((host, field)) = headers::authority(h, &format!("{path}.headers"))
    {
        url_hostname = rewrite::hostname(&host, &field, notes);
        if let Some(written) = &url_hostname {
            notes.push(
                Diagnostic::new(
                    Code::IstioHostHeaderRewrite,
                    format!("the host is rewritten to '{written}' (URLRewrite hostname), as Istio does for a Host set through header operations"),
                )
                .at(field),
            );
        }
    }

    let mut timeouts = HttpRouteTimeouts::default();
    if let Some(t) = &http.timeout {
        timeouts.request = timeout::request_timeout(t, &format!("{path}.timeout"), notes);
    }
    let mut retry = None;
    if let Some(r) = &http.retries {
        let r = retries::translate(ctx, r, &format!("{path}.retries"), notes);
        retry = r.retry;
        timeouts.backend_request = r.backend_request;
    }
    if let (Some(req), Some(back)) = (&timeouts.request, &timeouts.backend_request)
        && req != "0s"
        && duration::parse_nanos(back) > duration::parse_nanos(req)
    {
        notes.push(Diagnostic::new(Code::IstioPerTryTimeout, "perTryTimeout is longer than the route timeout; Gateway API rejects that, so it is dropped (the route timeout bounds every try anyway)").at(format!("{path}.retries.perTryTimeout")));
        timeouts.backend_request = None;
    }
    let timeouts = (timeouts != HttpRouteTimeouts::default()).then_some(timeouts);

    // Group matches: (key, matches, path modifier).
    let mut groups: Vec<Group> = Vec::new();
    for tm in translated {
        match &path_mode {
            PathMode::Uri(uri) => {
                let kind = tm
                    .matched
                    .as_ref()
                    .and_then(|m| m.path.as_ref())
                    .map(|p| p.type_.clone());
                match kind.as_deref() {
                    // An Istio prefix emitted as a regex (ignoreUriCase, or a prefix Gateway
                    // API cannot hold): Istio replaces the prefix, so the rule keeps a
                    // PathPrefix match (case-sensitive now) rather than rewriting every
                    // path to the same value.
                    Some("RegularExpression") if tm.uri_prefix.is_some() => {
                        let prefix = tm.uri_prefix.clone().unwrap_or_default();
                        if super::matches::path_problem(&prefix).is_some() {
                            notes.push(Diagnostic::new(Code::IstioPrefixRewriteUnsupported, format!("prefix '{prefix}' cannot be a PathPrefix, and a prefix rewrite needs one (a full-path rewrite would send every path to '{uri}'): the match is dropped")).at(path.to_string()));
                            continue;
                        }
                        // The path is a PathPrefix after all: the regex notes do not apply.
                        notes.retain(|n| {
                            !(matches!(n.code, Code::IstioIgnoreUriCase | Code::IstioPrefixAsRegex)
                                && n.location
                                    .field
                                    .as_deref()
                                    .is_some_and(|f| f.starts_with(&tm.uri_field)))
                        });
                        notes.push(Diagnostic::new(Code::IstioPrefixRewriteCaseSensitive, format!("case-insensitive prefix '{prefix}' with a prefix rewrite: written as PathPrefix '{prefix}' + ReplacePrefixMatch '{uri}' (ReplacePrefixMatch needs a PathPrefix match), so other cases of the prefix no longer match this rule")).at(path.to_string()));
                        prefix_note(ctx, &prefix, uri, path, notes);
                        let mut m = tm.matched.unwrap_or_default();
                        m.path = Some(HttpPathMatch {
                            type_: "PathPrefix".into(),
                            value: prefix,
                        });
                        groups.push((
                            tm.key,
                            vec![Some(m)],
                            Some(HttpPathModifier::prefix_match(uri.clone())),
                        ));
                    }
                    Some("PathPrefix") => {
                        if let Some(prefix) = tm.matched.as_ref().and_then(|m| m.path.as_ref()) {
                            prefix_note(ctx, &prefix.value, uri, path, notes);
                        }
                        groups.push((
                            tm.key,
                            vec![tm.matched],
                            Some(HttpPathModifier::prefix_match(uri.clone())),
                        ));
                    }
                    Some(_) => push_shared(
                        &mut groups,
                        tm.key,
                        tm.matched,
                        Some(HttpPathModifier::full_path(uri.clone())),
                    ),
                    None => {
                        let mut m = tm.matched.unwrap_or_default();
                        m.path = Some(HttpPathMatch {
                            type_: "PathPrefix".into(),
                            value: "/".into(),
                        });
                        // Istio's and Envoy Gateway's implementations hand `/` to Envoy as a
                        // plain prefix, so they glue the replacement to the rest as the
                        // VirtualService did (semantics::gateway_api::filters `modify_path`).
                        // They drop a trailing `/` of the replacement first, so `/v2/` gives
                        // `/v2x` where Istio gave `/v2/x`.
                        let same = !matches!(ctx.config.target, crate::config::Target::Generic)
                            && (uri == "/" || !uri.ends_with('/'));
                        let message = if same {
                            "prefix rewrite on a rule without uri match: written as ReplacePrefixMatch with an explicit PathPrefix '/' match (the CRD requires exactly one PathPrefix match); the target, like Istio, turns '/x' into '<uri>x'"
                        } else {
                            "prefix rewrite on a rule without uri match: written as ReplacePrefixMatch with an explicit PathPrefix '/' match (the CRD requires exactly one PathPrefix match); Istio turns '/x' into '<uri>x', the Gateway API specification into '<uri>/x', and Istio's and Envoy Gateway's implementations drop a trailing '/' of the replacement before gluing it"
                        };
                        notes.push(
                            Diagnostic::new(Code::IstioRewriteWithoutUriMatch, message)
                                .at(path.to_string()),
                        );
                        prefix_note(ctx, "/", uri, path, notes);
                        groups.push((
                            tm.key,
                            vec![Some(m)],
                            Some(HttpPathModifier::prefix_match(uri.clone())),
                        ));
                    }
                }
            }
            PathMode::StripPrefix(prefix, replacement) => {
                let on_prefix = tm
                    .matched
                    .as_ref()
                    .and_then(|m| m.path.as_ref())
                    .is_some_and(|p| p.type_ == "PathPrefix" && p.value == *prefix);
                // A match strictly under the stripped prefix keeps the rest of its path after
                // the replacement, as Istio's regex gives it: PathPrefix `/api/v1` with `/`
                // becomes ReplacePrefixMatch `/v1`, Exact `/api/health` ReplaceFullPath
                // `/health`.
                let under = tm
                    .matched
                    .as_ref()
                    .and_then(|m| m.path.as_ref())
                    .filter(|p| p.type_ == "PathPrefix" || p.type_ == "Exact")
                    .and_then(|p| {
                        let value = if p.type_ == "PathPrefix" {
                            p.value.trim_end_matches('/')
                        } else {
                            p.value.as_str()
                        };
                        let rest = value.strip_prefix(prefix.trim_end_matches('/'))?;
                        rest.starts_with('/').then(|| {
                            let joined = format!("{}{rest}", replacement.trim_end_matches('/'));
                            let joined = if joined.is_empty() {
                                "/".to_string()
                            } else {
                                joined
                            };
                            if p.type_ == "Exact" {
                                HttpPathModifier::full_path(joined)
                            } else {
                                HttpPathModifier::prefix_match(joined)
                            }
                        })
                    });
                if on_prefix {
                    groups.push((
                        tm.key,
                        vec![tm.matched],
                        Some(HttpPathModifier::prefix_match(replacement.clone())),
                    ));
                } else if let Some(modifier) = under {
                    groups.push((tm.key, vec![tm.matched], Some(modifier)));
                } else {
                    notes.push(Diagnostic::new(Code::IstioRegexRewrite, format!("uriRegexRewrite strips '{prefix}', but this match is not the prefix '{prefix}', so ReplacePrefixMatch cannot express it here; the rewrite is dropped for this match")).at(format!("{path}.rewrite.uriRegexRewrite")));
                    push_shared(&mut groups, tm.key, tm.matched, None);
                }
            }
            PathMode::Full(p) => push_shared(
                &mut groups,
                tm.key,
                tm.matched,
                Some(HttpPathModifier::full_path(p.clone())),
            ),
            PathMode::None => push_shared(&mut groups, tm.key, tm.matched, None),
        }
    }

    groups
        .into_iter()
        .map(|(key, ms, modifier)| {
            let mut rule_filters = filters.clone();
            if let Some(r) = &redirect_filter {
                let mut r = r.clone();
                if modifier.is_some() {
                    r.path = modifier.clone();
                }
                rule_filters.push(HttpRouteFilter::request_redirect(r));
            } else if let Some(f) = rewrite::filter(&url_hostname, modifier) {
                rule_filters.push(HttpRouteFilter::url_rewrite(f));
            }
            let matches = if ms.iter().any(Option::is_none) {
                Vec::new()
            } else {
                ms.into_iter().flatten().collect()
            };
            KeyedRule {
                key,
                lost_destinations,
                rule: HttpRouteRule {
                    name: base_name.clone(),
                    matches,
                    filters: rule_filters,
                    backend_refs: backends.clone(),
                    timeouts: timeouts.clone(),
                    retry: retry.clone(),
                    session_persistence: None,
                },
            }
        })
        .collect()
}

fn prefix_note(ctx: &Ctx, prefix: &str, uri: &str, path: &str, notes: &mut Vec<Diagnostic>) {
    // Under `/` Istio's and Envoy Gateway's implementations replace verbatim too (see
    // `istio/rewrite-without-uri-match`).
    if prefix == "/" && !matches!(ctx.config.target, crate::config::Target::Generic) {
        if uri != "/" && uri.ends_with('/') {
            notes.push(Diagnostic::new(Code::IstioRewritePrefixSemantics, format!("Istio replaces the prefix '/' with '{uri}' verbatim ('/x' becomes '{uri}x'); the target's implementation drops the replacement's trailing '/' first, so '/x' becomes '{}x'", uri.trim_end_matches('/'))).at(format!("{path}.rewrite")));
        }
        return;
    }
    if prefix.ends_with('/') != uri.ends_with('/') {
        notes.push(Diagnostic::new(Code::IstioRewritePrefixSemantics, format!("Istio replaces the string prefix '{prefix}' with '{uri}' verbatim; Gateway API ReplacePrefixMatch replaces whole path segments and normalises the '/' between them, so results differ (e.g. '{prefix}/x')")).at(format!("{path}.rewrite")));
    }
}

fn destinations(
    ctx: &Ctx,
    from: &From,
    http: &HttpRoute,
    path: &str,
    notes: &mut Vec<Diagnostic>,
    grants: &mut Vec<GrantRequest>,
) -> Vec<BackendRef> {
    let mut resolved = Vec::new();
    for (j, d) in http.route.iter().enumerate() {
        let field = format!("{path}.route[{j}]");
        unknown::report(&d.extra, &field, notes);
        let Some(dest) = &d.destination else {
            notes.push(
                Diagnostic::new(
                    Code::IstioDestinationHostMissing,
                    "route entry without destination; dropped",
                )
                .at(field),
            );
            continue;
        };
        let Some(mut b) = destination::backend_ref(
            ctx,
            from,
            dest,
            &format!("{field}.destination"),
            notes,
            grants,
        ) else {
            continue;
        };
        if let Some(h) = &d.headers {
            b.filters = headers::filters(
                h,
                &format!("{field}.headers"),
                headers::Level::Destination,
                notes,
            );
        }
        resolved.push((b, d.weight));
    }
    if resolved.len() > MAX_BACKENDS {
        notes.push(Diagnostic::new(Code::IstioTooManyBackends, format!("{} destinations; Gateway API allows {MAX_BACKENDS} backendRefs per rule, the rest were dropped", resolved.len())).at(format!("{path}.route")));
        resolved.truncate(MAX_BACKENDS);
    }
    if !http.route.is_empty() && resolved.is_empty() {
        notes.push(Diagnostic::new(Code::IstioNoBackends, "no destination could be translated: the rule has no backends, so Gateway API answers 500").at(format!("{path}.route")));
    }
    destination::apply_weights(&mut resolved, path, notes);
    resolved.into_iter().map(|(b, _)| b).collect()
}
