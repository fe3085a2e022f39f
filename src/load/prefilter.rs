//! A cheap look at a document's bytes that decides whether it needs a full parse.
//!
//! Most documents of a manifests repository (Deployments, ConfigMaps, CRDs, ...) do not matter
//! to the translation. Their top-level `kind:` line says so without a parse. When the scan
//! cannot tell (no column-0 `kind:` line, flow-style documents, JSON), it answers "parse".

/// Kinds whose documents are decoded. Gateway API kinds are parsed to be validated and, for
/// Gateways, mounted onto.
pub(crate) const RELEVANT_KINDS: &[&str] = &[
    "Gateway",
    "VirtualService",
    "DestinationRule",
    "Ingress",
    "IngressClass",
    "Service",
    "Secret",
    "Namespace",
    "GatewayClass",
    "HTTPRoute",
    "GRPCRoute",
    "TLSRoute",
    "TCPRoute",
    "UDPRoute",
    "ReferenceGrant",
    "BackendTLSPolicy",
    "ListenerSet",
    "Kustomization",
    "Application",
];

/// Whether a document may hold an object of a relevant kind (or a `List` of them).
pub(crate) fn needs_parse(doc: &[u8]) -> bool {
    match top_level_kind(doc) {
        Some(kind) => RELEVANT_KINDS.contains(&kind.as_str()) || kind.ends_with("List"),
        // No column-0 `kind:` line: a flow mapping, an indented document, or no kind at all.
        // Parse only if the word appears at all.
        None => contains(doc, b"kind"),
    }
}

/// The value of the first column-0 `kind:` line, unquoted, without a trailing comment.
pub fn top_level_kind(doc: &[u8]) -> Option<String> {
    for line in doc.split(|&b| b == b'\n') {
        let Some(rest) = line.strip_prefix(b"kind:") else {
            continue;
        };
        let text = std::str::from_utf8(rest).ok()?;
        let text = text.split(" #").next().unwrap_or("").trim();
        let text = text.trim_matches(|c| c == '"' || c == '\'');
        return Some(text.to_string());
    }
    None
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_top_level_kind() {
        assert_eq!(
            top_level_kind(b"apiVersion: v1\nkind: \"Service\" # svc\n").as_deref(),
            Some("Service")
        );
        assert_eq!(top_level_kind(b"spec:\n  kind: Nested\n"), None);
    }

    #[test]
    fn skips_irrelevant_kinds_and_keeps_unknown_shapes() {
        assert!(!needs_parse(b"apiVersion: apps/v1\nkind: Deployment\n"));
        assert!(needs_parse(b"apiVersion: v1\nkind: List\nitems: []\n"));
        assert!(needs_parse(b"{\"kind\": \"Service\"}"));
        assert!(!needs_parse(b"# just a comment\n"));
    }
}
