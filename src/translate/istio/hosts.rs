//! Host names: Istio's wildcard overlap rule, Gateway API hostname validity, short-name and
//! FQDN parsing.

use std::net::IpAddr;

/// Whether two Istio hosts (each may be `*` or `*.suffix`) can name the same request host.
/// Same rule as Istio's `host.Name.Matches` in both directions.
pub(super) fn overlap(a: &str, b: &str) -> bool {
    let a = a.to_ascii_lowercase();
    let b = b.to_ascii_lowercase();
    if a == b || a == "*" || b == "*" {
        return true;
    }
    match (a.strip_prefix('*'), b.strip_prefix('*')) {
        (Some(sa), Some(sb)) => sa.ends_with(sb) || sb.ends_with(sa),
        (Some(sa), None) => b.ends_with(sa),
        (None, Some(sb)) => a.ends_with(sb),
        (None, None) => false,
    }
}

/// Why a host cannot be a Gateway API `Hostname`, or `None` when it can (after lowercasing).
pub(super) fn hostname_problem(host: &str) -> Option<&'static str> {
    if host == "*" {
        return Some("a bare '*' is not a Gateway API hostname (omit hostnames instead)");
    }
    if host.parse::<IpAddr>().is_ok() {
        return Some("IP addresses are not allowed in Gateway API hostnames");
    }
    if host.len() > 253 {
        return Some("longer than 253 characters");
    }
    let rest = host.strip_prefix("*.").unwrap_or(host);
    let ok = !rest.is_empty()
        && rest.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    if ok {
        None
    } else {
        Some("not a valid RFC 1123 hostname (wildcards only as the whole first label)")
    }
}

/// A VirtualService host as Istio matches it: a short name (no dot) is expanded to
/// `<name>.<namespace>.svc.<cluster domain>`; everything else is lowercased.
/// A templated host (`model::template`) is kept as written: the substitution must still find
/// it.
pub(super) fn expand_short(host: &str, namespace: &str, cluster_domain: &str) -> String {
    if crate::model::template::template_of(host).is_some() {
        return host.to_string();
    }
    let host = host.to_ascii_lowercase();
    if host != "*" && !host.contains('.') && host.parse::<IpAddr>().is_err() {
        format!("{host}.{namespace}.svc.{cluster_domain}")
    } else {
        host
    }
}

/// A destination host resolved to a Kubernetes Service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum HostKind {
    /// `name` or `name.ns.svc.<cluster domain>`: a Service.
    Service { name: String, namespace: String },
    /// `name.ns` or `name.ns.svc`: Istio takes these literally; they resolve only when the
    /// Service exists in the repository.
    Ambiguous { name: String, namespace: String },
    /// Anything else: a ServiceEntry or external host.
    External,
}

/// Istio's short-name rule: a host without dots is a Service in the namespace of the object
/// that names it; `name.ns.svc.<domain>` is a Service, whatever the domain (only a cluster's
/// DNS serves `svc.<domain>` names, so another domain, or a templated one, says the cluster
/// domain is not the configured one: [`service_domain`] tells); anything else is taken
/// literally.
pub(super) fn classify(host: &str, namespace: &str, _cluster_domain: &str) -> HostKind {
    let host = crate::model::template::host_as_matched(host.trim_end_matches('.'));
    if host.contains('*') || host.parse::<IpAddr>().is_ok() {
        return HostKind::External;
    }
    let parts: Vec<&str> = host.split('.').collect();
    match parts.as_slice() {
        [name] => HostKind::Service {
            name: name.to_string(),
            namespace: namespace.to_string(),
        },
        [name, ns] | [name, ns, "svc"] => HostKind::Ambiguous {
            name: name.to_string(),
            namespace: ns.to_string(),
        },
        [name, ns, "svc", _, ..] => HostKind::Service {
            name: name.to_string(),
            namespace: ns.to_string(),
        },
        _ => HostKind::External,
    }
}

/// The domain of a `name.ns.svc.<domain>` host when it is not `cluster_domain`.
pub(super) fn service_domain(host: &str, cluster_domain: &str) -> Option<String> {
    let host = crate::model::template::host_as_matched(host.trim_end_matches('.'));
    let mut parts = host.splitn(4, '.');
    let (_, _, svc, domain) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    (svc == "svc" && !domain.eq_ignore_ascii_case(cluster_domain)).then(|| domain.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_overlap_like_istio() {
        assert!(overlap("*", "a.com"));
        assert!(overlap("*.a.com", "x.a.com"));
        assert!(overlap("x.a.com", "*.a.com"));
        assert!(overlap("*.a.com", "*.b.a.com"));
        assert!(!overlap("*.a.com", "a.com"));
        assert!(!overlap("a.com", "b.com"));
    }

    #[test]
    fn hosts_classify_by_istio_short_name_rules() {
        assert_eq!(
            classify("reviews", "bookinfo", "cluster.local"),
            HostKind::Service {
                name: "reviews".into(),
                namespace: "bookinfo".into()
            }
        );
        assert_eq!(
            classify("reviews.prod.svc.cluster.local", "x", "cluster.local"),
            HostKind::Service {
                name: "reviews".into(),
                namespace: "prod".into()
            }
        );
        assert!(matches!(
            classify("reviews.prod", "x", "cluster.local"),
            HostKind::Ambiguous { .. }
        ));
        assert_eq!(
            classify("reviews.prod.svc.corp.local", "x", "cluster.local"),
            HostKind::Service {
                name: "reviews".into(),
                namespace: "prod".into()
            }
        );
        assert_eq!(
            service_domain("reviews.prod.svc.corp.local", "cluster.local").as_deref(),
            Some("corp.local")
        );
        assert_eq!(
            service_domain("reviews.prod.svc.$(CLUSTER_DOMAIN)", "cluster.local").as_deref(),
            Some("$(CLUSTER_DOMAIN)")
        );
        assert_eq!(
            service_domain("reviews.prod.svc.cluster.local", "cluster.local"),
            None
        );
        assert_eq!(
            classify("www.google.com", "x", "cluster.local"),
            HostKind::External
        );
    }

    #[test]
    fn hostname_validity() {
        assert!(hostname_problem("a.example.com").is_none());
        assert!(hostname_problem("*.example.com").is_none());
        assert!(hostname_problem("*").is_some());
        assert!(hostname_problem("10.0.0.1").is_some());
        assert!(hostname_problem("A.com").is_some());
        assert!(hostname_problem("a.*.com").is_some());
    }
}
