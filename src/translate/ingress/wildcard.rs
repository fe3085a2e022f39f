//! Hostnames and the wildcard trap: an Ingress `*.foo.com` matches exactly one label
//! (`a.foo.com`, not `a.b.foo.com`); a Gateway API `*.foo.com` matches any number of labels.

use std::sync::LazyLock;

use regex::Regex;

use crate::diagnostic::{Code, Diagnostic};

static HOSTNAME: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::constant(
        r"^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
    )
});

/// Whether `host` is a valid Gateway API `Hostname` (no IP addresses).
pub(crate) fn valid_hostname(host: &str) -> bool {
    host.len() <= 253 && HOSTNAME.is_match(host) && host.parse::<std::net::Ipv4Addr>().is_err()
}

/// Ingress semantics: whether the Ingress host or TLS host `pattern` covers `host`
/// (a wildcard covers exactly one extra label).
pub(crate) fn host_matches(pattern: &str, host: &str) -> bool {
    if pattern == host {
        return true;
    }
    match pattern.strip_prefix("*.") {
        Some(suffix) => host
            .strip_suffix(suffix)
            .and_then(|h| h.strip_suffix('.'))
            .is_some_and(|label| !label.is_empty() && !label.contains('.')),
        None => false,
    }
}

/// The wildcard whose certificate ingress-nginx falls back to for `host` (`certificate.lua`
/// `get_pem_cert_uid`: the first label replaced by `*`); `None` for a wildcard or a single
/// label.
pub(crate) fn certificate_fallback(host: &str) -> Option<String> {
    if host.starts_with("*.") {
        return None;
    }
    host.split_once('.').map(|(_, rest)| format!("*.{rest}"))
}

/// The note for an Ingress wildcard host.
pub(crate) fn note(host: &str, field: &str) -> Diagnostic {
    Diagnostic::new(
        Code::IngressWildcardHost,
        format!(
            "host {host}: an Ingress wildcard matches exactly one DNS label, a Gateway API wildcard any number (a.b.{} now matches too)",
            host.trim_start_matches("*.")
        ),
    )
    .at(field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ingress_wildcards_cover_one_label_gateway_wildcards_many() {
        assert!(host_matches("*.foo.com", "a.foo.com"));
        assert!(!host_matches("*.foo.com", "a.b.foo.com"));
        assert!(!host_matches("*.foo.com", "foo.com"));
    }

    #[test]
    fn hostnames_are_checked() {
        assert!(valid_hostname("*.foo.com"));
        assert!(valid_hostname("canary"));
        assert!(!valid_hostname("10.0.0.1"));
        assert!(!valid_hostname("Foo.com"));
        assert!(!valid_hostname("a.*.com"));
    }
}
