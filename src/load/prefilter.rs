//! A cheap look at a document's bytes that decides whether it needs a full parse.
//!
//! Most documents of a manifests repository (Deployments, ConfigMaps, CRDs, ...) do not matter
//! to the translation. Their top-level `kind:` line says so without a parse. When the scan
//! cannot tell (no column-0 `kind:` line, flow-style documents, JSON), it answers "parse".

/// Kinds whose documents are decoded. Gateway API kinds (and Envoy Gateway's policies) are
/// parsed to be validated and, for Gateways, mounted onto.
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
    "SecurityPolicy",
    "BackendTrafficPolicy",
    "ClientTrafficPolicy",
    "Kustomization",
    "Application",
    "ApplicationSet",
];

/// The size up to which a ConfigMap that does not name nginx is still parsed.
pub(crate) const SMALL_CONFIG_MAP: usize = 16 * 1024;

/// Whether a document may hold an object of a relevant kind (or a `List` of them).
pub(crate) fn needs_parse(doc: &[u8]) -> bool {
    match top_level_kind(doc) {
        // A tag (`!!str VirtualService`), an anchor (`&k VirtualService`), an alias (`*k`) or
        // an escape in quotes: only the parser can tell what the kind is.
        Some(kind) if kind.starts_with(['!', '&', '*']) || kind.contains('\\') => true,
        // Repositories hold many ConfigMaps, some of them large (dashboards, scripts); only
        // the one an ingress-nginx controller's `--configmap` names matters. It names nginx
        // or is small; one that does neither is reported as not found
        // (`ingress-nginx/controller-config-incomplete`), never silently taken as empty.
        Some(kind) if kind == "ConfigMap" => {
            // A CA bundle a BackendTLSPolicy names holds `ca.crt`.
            contains(doc, b"nginx") || contains(doc, b"ca.crt") || doc.len() <= SMALL_CONFIG_MAP
        }
        Some(kind) => {
            RELEVANT_KINDS.contains(&kind.as_str())
                || crate::model::surrounding::is_read_kind(&kind)
                || kind.ends_with("List")
        }
        // No column-0 `kind:` line: a flow mapping, an indented document, or no kind at all.
        // Parse only if the word appears at all.
        None => contains(doc, b"kind"),
    }
}

/// The value of the first column-0 `kind:` line, unquoted, without a trailing comment.
pub fn top_level_kind(doc: &[u8]) -> Option<String> {
    top_level_value(doc, b"kind:").map(str::to_string)
}

/// The value of the first column-0 line starting with `key` (which ends in `:`), unquoted,
/// without a trailing comment.
fn top_level_value<'a>(doc: &'a [u8], key: &[u8]) -> Option<&'a str> {
    for line in doc.split(|&b| b == b'\n') {
        let Some(rest) = line.strip_prefix(key) else {
            continue;
        };
        let text = std::str::from_utf8(rest).ok()?;
        let text = text.split(" #").next().unwrap_or("").trim();
        return Some(text.trim_matches(|c| c == '"' || c == '\''));
    }
    None
}

/// `apps/Deployment`, `apps/StatefulSet` or `apps/DaemonSet` when the document's column-0
/// `kind:` and `apiVersion:` lines say it is one of those workloads (the kinds whose parse
/// [`super::Deferral::Workloads`] puts off).
pub(crate) fn apps_workload(doc: &[u8]) -> Option<String> {
    let kind = top_level_value(doc, b"kind:")?;
    if !matches!(kind, "Deployment" | "StatefulSet" | "DaemonSet") {
        return None;
    }
    let api_version = top_level_value(doc, b"apiVersion:")?;
    api_version
        .strip_prefix("apps/")
        .filter(|v| !v.is_empty() && !v.contains('/'))
        .map(|_| format!("apps/{kind}"))
}

/// Whether a workload document may run ingress-nginx's controller (its image or binary
/// name appears): such a workload is parsed at once rather than deferred.
pub(crate) fn may_run_nginx_controller(doc: &[u8]) -> bool {
    contains(doc, b"nginx-ingress-controller")
        || (contains(doc, b"ingress-nginx") && contains(doc, b"/controller"))
}

/// The API group of a `CustomResourceDefinition` document, read from its `spec.group` line
/// without a parse: CRDs are the largest and most deeply nested documents of a repository,
/// and the group is all the tool needs (whether Gateway API is installed).
pub(crate) fn crd_group(doc: &[u8]) -> Option<String> {
    if top_level_kind(doc).as_deref() != Some("CustomResourceDefinition") {
        return None;
    }
    let mut in_spec = false;
    for line in doc.split(|&b| b == b'\n') {
        if line
            .first()
            .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'#')
        {
            in_spec = line.starts_with(b"spec:");
            continue;
        }
        if !in_spec {
            continue;
        }
        let trimmed = line.trim_ascii_start();
        let indent = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix(b"group:")
            && (1..=4).contains(&indent)
        {
            let text = std::str::from_utf8(rest).ok()?;
            let text = text.split(" #").next().unwrap_or("").trim();
            let text = text.trim_matches(|c| c == '"' || c == '\'');
            return (!text.is_empty()).then(|| text.to_string());
        }
    }
    None
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {

    #[test]
    fn apps_workloads_are_recognised_from_their_column_0_lines() {
        assert_eq!(
            apps_workload(b"apiVersion: apps/v1\nkind: Deployment\n").as_deref(),
            Some("apps/Deployment")
        );
        assert_eq!(
            apps_workload(b"# c\nkind: \"StatefulSet\" # x\napiVersion: apps/v1\n").as_deref(),
            Some("apps/StatefulSet")
        );
        // Another group's kind of the same name, an older group, other kinds, no lines at
        // column 0: not deferred.
        for doc in [
            "apiVersion: example.com/v1\nkind: Deployment\n",
            "apiVersion: extensions/v1beta1\nkind: Deployment\n",
            "apiVersion: apps/v1\nkind: ReplicaSet\n",
            "apiVersion: apps/v1\n  kind: Deployment\n",
            "{apiVersion: apps/v1, kind: Deployment}",
        ] {
            assert_eq!(apps_workload(doc.as_bytes()), None, "{doc}");
        }
    }
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
    fn reads_a_crd_group_without_parsing() {
        let crd = b"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: httproutes.gateway.networking.k8s.io\n  annotations:\n    group: not-this\nspec:\n  names:\n    kind: HTTPRoute\n  group: \"gateway.networking.k8s.io\"\n";
        assert_eq!(crd_group(crd).as_deref(), Some("gateway.networking.k8s.io"));
        assert_eq!(crd_group(b"kind: Deployment\nspec:\n  group: x\n"), None);
        assert!(!needs_parse(crd));
    }

    #[test]
    fn skips_irrelevant_kinds_and_keeps_unknown_shapes() {
        // A large ConfigMap that does not name nginx is skipped; a small one or one naming
        // nginx is read (it may be a controller's `--configmap`).
        let dashboard = format!(
            "apiVersion: v1\nkind: ConfigMap\ndata:\n  d.json: \"{}\"\n",
            "x".repeat(SMALL_CONFIG_MAP)
        );
        assert!(!needs_parse(dashboard.as_bytes()));
        assert!(needs_parse(b"apiVersion: v1\nkind: ConfigMap\n"));
        assert!(needs_parse(
            b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ingress-nginx-controller\n"
        ));
        assert!(needs_parse(b"apiVersion: v1\nkind: List\nitems: []\n"));
        assert!(needs_parse(b"{\"kind\": \"Service\"}"));
        assert!(!needs_parse(b"# just a comment\n"));
    }
}
