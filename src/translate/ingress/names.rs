//! Names of generated objects and listeners: valid DNS-1123 subdomains, at most 253 characters,
//! unique per namespace and kind (a counter suffix settles collisions, in index order, so
//! output is deterministic).

use std::collections::{BTreeMap, BTreeSet};

use sha2::{Digest, Sha256};

/// Longest object or listener name Gateway API accepts.
pub(crate) const MAX_NAME: usize = 253;
/// Longest Gateway name: Gateway names SHOULD be RFC 1035 labels (implementations derive
/// Service and Deployment names from them).
pub(crate) const MAX_GATEWAY_NAME: usize = 63;

/// A host as a name part: lowercase, `*` → `wildcard`, every other character outside
/// `[a-z0-9]` → `-`; an absent host is `all-hosts`.
pub(crate) fn host_part(host: Option<&str>) -> String {
    match host {
        None | Some("") | Some("*") => "all-hosts".into(),
        Some(h) => dns_label_chars(&h.replacen('*', "wildcard", 1)),
    }
}

/// `text` reduced to `[a-z0-9-]`, no leading/trailing/double dashes (empty → `x`).
pub(crate) fn dns_label_chars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches('-');
    if trimmed.is_empty() {
        "x".into()
    } else {
        trimmed.to_string()
    }
}

/// `name` shortened to `max` characters, keeping it unique by replacing the tail with a hash
/// of the whole name.
pub(crate) fn fit(name: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_string();
    }
    let digest = Sha256::digest(name.as_bytes());
    let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let mut keep = max.saturating_sub(hash.len() + 1);
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    let head = name[..keep].trim_end_matches(['-', '.']);
    format!("{head}-{hash}")
}

/// Hands out unique names per `(namespace, kind)`.
#[derive(Debug, Default)]
pub(crate) struct NameAllocator {
    used: BTreeMap<(String, String), BTreeSet<String>>,
    /// `(wanted, given)` for names changed because they were taken, since the last
    /// [`NameAllocator::take_renamed`].
    renamed: Vec<(String, String)>,
}

impl NameAllocator {
    /// Marks `name` as taken for `(namespace, kind)`: an object the repository already holds.
    pub(crate) fn reserve(&mut self, namespace: &str, kind: &str, name: &str) {
        self.used
            .entry((namespace.to_string(), kind.to_string()))
            .or_default()
            .insert(name.to_string());
    }

    /// `wanted` (fitted to `max`), or `wanted-2`, `wanted-3`, ... when taken.
    pub(crate) fn allocate(
        &mut self,
        namespace: &str,
        kind: &str,
        wanted: &str,
        max: usize,
    ) -> String {
        let used = self
            .used
            .entry((namespace.to_string(), kind.to_string()))
            .or_default();
        let base = fit(wanted, max);
        let mut candidate = base.clone();
        let mut n = 2;
        while used.contains(&candidate) {
            let suffix = format!("-{n}");
            candidate = format!("{}{suffix}", fit(&base, max - suffix.len()));
            n += 1;
        }
        used.insert(candidate.clone());
        if candidate != base {
            self.renamed.push((base, candidate.clone()));
        }
        candidate
    }

    /// The renames since the last call.
    pub(crate) fn take_renamed(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.renamed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_become_dns_names() {
        assert_eq!(host_part(Some("Foo.Bar.com")), "foo-bar-com");
        assert_eq!(host_part(Some("*.foo.com")), "wildcard-foo-com");
        assert_eq!(host_part(None), "all-hosts");
        assert_eq!(
            dns_label_chars("ingressClass_ingress1"),
            "ingressclass-ingress1"
        );
    }

    #[test]
    fn long_names_are_cut_with_a_hash_and_stay_unique() {
        let long = "a".repeat(300);
        let fitted = fit(&long, MAX_NAME);
        assert_eq!(fitted.len(), MAX_NAME);
        assert_ne!(fit(&format!("{long}b"), MAX_NAME), fitted);
        // Never cuts inside a character.
        assert!(fit(&"é".repeat(200), MAX_NAME).len() <= MAX_NAME);
    }

    #[test]
    fn collisions_get_a_counter() {
        let mut names = NameAllocator::default();
        assert_eq!(names.allocate("ns", "HTTPRoute", "a-b", 253), "a-b");
        assert_eq!(names.allocate("ns", "HTTPRoute", "a-b", 253), "a-b-2");
        assert_eq!(names.allocate("other", "HTTPRoute", "a-b", 253), "a-b");
        assert_eq!(names.allocate("ns", "GRPCRoute", "a-b", 253), "a-b");
    }
}
