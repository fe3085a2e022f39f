//! Host names and host patterns as Gateway API and Envoy-based data planes (Istio's gateway
//! proxy, Envoy Gateway) treat them: `*.example.com` covers one **or more** labels in front
//! of `example.com` and never `example.com` itself; `*` (or no hostname) covers every host;
//! comparison ignores ASCII case. Sources: kubernetes-sigs/gateway-api `apis/v1/shared_types.go`
//! (`Hostname`: "a wildcard label … matches one or more labels") and `apis/v1/httproute_types.go`
//! (`HTTPRouteSpec.Hostnames`: intersection with the listener's hostname and precedence by
//! non-wildcard characters, then characters).
//!
//! ingress-nginx's wildcard covers exactly one label; that fact lives with its model, not here.

/// Whether host pattern `pattern` (`a.example.com`, `*.example.com`, `*`) covers `host` (a
/// concrete name; a port must already be stripped).
pub fn matches(pattern: &str, host: &str) -> bool {
    if pattern == "*" || pattern.is_empty() {
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

/// Whether every host `inner` covers is covered by `outer` (both patterns).
pub fn covers(outer: &str, inner: &str) -> bool {
    if outer == "*" || outer.is_empty() {
        return true;
    }
    match (outer.strip_prefix("*."), inner.strip_prefix("*.")) {
        (Some(o), Some(i)) => {
            i.eq_ignore_ascii_case(o)
                || (i.len() > o.len() + 1
                    && i.as_bytes()[i.len() - o.len() - 1] == b'.'
                    && i[i.len() - o.len()..].eq_ignore_ascii_case(o))
        }
        (Some(_), None) => inner != "*" && matches(outer, inner),
        (None, _) => outer.eq_ignore_ascii_case(inner),
    }
}

/// The hosts both patterns cover, as one pattern (the more specific one), lowercased; `None`
/// when they share no host. A missing pattern (`None`) is `*`: this is Gateway API's
/// intersection of a route hostname with a listener hostname, and Istio's
/// `host.Names.Intersection` for one pair.
pub fn intersect(a: &str, b: Option<&str>) -> Option<String> {
    let b = b.unwrap_or("*");
    let pick = if covers(a, b) {
        b
    } else if covers(b, a) {
        a
    } else {
        return None;
    };
    Some(pick.to_ascii_lowercase())
}

/// How specific a pattern is, larger first: exact names before wildcards, then more
/// characters (`HTTPRouteSpec.Hostnames` precedence; listener isolation ranks listeners
/// the same way). `*` ranks last.
pub fn specificity(pattern: &str) -> (bool, usize) {
    if pattern == "*" || pattern.is_empty() {
        (false, 0)
    } else if pattern.starts_with("*.") {
        (false, pattern.len())
    } else {
        (true, pattern.len())
    }
}

/// A concrete host a pattern covers, for probes and examples: the name itself,
/// `gm-probe.<suffix>` under a wildcard, `gm-probe.invalid` for `*`.
pub fn sample(pattern: &str) -> String {
    if pattern == "*" || pattern.is_empty() {
        "gm-probe.invalid".to_string()
    } else if let Some(suffix) = pattern.strip_prefix("*.") {
        format!("gm-probe.{}", suffix.to_ascii_lowercase())
    } else {
        pattern.to_ascii_lowercase()
    }
}

/// The host of a `Host` header or URL authority without its port (`[v6]:port` keeps the
/// brackets), lowercased.
pub fn without_port(authority: &str) -> String {
    split_authority(authority).0.to_ascii_lowercase()
}

/// An authority split into host and port text (`None` when there is no `:port`).
pub fn split_authority(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => {
                let rest = &authority[end + 1..];
                (&authority[..=end], rest.strip_prefix(':'))
            }
            None => (authority, None),
        };
    }
    match authority.split_once(':') {
        Some((h, port)) if !port.contains(':') => (h, Some(port)),
        _ => (authority, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // shared_types.go `Hostname`: `*.example.com` matches `foo.example.com` and
    // `foo.bar.example.com`, not `example.com`.
    #[test]
    fn a_wildcard_covers_one_or_more_labels() {
        assert!(matches("*.example.com", "foo.example.com"));
        assert!(matches("*.example.com", "foo.bar.example.com"));
        assert!(matches("*.example.com", "FOO.Example.COM"));
        assert!(!matches("*.example.com", "example.com"));
        assert!(!matches("*.example.com", "fooexample.com"));
        assert!(matches("*", "anything"));
        assert!(matches("Foo.com", "foo.COM"));
    }

    // httproute_types.go `Hostnames`: a route hostname that does not match the listener's is
    // ignored; the intersection is the more specific of the two.
    #[test]
    fn intersection_is_the_more_specific_pattern() {
        assert_eq!(
            intersect("foo.example.com", Some("*.example.com")).as_deref(),
            Some("foo.example.com")
        );
        assert_eq!(
            intersect("*.example.com", Some("foo.example.com")).as_deref(),
            Some("foo.example.com")
        );
        assert_eq!(
            intersect("*.a.example.com", Some("*.example.com")).as_deref(),
            Some("*.a.example.com")
        );
        assert_eq!(
            intersect("*.example.com", Some("*.a.example.com")).as_deref(),
            Some("*.a.example.com")
        );
        assert_eq!(
            intersect("*.example.com", None).as_deref(),
            Some("*.example.com")
        );
        assert_eq!(
            intersect("Foo.Example.com", Some("foo.example.com")).as_deref(),
            Some("foo.example.com")
        );
        assert_eq!(intersect("example.com", Some("*.example.com")), None);
        assert_eq!(intersect("*.example.com", Some("*.example.org")), None);
        assert_eq!(intersect("foo.example.com", Some("bar.example.com")), None);
        assert_eq!(
            intersect("*.example.com", Some("*.example.com")).as_deref(),
            Some("*.example.com")
        );
    }

    #[test]
    fn exact_names_outrank_wildcards_then_length() {
        assert!(specificity("a.example.com") > specificity("*.example.com"));
        assert!(specificity("*.a.example.com") > specificity("*.example.com"));
        assert!(specificity("*.example.com") > specificity("*"));
        assert!(specificity("example.com") > specificity("*.a.b.example.com"));
    }

    #[test]
    fn ports_are_stripped_from_authorities() {
        assert_eq!(without_port("Example.com:8080"), "example.com");
        assert_eq!(without_port("example.com"), "example.com");
        assert_eq!(without_port("[::1]:80"), "[::1]");
        assert_eq!(sample("*.Example.com"), "gm-probe.example.com");
    }
}
