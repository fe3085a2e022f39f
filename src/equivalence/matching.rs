//! String and host matching shared by the models. Regexes are compiled once, when a model is
//! built; an expression the `regex` crate cannot compile (a PCRE-only feature) makes the
//! probes that reach it unmodelled rather than guessed.

use regex::Regex;

/// A compiled string condition.
#[derive(Debug, Clone)]
pub(crate) enum Matcher {
    /// The value must be present (any value).
    Present,
    /// Equal; `fold` compares ASCII case-insensitively.
    Exact { value: String, fold: bool },
    /// Starts with; `fold` as above.
    Prefix { value: String, fold: bool },
    /// The whole value matches (Envoy `safe_regex`, Gateway API `RegularExpression`).
    Regex(Regex),
    /// An expression that does not compile: the outcome cannot be predicted.
    Invalid,
}

impl Matcher {
    pub(crate) fn exact(value: &str, fold: bool) -> Self {
        Matcher::Exact {
            value: value.to_string(),
            fold,
        }
    }

    pub(crate) fn prefix(value: &str, fold: bool) -> Self {
        Matcher::Prefix {
            value: value.to_string(),
            fold,
        }
    }

    /// A regex that must match the whole value.
    pub(crate) fn full_regex(pattern: &str) -> Self {
        match Regex::new(&format!("^(?:{pattern})$")) {
            Ok(re) => Matcher::Regex(re),
            Err(_) => Matcher::Invalid,
        }
    }

    /// `Some(true/false)`, or `None` when the condition cannot be evaluated.
    pub(crate) fn test(&self, value: Option<&str>) -> Option<bool> {
        let Some(v) = value else {
            return Some(false);
        };
        Some(match self {
            Matcher::Present => true,
            Matcher::Exact { value, fold: false } => v == value,
            Matcher::Exact { value, fold: true } => v.eq_ignore_ascii_case(value),
            Matcher::Prefix { value, fold: false } => v.starts_with(value.as_str()),
            Matcher::Prefix { value, fold: true } => v
                .get(..value.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(value)),
            Matcher::Regex(re) => re.is_match(v),
            Matcher::Invalid => return None,
        })
    }

    /// A value this condition accepts, for probes (`None` when none is obvious).
    pub(crate) fn sample(&self) -> Option<String> {
        match self {
            Matcher::Present => Some("gm-probe".into()),
            Matcher::Exact { value, .. } => Some(value.clone()),
            Matcher::Prefix { value, .. } => Some(format!("{value}gm")),
            Matcher::Regex(re) => {
                let literal = literal_prefix(re.as_str().trim_start_matches("^(?:"));
                // A few shapes cover the common ones: a version or id after the literal
                // part, then nothing, a segment, or more segments.
                ["", "1", "a", "/1", "1/", "1/x", "a/x", "/1/x", "x/y"]
                    .iter()
                    .map(|tail| format!("{literal}{tail}"))
                    .chain(["gm-probe".to_string()])
                    .find(|c| re.is_match(c))
            }
            Matcher::Invalid => None,
        }
    }
}

pub(crate) use crate::pattern::literal_prefix;

/// Whether `pattern` (`a.example.com`, `*.example.com`, `*`) covers `host`. A wildcard
/// label covers one or more labels (Gateway API and Envoy alike).
pub(crate) fn host_matches(pattern: &str, host: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    match pattern.strip_prefix("*.") {
        Some(suffix) => {
            let (h, s) = (host.as_bytes(), suffix.as_bytes());
            h.len() > s.len() + 1
                && h[h.len() - s.len() - 1] == b'.'
                && h[h.len() - s.len()..].eq_ignore_ascii_case(s)
        }
        None => pattern.eq_ignore_ascii_case(host),
    }
}

/// How specific a host pattern is: exact names first, then longer wildcards, then `*`.
pub(crate) fn host_rank(pattern: &str) -> (bool, usize) {
    if pattern == "*" {
        (false, 0)
    } else if pattern.starts_with("*.") {
        (false, pattern.len())
    } else {
        (true, pattern.len())
    }
}

/// The more specific of two host patterns when one covers the other (Istio's
/// `Names.Intersection`, Gateway API hostname intersection); `None` when disjoint.
pub(crate) fn intersect(a: &str, b: &str) -> Option<String> {
    let a = a.to_ascii_lowercase();
    let b = b.to_ascii_lowercase();
    if a == b {
        return Some(a);
    }
    if pattern_covers(&a, &b) {
        Some(b)
    } else if pattern_covers(&b, &a) {
        Some(a)
    } else {
        None
    }
}

/// Whether every host `inner` covers is covered by `outer`.
fn pattern_covers(outer: &str, inner: &str) -> bool {
    if outer == "*" {
        return true;
    }
    match (outer.strip_prefix("*."), inner.strip_prefix("*.")) {
        (Some(o), Some(i)) => i == o || i.ends_with(&format!(".{o}")),
        (Some(_), None) => host_matches(outer, inner),
        _ => false,
    }
}

/// A host under a pattern, for probes: the name itself, `gm-probe.<suffix>` under a
/// wildcard, `gm-probe.invalid` for `*`.
pub(crate) fn sample_host(pattern: &str) -> String {
    if pattern == "*" {
        "gm-probe.invalid".to_string()
    } else if let Some(suffix) = pattern.strip_prefix("*.") {
        format!("gm-probe.{}", suffix.to_ascii_lowercase())
    } else {
        pattern.to_ascii_lowercase()
    }
}

/// Gateway API `PathPrefix`: element-wise, a trailing slash ignored (`/foo` matches `/foo`,
/// `/foo/` and `/foo/bar`, not `/foobar`). Source: `HTTPPathMatch` in
/// gateway-api `apis/v1/httproute_types.go`.
pub(crate) fn path_prefix_matches(prefix: &str, path: &str) -> bool {
    let p = prefix.trim_end_matches('/');
    if p.is_empty() {
        return path.starts_with('/');
    }
    path == p
        || path
            .strip_prefix(p)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Istio and Envoy prefixes are string prefixes (`/api` matches `/apix`): Envoy
    // `RouteMatch.prefix`; `ignoreUriCase` folds case (Istio route.go TranslateRouteMatch
    // sets `case_sensitive: !ignoreUriCase`).
    #[test]
    fn string_prefix_and_case_folding() {
        assert_eq!(
            Matcher::prefix("/api", false).test(Some("/apix")),
            Some(true)
        );
        assert_eq!(
            Matcher::prefix("/api", false).test(Some("/API")),
            Some(false)
        );
        assert_eq!(
            Matcher::prefix("/api", true).test(Some("/API/v1")),
            Some(true)
        );
        assert_eq!(Matcher::exact("/a", true).test(Some("/A")), Some(true));
        assert_eq!(Matcher::exact("/a", false).test(None), Some(false));
    }

    // Envoy safe_regex matches the whole value (RE2 full match).
    #[test]
    fn regexes_match_the_whole_value_and_invalid_ones_are_unknown() {
        let m = Matcher::full_regex("/v[0-9]+");
        assert_eq!(m.test(Some("/v1")), Some(true));
        assert_eq!(m.test(Some("/v1/x")), Some(false));
        assert_eq!(Matcher::full_regex("(?=x)").test(Some("x")), None);
        assert_eq!(m.sample().as_deref(), Some("/v1"));
    }

    // Gateway API PathPrefix is element-wise (httproute_types.go, HTTPPathMatch).
    #[test]
    fn gateway_api_prefix_is_element_wise() {
        assert!(path_prefix_matches("/foo", "/foo"));
        assert!(path_prefix_matches("/foo/", "/foo"));
        assert!(path_prefix_matches("/foo", "/foo/bar"));
        assert!(!path_prefix_matches("/foo", "/foobar"));
        assert!(path_prefix_matches("/", "/anything"));
    }

    // Hostname intersection (httproute_types.go, Hostnames; Istio host.Names.Intersection).
    #[test]
    fn hosts_intersect_to_the_more_specific() {
        assert_eq!(
            intersect("*.example.com", "a.example.com").as_deref(),
            Some("a.example.com")
        );
        assert_eq!(intersect("*", "a.b").as_deref(), Some("a.b"));
        assert_eq!(intersect("example.com", "*.example.com"), None);
        assert!(host_matches("*.example.com", "a.b.example.com"));
        assert!(!host_matches("*.example.com", "example.com"));
        assert!(host_rank("a.example.com") > host_rank("*.example.com"));
        assert_eq!(literal_prefix("/foo/bar/(.+)"), "/foo/bar/");
        assert_eq!(literal_prefix("^/api/v1?"), "/api/v");
    }
}
