//! Delegate VirtualServices merged into their roots, as Istio does before it builds any
//! route. Source: istio/istio `pilot/pkg/model/virtualservice_controller.go`
//! `mergeVirtualServices` (which delegate, visibility), `pilot/pkg/model/virtualservice.go`
//! `MergeHTTPRoutes`, `mergeHTTPRoute`, `mergeHTTPMatchRequests`, `mergeHTTPMatchRequest`,
//! `hasConflict`, `stringMatchConflict` (how). The facts are restated as requests in
//! `tests/semantics/istio/delegate-*.yaml`.
//!
//! - A root's `http[]` entry with `delegate` is replaced by the delegate's entries, each
//!   merged with it; an entry whose matches do not all fit under the root's is dropped.
//! - A missing delegate, or one not exported to the root's namespace, drops only that entry.
//! - A merged entry keeps its own rewrite, headers, timeout, retries, fault, mirrors, CORS and
//!   direct response, and takes the root entry's for each it leaves unset (per field).

use std::collections::BTreeMap;

use crate::model::istio::{HttpMatchRequest, HttpRoute, StringMatch};

/// Go's `GetRegex() != ""` and friends: an empty string is unset.
fn set(v: &Option<String>) -> Option<&str> {
    v.as_deref().filter(|s| !s.is_empty())
}

/// `stringMatchConflict`: whether `leaf` is not narrower than `root`. Either side unset is
/// no conflict; a regex on either side conflicts with anything set on the other; under an
/// exact root only the same exact fits; under a prefix root a prefix or exact starting with
/// it fits; anything else conflicts.
fn string_conflict(root: Option<&StringMatch>, leaf: Option<&StringMatch>) -> bool {
    let (Some(root), Some(leaf)) = (root, leaf) else {
        return false;
    };
    let leaf_any =
        set(&leaf.regex).is_some() || set(&leaf.prefix).is_some() || set(&leaf.exact).is_some();
    let root_any =
        set(&root.regex).is_some() || set(&root.prefix).is_some() || set(&root.exact).is_some();
    if set(&root.regex).is_some() && leaf_any {
        return true;
    }
    if set(&leaf.regex).is_some() && root_any {
        return true;
    }
    if let Some(exact) = set(&root.exact) {
        return set(&leaf.prefix).is_some() || set(&leaf.exact) != Some(exact);
    }
    if let Some(prefix) = set(&root.prefix) {
        if let Some(p) = set(&leaf.prefix) {
            return !p.starts_with(prefix);
        }
        if let Some(e) = set(&leaf.exact) {
            return !e.starts_with(prefix);
        }
    }
    true
}

/// `hasConflict`: whether the delegate's match `leaf` does not fit under the root's match.
fn conflict(root: &HttpMatchRequest, leaf: &HttpMatchRequest) -> bool {
    let pairs = [
        (&root.uri, &leaf.uri),
        (&root.scheme, &leaf.scheme),
        (&root.method, &leaf.method),
        (&root.authority, &leaf.authority),
    ];
    if pairs
        .iter()
        .any(|(r, l)| string_conflict(r.as_ref(), l.as_ref()))
    {
        return true;
    }
    let per_name = |root: &BTreeMap<String, StringMatch>, leaf: &BTreeMap<String, StringMatch>| {
        leaf.iter()
            .any(|(name, l)| string_conflict(root.get(name), Some(l)))
    };
    if per_name(&root.headers, &leaf.headers)
        || per_name(&root.without_headers, &leaf.without_headers)
        || per_name(&root.query_params, &leaf.query_params)
    {
        return true;
    }
    if root.ignore_uri_case.unwrap_or(false) != leaf.ignore_uri_case.unwrap_or(false) {
        return true;
    }
    if let (Some(r), Some(l)) = (root.port, leaf.port)
        && r != l
    {
        return true;
    }
    // An unset delegate sourceNamespace under a set root one conflicts too.
    if let Some(ns) = set(&root.source_namespace)
        && set(&leaf.source_namespace) != Some(ns)
    {
        return true;
    }
    if leaf
        .source_labels
        .iter()
        .any(|(k, v)| root.source_labels.get(k).is_some_and(|r| r != v))
    {
        return true;
    }
    if !root.gateways.is_empty() && !leaf.gateways.is_empty() {
        if root.gateways.len() < leaf.gateways.len() {
            return true;
        }
        if leaf.gateways.iter().any(|g| !root.gateways.contains(g)) {
            return true;
        }
    }
    false
}

/// `mergeHTTPMatchRequest`: the delegate's condition where it sets one, the root's
/// otherwise; for maps, the delegate's entry replaces the root's of the same name.
fn merge_match(root: &HttpMatchRequest, leaf: &HttpMatchRequest) -> HttpMatchRequest {
    let mut out = leaf.clone();
    let either = |l: &Option<StringMatch>, r: &Option<StringMatch>| l.clone().or_else(|| r.clone());
    out.uri = either(&leaf.uri, &root.uri);
    out.scheme = either(&leaf.scheme, &root.scheme);
    out.method = either(&leaf.method, &root.method);
    out.authority = either(&leaf.authority, &root.authority);
    let merged = |r: &BTreeMap<String, StringMatch>, l: &BTreeMap<String, StringMatch>| {
        let mut m = r.clone();
        m.extend(l.iter().map(|(k, v)| (k.clone(), v.clone())));
        m
    };
    out.headers = merged(&root.headers, &leaf.headers);
    out.without_headers = merged(&root.without_headers, &leaf.without_headers);
    out.query_params = merged(&root.query_params, &leaf.query_params);
    out.port = leaf.port.or(root.port);
    let mut labels = root.source_labels.clone();
    labels.extend(leaf.source_labels.clone());
    out.source_labels = labels;
    if set(&leaf.source_namespace).is_none() {
        out.source_namespace = root.source_namespace.clone();
    }
    if leaf.gateways.is_empty() {
        out.gateways = root.gateways.clone();
    }
    out
}

/// One merged match: the condition, and the position of the delegate's match it came from
/// (`None` when the delegate entry has no match and takes the root's).
pub(super) type MergedMatch = (HttpMatchRequest, Option<usize>);

/// `mergeHTTPMatchRequests`: `None` when a delegate match fits under no root match (the
/// whole delegate entry is dropped, its other matches included).
fn merge_matches(root: &[HttpMatchRequest], leaf: &[HttpMatchRequest]) -> Option<Vec<MergedMatch>> {
    if root.is_empty() {
        return Some(leaf.iter().cloned().zip((0..).map(Some)).collect());
    }
    if leaf.is_empty() {
        return Some(root.iter().cloned().map(|m| (m, None)).collect());
    }
    let mut out = Vec::new();
    for (i, l) in leaf.iter().enumerate() {
        let fitting: Vec<MergedMatch> = root
            .iter()
            .filter(|r| !conflict(r, l))
            .map(|r| (merge_match(r, l), Some(i)))
            .collect();
        if fitting.is_empty() {
            return None;
        }
        out.extend(fitting);
    }
    Some(out)
}

/// `mergeHTTPRoute`: the delegate entry merged with the root entry, or `None` on a conflict.
pub(super) fn merge_route(
    root: &HttpRoute,
    leaf: &HttpRoute,
) -> Option<(HttpRoute, Vec<Option<usize>>)> {
    let matches = merge_matches(&root.matches, &leaf.matches)?;
    let mut out = leaf.clone();
    let (conditions, positions): (Vec<_>, Vec<_>) = matches.into_iter().unzip();
    out.matches = conditions;
    if out.rewrite.is_none() {
        out.rewrite = root.rewrite.clone();
    }
    if out.direct_response.is_none() {
        out.direct_response = root.direct_response.clone();
    }
    if out.timeout.is_none() {
        out.timeout = root.timeout.clone();
    }
    if out.retries.is_none() {
        out.retries = root.retries.clone();
    }
    if out.fault.is_none() {
        out.fault = root.fault.clone();
    }
    if out.mirror.is_none() {
        out.mirror = root.mirror.clone();
    }
    if out.mirror_percent.is_none() {
        out.mirror_percent = root.mirror_percent;
    }
    if out.mirror_percentage.is_none() {
        out.mirror_percentage = root.mirror_percentage.clone();
    }
    if out.cors_policy.is_none() {
        out.cors_policy = root.cors_policy.clone();
    }
    if out.mirrors.is_empty() {
        out.mirrors = root.mirrors.clone();
    }
    if out.headers.is_none() {
        out.headers = root.headers.clone();
    }
    Some((out, positions))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix(p: &str) -> Option<StringMatch> {
        Some(StringMatch {
            prefix: Some(p.into()),
            ..Default::default()
        })
    }

    fn exact(p: &str) -> Option<StringMatch> {
        Some(StringMatch {
            exact: Some(p.into()),
            ..Default::default()
        })
    }

    fn regex(p: &str) -> Option<StringMatch> {
        Some(StringMatch {
            regex: Some(p.into()),
            ..Default::default()
        })
    }

    // virtualservice_test.go TestHasConflict: a delegate prefix must start with the root's;
    // regex on either side conflicts; exact under exact must be equal.
    #[test]
    fn string_conditions_fit_only_when_narrower() {
        let c = |r: Option<StringMatch>, l: Option<StringMatch>| {
            string_conflict(r.as_ref(), l.as_ref())
        };
        assert!(!c(prefix("/productpage"), prefix("/productpage/v1")));
        assert!(c(prefix("/productpage/v1"), prefix("/productpage")));
        assert!(!c(prefix("/p"), exact("/p/x")));
        assert!(c(exact("/p"), prefix("/p")));
        assert!(c(exact("/p"), exact("/q")));
        assert!(!c(exact("/p"), exact("/p")));
        assert!(c(regex(".*"), prefix("/")));
        assert!(c(prefix("/"), regex("/.*")));
        assert!(!c(None, regex("/.*")));
        assert!(!c(prefix("/"), None));
    }

    // TestMergeHTTPMatchRequests: one delegate match outside the root drops the entry; a
    // match fitting two root matches is merged with each.
    #[test]
    fn one_misfit_drops_the_entry_and_fits_multiply() {
        let m = |uri| HttpMatchRequest {
            uri,
            ..Default::default()
        };
        let root = [m(prefix("/a")), m(prefix("/b"))];
        assert!(merge_matches(&root, &[m(prefix("/a/1")), m(prefix("/c"))]).is_none());
        let merged = merge_matches(&[m(prefix("/")), m(prefix("/x"))], &[m(None)]).unwrap();
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[1].0.uri, prefix("/x"));
        assert_eq!(merged[1].1, Some(0));
    }

    // mergeHTTPRoute: headers are inherited only when the delegate entry has none.
    #[test]
    fn fields_are_inherited_per_field() {
        let root = HttpRoute {
            timeout: Some("5s".into()),
            rewrite: Some(Default::default()),
            ..Default::default()
        };
        let leaf = HttpRoute {
            timeout: Some("1s".into()),
            ..Default::default()
        };
        let (merged, _) = merge_route(&root, &leaf).unwrap();
        assert_eq!(merged.timeout.as_deref(), Some("1s"));
        assert!(merged.rewrite.is_some());
    }
}
