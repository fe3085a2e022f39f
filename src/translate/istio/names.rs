//! Names of generated objects and listeners: valid Kubernetes names (RFC 1123 subdomains,
//! ≤253 characters), derived deterministically from the source names.

use sha2::{Digest, Sha256};

/// The longest name Kubernetes accepts for the objects we generate.
pub(super) const MAX_NAME: usize = 253;

/// `raw` as a lowercase RFC 1123 subdomain: characters outside `[a-z0-9.-]` become `-`, runs of
/// separators collapse, and names longer than `max` are cut and end in a hash of the original
/// so that two long names stay distinct.
pub(super) fn sanitize(raw: &str, max: usize) -> String {
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars().flat_map(char::to_lowercase) {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-' {
            c
        } else {
            '-'
        };
        let last = out.chars().last();
        if (c == '-' || c == '.') && matches!(last, Some('-') | Some('.') | None) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('-') || out.ends_with('.') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("unnamed");
    }
    if out.len() > max {
        let hash = short_hash(raw);
        let mut cut = out[..max.saturating_sub(hash.len() + 1)].to_string();
        while cut.ends_with('-') || cut.ends_with('.') {
            cut.pop();
        }
        out = format!("{cut}-{hash}");
    }
    out
}

/// Eight hex digits of the SHA-256 of `text`.
pub(super) fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A name from `base` that is not in `taken`: `base`, then `base-2`, `base-3`, ...
pub(super) fn unique(base: &str, taken: &mut std::collections::BTreeSet<String>) -> String {
    if taken.insert(base.to_string()) {
        return base.to_string();
    }
    let mut n = 2;
    loop {
        let suffix = format!("-{n}");
        let stem = if base.len() + suffix.len() > MAX_NAME {
            &base[..MAX_NAME - suffix.len()]
        } else {
            base
        };
        let candidate = format!("{stem}{suffix}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_rfc1123_subdomains() {
        assert_eq!(sanitize("My_Route..x", 253), "my-route.x");
        assert_eq!(sanitize("*.example.com", 253), "example.com");
        assert_eq!(sanitize("__", 253), "unnamed");
        let long = "a".repeat(300);
        let s = sanitize(&long, 253);
        assert_eq!(s.len(), 253);
        assert_ne!(sanitize(&format!("{long}b"), 253), s);
    }

    #[test]
    fn unique_adds_a_counter() {
        let mut taken = Default::default();
        assert_eq!(unique("a", &mut taken), "a");
        assert_eq!(unique("a", &mut taken), "a-2");
        assert_eq!(unique("a", &mut taken), "a-3");
    }
}
