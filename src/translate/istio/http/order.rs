//! First-match order. Istio tries a VirtualService's `http[]` entries in order and takes the
//! first that matches (istio/istio `pilot/pkg/networking/core/route/route.go`
//! `BuildHTTPRoutesForVirtualService`); Gateway API takes the most specific match (path kind
//! and length, then method, headers, query; rule order only among equals: HTTPRouteRule
//! godoc in `apis/v1/httproute_types.go`). Two translations keep Istio's answer:
//!
//! - **Dead entries.** Istio stops at the first catch-all (an entry without `match`, or a
//!   match that becomes `prefix /` with no header or query condition, such as
//!   `match: [{name: x}]`: `IsCatchAllRoute`). Later entries never applied there and are
//!   dropped ([`drop_after_catch_all`]).
//! - **Carried conditions.** Where an earlier entry A and a later entry B can take the same
//!   request and Gateway API ranks B's match above A's, a copy of A's rule is placed before
//!   B's rule with the intersection of both matches: B's path and the conditions of both.
//!   That copy ranks at least as high as B's match and comes first among equals, so the
//!   requests Istio gave A still reach A ([`carry`]). Copies are closed under the same rule
//!   among themselves. Where no exact intersection exists (a regex path on the earlier
//!   side, a prefix rewrite under a regex, two conditions on one header), the pair is
//!   reported with `istio/precedence-changed`.

use std::collections::BTreeSet;

use super::KeyedRule;
use crate::diagnostic::{Code, Diagnostic};
use crate::gwapi::{HttpHeaderMatch, HttpPathMatch, HttpPathModifier, HttpRouteMatch};
use crate::model::istio::{HttpMatchRequest, HttpRoute, StringMatch};
use crate::semantics::gateway_api::Profile;
use crate::semantics::gateway_api::precedence::{MatchShape, PathKind, key};

/// Most copies carried onto one match of a later entry; past it the pair is reported.
const MAX_CARRIED: usize = 32;

/// Whether an Istio string match is unset for `IsCatchAllRoute` (Go's empty string).
fn unset(m: &Option<StringMatch>) -> bool {
    m.as_ref().is_none_or(|m| {
        m.exact.as_deref().unwrap_or("").is_empty()
            && m.prefix.as_deref().unwrap_or("").is_empty()
            && m.regex.as_deref().unwrap_or("").is_empty()
    })
}

/// Whether Istio builds `m` into a catch-all Envoy route on every port and gateway the
/// VirtualService serves: path `prefix /` (or regex `.*`, or none), no header, query,
/// method, authority or scheme condition (each an Envoy header matcher), and no filter
/// (`port`, `gateways`, `sourceLabels`, `sourceNamespace`) that could leave it out.
fn catch_all_match(m: &HttpMatchRequest) -> bool {
    let uri_all = m.uri.as_ref().is_none_or(|u| {
        let exact = u.exact.as_deref().unwrap_or("");
        let prefix = u.prefix.as_deref().unwrap_or("");
        let regex = u.regex.as_deref().unwrap_or("");
        exact.is_empty() && matches!((prefix, regex), ("" | "/", "") | ("", ".*"))
    });
    uri_all
        && unset(&m.method)
        && unset(&m.authority)
        && unset(&m.scheme)
        && m.headers.is_empty()
        && m.query_params.is_empty()
        && m.without_headers.is_empty()
        && m.port.is_none()
        && m.gateways.is_empty()
        && m.source_labels.is_empty()
        && m.source_namespace.as_deref().unwrap_or("").is_empty()
}

/// Entries after the first catch-all entry never applied in Istio: dropped, one note each.
pub(super) fn drop_after_catch_all(
    entries: &mut Vec<(String, HttpRoute)>,
    dead: &super::source::DeadMatches,
    notes: &mut Vec<Diagnostic>,
) {
    let live = |path: &String, i: usize| !dead.get(path).is_some_and(|d| d.contains(&i));
    let Some(first) = entries.iter().position(|(path, h)| {
        h.matches.is_empty()
            || h.matches
                .iter()
                .enumerate()
                .any(|(i, m)| live(path, i) && catch_all_match(m))
    }) else {
        return;
    };
    let catch_all = entries[first].0.clone();
    for (path, _) in entries.drain(first + 1..) {
        notes.push(
            Diagnostic::new(
                Code::IstioAfterCatchAll,
                format!("this entry comes after the catch-all {catch_all}: Istio stops at a catch-all, so it never applied; not translated (in Gateway API it would take the requests it names)"),
            )
            .at(path),
        );
    }
}

/// Whether a generated match takes every request of its route's listeners and host.
fn takes_everything(m: &HttpRouteMatch) -> bool {
    m.method.is_none()
        && m.headers.is_empty()
        && m.query_params.is_empty()
        && m.path
            .as_ref()
            .is_none_or(|p| p.type_ == "PathPrefix" && segment_prefix(&p.value).is_empty())
}

/// The rules of one route after the first rule that takes every request there (a match on
/// nothing but the listener's port, scheme or gateway, or the route's only host): Istio never
/// reached them on those listeners, so they are left out of this route (they stay in the
/// routes of the other listeners). One note per entry left out.
pub(super) fn truncate_after_catch_all(
    in_route: &mut Vec<(String, Vec<KeyedRule>)>,
    notes: &mut Vec<Diagnostic>,
) {
    let Some(first) = in_route.iter().position(|(_, rules)| {
        rules
            .iter()
            .any(|r| r.rule.matches.is_empty() || r.rule.matches.iter().any(takes_everything))
    }) else {
        return;
    };
    let catch_all = in_route[first].0.clone();
    for (path, _) in in_route.drain(first + 1..) {
        notes.push(
            Diagnostic::new(
                Code::IstioAfterCatchAll,
                format!("this entry comes after {catch_all}, which takes every request on the listeners or host it is bound to: Istio never reached this entry there, so it is left out of that route (in Gateway API it would take the requests it names)"),
            )
            .at(path),
        );
    }
}

/// The match as the precedence key sees it (`None`: every path, `PathPrefix /`).
fn shape(m: &HttpRouteMatch) -> MatchShape {
    let (path_kind, path) = match &m.path {
        Some(p) if p.type_ == "Exact" => (PathKind::Exact, p.value.clone()),
        Some(p) if p.type_ == "PathPrefix" => (PathKind::Prefix, p.value.clone()),
        Some(p) => (PathKind::Regex, p.value.clone()),
        None => (PathKind::Prefix, "/".to_string()),
    };
    MatchShape {
        path_kind,
        path,
        method: m.method.is_some(),
        headers: m.headers.len(),
        query: m.query_params.len(),
    }
}

/// Whether some implementation ranks `later` above `earlier` (the spec's order under
/// Istio's and Envoy Gateway's readings of it; equals keep rule order).
fn outranks(later: &HttpRouteMatch, earlier: &HttpRouteMatch) -> bool {
    let (l, e) = (shape(later), shape(earlier));
    [Profile::Istio, Profile::EnvoyGateway]
        .into_iter()
        .any(|p| key(&l, p) > key(&e, p))
}

/// A PathPrefix value without its trailing `/` (Gateway API prefixes match whole segments,
/// so `/api/` and `/api` match alike).
fn segment_prefix(p: &str) -> &str {
    p.trim_end_matches('/')
}

/// Whether every path `inner` matches is also matched by `outer`. `None` when unknown.
fn path_within(inner: Option<&HttpPathMatch>, outer: Option<&HttpPathMatch>) -> Option<bool> {
    let Some(outer) = outer else {
        return Some(true);
    };
    if outer.type_ == "PathPrefix" && segment_prefix(&outer.value).is_empty() {
        return Some(true);
    }
    let inner_default;
    let inner = match inner {
        Some(i) => i,
        None => {
            inner_default = HttpPathMatch {
                type_: "PathPrefix".into(),
                value: "/".into(),
            };
            &inner_default
        }
    };
    let under = |p: &str, path: &str| {
        let p = segment_prefix(p);
        path == p || path.starts_with(&format!("{p}/"))
    };
    match (inner.type_.as_str(), outer.type_.as_str()) {
        ("Exact", "Exact") => Some(inner.value == outer.value),
        ("Exact", "PathPrefix") => Some(under(&outer.value, &inner.value)),
        ("PathPrefix", "PathPrefix") => Some(under(&outer.value, segment_prefix(&inner.value))),
        ("PathPrefix", "Exact") => Some(false),
        ("RegularExpression", "PathPrefix") => {
            let literal = crate::pattern::literal_prefix(&inner.value);
            let p = segment_prefix(&outer.value);
            (!inner.value.starts_with("(?") && literal.starts_with(&format!("{p}/")))
                .then_some(true)
        }
        ("RegularExpression", "RegularExpression") if inner.value == outer.value => Some(true),
        _ => None,
    }
}

/// Conditions of one kind (headers or query parameters) merged: `Err(())` when they can
/// never hold together, `Ok(None)` when the union is not expressible (two different
/// conditions on one name, which Gateway API does not allow).
fn union(
    a: &[HttpHeaderMatch],
    b: &[HttpHeaderMatch],
    same_name: fn(&str, &str) -> bool,
) -> Result<Option<Vec<HttpHeaderMatch>>, ()> {
    let mut out = b.to_vec();
    for x in a {
        match b.iter().find(|y| same_name(&x.name, &y.name)) {
            None => out.push(x.clone()),
            Some(y) if y.type_ == x.type_ && y.value == x.value => {}
            Some(y) if y.type_ == "Exact" && x.type_ == "Exact" => return Err(()),
            Some(_) => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// The intersection of an earlier match `a` and a later match `b` that Gateway API may rank
/// above it, with the path of `b`. `Err(())`: the two never take the same request.
/// `Ok(None)`: they may, and the intersection is not expressible with `b`'s path.
fn intersect(a: &HttpRouteMatch, b: &HttpRouteMatch) -> Result<Option<HttpRouteMatch>, ()> {
    if let (Some(x), Some(y)) = (&a.method, &b.method)
        && x != y
    {
        return Err(());
    }
    if !super::precedence::may_overlap(Some(a), Some(b)) {
        return Err(());
    }
    let headers = union(&a.headers, &b.headers, |x, y| x.eq_ignore_ascii_case(y))?;
    let query = union(&a.query_params, &b.query_params, |x, y| x == y)?;
    let (Some(headers), Some(query)) = (headers, query) else {
        return Ok(None);
    };
    if path_within(b.path.as_ref(), a.path.as_ref()) != Some(true) {
        return Ok(None);
    }
    Ok(Some(HttpRouteMatch {
        path: b.path.clone(),
        headers,
        query_params: query,
        method: a.method.clone().or_else(|| b.method.clone()),
    }))
}

/// A copy of `rule` serving only `at`, which lies under `from` (the match it was written
/// for): a prefix replacement keeps replacing `from`'s prefix. `None` when that cannot be
/// said for `at`'s path.
fn rule_at(rule: &KeyedRule, from: &HttpRouteMatch, at: HttpRouteMatch) -> Option<KeyedRule> {
    let mut copy = rule.clone();
    for f in &mut copy.rule.filters {
        let modifier = f
            .url_rewrite
            .as_mut()
            .and_then(|r| r.path.as_mut())
            .or_else(|| f.request_redirect.as_mut().and_then(|r| r.path.as_mut()));
        let Some(modifier) = modifier else { continue };
        let Some(replacement) = modifier.replace_prefix_match.clone() else {
            continue;
        };
        let matched = from.path.as_ref().map_or("/", |p| segment_prefix(&p.value));
        let Some(at_path) = at.path.as_ref() else {
            continue;
        };
        if at_path.type_ == "RegularExpression" {
            return None;
        }
        let rest = segment_prefix(&at_path.value)
            .strip_prefix(matched)
            .unwrap_or("");
        if rest.is_empty() && at_path.type_ == "PathPrefix" {
            continue;
        }
        // Under the prefix `/` the replacement is glued to the rest as Istio did it (Istio's
        // and Envoy Gateway's implementations replace `/` verbatim too: `/x` + `api/y`);
        // under a longer prefix whole segments are replaced.
        let joined = if matched.is_empty() {
            format!("{replacement}{}", rest.trim_start_matches('/'))
        } else {
            format!("{}{rest}", replacement.trim_end_matches('/'))
        };
        let joined = if joined.is_empty() {
            "/".into()
        } else {
            joined
        };
        *modifier = if at_path.type_ == "Exact" {
            HttpPathModifier::full_path(joined)
        } else {
            HttpPathModifier {
                replace_prefix_match: Some(joined),
                ..modifier.clone()
            }
        };
    }
    copy.rule.matches = vec![at];
    // The copy is Istio's earlier entry serving part of the later one's paths; it keeps the
    // entry's rule name only once (names must be unique; `unique_rule_names` suffixes it).
    Some(copy)
}

/// A rule kept only to refuse: no backends, no redirect, and not because its destinations
/// were lost in translation.
fn is_refusal(rule: &KeyedRule) -> bool {
    rule.rule.backend_refs.is_empty()
        && !rule.lost_destinations
        && !rule
            .rule
            .filters
            .iter()
            .any(|f| f.request_redirect.is_some())
}

/// A carried copy: the position of the entry whose rule it copies, that rule and the match
/// it was written for, and the copy.
struct Carried<'a> {
    entry: usize,
    source: &'a KeyedRule,
    from: &'a HttpRouteMatch,
    rule: KeyedRule,
}

/// Places before each rule the copies of earlier entries' rules that keep Istio's
/// first-match answer (module doc). `per_entry` holds the rules of one route (every rule
/// competes with every other), in Istio's order.
pub(super) fn carry(per_entry: &mut [(String, Vec<KeyedRule>)], notes: &mut Vec<Diagnostic>) {
    let everything = HttpRouteMatch::default();
    let original: Vec<(String, Vec<KeyedRule>)> = per_entry.to_vec();
    for b in 1..original.len() {
        let mut rebuilt: Vec<KeyedRule> = Vec::new();
        let mut reported: BTreeSet<usize> = BTreeSet::new();
        let mut carried_from: BTreeSet<usize> = BTreeSet::new();
        for rb in &original[b].1 {
            let b_matches: Vec<&HttpRouteMatch> = if rb.rule.matches.is_empty() {
                vec![&everything]
            } else {
                rb.rule.matches.iter().collect()
            };
            let mut carried: Vec<Carried> = Vec::new();
            for mb in b_matches {
                let mut for_match: Vec<Carried> = Vec::new();
                for (a, (_, a_rules)) in original.iter().enumerate().take(b) {
                    for ra in a_rules {
                        let a_matches: Vec<&HttpRouteMatch> = if ra.rule.matches.is_empty() {
                            vec![&everything]
                        } else {
                            ra.rule.matches.iter().collect()
                        };
                        for ma in a_matches {
                            if !outranks(mb, ma) {
                                continue;
                            }
                            match intersect(ma, mb) {
                                Err(()) => {}
                                Ok(Some(at)) => match rule_at(ra, ma, at) {
                                    Some(rule) => for_match.push(Carried {
                                        entry: a,
                                        source: ra,
                                        from: ma,
                                        rule,
                                    }),
                                    None => {
                                        reported.insert(a);
                                    }
                                },
                                Ok(None) => {
                                    reported.insert(a);
                                }
                            }
                        }
                    }
                }
                // An incomplete closure is reported and still kept: each copy gives the
                // requests it covers to the entry Istio would have chosen before the other.
                close(&mut for_match, &mut reported);
                carried.extend(for_match);
            }
            carried.sort_by_key(|c| c.entry);
            carried_from.extend(carried.iter().map(|c| c.entry));
            rebuilt.extend(carried.into_iter().map(|c| c.rule));
            rebuilt.push(rb.clone());
        }
        per_entry[b].1 = rebuilt;
        for a in carried_from {
            notes.push(
                Diagnostic::new(
                    Code::IstioFirstMatchCarried,
                    format!(
                        "{} comes first in Istio for the requests it shares with this entry; Gateway API would prefer this entry's more specific match, so a copy of {}'s rule with both entries' conditions is placed before this one",
                        original[a].0, original[a].0
                    ),
                )
                .at(original[b].0.clone()),
            );
        }
        for a in reported {
            // A refusal (a 4xx direct response or an abort kept without backends) that Gateway
            // API ranks below a later rule opens what Istio refused.
            if original[a].1.iter().any(is_refusal) {
                notes.push(
                    Diagnostic::new(
                        Code::IstioRefusalOvertaken,
                        format!(
                            "this entry refused the requests it matches in Istio (first match wins); Gateway API ranks {}'s match above it, so requests matching both are now served by {} instead of refused, and this entry's conditions cannot be carried onto that match exactly",
                            original[b].0, original[b].0
                        ),
                    )
                    .at(original[a].0.clone()),
                );
                continue;
            }
            notes.push(
                Diagnostic::new(
                    Code::IstioPrecedenceChanged,
                    format!(
                        "requests matching both {} and {} went to {} in Istio (first match wins); Gateway API ranks the later, more specific match first, and the earlier entry's conditions cannot be carried onto it exactly",
                        original[a].0, original[b].0, original[a].0
                    ),
                )
                .at(original[b].0.clone()),
            );
        }
    }
}

/// Closes the copies for one later match under the same rule: where a copy of a later entry
/// may outrank a copy of an earlier one on a common request, the earlier one's rule also
/// serves their intersection. The entries are reported when that does not end within
/// [`MAX_CARRIED`] copies or is not expressible.
fn close(carried: &mut Vec<Carried>, reported: &mut BTreeSet<usize>) {
    let mut i = 0;
    while i < carried.len() {
        let mut added = Vec::new();
        for j in 0..carried.len() {
            let (t, s) = (&carried[j], &carried[i]);
            if t.entry >= s.entry {
                continue;
            }
            let (mt, ms) = (&t.rule.rule.matches[0], &s.rule.rule.matches[0]);
            if !outranks(ms, mt) {
                continue;
            }
            match intersect(mt, ms) {
                Err(()) => {}
                Ok(Some(at)) => {
                    if carried
                        .iter()
                        .chain(added.iter())
                        .any(|c: &Carried| c.entry == t.entry && c.rule.rule.matches[0] == at)
                    {
                        continue;
                    }
                    let Some(rule) = rule_at(t.source, t.from, at) else {
                        reported.insert(t.entry);
                        return;
                    };
                    added.push(Carried {
                        entry: t.entry,
                        source: t.source,
                        from: t.from,
                        rule,
                    });
                }
                Ok(None) => {
                    reported.insert(t.entry);
                    return;
                }
            }
        }
        carried.extend(added);
        if carried.len() > MAX_CARRIED {
            reported.extend(carried.iter().map(|c| c.entry));
            return;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gwapi::{HttpRouteFilter, HttpRouteRule, HttpUrlRewriteFilter};
    use crate::translate::istio::http::RouteKey;

    fn path(type_: &str, value: &str) -> Option<HttpPathMatch> {
        Some(HttpPathMatch {
            type_: type_.into(),
            value: value.into(),
        })
    }

    fn header(name: &str, value: &str) -> HttpHeaderMatch {
        HttpHeaderMatch {
            type_: "Exact".into(),
            name: name.into(),
            value: value.into(),
        }
    }

    // route.go IsCatchAllRoute: `prefix /` or regex `.*` with no header or query matcher;
    // a match with only a name becomes `prefix /`.
    #[test]
    fn catch_all_is_prefix_slash_without_conditions() {
        let named = HttpMatchRequest {
            name: Some("x".into()),
            ..Default::default()
        };
        assert!(catch_all_match(&named));
        let regex_all = HttpMatchRequest {
            uri: Some(StringMatch {
                regex: Some(".*".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(catch_all_match(&regex_all));
        let with_method = HttpMatchRequest {
            method: Some(StringMatch {
                exact: Some("GET".into()),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(!catch_all_match(&with_method));
        let on_port = HttpMatchRequest {
            port: Some(80),
            ..Default::default()
        };
        assert!(!catch_all_match(&on_port));
    }

    #[test]
    fn the_intersection_takes_the_later_path_and_both_conditions() {
        let earlier = HttpRouteMatch {
            path: path("PathPrefix", "/api"),
            headers: vec![header("x-canary", "true")],
            ..Default::default()
        };
        let later = HttpRouteMatch {
            path: path("PathPrefix", "/api/orders"),
            method: Some("GET".into()),
            ..Default::default()
        };
        let at = intersect(&earlier, &later).unwrap().unwrap();
        assert_eq!(at.path, later.path);
        assert_eq!(at.headers, earlier.headers);
        assert_eq!(at.method.as_deref(), Some("GET"));
        // `/apiv2` is not under the segment prefix `/api`.
        let outside = HttpRouteMatch {
            path: path("PathPrefix", "/apiv2"),
            ..Default::default()
        };
        assert!(!matches!(intersect(&earlier, &outside), Ok(Some(_))));
        // Two exact values of one header never hold together.
        let other_value = HttpRouteMatch {
            path: path("PathPrefix", "/api/x"),
            headers: vec![header("X-Canary", "false")],
            ..Default::default()
        };
        assert_eq!(intersect(&earlier, &other_value), Err(()));
        // A regex on the earlier side: not expressible.
        let regex = HttpRouteMatch {
            path: path("RegularExpression", "/api/v[0-9]+"),
            ..Default::default()
        };
        let under_regex = HttpRouteMatch {
            path: path("PathPrefix", "/api/v2"),
            ..Default::default()
        };
        assert_eq!(intersect(&regex, &under_regex), Ok(None));
        // ... and a regex that cannot reach the later path never overlaps it.
        assert_eq!(intersect(&regex, &later), Err(()));
    }

    #[test]
    fn a_prefix_rewrite_is_restated_for_the_longer_path() {
        let from = HttpRouteMatch {
            path: path("PathPrefix", "/api"),
            ..Default::default()
        };
        let rule = KeyedRule {
            key: RouteKey::default(),
            lost_destinations: false,
            rule: HttpRouteRule {
                matches: vec![from.clone()],
                filters: vec![HttpRouteFilter {
                    type_: "URLRewrite".into(),
                    url_rewrite: Some(HttpUrlRewriteFilter {
                        hostname: None,
                        path: Some(HttpPathModifier {
                            type_: "ReplacePrefixMatch".into(),
                            replace_full_path: None,
                            replace_prefix_match: Some("/v2/".into()),
                        }),
                    }),
                    ..Default::default()
                }],
                ..Default::default()
            },
        };
        let modifier = |m: HttpRouteMatch| {
            rule_at(&rule, &from, m).and_then(|r| {
                r.rule.filters[0]
                    .url_rewrite
                    .as_ref()
                    .and_then(|u| u.path.clone())
            })
        };
        let longer = modifier(HttpRouteMatch {
            path: path("PathPrefix", "/api/orders"),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(longer.replace_prefix_match.as_deref(), Some("/v2/orders"));
        let exact = modifier(HttpRouteMatch {
            path: path("Exact", "/api/orders/export"),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(exact.type_, "ReplaceFullPath");
        assert_eq!(
            exact.replace_full_path.as_deref(),
            Some("/v2/orders/export")
        );
        // Under `/` the replacement is glued on as Istio does (`/v2/` + `api/orders`).
        let root = HttpRouteMatch {
            path: path("PathPrefix", "/"),
            ..Default::default()
        };
        let glued = rule_at(
            &rule,
            &root,
            HttpRouteMatch {
                path: path("PathPrefix", "/api/orders"),
                ..Default::default()
            },
        )
        .and_then(|r| {
            r.rule.filters[0]
                .url_rewrite
                .as_ref()
                .and_then(|u| u.path.clone())
        })
        .unwrap();
        assert_eq!(
            glued.replace_prefix_match.as_deref(),
            Some("/v2/api/orders")
        );
        assert!(
            rule_at(
                &rule,
                &from,
                HttpRouteMatch {
                    path: path("RegularExpression", "/api/v[0-9]+"),
                    ..Default::default()
                }
            )
            .is_none()
        );
    }
}
